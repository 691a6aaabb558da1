"""Text samples read from standard input (``rulec-onboard --stdin``): CSV like
``rulec replay`` or JSON lines, split by a bounded line accumulator; never raises.

Apart from ``stdin.py`` because it parses bytes into samples and does not care
where they came from.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable

from rulec.firmware_bridge.links.base import DEFAULT_MAX_READ

__all__ = ["LineSplitter", "Sample", "TextSamples"]


class LineSplitter:
    """Bounded line accumulator: bytes in, complete lines out; overlong lines dropped."""

    def __init__(self, max_line: int = DEFAULT_MAX_READ) -> None:
        self.max_line = max_line
        self.overlong = 0
        self._buf = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list[bytes]:
        lines: list[bytes] = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            piece = data[start:] if end < 0 else data[start:end]
            if not self._skipping:
                self._buf += piece
                if len(self._buf) > self.max_line:
                    self.overlong += 1
                    self._buf.clear()
                    self._skipping = True
            if end < 0:
                return lines
            if not self._skipping:
                lines.append(bytes(self._buf).rstrip(b"\r"))
            self._buf.clear()
            self._skipping = False
            start = end + 1

    def flush(self) -> list[bytes]:
        """The last line when the input ended without a newline."""
        rest = bytes(self._buf).rstrip(b"\r")
        self._buf.clear()
        skipping, self._skipping = self._skipping, False
        return [rest] if rest and not skipping else []


Sample = tuple[float, dict[str, float]]


class TextSamples:
    """Text samples from stdin: CSV like ``rulec replay`` or JSON lines; never raises.

    CSV: a header with ``time`` and parameter names, then rows (an empty cell means no
    new sample).  JSON lines: ``{"t": 1.5, "values": {"name": 3.2}}`` (null: no sample).
    ``fmt="auto"`` decides on the first non-empty line (``{`` starts JSON lines).
    A bad line is skipped and described in ``errors`` (drained by the caller); a name
    ``known`` refuses is ignored with one error; time must not go backwards.  ``value``
    reads a cell or JSON string that is not a number (a discrete parameter's state name:
    ``"running"``), raising ValueError when it cannot.
    """

    def __init__(
        self,
        fmt: str = "auto",
        known: Callable[[str], bool] | None = None,
        max_line: int = DEFAULT_MAX_READ,
        value: Callable[[str, str], float] | None = None,
    ) -> None:
        if fmt not in ("auto", "csv", "jsonl"):
            raise ValueError(f"unknown text format {fmt!r}")
        self.fmt = fmt
        self.known = known
        self.value = value
        self.lines = LineSplitter(max_line)
        self.errors: list[str] = []
        self.bad_lines = 0
        self.line_no = 0
        self._header: list[str] | None = None
        self._ignored: set[str] = set()
        self._last_t = -float("inf")

    def feed(self, data: bytes) -> list[Sample]:
        overlong = self.lines.overlong
        lines = self.lines.feed(data)
        if self.lines.overlong != overlong:
            self._bad(f"line longer than {self.lines.max_line} bytes dropped")
        return self._parse(lines)

    def finish(self) -> list[Sample]:
        return self._parse(self.lines.flush())

    def _parse(self, lines: list[bytes]) -> list[Sample]:
        out: list[Sample] = []
        for raw in lines:
            self.line_no += 1
            try:
                text = raw.decode("utf-8-sig" if self.line_no == 1 else "utf-8").strip()
            except UnicodeDecodeError:
                self._bad("not valid UTF-8")
                continue
            if not text:
                continue
            if self.fmt == "auto":
                self.fmt = "jsonl" if text.startswith("{") else "csv"
            sample = self._jsonl(text) if self.fmt == "jsonl" else self._csv(text)
            if sample is None:
                continue
            t, values = sample
            if t < self._last_t:
                self._bad(f"time {t:g} goes back (last {self._last_t:g})")
                continue
            self._last_t = t
            out.append(sample)
        return out

    def _bad(self, what: str) -> None:
        self.bad_lines += 1
        self.errors.append(f"stdin:{self.line_no}: {what}")

    def _name_ok(self, name: str) -> bool:
        if self.known is None or self.known(name):
            return True
        if name not in self._ignored:
            self._ignored.add(name)
            self.errors.append(f"stdin:{self.line_no}: unknown parameter {name!r} ignored")
        return False

    def _csv(self, text: str) -> Sample | None:
        try:
            cells = next(csv.reader([text]))
        except (csv.Error, StopIteration) as exc:
            self._bad(f"unreadable CSV: {exc}")
            return None
        if self._header is None:
            names = [c.strip() for c in cells]
            if "time" not in names or len(set(names)) != len(names) or "" in names:
                self._bad(f"CSV header needs a `time` column and distinct names: {names}")
                return None
            self._header = names
            for name in names:
                if name != "time":
                    self._name_ok(name)
            return None
        if len(cells) != len(self._header):
            self._bad(f"{len(cells)} cells, header has {len(self._header)}")
            return None
        t: float | None = None
        values: dict[str, float] = {}
        for name, cell in zip(self._header, cells, strict=True):
            cell = cell.strip()
            if name == "time":
                t = _finite(cell)
                if t is None:
                    self._bad(f"time {cell!r} is not a finite number")
                    return None
            elif cell and name not in self._ignored:
                number = self._number(name, cell)
                if number is not None:
                    values[name] = number
        assert t is not None
        return t, values

    def _jsonl(self, text: str) -> Sample | None:
        try:
            obj = json.loads(text)
        except ValueError as exc:
            self._bad(f"not JSON: {exc}")
            return None
        if not isinstance(obj, dict) or not isinstance(obj.get("values"), dict):
            self._bad('expected {"t": number, "values": {name: number}}')
            return None
        raw_t = obj.get("t")
        t = None if isinstance(raw_t, bool) or not isinstance(raw_t, int | float) else raw_t
        if t is None or not math.isfinite(t):
            self._bad(f"t {raw_t!r} is not a finite number")
            return None
        values: dict[str, float] = {}
        for name, value in obj["values"].items():
            if value is None or not self._name_ok(name):
                continue
            if isinstance(value, str):
                number = self._number(name, value)
                if number is not None:
                    values[name] = number
                continue
            if isinstance(value, bool) or not isinstance(value, int | float):
                self._bad(f"{name} value {value!r} is not a number")
                continue
            values[name] = float(value)
        return float(t), values

    def _number(self, name: str, text: str) -> float | None:
        try:
            return float(text)
        except ValueError:
            pass
        if self.value is not None:
            try:
                return self.value(name, text)
            except ValueError as exc:
                self._bad(str(exc))
                return None
        self._bad(f"{name} value {text!r} is not a number")
        return None


def _finite(text: str) -> float | None:
    try:
        x = float(text)
    except ValueError:
        return None
    return x if math.isfinite(x) else None
