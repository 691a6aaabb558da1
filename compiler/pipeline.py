"""The compile pipeline, stage by stage: read -> extract -> build.

``STAGES`` names them in order.  Each stage takes the frozen output of the one before and
returns a new frozen one; nothing edits a result after it is returned:

- read (``read_sources``): folders, manuals and reviewed-rule files -> ``Sources``
  (documents with their statement views, the merged sensors manifest);
- extract (``extract_rules``): ``Sources`` -> ``CompileResult`` (rule objects, descriptive
  statements, problems), offline, by the LLM or both;
- build (``build``): ``CompileResult`` -> ``Compiled`` (the bundle payload, the rules it
  holds, the problems of rules that could not be built) through ``build.payload``.

``compile_sources`` runs all three; ``collect_rules`` runs the first two (``rulec
extract``); ``build_payload`` is the payload of the third.  A source is a folder (its
manuals, and its sensors.toml for the documents in it), a single manual, or a JSON-lines
file of reviewed rule objects.  File paths in provenance are relative to the folder
given.  Everything derived is deterministic: the same sources give the same bundle, byte
for byte.  Writing the bundle is ``build.writer``'s job.
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulec.compiler.build.payload import assemble
from rulec.compiler.extract.offline import (
    NEEDS_REVIEW,
    Extraction,
    IdSet,
    Problem,
    atoms_of,
    extract,
    statement_key,
)
from rulec.compiler.model.manifest import Manifest, Parameter, load_manifest
from rulec.compiler.model.parameters import ParameterInfo, ParameterTable
from rulec.compiler.model.rules import Rule, loads_rules
from rulec.compiler.read.statements import Statement, read_document_text
from rulec.compiler.read.views import DOCUMENT_SUFFIXES, DocumentViews, build_views
from rulec.runtime.errors import DocumentError, ManifestError, RuleSchemaError

if TYPE_CHECKING:
    from rulec.compiler.llm.client import ChunkInput, LlmConfig
    from rulec.compiler.llm.fidelity import Rejection
    from rulec.compiler.llm.merge import Disagreement

MANIFEST_NAME = "sensors.toml"
RULES_SUFFIX = ".jsonl"


STAGES = ("read", "extract", "build")


@dataclass(frozen=True)
class Document:
    """One file read: its path, its path in provenance, its digest and, for a manual, its
    statement views (None for a reviewed-rules file or an empty manual)."""

    path: Path
    rel: str
    sha256: str
    views: DocumentViews | None = None
    rules: tuple[Rule, ...] = ()  # a reviewed-rules .jsonl: its rule objects
    problems: tuple[Problem, ...] = ()  # notes of reading ("empty document skipped")


@dataclass(frozen=True)
class Sources:
    """The read stage's output: every document in order and the merged sensors manifest."""

    documents: tuple[Document, ...]
    manifest: Manifest | None


@dataclass(frozen=True)
class CompileResult:
    """The extract stage's output: rule objects and what else the statements were."""

    rules: tuple[Rule, ...]
    descriptive: tuple[Statement, ...]
    problems: tuple[Problem, ...]
    documents: tuple[Document, ...]
    params: ParameterTable
    manifest: Manifest | None
    descriptive_reasons: dict[str, str] = field(default_factory=dict)  # by statement_key
    rejected: tuple[Rejection, ...] = ()  # refused by the fidelity filter
    disagreements: tuple[Disagreement, ...] = ()  # --extractor both
    llm_requests: int = 0
    llm_cache_hits: int = 0

    @property
    def errors(self) -> list[Problem]:
        """What `--strict` fails on: statements unreadable or needing review."""
        return [p for p in self.problems if p.fatal]

    def of_kind(self, kind: str) -> list[Problem]:
        return [p for p in self.problems if p.kind == kind]

    def descriptive_reason(self, st: Statement) -> str:
        return self.descriptive_reasons.get(statement_key(st), "")


@dataclass(frozen=True)
class Compiled(CompileResult):
    """The build stage's output: the extraction with the rules the bundle holds, the
    problems of rules that could not be built added, and the payload."""

    payload: dict[str, Any] = field(default_factory=dict)


def compile_sources(sources: list[Path], created_from: str, extractor: str = "offline",
                    llm: LlmConfig | None = None,
                    progress: Callable[[str], None] | None = None,
                    amend: Callable[[CompileResult], CompileResult] | None = None) -> Compiled:
    """Every stage, in ``STAGES`` order; ``progress`` hears a line as each stage ends.
    ``amend`` changes the extraction before the build (the review decisions of
    ``rulec compile --decisions``, ``review/decisions.py``)."""
    say = progress or (lambda _line: None)
    started = time.perf_counter()
    read = read_sources(sources)
    size = sum(len(d.views.text) if d.views is not None else 0 for d in read.documents)
    say(f"read {len(read.documents)} document(s), {size / 1e6:.1f} MB "
        f"({time.perf_counter() - started:.1f} s)")
    started = time.perf_counter()
    extracted = extract_rules(read, extractor, llm)
    if amend is not None:
        extracted = amend(extracted)
        _dedupe_ids(extracted.rules)
    say(f"extracted {len(extracted.rules)} rule(s) from {size / 1e6:.1f} MB "
        f"({time.perf_counter() - started:.1f} s)")
    started = time.perf_counter()
    made = build(extracted, created_from)
    say(f"built boxes, clauses and graph of {len(made.rules)} rule(s) "
        f"({time.perf_counter() - started:.1f} s)")
    return made


