"""Ed25519 keys for signed bundles: `rulec keygen -o NAME`, and signing for `--sign KEY`.

The private key stays on the ground (file mode 0600); the vehicle gets ``NAME.pub`` and
refuses any bundle not signed with its private key (``rulec-onboard --trust``).  Both
files are PEM, as ``openssl genpkey -algorithm ed25519`` writes them, so either tool can
make or read them.  The container layout lives in ``rulec.runtime.bundle.format``; this
module only holds the private key and produces the signature.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulec.runtime.bundle.format import check_container, frame_signed, write_file_atomically
from rulec.runtime.bundle.signing import (
    TrustedKey,
    check_signature,
    crypto,
    key_id_of,
    read_key_file,
)
from rulec.runtime.errors import KeyFileError

__all__ = [
    "SigningKey",
    "generate_keypair",
    "load_signing_key",
    "public_key_path",
    "sign_packed_payload",
]


@dataclass(frozen=True)
class SigningKey:
    """A loaded private key with its public half and key id."""

    private: Any  # cryptography's Ed25519PrivateKey
    public: TrustedKey  # the public half, as the runtime holds it
    source: str

    @property
    def key_id(self) -> bytes:
        return self.public.key_id

    @property
    def fingerprint(self) -> str:
        """The first 16 hex digits of the key id (what the daemon logs and errors show)."""
        return self.public.fingerprint

    def sign(self, message: bytes) -> bytes:
        """The 64-byte Ed25519 signature of ``message``."""
        signature: bytes = self.private.sign(message)
        return signature

    def trusted(self) -> TrustedKey:
        """The public half, for a verification round trip."""
        return self.public


def public_key_path(private_path: str | os.PathLike[str]) -> Path:
    """``NAME`` -> ``NAME.pub``."""
    path = Path(private_path)
    return path.with_name(path.name + ".pub")


def _from_private(private: Any, source: str) -> SigningKey:
    from cryptography.hazmat.primitives import serialization

    raw = private.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )
    return SigningKey(private, TrustedKey(raw, key_id_of(raw), f"{source}.pub"), source)


def generate_keypair(name: str | os.PathLike[str], force: bool = False) -> SigningKey:
    """Write a new private key to ``name`` (mode 0600) and its public key to ``name.pub``.

    Refuses to replace existing files unless ``force``: overwriting a private key that
    signed the bundles a fleet trusts cannot be undone.
    """
    private_path, public_path = Path(name), public_key_path(name)
    if not force:
        for path in (private_path, public_path):
            if os.path.lexists(path):
                raise KeyFileError(f"{path}: already exists (use --force to replace it)")
    ed25519 = crypto()
    from cryptography.hazmat.primitives import serialization

    private = ed25519.Ed25519PrivateKey.generate()
    private_pem = private.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    public_pem = private.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    _write_key_file(private_path, private_pem, 0o600)
    _write_key_file(public_path, public_pem, 0o644)
    return _from_private(private, str(private_path))


def _write_key_file(path: Path, data: bytes, mode: int) -> None:
    """Atomic write whose file is never readable by others, not even for a moment."""
    try:
        write_file_atomically(path, data, mode)
    except OSError as exc:
        raise KeyFileError(f"{path}: cannot write: {exc.strerror or exc}") from None


def load_signing_key(path: str | os.PathLike[str]) -> SigningKey:
    """Read a PEM Ed25519 private key (``NAME`` from ``rulec keygen``), unencrypted."""
    where = os.fspath(path)
    data = read_key_file(path, "private key")
    if b"PRIVATE KEY" not in data and b"PUBLIC KEY" in data:
        raise KeyFileError(
            f"{where}: this is a public key; --sign takes the private key (NAME, not NAME.pub)"
        )
    ed25519 = crypto()
    from cryptography.hazmat.primitives import serialization

    try:
        private = serialization.load_pem_private_key(data, password=None)
    except TypeError:
        raise KeyFileError(
            f"{where}: the private key is encrypted; rulec reads unencrypted PEM "
            "(protect it with file permissions or a key store)"
        ) from None
    except ValueError as exc:
        raise KeyFileError(f"{where}: not a PEM private key: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - UnsupportedAlgorithm and friends
        raise KeyFileError(f"{where}: not a usable private key: {exc}") from None
    if not isinstance(private, ed25519.Ed25519PrivateKey):
        raise KeyFileError(f"{where}: not an Ed25519 private key ({type(private).__name__})")
    return _from_private(private, where)


def sign_packed_payload(payload_bytes: bytes, key: SigningKey, flags: int = 0) -> bytes:
    """A signed bundle around packed msgpack, verified with the public key before return.

    The round trip goes through the runtime's own checks, so a bundle this returns is
    one the vehicle trusting ``NAME.pub`` accepts.
    """
    data = frame_signed(payload_bytes, key.key_id, key.sign, flags)
    check_signature(check_container(data), key.trusted())
    return data
