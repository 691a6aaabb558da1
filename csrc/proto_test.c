/*
 * Host test program for rulec_proto.c (driven by tests/test_protocol_c.py).
 *
 *   proto_test selftest      built-in unit tests; prints "selftest ok N" or FAIL lines
 *   proto_test serve         reads commands on stdin, one per line, answers on stdout
 *
 * Commands (numbers in decimal, byte strings in lowercase hex, "-" for empty; f64
 * values as the 16 hex digits of their bit pattern, so NaN payloads and -0.0 are exact):
 *   crc HEX                             -> 8 hex digits
 *   cobs_enc HEX | cobs_dec HEX         -> ok HEX | err CODE
 *   frame_enc TYPE SEQ TS PAYLOAD       -> ok HEX (delimiter included) | err CODE
 *   decode MAX_FRAME CHUNK STREAM       -> "frame TYPE SEQ TS PAYLOAD" per frame, then
 *                                          "stats FRAMES CRC LENGTH COBS VERSION TYPE
 *                                          OVERSIZE DISCARDED"; CHUNK 0 pushes byte by
 *                                          byte, CHUNK k feeds k bytes at a time
 *   tel_enc N CH BITS ...               -> ok HEX | err CODE
 *   tel_dec HEX                         -> ok N CH BITS ... | err CODE
 *   adv_enc EVENT SEV IDHEX N CH BITS ...  /  adv_dec HEX -> ok EVENT SEV IDHEX N CH BITS ...
 *   hb_enc UP OK DROPPED ADV            /  hb_dec HEX  -> ok UP OK DROPPED ADV
 *   bi_enc FMT DIGESTHEX IDHEX          /  bi_dec HEX  -> ok FMT DIGESTHEX IDHEX
 *   sf_enc CH REASON                    /  sf_dec HEX  -> ok CH REASON
 */
#include "rulec_proto.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE (1u << 24)
#define MAX_BYTES (MAX_LINE / 2)

static char line[MAX_LINE];
static uint8_t bytes_a[MAX_BYTES];
static uint8_t bytes_b[MAX_BYTES];
static int failures = 0;
static int checks = 0;

/* --- small helpers ------------------------------------------------------------------ */

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Parse hex (or "-" for empty) into out; returns the length or -1. */
static long parse_hex(const char *s, uint8_t *out, size_t cap)
{
    size_t n = 0;
    if (s == NULL)
        return -1;
    if (strcmp(s, "-") == 0)
        return 0;
    while (s[0] && s[1]) {
        int hi = hexval(s[0]), lo = hexval(s[1]);
        if (hi < 0 || lo < 0 || n >= cap)
            return -1;
        out[n++] = (uint8_t)(hi << 4 | lo);
        s += 2;
    }
    return s[0] ? -1 : (long)n;
}

static void print_hex(const uint8_t *p, size_t n)
{
    size_t i;
    if (n == 0) {
        fputs("-", stdout);
        return;
    }
    for (i = 0; i < n; i++)
        printf("%02x", p[i]);
}

