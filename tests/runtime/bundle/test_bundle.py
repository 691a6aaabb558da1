"""load_bundle: round trips, corruption of every kind refused, every structural check named."""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulec.runtime.bundle.format import (
    HEADER_SIZE,
    encode_bundle,
    frame_payload,
    pack_payload,
    write_bundle_file,
)
from rulec.runtime.bundle.loader import (
    Bundle,
    CnfVariable,
    GraphNode,
    ParameterSpec,
    RuleSpec,
    load_bundle,
)
from rulec.runtime.errors import BundleError

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

EDGE_TYPES = ["has_condition", "triggers", "next_step", "cannot_coexist", "describes"]


def i4(*values: int) -> bytes:
    return np.asarray(values, dtype="<i4").tobytes()


def f8(*values: float) -> bytes:
    return np.asarray(values, dtype="<f8").tobytes()


def u1(*values: int) -> bytes:
    return np.asarray(values, dtype="u1").tobytes()


def src(line: int, text: str, **extra: Any) -> dict[str, Any]:
    return {"file": "manuals/poh.txt", "line": line, "text": text, **extra}


def make_payload() -> dict[str, Any]:
    """A small valid payload: 2 parameters, 3 rules, 3 boxes, 4 clauses, a 5-node graph."""
    return {
        "meta": {
            "compiler": "rulec 0.1.0",
            "format": 1,
            "bundle_id": "0f1e2d3c4b5a6978",
            "sources": [{"file": "manuals/poh.txt", "sha256": "ab" * 32}],
            "created_from": "manuals/",
        },
        "parameters": [
            {
                "name": "oil_pressure",
                "unit": "psi",
                "aliases": ["oil_press", "OP"],
                "range": [0.0, 115.0],
                "deadband": 0.5,
                "max_age_s": 2.0,
                "channel": 3,
            },
            {
                "name": "oil_temp",
                "unit": "degC",
                "aliases": [],
                "range": None,
                "deadband": 0.0,
                "max_age_s": None,
                "channel": None,
            },
        ],
        "rules": [
            {
                "id": "R-001",
                "kind": "if_then",
                "severity": "warning",
                "action": "land as soon as practical",
                "template": "Oil pressure {oil_pressure} psi below 20: land as soon as practical",
                "condition_text": "oil_pressure < 20 psi",
                "duration_s": None,
                "duration_inclusive": False,
                "source": src(12, "If oil pressure is below 20 psi, land.", page=4),
            },
            {
                "id": "R-002",
                "kind": "constraint",
                "severity": "caution",
                "action": "reduce power",
                "template": "Oil temperature {oil_temp} degC in caution band",
                "condition_text": "100 <= oil_temp <= 120 degC and oil_pressure >= 20 for 10 s",
                "duration_s": 10.0,
                "duration_inclusive": True,
                "source": src(20, "Oil temperature 100-120 C: caution.", section="2.4"),
            },
            {
                "id": "R-003",
                "kind": "exclusion",
                "severity": "advisory",
                "action": "",
                "template": "Do not run the pump with low oil pressure",
                "condition_text": "not (pump_on and oil_pressure < 20)",
                "duration_s": 0.0,
                "duration_inclusive": False,
                "source": src(31, "Pump and low pressure cannot coexist."),
            },
        ],
        "boxes": {
            "rule": i4(0, 1, 1),
            "start": i4(0, 1, 3, 4),
            "axis": i4(0, 1, 0, 1),
            "lo": f8(-math.inf, 100.0, 20.0, 150.0),
            "hi": f8(20.0, 120.0, math.inf, 150.0),
            "flags": u1(0, 3, 1, 3),
        },
        "cnf": {
            "variables": [
                {"name": "oil_pressure_low", "kind": "condition"},
                {"name": "land", "kind": "action"},
                {"name": "oil_temp_band", "kind": "condition"},
                {"name": "pump_on", "kind": "condition"},
            ],
            "start": i4(0, 2, 3, 5, 6),
            "literals": i4(-1, 2, 3, -4, -1, 2),
            "clause_rule": i4(0, 1, 2, -1),
        },
        "graph": {
            "nodes": [
                {"kind": "rule", "label": "R-001"},
                {"kind": "condition", "label": "oil_pressure < 20"},
                {"kind": "action", "label": "land"},
                {"kind": "step", "label": "Check oil quantity"},
                {"kind": "step", "label": "Land"},
            ],
            "edge_types": list(EDGE_TYPES),
            "indptr": i4(0, 2, 2, 2, 3, 3),
            "indices": i4(1, 2, 4),
            "etype": u1(0, 1, 2),
        },
        "procedures": [
            {
                "id": "P-LOWOIL",
                "title": "Low oil pressure",
                "source": src(40, "LOW OIL PRESSURE"),
                "steps": [
                    {"text": "Check oil quantity", "source": src(41, "1. Check oil quantity")},
                    {"text": "Land", "source": src(42, "2. Land as soon as practical")},
                ],
            }
        ],
    }


