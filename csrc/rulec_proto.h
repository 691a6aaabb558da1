/*
 * rulec wire protocol, firmware side (specification: docs/protocol.md).
 *
 * A frame on the wire is COBS(header + payload + crc32c) followed by one 0x00.  The
 * 16-byte header is little-endian: version u8 (1), message type u8, sequence u32,
 * timestamp u64 (microseconds), payload length u16.  The CRC-32C covers header and
 * payload and is stored little-endian after the payload.
 *
 * C99, freestanding apart from <stddef.h>, <stdint.h> and <string.h> (memcpy, memmove,
 * memchr, memset).  No allocation: every buffer belongs to the caller, and the
 * streaming decoder is one struct of about 1.1 KiB.  Needs 8-bit bytes and an IEEE-754
 * binary64 `double` (on AVR-GCC build with -mdouble=64); checked at compile time.
 *
 * Every function returns a status: >= 0 is success (a byte count where that applies),
 * negative is one of the RULEC_E_* codes below.  Byte-identical to the Python side
 * (rulec.firmware_bridge.protocol) by tests/vectors/protocol_vectors.json.
 *
 * Define RULEC_PROTO_CRC_BITWISE to trade the 4 KiB CRC tables (in flash, const) for a
 * bit-at-a-time loop, about eight times slower.
 */
#ifndef RULEC_PROTO_H
#define RULEC_PROTO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* --- sizes ---------------------------------------------------------------------- */
#define RULEC_PROTO_VERSION 1
#define RULEC_HEADER_SIZE 16
#define RULEC_CRC_SIZE 4
#define RULEC_MAX_PAYLOAD 1024
#define RULEC_MIN_FRAME (RULEC_HEADER_SIZE + RULEC_CRC_SIZE)                     /* 20 */
#define RULEC_MAX_FRAME (RULEC_HEADER_SIZE + RULEC_MAX_PAYLOAD + RULEC_CRC_SIZE) /* 1044 */
/* Largest COBS encoding of n bytes (no delimiter). */
#define RULEC_COBS_MAX(n) ((n) + (n) / 254 + 1)
#define RULEC_MAX_ENCODED RULEC_COBS_MAX(RULEC_MAX_FRAME) /* 1049 */
#define RULEC_MAX_WIRE_FRAME (RULEC_MAX_ENCODED + 1)      /* 1050, delimiter included */
#define RULEC_MAX_CHANNELS ((RULEC_MAX_PAYLOAD - 2) / 10) /* 102 values per frame */
/* An ADVISORY payload is RULEC_ADVISORY_FIXED bytes (event u8, severity u8, id length u16,
 * value count u16) plus its id and one RULEC_VALUE_PAIR (channel u16, value f64) a value. */
#define RULEC_ADVISORY_FIXED 6
#define RULEC_VALUE_PAIR 10

/* --- message types (header byte 1) ------------------------------------------------ */
#define RULEC_MSG_TELEMETRY 1
#define RULEC_MSG_ADVISORY 2
#define RULEC_MSG_HEARTBEAT 3
#define RULEC_MSG_BUNDLE_INFO 4
#define RULEC_MSG_SENSOR_FAULT 5

/* --- payload enumerations ------------------------------------------------------- */
#define RULEC_EVENT_RAISE 1
#define RULEC_EVENT_CLEAR 2
#define RULEC_SEVERITY_WARNING 1
#define RULEC_SEVERITY_CAUTION 2
#define RULEC_SEVERITY_ADVISORY 3
#define RULEC_FAULT_NAN 1
#define RULEC_FAULT_INFINITE 2
#define RULEC_FAULT_BELOW_RANGE 3
#define RULEC_FAULT_ABOVE_RANGE 4
#define RULEC_FAULT_STALE 5
#define RULEC_FAULT_MISSING 6
#define RULEC_FAULT_NOT_A_STATE 7

