"""What discrete parameters cost a bundle that has none: today's tree against the last tree
before them, side by side in one run.

Discrete parameters (states, phases, time in state) touched the query path, the stream's
validity loop and the bundle loader.  A numeric-only bundle must not pay for them: the
target is "within 10 % of the kernel speed before".  This script measures that instead of
asserting it:

1. the baseline tree (``--baseline``, default ``7da9d3c``: the last commit before discrete
   parameters) is exported with ``git archive`` into ``build/``, and its two cffi modules
   are built there by their own cffi scripts;
2. one workload shaped like real manuals (8 parameters; one-sided thresholds dominating,
   some ranges; 1-3 parameters per rule; a quarter of the rules with an on-delay; states
   matching about 3 % and 10 % of the rules) is written once as reviewed rule objects
   (schema 1, which both trees read);
3. each tree compiles it with its own compiler and times, per call: the containment
   kernel (``RuleIndex.match``: boxes and the rule set), a query (``Engine.evaluate``,
   geometry only) and a stream step (``Engine.step`` with all 8 samples).  The two trees
   run alternately, ``--rounds`` times each, in separate processes, so both see the same
   load; the load is printed beside the table.

    python bench/discrete_overhead.py                  # ~1 min: 1k and 10k rules
    python bench/discrete_overhead.py --rules 1000,10000,100000 --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PARAMS = 8
RANGE = (0.0, 1000.0)
# How often a parameter sits where the thresholds are: about 3 % and 10 % of the rules match.
HOT = (0.15, 0.40)
QUERIES = 200
SUBPACKAGES = ("compiler", "runtime", "firmware_bridge")


# --------------------------------------------------------------------------- workload


def write_workload(folder: Path, n_rules: int, seed: int = 7) -> None:
    """sensors.toml (p0..p7 on 0..1000) and N rules as reviewed rule objects.

    A rule constrains 1 (60 %), 2 (30 %) or 3 (10 %) parameters; each constraint is a
    one-sided threshold (80 %: above a value in the upper fifth, or below one in the lower
    fifth) or a range inside the upper third.  A quarter of the rules hold for 2 s first.
    """
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "sensors.toml", "w", encoding="utf-8") as f:
        for p in range(PARAMS):
            f.write(f'[parameters.p{p}]\nunit = "psi"\nrange = [{RANGE[0]:g}, {RANGE[1]:g}]\n'
                    f"channel = {p}\n\n")
    with open(folder / "rules.jsonl", "w", encoding="utf-8") as f:
        for j in range(n_rules):
            width = rng.choices((1, 2, 3), weights=(6, 3, 1))[0]
            parts = []
            for p in rng.sample(range(PARAMS), width):
                shape = rng.random()
                if shape < 0.5:
                    parts.append({"param": f"p{p}", "op": ">",
                                  "value": round(rng.uniform(800, 990), 1)})
                elif shape < 0.8:
                    parts.append({"param": f"p{p}", "op": "<",
                                  "value": round(rng.uniform(10, 200), 1)})
                else:
                    low = round(rng.uniform(667, 900), 1)
                    parts.append({"param": f"p{p}", "op": "between",
                                  "value": [low, round(low + rng.uniform(20, 90), 1)]})
            cond: dict[str, Any] = parts[0] if width == 1 else {"all": parts}
            rule: dict[str, Any] = {
                "schema": 1, "id": f"W-{j:06d}", "kind": "if_then", "severity": "caution",
                "condition": cond, "action": f"act on {j}",
                "source": {"file": "rules.jsonl", "line": j + 1, "text": f"rule {j}"}}
            if j % 4 == 0:
                rule["duration"] = {"seconds": 2, "inclusive": False}
            f.write(json.dumps(rule) + "\n")


def states(n: int, share_hot: float, seed: int) -> list[list[float]]:
    """Sample vectors: each parameter in its quiet middle, or 'hot' (near an end of its
    range, where the thresholds are) with probability share_hot."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        row = []
        for _p in range(PARAMS):
            if rng.random() < share_hot:
                row.append(rng.uniform(900, 1000) if rng.random() < 0.6
                           else rng.uniform(0, 100))
            else:
                row.append(rng.uniform(300, 600))
        out.append(row)
    return out


# --------------------------------------------------------------------------- baseline tree


def baseline_tree(rev: str, build: Path) -> Path:
    """The baseline exported to build/baseline-REV, its cffi modules built in place; the
    folder to put on PYTHONPATH (it holds a ``rulec`` namespace package)."""
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev], check=True,
                         capture_output=True, text=True).stdout.strip()
    tree = build / f"baseline-{sha}"
    shim = tree / "pythonpath"
    if (shim / "rulec").is_dir() and list((tree / "src" / "runtime").glob("_kernel*.so")):
        return shim
    src = tree / "src"
    src.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", sha],
                             check=True, capture_output=True).stdout
    tar_path = tree / "src.tar"
    tar_path.write_bytes(archive)
    with tarfile.open(tar_path) as tar:
        tar.extractall(src, filter="data")
    tar_path.unlink()
    print(f"# building the baseline {sha} in {src}", file=sys.stderr)
    (shim / "rulec").mkdir(parents=True, exist_ok=True)
    for name in SUBPACKAGES:
        link = shim / "rulec" / name
        if not link.exists():
            link.symlink_to(src / name, target_is_directory=True)
    # Each cffi script compiles its module under the cwd by its dotted name, so from the
    # shim the .so files land in the exported tree's own folders.
    for script in ("build_kernel.py", "build_proto.py"):
        subprocess.run([sys.executable, str(src / "csrc" / script)], cwd=shim, check=True,
                       stdout=subprocess.DEVNULL)
    return shim


# --------------------------------------------------------------------------- worker


