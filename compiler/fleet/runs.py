"""Recorded runs read in chunks: a CSV (replay's format) or a Parquet file becomes a
stream of rows, each tagged with its run, so that a run is never held in memory as a
whole, however long it is.

Columns: `time` (seconds, or ISO-8601 times: then a run's clock starts at its first
sample and events also carry the wall-clock time), optional `run` and `vehicle`, an
optional `expected` (labels for `rulec refine`), and parameter columns exactly as
`rulec replay` reads them.  Rules checked per row are replay's: cell count, a finite
time that never goes back within a run; an empty cell means no new sample.

Which files: TELEMETRY arguments (files, folders, globs) become a sorted list of
`RunFile`s, each with the run name it gives by default.  Listing happens on the client
only; workers receive the paths, so on a real cluster the telemetry must sit on storage
every worker sees under the same path.
"""

from __future__ import annotations

import csv
import glob
import math
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple

from rulec.runtime.engine.replay import check_header
from rulec.runtime.errors import StateError

SUFFIXES = (".csv", ".parquet", ".pq")


@dataclass(frozen=True)
class RunFile:
    """One telemetry file: its path, its format and the run name its rows get when no
    `run` column names them (the file's stem; parent/stem when two stems collide)."""

    path: Path
    kind: str  # "csv" | "parquet"
    name: str

    @property
    def vehicle(self) -> str:
        """The vehicle of its runs when no `vehicle` column names it: the folder name."""
        return self.path.resolve().parent.name


def file_kind(path: Path) -> str:
    """"csv" or "parquet" by the file's suffix; anything else is refused."""
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return "csv"
    if suffix in (".parquet", ".pq"):
        return "parquet"
    raise StateError(f"{path}: not a telemetry file (expected .csv, .parquet or .pq)")


def find_run_files(arguments: list[str]) -> list[RunFile]:
    """Every telemetry file the arguments name, each once, in path order.

    A folder is searched recursively for .csv/.parquet/.pq files; a pattern with glob
    characters is expanded (``**`` included); a plain path must exist.
    """
    found: dict[Path, None] = {}
    for arg in arguments:
        path = Path(arg)
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                if child.is_file() and child.suffix.lower() in SUFFIXES:
                    found.setdefault(child, None)
        elif path.is_file():
            file_kind(path)
            found.setdefault(path, None)
        elif glob.has_magic(arg):
            matches = sorted(Path(m) for m in glob.glob(arg, recursive=True))
            files = [m for m in matches if m.is_file() and m.suffix.lower() in SUFFIXES]
            if not files:
                raise StateError(f"{arg}: the pattern matches no telemetry file")
            for match in files:
                found.setdefault(match, None)
        else:
            raise StateError(f"{arg}: no such file or folder")
    if not found:
        raise StateError(f"{' '.join(arguments)}: no telemetry file (.csv, .parquet) found")
    paths = sorted(found, key=lambda p: str(p))
    stems = Counter(p.stem for p in paths)
    return [RunFile(p, file_kind(p),
                    p.stem if stems[p.stem] == 1 else f"{p.resolve().parent.name}/{p.stem}")
            for p in paths]


RESERVED = ("time", "run", "vehicle", "expected")
CHUNK_ROWS = 65536  # Parquet rows per batch; CSV is read line by line
_SECOND = timedelta(seconds=1)
_FRACTION = re.compile(r"[T ]\d\d:\d\d:\d\d[.,](\d+)")


