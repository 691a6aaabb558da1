"""The C wire codec (csrc/rulec_proto.c) built as a cffi module, for the differential oracle.

The firmware side and the runtime side must read every byte stream alike; the fuzz
target feeds each input to both and compares.  ``build_codec`` compiles the C file
with the host compiler (API mode, so cffi checks the struct layouts against the
header) into a folder of the caller's choosing; the module is cached there by a hash
of the sources and the flags, so a campaign builds it once.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import struct
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CSRC = ROOT / "csrc"

_CDEF = """
typedef struct {
    uint32_t frames; uint32_t crc_errors; uint32_t length_errors; uint32_t cobs_errors;
    uint32_t version_errors; uint32_t type_errors; uint32_t oversize; uint32_t bytes_discarded;
} rulec_decoder_stats;
typedef struct {
    rulec_decoder_stats stats; uint16_t max_frame; uint16_t max_encoded; uint16_t len;
    uint8_t skipping; ...;
} rulec_decoder;
typedef struct {
    uint8_t msg_type; uint32_t seq; uint64_t timestamp_us; const uint8_t *payload;
    uint16_t payload_len;
} rulec_frame;
typedef struct { uint16_t channel; double value; } rulec_value;
typedef struct {
    uint8_t event; uint8_t severity; const char *rule_id; size_t rule_id_len;
    const rulec_value *values; size_t count;
} rulec_advisory;
typedef struct {
    uint64_t uptime_ms; uint64_t frames_ok; uint64_t frames_dropped; uint64_t advisories;
} rulec_heartbeat;
typedef struct {
    uint16_t format_version; uint8_t digest[32]; const char *bundle_id; size_t bundle_id_len;
} rulec_bundle_info;
typedef struct { uint16_t channel; uint8_t reason; } rulec_sensor_fault;

uint32_t rulec_crc32c(uint32_t crc, const void *data, size_t len);
int32_t rulec_cobs_decode(const uint8_t *src, size_t len, uint8_t *dst, size_t cap);
int32_t rulec_decoder_init(rulec_decoder *d, size_t max_frame);
int32_t rulec_decoder_feed(rulec_decoder *d, const uint8_t *data, size_t len,
                           size_t *consumed, rulec_frame *out);
int32_t rulec_telemetry_decode(const uint8_t *payload, size_t len, rulec_value *values,
                               size_t cap, size_t *count);
int32_t rulec_advisory_decode(const uint8_t *payload, size_t len, rulec_advisory *adv,
                              rulec_value *values, size_t cap);
