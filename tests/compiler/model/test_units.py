"""Units: exact conversion, manifest unit strings, unit phrases and numbers in prose."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulec.compiler.model.units import (
    PLAIN,
    Unit,
    convert,
    convert_delta,
    convert_float,
    duration_seconds,
    is_counted_noun,
    is_unit,
    match_currency_prefix,
    match_number,
    match_unit_phrase,
    parse_number,
    parse_unit,
    units_compatible,
)
from rulec.runtime.errors import RulecError, UnitError

u = parse_unit

# ------------------------------------------------------------------ parse_unit

CONTRACT_UNITS = {
    "degC": "temperature",
    "degF": "temperature",
    "K": "temperature",
    "Pa": "pressure",
    "kPa": "pressure",
    "MPa": "pressure",
    "bar": "pressure",
    "psi": "pressure",
    "mmHg": "pressure",
    "V": "voltage",
    "mV": "voltage",
    "kV": "voltage",
    "A": "current",
    "mA": "current",
    "ohm": "resistance",
    "kOhm": "resistance",
    "MOhm": "resistance",
    "m": "length",
    "km": "length",
    "ft": "length",
    "m/s": "speed",
    "km/h": "speed",
    "kt": "speed",
    "rpm": "frequency",
    "percent": "ratio",
    "s": "time",
    "min": "time",
    "h": "time",
    "count": "count",
    "units": "count",
    "points": "count",
    "years": "calendar",
    "EUR": "EUR",
    "veh/h": "frequency",
    "bpm": "frequency",
}


@pytest.mark.parametrize(("text", "dimension"), sorted(CONTRACT_UNITS.items()))
def test_contract_units_parse(text: str, dimension: str) -> None:
    assert u(text).dimension == dimension


def test_spellings_and_case() -> None:
    assert u("PSI") == u("psi") == u("Psi")
    assert u("°C") == u("degC") == u("℃") == u("C") == u("celsius") == u("deg C")
    assert u("kΩ") == u("kOhm") == u("kohm") == u("kΩ")
    assert u("mV").scale == Fraction(1, 1000) and u("MV").scale == 10**6
    assert u("mW") != u("MW")
    assert u("KM/H") == u("km/h") == u("kph")
    assert u("µs") == u("us") == u("μs")
    assert u("  L / min ") == u("lpm") == u("litres per minute")
    assert u("mg/dL").scale == Fraction(1, 100)  # kg/m³
    assert u("vehicles per hour") == u("veh/h")
    assert u("beats per minute") == u("bpm")


def test_plain_unit() -> None:
    assert u("") is PLAIN and u("none") is PLAIN
    assert convert(42, u("psi"), PLAIN) == 42 and convert("7", PLAIN, u("degF")) == 7
    assert units_compatible(u("bar"), PLAIN)


@pytest.mark.parametrize(
    ("text", "suggestion"),
    [("mv", "'mV'"), ("celcius", "celsius"), ("kpsi", "psi"), ("degK", "deg")],
)
def test_unknown_unit_suggests(text: str, suggestion: str) -> None:
    with pytest.raises(UnitError) as info:
        u(text)
    msg = str(info.value)
    assert repr(text) in msg and suggestion in msg and "\n" not in msg
    assert isinstance(info.value, RulecError) and isinstance(info.value, ValueError)


def test_unknown_unit_in_compound() -> None:
    with pytest.raises(UnitError, match="'furlong'"):
        u("furlong/h")


@pytest.mark.parametrize(
    "text", ["psi", "degC", "km/h", "m/s2", "mg/dL", "veh per h", "", "none", "furlong",
             "furlong/h", "mv", "bar/", "kPa/ per"])
def test_is_unit_agrees_with_parse_unit(text: str) -> None:
    """The probe answers exactly what parsing would, without building an error."""
    try:
        u(text)
        parses = True
    except UnitError:
        parses = False
    assert is_unit(text) is parses


def test_compound_error_names_the_part_and_the_whole() -> None:
    with pytest.raises(UnitError, match=r"unknown unit 'furlong' in 'furlong/h'"):
        u("furlong/h")


def test_mv_is_ambiguous_and_says_so() -> None:
    with pytest.raises(UnitError) as info:
        u("mv")
    assert "'mV'" in str(info.value) and "'MV'" in str(info.value)


def test_every_symbol_parses_back_to_its_unit() -> None:
    """Callers store ``unit.symbol`` and re-parse it: that must give the same unit."""
    from rulec.compiler.model import units as module

    every = set(module._EXACT.values()) | set(module._NAMES.values())
    for unit in every:
        assert u(unit.symbol) == unit, unit.symbol
        for den in ("h", "min", "s", "L", "kg"):
            q = u(f"{unit.symbol}/{den}")
            assert u(q.symbol) == q, q.symbol
            assert q.scale == unit.scale / u(den).scale
    for text, _ in PHRASES:
        m = match_number(text, 0)
        assert m is not None
        got = match_unit_phrase(text, m[1])
        assert got is not None and u(got[0].symbol) == got[0]


# ------------------------------------------------------------------ exact conversion


def test_temperature_exact() -> None:
    assert convert(27, u("degC"), u("degF")) == Fraction("80.6")
    assert convert_float(27, u("degC"), u("degF")) == float("80.6") == 80.6
    assert convert("38.5", u("°C"), u("°F")) == Fraction("101.3")
    assert convert(100, u("degC"), u("degF")) == 212
    assert convert(-40, u("degF"), u("degC")) == -40
    assert convert(0, u("degC"), u("K")) == Fraction("273.15")
    assert convert_float(Decimal("80.6"), u("degF"), u("degC")) == 27.0


def test_pressure_exact() -> None:
    assert convert(100, u("kPa"), u("bar")) == 1
    assert convert(1, u("mmHg"), u("Pa")) == Fraction(101325, 760)
    assert convert(760, u("mmHg"), u("atm")) == 1
    psi = Fraction("0.45359237") * Fraction("9.80665") / Fraction("0.0254") ** 2
    assert convert(1, u("psi"), u("Pa")) == psi
    assert abs(float(psi) - 6894.757293168361) < 1e-9
    # by hand: 14.7 * 6894.757293168361 Pa = 101352.932209575 Pa = 101.352932 kPa
    kpa = convert_float("14.7", u("psi"), u("kPa"))
    assert round(kpa, 6) == 101.352932
    assert kpa == float(Fraction("14.7") * psi / 1000)


def test_other_exact_boundaries() -> None:
    assert convert(1, u("MOhm"), u("kOhm")) == 1000
    assert convert(1, u("kV"), u("mV")) == 10**6
    assert convert(36, u("km/h"), u("m/s")) == 10
    assert convert(1, u("kt"), u("km/h")) == Fraction("1.852")
    assert convert(1, u("mi"), u("ft")) == 5280
    assert convert(1, u("h"), u("s")) == 3600
    assert convert(1, u("years"), u("months")) == 12
    assert convert(60, u("rpm"), u("Hz")) == 1
    assert convert(1, u("kWh"), u("MJ")) == Fraction("3.6")
    assert convert(1, u("L/min"), u("mL/min")) == 1000
    assert convert("0.1", u("percent"), u("ppm")) == 1000
    assert convert_float(0.1, u("m"), u("mm")) == 100.0  # a float means its repr


def test_delta_uses_scale_only() -> None:
    assert convert_delta("0.5", u("degC"), u("degF")) == Fraction("0.9")
    assert convert_delta(1, u("K"), u("degC")) == 1
    assert convert_delta(2, u("bar"), u("kPa")) == 200


def test_cross_dimension_raises() -> None:
    with pytest.raises(UnitError, match="temperature"):
        convert(1, u("degC"), u("psi"))
    with pytest.raises(UnitError):
        convert(1, u("EUR"), u("USD"))
    with pytest.raises(UnitError):
        convert_delta(1, u("years"), u("s"))


def test_durations() -> None:
    assert duration_seconds(15, u("min")) == 900
    assert duration_seconds("2", u("s")) == 2
    assert duration_seconds(1, u("years")) == 31556952
    with pytest.raises(UnitError):
        duration_seconds(1, u("m"))


SAME_DIMENSION = [
    ["degC", "degF", "K"],
    ["Pa", "kPa", "MPa", "bar", "mbar", "psi", "mmHg", "atm", "inHg"],
    ["V", "mV", "kV"],
    ["ohm", "kOhm", "MOhm"],
    ["m", "km", "ft", "mi", "nmi", "mm", "in"],
    ["m/s", "km/h", "kt", "mph", "ft/s"],
    ["s", "ms", "min", "h", "d"],
    ["Hz", "rpm", "bpm", "veh/h", "kHz"],
    ["percent", "ppm", "1"],
    ["g", "kg", "lb", "t", "mg"],
]
pairs = st.sampled_from(SAME_DIMENSION).flatmap(
    lambda group: st.tuples(st.sampled_from(group), st.sampled_from(group), st.sampled_from(group))
)
decimals = st.decimals(min_value=-(10**9), max_value=10**9, places=6, allow_nan=False)


@given(pairs, decimals)
def test_round_trip_is_exact(names: tuple[str, str, str], value: Decimal) -> None:
    a, b, c = (u(n) for n in names)
    assert convert(convert(value, a, b), b, a) == Fraction(value)
    assert convert(convert(value, a, b), b, c) == convert(value, a, c)
    assert convert_delta(convert_delta(value, a, b), b, a) == Fraction(value)


@given(decimals)
def test_convert_float_is_nearest_double(value: Decimal) -> None:
    exact = convert(value, u("degC"), u("degF"))
    got = convert_float(value, u("degC"), u("degF"))
    assert got == float(exact)
    # no other double is closer: the neighbours are at least as far away
    import math

    for other in (math.nextafter(got, math.inf), math.nextafter(got, -math.inf)):
        assert abs(Fraction(other) - exact) >= abs(Fraction(got) - exact)


PREFIXED = {"k": Fraction(1000), "M": Fraction(10**6), "m": Fraction(1, 1000)}


@given(st.sampled_from(sorted(PREFIXED)), st.sampled_from(["V", "A", "W", "Pa", "Hz", "m", "J"]))
def test_si_prefixes(prefix: str, base: str) -> None:
    if (prefix, base) in {("M", "A"), ("M", "m"), ("m", "Pa"), ("m", "Hz"), ("m", "J")}:
        return  # not defined on purpose (no megametre, millipascal ...)
    assert u(prefix + base).scale == u(base).scale * PREFIXED[prefix]
    assert u(prefix + base).dimension == u(base).dimension


# ------------------------------------------------------------------ prose phrases

PHRASES = [
    ("30°C", "degC"),
    ("38.5 °C", "degC"),
    ("20 %", "percent"),
    ("20%", "percent"),
    ("50 PSI", "psi"),
    ("1,800 vehicles per hour", "veh/h"),
    ("40 beats per minute", "bpm"),
    ("25,000 euros", "EUR"),
    ("15 minutes", "min"),
    ("2 seconds", "s"),
    ("2 s", "s"),
    ("3 h", "h"),
    ("200 m", "m"),
    ("18 years", "yr"),
    ("10 units", "unit"),
    ("5 mmHg", "mmHg"),
    ("245 °F", "degF"),
    ("300 K", "K"),
    ("500 kOhm", "kOhm"),
    ("5 kΩ", "kOhm"),
    ("60 km/h", "km/h"),
    ("120 kt", "kt"),
    ("3,000 ft", "ft"),
    ("5 degrees Celsius", "degC"),
    ("5 degrees Fahrenheit", "degF"),
    ("5 per cent", "percent"),
    ("5 percent", "percent"),
    ("5 psi", "psi"),
    ("5 bar", "bar"),
    ("30,000 rpm", "rpm"),
    ("5 revolutions per minute", "rpm"),
    ("5 hours", "h"),
    ("5 hrs", "h"),
    ("5 days", "d"),
    ("5 weeks", "wk"),
    ("5 months", "mo"),
    ("5 years", "yr"),
    ("5 volts", "V"),
    ("5 amps", "A"),
    ("5 ohms", "ohm"),
    ("5 mA", "mA"),
    ("5 beats/min", "bpm"),
    ("5 breaths per minute", "breath/min"),
    ("5 mg/dL", "mg/dL"),
    ("5 L/min", "L/min"),
    ("5 Hz", "Hz"),
    ("5 ℃", "degC"),
    ("5 ° C", "degC"),
    ("30-minute", "min"),
    ("5 KM/H", "km/h"),
    ("5 MV", "MV"),
    ("5 mV", "mV"),
    ("12 per minute", "count/min"),
    ("5 pounds sterling", "GBP"),
    ("5 lbs", "lb"),
    ("5 m/s", "m/s"),
    ("5 knots", "kt"),
]


@pytest.mark.parametrize(("text", "symbol"), PHRASES)
def test_phrases(text: str, symbol: str) -> None:
    m = match_number(text, 0)
    assert m is not None
    got = match_unit_phrase(text, m[1])
    assert got is not None and got[0].symbol == symbol and got[1] == len(text)


@pytest.mark.parametrize(
    "text",
    [
        "200 mark",
        "2 send",
        "5 hat",
        "12-lead",
        "5 degrees",
        "5°",
        "5 in",
        "5 at",
        "5 a day",
        "3 or more",
        "5 us",
        "5 Mintues",
    ],
)
def test_no_unit(text: str) -> None:
    m = match_number(text, 0)
    assert m is not None and match_unit_phrase(text, m[1]) is None


def test_longest_match_and_end_index() -> None:
    text = "If the speed exceeds 1,800 vehicles per hour, open the lane."
    start = text.index("1,800")
    value, end = match_number(text, start) or (None, 0)
    assert value == 1800
    unit, stop = match_unit_phrase(text, end) or (None, 0)
    assert unit == u("veh/h") and text[stop] == ","
    text = "for more than 15 minutes, move"
    unit, stop = match_unit_phrase(text, text.index("15") + 2) or (None, 0)
    assert unit == u("min") and text[stop:] == ", move"
    # only one line break may stand between a number and its unit
    assert match_unit_phrase("5\n\nbar", 1) is None
    assert match_unit_phrase("5\n bar", 1) is not None


SHORT = ["m", "s", "h", "K", "A", "V", "g", "min", "ft", "bar", "psi", "rpm", "kt"]


@given(
    st.sampled_from(SHORT),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=6),
    st.sampled_from(["", " ", "  "]),
)
def test_units_end_at_word_boundary(symbol: str, tail: str, space: str) -> None:
    text = f"5{space}{symbol}{tail} next"
    got = match_unit_phrase(text, 1)
    word_end = text.index(" next")
    assert got is None or got[1] == word_end  # never stops inside a word


@given(st.sampled_from(PHRASES), st.sampled_from(["", ".", ",", ")", " and more", ";"]))
def test_phrase_followed_by_punctuation(case: tuple[str, str], tail: str) -> None:
    text, symbol = case
    m = match_number(text, 0)
    assert m is not None
    got = match_unit_phrase(text + tail, m[1])
    assert got is not None and got[0].symbol == symbol and got[1] == len(text)


def test_compatibility_of_prose_with_manifest_units() -> None:
    def prose(text: str) -> Unit:
        m = match_number(text, 0)
        assert m is not None
        got = match_unit_phrase(text, m[1])
        assert got is not None
        return got[0]

    for text, manifest in [
        ("10 units", "units"),
        ("10 units", "count"),
        ("10 items", "points"),
        ("1,800 vehicles per hour", "veh/h"),
        ("40 beats per minute", "bpm"),
        ("25,000 euros", "EUR"),
        ("18 years", "years"),
        ("6 months", "years"),
        ("20 %", "percent"),
        ("30,000 rpm", "rpm"),
        ("50 PSI", "kPa"),
    ]:
        assert units_compatible(prose(text), u(manifest)), (text, manifest)
    assert convert(1800, prose("1,800 vehicles per hour"), u("veh/h")) == 1800
    assert convert(6, prose("6 months"), u("years")) == Fraction(1, 2)
    assert not units_compatible(prose("10 units"), u("percent"))
    assert not units_compatible(prose("20 %"), u("count"))
    assert is_counted_noun(prose("10 units")) and is_counted_noun(prose("5 vehicles per hour"))
    assert is_counted_noun(prose("40 beats per minute")) and not is_counted_noun(prose("5 m"))


def test_currency_prefix() -> None:
    unit, end = match_currency_prefix("€25,000", 0) or (None, 0)
    assert unit == u("EUR") and end == 1
    assert match_currency_prefix("$ 500", 0) is not None
    assert match_currency_prefix("EURO", 0) is None


# ------------------------------------------------------------------ numbers


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1,800", "1800"),
        ("30,000", "30000"),
        ("-15", "-15"),
        ("+5", "5"),
        ("38.5", "38.5"),
        ("\u22123", "-3"),
        ("1,000,000.25", "1000000.25"),
        ("1\u202f800", "1800"),
        (".5", "0.5"),
        ("0", "0"),
    ],
)
def test_parse_number(text: str, value: str) -> None:
    assert parse_number(text) == Decimal(value)


@pytest.mark.parametrize("text", ["1,5", "1 800", "12,34", "1,8000", "", "-", "1.2.3", "1e5"])
def test_parse_number_rejects(text: str) -> None:
    with pytest.raises(ValueError):
        parse_number(text)


@given(st.integers(min_value=-(10**12), max_value=10**12))
def test_thousands_round_trip(n: int) -> None:
    assert parse_number(f"{n:,}") == n
    assert parse_number(str(n)) == n


@given(decimals)
def test_decimal_round_trip(d: Decimal) -> None:
    assert parse_number(f"{d:f}") == d


def test_match_number_in_prose() -> None:
    assert match_number("REQ-001", 3) is None  # a hyphen inside an identifier is no sign
    assert match_number("at -15 °C", 3) == (Decimal("-15"), 6)
    assert match_number("1,8000", 0) == (Decimal(1), 1)
    assert match_number("1,5 bar", 0) == (Decimal(1), 1)
    assert match_number("is 5.", 3) == (Decimal(5), 4)
    assert match_number("2 million euros", 0) == (Decimal(2000000), 9)
    assert match_number("1.5 billion", 0) == (Decimal(1500000000), 11)
    assert match_number("2 million euros", 0, magnitudes=False) == (Decimal(2), 1)
    assert match_number("abc", 0) is None


@pytest.mark.parametrize("text, symbol", [
    ("particles/m³", "particle/m³"), ("CFU/m³", "colony/m³"), ("cfu/m3", "colony/m³"),
    ("colonies", "colony"), ("pulses", "pulse"),
])
def test_counted_nouns_of_cleanrooms_and_instruments(text: str, symbol: str) -> None:
    unit = parse_unit(text)
    assert unit.symbol == symbol and unit.dimension.startswith("count")
    assert units_compatible(unit, parse_unit("counts/m³" if "/" in text else "count"))