class Stamp(NamedTuple):
    """A Parquet timestamp as its integer count of units since the epoch: nanoseconds
    stay exact, where a Python datetime would round them to microseconds."""

    ticks: int
    per_second: int

    def datetime(self) -> datetime:
        whole, part = divmod(self.ticks, self.per_second)
        return datetime.fromtimestamp(whole, UTC) + timedelta(
            microseconds=part * 1_000_000 // self.per_second)


@dataclass(frozen=True)
class Row:
    """One sample of one run.  `cells` hold text (CSV) or numbers (Parquet), never
    empty; `label` is the `expected` cell, None when the row is not labelled."""

    run: str
    vehicle: str
    where: str  # "file:line" (CSV) or "file: row N" (Parquet), for errors
    t: float
    cells: dict[str, Any]
    label: str | None
    origin: datetime | None  # the run's first ISO time; None for a clock in seconds


class RunClock:
    """A run's time base: seconds as written, or ISO-8601 times as seconds since the
    run's first sample.  A run never mixes the two and never goes back."""

    def __init__(self) -> None:
        self.origin: datetime | None = None
        self.iso: bool | None = None
        self.origin_stamp: Stamp | None = None
        self.last = -math.inf

    def seconds(self, raw: Any, where: str) -> float:
        text = raw.strip() if isinstance(raw, str) else raw
        if isinstance(text, Stamp):
            t = self._since_stamp(text, where)
        elif isinstance(text, datetime):
            t = self._since_origin(text, where, str(text))
        elif isinstance(text, int | float):
            t = self._plain(float(text), where, str(text))
        else:
            try:
                value = float(text)
            except ValueError:
                t = self._since_origin(_iso(text, where, self.iso), where, text)
            else:
                t = self._plain(value, where, text)
        if not math.isfinite(t):
            raise StateError(f"{where}: time {text!r} is not a finite number of seconds")
        if t < self.last:
            raise StateError(f"{where}: time {text!r} goes back "
                             f"(the row before is at {self.last:g} s)")
        self.last = t
        return t

    def _plain(self, value: float, where: str, text: str) -> float:
        if self.iso:
            raise StateError(f"{where}: time {text!r} is seconds in a run of ISO-8601 times")
        self.iso = False
        return value

    def _since_stamp(self, stamp: Stamp, where: str) -> float:
        if self.iso is False:
            raise StateError(f"{where}: a timestamp in a run of seconds")
        self.iso = True
        if self.origin is None:
            self.origin = stamp.datetime()
            self.origin_stamp = stamp
        first = self.origin_stamp
        if first is None or first.per_second != stamp.per_second:
            raise StateError(f"{where}: a timestamp in a run of ISO-8601 text times")
        return (stamp.ticks - first.ticks) / stamp.per_second  # exact integers, one rounding

    def _since_origin(self, when: datetime, where: str, text: str) -> float:
        if self.iso is False:
            raise StateError(f"{where}: time {text!r} is not a number of seconds")
        if self.origin_stamp is not None:
            raise StateError(f"{where}: an ISO-8601 text time in a run of timestamps")
        self.iso = True
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)  # a time without a zone is read as UTC
        if self.origin is None:
            self.origin = when
        return (when - self.origin) / _SECOND


def _iso(text: str, where: str, iso: bool | None) -> datetime:
    fraction = _FRACTION.search(text)
    if fraction and fraction.group(1)[6:].strip("0"):  # Python would drop these digits
        raise StateError(f"{where}: time {text!r} has digits below the microsecond; "
                         "give such times as seconds")
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        if iso:
            raise StateError(f"{where}: time {text!r} is not an ISO-8601 time") from None
        # a run in seconds, or its first row: replay's own words
        raise StateError(f"{where}: time value {text!r} is not a number") from None


class _Runs:
    """Per-run state while a file is read: its clock and its vehicle."""

    def __init__(self, default_run: str, default_vehicle: str) -> None:
        self.default_run = default_run
        self.default_vehicle = default_vehicle
        self.clocks: dict[str, RunClock] = {}
        self.vehicles: dict[str, str] = {}

    def row(self, run: Any, vehicle: Any, where: str, time: Any, cells: dict[str, Any],
            label: Any) -> Row:
        name = self.default_run if _blank(run) else str(run).strip()
        clock = self.clocks.get(name)
        if clock is None:
            clock = self.clocks[name] = RunClock()
        t = clock.seconds(time, where)
        owner = self.default_vehicle if _blank(vehicle) else str(vehicle).strip()
        known = self.vehicles.setdefault(name, owner)
        if known != owner:
            raise StateError(f"{where}: run {name!r} changes vehicle from {known!r} "
                             f"to {owner!r}")
        text = None if _blank(label) else str(label).strip()
        return Row(name, owner, where, t, cells, text, clock.origin)


def _blank(cell: Any) -> bool:
    return cell is None or (isinstance(cell, str) and not cell.strip())


def read_header(run_file: RunFile) -> list[str]:
    """The file's column names, checked as replay checks a header."""
    if run_file.kind == "parquet":
        names = [str(n) for n in _parquet(run_file.path).schema_arrow.names]
    else:
        with _open_csv(run_file.path) as handle:
            try:
                names = [h.strip() for h in next(csv.reader(handle))]
            except StopIteration:
                raise StateError(f"{run_file.path}: empty file, expected a header row") from None
            except (csv.Error, UnicodeDecodeError) as exc:
                raise StateError(f"{run_file.path}:1: unreadable CSV: {exc}") from None
    return check_header(names, run_file.path)


