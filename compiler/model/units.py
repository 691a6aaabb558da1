"""Units of measure: exact conversion, manifest unit strings and unit phrases in prose.

Every unit maps to its dimension's base unit by an exact affine map held in Fractions,
``base = value * scale + offset``, so a converted threshold is the number a person
computes by hand (27 degC is exactly 80.6 degF).  ``docs/units.md`` lists the units
and phrases understood and the policies (case, plain numbers, calendar units).
"""

from __future__ import annotations

import difflib
import functools
import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from rulec.runtime.errors import UnitError

__all__ = [
    "PLAIN",
    "Unit",
    "convert",
    "convert_delta",
    "convert_float",
    "duration_seconds",
    "is_counted_noun",
    "match_currency_prefix",
    "match_number",
    "match_unit_phrase",
    "parse_number",
    "parse_unit",
    "units_compatible",
]

Number = Fraction | Decimal | int | float | str

PLAIN_DIMENSION = "plain"


@dataclass(frozen=True)
class Unit:
    """A unit: ``value * scale + offset`` is the value in the base unit of ``dimension``."""

    symbol: str
    dimension: str
    scale: Fraction
    offset: Fraction = Fraction(0)

    @property
    def is_plain(self) -> bool:
        """True for the unit of a parameter declared without a unit (a plain number)."""
        return self.dimension == PLAIN_DIMENSION

    def __str__(self) -> str:
        return self.symbol


PLAIN = Unit("", PLAIN_DIMENSION, Fraction(1))
"""Unit of a manifest parameter without ``unit``: numbers are taken at face value."""

# --------------------------------------------------------------------------- registry

_UNITS: dict[str, Unit] = {}  # canonical symbol -> unit
_EXACT: dict[str, Unit] = {}  # case-sensitive spellings: symbols and symbol aliases
_NAMES: dict[str, Unit] = {}  # lower-cased words ("degrees celsius", "vehicles")
_COUNTED: set[str] = set()  # canonical symbols of counted nouns
_NO_FOLD_DIMENSIONS = {"information"}  # "MB" vs "mb": never guess the case
# Spellings understood in a manifest but never in prose, where they are common words
# or too ambiguous after a number ("in", "us", "a"; bare "degrees" may be an angle
# or a temperature, so a number before it keeps the parameter's own unit).
# fmt: off
_NOT_IN_PROSE = {
    "in", "us", "at", "a", "y", "1", "ratio", "fraction", "deg", "degree", "degrees",
    "°", "B", "N", "S", "mo", "mon", "none", "um", "#", "var", "bit", "bits", "Mach", "mach",
    "R", "As",
}
# fmt: on
# Spellings read in prose only as written: their lower case is a common word ("oF" is
# the OCR form of °F, "of" in "5 of the cars" is not).
_KEEP_CASE_IN_PROSE = {"oF"}

_PREFIXES: dict[str, tuple[Fraction, str]] = {
    "G": (Fraction(10**9), "giga"),
    "M": (Fraction(10**6), "mega"),
    "k": (Fraction(1000), "kilo"),
    "h": (Fraction(100), "hecto"),
    "d": (Fraction(1, 10), "deci"),
    "c": (Fraction(1, 100), "centi"),
    "m": (Fraction(1, 1000), "milli"),
    "µ": (Fraction(1, 10**6), "micro"),
    "n": (Fraction(1, 10**9), "nano"),
    "p": (Fraction(1, 10**12), "pico"),
}
_MICRO_SPELLINGS = ("µ", "μ", "u")  # micro sign, Greek mu, ASCII u (manifest only)


def _register(unit: Unit, spellings: Iterable[str], names: Iterable[str]) -> Unit:
    _UNITS.setdefault(unit.symbol, unit)
    for s in (unit.symbol, *spellings):
        _EXACT.setdefault(s, unit)
    for n in names:
        _NAMES.setdefault(" ".join(n.lower().split()), unit)
    return unit


def _unit(
    symbol: str,
    dimension: str,
    scale: Fraction | int | str,
    offset: Fraction | int | str = 0,
    *,
    aliases: Iterable[str] = (),
    names: Iterable[str] = (),
    prefixes: str = "",
) -> Unit:
    """Define a unit, its spellings and word names, and its SI-prefixed forms."""
    aliases, names = tuple(aliases), tuple(names)
    base = _register(Unit(symbol, dimension, Fraction(scale), Fraction(offset)), aliases, names)
    for p in prefixes:
        factor, word = _PREFIXES[p]
        spellings = _MICRO_SPELLINGS if p == "µ" else (p,)
        forms = [sp + s for sp in spellings for s in (symbol, *aliases)]
        canon = p + ("Ohm" if symbol == "ohm" else symbol)
        _register(
            Unit(canon, dimension, base.scale * factor),
            forms,
            [word + n for n in names],
        )
    return base


def _s(*words: str) -> tuple[str, ...]:
    """Words and their regular plurals ("volt" -> "volt", "volts")."""
    return tuple(w for word in words for w in (word, word + "s"))


def _noun(symbol: str, *names: str) -> Unit:
    """A counted noun: its own name, dimension ``count``, compatible with any count."""
    _COUNTED.add(symbol)
    return _unit(symbol, "count", 1, names=names)


