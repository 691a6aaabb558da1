"""The C wire codec (``csrc/rulec_proto.c``, built by cffi as ``rulec.firmware_bridge._proto``).

Chosen once at import, like the containment kernel (``rulec.runtime.backend``):
``RULEC_PUREPYTHON=1`` forces the pure-Python reference (``crc.py``, ``cobs.py`` and
``protocol.FrameDecoder``'s own loop); otherwise the compiled module is used when it
imports.  ``NATIVE`` says which one won.  The two are byte-identical (same vectors,
same counters: ``tests/firmware_bridge/test_protocol_native.py``); the C one is about 30
times faster per frame, which is most of the daemon's decode and encode time.

This module only wraps the C calls; ``crc.py``, ``cobs.py`` and ``protocol.py`` decide
when to use them and keep the error messages of the reference.
"""

from __future__ import annotations

import struct
from types import ModuleType
from typing import Any, Final

from rulec.runtime.backend import OptionalModule, forced_pure

__all__ = [
    "NATIVE",
    "NativeCodec",
    "NativeDecoder",
    "codec",
    "compiled_codec",
    "load_native",
    "native_error",
]

_MODULE: Final = "rulec.firmware_bridge._proto"
_RECORD = struct.Struct("=BxxxIQII")  # rp_feed's record: type, seq, timestamp, offset, length
_RECORD_SIZE = _RECORD.size
_STATS = struct.Struct("=8I")  # rulec_decoder_stats, in DecoderStats field order
_RECORDS = 256  # frames per C call
_PAYLOAD_SPACE = 64 * 1024  # payload bytes per C call (at least one 1024-byte payload)
_MAX_SLICE = 1 << 24  # bytes per C call: the uint32 counters cannot wrap twice in one

_CODEC_MODULE = OptionalModule(_MODULE)

Buffer = bytes | bytearray | memoryview


def load_native() -> ModuleType | None:
    """The compiled codec module, or None when it is not built; ignores RULEC_PUREPYTHON."""
    return _CODEC_MODULE.load()


def native_error() -> BaseException | None:
    """Why the codec did not load (None if it loaded or was never tried)."""
    return _CODEC_MODULE.error()


def _bytes_view(data: Buffer) -> bytes | bytearray | memoryview:
    """``data`` as something whose len() counts bytes (a cast view for typed buffers)."""
    if type(data) is bytes or type(data) is bytearray:
        return data
    return memoryview(data).cast("B")


class NativeCodec:
    """CRC-32C, COBS and frame wrapping through the C codec; one instance per process."""

    def __init__(self, module: ModuleType) -> None:
        self.ffi: Any = module.ffi
        self.lib: Any = module.lib

    def crc32c(self, data: Buffer, crc: int = 0) -> int:
        """Same contract as ``crc.crc32c_py``; ``crc`` must be a 32-bit value."""
        data = _bytes_view(data)
        return int(self.lib.rulec_crc32c(crc, self.ffi.from_buffer(data), len(data)))

    def cobs_encode(self, data: Buffer) -> bytes:
        """Canonical COBS of ``data`` (no delimiter)."""
        data = _bytes_view(data)
        n = len(data)
        cap = n + n // 254 + 1
        out = self.ffi.new("uint8_t[]", cap)
        size = self.lib.rulec_cobs_encode(self.ffi.from_buffer(data), n, out, cap)
        if size < 0:
            raise ValueError(f"rulec_cobs_encode failed with status {size}")
        return bytes(self.ffi.buffer(out, size))

    def cobs_decode(self, data: Buffer) -> bytes | None:
        """The decoded bytes, or None when ``data`` is not a canonical encoding."""
        data = _bytes_view(data)
        n = len(data)
        if n == 0:
            return None
        out = self.ffi.new("uint8_t[]", n)
        size = self.lib.rulec_cobs_decode(self.ffi.from_buffer(data), n, out, n)
        return None if size < 0 else bytes(self.ffi.buffer(out, size))

    def wrap(self, body: Buffer) -> bytes:
        """``COBS(body + crc32c(body)) + b"\\x00"``: a wire frame from header + payload."""
        body = _bytes_view(body)
        n = len(body) + 4
        cap = n + n // 254 + 2
        out = self.ffi.new("uint8_t[]", cap)
        size = self.lib.rp_wrap(self.ffi.from_buffer(body), len(body), out, cap)
        if size < 0:
            raise ValueError(f"frame body of {len(body)} bytes cannot be wrapped ({size})")
        return bytes(self.ffi.buffer(out, size))


