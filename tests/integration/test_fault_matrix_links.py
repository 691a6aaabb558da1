"""Link fault matrix: bit-error rates 1e-5 to 1e-2, dropped, duplicated and split bytes,
duplicated frames, and a link lost mid-frame and back, each through the real daemon
(TCP on 127.0.0.1; the split row over a real pty) with its real frame decoder.

For each row the injected byte stream itself is the expectation: split on the 0x00
delimiter, every run that is exactly an encoded frame is accepted and every other run
is one dropped frame (``model``).  Then, per row:

- the daemon's drop counters equal the bad runs of what was sent, its duplicate count
  the injected duplicates that arrived intact, its ``frames_missing`` the sequence
  numbers that never arrived intact;
- every intact frame is evaluated, and the raise/clear events equal those of a fresh
  ``Engine`` stepped with exactly the intact frames: nothing from a frame that failed
  CRC or length checks;
- resynchronisation within one frame: an intact frame is lost only right after a
  damaged one (whose delimiter was hit), never two in a row.

``link_row`` is shared with ``bench/fault_matrix.py`` (more frames per row).
"""

from __future__ import annotations

import json
import os
import select
import socket
import threading
import time
import tty
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.firmware_bridge import protocol as wire
from rulec.firmware_bridge.sim.faults import FaultConfig, FaultInjector
from rulec.runtime.bundle.format import encode_bundle, write_bundle_file
from rulec.runtime.daemon.config import build_config
from rulec.runtime.daemon.loop import Daemon, EventLog
from rulec.runtime.engine.engine import Engine

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

ROCKET = Path(__file__).resolve().parents[2] / "examples" / "manuals" / "rocket_engine"
NAMES = {0: "chamber_temperature", 1: "chamber_pressure"}
ROWS: dict[str, FaultConfig] = {
    "ber 1e-5": FaultConfig(ber=1e-5, seed=1),
    "ber 1e-4": FaultConfig(ber=1e-4, seed=2),
    "ber 1e-3": FaultConfig(ber=1e-3, seed=3),
    "ber 1e-2": FaultConfig(ber=1e-2, seed=4),
    "bytes dropped 1e-3": FaultConfig(drop_rate=1e-3, seed=5),
    "bytes duplicated 1e-3": FaultConfig(dup_rate=1e-3, seed=6),
    "frames duplicated 5 %": FaultConfig(frame_dup_rate=0.05, seed=7),
    "split writes (pty)": FaultConfig(split=True, max_pieces=6, seed=8),
}


def frame(i: int) -> tuple[bytes, dict[int, float]]:
    """Frame ``i``: the temperature crosses 600 °C (deadband 5) and the pressure 320 psi
    every few frames, so raise and clear events are frequent; values are unique."""
    values = {0: (550.0, 620.0, 640.0, 580.0)[i % 4] + (i % 997) / 1024,
              1: 200.0 if i % 6 < 3 else 330.0}
    data = wire.encode_frame(wire.Frame(wire.MsgType.TELEMETRY, i, 1_000_000 + 10_000 * i,
                                        wire.encode_telemetry(values)))
    return data, values


@dataclass
class Model:
    """What the bytes sent imply: accepted frame numbers in order, and bad runs."""

    accepted: list[int]
    bad_runs: int
    duplicates: int


def model(sent: bytes, originals: dict[bytes, int]) -> Model:
    accepted: list[int] = []
    bad = dups = 0
    for run in sent.split(b"\x00"):
        if not run:
            continue
        index = originals.get(run + b"\x00")
        if index is None:
            bad += 1
        elif accepted and accepted[-1] == index:
            dups += 1
        else:
            accepted.append(index)
    return Model(accepted, bad, dups)


def lost_beyond_one(copies: list[tuple[int, bool]], accepted: set[int]) -> int:
    """Intact copies that were not decoded although the copy before them was intact too:
    resynchronisation may cost the one frame after a damaged one, never more."""
    lost = 0
    for (_, prev_intact), (index, intact) in zip(copies, copies[1:], strict=False):
        if intact and prev_intact and index not in accepted:
            lost += 1
    return lost


class Sink:
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

    def events(self, *kinds: str) -> list[dict[str, Any]]:
        with self._lock:
            return [r for r in self.records if r.get("event") in kinds]


