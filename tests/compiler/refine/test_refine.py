"""`rulec refine`: Q-learning repair of shifted thresholds (compiler/refine*.py).

Bundles are compiled from a small manual by the real pipeline, thresholds are shifted
through the same rebuild the command uses, and refined bundles are checked with the
onboard runtime (C kernel or numpy, whichever the suite runs on).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from rulec.compiler.cli import main
from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.compiler.refine.agent import RefineConfig, refine
from rulec.compiler.refine.feedback import parse_feedback
from rulec.compiler.refine.model import (
    BundleModel,
    RefineError,
    load_model,
    parse_condition_text,
    rebuild_payload,
)
from rulec.runtime.bundle.format import encode_bundle
from rulec.runtime.bundle.loader import load_bundle
from rulec.runtime.engine.engine import Engine

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "manuals"
MANUAL = """Engine limits

If the oil temperature exceeds 120 °C, reduce the engine load.
If the oil pressure falls below 20 psi, stop the engine.
The coolant temperature shall remain between 70 °C and 95 °C.
If the failed starts reach 5, lock the starter.
"""
SENSORS = """
[parameters.oil_temperature]
unit = "degC"
range = [-50, 300]

[parameters.oil_pressure]
unit = "psi"
range = [0, 150]

[parameters.coolant_temperature]
unit = "degC"
range = [-40, 150]