class NativeDecoder:
    """The C streaming decoder (``rulec_decoder``) behind ``protocol.FrameDecoder``.

    ``feed`` returns raw ``(msg_type, seq, timestamp_us, payload)`` tuples; ``stats``
    the C counters (uint32, wrapping), which the caller turns into deltas.
    """

    __slots__ = ("_codec", "_d", "_recs", "_pay", "_consumed", "_stats_view", "_rec_view",
                 "_pay_view", "_feed")

    def __init__(self, codec: NativeCodec, max_frame: int) -> None:
        ffi = codec.ffi
        self._codec = codec
        self._d = ffi.new("rulec_decoder *")
        if codec.lib.rulec_decoder_init(self._d, max_frame) != codec.lib.RULEC_OK:
            raise ValueError(f"max_frame {max_frame} refused by the C decoder")
        self._recs = ffi.new("uint8_t[]", _RECORDS * _RECORD.size)
        self._pay = ffi.new("uint8_t[]", _PAYLOAD_SPACE)
        self._consumed = ffi.new("size_t *")
        self._stats_view = ffi.buffer(ffi.addressof(self._d[0], "stats"))
        self._rec_view = ffi.buffer(self._recs)
        self._pay_view = ffi.buffer(self._pay)
        self._feed = codec.lib.rp_feed

    @property
    def pending(self) -> int:
        """Bytes of the current run held in the C buffer."""
        return int(self._d.len)

    def stats(self) -> tuple[int, ...]:
        """The eight C counters, in ``DecoderStats`` field order."""
        return _STATS.unpack(self._stats_view)

    def reset(self) -> None:
        self._codec.lib.rulec_decoder_reset(self._d)

    def feed(self, data: Buffer) -> list[tuple[int, int, int, bytes]]:
        """Frames completed by ``data``, in order, as raw header fields and payload."""
        data = _bytes_view(data)
        n = len(data)
        if n == 0:
            return []
        src = self._codec.ffi.from_buffer("uint8_t[]", data)
        d, feed, recs, pay, consumed = self._d, self._feed, self._recs, self._pay, self._consumed
        rec_view, pay_view, unpack = self._rec_view, self._pay_view, _RECORD.iter_unpack
        out: list[tuple[int, int, int, bytes]] = []
        pos = 0
        while pos < n:
            k = feed(d, src + pos if pos else src, min(n - pos, _MAX_SLICE), consumed,
                     recs, _RECORDS, pay, _PAYLOAD_SPACE)
            if k < 0:
                raise ValueError(f"rp_feed failed with status {k}")
            pos += consumed[0]
            for mtype, seq, ts, off, size in unpack(rec_view[: k * _RECORD_SIZE]):
                out.append((mtype, seq, ts, pay_view[off : off + size]))
        return out


_compiled: NativeCodec | None = None


def compiled_codec() -> NativeCodec | None:
    """The C codec whatever ``RULEC_PUREPYTHON`` says (None when it is not built).

    For tests and benchmarks that compare both paths in one process.
    """
    global _compiled
    if _compiled is None:
        module = load_native()
        if module is not None:
            _compiled = NativeCodec(module)
    return _compiled


codec: Final[NativeCodec | None] = None if forced_pure() else compiled_codec()
NATIVE: Final[bool] = codec is not None