def bundle_to_payload(b: Bundle) -> dict[str, Any]:
    """Rebuild the payload from a loaded bundle, to compare with what was written."""

    def rng(p: ParameterSpec) -> list[float] | None:
        if p.range_lo == -math.inf and p.range_hi == math.inf:
            return None
        return [p.range_lo, p.range_hi]

    return {
        "meta": b.meta,
        "parameters": [
            {
                "name": p.name,
                "unit": p.unit,
                "aliases": list(p.aliases),
                "range": rng(p),
                "deadband": p.deadband,
                "max_age_s": p.max_age_s,
                "channel": p.channel,
            }
            for p in b.parameters
        ],
        "rules": [
            {
                "id": r.id,
                "kind": r.kind,
                "severity": r.severity,
                "action": r.action,
                "template": r.template,
                "condition_text": r.condition_text,
                "duration_s": r.duration_s,
                "duration_inclusive": r.duration_inclusive,
                "source": r.source,
            }
            for r in b.rules
        ],
        "boxes": {
            k: getattr(b.boxes, k).tobytes() for k in ("rule", "start", "axis", "lo", "hi", "flags")
        },
        "cnf": {
            "variables": [{"name": v.name, "kind": v.kind} for v in b.cnf.variables],
            "start": b.cnf.start.tobytes(),
            "literals": b.cnf.literals.tobytes(),
            "clause_rule": b.cnf.clause_rule.tobytes(),
        },
        "graph": {
            "nodes": [{"kind": n.kind, "label": n.label} for n in b.graph.nodes],
            "edge_types": list(b.graph.edge_types),
            "indptr": b.graph.indptr.tobytes(),
            "indices": b.graph.indices.tobytes(),
            "etype": b.graph.etype.tobytes(),
        },
        "procedures": list(b.procedures),
    }


# ------------------------------------------------------------------------ round trip


def test_round_trip_from_bytes_and_file(tmp_path: Path) -> None:
    payload = make_payload()
    data = encode_bundle(payload)
    path = tmp_path / "rules.rulc"
    write_bundle_file(path, data)
    for b in (load_bundle(data), load_bundle(path), load_bundle(str(path))):
        assert bundle_to_payload(b) == payload
        assert b.format_version == 1
        assert b.digest == data[16:48].hex()
    assert load_bundle(data) == load_bundle(path)


def test_loaded_fields_have_the_documented_types() -> None:
    b = load_bundle(encode_bundle(make_payload()))
    assert b.parameters[0] == ParameterSpec(
        name="oil_pressure",
        unit="psi",
        aliases=("oil_press", "OP"),
        range_lo=0.0,
        range_hi=115.0,
        deadband=0.5,
        max_age_s=2.0,
        channel=3,
    )
    assert (b.parameters[1].range_lo, b.parameters[1].range_hi) == (-math.inf, math.inf)
    assert isinstance(b.rules[1], RuleSpec) and b.rules[1].duration_s == 10.0
    assert b.rules[0].source["page"] == 4
    assert b.param_index == {"oil_pressure": 0, "oil_temp": 1}
    assert b.alias_index == {"oil_press": 0, "OP": 0}
    assert b.rule_index == {"R-001": 0, "R-002": 1, "R-003": 2}
    assert b.cnf.variables[1] == CnfVariable("land", "action")
    assert b.graph.nodes[0] == GraphNode("rule", "R-001")
    assert b.graph.edge_types == tuple(EDGE_TYPES)
    assert (b.boxes.n_boxes, b.boxes.n_constraints, b.cnf.n_clauses, b.graph.n_edges) == (
        3,
        4,
        4,
        3,
    )
    assert b.procedures[0]["steps"][1]["text"] == "Land"