def _alias(unit: Unit, *spellings: str, names: Iterable[str] = ()) -> Unit:
    return _register(unit, spellings, names)


_QUOTIENT_DIMENSIONS = {
    ("length", "time"): "speed",
    ("count", "time"): "frequency",
    ("volume", "time"): "flow",
    ("mass", "time"): "mass flow",
    ("energy", "time"): "power",
    ("mass", "volume"): "mass concentration",
    ("amount", "volume"): "molar concentration",
    ("information", "time"): "data rate",
    ("speed", "time"): "acceleration",
}


def _quotient(num: Unit, den: Unit) -> Unit:
    """``num/den``; an affine unit (degC) in a quotient is a difference: scale only."""
    symbol = f"{num.symbol}/{den.symbol}"
    known = _EXACT.get(symbol)
    if known is not None:
        return known
    if num.dimension == den.dimension:
        dimension = "ratio"
    elif num.symbol == "1" and den.dimension == "time":
        dimension = "frequency"  # 1/min: so many a minute, of anything counted
    else:
        right = f"({den.dimension})" if "/" in den.dimension else den.dimension
        dimension = _QUOTIENT_DIMENSIONS.get(
            (num.dimension, den.dimension), f"{num.dimension}/{right}"
        )
    return Unit(symbol, dimension, num.scale / den.scale)


# fmt: off
# --- temperature (base K)
_unit("K", "temperature", 1, aliases=["°K"], names=_s("kelvin") + ("degrees kelvin",))
DEG_C = _unit(
    "degC", "temperature", 1, "273.15",
    aliases=["°C", "℃", "ºC", "˚C", "° C", "º C", "deg C", "oC", "C", "Cel"],
    names=["celsius", "centigrade", "degree celsius", "degrees celsius", "deg celsius",
           "degrees centigrade", "degrees c", "degree c"],
)
DEG_F = _unit(
    "degF", "temperature", Fraction(5, 9), Fraction("459.67") * Fraction(5, 9),
    aliases=["°F", "℉", "ºF", "˚F", "° F", "º F", "deg F", "oF", "F"],
    names=["fahrenheit", "degree fahrenheit", "degrees fahrenheit", "deg fahrenheit",
           "degrees f", "degree f"],
)

# --- pressure (base Pa)
_PSI = Fraction("0.45359237") * Fraction("9.80665") / Fraction("0.0254") ** 2
_MMHG = Fraction(101325, 760)
_unit("Pa", "pressure", 1, names=_s("pascal"), prefixes="hkMG")
_unit("bar", "pressure", 100000, names=_s("bar"), prefixes="µm")
_unit("psi", "pressure", _PSI, aliases=["lbf/in2", "lbf/in²", "p.s.i.", "p.s.i"],
      names=["pounds per square inch", "pound per square inch"])
_unit("psia", "pressure", _PSI)  # gauge vs absolute is not reconciled: see docs
_unit("psig", "pressure", _PSI)
_unit("psid", "pressure", _PSI)
_unit("barg", "pressure", 100000)  # gauge vs absolute is not reconciled: see docs
_unit("bara", "pressure", 100000)
_unit("ksi", "pressure", _PSI * 1000)
_unit("mmHg", "pressure", _MMHG, aliases=["mm Hg"],
      names=["millimetre of mercury", "millimetres of mercury", "millimeter of mercury",
             "millimeters of mercury", "mm of mercury"])
_unit("Torr", "pressure", _MMHG, aliases=["torr"])
_unit("inHg", "pressure", _MMHG * Fraction("25.4"), aliases=["in Hg"],
      names=["inches of mercury", "inch of mercury"])
_unit("atm", "pressure", 101325, names=_s("atmosphere"))
_unit("cmH2O", "pressure", Fraction("98.0665"), aliases=["cm H2O", "cmH₂O"])
_unit("inH2O", "pressure", Fraction("249.08891"), aliases=["in H2O", "inH₂O"])

# --- electrical
_unit("V", "voltage", 1, aliases=["VDC", "Vdc", "VAC", "Vac"], names=_s("volt"),
      prefixes="µmkM")
_unit("A", "current", 1, names=_s("amp", "ampere"), prefixes="µmk")
_unit("ohm", "resistance", 1, aliases=["Ohm", "Ω", "Ω"], names=_s("ohm"), prefixes="mkMG")
_alias(_UNITS["kOhm"], names=_s("kilohm"))
_alias(_UNITS["MOhm"], names=_s("megohm"))
_unit("Ah", "charge", 3600, aliases=["A·h", "A h"],
      names=_s("amp-hour", "ampere-hour", "amp hour", "ampere hour"), prefixes="mk")
_unit("W", "power", 1, names=_s("watt"), prefixes="mkMG")
_unit("hp", "power", Fraction(550) * Fraction("0.3048") * Fraction("0.45359237")
      * Fraction("9.80665"), names=["horsepower"])
_unit("VA", "apparent power", 1, names=_s("volt-ampere"), prefixes="kM")
_unit("J", "energy", 1, names=_s("joule"), prefixes="kMG")
_unit("Wh", "energy", 3600, aliases=["W·h"], names=_s("watt-hour", "watt hour"),
      prefixes="kMG")
