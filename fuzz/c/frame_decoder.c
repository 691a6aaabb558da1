/*
 * libFuzzer target for the C wire codec (csrc/rulec_proto.c).
 *
 * Build (see fuzz/run.py, which `make fuzz` calls):
 *   clang -std=c99 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
 *         -I csrc fuzz/c/frame_decoder.c csrc/rulec_proto.c -o build/fuzz/frame_decoder_c
 *
 * Input: its last byte picks the mode (see stream_of).  Raw: the input is a byte
 * stream, decoded with max_frame 1044 (last byte 0 or >= 0x40) or smaller (1..0x3F).
 * Framed (last byte >= 0xC0): the input is a list of [u16 length][frame body] and
 * the harness adds each body's CRC-32C, COBS and delimiter, so mutations of headers
 * and payloads get past the CRC without the fuzzer having to solve it.  The stream
 * then goes through the same checks.
 * Oracles, each a hard abort when broken:
 *   - the streaming decoder gives the same frames and counters whether the stream is
 *     fed in one call, byte by byte, or split at the delimiters and decoded run by run;
 *   - a decoded frame re-encodes to exactly the run it came from (canonical COBS);
 *   - a payload that decodes re-encodes to the same payload bytes;
 *   - a COBS decode that succeeds re-encodes to its input, and encode-then-decode
 *     returns the input;
 *   - ASan and UBSan: no out-of-bounds access, no undefined behaviour.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulec_proto.h"

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "oracle failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
            abort();                                                                 \
        }                                                                            \
    } while (0)

#define MAX_FRAMES 4096

typedef struct {
    uint8_t msg_type;
    uint32_t seq;
    uint64_t timestamp_us;
    uint16_t payload_len;
    uint8_t payload[RULEC_MAX_PAYLOAD];
} frame_copy;

static frame_copy frames_a[MAX_FRAMES], frames_b[MAX_FRAMES], frames_c[MAX_FRAMES];

static void keep(frame_copy *dst, const rulec_frame *f)
{
    dst->msg_type = f->msg_type;
    dst->seq = f->seq;
    dst->timestamp_us = f->timestamp_us;
    dst->payload_len = f->payload_len;
    memcpy(dst->payload, f->payload, f->payload_len);
}

static int same_frame(const frame_copy *a, const frame_copy *b)
{
    return a->msg_type == b->msg_type && a->seq == b->seq &&
           a->timestamp_us == b->timestamp_us && a->payload_len == b->payload_len &&
           memcmp(a->payload, b->payload, a->payload_len) == 0;
}

static int same_stats(const rulec_decoder_stats *a, const rulec_decoder_stats *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* A payload that decodes must re-encode to the same bytes. */
static void check_payload(uint8_t msg_type, const uint8_t *payload, size_t len)
{
    static rulec_value values[RULEC_MAX_CHANNELS];
    uint8_t out[RULEC_MAX_PAYLOAD];
    size_t count = 0;
    int32_t r, n;
    switch (msg_type) {
    case RULEC_MSG_TELEMETRY:
        r = rulec_telemetry_decode(payload, len, values, RULEC_MAX_CHANNELS, &count);
        if (r == RULEC_OK) {
            n = rulec_telemetry_encode(values, count, out, sizeof out);
            CHECK(n >= 0 && (size_t)n == len && memcmp(out, payload, len) == 0);
        } else {
            CHECK(r == RULEC_E_PAYLOAD);
        }
        break;
    case RULEC_MSG_ADVISORY: {
        rulec_advisory adv;
        r = rulec_advisory_decode(payload, len, &adv, values, RULEC_MAX_CHANNELS);
        if (r == RULEC_OK) {
            n = rulec_advisory_encode(&adv, out, sizeof out);
            CHECK(n >= 0 && (size_t)n == len && memcmp(out, payload, len) == 0);
        } else {
            CHECK(r == RULEC_E_PAYLOAD);
        }
        break;
    }
    case RULEC_MSG_HEARTBEAT: {
        rulec_heartbeat hb;
        r = rulec_heartbeat_decode(payload, len, &hb);
        if (r == RULEC_OK) {
            n = rulec_heartbeat_encode(&hb, out, sizeof out);
            CHECK(n == 32 && len == 32 && memcmp(out, payload, len) == 0);
        } else {
            CHECK(r == RULEC_E_PAYLOAD);
        }
        break;
    }
    case RULEC_MSG_BUNDLE_INFO: {
        rulec_bundle_info info;
        r = rulec_bundle_info_decode(payload, len, &info);
        if (r == RULEC_OK) {
            n = rulec_bundle_info_encode(&info, out, sizeof out);
            CHECK(n >= 0 && (size_t)n == len && memcmp(out, payload, len) == 0);
        } else {
            CHECK(r == RULEC_E_PAYLOAD);
        }
        break;
    }
    case RULEC_MSG_SENSOR_FAULT: {
        rulec_sensor_fault fault;
        r = rulec_sensor_fault_decode(payload, len, &fault);
        if (r == RULEC_OK) {
            n = rulec_sensor_fault_encode(&fault, out, sizeof out);
            CHECK(n == 3 && len == 3 && memcmp(out, payload, len) == 0);
        } else {
            CHECK(r == RULEC_E_PAYLOAD);
        }
        break;
    }
    default:
        CHECK(0); /* the frame decoder lets only known types through */
    }
}

