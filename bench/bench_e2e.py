"""End-to-end (HIL) benchmark: rulec-sim -> link -> rulec-onboard -> ADVISORY frame back.

Plain script (not pytest).  For each bundle size (synthetic rules compiled with
``rulec.compiler.pipeline``) and each link (TCP on 127.0.0.1, a pty paced at 115200
and 921600 baud, optionally UDP) it starts the real daemon as a child process and
measures, one frame at a time (stop and wait, so no queueing):

- **round trip at the simulator**: TELEMETRY frame written (over a pty: released when
  a UART at that baud would have delivered its last byte) -> its ADVISORY frame read
  back, matched by timestamp.  Everything on the path is in it: both kernel
  crossings, the daemon's wake-up, decode, ``Engine.step``, the JSON log line, the
  write, and the simulator's own wake-up.
- **daemon e2e**: the daemon's own timer, chunk holding the frame read -> its last
  reply frame written (``latency_us.e2e`` of its summary).  The summary gives p50/p99
  only, so the daemon runs under a thin wrapper (``--daemon-child``) that also keeps
  every sample of that same timer for p99.9.

Then sustained throughput: frames pre-encoded and written as fast as the link takes
them over TCP and an unpaced pty, the daemon pinned to one CPU, timed from the first
byte written to the reply to a sentinel frame (frames are evaluated in order), with
the daemon's CPU time from /proc.  Two workloads: "quiet" (values move, no rule
changes state: the normal case) and "every frame" (each frame raises or clears one
rule, so each one costs an ADVISORY frame and a JSON log line).

    python bench/bench_e2e.py                      # ~3 min, prints the markdown tables
    python bench/bench_e2e.py --quick              # ~40 s, fewer frames
    python bench/bench_e2e.py --rules 10000 --links tcp,udp --frames 20000
    python bench/bench_e2e.py --codec              # the wire codec alone, C against Python
    python bench/bench_e2e.py --rules 10000 --links "" --throughput-links tcp --profile prof/

Bundles are cached under --work (default: $TMPDIR/rulec-bench-e2e).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import platform
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulec.firmware_bridge import protocol as wire
from rulec.firmware_bridge.sim.errors import SimError
from rulec.firmware_bridge.sim.player import BITS_PER_BYTE, Simulator, percentiles
from rulec.firmware_bridge.sim.scenario import Outgoing
from rulec.firmware_bridge.sim.transports import (
    PtyTransport,
    TcpTransport,
    Transport,
    UdpTransport,
)

PROFILE_DIR: Path | None = None  # set by --profile
FLOOR = False  # set by --floor: bench/floor_daemon.py answers instead of rulec-onboard
LANE = True  # the daemon's C fast lane (RULEC_FAST_LANE); --lane on,off runs both
SIM_POLL_S = 0.0  # --sim-poll-s: the simulator polls for a reply this long before sleeping
BUSY_POLL_S = 0.0  # --busy-poll-s: the daemon's own option
PARAMS = 8  # parameters p0..p7 on channels 0..7; every TELEMETRY frame carries all 8
GENERATOR = 1  # bump when the synthetic bundle changes (cache key)


# --------------------------------------------------------------------------- bundles


def box_k(n_rules: int) -> int:
    """Boxes per parameter: rule j sits on parameter j % 8 at [10k, 10k + 1]."""
    return (n_rules - 1) // PARAMS + 1


def write_rules(folder: Path, n_rules: int) -> None:
    """A sensors.toml with 8 parameters and N rules as reviewed rule objects (.jsonl).

    Rule j constrains p(j % 8) to [10k, 10k + 1] with k = j // 8 + 1; every fourth rule
    also constrains p(j % 8 + 1) to the same interval (a 2-D box).  Values 10k + 5 sit
    in the gaps (no rule), 10k + 0.5 on p0 is inside exactly one 1-D rule.
    """
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "sensors.toml", "w", encoding="utf-8") as f:
        f.write("# synthetic parameters for bench/bench_e2e.py\n")
        for p in range(PARAMS):
            f.write(f'[parameters.p{p}]\nunit = "psi"\nrange = [0, 1000000]\n'
                    f"channel = {p}\n\n")
    with open(folder / "rules.jsonl", "w", encoding="utf-8") as f:
        for j in range(n_rules):
            p, k = j % PARAMS, j // PARAMS + 1
            cond: dict[str, Any] = {"param": f"p{p}", "op": "between",
                                    "value": [10 * k, 10 * k + 1]}
            if j % 4 == 3:
                other = {"param": f"p{(p + 1) % PARAMS}", "op": "between",
                         "value": [10 * k, 10 * k + 1]}
                cond = {"all": [cond, other]}
            rule = {"schema": 1, "id": f"B-{j:05d}", "kind": "if_then",
                    "severity": "caution", "condition": cond, "action": f"act on box {j}",
                    "source": {"file": "rules.jsonl", "line": j + 1,
                               "text": f"synthetic rule {j}"}}
            f.write(json.dumps(rule) + "\n")


def build_bundle(work: Path, n_rules: int) -> Path:
    """Compile (or reuse) the synthetic bundle with ``n_rules`` rules."""
    folder = work / f"rules_{n_rules}_g{GENERATOR}"
    bundle = folder / "bench.bundle"
    if bundle.is_file():
        return bundle
    from rulec.compiler.pipeline import build_payload, collect_rules
    from rulec.runtime.bundle.format import encode_bundle, write_bundle_file

    write_rules(folder, n_rules)
    started = time.perf_counter()
    result = collect_rules([folder])
    if len(result.rules) != n_rules or result.errors:
        raise SystemExit(f"bench: synthetic bundle: {len(result.rules)} rules, "
                         f"{len(result.errors)} errors")
    write_bundle_file(bundle, encode_bundle(build_payload(result, f"bench-{n_rules}")))
    print(f"# compiled {n_rules} rules in {time.perf_counter() - started:.1f} s -> {bundle}",
          file=sys.stderr)
    return bundle


class States:
    """TELEMETRY payloads: 'quiet' (all in gaps) and 'hit' (p0 inside one 1-D rule)."""

    def __init__(self, n_rules: int, seed: int) -> None:
        self.k = box_k(n_rules)
        self.rng = random.Random(seed)
        # 1-D rules on p0 are j = 8(k-1) with j % 4 == 0: every k whose rule exists
        self.hit_ks = [k for k in range(1, self.k + 1) if PARAMS * (k - 1) < n_rules]

    def quiet(self) -> dict[int, float]:
        return {c: 10.0 * self.rng.randint(1, self.k) + 5.0 for c in range(PARAMS)}

    def hit(self) -> dict[int, float]:
        values = self.quiet()
        values[0] = 10.0 * self.rng.choice(self.hit_ks) + 0.5
        return values


# --------------------------------------------------------------------------- daemon


def _daemon_child(dump: str, argv: list[str]) -> int:
    """Run ``rulec-onboard`` unchanged, also keeping every sample of its latency timers.

    Also the daemon thread's CPU time per chunk read (``time.thread_time_ns``, JSON
    line included): what the frame costs the daemon, without the time it waited for
    a CPU on a shared machine.
    """
    from rulec.runtime.daemon import command
    from rulec.runtime.daemon import loop as onboard

    e2e: list[float] = []
    evals: list[float] = []
    cpu: list[float] = []
    base = onboard.Counters
    on_chunk = onboard.Daemon._on_chunk

    def timed_chunk(self: Any, chunk: Any, received: float, served: bool = False) -> None:
        started = time.thread_time_ns()
        try:
            on_chunk(self, chunk, received, served)
        finally:
            cpu.append((time.thread_time_ns() - started) / 1e3)

    setattr(onboard.Daemon, "_on_chunk", timed_chunk)  # noqa: B010

    class Recording(base):  # type: ignore[valid-type, misc]
        def latency(self, eval_us: float, e2e_us: float) -> None:
            super().latency(eval_us, e2e_us)
            evals.append(eval_us)
            e2e.append(e2e_us)

    setattr(onboard, "Counters", Recording)  # noqa: B010 - the daemon builds it by name
    profile_to = os.environ.get("RULEC_BENCH_PROFILE")
    profiler = cProfile.Profile() if profile_to else None
    try:
        if profiler is None:
            return int(command.main(argv))
        return int(profiler.runcall(command.main, argv))
    finally:
        if profiler is not None and profile_to:
            profiler.dump_stats(f"{profile_to}-{os.getpid()}.pstats")
        Path(dump).write_text(json.dumps({"e2e_us": e2e, "eval_us": evals, "cpu_us": cpu}),
                              encoding="utf-8")


@dataclass
class Daemon:
    popen: subprocess.Popen[bytes]
    log: Path
    dump: Path

    def check(self) -> None:
        """Exit the benchmark if the daemon died (a bad bundle, a broken build)."""
        if self.popen.poll() is not None:
            raise SystemExit(f"bench: rulec-onboard exited with status {self.popen.returncode}")

    def cpu_s(self) -> float:
        """User + system CPU seconds of the daemon so far (Linux /proc)."""
        try:
            fields = Path(f"/proc/{self.popen.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> tuple[dict[str, Any], dict[str, list[float]]]:
        """SIGTERM, wait; the final summary line and the raw timer samples."""
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(20)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(5)
        summary: dict[str, Any] = {}
        lines = self.log.read_text(encoding="utf-8").splitlines() if self.log.is_file() else []
        for line in lines:
            rec = json.loads(line)
            if rec.get("event") == "summary":
                summary = rec
        raw: dict[str, list[float]] = {"e2e_us": [], "eval_us": [], "cpu_us": []}
        if self.dump.is_file():
            raw = json.loads(self.dump.read_text(encoding="utf-8"))
        return summary, raw


def start_daemon(work: Path, bundle: Path, link_args: list[str], cpu: int | None) -> Daemon:
    tag = f"{os.getpid()}-{time.monotonic_ns()}"
    log, dump = work / f"daemon-{tag}.jsonl", work / f"daemon-{tag}.latency.json"
    child = ([str(Path(__file__).resolve().with_name("floor_daemon.py")), str(dump)] if FLOOR
             else [str(Path(__file__).resolve()), "--daemon-child", str(dump)])
    argv = [sys.executable, *child, "--",
            "--bundle", str(bundle), *link_args, "--log", str(log), "--summary-s", "0",
            "--heartbeat-s", "0", "--reload-poll-s", "0", "--busy-poll-s", str(BUSY_POLL_S)]

    def pin() -> None:
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})

    env = dict(os.environ)
    env["RULEC_FAST_LANE"] = "1" if LANE else "0"
    if PROFILE_DIR is not None:  # --profile: the daemon runs under cProfile
        env["RULEC_BENCH_PROFILE"] = str(PROFILE_DIR / f"daemon-{tag}")
    popen = subprocess.Popen(argv, stdin=subprocess.DEVNULL, preexec_fn=pin, env=env)
    return Daemon(popen, log, dump)


def label(link: str) -> str:
    """The link's name in the tables: marked when the floor or the Python path answered."""
    if FLOOR:
        return f"{link} (floor)"
    return link if LANE else f"{link} (no lane)"