[parameters.failed_starts]
unit = "count"
range = [0, 100]
"""


@pytest.fixture(scope="module")
def true_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    folder = tmp_path_factory.mktemp("engine")
    (folder / "limits.txt").write_text(MANUAL, encoding="utf-8")
    (folder / "sensors.toml").write_text(SENSORS, encoding="utf-8")
    return encode_bundle(build_payload(collect_rules([folder]), "engine"))


def rule_id(model: BundleModel, param: str) -> str:
    return next(b.rule_id for b in model.bounds if b.param == param)


def shifted(true_bytes: bytes, moves: dict[str, list[float]]) -> BundleModel:
    """The bundle with the bounds of the rules on the named parameters moved."""
    model = load_model(true_bytes)
    values = {}
    for param, new in moves.items():
        keys = [b.key for b in model.bounds if b.param == param]
        values.update(zip(keys, new, strict=True))
    return load_model(encode_bundle(rebuild_payload(model, values)))


def csv_text(rows: list[tuple[dict[str, float], list[str]]], params: list[str]) -> str:
    lines = [",".join([*params, "expected"])]
    for state, expected in rows:
        lines.append(",".join([*(str(state.get(p, "")) for p in params), ";".join(expected)]))
    return "\n".join(lines) + "\n"


def fired(bundle_bytes: bytes, state: dict[str, float]) -> set[str]:
    return {r.id for r in Engine(load_bundle(bundle_bytes)).evaluate(state).rules}


def oil_feedback(model: BundleModel, offset: float = 0.0, true: float = 120.0) -> str:
    """Readings 100..140 (+ offset), labelled by the true threshold `> true`."""
    rid = rule_id(model, "oil_temperature")
    rows = [({"oil_temperature": t + offset}, [rid] if t + offset > true else [])
            for t in range(100, 141)]
    return csv_text(rows, ["oil_temperature"])


def test_condition_text_reads_back_and_rebuilds_every_example_byte_for_byte() -> None:
    assert parse_condition_text("(a > 1 degC and not (b between [2, 3.5] psi or c == 0))")
    for folder in sorted(p for p in EXAMPLES.iterdir() if p.is_dir()):
        data = encode_bundle(build_payload(collect_rules([folder]), folder.name))
        model = load_model(data, folder.name)
        assert model.bounds, folder.name
        assert encode_bundle(rebuild_payload(model, {})) == data, folder.name


@pytest.mark.parametrize("offset", [0.0, 0.25, 0.7])
def test_feedback_that_pins_the_true_value_moves_the_bound_to_within_a_step(
        true_bytes: bytes, offset: float) -> None:
    model = shifted(true_bytes, {"oil_temperature": [132.0]})
    config = RefineConfig(seed=3)
    result = refine(model, parse_feedback(oil_feedback(model, offset), model), config)
    (change,) = result.changes
    assert change.bound.param == "oil_temperature" and change.bound.value == 132.0
    assert abs(change.new - 120.0) <= 132.0 * config.step_pct / 100
    # The feedback's last quiet reading and first firing one bracket the new bound.
    assert 119 + offset <= change.new < 120 + offset if offset else change.new == 120.0
    assert result.accuracy_after == 100.0 > result.accuracy_before
    assert change.evidence.fn_before == 12 and change.evidence.fn_after == 0
    assert change.evidence.broken == 0 and change.evidence.fixed == 12


def test_refined_bundle_loads_in_the_runtime_and_decides_as_learned(true_bytes: bytes) -> None:
    model = shifted(true_bytes, {"oil_temperature": [132.0]})
    feedback = parse_feedback(oil_feedback(model), model)
    result = refine(model, feedback, RefineConfig())
    new = encode_bundle(rebuild_payload(model, result.values, {"test": True}))
    rid = rule_id(model, "oil_temperature")
    assert rid not in fired(encode_bundle(model.payload), {"oil_temperature": 125})
    assert rid in fired(new, {"oil_temperature": 125})
    assert rid not in fired(new, {"oil_temperature": 120})
    engine = Engine(load_bundle(new))
    for t in range(100, 141):  # every path agrees: boxes, CNF atoms and graph were rebuilt
        got = engine.evaluate({"oil_temperature": t})
        assert (rid in {r.id for r in got.rules}) == (t > 120)
        assert not got.disagreements
    names = [v.name for v in load_bundle(new).cnf.variables]
    assert not any("(132, inf)" in n for n in names)
    assert load_bundle(new).meta["refined"] == {"test": True}


def test_feedback_without_nearby_evidence_moves_nothing(true_bytes: bytes) -> None:
    model = shifted(true_bytes, {"oil_temperature": [132.0], "oil_pressure": [23.0]})
    rid = rule_id(model, "oil_temperature")
    far = [({"oil_temperature": t, "oil_pressure": 60}, []) for t in range(0, 60, 5)]
    far += [({"oil_temperature": t, "oil_pressure": 60}, [rid]) for t in range(200, 260, 5)]
    text = csv_text(far, ["oil_temperature", "oil_pressure"])
    result = refine(model, parse_feedback(text, model), RefineConfig())
    assert result.changes == [] and result.values == {}
    assert result.accuracy_before == result.accuracy_after == 100.0
    same = rebuild_payload(model, result.values)
    assert encode_bundle(same) == encode_bundle(model.payload)


def test_only_the_rule_the_feedback_disputes_moves(true_bytes: bytes) -> None:
    model = shifted(true_bytes, {"oil_temperature": [132.0], "oil_pressure": [23.0]})
    result = refine(model, parse_feedback(oil_feedback(model), model), RefineConfig())
    assert {c.bound.param for c in result.changes} == {"oil_temperature"}


def test_conflicting_feedback_moves_nothing(true_bytes: bytes) -> None:
    model = shifted(true_bytes, {"oil_temperature": [132.0]})
    rid = rule_id(model, "oil_temperature")
    rows = [({"oil_temperature": t}, labels) for t in (124, 126, 128) for labels in ([rid], [])]
    result = refine(model, parse_feedback(csv_text(rows, ["oil_temperature"]), model),
                    RefineConfig())
    assert result.changes == []
    assert result.accuracy_before == result.accuracy_after


def test_range_and_equality_bounds_are_repaired(true_bytes: bytes) -> None:
    model = shifted(true_bytes, {"coolant_temperature": [75.0, 90.0], "failed_starts": [5.4]})
    coolant, starts = rule_id(model, "coolant_temperature"), rule_id(model, "failed_starts")
    rows = [({"coolant_temperature": t}, [] if 70 <= t <= 95 else [coolant])
            for t in range(60, 106)]
    rows += [({"failed_starts": n}, [starts] if n == 5 else []) for n in range(0, 11)]
    text = csv_text(rows, ["coolant_temperature", "failed_starts"])
    result = refine(model, parse_feedback(text, model), RefineConfig(seed=1))
    new = {(c.bound.param, c.bound.end): c.new for c in result.changes}
    assert 69.0 < new[("coolant_temperature", 0)] <= 70.0
    assert 95.0 <= new[("coolant_temperature", 1)] < 96.0
    assert new[("failed_starts", 0)] == 5.0  # whole-number feedback: back onto 5
    refined = encode_bundle(rebuild_payload(model, result.values))
    assert starts in fired(refined, {"failed_starts": 5})
    assert coolant not in fired(refined, {"coolant_temperature": 72})


def test_same_seed_same_result_and_bytes(true_bytes: bytes) -> None:
    model = shifted(true_bytes, {"oil_temperature": [132.0], "coolant_temperature": [75, 90]})
    coolant = rule_id(model, "coolant_temperature")
    text = csv_text([({"oil_temperature": t, "coolant_temperature": c},
                      ([rule_id(model, "oil_temperature")] if t > 120 else [])
                      + ([] if 70 <= c <= 95 else [coolant]))
                     for t, c in zip(range(100, 141), range(60, 101), strict=True)],
                    ["oil_temperature", "coolant_temperature"])
    feedback = parse_feedback(text, model)
    runs = [refine(model, feedback, RefineConfig(seed=7, polish=False)) for _ in range(2)]
    assert runs[0].values == runs[1].values and runs[0].values
    payloads = [encode_bundle(rebuild_payload(model, r.values, {"seed": 7})) for r in runs]
    assert payloads[0] == payloads[1]


def test_bad_rows_are_reported_with_line_numbers_and_skipped(true_bytes: bytes) -> None:
    model = load_model(true_bytes)
    rid = rule_id(model, "oil_temperature")
    text = ("oil temperature,failed_starts,expected\n"  # an alias names a column
            f"125,0,{rid}\n"
            "abc,0,\n"
            f"125,0,{rid};R-nope\n"
            "125,0\n"
            "\n"
            "nan,1,\n"
            "126,,-\n")
    feedback = parse_feedback(text, model, "fb.csv")
    assert [(b.line, b.reason.split(":")[0]) for b in feedback.bad] == [
        (3, "oil_temperature"), (4, "expected"), (5, "2 fields, the header has 3"),
        (7, "oil_temperature")]
    assert str(feedback.bad[1]) == "fb.csv:4: expected: unknown rule id 'R-nope'"
    assert feedback.lines == [2, 8] and feedback.n_rows == 2


@pytest.mark.parametrize("header, message", [
    ("oil_temperature\n", "needs exactly one 'expected' column"),
    ("oil_temperature,boost,expected\n", "unknown column 'boost'"),
    ("oil_temperature,oil temperature,expected\n", "name the same parameter"),
])
def test_bad_header_is_an_error_naming_line_1(true_bytes: bytes, header: str,
                                              message: str) -> None:
    with pytest.raises(RefineError, match=f"fb.csv:1: .*{message}"):
        parse_feedback(header + "1,2,\n", load_model(true_bytes), "fb.csv")


def test_command_writes_bundle_diff_and_provenance(true_bytes: bytes, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    model = shifted(true_bytes, {"oil_temperature": [132.0], "coolant_temperature": [75, 90]})
    src = tmp_path / "shifted.bundle"
    src.write_bytes(encode_bundle(model.payload))
    coolant, oil = rule_id(model, "coolant_temperature"), rule_id(model, "oil_temperature")
    rows = [({"oil_temperature": t, "coolant_temperature": c},
             ([oil] if t > 120 else []) + ([] if 70 <= c <= 95 else [coolant]))
            for t, c in zip(range(100, 141), range(60, 101), strict=True)]
    text = csv_text(rows, ["oil_temperature", "coolant_temperature"])
    fb = tmp_path / "fb.csv"
    fb.write_text(text + "oops,1,\n", encoding="utf-8")
    out, diff = tmp_path / "new.bundle", tmp_path / "diff.json"
    # The coolant range widens (a protective limit made weaker): refused unless asked for.
    assert main(["refine", str(src), str(fb), "-o", str(out), "--diff", str(diff)]) == 2
    refused = capsys.readouterr().err
    assert "--allow-loosen" in refused and "fewer states" in refused
    assert not out.exists() and not diff.exists()
    assert main(["refine", str(src), str(fb), "-o", str(out), "--diff", str(diff),
                 "--allow-loosen"]) == 0
    captured = capsys.readouterr()
    assert f"{fb}:43: oil_temperature: 'oops' is not a number" in captured.err
    report = json.loads(diff.read_text(encoding="utf-8"))
    new_model = load_model(out.read_bytes())
    moved = {b.key for b, a in zip(model.bounds, new_model.bounds, strict=True)
             if b.value != a.value}
    assert moved == {(c["rule"], 0, {"": 0, "low": 0, "high": 1}[c["end"]])
                     for c in report["changes"]}
    assert len(moved) == 3  # oil, both ends of the coolant range
    for c in report["changes"]:
        assert c["source"]["text"] and c["source"]["line"] and c["old"] != c["new"]
        assert f"## {c['rule']}: {c['parameter']}" in captured.out
        assert c["evidence"]["rows_near"] > 0 and c["evidence"]["decisions_fixed"] > 0
    refined = load_bundle(out).meta["refined"]
    assert refined["from_bundle"] == model.digest
    assert refined["feedback_sha256"] == hashlib.sha256(fb.read_bytes()).hexdigest()
    assert refined["bounds_moved"] == 3 and refined["feedback_rows"] == 41
    assert main(["refine", str(src), str(fb), "-o", str(tmp_path / "strict.bundle"),
                 "--strict"]) == 3
    assert not (tmp_path / "strict.bundle").exists()
    capsys.readouterr()
    assert main(["refine", str(src), str(tmp_path / "missing.csv"), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rulec: error: ") and "missing.csv" in err and err.count("\n") == 1


def test_refine_signs_the_refined_bundle_with_the_compile_key(
        true_bytes: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same writer as compile: ``--sign KEY`` gives a bundle the vehicle trusting
    ``KEY.pub`` accepts, and one it refuses without that key's signature."""
    pytest.importorskip("cryptography")
    from rulec.compiler.build.keys import generate_keypair
    from rulec.runtime.bundle.signing import load_public_key
    from rulec.runtime.errors import SignatureError

    generate_keypair(tmp_path / "ground")
    generate_keypair(tmp_path / "other")
    model = shifted(true_bytes, {"oil_temperature": [132.0]})
    src = tmp_path / "shifted.bundle"
    src.write_bytes(encode_bundle(model.payload))
    oil = rule_id(model, "oil_temperature")
    fb = tmp_path / "fb.csv"
    fb.write_text(csv_text([({"oil_temperature": t}, [oil] if t > 120 else [])
                            for t in range(100, 141)], ["oil_temperature"]), encoding="utf-8")
    out = tmp_path / "signed.bundle"
    assert main(["refine", str(src), str(fb), "-o", str(out),
                 "--sign", str(tmp_path / "ground")]) == 0
    assert "signed by key" in capsys.readouterr().err
    loaded = load_bundle(out, trust=load_public_key(tmp_path / "ground.pub"))
    assert loaded.signature.verified and loaded.meta["refined"]["bounds_moved"] >= 1
    with pytest.raises(SignatureError):
        load_bundle(out, trust=load_public_key(tmp_path / "other.pub"))
    # A bad key fails before any work, and nothing is written.
    bad = tmp_path / "bad.bundle"
    assert main(["refine", str(src), str(fb), "-o", str(bad),
                 "--sign", str(tmp_path / "ground.pub")]) == 2
    assert "public key" in capsys.readouterr().err and not bad.exists()