/* Decode the stream run by run, as the documented order of checks says, and count. */
static size_t by_runs(const uint8_t *data, size_t size, size_t max_frame,
                      rulec_decoder_stats *st, uint16_t *pending)
{
    static uint8_t run[1 << 16], wire[RULEC_MAX_WIRE_FRAME];
    size_t max_encoded = RULEC_COBS_MAX(max_frame), start = 0, nframes = 0;
    memset(st, 0, sizeof *st);
    *pending = 0;
    while (start < size) {
        const uint8_t *z = memchr(data + start, 0, size - start);
        size_t end = z ? (size_t)(z - data) : size, len = end - start;
        if (z == NULL) { /* an unfinished run: held, or dropped once as oversize */
            if (len > max_encoded) {
                st->oversize++;
                st->bytes_discarded += (uint32_t)len;
            } else {
                *pending = (uint16_t)len;
            }
            break;
        }
        if (len > max_encoded) {
            st->oversize++;
            st->bytes_discarded += (uint32_t)len;
        } else if (len > 0) {
            rulec_frame f;
            int32_t r;
            memcpy(run, data + start, len);
            r = rulec_frame_decode(run, len, max_frame, &f);
            switch (r) {
            case RULEC_OK: {
                int32_t n = rulec_frame_encode(f.msg_type, f.seq, f.timestamp_us, f.payload,
                                               f.payload_len, wire, sizeof wire);
                CHECK(n >= 0 && (size_t)n == len + 1);
                CHECK(memcmp(wire, data + start, len + 1) == 0);
                check_payload(f.msg_type, f.payload, f.payload_len);
                CHECK(nframes < MAX_FRAMES);
                keep(&frames_c[nframes++], &f);
                st->frames++;
                break;
            }
            case RULEC_E_OVERSIZE: st->oversize++; break;
            case RULEC_E_LENGTH: st->length_errors++; break;
            case RULEC_E_CRC: st->crc_errors++; break;
            case RULEC_E_VERSION: st->version_errors++; break;
            case RULEC_E_TYPE: st->type_errors++; break;
            case RULEC_E_COBS: st->cobs_errors++; break;
            default: CHECK(0);
            }
            if (r != RULEC_OK)
                st->bytes_discarded += (uint32_t)len;
        }
        start = end + 1;
    }
    return nframes;
}