def collect_rules(sources: list[Path], extractor: str = "offline",
                  llm: LlmConfig | None = None) -> CompileResult:
    """Read every source and extract its rule objects (no bundle yet); `extractor` is
    offline, llm or both (docs/llm-extractor.md), `llm` the endpoint for the latter two."""
    return extract_rules(read_sources(sources), extractor, llm)


def build_payload(result: CompileResult, created_from: str) -> dict[str, Any]:
    """The bundle payload of an extraction (the build stage, for callers that need only
    the payload)."""
    return build(result, created_from).payload


def build(result: CompileResult, created_from: str) -> Compiled:
    """The build stage: boxes, CNF, graph and procedures into a payload."""
    made = assemble(result.rules, result.descriptive, result.params, result.manifest,
                    [(d.rel, d.sha256) for d in result.documents if d.sha256], created_from)
    fields = {f.name: getattr(result, f.name) for f in dataclasses.fields(CompileResult)}
    fields.update(rules=made.rules, problems=(*result.problems, *made.problems),
                  params=made.params, payload=made.payload)
    return Compiled(**fields)


def read_sources(sources: list[Path]) -> Sources:
    """The read stage: find the documents and manifests, read every document."""
    manifests: list[Path] = []
    inputs: list[tuple[Path, Path]] = []  # (file, folder its provenance is relative to)
    outside: list[tuple[Path, Path]] = []  # links in a folder to files outside it: not read
    for src in sources:
        if src.is_dir():
            found = src / MANIFEST_NAME
            if found.is_file():
                manifests.append(found)
            root = src.resolve()
            for path in sorted(p for p in src.rglob("*") if p.is_file()):
                suffix = path.suffix.lower()
                if suffix not in DOCUMENT_SUFFIXES and suffix != RULES_SUFFIX:
                    continue
                if not path.resolve().is_relative_to(root):
                    outside.append((path, src))
                    continue
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
    if not inputs and not outside:
        names = ", ".join(str(s) for s in sources)
        raise DocumentError(f"{names}: no manuals found (.txt, .md, .pdf or rules .jsonl)")
    manifest = merge_manifests(manifests)
    documents: list[Document] = [_link_not_read(path, base) for path, base in outside]
    for path, base in inputs:
        rel = path.relative_to(base).as_posix()
        raw = path.read_bytes() if path.is_file() else b""
        digest = hashlib.sha256(raw).hexdigest()
        if path.suffix.lower() == RULES_SUFFIX:
            loaded = loads_rules(read_document_text(path), rel)
            documents.append(Document(path, rel, digest, rules=tuple(loaded)))
            continue
        try:
            views = build_views(path, rel)
        except DocumentError as exc:
            if "empty document" not in str(exc):
                raise
            skipped = Problem(rel, 1, "empty document skipped", "", fatal=False)
            documents.append(Document(path, rel, digest, problems=(skipped,)))
            continue
        documents.append(Document(path, rel, digest, views))
    return Sources(tuple(documents), manifest)


def _link_not_read(path: Path, base: Path) -> Document:
    """A symbolic link that leads out of its source folder is listed, never read: a folder
    of manuals must not pull in whatever a link points at (/etc/passwd)."""
    rel = path.relative_to(base).as_posix()
    note = Problem(rel, 1, "a link to a file outside the source folder; not read "
                   "(name the file itself to compile it)", "", fatal=False)
    return Document(path, rel, "", problems=(note,))