def test_arrays_are_zero_copy_read_only_views_with_explicit_dtypes() -> None:
    b = load_bundle(encode_bundle(make_payload()))
    expected = [
        (b.boxes, "rule", "<i4"),
        (b.boxes, "start", "<i4"),
        (b.boxes, "axis", "<i4"),
        (b.boxes, "lo", "<f8"),
        (b.boxes, "hi", "<f8"),
        (b.boxes, "flags", "u1"),
        (b.cnf, "start", "<i4"),
        (b.cnf, "literals", "<i4"),
        (b.cnf, "clause_rule", "<i4"),
        (b.graph, "indptr", "<i4"),
        (b.graph, "indices", "<i4"),
        (b.graph, "etype", "u1"),
    ]
    for holder, name, dtype in expected:
        arr = getattr(holder, name)
        assert arr.dtype == np.dtype(dtype), name
        assert not arr.flags.writeable, name
        assert not arr.flags.owndata, name  # a view of the decoded bin, not a copy
        assert arr.flags.c_contiguous and arr.flags.aligned, name
    with pytest.raises(ValueError):
        b.boxes.lo[0] = 0.0
    assert b.boxes.lo.tolist() == [-math.inf, 100.0, 20.0, 150.0]
    assert b.cnf.literals.tolist() == [-1, 2, 3, -4, -1, 2]


def test_empty_sections_are_valid() -> None:
    p = make_payload()
    p["rules"], p["procedures"] = [], []
    p["boxes"] = {k: b"" for k in ("rule", "axis", "lo", "hi", "flags")} | {"start": i4(0)}
    p["cnf"] = {"variables": [], "start": i4(0), "literals": b"", "clause_rule": b""}
    p["graph"] = {"nodes": [], "edge_types": [], "indptr": i4(0), "indices": b"", "etype": b""}
    b = load_bundle(encode_bundle(p))
    assert b.boxes.n_boxes == 0 and b.cnf.n_clauses == 0 and b.graph.n_edges == 0
    assert bundle_to_payload(b) == p


finite = st.floats(min_value=-1e9, max_value=1e9, allow_nan=False)
text = st.text(max_size=12)
names = st.text(min_size=1, max_size=8)


