"""A compiled bundle's thresholds as movable bounds, and the bundle rebuilt around them.

A bundle keeps each rule's condition as text (`condition_text`, written by the
pipeline from the rule object), not as a tree; this module reads that text back into
comparisons, proves the reading right by rebuilding the boxes, CNF clauses and atoms,
graph and rules sections with the compiler's own builders and comparing them with the
bundle byte for byte, and only then lets a caller move bounds.  A moved bound is
written in the parameter's unit, and every section derived from thresholds is built
again from the edited conditions, so the refined bundle is as consistent as a compiled
one.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from decimal import Decimal
from itertools import count
from typing import Any

from rulec.compiler.build.boxes import ThresholdConverter, boxes_of
from rulec.compiler.build.cnf import build_cnf
from rulec.compiler.build.graph import build_graph
from rulec.compiler.build.payload import box_section, cnf_section, condition_text, graph_section
from rulec.compiler.model.parameters import ParameterInfo, ParameterTable
from rulec.compiler.model.rules import (
    OPS,
    All,
    AnyOf,
    Atom,
    Condition,
    Not,
    Rule,
    Step,
    condition_to_json,
)
from rulec.compiler.read.statements import Statement
from rulec.compiler.version import __version__
from rulec.runtime.bundle.derive import read_decimal
from rulec.runtime.bundle.format import decode_bundle
from rulec.runtime.bundle.loader import load_bundle
from rulec.runtime.errors import RulecError
from rulec.runtime.vocabulary import CONDITIONAL_KINDS

BoundKey = tuple[str, int, int]  # (rule id, comparison position in reading order, end)


class RefineError(RulecError, ValueError):
    """A bundle cannot be refined (conditions unreadable) or a feedback file is malformed."""


@dataclass(frozen=True)
class Bound:
    """One threshold of one rule: the `end`-th number of its `position`-th comparison."""

    rule_index: int
    rule_id: str
    position: int
    end: int  # 0: the value, or the low end of a range; 1: the high end of a range
    param: str
    op: str
    negated: bool  # under an odd number of `not`
    value: float  # in the parameter's unit
    unit: str

    @property
    def key(self) -> BoundKey:
        return (self.rule_id, self.position, self.end)


@dataclass
class BundleModel:
    """A decoded bundle, its rules' condition trees and the bounds they hold."""

    payload: dict[str, Any]
    digest: str
    conditions: list[Condition | None]  # per entry of payload["rules"]
    bounds: list[Bound]
    units: dict[str, str | None]

    def param_names(self) -> list[str]:
        return [p["name"] for p in self.payload["parameters"]]


# ---------------------------------------------------------------- reading


def load_model(data: bytes, where: str = "bundle") -> BundleModel:
    """Decode and validate a bundle, read its conditions, and check they rebuild it exactly."""
    bundle = load_bundle(data)  # full validation; BundleError names what is wrong
    payload = decode_bundle(data)
    units = {p["name"]: (p["unit"] or None) for p in payload["parameters"]}
    conditions: list[Condition | None] = []
    for entry in payload["rules"]:
        text = entry["condition_text"]
        if entry["kind"] in CONDITIONAL_KINDS and text:
            try:
                conditions.append(parse_condition_text(text))
            except ValueError as exc:
                raise RefineError(f"{where}: rule {entry['id']}: cannot read condition "
                                  f"{text!r}: {exc}") from None
        else:
            conditions.append(None)
    model = BundleModel(payload, bundle.digest, conditions, [], units)
    model.bounds = _bounds_of(model)
    rebuilt = rebuild_payload(model, {})
    for section in ("rules", "boxes", "cnf", "graph"):
        if rebuilt[section] != payload[section]:
            raise RefineError(f"{where}: section {section} cannot be rebuilt from the rules' "
                              "condition text; recompile the bundle with this rulec")
    return model


def parse_condition_text(text: str) -> Condition:
    """The inverse of the pipeline's `condition_text`: `(a and b)`, `(a or b)`, `not a`,
    `param op value [unit]`, `param between [lo, hi] [unit]`."""
    parser = _TextParser(text)
    cond = parser.condition()
    if parser.pos != len(text):
        raise ValueError(f"unexpected text at column {parser.pos + 1}")
    return cond


_TOKEN = re.compile(r"[^\s()\[\],]+")


