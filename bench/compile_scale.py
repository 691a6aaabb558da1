"""Compile time and memory against manual size: the example manuals repeated (each copy
under its own section title) to 1, 10 and 50 MB, compiled by the real `rulec compile` in
a fresh interpreter; reports wall time, seconds per MB, peak RSS and rules, with the
machine's load beside them.  The cost per statement is bounded, so seconds per MB stay
flat as the input grows.

    .venv/bin/python bench/compile_scale.py [--sizes 1,10,50] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOURCE = REPO / "examples" / "manuals" / "rocket_engine"


def manual(folder: Path, megabytes: float) -> Path:
    """A manual of about ``megabytes`` MB: the rocket engine limits, copy after copy."""
    text = (SOURCE / "hot_fire_limits.txt").read_text(encoding="utf-8")
    target = int(megabytes * 1_000_000)
    parts, size, n = [], 0, 0
    while size < target:
        part = text.replace("Limits", f"Limits, test stand {n}", 1)
        parts.append(part)
        size += len(part.encode("utf-8")) + 2
        n += 1
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(SOURCE / "sensors.toml", folder / "sensors.toml")
    (folder / "manual.txt").write_text("\n\n".join(parts), encoding="utf-8")
    return folder


def run(folder: Path, out: Path) -> dict[str, float]:
    started = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    proc = subprocess.run([sys.executable, "-m", "rulec.compiler.cli", "compile", str(folder),
                           "-o", str(out), "--json", "-q"], capture_output=True, text=True,
                          check=True)
    wall = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    summary = json.loads(proc.stdout.splitlines()[-1])
    return {"seconds": wall, "peak_rss_mb": max(peak, before) / 1024,
            "rules": sum(summary["rules"].values())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,10,50", help="sizes in MB (default 1,10,50)")
    parser.add_argument("--keep", type=Path, help="keep the generated manuals here")
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="rulec-scale-"))
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print("| input | wall s | s per MB | peak RSS MB | rules |")
    print("|---|---|---|---|---|")
    for size in (float(s) for s in args.sizes.split(",")):
        folder = manual(root / f"{size:g}MB", size)
        got = run(folder, root / f"{size:g}MB.bundle")
        print(f"| {size:g} MB | {got['seconds']:.1f} | {got['seconds'] / size:.2f} | "
              f"{got['peak_rss_mb']:.0f} | {got['rules']:.0f} |", flush=True)
    if args.keep is None:
        shutil.rmtree(root, ignore_errors=True)
    print(f"load average {os.getloadavg()[0]:.2f} after")
    return 0


if __name__ == "__main__":
    sys.exit(main())
