"""Spec-sheet and limitation lines: a label naming a parameter, then its limits.

"Oil temperature: min. 10 °C, max. 70 °C", "Pump speed: max. 1,900 rpm; oil temperature:
max. 70 °C", "Oil temperature limit: not to exceed 80 °C", "Tire pressure limits: 28 to
32 psi", "Oil temperature 10 °C min / 70 °C max".  Each pair of label and limits is
said again as the constraint sentence the condition reader knows ("oil temperature must
not exceed 70 °C").  A line is read only when every pair on it is, and every limit of a
pair has its kind said (max., minimum, not to exceed, at least, a range under a label
that says limits): a bare "Oil temperature: 80 °C" is a value, not a limit, and a line
with one pair left unread is left to the statement reader, which lists it for review.
"""

from __future__ import annotations

import re

from rulec.compiler.model.parameters import ParameterTable

_NUMBER = r"[+\-−]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)"
# Words that say which side a limit bounds, before or after its value.
_UPPER_BEFORE = (r"max(?:imum)?\.?|not\s+to\s+exceed|not\s+more\s+than|no\s+more\s+than|"
                 r"at\s+most|up\s+to(?:\s+and\s+including)?|≤|<=|<")
_LOWER_BEFORE = r"min(?:imum)?\.?|not\s+less\s+than|no\s+less\s+than|at\s+least|≥|>=|>"
_UPPER_AFTER = r"max(?:imum)?\.?|or\s+less|or\s+lower|or\s+below"
_LOWER_AFTER = r"min(?:imum)?\.?|or\s+more|or\s+higher|or\s+above"
_KIND_WORD = re.compile(rf"^(?:{_UPPER_AFTER}|{_LOWER_AFTER})$", re.IGNORECASE)
# A unit as written after a number: a symbol or up to two words ("°C", "psi", "statute
# miles", "volume percent", "mg/L"), never a kind word or a joining word.
_UNIT = (r"(?:\s*(?:°\s?[CFK]\b|%|(?!(?:max|min|or|to|and|through)\b)[A-Za-zµΩ][\w/.²³µΩ-]*)"
         r"(?:\s+(?!(?:max|min|or|to|and|through)\b)[A-Za-z][\w/.²³-]*)?)?")
_VALUE = rf"{_NUMBER}{_UNIT}"
_RESTATED = re.compile(r"\s*\([^()]*\d[^()]*\)")  # "70 °C (158 °F)": the same value again
_LABEL_LIMIT_WORDS = re.compile(
    r"\s*\b(?:(?:operating\s+)?(?:limits?|range)|allowable|permissible|permitted|acceptable|"
    r"max(?:imum)?\.?|min(?:imum)?\.?)\b\s*|\s*\((?:max|min)(?:imum)?\.?\)\s*", re.IGNORECASE)
_SAYS_LIMITS = re.compile(r"\b(?:limits?|range|allowable|permissible|permitted|acceptable)\b",
                          re.IGNORECASE)
_ONE_LIMIT = [
    (re.compile(rf"^(?P<kind>{_UPPER_BEFORE})\s*(?P<v>{_VALUE})$", re.IGNORECASE), "upper"),
    (re.compile(rf"^(?P<kind>{_LOWER_BEFORE})\s*(?P<v>{_VALUE})$", re.IGNORECASE), "lower"),
    (re.compile(rf"^(?P<v>{_VALUE})\s*\(?(?P<kind>{_UPPER_AFTER})\)?$", re.IGNORECASE), "upper"),
    (re.compile(rf"^(?P<v>{_VALUE})\s*\(?(?P<kind>{_LOWER_AFTER})\)?$", re.IGNORECASE), "lower"),
]
_RANGE = re.compile(
    rf"^(?:between\s+)?(?P<lo>{_VALUE})\s*(?:to|through|and|–|—|-)\s*(?P<hi>{_VALUE})$",
    re.IGNORECASE)
