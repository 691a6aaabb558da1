"""The one bundle writer: pack -> sign -> frame -> write.

``rulec compile``, ``rulec refine`` and the evaluation all make their bundles here, so the
same payload always gives the same bytes, a signing key is taken the same way everywhere,
and every bundle is read back by the runtime's own loader before it is written (a bundle
the vehicle would refuse never reaches the disk).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from rulec.compiler.build.keys import SigningKey, sign_packed_payload
from rulec.runtime.bundle.format import (
    frame_payload,
    pack_payload,
    payload_flags,
    write_bundle_file,
)
from rulec.runtime.bundle.loader import Bundle, load_bundle


@dataclass(frozen=True)
class BundleBytes:
    """A framed bundle, the runtime's reading of it, and the key that signed it (if any)."""

    data: bytes
    bundle: Bundle
    key: SigningKey | None

    @property
    def bundle_id(self) -> str:
        return str(self.bundle.meta.get("bundle_id", ""))

    def describe(self) -> str:
        """"ID" or "ID, signed by key FINGERPRINT", for the line a command prints."""
        signed = f", signed by key {self.key.fingerprint}" if self.key else ""
        return f"{self.bundle_id}{signed}"


def encode(payload: dict[str, Any], key: SigningKey | None = None) -> BundleBytes:
    """Pack the payload (canonical msgpack), sign it when a key is given, frame it, and
    load the result as the vehicle would."""
    packed, flags = pack_payload(payload), payload_flags(payload)
    data = (sign_packed_payload(packed, key, flags) if key is not None
            else frame_payload(packed, flags))
    trust = key.trusted() if key is not None else None
    return BundleBytes(data, load_bundle(data, trust=trust), key)


def write(path: str | os.PathLike[str], payload: dict[str, Any],
          key: SigningKey | None = None) -> BundleBytes:
    """``encode`` and write the bundle atomically (a crash leaves the old file or the new)."""
    made = encode(payload, key)
    write_encoded(path, made)
    return made


def write_encoded(path: str | os.PathLike[str], made: BundleBytes) -> None:
    """Write an encoded bundle atomically, for a caller that writes something else first."""
    write_bundle_file(path, made.data)
