"""Replay of one telemetry file: every run in it through a fresh runtime `Engine` per
bundle, stepped sample by sample exactly as `rulec replay` steps it, so that a run's
events are those `rulec replay --json` prints for the same samples.

This is the unit of work a fleet worker runs.  It returns plain data (picklable, small
next to the samples): the events as compressed JSON lines and as an Arrow table, per-rule
raise counts and time raised, labelled rows for `rulec refine`, and with an old bundle
the per-run diff.  A header is checked against a cached engine per bundle; every run is
stepped by engines of its own, built fresh as `rulec replay` builds one.
"""

from __future__ import annotations

import hashlib
import json
import math
import zlib
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, NamedTuple

from rulec.compiler.fleet import event_table
from rulec.compiler.fleet.diff import RunDiff, diff_runs, episodes, renamed, renamed_rules
from rulec.compiler.fleet.runs import (
    CHUNK_ROWS,
    Row,
    RunFile,
    parameter_columns,
    read_header,
    read_rows,
)
from rulec.runtime.bundle.loader import Bundle, load_bundle
from rulec.runtime.engine.engine import Engine
from rulec.runtime.errors import RulecError, StateError


@dataclass(frozen=True)
class ReplayOptions:
    faults: bool = False  # also keep sensor-fault events, as `replay --json --faults`
    chunk_rows: int = CHUNK_ROWS
    table: bool = True  # also build the events' Arrow table (for events.parquet)


@dataclass
class RunResult:
    """What one run gave: its events (replay's JSON plus run and vehicle) and figures."""

    run: str
    vehicle: str
    file: str
    samples: int = 0
    start_s: float = 0.0
    end_s: float = 0.0
    origin: str | None = None  # ISO time of the first sample, for a run in wall-clock time
    # events as JSON lines, serialised and compressed on the worker (the lines repeat
    # their sources): the client only inflates and writes them out
    packed: bytes = b""
    n_events: int = 0
    arrow: bytes = b""  # the same events as Arrow IPC (event_table), when pyarrow is here
    rules: dict[str, dict[str, Any]] = field(default_factory=dict)  # id -> raises, active_s
    labels: list[dict[str, Any]] = field(default_factory=list)
    diff: RunDiff | None = None

    @property
    def duration_s(self) -> float:
        return self.end_s - self.start_s

    @property
    def jsonl(self) -> bytes:
        """The events as UTF-8 JSON lines, each ending in a newline."""
        return zlib.decompress(self.packed) if self.packed else b""

    def write_jsonl(self, out: Any, piece: int = 1 << 20) -> None:
        """Write the JSON lines to a binary file, inflating a piece at a time."""
        inflate = zlib.decompressobj()
        for start in range(0, len(self.packed), piece):
            out.write(inflate.decompress(self.packed[start:start + piece]))
        out.write(inflate.flush())

    @property
    def events(self) -> list[dict[str, Any]]:
        """The events as objects (replay's JSON plus run and vehicle)."""
        return [json.loads(line) for line in self.jsonl.decode("utf-8").splitlines()]


@dataclass
class FileResult:
    """One file's runs, or the one-line reason it could not be replayed."""

    file: str
    runs: list[RunResult] = field(default_factory=list)
    error: str | None = None

    @property
    def samples(self) -> int:
        return sum(r.samples for r in self.runs)


_BUNDLES: dict[str, Bundle] = {}  # on a worker: each bundle loaded once, by its bytes' hash


def bundle_from_bytes(data: bytes) -> Bundle:
    """A bundle loaded once per process from its bytes (kept for the next file)."""
    key = hashlib.sha256(data).hexdigest()
    bundle = _BUNDLES.get(key)
    if bundle is None:
        if len(_BUNDLES) >= 4:
            _BUNDLES.clear()
        bundle = _BUNDLES[key] = load_bundle(data)
    return bundle


_PROBES: dict[str, Engine] = {}  # one engine per bundle, asked only which names it knows


def _probe(bundle: Bundle) -> Engine:
    """An engine for reading a header against (never stepped: runs get fresh ones)."""
    engine = _PROBES.get(bundle.digest)
    if engine is None or engine.bundle is not bundle:
        if len(_PROBES) >= 4:
            _PROBES.clear()
        engine = _PROBES[bundle.digest] = Engine(bundle)
    return engine


def replay_file_task(payloads: tuple[bytes, bytes | None], run_file: RunFile,
                     options: ReplayOptions) -> FileResult:
    """The worker's entry point: bundles as bytes (shipped once per worker), one file."""
    new, old = payloads
    return replay_file(bundle_from_bytes(new),
                       None if old is None else bundle_from_bytes(old), run_file, options)


def replay_file(bundle: Bundle, old: Bundle | None, run_file: RunFile,
                options: ReplayOptions | None = None) -> FileResult:
    """Replay every run of a file; a bad file gives an error and no runs at all."""
    options = options or ReplayOptions()
    result = FileResult(str(run_file.path))
    try:
        result.runs = _replay(bundle, old, run_file, options)
    except RulecError as exc:
        result.error = " ".join(str(exc).split())
    except OSError as exc:
        result.error = f"{run_file.path}: cannot read: {exc.strerror or exc}"
    return result


