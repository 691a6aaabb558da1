"""Overload: telemetry at twice the sustainable rate, for minutes, into the real daemon.

Plain script (not pytest; tests/integration/test_fault_matrix_overload.py is the short version).
It compiles the rocket example, starts ``rulec-onboard`` as a child on TCP, and:

1. calibrates: frames written as fast as the socket takes them with every frame
   evaluated (``--max-frames-per-read 0``); the sustainable rate is what the daemon
   evaluated per second;
2. runs ``--seconds`` at ``--factor`` (2) times that rate, paced every millisecond, with
   ``--max-frames-per-read LIMIT``, and for comparison ``--baseline-seconds`` with the
   limit off.  Exit 0 when, with the limit, every frame was evaluated or counted, the
   p99.9 latency is within ``--budget-ms`` and the RSS grew less than 10 MB after the
   warm-up.

With two or more CPUs the daemon is pinned to one and this firmware to another.
Every frame's timestamp is the sender's CLOCK_MONOTONIC in microseconds, and the daemon
stamps an ADVISORY with the time of the sample that caused it, so each advisory gives
the latency of what was evaluated: written -> its advisory read back.  The chamber
temperature crosses 600 °C every 50 frames, so advisories come ~2 per 100 frames.
Reported per phase: offered and achieved rates, frames evaluated and dropped
(``overload``, from the daemon's summaries), advisory latency percentiles, and the
daemon's RSS over time (/proc).

    python bench/overload.py                        # 120 s overload + 20 s baseline
    python bench/overload.py --seconds 600 --limit 64
"""

from __future__ import annotations

import argparse
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.firmware_bridge import protocol as wire
from rulec.runtime.bundle.format import encode_bundle, write_bundle_file

REPO = Path(__file__).resolve().parent.parent
ROCKET = REPO / "examples" / "manuals" / "rocket_engine"


