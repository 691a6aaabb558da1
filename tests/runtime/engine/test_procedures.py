"""Procedures: found by words in their title or in the action that starts them, steps in
the graph's order with provenance; a fired rule that starts one carries its checklist;
`rulec steps` (``compiler/commands/ask.py``) prints them."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from rulec.compiler.commands import ask as steps_command
from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.runtime.bundle.format import encode_bundle
from rulec.runtime.bundle.loader import Bundle, load_bundle
from rulec.runtime.engine.engine import Engine
from rulec.runtime.engine.procedures import ProcedureBook, words
from rulec.runtime.errors import StateError

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

HERE = Path(__file__).resolve().parents[2]
EXAMPLES = HERE.parent / "examples" / "manuals"


def compile_folder(folder: Path) -> Bundle:
    return load_bundle(encode_bundle(build_payload(collect_rules([folder]), folder.name)))


@pytest.fixture(scope="module")
def access() -> Bundle:
    return compile_folder(EXAMPLES / "access_control")


ENGINE_TEXT = """\
ENGINE LIMITS

If the chamber temperature exceeds 950 °C, declare emergency and run the engine shutdown procedure.
If the chamber temperature exceeds 600 °C, increase the coolant flow.

Engine shutdown procedure:
1. Close the main fuel valve.
2. Close the oxidizer valve.
3. Open the purge valve.

Leak check procedure:
1. Pressurise the lines.
2. Record the pressure decay.

