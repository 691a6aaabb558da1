"""The bundle container: a 48-byte checked header around one msgpack payload.

Shared by the ground-side writer (the compiler imports this module) and the onboard
reader (``rulec.runtime.bundle``).  It knows nothing of the payload schema: it only
guarantees that the bytes handed to the schema validator are exactly the bytes the
compiler wrote, of a format version this reader understands, unpacked with limits that
keep hostile input from costing time or memory.  The written specification is
``docs/bundle-format.md``; keep the two in step.
"""

from __future__ import annotations

import hashlib
import os
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack

from rulec.runtime.errors import BundleError

__all__ = [
    "FORMAT_VERSION",
    "HEADER_SIZE",
    "HEADER_STRUCT",
    "MAGIC",
    "BundleHeader",
    "UnpackLimits",
    "decode_bundle",
    "encode_bundle",
    "frame_payload",
    "pack_payload",
    "read_header",
    "unpack_payload",
    "write_bundle_file",
]

MAGIC = b"RULC"
"""First four bytes of every bundle."""

FORMAT_VERSION = 1
"""The only container/payload version this code reads and writes (see the version policy)."""

HEADER_STRUCT = struct.Struct("<4sHHQ32s")
"""magic, format version u16, flags u16, payload length u64, SHA-256 of the payload."""

HEADER_SIZE = HEADER_STRUCT.size  # 48

# The msgpack unpacker class; a module attribute so the tests can run the same limits
# against msgpack's pure-Python fallback as well as its C extension.
_Unpacker: Any = msgpack.Unpacker


@dataclass(frozen=True)
class BundleHeader:
    """The decoded fixed header; ``payload_sha256`` is the raw 32-byte digest."""

    format_version: int
    flags: int
    payload_length: int
    payload_sha256: bytes

    @property
    def digest(self) -> str:
        """The payload digest as lowercase hex, the bundle's identity in logs."""
        return self.payload_sha256.hex()


@dataclass(frozen=True)
class UnpackLimits:
    """Upper bounds handed to the msgpack unpacker.

    msgpack trusts the length in an array/map/str/bin/ext header and may allocate for
    it before reading the items; a 5-byte array header can claim 4 billion entries.
    Every item costs at least one payload byte (a map entry two), so no honest payload
    of ``n`` bytes needs a length above ``n``: bounding each length by the payload size
    refuses such claims before any allocation, without ever refusing a real bundle.
    """

    max_buffer_size: int
    max_str_len: int
    max_bin_len: int
    max_array_len: int
    max_map_len: int
    max_ext_len: int

    @classmethod
    def for_payload(cls, payload_length: int) -> UnpackLimits:
        """The limits ``decode_bundle`` uses for a payload of ``payload_length`` bytes."""
        n = max(0, payload_length)
        return cls(
            # 0 means "unbounded" to msgpack; an empty payload fails as truncated anyway.
            max_buffer_size=max(1, n),
            max_str_len=n,
            max_bin_len=n,
            max_array_len=n,
            max_map_len=n // 2,
            max_ext_len=n,
        )


def _sort_maps(value: Any, where: str = "payload") -> Any:
    """Copy ``value`` with every map's keys in sorted order, for byte-stable output."""
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, str):
                raise BundleError(f"cannot encode {where}: map key {key!r} is not a str")
        return {k: _sort_maps(value[k], f"{where}.{k}") for k in sorted(value)}
    if isinstance(value, list | tuple):
        return [_sort_maps(v, f"{where}[{i}]") for i, v in enumerate(value)]
    return value


def pack_payload(payload: dict[str, Any]) -> bytes:
    """msgpack-encode ``payload`` deterministically (sorted map keys, bin for bytes).

    Equal payloads give identical bytes, whatever order their dicts were built in, so
    the payload digest identifies the content and recompiling the same manuals gives
    the same bundle.
    """
    if not isinstance(payload, dict):
        raise BundleError(f"cannot encode payload: top level is {type(payload).__name__}, not map")
    normalized = _sort_maps(payload)
    try:
        packed: bytes = msgpack.packb(normalized, use_bin_type=True)
        return packed
    except (TypeError, ValueError, OverflowError) as exc:
        raise BundleError(f"cannot encode payload: {exc}") from exc


def frame_payload(payload_bytes: bytes) -> bytes:
    """Put the checked header in front of already-packed msgpack bytes.

    Separate from ``encode_bundle`` so tools and tests can frame arbitrary bytes with a
    correct digest (e.g. to check that hostile msgpack is refused by the unpacker).
    """
    data = bytes(payload_bytes)
    header = HEADER_STRUCT.pack(MAGIC, FORMAT_VERSION, 0, len(data), hashlib.sha256(data).digest())
    return header + data


def encode_bundle(payload: dict[str, Any]) -> bytes:
    """Return the complete bundle bytes (header + payload) for ``payload``."""
    return frame_payload(pack_payload(payload))


