"""Bundle corruption matrix: every truncation and 10,000 seeded single-bit flips of a
real compiled bundle are all refused, each with the error its byte position calls for;
and a real daemon (a child process fed over TCP) keeps serving the previous bundle
through corrupt bundles dropped in and SIGHUPed, without losing a sample.

``corruption_matrix`` is shared with ``bench/fault_matrix.py`` (more flips, every
example bundle, two-bit flips).  A flip's expected error follows from the container
layout (docs/bundle-format.md): magic 0-3, version 4-5, flags 6-7, payload length 8-15,
digest 16-47, payload after; a flip in the length claims more bytes than the file has
(truncated) or fewer (trailing bytes).
"""

from __future__ import annotations

import json
import random
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.firmware_bridge import protocol as wire
from rulec.runtime.bundle.format import encode_bundle, write_bundle_file
from rulec.runtime.bundle.loader import load_bundle
from rulec.runtime.errors import BundleError

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "manuals"
FLIPS = 10_000

# error kind -> the message prefix that names it (runtime/bundle/format.py)
KINDS = {
    "too short": "too short for a bundle header",
    "bad magic": "bad magic",
    "version": "unsupported bundle format version",
    "flags": "nonzero header flags",
    "truncated": "truncated:",
    "trailing": "trailing bytes:",
    "digest": "digest mismatch:",
}


def compile_example(name: str) -> bytes:
    return encode_bundle(build_payload(collect_rules([EXAMPLES / name]), name))


def error_kind(data: bytes) -> str:
    """The kind of refusal of ``data`` ("ACCEPTED" if it loads, "other: ..." if unnamed)."""
    try:
        load_bundle(data)
    except BundleError as exc:
        text = str(exc)
        for kind, prefix in KINDS.items():
            if text.startswith(prefix):
                return kind
        return f"other: {text[:60]}"
    except Exception as exc:  # noqa: BLE001 - anything but a BundleError is a finding
        return f"crash: {type(exc).__name__}: {exc}"
    return "ACCEPTED"


def expected_flip_kind(data: bytes, bit: int) -> set[str]:
    """The refusal a flip of ``bit`` must cause, from the header layout alone."""
    at = bit // 8
    if at < 4:
        return {"bad magic"}
    if at < 6:
        return {"version"}
    if at < 8:
        return {"flags"}
    if at < 16:
        return {"truncated", "trailing"}
    return {"digest"}


