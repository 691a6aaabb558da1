"""Labelled feedback for `rulec refine`: sensor states and the rules that should fire.

A CSV with a header: one column per parameter (its name or an alias, values in the
bundle's units, an empty cell for an absent reading) and an `expected` column listing
the ids of the rules whose condition should hold in that state, separated by `;` or
spaces (empty or `-`: none).  Every other rule with a condition is labelled "should not
fire" by that row.  A `time` or `note` column is ignored.  A bad row is reported with
its file and line and skipped; the caller decides whether any bad row is fatal.
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from rulec.compiler.refine.model import BundleModel, RefineError

EXPECTED = "expected"
IGNORED = ("time", "note")


@dataclass(frozen=True)
class BadRow:
    file: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"


@dataclass
class Feedback:
    """Rows as a dense matrix (NaN: absent, or outside the parameter's valid range, as the
    runtime treats it) and a row x rule matrix of expected decisions."""

    x: npt.NDArray[np.float64]  # (n_rows, n_params), bundle parameter order
    expected: npt.NDArray[np.bool_]  # (n_rows, n_rules), bundle rule order
    lines: list[int]
    sha256: str
    bad: list[BadRow] = field(default_factory=list)
    out_of_range: int = 0

    @property
    def n_rows(self) -> int:
        return int(self.x.shape[0])


def read_feedback(path: Path, model: BundleModel) -> Feedback:
    """Read a feedback CSV against a bundle; header problems raise, row problems are kept."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RefineError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RefineError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    return parse_feedback(text, model, str(path), hashlib.sha256(raw).hexdigest())


def parse_feedback(text: str, model: BundleModel, where: str = "feedback.csv",
                   sha256: str = "") -> Feedback:
    """Parse feedback CSV text; see the module docstring for the format."""
    params = model.payload["parameters"]
    rules = model.payload["rules"]
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header is None:
        raise RefineError(f"{where}:1: empty file; expected a header with an "
                          f"'{EXPECTED}' column")
    columns = _columns(header, params, where)
    learnable = {r["id"]: i for i, (r, c) in enumerate(zip(rules, model.conditions,
                                                           strict=True)) if c is not None}
    lo = [p["range"][0] if p["range"] else -math.inf for p in params]
    hi = [p["range"][1] if p["range"] else math.inf for p in params]
    xs: list[list[float]] = []
    labels: list[list[bool]] = []
    lines: list[int] = []
    bad: list[BadRow] = []
    out_of_range = 0
    for row in reader:
        line = reader.line_num
        if not row or all(not cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            bad.append(BadRow(where, line, f"{len(row)} fields, the header has {len(header)}"))
            continue
        x = [math.nan] * len(params)
        label = [False] * len(rules)
        problem = ""
        for cell, (kind, index) in zip(row, columns, strict=True):
            cell = cell.strip()
            if kind == "param" and cell:
                try:
                    value = float(cell)
                except ValueError:
                    problem = f"{params[index]['name']}: {cell!r} is not a number"
                    break
                if not math.isfinite(value):
                    problem = f"{params[index]['name']}: {cell!r} is not a finite number"
                    break
                if lo[index] <= value <= hi[index]:
                    x[index] = value
                else:
                    out_of_range += 1
            elif kind == "expected":
                problem = _labels(cell, learnable, rules, label)
                if problem:
                    break
        if problem:
            bad.append(BadRow(where, line, problem))
            continue
        xs.append(x)
        labels.append(label)
        lines.append(line)
    matrix = np.asarray(xs, dtype=np.float64).reshape(len(xs), len(params))
    expected = np.asarray(labels, dtype=bool).reshape(len(labels), len(rules))
    return Feedback(matrix, expected, lines, sha256, bad, out_of_range)


def _columns(header: list[str], params: list[dict[str, Any]], where: str
             ) -> list[tuple[str, int]]:
    """What each column is: ("param", axis), ("expected", -1) or ("ignored", -1)."""
    by_name: dict[str, int] = {}
    for i, p in enumerate(params):
        by_name[p["name"]] = i
        for alias in p["aliases"]:
            by_name.setdefault(_fold(alias), i)
    out: list[tuple[str, int]] = []
    seen: dict[int, str] = {}
    for name in header:
        name = name.strip()
        if name == EXPECTED:
            out.append(("expected", -1))
            continue
        if name in IGNORED:
            out.append(("ignored", -1))
            continue
        index = by_name.get(name, by_name.get(_fold(name)))
        if index is None:
            known = ", ".join(p["name"] for p in params)
            raise RefineError(f"{where}:1: unknown column {name!r} (parameters: {known}; "
                              f"and '{EXPECTED}')")
        if index in seen:
            raise RefineError(f"{where}:1: columns {seen[index]!r} and {name!r} name the "
                              f"same parameter {params[index]['name']!r}")
        seen[index] = name
        out.append(("param", index))
    if sum(1 for kind, _ in out if kind == "expected") != 1:
        raise RefineError(f"{where}:1: the header needs exactly one '{EXPECTED}' column")
    return out


def _fold(name: str) -> str:
    return " ".join(name.lower().replace("_", " ").split())


def _labels(cell: str, learnable: dict[str, int], rules: list[dict[str, Any]],
            label: list[bool]) -> str:
    """Mark the rules a cell names; a reason when it names something unusable."""
    if cell in ("", "-"):
        return ""
    for rule_id in (t for t in re.split(r"[;\s]+", cell) if t):
        index = learnable.get(rule_id)
        if index is None:
            if any(r["id"] == rule_id for r in rules):
                return f"{EXPECTED}: rule {rule_id} has no condition to learn from"
            return f"{EXPECTED}: unknown rule id {rule_id!r}"
        label[index] = True
    return ""
