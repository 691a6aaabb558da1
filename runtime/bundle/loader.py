"""Load a rule bundle and validate its whole structure before anything uses it.

The onboard runtime evaluates sensor states against these arrays in C with no bounds
checks of its own, so every index, count and bound is checked here once, at load: a
bundle either loads completely and consistently or is refused with a ``BundleError``
naming the section and the problem (the last good bundle then keeps serving).  The
numeric arrays become zero-copy, read-only numpy views of the decoded msgpack bins.
The format is specified in ``docs/bundle-format.md``.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt

from rulec.runtime import vocabulary
from rulec.runtime.bundle.derive import UnitTable, check_derived
from rulec.runtime.bundle.format import FLAG_DISCRETE, check_container, unpack_payload
from rulec.runtime.bundle.signing import SignatureStatus, TrustedKey, check_signature
from rulec.runtime.errors import BundleError

__all__ = [
    "RULE_KINDS",
    "SEVERITIES",
    "AtomArrays",
    "BoxArrays",
    "Bundle",
    "CnfArrays",
    "CnfVariable",
    "GraphArrays",
    "GraphNode",
    "ParameterSpec",
    "RuleSpec",
    "load_bundle",
]

RULE_KINDS = frozenset(vocabulary.RULE_KINDS)
SEVERITIES = frozenset(vocabulary.SEVERITIES)

_I4 = np.dtype("<i4")
_F8 = np.dtype("<f8")
_U1 = np.dtype("u1")
_HEX = re.compile(r"[0-9a-fA-F]+")
_SECTIONS = ("meta", "parameters", "rules", "boxes", "cnf", "graph", "procedures")


@dataclass(frozen=True)
class ParameterSpec:
    """One sensed quantity; ``range_lo``/``range_hi`` are +-inf when the manual gives none."""

    name: str
    unit: str
    aliases: tuple[str, ...]
    range_lo: float
    range_hi: float
    deadband: float
    max_age_s: float | None
    channel: int | None
    states: tuple[str, ...] = ()  # discrete: state names; the value is the state's index
    # derived, never given: the seconds the named discrete parameter has been in its
    # present state, from the sample at which it was seen to enter it
    time_in_state_of: str | None = None

    @property
    def discrete(self) -> bool:
        return bool(self.states)

    def state_name(self, value: float) -> str:
        return state_name(self.states, value)

    def state_index(self, word: str) -> int | None:
        """The index of a state by its name (any case), or None."""
        word = " ".join(word.lower().split())
        return self.states.index(word) if word in self.states else None


def state_name(states: tuple[str, ...], value: float) -> str:
    """The state a value is the index of, or "?" when it is none (between two indexes,
    out of range, NaN)."""
    k = int(value) if value == value and abs(value) < len(states) else -1
    return states[k] if 0 <= k == value else "?"


@dataclass(frozen=True)
class RuleSpec:
    """One rule as the advisory layer needs it; ``source`` points back into the manual."""

    id: str
    kind: str
    severity: str
    action: str
    template: str
    condition_text: str
    duration_s: float | None
    duration_inclusive: bool
    source: dict[str, Any]
    # Optional rule keys (absent from older bundles): an off-delay, and latching.
    clear_delay_s: float | None = None  # clears only after the condition is false this long
    latch: bool = False  # stays raised after the condition ends, until acknowledged
    # (axis, state indexes) of the phases that hold its raise (header flag bit 1 only)
    inhibit: tuple[tuple[int, frozenset[int]], ...] = ()
    revision: int = 1  # raised each time a threshold of the rule is moved (rulec refine)


@dataclass(frozen=True)
class CnfVariable:
    """A propositional variable of the CNF section (DIMACS number = index + 1)."""

    name: str
    kind: str


@dataclass(frozen=True)
class GraphNode:
    """A node of the property graph."""

    kind: str
    label: str


def _arrays_equal(a: object, b: object, names: Iterable[str]) -> bool:
    """Field-wise equality where numpy fields compare by content, not identity."""
    if type(a) is not type(b):
        return False
    for name in names:
        x, y = getattr(a, name), getattr(b, name)
        if isinstance(x, np.ndarray):
            if not (x.dtype == y.dtype and np.array_equal(x, y)):
                return False
        elif x != y:
            return False
    return True


@dataclass(frozen=True, eq=False)
class BoxArrays:
    """Axis-aligned boxes in CSR form: box b owns constraints ``start[b]:start[b+1]``."""

    rule: npt.NDArray[np.int32]
    start: npt.NDArray[np.int32]
    axis: npt.NDArray[np.int32]
    lo: npt.NDArray[np.float64]
    hi: npt.NDArray[np.float64]
    flags: npt.NDArray[np.uint8]

    @property
    def n_boxes(self) -> int:
        return int(self.rule.shape[0])

    @property
    def n_constraints(self) -> int:
        return int(self.axis.shape[0])

    def __eq__(self, other: object) -> bool:
        return _arrays_equal(self, other, ("rule", "start", "axis", "lo", "hi", "flags"))


@dataclass(frozen=True, eq=False)
class AtomArrays:
    """What condition variables mean: row j says variable ``var[j]`` (DIMACS) holds when
    parameter ``axis[j]`` lies in ``lo[j]..hi[j]`` (``flags`` as in the boxes).  Rows are
    grouped by variable; a variable's rows share one axis and their union is its set."""

    var: npt.NDArray[np.int32]
    axis: npt.NDArray[np.int32]
    lo: npt.NDArray[np.float64]
    hi: npt.NDArray[np.float64]
    flags: npt.NDArray[np.uint8]

    @property
    def n_rows(self) -> int:
        return int(self.var.shape[0])

    def __eq__(self, other: object) -> bool:
        return _arrays_equal(self, other, ("var", "axis", "lo", "hi", "flags"))


