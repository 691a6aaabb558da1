"""Read a telemetry CSV for replay: a `time` column (seconds, monotonic) and one
column per parameter; an empty cell means no new sample (the last one holds)."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from rulec.runtime.errors import StateError


def read_samples(
    path: Path, known: Callable[[str], bool] | None = None,
    value: Callable[[str, str], float] | None = None,
) -> Iterator[tuple[float, dict[str, float]]]:
    """Yield (t, {name: value}) rows; a malformed row fails naming the file and line,
    before any row is yielded (a replay never stops half-way through its output).

    `known`, when given, vets the header's parameter names before any row is read;
    `value(name, cell)` reads a cell (a discrete parameter's state name or index), a
    plain number otherwise.
    """
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise StateError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise StateError(f"{path}:{line}: not valid UTF-8") from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise StateError(f"{path}: empty file, expected a header row") from None
    except csv.Error as exc:
        raise StateError(f"{path}:1: unreadable CSV: {exc}") from None
    names = check_header([h.strip() for h in header], path)
    for name in names:
        if known is not None and name != "time" and not known(name):
            raise StateError(f"{path}:1: unknown parameter column {name!r}")
    yield from _rows(reader, names, path, value)


def check_header(names: list[str], path: Path) -> list[str]:
    """A telemetry header's column names, refused (naming the file) without a ``time``
    column, with an empty name or with a name twice."""
    if "time" not in names:
        raise StateError(f"{path}:1: no 'time' column in header {names}")
    for name in names:
        if not name:
            raise StateError(f"{path}:1: empty column name in header")
        if names.count(name) > 1:
            raise StateError(f"{path}:1: column {name!r} appears twice")
    return names


def _rows(reader: Any, names: list[str], path: Path,
          value: Callable[[str, str], float] | None) -> list[tuple[float, dict[str, float]]]:
    t_col = names.index("time")
    last_t = -math.inf
    rows: list[tuple[float, dict[str, float]]] = []
    try:
        for row in reader:
            line = reader.line_num
            if not row or all(not cell.strip() for cell in row):
                continue
            if len(row) != len(names):
                raise StateError(f"{path}:{line}: {len(row)} cells, header has {len(names)}")
            t = _float(row[t_col], path, line, "time")
            if not math.isfinite(t):
                raise StateError(f"{path}:{line}: time {row[t_col].strip()!r} is not a finite "
                                 "number of seconds")
            if t < last_t:
                raise StateError(f"{path}:{line}: time {row[t_col].strip()!r} goes back "
                                 f"(the row before is at {last_t:g} s)")
            last_t = t
            sample = {}
            for i, cell in enumerate(row):
                if i != t_col and cell.strip():
                    sample[names[i]] = (_float(cell, path, line, names[i]) if value is None
                                        else _value(value, cell, path, line, names[i]))
            rows.append((t, sample))
    except csv.Error as exc:
        raise StateError(f"{path}:{reader.line_num}: unreadable CSV: {exc}") from None
    return rows


def _float(cell: str, path: Path, line: int, column: str) -> float:
    try:
        return float(cell.strip())
    except ValueError:
        raise StateError(
            f"{path}:{line}: {column} value {cell.strip()!r} is not a number"
        ) from None


def _value(value: Callable[[str, str], float], cell: str, path: Path, line: int,
           column: str) -> float:
    try:
        return value(column, cell.strip())
    except StateError as exc:
        raise StateError(f"{path}:{line}: {exc}") from None


def replay_events(engine: Any, samples: Iterable[tuple[float, dict[str, float]]],
                  reloads: Sequence[tuple[float, Any]] = ()) -> Iterator[Any]:
    """The events of a run, in order.  ``reloads`` are (T, engine): after the last sample
    at or before T, the stream state is carried into that engine exactly as the daemon
    carries it on a hot reload (``adopt`` at the last sample's time), and the run goes on
    with it."""
    from rulec.runtime.engine.adopt import adopt

    pending = sorted(reloads, key=lambda r: r[0])
    last_t: float | None = None
    for t, sample in samples:
        while pending and t > pending[0][0]:
            new = pending.pop(0)[1]
            yield from adopt(engine, new, last_t).events
            engine = new
        yield from engine.step(t, sample)
        last_t = t
    for _, new in pending:
        yield from adopt(engine, new, last_t).events
        engine = new


def read_run(path: Path, engines: Sequence[Any]) -> list[tuple[float, dict[str, float]]]:
    """The samples of a CSV read for a run through several bundles: a column may name a
    parameter of any of them, a cell is read by the first that knows its column."""

    def owner(name: str) -> Any:
        return next((e for e in engines if e.knows(name)), None)

    return list(read_samples(path, known=lambda n: owner(n) is not None,
                             value=lambda n, cell: owner(n).value_of(n, cell)))


def replay(bundle: str | Path, csv_path: str | Path,
           reloads: Sequence[tuple[float, str | Path]] = ()) -> list[Any]:
    """The events a bundle raises and clears over a CSV of timed samples, exactly as
    ``rulec replay --json --faults`` prints them (each an ``Event``; ``to_json()``);
    ``reloads``: (T, bundle) swapped in after the last sample at or before T."""
    from rulec.runtime.engine.engine import Engine

    engine = Engine.from_file(str(bundle))
    swaps = [(float(t), Engine.from_file(str(b))) for t, b in reloads]
    samples = read_run(Path(csv_path), [engine, *(e for _, e in swaps)])
    return list(replay_events(engine, samples, swaps))
