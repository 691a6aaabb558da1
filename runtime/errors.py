"""One exception tree for the whole project; the root is never raised itself.

Input-validation errors also subclass ``ValueError`` so callers that only know
the standard library still catch them.
"""

from __future__ import annotations


class RulecError(Exception):
    """Root of every error rulec raises on purpose."""


class BundleError(RulecError, ValueError):
    """A bundle is missing, corrupt, of another format version, or inconsistent."""


class StateError(RulecError, ValueError):
    """A sensor state given to the engine is malformed (unknown name, non-numeric value)."""


class KernelError(RulecError):
    """The C containment kernel reported a failure status."""


class ManifestError(RulecError, ValueError):
    """A sensors.toml file is malformed: bad TOML, unknown unit, bad range."""


class DocumentError(RulecError, ValueError):
    """A manual cannot be read (missing, wrong encoding, unsupported type)."""


class RuleSchemaError(RulecError, ValueError):
    """A rule object does not follow the rule-object schema."""


class UnitError(RulecError, ValueError):
    """A unit is unknown, or two units cannot be converted into each other."""


class DigestMismatchError(BundleError):
    """A bundle's payload does not hash to the SHA-256 its header declares (corruption)."""


class SignatureError(BundleError):
    """A bundle fails the trust check: unsigned, signed by another key, or forged."""


class UnsignedBundleError(SignatureError):
    """A trusted key is configured and the bundle carries no signature."""


class UntrustedKeyError(SignatureError):
    """The bundle is signed, but by a key other than the trusted one."""


class BadSignatureError(SignatureError):
    """The signature names the trusted key but does not verify: header or block altered."""


class KeyFileError(RulecError, ValueError):
    """A key file is missing, unreadable, or not an Ed25519 key in the documented format."""


class SigningUnavailableError(RulecError):
    """Signing or verifying needs the optional `cryptography` package (extra `[sign]`)."""