static uint64_t f64_bits(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

static double bits_f64(uint64_t u)
{
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

static char *next_tok(void)
{
    return strtok(NULL, " \t\r\n");
}

static int tok_u64(uint64_t *v)
{
    char *t = next_tok(), *end;
    if (t == NULL)
        return 0;
    *v = strtoull(t, &end, 10);
    return *end == '\0';
}

static int tok_bits(double *v)
{
    char *t = next_tok(), *end;
    if (t == NULL)
        return 0;
    *v = bits_f64(strtoull(t, &end, 16));
    return *end == '\0';
}

static int parse_values(rulec_value *values, size_t cap, size_t *count)
{
    uint64_t n, ch;
    size_t i;
    if (!tok_u64(&n) || n > cap)
        return 0;
    for (i = 0; i < n; i++) {
        if (!tok_u64(&ch) || ch > 0xFFFF || !tok_bits(&values[i].value))
            return 0;
        values[i].channel = (uint16_t)ch;
    }
    *count = (size_t)n;
    return 1;
}

static void print_values(const rulec_value *values, size_t count)
{
    size_t i;
    printf(" %lu", (unsigned long)count);
    for (i = 0; i < count; i++)
        printf(" %u %016" PRIx64, (unsigned)values[i].channel, f64_bits(values[i].value));
}

/* --- built-in unit tests -------------------------------------------------------------- */

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        checks++;                                                                          \
        if (!(cond)) {                                                                     \
            failures++;                                                                    \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                         \
        }                                                                                  \
    } while (0)

/* Independent reference: bit-at-a-time CRC-32C. */
static uint32_t crc_ref(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xFFFFFFFFu;
    int k;
    while (n--) {
        crc ^= *p++;
        for (k = 0; k < 8; k++)
            crc = (crc & 1u) ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
    }
    return ~crc;
}

static uint32_t rng_state = 12345u;

static uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static void test_crc(void)
{
    static const char check[] = "123456789";
    uint8_t buf[300];
    size_t i, n;
    CHECK(rulec_crc32c(0, check, 9) == 0xE3069283u);
    CHECK(rulec_crc32c(0, NULL, 0) == 0);
    CHECK(rulec_crc32c(rulec_crc32c(0, check, 4), check + 4, 5) == 0xE3069283u);
    for (n = 0; n < sizeof buf; n += 7) {
        for (i = 0; i < n; i++)
            buf[i] = (uint8_t)rng();
        CHECK(rulec_crc32c(0, buf, n) == crc_ref(buf, n));
    }
}

static void test_cobs(void)
{
    static uint8_t src[1200], enc[1300], dec[1300];
    static const uint8_t one_zero[] = {0};
    static const uint8_t two_zero_enc[] = {1, 1, 1};
    size_t n, i, trial;
    int32_t e, d;
    /* known small encodings */
    e = rulec_cobs_encode(src, 0, enc, sizeof enc);
    CHECK(e == 1 && enc[0] == 1);
    e = rulec_cobs_encode(one_zero, 1, enc, sizeof enc);
    CHECK(e == 2 && enc[0] == 1 && enc[1] == 1);
    d = rulec_cobs_decode(two_zero_enc, 3, dec, sizeof dec);
    CHECK(d == 2 && dec[0] == 0 && dec[1] == 0);
    /* 254 nonzero bytes: one 255 block, no trailing empty block */
    memset(src, 0x11, 254);
    e = rulec_cobs_encode(src, 254, enc, sizeof enc);
    CHECK(e == 255 && enc[0] == 0xFF);
    /* the same with a non-canonical empty final block is refused */
    memcpy(dec, enc, 255);
    dec[255] = 1;
    CHECK(rulec_cobs_decode(dec, 256, bytes_a, sizeof bytes_a) == RULEC_E_COBS);
    /* 255 nonzero bytes: 255 block then a 2 block */
    memset(src, 0x22, 255);
    e = rulec_cobs_encode(src, 255, enc, sizeof enc);
    CHECK(e == 257 && enc[0] == 0xFF && enc[255] == 2);
    /* errors */
    CHECK(rulec_cobs_decode(enc, 0, dec, sizeof dec) == RULEC_E_COBS);
    enc[0] = 5;
    enc[1] = 1;
    enc[2] = 1;
    CHECK(rulec_cobs_decode(enc, 3, dec, sizeof dec) == RULEC_E_COBS); /* past the end */
    enc[1] = 0;
    CHECK(rulec_cobs_decode(enc, 5, dec, sizeof dec) == RULEC_E_COBS); /* zero inside */
    CHECK(rulec_cobs_encode(NULL, 3, enc, sizeof enc) == RULEC_E_ARG);
    CHECK(rulec_cobs_decode(enc, 3, NULL, 10) == RULEC_E_ARG);
    memset(src, 0x33, 10);
    CHECK(rulec_cobs_encode(src, 10, enc, 10) == RULEC_E_SPACE);
    CHECK(rulec_cobs_encode(src, 10, enc, 11) == 11);
    CHECK(rulec_cobs_decode(enc, 11, dec, 9) == RULEC_E_SPACE);
    CHECK(rulec_cobs_decode(enc, 11, dec, 10) == 10);
    /* random round trips, in place and not, worst-case size bound */
    for (trial = 0; trial < 3000; trial++) {
        n = rng() % 1100;
        for (i = 0; i < n; i++) {
            uint32_t r = rng();
            src[i] = (uint8_t)((trial & 1) ? (r % 4 == 0 ? 0 : r) : (r % 255) + 1);
        }
        e = rulec_cobs_encode(src, n, enc, sizeof enc);
        CHECK(e > 0 && (size_t)e <= RULEC_COBS_MAX(n) && memchr(enc, 0, (size_t)e) == NULL);
        d = rulec_cobs_decode(enc, (size_t)e, dec, sizeof dec);
        CHECK(d == (int32_t)n && memcmp(dec, src, n) == 0);
        d = rulec_cobs_decode(enc, (size_t)e, enc, (size_t)e);
        CHECK(d == (int32_t)n && memcmp(enc, src, n) == 0);
        CHECK(rulec_cobs_encode(src, n, enc, (size_t)e - 1) == RULEC_E_SPACE);
    }
}

static void test_frames(void)
{
    static uint8_t payload[RULEC_MAX_PAYLOAD + 1], wire[RULEC_MAX_WIRE_FRAME + 8];
    static uint8_t stream[8 * RULEC_MAX_WIRE_FRAME];
    rulec_frame f;
    rulec_decoder d;
    int32_t n, n2;
    size_t used, i, at;
    int got;
    for (i = 0; i < sizeof payload; i++)
        payload[i] = (uint8_t)rng();
    /* largest frame fits RULEC_MAX_WIRE_FRAME */
    n = rulec_frame_encode(RULEC_MSG_TELEMETRY, 7, 9, payload, RULEC_MAX_PAYLOAD, wire,
                           sizeof wire);
    CHECK(n > 0 && n <= RULEC_MAX_WIRE_FRAME && wire[n - 1] == 0);
    CHECK(rulec_frame_encode(RULEC_MSG_TELEMETRY, 7, 9, payload, RULEC_MAX_PAYLOAD + 1, wire,
                             sizeof wire) == RULEC_E_OVERSIZE);
    CHECK(rulec_frame_encode(0, 7, 9, payload, 4, wire, sizeof wire) == RULEC_E_ARG);
    CHECK(rulec_frame_encode(6, 7, 9, payload, 4, wire, sizeof wire) == RULEC_E_ARG);
    CHECK(rulec_frame_encode(1, 7, 9, NULL, 4, wire, sizeof wire) == RULEC_E_ARG);
    n = rulec_frame_encode(RULEC_MSG_HEARTBEAT, 0xFFFFFFFFu, UINT64_MAX, payload, 32, wire,
                           sizeof wire);
    CHECK(n > 0);
    CHECK(rulec_frame_encode(RULEC_MSG_HEARTBEAT, 0xFFFFFFFFu, UINT64_MAX, payload, 32, wire,
                             (size_t)n - 1) == RULEC_E_SPACE);
    /* decode it back, in place */
    memcpy(stream, wire, (size_t)n);
    CHECK(rulec_frame_decode(stream, (size_t)n - 1, RULEC_MAX_FRAME, &f) == RULEC_OK);
    CHECK(f.msg_type == RULEC_MSG_HEARTBEAT && f.seq == 0xFFFFFFFFu &&
          f.timestamp_us == UINT64_MAX && f.payload_len == 32 &&
          memcmp(f.payload, payload, 32) == 0);
    /* a smaller max_frame makes it oversize */
    memcpy(stream, wire, (size_t)n);
    CHECK(rulec_frame_decode(stream, (size_t)n - 1, 51, &f) == RULEC_E_OVERSIZE);
    memcpy(stream, wire, (size_t)n);
    CHECK(rulec_frame_decode(stream, (size_t)n - 1, 52, &f) == RULEC_OK);
    /* stream: three frames, garbage between, byte by byte and by chunks agree */
    at = 0;
    for (i = 0; i < 3; i++) {
        n2 = rulec_frame_encode(RULEC_MSG_SENSOR_FAULT, (uint32_t)i, i * 1000u, payload, 3,
                                stream + at, sizeof stream - at);
        CHECK(n2 > 0);
        at += (size_t)n2;
        stream[at++] = 0x55; /* a one-byte run: COBS error ("block runs past the end") */
        stream[at++] = 0;
    }
    CHECK(rulec_decoder_init(&d, 0) == RULEC_OK);
    got = 0;
    for (i = 0; i < at; i++)
        if (rulec_decoder_push(&d, stream[i], &f) == 1) {
            CHECK(f.seq == (uint32_t)got && f.payload_len == 3);
            got++;
        }
    CHECK(got == 3 && d.stats.frames == 3 && d.stats.cobs_errors == 3 &&
          d.stats.bytes_discarded == 3);
    CHECK(rulec_decoder_init(&d, RULEC_MAX_FRAME) == RULEC_OK);
    got = 0;
    for (i = 0; i < at;) {
        if (rulec_decoder_feed(&d, stream + i, at - i, &used, &f) == 1) {
            CHECK(f.seq == (uint32_t)got);
            got++;
        }
        CHECK(used > 0);
        i += used;
    }
    CHECK(got == 3 && d.stats.frames == 3 && d.stats.cobs_errors == 3);
    /* bounded: 100000 bytes without a delimiter */
    CHECK(rulec_decoder_init(&d, 0) == RULEC_OK);
    for (i = 0; i < 100000; i++)
        rulec_decoder_push(&d, 0x42, &f);
    CHECK(d.stats.oversize == 1 && d.stats.bytes_discarded == 100000 && d.skipping);
    CHECK(rulec_decoder_push(&d, 0, &f) == 0 && !d.skipping);
    for (i = 0; i < (size_t)n; i++)
        if (rulec_decoder_push(&d, wire[i], &f) == 1)
            CHECK(f.msg_type == RULEC_MSG_HEARTBEAT);
    CHECK(d.stats.frames == 1);
    /* reset counts the partial run */
    rulec_decoder_push(&d, 0x42, &f);
    rulec_decoder_push(&d, 0x42, &f);
    rulec_decoder_reset(&d);
    CHECK(d.len == 0 && d.stats.bytes_discarded == 100002);
    CHECK(rulec_decoder_init(&d, 19) == RULEC_E_ARG);
    CHECK(rulec_decoder_init(&d, RULEC_MAX_FRAME + 1) == RULEC_E_ARG);
    CHECK(rulec_decoder_init(NULL, 0) == RULEC_E_ARG);
}

static void test_payloads(void)
{
    rulec_value v[4] = {{1, 1.5}, {3, -0.0}, {7, 0.0}, {9, 2.0}}, out[RULEC_MAX_CHANNELS];
    static rulec_value many[RULEC_MAX_CHANNELS + 1];
    uint8_t p[RULEC_MAX_PAYLOAD + 64];
    rulec_advisory adv, adv2;
    rulec_heartbeat hb = {1, 2, 3, 4}, hb2;
    rulec_bundle_info bi, bi2;
    rulec_sensor_fault sf = {513, RULEC_FAULT_STALE}, sf2;
    static const char bad_utf8[] = "\xed\xa0\x80"; /* a surrogate */
    size_t count, i;
    int32_t n;
    n = rulec_telemetry_encode(v, 4, p, sizeof p);
    CHECK(n == 42);
    CHECK(rulec_telemetry_decode(p, 42, out, 4, &count) == RULEC_OK && count == 4);
    CHECK(f64_bits(out[1].value) == f64_bits(-0.0) && out[3].channel == 9);
    CHECK(rulec_telemetry_decode(p, 42, out, 3, &count) == RULEC_E_SPACE);
    CHECK(rulec_telemetry_decode(p, 41, out, 4, &count) == RULEC_E_PAYLOAD);
    CHECK(rulec_telemetry_encode(v, 4, p, 41) == RULEC_E_SPACE);
    v[2].channel = 3; /* duplicate channel */
    CHECK(rulec_telemetry_encode(v, 4, p, sizeof p) == RULEC_E_ARG);
    v[2].channel = 7;
    for (i = 0; i <= RULEC_MAX_CHANNELS; i++)
        many[i].channel = (uint16_t)i;
    CHECK(rulec_telemetry_encode(many, RULEC_MAX_CHANNELS, p, sizeof p) ==
          2 + 10 * RULEC_MAX_CHANNELS);
    CHECK(rulec_telemetry_encode(many, RULEC_MAX_CHANNELS + 1, p, sizeof p) == RULEC_E_ARG);

    adv.event = RULEC_EVENT_RAISE;
    adv.severity = RULEC_SEVERITY_CAUTION;
    adv.rule_id = "R-001";
    adv.rule_id_len = 5;
    adv.values = v;
    adv.count = 2;
    n = rulec_advisory_encode(&adv, p, sizeof p);
    CHECK(n == 4 + 5 + 2 + 20);
    CHECK(rulec_advisory_decode(p, (size_t)n, &adv2, out, 4) == RULEC_OK);
    CHECK(adv2.event == 1 && adv2.severity == 2 && adv2.rule_id_len == 5 &&
          memcmp(adv2.rule_id, "R-001", 5) == 0 && adv2.count == 2 && adv2.values == out);
    adv.rule_id = bad_utf8;
    adv.rule_id_len = 3;
    CHECK(rulec_advisory_encode(&adv, p, sizeof p) == RULEC_E_ARG);
    adv.rule_id_len = 0;
    CHECK(rulec_advisory_encode(&adv, p, sizeof p) == RULEC_E_ARG);
    adv.rule_id = "R";
    adv.rule_id_len = 1;
    adv.event = 3;
    CHECK(rulec_advisory_encode(&adv, p, sizeof p) == RULEC_E_ARG);

    CHECK(rulec_heartbeat_encode(&hb, p, sizeof p) == 32);
    CHECK(rulec_heartbeat_decode(p, 32, &hb2) == RULEC_OK && hb2.frames_dropped == 3);
    CHECK(rulec_heartbeat_decode(p, 31, &hb2) == RULEC_E_PAYLOAD);

    bi.format_version = 1;
    for (i = 0; i < 32; i++)
        bi.digest[i] = (uint8_t)i;
    bi.bundle_id = "ab12";
    bi.bundle_id_len = 4;
    n = rulec_bundle_info_encode(&bi, p, sizeof p);
    CHECK(n == 40);
    CHECK(rulec_bundle_info_decode(p, 40, &bi2) == RULEC_OK && bi2.digest[31] == 31 &&
          bi2.bundle_id_len == 4);
    CHECK(rulec_bundle_info_decode(p, 39, &bi2) == RULEC_E_PAYLOAD);

    CHECK(rulec_sensor_fault_encode(&sf, p, sizeof p) == 3);
    CHECK(rulec_sensor_fault_decode(p, 3, &sf2) == RULEC_OK && sf2.channel == 513 &&
          sf2.reason == RULEC_FAULT_STALE);
    p[2] = 8;
    CHECK(rulec_sensor_fault_decode(p, 3, &sf2) == RULEC_E_PAYLOAD);
    sf.reason = 0;
    CHECK(rulec_sensor_fault_encode(&sf, p, sizeof p) == RULEC_E_ARG);

    CHECK(rulec_utf8_valid((const uint8_t *)"caf\xc3\xa9", 5));
    CHECK(!rulec_utf8_valid((const uint8_t *)"\xc0\xaf", 2));         /* overlong */
    CHECK(!rulec_utf8_valid((const uint8_t *)"\xf4\x90\x80\x80", 4)); /* > U+10FFFF */
    CHECK(!rulec_utf8_valid((const uint8_t *)"\xe2\x82", 2));         /* truncated */
    CHECK(rulec_utf8_valid((const uint8_t *)"\xf0\x9f\x9a\x80", 4));  /* U+1F680 */
}

/* Every argument check and refusal, operand by operand, so that `make coverage` reaches
 * each branch of rulec_proto.c (the round trips above only take the good paths). */
static void test_edges(void)
{
    static uint8_t big[RULEC_MAX_PAYLOAD + 128], out[RULEC_MAX_WIRE_FRAME];
    static const uint8_t split[] = {2, 0x11, 2, 0x22}; /* 11 00 22 */
    static const uint8_t zero_code[] = {0};
    const size_t huge = (size_t)0x7FFF0001u;
    rulec_value v[2] = {{4, 1.0}, {4, 2.0}}, got[RULEC_MAX_CHANNELS + 1];
    rulec_advisory adv;
    rulec_heartbeat hb = {1, 2, 3, 4};
    rulec_bundle_info bi;
    rulec_sensor_fault sf = {1, RULEC_FAULT_NAN};
    rulec_frame f;
    rulec_decoder d;
    size_t count = 0, used = 99;

    /* COBS */
    CHECK(rulec_cobs_encode(NULL, 0, out, sizeof out) == 1 && out[0] == 1);
    CHECK(rulec_cobs_encode(big, 4, NULL, 10) == RULEC_E_ARG);
    CHECK(rulec_cobs_encode(big, huge, out, sizeof out) == RULEC_E_ARG);
    CHECK(rulec_cobs_decode(NULL, 3, out, sizeof out) == RULEC_E_ARG);
    CHECK(rulec_cobs_decode(split, huge, out, sizeof out) == RULEC_E_ARG);
    CHECK(rulec_cobs_decode(zero_code, 1, out, sizeof out) == RULEC_E_COBS);
    CHECK(rulec_cobs_decode(split, 4, out, 1) == RULEC_E_SPACE); /* no room for the 00 */
    CHECK(rulec_cobs_decode(split, 4, out, 3) == 3 && out[1] == 0 && out[2] == 0x22);

    /* frames */
    CHECK(rulec_frame_encode(1, 0, 0, big, 2, NULL, sizeof out) == RULEC_E_ARG);
    CHECK(rulec_frame_encode(RULEC_MSG_HEARTBEAT, 0, 0, NULL, 0, out, sizeof out) > 0);
    CHECK(rulec_frame_encode(RULEC_MSG_HEARTBEAT, 0, 0, big, 32, out, 10) == RULEC_E_SPACE);
    CHECK(rulec_frame_decode(NULL, 5, RULEC_MAX_FRAME, &f) == RULEC_E_ARG);
    CHECK(rulec_frame_decode(out, 5, RULEC_MAX_FRAME, NULL) == RULEC_E_ARG);
    CHECK(rulec_frame_decode(out, 5, RULEC_MIN_FRAME - 1, &f) == RULEC_E_ARG);
    CHECK(rulec_frame_decode(out, 5, RULEC_MAX_FRAME + 1, &f) == RULEC_E_ARG);
    CHECK(rulec_frame_decode(out, huge, RULEC_MAX_FRAME, &f) == RULEC_E_ARG);

    /* streaming decoder */
    rulec_decoder_reset(NULL); /* must not crash */
    CHECK(rulec_decoder_init(&d, 0) == RULEC_OK);
    CHECK(rulec_decoder_push(NULL, 1, &f) == RULEC_E_ARG);
    CHECK(rulec_decoder_push(&d, 1, NULL) == RULEC_E_ARG);
    CHECK(rulec_decoder_feed(NULL, big, 1, &used, &f) == RULEC_E_ARG);
    CHECK(rulec_decoder_feed(&d, big, 1, &used, NULL) == RULEC_E_ARG);
    CHECK(rulec_decoder_feed(&d, big, 1, NULL, &f) == RULEC_E_ARG);
    CHECK(rulec_decoder_feed(&d, NULL, 1, &used, &f) == RULEC_E_ARG);
    CHECK(rulec_decoder_feed(&d, NULL, 0, &used, &f) == 0 && used == 0);

    /* UTF-8 */
    CHECK(rulec_utf8_valid(NULL, 0) && !rulec_utf8_valid(NULL, 1));
    CHECK(rulec_utf8_valid((const uint8_t *)"\xe0\xa0\x80", 3));     /* U+0800 */
    CHECK(!rulec_utf8_valid((const uint8_t *)"\xe0\x9f\xbf", 3));    /* overlong */
    CHECK(rulec_utf8_valid((const uint8_t *)"\xf1\x80\x80\x80", 4)); /* U+40000 */
    CHECK(rulec_utf8_valid((const uint8_t *)"\xf4\x8f\xbf\xbf", 4)); /* U+10FFFF */
    CHECK(!rulec_utf8_valid((const uint8_t *)"\xf5\x80\x80\x80", 4));
    CHECK(!rulec_utf8_valid((const uint8_t *)"\xe2\x82\x41", 3)); /* third byte < 0x80 */
    CHECK(!rulec_utf8_valid((const uint8_t *)"\xe2\x82\xc0", 3)); /* third byte > 0xBF */

    /* TELEMETRY */
    CHECK(rulec_telemetry_encode(v, 1, NULL, 64) == RULEC_E_ARG);
    CHECK(rulec_telemetry_encode(NULL, 1, out, 64) == RULEC_E_ARG);
    CHECK(rulec_telemetry_encode(NULL, 0, out, 64) == 2);
    CHECK(rulec_telemetry_decode(out, 2, NULL, 0, &count) == RULEC_OK && count == 0);
    CHECK(rulec_telemetry_decode(NULL, 2, got, 4, &count) == RULEC_E_ARG);
    CHECK(rulec_telemetry_decode(NULL, 0, got, 4, &count) == RULEC_E_PAYLOAD);
    CHECK(rulec_telemetry_decode(out, 2, got, 4, NULL) == RULEC_E_ARG);
    CHECK(rulec_telemetry_decode(out, 2, NULL, 4, &count) == RULEC_E_ARG);
    memset(big, 0, sizeof big);
    CHECK(rulec_telemetry_decode(big, RULEC_MAX_PAYLOAD + 1, got, 4, &count) ==
          RULEC_E_PAYLOAD);
    big[0] = 2; /* two values, both on channel 4: not ascending */
    big[2] = 4;
    big[12] = 4;
    CHECK(rulec_telemetry_decode(big, 22, got, 4, &count) == RULEC_E_PAYLOAD);

    /* ADVISORY encode */
    adv.event = RULEC_EVENT_CLEAR;
    adv.severity = RULEC_SEVERITY_ADVISORY;
    adv.rule_id = "R";
    adv.rule_id_len = 1;
    adv.values = NULL;
    adv.count = 0;
    CHECK(rulec_advisory_encode(&adv, out, sizeof out) == 7);
    CHECK(rulec_advisory_encode(NULL, out, sizeof out) == RULEC_E_ARG);
    CHECK(rulec_advisory_encode(&adv, NULL, sizeof out) == RULEC_E_ARG);
    CHECK(rulec_advisory_encode(&adv, out, 6) == RULEC_E_SPACE);
    adv.count = 1;
    CHECK(rulec_advisory_encode(&adv, out, sizeof out) == RULEC_E_ARG); /* values NULL */
    adv.values = v;
    adv.count = 2;
    CHECK(rulec_advisory_encode(&adv, out, sizeof out) == RULEC_E_ARG); /* not ascending */
    adv.count = RULEC_MAX_CHANNELS + 1;
    CHECK(rulec_advisory_encode(&adv, out, sizeof out) == RULEC_E_ARG);
    adv.count = 1;
    adv.rule_id = NULL;
    CHECK(rulec_advisory_encode(&adv, out, sizeof out) == RULEC_E_ARG);
    adv.rule_id = "R";
    adv.event = 0;
    CHECK(rulec_advisory_encode(&adv, out, sizeof out) == RULEC_E_ARG);
    adv.event = RULEC_EVENT_RAISE;
    adv.severity = 0;
    CHECK(rulec_advisory_encode(&adv, out, sizeof out) == RULEC_E_ARG);
    adv.severity = RULEC_SEVERITY_ADVISORY + 1;
    CHECK(rulec_advisory_encode(&adv, out, sizeof out) == RULEC_E_ARG);
    adv.severity = RULEC_SEVERITY_WARNING;
    memset(big, 'a', sizeof big);
    adv.rule_id = (const char *)big;
    adv.rule_id_len = RULEC_MAX_PAYLOAD + 1; /* the id alone is too long */
    CHECK(rulec_advisory_encode(&adv, out, sizeof out) == RULEC_E_OVERSIZE);

    /* ADVISORY decode */
    memset(big, 0, sizeof big);
    CHECK(rulec_advisory_decode(NULL, 4, &adv, got, 4) == RULEC_E_ARG);
    CHECK(rulec_advisory_decode(NULL, 0, &adv, got, 4) == RULEC_E_PAYLOAD);
    CHECK(rulec_advisory_decode(big, 4, NULL, got, 4) == RULEC_E_ARG);
    CHECK(rulec_advisory_decode(big, 4, &adv, NULL, 4) == RULEC_E_ARG);
    CHECK(rulec_advisory_decode(big, RULEC_MAX_PAYLOAD + 1, &adv, got, 4) == RULEC_E_PAYLOAD);
    CHECK(rulec_advisory_decode(big, 7, &adv, got, 4) == RULEC_E_PAYLOAD); /* event 0 */
    big[0] = RULEC_EVENT_CLEAR + 1;
    big[1] = RULEC_SEVERITY_WARNING;
    CHECK(rulec_advisory_decode(big, 7, &adv, got, 4) == RULEC_E_PAYLOAD);
    big[0] = RULEC_EVENT_RAISE;
    big[1] = 0;
    CHECK(rulec_advisory_decode(big, 7, &adv, got, 4) == RULEC_E_PAYLOAD);
    big[1] = RULEC_SEVERITY_ADVISORY + 1;
    CHECK(rulec_advisory_decode(big, 7, &adv, got, 4) == RULEC_E_PAYLOAD);
    big[1] = RULEC_SEVERITY_ADVISORY;
    CHECK(rulec_advisory_decode(big, 7, &adv, got, 4) == RULEC_E_PAYLOAD); /* id_len 0 */
    big[2] = 5; /* id longer than the payload */
    CHECK(rulec_advisory_decode(big, 7, &adv, got, 4) == RULEC_E_PAYLOAD);
    big[2] = 1;
    big[4] = 0xFF; /* not UTF-8 */
    CHECK(rulec_advisory_decode(big, 7, &adv, got, 4) == RULEC_E_PAYLOAD);
    big[4] = 'R';
    CHECK(rulec_advisory_decode(big, 7, &adv, NULL, 0) == RULEC_OK && adv.count == 0);
    CHECK(rulec_advisory_decode(big, 6, &adv, got, 4) == RULEC_E_PAYLOAD); /* no count */

    /* HEARTBEAT */
    CHECK(rulec_heartbeat_encode(NULL, out, sizeof out) == RULEC_E_ARG);
    CHECK(rulec_heartbeat_encode(&hb, NULL, sizeof out) == RULEC_E_ARG);
    CHECK(rulec_heartbeat_encode(&hb, out, 31) == RULEC_E_SPACE);
    CHECK(rulec_heartbeat_decode(NULL, 32, &hb) == RULEC_E_ARG);
    CHECK(rulec_heartbeat_decode(NULL, 0, &hb) == RULEC_E_PAYLOAD);
    CHECK(rulec_heartbeat_decode(out, 32, NULL) == RULEC_E_ARG);

    /* BUNDLE_INFO */
    memset(&bi, 0, sizeof bi);
    bi.bundle_id = "b";
    bi.bundle_id_len = 1;
    CHECK(rulec_bundle_info_encode(NULL, out, sizeof out) == RULEC_E_ARG);
    CHECK(rulec_bundle_info_encode(&bi, NULL, sizeof out) == RULEC_E_ARG);
    CHECK(rulec_bundle_info_encode(&bi, out, 36) == RULEC_E_SPACE);
    bi.bundle_id = NULL;
    CHECK(rulec_bundle_info_encode(&bi, out, sizeof out) == RULEC_E_ARG);
    bi.bundle_id = "\xff";
    CHECK(rulec_bundle_info_encode(&bi, out, sizeof out) == RULEC_E_ARG);
    memset(big, 0, sizeof big);
    CHECK(rulec_bundle_info_decode(NULL, 40, &bi) == RULEC_E_ARG);
    CHECK(rulec_bundle_info_decode(NULL, 0, &bi) == RULEC_E_PAYLOAD);
    CHECK(rulec_bundle_info_decode(big, 40, NULL) == RULEC_E_ARG);
    CHECK(rulec_bundle_info_decode(big, RULEC_MAX_PAYLOAD + 1, &bi) == RULEC_E_PAYLOAD);
    CHECK(rulec_bundle_info_decode(big, 36, &bi) == RULEC_E_PAYLOAD); /* id_len 0 */
    big[34] = 1;
    big[36] = 0xFF;
    CHECK(rulec_bundle_info_decode(big, 37, &bi) == RULEC_E_PAYLOAD); /* not UTF-8 */

    /* SENSOR_FAULT */
    CHECK(rulec_sensor_fault_encode(NULL, out, sizeof out) == RULEC_E_ARG);
    CHECK(rulec_sensor_fault_encode(&sf, NULL, sizeof out) == RULEC_E_ARG);
    CHECK(rulec_sensor_fault_encode(&sf, out, 2) == RULEC_E_SPACE);
    sf.reason = RULEC_FAULT_NOT_A_STATE + 1;
    CHECK(rulec_sensor_fault_encode(&sf, out, sizeof out) == RULEC_E_ARG);
    CHECK(rulec_sensor_fault_decode(NULL, 3, &sf) == RULEC_E_ARG);
    CHECK(rulec_sensor_fault_decode(NULL, 0, &sf) == RULEC_E_PAYLOAD);
    CHECK(rulec_sensor_fault_decode(out, 3, NULL) == RULEC_E_ARG);
    out[2] = 0;
    CHECK(rulec_sensor_fault_decode(out, 3, &sf) == RULEC_E_PAYLOAD);
}

static int selftest(void)
{
    test_crc();
    test_cobs();
    test_frames();
    test_payloads();
    test_edges();
    if (failures == 0)
        printf("selftest ok %d\n", checks);
    return failures == 0 ? 0 : 1;
}

/* --- command server ------------------------------------------------------------------- */

static void cmd_decode(void)
{
    uint64_t max_frame, chunk;
    long n;
    size_t i, used, step;
    rulec_decoder d;
    rulec_frame f;
    const rulec_decoder_stats *s = &d.stats;
    if (!tok_u64(&max_frame) || !tok_u64(&chunk) ||
        (n = parse_hex(next_tok(), bytes_a, sizeof bytes_a)) < 0 ||
        rulec_decoder_init(&d, (size_t)max_frame) != RULEC_OK) {
        puts("err usage");
        return;
    }
    if (chunk == 0) {
        for (i = 0; i < (size_t)n; i++)
            if (rulec_decoder_push(&d, bytes_a[i], &f) == 1) {
                printf("frame %u %" PRIu32 " %" PRIu64 " ", (unsigned)f.msg_type, f.seq,
                       f.timestamp_us);
                print_hex(f.payload, f.payload_len);
                putchar('\n');
            }
    } else {
        for (i = 0; i < (size_t)n; i += step) {
            step = (size_t)n - i < chunk ? (size_t)n - i : (size_t)chunk;
            while (step > 0 && rulec_decoder_feed(&d, bytes_a + i, step, &used, &f) == 1) {
                printf("frame %u %" PRIu32 " %" PRIu64 " ", (unsigned)f.msg_type, f.seq,
                       f.timestamp_us);
                print_hex(f.payload, f.payload_len);
                putchar('\n');
                i += used;
                step -= used;
            }
        }
    }
    printf("stats %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32
           " %" PRIu32 " %" PRIu32 "\n",
           s->frames, s->crc_errors, s->length_errors, s->cobs_errors, s->version_errors,
           s->type_errors, s->oversize, s->bytes_discarded);
}

static void answer(int32_t r, const uint8_t *out)
{
    if (r < 0) {
        printf("err %d\n", (int)r);
        return;
    }
    fputs("ok ", stdout);
    print_hex(out, (size_t)r);
    putchar('\n');
}

static void serve_line(char *cmd)
{
    static rulec_value values[RULEC_MAX_CHANNELS + 8];
    uint64_t a, b, c, e;
    long n;
    size_t count;
    int32_t r;
    if (strcmp(cmd, "crc") == 0) {
        n = parse_hex(next_tok(), bytes_a, sizeof bytes_a);
        if (n < 0)
            puts("err usage");
        else
            printf("%08" PRIx32 "\n", rulec_crc32c(0, bytes_a, (size_t)n));
    } else if (strcmp(cmd, "cobs_enc") == 0 || strcmp(cmd, "cobs_dec") == 0) {
        n = parse_hex(next_tok(), bytes_a, sizeof bytes_a / 2);
        if (n < 0) {
            puts("err usage");
            return;
        }
        r = cmd[5] == 'e' ? rulec_cobs_encode(bytes_a, (size_t)n, bytes_b, sizeof bytes_b)
                          : rulec_cobs_decode(bytes_a, (size_t)n, bytes_b, sizeof bytes_b);
        answer(r, bytes_b);
    } else if (strcmp(cmd, "frame_enc") == 0) {
        if (!tok_u64(&a) || !tok_u64(&b) || !tok_u64(&c) ||
            (n = parse_hex(next_tok(), bytes_a, sizeof bytes_a)) < 0 || a > 255 ||
            b > 0xFFFFFFFFu) {
            puts("err usage");
            return;
        }
        r = rulec_frame_encode((uint8_t)a, (uint32_t)b, c, bytes_a, (size_t)n, bytes_b,
                               sizeof bytes_b);
        answer(r, bytes_b);
    } else if (strcmp(cmd, "decode") == 0) {
        cmd_decode();
    } else if (strcmp(cmd, "tel_enc") == 0) {
        if (!parse_values(values, RULEC_MAX_CHANNELS + 8, &count)) {
            puts("err usage");
            return;
        }
        answer(rulec_telemetry_encode(values, count, bytes_b, RULEC_MAX_PAYLOAD), bytes_b);
    } else if (strcmp(cmd, "tel_dec") == 0) {
        n = parse_hex(next_tok(), bytes_a, sizeof bytes_a);
        r = n < 0 ? RULEC_E_ARG
                  : rulec_telemetry_decode(bytes_a, (size_t)n, values, RULEC_MAX_CHANNELS,
                                           &count);
        if (r < 0) {
            printf("err %d\n", (int)r);
            return;
        }
        fputs("ok", stdout);
        print_values(values, count);
        putchar('\n');
    } else if (strcmp(cmd, "adv_enc") == 0) {
        rulec_advisory adv;
        if (!tok_u64(&a) || !tok_u64(&b) || a > 255 || b > 255 ||
            (n = parse_hex(next_tok(), bytes_a, sizeof bytes_a)) < 0 ||
            !parse_values(values, RULEC_MAX_CHANNELS + 8, &count)) {
            puts("err usage");
            return;
        }
        adv.event = (uint8_t)a;
        adv.severity = (uint8_t)b;
        adv.rule_id = (const char *)bytes_a;
        adv.rule_id_len = (size_t)n;
        adv.values = values;
        adv.count = count;
        answer(rulec_advisory_encode(&adv, bytes_b, RULEC_MAX_PAYLOAD), bytes_b);
    } else if (strcmp(cmd, "adv_dec") == 0) {
        rulec_advisory adv;
        n = parse_hex(next_tok(), bytes_a, sizeof bytes_a);
        r = n < 0 ? RULEC_E_ARG
                  : rulec_advisory_decode(bytes_a, (size_t)n, &adv, values, RULEC_MAX_CHANNELS);
        if (r < 0) {
            printf("err %d\n", (int)r);
            return;
        }
        printf("ok %u %u ", (unsigned)adv.event, (unsigned)adv.severity);
        print_hex((const uint8_t *)adv.rule_id, adv.rule_id_len);
        print_values(adv.values, adv.count);
        putchar('\n');
    } else if (strcmp(cmd, "hb_enc") == 0) {
        rulec_heartbeat hb;
        if (!tok_u64(&a) || !tok_u64(&b) || !tok_u64(&c) || !tok_u64(&e)) {
            puts("err usage");
            return;
        }
        hb.uptime_ms = a;
        hb.frames_ok = b;
        hb.frames_dropped = c;
        hb.advisories = e;
        answer(rulec_heartbeat_encode(&hb, bytes_b, RULEC_MAX_PAYLOAD), bytes_b);
    } else if (strcmp(cmd, "hb_dec") == 0) {
        rulec_heartbeat hb;
        n = parse_hex(next_tok(), bytes_a, sizeof bytes_a);
        r = n < 0 ? RULEC_E_ARG : rulec_heartbeat_decode(bytes_a, (size_t)n, &hb);
        if (r < 0)
            printf("err %d\n", (int)r);
        else
            printf("ok %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", hb.uptime_ms,
                   hb.frames_ok, hb.frames_dropped, hb.advisories);
    } else if (strcmp(cmd, "bi_enc") == 0) {
        rulec_bundle_info bi;
        if (!tok_u64(&a) || a > 0xFFFF || parse_hex(next_tok(), bi.digest, 32) != 32 ||
            (n = parse_hex(next_tok(), bytes_a, sizeof bytes_a)) < 0) {
            puts("err usage");
            return;
        }
        bi.format_version = (uint16_t)a;
        bi.bundle_id = (const char *)bytes_a;
        bi.bundle_id_len = (size_t)n;
        answer(rulec_bundle_info_encode(&bi, bytes_b, RULEC_MAX_PAYLOAD), bytes_b);
    } else if (strcmp(cmd, "bi_dec") == 0) {
        rulec_bundle_info bi;
        n = parse_hex(next_tok(), bytes_a, sizeof bytes_a);
        r = n < 0 ? RULEC_E_ARG : rulec_bundle_info_decode(bytes_a, (size_t)n, &bi);
        if (r < 0) {
            printf("err %d\n", (int)r);
            return;
        }
        printf("ok %u ", (unsigned)bi.format_version);
        print_hex(bi.digest, 32);
        putchar(' ');
        print_hex((const uint8_t *)bi.bundle_id, bi.bundle_id_len);
        putchar('\n');
    } else if (strcmp(cmd, "sf_enc") == 0) {
        rulec_sensor_fault sf;
        if (!tok_u64(&a) || !tok_u64(&b) || a > 0xFFFF || b > 255) {
            puts("err usage");
            return;
        }
        sf.channel = (uint16_t)a;
        sf.reason = (uint8_t)b;
        answer(rulec_sensor_fault_encode(&sf, bytes_b, RULEC_MAX_PAYLOAD), bytes_b);
    } else if (strcmp(cmd, "sf_dec") == 0) {
        rulec_sensor_fault sf;
        n = parse_hex(next_tok(), bytes_a, sizeof bytes_a);
        r = n < 0 ? RULEC_E_ARG : rulec_sensor_fault_decode(bytes_a, (size_t)n, &sf);
        if (r < 0)
            printf("err %d\n", (int)r);
        else
            printf("ok %u %u\n", (unsigned)sf.channel, (unsigned)sf.reason);
    } else {
        printf("err unknown command %s\n", cmd);
    }
}

static int serve(void)
{
    while (fgets(line, sizeof line, stdin) != NULL) {
        char *cmd;
        if (strchr(line, '\n') == NULL && !feof(stdin)) {
            puts("err line too long");
            return 2;
        }
        cmd = strtok(line, " \t\r\n");
        if (cmd != NULL)
            serve_line(cmd);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "selftest") == 0)
        return selftest();
    if (argc == 2 && strcmp(argv[1], "serve") == 0)
        return serve();
    fputs("usage: proto_test selftest | proto_test serve < commands\n", stderr);
    return 2;
}
