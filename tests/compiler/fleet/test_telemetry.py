"""TELEMETRY arguments: files, folders searched recursively, glob patterns; each file
once; run names are stems, made unique with the folder when two stems collide."""

from __future__ import annotations

import pytest

from rulec.compiler.fleet.telemetry import find_run_files
from rulec.runtime.errors import StateError


def touch(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("time\n0\n", encoding="utf-8")
    return path


def test_files_folders_and_globs_each_file_once(tmp_path):
    a = touch(tmp_path / "V1" / "a.csv")
    b = touch(tmp_path / "V1" / "deep" / "b.parquet")
    c = touch(tmp_path / "V2" / "c.csv")
    touch(tmp_path / "V2" / "notes.txt")
    found = find_run_files([str(tmp_path / "V1"), str(a), str(tmp_path / "V*" / "*.csv")])
    assert [f.path for f in found] == sorted([a, b, c], key=str)
    assert [f.kind for f in found] == ["csv", "parquet", "csv"]
    assert [f.name for f in found] == ["a", "b", "c"]
    assert found[0].vehicle == "V1" and found[1].vehicle == "deep"


def test_colliding_stems_are_named_with_their_folder(tmp_path):
    touch(tmp_path / "V1" / "run.csv")
    touch(tmp_path / "V2" / "run.csv")
    touch(tmp_path / "V2" / "other.csv")
    names = [f.name for f in find_run_files([str(tmp_path)])]
    assert names == ["V1/run", "other", "V2/run"]


@pytest.mark.parametrize("arg, message", [
    ("missing.csv", "no such file or folder"),
    ("*.nothing", "matches no telemetry file"),
])
def test_nothing_to_read_is_an_error_naming_it(tmp_path, arg, message):
    with pytest.raises(StateError, match=message):
        find_run_files([str(tmp_path / arg)])


def test_a_file_of_another_kind_is_refused(tmp_path):
    notes = touch(tmp_path / "notes.txt")
    with pytest.raises(StateError, match="not a telemetry file"):
        find_run_files([str(notes)])
    with pytest.raises(StateError, match="no telemetry file"):
        find_run_files([str(tmp_path)])