int32_t rulec_heartbeat_decode(const uint8_t *payload, size_t len, rulec_heartbeat *hb);
int32_t rulec_bundle_info_decode(const uint8_t *payload, size_t len, rulec_bundle_info *info);
int32_t rulec_sensor_fault_decode(const uint8_t *payload, size_t len, rulec_sensor_fault *fault);
"""

STAT_NAMES = (
    "frames", "crc_errors", "length_errors", "cobs_errors", "version_errors", "type_errors",
    "oversize", "bytes_discarded",
)
MAX_VALUES = 102  # RULEC_MAX_CHANNELS


def _bits(x: float) -> int:
    return int(struct.unpack("<Q", struct.pack("<d", x))[0])


def build_codec(out_dir: Path, extra_compile_args: tuple[str, ...] = ()) -> ModuleType:
    """Compile (or reuse) the cffi module of rulec_proto.c in ``out_dir`` and import it."""
    from cffi import FFI

    sources = [CSRC / "rulec_proto.c", CSRC / "rulec_proto.h"]
    key = hashlib.sha256(_CDEF.encode() + repr(extra_compile_args).encode())
    for path in sources:
        key.update(path.read_bytes())
    name = f"_rulec_proto_fuzz_{key.hexdigest()[:12]}"
    out_dir.mkdir(parents=True, exist_ok=True)
    built = sorted(out_dir.glob(f"{name}*.so"))
    if not built:
        ffi = FFI()
        ffi.cdef(_CDEF)
        ffi.set_source(
            name,
            '#include "rulec_proto.h"',
            sources=[str(CSRC / "rulec_proto.c")],
            include_dirs=[str(CSRC)],
            extra_compile_args=["-std=c99", "-O2", *extra_compile_args],
        )
        built = [Path(ffi.compile(tmpdir=str(out_dir), verbose=False))]
    spec = importlib.util.spec_from_file_location(name, built[0])
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {built[0]}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass
class StreamResult:
    """What a decoder made of a byte stream: frames, counters, bytes still held."""

    frames: list[tuple[int, int, int, bytes]]
    stats: dict[str, int]
    pending: int


class CCodec:
    """Thin calls into the C codec that return plain Python values to compare."""

    def __init__(self, module: ModuleType) -> None:
        self.ffi: Any = module.ffi
        self.lib: Any = module.lib

    @classmethod
    def build(cls, out_dir: Path | None = None) -> CCodec:
        """Build into ``out_dir`` (default build/fuzz/cffi under the project root)."""
        extra = tuple(os.environ.get("RULEC_FUZZ_CFLAGS", "").split())
        return cls(build_codec(out_dir or ROOT / "build" / "fuzz" / "cffi", extra))

    def crc32c(self, data: bytes) -> int:
        return int(self.lib.rulec_crc32c(0, data, len(data)))

    def cobs_decode(self, data: bytes) -> bytes | None:
        """Decoded bytes, or None when the C decoder refuses ``data``."""
        cap = max(1, len(data))
        dst = self.ffi.new("uint8_t[]", cap)
        n = self.lib.rulec_cobs_decode(data, len(data), dst, cap)
        return None if n < 0 else bytes(self.ffi.buffer(dst, n))

    def decode_stream(self, data: bytes, max_frame: int) -> StreamResult:
        ffi, lib = self.ffi, self.lib
        dec = ffi.new("rulec_decoder *")
        if lib.rulec_decoder_init(dec, max_frame) != 0:
            raise ValueError(f"max_frame {max_frame} refused by the C decoder")
        out = ffi.new("rulec_frame *")
        consumed = ffi.new("size_t *")
        buf = ffi.from_buffer(data)
        frames: list[tuple[int, int, int, bytes]] = []
        i = 0
        while i < len(data):
            r = lib.rulec_decoder_feed(dec, buf + i, len(data) - i, consumed, out)
            i += consumed[0]
            if r == 1:
                payload = bytes(ffi.buffer(out.payload, out.payload_len))
                frames.append((out.msg_type, out.seq, out.timestamp_us, payload))
        stats = {name: int(getattr(dec.stats, name)) for name in STAT_NAMES}
        return StreamResult(frames, stats, int(dec.len))

    def decode_payload(self, msg_type: int, payload: bytes) -> tuple[Any, ...] | None:
        """The message as a plain tuple (floats as bit patterns), None when refused."""
        ffi, lib = self.ffi, self.lib
        n = len(payload)
        if msg_type == 1:
            values = ffi.new("rulec_value[]", MAX_VALUES)
            count = ffi.new("size_t *")
            if lib.rulec_telemetry_decode(payload, n, values, MAX_VALUES, count) != 0:
                return None
            return ("telemetry", _pairs(values, count[0]))
        if msg_type == 2:
            values = ffi.new("rulec_value[]", MAX_VALUES)
            adv = ffi.new("rulec_advisory *")
            if lib.rulec_advisory_decode(payload, n, adv, values, MAX_VALUES) != 0:
                return None
            rule_id = bytes(ffi.buffer(adv.rule_id, adv.rule_id_len)).decode("utf-8")
            return ("advisory", adv.event, adv.severity, rule_id, _pairs(values, adv.count))
        if msg_type == 3:
            hb = ffi.new("rulec_heartbeat *")
            if lib.rulec_heartbeat_decode(payload, n, hb) != 0:
                return None
            return ("heartbeat", hb.uptime_ms, hb.frames_ok, hb.frames_dropped, hb.advisories)
        if msg_type == 4:
            info = ffi.new("rulec_bundle_info *")
            if lib.rulec_bundle_info_decode(payload, n, info) != 0:
                return None
            bundle_id = bytes(ffi.buffer(info.bundle_id, info.bundle_id_len)).decode("utf-8")
            return ("bundle_info", info.format_version, bytes(info.digest), bundle_id)
        if msg_type == 5:
            fault = ffi.new("rulec_sensor_fault *")
            if lib.rulec_sensor_fault_decode(payload, n, fault) != 0:
                return None
            return ("sensor_fault", fault.channel, fault.reason)
        raise ValueError(f"unknown message type {msg_type}")


def _pairs(values: Any, count: int) -> tuple[tuple[int, int], ...]:
    return tuple((int(values[i].channel), _bits(values[i].value)) for i in range(count))
