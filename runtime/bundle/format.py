"""The bundle container: a 48-byte checked header around one msgpack payload.

Shared by the ground-side writer (the compiler imports this module) and the onboard
reader (``rulec.runtime.bundle.loader``).  It knows nothing of the payload schema: it only
guarantees that the bytes handed to the schema validator are exactly the bytes the
compiler wrote, of a format version this reader understands, unpacked with limits that
keep hostile input from costing time or memory.  A signed bundle carries a 100-byte
signature block between the header and the payload (flag bit 0); this module checks its
place and shape, ``rulec.runtime.bundle.signing`` decides whether it is trusted.  The written
specification is ``docs/bundle-format.md``; keep the two in step.
"""

from __future__ import annotations

import hashlib
import os
import struct
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack

from rulec.runtime.errors import BundleError, DigestMismatchError

__all__ = [
    "FLAG_DISCRETE",
    "FLAG_SIGNED",
    "FORMAT_VERSION",
    "HEADER_SIZE",
    "HEADER_STRUCT",
    "KNOWN_FLAGS",
    "MAGIC",
    "SIGNATURE_BLOCK_SIZE",
    "SIGNATURE_MAGIC",
    "SIGNATURE_STRUCT",
    "SIGNED_PREFIX_SIZE",
    "BundleHeader",
    "Container",
    "SignatureBlock",
    "UnpackLimits",
    "check_container",
    "decode_bundle",
    "encode_bundle",
    "payload_flags",
    "frame_payload",
    "frame_signed",
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

FLAG_SIGNED = 0x0001
"""Header flag bit 0: a signature block follows the header, before the payload."""

FLAG_DISCRETE = 0x0002
"""Header flag bit 1: some parameters are discrete (a ``states`` list in their map)."""

KNOWN_FLAGS = FLAG_SIGNED | FLAG_DISCRETE
"""Every flag bit this reader understands; any other set bit refuses the bundle."""

SIGNATURE_MAGIC = b"RSIG"
"""First four bytes of the signature block (never the first byte of a msgpack map)."""

SIGNATURE_STRUCT = struct.Struct("<4s32s64s")
"""Block magic, key id (SHA-256 of the raw Ed25519 public key), Ed25519 signature."""

SIGNATURE_BLOCK_SIZE = SIGNATURE_STRUCT.size  # 100

SIGNED_PREFIX_SIZE = HEADER_SIZE + 4 + 32  # 84
"""The signature covers the file's first 84 bytes: header, block magic and key id."""

# Writing the temporary file: chunk size, and a hook called at each step of
# ``write_bundle_file`` ("write" after each chunk with the bytes written so far, then
# "fsync", then "replace").  The hook is None in use; the kill tests set it in a child
# process to stop the writer at a known point (tests/runtime/bundle/test_atomic_write.py).
_WRITE_CHUNK_BYTES = 1 << 20
_write_progress: Callable[[str, int], None] | None = None

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

    @property
    def signed(self) -> bool:
        """True when flag bit 0 says a signature block follows the header."""
        return bool(self.flags & FLAG_SIGNED)


@dataclass(frozen=True)
class SignatureBlock:
    """The block of a signed bundle, as found; nothing here is verified yet."""

    key_id: bytes
    signature: bytes
    message: bytes  # the signed bytes: the file's first SIGNED_PREFIX_SIZE bytes


@dataclass(frozen=True)
class Container:
    """A bundle whose container checks passed: header, optional signature, payload bytes."""

    header: BundleHeader
    signature: SignatureBlock | None
    payload: bytes


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


def frame_payload(payload_bytes: bytes, flags: int = 0) -> bytes:
    """Put the checked header in front of already-packed msgpack bytes.

    Separate from ``encode_bundle`` so tools and tests can frame arbitrary bytes with a
    correct digest (e.g. to check that hostile msgpack is refused by the unpacker).
    """
    data = bytes(payload_bytes)
    _content_flags(flags)
    header = HEADER_STRUCT.pack(MAGIC, FORMAT_VERSION, flags, len(data),
                                hashlib.sha256(data).digest())
    return header + data


def frame_signed(payload_bytes: bytes, key_id: bytes, sign: Callable[[bytes], bytes],
                 flags: int = 0) -> bytes:
    """Frame packed msgpack as a signed bundle: header (flag bit 0), block, payload.

    ``sign`` gets the 84 bytes to sign (header, block magic, key id) and returns the
    64-byte Ed25519 signature; the private key stays with the caller (the compiler),
    so this module needs no cryptography library.
    """
    data = bytes(payload_bytes)
    if len(key_id) != 32:
        raise BundleError(f"cannot sign: key id is {len(key_id)} bytes, must be 32")
    _content_flags(flags)
    header = HEADER_STRUCT.pack(
        MAGIC, FORMAT_VERSION, FLAG_SIGNED | flags, len(data), hashlib.sha256(data).digest()
    )
    message = header + SIGNATURE_MAGIC + key_id
    signature = sign(message)
    if len(signature) != 64:
        raise BundleError(f"cannot sign: signature is {len(signature)} bytes, must be 64")
    return message + signature + data


def _content_flags(flags: int) -> None:
    """A framer is given only the flags a payload's content sets (``payload_flags``)."""
    if flags & ~FLAG_DISCRETE:
        raise BundleError(f"cannot frame with flags 0x{flags:04x}: only the discrete bit")


def payload_flags(payload: dict[str, Any]) -> int:
    """The header flags a payload's content sets: the discrete bit when a parameter has
    states (so a bundle without them is byte for byte what it was)."""
    params = payload.get("parameters") if isinstance(payload, dict) else None
    if not isinstance(params, list | tuple):
        return 0  # a payload the loader will refuse: nothing to flag
    return FLAG_DISCRETE if any(isinstance(p, dict) and "states" in p for p in params) else 0


def encode_bundle(payload: dict[str, Any]) -> bytes:
    """Return the complete bundle bytes (header + payload) for ``payload``."""
    return frame_payload(pack_payload(payload), payload_flags(payload))


def read_header(data: bytes | bytearray | memoryview) -> BundleHeader:
    """Parse and check the fixed fields: size, magic, version, flags (in that order).

    Flags: a bit other than ``FLAG_SIGNED`` refuses the bundle; ``FLAG_SIGNED`` needs the
    block magic right after the header, so ``data`` must reach past it for a signed
    bundle.  Length and digest are checked by ``check_container``, which needs the
    whole file.
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
    unknown = flags & ~KNOWN_FLAGS
    if unknown:
        raise BundleError(
            f"nonzero header flags 0x{flags:04x}: bits 0x{unknown:04x} are reserved, must be 0"
        )
    if flags & FLAG_SIGNED:
        found = bytes(data[HEADER_SIZE : HEADER_SIZE + len(SIGNATURE_MAGIC)])
        if found != SIGNATURE_MAGIC:
            raise BundleError(
                f"nonzero header flags 0x{flags:04x}: the signed flag is set but no "
                f"signature block follows the header (expected {SIGNATURE_MAGIC!r} at "
                f"offset {HEADER_SIZE}, found {found!r})"
            )
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


def check_container(data: bytes | bytearray | memoryview) -> Container:
    """Every container check except the trust decision; the payload is not unpacked.

    Order: header size, magic, version, flags (with the block magic of a signed bundle),
    declared length against the bytes present after the header and block (truncated,
    then trailing), SHA-256 digest.  A signature is parsed here, verified by
    ``rulec.runtime.bundle.signing`` (before the payload reaches msgpack).
    """
    header = read_header(data)
    offset = HEADER_SIZE
    block: SignatureBlock | None = None
    if header.signed:
        if len(data) < HEADER_SIZE + SIGNATURE_BLOCK_SIZE:
            raise BundleError(
                f"truncated: the signature block needs {SIGNATURE_BLOCK_SIZE} bytes after "
                f"the header, file has {len(data) - HEADER_SIZE}"
            )
        _, key_id, signature = SIGNATURE_STRUCT.unpack_from(data, HEADER_SIZE)
        block = SignatureBlock(key_id, signature, bytes(data[:SIGNED_PREFIX_SIZE]))
        offset += SIGNATURE_BLOCK_SIZE
    actual = len(data) - offset
    after = f" after the {SIGNATURE_BLOCK_SIZE}-byte signature block" if block else ""
    if actual < header.payload_length:
        raise BundleError(
            f"truncated: header declares {header.payload_length} payload bytes, "
            f"file has {actual}{after}"
        )
    if actual > header.payload_length:
        raise BundleError(
            f"trailing bytes: header declares {header.payload_length} payload bytes, "
            f"file has {actual}{after} ({actual - header.payload_length} extra)"
        )
    payload = bytes(data[offset:])
    found = hashlib.sha256(payload).digest()
    if found != header.payload_sha256:
        raise DigestMismatchError(
            f"digest mismatch: header says sha256 {header.payload_sha256.hex()}, "
            f"payload hashes to {found.hex()} (corrupted bundle)"
        )
    return Container(header, block, payload)


def decode_bundle(data: bytes | bytearray | memoryview) -> dict[str, Any]:
    """Check the container and return the payload map; nothing is trusted before that.

    ``check_container``, then msgpack with limits.  No trust decision: a signed bundle
    decodes here whoever signed it (``load_bundle`` with a trusted key checks that).
    """
    return unpack_payload(check_container(data).payload)


def write_bundle_file(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically and durably.

    A reader (the onboard hot-reload) sees either the old file or the complete new one,
    never a half-written bundle, even across a power cut (``write_file_atomically``).
    The bytes are decoded first so a broken container is never written.  A writer killed
    mid-way leaves its temporary file behind (nothing can remove it), never a partial
    ``path``.
    """
    decode_bundle(data)
    try:
        write_file_atomically(path, data, 0o644)
    except OSError as exc:
        raise BundleError(f"cannot write bundle file {str(path)!r}: {exc}") from exc


def write_file_atomically(path: str | os.PathLike[str], data: bytes, mode: int) -> None:
    """Temporary file in the same folder (``.NAME.*.tmp``, 0600 until complete), every
    byte written, ``mode``, fsync, ``os.replace``, then fsync of the folder; the
    temporary file is removed on failure.  Raises ``OSError``; callers name the file
    kind.  Shared by bundles (0644) and private keys (0600, never readable by others).
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    tmp_name: str | None = None
    progress = _write_progress
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        try:
            view = memoryview(data)
            written = 0
            while written < len(view):
                end = min(len(view), written + _WRITE_CHUNK_BYTES)
                written += os.write(fd, view[written:end])  # may write less: loop
                if progress is not None:
                    progress("write", written)
            os.fchmod(fd, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        if progress is not None:
            progress("fsync", written)
        os.replace(tmp_name, target)
        tmp_name = None
        if progress is not None:
            progress("replace", written)
        fsync_folder(folder)
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
