"""Hold the containment kernel, the frame codec and the daemon's fast lane at full coverage
(``make coverage``).

Reads gcovr's JSON report and requires, for kernel.c, rulec_proto.c, lane.c and
lane_io.c, every line executed and every branch taken except the few listed in
UNREACHABLE below, each with the reason no test can take it (docs/robustness.md,
"C coverage", says the same).
A gap is named by the text of its source line, not its number, so edits elsewhere in
the file do not invalidate the list; a listed gap that a test starts covering is
reported so the list can shrink.  Exit status 0 when the files are held.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HELD = ("csrc/kernel.c", "csrc/rulec_proto.c", "csrc/lane.c", "csrc/lane_io.c")

# (file, start of the stripped source line) -> (branches left untaken, why)
UNREACHABLE: dict[tuple[str, str], tuple[int, str]] = {
    ("csrc/kernel.c", "while (digit < 11 && digit < bits"): (
        1,
        "digit < 11 never fails: bucket_sort runs only for n <= RK_RADIX_MAX (2048), so "
        "(2 << digit) < n stops the loop by digit 10",
    ),
    ("csrc/kernel.c", "return n > INT32_MAX ? RK_E_INDEX"): (
        1,
        "a count above INT32_MAX means more than 2^31 ids reported for one point; a "
        "validated index that large holds over 8 GiB of ids alone",
    ),
    ("csrc/kernel.c", "(e->axis2 & ~(RK_AXIS_MASK | RK_HAS_MORE)) != 0 ||"): (
        1,
        "the only bit outside RK_AXIS_MASK | RK_HAS_MORE is the sign bit, and a "
        "negative axis2 is refused by the test just before",
    ),
    ("csrc/lane.c", "double v = isfinite(t) ? nearbyint(t * 1e6) : 0.0;"): (
        1,
        "an engine time in the lane is a u64 timestamp / 1e6 (at most 1.9e13) plus the "
        "daemon's finite clock offset: never infinite or NaN",
    ),
    ("csrc/lane.c", "if (count < RULEC_MAX_CHANNELS) {"): (
        1,
        "a rule with more channels than a frame holds is marked RL_RULE_PYTHON when the "
        "tables are built, and take_frame hands its changes to Python",
    ),
    ("csrc/lane.c", "if (count <= RULEC_MAX_CHANNELS) {"): (
        1,
        "as above: no rule reaching write_advisory has more values than a frame holds",
    ),
    ("csrc/lane.c", "if (n >= 0)"): (
        1,
        "the ADVISORY payload cannot fail to encode: its size was checked against "
        "RULEC_MAX_PAYLOAD with the tables (RL_RULE_PYTHON), the id is non-empty UTF-8 "
        "from a Python str, event and severity are valid codes",
    ),
    ("csrc/lane.c", "if (n > 0) {"): (
        1,
        "framing cannot fail either: take_frame checked that the output holds a "
        "RULEC_MAX_WIRE_FRAME per reply before taking the frame",
    ),
    ("csrc/lane.c", "while (k < lane->n_tracked && lane->tracked[k] != r)"): (
        1,
        "the rule is always found before the end of the list (see the next entry)",
    ),
    ("csrc/lane.c", "if (k < lane->n_tracked)"): (
        1,
        "untrack is called only for a rule that is raised or timing, and every such "
        "rule is on the tracked list (track, untrack and Lane.sync keep it so)",
    ),
    ("csrc/rulec_proto.c", "if (w->overflow || w->pos > w->cap)"): (
        1,
        "every byte cw_put stores lies below pos and an unstored final code slot is "
        "dropped, so pos > cap implies a store at or past cap, which sets overflow",
    ),
}


def check(report: dict) -> int:
    """Print the figures and the gaps of the held files; the number of failures."""
    failures = 0
    files = {f["file"]: f for f in report["files"]}
    for name in HELD:
        data = files.get(name)
        if data is None:
            print(f"FAIL {name}: no coverage data")
            failures += 1
            continue
        source = Path(name).read_text(encoding="utf-8").splitlines()
        lines = [ln for ln in data["lines"] if not ln.get("gcovr/excluded")]
        missed_lines = [ln["line_number"] for ln in lines if ln["count"] == 0]
        n_br = sum(len(ln["branches"]) for ln in lines)
        taken = sum(b["count"] > 0 for ln in lines for b in ln["branches"])
        print(f"{name}: lines {len(lines) - len(missed_lines)}/{len(lines)}, "
              f"branches {taken}/{n_br} ({100.0 * taken / max(1, n_br):.1f} %)")
        for number in missed_lines:
            print(f"  FAIL line {number} never runs: {source[number - 1].strip()}")
            failures += 1
        seen = set()
        for ln in lines:
            untaken = sum(b["count"] == 0 for b in ln["branches"])
            if not untaken:
                continue
            text = source[ln["line_number"] - 1].strip()
            key = next((k for k in UNREACHABLE if k[0] == name and text.startswith(k[1])),
                       None)
            if key is None or untaken > UNREACHABLE[key][0]:
                print(f"  FAIL line {ln['line_number']}: {untaken} branch(es) never taken: "
                      f"{text}")
                failures += 1
            else:
                seen.add(key)
                print(f"  explained, line {ln['line_number']}: {UNREACHABLE[key][1]}")
        for key in UNREACHABLE:
            if key[0] == name and key not in seen:
                print(f"  note: listed gap now covered or gone, drop it: {key[1]}")
    return failures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report", type=Path, help="gcovr --json output")
    args = ap.parse_args(argv)
    failures = check(json.loads(args.report.read_text(encoding="utf-8")))
    print("coverage gate: " + ("ok" if failures == 0 else f"{failures} failure(s)"))
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
