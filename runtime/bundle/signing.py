"""Trust in a bundle: Ed25519 verification against one configured public key.

SHA-256 in the header catches corruption; it cannot tell who wrote the file.  With a
trusted key configured (``rulec-onboard --trust PUBKEY``), the loader accepts only a
bundle whose signature block names that key and whose signature over the header (which
holds the payload digest) verifies; unsigned bundles and bundles signed by any other key
are refused, each with its own error class.  Without a trusted key nothing is verified
and the loader says so (``SignatureStatus.warning``).

The cryptography library is optional (extra ``[sign]``) and imported only here, only
when a key is loaded or a signature verified, so a runtime without keys stays as light
as before.  Key files are PEM (PKCS#8 private, SubjectPublicKeyInfo public), the same
as ``openssl genpkey -algorithm ed25519`` writes; see docs/bundle-format.md.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import Any

from rulec.runtime.bundle.format import Container
from rulec.runtime.errors import (
    BadSignatureError,
    KeyFileError,
    SigningUnavailableError,
    UnsignedBundleError,
    UntrustedKeyError,
)

__all__ = [
    "INSTALL_HINT",
    "SignatureStatus",
    "TrustedKey",
    "check_signature",
    "crypto",
    "key_id_of",
    "load_public_key",
    "read_key_file",
]

INSTALL_HINT = "pip install 'rulec[sign]'"
"""How to get the optional library; every refusal for its absence names it."""

MAX_KEY_FILE_BYTES = 16 * 1024  # a PEM Ed25519 key is ~120 bytes; refuse anything huge


def crypto() -> Any:
    """The ``cryptography`` Ed25519 module, imported on first use.

    Raises ``SigningUnavailableError`` naming the extra when the library is missing, so
    a daemon with a key configured refuses to start instead of serving unverified rules.
    """
    try:
        from cryptography.hazmat.primitives.asymmetric import ed25519
    except ImportError:
        raise SigningUnavailableError(
            "Ed25519 signatures need the 'cryptography' package, which cannot be imported: "
            f"install the [sign] extra ({INSTALL_HINT})"
        ) from None
    return ed25519


def key_id_of(public_raw: bytes) -> bytes:
    """A key's id: SHA-256 of its raw 32-byte public key (written in the signature block)."""
    return hashlib.sha256(public_raw).digest()


def read_key_file(path: str | os.PathLike[str], what: str) -> bytes:
    """The bytes of a key file, or ``KeyFileError`` naming it."""
    where = os.fspath(path)
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_KEY_FILE_BYTES + 1)
    except OSError as exc:
        raise KeyFileError(f"{where}: cannot read {what}: {exc.strerror or exc}") from None
    if len(data) > MAX_KEY_FILE_BYTES:
        raise KeyFileError(f"{where}: too large for a {what} ({MAX_KEY_FILE_BYTES} bytes at most)")
    return data


@dataclass(frozen=True)
class TrustedKey:
    """The one public key bundles must be signed with."""

    public_raw: bytes
    key_id: bytes
    source: str

    @property
    def fingerprint(self) -> str:
        """The first 16 hex digits of the key id, as logs and errors show it."""
        return self.key_id.hex()[:16]


def load_public_key(path: str | os.PathLike[str]) -> TrustedKey:
    """Read a PEM Ed25519 public key (``NAME.pub`` from ``rulec keygen``)."""
    where = os.fspath(path)
    ed25519 = crypto()  # first: a key configured without the library is refused as such
    data = read_key_file(path, "public key")
    from cryptography.hazmat.primitives import serialization

    if b"PRIVATE KEY" in data:
        raise KeyFileError(
            f"{where}: this is a private key; give the public key (NAME.pub) to the vehicle"
        )
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError) as exc:
        raise KeyFileError(f"{where}: not a PEM public key: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - UnsupportedAlgorithm and friends
        raise KeyFileError(f"{where}: not a usable public key: {exc}") from None
    if not isinstance(key, ed25519.Ed25519PublicKey):
        raise KeyFileError(f"{where}: not an Ed25519 public key ({type(key).__name__})")
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return TrustedKey(public_raw=raw, key_id=key_id_of(raw), source=where)


@dataclass(frozen=True)
class SignatureStatus:
    """What the loader knows of a bundle's origin."""

    signed: bool = False
    key_id: str | None = None  # hex, from the signature block (unverified unless verified)
    verified: bool = False  # the signature verified with the trusted key

    def warning(self) -> str | None:
        """The line to log when the origin was not checked; None when it was."""
        if self.verified:
            return None
        if not self.signed:
            return (
                "unsigned bundle loaded without a trusted key (--trust): "
                "its origin is not checked"
            )
        short = (self.key_id or "")[:16]
        return (
            f"signed bundle (key id {short}) loaded without a trusted key (--trust): "
            "the signature was not verified"
        )

    def to_json(self) -> dict[str, object]:
        return {"signed": self.signed, "key_id": self.key_id, "verified": self.verified}


def check_signature(container: Container, trust: TrustedKey | None) -> SignatureStatus:
    """Apply the trust decision to a container that passed its checks.

    Without ``trust`` every bundle passes unverified (the library is not imported).
    With it: no block -> ``UnsignedBundleError``; another key id ->
    ``UntrustedKeyError``; a signature that does not verify -> ``BadSignatureError``.
    """
    block = container.signature
    if trust is None:
        if block is None:
            return SignatureStatus()
        return SignatureStatus(signed=True, key_id=block.key_id.hex())
    if block is None:
        raise UnsignedBundleError(
            f"unsigned bundle refused: bundles must be signed by the trusted key "
            f"{trust.fingerprint} ({trust.source}); sign it with `rulec compile --sign KEY`"
        )
    if block.key_id != trust.key_id:
        raise UntrustedKeyError(
            f"bundle signed by another key refused: its key id is {block.key_id.hex()[:16]}, "
            f"the trusted key is {trust.fingerprint} ({trust.source})"
        )
    ed25519 = crypto()
    from cryptography.exceptions import InvalidSignature

    public = ed25519.Ed25519PublicKey.from_public_bytes(trust.public_raw)
    try:
        public.verify(block.signature, block.message)
    except InvalidSignature:
        raise BadSignatureError(
            f"bad signature refused: the block names the trusted key {trust.fingerprint} but "
            "its signature does not verify (header, key id or signature altered after signing)"
        ) from None
    return SignatureStatus(signed=True, key_id=block.key_id.hex(), verified=True)
