"""Advisory text: a rule's template filled with the live values that fired it.

A template holds `{condition}` (the comparisons of the box that contains the
state, in words: "chamber temperature 820 °C is above 600 °C") and may name
parameters directly (`{chamber_temperature}` -> "820 °C").
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import numpy as np

from rulec.runtime.bundle.loader import Bundle, RuleSpec
from rulec.runtime.vocabulary import parameter_words

_DISPLAY_UNITS = {
    "degC": "°C",
    "degF": "°F",
    "percent": "%",
    "count": "",
    "ohm": "Ω",
    "kOhm": "kΩ",
    "MOhm": "MΩ",
}
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def format_value(value: float) -> str:
    """Shortest faithful text of a number: 820.0 -> "820", 38.45 -> "38.45"."""
    if math.isnan(value):
        return "unknown"
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def unit_suffix(unit: str) -> str:
    """What follows a number shown in this unit: " °C", "%", or nothing for counts."""
    shown = _DISPLAY_UNITS.get(unit, unit)
    if not shown:
        return ""
    return shown if shown == "%" else f" {shown}"


def with_unit(value: float, unit: str) -> str:
    return format_value(value) + unit_suffix(unit)


_plain_with_unit = with_unit


def describe_box(bundle: Bundle, box: int, x: np.ndarray, symbolic: bool = False) -> str:
    """The comparisons of one box with live values: in words, or as arithmetic evidence."""
    b = bundle.boxes
    parts = []
    for c in range(int(b.start[box]), int(b.start[box + 1])):
        axis = int(b.axis[c])
        param = bundle.parameters[axis]
        lo, hi, flags = float(b.lo[c]), float(b.hi[c]), int(b.flags[c])
        value = float(x[axis])
        if symbolic:
            parts.append(_arithmetic(param.name, value, lo, hi, flags))
            continue
        label = parameter_words(param.name)
        if param.states:  # "landing gear is extended": the state it is in
            parts.append(f"{label} is {param.state_name(value)}")
            continue
        # the document's own numbers, shown only for a converted threshold with a long
        # exact text (cached per rule: a lookup on every later call)
        written = _written_numbers(bundle, int(b.rule[box]), param.name, param.unit)
        parts.append(f"{label} {with_unit(value, param.unit)} "
                     f"{relation_words(lo, hi, flags, param.unit, written)}")
    return " and ".join(parts)


def _written_numbers(bundle: Bundle, rule: int, name: str, unit: str) -> tuple[str, ...]:
    """The numbers the document wrote for one parameter of a rule, with their unit, when
    that unit is not the parameter's ("300 psi" for a parameter in bar), in ascending
    order; read from the condition text, where the compiler keeps them, and cached."""
    cache: dict[tuple[int, str], tuple[str, ...]] = bundle.__dict__.setdefault(
        "_written_numbers", {})
    found = cache.get((rule, name))
    if found is None:
        numbers: list[tuple[float, str]] = []
        for m in _WRITTEN.finditer(bundle.rules[rule].condition_text):
            if m.group(1) == name and m.group(3) and m.group(3) != unit:
                for number in m.group(2).strip("[]").split(","):
                    try:
                        numbers.append((float(number), f"{number.strip()} {m.group(3)}"))
                    except ValueError:
                        pass
        found = cache[(rule, name)] = tuple(text for _, text in sorted(set(numbers)))
    return found


_WRITTEN = re.compile(r"\b([a-z_][a-z0-9_]*) (?:>=|<=|>|<|==|between|outside|in) "
                      r"(\[[^\]]*\]|[-+0-9.eE]+)(?: ([^\s()\]]+))?")


def _long(value: float) -> bool:
    """A finite threshold whose shortest exact text has more than 9 digits."""
    return math.isfinite(value) and len(format_value(value).lstrip("-").replace(".", "")) > 9


def _shown(value: float, unit: str, written: str | None) -> str:
    """A threshold in words: exact when short, else as the document wrote it with its
    conversion rounded beside it ("300 psi (≈20.6843 bar)")."""
    if written is None or not _long(value):
        return with_unit(value, unit)
    return f"{written} (≈{value:.6g}{unit_suffix(unit)})"


def relation_words(lo: float, hi: float, flags: int, unit: str,
                   written: tuple[str, ...] = ()) -> str:
    """Where ``lo <op> x <op> hi`` holds, in words: "is above 600 °C", "has reached 0"."""
    with_unit: Callable[[float, str], str] = _plain_with_unit
    if written:
        bounds = {b for b in (lo, hi) if not math.isinf(b)}
        doc = dict(zip(sorted(bounds), written, strict=False)) if len(
            written) == len(bounds) else {}

        def with_unit(v: float, u: str) -> str:  # noqa: F811 - the thresholds of this box
            return _shown(v, u, doc.get(v))

    lo_incl, hi_incl = bool(flags & 1), bool(flags & 2)
    if math.isinf(hi) and not math.isinf(lo):
        return f"is {'at or above' if lo_incl else 'above'} {with_unit(lo, unit)}"
    if math.isinf(lo) and not math.isinf(hi):
        return f"is {'at or below' if hi_incl else 'below'} {with_unit(hi, unit)}"
    if math.isinf(lo) and math.isinf(hi):
        return "is present"
    if lo == hi:
        return f"has reached {with_unit(lo, unit)}"
    if lo_incl and hi_incl:
        return f"is between {with_unit(lo, unit)} and {with_unit(hi, unit)}"
    low = "from" if lo_incl else "above"
    high = "up to" if hi_incl else "below"
    return f"is {low} {with_unit(lo, unit)} {high} {with_unit(hi, unit)}"


def _arithmetic(name: str, value: float, lo: float, hi: float, flags: int) -> str:
    v = format_value(value)
    if lo == hi:
        return f"{name}: {v} == {format_value(lo)}"
    parts = []
    if not math.isinf(lo):
        parts.append(f"{v} {'>=' if flags & 1 else '>'} {format_value(lo)}")
    if not math.isinf(hi):
        parts.append(f"{v} {'<=' if flags & 2 else '<'} {format_value(hi)}")
    return f"{name}: " + " and ".join(parts or [f"{v} present"])


def render_advisory(bundle: Bundle, rule: RuleSpec, condition_words: str, x: np.ndarray) -> str:
    """Fill the rule's template; an unknown placeholder is left as written."""

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name == "condition":
            return condition_words
        index = bundle.param_index.get(name)
        if index is None:
            return match.group(0)
        return with_unit(float(x[index]), bundle.parameters[index].unit)

    text = _PLACEHOLDER.sub(fill, rule.template or "{condition}: " + rule.action)
    return text[:1].upper() + text[1:]
