"""The build stage: rule objects -> the bundle's payload (boxes, CNF, graph, procedures).

Pure: it reads the extraction and returns a new ``Assembly``; the extraction, its
parameter table included, is left as it was.  The section builders are public because
``rulec refine`` rebuilds the same sections around moved thresholds.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rulec.compiler.build.boxes import Box, ThresholdConverter, boxes_of, to_float_bounds
from rulec.compiler.build.cnf import Cnf, atom_arrays, build_cnf
from rulec.compiler.build.graph import EDGE_TYPES, Graph, build_graph
from rulec.compiler.extract.offline import Problem, atoms_of
from rulec.compiler.model.manifest import Manifest
from rulec.compiler.model.parameters import ParameterTable
from rulec.compiler.model.rules import Rule, condition_to_json
from rulec.compiler.read.statements import Statement
from rulec.compiler.version import __version__
from rulec.runtime.errors import RuleSchemaError, UnitError
from rulec.runtime.vocabulary import PROCEDURE, time_in_state_of

FORMAT = 1  # meta.format: the payload layout of docs/bundle-format.md


@dataclass(frozen=True)
class Assembly:
    """What the build stage made: the payload, the rules it holds (firing rules whose
    boxes could be built, then procedures), the rules it could not build (as problems)
    and the parameter table with the units the thresholds gave inferred parameters."""

    payload: dict[str, Any]
    rules: tuple[Rule, ...]
    problems: tuple[Problem, ...]
    params: ParameterTable


def box_section(rule_boxes: list[list[Box]], param_pos: dict[str, int]) -> dict[str, bytes]:
    """The bundle's `boxes` section: box i belongs to rule `rule[i]`, its constraints are
    `start[i]:start[i+1]` of `axis`/`lo`/`hi`/`flags` (docs/bundle-format.md)."""
    import numpy as np

    box_rule, box_start, axis, lo, hi, flags = [], [0], [], [], [], []
    for rule_index, boxes in enumerate(rule_boxes):
        for box in boxes:
            box_rule.append(rule_index)
            for name, interval in box.bounds:
                low, high, flag = to_float_bounds(interval)
                axis.append(param_pos[name])
                lo.append(low)
                hi.append(high)
                flags.append(flag)
            box_start.append(len(axis))
    return {
        "rule": np.asarray(box_rule, dtype="<i4").tobytes(),
        "start": np.asarray(box_start, dtype="<i4").tobytes(),
        "axis": np.asarray(axis, dtype="<i4").tobytes(),
        "lo": np.asarray(lo, dtype="<f8").tobytes(),
        "hi": np.asarray(hi, dtype="<f8").tobytes(),
        "flags": np.asarray(flags, dtype="u1").tobytes(),
    }


def cnf_section(cnf: Cnf, n_rules: int, param_pos: dict[str, int]) -> dict[str, Any]:
    """The bundle's `cnf` section; clauses of rules past the first `n_rules` (procedures)
    belong to no rule (-1)."""
    import numpy as np

    cnf_start = [0]
    literals: list[int] = []
    for clause in cnf.clauses:
        literals.extend(clause)
        cnf_start.append(len(literals))
    return {
        "variables": cnf.variables,
        "start": np.asarray(cnf_start, dtype="<i4").tobytes(),
        "literals": np.asarray(literals, dtype="<i4").tobytes(),
        "clause_rule": np.asarray(
            [r if r < n_rules else -1 for r in cnf.clause_rule], dtype="<i4").tobytes(),
        "atoms": atom_arrays(cnf, param_pos),
    }


def graph_section(graph: Graph) -> dict[str, Any]:
    """The bundle's `graph` section: typed nodes and CSR edges."""
    indptr, indices, etype = graph.csr()
    return {
        "nodes": graph.nodes,
        "edge_types": list(EDGE_TYPES),
        "indptr": indptr.tobytes(),
        "indices": indices.tobytes(),
        "etype": etype.tobytes(),
    }


