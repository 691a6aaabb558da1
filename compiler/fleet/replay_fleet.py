"""A whole fleet replay: files found, bundles read, runs replayed (on Dask or in this
process), results gathered into the summary and written to OUTDIR as they arrive."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulec.compiler.fleet.outputs import FleetWriter, check_outdir
from rulec.compiler.fleet.replay_file import ReplayOptions
from rulec.compiler.fleet.runs import find_run_files
from rulec.compiler.fleet.schedule import dask_available, replay_dask, replay_local
from rulec.compiler.fleet.summary import FleetSummary
from rulec.runtime.bundle.loader import load_bundle
from rulec.runtime.errors import BundleError


@dataclass
class FleetReport:
    """What a fleet replay did: the summary as written, where, and how fast."""

    summary: dict[str, Any]
    written: list[Path]
    engine: str  # "dask" | "single process"
    seconds: float
    notes: list[str] = field(default_factory=list)

    @property
    def samples_per_s(self) -> float:
        return self.summary["samples"] / self.seconds if self.seconds > 0 else 0.0


def _read_bundle(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise BundleError(f"cannot read bundle {str(path)!r}: {exc.strerror or exc}") from None


def replay_fleet(bundle: Path, telemetry: list[str], outdir: Path, *,
                 against: Path | None = None, scheduler: str | None = None,
                 workers: int | None = None, single_process: bool = False,
                 client: Any = None, options: ReplayOptions | None = None,
                 progress: Callable[[str], None] | None = None) -> FleetReport:
    """Replay every run under `telemetry` with `bundle` (and `against`), write OUTDIR."""
    say = progress or (lambda _text: None)
    options = options or ReplayOptions()
    new = _read_bundle(bundle)
    new_bundle = load_bundle(bundle)  # a bad bundle fails here, naming its file
    old = None if against is None else _read_bundle(against)
    old_bundle = None if against is None else load_bundle(against)
    files = find_run_files(telemetry)
    inputs = [bundle, *([against] if against else []), *(f.path for f in files)]
    check_outdir(outdir, inputs, [Path(t) for t in telemetry if Path(t).is_dir()])

    notes: list[str] = []
    missing = None if single_process else dask_available()
    engine = "single process" if single_process or missing else "dask"
    if missing and (scheduler or client is not None):
        raise BundleError(f"--scheduler needs dask.distributed ({missing}); "
                          "pip install 'rulec[fleet]'")
    if missing:
        notes.append(f"dask.distributed is not installed ({missing}): replaying in this "
                     "process; pip install 'rulec[fleet]' for a cluster")
        say(notes[-1])

    summary = FleetSummary(new_bundle, old_bundle)
    writer = FleetWriter(outdir)
    started = time.perf_counter()
    try:
        if engine == "dask":
            def cluster_up(text: str) -> None:  # the clock starts once the workers are there
                nonlocal started
                say(f"{text}, ready in {time.perf_counter() - started:.2f} s")
                started = time.perf_counter()

            results = replay_dask(files, new, old, options, client=client,
                                  scheduler=scheduler, workers=workers, on_start=cluster_up)
        else:
            results = replay_local(files, new, old, options)
        done, shown = 0, 0.0
        for index, result in results:
            writer.add(index, result)
            summary.add(result)
            done += 1
            now = time.perf_counter()
            if done == len(files) or now - shown >= 1.0:  # at most a line a second
                shown = now
                say(f"[{done}/{len(files)} files] {summary.samples} samples, "
                    f"{summary.events} events, {len(summary.failed)} bad file(s)")
        seconds = time.perf_counter() - started
        report = summary.to_json()
        report["engine"] = engine
        written = writer.finish(report, summary.diff_json() if old_bundle else None)
    except BaseException:
        writer.abandon()
        raise
    return FleetReport(report, written, engine, seconds, notes)


def stderr_progress(text: str) -> None:
    """Progress on stderr, one line each (a log, a terminal or CI alike)."""
    print(f"rulec fleet: {text}", file=sys.stderr, flush=True)
