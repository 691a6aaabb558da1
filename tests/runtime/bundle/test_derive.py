"""The loader derives a bundle's boxes and clauses again from its rule objects.

A bundle whose boxes, clauses, atoms, unit table or condition text were edited and the
payload re-hashed must be refused, naming the rule; an unedited compiled bundle loads and
says how many rules it checked.
"""

from __future__ import annotations

import copy
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rulec.compiler import compile_manuals
from rulec.runtime.bundle import load_bundle
from rulec.runtime.bundle.derive import read_condition
from rulec.runtime.bundle.format import decode_bundle, encode_bundle
from rulec.runtime.errors import BundleError

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("derive") / "engine.bundle"
    compile_manuals([ROOT / "examples" / "manuals" / "rocket_engine"], out)
    return decode_bundle(out.read_bytes())


def _edited(payload: dict[str, Any], edit: Callable[[dict[str, Any]], None]) -> bytes:
    changed = copy.deepcopy(payload)
    edit(changed)
    return encode_bundle(changed)  # a fresh digest: only the derivation can tell


def _array(section: dict[str, Any], key: str, dtype: str) -> np.ndarray:
    return np.frombuffer(section[key], dtype=dtype).copy()


def test_a_compiled_bundle_is_derived_again_rule_by_rule(compiled: dict[str, Any]) -> None:
    bundle = load_bundle(encode_bundle(compiled))
    assert bundle.derived == len(bundle.rules) > 0
    assert "psi" in bundle.meta["units"] and "degC" in bundle.meta["units"]


def _move_first_box_bound(payload: dict[str, Any]) -> None:
    lo = _array(payload["boxes"], "lo", "<f8")
    finite = int(np.flatnonzero(np.isfinite(lo))[0])
    lo[finite] += 2.0  # "above 600 degC" made "above 602 degC" in the boxes only
    payload["boxes"]["lo"] = lo.tobytes()


def test_a_moved_box_bound_is_refused_naming_the_rule(compiled: dict[str, Any]) -> None:
    with pytest.raises(BundleError, match=r"rules\[\d+\] \(R-[0-9a-f]+\): its boxes "
                                          r"disagree with its condition"):
        load_bundle(_edited(compiled, _move_first_box_bound))


def test_a_condition_text_moved_alone_is_refused(compiled: dict[str, Any]) -> None:
    def edit(p: dict[str, Any]) -> None:
        rule = next(r for r in p["rules"] if "600 degC" in r["condition_text"])
        rule["condition_text"] = rule["condition_text"].replace("600 degC", "650 degC")

    with pytest.raises(BundleError, match="boxes disagree"):
        load_bundle(_edited(compiled, edit))


def test_a_changed_unit_table_is_refused(compiled: dict[str, Any]) -> None:
    def edit(p: dict[str, Any]) -> None:
        p["meta"]["units"]["bar"] = ["pressure", "99000", "0"]  # 25 bar no longer 25 bar

    with pytest.raises(BundleError, match="boxes disagree"):
        load_bundle(_edited(compiled, edit))


def test_a_dropped_clause_is_refused(compiled: dict[str, Any]) -> None:
    def edit(p: dict[str, Any]) -> None:
        cnf = p["cnf"]
        rule = _array(cnf, "clause_rule", "<i4")
        first = int(np.flatnonzero(rule >= 0)[0])
        rule[first] = -1  # a rule's clause disowned: it no longer says the rule
        cnf["clause_rule"] = rule.tobytes()

    with pytest.raises(BundleError, match="CNF clauses disagree|belongs to no rule"):
        load_bundle(_edited(compiled, edit))


def test_an_atom_that_means_another_comparison_is_refused(compiled: dict[str, Any]) -> None:
    def edit(p: dict[str, Any]) -> None:
        atoms = p["cnf"]["atoms"]
        lo = _array(atoms, "lo", "<f8")
        finite = int(np.flatnonzero(np.isfinite(lo))[0])
        lo[finite] -= 1.0
        atoms["lo"] = lo.tobytes()

    with pytest.raises(BundleError, match="does not mean its comparison"):
        load_bundle(_edited(compiled, edit))


