"""Events as an Arrow table, the form of `events.parquet`: built where the events are
made (on the worker) and shipped as compressed Arrow IPC bytes, so that the client only
appends record batches to the Parquet file instead of parsing every event again."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

COLUMNS = ("run", "vehicle", "t", "time", "event", "rule", "severity", "advisory",
           "source_file", "source_line", "source", "values", "procedures")


def arrow_available() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def schema() -> Any:
    import pyarrow as pa

    types = {"t": pa.float64(), "source_line": pa.int64()}
    return pa.schema([(name, types.get(name, pa.string())) for name in COLUMNS])


def row(event: dict[str, Any]) -> dict[str, Any]:
    """One event (replay's JSON plus run and vehicle) as a table row: the source's file
    and line as columns, nested values as JSON text."""
    source = event.get("source") or {}
    return {"run": event["run"], "vehicle": event.get("vehicle"), "t": event["t"],
            "time": event.get("time"), "event": event["event"], "rule": event.get("rule"),
            "severity": event.get("severity"), "advisory": event.get("advisory"),
            "source_file": source.get("file"), "source_line": source.get("line"),
            "source": json.dumps(source, ensure_ascii=False) if source else None,
            "values": json.dumps(event.get("values", {}), ensure_ascii=False),
            "procedures": json.dumps(event["procedures"]) if "procedures" in event else None}


class TableBuilder:
    """Rows gathered into Arrow record batches of `batch_rows`, written as they fill to
    an in-memory IPC stream with compressed buffers: a run's rows never all sit in
    memory as Python objects."""

    def __init__(self, batch_rows: int = 4096) -> None:
        self.batch_rows = batch_rows
        self.rows: list[dict[str, Any]] = []
        self._sink: Any = None
        self._writer: Any = None

    def add(self, event: dict[str, Any]) -> None:
        self.rows.append(row(event))
        if len(self.rows) >= self.batch_rows:
            self._flush()

    def _flush(self) -> None:
        if not self.rows:
            return
        import pyarrow as pa

        if self._writer is None:
            self._sink = pa.BufferOutputStream()
            options = pa.ipc.IpcWriteOptions(compression="zstd")
            self._writer = pa.ipc.new_stream(self._sink, schema(), options=options)
        self._writer.write_batch(pa.RecordBatch.from_pylist(self.rows, schema=schema()))
        self.rows = []

    def finish(self) -> bytes:
        """The IPC stream's bytes (empty when no row was added)."""
        self._flush()
        if self._writer is None:
            return b""
        self._writer.close()
        return bytes(self._sink.getvalue().to_pybytes())


def to_ipc(events: list[dict[str, Any]]) -> bytes:
    """Events as Arrow IPC stream bytes, as `TableBuilder` writes them."""
    builder = TableBuilder()
    for event in events:
        builder.add(event)
    return builder.finish()


def batches(data: bytes) -> Iterator[Any]:
    """The record batches `TableBuilder` wrote, one at a time."""
    import pyarrow as pa

    yield from pa.ipc.open_stream(pa.py_buffer(data))
