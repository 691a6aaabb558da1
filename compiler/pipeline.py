"""The compile pipeline: sources -> statements -> rule objects -> bundle payload.

A source is a folder (its manuals, and its sensors.toml for the documents in
it), a single manual, or a JSON-lines file of reviewed rule objects.  File paths
in provenance are relative to the folder given.  Everything derived is
deterministic: the same sources give the same bundle, byte for byte.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulec.compiler import __version__
from rulec.compiler.build.boxes import Box, ThresholdConverter, boxes_of, to_float_bounds
from rulec.compiler.build.cnf import Cnf, atom_arrays, build_cnf
from rulec.compiler.build.graph import EDGE_TYPES, Graph, build_graph
from rulec.compiler.extract.offline import Extraction, Problem, atoms_of, extract
from rulec.compiler.model.manifest import Manifest, Parameter, load_manifest
from rulec.compiler.model.parameters import ParameterInfo, ParameterTable
from rulec.compiler.model.rules import Rule, loads_rules
from rulec.compiler.read.statements import Statement, read_document_text
from rulec.compiler.read.views import DOCUMENT_SUFFIXES, DocumentViews, build_views
from rulec.runtime.errors import DocumentError, ManifestError, RuleSchemaError, UnitError

if TYPE_CHECKING:
    from rulec.compiler.llm.client import ChunkInput, LlmConfig
    from rulec.compiler.llm.fidelity import Rejection
    from rulec.compiler.llm.merge import Disagreement

MANIFEST_NAME = "sensors.toml"
RULES_SUFFIX = ".jsonl"


@dataclass
class Document:
    path: Path
    rel: str
    sha256: str
    views: DocumentViews | None = None


@dataclass
class CompileResult:
    rules: list[Rule] = field(default_factory=list)
    descriptive: list[Statement] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    documents: list[Document] = field(default_factory=list)
    params: ParameterTable = field(default_factory=ParameterTable)
    manifest: Manifest | None = None
    payload: dict[str, Any] = field(default_factory=dict)
    rejected: list[Rejection] = field(default_factory=list)  # refused by the fidelity filter
    disagreements: list[Disagreement] = field(default_factory=list)  # --extractor both
    llm_requests: int = 0
    llm_cache_hits: int = 0

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.fatal]


def collect_rules(sources: list[Path], extractor: str = "offline",
                  llm: LlmConfig | None = None) -> CompileResult:
    """Read every source and extract its rule objects (no bundle yet); `extractor` is
    offline, llm or both (docs/llm-extractor.md), `llm` the endpoint for the latter two."""
    result = CompileResult()
    manifests: list[Path] = []
    inputs: list[tuple[Path, Path]] = []  # (file, folder its provenance is relative to)
    for src in sources:
        if src.is_dir():
            manifest = src / MANIFEST_NAME
            if manifest.is_file():
                manifests.append(manifest)
            for path in sorted(p for p in src.rglob("*") if p.is_file()):
                suffix = path.suffix.lower()
                if suffix in DOCUMENT_SUFFIXES or suffix == RULES_SUFFIX:
                    inputs.append((path, src))
        elif src.is_file():
            suffix = src.suffix.lower()
            if suffix not in DOCUMENT_SUFFIXES and suffix != RULES_SUFFIX:
                raise DocumentError(f"{src}: unsupported file type {suffix or '(none)'!r}; "
                                    "expected .txt, .md, .pdf or rules .jsonl")
            beside = src.parent / MANIFEST_NAME
            if beside.is_file() and beside not in manifests:
                manifests.append(beside)
            inputs.append((src, src.parent))
        else:
            raise DocumentError(f"{src}: no such file or folder")
    if not inputs:
        names = ", ".join(str(s) for s in sources)
        raise DocumentError(f"{names}: no manuals found (.txt, .md, .pdf or rules .jsonl)")
    result.manifest = _merge_manifests(manifests)
    result.params = _parameter_table(result.manifest)
    used_ids: set[str] = set()
    chunks: list[ChunkInput] = []
    for path, base in inputs:
        rel = path.relative_to(base).as_posix()
        raw = path.read_bytes() if path.is_file() else b""
        result.documents.append(Document(path, rel, hashlib.sha256(raw).hexdigest()))
        if path.suffix.lower() == RULES_SUFFIX:
            text = read_document_text(path)
            loaded = loads_rules(text, rel)
            for rule in loaded:
                used_ids.add(rule.id)
                if result.params.infer and rule.condition is not None:
                    for atom in atoms_of(rule.condition):
                        if atom.param not in result.params.params:
                            result.params.add(ParameterInfo(atom.param, (atom.label,) if
                                                            atom.label else ()))
            result.rules.extend(loaded)
            continue
        try:
            views = build_views(path, rel)
        except DocumentError as exc:
            if "empty document" not in str(exc):
                raise
            result.problems.append(Problem(rel, 1, "empty document skipped", "", fatal=False))
            continue
        result.documents[-1].views = views
        statements = views.statements
        if extractor != "llm":
            found: Extraction = extract(statements, result.params, used_ids)
            result.rules.extend(found.rules)
            result.descriptive.extend(found.descriptive)
            result.problems.extend(found.problems)
        if extractor != "offline":
            from rulec.compiler.llm.client import chunk_statements

            chunks.extend(chunk_statements(rel, statements))
    if extractor != "offline":
        _extract_with_llm(result, chunks, extractor, llm, used_ids)
    _dedupe_ids(result)
    return result


def _extract_with_llm(result: CompileResult, chunks: list[ChunkInput], extractor: str,
                      config: LlmConfig | None, used_ids: set[str]) -> None:
    """Ask the LLM (docs/llm-extractor.md); `both` merges with the offline rules."""
    from rulec.compiler.llm.client import LlmConfigError, extract_with_llm
    from rulec.compiler.llm.merge import merge

    if config is None:
        raise LlmConfigError(f"--extractor {extractor} needs an LLM configuration")
    ids = used_ids if extractor == "llm" else set(used_ids)  # `both`: merge keeps ids unique
    got = extract_with_llm(chunks, result.params, config, used_ids=ids)
    result.problems.extend(got.problems)
    result.rejected.extend(got.rejected)
    result.llm_requests, result.llm_cache_hits = got.requests, got.cache_hits
    if extractor == "llm":
        result.rules.extend(got.rules)
        result.descriptive.extend(got.descriptive)
        return
    units = {name: info.unit_symbol for name, info in result.params.params.items()}
    merged = merge(result.rules, got.rules, param_units=units)
    result.rules = merged.rules
    result.disagreements = merged.disagreements
    taken = {(r.source.get("file"), r.source.get("line")) for r in merged.from_llm}
    result.descriptive = [st for st in result.descriptive if (st.file, st.line) not in taken]


def _merge_manifests(paths: list[Path]) -> Manifest | None:
    if not paths:
        return None
    merged: dict[str, Parameter] = {}
    for path in paths:
        for name, param in load_manifest(path).items():
            other = merged.get(name)
            if other is not None and other.unit_text != param.unit_text:
                raise ManifestError(
                    f"{path}: parameter {name!r} is in {param.unit_text} here but in "
                    f"{other.unit_text} in {other.source}")
            merged.setdefault(name, param)
    return Manifest(merged, str(paths[0]))


def _parameter_table(manifest: Manifest | None) -> ParameterTable:
    table = ParameterTable(infer=manifest is None)
    if manifest is not None:
        for param in manifest.values():
            table.add(ParameterInfo(param.name, tuple(param.aliases), param.unit_text))
    return table


def _dedupe_ids(result: CompileResult) -> None:
    seen: dict[str, Rule] = {}
    for rule in result.rules:
        if rule.id in seen:
            other = seen[rule.id]
            raise RuleSchemaError(
                f"{rule.source.get('file')}:{rule.source.get('line')}: rule id {rule.id} is "
                f"already used by {other.source.get('file')}:{other.source.get('line')}")
        seen[rule.id] = rule


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


def build_payload(result: CompileResult, created_from: str) -> dict[str, Any]:
    """Everything the bundle holds, from the rule objects: boxes, CNF, graph, procedures."""

    params = result.params
    units = {name: info.unit_symbol for name, info in params.params.items()}
    conv = ThresholdConverter(units)
    firing = [r for r in result.rules if r.kind != "procedure"]
    procedures = [r for r in result.rules if r.kind == "procedure"]
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
            result.problems.append(Problem(str(rule.source.get("file")),
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
    graph = build_graph([*kept, *procedures], result.descriptive, params, conv)
    result.rules = [*kept, *procedures]
    payload: dict[str, Any] = {
        "meta": {},
        "parameters": [_parameter_entry(name, params, result.manifest) for name in names],
        "rules": [_rule_entry(rule) for rule in kept],
        "boxes": box_section(rule_boxes, param_pos),
        "cnf": cnf_section(cnf, len(kept), param_pos),
        "graph": graph_section(graph),
        "procedures": [_procedure_entry(p) for p in procedures],
    }
    sources = [{"file": d.rel, "sha256": d.sha256} for d in result.documents]
    fingerprint = hashlib.sha256(repr((sources, payload["rules"], __version__)).encode())
    payload["meta"] = {
        "compiler": f"rulec {__version__}",
        "format": 1,
        "bundle_id": fingerprint.hexdigest()[:16],
        "sources": sources,
        "created_from": created_from,
    }
    result.payload = payload
    return payload


def _parameter_entry(name: str, params: ParameterTable, manifest: Manifest | None
                     ) -> dict[str, Any]:
    info = params.params[name]
    spec = manifest.get(name) if manifest is not None else None
    return {
        "name": name,
        "unit": info.unit_symbol or "",
        "aliases": sorted(set(info.aliases) | {name.replace("_", " ")}),
        "range": [float(spec.range[0]), float(spec.range[1])] if spec and spec.range else None,
        "deadband": float(spec.deadband) if spec else 0.0,
        "max_age_s": float(spec.max_age_s) if spec and spec.max_age_s is not None else None,
        "channel": spec.channel if spec else None,
    }


def _rule_entry(rule: Rule) -> dict[str, Any]:
    from rulec.compiler.model.rules import condition_to_json

    action = rule.action if rule.kind != "exclusion" else " / ".join(rule.actions)
    condition = condition_to_json(rule.condition) if rule.condition is not None else None
    return {
        "id": rule.id,
        "kind": rule.kind,
        "severity": rule.severity,
        "action": action,
        "template": rule.template or ("Do not " + " and ".join(rule.actions) + " at the same time"
                                      if rule.kind == "exclusion" else ""),
        "condition_text": _condition_text(condition),
        "duration_s": float(rule.duration_s) if rule.duration_s is not None else None,
        "duration_inclusive": rule.duration_inclusive,
        "source": rule.source,
    }


def _condition_text(cond: dict[str, Any] | None) -> str:
    if cond is None:
        return ""
    if "all" in cond:
        return "(" + " and ".join(_condition_text(c) for c in cond["all"]) + ")"
    if "any" in cond:
        return "(" + " or ".join(_condition_text(c) for c in cond["any"]) + ")"
    if "not" in cond:
        return "not " + _condition_text(cond["not"])
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
