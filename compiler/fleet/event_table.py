"""Events as an Arrow table, the form of `events.parquet`: built where the events are
made (on the worker) and shipped as compressed Arrow IPC bytes, so that the client only
appends record batches to the Parquet file instead of parsing every event again."""

from __future__ import annotations

import json
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


def to_ipc(rows: list[dict[str, Any]]) -> bytes:
    """Rows as Arrow IPC stream bytes (zstd-compressed buffers)."""
    import pyarrow as pa

    table = pa.Table.from_pylist(rows, schema=schema())
    sink = pa.BufferOutputStream()
    options = pa.ipc.IpcWriteOptions(compression="zstd")
    with pa.ipc.new_stream(sink, table.schema, options=options) as writer:
        writer.write_table(table)
    return bytes(sink.getvalue().to_pybytes())


def from_ipc(data: bytes) -> Any:
    """The table `to_ipc` wrote."""
    import pyarrow as pa

    return pa.ipc.open_stream(pa.py_buffer(data)).read_all()
