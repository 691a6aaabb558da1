"""The onboard engine: sensor states in, fired rules and advisories out, via three paths.

`evaluate(state)` answers for one state (durations never fire there) and merges what
the paths say: the geometry path (the kernel: which boxes contain the point, and the
comparisons that prove it, or the nearest boundary when nothing fires), the logic path
(CNF entailment and conflicts, ``runtime/logic/path.py``) and the graph path (related rules,
attached statements, conflicting actions, procedures to run).

Which rules *fire*, by the paths switched on (``Engine(bundle, paths=...)``, the
``--paths`` flag; used by the ablation study):
- geometry on: exactly the rules whose box contains the state (the contract's
  semantics; the logic path then only adds evidence, and any rule on which the two
  paths disagree is listed under ``disagreements``);
- geometry off, logic on: the if-then rules that conclude an action the logic path
  entails (``KB and facts and not Q`` unsatisfiable), plus the constraint rules whose
  clauses the facts violate.  This can differ from geometry where classical logic
  splits cases over an unknown parameter (`A unless C` and `A and C` with the same
  action entail it with C absent; geometry fires neither);
- neither: nothing fires; the graph path alone annotates, it never decides.

`step(t, state)` follows a stream and reports raise/clear/fault events: the stream
state and its semantics live in ``runtime/engine/stream.py``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from rulec.runtime.backend import BackendName
from rulec.runtime.bundle.loader import Bundle, load_bundle
from rulec.runtime.engine.advisory import describe_box, render_advisory
from rulec.runtime.engine.procedures import Procedure, ProcedureBook
from rulec.runtime.engine.proof import comparisons, proof
from rulec.runtime.engine.proof import nearest as nearest_boundaries
from rulec.runtime.engine.related import GraphPath
from rulec.runtime.engine.rule_index import RuleIndex
from rulec.runtime.engine.stream import Event, EventStream, inhibited
from rulec.runtime.errors import BundleError, KernelError, StateError
from rulec.runtime.vocabulary import SEVERITY_RANK

if TYPE_CHECKING:
    from rulec.runtime.logic.path import LogicPath, LogicResult

PATHS = ("geometry", "logic", "graph")
NEAREST_LIMIT = 10


def parse_paths(text: str) -> frozenset[str]:
    """``"geometry,logic"`` -> the set of paths; ``all`` means every path."""
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if names == ["all"]:
        return frozenset(PATHS)
    unknown = sorted(set(names) - set(PATHS))
    if unknown or not names:
        raise StateError(f"--paths {text!r}: expected a comma-separated subset of "
                         f"{','.join(PATHS)} (got {', '.join(unknown) or 'nothing'})")
    return frozenset(names)


@dataclass(frozen=True)
class SensorFault:
    parameter: str
    value: float | None
    reason: str  # "not a number", "infinite", "below range", "above range", "stale"

    def to_json(self) -> dict[str, Any]:
        value = None if self.value is None or not math.isfinite(self.value) else self.value
        return {"parameter": self.parameter, "reason": self.reason, "value": value}


@dataclass
class FiredRule:
    id: str
    severity: str
    advisory: str
    source: dict[str, Any]
    evidence: dict[str, Any] = field(default_factory=dict)
    related: list[str] = field(default_factory=list)  # ids, boundary cases first
    procedures: list[str] = field(default_factory=list)  # ids of checklists it starts
    fired_by: list[str] = field(default_factory=list)  # "geometry" and/or "logic"
    revision: int = 1  # > 1: a threshold was moved since the manual's reading

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "severity": self.severity,
            "advisory": self.advisory,
            "source": self.source,
            "fired_by": self.fired_by,
            "evidence": self.evidence,
        }
        if self.revision > 1:
            out["revision"] = self.revision
        if self.related:
            out["related"] = self.related
        if self.procedures:
            out["procedures"] = self.procedures
        return out


@dataclass
class Evaluation:
    """One state's merged answer.

    ``latency_us`` is the whole evaluation; ``path_us`` splits it: ``geometry``
    (containment and proofs), ``logic`` (entailment and its evidence), ``graph``
    (traversal), ``merge`` (conflicts, procedures) and, once computed, ``nearest``.
    ``nearest`` (the geometry path's nearest boundaries) is computed on first use; JSON
    holds it for a rejected state, or when asked for (``evaluate(..., nearest=True)``).
    """

    rules: list[FiredRule]
    sensor_faults: list[SensorFault]
    latency_us: float
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    procedures: list[Procedure] = field(default_factory=list)
    paths: tuple[str, ...] = PATHS
    logic: dict[str, Any] | None = None
    path_us: dict[str, float] = field(default_factory=dict)
    disagreements: dict[str, list[str]] = field(default_factory=dict)
    want_nearest: bool = False
    inhibited: list[str] = field(default_factory=list)  # held by a phase: would fire otherwise
    _nearest: Callable[[], list[dict[str, Any]]] | None = field(
        default=None, repr=False, compare=False)
    _nearest_done: list[dict[str, Any]] | None = field(default=None, repr=False, compare=False)

    @property
    def severity(self) -> str | None:
        """The highest severity among the fired rules (warning > caution > advisory)."""
        if not self.rules:
            return None
        return min((r.severity for r in self.rules), key=SEVERITY_RANK.__getitem__)

    @property
    def nearest(self) -> list[dict[str, Any]]:
        """Per rule not fired, its nearest boundary on the parameters given (geometry)."""
        if self._nearest_done is None:
            started = time.perf_counter()
            self._nearest_done = self._nearest() if self._nearest is not None else []
            self.path_us["nearest"] = round((time.perf_counter() - started) * 1e6, 3)
        return self._nearest_done

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rules": [r.to_json() for r in self.rules],
            "severity": self.severity,
            "conflicts": self.conflicts,
            "procedures": [self._procedure_json(p) for p in self.procedures],
            "sensor_faults": [f.to_json() for f in self.sensor_faults],
        }
        if self._nearest is not None and (self.want_nearest or not self.rules):
            out["nearest"] = self.nearest
        if self.disagreements:
            out["disagreements"] = self.disagreements
        if self.inhibited:
            out["inhibited"] = self.inhibited
        out["paths"] = list(self.paths)
        if self.logic is not None:
            out["logic"] = self.logic
        out["latency_us"] = round(self.latency_us, 3)
        out["path_us"] = self.path_us
        return out

    def _procedure_json(self, proc: Procedure) -> dict[str, Any]:
        out = proc.to_json()
        out["started_by"] = [r.id for r in self.rules if proc.id in r.procedures]
        return out


class Engine:
    """Evaluates states against one validated bundle."""

    def __init__(self, bundle: Bundle, paths: Iterable[str] = PATHS, *,
                 backend: BackendName | None = None) -> None:
        self.bundle = bundle
        self.paths = frozenset(paths)
        unknown = self.paths - set(PATHS)
        if unknown:
            raise ValueError(f"unknown path(s): {', '.join(sorted(unknown))}")
        self.rule_index = rules = RuleIndex(bundle, backend=backend)
        self.n_params = rules.n_params
        self.span = rules.span
        self._index = rules.boxes
        self.backend: BackendName = rules.backend
        self._timed = frozenset(
            r for r, spec in enumerate(bundle.rules) if spec.duration_s is not None)
        self._graph = GraphPath(bundle)
        self._book = ProcedureBook(bundle, self._graph)
        # The logic path is built on first use: a stream with geometry on never needs it.
        self._backend_asked = backend
        self._logic_built: LogicPath | None = None
        self.logic_status = "switched off"
        if "logic" in self.paths:
            self.logic_status = _logic_status(bundle)
            if self.logic_status != "ok" and "geometry" not in self.paths:
                raise BundleError(f"the logic path cannot run ({self.logic_status}), and "
                                  "with geometry off nothing else decides which rules fire")
        self.stream = EventStream(
            bundle, rules, self._stream_fired,
            self._graph if "graph" in self.paths else None)

    @property
    def _logic(self) -> LogicPath:
        """The logic path, built on first use (only when ``logic_status`` is "ok")."""
        if self._logic_built is None:
            self._logic_built = _build_logic(self.bundle, self._backend_asked)
        return self._logic_built

    @property
    def n_boxes(self) -> int:
        return self._index.n_boxes

    def native_index(self) -> Any:
        """The containment index as the C kernel's ``rk_index`` (None on numpy)."""
        return self._index.native_index()

    def rule_axes(self, rule: int) -> frozenset[int]:
        """The parameters a rule's boxes constrain (indexes)."""
        return self.rule_index.rule_axes(rule)

    @classmethod
    def from_file(cls, path: str, paths: Iterable[str] = PATHS, *,
                  backend: BackendName | None = None) -> Engine:
        return cls(load_bundle(path), paths, backend=backend)

    # ------------------------------------------------------------ state handling

    def state_vector(self, state: Mapping[str, Any]) -> tuple[np.ndarray, list[SensorFault]]:
        """Dense values (NaN where absent or invalid) and the faults of invalid values."""
        x = np.full(self.n_params, np.nan)
        faults: list[SensorFault] = []
        for name, raw in state.items():
            index = self.rule_index.param(name)
            value = self.rule_index.value(index, name, raw)
            reason = self.rule_index.invalid(index, value)
            if reason:
                faults.append(SensorFault(self.bundle.parameters[index].name, value, reason))
            else:
                x[index] = value
        return x, faults

    def value_of(self, name: str, raw: Any) -> float:
        """A value as a query, a CSV cell or JSON input gives it (for a discrete parameter
        a state name or index), as the number the rules compare."""
        return self.rule_index.value(self.rule_index.param(name), name, raw)

    def knows(self, name: str) -> bool:
        """Whether a name (or alias) is one of the bundle's parameters."""
        try:
            self.rule_index.param(name)
        except StateError:
            return False
        return True

    # ------------------------------------------------------------ one state

    def evaluate(self, state: Mapping[str, Any], *, nearest: bool = False,
                 nearest_limit: int | None = NEAREST_LIMIT) -> Evaluation:
        """The rules that apply to this state (stateless: durations do not fire), merged
        from the enabled paths.  ``nearest`` asks for the nearest boundaries even when
        rules fire (they are always given for a rejected state)."""
        started = time.perf_counter()
        x, faults = self.state_vector(state)
        timings: dict[str, float] = {}
        by_rule: dict[int, list[int]] = {}
        if "geometry" in self.paths:
            t0 = time.perf_counter()
            by_rule = self.rule_index.match(x)
            timings["geometry"] = _us(t0)
        logic_result: LogicResult | None = None
        logic_fired: set[int] = set()
        if self.logic_status == "ok":
            logic = self._logic  # built on first use, outside the timing
            t0 = time.perf_counter()
            logic_result = logic.evaluate(x)
            logic_fired = self._logic_fired(logic_result)
            timings["logic"] = _us(t0)
        timed = self._timed
        decided = set(by_rule) if "geometry" in self.paths else logic_fired
        rules_spec = self.bundle.rules
        held = {r for r in decided if rules_spec[r].inhibit and inhibited(rules_spec[r], x)}
        fired = self._ordered(decided - timed - held)
        fired_set = set(fired)
        rules = [self._fired(r, x, by_rule.get(r), logic_result, logic_fired, fired_set,
                             timings) for r in fired]
        t0 = time.perf_counter()
        conflicts = self._conflicts(logic_result, fired)
        procedures: list[Procedure] = []
        if "graph" in self.paths:
            for rule in rules:
                for pid in rule.procedures:
                    proc = self._book.get(pid)
                    if proc is not None and proc not in procedures:
                        procedures.append(proc)
        timings["merge"] = _us(t0)
        disagreements: dict[str, list[str]] = {}
        if "geometry" in self.paths and logic_result is not None:
            ids = self.bundle.rules
            only_g = sorted(ids[r].id for r in (set(by_rule) - logic_fired) - timed)
            only_l = sorted(ids[r].id for r in (logic_fired - set(by_rule)) - timed)
            if only_g:
                disagreements["geometry_only"] = only_g
            if only_l:
                disagreements["logic_only"] = only_l
        find_nearest = None
        if "geometry" in self.paths:
            def find_nearest() -> list[dict[str, Any]]:
                found = nearest_boundaries(self.bundle, x, fired_set | held, nearest_limit)
                return [f.to_json(self.bundle) for f in found]
        return Evaluation(
            rules, faults, _us(started), conflicts=conflicts, procedures=procedures,
            paths=tuple(p for p in PATHS if p in self.paths),
            logic=self._logic_summary(logic_result), path_us=timings,
            disagreements=disagreements, want_nearest=nearest, _nearest=find_nearest,
            inhibited=[rules_spec[r].id for r in self._ordered(held - timed)])

    def procedure(self, query: str) -> list[Procedure]:
        """Procedures whose title or starting rule's action holds every word of the query
        (case-insensitive whole words), title matches first; steps in order."""
        return self._book.find(query)

    def procedures(self) -> list[Procedure]:
        return self._book.all()

    def _ordered(self, rules: Iterable[int]) -> list[int]:
        """Most severe first, then in bundle order."""
        specs = self.bundle.rules
        return sorted(rules, key=lambda r: (SEVERITY_RANK[specs[r].severity], r))

    def _fired(self, r: int, x: np.ndarray, boxes: list[int] | None,
               logic: LogicResult | None, logic_fired: set[int], fired: set[int],
               timings: dict[str, float]) -> FiredRule:
        """One fired rule with its advisory and each path's evidence (``timings`` gets
        each path's share of the work)."""
        spec = self.bundle.rules[r]
        shown = boxes or self._containing(r, x)
        words = describe_box(self.bundle, shown[0], x) if shown else spec.condition_text
        evidence: dict[str, Any] = {}
        fired_by = []
        if boxes:
            t0 = time.perf_counter()
            fired_by.append("geometry")
            evidence["geometry"] = [describe_box(self.bundle, b, x, symbolic=True)
                                    for b in boxes]
            evidence["geometry_proof"] = proof(self.bundle, boxes, x)
            timings["geometry"] = round(timings.get("geometry", 0.0) + _us(t0), 3)
        if logic is not None:
            t0 = time.perf_counter()
            if r in logic_fired:
                fired_by.append("logic")
            evidence["logic"] = self._logic_evidence(r, logic)
            timings["logic"] = round(timings.get("logic", 0.0) + _us(t0), 3)
        related: list[str] = []
        procedures: list[str] = []
        if "graph" in self.paths:
            t0 = time.perf_counter()
            evidence["graph"] = self._graph.evidence(r, fired)
            related = self._graph.related_ids(r)
            procedures = self._graph.procedures_started_by(r)
            timings["graph"] = round(timings.get("graph", 0.0) + _us(t0), 3)
        return FiredRule(spec.id, spec.severity, render_advisory(self.bundle, spec, words, x),
                         spec.source, evidence, related, procedures, fired_by, spec.revision)

    def _containing(self, rule: int, x: np.ndarray) -> list[int]:
        """The rule's boxes containing x, checked here (for wording when geometry is off)."""
        return [b for b in self.rule_index.boxes_of(rule)
                if all(c.holds for c in comparisons(self.bundle, b, x))]

    # ------------------------------------------------------------ logic path hook

    def _logic_fired(self, result: LogicResult) -> set[int]:
        """Rules the logic path fires: if-then rules concluding an entailed action, and
        constraints whose clauses the state violates (set aside as conflicts)."""
        rules = self.bundle.rules
        fired = {r for r in result.rules if rules[r].kind == "if_then"}
        owner = self.bundle.cnf.clause_rule
        for c in result.dropped:
            r = int(owner[c])
            if r >= 0 and rules[r].kind == "constraint":
                fired.add(r)
        return fired

    def _logic_evidence(self, r: int, result: LogicResult) -> dict[str, Any]:
        found = result.rule_evidence(r)
        if found is not None:
            return {"entailed": True, **found}
        for c in result.conflicts:
            if c.kind == "constraint" and c.rules and c.rules[0] == r:
                return {"violated": True, "message": c.message,
                        "facts": [self._logic.literal_text(f) for f in c.facts]}
        return {"entailed": False}

    def _logic_summary(self, result: LogicResult | None) -> dict[str, Any] | None:
        if "logic" not in self.paths:
            return None
        if result is None:
            return {"available": False, "reason": self.logic_status}
        js = result.to_json(chains=False)
        return {"available": True, "consistent": js["consistent"],
                "entailed": [e["action"] for e in js["entailed"]],
                "solver_calls": js["solver_calls"]}

    def _conflicts(self, logic: LogicResult | None, fired: list[int]) -> list[dict[str, Any]]:
        """Conflicts from the logic path and the graph path, merged (same exclusion or
        the same violated rule once, with the paths that found it)."""
        found: list[tuple[str, dict[str, Any]]] = []
        if logic is not None:
            found += [("logic", c) for c in logic.to_json(chains=False)["conflicts"]]
        if "graph" in self.paths:
            found += [("graph", c) for c in self._graph.conflicts(fired)]
        merged: dict[tuple[Any, ...], dict[str, Any]] = {}
        for path, conflict in found:
            actions = tuple(sorted(conflict.get("actions", ())))
            key = (conflict["kind"], actions) if actions else (
                conflict["kind"], tuple(conflict["rules"][:1]))
            if key in merged:
                merged[key]["paths"].append(path)
            else:
                merged[key] = {**conflict, "paths": [path]}
        return list(merged.values())

    # ------------------------------------------------------------ streams

    def step(self, t: float, state: Mapping[str, Any]) -> list[Event]:
        """A sample at time t with its new values; return raise/clear/fault events."""
        return self.stream.step(t, state)

    def tick(self, t: float) -> list[Event]:
        """Time passes with no sample: staleness only (durations are judged at samples)."""
        return self.stream.tick(t)

    def _stream_fired(self, x: np.ndarray) -> dict[int, list[int]]:
        """Rules whose condition holds now (durations included), with their boxes."""
        if "geometry" in self.paths:
            return self.rule_index.match(x)
        if self.logic_status != "ok":
            return {}
        fired = self._logic_fired(self._logic.evaluate(x))
        return {r: self._containing(r, x) for r in sorted(fired)}

    def acknowledge(self, rule_id: str, t: float | None = None) -> list[Event]:
        """Acknowledge a raised rule: a latched one whose condition has ended clears now
        (its clear event is returned); one whose condition still holds clears when it
        ends.  Acknowledging a rule that is not raised does nothing."""
        return self.stream.acknowledge(rule_id, t)

    def active(self) -> list[str]:
        """Ids of the rules raised now, most severe first."""
        return [self.bundle.rules[r].id for r in self._ordered(self.stream.active())]

    def awaiting_acknowledgement(self) -> list[str]:
        """Latched rules whose condition has ended: raised until acknowledged."""
        return [self.bundle.rules[r].id
                for r in self._ordered(self.stream.awaiting_acknowledgement())]

    def reset(self) -> None:
        """Forget the stream: no values, nothing raised, no timers."""
        self.stream.reset()


def _logic_status(bundle: Bundle) -> str:
    """"ok" when the logic path can run on this bundle, else why not."""
    try:
        from rulec.runtime.logic import path as logic  # noqa: F401
    except ImportError as exc:  # a build without the logic path
        return f"not available in this build ({exc})"
    if getattr(bundle.cnf, "atoms", None) is None:
        return "the bundle has no cnf.atoms section (compiled before the logic path)"
    return "ok"


def _build_logic(bundle: Bundle, backend: BackendName | None) -> LogicPath:
    from rulec.runtime.logic.path import LogicPath

    try:
        return LogicPath(bundle, backend=backend)
    except KernelError:
        if backend is not None:
            raise
        return LogicPath(bundle, backend="numpy")  # a kernel built before the logic path


def _us(started: float) -> float:
    return round((time.perf_counter() - started) * 1e6, 3)
