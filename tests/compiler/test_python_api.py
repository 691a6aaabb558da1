"""The small Python API (docs/python-api.md): compile, load, evaluate, replay, and a
bundle id that changes with everything that changes behaviour."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulec.compiler import compile_manuals
from rulec.runtime import Engine, load_bundle, replay
from rulec.runtime.errors import DocumentError

pytestmark = pytest.mark.compiled

PLANT = Path(__file__).resolve().parents[1] / "fixtures" / "plant"


def test_compile_load_evaluate_and_replay(tmp_path: Path) -> None:
    made = compile_manuals([PLANT], tmp_path / "plant.bundle")
    assert made.bundle.is_file() and made.knowledge_base.is_file() and made.rules > 0
    assert load_bundle(str(made.bundle)).meta["bundle_id"] == made.bundle_id
    fired = Engine.from_file(str(made.bundle)).evaluate({"tank_temperature": 120}).rules
    assert any("relief valve" in r.advisory for r in fired)
    csv = tmp_path / "run.csv"
    csv.write_text("time,tank_temperature\n0,20\n1,120\n2,20\n")
    events = [e.to_json() for e in replay(made.bundle, csv)]
    assert [e["event"] for e in events if "relief" in e["advisory"]] == ["raise", "clear"]


def test_compile_refuses_to_overwrite_an_input(tmp_path: Path) -> None:
    folder = tmp_path / "plant"
    shutil.copytree(PLANT, folder)
    before = (folder / "plant_limits.txt").read_bytes()
    with pytest.raises(DocumentError, match="is an input"):
        compile_manuals([folder], folder / "plant_limits.txt")
    assert (folder / "plant_limits.txt").read_bytes() == before


@pytest.mark.parametrize(("old", "new"), [
    ("range = [-50, 500]", "range = [-50, 400]"),
    ("deadband = 5.0", "deadband = 2.0"),
])
def test_the_bundle_id_moves_when_only_the_manifest_changes(tmp_path: Path, old: str,
                                                           new: str) -> None:
    """Two bundles that behave differently never share an id."""
    folder = tmp_path / "plant"
    shutil.copytree(PLANT, folder)
    first = compile_manuals([folder], tmp_path / "a.bundle").bundle_id
    manifest = folder / "sensors.toml"
    assert old in manifest.read_text()
    manifest.write_text(manifest.read_text().replace(old, new, 1))
    second = compile_manuals([folder], tmp_path / "b.bundle").bundle_id
    assert first != second
    again = compile_manuals([folder], tmp_path / "c.bundle").bundle_id
    assert again == second  # still deterministic