def read_header(data: bytes | bytearray | memoryview) -> BundleHeader:
    """Parse and check the fixed fields: size, magic, version, flags (in that order).

    Length and digest are checked by ``decode_bundle``, which needs the whole file.
    """
    if len(data) < HEADER_SIZE:
        raise BundleError(
            f"too short for a bundle header: {len(data)} bytes, a header is {HEADER_SIZE}"
        )
    magic, version, flags, length, digest = HEADER_STRUCT.unpack_from(data, 0)
    if magic != MAGIC:
        raise BundleError(f"bad magic {magic!r}: not a rulec bundle (expected {MAGIC!r})")
    if version != FORMAT_VERSION:
        raise BundleError(
            f"unsupported bundle format version {version} (this runtime reads version "
            f"{FORMAT_VERSION}); recompile the manuals with a matching compiler"
        )
    if flags != 0:
        raise BundleError(f"nonzero header flags 0x{flags:04x}: reserved, must be 0")
    return BundleHeader(
        format_version=version, flags=flags, payload_length=length, payload_sha256=digest
    )


def unpack_payload(payload: bytes, limits: UnpackLimits | None = None) -> dict[str, Any]:
    """Unpack one msgpack map that must fill ``payload`` exactly.

    ``limits`` defaults to ``UnpackLimits.for_payload(len(payload))``; it is a parameter
    so each bound can be tested at its edge.  Every failure is a ``BundleError``.
    """
    if limits is None:
        limits = UnpackLimits.for_payload(len(payload))
    try:
        unpacker = _Unpacker(
            None,
            raw=False,
            strict_map_key=True,
            use_list=True,
            max_buffer_size=limits.max_buffer_size,
            max_str_len=limits.max_str_len,
            max_bin_len=limits.max_bin_len,
            max_array_len=limits.max_array_len,
            max_map_len=limits.max_map_len,
            max_ext_len=limits.max_ext_len,
        )
        unpacker.feed(payload)
        obj = unpacker.unpack()
        consumed = unpacker.tell()
    except msgpack.OutOfData as exc:
        raise BundleError("payload: msgpack data ends before the top-level object does") from exc
    except msgpack.exceptions.BufferFull as exc:
        raise BundleError(
            f"payload: {len(payload)} bytes exceed max_buffer_size {limits.max_buffer_size}"
        ) from exc
    except msgpack.exceptions.StackError as exc:
        raise BundleError("payload: msgpack nesting too deep") from exc
    except (ValueError, TypeError, UnicodeDecodeError, RecursionError, MemoryError) as exc:
        # ValueError covers FormatError, the max_*_len refusals, strict_map_key and
        # invalid UTF-8 in str; TypeError an unhashable map key.
        raise BundleError(f"payload: invalid msgpack: {exc or type(exc).__name__}") from exc
    if consumed != len(payload):
        raise BundleError(
            f"payload: {len(payload) - consumed} bytes of msgpack follow the top-level object"
        )
    if not isinstance(obj, dict):
        raise BundleError(f"payload: top level must be a map, found {type(obj).__name__}")
    return obj


def decode_bundle(data: bytes | bytearray | memoryview) -> dict[str, Any]:
    """Check the container and return the payload map; nothing is trusted before that.

    Order: header size, magic, version, flags, declared length against the bytes present
    (truncated, then trailing), SHA-256 digest, and only then msgpack with limits.
    """
    header = read_header(data)
    actual = len(data) - HEADER_SIZE
    if actual < header.payload_length:
        raise BundleError(
            f"truncated: header declares {header.payload_length} payload bytes, file has {actual}"
        )
    if actual > header.payload_length:
        raise BundleError(
            f"trailing bytes: header declares {header.payload_length} payload bytes, "
            f"file has {actual} ({actual - header.payload_length} extra)"
        )
    payload = bytes(data[HEADER_SIZE:])
    found = hashlib.sha256(payload).digest()
    if found != header.payload_sha256:
        raise BundleError(
            f"digest mismatch: header says sha256 {header.payload_sha256.hex()}, "
            f"payload hashes to {found.hex()} (corrupted bundle)"
        )
    return unpack_payload(payload)


def write_bundle_file(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically and durably.

    A reader (the onboard hot-reload) sees either the old file or the complete new one,
    never a half-written bundle, even across a power cut: temporary file in the same
    folder, flush, fsync, ``os.replace``, then fsync of the folder.  The bytes are
    decoded first so a broken container is never written.
    """
    decode_bundle(data)
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    tmp_name: str | None = None
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "wb") as tmp:
            tmp.write(data)
            tmp.flush()
            os.fsync(tmp.fileno())
            os.chmod(tmp_name, 0o644)
        os.replace(tmp_name, target)
        tmp_name = None
        fsync_folder(folder)
    except OSError as exc:
        raise BundleError(f"cannot write bundle file {str(target)!r}: {exc}") from exc
    finally:
        if tmp_name is not None:
            try:
                os.unlink(tmp_name)
            except OSError:
                pass


def fsync_folder(folder: Path) -> None:
    """Make the rename itself durable; some platforms cannot open a folder, which is fine."""
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)