def percentiles(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    data = sorted(values)

    def rank(q: float) -> float:
        return data[min(len(data) - 1, max(0, int(q * len(data) + 0.999999) - 1))]

    return {"n": len(data), "p50": round(rank(0.5), 2), "p99": round(rank(0.99), 2),
            "p99_9": round(rank(0.999), 2), "max": round(data[-1], 2)}


def rss_kb(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def pin(pid: int, cpu: int) -> None:
    """Pin a process to one CPU (when there are two or more), as bench_e2e.py does, so
    the firmware's encoding does not take the daemon's CPU."""
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if len(cpus) >= 2:
        os.sched_setaffinity(pid, {cpus[cpu % len(cpus)]})


class Daemon:
    """rulec-onboard as a child process on 127.0.0.1, its log in a file."""

    def __init__(self, bundle: Path, work: Path, limit: int) -> None:
        self.log = work / f"onboard-{limit}-{time.monotonic_ns()}.jsonl"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rulec.runtime.daemon", "--bundle", str(bundle),
             "--tcp-listen", "127.0.0.1:0", "--log", str(self.log), "--summary-s", "1",
             "--heartbeat-s", "0", "--reload-poll-s", "0", "--stale-check-s", "60",
             "--max-frames-per-read", str(limit)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        pin(self.proc.pid, 1)  # the daemon on one CPU, this firmware on the other
        deadline = time.monotonic() + 30
        while True:
            listening = [r for r in self.records() if r.get("state") == "listening"]
            if listening:
                host, port = listening[0]["link"].removeprefix("tcp://").rsplit(":", 1)
                self.address = (host, int(port))
                return
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise SystemExit("the daemon did not start")
            time.sleep(0.05)

    def records(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        out = []
        for line in self.log.read_text().splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                pass  # a line being written
        return out

    def stop(self) -> list[dict[str, Any]]:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        return self.records()


class Firmware:
    """Writes paced frames stamped with CLOCK_MONOTONIC; a thread reads advisories."""

    def __init__(self, address: tuple[str, int]) -> None:
        self.sock = socket.create_connection(address)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.seq = 0
        self.latency_ms: list[float] = []
        self.stopped = False
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def frame(self, now_us: int) -> bytes:
        self.seq += 1
        temp = 620.0 if (self.seq // 50) % 2 else 580.0
        values = {0: temp, 1: 200.0 + self.seq % 7, 2: 80.0, 3: 20000.0}
        return wire.encode_frame(wire.Frame(wire.MsgType.TELEMETRY, self.seq, now_us,
                                            wire.encode_telemetry(values)))

    def _read(self) -> None:
        decoder = wire.FrameDecoder()
        while not self.stopped:
            if not select.select([self.sock], [], [], 0.1)[0]:
                continue
            try:
                data = self.sock.recv(1 << 16)
            except OSError:
                return
            if not data:
                return
            now = time.monotonic_ns() / 1e3
            for f in decoder.feed(data):
                if f.msg_type == wire.MsgType.ADVISORY:
                    self.latency_ms.append((now - f.timestamp_us) / 1e3)

    def blast(self, n: int) -> None:
        """n frames as fast as the socket takes them (stamped when encoded)."""
        batch = bytearray()
        for _ in range(n):
            batch += self.frame(time.monotonic_ns() // 1000)
            if len(batch) > 1 << 16:
                self.sock.sendall(batch)
                batch.clear()
        self.sock.sendall(batch)

    def paced(self, rate: float, seconds: float) -> int:
        """Frames at ``rate`` per second for ``seconds``; returns how many were written."""
        start = time.monotonic()
        sent = 0
        while True:
            now = time.monotonic()
            if now - start >= seconds:
                return sent
            due = int((now - start) * rate) - sent
            if due > 0:
                now_us = time.monotonic_ns() // 1000
                self.sock.sendall(b"".join(self.frame(now_us) for _ in range(due)))
                sent += due
            time.sleep(0.001)

    def close(self) -> None:
        self.stopped = True
        self.sock.close()
        self.reader.join(2)


def totals(records: list[dict[str, Any]]) -> dict[str, Any]:
    summaries = [r for r in records if r.get("event") == "summary"]
    dropped: dict[str, int] = {}
    for s in summaries:
        for k, v in s["frames_dropped"].items():
            dropped[k] = dropped.get(k, 0) + v
    return {"frames_ok": summaries[-1]["totals"]["frames_ok"] if summaries else 0,
            "dropped": dropped,
            "eval_us_p99": [s["latency_us"]["eval"]["p99"] for s in summaries
                            if s["latency_us"]["eval"]]}


def calibrate(bundle: Path, work: Path, frames: int) -> float:
    d = Daemon(bundle, work, 0)
    fw = Firmware(d.address)
    t0 = time.monotonic()
    fw.blast(frames)
    deadline = time.monotonic() + 300
    while True:
        done = [r for r in d.records() if r.get("event") == "summary"]
        if done and done[-1]["totals"]["frames_ok"] >= frames:
            break
        if time.monotonic() > deadline:
            raise SystemExit("calibration did not finish")
        time.sleep(0.05)
    elapsed = time.monotonic() - t0  # up to one summary period late: a low estimate
    fw.close()
    d.stop()
    return frames / elapsed


def phase(bundle: Path, work: Path, limit: int, rate: float, seconds: float,
          budget_ms: float) -> dict[str, Any]:
    d = Daemon(bundle, work, limit)
    fw = Firmware(d.address)
    rss: list[tuple[float, int | None]] = []
    stop = threading.Event()

    def watch() -> None:
        t0 = time.monotonic()
        while not stop.wait(1.0):
            rss.append((round(time.monotonic() - t0, 1), rss_kb(d.proc.pid)))

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    started = time.monotonic()
    sent = fw.paced(rate, seconds)
    wall = time.monotonic() - started
    time.sleep(2.0)  # let the tail drain
    stop.set()
    watcher.join()
    fw.close()
    records = d.stop()
    t = totals(records)
    kb = [k for _, k in rss if k is not None]
    warm = [k for s, k in rss if k is not None and s >= min(10.0, seconds / 4)]
    latency = percentiles(fw.latency_ms)
    return {
        "limit": limit, "offered_per_s": round(rate), "seconds": round(wall, 1),
        "achieved_per_s": round(sent / wall), "frames_sent": sent,
        "frames_evaluated": t["frames_ok"], "dropped": t["dropped"],
        "accounted": t["frames_ok"] + sum(t["dropped"].values()) == sent,
        "advisory_latency_ms": latency,
        "within_budget": latency is not None and latency["p99_9"] <= budget_ms,
        "eval_us_p99_max": max(t["eval_us_p99"], default=None),
        "rss_kb": {"first": kb[0] if kb else None, "after_warmup": warm[0] if warm else None,
                   "max": max(kb, default=None), "last": kb[-1] if kb else None,
                   "growth_after_warmup": kb[-1] - warm[0] if kb and warm else None},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=120.0, help="overload phase length")
    ap.add_argument("--baseline-seconds", type=float, default=20.0,
                    help="the same overload with the limit off (0: skip)")
    ap.add_argument("--factor", type=float, default=2.0, help="times the sustainable rate")
    ap.add_argument("--limit", type=int, default=64, help="--max-frames-per-read")
    ap.add_argument("--budget-ms", type=float, default=500.0,
                    help="latency budget for p99.9 (a quarter of the rocket's 2 s max_age_s)")
    ap.add_argument("--calibration-frames", type=int, default=40_000)
    ap.add_argument("--rate", type=float, help="skip calibration: the sustainable rate")
    ap.add_argument("--json", type=Path, help="write the figures here")
    args = ap.parse_args(argv)
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        bundle = work / "engine.rulec"
        write_bundle_file(bundle, encode_bundle(build_payload(collect_rules([ROCKET]),
                                                              "rocket")))
        if len(cpus) >= 2:
            pin(0, 0)  # the firmware (this process); each daemon child goes to the other
        sustainable = args.rate or calibrate(bundle, work, args.calibration_frames)
        print(f"sustainable: {sustainable:.0f} frames/s (every frame evaluated)", flush=True)
        rate = args.factor * sustainable
        report: dict[str, Any] = {"sustainable_per_s": round(sustainable),
                                  "cpus": os.cpu_count(), "load": os.getloadavg()}
        report["limited"] = phase(bundle, work, args.limit, rate, args.seconds,
                                    args.budget_ms)
        print(json.dumps(report["limited"]), flush=True)
        if args.baseline_seconds:
            report["unlimited"] = phase(bundle, work, 0, rate, args.baseline_seconds,
                                        args.budget_ms)
            print(json.dumps(report["unlimited"]), flush=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")
    print(json.dumps(report, indent=1))
    limited = report["limited"]
    growth = limited["rss_kb"]["growth_after_warmup"]
    flat = growth is not None and growth < 10_000
    return 0 if limited["accounted"] and limited["within_budget"] and flat else 1


if __name__ == "__main__":
    sys.exit(main())
