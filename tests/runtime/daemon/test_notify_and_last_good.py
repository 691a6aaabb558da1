"""The daemon under systemd: the notify protocol on a real unix datagram socket (READY,
WATCHDOG at half WATCHDOG_USEC, STOPPING), and the last good bundle that keeps a
restart with a corrupt bundle evaluating."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.runtime.bundle.format import encode_bundle, write_bundle_file

REPO = Path(__file__).resolve().parents[3]
ROCKET = REPO / "examples" / "manuals" / "rocket_engine"
SAMPLES = "time,chamber_temperature\n0,620\n1,500\n"


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return encode_bundle(build_payload(collect_rules([ROCKET]), "rocket"))


def daemon(*argv: str | Path, env: dict[str, str] | None = None, **kw: object
           ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulec.runtime.daemon", *map(str, argv)],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})}, **kw)  # type: ignore[call-overload]


def test_the_notify_protocol_on_a_real_socket(good: bytes, tmp_path: Path) -> None:
    bundle = tmp_path / "engine.rulec"
    write_bundle_file(bundle, good)
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(10)
    env = {**os.environ, "NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "200000"}
    proc = subprocess.Popen([sys.executable, "-m", "rulec.runtime.daemon", "--bundle",
                             str(bundle), "--tcp-listen", "127.0.0.1:0", "--log",
                             str(tmp_path / "log.jsonl")], env=env)
    try:
        got = [sock.recv(4096).decode()]
        assert got[0].startswith("READY=1") and "STATUS=serving bundle" in got[0]
        started = time.monotonic()
        while sum(m == "WATCHDOG=1" for m in got) < 3:
            got.append(sock.recv(4096).decode())
        assert time.monotonic() - started < 5  # every 0.1 s, from the main loop
        proc.send_signal(signal.SIGTERM)
        while not got[-1].startswith("STOPPING=1"):
            got.append(sock.recv(4096).decode())
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        sock.close()


def test_without_a_notify_socket_nothing_is_sent(good: bytes, tmp_path: Path) -> None:
    from rulec.runtime.daemon.notify import Notifier

    assert not Notifier({}).active and Notifier({}).send("READY=1") is False
    assert Notifier({"NOTIFY_SOCKET": "@abstract-name"}).active


def test_a_corrupt_bundle_at_restart_serves_the_last_good_one(good: bytes,
                                                              tmp_path: Path) -> None:
    bundle, kept = tmp_path / "engine.rulec", tmp_path / "state" / "last-good.rulec"
    kept.parent.mkdir()
    write_bundle_file(bundle, good)
    first = daemon("--bundle", bundle, "--last-good", kept, "--stdin", "csv", input=SAMPLES)
    assert first.returncode == 0 and kept.read_bytes() == good
    assert '"event": "last_good"' in first.stdout and '"written"' in first.stdout
    bundle.write_bytes(good[:200])  # a torn copy at the configured path
    check = daemon("--bundle", bundle, "--last-good", kept, "--check")
    assert check.returncode == 0 and '"fallback"' in check.stdout
    again = daemon("--bundle", bundle, "--last-good", kept, "--stdin", "csv", input=SAMPLES)
    assert again.returncode == 0
    assert "serving the last good bundle" in again.stderr
    assert '"event": "raise"' in again.stdout  # still evaluating
    assert kept.read_bytes() == good  # the kept copy is never replaced by a bad one
    without = daemon("--bundle", bundle, "--stdin", "csv", input=SAMPLES)
    assert without.returncode == 2 and "truncated" in without.stderr
