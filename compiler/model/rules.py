"""Rule objects: the one door through which every rule enters a bundle.

Rules from the offline extractor, from an LLM, or from a hand-edited JSON-lines
file are all validated here (`rule_from_json`), so a typo in a reviewed file
is reported with its line instead of compiling into a wrong bundle.  The
written schema is `rule-schema.json` beside it; this module is its executable form.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from rulec.runtime import vocabulary
from rulec.runtime.errors import RuleSchemaError
from rulec.runtime.vocabulary import CONDITIONAL_KINDS, DEFAULT_SEVERITY, RULE_OBJECT_KINDS

SCHEMA_VERSION = 1
KINDS = RULE_OBJECT_KINDS
SEVERITIES = vocabulary.SEVERITIES
OPS = (">", ">=", "<", "<=", "==", "between", "outside")


@dataclass(frozen=True)
class Atom:
    """One comparison of one parameter: `param op value` (value in `unit`, None = the
    parameter's own unit)."""

    param: str
    op: str
    value: Decimal | tuple[Decimal, Decimal]
    unit: str | None = None
    label: str = ""  # the parameter as the text names it
    # A discrete parameter's comparison: it holds when the parameter is in one of these
    # states (op "in", value unused); "!=" is written as Not of it.
    states: tuple[str, ...] = ()

    @classmethod
    def in_states(cls, param: str, states: tuple[str, ...], label: str = "") -> Atom:
        return cls(param, "in", Decimal(0), None, label, states)

    def describe(self) -> str:
        if self.states:
            return f"{self.param} in {', '.join(self.states)}"
        unit = f" {self.unit}" if self.unit else ""
        if isinstance(self.value, tuple):
            low, high = self.value
            return f"{self.param} {self.op} {low}{unit} and {high}{unit}"
        return f"{self.param} {self.op} {self.value}{unit}"


@dataclass(frozen=True)
class All:
    items: tuple[Condition, ...]


@dataclass(frozen=True)
class AnyOf:
    items: tuple[Condition, ...]


@dataclass(frozen=True)
class Not:
    item: Condition


Condition = Atom | All | AnyOf | Not


@dataclass(frozen=True)
class Step:
    text: str
    source: dict[str, Any]


@dataclass
class Rule:
    """A rule object: what fires, on which condition, and where it was written."""

    id: str
    kind: str
    source: dict[str, Any]
    severity: str = DEFAULT_SEVERITY
    condition: Condition | None = None
    action: str = ""
    actions: tuple[str, ...] = ()  # exclusion: actions that cannot coexist
    title: str = ""  # procedure
    steps: tuple[Step, ...] = ()  # procedure
    duration_s: Decimal | None = None
    duration_inclusive: bool = False
    # Phases in which the rule's raise is held (ECAM-style inhibition): a phase parameter
    # and its states; released when the phase ends if the condition still holds.
    inhibit: tuple[str, tuple[str, ...]] | None = None
    template: str = ""
    notes: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- to JSON


def condition_to_json(cond: Condition) -> dict[str, Any]:
    if isinstance(cond, Atom) and cond.states:
        out: dict[str, Any] = {"param": cond.param}
        if len(cond.states) == 1:
            out.update(op="==", state=cond.states[0])
        else:
            out.update(op="in", states=list(cond.states))
        if cond.label:
            out["label"] = cond.label
        return out
    if isinstance(cond, Atom):
        out = {"param": cond.param, "op": cond.op}
        if isinstance(cond.value, tuple):
            out["value"] = [_num(cond.value[0]), _num(cond.value[1])]
        else:
            out["value"] = _num(cond.value)
        if cond.unit:
            out["unit"] = cond.unit
        if cond.label:
            out["label"] = cond.label
        return out
    if isinstance(cond, All):
        return {"all": [condition_to_json(c) for c in cond.items]}
    if isinstance(cond, AnyOf):
        return {"any": [condition_to_json(c) for c in cond.items]}
    return {"not": condition_to_json(cond.item)}


def rule_to_json(rule: Rule) -> dict[str, Any]:
    """The rule as a JSON-ready dict, in the schema's key order."""
    out: dict[str, Any] = {"schema": SCHEMA_VERSION, "id": rule.id, "kind": rule.kind}
    if rule.kind in CONDITIONAL_KINDS:
        out["severity"] = rule.severity
        assert rule.condition is not None
        out["condition"] = condition_to_json(rule.condition)
        out["action"] = rule.action
        if rule.duration_s is not None:
            out["duration"] = {"seconds": _num(rule.duration_s),
                               "inclusive": rule.duration_inclusive}
        if rule.inhibit is not None:
            out["inhibit"] = {"param": rule.inhibit[0], "states": list(rule.inhibit[1])}
        out["template"] = rule.template
    elif rule.kind == "exclusion":
        out["severity"] = rule.severity
        out["actions"] = list(rule.actions)
    else:
        out["title"] = rule.title
        out["steps"] = [{"text": s.text, "source": s.source} for s in rule.steps]
    out["source"] = rule.source
    if rule.notes:
        out["notes"] = list(rule.notes)
    return out


def dumps_rule(rule: Rule) -> str:
    return json.dumps(rule_to_json(rule), ensure_ascii=False)


def _num(value: Decimal) -> int | float:
    """A Decimal as the JSON number that reads back to the same decimal text."""
    if value == value.to_integral_value():
        return int(value)
    as_float = float(value)
    if Decimal(repr(as_float)) != value:
        raise RuleSchemaError(f"number {value} cannot be written exactly")
    return as_float


# ---------------------------------------------------------------- from JSON


def loads_rules(text: str, where: str) -> list[Rule]:
    """Parse a JSON-lines file of rule objects; errors name `where` and the line."""
    rules: list[Rule] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        at = f"{where}:{number}"
        try:
            obj = json.loads(line, parse_float=Decimal)
        except json.JSONDecodeError as exc:
            raise RuleSchemaError(f"{at}: not valid JSON: {exc.msg} (column {exc.colno})") from None
        rules.append(rule_from_json(obj, at))
    return rules


def rule_from_json(obj: Any, at: str) -> Rule:
    """Validate one rule object against the schema and build a Rule."""
    if not isinstance(obj, dict):
        raise RuleSchemaError(f"{at}: a rule object must be a JSON object")
    schema = obj.get("schema", SCHEMA_VERSION)
    if schema != SCHEMA_VERSION:
        raise RuleSchemaError(f"{at}: rule schema {schema} is not supported (expected 1)")
    kind = _field(obj, "kind", str, at)
    if kind not in KINDS:
        raise RuleSchemaError(f"{at}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
    allowed = {"schema", "id", "kind", "source", "notes"} | {
        "if_then": {"severity", "condition", "action", "duration", "template", "inhibit"},
        "constraint": {"severity", "condition", "action", "duration", "template", "inhibit"},
        "exclusion": {"severity", "actions"},
        "procedure": {"title", "steps"},
    }[kind]
    unknown = sorted(set(obj) - allowed)
    if unknown:
        raise RuleSchemaError(f"{at}: unknown key(s) for a {kind} rule: {', '.join(unknown)}")
    rule_id = _field(obj, "id", str, at)
    if not rule_id.strip() or len(rule_id) > 64:
        raise RuleSchemaError(f"{at}: id must be 1-64 characters")
    source = _source(obj.get("source"), at)
    notes = obj.get("notes", [])
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        raise RuleSchemaError(f"{at}: notes must be a list of strings")
    rule = Rule(id=rule_id, kind=kind, source=source, notes=list(notes))
    if kind in vocabulary.RULE_KINDS:
        rule.severity = obj.get("severity", DEFAULT_SEVERITY)
        if rule.severity not in SEVERITIES:
            raise RuleSchemaError(f"{at}: severity must be one of {', '.join(SEVERITIES)}")
    if kind in CONDITIONAL_KINDS:
        rule.condition = condition_from_json(obj.get("condition"), at)
        rule.action = _field(obj, "action", str, at)
        rule.template = obj.get("template", "{condition}: " + rule.action)
        if not isinstance(rule.template, str):
            raise RuleSchemaError(f"{at}: template must be a string")
        duration = obj.get("duration")
        if duration is not None:
            if not isinstance(duration, dict) or set(duration) - {"seconds", "inclusive"}:
                raise RuleSchemaError(f"{at}: duration must be {{seconds, inclusive}}")
            rule.duration_s = _decimal(duration.get("seconds"), f"{at}: duration.seconds")
            if rule.duration_s < 0:
                raise RuleSchemaError(f"{at}: duration.seconds must not be negative")
            inclusive = duration.get("inclusive", False)
            if not isinstance(inclusive, bool):
                raise RuleSchemaError(f"{at}: duration.inclusive must be true or false")
            rule.duration_inclusive = inclusive
        if "inhibit" in obj:
            rule.inhibit = _inhibit(obj["inhibit"], at)
    elif kind == "exclusion":
        actions = obj.get("actions")
        if (not isinstance(actions, list) or len(actions) < 2
                or not all(isinstance(a, str) and a.strip() for a in actions)):
            raise RuleSchemaError(f"{at}: actions must list at least two action texts")
        rule.actions = tuple(actions)
    else:
        rule.title = _field(obj, "title", str, at)
        steps = obj.get("steps")
        if not isinstance(steps, list) or not steps:
            raise RuleSchemaError(f"{at}: steps must be a non-empty list")
        parsed = []
        for i, step in enumerate(steps):
            if not isinstance(step, dict) or not isinstance(step.get("text"), str):
                raise RuleSchemaError(f"{at}: steps[{i}] must be an object with a text")
            parsed.append(Step(step["text"], _source(step.get("source", source), at)))
        rule.steps = tuple(parsed)
    return rule


def condition_from_json(obj: Any, at: str) -> Condition:
    if not isinstance(obj, dict):
        raise RuleSchemaError(f"{at}: condition must be an object")
    for key, ctor in (("all", All), ("any", AnyOf)):
        if key in obj:
            items = obj[key]
            if len(obj) != 1 or not isinstance(items, list) or not items:
                raise RuleSchemaError(f"{at}: '{key}' must be the only key, with a non-empty list")
            return ctor(tuple(condition_from_json(i, at) for i in items))
    if "not" in obj:
        if len(obj) != 1:
            raise RuleSchemaError(f"{at}: 'not' must be the only key")
        return Not(condition_from_json(obj["not"], at))
    if "state" in obj or "states" in obj:
        return _state_condition(obj, at)
    param, op = _comparison(obj, {"value", "unit"}, OPS, "op", at)
    raw = obj.get("value")
    value: Decimal | tuple[Decimal, Decimal]
    if op in ("between", "outside"):
        if not isinstance(raw, list) or len(raw) != 2:
            raise RuleSchemaError(f"{at}: op {op!r} needs value [low, high]")
        low = _decimal(raw[0], f"{at}: value[0]")
        high = _decimal(raw[1], f"{at}: value[1]")
        if low > high:
            raise RuleSchemaError(f"{at}: range low {low} is above high {high}")
        value = (low, high)
    else:
        value = _decimal(raw, f"{at}: value")
    unit = obj.get("unit")
    if unit is not None and not isinstance(unit, str):
        raise RuleSchemaError(f"{at}: unit must be a string")
    label = obj.get("label", "")
    return Atom(param, op, value, unit, label if isinstance(label, str) else "")


STATE_OPS = ("==", "!=", "in")


def _inhibit(raw: Any, at: str) -> tuple[str, tuple[str, ...]]:
    """`{"param": PHASE, "states": [S, ...]}`: the phases that hold the rule's raise."""
    if not isinstance(raw, dict) or set(raw) != {"param", "states"}:
        raise RuleSchemaError(f"{at}: inhibit must be {{param, states}}")
    param = _field(raw, "param", str, at)
    states = raw["states"]
    if not isinstance(states, list) or not states:
        raise RuleSchemaError(f"{at}: inhibit.states must be a non-empty list")
    names = tuple(dict.fromkeys(_state_name(s, at) for s in states))
    return param, names


def _state_condition(obj: dict[str, Any], at: str) -> Condition:
    """`{"param": P, "op": "==" | "!=", "state": S}` or `{"param": P, "op": "in",
    "states": [S, ...]}`: a discrete parameter in (or not in) a state."""
    param, op = _comparison(obj, {"state", "states"}, STATE_OPS, "a state comparison's op", at)
    if op == "in":
        raw = obj.get("states")
        if "state" in obj or not isinstance(raw, list) or not raw:
            raise RuleSchemaError(f"{at}: op 'in' needs 'states', a non-empty list")
        names = [_state_name(s, at) for s in raw]
    else:
        if "states" in obj:
            raise RuleSchemaError(f"{at}: op {op!r} takes one 'state', not 'states'")
        names = [_state_name(obj.get("state"), at)]
    if len(set(names)) != len(names):
        raise RuleSchemaError(f"{at}: a state is listed twice")
    label = obj.get("label", "")
    atom = Atom.in_states(param, tuple(names), label if isinstance(label, str) else "")
    return Not(atom) if op == "!=" else atom


def _comparison(obj: dict[str, Any], keys: set[str], ops: tuple[str, ...], what: str,
                at: str) -> tuple[str, str]:
    """(param, op) of a comparison object whose other keys are ``keys`` (and "label")."""
    unknown = sorted(set(obj) - {"param", "op", "label", *keys})
    if unknown:
        raise RuleSchemaError(f"{at}: unknown key(s) in condition: {', '.join(unknown)}")
    param = _field(obj, "param", str, at)
    op = _field(obj, "op", str, at)
    if op not in ops:
        raise RuleSchemaError(f"{at}: {what} must be one of {' '.join(ops)}, not {op!r}")
    return param, op


def _state_name(raw: Any, at: str) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise RuleSchemaError(f"{at}: a state must be a non-empty string")
    return " ".join(raw.lower().split())


def _field(obj: dict[str, Any], key: str, typ: type, at: str) -> Any:
    value = obj.get(key)
    if not isinstance(value, typ) or (isinstance(value, str) and not value.strip()):
        raise RuleSchemaError(f"{at}: '{key}' is required and must be a {typ.__name__}")
    return value


def _decimal(raw: Any, at: str) -> Decimal:
    if isinstance(raw, bool) or not isinstance(raw, (int, Decimal, float, str)):
        raise RuleSchemaError(f"{at} must be a number")
    try:
        value = Decimal(str(raw)) if not isinstance(raw, Decimal) else raw
    except InvalidOperation:
        raise RuleSchemaError(f"{at} must be a number, not {raw!r}") from None
    if not value.is_finite():
        raise RuleSchemaError(f"{at} must be finite")
    return value


def _source(raw: Any, at: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise RuleSchemaError(f"{at}: source must be an object with file, line and text")
    if not isinstance(raw.get("file"), str) or not isinstance(raw.get("text"), str):
        raise RuleSchemaError(f"{at}: source needs 'file' and 'text' strings")
    line = raw.get("line")
    if isinstance(line, bool) or not isinstance(line, int) or line < 1:
        raise RuleSchemaError(f"{at}: source.line must be a positive integer")
    return {**raw, "file": provenance_path(raw["file"], at)}


def provenance_path(file: str, at: str) -> str:
    """A citation's file, relative and normalised inside its source folder: a reviewed
    rules file must not make an advisory cite ``../../../etc/passwd`` or ``/etc/shadow``."""
    parts = [p for p in file.replace("\\", "/").split("/") if p not in ("", ".")]
    if not parts or file.startswith(("/", "\\")) or ".." in parts or ":" in parts[0]:
        raise RuleSchemaError(f"{at}: source.file {file!r} must be a relative path inside "
                              "the source folder (no '..', not absolute)")
    return "/".join(parts)