@dataclass(frozen=True, eq=False)
class CnfArrays:
    """CNF clauses: clause i is ``literals[start[i]:start[i+1]]`` (DIMACS literals).

    ``atoms`` is None when the bundle has no ``cnf.atoms`` section: its condition
    variables then have no meaning the runtime can evaluate.
    """

    variables: tuple[CnfVariable, ...]
    start: npt.NDArray[np.int32]
    literals: npt.NDArray[np.int32]
    clause_rule: npt.NDArray[np.int32]
    atoms: AtomArrays | None = None

    @property
    def n_clauses(self) -> int:
        return int(self.clause_rule.shape[0])

    def __eq__(self, other: object) -> bool:
        return _arrays_equal(
            self, other, ("variables", "start", "literals", "clause_rule", "atoms")
        )


@dataclass(frozen=True, eq=False)
class GraphArrays:
    """Typed directed graph in CSR form: node n's edges are ``indptr[n]:indptr[n+1]``."""

    nodes: tuple[GraphNode, ...]
    edge_types: tuple[str, ...]
    indptr: npt.NDArray[np.int32]
    indices: npt.NDArray[np.int32]
    etype: npt.NDArray[np.uint8]

    @property
    def n_edges(self) -> int:
        return int(self.indices.shape[0])

    def __eq__(self, other: object) -> bool:
        return _arrays_equal(self, other, ("nodes", "edge_types", "indptr", "indices", "etype"))


@dataclass(frozen=True)
class Bundle:
    """A fully validated bundle; built only by ``load_bundle``."""

    digest: str
    format_version: int
    meta: dict[str, Any]
    parameters: tuple[ParameterSpec, ...]
    rules: tuple[RuleSpec, ...]
    boxes: BoxArrays
    cnf: CnfArrays
    graph: GraphArrays
    procedures: tuple[dict[str, Any], ...]
    param_index: dict[str, int]
    rule_index: dict[str, int]
    alias_index: dict[str, int]
    signature: SignatureStatus = SignatureStatus()  # signed? by which key id? verified?
    # Rules whose boxes and clauses were derived again from their rule objects and found
    # equal (``derive.check_derived``); None: the bundle has no unit table to derive with.
    derived: int | None = None


# --------------------------------------------------------------------------- loading


def load_bundle(
    path_or_bytes: str | os.PathLike[str] | bytes | bytearray | memoryview,
    trust: TrustedKey | None = None,
) -> Bundle:
    """Load a bundle from a path or from its bytes; any defect raises ``BundleError``.

    With ``trust``, only a bundle signed by that key loads (``SignatureError``
    subclasses otherwise), checked before the payload is unpacked.  Without it the
    bundle's ``signature`` status says what was not checked.
    """
    if isinstance(path_or_bytes, bytes | bytearray | memoryview):
        return _load(bytes(path_or_bytes), trust)
    data = _read_file(path_or_bytes)
    try:
        return _load(data, trust)
    except BundleError as exc:  # same class (digest, signature...), message names the file
        raise type(exc)(f"{os.fspath(path_or_bytes)}: {exc}") from None


