"""Consistent Overhead Byte Stuffing (Cheshire and Baker, 1999), canonical form.

COBS rewrites a byte string so that it contains no 0x00, at a cost of at most one byte
per 254 bytes (plus one), which frees 0x00 to mark where a frame ends.  The encoded
string is a sequence of blocks: a code byte ``c`` (1..255) followed by ``c - 1`` data
bytes; a block with ``c < 255`` stands for its data followed by a zero, except the last
block, whose zero is not part of the data.

Canonical form: a block is 255 (254 data bytes, no zero) exactly when 254 nonzero bytes
follow; after a 255 block that ends the input no empty ``0x01`` block is written.  The
decoder refuses that one non-canonical spelling, so every byte string has exactly one
valid encoding and ``encode(decode(x)) == x`` whenever ``decode`` succeeds.  The C side
(``csrc/rulec_proto.c``) implements the same two functions: ``cobs_encode`` and
``cobs_decode`` call it when the compiled codec is in use (``native_codec.NATIVE``);
``cobs_encode_py`` / ``cobs_decode_py`` are the pure-Python reference, and also word
every error (a refused input is decoded again by the reference for its message).
"""

from __future__ import annotations

__all__ = [
    "CobsError",
    "cobs_decode",
    "cobs_decode_py",
    "cobs_encode",
    "cobs_encode_py",
    "cobs_max_encoded",
    "decode_in_place",
]

from rulec.firmware_bridge import native_codec
from rulec.runtime.errors import RulecError

# _CODE[k]: the code byte of a block with k data bytes
_CODE = [bytes((k + 1,)) for k in range(255)]


class CobsError(RulecError, ValueError):
    """A byte string is not a canonical COBS encoding."""


def cobs_max_encoded(n: int) -> int:
    """Largest possible encoded size of ``n`` input bytes (no delimiter)."""
    return n + n // 254 + 1


def cobs_encode(data: bytes | bytearray | memoryview) -> bytes:
    """Encode ``data``; the result contains no zero byte and no delimiter."""
    codec = native_codec.codec
    if codec is not None:
        return codec.cobs_encode(data)
    return cobs_encode_py(data)


def cobs_decode(data: bytes | bytearray | memoryview) -> bytes:
    """Decode one COBS block sequence (no delimiter); raise ``CobsError`` if invalid."""
    codec = native_codec.codec
    if codec is not None:
        out = codec.cobs_decode(data)
        if out is not None:
            return out
    return cobs_decode_py(data)  # the reference, also for the message of a refusal


def cobs_encode_py(data: bytes | bytearray | memoryview) -> bytes:
    """Encode ``data`` in pure Python (the reference for ``cobs_encode``).

    When every run between zeros is shorter than 254 bytes (telemetry almost always),
    the encoding is the data behind one extra byte, with each zero (and that first
    byte) replaced by the distance to the next zero: one cheap store per zero.
    """
    raw = bytes(data)
    pieces = raw.split(b"\x00")
    codes = [n + 1 for n in map(len, pieces)]
    if max(codes) < 0xFF:
        buf = bytearray(b"\x01")
        buf += raw
        at = 0
        for code in codes:
            buf[at] = code
            at += code
        return bytes(buf)
    out: list[bytes] = []  # some run of 254+ nonzero bytes: split it into 255 blocks
    append = out.append
    last = len(pieces) - 1
    for i, piece in enumerate(pieces):
        n = len(piece)
        start = 0
        while n - start >= 254:
            append(b"\xff")
            append(piece[start : start + 254])
            start += 254
        if start < n or start == 0 or i != last:
            append(_CODE[n - start])
            append(piece[start:])
    return b"".join(out)


def cobs_decode_py(data: bytes | bytearray | memoryview) -> bytes:
    """Decode in pure Python (the reference for ``cobs_decode``); ``CobsError`` if invalid."""
    return bytes(decode_in_place(bytearray(data)))


def decode_in_place(buf: bytearray) -> memoryview:
    """Decode ``buf`` in place; return a view of the data; ``CobsError`` if invalid.

    Each code byte after the first is overwritten with the zero it stands for, so the
    walk costs one Python iteration per block (per zero in the data), not per byte.  A
    255 block (254 nonzero bytes in a row, rare in telemetry) continues on the general
    path, which copies.
    """
    n = len(buf)
    if n == 0:
        raise CobsError("empty input: a COBS encoding has at least one code byte")
    if 0 in buf:  # (a delimiter-split run never has one; a memchr, not a Python loop)
        raise CobsError(f"zero byte at offset {buf.index(0)}: not allowed in an encoding")
    pos = buf[0]
    if pos == 0xFF:
        return memoryview(_decode_from(buf, 0))
    while pos < n:
        code = buf[pos]
        if code == 0xFF:
            return memoryview(_decode_from(buf, pos))
        buf[pos] = 0
        pos += code
    if pos != n:
        raise CobsError(f"last block runs {pos - n} bytes past the end ({n} bytes)")
    return memoryview(buf)[1:]


def _decode_from(buf: bytearray, pos: int) -> bytearray:
    """Finish decoding at the 255 block at ``pos``; ``buf[1:pos]`` is already decoded.

    A code byte reached from a block shorter than 255 stands for a zero, so when
    ``pos > 0`` the output so far is ``buf[1:pos]`` plus that zero.
    """
    n = len(buf)
    out = bytearray(buf[1:pos])
    if pos:
        out.append(0)
    prev = 0
    code = buf[pos]
    while True:
        nxt = pos + code
        if nxt > n:
            raise CobsError(f"block at offset {pos} (code {code}) runs past the end ({n} bytes)")
        out += buf[pos + 1 : nxt]
        if nxt == n:
            break
        if code != 0xFF:
            out.append(0)
        prev = code
        pos = nxt
        code = buf[pos]
    if code == 1 and prev == 0xFF:
        raise CobsError("non-canonical: empty final block after a 255 block")
    return out
