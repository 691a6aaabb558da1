"""Kill `rulec compile` at random points and check the bundle at -o is never partial.

Plain script (not pytest).  Each run puts a good "old" bundle (another domain) at
``out.bundle``, starts the real command

    rulec compile examples/manuals/<domain> -o out.bundle

over it, SIGKILLs it after a random delay, then checks the file at ``-o``: it must be
the old bundle or the complete new one, byte for byte, and load with ``load_bundle``
(digest equal to one of the two).  Anything else is counted as a partial write.

Where the kill landed is read from what it left: exit status 0 = the compile had
finished; a temporary ``.out.bundle.XXXXXXXX.tmp`` left behind = inside the write
window (temporary file created, not yet renamed); the new bundle in place = after the
rename; the old bundle and no temporary file = before the write began.

Delays: half uniform over the whole run (0 to 1.1 x the median run time), half uniform
around the write window measured by calibration runs (an instrumented child reports
when its write starts and when the rename is done; earliest start - 50 ms to latest
end + 50 ms), so a useful share of kills lands inside the window.
Under load the window moves by far more than its own width from run to run, so
``--trigger tmpfile`` aims differently, with the plain command unchanged: the parent
watches the folder with inotify and, when the writer creates its temporary file,
kills it after a random delay of 0 to 1.5 x the calibrated window (inotify's own
wake-up latency comes on top).  ``--slow-write-ms MS`` widens the window instead, for a
clearly labelled figure: the same command through ``python -c`` with the writer's test
hook sleeping MS after each 1 KiB chunk (the bytes and system calls are the real ones).

    python bench/kill_compile.py                      # 1,000 runs, ~30 min on 2 busy cores
    python bench/kill_compile.py --runs 50            # a quick look
    python bench/kill_compile.py --trigger tmpfile --runs 300
    python bench/kill_compile.py --slow-write-ms 2 --runs 200
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import random
import re
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rulec.runtime.bundle.format import write_bundle_file
from rulec.runtime.bundle.loader import load_bundle

REPO = Path(__file__).resolve().parent.parent
RULEC = Path(sys.executable).parent / "rulec"
CLASSES = ("before write", "during write", "after rename", "finished")

# the same compile through python -c with the writer's hook: reports the monotonic time
# of each write step on stderr, optionally sleeping after each chunk (--slow-write-ms)
WRAPPER = r"""
import sys, time
import rulec.runtime.bundle.format as bf
pause = float(sys.argv.pop(1)) / 1000.0
if pause:
    bf._WRITE_CHUNK_BYTES = 1024
def hook(step, n):
    print(step, n, repr(time.monotonic()), file=sys.stderr, flush=True)
    if pause and step == "write":
        time.sleep(pause)
