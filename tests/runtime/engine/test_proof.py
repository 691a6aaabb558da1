"""The geometry proof (``runtime/engine/proof.py``): the comparisons that put a fired rule's box
around the state, and for rejected states the nearest boundary per rule, worded with the
right strictness and with gaps exact as a person computes them."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.runtime.bundle.format import encode_bundle
from rulec.runtime.bundle.loader import Bundle, load_bundle
from rulec.runtime.engine.engine import Engine
from rulec.runtime.engine.proof import comparisons, nearest

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

HERE = Path(__file__).resolve().parents[2]
PLANT = HERE / "fixtures" / "plant"

OIL_TEXT = """\
If the oil pressure falls below 20 psi, reduce the engine power.
If the oil pressure is 15 psi or less, shut down the engine.
If the oil temperature exceeds 120 °C and the oil pressure is below 30 psi, land at once.
If the oil temperature stays above 140 °C for more than 30 seconds, select the alternate oil cooler.
"""
OIL_SENSORS = """\
[parameters.oil_pressure]
unit = "psi"
aliases = ["oil pressure"]
range = [0, 200]

[parameters.oil_temperature]
unit = "degC"
aliases = ["oil temperature"]
range = [-40, 200]
"""


def compile_folder(folder: Path) -> Bundle:
    return load_bundle(encode_bundle(build_payload(collect_rules([folder]), folder.name)))


@pytest.fixture(scope="module")
def oil(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    folder = tmp_path_factory.mktemp("oil")
    (folder / "oil.txt").write_text(OIL_TEXT, encoding="utf-8")
    (folder / "sensors.toml").write_text(OIL_SENSORS, encoding="utf-8")
    return Engine(compile_folder(folder))


@pytest.fixture(scope="module")
def plant_bundle() -> Bundle:
    return compile_folder(PLANT)


def rule_of(engine: Engine, piece: str) -> str:
    (rule_id,) = [r.id for r in engine.bundle.rules if piece in r.source["text"]]
    return rule_id


def boundary(engine: Engine, state: dict[str, float], piece: str) -> dict:
    out = engine.evaluate(state, nearest=True).to_json()
    (found,) = [b for b in out["nearest"] if b["rule"] == rule_of(engine, piece)]
    return found


# ---------------------------------------------------------------- rejected states


def test_nearest_boundary_in_the_papers_words(oil: Engine):
    result = oil.evaluate({"oil_pressure": 21})
    assert result.rules == []
    out = result.to_json()
    first = out["nearest"][0]
    assert first["rule"] == rule_of(oil, "falls below 20 psi")
    (fail,) = first["failing"]
    assert fail["text"] == ("oil pressure 21 psi is 1 psi above the 20 psi threshold; the rule "
                            "applies when oil pressure is below 20 psi")
    assert (fail["side"], fail["bound"], fail["gap"], fail["test"], fail["holds"]) == (
        "above", 20.0, 1.0, "21 < 20", False)
    assert first["text"] == f"{first['rule']}: {fail['text']}"
    assert first["source"]["text"].startswith("If the oil pressure falls below 20 psi")


def test_value_on_a_strict_threshold_is_at_it_and_excluded(oil: Engine):
    (fail,) = boundary(oil, {"oil_pressure": 20}, "falls below 20 psi")["failing"]
    assert fail["gap"] == 0.0
    assert fail["text"] == ("oil pressure 20 psi is exactly at the 20 psi threshold, which the "
                            "rule excludes: it applies only when oil pressure is below 20 psi")


def test_inclusive_threshold_is_worded_inclusive(oil: Engine):
    found = boundary(oil, {"oil_pressure": 15.5}, "15 psi or less")
    (fail,) = found["failing"]
    assert fail["text"] == ("oil pressure 15.5 psi is 0.5 psi above the 15 psi threshold; the "
                            "rule applies when oil pressure is at or below 15 psi")
    assert {r.id for r in oil.evaluate({"oil_pressure": 15}).rules} == {
        rule_of(oil, "15 psi or less"), rule_of(oil, "falls below 20 psi")}


def test_gaps_are_exact_decimals_not_float_noise(oil: Engine, plant_bundle: Bundle):
    assert 20.1 - 20 != 0.1  # what naive double subtraction would print
    (fail,) = boundary(oil, {"oil_pressure": 20.1}, "falls below 20 psi")["failing"]
    assert fail["gap"] == 0.1 and "is 0.1 psi above the 20 psi threshold" in fail["text"]
    plant = Engine(plant_bundle)
    # 27 degC is exactly 80.6 degF: 80.2 degF is 0.4 degF short of it
    (fail,) = boundary(plant, {"cabinet_temperature": 80.2}, "cabinet fan")["failing"]
    assert fail["gap"] == 0.4
    assert fail["text"].startswith("cabinet temperature 80.2 °F is 0.4 °F below the 80.6 °F")
    (fail,) = boundary(plant, {"cabinet_temperature": 80.6}, "cabinet fan")["failing"]
    assert "exactly at the 80.6 °F threshold" in fail["text"]


def test_missing_parameters_and_holding_comparisons_are_named(oil: Engine):
    found = boundary(oil, {"oil_temperature": 130}, "land at once")
    assert found["failing"] == [] and found["missing"] == ["oil_pressure"]
    (hold,) = found["holding"]
    assert hold["text"] == "oil temperature 130 °C is above 120 °C" and hold["margin"] == 10.0
    assert "it needs oil pressure (not given)" in found["text"]
    assert "already holding: oil temperature 130 °C is above 120 °C" in found["text"]


def test_a_duration_rule_whose_condition_holds_says_it_waits_for_time(oil: Engine):
    found = boundary(oil, {"oil_temperature": 150}, "alternate oil cooler")
    assert found["failing"] == [] and found["missing"] == [] and found["duration_s"] == 30.0
    assert "fires only after holding for more than 30 s" in found["text"]


def test_nearest_is_only_on_the_parameters_given_and_nearest_first(oil: Engine):
    out = oil.evaluate({"oil_pressure": 40}).to_json()
    listed = [b["rule"] for b in out["nearest"]]
    assert rule_of(oil, "alternate oil cooler") not in listed  # tests oil temperature only
    assert listed[0] == rule_of(oil, "falls below 20 psi")  # 20 psi away, before 15 psi
    assert listed.index(rule_of(oil, "falls below 20 psi")) < listed.index(
        rule_of(oil, "15 psi or less"))
    assert oil.evaluate({}).to_json()["nearest"] == []


def test_nearest_appears_for_rejected_states_or_on_request(oil: Engine):
    fired = oil.evaluate({"oil_pressure": 18})
    assert "nearest" not in fired.to_json()
    asked = oil.evaluate({"oil_pressure": 18}, nearest=True).to_json()
    assert [b["rule"] for b in asked["nearest"]] == [rule_of(oil, "15 psi or less"),
                                                    rule_of(oil, "land at once")]
    # a rule that also needs a parameter not given comes after those decided by the state
    assert len(oil.evaluate({"oil_pressure": 40}, nearest_limit=1).to_json()["nearest"]) == 1


def test_geometry_off_gives_no_nearest(oil: Engine):
    # graph alone fires nothing and, without the geometry path, proves nothing
    out = Engine(oil.bundle, paths={"graph"}).evaluate({"oil_pressure": 40}).to_json()
    assert out["rules"] == [] and "nearest" not in out and out["paths"] == ["graph"]


# ---------------------------------------------------------------- proofs of fired rules


def test_proof_of_a_fired_rule_lists_each_comparison_with_its_margin(oil: Engine):
    (rule,) = [r for r in oil.evaluate({"oil_temperature": 130, "oil_pressure": 25}).rules
               if "land at once" in r.source["text"]]
    (box,) = rule.evidence["geometry_proof"]
    tests = {c["parameter"]: (c["test"], c["holds"], c["margin"], c["text"]) for c in box["holds"]}
    assert tests == {
        "oil_temperature": ("130 > 120", True, 10.0, "oil temperature 130 °C is above 120 °C"),
        "oil_pressure": ("25 < 30", True, 5.0, "oil pressure 25 psi is below 30 psi"),
    }
    assert rule.evidence["geometry"] == ["oil_temperature: 130 > 120 and oil_pressure: 25 < 30"]
    assert rule.fired_by[0] == "geometry"


def test_margin_is_zero_on_an_inclusive_bound(oil: Engine):
    rule = next(r for r in oil.evaluate({"oil_pressure": 15}).rules
                if "15 psi or less" in r.source["text"])
    (comp,) = rule.evidence["geometry_proof"][0]["holds"]
    assert comp["test"] == "15 <= 15" and comp["margin"] == 0.0


# ---------------------------------------------------------------- against the kernel


def _values(bundle: Bundle) -> st.SearchStrategy[np.ndarray]:
    marks = sorted({float(v) for v in np.concatenate([bundle.boxes.lo, bundle.boxes.hi])
                    if math.isfinite(v)})
    near = [w for m in marks for w in (m, math.nextafter(m, math.inf),
                                       math.nextafter(m, -math.inf), m + 1, m - 1)]
    value = st.one_of(st.sampled_from(near), st.just(math.nan),
                      st.floats(-60, 600, allow_nan=False))
    return st.lists(value, min_size=len(bundle.parameters),
                    max_size=len(bundle.parameters)).map(lambda v: np.array(v, dtype=float))


@pytest.mark.parametrize("backend", ["numpy", "native"])
def test_proof_decisions_equal_the_kernel(plant_bundle: Bundle, backend: str):
    from rulec.runtime.backend import load_native

    if backend == "native" and load_native() is None:
        pytest.skip("C kernel not built")
    engine = Engine(plant_bundle, paths={"geometry"}, backend=backend)

    @settings(max_examples=300, deadline=None)
    @given(_values(plant_bundle))
    def check(x: np.ndarray) -> None:
        inside = set(engine._index.match(x).tolist())
        for box in range(plant_bundle.boxes.n_boxes):
            assert all(c.holds for c in comparisons(plant_bundle, box, x)) == (box in inside)
        skip: set[int] = set()
        for found in nearest(plant_bundle, x, skip):
            comps = comparisons(plant_bundle, found.box, x)
            def key(c):
                return c.axis, c.lo, c.hi, c.flags

            parts = [*found.failing, *found.holding, *found.missing]
            assert sorted(map(key, parts)) == sorted(map(key, comps))
            assert all(c.holds for c in found.holding)
            assert all(c.known and not c.holds for c in found.failing)
            # the box chosen is the rule's best one
            own = [b for b in range(plant_bundle.boxes.n_boxes)
                   if int(plant_bundle.boxes.rule[b]) == found.rule]
            best = min((sum(not c.known for c in cs), sum(c.known and not c.holds for c in cs))
                       for cs in (comparisons(plant_bundle, b, x) for b in own)
                       if any(c.known for c in cs))
            assert (len(found.missing), len(found.failing)) == best

    check()