_unit("cal", "energy", Fraction("4.184"), names=_s("calorie"), prefixes="k")

# --- length (base m), speed (base m/s), acceleration
_unit("m", "length", 1, names=_s("metre", "meter"), prefixes="kcdmµn")
_unit("ft", "length", Fraction("0.3048"), names=["foot", "feet"])
_unit("in", "length", Fraction("0.0254"), names=["inch", "inches"])
_unit("yd", "length", Fraction("0.9144"), names=_s("yard"))
_unit("mi", "length", Fraction("1609.344"), names=_s("mile", "statute mile"))
_unit("nmi", "length", 1852, aliases=["NM"], names=_s("nautical mile"))
_unit("km/h", "speed", Fraction(1000, 3600), aliases=["kph", "kmh", "km/hr", "kmph"])
_unit("mph", "speed", Fraction("1609.344") / 3600, aliases=["mi/h"])
_unit("kt", "speed", Fraction(1852, 3600), aliases=["kts", "kn"], names=_s("knot"))
_unit("m/s²", "acceleration", 1, aliases=["m/s2", "m/s^2"])

# --- time (base s) and calendar (base month; not convertible to seconds)
_unit("s", "time", 1, aliases=["sec", "secs"], names=_s("second"), prefixes="mµn")
_unit("min", "time", 60, aliases=["mins"], names=_s("minute"))
_unit("h", "time", 3600, aliases=["hr", "hrs"], names=_s("hour"))
_unit("d", "time", 86400, names=_s("day"))
_unit("wk", "time", 7 * 86400, aliases=["wks"], names=_s("week"))
_unit("mo", "calendar", 1, aliases=["mon"], names=_s("month"))
_unit("yr", "calendar", 12, aliases=["yrs", "y"], names=_s("year"))

# --- rates of counted things (base 1/s): frequency, rotation, beats, vehicles ...
_unit("Hz", "frequency", 1, names=["hertz"], prefixes="kMG")
_unit("rpm", "frequency", Fraction(1, 60), aliases=["rev/min", "r/min", "revs/min"])
_unit("rps", "frequency", 1, aliases=["rev/s", "r/s"])
_unit("bpm", "frequency", Fraction(1, 60), aliases=["beat/min", "beats/min"])

# --- ratio (base 1)
_unit("percent", "ratio", Fraction(1, 100),
      aliases=["%", "pct", "%RH", "% RH", "%rh", "RH%", "% LEL", "%LEL", "vol%", "% vol"],
      names=["percent", "per cent", "percentage", "per centum", "volume per centum",
             "volume percent", "percent by volume", "per cent by volume", "percent volume"])
_unit("permille", "ratio", Fraction(1, 1000), aliases=["‰"], names=["per mille", "per mil"])
_unit("ppm", "ratio", Fraction(1, 10**6), names=["parts per million"])
_unit("ppb", "ratio", Fraction(1, 10**9), names=["parts per billion"])
_unit("1", "ratio", 1, names=["ratio", "fraction"])

# --- mass (base kg), volume (base m³), amount, force, torque, angle, information
_unit("g", "mass", Fraction(1, 1000), names=_s("gram", "gramme"), prefixes="kmµ")
_unit("t", "mass", 1000, names=_s("tonne", "metric ton"))
_unit("lb", "mass", Fraction("0.45359237"), aliases=["lbs", "lbm"], names=["pound", "pounds"])
_unit("oz", "mass", Fraction("0.028349523125"), names=_s("ounce"))
_unit("L", "volume", Fraction(1, 1000), aliases=["l", "ℓ"], names=_s("litre", "liter"),
      prefixes="mcdµ")
_unit("m³", "volume", 1, aliases=["m3"], names=_s("cubic metre", "cubic meter"))
_unit("cm³", "volume", Fraction(1, 10**6), aliases=["cm3", "cc"], names=_s("cubic centimetre"))
_unit("gal", "volume", Fraction("0.003785411784"), names=_s("gallon", "US gallon"))
_unit("ft³", "volume", Fraction("0.3048") ** 3, aliases=["ft3", "cu ft", "cu. ft."],
      names=("cubic foot", "cubic feet"))
_unit("mol", "amount", 1, names=_s("mole"), prefixes="mµn")
_unit("N", "force", 1, names=_s("newton"), prefixes="kM")
_unit("lbf", "force", Fraction("0.45359237") * Fraction("9.80665"), names=_s("pound-force"))
_unit("N·m", "torque", 1, aliases=["Nm", "N m", "N.m"],
      names=_s("newton metre", "newton-metre", "newton meter", "newton-meter"))
_unit("kN·m", "torque", 1000, aliases=["kNm", "kN m", "kN.m"])
_unit("lbf·ft", "torque", Fraction("0.45359237") * Fraction("9.80665") * Fraction("0.3048"),
      aliases=["lb·ft", "ft·lbf", "lbf ft", "lb-ft", "ft-lb", "ft-lbf", "ft-lbs"],
      names=_s("foot-pound", "pound-foot") + ("pound-feet", "pounds-feet"))