def assemble(rules: Sequence[Rule], descriptive: Sequence[Statement], params: ParameterTable,
             manifest: Manifest | None, sources: Iterable[tuple[str, str]],
             created_from: str) -> Assembly:
    """Everything the bundle holds, from the rule objects: boxes, CNF, graph, procedures.
    ``sources`` are (file, sha256) of the documents read, for provenance."""
    params = copy.deepcopy(params)
    for rule in rules:  # times in state a reviewed rule names, before any unit is adopted
        for atom in atoms_of(rule.condition) if rule.condition is not None else ():
            of = time_in_state_of(atom.param)
            if of is not None and of in params.params and params.params[of].states:
                params.time_in_state(of)
    conv = ThresholdConverter.of_table(params)
    firing = [r for r in rules if r.kind != PROCEDURE]
    procedures = [r for r in rules if r.kind == PROCEDURE]
    problems: list[Problem] = []
    # Boxes first: they adopt units for inferred parameters and check every atom's unit.
    rule_boxes: list[list[Any]] = []
    kept: list[Rule] = []
    for rule in firing:
        if rule.condition is None:
            kept.append(rule)
            rule_boxes.append([])
            continue
        for atom in atoms_of(rule.condition):
            if atom.param not in params.params:
                raise RuleSchemaError(
                    f"{rule.source.get('file')}:{rule.source.get('line')}: rule {rule.id} "
                    f"uses unknown parameter {atom.param!r}")
        try:
            boxes = boxes_of(rule.condition, conv)
        except (UnitError, ValueError) as exc:
            problems.append(Problem(str(rule.source.get("file")),
                                    int(rule.source.get("line", 1)), str(exc),
                                    str(rule.source.get("text", ""))))
            continue
        kept.append(rule)
        rule_boxes.append(boxes)
    for name, unit in conv.units.items():
        params.params[name].unit_symbol = unit
    names = list(params.params)
    param_pos = {name: i for i, name in enumerate(names)}
    cnf = build_cnf([*kept, *procedures], conv)
    graph = build_graph([*kept, *procedures], list(descriptive), params, conv)
    payload: dict[str, Any] = {
        "meta": {},
        "parameters": [_parameter_entry(name, params, manifest) for name in names],
        "rules": [_rule_entry(rule, manifest, params) for rule in kept],
        "boxes": box_section(rule_boxes, param_pos),
        "cnf": cnf_section(cnf, len(kept), param_pos),
        "graph": graph_section(graph),
        "procedures": [_procedure_entry(p) for p in procedures],
    }
    provenance = [{"file": file, "sha256": digest} for file, digest in sources]
    fingerprint = hashlib.sha256(repr((provenance, _behaviour(payload), __version__)).encode())
    payload["meta"] = {
        "compiler": f"rulec {__version__}",
        "format": FORMAT,
        "bundle_id": fingerprint.hexdigest()[:16],
        "sources": provenance,
        "created_from": created_from,
        "units": unit_table([*(u for r in kept if r.condition is not None
                               for u in (a.unit for a in atoms_of(r.condition)) if u),
                             *(p["unit"] for p in payload["parameters"] if p["unit"])]),
    }
    return Assembly(payload, (*kept, *procedures), tuple(problems), params)


def unit_table(symbols: Iterable[str]) -> dict[str, list[str]]:
    """``meta.units``: the exact affine map of every unit the bundle writes, so the loader
    can derive the boxes from the rule objects again (runtime/bundle/derive.py)."""
    from rulec.compiler.model.units import parse_unit

    table = {}
    for symbol in sorted(set(symbols)):
        unit = parse_unit(symbol)
        table[symbol] = [unit.dimension, str(unit.scale), str(unit.offset)]
    return table


def _behaviour(payload: dict[str, Any]) -> tuple[Any, ...]:
    """Every section that changes what the bundle raises: two bundles that behave
    differently (a range, a unit, ``max_age_s`` or a deadband from sensors.toml, not only
    the rules) never share a bundle id."""
    return tuple(payload[k] for k in ("parameters", "rules", "boxes", "cnf", "graph",
                                      "procedures"))