Emergency egress procedure:
1. Leave the test cell by the east door.
2. Report to the muster point.
"""
ENGINE_SENSORS = """\
[parameters.chamber_temperature]
unit = "degC"
aliases = ["chamber temperature"]
range = [-50, 2000]
"""


@pytest.fixture
def engine_bundle(tmp_path: Path) -> Bundle:
    (tmp_path / "engine.txt").write_text(ENGINE_TEXT, encoding="utf-8")
    (tmp_path / "sensors.toml").write_text(ENGINE_SENSORS, encoding="utf-8")
    return compile_folder(tmp_path)


# ---------------------------------------------------------------- finding by words


def test_paper_login_procedure_has_five_ordered_steps_with_provenance(access: Bundle):
    (proc,) = Engine(access).procedure("login")
    assert proc.title == "User login procedure"
    assert [s.number for s in proc.steps] == [1, 2, 3, 4, 5]
    assert proc.steps[0].text == "Type the username into the sign-in form."
    assert proc.steps[-1].text == "Wait until the session opens."
    manual = (EXAMPLES / "access_control" / "access_policy.txt").read_text("utf-8").splitlines()
    assert manual[proc.source["line"] - 1] == "User login procedure:"
    for step in proc.steps:
        assert step.source["file"] == "access_policy.txt"
        assert step.text in manual[step.source["line"] - 1]
    assert [s.source["line"] for s in proc.steps] == [10, 11, 12, 13, 14]
    assert proc.matched == ("title",)


@pytest.mark.parametrize("query", ["login", "LOGIN", "User Login", "the login procedure",
                                   "login steps", "  login  "])
def test_word_match_is_case_insensitive_and_ignores_filler(access: Bundle, query: str):
    assert [p.title for p in ProcedureBook(access).find(query)] == ["User login procedure"]


@pytest.mark.parametrize("query", ["log", "logins", "logout", "login shutdown"])
def test_word_match_is_whole_words_and_every_word(access: Bundle, query: str):
    assert ProcedureBook(access).find(query) == []


def test_a_query_of_only_filler_still_matches_and_no_words_is_an_error(access: Bundle):
    assert [p.title for p in ProcedureBook(access).find("procedure")] == ["User login procedure"]
    with pytest.raises(StateError):
        ProcedureBook(access).find("  -- ")


def test_words_split_hyphens_and_fold_case():
    assert words("Sign-In FORM, one-time") == ["sign-in", "sign", "in", "form", "one-time",
                                              "one", "time"]


def test_trigger_words_find_the_procedure_a_rule_starts(engine_bundle: Bundle):
    book = ProcedureBook(engine_bundle)
    (by_title,) = book.find("shutdown")
    assert by_title.title == "Engine shutdown procedure" and by_title.matched == (
        "title", "trigger")
    egress, by_trigger = book.find("emergency")
    assert egress.title == "Emergency egress procedure" and egress.matched == ("title",)
    assert by_trigger.id == by_title.id and by_trigger.matched == ("trigger",)
    starter = next(r.id for r in engine_bundle.rules if "950" in r.source["text"])
    assert by_title.triggered_by == (starter,)
    (leak,) = book.find("leak check")
    assert leak.triggered_by == () and [s.text for s in leak.steps] == [
        "Pressurise the lines.", "Record the pressure decay."]
    assert [p.title for p in book.find("valve")] == []  # steps are not searched


def test_title_matches_come_before_trigger_matches(engine_bundle: Bundle):
    # The shutdown procedure comes first in the manual but matches "emergency" only
    # through the rule that starts it; the egress procedure has it in its title.
    found = ProcedureBook(engine_bundle).find("emergency")
    assert [p.title for p in found] == ["Emergency egress procedure",
                                        "Engine shutdown procedure"]
    assert [p.title for p in ProcedureBook(engine_bundle).find("procedure")] == [
        "Engine shutdown procedure", "Leak check procedure", "Emergency egress procedure"]


# ---------------------------------------------------------------- checklists in results


def test_a_fired_rule_carries_the_checklist_it_starts(engine_bundle: Bundle):
    engine = Engine(engine_bundle)
    result = engine.evaluate({"chamber_temperature": 960})
    starter = next(r for r in result.rules if "950" in r.source["text"])
    other = next(r for r in result.rules if "600" in r.source["text"])
    (pid,) = starter.procedures
    assert other.procedures == []
    assert starter.evidence["graph"]["starts_procedures"] == [pid]
    (proc,) = result.procedures
    assert proc.id == pid and len(proc.steps) == 3
    out = result.to_json()
    (listed,) = out["procedures"]
    assert listed["started_by"] == [starter.id]
    assert [s["text"] for s in listed["steps"]] == [
        "Close the main fuel valve.", "Close the oxidizer valve.", "Open the purge valve."]
    assert out["rules"][0]["procedures"] == [pid]
    assert engine.evaluate({"chamber_temperature": 700}).procedures == []


def test_a_raise_event_names_the_procedure_it_starts(engine_bundle: Bundle):
    engine = Engine(engine_bundle)
    events = engine.step(0.0, {"chamber_temperature": 960})
    starter = next(e for e in events if "950" in (e.source or {}).get("text", ""))
    assert len(starter.procedures) == 1 and starter.to_json()["procedures"] == list(
        starter.procedures)
    assert all("procedures" not in e.to_json() for e in events if e is not starter)
    assert Engine(engine_bundle, paths={"geometry"}).step(0.0, {"chamber_temperature": 960})[
        0].procedures == ()


def test_procedure_lookup_works_whatever_the_paths(engine_bundle: Bundle):
    (proc,) = Engine(engine_bundle, paths={"geometry"}).procedure("shutdown")
    assert proc.triggered_by  # the bundle's graph is always read for lookups


# ---------------------------------------------------------------- the steps command


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="rulec")
    steps_command.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    code = args.run(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def access_file(tmp_path: Path, access: Bundle) -> Path:
    from rulec.compiler.pipeline import build_payload as build

    path = tmp_path / "access.bundle"
    path.write_bytes(encode_bundle(build(collect_rules([EXAMPLES / "access_control"]), "a")))
    return path


def test_steps_command_prints_the_ordered_steps(access_file: Path, capsys):
    code, out, err = run(["steps", str(access_file), "login"], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("User login procedure") and "access_policy.txt:9" in lines[0]
    assert [line.split(".")[0].strip() for line in lines[1:6]] == ["1", "2", "3", "4", "5"]
    assert "Type the password." in lines[2] and "(access_policy.txt:11)" in lines[2]


def test_steps_command_json(access_file: Path, capsys):
    code, out, _ = run(["steps", str(access_file), "Login", "--json"], capsys)
    assert code == 0
    doc = json.loads(out)
    (proc,) = doc["procedures"]
    assert doc["query"] == "Login" and len(proc["steps"]) == 5
    assert proc["steps"][2] == {
        "step": 3, "text": "Enter the one-time code shown by the authenticator app.",
        "source": proc["steps"][2]["source"]}
    assert proc["steps"][2]["source"]["line"] == 12


def test_steps_command_no_match_exits_1(access_file: Path, capsys):
    code, out, err = run(["steps", str(access_file), "reboot"], capsys)
    assert code == 1 and out == ""
    assert "no procedure matches 'reboot'" in err and "User login procedure" in err
    code, out, _ = run(["steps", str(access_file), "reboot", "--json"], capsys)
    assert code == 1 and json.loads(out)["procedures"] == []


def test_rulec_steps_through_the_main_cli_when_wired(access_file: Path, capsys):
    from rulec.compiler.cli import _parser, main

    if "steps" not in _parser()._subparsers._group_actions[0].choices:
        pytest.skip("`steps` is not wired into compiler/cli.py yet")
    assert main(["steps", str(access_file), "login"]) == 0
    assert "Type the username" in capsys.readouterr().out