/* --- status codes ------------------------------------------------------------------ */
#define RULEC_OK 0
#define RULEC_E_ARG (-1)      /* NULL pointer, or a field out of its range */
#define RULEC_E_SPACE (-2)    /* the output buffer is too small */
#define RULEC_E_COBS (-3)     /* not a canonical COBS encoding */
#define RULEC_E_LENGTH (-4)   /* frame shorter than header + CRC, or length field wrong */
#define RULEC_E_CRC (-5)      /* CRC mismatch */
#define RULEC_E_VERSION (-6)  /* protocol version is not RULEC_PROTO_VERSION */
#define RULEC_E_TYPE (-7)     /* unknown message type */
#define RULEC_E_OVERSIZE (-8) /* frame longer than the limit */
#define RULEC_E_PAYLOAD (-9)  /* malformed payload (length, enum, order, UTF-8) */

/* --- CRC-32C and COBS --------------------------------------------------------------- */

/* CRC-32C (Castagnoli; init and final XOR 0xFFFFFFFF, reflected).  Pass 0 to start and
 * a previous result to continue: crc32c(crc32c(0, a), b) == crc32c(0, a || b). */
uint32_t rulec_crc32c(uint32_t crc, const void *data, size_t len);

/* Canonical COBS.  Encode returns the encoded length (<= RULEC_COBS_MAX(len)), no
 * delimiter written.  Decode returns the decoded length; src must hold no 0x00;
 * dst == src decodes in place (any other overlap is not allowed). */
int32_t rulec_cobs_encode(const uint8_t *src, size_t len, uint8_t *dst, size_t cap);
int32_t rulec_cobs_decode(const uint8_t *src, size_t len, uint8_t *dst, size_t cap);

/* --- frames ------------------------------------------------------------------------- */

typedef struct {
    uint8_t msg_type;
    uint32_t seq;          /* per sender, +1 per frame of any type, wraps to 0 */
    uint64_t timestamp_us; /* sender's monotonic clock, microseconds */
    const uint8_t *payload;
    uint16_t payload_len;
} rulec_frame;

/* Write COBS(header + payload + crc) + 0x00 into out.  Returns the bytes written
 * (at most RULEC_MAX_WIRE_FRAME; RULEC_COBS_MAX(payload_len + 20) + 1 is enough).
 * msg_type must be a known type, payload_len <= RULEC_MAX_PAYLOAD. */
int32_t rulec_frame_encode(uint8_t msg_type, uint32_t seq, uint64_t timestamp_us,
                           const uint8_t *payload, size_t payload_len, uint8_t *out,
                           size_t cap);

/* Decode one run of bytes between delimiters (no 0x00 in it), in place.  On success
 * returns RULEC_OK and out->payload points into run.  Checks, in this order: COBS,
 * decoded length <= max_frame (RULEC_E_OVERSIZE), >= RULEC_MIN_FRAME (RULEC_E_LENGTH),
 * CRC, version, length field (RULEC_E_LENGTH), message type. */
int32_t rulec_frame_decode(uint8_t *run, size_t len, size_t max_frame, rulec_frame *out);

/* --- streaming decoder ------------------------------------------------------------- */

/* Counters, the same as the Python DecoderStats: every non-empty run between two
 * delimiters is one frame or exactly one error; bytes_discarded counts the bytes of
 * the dropped runs.  All wrap modulo 2^32. */
typedef struct {
    uint32_t frames;
    uint32_t crc_errors;
    uint32_t length_errors;
    uint32_t cobs_errors;
    uint32_t version_errors;
    uint32_t type_errors;
    uint32_t oversize;
    uint32_t bytes_discarded;
} rulec_decoder_stats;

typedef struct {
    rulec_decoder_stats stats;
    uint16_t max_frame;   /* largest frame before COBS */
    uint16_t max_encoded; /* RULEC_COBS_MAX(max_frame): the longest run kept */
    uint16_t len;         /* bytes of the current run held in buf */
    uint8_t skipping;     /* discarding an oversize run up to the next delimiter */
    uint8_t buf[RULEC_MAX_ENCODED];
} rulec_decoder;