_unit("deg", "angle", 1, aliases=["°"], names=_s("degree", "angular degree"))
# 180/pi is irrational: the radian is the one unit converted through a rounded scale
_unit("rad", "angle", Fraction(180 / math.pi), names=_s("radian"), prefixes="m")
_unit("m²", "area", 1, aliases=["m2", "m^2", "sq m"], names=_s("square metre", "square meter"))
_unit("cm²", "area", Fraction(1, 10**4), aliases=["cm2", "cm^2"])
_unit("mm²", "area", Fraction(1, 10**6), aliases=["mm2", "mm^2"])
_unit("km²", "area", 10**6, aliases=["km2", "km^2"])
_unit("ft²", "area", Fraction("0.3048") ** 2, aliases=["ft2", "ft^2", "sq ft"],
      names=_s("square foot") + ("square feet",))
_unit("in²", "area", Fraction("0.0254") ** 2, aliases=["in2", "in^2", "sq in"])
_unit("S", "conductance", 1, names=_s("siemens"), prefixes="µmk")
# Diving depth as a pressure head: its conventions differ (33 fsw is 1 atm for the US
# Navy; 10 msw is 1 bar), so it is its own quantity, compared only with itself.
_unit("fsw", "seawater depth", 1, aliases=["FSW"],
      names=("foot of seawater", "feet of seawater", "foot of sea water", "feet of sea water"))
_unit("lx", "illuminance", 1, aliases=["lux", "lm/m2", "lm/m²"], names=["lux"])
# A lumen per square foot is a foot-candle (29 CFR 1910.178: "2 lumens per square foot").
_unit("fc", "illuminance", 1 / Fraction("0.3048") ** 2, aliases=["lm/ft2", "lm/ft²"],
      names=("foot-candle", "foot-candles", "footcandle", "footcandles",
             "lumen per square foot", "lumens per square foot"))
_unit("Gy", "absorbed dose", 1, names=_s("gray"), prefixes="mµ")
_unit("Sv", "dose equivalent", 1, names=_s("sievert"), prefixes="mµ")
# The US units of 10 CFR 20 ("5 rems (0.05 Sv)", "2 millirem in any one hour").
_unit("rem", "dose equivalent", Fraction(1, 100), aliases=["rems"], names=["rem", "rems"])
_unit("mrem", "dose equivalent", Fraction(1, 100_000), aliases=["mrems"],
      names=["millirem", "millirems"])
_unit("Bq", "activity", 1, names=_s("becquerel"), prefixes="kM")
# The curie of US rules (40 CFR 141: "5 pCi/L"): 3.7 × 10^10 Bq exactly.
_unit("Ci", "activity", 37_000_000_000, names=_s("curie"), prefixes="mµnp")
# The roentgen of x-ray rules (21 CFR 1020): 2.58 × 10^-4 C/kg exactly.  Alone, "R" is
# too common a letter to be read in prose; its rates are written out so that "R/min"
# is never read as revolutions per minute.
_unit("R", "exposure", Fraction("0.000258"), names=_s("roentgen"), prefixes="m")
for _r, _den, _seconds in (("R", "s", 1), ("R", "min", 60), ("R", "h", 3600),
                           ("mR", "s", 1), ("mR", "min", 60), ("mR", "h", 3600)):
    _scale = _EXACT[_r].scale / _seconds
    _unit(f"{_r}/{_den}", "exposure/time", _scale,
          aliases=[f"{_r}/hr"] if _den == "h" else [])
_unit("As", "electric charge", 1, prefixes="m")  # the mAs of an x-ray exposure
_unit("kVp", "voltage", 1000, names=["kilovolt peak", "kilovolts peak"])
_unit("dB", "level (dB)", 1, names=_s("decibel"))
_unit("dBA", "sound level (dB(A))", 1, aliases=["dB(A)", "dB A"])
_unit("dBm", "power level (dBm)", 1)
_unit("pH", "pH", 1)
_unit("NTU", "turbidity", 1)
_unit("Mach", "Mach number", 1, aliases=["mach"])
_unit("var", "reactive power", 1, aliases=["VAr", "VAR"], prefixes="kM")
_unit("bit", "information", Fraction(1, 8), names=_s("bit"), prefixes="kMG")
_unit("bps", "data rate", Fraction(1, 8), aliases=["bit/s"], prefixes="kMG")
_unit("B", "information", 1, names=_s("byte"), prefixes="kMG")
_unit("TB", "information", 10**12, names=_s("terabyte"))
for _i, _p in enumerate(("Ki", "Mi", "Gi", "Ti"), start=1):
    _unit(f"{_p}B", "information", 1024**_i)

# --- derived rates defined by name
_L_MIN = _quotient(_UNITS["L"], _UNITS["min"])
_alias(_L_MIN, "lpm", "LPM", "l/min")
_alias(_quotient(_UNITS["gal"], _UNITS["min"]), "gpm", "GPM")
_alias(_quotient(_UNITS["ft"], _UNITS["min"]), "fpm")
_alias(_quotient(_UNITS["ft³"], _UNITS["min"]), "cfm", "CFM", names=["cubic feet per minute"])
_alias(_quotient(_UNITS["gal"], _UNITS["h"]), "gph")
_alias(_quotient(_UNITS["lb"], _UNITS["h"]), "pph", "lb/hr", "lbs/hr")