def _parameter_entry(name: str, params: ParameterTable, manifest: Manifest | None
                     ) -> dict[str, Any]:
    info = params.params[name]
    if info.time_in_state_of is not None:  # derived by the engine, never sent
        return {"name": name, "unit": "s", "aliases": [], "range": None, "deadband": 0.0,
                "max_age_s": None, "channel": None, "time_in_state_of": info.time_in_state_of}
    spec = manifest.get(name) if manifest is not None else None
    entry: dict[str, Any] = {
        "name": name,
        "unit": info.unit_symbol or "",
        "aliases": sorted(set(info.aliases) | {name.replace("_", " ")}),
        "range": [float(spec.range[0]), float(spec.range[1])] if spec and spec.range else None,
        "deadband": float(spec.deadband) if spec else 0.0,
        "max_age_s": float(spec.max_age_s) if spec and spec.max_age_s is not None else None,
        "channel": spec.channel if spec else None,
    }
    if info.states:  # the manifest gave it no unit, deadband 0 and range [0, n-1]
        entry["states"] = list(info.states)
    return entry


def _rule_entry(rule: Rule, manifest: Manifest | None = None,
                params: ParameterTable | None = None) -> dict[str, Any]:
    action = rule.action if rule.kind != "exclusion" else " / ".join(rule.actions)
    condition = condition_to_json(rule.condition) if rule.condition is not None else None
    entry = _rule_fields(rule, action, condition)
    inhibit = inhibits_of(rule, manifest, params)
    if inhibit:
        entry["inhibit"] = inhibit
    return entry


def inhibits_of(rule: Rule, manifest: Manifest | None, params: ParameterTable | None
                ) -> list[dict[str, Any]]:
    """The phases that hold a rule's raise: its own (from its text or rule object) and the
    manifest's [inhibit] entries that name its severity or id; one entry per phase
    parameter, states in index order."""
    if rule.kind not in ("if_then", "constraint"):
        return []
    held: dict[str, set[str]] = {}
    if rule.inhibit is not None:
        held.setdefault(rule.inhibit[0], set()).update(rule.inhibit[1])
    for phase, state, entry in (manifest.inhibits if manifest is not None else ()):
        if entry in (rule.severity, rule.id):
            held.setdefault(phase, set()).add(state)
    out = []
    where = f"{rule.source.get('file')}:{rule.source.get('line')}: rule {rule.id}"
    for phase, states in held.items():
        info = params.params.get(phase) if params is not None else None
        if info is None or not info.states:
            raise RuleSchemaError(f"{where} is inhibited by {phase!r}, not a discrete "
                                  "parameter")
        unknown = sorted(states - set(info.states))
        if unknown:
            raise RuleSchemaError(f"{where} is inhibited in {unknown[0]!r}, not a state of "
                                  f"{phase} ({', '.join(info.states)})")
        out.append({"param": phase, "states": [s for s in info.states if s in states]})
    return out


def _rule_fields(rule: Rule, action: str, condition: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "id": rule.id,
        "kind": rule.kind,
        "severity": rule.severity,
        "action": action,
        "template": rule.template or ("Do not " + " and ".join(rule.actions) + " at the same time"
                                      if rule.kind == "exclusion" else ""),
        "condition_text": condition_text(condition),
        "duration_s": float(rule.duration_s) if rule.duration_s is not None else None,
        "duration_inclusive": rule.duration_inclusive,
        "source": rule.source,
    }


def condition_text(cond: dict[str, Any] | None) -> str:
    """A condition's JSON form as the bundle's ``condition_text`` (read back by refine)."""
    if cond is None:
        return ""
    if "all" in cond:
        return "(" + " and ".join(condition_text(c) for c in cond["all"]) + ")"
    if "any" in cond:
        return "(" + " or ".join(condition_text(c) for c in cond["any"]) + ")"
    if "not" in cond:
        return "not " + condition_text(cond["not"])
    if "state" in cond:
        return f"{cond['param']} == {cond['state']}"
    if "states" in cond:
        return f"{cond['param']} in [{', '.join(cond['states'])}]"
    value = cond["value"]
    shown = f"[{value[0]}, {value[1]}]" if isinstance(value, list) else str(value)
    unit = f" {cond['unit']}" if cond.get("unit") else ""
    return f"{cond['param']} {cond['op']} {shown}{unit}"


def _procedure_entry(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.id,
        "title": rule.title,
        "source": rule.source,
        "steps": [{"text": s.text, "source": s.source} for s in rule.steps],
    }
