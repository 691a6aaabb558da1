"""Helpers of the fleet tests: the example's paths, its compilation, and recorded runs
made from the example scenario with seeded changes so that rules raise, clear and
chatter.  (A module of its own, not conftest: tests import it by a unique name.)"""

from __future__ import annotations

import csv
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
MANUAL = ROOT / "examples" / "manuals" / "rocket_engine"
SCENARIO = ROOT / "examples" / "scenarios" / "engine_test.csv"


def compile_folder(folder: Path, out: Path) -> Path:
    from rulec.compiler.pipeline import build_payload, collect_rules
    from rulec.runtime.bundle.format import encode_bundle, write_bundle_file

    write_bundle_file(out, encode_bundle(build_payload(collect_rules([folder]), folder.name)))
    return out


def scenario_rows() -> tuple[list[str], list[list[str]]]:
    with open(SCENARIO, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def write_run(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def varied_run(seed: int, repeats: int = 1) -> tuple[list[str], list[list[str]]]:
    """The scenario with seeded noise on every value (and blanks: a held sample), played
    `repeats` times back to back on one clock."""
    header, rows = scenario_rows()
    rng = random.Random(seed)
    span = float(rows[-1][0]) + 0.5
    out = []
    for k in range(repeats):
        for row in rows:
            cells = [f"{float(row[0]) + k * span:g}"]
            for cell in row[1:]:
                if rng.random() < 0.05:
                    cells.append("")
                else:
                    cells.append(f"{float(cell) * rng.uniform(0.9, 1.1):.3f}")
            out.append(cells)
    return header, out