def test_an_unsound_relation_clause_is_refused(compiled: dict[str, Any]) -> None:
    def edit(p: dict[str, Any]) -> None:
        cnf = p["cnf"]
        names = [v["name"] for v in cnf["variables"]]
        low = names.index(next(n for n in names if n.startswith("chamber_temperature in (600")))
        high = names.index(next(n for n in names if n.startswith("chamber_temperature in (950")))
        start = _array(cnf, "start", "<i4")
        literals = _array(cnf, "literals", "<i4")
        rule = _array(cnf, "clause_rule", "<i4")
        # "above 600 implies above 950": false, and it would make the solver wrong.
        literals = np.concatenate([literals, np.asarray([-(low + 1), high + 1], "<i4")])
        cnf["start"] = np.concatenate([start, [start[-1] + 2]]).astype("<i4").tobytes()
        cnf["literals"] = literals.tobytes()
        cnf["clause_rule"] = np.concatenate([rule, [-1]]).astype("<i4").tobytes()

    with pytest.raises(BundleError, match="relates two comparisons wrongly"):
        load_bundle(_edited(compiled, edit))


def test_a_template_naming_nothing_is_refused(compiled: dict[str, Any]) -> None:
    def edit(p: dict[str, Any]) -> None:
        p["rules"][0]["template"] = "{conditon}: open the vent"

    with pytest.raises(BundleError, match=r"template names \{conditon\}"):
        load_bundle(_edited(compiled, edit))


def test_a_bundle_without_a_unit_table_loads_unchecked_and_says_so(
        compiled: dict[str, Any], tmp_path: Path) -> None:
    def edit(p: dict[str, Any]) -> None:
        del p["meta"]["units"]
        _move_first_box_bound(p)

    data = _edited(compiled, edit)
    assert load_bundle(data).derived is None
    path = tmp_path / "old.bundle"
    path.write_bytes(data)
    run = subprocess.run([sys.executable, "-m", "rulec.runtime.daemon", "--bundle", str(path),
                          "--check"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert '"derived_from_rules": null' in run.stdout
    assert "no unit table" in run.stderr


def test_check_refuses_an_edited_bundle(compiled: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "edited.bundle"
    path.write_bytes(_edited(compiled, _move_first_box_bound))
    run = subprocess.run([sys.executable, "-m", "rulec.runtime.daemon", "--bundle", str(path),
                          "--check"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "boxes disagree" in run.stderr


def test_state_names_with_spaces_and_joiners_read_back(tmp_path: Path) -> None:
    (tmp_path / "sensors.toml").write_text(
        '[parameters.phase]\nstates = ["on ground", "stop and go", "in air"]\n'
        'aliases = ["flight state"]\n'
        '[parameters.airspeed]\nunit = "kt"\naliases = ["airspeed"]\nrange = [0, 400]\n')
    (tmp_path / "manual.txt").write_text(
        "When the flight state is stop and go and the airspeed exceeds 40 knots, "
        "apply the brakes.\n"
        "Do not exceed 30 kt with the flight state on ground.\n")
    out = tmp_path / "b.bundle"
    compile_manuals([tmp_path], out)
    bundle = load_bundle(out)
    assert bundle.derived == len(bundle.rules) >= 1
    states = {"phase": ("on ground", "stop and go", "in air")}
    cond = read_condition("(phase == stop and go and airspeed > 40 kt)", states)
    assert "stop and go" in repr(cond) and "'40'" in repr(cond)


def test_every_example_and_discrete_corpus_bundle_is_derived(tmp_path: Path) -> None:
    # (the corpus tests load every other corpus bundle, each derived the same way)
    discrete = ROOT / "tests" / "corpora" / "discrete"
    folders = sorted(p.parent for p in discrete.rglob("sensors.toml"))
    folders += sorted(p for p in (ROOT / "examples" / "manuals").iterdir() if p.is_dir())
    for i, folder in enumerate(folders):
        out = tmp_path / f"{i}.bundle"
        compile_manuals([folder], out)
        bundle = load_bundle(out)
        assert bundle.derived == len(bundle.rules), folder
