"""runtime.replay.read_samples: header handling, empty cells, and errors naming file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.runtime.bundle.format import encode_bundle
from rulec.runtime.bundle.loader import load_bundle
from rulec.runtime.engine.engine import Engine
from rulec.runtime.engine.replay import read_samples
from rulec.runtime.errors import StateError

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

PLANT = Path(__file__).resolve().parents[2] / "fixtures" / "plant"
STEPS_CSV = Path(__file__).resolve().parents[2] / "fixtures" / "plant_steps.csv"


def write(tmp_path: Path, body: str | bytes, name: str = "run.csv") -> Path:
    path = tmp_path / name
    if isinstance(body, bytes):
        path.write_bytes(body)
    else:
        path.write_text(body, encoding="utf-8", newline="")
    return path


def samples(path: Path) -> list[tuple[float, dict[str, float]]]:
    return list(read_samples(path))


def error_of(path: Path) -> str:
    with pytest.raises(StateError) as info:
        samples(path)
    message = str(info.value)
    assert "\n" not in message
    return message


# ---------------------------------------------------------------- good input


def test_rows_become_time_and_sample(tmp_path: Path):
    path = write(tmp_path, "time,a,b\n0,1,2\n0.5,3.25,-4\n")
    assert samples(path) == [(0.0, {"a": 1.0, "b": 2.0}), (0.5, {"a": 3.25, "b": -4.0})]


def test_empty_cells_are_not_new_samples(tmp_path: Path):
    path = write(tmp_path, "time,a,b\n0,1,2\n1,,3\n2,4,\n3,,\n")
    assert samples(path) == [
        (0.0, {"a": 1.0, "b": 2.0}),
        (1.0, {"b": 3.0}),
        (2.0, {"a": 4.0}),
        (3.0, {}),
    ]


def test_time_column_may_stand_anywhere_and_header_is_trimmed(tmp_path: Path):
    path = write(tmp_path, " a , time ,b\n1,0,2\n3,1,4\n")
    assert samples(path) == [(0.0, {"a": 1.0, "b": 2.0}), (1.0, {"a": 3.0, "b": 4.0})]


def test_byte_order_mark_and_crlf_are_accepted(tmp_path: Path):
    path = write(tmp_path, "\ufefftime,a\r\n0,1\r\n1,2\r\n")
    assert samples(path) == [(0.0, {"a": 1.0}), (1.0, {"a": 2.0})]


def test_blank_lines_are_skipped_and_header_only_is_empty(tmp_path: Path):
    path = write(tmp_path, "time,a\n\n0,1\n,\n\n1,2\n")
    assert samples(path) == [(0.0, {"a": 1.0}), (1.0, {"a": 2.0})]
    assert samples(write(tmp_path, "time,a\n", "header_only.csv")) == []


def test_equal_times_are_monotonic(tmp_path: Path):
    path = write(tmp_path, "time,a\n0,1\n0,2\n")
    assert samples(path) == [(0.0, {"a": 1.0}), (0.0, {"a": 2.0})]


def test_cells_are_stripped_and_may_use_exponents(tmp_path: Path):
    path = write(tmp_path, "time,a\n 0 , 1e3 \n1.5,+2\n")
    assert samples(path) == [(0.0, {"a": 1000.0}), (1.5, {"a": 2.0})]


def test_empty_cell_holds_the_last_value_in_the_engine():
    """An empty cell is no new sample: the engine keeps the last value (and its raise)."""
    engine = Engine(load_bundle(encode_bundle(build_payload(collect_rules([PLANT]), "plant"))))
    log = []
    for t, sample in read_samples(STEPS_CSV):
        for event in engine.step(t, sample):
            if event.rule is not None:
                log.append((t, event.event, event.source["text"].split(",")[0]))
    assert log == [
        (1.0, "raise", "If the line pressure is 200 kPa or more"),
        (2.0, "raise", "If the tank temperature exceeds 100 °C"),
        (5.0, "clear", "If the line pressure is 200 kPa or more"),
        (6.0, "clear", "If the tank temperature exceeds 100 °C"),
    ]


# ---------------------------------------------------------------- errors


def test_missing_file(tmp_path: Path):
    message = error_of(tmp_path / "absent.csv")
    assert "absent.csv" in message


def test_empty_file(tmp_path: Path):
    message = error_of(write(tmp_path, "", "empty.csv"))
    assert "empty.csv" in message and "header" in message


@pytest.mark.parametrize("header", ["t,a", "Time,a", "timestamp,a", "a,b"])
def test_header_without_time_column(tmp_path: Path, header: str):
    message = error_of(write(tmp_path, f"{header}\n0,1\n", "no_time.csv"))
    assert "no_time.csv:1" in message and "time" in message


def test_non_numeric_cell_names_file_line_and_column(tmp_path: Path):
    message = error_of(write(tmp_path, "time,a,b\n0,1,2\n1,2,3\n2,3,warm\n", "cells.csv"))
    assert "cells.csv:4" in message
    assert "'b'" in message or " b " in message
    assert "warm" in message


def test_non_numeric_time_names_file_and_line(tmp_path: Path):
    message = error_of(write(tmp_path, "time,a\n0,1\nnoon,2\n", "clock.csv"))
    assert "clock.csv:3" in message and "noon" in message


def test_missing_time_cell_is_an_error(tmp_path: Path):
    message = error_of(write(tmp_path, "time,a\n0,1\n,2\n", "gap.csv"))
    assert "gap.csv:3" in message


@pytest.mark.parametrize("bad", ["nan", "inf", "-inf"])
def test_non_finite_time_is_an_error(tmp_path: Path, bad: str):
    message = error_of(write(tmp_path, f"time,a\n0,1\n{bad},2\n", "finite.csv"))
    assert "finite.csv:3" in message


def test_time_going_backwards(tmp_path: Path):
    message = error_of(write(tmp_path, "time,a\n0,1\n2,1\n1.5,1\n", "back.csv"))
    assert "back.csv:4" in message and "1.5" in message


def test_a_bad_row_fails_before_any_row_is_given(tmp_path: Path):
    """A replay never prints half its events and then stops: the whole file is read and
    checked before the first row is yielded."""
    for body in ("time,a\n0,1\n1,2\n2,x\n", "time,a\n0,1\n2,2\n1,3\n"):
        it = read_samples(write(tmp_path, body))
        with pytest.raises(StateError, match=r":4:"):
            next(it)


def test_a_nan_time_is_named_as_not_finite_not_as_going_back(tmp_path: Path):
    message = error_of(write(tmp_path, "time,a\n0,1\nnan,2\n", "nan.csv"))
    assert "nan.csv:3" in message and "finite" in message and "back" not in message


def test_wrong_cell_count(tmp_path: Path):
    message = error_of(write(tmp_path, "time,a\n0,1\n1,2,3\n", "ragged.csv"))
    assert "ragged.csv:3" in message
    message = error_of(write(tmp_path, "time,a,b\n0,1\n", "short.csv"))
    assert "short.csv:2" in message


def test_undecodable_bytes_are_a_state_error(tmp_path: Path):
    error_of(write(tmp_path, b"time,a\n0,\xb01\n", "latin.csv"))


def test_undecodable_bytes_name_the_right_line(tmp_path: Path):
    message = error_of(write(tmp_path, b"time,a\n0,1\n1,2\n2,\xb01\n", "latin.csv"))
    assert "latin.csv:4" in message


def test_duplicate_column_is_an_error(tmp_path: Path):
    error_of(write(tmp_path, "time,a,a\n0,1,2\n", "twice.csv"))