class Mark(NamedTuple):
    """What the figures and the diff keep of a rule event: not its values or text."""

    t: float
    event: str
    rule: str | None
    severity: str | None


class _Lane:
    """One bundle's engine over one run, with the columns that bundle reads."""

    def __init__(self, bundle: Bundle, columns: list[str]) -> None:
        self.engine = Engine(bundle)
        self.columns = [c for c in columns if self.engine.knows(c)]
        self.marks: list[Mark] = []
        self.held: dict[str, float] = {}  # column -> its last value

    def step(self, row: Row) -> list[Any]:
        engine = self.engine
        sample: dict[str, float] = {}
        for name in self.columns:
            cell = row.cells.get(name)
            if cell is not None:
                try:
                    sample[name] = engine.value_of(name, cell)
                except StateError as exc:
                    raise StateError(f"{row.where}: {exc}") from None
        self.held.update(sample)  # each sample holds until the next: the state now
        events = engine.step(row.t, sample)
        self.marks.extend(Mark(e.t, e.event, e.rule, e.severity)
                          for e in events if e.rule is not None)
        return events


class _Run:
    def __init__(self, row: Row, file: str, bundle: Bundle, old: Bundle | None,
                 columns: list[str], table: bool) -> None:
        self.result = RunResult(row.run, row.vehicle, file, start_s=row.t)
        self.new = _Lane(bundle, columns)
        self.old = None if old is None else _Lane(old, columns)
        # events leave as they come: JSON lines into a zlib stream, rows into Arrow
        # batches, so a long run holds compressed bytes, not event objects
        self.packer = zlib.compressobj(1)
        self.packed: list[bytes] = []
        self.table = event_table.TableBuilder() if table else None


def _replay(bundle: Bundle, old: Bundle | None, run_file: RunFile,
            options: ReplayOptions) -> list[RunResult]:
    columns = parameter_columns(read_header(run_file))
    engines = [_probe(bundle)] + ([] if old is None else [_probe(old)])
    for name in columns:
        if not any(e.knows(name) for e in engines):
            raise StateError(f"{run_file.path}:1: unknown parameter column {name!r}")
    runs: dict[str, _Run] = {}
    file = str(run_file.path)
    table = options.table and event_table.arrow_available()
    for row in read_rows(run_file, options.chunk_rows):
        run = runs.get(row.run)
        if run is None:
            run = runs[row.run] = _Run(row, file, bundle, old, columns, table)
            if row.origin is not None:
                run.result.origin = row.origin.isoformat()
        events = run.new.step(row)
        if run.old is not None:
            run.old.step(row)
        result = run.result
        result.samples += 1
        result.end_s = row.t
        for event in events:
            if event.rule is None and not options.faults:
                continue
            out = event.to_json()
            if row.origin is not None:
                out["time"] = (row.origin + timedelta(seconds=event.t)).isoformat()
            out["run"] = row.run
            out["vehicle"] = row.vehicle
            line = json.dumps(out, ensure_ascii=False) + "\n"
            piece = run.packer.compress(line.encode("utf-8"))
            if piece:  # mostly empty: zlib hands out a block now and then
                run.packed.append(piece)
            result.n_events += 1
            if run.table is not None:
                run.table.add(out)
        if row.label is not None:
            _label(run, row)
    for run in runs.values():
        _figures(run)
    return [run.result for run in runs.values()]


def _label(run: _Run, row: Row) -> None:
    """A labelled sample as a feedback row: the values held now (each sample holds until
    the next), the labelled rules, and the rules the vehicle would show raised now."""
    engine = run.new.engine
    values = {engine.bundle.parameters[engine.rule_index.param(name)].name: value
              for name, value in run.new.held.items()}
    label = row.label or ""
    expected = sorted(set(label.replace(";", " ").split()) - {"-"})
    run.result.labels.append({"t": row.t, "values": values, "expected": expected,
                              "raised": sorted(engine.active())})


def _figures(run: _Run) -> None:
    """Raises and time raised per rule (a rule still raised at the end counts until the
    run's last sample), and with an old bundle, what changed."""
    result = run.result
    if result.n_events:
        result.packed = b"".join([*run.packed, run.packer.flush()])
    if run.table is not None:
        result.arrow = run.table.finish()
    severities = {m.rule: m.severity for m in run.new.marks}
    for rule, spells in episodes(run.new.marks, result.end_s).items():
        result.rules[rule] = {
            "severity": severities[rule],
            "raises": len(spells),
            "active_s": math.fsum(end - start for start, end, _ in spells),
            "raised_at_end": sum(1 for _, _, open_ in spells if open_),
        }
    if run.old is not None:
        renames = renamed_rules(run.old.engine.bundle, run.new.engine.bundle)
        result.diff = diff_runs(renamed(episodes(run.old.marks, result.end_s), renames),
                                episodes(run.new.marks, result.end_s))