def flip(data: bytes, bit: int) -> bytes:
    out = bytearray(data)
    out[bit // 8] ^= 1 << (bit % 8)
    return bytes(out)


def corruption_matrix(data: bytes, flips: int, seed: int = 0,
                      bits_per_flip: int = 1) -> dict[str, Any]:
    """Every truncation and ``flips`` seeded corruptions of ``bits_per_flip`` bits:
    the distribution of error kinds, and every case whose kind is not the expected one."""
    truncations: Counter[str] = Counter()
    wrong: list[tuple[str, int, str]] = []
    for n in range(len(data)):
        kind = error_kind(data[:n])
        truncations[kind] += 1
        if kind != ("too short" if n < 48 else "truncated"):
            wrong.append(("truncation", n, kind))
    rng = random.Random(seed)
    flipped: Counter[str] = Counter()
    for _ in range(flips):
        bits = rng.sample(range(8 * len(data)), bits_per_flip)
        bad = data
        for bit in bits:
            bad = flip(bad, bit)
        kind = error_kind(bad)
        flipped[kind] += 1
        first = min(bits)
        if bits_per_flip == 1 and kind not in expected_flip_kind(data, first):
            wrong.append(("flip", first, kind))
        elif kind == "ACCEPTED" or kind.startswith(("other", "crash")):
            wrong.append(("flip", first, kind))
    return {"bytes": len(data), "truncations": dict(truncations), "flips": dict(flipped),
            "refused": sum(truncations.values()) + sum(flipped.values())
            - truncations["ACCEPTED"] - flipped["ACCEPTED"],
            "cases": len(data) + flips, "wrong": wrong}


@pytest.fixture(scope="module")
def rocket() -> bytes:
    return compile_example("rocket_engine")


def test_every_truncation_and_10000_flips_are_refused_with_their_own_error(
        rocket: bytes) -> None:
    m = corruption_matrix(rocket, FLIPS, seed=2024)
    print(f"\n{m['bytes']} bytes: truncations {m['truncations']}, flips {m['flips']}")
    assert m["refused"] == m["cases"] == len(rocket) + FLIPS  # 100 % refused
    assert m["wrong"] == []
    assert m["truncations"] == {"too short": 48, "truncated": len(rocket) - 48}
    # a flip lands in the payload or digest most of the time, and every header field
    # region was hit at least once by 10,000 uniform flips of a 13 kB file
    assert m["flips"]["digest"] > 0.99 * FLIPS
    assert {"bad magic", "version", "flags"} & set(m["flips"])


def test_every_header_bit_flip_is_refused_by_the_check_for_its_field(rocket: bytes) -> None:
    """The 384 header bits one by one: the sampled flips above rarely reach them."""
    for bit in range(48 * 8):
        kind = error_kind(flip(rocket, bit))
        assert kind in expected_flip_kind(rocket, bit), (bit, kind)


def test_the_intact_bundle_loads(rocket: bytes) -> None:
    assert error_kind(rocket) == "ACCEPTED"


# --------------------------------------------------------------------------- the daemon


def wrong_version(data: bytes) -> bytes:
    return data[:4] + (2).to_bytes(2, "little") + data[6:]


def read_log(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def wait_log(path: Path, pred: Callable[[dict[str, Any]], bool], count: int = 1,
             timeout: float = 20.0) -> list[dict[str, Any]]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [r for r in read_log(path) if pred(r)]
        if len(found) >= count:
            return found
        time.sleep(0.02)
    raise AssertionError(f"log has {[r.get('event') for r in read_log(path)]}")


def test_daemon_keeps_serving_through_corrupt_bundles_and_loses_no_sample(
        tmp_path: Path, rocket: bytes) -> None:
    """rulec-onboard as a child process on TCP: while a 500 Hz frame stream runs, ten
    corrupt bundles are dropped in, each followed by SIGHUP; every reload is refused,
    the first bundle serves throughout, and every frame sent is evaluated."""
    bundle = tmp_path / "engine.rulec"
    write_bundle_file(bundle, rocket)
    log = tmp_path / "onboard.jsonl"
    rng = random.Random(7)
    corrupt = [rocket[:0], rocket[:47], rocket[:48], rocket[:-1], wrong_version(rocket),
               rocket + b"\0", b"not a bundle at all", flip(rocket, 8 * 20),
               *[flip(rocket, rng.randrange(8 * 48, 8 * len(rocket))) for _ in range(2)]]
    proc = subprocess.Popen(
        [sys.executable, "-m", "rulec.runtime.daemon", "--bundle", str(bundle),
         "--tcp-listen", "127.0.0.1:0", "--reload-poll-s", "0", "--heartbeat-s", "0",
         "--summary-s", "0", "--log", str(log)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    sent = 0
    try:
        listening = wait_log(log, lambda r: r.get("event") == "link"
                             and r.get("state") == "listening")[0]
        host, port = listening["link"].removeprefix("tcp://").rsplit(":", 1)
        sock = socket.create_connection((host, int(port)))
        start = wait_log(log, lambda r: r.get("event") == "start")[0]
        seq = 0
        for i, data in enumerate(corrupt):
            bundle.write_bytes(data)  # not atomic on purpose: a broken file, as found
            proc.send_signal(signal.SIGHUP)
            deadline = time.monotonic() + 20
            while len([r for r in read_log(log) if r.get("event") == "reload"]) <= i:
                assert time.monotonic() < deadline, "no reload line"
                seq += 1
                values = {0: 550.0 + seq % 7, 1: 200.0}
                sock.sendall(wire.encode_frame(wire.Frame(
                    wire.MsgType.TELEMETRY, seq, 1_000_000 + 2000 * seq,
                    wire.encode_telemetry(values))))
                sent += 1
                time.sleep(0.002)
        seq += 1  # a last frame that raises the coolant rule of the first bundle
        sock.sendall(wire.encode_frame(wire.Frame(
            wire.MsgType.TELEMETRY, seq, 1_000_000 + 2000 * seq,
            wire.encode_telemetry({0: 620.0}))))
        sent += 1
        wait_log(log, lambda r: r.get("event") == "raise")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
        sock.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    records = read_log(log)
    reloads = [r for r in records if r.get("event") == "reload"]
    assert len(reloads) == len(corrupt)
    assert all(not r["ok"] and r["serving_digest"] == start["digest"] for r in reloads)
    assert all(r.get("event") != "crash" for r in records)
    summary = [r for r in records if r.get("event") == "summary"][-1]
    totals = summary["totals"]
    assert totals["samples"] == totals["frames_ok"] == sent, (totals, sent)
    assert totals["frames_dropped"] == 0 and totals["reload_failures"] == len(corrupt)
    raised = [r for r in records if r.get("event") == "raise"]
    assert raised and all("600 °C" in r["source"]["text"] for r in raised)
    assert proc.stderr is not None
    err = proc.stderr.read().decode()
    assert err.count("reload failed, keeping bundle") == len(corrupt) and "Traceback" not in err
