"""`rulec fleet BUNDLE TELEMETRY... -o OUTDIR [--against OLD.bundle] [--scheduler URL]`:
what a bundle would have raised on every recorded run, before it ships.

Each run is replayed by the onboard runtime exactly as `rulec replay` replays it, on a
Dask cluster (local by default) or in this process; docs/fleet.md describes the outputs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rulec.runtime.errors import StateError


def register(sub: Any) -> None:
    """Add `fleet` to the `rulec` sub-command parsers."""
    p = sub.add_parser(
        "fleet", help="replay every recorded run of a fleet (Dask) and summarise",
        description="Replay recorded runs (CSV as for replay, ISO-8601 times allowed, or "
        "Parquet; optional run, vehicle and expected columns) with replay's exact "
        "semantics, on a Dask cluster or in this process.  Writes OUTDIR/events.jsonl, "
        "events.parquet (with pyarrow), summary.json, report.md (+ plots), with --against "
        "diff.json, and feedback.csv for `rulec refine` when runs carry an 'expected' "
        "column.  A bad file is named on stderr and skipped, the others replayed (exit "
        "1); docs/fleet.md.")
    p.add_argument("bundle", type=Path, metavar="BUNDLE")
    p.add_argument("telemetry", nargs="+", metavar="TELEMETRY",
                   help="telemetry files, folders (searched recursively) or glob patterns")
    p.add_argument("-o", "--output", required=True, type=Path, metavar="OUTDIR")
    p.add_argument("--against", type=Path, metavar="OLD.bundle",
                   help="the bundle in service: also write what changes (diff.json)")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                   help="a running Dask scheduler (default: a local cluster on this "
                   "machine's cores)")
    p.add_argument("--workers", type=int, metavar="N",
                   help="worker processes of the local cluster (default: one per core)")
    p.add_argument("--single-process", action="store_true",
                   help="replay in this process, without Dask (same results)")
    p.add_argument("--faults", action="store_true",
                   help="also keep sensor-fault events, as replay --json --faults")
    p.add_argument("--no-report", action="store_true",
                   help="skip report.md and its plots")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(run=run_fleet)


def run_fleet(args: argparse.Namespace) -> int:
    from rulec.compiler.fleet.replay_file import ReplayOptions
    from rulec.compiler.fleet.replay_fleet import replay_fleet, stderr_progress
    from rulec.compiler.fleet.report import write_report

    if args.workers is not None and args.workers < 1:
        raise StateError(f"--workers {args.workers}: at least one worker")
    if args.scheduler and args.single_process:
        raise StateError("--scheduler and --single-process exclude each other")
    result = replay_fleet(
        args.bundle, args.telemetry, args.output, against=args.against,
        scheduler=args.scheduler, workers=args.workers, single_process=args.single_process,
        options=ReplayOptions(faults=args.faults),
        progress=None if args.quiet else stderr_progress)
    written = list(result.written)
    if not args.no_report:
        written.extend(write_report(args.output, result.summary))
    s = result.summary
    print(f"{s['runs']} run(s) from {s['files']} file(s) ({s['files_failed']} bad), "
          f"{s['samples']} samples, {s['events']} events, on {result.engine} in "
          f"{result.seconds:.2f} s ({result.samples_per_s:,.0f} samples/s)")
    if "against" in s:
        a = s["against"]
        print(f"against {a['bundle']}: {a['added']} added, {a['removed']} removed, "
              f"{a['shifted']} shifted, in {a['runs_changed']} run(s)")
    for failure in s["failed"]:  # the others were replayed: each bad one named, once
        print(f"rulec: error: bad file skipped: {failure['error']}", file=sys.stderr)
    for path in written:
        print(f"wrote {path}")
    return 0 if not s["failed"] else 1