# --- plain counts: counted nouns, all dimension "count" with scale 1
_noun("count", "count", "counts")
_alias(_UNITS["count"], "#", "cnt")
_noun("unit", *_s("unit"))
_noun("item", *_s("item"))
_noun("point", *_s("point"), "pts", "pt")
_noun("cell", *_s("cell"))
_noun("cycle", *_s("cycle"))
_noun("veh", *_s("vehicle", "veh", "car", "truck"))
_noun("beat", *_s("beat", "heartbeat"))
_noun("breath", *_s("breath"))
_noun("rev", *_s("revolution", "rev", "rotation"))
_noun("pc", *_s("piece", "pc", "pcs", "part"))
_noun("person", "person", "persons", "people", *_s("passenger", "patient", "user"))
for _w in ("event", "attempt", "error", "fault", "failure", "packet", "message", "request",
           "transaction", "pallet", "carton", "case", "dose", "tablet", "alarm", "alert",
           "retry", "sample", "reading", "occurrence", "incident", "defect", "order",
           "call", "visit", "start", "trip", "login", "session", "bed", "seat", "occupant",
           "particle", "colony", "organism", "spore", "fibre", "fiber", "droplet", "drop",
           "pulse", "spike"):
    _noun(_w, *_s(_w))
_alias(_UNITS["retry"], names=["retries"])
_alias(_UNITS["colony"], "CFU", "cfu", names=["colonies", "colony-forming units"])

# --- currencies: each its own dimension
for _code, _syms, _names in (
    ("EUR", ["€"], _s("euro")),
    ("USD", ["$", "US$"], _s("dollar", "US dollar")),
    ("GBP", ["£"], ("pound sterling", "pounds sterling", "sterling")),
    ("JPY", ["¥"], ("yen",)),
    ("CHF", [], _s("Swiss franc")),
    ("CNY", ["RMB"], ("yuan", "renminbi")),
    ("INR", ["₹"], _s("rupee")),
    ("CAD", ["C$"], _s("Canadian dollar")),
    ("AUD", ["A$"], _s("Australian dollar")),
    ("SEK", [], ()), ("NOK", [], ()), ("DKK", [], ()), ("PLN", [], _s("zloty")),
):
    _unit(_code, _code, 1, aliases=_syms, names=_names)
# fmt: on


def _fold_table() -> dict[str, Unit]:
    """Lower-cased spellings that name exactly one unit ("PSI", "kpa", "KM/H").

    Single characters never fold ("m" is not "M"), nor do information units, nor any
    spelling whose lower case is shared by two units ("mV"/"MV", "kn"/"kN").
    """
    groups: dict[str, set[Unit]] = {}
    for spelling, unit in _EXACT.items():
        groups.setdefault(spelling.lower(), set()).add(unit)
    for name, unit in _NAMES.items():
        groups.setdefault(name, set()).add(unit)
    table = {}
    for spelling, unit in _EXACT.items():
        key = spelling.lower()
        if (
            len(spelling) > 1
            and unit.dimension not in _NO_FOLD_DIMENSIONS
            and len(groups[key]) == 1
        ):
            table[key] = unit
    return table


_FOLD = _fold_table()

# --------------------------------------------------------------------------- numbers


def _to_fraction(value: Number) -> Fraction:
    if isinstance(value, bool):
        raise TypeError("a bool is not a quantity")
    if isinstance(value, Fraction | int):
        return Fraction(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"not a finite number: {value}")
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"not a finite number: {value}")
        return Fraction(repr(value))  # the decimal a person wrote, not the binary value
    if isinstance(value, str):
        return Fraction(parse_number(value))
    raise TypeError(f"not a number: {value!r}")


_GROUPED = r"\d{1,3}(?:,\d{3})+(?!\d)|\d{1,3}(?:[\u00a0\u202f\u2009]\d{3})+(?!\d)|\d+"
_NUMBER_RE = re.compile(rf"([+\-\u2212]?)(?:({_GROUPED})(?:\.(\d+))?|\.(\d+))")
_MAGNITUDES = {"thousand": 3, "million": 6, "billion": 9}
_MAGNITUDE_RE = re.compile(r"[^\S\n]+(thousand|million|billion)(?!\w)", re.IGNORECASE)


def _decimal_of(m: re.Match[str]) -> Decimal:
    sign, whole, frac, bare_frac = m.groups()
    digits = re.sub(r"\D", "", whole or "0")
    minus = "-" if sign in ("-", "\u2212") else ""
    fraction = frac or bare_frac
    return Decimal(f"{minus}{digits}.{fraction}" if fraction else f"{minus}{digits}")


def parse_number(text: str) -> Decimal:
    """Parse a number as written in a manual: ``"1,800"``, ``"-15"``, ``"+5"``, ``"38.5"``.

    Commas only group thousands (exactly three digits after each), so ``"1,5"`` is not a
    number; the decimal mark is ``.``.  A no-break or thin space also groups
    (``"1\u202f800"``), an ordinary space does not.  The minus may be ``-`` or ``\u2212``.
    Raises ``ValueError`` if ``text`` (stripped) is not exactly one such number.
    """
    s = text.strip()
    m = _NUMBER_RE.fullmatch(s)
    if not m:
        raise ValueError(f"not a number: {text!r}")
    try:
        return _decimal_of(m)
    except InvalidOperation as exc:  # pragma: no cover - the regex admits only digits
        raise ValueError(f"not a number: {text!r}") from exc


