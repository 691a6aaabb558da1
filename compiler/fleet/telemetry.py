"""Which files a fleet replay reads: TELEMETRY arguments (files, folders, globs) turned
into a sorted list of recorded-run files, each with the run name it gives by default.

Listing happens on the client only; workers receive the paths, so on a real cluster the
telemetry must sit on storage every worker sees under the same path.
"""

from __future__ import annotations

import glob
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

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
