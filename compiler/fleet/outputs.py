"""The files a fleet replay writes into OUTDIR: `events.jsonl` and `events.parquet`
(every run's events in file order, then run order), `summary.json`, `diff.json` with an
old bundle, and `feedback.csv` for `rulec refine` when runs carry labels.

Results arrive in any order: each file's events go to a part file as they come, so the
client holds figures, not events; the parts are joined in file order at the end.
"""

from __future__ import annotations

import csv
import json
import math
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from rulec.compiler.fleet import event_table
from rulec.compiler.fleet.replay_file import FileResult
from rulec.runtime.errors import StateError


def check_outdir(outdir: Path, inputs: list[Path], folders: list[Path]) -> None:
    """Refuse an OUTDIR whose outputs would overwrite an input or be read as one."""
    out = outdir.resolve()
    if out.exists() and not out.is_dir():
        raise StateError(f"{outdir}: the output folder is a file")
    for path in inputs:
        if path.resolve().parent == out and path.name in OUTPUT_NAMES:
            raise StateError(f"{path}: an input would be overwritten by the output "
                             f"{path.name}")
    for folder in folders:
        top = folder.resolve()
        if out == top or top in out.parents:
            raise StateError(f"{outdir}: the output folder lies inside the telemetry "
                             f"folder {folder}, whose next replay would read the outputs")


OUTPUT_NAMES = ("events.jsonl", "events.parquet", "summary.json", "diff.json",
                "feedback.csv", "report.md", "firing_rates.png", "events_over_time.png")


class FleetWriter:
    """Writes results as they arrive; `finish` joins them in file order."""

    def __init__(self, outdir: Path) -> None:
        self.outdir = outdir
        outdir.mkdir(parents=True, exist_ok=True)
        self.parts = Path(tempfile.mkdtemp(prefix=".fleet-parts-", dir=outdir))
        self.indexes: list[int] = []
        self.feedback_columns: set[str] = set()

    def add(self, index: int, result: FileResult) -> None:
        self.indexes.append(index)
        runs = sorted(result.runs, key=lambda r: r.run)
        with open(self.parts / f"{index:08d}.jsonl", "wb") as out:
            for run in runs:
                run.write_jsonl(out)
        with open(self.parts / f"{index:08d}.arrow", "wb") as out:
            for run in runs:  # length-prefixed IPC streams, one per run with events
                data = run.arrow
                if run.n_events and not data and event_table.arrow_available():
                    data = event_table.to_ipc(run.events)
                if data:
                    out.write(len(data).to_bytes(8, "little") + data)
        labels = [(run.run, label) for run in runs for label in run.labels]
        if labels:
            with open(self.parts / f"{index:08d}.labels", "w", encoding="utf-8") as out:
                for run, label in labels:
                    self.feedback_columns.update(label["values"])
                    out.write(json.dumps({"run": run, **label}) + "\n")

    def finish(self, summary: dict[str, Any], diff: dict[str, Any] | None) -> list[Path]:
        """Write the joined outputs; return the paths written."""
        order = sorted(self.indexes)
        written = [self._join_jsonl(order)]
        parquet = self._write_parquet(order)
        if parquet is not None:
            written.append(parquet)
        if self.feedback_columns:
            written.append(self._write_feedback(order))
        written.append(_write_json(self.outdir / "summary.json", summary))
        if diff is not None:
            written.append(_write_json(self.outdir / "diff.json", diff))
        shutil.rmtree(self.parts, ignore_errors=True)
        return written

    def abandon(self) -> None:
        shutil.rmtree(self.parts, ignore_errors=True)

    def _join_jsonl(self, order: list[int]) -> Path:
        target = self.outdir / "events.jsonl"
        with _atomic(target, "w") as out:
            for index in order:
                with open(self.parts / f"{index:08d}.jsonl", encoding="utf-8") as part:
                    shutil.copyfileobj(part, out)
        return target

    def _write_parquet(self, order: list[int]) -> Path | None:
        if not event_table.arrow_available():
            return None
        import pyarrow.parquet as pq

        target = self.outdir / "events.parquet"
        with _atomic(target, "wb") as out, pq.ParquetWriter(out, event_table.schema()) as pw:
            for index in order:
                with open(self.parts / f"{index:08d}.arrow", "rb") as part:
                    while header := part.read(8):
                        data = part.read(int.from_bytes(header, "little"))
                        for batch in event_table.batches(data):  # one batch in memory
                            pw.write_batch(batch)
        return target

    def _write_feedback(self, order: list[int]) -> Path:
        """Labelled samples in `rulec refine`'s feedback format (`note` names the run)."""
        columns = sorted(self.feedback_columns)
        target = self.outdir / "feedback.csv"
        with _atomic(target, "w", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(["time", "note", *columns, "expected"])
            for index in order:
                path = self.parts / f"{index:08d}.labels"
                if not path.exists():
                    continue
                with open(path, encoding="utf-8") as part:
                    for line in part:
                        label = json.loads(line)
                        values = label["values"]
                        writer.writerow([repr(label["t"]), label["run"],
                                         *(_number(values.get(c)) for c in columns),
                                         " ".join(label["expected"]) or "-"])
        return target


def _number(value: float | None) -> str:
    return "" if value is None or not math.isfinite(value) else repr(value)


def _write_json(path: Path, data: Any) -> Path:
    with _atomic(path, "w") as out:
        json.dump(data, out, ensure_ascii=False, indent=2, allow_nan=False)
        out.write("\n")
    return path


class _atomic:
    """Write to a temporary file beside the target, renamed over it when complete."""

    def __init__(self, target: Path, mode: str, **kw: Any) -> None:
        self.target, self.mode, self.kw = target, mode, kw

    def __enter__(self) -> Any:
        fd, name = tempfile.mkstemp(prefix=f".{self.target.name}.", dir=self.target.parent)
        os.close(fd)
        self.tmp = Path(name)
        encoding = None if "b" in self.mode else "utf-8"
        self.handle = open(self.tmp, self.mode, encoding=encoding, **self.kw)
        return self.handle

    def __exit__(self, kind: object, *rest: object) -> None:
        self.handle.close()
        if kind is None:
            os.replace(self.tmp, self.target)
        else:
            self.tmp.unlink(missing_ok=True)