def match_number(text: str, pos: int, *, magnitudes: bool = True) -> tuple[Decimal, int] | None:
    """Recognise a number starting exactly at ``text[pos]``; return it and its end index.

    Same syntax as :func:`parse_number`.  A sign counts only when not glued to a word or
    number before it (``REQ-001`` yields no ``-1``: None is returned at the hyphen).  With
    ``magnitudes``, a following "thousand"/"million"/"billion" multiplies the number.
    """
    m = _NUMBER_RE.match(text, pos)
    if not m:
        return None
    if m.group(1) and pos > 0 and text[pos - 1].isalnum():
        return None
    value, end = _decimal_of(m), m.end()
    if magnitudes:
        mm = _MAGNITUDE_RE.match(text, end)
        if mm:
            value = value.scaleb(_MAGNITUDES[mm.group(1).lower()])
            value = value.quantize(Decimal(1)) if value == value.to_integral_value() else value
            end = mm.end()
    return value, end


# --------------------------------------------------------------------------- conversion


def units_compatible(a: Unit, b: Unit) -> bool:
    """True if a value in ``a`` can be expressed in ``b``.

    Same dimension, or either is :data:`PLAIN` (taken at face value).  Every counted
    noun has dimension ``count``, so "10 units" fits a manifest unit "count" or "points".
    """
    return a.dimension == b.dimension or a.is_plain or b.is_plain


def counted_noun(unit: Unit) -> str:
    """What a rate of counted things counts ("breath" for breaths/min, "rev" for rpm), or
    "" for a rate of anything (1/min, Hz, count/min) and for every other unit."""
    if unit.dimension != "frequency":
        return ""
    if unit.symbol == "rpm" or unit.symbol.startswith(("rev/", "r/", "revs/")) or (
            unit.symbol == "rps"):
        return "rev"
    if unit.symbol == "bpm" or unit.symbol.startswith("beat"):
        return "beat"
    head = unit.symbol.split("/")[0]
    return head if head in _COUNTED and head not in ("count", "1") else ""


def same_quantity(a: Unit, b: Unit) -> bool:
    """Whether a value in ``a`` can be a reading of a parameter in ``b``: compatible
    units, and rates that count the same thing (or anything)."""
    if not units_compatible(a, b):
        return False
    na, nb = counted_noun(a), counted_noun(b)
    return not na or not nb or na == nb


def _check(src: Unit, dst: Unit) -> None:
    if not units_compatible(src, dst):
        raise UnitError(
            f"cannot convert {src.symbol or 'a plain number'} ({src.dimension}) to "
            f"{dst.symbol or 'a plain number'} ({dst.dimension})"
        )


def convert(value: Number, src: Unit, dst: Unit) -> Fraction:
    """Convert ``value`` from ``src`` to ``dst`` exactly.

    Floats are read as their shortest decimal repr (27.1 means 27.1).  A plain unit on
    either side leaves the value unchanged.  Raises ``UnitError`` across dimensions.
    """
    _check(src, dst)
    x = _to_fraction(value)
    if src.is_plain or dst.is_plain or src == dst:
        return x
    return (x * src.scale + src.offset - dst.offset) / dst.scale


def convert_delta(value: Number, src: Unit, dst: Unit) -> Fraction:
    """Convert a difference (a deadband, a rise of 5 degC) exactly: scale only, no offset."""
    _check(src, dst)
    x = _to_fraction(value)
    if src.is_plain or dst.is_plain:
        return x
    return x * src.scale / dst.scale


def convert_float(value: Number, src: Unit, dst: Unit) -> float:
    """The double nearest the exact conversion (27 degC -> degF is ``float("80.6")``)."""
    return float(convert(value, src, dst))  # Fraction -> float rounds correctly


_SECONDS_PER_MONTH = Fraction(31556952, 12)  # Gregorian mean: 365.2425 days a year


def duration_seconds(value: Number, unit: Unit) -> Fraction:
    """A duration in seconds.  Months and years use the Gregorian mean (365.2425 d/yr)."""
    x = _to_fraction(value)
    if unit.dimension == "time":
        return x * unit.scale
    if unit.dimension == "calendar":
        return x * unit.scale * _SECONDS_PER_MONTH
    raise UnitError(f"{unit.symbol or 'a plain number'} is not a duration unit")


def is_counted_noun(unit: Unit) -> bool:
    """True for counted nouns ("units", "vehicles", "beats") and rates of them (veh/h)."""
    return unit.symbol.split("/")[0] in _COUNTED or unit.symbol in ("bpm", "rpm")


# --------------------------------------------------------------------------- manifest units


def _normal(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())


def _lookup(key: str) -> Unit | None:
    return _EXACT.get(key) or _NAMES.get(key.lower()) or _FOLD.get(key.lower())


def _all_spellings() -> list[str]:
    return sorted(set(_EXACT) | set(_NAMES))


