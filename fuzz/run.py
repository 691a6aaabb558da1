"""Run the fuzz campaigns: every target (or those named) for a fixed time each, one by one.

``make fuzz`` calls this as ``nice -n 15 .venv/bin/python fuzz/run.py`` with
``FUZZ_SECONDS`` seconds per target, in ``FUZZ_WORKERS`` processes (default 1).  Each
target keeps its growing corpus in build/fuzz/corpus/<target> (started from fuzz/seeds
and fuzz/regressions), writes its log to build/fuzz/logs/<target>.log (worker i > 0:
<target>.<i>.log) and whatever it finds (crash-, timeout-,
oom- files: the input that did it) to build/fuzz/artifacts/<target>/.  The summary
(executions, exec/s, coverage, findings) is printed and kept in
build/fuzz/summary.json.  Exit status 1 when any target found something.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FUZZ = ROOT / "fuzz"
WORK = ROOT / "build" / "fuzz"
RSS_LIMIT_MB = 512
# One input taking longer than this (wall clock) is a hang.  The campaigns run at nice 15
# beside other work: starved of CPU, a 0.1-second input once took 12 s of wall time.
TIMEOUT_S = 60


@dataclass(frozen=True)
class Target:
    """One fuzz target: its engine, where its seeds are, and the largest input it gets."""

    name: str
    engine: str  # "libfuzzer" (C, clang) or "atheris" (Python)
    seeds: str  # folder name under fuzz/seeds
    max_len: int
    dictionary: str | None = None  # file under fuzz/dicts


TARGETS = (
    Target("frame_decoder_c", "libfuzzer", "frame_decoder", 4096),
    Target("frame_decoder", "atheris", "frame_decoder", 2200),
    Target("bundle_loader", "atheris", "bundle_loader", 16384),
    Target("sensors_toml", "atheris", "sensors_toml", 4096, "sensors_toml.dict"),
    Target("manual_parser", "atheris", "manual_parser", 2048, "manual_parser.dict"),
)


@dataclass
class Result:
    """What one campaign did; ``findings`` are the artifact files it wrote."""

    target: str
    engine: str
    seconds: float
    executions: int = 0
    exec_per_s: int = 0
    coverage: str = ""
    corpus: int = 0
    peak_rss_mb: int = 0
    exit_code: int = 0
    findings: list[str] = field(default_factory=list)
    note: str = ""


def build_c_target(clang: str) -> Path:
    """Compile fuzz/c/frame_decoder.c with libFuzzer, ASan and UBSan (when out of date).

    Coverage instrumentation goes on the codec only: the harness's own loops would
    add comparison callbacks on every byte without guiding anything.  The codec is
    built without comparison tracing (four times the speed): the harness's framed mode
    gets mutations past the CRC instead.
    """
    out = WORK / "frame_decoder_c"
    harness, codec = FUZZ / "c" / "frame_decoder.c", ROOT / "csrc" / "rulec_proto.c"
    sources = [harness, codec, ROOT / "csrc" / "rulec_proto.h"]
    if out.exists() and all(out.stat().st_mtime > s.stat().st_mtime for s in sources):
        return out
    common = [clang, "-std=c99", "-g", "-O1", "-Wall", "-Wextra", "-fno-sanitize-recover=all",
              "-I", str(ROOT / "csrc")]
    objs = WORK / "obj"
    objs.mkdir(parents=True, exist_ok=True)
    subprocess.run([*common, "-fsanitize=address,undefined", "-c", str(harness),
                    "-o", str(objs / "harness.o")], check=True)
    subprocess.run([*common, "-fsanitize=fuzzer-no-link,address,undefined",
                    "-fno-sanitize-coverage=trace-cmp", "-c", str(codec),
                    "-o", str(objs / "codec.o")], check=True)
    subprocess.run([clang, "-fsanitize=fuzzer,address,undefined", str(objs / "harness.o"),
                    str(objs / "codec.o"), "-o", str(out)], check=True)
    return out


def engine(target: Target) -> list[str]:
    """The program that runs ``target`` (built first for the C target)."""
    if target.engine == "libfuzzer":
        clang = shutil.which(os.environ.get("CLANG", "clang"))
        if clang is None:
            raise FileNotFoundError("clang not found (apt-get install clang libclang-rt-14-dev)")
        return [str(build_c_target(clang))]
    return [sys.executable, str(FUZZ / "targets" / f"{target.name}.py")]


def command(target: Target, seconds: int, corpus: Path, artifacts: Path) -> list[str]:
    """The engine's command line; the flags are libFuzzer's, which atheris shares."""
    head = engine(target)
    flags = [
        f"-max_total_time={seconds}",
        f"-timeout={TIMEOUT_S}",
        f"-rss_limit_mb={RSS_LIMIT_MB}",
        f"-max_len={target.max_len}",
        "-print_final_stats=1",
        f"-artifact_prefix={artifacts}/",
    ]
    if target.engine == "libfuzzer":
        flags.append("-print_coverage=1")  # covered and uncovered functions, at exit
    if target.dictionary:
        flags.append(f"-dict={FUZZ / 'dicts' / target.dictionary}")
    folders = [corpus, FUZZ / "seeds" / target.seeds]
    regressions = FUZZ / "regressions" / target.name
    if regressions.is_dir():
        folders.append(regressions)
    return head + flags + [str(f) for f in folders]


_STAT = re.compile(r"^stat::(\w+):\s+(\d+)", re.M)
_PROGRESS = re.compile(r"cov: (\d+) ft: (\d+) corp: (\d+)")


def parse_log(text: str, result: Result) -> None:
    """Fill executions, exec/s, peak RSS and the last coverage line from a libFuzzer log."""
    stats = {k: int(v) for k, v in _STAT.findall(text)}
    result.executions = stats.get("number_of_executed_units", 0)
    result.exec_per_s = stats.get("average_exec_per_sec", 0)
    result.peak_rss_mb = stats.get("peak_rss_mb", 0)
    progress = _PROGRESS.findall(text)
    if progress:
        cov, ft, corp = progress[-1]
        result.coverage = f"cov {cov} ft {ft}"
        result.corpus = int(corp)


def worker_log(logs: Path, target: Target, worker: int) -> Path:
    """Worker 0 logs to ``<target>.log``, worker i to ``<target>.<i>.log``."""
    return logs / (f"{target.name}.log" if worker == 0 else f"{target.name}.{worker}.log")


def combine(results: list[Result]) -> Result:
    """One campaign's figures from its workers': executions and exec/s add up, peak RSS
    is the largest worker's, coverage that of the worker that reached the most features.
    Exit status and findings are the caller's: they belong to the campaign, not a log.
    """
    first = results[0]
    total = Result(first.target, first.engine, max(r.seconds for r in results))
    total.executions = sum(r.executions for r in results)
    total.exec_per_s = sum(r.exec_per_s for r in results)
    total.peak_rss_mb = max(r.peak_rss_mb for r in results)
    best = max(results, key=lambda r: int(r.coverage.rsplit(" ", 1)[-1] or 0) if r.coverage else -1)
    total.coverage, total.corpus = best.coverage, max(r.corpus for r in results)
    return total


_EXECUTED = re.compile(r"^Executed .+ in (\d+) ms$", re.M)


def replay_ms(log: str) -> int | None:
    """How long libFuzzer says one replayed input took, from its output."""
    found = _EXECUTED.findall(log)
    return int(found[-1]) if found else None


SLOW_UNIT_S = 10  # libFuzzer's -report_slow_units: it saves such an input as slow-unit-*


def unconfirmed_timeouts(target: Target, findings: list[str]) -> dict[str, int]:
    """The timeout and slow inputs among ``findings`` that, replayed once on their own,
    finish within their limit (by how many ms): starved of CPU by other work, not hangs."""
    out = {}
    for name in findings:
        base = Path(name).name
        limit_s = TIMEOUT_S if base.startswith("timeout-") else (
            SLOW_UNIT_S if base.startswith("slow-unit-") else None)
        if limit_s is None:
            continue
        try:
            run = subprocess.run([*engine(target), f"-timeout={TIMEOUT_S}", str(ROOT / name)],
                                 capture_output=True, text=True, cwd=ROOT,
                                 timeout=4 * TIMEOUT_S, errors="replace")
        except subprocess.TimeoutExpired:
            continue
        ms = replay_ms(run.stdout + run.stderr)
        if run.returncode == 0 and ms is not None and ms < limit_s * 1000:
            out[name] = ms
    return out


def run_target(target: Target, seconds: int, workers: int = 1) -> Result:
    """Run ``target`` for ``seconds`` in ``workers`` processes sharing one corpus folder.

    libFuzzer reloads the corpus folder every second, so each worker picks up what the
    others found.  When one worker stops early (a finding, a crash of the engine), the
    others are interrupted (SIGINT: they still print their statistics).
    """
    corpus = WORK / "corpus" / target.name
    artifacts = WORK / "artifacts" / target.name
    logs = WORK / "logs"
    for folder in (corpus, artifacts, logs):
        folder.mkdir(parents=True, exist_ok=True)
    result = Result(target.name, target.engine, seconds)
    try:
        cmd = command(target, seconds, corpus, artifacts)
    except (FileNotFoundError, subprocess.CalledProcessError) as exc:
        result.note = f"skipped: {exc}"
        return result
    before = set(artifacts.iterdir())
    env = dict(os.environ, PYTHONHASHSEED="0")
    t0 = time.monotonic()
    procs, files = [], []
    for worker in range(workers):
        out = open(worker_log(logs, target, worker), "w")  # noqa: SIM115 - closed below
        out.write(" ".join(cmd) + "\n")
        out.flush()
        files.append(out)
        procs.append(subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT,
                                      env=env))
    first_failed: int | None = None
    try:
        while any(p.poll() is None for p in procs):
            if first_failed is None:
                first_failed = next((w for w, p in enumerate(procs) if p.returncode), None)
                if first_failed is not None:
                    for p in procs:
                        if p.poll() is None:
                            p.send_signal(signal.SIGINT)
            time.sleep(0.5)
    finally:
        for p in procs:
            p.wait()
        for out in files:
            out.close()
    elapsed = round(time.monotonic() - t0, 1)
    parts = []
    for worker, proc in enumerate(procs):
        part = Result(target.name, target.engine, elapsed, exit_code=proc.returncode)
        parse_log(worker_log(logs, target, worker).read_text(errors="replace"), part)
        parts.append(part)
    result = combine(parts)
    found = sorted(str(p.relative_to(ROOT)) for p in set(artifacts.iterdir()) - before)
    starved = unconfirmed_timeouts(target, found)
    result.findings = [name for name in found if name not in starved]
    if first_failed is None:
        first_failed = next((w for w, p in enumerate(procs) if p.returncode), None)
    if first_failed is not None:
        result.exit_code = procs[first_failed].returncode
        if not result.findings and not starved:
            log = worker_log(logs, target, first_failed)
            result.note = f"engine exited {result.exit_code}: see {log.relative_to(ROOT)}"
    if starved:
        result.note = "; ".join(filter(None, [result.note, "slow or timed-out inputs that do "
                                "not reproduce: " + ", ".join(f"{name} replays in {ms} ms"
                                                             for name, ms in starved.items())]))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int,
                        default=int(os.environ.get("FUZZ_SECONDS", "60")),
                        help="time per target (default: $FUZZ_SECONDS or 60)")
    parser.add_argument("--targets", default=os.environ.get("FUZZ_TARGETS", ""),
                        help="comma-separated target names (default: all)")
    parser.add_argument("--workers", type=int,
                        default=int(os.environ.get("FUZZ_WORKERS", "1")),
                        help="processes per target, sharing its corpus "
                             "(default: $FUZZ_WORKERS or 1)")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    wanted = [t for t in args.targets.split(",") if t]
    unknown = set(wanted) - {t.name for t in TARGETS}
    if unknown:
        parser.error(f"unknown target(s) {sorted(unknown)}; known: {[t.name for t in TARGETS]}")
    results = []
    for target in TARGETS:
        if wanted and target.name not in wanted:
            continue
        print(f"== {target.name} ({target.engine}, {args.seconds} s, "
              f"{args.workers} worker{'s' if args.workers > 1 else ''})", flush=True)
        r = run_target(target, args.seconds, args.workers)
        results.append(r)
        found = ", ".join(r.findings) or "none"
        print(f"   {r.executions:,} executions in {r.seconds} s ({r.exec_per_s:,} exec/s), "
              f"{r.coverage}, corpus {r.corpus}, peak RSS {r.peak_rss_mb} MB; findings: {found}"
              + (f"; {r.note}" if r.note else ""), flush=True)
    summary = WORK / "summary.json"
    summary.parent.mkdir(parents=True, exist_ok=True)
    summary.write_text(json.dumps([asdict(r) for r in results], indent=1) + "\n")
    print(f"summary: {summary.relative_to(ROOT)}")
    return 1 if any(r.findings or r.note.startswith("engine") for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
