"""Read a telemetry CSV for replay: a `time` column (seconds, monotonic) and one
column per parameter; an empty cell means no new sample (the last one holds)."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Iterator
from pathlib import Path

from rulec.runtime.errors import StateError


def read_samples(
    path: Path, known: Callable[[str], bool] | None = None,
    value: Callable[[str, str], float] | None = None,
) -> Iterator[tuple[float, dict[str, float]]]:
    """Yield (t, {name: value}) rows; a malformed row fails naming the file and line.

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
    names = [h.strip() for h in header]
    if "time" not in names:
        raise StateError(f"{path}:1: no 'time' column in header {names}")
    for name in names:
        if not name:
            raise StateError(f"{path}:1: empty column name in header")
        if names.count(name) > 1:
            raise StateError(f"{path}:1: column {name!r} appears twice")
        if known is not None and name != "time" and not known(name):
            raise StateError(f"{path}:1: unknown parameter column {name!r}")
    t_col = names.index("time")
    last_t = -math.inf
    try:
        for row in reader:
            line = reader.line_num
            if not row or all(not cell.strip() for cell in row):
                continue
            if len(row) != len(names):
                raise StateError(f"{path}:{line}: {len(row)} cells, header has {len(names)}")
            t = _float(row[t_col], path, line, "time")
            if not math.isfinite(t) or t < last_t:
                raise StateError(f"{path}:{line}: time {row[t_col]!r} is not monotonic")
            last_t = t
            sample = {}
            for i, cell in enumerate(row):
                if i != t_col and cell.strip():
                    sample[names[i]] = (_float(cell, path, line, names[i]) if value is None
                                        else _value(value, cell, path, line, names[i]))
            yield t, sample
    except csv.Error as exc:
        raise StateError(f"{path}:{reader.line_num}: unreadable CSV: {exc}") from None


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