def parameter_columns(names: list[str]) -> list[str]:
    """The columns that carry parameter values (all but the reserved ones)."""
    return [n for n in names if n not in RESERVED]


def read_rows(run_file: RunFile, chunk_rows: int = CHUNK_ROWS) -> Iterator[Row]:
    """Every sample of the file, in file order, one chunk in memory at a time."""
    if run_file.kind == "parquet":
        yield from _parquet_rows(run_file, chunk_rows)
    else:
        yield from _csv_rows(run_file)


def _open_csv(path: Path) -> Any:
    try:
        return open(path, encoding="utf-8-sig", newline="")
    except OSError as exc:
        raise StateError(f"{path}: cannot read: {exc.strerror or exc}") from None


def _csv_rows(run_file: RunFile) -> Iterator[Row]:
    path = run_file.path
    runs = _Runs(run_file.name, run_file.vehicle)
    with _open_csv(path) as handle:
        reader = csv.reader(handle)
        try:
            names = check_header([h.strip() for h in next(reader)], path)
            index = {n: i for i, n in enumerate(names)}
            params = [(i, n) for i, n in enumerate(names) if n not in RESERVED]
            t_col = index["time"]
            run_col, vehicle_col, label_col = (index.get(k) for k in RESERVED[1:])
            for row in reader:
                line = reader.line_num
                if not row or all(not cell.strip() for cell in row):
                    continue
                where = f"{path}:{line}"
                if len(row) != len(names):
                    raise StateError(f"{where}: {len(row)} cells, header has {len(names)}")
                cells = {n: row[i].strip() for i, n in params if row[i].strip()}
                yield runs.row(_cell(row, run_col), _cell(row, vehicle_col), where,
                               row[t_col], cells, _cell(row, label_col))
        except StopIteration:
            raise StateError(f"{path}: empty file, expected a header row") from None
        except csv.Error as exc:
            raise StateError(f"{path}:{reader.line_num}: unreadable CSV: {exc}") from None
        except UnicodeDecodeError:
            raise StateError(f"{path}:{reader.line_num + 1}: not valid UTF-8") from None


def _cell(row: list[str], col: int | None) -> str | None:
    return None if col is None else row[col]


def _parquet(path: Path) -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise StateError(f"{path}: reading Parquet needs pyarrow "
                         "(pip install 'rulec[fleet]')") from None
    try:
        return pq.ParquetFile(path)
    except OSError as exc:
        raise StateError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except Exception as exc:  # noqa: BLE001 - pyarrow's errors for a file that is not Parquet
        raise StateError(f"{path}: not a readable Parquet file: {exc}") from None


def _parquet_rows(run_file: RunFile, chunk_rows: int) -> Iterator[Row]:
    path = run_file.path
    source = _parquet(path)
    names = check_header([str(n) for n in source.schema_arrow.names], path)
    params = [n for n in names if n not in RESERVED]
    runs = _Runs(run_file.name, run_file.vehicle)
    first = 0
    try:
        batches = source.iter_batches(batch_size=chunk_rows)
        for batch in batches:
            columns = {n: _pylist(batch.column(n)) for n in names}
            empty = [None] * batch.num_rows
            run_col, vehicle_col, label_col = (columns.get(k, empty) for k in RESERVED[1:])
            for i in range(batch.num_rows):
                where = f"{path}: row {first + i + 1}"
                cells = {}
                for name in params:
                    cell = columns[name][i]
                    if not _blank(cell):
                        cells[name] = cell.strip() if isinstance(cell, str) else cell
                if columns["time"][i] is None:
                    raise StateError(f"{where}: no time")
                yield runs.row(run_col[i], vehicle_col[i], where, columns["time"][i],
                               cells, label_col[i])
            first += batch.num_rows
    except StateError:
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged page or a column type we cannot read
        raise StateError(f"{path}: row {first + 1}: unreadable Parquet: {exc}") from None


def _pylist(column: Any) -> list[Any]:
    """A Parquet column as Python values; timestamps as exact `Stamp`s."""
    import pyarrow as pa

    if pa.types.is_timestamp(column.type):
        per_second = {"s": 1, "ms": 1_000, "us": 1_000_000, "ns": 1_000_000_000}
        scale = per_second[column.type.unit]
        counts = column.cast(pa.int64()).to_pylist()
        return [None if c is None else Stamp(c, scale) for c in counts]
    return list(column.to_pylist())