def parse_unit(text: str) -> Unit:
    """Parse a manifest unit string ("degC", "psi", "kOhm", "veh/h", "mg/dL", "years").

    Case matters for symbols ("mV" millivolt, "MV" megavolt) but a spelling whose lower
    case names one unit only is accepted in any case ("PSI", "kpa").  ``"X/Y"`` and
    ``"X per Y"`` combine known units.  An empty string or "none" is :data:`PLAIN`.
    Raises ``UnitError`` naming the unit and suggesting close known spellings.
    """
    if not isinstance(text, str):
        raise UnitError(f"a unit must be a string, not {type(text).__name__}")
    return _parse_unit_text(text)


def declare_unit(text: str) -> Unit:
    """A unit a sensors.toml names that rulec does not know ("aw" for water activity):
    its own quantity, compared only with itself and with numbers written without a unit,
    never converted.  Declared for the rest of the process, so that every later
    ``parse_unit`` of the symbol (build, knowledge base, bundle unit table) finds it."""
    symbol = _normal(text)
    known = _EXACT.get(symbol)
    if known is not None:
        return known
    if not symbol or not re.fullmatch(r"[^\s\d][^\s]{0,23}(?: [^\s\d][^\s]{0,23}){0,2}",
                                      symbol):
        raise UnitError(f"unknown unit {text!r}: not a unit symbol to declare")
    unit = Unit(symbol, f"{symbol} (declared)", Fraction(1))
    _UNITS.setdefault(symbol, unit)
    _EXACT[symbol] = unit
    _resolve.cache_clear()
    return unit


def unit_suggestion(text: str) -> str:
    """The hint an unknown unit's message gives: " (did you mean 'psig'?)" or the like."""
    return _suggest(_normal(text))


def is_declared(unit: Unit) -> bool:
    """Whether a unit is one a manifest declared (see :func:`declare_unit`)."""
    return unit.dimension.endswith(" (declared)")


def is_unit(text: str) -> bool:
    """Whether ``parse_unit(text)`` would succeed.  For callers that only probe a text
    (a table header's bracket): a refusal here skips the error's spelling suggestion,
    which is a difflib search over every known spelling."""
    return _resolve(text)[0] is not None


def _parse_unit_text(text: str) -> Unit:
    """parse_unit of a string, raising ``UnitError`` with a suggestion when unknown."""
    unit, unknown = _resolve(text)
    if unit is not None:
        return unit
    if unknown == _normal(text):
        raise UnitError(f"unknown unit {text!r}{_suggest(unknown)}")
    raise UnitError(f"unknown unit {unknown!r} in {text!r}{_suggest(unknown)}")


@functools.lru_cache(maxsize=1024)
def _resolve(text: str) -> tuple[Unit | None, str]:
    """The unit a string names, or None and the part of it that is no known unit.
    Cached (the unit tables are fixed once this module is imported): naming a parameter
    by its unit parses every manifest unit again."""
    key = _normal(text)
    if key.lower() in ("", "none"):
        return PLAIN, ""
    unit = _lookup(key)
    if unit is not None:
        return unit, ""
    if key.startswith("/"):
        key = "1" + key  # "/ml": so many a millilitre
    parts = re.split(r"\s*/\s*|\s+per\s+", key, flags=re.IGNORECASE)
    if len(parts) > 1:
        return _resolve_quotient(parts)
    return None, key


def _resolve_quotient(parts: list[str]) -> tuple[Unit | None, str]:
    """``a/b/c`` read left to right; a run of parts that is itself a unit ("km/h",
    "m/s2") is taken whole, the longest run first.  None and the first unknown part
    when one is no unit."""
    result: Unit | None = None
    i = 0
    while i < len(parts):
        for j in range(len(parts), i, -1):
            unit = _lookup("/".join(parts[i:j]))
            if unit is not None and not unit.is_plain:
                result = unit if result is None else _quotient(result, unit)
                i = j
                break
        else:
            return None, parts[i]
    return result, ""


@functools.lru_cache(maxsize=256)
def _suggest(key: str) -> str:
    """The hint of an unknown-unit error.  Cached: difflib over every spelling takes
    milliseconds, and the spellings are fixed once this module is imported."""
    spellings = _all_spellings()
    same_letters = [s for s in spellings if s.lower() == key.lower()]
    if same_letters:  # "mv": millivolt or megavolt? case decides
        return " (case matters: did you mean " + " or ".join(map(repr, same_letters)) + "?)"
    by_lower: dict[str, str] = {}
    for s in spellings:
        by_lower.setdefault(s.lower(), s)
    close = difflib.get_close_matches(key.lower(), list(by_lower), n=3, cutoff=0.6)
    if not close:
        return " (see docs/units.md for the units understood)"
    return " (did you mean " + ", ".join(repr(by_lower[c]) for c in close) + "?)"


# --------------------------------------------------------------------------- prose


def _phrase_pattern(phrase: str) -> str:
    """Regex for a spelling: spaces flexible, hyphens optional, word-final boundary."""
    out = []
    for i, ch in enumerate(phrase):
        if ch == " ":
            both_alnum = phrase[i - 1].isalnum() and phrase[i + 1].isalnum()
            out.append(r"\s+" if both_alnum else r"\s*")
        elif ch == "-" and 0 < i < len(phrase) - 1:
            out.append(r"[-\s]?")
        else:
            out.append(re.escape(ch))
    body = "".join(out)
    return body + r"(?!\w)" if phrase[-1].isalnum() else body


