"""sensors.toml loading: fields, aliases, and every validation error with file and line."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from rulec.compiler.model.manifest import KNOWN_KEYS, Manifest, load_manifest, normalize_alias
from rulec.compiler.model.units import PLAIN, parse_unit
from rulec.runtime.errors import ManifestError, RulecError, UnitError

DEV = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "dev"
DEV_FALLBACK = Path("/work/shared/corpus/dev")

GOOD = """\
# engine sensors
[parameters.oil_temperature]
unit = "degC"
aliases = ["Oil  Temperature ", "oil temp"]
range = [-50, 200]
channel = 3
deadband = 0.5
max_age_s = 2.0
description = "sump oil"

[parameters.count_of_things]
aliases = []
"""


def write(tmp_path: Path, text: str | bytes, name: str = "sensors.toml") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_good_manifest(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    m = load_manifest(path)
    assert isinstance(m, Manifest) and list(m) == ["oil_temperature", "count_of_things"]
    p = m["oil_temperature"]
    assert p.unit == parse_unit("degC") and p.unit_text == "degC"
    assert p.aliases == ("oil temperature", "oil temp")  # own name already there
    assert p.range == (-50.0, 200.0) and p.channel == 3
    assert p.deadband == 0.5 and p.max_age_s == 2.0
    assert p.source == str(path) and p.line == 2 and p.description == "sump oil"
    assert p.in_range(200) and not p.in_range(200.5) and not p.in_range(float("nan"))
    q = m["count_of_things"]
    assert q.unit is PLAIN and q.unit_text == "" and q.range is None
    assert q.aliases == ("count of things",) and q.deadband == 0.0 and q.max_age_s is None
    assert m.source == str(path)


def test_name_alias_added_and_aliases_normalised(tmp_path: Path) -> None:
    m = load_manifest(write(tmp_path, '[parameters.dti]\nunit = "%"\naliases = ["DTI", "D T I"]\n'))
    assert m["dti"].aliases == ("dti", "d t i")
    assert normalize_alias("  Oil\tTemp ") == "oil temp"


def test_empty_manifest(tmp_path: Path) -> None:
    assert len(load_manifest(write(tmp_path, "# nothing yet\n"))) == 0
    assert len(Manifest.empty()) == 0


def _error(tmp_path: Path, text: str | bytes) -> str:
    path = write(tmp_path, text)
    with pytest.raises(ManifestError) as info:
        load_manifest(path)
    assert isinstance(info.value, RulecError) and isinstance(info.value, ValueError)
    msg = str(info.value)
    assert msg.startswith(str(path)) and "\n" not in msg
    return msg[len(str(path)) :]


ERRORS = [
    # (manifest text, expected line or None, piece of the message)
    ('[parameters.a]\nunit = "degC"\nrange = [0, 1\n', 3, "bad TOML"),
    ('[parameters.a]\nunit = "degc"\n[parameters.a]\nunit = "K"\n', 3, "bad TOML"),
    ('[parameters.a]\nrange = [0, 1]\nunit = "psi g2 x y"\n', 3, "unknown unit"),
    ('[parameters.a]\nunit = "1 furlong"\n', 2, "unknown unit '1 furlong'"),
    ("[parameters.a]\nunit = 5\n", 2, "unit must be a string"),
    ('[parameters.a]\nunit = "K"\nrange = [1]\n', 3, "two numbers"),
    ('[parameters.a]\nunit = "K"\nrange = [1, "x"]\n', 3, "two numbers"),
    ('[parameters.a]\nunit = "K"\nrange = [true, 2]\n', 3, "two numbers"),
    ('[parameters.a]\nunit = "K"\nrange = [5, 5]\n', 3, "below high"),
    ('[parameters.a]\nunit = "K"\nrange = [9, 5.5]\n', 3, "below high"),
    ('[parameters.a]\nunit = "K"\nrange = [nan, 5]\n', 3, "below high"),
    ('[parameters.a]\nunit = "K"\n\ndeadband = -0.1\n', 4, "deadband must be a number >= 0"),
    ('[parameters.a]\ndeadband = "1"\n', 2, "deadband"),
    ("[parameters.a]\nmax_age_s = 0\n", 2, "max_age_s must be a number > 0"),
    ("[parameters.a]\nmax_age_s = -2.5\n", 2, "max_age_s"),
    ("[parameters.a]\nchannel = -1\n", 2, "channel must be an integer >= 0"),
    ("[parameters.a]\nchannel = 1.5\n", 2, "channel must be an integer"),
    ("[parameters.a]\nchannel = true\n", 2, "channel must be an integer"),
    (
        '[parameters.a]\nchannel = 1\n[parameters.b]\nunit = "V"\nchannel = 1\n',
        5,
        "channel 1 is used by both 'a' and 'b'",
    ),
    (
        '[parameters.a]\nunit = "K"\nseverity = "x"\n',
        3,
        "unknown key 'severity' (known keys: " + ", ".join(KNOWN_KEYS),
    ),
    ('[parameters."oil temp"]\nunit = "K"\n', 1, "not an identifier"),
    ('[parameters.9lives]\nunit = "K"\n', 1, "not an identifier"),
    (
        '[parameters.a]\naliases = ["x", "oil"]\n\n[parameters.b]\naliases = ["OIL"]\n',
        5,
        "alias 'oil' belongs to both 'a' and 'b'",
    ),
    (
        '[parameters.oil_temp]\nunit = "K"\n[parameters.b]\naliases = ["oil temp"]\n',
        4,
        "alias 'oil temp' belongs to both 'oil_temp' and 'b'",
    ),
    ('[parameters.a]\naliases = "oil"\n', 2, "aliases must be a list of strings"),
    ('[parameters.a]\naliases = ["  "]\n', 2, "alias is empty"),
    ("[parameters.a]\ndescription = 3\n", 2, "description must be a string"),
    ("[parameters]\na = 3\n", 2, "must be a table"),
    ("parameters = 3\n", 1, "'parameters' must be a table"),
    ('[sensors.a]\nunit = "K"\n', 1, "unknown top-level key 'sensors'"),
]


@pytest.mark.parametrize(("text", "line", "piece"), ERRORS)
def test_errors_name_file_and_line(tmp_path: Path, text: str, line: int | None, piece: str) -> None:
    msg = _error(tmp_path, text)
    assert piece in msg
    if line is not None:
        assert msg.startswith(f":{line}: "), msg


def test_not_utf8(tmp_path: Path) -> None:
    msg = _error(tmp_path, b'[parameters.a]\nunit = "\xb0C"\n')
    assert msg.startswith(":2: ") and "not UTF-8" in msg


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope" / "sensors.toml"
    with pytest.raises(ManifestError, match="cannot read") as info:
        load_manifest(path)
    assert str(path) in str(info.value)


def test_bom_and_inline_table(tmp_path: Path) -> None:
    text = '\ufeff[parameters]\noil = { unit = "psi", range = [0, 100] }\n'
    m = load_manifest(write(tmp_path, text))
    assert m["oil"].unit == parse_unit("psi") and m["oil"].line == 2


def test_missing_unit_is_plain(tmp_path: Path) -> None:
    m = load_manifest(write(tmp_path, "[parameters.score]\nrange = [0, 10]\n"))
    assert m["score"].unit is PLAIN


def _dev_manifests() -> list[Path]:
    root = DEV if DEV.is_dir() else DEV_FALLBACK
    return sorted(root.glob("*/sensors.toml")) if root.is_dir() else []


@pytest.mark.skipif(not _dev_manifests(), reason="dev corpus (shared/corpus/dev) not present")
@pytest.mark.parametrize("path", _dev_manifests(), ids=lambda p: p.parent.name)
def test_dev_corpus_manifests_load(path: Path) -> None:
    m = load_manifest(path)
    assert len(m) > 0
    for name, p in m.items():
        assert name.replace("_", " ") in p.aliases
        assert not p.unit.is_plain and p.range is not None


def test_a_unit_rulec_does_not_know_is_declared_as_its_own_quantity(tmp_path: Path) -> None:
    """"aw" (water activity), "furlongs": compared as written, never converted; the
    compile lists the line for review (tests/compiler/test_cli.py)."""
    from rulec.compiler.model.units import convert, is_declared, parse_unit

    path = tmp_path / "sensors.toml"
    path.write_text('[parameters.water_activity]\nunit = "aw"\nrange = [0, 1]\n',
                    encoding="utf-8")
    unit = load_manifest(path)["water_activity"].unit
    assert is_declared(unit) and parse_unit("aw") == unit
    assert convert(Decimal("0.85"), unit, unit) == Fraction(85, 100)
    with pytest.raises(UnitError):
        convert(1, unit, parse_unit("percent"))