def free_port(kind: int) -> int:
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def connect(link: str, work: Path, bundle: Path, cpu: int | None
            ) -> tuple[Daemon, Transport, int | None]:
    """Start a daemon on ``link`` and a simulator transport to it; (daemon, transport, baud)."""
    if link in ("tcp", "udp"):
        kind = socket.SOCK_STREAM if link == "tcp" else socket.SOCK_DGRAM
        port = free_port(kind)
        daemon = start_daemon(work, bundle, [f"--{link}-listen", f"127.0.0.1:{port}"], cpu)
        if link == "tcp":
            deadline = time.monotonic() + 120
            while True:
                daemon.check()
                try:
                    return daemon, TcpTransport("127.0.0.1", port, connect_timeout=0.2), None
                except SimError:
                    if time.monotonic() > deadline:
                        raise
        time.sleep(0.5)  # let it bind; UDP has no handshake until the first datagram
        return daemon, UdpTransport("127.0.0.1", port), None
    if link.startswith("pty"):
        baud = int(link[3:]) if link[3:] else None
        pty = PtyTransport()
        daemon = start_daemon(work, bundle, ["--serial", pty.path,
                                             "--baudrate", str(baud or 921600)], cpu)
        return daemon, pty, baud
    raise SystemExit(f"bench: unknown link {link!r} (tcp, udp, pty115200, pty921600, pty)")


