"""Discrete parameters in sensors.toml: states in index order, other words for them,
phases; every mistake named with its file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.compiler.model.manifest import load_manifest
from rulec.runtime.errors import ManifestError

GOOD = """
[parameters.landing_gear]
states = ["retracted", "extended"]
aliases = ["landing gear", "gear"]
max_age_s = 1.5
channel = 4
[parameters.landing_gear.phrases]
extended = ["down"]
retracted = ["up"]

[parameters.flight_phase]
states = ["Taxi", "takeoff", "climb"]
phase = true
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "sensors.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_states_phrases_and_phase(tmp_path: Path) -> None:
    manifest = load_manifest(write(tmp_path, GOOD))
    gear, phase = manifest["landing_gear"], manifest["flight_phase"]
    assert gear.discrete and gear.states == ("retracted", "extended")
    assert dict(gear.phrases) == {"extended": ("down",), "retracted": ("up",)}
    assert gear.range == (0.0, 1.0) and gear.channel == 4 and gear.max_age_s == 1.5
    assert phase.phase and phase.states == ("taxi", "takeoff", "climb")
    assert not gear.phase


@pytest.mark.parametrize(("text", "line", "piece"), [
    ('[parameters.g]\nstates = ["up"]\n', 2, "at least two state names"),
    ('[parameters.g]\nstates = ["up", "Up"]\n', 2, "state 'up' is named twice"),
    ('[parameters.g]\nstates = ["up", "down"]\nunit = "kt"\n', 3, "has no 'unit'"),
    ('[parameters.g]\nstates = ["up", "down"]\nrange = [0, 1]\n', 3, "has no 'range'"),
    ('[parameters.g]\nstates = ["a", "b"]\n[parameters.g.phrases]\nc = ["x"]\n', 3,
     "phrases name 'c'"),
    ('[parameters.g]\nstates = ["a", "b"]\n[parameters.g.phrases]\na = ["b"]\n', 3,
     "'b' is a state and a phrase of 'a'"),
    ('[parameters.g]\nstates = ["a", "b"]\nphase = "yes"\n', 3, "phase must be true or false"),
    ('[parameters.g]\nunit = "kt"\nphase = true\n', 3, "'phase' needs 'states'"),
    ('[parameters.g]\nstates = ["a", "b?"]\n', 2, "is not a word"),
])
def test_mistakes_are_named_with_their_line(tmp_path: Path, text: str, line: int, piece: str
                                            ) -> None:
    with pytest.raises(ManifestError) as info:
        load_manifest(write(tmp_path, text))
    message = str(info.value)
    assert f"sensors.toml:{line}:" in message and piece in message, message
