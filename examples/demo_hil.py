"""The hardware-in-the-loop demo: simulated firmware -> pty -> rulec-onboard -> advisories.

`make demo` runs it after examples/demo.py.  It starts `rulec-sim` (which creates a pty
pair and prints the slave path), then `rulec-onboard --serial <that path>`, plays the
engine test profile through the simulator faster than real time, prints every advisory
as its ADVISORY frame comes back over the pty (with the daemon's rendered text and the
manual line it comes from), then a latency summary.  Both processes are stopped on exit,
whatever happens.  Extra arguments after `--` go to rulec-sim, e.g.

    python examples/demo_hil.py --bundle out/rocket_engine.bundle -- --ber 1e-4 --split
"""

from __future__ import annotations

import argparse
import json
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

HERE = Path(__file__).resolve().parent


class Proc:
    """A child process whose stdout JSON lines are read on a thread."""

    def __init__(self, name: str, argv: list[str]) -> None:
        self.name = name
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.records: list[dict[str, Any]] = []
        self.cond = threading.Condition()
        self.popen = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
        )
        self.stderr: list[str] = []
        threading.Thread(target=self._read, args=(self.popen.stdout,), daemon=True).start()
        threading.Thread(target=self._err, args=(self.popen.stderr,), daemon=True).start()

    def _read(self, stream: IO[str] | None) -> None:
        assert stream is not None
        for line in stream:
            try:
                record = json.loads(line)
            except ValueError:
                record = {"event": "text", "text": line.rstrip("\n")}
            with self.cond:
                self.records.append(record)
                self.cond.notify_all()
            self.lines.put(record)
        self.lines.put(None)

    def _err(self, stream: IO[str] | None) -> None:
        assert stream is not None
        for line in stream:
            self.stderr.append(line.rstrip("\n"))

    def find(self, match: dict[str, Any], timeout: float) -> dict[str, Any] | None:
        """The first record with these fields, waiting up to ``timeout`` s for it."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for r in self.records:
                    if all(r.get(k) == v for k, v in match.items()):
                        return r
                left = deadline - time.monotonic()
                if left <= 0 or self.popen.poll() is not None:
                    return None
                self.cond.wait(left)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 5.0) -> int | None:
        if self.popen.poll() is None:
            self.popen.send_signal(sig)
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(timeout)
        return self.popen.returncode


def _fmt(stats: dict[str, Any] | None, scale: float = 1.0, unit: str = "us") -> str:
    if not stats:
        return "no samples"
    p999 = f" / p99.9 {stats['p99_9'] * scale:,.0f}" if "p99_9" in stats else ""
    return (f"p50 {stats['p50'] * scale:,.0f} / p99 {stats['p99'] * scale:,.0f}{p999}"
            f" / max {stats['max'] * scale:,.0f} {unit} (n={stats['n']})")


def main() -> int:
    argv = sys.argv[1:]
    extra: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bundle", type=Path, default=Path("out/rocket_engine.bundle"))
    parser.add_argument("--scenario", type=Path, default=HERE / "scenarios" / "engine_test.csv")
    parser.add_argument("--speed", type=float, default=10.0,
                        help="times real time [default: 10, about 6 s for the 60 s profile]")
    args = parser.parse_args(argv)
    if not args.bundle.is_file():
        print(f"demo_hil: {args.bundle}: no such bundle (run `make demo`, or "
              f"`rulec compile examples/manuals/rocket_engine -o {args.bundle}`)",
              file=sys.stderr)
        return 2
    py = sys.executable
    print("\n=== hardware in the loop: rulec-sim -> pty -> rulec-onboard -> advisories ===")
    sim = Proc("rulec-sim", [py, "-m", "rulec.firmware_bridge.sim", str(args.scenario),
                             "--bundle", str(args.bundle), "--speed", str(args.speed),
                             "--json", "--wait-s", "20", "--linger-s", "1", *extra])
    daemon: Proc | None = None
    sim_summary: dict[str, Any] | None = None
    try:
        first = sim.lines.get(timeout=20)
        if not first or first.get("event") != "pty":
            raise RuntimeError(f"rulec-sim did not report a pty: {first}")
        path = first["path"]
        print(f"rulec-sim made the pty pair; the daemon reads {path}")
        daemon = Proc("rulec-onboard", [py, "-m", "rulec.runtime.daemon", "--bundle",
                                        str(args.bundle), "--serial", path, "--summary-s", "0",
                                        "--heartbeat-s", "1"])
        start = daemon.find({"event": "start"}, 20)
        if start is not None:
            print(f"rulec-onboard pid {start.get('pid')}: bundle {start.get('bundle_id')}, "
                  f"{start.get('rules')} rules, channels {start.get('channels')}")
        while True:
            rec = sim.lines.get(timeout=60)
            if rec is None:
                break
            event = rec.get("event")
            if event == "bundle_info":
                print(f"firmware <- BUNDLE_INFO {rec['bundle_id']} "
                      f"(digest {rec['digest'][:16]}...)")
            elif event == "play":
                print(f"playing {Path(rec['scenario']).name}: {rec['frames']} TELEMETRY "
                      f"frames, {rec['duration_s']:g} s of data at x{rec['speed']:g}\n")
            elif event in ("raise", "clear"):
                said = daemon.find({"event": event, "rule": rec["rule"], "t": rec["t"]}, 0.5)
                rtt = rec.get("rtt_us")
                rtt_text = f"  (round trip {rtt / 1e3:.2f} ms)" if rtt is not None else ""
                print(f"  t={rec['t']:5.1f}s {event.upper():<5} [{rec['severity']}] "
                      f"{rec['rule']}{rtt_text}")
                if said is not None:
                    print(f"        {said.get('advisory')}")
                    src = said.get("source") or {}
                    if event == "raise" and src:
                        print(f"        {src.get('file')}:{src.get('line')}: {src.get('text')}")
            elif event == "sensor_fault":
                print(f"  t={rec['t']:5.1f}s FAULT {rec['parameter']} (channel "
                      f"{rec['channel']}): {rec['reason']}")
            elif event == "link":
                print(f"  link {rec['state']} (injected by rulec-sim)")
            elif event == "summary":
                sim_summary = rec
        sim_rc = sim.popen.wait(10)
        daemon.stop()
        if sim_rc != 0 or sim_summary is None:
            print(f"\nrulec-sim failed (exit {sim_rc}): " + " | ".join(sim.stderr[-3:]),
                  file=sys.stderr)
            return 1
        dsum = daemon.find({"event": "summary"}, 2) or {}
        lat = dsum.get("latency_us") or {}
        print("\nlatency summary")
        print(f"  round trip at the simulator (TELEMETRY written -> ADVISORY read, pty): "
              f"{_fmt(sim_summary.get('rtt_us'))}")
        print(f"  daemon, frame read -> last reply frame written (all frames):  "
              f"{_fmt(lat.get('e2e'))}")
        print(f"  daemon, evaluation alone (fast lane call or Engine.step):      "
              f"{_fmt(lat.get('eval'))}")
        faults = sim_summary.get("faults", {})
        totals = dsum.get("totals", {})
        print(f"  frames: {sim_summary['frames_sent']} sent, {totals.get('frames_ok', '?')} "
              f"evaluated, {totals.get('frames_dropped', '?')} dropped by the daemon; "
              f"{sim_summary['received'].get('advisory', 0)} ADVISORY frames back"
              + (f"; injected: {json.dumps({k: v for k, v in faults.items() if v})}"
                 if any(v for k, v in faults.items() if k not in
                        ("frames_in", "frames_sent", "bytes_in", "bytes_sent", "seed")) else ""))
        return 0
    except (queue.Empty, RuntimeError) as exc:
        print(f"demo_hil: {exc or 'timed out'}", file=sys.stderr)
        for proc in (sim, daemon):
            if proc is not None and proc.stderr:
                print(f"{proc.name} stderr: " + " | ".join(proc.stderr[-5:]), file=sys.stderr)
        return 1
    finally:
        if daemon is not None:
            daemon.stop()
        sim.stop()


if __name__ == "__main__":
    sys.exit(main())