/* max_frame in RULEC_MIN_FRAME..RULEC_MAX_FRAME (0 means RULEC_MAX_FRAME). */
int32_t rulec_decoder_init(rulec_decoder *d, size_t max_frame);

/* Forget a partial run (after a reconnect); its bytes count as discarded. */
void rulec_decoder_reset(rulec_decoder *d);

/* One byte.  Returns 1 when it completed a frame (in *out), else 0; never fails on
 * data.  out->payload points into the decoder and is valid until the next call. */
int32_t rulec_decoder_push(rulec_decoder *d, uint8_t byte, rulec_frame *out);

/* Bytes up to and including the first that completes a frame.  Returns 1 with the
 * frame in *out, or 0 when all len bytes were used without completing one;
 * *consumed says how many were used: call again with the rest. */
int32_t rulec_decoder_feed(rulec_decoder *d, const uint8_t *data, size_t len,
                           size_t *consumed, rulec_frame *out);

/* --- payloads --------------------------------------------------------------------- */

/* One channel value; channels are the `channel` indices of sensors.toml. */
typedef struct {
    uint16_t channel;
    double value;
} rulec_value;

/* TELEMETRY: count u16, then count x (channel u16, value f64); channels strictly
 * ascending.  Encoders return the payload length. */
int32_t rulec_telemetry_encode(const rulec_value *values, size_t count, uint8_t *out,
                               size_t cap);
/* Decodes into values[0..*count); RULEC_E_SPACE when more than cap values. */
int32_t rulec_telemetry_decode(const uint8_t *payload, size_t len, rulec_value *values,
                               size_t cap, size_t *count);

/* ADVISORY: event u8, severity u8, id length u16, rule id (UTF-8, not NUL-terminated),
 * then the TELEMETRY layout for the values that fired it. */
typedef struct {
    uint8_t event;    /* RULEC_EVENT_* */
    uint8_t severity; /* RULEC_SEVERITY_* */
    const char *rule_id;
    size_t rule_id_len; /* >= 1 */
    const rulec_value *values;
    size_t count;
} rulec_advisory;

int32_t rulec_advisory_encode(const rulec_advisory *adv, uint8_t *out, size_t cap);
/* adv->rule_id points into payload; adv->values = values (cap entries available). */
int32_t rulec_advisory_decode(const uint8_t *payload, size_t len, rulec_advisory *adv,
                              rulec_value *values, size_t cap);

/* HEARTBEAT: four u64, 32 bytes. */
typedef struct {
    uint64_t uptime_ms;
    uint64_t frames_ok;
    uint64_t frames_dropped;
    uint64_t advisories;
} rulec_heartbeat;

int32_t rulec_heartbeat_encode(const rulec_heartbeat *hb, uint8_t *out, size_t cap);
int32_t rulec_heartbeat_decode(const uint8_t *payload, size_t len, rulec_heartbeat *hb);

/* BUNDLE_INFO: format version u16, digest (32 bytes, SHA-256), id length u16, id. */
typedef struct {
    uint16_t format_version;
    uint8_t digest[32];
    const char *bundle_id; /* UTF-8, not NUL-terminated */
    size_t bundle_id_len;  /* >= 1 */
} rulec_bundle_info;

int32_t rulec_bundle_info_encode(const rulec_bundle_info *info, uint8_t *out, size_t cap);
/* info->bundle_id points into payload. */
int32_t rulec_bundle_info_decode(const uint8_t *payload, size_t len, rulec_bundle_info *info);

/* SENSOR_FAULT: channel u16, reason u8 (RULEC_FAULT_*). */
typedef struct {
    uint16_t channel;
    uint8_t reason;
} rulec_sensor_fault;

int32_t rulec_sensor_fault_encode(const rulec_sensor_fault *fault, uint8_t *out, size_t cap);
int32_t rulec_sensor_fault_decode(const uint8_t *payload, size_t len, rulec_sensor_fault *fault);

/* 1 when data[0..len) is well-formed UTF-8 (as Python's strict decoder), else 0. */
int rulec_utf8_valid(const uint8_t *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* RULEC_PROTO_H */