def worker(folder: Path, n_states: int, seed: int) -> dict[str, Any]:
    """Compile the workload with whichever tree is importable and time the three calls."""
    import numpy as np

    import rulec.runtime
    from rulec.compiler.pipeline import build_payload, collect_rules
    from rulec.runtime.bundle.format import encode_bundle, write_bundle_file
    from rulec.runtime.engine.engine import Engine

    result = collect_rules([folder])
    if result.errors:
        raise SystemExit(f"worker: {len(result.errors)} errors compiling {folder}")
    bundle = folder / f"w-{os.getpid()}.bundle"
    write_bundle_file(bundle, encode_bundle(build_payload(result, "discrete-overhead")))
    engine = Engine.from_file(str(bundle), paths=("geometry",))
    bundle.unlink()
    names = [f"p{p}" for p in range(PARAMS)]
    out: dict[str, Any] = {"tree": str(Path(rulec.runtime.__file__).parent.parent),
                           "backend": engine.backend, "rules": len(result.rules)}
    for share in HOT:
        rows = states(n_states, share, seed)
        dicts = [dict(zip(names, row, strict=True)) for row in rows]
        vectors = [engine.state_vector(d)[0] for d in dicts]
        match = engine.rule_index.match
        fired = [len(match(v)) for v in vectors[:200]]
        timings: dict[str, list[int]] = {"kernel": [], "query": [], "step": []}
        clock = time.perf_counter_ns
        for v in vectors:
            t0 = clock()
            match(v)
            timings["kernel"].append(clock() - t0)
        for d in dicts[:QUERIES]:  # a query words every fired rule: slow by design
            t0 = clock()
            engine.evaluate(d)
            timings["query"].append(clock() - t0)
        engine.reset()
        for i, d in enumerate(dicts):
            t0 = clock()
            engine.step(i * 0.1, d)
            timings["step"].append(clock() - t0)
        out[f"{share:.2f}"] = {
            "match_share": float(np.mean(fired)) / max(1, len(result.rules)),
            **{k: sorted(v) for k, v in timings.items()}}
    return out


def run_worker(pythonpath: Path | None, folder: Path, n_states: int, seed: int
               ) -> dict[str, Any]:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(pythonpath), env.get("PYTHONPATH", "")])
    proc = subprocess.run([sys.executable, __file__, "--worker", str(folder),
                           "--states", str(n_states), "--seed", str(seed)],
                          env=env, check=True, capture_output=True, text=True)
    return dict(json.loads(proc.stdout))


# --------------------------------------------------------------------------- report


def pct(values: list[int], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] / 1000.0


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} / {five:.2f} (1 / 5 min) on {os.cpu_count()} CPUs"


def report(rev: str, rows: list[tuple[int, str, str, list[int], list[int]]],
           shares: dict[tuple[int, str], float], before: str, after: str) -> str:
    lines = [
        f"Numeric-only bundle: today's tree against `{rev}` (before discrete parameters), "
        "the same rules compiled by each; per call, µs.",
        f"Load before: {before}; after: {after}; {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.machine()}.",
        "",
        "| rules | states hot | rules matched | call | before p50 | today p50 | "
        "before p99 | today p99 | today / before (p50) |",
        "|---:|---:|---:|---|---:|---:|---:|---:|---:|"]
    for n, share, call, old, new in rows:
        ratio = pct(new, 0.5) / pct(old, 0.5)
        lines.append(
            f"| {n:,} | {float(share):.0%} | {shares[(n, share)]:.1%} | {call} | "
            f"{pct(old, 0.5):.1f} | {pct(new, 0.5):.1f} | {pct(old, 0.99):.1f} | "
            f"{pct(new, 0.99):.1f} | {ratio:.3f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", default="7da9d3c",
                        help="the tree before discrete parameters [7da9d3c]")
    parser.add_argument("--rules", default="1000,10000", help="bundle sizes [1000,10000]")
    parser.add_argument("--states", type=int, default=4000, help="states per round [4000]")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds [3]")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--build", type=Path, default=ROOT / "build" / "bench-discrete")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker is not None:
        print(json.dumps(worker(args.worker, args.states, args.seed)))
        return 0
    shim = baseline_tree(args.baseline, args.build)
    before = load()
    rows: list[tuple[int, str, str, list[int], list[int]]] = []
    shares: dict[tuple[int, str], float] = {}
    for n in [int(v) for v in args.rules.split(",") if v.strip()]:
        folder = args.build / f"workload-{n}"
        write_workload(folder, n)
        runs: dict[str, list[dict[str, Any]]] = {"old": [], "new": []}
        for r in range(args.rounds):
            order = ("old", "new") if r % 2 == 0 else ("new", "old")
            for side in order:
                runs[side].append(run_worker(shim if side == "old" else None, folder,
                                             args.states, args.seed + r))
        old_tree, new_tree = runs["old"][0]["tree"], runs["new"][0]["tree"]
        if Path(old_tree).resolve() == Path(new_tree).resolve():
            raise SystemExit(f"both sides imported {old_tree}: the baseline did not load")
        if runs["old"][0]["rules"] != runs["new"][0]["rules"]:
            raise SystemExit("the two trees compiled different rule counts")
        for share in [f"{h:.2f}" for h in HOT]:
            shares[(n, share)] = runs["new"][0][share]["match_share"]
            for call in ("kernel", "query", "step"):
                old = sorted(v for run in runs["old"] for v in run[share][call])
                new = sorted(v for run in runs["new"] for v in run[share][call])
                rows.append((n, share, call, old, new))
        print(f"# {n} rules: baseline from {old_tree} ({runs['old'][0]['backend']}), "
              f"today from {new_tree} ({runs['new'][0]['backend']})", file=sys.stderr)
    print(report(args.baseline, rows, shares, before, load()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