def _load(data: bytes, trust: TrustedKey | None) -> Bundle:
    container = check_container(data)
    status = check_signature(container, trust)
    payload = unpack_payload(container.payload)
    header = container.header
    return _build(payload, header.digest, header.format_version, status,
                  discrete=bool(header.flags & FLAG_DISCRETE))


def _read_file(path: str | os.PathLike[str]) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except IsADirectoryError as exc:
        raise BundleError(f"cannot read bundle {os.fspath(path)!r}: it is a directory") from exc
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise BundleError(f"cannot read bundle {os.fspath(path)!r}: {reason}") from exc


def _fail(where: str, what: str) -> NoReturn:
    raise BundleError(f"{where}: {what}")


def _map(
    value: Any, where: str, required: Iterable[str], open_keys: bool = False
) -> dict[str, Any]:
    """Check ``value`` is a map with the required keys (and, unless open, no others)."""
    if not isinstance(value, dict):
        _fail(where, f"must be a map, found {type(value).__name__}")
    req = tuple(required)
    for key in req:
        if key not in value:
            _fail(where, f"missing key {key!r}")
    if not open_keys:
        extra = sorted(k for k in value if k not in req)
        if extra:
            _fail(where, f"unknown key {extra[0]!r} (not in format version 1)")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        _fail(where, f"must be an array, found {type(value).__name__}")
    return value


def _str(value: Any, where: str, nonempty: bool = False) -> str:
    if not isinstance(value, str):
        _fail(where, f"must be a str, found {type(value).__name__}")
    if nonempty and not value:
        _fail(where, "must not be empty")
    return value