def test_a_moved_threshold_is_a_new_revision_with_its_advisory_rebuilt(
        true_bytes: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Tightening needs no flag; the rule's revision goes up, the advisory names the new
    threshold, and `rulec diff` shows the move and the revision."""
    from rulec.runtime import Engine

    model = shifted(true_bytes, {"oil_temperature": [132.0]})
    src = tmp_path / "shifted.bundle"
    src.write_bytes(encode_bundle(model.payload))
    oil = rule_id(model, "oil_temperature")
    fb = tmp_path / "fb.csv"
    fb.write_text(csv_text([({"oil_temperature": t}, [oil] if t > 120 else [])
                            for t in range(100, 141)], ["oil_temperature"]), encoding="utf-8")
    out = tmp_path / "new.bundle"
    assert main(["refine", str(src), str(fb), "-o", str(out)]) == 0
    capsys.readouterr()
    fired = Engine.from_file(str(out)).evaluate({"oil_temperature": "126"}).rules
    (rule,) = [r for r in fired if r.id == oil]
    (before,) = [r.revision for r in load_bundle(src).rules if r.id == oil]
    assert rule.revision == before + 1 and rule.to_json()["revision"] == before + 1
    assert "132" not in rule.advisory
    assert main(["diff", str(src), str(out)]) == 1
    shown = capsys.readouterr().out
    assert f"revision: {before} -> {before + 1}" in shown and "132" in shown
    assert all(r.revision == 1 for r in load_bundle(out).rules if r.id != oil)