@st.composite
def payloads(draw: st.DrawFn) -> dict[str, Any]:
    """Random valid payloads of every shape the loader must accept."""
    p = make_payload()
    pnames = draw(st.lists(names, min_size=1, max_size=5, unique=True))
    channels = draw(
        st.lists(st.integers(0, 2**31), min_size=len(pnames), max_size=len(pnames), unique=True)
    )
    params = []
    for i, name in enumerate(pnames):
        rng = draw(st.none() | st.lists(finite, min_size=2, max_size=2).map(sorted))
        params.append(
            {
                "name": name,
                "unit": draw(text),
                "aliases": [f"{name}#alias{j}" for j in range(draw(st.integers(0, 2)))],
                "range": rng,
                "deadband": draw(st.floats(0, 1e6)),
                "max_age_s": draw(st.none() | st.floats(0, 1e6)),
                "channel": draw(st.none() | st.just(channels[i])),
            }
        )
    rids = draw(st.lists(names, min_size=1, max_size=6, unique=True))
    rules = [
        {
            "id": rid,
            "kind": draw(st.sampled_from(["if_then", "constraint", "exclusion"])),
            "severity": draw(st.sampled_from(["warning", "caution", "advisory"])),
            "action": draw(text),
            "template": draw(text),
            "condition_text": draw(text),
            "duration_s": draw(st.none() | st.floats(0, 1e6)),
            "duration_inclusive": draw(st.booleans()),
            "source": src(draw(st.integers(0, 10**6)), draw(text)),
        }
        for rid in rids
    ]
    n_boxes = draw(st.integers(0, 6))
    box_rule, start, axis, lo, hi, flags = [], [0], [], [], [], []
    for _ in range(n_boxes):
        box_rule.append(draw(st.integers(0, len(rules) - 1)))
        for _ in range(draw(st.integers(1, 3))):
            a, b = sorted(draw(st.lists(finite, min_size=2, max_size=2)))
            a = -math.inf if draw(st.booleans()) else a
            b = math.inf if draw(st.booleans()) else b
            axis.append(draw(st.integers(0, len(params) - 1)))
            lo.append(a)
            hi.append(b)
            flags.append(3 if a == b else draw(st.integers(0, 3)))
        start.append(len(axis))
    n_vars = draw(st.integers(1, 5))
    cstart, lits, crule = [0], [], []
    for _ in range(draw(st.integers(0, 5))):
        literal = st.integers(-n_vars, n_vars).filter(lambda v: v != 0)
        lits += draw(st.lists(literal, min_size=1, max_size=4))
        cstart.append(len(lits))
        crule.append(draw(st.integers(-1, len(rules) - 1)))
    n_nodes = draw(st.integers(0, 5))
    degrees = [draw(st.integers(0, 3)) if n_nodes else 0 for _ in range(n_nodes)]
    indptr = [0] + list(np.cumsum(degrees, dtype=int))
    n_edges = int(sum(degrees))
    p.update(
        parameters=params,
        rules=rules,
        boxes={
            "rule": i4(*box_rule),
            "start": i4(*start),
            "axis": i4(*axis),
            "lo": f8(*lo),
            "hi": f8(*hi),
            "flags": u1(*flags),
        },
        cnf={
            "variables": [{"name": f"v{k}", "kind": draw(text)} for k in range(n_vars)],
            "start": i4(*cstart),
            "literals": i4(*lits),
            "clause_rule": i4(*crule),
        },
        graph={
            "nodes": [{"kind": draw(text), "label": draw(text)} for _ in range(n_nodes)],
            "edge_types": list(EDGE_TYPES),
            "indptr": i4(*indptr),
            "indices": i4(*[draw(st.integers(0, n_nodes - 1)) for _ in range(n_edges)]),
            "etype": u1(*[draw(st.integers(0, len(EDGE_TYPES) - 1)) for _ in range(n_edges)]),
        },
    )
    return p


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(payload=payloads())
def test_random_valid_payloads_survive_write_and_load(
    tmp_path: Path, payload: dict[str, Any]
) -> None:
    path = tmp_path / "random.rulc"
    write_bundle_file(path, encode_bundle(payload))
    b = load_bundle(path)
    assert bundle_to_payload(b) == payload
    assert b.param_index == {p["name"]: i for i, p in enumerate(payload["parameters"])}
    assert b.rule_index == {r["id"]: i for i, r in enumerate(payload["rules"])}


# ------------------------------------------------------------------------ corruption


def test_every_truncation_is_refused() -> None:
    data = encode_bundle(make_payload())
    for n in range(len(data)):
        with pytest.raises(BundleError):
            load_bundle(data[:n])