@contextmanager
def daemon_on(bundle: Path, **link: Any) -> Iterator[tuple[Daemon, Sink]]:
    flags = {"bundle": str(bundle), "summary_s": 0.0, "heartbeat_s": 0.0,
             "reload_poll_s": 0.0, "read_timeout_s": 0.02, "stale_check_s": 60.0,
             "reconnect_min_s": 0.02, "reconnect_max_s": 0.1, **link}
    sink = Sink()
    daemon = Daemon(build_config({}, flags), EventLog("-", stream=sink))
    thread = threading.Thread(target=daemon.run, daemon=True)
    thread.start()
    try:
        yield daemon, sink
    finally:
        daemon.request_stop("test over")
        thread.join(10)
        assert not thread.is_alive()


def until(done: Callable[[], bool], what: Callable[[], object], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, what()
        time.sleep(0.01)


def reference(bundle: Path, frames: list[tuple[int, dict[int, float]]],
              stale_at: tuple[int, float] | None = None) -> list[tuple[float, str, str]]:
    """(t, event, rule) of a fresh engine stepped with exactly these frames; a link
    loss after frame ``stale_at[0]`` marks every seen value stale at ``stale_at[1]``."""
    engine = Engine.from_file(str(bundle))
    out = []
    seen: set[str] = set()
    last = 0.0  # the daemon's engine time never goes back (frames up to 1 s late: held)
    for i, values in frames:
        named = {NAMES[c]: v for c, v in values.items()}
        seen |= set(named)
        last = max(last, (1_000_000 + 10_000 * i) / 1e6)
        events = engine.step(last, named)
        if stale_at is not None and i == stale_at[0]:
            last = stale_at[1]
            events += engine.step(last, {n: float("nan") for n in seen})
        out += [(e.t, e.event, e.rule) for e in events if e.rule is not None]
    return out


def link_row(bundle: Path, config: FaultConfig, n: int) -> dict[str, Any]:
    """One row: n frames through the injector to a fresh daemon; expectation and result."""
    originals: dict[bytes, int] = {}
    values: dict[int, dict[int, float]] = {}
    inj = FaultInjector(config)
    pieces: list[bytes] = []
    copies: list[tuple[int, bool]] = []
    for i in range(1, n + 1):
        data, v = frame(i)
        originals[data], values[i] = i, v
        for copy in inj.apply(data).copies:
            pieces += inj.pieces(copy)
            copies.append((i, copy == data))
    last, v = frame(n + 1)  # an intact closing frame after a delimiter: the stream ends
    originals[last], values[n + 1] = n + 1, v
    pieces += [b"\x00", last]
    want = model(b"".join(pieces), originals)
    pty = config.split
    with _link(bundle, pty) as (daemon, sink, write, read):
        for piece in pieces:
            write(piece)
            read()
        total = daemon.counters.total
        until(lambda: total["samples"] >= len(want.accepted),
              lambda: (dict(total), len(want.accepted)))
        got_wire = read()
    total = daemon.counters.total
    dropped = daemon.counters.dropped(total)
    end = next((k for k, r in enumerate(sink.records) if r.get("event") == "stale"),
               len(sink.records))  # closing the link at the end makes every value stale
    events = [(r["t"], r["event"], r["rule"]) for r in sink.records[:end]
              if r.get("event") in ("raise", "clear")]
    ref = reference(bundle, [(i, values[i]) for i in want.accepted])
    span = want.accepted[-1] - want.accepted[0] + 1
    stamps = {1_000_000 + 10_000 * i for i in want.accepted}
    advisories = [f for f in wire.FrameDecoder().feed(got_wire)
                  if f.msg_type == wire.MsgType.ADVISORY]
    return {
        "frames": n + 1, "injected": inj.counters.as_dict(),
        "expected_bad": want.bad_runs, "expected_ok": len(want.accepted),
        "expected_dup": want.duplicates, "expected_missing": span - len(want.accepted),
        "dropped": dropped, "frames_ok": total["frames_ok"],
        "frames_missing": total["frames_missing"],
        "events_equal": events == ref, "events": len(events),
        "advisories_from_bad_frames": sum(f.timestamp_us not in stamps for f in advisories),
        "advisory_frames": len(advisories),
        "lost_beyond_one": lost_beyond_one(copies, set(want.accepted)),
    }


@contextmanager
def _link(bundle: Path, pty: bool) -> Iterator[tuple[Daemon, Sink, Callable[[bytes], None],
                                                    Callable[[], bytes]]]:
    """The daemon and the firmware's end of its link: TCP, or a pty pair."""
    got = bytearray()
    if pty:
        master, slave = os.openpty()
        tty.setraw(slave)
        try:
            with daemon_on(bundle, serial=os.ttyname(slave)) as (daemon, sink):
                until(lambda: daemon.link_state == "up", lambda: daemon.link_state)

                def read_pty() -> bytes:
                    while select.select([master], [], [], 0)[0]:
                        got.extend(os.read(master, 65536))
                    return bytes(got)

                def write_pty(data: bytes) -> None:
                    view = memoryview(data)
                    while view:
                        if select.select([], [master], [], 0.05)[1]:
                            view = view[os.write(master, view):]
                        read_pty()

                yield daemon, sink, write_pty, read_pty
                time.sleep(0.05)
                read_pty()
        finally:
            os.close(master)
            os.close(slave)
        return
    with daemon_on(bundle, tcp_listen="127.0.0.1:0") as (daemon, sink):
        until(lambda: daemon.link_state == "listening", lambda: daemon.link_state)
        sock = socket.create_connection(daemon.link.address)

        def read_tcp() -> bytes:
            while select.select([sock], [], [], 0)[0]:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                got.extend(chunk)
            return bytes(got)

        try:
            yield daemon, sink, sock.sendall, read_tcp
            time.sleep(0.05)
            read_tcp()
        finally:
            sock.close()


# --------------------------------------------------------------------------- tests


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("links") / "engine.rulec"
    write_bundle_file(path, encode_bundle(build_payload(collect_rules([ROCKET]), "rocket")))
    return path


def check_row(name: str, row: dict[str, Any]) -> None:
    print(f"\n{name}: {json.dumps({k: v for k, v in row.items() if k != 'injected'})}")
    dropped = dict(row["dropped"])
    dups = dropped.pop("duplicate", 0)
    assert sum(dropped.values()) == row["expected_bad"], row
    assert dups == row["expected_dup"], row
    assert row["frames_ok"] == row["expected_ok"], row  # every intact frame evaluated
    assert row["frames_missing"] == row["expected_missing"], row
    assert row["events_equal"] and row["events"] > 0, row
    assert row["advisories_from_bad_frames"] == 0 and row["advisory_frames"] > 0, row
    assert row["lost_beyond_one"] == 0, row


@pytest.mark.parametrize("name", list(ROWS))
def test_link_fault_row(bundle: Path, name: str) -> None:
    config = ROWS[name]
    row = link_row(bundle, config, 1500)
    check_row(name, row)
    if config.alters_bytes:
        assert row["expected_bad"] > 0 and row["injected"]["frames_corrupted"] > 0


def test_link_lost_mid_frame_and_back(bundle: Path) -> None:
    """TCP: half the frames, a frame cut short, the connection gone; then a new one."""
    first = [frame(i) for i in range(1, 301)]
    cut = frame(301)[0][:11]
    second = [frame(i) for i in range(302, 601)]
    with daemon_on(bundle, tcp_listen="127.0.0.1:0") as (daemon, sink):
        until(lambda: daemon.link_state == "listening", lambda: daemon.link_state)
        sock = socket.create_connection(daemon.link.address)
        sock.sendall(b"".join(d for d, _ in first) + cut)
        total = daemon.counters.total
        until(lambda: total["samples"] >= 300, lambda: dict(total))
        sock.close()
        until(lambda: bool(sink.events("stale")), lambda: sink.records[-3:])
        sock = socket.create_connection(daemon.link.address)
        sock.sendall(b"".join(d for d, _ in second))
        until(lambda: total["samples"] >= 599, lambda: dict(total))
        time.sleep(0.05)
        sock.close()
    stale = sink.events("stale")[0]
    dropped = daemon.counters.dropped(daemon.counters.total)
    assert sum(dropped.values()) == 1, dropped  # the cut frame, flushed when the link went
    assert daemon.counters.total["frames_ok"] == 599
    assert stale["parameters"] == sorted(NAMES.values())
    events = [(r["t"], r["event"], r["rule"]) for r in sink.events("raise", "clear")]
    frames = [(i, v) for i, (_, v) in enumerate(first + second, start=1)]
    frames = [(i if i <= 300 else i + 1, v) for i, v in frames]
    assert events == reference(bundle, frames, stale_at=(300, stale["t"]))
    downs = [r for r in sink.events("link") if r["state"] == "down"]
    assert len(downs) >= 1