def handshake(sim: Simulator, daemon: Daemon, link: str, states: States) -> None:
    """Wait for BUNDLE_INFO (UDP: send quiet frames until the daemon answers)."""
    deadline = time.monotonic() + 120
    while sim.bundle_info is None:
        daemon.check()
        if time.monotonic() > deadline:
            raise SystemExit(f"bench: no BUNDLE_INFO over {link}")
        if link == "udp":
            data = wire.encode_raw_frame(wire.MsgType.TELEMETRY, 0, 1,
                                         wire.encode_telemetry(states.quiet()))
            sim.send(Outgoing(None, None, data))
        sim.wait_for(lambda: sim.bundle_info is not None, 0.2)


class Clock:
    """Firmware timestamps: microseconds of real time, strictly increasing."""

    def __init__(self) -> None:
        self.t0 = time.perf_counter()
        self.last = 0

    def __call__(self) -> int:
        now = int((time.perf_counter() - self.t0) * 1e6) + 1_000_000
        self.last = max(now, self.last + 1)
        return self.last


# --------------------------------------------------------------------------- runs


def latency_run(work: Path, bundle: Path, n_rules: int, link: str, frames: int, gap_s: float,
                cpu: int | None, seed: int) -> dict[str, Any]:
    states = States(n_rules, seed)
    daemon, transport, baud = connect(link, work, bundle, cpu)
    sim = Simulator(transport, baud=baud, reply_poll_s=SIM_POLL_S)
    lost = 0
    wire_bytes = 0
    try:
        handshake(sim, daemon, link, states)
        sim.start_clock()
        clock = Clock()
        seq = 1
        warm = min(200, frames // 10)
        for i in range(frames + warm):
            if i == warm:
                sim.rtt_us.clear()
            values = states.hit() if i % 2 == 0 else states.quiet()
            ts = clock()
            data = wire.encode_raw_frame(wire.MsgType.TELEMETRY, seq, ts,
                                         wire.encode_telemetry(values))
            seq += 1
            wire_bytes = max(wire_bytes, len(data))
            sim.send(Outgoing(sim.elapsed(), ts, data))  # handed over now: full wire time
            if not sim.wait_for(lambda ts=ts: sim.replied(ts), 2.0):
                lost += 1
            if gap_s:
                sim.drain(gap_s)
    finally:
        summary, raw = daemon.stop()
        transport.close()
    e2e = raw.get("e2e_us", [])
    evals = raw.get("eval_us", [])
    cpu_us = raw.get("cpu_us", [])[-frames:]  # one chunk per frame, stop and wait
    skip = len(e2e) - frames if len(e2e) > frames else 0  # the warm-up frames
    wire_us = wire_bytes * BITS_PER_BYTE / baud * 1e6 if baud else None
    return {
        "link": label(link), "rules": n_rules, "frames": frames,
        "lost": lost,
        "frame_bytes": wire_bytes, "wire_us": wire_us,
        "rtt_us": percentiles(sim.rtt_us),
        "daemon_e2e_us": percentiles(e2e[skip:]),
        "daemon_eval_us": percentiles(evals[skip:]),
        "daemon_cpu_us": percentiles(cpu_us),
        "daemon_summary_e2e_us": (summary.get("latency_us") or {}).get("e2e"),
        "frames_ok": (summary.get("totals") or {}).get("frames_ok"),
    }


def throughput_run(work: Path, bundle: Path, n_rules: int, link: str, frames: int,
                   every_frame: bool, cpu: int | None, seed: int) -> dict[str, Any]:
    states = States(n_rules, seed)
    daemon, transport, _ = connect(link, work, bundle, cpu)
    sim = Simulator(transport)
    try:
        handshake(sim, daemon, link, states)
        blob = bytearray()
        ts = 1_000_000
        for i in range(frames):
            values = states.hit() if every_frame and i % 2 == 0 else states.quiet()
            ts += 100
            blob += wire.encode_raw_frame(wire.MsgType.TELEMETRY, i + 1, ts,
                                          wire.encode_telemetry(values))
        sentinel_ts = ts + 100
        blob += wire.encode_raw_frame(wire.MsgType.TELEMETRY, frames + 1, sentinel_ts,
                                      wire.encode_telemetry(states.hit()))
        chunk = 16384 if link != "udp" else 1400
        cpu0 = daemon.cpu_s()
        started = time.perf_counter()
        sim.start_clock()
        view = memoryview(bytes(blob))
        pos = 0
        while pos < len(view):
            end = min(len(view), pos + chunk)
            if link == "udp":  # whole frames per datagram
                cut = bytes(view[pos:end]).rfind(b"\x00")
                end = pos + cut + 1 if cut >= 0 and end < len(view) else end
            piece = bytes(view[pos:end])
            last = end >= len(view)
            sim.send(Outgoing(None, sentinel_ts if last else None, piece))
            pos = end
        ok = sim.wait_for(lambda: sim.replied(sentinel_ts), 120)
        elapsed = time.perf_counter() - started
        cpu_used = daemon.cpu_s() - cpu0
    finally:
        summary, _ = daemon.stop()
        transport.close()
    totals = summary.get("totals") or {}
    evaluated = int(totals.get("frames_ok") or 0)
    return {
        "link": label(link), "rules": n_rules,
        "workload": "every frame" if every_frame else "quiet",
        "frames": frames + 1, "completed": ok, "evaluated": evaluated,
        "dropped": totals.get("frames_dropped"),
        "elapsed_s": round(elapsed, 3), "frames_per_s": round((frames + 1) / elapsed),
        "daemon_cpu_s": round(cpu_used, 3),
        "frames_per_cpu_s": round((frames + 1) / cpu_used) if cpu_used > 0 else None,
        "advisories": (totals.get("advisories")),
    }


# --------------------------------------------------------------------------- report


def _pct(stats: dict[str, Any] | None, keys: tuple[str, ...] = ("p50", "p99", "p99_9")) -> str:
    if not stats:
        return "-"
    return " / ".join(f"{stats[k]:,.0f}" for k in keys if k in stats)


def report(meta: dict[str, Any], lat: list[dict[str, Any]], thr: list[dict[str, Any]]) -> str:
    out = [f"```\n{meta['line']}\n```", "",
           "Latency, one frame at a time (us; p50 / p99 / p99.9):", "",
           "| link | rules | n | round trip at sim | daemon e2e | Engine.step | "
           "daemon CPU per frame | frame on the wire | as % of wire time: rtt p50 / "
           "e2e p50 / e2e p99 |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in lat:
        wire_us = r["wire_us"]
        rtt = r["rtt_us"] or {}
        e2e = r["daemon_e2e_us"] or {}
        share = (f"{rtt['p50'] / wire_us * 100:.1f} % / {e2e['p50'] / wire_us * 100:.1f} % / "
                 f"{e2e['p99'] / wire_us * 100:.1f} %" if wire_us and rtt and e2e else "-")
        wire_text = (f"{r['frame_bytes']} B, {wire_us:,.0f} us" if wire_us
                     else f"{r['frame_bytes']} B")
        lost = f" ({r['lost']} lost)" if r["lost"] else ""
        out.append(f"| {r['link']} | {r['rules']:,} | {r['frames']:,}{lost} | "
                   f"{_pct(r['rtt_us'])} | {_pct(r['daemon_e2e_us'])} | "
                   f"{_pct(r['daemon_eval_us'])} | {_pct(r.get('daemon_cpu_us'))} | "
                   f"{wire_text} | {share} |")
    out += ["", "Sustained throughput (daemon pinned to one CPU):", "",
            "| link | rules | workload | frames | frames/s (wall) | daemon CPU s | "
            "frames per CPU-second | evaluated |",
            "|---|---|---|---|---|---|---|---|"]
    for r in thr:
        out.append(f"| {r['link']} | {r['rules']:,} | {r['workload']} | {r['frames']:,} | "
                   f"{r['frames_per_s']:,} | {r['daemon_cpu_s']} | "
                   f"{r['frames_per_cpu_s'] or 0:,} | {r['evaluated']:,}"
                   + ("" if r["completed"] else " (sentinel not answered)") + " |")
    return "\n".join(out)


def codec_table() -> str:
    """Frames per CPU-second of the wire codec, compiled C (cffi) against pure Python.

    Best of three over 3,000 TELEMETRY frames fed in 4 KiB chunks (``process_time``, so
    other processes on a shared machine do not count against it).
    """
    def rate(fn: Callable[[], object], n: int) -> str:
        best = min(_cpu(fn) for _ in range(3))
        return f"~{n / best:,.0f} /s" if best > 0 else "-"

    out = ["| values per frame | wire bytes | `feed`, C | `feed`, Python | "
           "feed + `decode_telemetry`, C | same, Python |", "|---:|---:|---:|---:|---:|---:|"]
    for nv in (4, 8, 32, 102):
        values = {c: 1.5 * c + 0.25 for c in range(nv)}
        frames = [wire.encode_raw_frame(1, i, 1000 + i, wire.encode_telemetry(values))
                  for i in range(3000)]
        blob = b"".join(frames)
        chunks = [blob[i:i + 4096] for i in range(0, len(blob), 4096)]
        cells: dict[tuple[bool, bool], str] = {}
        for native in (True, False):
            for payloads in (False, True):
                def run(native: bool = native, payloads: bool = payloads,
                        chunks: list[bytes] = chunks) -> None:
                    dec = wire.FrameDecoder(native=native)
                    for c in chunks:
                        for f in dec.feed(c):
                            if payloads:
                                wire.decode_telemetry(f.payload)
                cells[native, payloads] = rate(run, len(frames))
        out.append(f"| {nv} | {len(frames[0])} | {cells[True, False]} | {cells[False, False]} | "
                   f"{cells[True, True]} | {cells[False, True]} |")
    return "\n".join(out)


def _cpu(fn: Callable[[], object]) -> float:
    started = time.process_time()
    fn()
    return time.process_time() - started


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--daemon-child"]:
        rest = argv[2:]
        if rest[:1] == ["--"]:
            rest = rest[1:]
        return _daemon_child(argv[1], rest)
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="1000,10000", help="bundle sizes [1000,10000]")
    parser.add_argument("--links", default="tcp,pty115200,pty921600",
                        help="latency links: tcp, udp, ptyBAUD, pty (unpaced)")
    parser.add_argument("--frames", type=int, default=10000,
                        help="latency frames per socket run [10000]")
    parser.add_argument("--pty-frames", type=int, default=None,
                        help="latency frames per pty run [about 20 s of line time, "
                        "at most --frames]")
    parser.add_argument("--gap-ms", type=float, default=0.5,
                        help="idle time between latency frames [0.5]")
    parser.add_argument("--throughput-links", default="tcp,pty",
                        help="links for the throughput runs [tcp,pty]")
    parser.add_argument("--throughput-frames", type=int, default=100000)
    parser.add_argument("--quick", action="store_true", help="a tenth of the frames")
    parser.add_argument("--no-pin", action="store_true",
                        help="do not pin the daemon and the simulator to separate CPUs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--work", type=Path,
                        default=Path(os.environ.get("TMPDIR", "/tmp")) / "rulec-bench-e2e")
    parser.add_argument("--json", type=Path, help="also write the raw results here")
    parser.add_argument("--profile", type=Path, metavar="DIR",
                        help="run each daemon under cProfile, one .pstats file per run in DIR "
                        "(read with python -m pstats); timings then include its overhead")
    parser.add_argument("--floor", action="store_true",
                        help="latency only, with bench/floor_daemon.py in place of the daemon: "
                        "same links and codec, no evaluation (what waking, reading and "
                        "replying cost alone)")
    parser.add_argument("--lane", default="on",
                        help="the daemon's C fast lane: on, off, or on,off to run each link "
                        "both ways one after the other [on]")
    parser.add_argument("--sim-poll-s", type=float, default=0.0,
                        help="latency runs: the simulator polls for each reply this long "
                        "before sleeping, as a firmware that does not sleep on this "
                        "machine's CPUs would [0]")
    parser.add_argument("--busy-poll-s", type=float, default=0.0,
                        help="the daemon's --busy-poll-s (keep polling the link this long "
                        "before sleeping) [0]")
    parser.add_argument("--codec", action="store_true",
                        help="only the wire codec table (C through cffi against pure Python)")
    args = parser.parse_args(argv)
    if args.codec:
        if wire.native_codec.compiled_codec() is None:
            raise SystemExit(f"bench: C codec not built: {wire.native_codec.native_error()}")
        print(f"load average {_load()}")
        print(codec_table())
        return 0
    args.work.mkdir(parents=True, exist_ok=True)
    if args.floor:
        global FLOOR
        FLOOR = True
        args.throughput_links = ""
    if args.profile is not None:
        global PROFILE_DIR
        args.profile.mkdir(parents=True, exist_ok=True)
        PROFILE_DIR = args.profile.resolve()
    sizes = [int(s) for s in args.rules.split(",") if s]
    links = [s for s in args.links.split(",") if s]
    tlinks = [s for s in args.throughput_links.split(",") if s]
    scale = 0.1 if args.quick else 1.0
    cpus = sorted(os.sched_getaffinity(0))
    daemon_cpu = None
    if not args.no_pin and len(cpus) >= 2:
        daemon_cpu = cpus[-1]
        os.sched_setaffinity(0, set(cpus[:-1]))
    from rulec.runtime import NATIVE

    meta = {"python": platform.python_version(), "machine": platform.machine(),
            "cpus": len(cpus), "kernel": "native C (cffi)" if NATIVE else "numpy fallback",
            "load_before": _load(), "pinned_cpu": daemon_cpu}
    bundles = {n: build_bundle(args.work, n) for n in sizes}
    lat: list[dict[str, Any]] = []
    thr: list[dict[str, Any]] = []
    run_log: Callable[[dict[str, Any]], None] = lambda r: print(  # noqa: E731
        json.dumps(r), file=sys.stderr, flush=True)
    lanes = [{"on": True, "off": False}[s] for s in args.lane.split(",") if s]
    global SIM_POLL_S, BUSY_POLL_S
    SIM_POLL_S, BUSY_POLL_S = args.sim_poll_s, args.busy_poll_s
    global LANE
    for n in sizes:
        for link, lane in ((link, lane) for link in links for lane in lanes):
            LANE = lane
            frames = args.frames
            if link.startswith("pty") and link[3:]:
                per_frame_s = 104 * BITS_PER_BYTE / int(link[3:]) + 0.001
                frames = args.pty_frames or min(frames, int(20 / per_frame_s))
            frames = max(100, int(frames * scale))
            gap = args.gap_ms / 1e3 if not link.startswith("pty") else 0.0
            r = latency_run(args.work, bundles[n], n, link, frames, gap, daemon_cpu, args.seed)
            run_log(r)
            lat.append(r)
        for link, lane in ((link, lane) for link in tlinks for lane in lanes):
            LANE = lane
            for every in (False, True):
                frames = max(1000, int(args.throughput_frames * scale))
                r = throughput_run(args.work, bundles[n], n, link, frames, every, daemon_cpu,
                                   args.seed)
                run_log(r)
                thr.append(r)
    meta["load_after"] = _load()
    meta["line"] = (f"rulec {meta['kernel']}; Python {meta['python']} on {meta['machine']}, "
                    f"{meta['cpus']} CPUs; daemon pinned to CPU {daemon_cpu}; load average "
                    f"{meta['load_before']} before, {meta['load_after']} after")
    print(report(meta, lat, thr))
    if args.json:
        args.json.write_text(json.dumps({"meta": meta, "latency": lat, "throughput": thr},
                                        indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