def test_random_single_bit_flips_are_all_refused() -> None:
    data = encode_bundle(make_payload())
    rng = random.Random(20240531)
    for _ in range(2000):
        bit = rng.randrange(len(data) * 8)
        flipped = bytearray(data)
        flipped[bit // 8] ^= 1 << (bit % 8)
        with pytest.raises(BundleError):
            load_bundle(bytes(flipped))


def test_every_header_bit_flip_is_refused_by_the_check_for_its_field() -> None:
    data = encode_bundle(make_payload())
    fields = [
        (0, 4, ("bad magic",)),
        (4, 6, ("unsupported",)),
        (6, 8, ("nonzero header flags",)),
        (8, 16, ("truncated:", "trailing bytes")),
        (16, 48, ("digest mismatch",)),
    ]
    for lo, hi, expected in fields:
        for bit in range(lo * 8, hi * 8):
            flipped = bytearray(data)
            flipped[bit // 8] ^= 1 << (bit % 8)
            with pytest.raises(BundleError) as info:
                load_bundle(bytes(flipped))
            assert str(info.value).startswith(expected), (bit, str(info.value))


def test_wrong_version_trailing_byte_and_truncation_messages() -> None:
    data = encode_bundle(make_payload())
    with pytest.raises(BundleError, match=r"unsupported bundle format version 2"):
        load_bundle(data[:4] + (2).to_bytes(2, "little") + data[6:])
    with pytest.raises(BundleError, match=r"trailing bytes"):
        load_bundle(data + b"\x00")
    n = len(data) - HEADER_SIZE
    with pytest.raises(
        BundleError, match=rf"truncated: header declares {n} payload bytes, file has {n - 1}"
    ):
        load_bundle(data[:-1])


def test_corrupted_payloads_with_a_recomputed_digest_never_crash_the_loader() -> None:
    """Past the digest (e.g. a buggy compiler): every byte change loads or is refused."""
    payload = pack_payload(make_payload())
    rng = random.Random(7)
    refused = 0
    for _ in range(2000):
        corrupt = bytearray(payload)
        for _ in range(rng.randint(1, 3)):
            corrupt[rng.randrange(len(corrupt))] = rng.randrange(256)
        try:
            load_bundle(frame_payload(bytes(corrupt)))
        except BundleError:
            refused += 1
    assert refused > 1000  # most byte changes break msgpack or the structure


def test_payload_that_is_valid_msgpack_but_not_a_map_is_refused() -> None:
    with pytest.raises(BundleError, match="top level must be a map, found list"):
        load_bundle(frame_payload(msgpack.packb([1, 2, 3])))


# -------------------------------------------------------------------- file problems


def test_missing_file_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "nope.rulc"
    with pytest.raises(BundleError, match=r"cannot read bundle .*nope\.rulc.*No such file"):
        load_bundle(path)


def test_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BundleError, match="is a directory"):
        load_bundle(tmp_path)


def test_empty_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.rulc"
    path.write_bytes(b"")
    with pytest.raises(BundleError, match="too short for a bundle header: 0 bytes"):
        load_bundle(path)


def test_path_through_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "plain").write_bytes(b"")
    with pytest.raises(BundleError, match=r"cannot read bundle .*plain/x\.rulc.*Not a directory"):
        load_bundle(tmp_path / "plain" / "x.rulc")


def test_unreadable_file_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "locked.rulc"
    path.write_bytes(encode_bundle(make_payload()))
    path.chmod(0)
    try:
        path.read_bytes()
        pytest.skip("this user can read mode-000 files (root)")
    except PermissionError:
        with pytest.raises(BundleError, match=r"locked\.rulc.*Permission denied"):
            load_bundle(path)
    finally:
        path.chmod(0o644)


# ------------------------------------------------------------ structural validation

Mutation = Callable[[dict[str, Any]], None]


