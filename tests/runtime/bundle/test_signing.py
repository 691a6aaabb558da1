"""Signed bundles: keys, the signature block, each refusal with its own error, the CLI and
the daemon end to end (real subprocesses), and the trust check on hot reload."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from rulec.compiler.build.keys import (
    SigningKey,
    generate_keypair,
    load_signing_key,
    sign_packed_payload,
)
from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.runtime.bundle.format import (
    FLAG_SIGNED,
    HEADER_SIZE,
    SIGNATURE_BLOCK_SIZE,
    SIGNATURE_MAGIC,
    SIGNED_PREFIX_SIZE,
    check_container,
    frame_payload,
    pack_payload,
    write_bundle_file,
)
from rulec.runtime.bundle.loader import load_bundle
from rulec.runtime.bundle.signing import TrustedKey, load_public_key
from rulec.runtime.daemon.reload import BundleReloader, engine_loader
from rulec.runtime.errors import (
    BadSignatureError,
    BundleError,
    DigestMismatchError,
    KeyFileError,
    SignatureError,
    UnsignedBundleError,
    UntrustedKeyError,
)

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

REPO = Path(__file__).resolve().parents[3]
ROCKET = REPO / "examples" / "manuals" / "rocket_engine"
BIN = Path(sys.executable).parent
PAYLOAD_AT = HEADER_SIZE + SIGNATURE_BLOCK_SIZE  # 148
SIG_AT = SIGNED_PREFIX_SIZE  # 84: the 64 signature bytes


@pytest.fixture(scope="module")
def packed() -> dict[str, bytes]:
    """Two payloads of the rocket manual that differ (in meta), hence in digest."""
    result = collect_rules([ROCKET])
    base, variant = build_payload(result, ROCKET.name), build_payload(result, "variant")
    assert pack_payload(base) != pack_payload(variant)
    return {"base": pack_payload(base), "variant": pack_payload(variant)}


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("keys")
    generate_keypair(folder / "fleet")
    generate_keypair(folder / "other")
    return {"fleet": folder / "fleet", "other": folder / "other"}


def signer(keys: dict[str, Path], name: str = "fleet") -> SigningKey:
    return load_signing_key(keys[name])


def trusted(keys: dict[str, Path], name: str = "fleet") -> TrustedKey:
    return load_public_key(Path(f"{keys[name]}.pub"))


def flip(data: bytes, offset: int, mask: int = 1) -> bytes:
    out = bytearray(data)
    out[offset] ^= mask
    return bytes(out)


# --------------------------------------------------------------------------- keys


def test_keygen_writes_a_0600_private_key_and_a_public_key(tmp_path: Path) -> None:
    old = os.umask(0)  # the private key must not depend on the caller's umask
    try:
        key = generate_keypair(tmp_path / "k")
    finally:
        os.umask(old)
    private, public = tmp_path / "k", tmp_path / "k.pub"
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert stat.S_IMODE(public.stat().st_mode) == 0o644
    assert private.read_text().startswith("-----BEGIN PRIVATE KEY-----\n")
    assert public.read_text().startswith("-----BEGIN PUBLIC KEY-----\n")
    assert load_public_key(public).key_id == key.key_id == load_signing_key(private).key_id
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    with pytest.raises(KeyFileError, match="already exists"):
        generate_keypair(tmp_path / "k")
    assert generate_keypair(tmp_path / "k", force=True).key_id != key.key_id


def test_key_files_are_checked(tmp_path: Path, keys: dict[str, Path]) -> None:
    with pytest.raises(KeyFileError, match="this is a private key"):
        load_public_key(keys["fleet"])
    with pytest.raises(KeyFileError, match="this is a public key"):
        load_signing_key(Path(f"{keys['fleet']}.pub"))
    (tmp_path / "junk.pub").write_text("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----")
    with pytest.raises(KeyFileError, match="junk.pub: not a"):
        load_public_key(tmp_path / "junk.pub")
    with pytest.raises(KeyFileError, match="cannot read public key"):
        load_public_key(tmp_path / "missing.pub")
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ed448

    other_kind = ed448.Ed448PrivateKey.generate().public_key()
    (tmp_path / "ed448.pub").write_bytes(
        other_kind.public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    with pytest.raises(KeyFileError, match="not an Ed25519 public key"):
        load_public_key(tmp_path / "ed448.pub")


# --------------------------------------------------------------------------- format


def test_sign_and_verify_round_trip(packed: dict[str, bytes], keys: dict[str, Path]) -> None:
    key = signer(keys)
    data = sign_packed_payload(packed["base"], key)
    assert len(data) == PAYLOAD_AT + len(packed["base"])
    assert int.from_bytes(data[6:8], "little") == FLAG_SIGNED
    assert data[HEADER_SIZE:52] == SIGNATURE_MAGIC and data[52:SIG_AT] == key.key_id
    assert data[PAYLOAD_AT:] == packed["base"]
    bundle = load_bundle(data, trust=trusted(keys))
    assert bundle.signature.signed and bundle.signature.verified
    assert bundle.signature.key_id == key.key_id.hex() and bundle.signature.warning() is None
    plain = load_bundle(frame_payload(packed["base"]))
    assert bundle.digest == plain.digest and bundle.rules == plain.rules
    assert sign_packed_payload(packed["base"], key) == data, "Ed25519 is deterministic"


def test_without_trust_everything_loads_and_says_it_was_not_verified(
    packed: dict[str, bytes], keys: dict[str, Path]
) -> None:
    unsigned = load_bundle(frame_payload(packed["base"]))
    assert not unsigned.signature.signed and not unsigned.signature.verified
    assert "unsigned bundle loaded without a trusted key" in str(unsigned.signature.warning())
    signed = load_bundle(sign_packed_payload(packed["base"], signer(keys, "other")))
    assert signed.signature.signed and not signed.signature.verified
    assert "signature was not verified" in str(signed.signature.warning())
    # a payload rewritten with a matching digest and signature left as it was: only a
    # trusted key catches it (SHA-256 is integrity, not authenticity)
    forged = forge(sign_packed_payload(packed["base"], signer(keys)), packed["variant"])
    assert not load_bundle(forged).signature.verified


def forge(signed: bytes, payload: bytes) -> bytes:
    """Replace the payload and fix length and digest in the header; keep the block."""
    import hashlib
    import struct

    header = struct.pack(
        "<4sHHQ32s", b"RULC", 1, FLAG_SIGNED, len(payload), hashlib.sha256(payload).digest()
    )
    return header + signed[HEADER_SIZE:PAYLOAD_AT] + payload


def test_each_refusal_has_its_own_class_and_message(
    packed: dict[str, bytes], keys: dict[str, Path]
) -> None:
    trust = trusted(keys)
    good = sign_packed_payload(packed["base"], signer(keys))
    cases: list[tuple[bytes, type[BundleError], str]] = [
        (frame_payload(packed["base"]), UnsignedBundleError, "unsigned bundle refused"),
        (
            sign_packed_payload(packed["base"], signer(keys, "other")),
            UntrustedKeyError,
            "bundle signed by another key refused",
        ),
        (flip(good, SIG_AT + 10), BadSignatureError, "bad signature refused"),
        (forge(good, packed["variant"]), BadSignatureError, "bad signature refused"),
        (flip(good, PAYLOAD_AT + 200), DigestMismatchError, "digest mismatch"),
    ]
    seen = set()
    for data, cls, message in cases:
        with pytest.raises(BundleError) as info:
            load_bundle(data, trust=trust)
        assert type(info.value) is cls and str(info.value).startswith(message), str(info.value)
        seen.add(cls)
    assert len(seen) == 4
    for cls in (UnsignedBundleError, UntrustedKeyError, BadSignatureError):
        assert issubclass(cls, SignatureError) and issubclass(cls, BundleError)
    assert not issubclass(DigestMismatchError, SignatureError)


def test_every_bit_of_the_block_is_covered(packed: dict[str, bytes], keys: dict[str, Path]) -> None:
    trust = trusted(keys)
    good = sign_packed_payload(packed["base"], signer(keys))
    expected = [
        (HEADER_SIZE, 52, BundleError, "nonzero header flags 0x0001: the signed flag is set"),
        (52, SIG_AT, UntrustedKeyError, "bundle signed by another key"),
        (SIG_AT, PAYLOAD_AT, BadSignatureError, "bad signature"),
    ]
    for lo, hi, cls, message in expected:
        for bit in range(lo * 8, hi * 8):
            with pytest.raises(cls) as info:
                load_bundle(flip(good, bit // 8, 1 << (bit % 8)), trust=trust)
            assert str(info.value).startswith(message), (bit, str(info.value))


def test_flag_bits(packed: dict[str, bytes], keys: dict[str, Path]) -> None:
    unsigned = frame_payload(packed["base"])
    signed = sign_packed_payload(packed["base"], signer(keys))
    for bit in range(2, 16):  # every bit but the signed and discrete flags stays reserved
        for data in (unsigned, signed):
            flags = int.from_bytes(data[6:8], "little") | (1 << bit)
            bad = data[:6] + flags.to_bytes(2, "little") + data[8:]
            with pytest.raises(BundleError, match=rf"^nonzero header flags 0x{flags:04x}: bits"):
                load_bundle(bad)
    for data in (unsigned,):  # the discrete flag on a bundle without states (a signed one
        # fails its signature first: the flag is in the signed bytes)
        bad = data[:6] + (int.from_bytes(data[6:8], "little") | 2).to_bytes(2, "little") + (
            data[8:])
        with pytest.raises(BundleError, match=r"^nonzero header flags: bit 1 \(discrete\)"):
            load_bundle(bad)
    with pytest.raises(BundleError, match=r"^nonzero header flags 0x0001: the signed flag"):
        load_bundle(flip(unsigned, 6))  # flag without a block
    with pytest.raises(BundleError, match=r"^trailing bytes: .* \(100 extra\)"):
        load_bundle(flip(signed, 6))  # block without the flag: read as payload
    with pytest.raises(BundleError, match=r"^truncated: the signature block needs 100 bytes"):
        load_bundle(signed[:HEADER_SIZE + 60])
    with pytest.raises(BundleError, match=r"^truncated: .* after the 100-byte signature block"):
        load_bundle(signed[:-1])
    trust = trusted(keys)
    for n in [*range(PAYLOAD_AT + 8), *range(PAYLOAD_AT + 8, len(signed), 97)]:
        with pytest.raises(BundleError):
            load_bundle(signed[:n], trust=trust)


def test_signed_bundles_are_written_atomically(
    tmp_path: Path, packed: dict[str, bytes], keys: dict[str, Path]
) -> None:
    data = sign_packed_payload(packed["base"], signer(keys))
    write_bundle_file(tmp_path / "b.rulc", data)
    assert (tmp_path / "b.rulc").read_bytes() == data
    assert load_bundle(tmp_path / "b.rulc", trust=trusted(keys)).signature.verified
    with pytest.raises(BundleError, match="bad signature"):  # the path prefix keeps the class
        load_bundle_path_with(tmp_path, flip(data, SIG_AT), trusted(keys))
    assert check_container(data).signature is not None


def load_bundle_path_with(folder: Path, data: bytes, trust: TrustedKey) -> None:
    path = folder / "tampered.rulc"
    path.write_bytes(data)
    try:
        load_bundle(path, trust=trust)
    except BadSignatureError as exc:
        assert str(exc).startswith(f"{path}: bad signature")
        raise


# --------------------------------------------------------------------------- reload


def test_reload_refuses_a_bundle_signed_by_another_key(
    tmp_path: Path, packed: dict[str, bytes], keys: dict[str, Path]
) -> None:
    path = tmp_path / "engine.rulc"
    write_bundle_file(path, sign_packed_payload(packed["base"], signer(keys)))
    reloader = BundleReloader.start(
        path, poll_s=0, background=False, loader=engine_loader(Path(f"{keys['fleet']}.pub"))
    )
    serving = reloader.current
    for data, message in (
        (sign_packed_payload(packed["variant"], signer(keys, "other")), "signed by another key"),
        (frame_payload(packed["variant"]), "unsigned bundle refused"),
    ):
        write_bundle_file(path, data)
        reloader.request()
        outcome = reloader.poll()
        assert outcome is not None and not outcome.ok and message in str(outcome.error)
        assert reloader.current is serving
        assert outcome.to_json(serving)["serving_digest"] == serving.bundle.digest
    write_bundle_file(path, sign_packed_payload(packed["variant"], signer(keys)))
    reloader.request()
    outcome = reloader.poll()
    assert outcome is not None and outcome.ok and outcome.changed and outcome.engine is not None
    assert outcome.to_json(serving)["signature"] == outcome.engine.bundle.signature.to_json()
    assert outcome.engine.bundle.signature.verified


# --------------------------------------------------------------------------- command line


def run(*argv: str | Path, code: str | None = None) -> subprocess.CompletedProcess[str]:
    """A real process: a console script from the venv, or ``python -c code``."""
    args = [str(a) for a in argv]
    command = [sys.executable, "-c", code, *args] if code else [str(BIN / args[0]), *args[1:]]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_cli_keygen_compile_sign_and_check_exit_codes(
    tmp_path: Path, packed: dict[str, bytes], keys: dict[str, Path]
) -> None:
    done = run("rulec", "keygen", "-o", tmp_path / "ground")
    assert done.returncode == 0 and "key id" in done.stderr
    assert stat.S_IMODE((tmp_path / "ground").stat().st_mode) == 0o600
    out = tmp_path / "engine.rulc"
    done = run("rulec", "compile", ROCKET, "-o", out, "--sign", tmp_path / "ground")
    assert done.returncode == 0, done.stderr
    assert "signed by key" in done.stderr
    pub = tmp_path / "ground.pub"
    good = run("rulec-onboard", "--bundle", out, "--trust", pub, "--check")
    assert good.returncode == 0, good.stderr
    report = json.loads(good.stdout)
    assert report["signature"]["verified"] and report["warning"] is None
    (tmp_path / "other").write_bytes(sign_packed_payload(packed["base"], signer(keys, "other")))
    config = tmp_path / "onboard.toml"  # trust from the config file, relative to it
    config.write_text('bundle = "other"\ntrust = "ground.pub"\nstdin = "jsonl"\n')
    done = run("rulec-onboard", "--config", config, "--check")
    assert done.returncode == 2 and done.stdout == ""
    assert "signed by another key refused" in done.stderr and done.stderr.count("\n") == 1


def test_check_exit_codes_for_each_refusal(
    tmp_path: Path,
    packed: dict[str, bytes],
    keys: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The same entry point in-process (the real processes are above), one case each."""
    from rulec.compiler.cli import main as rulec_main
    from rulec.runtime.daemon.command import main as onboard_main

    assert rulec_main(["keygen", "-o", str(keys["fleet"])]) == 2
    assert "already exists" in capsys.readouterr().err
    data = sign_packed_payload(packed["base"], signer(keys))
    pub = f"{keys['fleet']}.pub"
    refusals = {
        "unsigned": (frame_payload(packed["base"]), "unsigned bundle refused"),
        "other": (sign_packed_payload(packed["base"], signer(keys, "other")), "another key"),
        "tampered": (flip(data, PAYLOAD_AT + 300), "digest mismatch"),
        "resigned": (flip(data, SIG_AT + 1), "bad signature"),
        "flagged": (flip(frame_payload(packed["base"]), 6), "nonzero header flags 0x0001"),
    }
    for name, (content, reason) in refusals.items():
        (tmp_path / name).write_bytes(content)
        assert onboard_main(["--bundle", str(tmp_path / name), "--trust", pub, "--check"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and reason in err and err.count("\n") == 1, (name, err)
    (tmp_path / "good").write_bytes(data)
    assert onboard_main(["--bundle", str(tmp_path / "good"), "--trust", pub, "--check"]) == 0
    assert json.loads(capsys.readouterr().out)["signature"]["verified"]
    for name, warning in (("unsigned", "unsigned bundle loaded"), ("good", "not verified")):
        assert onboard_main(["--bundle", str(tmp_path / name), "--check"]) == 0
        out, err = capsys.readouterr()
        assert warning in json.loads(out)["warning"] and err == ""
    assert onboard_main(["--bundle", "x", "--trust", str(keys["fleet"]), "--check"]) == 2
    assert "this is a private key" in capsys.readouterr().err


BLOCK_CRYPTO = (
    "import sys; sys.modules['cryptography'] = None; "
    "from rulec.runtime.daemon.command import main; status = main(sys.argv[1:]); "
    "print(sorted(m for m in sys.modules if m.startswith('cryptography.')), file=sys.stderr); "
    "sys.exit(status)"
)


def test_daemon_refuses_to_start_with_a_key_but_no_library(
    tmp_path: Path, packed: dict[str, bytes], keys: dict[str, Path]
) -> None:
    bundle = tmp_path / "engine.rulc"
    write_bundle_file(bundle, sign_packed_payload(packed["base"], signer(keys)))
    pub = f"{keys['fleet']}.pub"
    done = run("--bundle", bundle, "--trust", pub, "--stdin", "jsonl", code=BLOCK_CRYPTO)
    assert done.returncode == 2, done.stderr
    assert "'cryptography'" in done.stderr and "rulec[sign]" in done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 2  # + module list
    # without a key the library is never imported: the signed bundle serves, unverified
    log = tmp_path / "log.jsonl"
    done = run("--bundle", bundle, "--stdin", "jsonl", "--log", log, code=BLOCK_CRYPTO)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "[]"
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert lines[0]["event"] == "start" and lines[0]["signature"]["signed"]
    assert "signature was not verified" in lines[1]["warning"]


def test_daemon_keeps_serving_when_a_reload_is_signed_by_another_key(
    tmp_path: Path, packed: dict[str, bytes], keys: dict[str, Path]
) -> None:
    bundle, log = tmp_path / "engine.rulc", tmp_path / "log.jsonl"
    write_bundle_file(bundle, sign_packed_payload(packed["base"], signer(keys)))
    argv = ["--bundle", bundle, "--trust", f"{keys['fleet']}.pub", "--stdin", "jsonl"]
    proc = subprocess.Popen(
        [str(BIN / "rulec-onboard"), *map(str, argv), "--reload-poll-s", "0", "--log", str(log)],
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )

    def line(event: str, nth: int = 0) -> dict[str, Any]:
        """The nth log line of this event, waiting for it."""
        deadline = time.monotonic() + 20
        records: list[dict[str, Any]] = []
        while time.monotonic() < deadline:
            records = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
            found = [r for r in records if r.get("event") == event]
            if len(found) > nth:
                return found[nth]
            time.sleep(0.02)
        raise AssertionError(f"no {event} line #{nth} in {records}")

    try:
        start = line("start")
        assert start["signature"]["verified"]
        write_bundle_file(bundle, sign_packed_payload(packed["variant"], signer(keys, "other")))
        proc.send_signal(signal.SIGHUP)
        refused = line("reload")
        assert not refused["ok"] and "signed by another key" in refused["error"]
        assert refused["serving_digest"] == start["digest"]
        write_bundle_file(bundle, sign_packed_payload(packed["variant"], signer(keys)))
        proc.send_signal(signal.SIGHUP)
        accepted = line("reload", 1)
        assert accepted["ok"] and accepted["changed"] and accepted["signature"]["verified"]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.stderr is not None
    assert "reload failed, keeping bundle" in proc.stderr.read().decode()