def _int(value: Any, where: str, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(where, f"must be an int, found {type(value).__name__}")
    if minimum is not None and value < minimum:
        _fail(where, f"{value} is below the minimum {minimum}")
    return value


def _float(value: Any, where: str, minimum: float | None = None, finite: bool = True) -> float:
    """A number (int accepted) that is never NaN; finite unless told otherwise."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        _fail(where, f"must be a number, found {type(value).__name__}")
    x = float(value)
    if math.isnan(x):
        _fail(where, "is NaN")
    if finite and math.isinf(x):
        _fail(where, f"must be finite, found {x}")
    if minimum is not None and x < minimum:
        _fail(where, f"{x} is below the minimum {minimum}")
    return x


def _opt(value: Any, check: Any, where: str, **kw: Any) -> Any:
    return None if value is None else check(value, where, **kw)


def _source(value: Any, where: str) -> dict[str, Any]:
    """Provenance: file, line, text required; page/section optional; others kept as-is."""
    src = _map(value, where, ("file", "line", "text"), open_keys=True)
    _str(src["file"], f"{where}.file")
    _int(src["line"], f"{where}.line", minimum=0)
    _str(src["text"], f"{where}.text")
    if "page" in src:
        _int(src["page"], f"{where}.page", minimum=0)
    if "section" in src:
        _str(src["section"], f"{where}.section")
    return src


def _hex(value: Any, where: str, length: int | None = None) -> str:
    s = _str(value, where, nonempty=True)
    if not _HEX.fullmatch(s):
        _fail(where, f"{s!r} is not hexadecimal")
    if length is not None and len(s) != length:
        _fail(where, f"must have {length} hex digits, has {len(s)}")
    return s


def _unique(names: list[str], where: str, what: str) -> dict[str, int]:
    index: dict[str, int] = {}
    for i, name in enumerate(names):
        if name in index:
            _fail(where, f"duplicate {what} {name!r} at [{index[name]}] and [{i}]")
        index[name] = i
    return index


def _array(section: dict[str, Any], key: str, dtype: np.dtype[Any], where: str) -> npt.NDArray[Any]:
    """A zero-copy read-only view of a bin field; the byte length must fit the item size."""
    raw = section[key]
    if not isinstance(raw, bytes):
        _fail(f"{where}.{key}", f"must be bin (raw bytes), found {type(raw).__name__}")
    if len(raw) % dtype.itemsize:
        _fail(
            f"{where}.{key}",
            f"{len(raw)} bytes is not a multiple of {dtype.itemsize} ({dtype.name})",
        )
    return np.frombuffer(raw, dtype=dtype)


def _first(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def _check_len(arr: np.ndarray, n: int, where: str, what: str) -> None:
    if arr.shape[0] != n:
        _fail(where, f"has {arr.shape[0]} entries, expected {n} ({what})")


def _check_offsets(ptr: np.ndarray, n: int, total: int, where: str, strict: bool) -> None:
    """CSR offsets: n+1 entries, 0 first, ``total`` last, non-decreasing (or increasing)."""
    _check_len(ptr, n + 1, where, f"one more than the {n} rows")
    if ptr[0] != 0:
        _fail(where, f"must start at 0, starts at {int(ptr[0])}")
    if ptr[-1] != total:
        _fail(where, f"must end at {total} (the item count), ends at {int(ptr[-1])}")
    step = np.diff(ptr.astype(np.int64))
    bad = step <= 0 if strict else step < 0
    if bad.any():
        i = _first(bad)
        kind = "increasing (every row needs at least one item)" if strict else "non-decreasing"
        _fail(where, f"must be {kind}: [{i}] = {int(ptr[i])}, [{i + 1}] = {int(ptr[i + 1])}")


def _check_range(arr: np.ndarray, lo: int, hi: int, where: str, what: str) -> None:
    """Every value in lo..hi inclusive."""
    wide = arr.astype(np.int64)  # no wrap-around when lo/hi exceed the item type
    bad = (wide < lo) | (wide > hi)
    if bad.any():
        i = _first(bad)
        _fail(where, f"[{i}] = {int(arr[i])} is out of range {lo}..{hi} ({what})")


def _meta(value: Any, version: int) -> dict[str, Any]:
    keys = ("compiler", "format", "bundle_id", "sources", "created_from")
    meta = _map(value, "meta", keys, open_keys=True)
    _str(meta["compiler"], "meta.compiler")
    if _int(meta["format"], "meta.format") != version:
        _fail("meta.format", f"{meta['format']} disagrees with header version {version}")
    _hex(meta["bundle_id"], "meta.bundle_id")
    for i, s in enumerate(_list(meta["sources"], "meta.sources")):
        w = f"meta.sources[{i}]"
        _map(s, w, ("file", "sha256"))
        _str(s["file"], f"{w}.file")
        _hex(s["sha256"], f"{w}.sha256", length=64)
    _str(meta["created_from"], "meta.created_from")
    return meta


def _parameters(value: Any, discrete: bool = False) -> tuple[ParameterSpec, ...]:
    """The parameter maps; ``discrete`` (header flag bit 1): a map may hold ``states``,
    and at least one must."""
    keys = ("name", "unit", "aliases", "range", "deadband", "max_age_s", "channel")
    out = []
    for i, p in enumerate(_list(value, "parameters")):
        w = f"parameters[{i}]"
        has_states = discrete and isinstance(p, dict) and "states" in p
        dwell = discrete and isinstance(p, dict) and "time_in_state_of" in p
        _map(p, w, (*keys, "states") if has_states else (
            (*keys, "time_in_state_of") if dwell else keys))
        aliases = tuple(
            _str(a, f"{w}.aliases[{j}]", nonempty=True)
            for j, a in enumerate(_list(p["aliases"], f"{w}.aliases"))
        )
        lo, hi = -math.inf, math.inf
        if p["range"] is not None:
            r = _list(p["range"], f"{w}.range")
            if len(r) != 2:
                _fail(f"{w}.range", f"must be [lo, hi], has {len(r)} items")
            lo = _float(r[0], f"{w}.range[0]", finite=False)
            hi = _float(r[1], f"{w}.range[1]", finite=False)
            if lo > hi:
                _fail(f"{w}.range", f"lo {lo} is above hi {hi}")
        out.append(
            ParameterSpec(
                name=_str(p["name"], f"{w}.name", nonempty=True),
                unit=_str(p["unit"], f"{w}.unit"),
                aliases=aliases,
                range_lo=lo,
                range_hi=hi,
                deadband=_float(p["deadband"], f"{w}.deadband", minimum=0.0),
                max_age_s=_opt(p["max_age_s"], _float, f"{w}.max_age_s", minimum=0.0),
                channel=_opt(p["channel"], _int, f"{w}.channel", minimum=0),
                states=_states(p, w, lo, hi) if has_states else (),
                time_in_state_of=_str(p["time_in_state_of"], f"{w}.time_in_state_of",
                                      nonempty=True) if dwell else None,
            )
        )
    _time_in_state(out)
    if discrete and not any(p.states for p in out):
        raise BundleError("nonzero header flags: bit 1 (discrete) is set but no parameter "
                          "has states")
    return tuple(out)


def _time_in_state(params: list[ParameterSpec]) -> None:
    """A time in state is in seconds, of a discrete parameter of the bundle, and never
    arrives on a channel."""
    states = {p.name: p for p in params if p.states}
    for i, p in enumerate(params):
        if p.time_in_state_of is None:
            continue
        w = f"parameters[{i}]"
        if p.time_in_state_of not in states:
            _fail(f"{w}.time_in_state_of", f"{p.time_in_state_of!r} is not a discrete "
                  "parameter of the bundle")
        if p.unit != "s" or p.channel is not None or p.aliases:
            _fail(w, "a time in state is in 's', with no channel and no aliases")


def _states(p: dict[str, Any], w: str, lo: float, hi: float) -> tuple[str, ...]:
    """A discrete parameter's state names: unique, non-empty, and its range their indexes."""
    states = tuple(_str(s, f"{w}.states[{j}]", nonempty=True)
                   for j, s in enumerate(_list(p["states"], f"{w}.states")))
    if len(states) < 2:
        _fail(f"{w}.states", f"needs at least two states, has {len(states)}")
    _unique(list(states), f"{w}.states", "state")
    if (lo, hi) != (0.0, float(len(states) - 1)):
        _fail(f"{w}.range", f"a discrete parameter's range is [0, {len(states) - 1}], "
              f"not [{lo}, {hi}]")
    return states


def _name_indexes(params: tuple[ParameterSpec, ...]) -> tuple[dict[str, int], dict[str, int]]:
    """Names and aliases share one namespace: a telemetry key must mean one parameter."""
    param_index = _unique([p.name for p in params], "parameters", "name")
    alias_index: dict[str, int] = {}
    channels: dict[int, int] = {}
    for i, p in enumerate(params):
        for a in p.aliases:
            other = param_index.get(a, alias_index.get(a))
            if other is None:
                alias_index[a] = i
            elif other != i:
                _fail(f"parameters[{i}].aliases", f"{a!r} already names parameters[{other}]")
        if p.channel is not None:
            if p.channel in channels:
                _fail(
                    f"parameters[{i}].channel",
                    f"{p.channel} is already used by parameters[{channels[p.channel]}]",
                )
            channels[p.channel] = i
    return param_index, alias_index


def _rules(value: Any, discrete: tuple[ParameterSpec, ...] | None = None,
           param_index: dict[str, int] | None = None) -> tuple[RuleSpec, ...]:
    """The rule maps; with discrete parameters (``discrete``: the bundle's parameters), a
    rule may name the phases that inhibit it."""
    keys = (
        "id",
        "kind",
        "severity",
        "action",
        "template",
        "condition_text",
        "duration_s",
        "duration_inclusive",
        "source",
    )
    out = []
    for i, r in enumerate(_list(value, "rules")):
        w = f"rules[{i}]"
        _map(r, w, keys, open_keys=True)
        optional = _OPTIONAL_RULE_KEYS + (("inhibit",) if discrete is not None else ())
        extra = sorted(k for k in r if k not in keys and k not in optional)
        if extra:
            _fail(w, f"unknown key {extra[0]!r} (not in format version 1)")
        latch = r.get("latch", False)
        if not isinstance(latch, bool):
            _fail(f"{w}.latch", f"must be a bool, found {type(latch).__name__}")
        revision = r.get("revision", 1)
        if isinstance(revision, bool) or not isinstance(revision, int) or revision < 1:
            _fail(f"{w}.revision", "must be a positive integer")
        kind = _str(r["kind"], f"{w}.kind")
        if kind not in RULE_KINDS:
            _fail(f"{w}.kind", f"{kind!r} is not one of {', '.join(sorted(RULE_KINDS))}")
        severity = _str(r["severity"], f"{w}.severity")
        if severity not in SEVERITIES:
            _fail(f"{w}.severity", f"{severity!r} is not one of {', '.join(sorted(SEVERITIES))}")
        inclusive = r["duration_inclusive"]
        if not isinstance(inclusive, bool):
            _fail(f"{w}.duration_inclusive", f"must be a bool, found {type(inclusive).__name__}")
        out.append(
            RuleSpec(
                id=_str(r["id"], f"{w}.id", nonempty=True),
                kind=kind,
                severity=severity,
                action=_str(r["action"], f"{w}.action"),
                template=_str(r["template"], f"{w}.template"),
                condition_text=_str(r["condition_text"], f"{w}.condition_text"),
                duration_s=_opt(r["duration_s"], _float, f"{w}.duration_s", minimum=0.0),
                duration_inclusive=inclusive,
                source=_source(r["source"], f"{w}.source"),
                clear_delay_s=_opt(
                    r.get("clear_delay_s"), _float, f"{w}.clear_delay_s", minimum=0.0
                ),
                latch=latch,
                inhibit=_inhibit(r["inhibit"], f"{w}.inhibit", discrete or (), param_index or {})
                if "inhibit" in r else (),
                revision=revision,
            )
        )
    return tuple(out)


def _inhibit(value: Any, w: str, params: tuple[ParameterSpec, ...], index: dict[str, int]
             ) -> tuple[tuple[int, frozenset[int]], ...]:
    """[{"param": discrete parameter, "states": [state, ...]}, ...] as (axis, indexes)."""
    out = []
    for j, entry in enumerate(_list(value, w)):
        _map(entry, f"{w}[{j}]", ("param", "states"))
        name = _str(entry["param"], f"{w}[{j}].param", nonempty=True)
        axis = index.get(name)
        if axis is None or not params[axis].states:
            _fail(f"{w}[{j}].param", f"{name!r} is not a discrete parameter of the bundle")
        states = []
        for k, s in enumerate(_list(entry["states"], f"{w}[{j}].states")):
            found = params[axis].state_index(_str(s, f"{w}[{j}].states[{k}]", nonempty=True))
            if found is None:
                _fail(f"{w}[{j}].states[{k}]", f"{s!r} is not a state of {name}")
            states.append(found)
        if not states:
            _fail(f"{w}[{j}].states", "must name at least one state")
        out.append((axis, frozenset(states)))
    return tuple(out)


_OPTIONAL_RULE_KEYS = ("clear_delay_s", "latch", "revision")


def _boxes(value: Any, n_rules: int, n_params: int) -> BoxArrays:
    sec = _map(value, "boxes", ("rule", "start", "axis", "lo", "hi", "flags"))
    rule = _array(sec, "rule", _I4, "boxes")
    start = _array(sec, "start", _I4, "boxes")
    axis = _array(sec, "axis", _I4, "boxes")
    lo = _array(sec, "lo", _F8, "boxes")
    hi = _array(sec, "hi", _F8, "boxes")
    flags = _array(sec, "flags", _U1, "boxes")
    n_cons = axis.shape[0]
    for name, arr in (("lo", lo), ("hi", hi), ("flags", flags)):
        _check_len(arr, n_cons, f"boxes.{name}", "one per constraint, like boxes.axis")
    _check_offsets(start, rule.shape[0], n_cons, "boxes.start", strict=True)
    _check_range(rule, 0, n_rules - 1, "boxes.rule", f"{n_rules} rules")
    _check_range(axis, 0, n_params - 1, "boxes.axis", f"{n_params} parameters")
    _interval_checks(lo, hi, flags, "boxes", "constraint")
    return BoxArrays(rule=rule, start=start, axis=axis, lo=lo, hi=hi, flags=flags)


def _interval_checks(
    lo: np.ndarray, hi: np.ndarray, flags: np.ndarray, where: str, what: str
) -> None:
    """Bounds of non-empty intervals: not NaN, lo <= hi, reachable, flags <= 3."""
    _check_range(flags, 0, 3, f"{where}.flags", "bit0 lo inclusive, bit1 hi inclusive")
    for name, arr in (("lo", lo), ("hi", hi)):
        if np.isnan(arr).any():
            _fail(f"{where}.{name}", f"[{_first(np.isnan(arr))}] is NaN")
    checks = (
        (lo > hi, "lo is above hi"),
        (lo == np.inf, "lo is +inf, no finite value can satisfy it"),
        (hi == -np.inf, "hi is -inf, no finite value can satisfy it"),
        ((lo == hi) & (flags != 3), "lo == hi but not both bounds inclusive: empty interval"),
    )
    for mask, problem in checks:
        if mask.any():
            c = _first(mask)
            _fail(where, f"{what} [{c}] (lo {lo[c]}, hi {hi[c]}): {problem}")


_ATOM_KEYS = ("var", "axis", "lo", "hi", "flags")


def _atoms(value: Any, variables: list[CnfVariable], n_params: int) -> AtomArrays:
    """``cnf.atoms``: every row names a condition variable; every condition variable has
    rows, all on one axis, grouped together."""
    sec = _map(value, "cnf.atoms", _ATOM_KEYS)
    var = _array(sec, "var", _I4, "cnf.atoms")
    axis = _array(sec, "axis", _I4, "cnf.atoms")
    lo = _array(sec, "lo", _F8, "cnf.atoms")
    hi = _array(sec, "hi", _F8, "cnf.atoms")
    flags = _array(sec, "flags", _U1, "cnf.atoms")
    for name, arr in (("axis", axis), ("lo", lo), ("hi", hi), ("flags", flags)):
        _check_len(arr, var.shape[0], f"cnf.atoms.{name}", "one per row, like cnf.atoms.var")
    n_vars = len(variables)
    _check_range(var, 1, n_vars, "cnf.atoms.var", f"DIMACS numbers of {n_vars} variables")
    _check_range(axis, 0, n_params - 1, "cnf.atoms.axis", f"{n_params} parameters")
    _interval_checks(lo, hi, flags, "cnf.atoms", "row")
    if var.shape[0]:
        step = np.diff(var.astype(np.int64))
        if (step < 0).any():
            i = _first(step < 0)
            _fail("cnf.atoms.var", f"must be grouped by variable (non-decreasing): "
                  f"[{i}] = {int(var[i])}, [{i + 1}] = {int(var[i + 1])}")
        same = step == 0
        moved = same & (axis[1:] != axis[:-1])
        if moved.any():
            i = _first(moved) + 1
            _fail("cnf.atoms.axis", f"[{i}] = {int(axis[i])}: variable {int(var[i])} "
                  f"already has rows on axis {int(axis[i - 1])} (one parameter per variable)")
    has_rows = np.zeros(n_vars + 1, dtype=bool)
    has_rows[var] = True
    for i, v in enumerate(variables):
        if (v.kind == "condition") != bool(has_rows[i + 1]):
            problem = ("has no rows in cnf.atoms" if v.kind == "condition"
                       else f"has rows in cnf.atoms but is of kind {v.kind!r}, not 'condition'")
            _fail("cnf.atoms", f"variable {i + 1} ({v.name!r}) {problem}")
    return AtomArrays(var=var, axis=axis, lo=lo, hi=hi, flags=flags)


_CNF_KEYS = ("variables", "start", "literals", "clause_rule")


def _cnf(value: Any, n_rules: int, n_params: int) -> CnfArrays:
    sec = _map(value, "cnf", _CNF_KEYS, open_keys=True)
    extra = sorted(k for k in sec if k not in _CNF_KEYS and k != "atoms")
    if extra:
        _fail("cnf", f"unknown key {extra[0]!r} (not in format version 1)")
    variables = []
    for i, v in enumerate(_list(sec["variables"], "cnf.variables")):
        w = f"cnf.variables[{i}]"
        _map(v, w, ("name", "kind"))
        variables.append(
            CnfVariable(_str(v["name"], f"{w}.name", nonempty=True), _str(v["kind"], f"{w}.kind"))
        )
    _unique([v.name for v in variables], "cnf.variables", "name")
    start = _array(sec, "start", _I4, "cnf")
    literals = _array(sec, "literals", _I4, "cnf")
    clause_rule = _array(sec, "clause_rule", _I4, "cnf")
    # strict: an empty clause is unsatisfiable and would make every query "entailed".
    _check_offsets(start, clause_rule.shape[0], literals.shape[0], "cnf.start", strict=True)
    n_vars = len(variables)
    if (literals == 0).any():
        _fail("cnf.literals", f"[{_first(literals == 0)}] is 0 (literals are +v or -v, v >= 1)")
    _check_range(literals, -n_vars, n_vars, "cnf.literals", f"{n_vars} variables")
    _check_range(clause_rule, -1, n_rules - 1, "cnf.clause_rule", f"-1 or one of {n_rules} rules")
    atoms = _atoms(sec["atoms"], variables, n_params) if "atoms" in sec else None
    return CnfArrays(
        variables=tuple(variables),
        start=start,
        literals=literals,
        clause_rule=clause_rule,
        atoms=atoms,
    )


def _graph(value: Any) -> GraphArrays:
    sec = _map(value, "graph", ("nodes", "edge_types", "indptr", "indices", "etype"))
    nodes = []
    for i, n in enumerate(_list(sec["nodes"], "graph.nodes")):
        w = f"graph.nodes[{i}]"
        _map(n, w, ("kind", "label"))
        nodes.append(GraphNode(_str(n["kind"], f"{w}.kind"), _str(n["label"], f"{w}.label")))
    edge_types = [
        _str(t, f"graph.edge_types[{i}]", nonempty=True)
        for i, t in enumerate(_list(sec["edge_types"], "graph.edge_types"))
    ]
    _unique(edge_types, "graph.edge_types", "edge type")
    indptr = _array(sec, "indptr", _I4, "graph")
    indices = _array(sec, "indices", _I4, "graph")
    etype = _array(sec, "etype", _U1, "graph")
    _check_offsets(indptr, len(nodes), indices.shape[0], "graph.indptr", strict=False)
    _check_len(etype, indices.shape[0], "graph.etype", "one per edge, like graph.indices")
    _check_range(indices, 0, len(nodes) - 1, "graph.indices", f"{len(nodes)} nodes")
    _check_range(etype, 0, len(edge_types) - 1, "graph.etype", f"{len(edge_types)} edge types")
    return GraphArrays(
        nodes=tuple(nodes),
        edge_types=tuple(edge_types),
        indptr=indptr,
        indices=indices,
        etype=etype,
    )


def _procedures(value: Any) -> tuple[dict[str, Any], ...]:
    out = []
    for i, p in enumerate(_list(value, "procedures")):
        w = f"procedures[{i}]"
        _map(p, w, ("id", "title", "source", "steps"))
        _str(p["id"], f"{w}.id", nonempty=True)
        _str(p["title"], f"{w}.title")
        _source(p["source"], f"{w}.source")
        for j, s in enumerate(_list(p["steps"], f"{w}.steps")):
            _map(s, f"{w}.steps[{j}]", ("text", "source"))
            _str(s["text"], f"{w}.steps[{j}].text")
            _source(s["source"], f"{w}.steps[{j}].source")
        out.append(p)
    _unique([p["id"] for p in out], "procedures", "id")
    return tuple(out)


def _build(
    payload: dict[str, Any], digest: str, version: int, signature: SignatureStatus,
    discrete: bool = False,
) -> Bundle:
    """Validate every section, then assemble; nothing partial escapes on failure."""
    _map(payload, "payload", _SECTIONS)
    meta = _meta(payload["meta"], version)
    parameters = _parameters(payload["parameters"], discrete)
    param_index, alias_index = _name_indexes(parameters)
    rules = _rules(payload["rules"], parameters if discrete else None, param_index)
    rule_index = _unique([r.id for r in rules], "rules", "id")
    boxes = _boxes(payload["boxes"], len(rules), len(parameters))
    cnf = _cnf(payload["cnf"], len(rules), len(parameters))
    graph = _graph(payload["graph"])
    procedures = _procedures(payload["procedures"])
    bundle = Bundle(
        digest=digest,
        format_version=version,
        meta=meta,
        parameters=parameters,
        rules=rules,
        boxes=boxes,
        cnf=cnf,
        graph=graph,
        procedures=procedures,
        param_index=param_index,
        rule_index=rule_index,
        alias_index=alias_index,
        signature=signature,
    )
    if "units" not in meta:
        return bundle
    try:
        table = UnitTable.read(meta["units"])
    except ValueError as exc:
        _fail("meta.units", str(exc))
    return dataclasses.replace(bundle, derived=check_derived(bundle, table))
