"""A hypothesis state machine over the running daemon: load / reload (good, corrupt and
wrong-version bundles) / evaluate / disconnect / reconnect.

The daemon runs for real on a thread (``Daemon.run``, TCP on 127.0.0.1, reload on
request as SIGHUP does it); the machine is the firmware and the operator.  Invariant at
every step: exactly one validated bundle serves (the daemon's engine is the reloader's
current one), its digest is the digest
of the last good bundle written, and the firmware, when connected, was told that digest
in the last BUNDLE_INFO frame.
"""

from __future__ import annotations

import json
import select
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.firmware_bridge import protocol as wire
from rulec.runtime.bundle.format import encode_bundle, write_bundle_file
from rulec.runtime.bundle.loader import load_bundle
from rulec.runtime.daemon.config import build_config
from rulec.runtime.daemon.loop import Daemon, EventLog

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

ROCKET = Path(__file__).resolve().parents[3] / "examples" / "manuals" / "rocket_engine"


def _good_bundles() -> list[bytes]:
    payload = build_payload(collect_rules([ROCKET]), "rocket_engine")
    out = [encode_bundle(payload)]
    for other in ("0123456789abcdef", "fedcba9876543210"):  # another id, another digest
        payload["meta"]["bundle_id"] = other
        out.append(encode_bundle(payload))
    return out


GOOD = _good_bundles()


def corrupt(data: bytes, where: int) -> bytes:
    out = bytearray(data)
    out[48 + where % (len(data) - 48)] ^= 0x10
    return bytes(out)


def wrong_version(data: bytes) -> bytes:
    return data[:4] + (7).to_bytes(2, "little") + data[6:]