bf._write_progress = hook
from rulec.compiler.cli import main
sys.exit(main(sys.argv[1:]))
"""


def compile_command(domain: str, out: Path, slow_ms: float) -> list[str]:
    args = ["compile", str(REPO / "examples" / "manuals" / domain), "-o", str(out), "-q"]
    if slow_ms:
        return [sys.executable, "-c", WRAPPER, str(slow_ms), *args]
    return [str(RULEC), *args]


def leftovers(out: Path) -> list[Path]:
    pattern = re.compile(rf"^\.{re.escape(out.name)}\.[^.]+\.tmp$")
    return [p for p in out.parent.iterdir() if pattern.match(p.name)]


class CreateWatch:
    """inotify IN_CREATE on one folder (Linux), through libc: no extra package."""

    IN_CREATE = 0x100
    EVENT = struct.Struct("iIII")

    def __init__(self, folder: Path) -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        self.fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self.fd < 0 or libc.inotify_add_watch(self.fd, bytes(folder), self.IN_CREATE) < 0:
            raise OSError(ctypes.get_errno(), "inotify is not available")

    def drain(self) -> list[str]:
        names: list[str] = []
        try:
            data = os.read(self.fd, 65536)
        except BlockingIOError:
            return names
        at = 0
        while at + self.EVENT.size <= len(data):
            _, _, _, size = self.EVENT.unpack_from(data, at)
            raw = data[at + self.EVENT.size : at + self.EVENT.size + size]
            names.append(raw.rstrip(b"\0").decode(errors="replace"))
            at += self.EVENT.size + size
        return names

    def wait_for(self, pattern: re.Pattern[str], proc: subprocess.Popen[bytes]) -> bool:
        """Block until a matching file is created (True) or the process ends (False)."""
        while proc.poll() is None:
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready and any(pattern.match(name) for name in self.drain()):
                return True
        return False


def calibrate(domain: str, out: Path, old: bytes, slow_ms: float, n: int) -> dict[str, float]:
    """Median run time of the plain command, and when the write window opens and closes."""
    runs, starts, ends = [], [], []
    for _ in range(n):
        write_bundle_file(out, old)
        t0 = time.monotonic()
        subprocess.run(compile_command(domain, out, slow_ms), check=True)
        runs.append(time.monotonic() - t0)
        write_bundle_file(out, old)
        t0 = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-c", WRAPPER, str(slow_ms), *compile_command(domain, out, 0)[1:]],
            check=True,
            capture_output=True,
            text=True,
        )
        steps = [line.split() for line in done.stderr.splitlines() if line.split()]
        times = {s[0]: float(s[2]) - t0 for s in steps if len(s) == 3}
        first_write = min(float(s[2]) - t0 for s in steps if s[0] == "write")
        starts.append(first_write)
        ends.append(times["replace"])
    return {
        "run_s": statistics.median(runs),
        "window_start_s": statistics.median(starts),
        "window_end_s": statistics.median(ends),
        "earliest_start_s": min(starts),
        "latest_end_s": max(ends),
    }


def classify(
    rc: int, out: Path, old: bytes, new: bytes, digests: set[str]
) -> tuple[str, str | None]:
    """(where the kill landed, problem or None)."""
    left = leftovers(out)
    try:
        found = out.read_bytes()
    except OSError as exc:
        return "missing", f"cannot read {out}: {exc}"
    problem = None
    if found not in (old, new):
        problem = f"partial: {len(found)} bytes, neither old ({len(old)}) nor new ({len(new)})"
    else:
        try:
            digest = load_bundle(out).digest
        except Exception as exc:  # noqa: BLE001 - any refusal is the failure we look for
            problem = f"does not load: {exc}"
        else:
            if digest not in digests:
                problem = f"unknown digest {digest}"
    if rc == 0:
        where = "finished"
    elif left:
        where = "during write"
    elif found == new:
        where = "after rename"
    else:
        where = "before write"
    if rc == 0 and found != new:
        problem = problem or "finished but the new bundle is not in place"
    if left and found != old:
        problem = problem or "a temporary file is left, yet the path changed"
    for path in left:
        path.unlink()
    return where, problem


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--domain", default="rocket_engine")
    parser.add_argument("--old-domain", default="traffic", help="the bundle at -o beforehand")
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slow-write-ms", type=float, default=0.0)
    parser.add_argument("--trigger", choices=("delay", "tmpfile"), default="delay",
                        help="delay: random delay from the start; tmpfile: random delay "
                        "from the creation of the temporary file (inotify)")
    parser.add_argument("--calibration-runs", type=int, default=5)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="rulec-kill-"))
    out, ref = work / "out.bundle", work / "ref"
    ref.mkdir()
    subprocess.run(compile_command(args.old_domain, ref / "old.bundle", 0), check=True)
    subprocess.run(compile_command(args.domain, ref / "new.bundle", 0), check=True)
    old, new = (ref / "old.bundle").read_bytes(), (ref / "new.bundle").read_bytes()
    cal = calibrate(args.domain, out, old, args.slow_write_ms, args.calibration_runs)
    print(f"calibration ({args.calibration_runs} runs): run {cal['run_s'] * 1e3:.0f} ms, "
          f"write window {cal['window_start_s'] * 1e3:.1f}..{cal['window_end_s'] * 1e3:.1f} ms "
          "after start (instrumented child)", flush=True)

    digests = {load_bundle(old).digest, load_bundle(new).digest}
    window = cal["window_end_s"] - cal["window_start_s"]
    watch = CreateWatch(work) if args.trigger == "tmpfile" else None
    tmp_pattern = re.compile(rf"^\.{re.escape(out.name)}\.[^.]+\.tmp$")
    rng = random.Random(args.seed)
    counts = dict.fromkeys(CLASSES, 0)
    problems: list[str] = []
    started = time.monotonic()
    for run in range(args.runs):
        write_bundle_file(out, old)
        if watch is not None:
            watch.drain()
            delay = rng.uniform(0.0, 1.5 * window)
        elif rng.random() < 0.5:
            delay = rng.uniform(0.0, 1.1 * cal["run_s"])
        else:
            delay = rng.uniform(cal["earliest_start_s"] - 0.05, cal["latest_end_s"] + 0.05)
        proc = subprocess.Popen(
            compile_command(args.domain, out, args.slow_write_ms),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if watch is not None:
            watch.wait_for(tmp_pattern, proc)
        time.sleep(max(0.0, delay))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        rc = proc.wait()
        where, problem = classify(rc, out, old, new, digests)
        counts[where] = counts.get(where, 0) + 1
        if problem:
            problems.append(f"run {run} ({where}, delay {delay * 1e3:.1f} ms): {problem}")
            print(problems[-1], flush=True)
        if (run + 1) % 100 == 0:
            print(f"{run + 1} runs: {counts}, {len(problems)} partial", flush=True)
    elapsed = time.monotonic() - started

    figures = {
        "command": " ".join(compile_command(args.domain, Path("out.bundle"), args.slow_write_ms)),
        "runs": args.runs,
        "seed": args.seed,
        "slow_write_ms": args.slow_write_ms,
        "trigger": args.trigger,
        "bundle_bytes": {"old": len(old), "new": len(new)},
        "calibration_ms": {k.removesuffix("_s"): round(v * 1e3, 1) for k, v in cal.items()},
        "kills": counts,
        "partial_or_unloadable": len(problems),
        "problems": problems[:20],
        "elapsed_s": round(elapsed, 1),
        "cpus": os.cpu_count(),
    }
    print(json.dumps(figures, indent=2))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