def _set(path: str, value: Any) -> Mutation:
    """Set payload[a][b]...: path like 'rules.1.severity'."""

    def mutate(p: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = p
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return mutate


def _del(path: str) -> Mutation:
    def mutate(p: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = p
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        del node[last]

    return mutate


def _dup_param_name(p: dict[str, Any]) -> None:
    p["parameters"][1]["name"] = "oil_pressure"


def _dup_rule_id(p: dict[str, Any]) -> None:
    p["rules"][2]["id"] = "R-001"


STRUCTURE_ERRORS: list[tuple[str, Mutation, str]] = [
    # top level and meta
    ("missing section", _del("graph"), "payload: missing key 'graph'"),
    ("unknown section", _set("inhibits", []), "payload: unknown key 'inhibits'"),
    ("meta not a map", _set("meta", [1]), "meta: must be a map, found list"),
    ("meta format", _set("meta.format", 2), "meta.format: 2 disagrees with header version 1"),
    ("meta bundle_id", _set("meta.bundle_id", "xyz"), "meta.bundle_id: 'xyz' is not hexadecimal"),
    ("meta sha256", _set("meta.sources.0.sha256", "ab"), "meta.sources[0].sha256: must have 64"),
    # parameters
    ("params not list", _set("parameters", {}), "parameters: must be an array, found dict"),
    ("param dup name", _dup_param_name, "parameters: duplicate name 'oil_pressure' at [0] and [1]"),
    ("param empty name", _set("parameters.0.name", ""), "parameters[0].name: must not be empty"),
    ("param name type", _set("parameters.1.name", 7), "parameters[1].name: must be a str"),
    ("param extra key", _set("parameters.0.offset", 1), "parameters[0]: unknown key 'offset'"),
    ("param missing", _del("parameters.0.unit"), "parameters[0]: missing key 'unit'"),
    ("alias clash", _set("parameters.1.aliases", ["OP"]), "parameters[1].aliases: 'OP' already"),
    ("alias is name", _set("parameters.1.aliases", ["oil_pressure"]), "already names"),
    ("channel clash", _set("parameters.1.channel", 3), "parameters[1].channel: 3 is already used"),
    ("channel negative", _set("parameters.1.channel", -1), "parameters[1].channel: -1 is below"),
    ("range order", _set("parameters.0.range", [5.0, 1.0]), "parameters[0].range: lo 5.0 is above"),
    ("range nan", _set("parameters.0.range", [math.nan, 1.0]), "parameters[0].range[0]: is NaN"),
    ("range shape", _set("parameters.0.range", [1.0]), "parameters[0].range: must be [lo, hi]"),
    ("deadband neg", _set("parameters.0.deadband", -0.1), "parameters[0].deadband: -0.1 is below"),
    ("deadband inf", _set("parameters.0.deadband", math.inf), "deadband: must be finite"),
    (
        "deadband bool",
        _set("parameters.0.deadband", True),
        "deadband: must be a number, found bool",
    ),
    ("max_age nan", _set("parameters.0.max_age_s", math.nan), "parameters[0].max_age_s: is NaN"),
    # rules
    ("rule dup id", _dup_rule_id, "rules: duplicate id 'R-001' at [0] and [2]"),
    ("rule severity", _set("rules.1.severity", "danger"), "rules[1].severity: 'danger' is not one"),
    ("rule kind", _set("rules.0.kind", "maybe"), "rules[0].kind: 'maybe' is not one of"),
    ("rule inclusive", _set("rules.0.duration_inclusive", 1), "rules[0].duration_inclusive: must"),
    ("rule duration", _set("rules.1.duration_s", -1.0), "rules[1].duration_s: -1.0 is below"),
    ("rule source", _del("rules.2.source.line"), "rules[2].source: missing key 'line'"),
    ("rule page", _set("rules.0.source.page", "4"), "rules[0].source.page: must be an int"),
    ("rule template", _set("rules.0.template", b"x"), "rules[0].template: must be a str"),
    # boxes
    ("boxes not bin", _set("boxes.lo", [1.0]), "boxes.lo: must be bin (raw bytes), found list"),
    ("boxes item size", _set("boxes.lo", b"\0" * 12), "boxes.lo: 12 bytes is not a multiple of 8"),
    ("boxes extra", _set("boxes.weights", b""), "boxes: unknown key 'weights'"),
    ("boxes lo count", _set("boxes.lo", f8(0, 1, 2)), "boxes.lo: has 3 entries, expected 4"),
    ("boxes flags count", _set("boxes.flags", u1(0)), "boxes.flags: has 1 entries, expected 4"),
    ("start count", _set("boxes.start", i4(0, 1, 4)), "boxes.start: has 3 entries, expected 4"),
    ("start origin", _set("boxes.start", i4(1, 1, 3, 4)), "boxes.start: must start at 0, starts"),
    ("start end", _set("boxes.start", i4(0, 1, 2, 3)), "boxes.start: must end at 4"),
    ("start empty box", _set("boxes.start", i4(0, 3, 3, 4)), "boxes.start: must be increasing"),
    ("start decreasing", _set("boxes.start", i4(0, 3, 2, 4)), "[1] = 3, [2] = 2"),
    ("box rule range", _set("boxes.rule", i4(0, 3, 1)), "boxes.rule: [1] = 3 is out of range 0..2"),
    ("box rule neg", _set("boxes.rule", i4(-1, 1, 1)), "boxes.rule: [0] = -1 is out of range"),
    ("axis range", _set("boxes.axis", i4(0, 1, 2, 1)), "boxes.axis: [2] = 2 is out of range 0..1"),
    ("flags range", _set("boxes.flags", u1(0, 4, 1, 3)), "boxes.flags: [1] = 4 is out of range"),
    ("lo nan", _set("boxes.lo", f8(0, math.nan, 2, 3)), "boxes.lo: [1] is NaN"),
    ("hi nan", _set("boxes.hi", f8(20, 120, math.nan, 150)), "boxes.hi: [2] is NaN"),
    ("lo above hi", _set("boxes.lo", f8(30, 100, 20, 150)), "constraint [0] (lo 30.0, hi 20.0)"),
    ("lo +inf", _set("boxes.lo", f8(-math.inf, 100, math.inf, 150)), "constraint [2]"),
    ("point open", _set("boxes.flags", u1(0, 3, 1, 1)), "lo == hi but not both bounds inclusive"),
    # cnf
    ("cnf var dup", _set("cnf.variables.1.name", "pump_on"), "cnf.variables: duplicate name"),
    ("cnf var type", _set("cnf.variables.0", "x"), "cnf.variables[0]: must be a map, found str"),
    ("cnf lit zero", _set("cnf.literals", i4(-1, 0, 3, -4, -1, 2)), "cnf.literals: [1] is 0"),
    ("cnf lit var", _set("cnf.literals", i4(-1, 2, 5, -4, -1, 2)), "cnf.literals: [2] = 5 is out"),
    ("cnf lit neg", _set("cnf.literals", i4(-1, 2, 3, -5, -1, 2)), "cnf.literals: [3] = -5 is out"),
    ("cnf lit min", _set("cnf.literals", i4(-1, 2, 3, -(2**31), -1, 2)), "[3] = -2147483648"),
    ("clause_rule hi", _set("cnf.clause_rule", i4(0, 1, 3, -1)), "cnf.clause_rule: [2] = 3 is out"),
    ("clause_rule lo", _set("cnf.clause_rule", i4(0, 1, 2, -2)), "cnf.clause_rule: [3] = -2 is"),
    ("clause empty", _set("cnf.start", i4(0, 2, 2, 5, 6)), "cnf.start: must be increasing"),
    ("clause count", _set("cnf.clause_rule", i4(0, 1, 2)), "cnf.start: has 5 entries, expected 4"),
    ("cnf start end", _set("cnf.start", i4(0, 2, 3, 5, 7)), "cnf.start: must end at 6"),
    # graph
    ("edge type dup", _set("graph.edge_types.1", "has_condition"), "graph.edge_types: duplicate"),
    ("indptr count", _set("graph.indptr", i4(0, 2, 3)), "graph.indptr: has 3 entries, expected 6"),
    ("indptr order", _set("graph.indptr", i4(0, 2, 1, 2, 3, 3)), "graph.indptr: must be non-dec"),
    ("indptr end", _set("graph.indptr", i4(0, 2, 2, 2, 3, 2)), "graph.indptr: must end at 3"),
    ("indices range", _set("graph.indices", i4(1, 5, 4)), "graph.indices: [1] = 5 is out of range"),
    ("etype range", _set("graph.etype", u1(0, 1, 5)), "graph.etype: [2] = 5 is out of range 0..4"),
    ("etype count", _set("graph.etype", u1(0, 1)), "graph.etype: has 2 entries, expected 3"),
    ("indptr bytes", _set("graph.indptr", b"\0" * 5), "graph.indptr: 5 bytes is not a multiple"),
    ("node type", _set("graph.nodes.0.label", None), "graph.nodes[0].label: must be a str"),
    # procedures
    ("proc step", _del("procedures.0.steps.1.source"), "procedures[0].steps[1]: missing key"),
    ("proc id", _set("procedures.0.id", 3), "procedures[0].id: must be a str, found int"),
]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [pytest.param(m, msg, id=name) for name, m, msg in STRUCTURE_ERRORS],
)
def test_structural_errors_name_the_problem(mutate: Mutation, message: str) -> None:
    payload = copy.deepcopy(make_payload())
    mutate(payload)
    with pytest.raises(BundleError) as info:
        load_bundle(encode_bundle(payload))
    assert message in str(info.value)


def test_duplicate_procedure_ids_are_refused() -> None:
    p = make_payload()
    p["procedures"].append(copy.deepcopy(p["procedures"][0]))
    with pytest.raises(
        BundleError, match=r"procedures: duplicate id 'P-LOWOIL' at \[0\] and \[1\]"
    ):
        load_bundle(encode_bundle(p))


msgpack_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats()
    | st.text()
    | st.binary(max_size=16),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3)
    ),
    max_leaves=8,
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_any_replaced_subtree_loads_or_raises_bundle_error(data: st.DataObject) -> None:
    """Never a crash: whatever sits where, the loader answers with a Bundle or BundleError."""
    payload = make_payload()
    path = data.draw(st.sampled_from(_paths(payload)))
    node: Any = payload
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = data.draw(msgpack_values)
    try:
        load_bundle(encode_bundle(payload))
    except BundleError:
        pass
