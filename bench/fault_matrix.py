"""The long versions of the fault matrices whose short versions are tests.

Plain script (not pytest); it reuses the matrix builders of the tests, so the suite and
this script judge by the same rules, and prints markdown tables for
docs/robustness.md (``--json FILE`` keeps every figure).  Exit status 1 when any cell
fails.

- ``bundle``: every truncation, 10,000 single-bit and 10,000 two-bit flips of every
  example bundle (tests/integration/test_fault_matrix_bundle.py: the rocket bundle, single flips);
- ``sensors``: the sensor validity matrix of every example bundle whose parameters
  some rule uses (tests/integration/test_fault_matrix_sensors.py: rocket_engine, bank_loan);
- ``links``: every link row with ``--frames`` frames through the real daemon
  (tests/integration/test_fault_matrix_links.py: 1,500 per row);
- ``determinism``: installed kernel, numpy, -O0, -O2 and ASan+UBSan builds on
  ``--samples`` random samples per domain (the test: 150), the sanitizer build whether
  or not the suite could load it.

    python bench/fault_matrix.py                       # everything, ~10 min on 2 cores
    python bench/fault_matrix.py --only bundle,links --frames 5000
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "tests" / "integration"), str(REPO / "tests")]

import test_fault_matrix_bundle as bundle_matrix  # noqa: E402
import test_fault_matrix_determinism as determinism  # noqa: E402
import test_fault_matrix_links as links  # noqa: E402
import test_fault_matrix_sensors as sensors  # noqa: E402

DOMAINS = sorted(p.name for p in (REPO / "examples" / "manuals").iterdir() if p.is_dir())
PARTS = ("bundle", "sensors", "links", "determinism")


def run_bundle(flips: int) -> tuple[bool, dict[str, Any]]:
    print("\n## Bundle corruption\n")
    print("| bundle | bytes | truncations refused | 1-bit flips refused | 2-bit flips refused "
          "| error kinds (1-bit flips) |")
    print("|---|---|---|---|---|---|")
    ok, out = True, {}
    total: Counter[str] = Counter()
    for k, name in enumerate(DOMAINS):  # a seed per bundle: independent positions
        data = bundle_matrix.compile_example(name)
        one = bundle_matrix.corruption_matrix(data, flips, seed=2 * k + 1)
        two = bundle_matrix.corruption_matrix(data, flips, seed=2 * k + 2, bits_per_flip=2)
        good = not one["wrong"] and not two["wrong"]
        good &= one["refused"] == one["cases"] and two["refused"] == two["cases"]
        ok &= good
        total.update(one["flips"])
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(one["flips"].items()))
        n_trunc = sum(one["truncations"].values())
        print(f"| {name} | {one['bytes']} | {n_trunc}/{n_trunc} | "
              f"{one['refused'] - n_trunc}/{flips} | {two['refused'] - n_trunc}/{flips} | "
              f"{kinds} |" + ("" if good else " **FAIL**"))
        out[name] = {"one_bit": one, "two_bit": two}
    print(f"\nall single flips: {dict(total)}")
    return ok, out


def run_sensors() -> tuple[bool, dict[str, Any]]:
    print("\n## Sensor validity\n")
    ok, out = True, {}
    for name in DOMAINS:
        bundle = sensors.compile_example(name)
        cells = sensors.sensor_matrix(bundle)
        bad = [c for c in cells if not c.ok]
        ok &= not bad
        print(f"\n### {name}: {len(cells)} cells, {len(bad)} failed\n")
        print(sensors.format_matrix(cells))
        out[name] = {"cells": len(cells), "failed": [f"{c.parameter}/{c.cell}" for c in bad]}
    return ok, out


def run_links(frames: int) -> tuple[bool, dict[str, Any]]:
    print(f"\n## Link faults ({frames} frames per row, real daemon)\n")
    print("| row | intact frames evaluated | decoder drops = bad runs | duplicates "
          "| frames missing | events = reference | advisories from bad frames "
          "| intact frames lost beyond one |")
    print("|---|---|---|---|---|---|---|---|")
    ok, out = True, {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "engine.rulec"
        from rulec.compiler.pipeline import build_payload, collect_rules
        from rulec.runtime.bundle.format import encode_bundle, write_bundle_file

        write_bundle_file(path, encode_bundle(build_payload(collect_rules([links.ROCKET]),
                                                            "rocket")))
        for name, config in links.ROWS.items():
            row = links.link_row(path, config, frames)
            try:
                links.check_row(name, row)
                good = True
            except AssertionError:
                good = False
            ok &= good
            dropped = dict(row["dropped"])
            dups = dropped.pop("duplicate", 0)
            print(f"| {name} | {row['frames_ok']}/{row['expected_ok']} | "
                  f"{sum(dropped.values())} = {row['expected_bad']} | "
                  f"{dups} = {row['expected_dup']} | "
                  f"{row['frames_missing']} = {row['expected_missing']} | "
                  f"{row['events_equal']} ({row['events']}) | "
                  f"{row['advisories_from_bad_frames']} | {row['lost_beyond_one']} |"
                  + ("" if good else " **FAIL**"))
            out[name] = row
    return ok, out


def run_determinism(samples: int) -> tuple[bool, dict[str, Any]]:
    print(f"\n## Determinism ({samples} random samples per domain + the scenario)\n")
    variants = ["installed", "numpy", *determinism.BUILDS]
    if determinism.sanitizer_runtimes() is None:
        print("(no libasan/libubsan next to the compiler: the sanitizer variant is skipped)")
        variants.remove("asan+ubsan")
    with tempfile.TemporaryDirectory() as tmp:
        results = determinism.determinism_matrix(Path(tmp), samples, variants)
    print("| variant | backend | events | events SHA-256 | answers SHA-256 | seconds |")
    print("|---|---|---|---|---|---|")
    for name, r in results.items():
        print(f"| {name} | {r['backend']} | {r['events']} | `{r['events_sha256'][:16]}` | "
              f"`{r['answers_sha256'][:16]}` | {r['seconds']} |")
        r.pop("stderr", None)
    hashes = {(r["events_sha256"], r["answers_sha256"]) for r in results.values()}
    return len(hashes) == 1, results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default=",".join(PARTS), help=f"comma list of {PARTS}")
    ap.add_argument("--flips", type=int, default=10_000)
    ap.add_argument("--frames", type=int, default=20_000)
    ap.add_argument("--samples", type=int, default=3_000)
    ap.add_argument("--json", type=Path, help="write every figure here")
    args = ap.parse_args(argv)
    parts = [p.strip() for p in args.only.split(",") if p.strip()]
    unknown = set(parts) - set(PARTS)
    if unknown:
        ap.error(f"unknown part(s): {', '.join(sorted(unknown))}")
    runners = {"bundle": lambda: run_bundle(args.flips), "sensors": run_sensors,
               "links": lambda: run_links(args.frames),
               "determinism": lambda: run_determinism(args.samples)}
    report: dict[str, Any] = {}
    ok = True
    for part in parts:
        started = time.perf_counter()
        good, figures = runners[part]()
        report[part] = {"ok": good, "seconds": round(time.perf_counter() - started, 1),
                        "figures": figures}
        print(f"\n{part}: {'ok' if good else 'FAILED'} in {report[part]['seconds']} s")
        ok &= good
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, default=str), encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