static void check_cobs(const uint8_t *data, size_t size)
{
    static uint8_t dec[1 << 16], enc[(1 << 16) + (1 << 16) / 254 + 2];
    int32_t n, m;
    if (size >= (1 << 16))
        return;
    n = rulec_cobs_decode(data, size, dec, sizeof dec);
    if (n >= 0) {
        m = rulec_cobs_encode(dec, (size_t)n, enc, sizeof enc);
        CHECK(m >= 0 && (size_t)m == size && memcmp(enc, data, size) == 0);
    } else {
        CHECK(n == RULEC_E_COBS);
    }
    n = rulec_cobs_encode(data, size, enc, sizeof enc);
    CHECK(n > 0 && (size_t)n <= RULEC_COBS_MAX(size));
    CHECK(memchr(enc, 0, (size_t)n) == NULL);
    m = rulec_cobs_decode(enc, (size_t)n, dec, sizeof dec);
    CHECK(m >= 0 && (size_t)m == size && memcmp(dec, data, size) == 0);
}

#define MAX_STREAM 16384

/* The stream an input stands for, and the decoder's max_frame (the module comment). */
static const uint8_t *stream_of(const uint8_t *data, size_t *size, size_t *max_frame)
{
    static uint8_t stream[MAX_STREAM], body[RULEC_MAX_FRAME + 64];
    size_t n = *size, i = 0, out = 0;
    uint8_t last = n ? data[n - 1] : 0;
    *max_frame = RULEC_MAX_FRAME;
    if (last >= 1 && last < 0x40)
        *max_frame = RULEC_MIN_FRAME + (size_t)last * 16;
    if (last < 0xC0)
        return data;
    n--; /* framed: the mode byte is not part of the bodies */
    while (i < n) {
        size_t len = data[i++];
        uint32_t crc;
        int32_t r;
        if (i < n)
            len |= (size_t)data[i++] << 8;
        len %= RULEC_MAX_FRAME; /* up to 1040 body bytes: every payload, and some oversize */
        if (len > n - i)
            len = n - i;
        memcpy(body, data + i, len);
        i += len;
        crc = rulec_crc32c(0, body, len);
        body[len] = (uint8_t)crc;
        body[len + 1] = (uint8_t)(crc >> 8);
        body[len + 2] = (uint8_t)(crc >> 16);
        body[len + 3] = (uint8_t)(crc >> 24);
        if (out + RULEC_COBS_MAX(len + 4) + 1 > sizeof stream)
            break;
        r = rulec_cobs_encode(body, len + 4, stream + out, sizeof stream - out);
        CHECK(r > 0);
        out += (size_t)r;
        stream[out++] = 0;
    }
    *size = out;
    return stream;
}

int LLVMFuzzerTestOneInput(const uint8_t *input, size_t input_size)
{
    static rulec_decoder whole, bytewise;
    rulec_decoder_stats runs;
    rulec_frame f;
    size_t max_frame, size = input_size, na = 0, nb = 0, nc, i = 0, consumed = 0;
    uint16_t pending;
    const uint8_t *data = stream_of(input, &size, &max_frame);
    CHECK(rulec_decoder_init(&whole, max_frame) == RULEC_OK);
    CHECK(rulec_decoder_init(&bytewise, max_frame) == RULEC_OK);

    while (i < size) {
        int32_t r = rulec_decoder_feed(&whole, data + i, size - i, &consumed, &f);
        CHECK(r == 0 || r == 1);
        CHECK(consumed > 0 && consumed <= size - i);
        i += consumed;
        if (r == 1) {
            CHECK(na < MAX_FRAMES);
            keep(&frames_a[na++], &f);
        }
    }
    for (i = 0; i < size; i++) {
        int32_t r = rulec_decoder_push(&bytewise, data[i], &f);
        CHECK(r == 0 || r == 1);
        if (r == 1) {
            CHECK(nb < MAX_FRAMES);
            keep(&frames_b[nb++], &f);
        }
    }
    nc = by_runs(data, size, max_frame, &runs, &pending);

    CHECK(na == nb && na == nc);
    for (i = 0; i < na; i++)
        CHECK(same_frame(&frames_a[i], &frames_b[i]) && same_frame(&frames_a[i], &frames_c[i]));
    CHECK(same_stats(&whole.stats, &bytewise.stats));
    CHECK(same_stats(&whole.stats, &runs));
    CHECK(whole.len == bytewise.len && whole.skipping == bytewise.skipping);
    CHECK(whole.len == pending);
    CHECK(whole.len <= whole.max_encoded);

    check_cobs(data, size);
    return 0;
}