# The two limits of one pair: "min. 10 °C, max. 70 °C", "10 °C min / 70 °C max".
_TWO_LIMITS = re.compile(r"\s*(?:,\s|\s/\s|;)\s*(?:and\s+)?")
# "Label: limits" or, without a colon, "Label 10 °C min / 70 °C max".
_LABELLED = re.compile(r"^(?P<label>[^:\d]{2,80}?)\s*:\s*(?P<limits>\S.*)$")
_UNLABELLED = re.compile(
    rf"^(?P<label>[A-Za-z][^:\d]{{1,80}}?)\s+(?P<limits>(?:{_UPPER_BEFORE}|{_LOWER_BEFORE})?"
    rf"\s*{_NUMBER}.*)$", re.IGNORECASE)


def spec_line_sentences(text: str, params: ParameterTable) -> list[str]:
    """The constraint sentences a spec or limitation line says, or [] when the text is
    not one, or when any pair on it is not read whole."""
    body = text.strip().rstrip(".").strip()
    if not body or len(body) > 300:
        return []
    segments = [s.strip() for s in re.split(r"\s*;\s*", body) if s.strip()]
    out: list[str] = []
    for segment in segments:
        sentences = _pair_sentences(segment, params, colon=True)
        if not sentences and len(segments) == 1:
            sentences = _pair_sentences(segment, params, colon=False)
        if not sentences:
            return []
        out.extend(sentences)
    return out


def _pair_sentences(segment: str, params: ParameterTable, colon: bool) -> list[str]:
    found = (_LABELLED if colon else _UNLABELLED).match(segment)
    if found is None:
        return []
    label = found.group("label").strip()
    name = _parameter_named(label, params)
    if name is None:
        return []
    limits = _RESTATED.sub("", found.group("limits")).strip()
    says_limits = bool(_SAYS_LIMITS.search(label))
    bare = _LABEL_LIMIT_WORDS.sub(" ", label).strip()
    single = _one_limit(limits)
    if single is not None:
        return [_sentence(bare, *single)]
    ranged = _RANGE.match(limits)
    if ranged is not None:
        if not says_limits:
            return []  # "Oil temperature: 60 to 80 °C": a value, unless the label says limits
        return [f"{bare} must remain between {ranged.group('lo')} and {ranged.group('hi')}."]
    parts = _TWO_LIMITS.split(limits)
    if len(parts) != 2:
        return []
    read = [_one_limit(p.strip()) for p in parts]
    if any(r is None for r in read):
        return []
    sides = {r[0] for r in read if r is not None}
    if sides != {"upper", "lower"}:
        return []
    limits_read = sorted((r for r in read if r is not None), key=lambda r: r[0] != "lower")
    (_, low_kind, low), (_, high_kind, high) = limits_read
    if low_kind not in (">",) and high_kind not in ("<",):
        # "min. 10 °C, max. 70 °C": one range, violated outside it
        return [f"{bare} must remain between {low} and {high}."]
    return [_sentence(bare, *r) for r in limits_read]


def _one_limit(text: str) -> tuple[str, str, str] | None:
    """(side, kind word, value) of one limit, or None."""
    for pattern, side in _ONE_LIMIT:
        found = pattern.match(text)
        if found is None:
            continue
        value = found.group("v").strip()
        if _KIND_WORD.match(value.split()[-1]):
            continue
        return side, " ".join(found.group("kind").lower().split()), value
    return None


def _sentence(label: str, side: str, kind: str, value: str) -> str:
    if side == "upper":
        verb = "must stay below" if kind == "<" else "must not exceed"
    else:
        verb = "must stay above" if kind == ">" else "must not fall below"
    return f"{label} {verb} {value}."


def _parameter_named(label: str, params: ParameterTable) -> str | None:
    """The parameter a label names: its words, with the words that say limits taken off,
    are one of its aliases (nothing inferred from a label longer than four words)."""
    bare = _LABEL_LIMIT_WORDS.sub(" ", label).strip(" ,-–")
    if not bare or len(bare.split()) > 8:
        return None
    if params.infer:
        if len(bare.split()) > 4:
            return None
        resolved = params.resolve(bare)
        return resolved[0] if resolved else None
    if not params.knows(_without_article(bare)):
        return None
    resolved = params.resolve(bare)
    return resolved[0] if resolved else None


def _without_article(text: str) -> str:
    return re.sub(r"^(?:the|a|an)\s+", "", text, flags=re.IGNORECASE)
