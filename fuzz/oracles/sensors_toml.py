"""Oracle for the sensors.toml reader, through the compiler's own entry points.

The compiler reads a folder's manifest with ``pipeline.merge_manifests`` (which calls
``manifest.load_manifest``) and turns it into the alias table the extractor resolves
phrases with (``pipeline.parameter_table``); the input is the file's bytes.
Properties:
- only ``ManifestError`` escapes (bad UTF-8, bad TOML, bad keys, unknown units);
- a manifest that loads is consistent: ranges ordered, deadbands not negative, each
  unit re-parses to itself, loading twice gives the same parameters, and every alias
  the loader accepted resolves, in the compiler's alias table, to its own parameter
  (the loader refuses an alias shared by two parameters, so none may be ambiguous).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from rulec.compiler.model.manifest import Manifest
from rulec.compiler.model.parameters import words_of
from rulec.compiler.model.units import parse_unit
from rulec.compiler.pipeline import merge_manifests, parameter_table
from rulec.runtime.errors import ManifestError

from .failure import OracleFailure, expect

_FOLDER: Path | None = None


def _manifest_path() -> Path:
    """One scratch sensors.toml per process (tmpfs when there is one)."""
    global _FOLDER
    if _FOLDER is None:
        shm = Path("/dev/shm")
        base = str(shm) if shm.is_dir() else None
        _FOLDER = Path(tempfile.mkdtemp(prefix="rulec-fuzz-", dir=base))
    return _FOLDER / "sensors.toml"


def _load(path: Path) -> Manifest | None:
    try:
        return merge_manifests([path])
    except ManifestError:
        return None


def check_sensors_toml(data: bytes) -> None:
    """Run the sensors.toml oracle on one file's bytes; raise ``OracleFailure`` on a breach."""
    path = _manifest_path()
    path.write_bytes(bytes(data))
    manifest = _load(path)
    if manifest is None:
        return
    again = _load(path)
    expect(again is not None and dict(again) == dict(manifest), "loading twice differs")
    table = parameter_table(manifest)
    for name, p in manifest.items():
        expect(p.name == name, f"parameter {name!r} is named {p.name!r}")
        if p.unit_text.strip():
            expect(parse_unit(p.unit_text) == p.unit, f"unit {p.unit_text!r} re-parses differently")
        if p.range is not None:
            expect(p.range[0] < p.range[1], f"range {p.range} of {name!r} is not ordered")
        expect(p.deadband >= 0, f"deadband {p.deadband} of {name!r} is negative")
        for alias in p.aliases:
            key = words_of(alias)
            if not key:
                continue
            found = table.resolve(alias)
            if found is None:
                raise OracleFailure(f"alias {alias!r} of {name!r} resolves to nothing")
            expect(
                found[0] == name,
                f"alias {alias!r} of {name!r} resolves to {found[0]!r} through {found[1]!r}",
            )
