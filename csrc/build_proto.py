"""cffi build script (API mode) for the wire codec ``rulec.firmware_bridge._proto``.

The firmware-side C codec (``rulec_proto.c``: CRC-32C, canonical COBS, frames, the
streaming decoder) compiled for the daemon's hot path.  Listed in ``setup.py``'s
``cffi_modules`` next to the containment kernel, so installing the project builds it.
The Python side (``firmware_bridge/native_codec.py``) uses it when it imports and falls
back to the pure-Python reference otherwise; both are byte-identical
(``tests/firmware_bridge/test_protocol_native.py``).  Run directly (``python
csrc/build_proto.py``) to compile the module into the current directory for a quick look.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from cffi import FFI

_HERE = Path(__file__).resolve().parent


def _rel(path: Path) -> str:
    """Path relative to the cwd when possible: setuptools dislikes absolute sources."""
    try:
        return os.path.relpath(path, os.getcwd())
    except ValueError:  # another drive on Windows
        return str(path)


# The streaming decoder as Python sees it; the kernel module's build (build_kernel.py,
# for the daemon's fast lane) declares it with this same text.
DECODER_CDEF = """
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
        uint16_t len;
        uint8_t skipping;
        ...;
    } rulec_decoder;

    int32_t rulec_decoder_init(rulec_decoder *d, size_t max_frame);
    void rulec_decoder_reset(rulec_decoder *d);
"""

ffi = FFI()

# Mirrors rulec_proto.h (the parts Python calls) plus the two batch helpers below.
ffi.cdef(
    """
    #define RULEC_OK ...
    #define RULEC_E_ARG ...
    #define RULEC_E_SPACE ...
    #define RULEC_E_COBS ...
    #define RULEC_MAX_PAYLOAD ...
    #define RULEC_MAX_FRAME ...
    #define RULEC_MAX_WIRE_FRAME ...
    #define RP_RECORD_SIZE ...
    """
    + DECODER_CDEF
    + """
    uint32_t rulec_crc32c(uint32_t crc, const void *data, size_t len);
    int32_t rulec_cobs_encode(const uint8_t *src, size_t len, uint8_t *dst, size_t cap);
    int32_t rulec_cobs_decode(const uint8_t *src, size_t len, uint8_t *dst, size_t cap);

    int32_t rp_wrap(const uint8_t *body, size_t len, uint8_t *out, size_t cap);
    int32_t rp_feed(rulec_decoder *d, const uint8_t *data, size_t len, size_t *consumed,
                    uint8_t *recs, size_t max_recs, uint8_t *pay, size_t pay_cap);
    """
)

# Two helpers so that Python crosses into C once per frame written and once per chunk
# read, not once per byte string operation.
_HELPERS = r"""
#include "rulec_proto.h"
#include <string.h>

/* A decoded frame as a packed record, native byte order, read in Python with
 * struct.iter_unpack("=BxxxIQII"): type, seq, timestamp, payload offset, length. */
#define RP_RECORD_SIZE 24

/* COBS(body + crc32c(body)) + 0x00 into out: a frame whose header the caller built
 * (any version and type: tools write bad frames on purpose).  Returns the bytes
 * written or a negative RULEC_E_* code. */
static int32_t rp_wrap(const uint8_t *body, size_t len, uint8_t *out, size_t cap)
{
    uint8_t raw[RULEC_MAX_FRAME];
    uint32_t crc;
    int32_t n;
    if (body == NULL || out == NULL || len + RULEC_CRC_SIZE > sizeof raw)
        return RULEC_E_ARG;
    crc = rulec_crc32c(0, body, len);
    memcpy(raw, body, len);
    raw[len] = (uint8_t)crc;
    raw[len + 1] = (uint8_t)(crc >> 8);
    raw[len + 2] = (uint8_t)(crc >> 16);
    raw[len + 3] = (uint8_t)(crc >> 24);
    n = rulec_cobs_encode(raw, len + RULEC_CRC_SIZE, out, cap);
    if (n < 0)
        return n;
    if ((size_t)n >= cap)
        return RULEC_E_SPACE;
    out[n] = 0;
    return n + 1;
}

/* Feed data to the streaming decoder; each frame it completes gets a record in recs
 * and its payload copied into pay.  Stops early when the records or the payload space
 * could overflow with one more frame.  Returns the frame count; *consumed says how
 * much of data was used (call again with the rest). */
static int32_t rp_feed(rulec_decoder *d, const uint8_t *data, size_t len, size_t *consumed,
                       uint8_t *recs, size_t max_recs, uint8_t *pay, size_t pay_cap)
{
    size_t pos = 0, used = 0, n = 0;
    rulec_frame f;
    while (pos < len && n < max_recs && pay_cap - used >= RULEC_MAX_PAYLOAD) {
        size_t took = 0;
        int32_t r = rulec_decoder_feed(d, data + pos, len - pos, &took, &f);
        if (r < 0)
            return r;
        pos += took;
        if (r == 1) {
            uint8_t *rec = recs + n * RP_RECORD_SIZE;
            uint32_t off = (uint32_t)used, plen = f.payload_len;
            memset(rec, 0, RP_RECORD_SIZE);
            rec[0] = f.msg_type;
            memcpy(rec + 4, &f.seq, 4);
            memcpy(rec + 8, &f.timestamp_us, 8);
            memcpy(rec + 16, &off, 4);
            memcpy(rec + 20, &plen, 4);
            memcpy(pay + used, f.payload, plen);
            used += plen;
            n++;
        }
    }
    *consumed = pos;
    return (int32_t)n;
}
"""

ffi.set_source(
    "rulec.firmware_bridge._proto",
    _HELPERS,
    sources=[_rel(_HERE / "rulec_proto.c")],
    include_dirs=[_rel(_HERE)],
    depends=[_rel(_HERE / "rulec_proto.h")],
    # RULEC_CFLAGS / RULEC_LDFLAGS come last (so they win), as for the kernel: the
    # sanitizer and coverage builds of csrc/ cover the codec too.
    extra_compile_args=(["-O2", "-std=c99"] if os.name != "nt" else ["/O2"])
    + shlex.split(os.environ.get("RULEC_CFLAGS", "")),
    extra_link_args=shlex.split(os.environ.get("RULEC_LDFLAGS", "")),
)

if __name__ == "__main__":
    ffi.compile(verbose=True)
