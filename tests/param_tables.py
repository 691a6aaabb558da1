"""Parameter tables for extractor tests, from (name, aliases, unit) rows."""

from __future__ import annotations

from rulec.compiler.model.parameters import ParameterInfo, ParameterTable


def table_of(*rows: tuple[str, tuple[str, ...], str | None]) -> ParameterTable:
    """A table holding one parameter per row, in order."""
    out = ParameterTable()
    for name, aliases, unit in rows:
        out.add(ParameterInfo(name, aliases, unit))
    return out