@functools.cache
def _prose_table() -> tuple[list[tuple[str, re.Pattern[str] | None]], list[Unit]]:
    """Every unit spelling as a regex, in the order they are tried (longest first), with
    a one-character regex for the first letter it can start with (None: any), built on
    first use so commands that never read prose (query, replay) skip it."""
    entries: dict[tuple[str, bool], Unit] = {}
    for spelling, unit in _EXACT.items():
        if spelling in _NOT_IN_PROSE or spelling[:1] == "u" and spelling[1:] in _EXACT:
            continue  # ASCII "u" for micro stays in manifests ("um" is a word)
        entries[(spelling, spelling.lower() in _FOLD
                 and spelling not in _KEEP_CASE_IN_PROSE)] = unit
    for name, unit in _NAMES.items():
        if name not in _NOT_IN_PROSE:
            entries[(name, True)] = unit
    ordered = sorted(entries.items(), key=lambda kv: (-len(kv[0][0]), kv[0][0]))
    parts: list[tuple[str, re.Pattern[str] | None]] = []
    units: list[Unit] = []
    for (spelling, fold), unit in ordered:
        pat = _phrase_pattern(spelling)
        head = None if spelling[0].isspace() else re.escape(spelling[0])
        if fold:
            pat = "(?i:" + pat + ")"
            head = None if head is None else "(?i:" + head + ")"
        parts.append((pat, None if head is None else re.compile(head)))
        units.append(unit)
    return parts, units


@functools.lru_cache(maxsize=4096)
def _atom_re(first: str) -> re.Pattern[str] | None:
    """The alternation of the spellings that can start with ``first`` (one character, or
    "" at the end of the text), in table order, so the first that matches wins exactly
    as in one alternation of them all; None when no spelling can.  Trying only these is
    what makes prose fast: the whole alternation costs hundreds of microseconds a call,
    as the regex engine enters each of its ~900 branches."""
    parts, _ = _prose_table()
    alternatives = [
        f"(?P<u{i}>{pat})"
        for i, (pat, head) in enumerate(parts)
        if head is None or head.fullmatch(first)
    ]
    return re.compile("|".join(alternatives)) if alternatives else None


_LEAD_RE = re.compile(r"[^\S\n]*(?:\n[^\S\n]*)?")
_HYPHEN_RE = re.compile(r"[-\u2010\u2011](?=[^\W\d_])")
# "cubic feet per minute", "ft/min", "cubic feet a minute"
_PER_RE = re.compile(r"[^\S\n]*/[^\S\n]*|\s+(?i:per)\s+|"
                     r"\s+(?i:an?)\s+(?=(?i:s|sec|second|min|minute|h|hr|hour|day)s?\b)")
_BARE_PER_RE = re.compile(r"/[^\S\n]*|(?i:per)\s+")
_CURRENCY_PREFIX_RE = re.compile(r"(US\$|C\$|A\$|[€$£¥₹]|(?:EUR|USD|GBP|CHF|JPY)(?=[\s\d]))\s*")


def _atom(text: str, i: int) -> tuple[Unit, int] | None:
    atom_re = _atom_re(text[i : i + 1])
    m = atom_re.match(text, i) if atom_re is not None else None
    if m is None or m.lastgroup is None:
        return None
    return _prose_table()[1][int(m.lastgroup[1:])], m.end()


def match_unit_phrase(text: str, pos: int) -> tuple[Unit, int] | None:
    """Recognise a unit written after a number that ends at ``text[pos]``.

    Skips spaces (and at most one line break) or a hyphen before a word ("30-minute").
    Returns the unit and the index just past it, or None when no known unit follows
    (then the number is in the parameter's own unit).  The longest spelling wins and a
    spelling ending in a letter or digit must end at a word boundary ("m" is not read in
    "mark", "h" not in "hours").  "X per Y" and "X/Y" give rates ("vehicles per hour"
    is veh/h); "per Y" alone counts per Y ("12 per minute").
    """
    lead = _LEAD_RE.match(text, pos)
    i = lead.end() if lead is not None else pos
    if i == pos:
        h = _HYPHEN_RE.match(text, pos)
        if h is not None:
            i = h.end()
    first = _atom(text, i)
    if first is None:
        m = _BARE_PER_RE.match(text, i)
        den = _atom(text, m.end()) if m else None
        if den is None or den[0].dimension != "time":
            return None
        return _quotient(_UNITS["count"], den[0]), den[1]
    unit, end = first
    m = _PER_RE.match(text, end)
    if m is not None:
        den = _atom(text, m.end())
        if den is not None:
            return _quotient(unit, den[0]), den[1]
    return unit, end


def match_currency_prefix(text: str, pos: int) -> tuple[Unit, int] | None:
    """Recognise a currency written before a number ("€25,000", "$ 500", "EUR 1,000")."""
    m = _CURRENCY_PREFIX_RE.match(text, pos)
    if m is None:
        return None
    return _EXACT[m.group(1)], m.end()