class _TextParser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def condition(self) -> Condition:
        if self.text.startswith("not ", self.pos):
            self.pos += 4
            return Not(self.condition())
        if self.text.startswith("(", self.pos):
            self.pos += 1
            items = [self.condition()]
            joiner = ""
            while not self.text.startswith(")", self.pos):
                word = " and " if self.text.startswith(" and ", self.pos) else (
                    " or " if self.text.startswith(" or ", self.pos) else "")
                if not word or (joiner and word != joiner):
                    raise ValueError(f"expected ' and ', ' or ' or ')' at column {self.pos + 1}")
                joiner = word
                self.pos += len(word)
                items.append(self.condition())
            self.pos += 1
            return All(tuple(items)) if joiner == " and " else AnyOf(tuple(items))
        return self.atom()

    def token(self) -> str:
        match = _TOKEN.match(self.text, self.pos)
        if not match:
            raise ValueError(f"expected a word at column {self.pos + 1}")
        self.pos = match.end()
        return match.group()

    def space(self) -> None:
        if not self.text.startswith(" ", self.pos):
            raise ValueError(f"expected a space at column {self.pos + 1}")
        self.pos += 1

    def atom(self) -> Atom:
        param = self.token()
        self.space()
        op = self.token()
        if op not in OPS:
            raise ValueError(f"unknown operator {op!r}")
        self.space()
        value: Decimal | tuple[Decimal, Decimal]
        if self.text.startswith("[", self.pos):
            self.pos += 1
            low = _decimal(self.token())
            if not self.text.startswith(", ", self.pos):
                raise ValueError(f"expected ', ' at column {self.pos + 1}")
            self.pos += 2
            high = _decimal(self.token())
            if not self.text.startswith("]", self.pos):
                raise ValueError(f"expected ']' at column {self.pos + 1}")
            self.pos += 1
            value = (low, high)
        else:
            value = _decimal(self.token())
        unit = None
        rest = self.text[self.pos:]
        if rest.startswith(" ") and not rest.startswith((" and ", " or ")):
            self.pos += 1
            unit = self.token()
        return Atom(param, op, value, unit)


_decimal = read_decimal  # the loader reads the same numbers the same way


def loosens(bound: Bound, new: float) -> bool:
    """True when moving this threshold to ``new`` makes its rule fire in fewer states: a
    protective limit made weaker, which ``rulec refine`` applies only when asked to."""
    if new == bound.value:
        return False
    up = new > bound.value
    if bound.op in (">", ">="):
        shrinks = up
    elif bound.op in ("<", "<="):
        shrinks = not up
    elif bound.op == "between":
        shrinks = up if bound.end == 0 else not up
    elif bound.op == "outside":
        shrinks = not up if bound.end == 0 else up
    else:  # "==": the moved point no longer holds the states the old one did
        return True
    return shrinks != bound.negated


def walk_atoms(cond: Condition, negated: bool = False) -> list[tuple[Atom, bool]]:
    """Every comparison in reading order with whether it stands under an odd number of `not`."""
    if isinstance(cond, Atom):
        return [(cond, negated)]
    if isinstance(cond, Not):
        return walk_atoms(cond.item, not negated)
    return [pair for item in cond.items for pair in walk_atoms(item, negated)]


def _bounds_of(model: BundleModel) -> list[Bound]:
    conv = ThresholdConverter(dict(model.units))
    out: list[Bound] = []
    for index, (entry, cond) in enumerate(zip(model.payload["rules"], model.conditions,
                                              strict=True)):
        if cond is None:
            continue
        for position, (atom, negated) in enumerate(walk_atoms(cond)):
            for end, value in enumerate(_manifest_values(atom, conv)):
                out.append(Bound(index, entry["id"], position, end, atom.param, atom.op,
                                 negated, value, model.units.get(atom.param) or ""))
    return out


def _manifest_values(atom: Atom, conv: ThresholdConverter) -> list[float]:
    """The comparison's numbers in the parameter's unit, in written order."""
    if isinstance(atom.value, tuple):
        return [float(conv.convert(atom, v)) for v in atom.value]
    return [float(conv.convert(atom, atom.value))]


# ---------------------------------------------------------------- rebuilding


def moved_conditions(model: BundleModel, values: dict[BoundKey, float]
                     ) -> list[Condition | None]:
    """The conditions with the given bounds replaced (values in the parameters' units)."""
    conv = ThresholdConverter(dict(model.units))
    out: list[Condition | None] = []
    for entry, cond in zip(model.payload["rules"], model.conditions, strict=True):
        if cond is None or not any(k[0] == entry["id"] for k in values):
            out.append(cond)
            continue
        out.append(_replace(cond, entry["id"], values, conv, count(), model.units))
    return out


