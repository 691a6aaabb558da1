"""Outputs never overwrite inputs: every command that writes checks its output paths
against everything it reads before doing any work.

A reviewed rules file or a manual is often the only copy of hours of an engineer's work;
``rulec compile DIR -o DIR/manual.txt`` must be a one-line error, not a lost manual.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from rulec.runtime.errors import DocumentError

STDOUT = Path("-")


def is_stdout(path: Path | None) -> bool:
    """True for ``-o -``: write to standard output."""
    return path is not None and str(path) == "-"


def refuse_two_on_stdout(output: Path | None, json_flag: bool) -> None:
    """``-o -`` and ``--json`` cannot share standard output."""
    if is_stdout(output) and json_flag:
        raise DocumentError("-o - and --json both write to standard output; give one a file")


def refuse_overwriting_inputs(outputs: Iterable[tuple[str, Path | None]],
                              inputs: Iterable[Path]) -> None:
    """Raise a DocumentError when an output (given with the option that names it) is an
    input, is inside an input folder as a file that folder's reading would take, or is
    the same path as another output."""
    read = _files_read(inputs)
    seen: dict[Path, str] = {}
    for option, path in outputs:
        if path is None or is_stdout(path):
            continue
        target = _resolved(path)
        if target in read:
            raise DocumentError(f"{option} {path}: is an input ({read[target]}); refusing to "
                                "overwrite it: choose another output path")
        if target in seen:
            raise DocumentError(f"{option} {path}: the same file as {seen[target]}; give "
                                "each output its own path")
        if path.is_dir():
            raise DocumentError(f"{option} {path}: is a folder; name a file")
        seen[target] = f"{option} {path}"


def _files_read(inputs: Iterable[Path]) -> dict[Path, str]:
    """Every existing file an input names, resolved through links: a file itself, or the
    files under a folder (a folder's manuals, manifest and reviewed rules)."""
    found: dict[Path, str] = {}
    for src in inputs:
        if src.is_dir():
            for path in src.rglob("*"):
                if path.is_file():
                    found.setdefault(_resolved(path), str(path))
        elif src.exists():
            found.setdefault(_resolved(src), str(src))
            beside = src.parent / "sensors.toml"
            if beside.is_file():
                found.setdefault(_resolved(beside), str(beside))
    return found


def _resolved(path: Path) -> Path:
    return path.expanduser().resolve()