def extract_rules(read: Sources, extractor: str = "offline",
                  llm: LlmConfig | None = None) -> CompileResult:
    """The extract stage: rule objects from every document, by the chosen extractor."""
    params = parameter_table(read.manifest)
    rules: list[Rule] = []
    descriptive: list[Statement] = []
    reasons: dict[str, str] = {}
    problems: list[Problem] = _declared_unit_notes(read.manifest)
    used_ids: set[str] = IdSet()
    chunks: list[ChunkInput] = []
    for document in read.documents:
        problems.extend(document.problems)
        if document.views is None:
            for rule in document.rules:
                used_ids.add(rule.id)
                if params.infer and rule.condition is not None:
                    for atom in atoms_of(rule.condition):
                        if atom.param not in params.params:
                            params.add(ParameterInfo(atom.param, (atom.label,) if
                                                     atom.label else ()))
            rules.extend(document.rules)
            continue
        statements = document.views.statements
        if extractor != "llm":
            found: Extraction = extract(statements, params, used_ids)
            rules.extend(found.rules)
            descriptive.extend(found.descriptive)
            reasons.update(found.reasons)
            problems.extend(found.problems)
        if extractor != "offline":
            from rulec.compiler.llm.client import chunk_statements

            chunks.extend(chunk_statements(document.rel, statements))
    result = CompileResult(tuple(rules), tuple(descriptive), tuple(problems), read.documents,
                           params, read.manifest, reasons)
    if extractor != "offline":
        result = _extract_with_llm(result, chunks, extractor, llm, used_ids)
    _dedupe_ids(result.rules)
    return result


def _extract_with_llm(result: CompileResult, chunks: list[ChunkInput], extractor: str,
                      config: LlmConfig | None, used_ids: set[str]) -> CompileResult:
    """Ask the LLM (docs/llm-extractor.md); `both` merges with the offline rules."""
    from rulec.compiler.llm.client import LlmConfigError, extract_with_llm
    from rulec.compiler.llm.merge import merge

    if config is None:
        raise LlmConfigError(f"--extractor {extractor} needs an LLM configuration")
    ids = used_ids if extractor == "llm" else set(used_ids)  # `both`: merge keeps ids unique
    got = extract_with_llm(chunks, result.params, config, used_ids=ids)
    done = dataclasses.replace(
        result, problems=(*result.problems, *got.problems), rejected=tuple(got.rejected),
        llm_requests=got.requests, llm_cache_hits=got.cache_hits)
    if extractor == "llm":
        return dataclasses.replace(done, rules=(*done.rules, *got.rules),
                                   descriptive=(*done.descriptive, *got.descriptive))
    units = {name: info.unit_symbol for name, info in result.params.params.items()}
    merged = merge(list(result.rules), got.rules, param_units=units)
    taken = {(r.source.get("file"), r.source.get("line")) for r in merged.from_llm}
    return dataclasses.replace(
        done, rules=tuple(merged.rules), disagreements=tuple(merged.disagreements),
        descriptive=tuple(st for st in done.descriptive if (st.file, st.line) not in taken))


def _declared_unit_notes(manifest: Manifest | None) -> list[Problem]:
    """Each manifest unit rulec does not know and took as declared, listed for review (a
    typo of a known unit is one: "psig2"), so that ``--strict`` fails on it."""
    from rulec.compiler.model.units import is_declared, unit_suggestion

    if manifest is None:
        return []
    return [Problem(Path(p.source).name, p.line or 0,
                    f"unit {p.unit_text!r} of {p.name} is not one rulec knows"
                    f"{unit_suggestion(p.unit_text)}: its numbers are compared as written, "
                    "never converted", f"unit = {p.unit_text!r}", kind=NEEDS_REVIEW)
            for p in manifest.values() if is_declared(p.unit)]


def merge_manifests(paths: list[Path]) -> Manifest | None:
    """The sensors manifests of several folders as one; a parameter must keep its unit."""
    if not paths:
        return None
    merged: dict[str, Parameter] = {}
    inhibits: list[tuple[str, str, str]] = []
    for path in paths:
        loaded = load_manifest(path)
        inhibits.extend(i for i in loaded.inhibits if i not in inhibits)
        for name, param in loaded.items():
            other = merged.get(name)
            if other is not None and other.unit_text != param.unit_text:
                raise ManifestError(
                    f"{path}: parameter {name!r} is in {param.unit_text} here but in "
                    f"{other.unit_text} in {other.source}")
            if other is not None and other.states != param.states:
                raise ManifestError(
                    f"{path}: parameter {name!r} has states {list(param.states)} here but "
                    f"{list(other.states)} in {other.source}")
            merged.setdefault(name, param)
    return Manifest(merged, str(paths[0]), tuple(inhibits))


def parameter_table(manifest: Manifest | None) -> ParameterTable:
    """The parameters of a manifest and their aliases; without one, inferred from text."""
    table = ParameterTable(infer=manifest is None)
    if manifest is not None:
        for param in manifest.values():
            table.add(ParameterInfo(param.name, tuple(param.aliases), param.unit_text,
                                    states=param.states, phrases=dict(param.phrases),
                                    phase=param.phase))
    return table


def _dedupe_ids(rules: tuple[Rule, ...]) -> None:
    seen: dict[str, Rule] = {}
    for rule in rules:
        if rule.id in seen:
            other = seen[rule.id]
            raise RuleSchemaError(
                f"{rule.source.get('file')}:{rule.source.get('line')}: rule id {rule.id} is "
                f"already used by {other.source.get('file')}:{other.source.get('line')}")
        seen[rule.id] = rule


