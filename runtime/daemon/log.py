"""What the onboard daemon reports: JSON lines (``EventLog``), and the counters and
latency samples behind its periodic summaries (``Counters``, ``summary_record``).  See
docs/onboard.md."""

from __future__ import annotations

import json
import math
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

import numpy as np

from rulec.runtime.daemon.config import ConfigError

MAX_LATENCY_SAMPLES = 200_000

LogRecord = dict[str, Any] | Callable[[], dict[str, Any]]  # a line, or how to build it


class EventLog:
    """JSON lines, one object per line, flushed at once; a failing sink never stops us.

    Between ``hold()`` and ``release()`` (one chunk of input) records are kept and then
    written with one write and one flush, after the chunk's replies are on the link.
    """

    def __init__(self, target: str = "-", stream: TextIO | None = None) -> None:
        self.target = target
        self.errors = 0
        self.lost = 0  # lines that could not be written
        self._stream: TextIO | None = stream
        self._owned = False
        self._held: list[LogRecord] | None = None
        if stream is None:
            self._open()

    def _open(self) -> None:
        if self.target == "-":
            self._stream, self._owned = sys.stdout, False
            return
        try:
            self._stream = open(self.target, "a", encoding="utf-8", buffering=1)  # noqa: SIM115
        except OSError as exc:
            raise ConfigError(f"--log {self.target}: cannot open: {exc.strerror or exc}") from None
        self._owned = True

    def reopen(self) -> None:
        """After logrotate moved the file: start a new one under the same name."""
        if self._owned:
            self.close()
            try:
                self._open()
            except ConfigError:
                self.errors += 1
                self._stream, self._owned = sys.stderr, False

    def write(self, record: LogRecord) -> None:
        """One line: a dict, or a function returning it (called when the line is written)."""
        if self._held is not None:
            self._held.append(record)
            return
        self._write_lines([record])

    def hold(self) -> None:
        """Keep records until ``release``: the JSON work stays off the reply path."""
        if self._held is None:
            self._held = []

    def release(self) -> None:
        """Write what ``hold`` kept, in order, with one write and one flush."""
        held, self._held = self._held, None
        if held:
            self._write_lines(held)

    def _write_lines(self, records: list[LogRecord]) -> None:
        ts = round(time.time(), 3)  # once per batch: the lines of one chunk share it
        texts = []
        for record in records:
            line = {"ts": ts, **(record() if callable(record) else record)}
            try:
                texts.append(json.dumps(line, ensure_ascii=False, allow_nan=False))
            except ValueError:
                texts.append(json.dumps(_finite_json(line), ensure_ascii=False))
        texts.append("")
        try:
            assert self._stream is not None
            self._stream.write("\n".join(texts))
            self._stream.flush()
        except (OSError, ValueError) as exc:
            self._failed(exc, len(records))

    def _failed(self, exc: Exception, lines: int) -> None:
        """A log that cannot be written is said on stderr (the first failure, then every
        1000th) and counted; the daemon's exit status says it at the end."""
        self.errors += 1
        self.lost += lines
        if self.errors == 1 or self.errors % 1000 == 0:
            why = getattr(exc, "strerror", None) or exc
            target = "stdout" if self.target == "-" else self.target
            try:
                print(f"rulec-onboard: error: log {target}: cannot write: {why} "
                      f"({self.lost} line(s) lost so far)", file=sys.stderr, flush=True)
            except (OSError, ValueError):
                pass

    def close(self) -> None:
        self.release()
        stream, self._stream = self._stream, None
        if stream is not None and self._owned:
            try:
                stream.close()
            except OSError:
                self.errors += 1


def _finite_json(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite_json(v) for v in value]
    return value


# --------------------------------------------------------------------------- counters


@dataclass
class Counters:
    """Counts since the last summary (``period``) and since start (``total``)."""

    period: Counter[str] = field(default_factory=Counter)
    total: Counter[str] = field(default_factory=Counter)
    eval_us: list[float] = field(default_factory=list)
    e2e_us: list[float] = field(default_factory=list)

    def add(self, key: str, n: int = 1) -> None:
        if n:
            self.period[key] += n
            self.total[key] += n

    def latency(self, eval_us: float, e2e_us: float) -> None:
        if len(self.eval_us) < MAX_LATENCY_SAMPLES:
            self.eval_us.append(eval_us)
            self.e2e_us.append(e2e_us)

    def dropped(self, counts: Counter[str]) -> dict[str, int]:
        return {k[8:]: v for k, v in sorted(counts.items()) if k.startswith("dropped.")}

    def take_period(self) -> tuple[Counter[str], list[float], list[float]]:
        out = (self.period, self.eval_us, self.e2e_us)
        self.period, self.eval_us, self.e2e_us = Counter(), [], []
        return out


def summary_record(counters: Counters, period_s: float, link: str, bundle_id: Any,
                   active: Iterable[str], totals: Mapping[str, int]) -> dict[str, Any]:
    """The ``summary`` line: the period's counts and latencies (the period then starts
    again), and the totals since start, ``totals`` (reloads, link failures) included."""
    period, eval_us, e2e_us = counters.take_period()
    total = counters.total
    return {
        "event": "summary",
        "period_s": round(period_s, 3),
        "link": link,
        "bundle_id": bundle_id,
        "frames_ok": period["frames_ok"],
        "frames_dropped": counters.dropped(period),
        "frames_ignored": {
            k[8:]: v for k, v in sorted(period.items()) if k.startswith("ignored.")
        },
        "frames_missing": period["frames_missing"],
        "bytes_discarded": period["bytes_discarded"],
        "unknown_channels": period["unknown_channel"],
        "samples": period["samples"],
        "advisories": {
            "raise": period["advisories.raise"],
            "clear": period["advisories.clear"],
        },
        "faults": period["faults"],
        "active": sorted(active),
        "latency_us": {"eval": _percentiles(eval_us), "e2e": _percentiles(e2e_us)},
        "totals": {
            "frames_ok": total["frames_ok"],
            "frames_dropped": sum(counters.dropped(total).values()),
            "frames_missing": total["frames_missing"],
            "samples": total["samples"],
            "advisories": total["advisories.raise"] + total["advisories.clear"],
            **totals,
        },
    }


def _percentiles(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    a = np.asarray(values)
    p50, p99 = np.percentile(a, [50, 99])
    return {
        "n": len(values),
        "p50": round(float(p50), 1),
        "p99": round(float(p99), 1),
        "max": round(float(a.max()), 1),
    }