class Sink:
    """The daemon's JSON lines, kept in memory (EventLog writes here)."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []
        self._buf = ""
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        with self._lock:
            self._buf += text
            *lines, self._buf = self._buf.split("\n")
            self.records.extend(json.loads(line) for line in lines if line)
        return len(text)

    def flush(self) -> None:
        pass

    def count(self, pred: Callable[[dict[str, Any]], bool]) -> int:
        with self._lock:
            return sum(1 for r in self.records if pred(r))


def until(done: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "timed out waiting for the daemon"
        time.sleep(0.005)


class ReloadMachine(RuleBasedStateMachine):
    """Operator and firmware against one running daemon."""

    def __init__(self) -> None:
        super().__init__()
        self.tmp: Path | None = None
        self.daemon: Daemon | None = None
        self.thread: threading.Thread | None = None
        self.sink = Sink()
        self.sock: socket.socket | None = None
        self.decoder = wire.FrameDecoder()
        self.infos: list[bytes] = []  # digests of the BUNDLE_INFO frames received
        self.good_digest = ""
        self.seq = 0
        self.t_us = 1_000_000

    # ------------------------------------------------------------ firmware side

    @property
    def path(self) -> Path:
        assert self.tmp is not None
        return self.tmp / "engine.rulec"

    def reload(self) -> None:
        """SIGHUP, as the signal handler does it, and wait for its outcome line."""
        assert self.daemon is not None
        before = self.sink.count(lambda r: r.get("event") == "reload")
        self.daemon.request_reload("SIGHUP")
        until(lambda: self.sink.count(lambda r: r.get("event") == "reload") > before)
        if self.sock is not None:  # BUNDLE_INFO follows every attempt
            want = len(self.infos) + 1
            until(lambda: self.pump() >= want)

    def pump(self) -> int:
        """Read what the daemon sent; the number of BUNDLE_INFO frames so far."""
        assert self.sock is not None
        while select.select([self.sock], [], [], 0)[0]:
            data = self.sock.recv(65536)
            if not data:
                break
            for frame in self.decoder.feed(data):
                if frame.msg_type == wire.MsgType.BUNDLE_INFO:
                    self.infos.append(wire.decode_bundle_info(frame.payload).digest)
        return len(self.infos)

    # ------------------------------------------------------------ rules

    @initialize(first=st.sampled_from(GOOD))
    def start(self, first: bytes) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="rulec-reload-sm-"))
        write_bundle_file(self.path, first)
        self.good_digest = load_bundle(first).digest
        flags = {"bundle": str(self.path), "tcp_listen": "127.0.0.1:0", "summary_s": 0.0,
                 "heartbeat_s": 0.0, "reload_poll_s": 0.0, "read_timeout_s": 0.01,
                 "reconnect_min_s": 0.01, "reconnect_max_s": 0.05}
        self.daemon = Daemon(build_config({}, flags), EventLog("-", stream=self.sink))
        self.thread = threading.Thread(target=self.daemon.run, daemon=True)
        self.thread.start()
        until(lambda: self.sink.count(lambda r: r.get("state") == "listening") > 0)

    @rule(which=st.sampled_from(GOOD))
    def load_good(self, which: bytes) -> None:
        write_bundle_file(self.path, which)
        self.reload()
        self.good_digest = load_bundle(which).digest

    @rule(where=st.integers(0, 1 << 20), which=st.sampled_from(GOOD))
    def load_corrupt(self, where: int, which: bytes) -> None:
        self.path.write_bytes(corrupt(which, where))
        self.reload()

    @rule(which=st.sampled_from(GOOD))
    def load_wrong_version(self, which: bytes) -> None:
        self.path.write_bytes(wrong_version(which))
        self.reload()

    @rule(cut=st.integers(0, 200))
    def load_truncated(self, cut: int) -> None:
        self.path.write_bytes(GOOD[0][:cut])
        self.reload()

    @rule()
    def reload_same_file(self) -> None:
        self.reload()

    @rule(temperature=st.sampled_from([20.0, 550.0, 620.0, 990.0, float("nan"), 5000.0]))
    @precondition(lambda self: self.sock is not None)
    def evaluate(self, temperature: float) -> None:
        assert self.sock is not None and self.daemon is not None
        self.seq += 1
        self.t_us += 10_000
        samples = self.daemon.counters.total
        before = samples["samples"]
        self.sock.sendall(wire.encode_frame(wire.Frame(
            wire.MsgType.TELEMETRY, self.seq, self.t_us,
            wire.encode_telemetry({0: temperature, 1: 200.0}))))
        until(lambda: samples["samples"] > before)

    @rule()
    @precondition(lambda self: self.sock is not None)
    def disconnect(self) -> None:
        assert self.sock is not None
        self.sock.close()
        self.sock = None
        until(lambda: self.sink.count(lambda r: r.get("state") == "down")
              >= self.sink.count(lambda r: r.get("state") == "up"))

    @rule()
    @precondition(lambda self: self.sock is None)
    def reconnect(self) -> None:
        assert self.daemon is not None
        self.sock = socket.create_connection(self.daemon.link.address)
        self.decoder = wire.FrameDecoder()
        self.infos = []
        until(lambda: self.pump() >= 1)  # a new firmware learns the bundle first

    # ------------------------------------------------------------ invariant

    @invariant()
    def exactly_one_validated_bundle_with_the_last_good_digest(self) -> None:
        if self.daemon is None:
            return
        engine = self.daemon.engine
        assert self.daemon.reloader.current is engine
        assert engine.bundle.digest == self.good_digest
        if self.sock is not None and self.infos:
            assert self.infos[-1] == bytes.fromhex(self.good_digest)

    def teardown(self) -> None:
        if self.sock is not None:
            self.sock.close()
        if self.daemon is not None and self.thread is not None:
            self.daemon.request_stop("test over")
            self.thread.join(5)
            assert not self.thread.is_alive(), "the daemon did not stop"
            assert not any(r.get("event") == "crash" for r in self.sink.records)
            failed = self.sink.count(lambda r: r.get("event") == "reload" and not r["ok"])
            assert failed == self.daemon.reloader.failures
        if self.tmp is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)


TestReloadMachine = ReloadMachine.TestCase
TestReloadMachine.settings = settings(
    max_examples=12, stateful_step_count=10, deadline=None,
    suppress_health_check=[HealthCheck.too_slow], derandomize=True)


def test_good_bundles_have_distinct_digests() -> None:
    assert len({load_bundle(b).digest for b in GOOD}) == len(GOOD)
    with pytest.raises(Exception, match="digest mismatch"):
        load_bundle(corrupt(GOOD[0], 3))