def _replace(cond: Condition, rule_id: str, values: dict[BoundKey, float],
             conv: ThresholdConverter, counter: Any, units: dict[str, str | None]) -> Condition:
    if isinstance(cond, Not):
        return Not(_replace(cond.item, rule_id, values, conv, counter, units))
    if isinstance(cond, All | AnyOf):
        items = tuple(_replace(c, rule_id, values, conv, counter, units) for c in cond.items)
        return All(items) if isinstance(cond, All) else AnyOf(items)
    position = next(counter)
    current = _manifest_values(cond, conv)
    new = [values.get((rule_id, position, end), v) for end, v in enumerate(current)]
    if new == current:
        return cond
    numbers = [Decimal(repr(float(v))) for v in new]
    value = (numbers[0], numbers[1]) if isinstance(cond.value, tuple) else numbers[0]
    return Atom(cond.param, cond.op, value, units.get(cond.param), cond.label)


def rebuild_payload(model: BundleModel, values: dict[BoundKey, float],
                    refined: dict[str, Any] | None = None) -> dict[str, Any]:
    """The payload with the given bounds moved; every threshold-derived section rebuilt
    with the compiler's builders, everything else copied.  `refined` goes into meta."""

    old = model.payload
    conditions = moved_conditions(model, values)
    conv = ThresholdConverter(dict(model.units))
    rules = _rule_objects(old, conditions)
    n_kept = len(old["rules"])
    names = model.param_names()
    param_pos = {name: i for i, name in enumerate(names)}
    rule_boxes = [boxes_of(cond, conv) if cond is not None else [] for cond in conditions]
    cnf = build_cnf(rules, conv)
    graph = build_graph(rules, _descriptive(old["graph"]), _parameter_table(old), conv)
    rule_entries = []
    for entry, before, cond in zip(old["rules"], model.conditions, conditions, strict=True):
        entry = dict(entry)
        if cond is not None:
            entry["condition_text"] = condition_text(condition_to_json(cond))
        if cond != before:  # a threshold moved: a new revision of the rule
            entry["revision"] = int(entry.get("revision", 1)) + 1
        rule_entries.append(entry)
    payload = dict(old)
    payload["rules"] = rule_entries
    payload["boxes"] = box_section(rule_boxes, param_pos)
    payload["cnf"] = cnf_section(cnf, n_kept, param_pos)
    payload["graph"] = graph_section(graph)
    if refined is not None:
        meta = dict(old["meta"])
        fingerprint = hashlib.sha256(repr((meta.get("sources"), rule_entries, __version__,
                                           refined)).encode())
        meta.update(compiler=f"rulec {__version__}", bundle_id=fingerprint.hexdigest()[:16],
                    refined=refined)
        payload["meta"] = meta
    return payload


def _rule_objects(old: dict[str, Any], conditions: list[Condition | None]) -> list[Rule]:
    """Rule objects carrying what build_cnf and build_graph read, bundle rules first."""
    rules = []
    for entry, cond in zip(old["rules"], conditions, strict=True):
        actions = tuple(entry["action"].split(" / ")) if entry["kind"] == "exclusion" else ()
        rules.append(Rule(entry["id"], entry["kind"], entry["source"], entry["severity"],
                          cond, entry["action"], actions, template=entry["template"]))
    for proc in old["procedures"]:
        steps = tuple(Step(s["text"], s["source"]) for s in proc["steps"])
        rules.append(Rule(proc["id"], "procedure", proc["source"], title=proc["title"],
                          steps=steps))
    return rules


def _parameter_table(old: dict[str, Any]) -> ParameterTable:
    table = ParameterTable()
    for p in old["parameters"]:
        table.add(ParameterInfo(p["name"], tuple(p["aliases"]), p["unit"] or None))
    return table


def _descriptive(graph: dict[str, Any]) -> list[Statement]:
    """The descriptive statements behind the graph's `statement` nodes (file:line), with
    the text of their `says` edge when they name a parameter."""
    import numpy as np

    nodes = graph["nodes"]
    indptr = np.frombuffer(graph["indptr"], dtype="<i4")
    indices = np.frombuffer(graph["indices"], dtype="<i4")
    etype = np.frombuffer(graph["etype"], dtype="u1")
    says = graph["edge_types"].index("says") if "says" in graph["edge_types"] else -1
    out = []
    for u, node in enumerate(nodes):
        if node["kind"] != "statement":
            continue
        file, _, line = node["label"].rpartition(":")
        text = ""
        for e in range(int(indptr[u]), int(indptr[u + 1])):
            if int(etype[e]) == says:
                text = nodes[int(indices[e])]["label"]
        out.append(Statement(file, int(line) if line.isdigit() else 0, text, "sentence"))
    return out
