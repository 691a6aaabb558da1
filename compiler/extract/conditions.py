"""Read the condition part of a statement into a boolean tree of comparisons.

The text is tokenised into words, numbers (with the unit written after them)
and punctuation; comparisons are found by the phrases of CONTRACTS.md
("exceeds", "3 or more", "between A and B", "must not exceed" ...); the words
between comparisons give the structure (`and`/`while`/`with` join, `or`
separates, `unless` negates, `either ... or` groups).  Numbers inside
identifiers (`REQ-BMS-001`, `12-lead`) are not numbers here.
"""

from __future__ import annotations

import copy
import functools
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from rulec.compiler.model.parameters import ParameterInfo, ParameterTable, words_of
from rulec.compiler.model.rules import All, AnyOf, Atom, Condition, Not
from rulec.compiler.model.units import Unit, match_unit_phrase
from rulec.runtime.vocabulary import TIME_IN_STATE

_TOKEN = re.compile(
    r"(?P<num>(?:(?<![\w.\-−/])[+\-−](?=\d)|(?<![\w./])(?<![A-Za-z_][\-−]))"
    r"(?:(?:\d{1,3}(?:,\d{3})+|\d{1,3}(?:[ \u00a0\u202f\u2009]\d{3})+(?![\d,])|\d+)"
    r"(?:\.\d+)?|(?<=\s)\.\d+)(?![\w]*\d)(?!-[A-Za-z]))"
    r"|(?P<sym>>=|<=|≥|≤|>|<|=|≠)"
    r"|(?P<word>[A-Za-z][A-Za-z0-9'’]*(?:-[A-Za-z0-9]+)*|\d+(?:-[A-Za-z0-9]+)+)"
    r"|(?P<punct>[,;:()\[\]])"
)

# Prefix comparisons, longest first when matched; words must precede the number.
_PREFIX_OPS: list[tuple[tuple[str, ...], str]] = [
    (("greater", "than", "or", "equal", "to"), ">="),
    (("more", "than", "or", "equal", "to"), ">="),
    (("less", "than", "or", "equal", "to"), "<="),
    (("equal", "to", "or", "greater", "than"), ">="),
    (("equal", "to", "or", "more", "than"), ">="),
    (("equal", "to", "or", "higher", "than"), ">="),
    (("equal", "to", "or", "above"), ">="),
    (("equal", "to", "or", "less", "than"), "<="),
    (("equal", "to", "or", "lower", "than"), "<="),
    (("equal", "to", "or", "below"), "<="),
    (("at", "or", "above"), ">="), (("at", "or", "below"), "<="),
    (("not", "less", "than"), ">="), (("no", "less", "than"), ">="),
    (("not", "lower", "than"), ">="), (("no", "lower", "than"), ">="),
    (("not", "fewer", "than"), ">="), (("no", "fewer", "than"), ">="),
    (("not", "below"), ">="), (("not", "under"), ">="),
    (("not", "more", "than"), "<="), (("no", "more", "than"), "<="),
    (("not", "greater", "than"), "<="), (("no", "greater", "than"), "<="),
    (("not", "higher", "than"), "<="), (("no", "higher", "than"), "<="),
    (("not", "above"), "<="), (("not", "exceeding"), "<="), (("not", "over"), "<="),
    (("at", "least"), ">="), (("at", "most"), "<="),
    (("amounts", "to", "at", "least"), ">="), (("amounts", "to"), "=="),
    (("amount", "to", "at", "least"), ">="), (("amounts", "to", "at", "most"), "<="),
    (("amount", "to", "at", "most"), "<="),
    (("at", "most", "amount", "to"), "<="), (("at", "least", "amount", "to"), ">="),
    (("at", "most", "be"), "<="), (("at", "least", "be"), ">="),
    (("rises", "past"), ">"), (("rise", "past"), ">"), (("climbs", "past"), ">"),
    (("goes", "past"), ">"),
    (("falls", "short", "of"), "<"), (("fall", "short", "of"), "<"),
    (("falling", "short", "of"), "<"),
    (("reach", "or", "exceed"), ">="), (("reaches", "or", "exceeds"), ">="),
    (("reach", "or", "pass"), ">="), (("reaches", "or", "passes"), ">="),
    (("meet", "or", "exceed"), ">="), (("meets", "or", "exceeds"), ">="),
    (("passes",), ">"), (("passed",), ">"),
    (("limited", "to", "a", "maximum", "of"), "<="), (("limited", "to"), "<="),
    (("in", "excess", "of"), ">"),
    (("equal", "or", "exceed"), ">="), (("equals", "or", "exceeds"), ">="),
    (("equal", "to", "or", "exceed"), ">="), (("equal", "to", "or", "exceeding"), ">="),
    (("up", "to", "and", "including"), "<="),
    (("faster", "than"), ">"), (("slower", "than"), "<"),
    (("greater", "than"), ">"), (("more", "than"), ">"), (("higher", "than"), ">"),
    (("larger", "than"), ">"), (("older", "than"), ">"), (("longer", "than"), ">"),
    (("less", "than"), "<"), (("lower", "than"), "<"), (("fewer", "than"), "<"),
    (("smaller", "than"), "<"), (("younger", "than"), "<"), (("shorter", "than"), "<"),
    (("warmer", "than"), ">"), (("hotter", "than"), ">"),
    (("deeper", "than"), ">"), (("shallower", "than"), "<"), (("heavier", "than"), ">"),
    (("lighter", "than"), "<"), (("wider", "than"), ">"), (("narrower", "than"), "<"),
    (("taller", "than"), ">"), (("thicker", "than"), ">"), (("thinner", "than"), "<"),
    (("bigger", "than"), ">"), (("stronger", "than"), ">"), (("weaker", "than"), "<"),
    (("not", "deeper", "than"), "<="), (("no", "deeper", "than"), "<="),
    # on a signed scale: "more negative than -100 mmHg" is below it
    (("more", "negative", "than"), "<"), (("less", "negative", "than"), ">"),
    (("more", "positive", "than"), ">"), (("less", "positive", "than"), "<"),
    (("colder", "than"), "<"), (("cooler", "than"), "<"),
    (("equal", "to"), "=="),
    (("exceeds",), ">"), (("exceed",), ">"), (("exceeding",), ">"), (("exceeded",), ">"),
    (("above",), ">"), (("over",), ">"), (("beyond",), ">"),
    (("surpasses",), ">"), (("surpass",), ">"), (("surpassing",), ">"),
    (("below",), "<"), (("under",), "<"), (("beneath",), "<"),
    (("reaches",), "=="), (("reach",), "=="), (("reached",), "=="), (("reaching",), "=="),
    (("equals",), "=="), (("hits",), "=="),
    ((">",), ">"), (("<",), "<"), ((">=",), ">="), (("≥",), ">="), (("<=",), "<="),
    (("≤",), "<="), (("=",), "=="),
]
_PREFIX_OPS.sort(key=lambda item: -len(item[0]))

_POSTFIX_OPS: list[tuple[tuple[str, ...], str]] = [
    (("or", "more"), ">="), (("or", "higher"), ">="), (("or", "greater"), ">="),
    (("or", "above"), ">="), (("or", "over"), ">="), (("and", "above"), ">="),
    (("and", "higher"), ">="), (("and", "greater"), ">="), (("and", "more"), ">="),
    (("and", "lower"), "<="), (("and", "less"), "<="),
    (("is", "exceeded"), ">"), (("are", "exceeded"), ">"),
    (("and", "over"), ">="), (("or", "longer"), ">="), (("or", "older"), ">="),
    (("or", "less"), "<="), (("or", "lower"), "<="), (("or", "fewer"), "<="),
    (("or", "below"), "<="), (("or", "under"), "<="), (("and", "below"), "<="),
    (("and", "under"), "<="), (("or", "younger"), "<="), (("or", "shorter"), "<="),
    (("or", "larger"), ">="), (("and", "larger"), ">="), (("or", "bigger"), ">="),
    (("or", "warmer"), ">="), (("or", "hotter"), ">="), (("and", "warmer"), ">="),
    (("or", "colder"), "<="), (("or", "cooler"), "<="), (("and", "colder"), "<="),
    (("or", "smaller"), "<="), (("and", "smaller"), "<="),
    (("or", "faster"), ">="), (("or", "slower"), "<="),
    (("or", "deeper"), ">="), (("or", "shallower"), "<="), (("or", "heavier"), ">="),
    (("or", "lighter"), "<="), (("or", "wider"), ">="), (("or", "narrower"), "<="),
    (("or", "thicker"), ">="), (("or", "thinner"), "<="),
    # only after zero: "0 % or negative" is at or below zero
    (("or", "negative"), "<="), (("or", "positive"), ">="),
]
_SIGN_WORDS = ("negative", "positive")


def _by_length(
    ops: list[tuple[tuple[str, ...], str]],
) -> list[tuple[int, dict[tuple[str, ...], tuple[int, str]]]]:
    """``ops`` grouped by phrase length, longest first, each phrase -> (its place in
    ``ops``, its operator): a dict look-up per length finds the phrase the list scan
    finds (the first listed), without comparing every phrase at every number."""
    groups: dict[int, dict[tuple[str, ...], tuple[int, str]]] = {}
    for index, (pattern, op) in enumerate(ops):
        groups.setdefault(len(pattern), {}).setdefault(pattern, (index, op))
    return sorted(groups.items(), key=lambda group: -group[0])


_PREFIX_BY_LENGTH = _by_length(_PREFIX_OPS)
_POSTFIX_BY_LENGTH = _by_length(_POSTFIX_OPS)

_NEGATE = {">": "<=", ">=": "<", "<": ">=", "<=": ">", "between": "outside", "outside": "between"}
# Words that may stand between a parameter's name and its comparison.
_VERB_GAP = {
    "is", "are", "was", "were", "be", "been", "being", "remains", "remain", "stays", "stay",
    "kept", "keep", "maintained", "held", "falls", "fall", "drops", "drop", "rises", "rise",
    "goes", "go", "gets", "get", "climbs", "climb", "reads", "read", "measures", "measured",
    "increases", "increase", "decreases", "decrease", "has", "have", "does", "do", "did",
    "measure",
    "reduced", "lowered", "decreased", "raised", "increased", "contain", "contains",
    "not", "never", "must", "shall", "should", "will", "would", "may", "can", "cannot",
    "to", "need", "needs", "required", "continuously", "still", "ever", "always", "of",
    "at", "operated", "run", "runs", "running", "lie", "lies", "within", "in", "the", "range",
    "set", "allowed", "permitted", "exceeding", "band", "window", "becomes", "become",
    "drawn", "down",
}
# Said instead of "never" between a modal and its comparison.
_NEVER_PHRASES = (("at", "no", "time"), ("under", "no", "circumstances"), ("in", "no", "case"),
                  ("on", "no", "account"))
# Said instead of "always" between a modal and its comparison.
_ALWAYS_PHRASES = (("at", "all", "times"), ("at", "any", "time"), ("in", "all", "cases"),
                   ("under", "all", "conditions"))
_MODALS = {"must", "shall", "should", "cannot", "need", "needs", "required", "has", "have"}
_CONNECTIVES = {"and", "or", "while", "with", "whilst", "unless", "except", "but", "either",
                "if", "when", "whenever", "where", "nor", "both", "plus"}
_TIME_DIMENSIONS = ("time", "calendar")


@dataclass
class Token:
    kind: str  # "num" | "word" | "sym" | "punct" | "cite" (a cited paragraph: "(a)(2)")
    text: str
    start: int
    end: int
    value: Decimal | None = None
    unit: Unit | None = None
    gap: str = ""  # the raw text between the previous token and this one

    @property
    def low(self) -> str:
        return self.text.lower()


@dataclass
class FoundAtom:
    """A comparison found in the text: where it lies, what it compares."""

    first: int  # index of the first token of its comparison phrase
    last: int  # index of its last token
    op: str
    value: Decimal | tuple[Decimal, Decimal]
    unit: Unit | None
    phrase: str = ""  # the words naming the parameter
    param: str | None = None
    label: str = ""
    requirement: bool = False  # stated as what must hold ("must not exceed")
    inner: str = ""  # parameter words between comparison and number ("above a pressure of 5")
    negated: bool = False  # a requirement said with not/never: the op is the written one's negation
    states: tuple[str, ...] = ()  # a discrete parameter in one of these states
    not_state: bool = False  # "is not running": in none of them
    phase: bool = False  # said as a phase ("during takeoff", "while the X is S"): when a rule
    # applies, never what must hold
    dwell: tuple[str, Decimal] | None = None  # with states: and in them (op, value) long
    name_start: int | None = None  # where its name starts when an alias holds "and"/"or"
    name_end: int | None = None  # the last token of a name said after it with numbers in it


@dataclass
class Duration:
    seconds: Decimal
    inclusive: bool


@dataclass
class ParsedCondition:
    condition: Condition | None
    atoms: list[FoundAtom]
    duration: Duration | None = None
    requirement: bool = False
    violation: bool = False  # context comparisons and a violated requirement, already negated
    end: int = 0  # character offset where the last comparison ends
    start: int = 0  # character offset where the first parameter phrase starts
    comparison_start: int = 0  # character offset where the first comparison starts
    problems: list[str] = field(default_factory=list)
    needs_review: bool = False  # refused for a word the manifest may lack (a state)


def tokenize(text: str) -> list[Token]:
    """Words, numbers with their units, symbols and punctuation, with character spans."""
    tokens: list[Token] = []
    pos = 0
    # The matches of _TOKEN from pos on, as a search from each token's end would find
    # them; taken again from a unit's end when a number's unit is read past its match.
    matches = _TOKEN.finditer(text)
    while (match := next(matches, None)) is not None:
        start, end = match.span()
        kind = match.lastgroup or "word"
        word = match.group()
        tok = Token(kind, word, start, end, None, None, text[pos:start])
        pos = end
        low = word.lower()
        if kind == "word" and low in _NUMBER_WORDS and (_number_word_position(tokens) or (
                tokens and tokens[-1].low == "of" and match_unit_phrase(text, pos))):
            # "the flow rate is zero": a number written as a word, after a comparison;
            # "a dose of fifty percent": or with its unit, after "of"
            kind = tok.kind = "num"
        if kind == "num":
            tok.value = (Decimal(_NUMBER_WORDS[low]) if low in _NUMBER_WORDS
                         else parse_decimal(word))
            fraction = _FRACTION.match(text, pos) if low not in _NUMBER_WORDS else None
            if fraction is not None:
                # "4/32 of an inch": one number; "1/3" has no exact decimal, so its
                # denominator stays a number of its own (unplaced: the reading is refused)
                exact = _exact_fraction(tok.value, int(fraction.group(1)))
                if exact is None:
                    tokens.append(tok)
                    tok = Token("num", fraction.group(1), fraction.start(1), fraction.end(1),
                                Decimal(fraction.group(1)), None, "/")
                else:
                    tok.value = exact
                tok.end = pos = fraction.end()
                matches = _TOKEN.finditer(text, pos)
            restated = _restated_unit(text, pos, tok.value)
            if restated is not None:
                # "0.75 parts formaldehyde per million parts of air (0.75 ppm)": the words
                # spell the unit the bracket gives
                tok.unit, tok.end = restated
                pos = tok.end
                matches = _TOKEN.finditer(text, pos)
                tokens.append(tok)
                continue
            number_end = pos
            found = match_unit_phrase(text, pos)
            if found is None and fraction is not None and (
                    of_unit := _OF_A_UNIT.match(text, pos)) is not None:
                found = match_unit_phrase(text, of_unit.end())
            if found is not None:
                tok.unit, unit_end = found
                tok.end = pos = unit_end
                pos = _skip_dual_unit(text, pos)
                # "203 mm (8 inches) of mercury": the unit completed after its restatement
                completed = _OF_MEDIUM.match(text, pos)
                if completed is not None and pos > unit_end:
                    spelled = text[number_end:unit_end] + completed.group(0)
                    whole = match_unit_phrase(spelled, 0)
                    if whole is not None and whole[1] == len(spelled):
                        tok.unit = whole[0]
                        tok.end = pos = completed.end()
                matches = _TOKEN.finditer(text, pos)
        tokens.append(tok)
    _citations_as_names(tokens)
    return tokens


# Words after which a number names a part of a document, never a quantity: "under
# § 195.406", "section 20.1201", "paragraph 4", "Part 141", "49 CFR 192".
_CITATION_WORDS = frozenset({"section", "sections", "part", "parts", "subpart", "subparts",
                             "appendix", "chapter", "title", "amdt", "cfr", "usc", "fr"})


def _citations_as_names(tokens: list[Token]) -> None:
    """Numbers of a citation become words (identifiers), so that no reading takes the
    "195.406" of "established under § 195.406" for a threshold; the paragraphs of a
    cited section ("§ 141.74 (a)(2) and (b)(5)") become citation tokens, which no reading
    takes for a word of a condition."""
    _cite_paragraphs(tokens)
    for k, tok in enumerate(tokens):
        if tok.kind != "num" or tok.unit is not None:
            continue
        before = tokens[k - 1].low if k > 0 else ""
        after = tokens[k + 1].low if k + 1 < len(tokens) else ""
        if "§" in tok.gap or before in _CITATION_WORDS or after in ("cfr", "u.s.c", "usc") or (
                k > 0 and tokens[k - 1].kind == "word" and "§" in tokens[k - 1].gap
                and before in ("and", "or", "through", "to")):
            tok.kind, tok.value = "word", None
        elif 1 < k < len(tokens) - 1 and tokens[k - 1].text == "(" and (
                tokens[k + 1].text == ")") and (tokens[k - 2].text == ")" or (
                tokens[k - 2].kind == "word" and "§" in "".join(
                    t.gap for t in tokens[max(0, k - 4):k - 1]))):
            # "§ 141.74 (a)(2)": a paragraph of the cited section
            tok.kind, tok.value = "word", None


def _cite_paragraphs(tokens: list[Token]) -> None:
    k = 0
    while k < len(tokens):
        if "§" not in tokens[k].gap or tokens[k].kind not in ("num", "word"):
            k += 1
            continue
        j = k + 1
        while j < len(tokens):
            if tokens[j].text == "(" and j + 2 < len(tokens) and tokens[j + 2].text == ")" and (
                    len(tokens[j + 1].text) <= 4):
                for m in range(j, j + 3):
                    tokens[m].kind = "cite"
                j += 3
            elif tokens[j].low in ("and", "or", "through", ",") and j + 1 < len(tokens) and (
                    tokens[j + 1].text == "(") and j > k + 1:
                tokens[j].kind = "cite"
                j += 1
            else:
                break
        k = j


def _restated_unit(text: str, pos: int, value: Decimal | None) -> tuple[Unit, int] | None:
    """(unit, end) when a number is followed by a rate or ratio spelled out in words and
    a bracket restating the same number with a unit rulec knows."""
    match = _RESTATED.match(text, pos)
    if match is None or value is None:
        return None
    words = match.group(1).lower().split()
    if "per" not in words or any(w in _NOT_IN_A_UNIT for w in words):
        return None
    try:
        same = parse_decimal(match.group(2)) == value
    except ArithmeticError:
        return None
    found = match_unit_phrase(text, match.end(2))
    close = _CLOSING.match(text, found[1]) if found is not None else None
    if not same or found is None or close is None:
        return None
    return found[0], close.end()


_RESTATED = re.compile(r"((?:\s+[A-Za-z][\w'’-]*){1,9})\s*\(\s*(\d[\d,]*(?:\.\d+)?)")
_NOT_IN_A_UNIT = frozenset({"or", "and", "than", "not", "no", "exceed", "exceeds", "below",
                            "above", "less", "more", "greater", "if", "when", "shall",
                            "must", "is", "are", "be"})
_CLOSING = re.compile(r"\s*\)")
_FRACTION = re.compile(r"/(\d{1,4})(?![\d/.,]|\w)")
_OF_A_UNIT = re.compile(r"\s+of\s+an?(?=\s)")
_OF_MEDIUM = re.compile(r"\s+of\s+(?:mercury|water)\b", re.IGNORECASE)


def _exact_fraction(numerator: Decimal, denominator: int) -> Decimal | None:
    """``numerator / denominator`` when it is a whole number over a denominator with an
    exact decimal (2/32 = 0.0625), else None."""
    if denominator == 0 or numerator != numerator.to_integral_value():
        return None
    d = denominator
    for prime in (2, 5):
        while d % prime == 0:
            d //= prime
    if d != 1:
        return None
    return (numerator / Decimal(denominator)).normalize()


_NUMBER_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen".split())} | {
    w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety"
                                    .split(), start=2)}
# What a number token holds: a digit or a number word (also inside a longer word here).
_NUMBER_LIKE = re.compile(r"\d|" + "|".join(_NUMBER_WORDS), re.IGNORECASE)


def may_hold_number(text: str) -> bool:
    """False when ``tokenize(text)`` cannot give a number token (no digit, no number
    word): a cheap test before tokenising a text only to look for comparisons."""
    return _NUMBER_LIKE.search(text) is not None


def _number_word_position(tokens: list[Token]) -> bool:
    """Number words count as numbers only right after a comparison or `is`/`reaches`."""
    if not tokens:
        return False
    last = tokens[-1].low
    return last in ("is", "are", "reaches", "reach", "exceeds", "than", "above", "below",
                    "least", "most", "equals", "to", "under", "over")


def parse_decimal(text: str) -> Decimal:
    """A number as written: thousands parted by commas or spaces ("9 550"), a Unicode minus."""
    return Decimal(_THOUSANDS.sub("", text).replace("−", "-"))


_THOUSANDS = re.compile(r"[, \u00a0\u202f\u2009]")


def _skip_dual_unit(text: str, pos: int) -> int:
    """`118 °C (245 °F)`: the bracketed second unit restates the first; skip it.  A unit
    rulec does not convert counts too (`0.8 m³ (5 bbl)`): it only restates."""
    match = _DUAL_UNIT.match(text, pos)
    if match and (match_unit_phrase(text, match.start(1)) is not None
                  or _UNIT_WORD.fullmatch(match.group(1).strip())):
        return match.end()
    return pos


_DUAL_UNIT = re.compile(r"\s*\(\s*[+\-−]?[\d,]+(?:\.\d+)?\s*([^()\d]{1,25})\)")


# One unit-like word in such a bracket: "bbl", "psig", "US gal" is two words and stays.
_UNIT_WORD = re.compile(r"[A-Za-zµ°%][A-Za-zµ°%/³²·]{0,11}")


def parse_condition(
    text: str,
    resolve: Callable[[str], tuple[str, str] | None],
    resolve_by_unit: Callable[[Unit], tuple[str, str] | None] | None = None,
    trailing_action: bool = False,
    known: Callable[[str], bool] | None = None,
    table: ParameterTable | None = None,
) -> ParsedCondition:
    """Parse a condition text; `resolve(phrase)` maps words to (parameter, label).

    `trailing_action`: the text goes on with the action after the last comparison
    ("Patients with X above N require ..."), so words there are not condition.
    `known(phrase)`: whether the words are a parameter's alias word for word; with it,
    "the symmetry or the flatness is greater than 3 %" compares both parameters."""
    read_tokens, read_duration, read_consumed, found = _read_comparisons(text)
    # Copies of what the steps below fill in or might change; tokens are only read.
    tokens = list(read_tokens)
    duration, consumed = copy.copy(read_duration), set(read_consumed)
    atoms = [_copied(atom) for atom in found]
    problems: list[str] = []
    if duration is not None and duration.seconds < 0:
        # "for more than -15 s": no time can last that; refused, not read as no duration
        return ParsedCondition(None, atoms, None, problems=["a duration cannot be negative"])
    states: list[FoundAtom] = []
    if table is not None and any(info.states for info in table.params.values()):
        dwelt, unknown = find_times_in_state(tokens, table)
        states, unknown_states = find_states(tokens, table)
        unknown += unknown_states
        if unknown:
            return ParsedCondition(None, atoms, duration, problems=unknown, needs_review=True)
        spans = {k for a in dwelt for k in range(a.first, a.last + 1)}
        states = [*dwelt, *(a for a in states if not spans & set(range(a.first, a.last + 1)))]
        for atom in dwelt:
            assert atom.param is not None
            table.time_in_state(atom.param)
        held = {k for a in states for k in range(a.first, a.last + 1)}
        atoms = [a for a in atoms if not held & set(range(a.first, a.last + 1))]
    if not atoms and not states:
        return ParsedCondition(None, [], duration, problems=["no comparison with a number"])
    if states:
        atoms = sorted([*atoms, *states], key=lambda a: a.first)
    if known is not None:
        _names_holding_a_conjunction(tokens, atoms, known)
    _name_atoms(text, tokens, atoms, resolve, resolve_by_unit, problems)
    if any(a.param is None for a in atoms):
        return ParsedCondition(None, atoms, duration, problems=problems)
    if known is not None:
        atoms = _shared_comparisons(tokens, atoms, resolve, known)
    requirement = all(a.requirement for a in atoms)
    if not requirement and any(a.requirement for a in atoms):
        # Context comparisons plus a requirement: fires when the context holds and the
        # requirement is violated.
        context = [a for a in atoms if not a.requirement]
        required = [a for a in atoms if a.requirement]
        # "must not exceed 50 percent ..., except during proof testing": what follows an
        # exception word after the requirement is when the requirement does not apply
        after = required[0].last
        cut = next((k for k in range(after + 1, len(tokens))
                    if tokens[k].low in ("unless", "except")), None)
        exempt = [a for a in context if cut is not None and a.first > cut]
        context = [a for a in context if a not in exempt]
        permitted = _permitted_up_to(tokens, exempt[-1].last, resolve) if exempt else None
        if permitted is not None:
            # "..., except that dives with bottom times of 30 minutes or less may be
            # conducted to depths of 220 fsw": the exception holds up to that quantity
            exempt.append(permitted)
            atoms = sorted([*atoms, permitted], key=lambda a: a.first)
            consumed |= set(range(permitted.first, permitted.last + 1))
        parts: list[Condition] = []
        if context:
            parts.append(_build(_structure(tokens, context)))
        if exempt:
            parts.append(Not(_build(_structure(tokens, exempt))))
        condition: Condition = All((*parts, Not(_build(_structure(tokens, required)))))
        violation = True
    else:
        condition = _build(_structure(tokens, atoms))
        violation = False
    first_phrase_tok = _phrase_start(tokens, atoms, 0)
    left_out = _clause_left_out(tokens, atoms, first_phrase_tok, consumed, trailing_action,
                                known)
    if left_out:
        # A joined clause without a comparison would be silently dropped, and the rule
        # would fire more often than written: refuse it instead.
        return ParsedCondition(None, atoms, duration, problems=[
            f"part of the condition is not a comparison with a number: {left_out!r}"])
    tail = _requirement_tail(text, tokens, atoms, consumed, resolve) if trailing_action and any(
        a.requirement for a in atoms) else ""
    if tail:
        # "shall be held at 40 °F. or less, except for product to be pasteurized",
        # "shall not exceed 3.34 × 10−3 percent of the exposure rate": what the requirement
        # says after its threshold is part of it
        return ParsedCondition(None, atoms, duration, problems=[tail], needs_review=True)
    unplaced = _unplaced_part(text, tokens, atoms, consumed, trailing_action, duration)
    if unplaced:
        # Every number and time phrase of a condition has a role; one left over would be
        # a condition dropped, and the rule would fire where the text says it must not.
        return ParsedCondition(None, atoms, duration, problems=[unplaced])
    timed = min((k for k in consumed if k > atoms[-1].last), default=None)
    if trailing_action and duration is not None and timed is not None and not any(
            a.requirement for a in atoms) and any(
            t.low in ("must", "shall", "should", "will") for t in tokens[atoms[-1].last:timed]):
        # "The test must be conducted by maintaining a pressure ... for at least 8 hours":
        # the time is the order's, not how long the condition has held
        return ParsedCondition(None, atoms, duration, needs_review=True, problems=[
            "a duration said with the order, not with the condition, is not read"])
    reference = _compared_with_a_named_value(text, tokens, atoms, resolve, trailing_action)
    if reference:
        # "The test must be conducted by maintaining a pressure at or above the baseline
        # test pressure for at least 8 hours": a comparison with a value given elsewhere
        return ParsedCondition(None, atoms, duration, problems=[reference], needs_review=True)
    unread = unread_state(tokens, atoms, table) if table is not None else ""
    if unread:
        # "No person may take off or land an aircraft (other than a helicopter) under
        # special VFR— unless ground visibility is at least 1 statute mile": a state a
        # parameter has, named and not read, is part of the condition left out.
        return ParsedCondition(None, atoms, duration, problems=[unread], needs_review=True)
    return ParsedCondition(
        condition, atoms, duration, requirement,
        violation=violation,
        end=tokens[atoms[-1].last].end,
        start=tokens[first_phrase_tok].start if first_phrase_tok < len(tokens) else 0,
        comparison_start=tokens[atoms[0].first].start,
        problems=problems,
    )


@functools.lru_cache(maxsize=4096)
def _read_comparisons(text: str) -> tuple[tuple[Token, ...], Duration | None, frozenset[int],
                                          tuple[FoundAtom, ...]]:
    """The tokens, duration and comparisons of a condition text, before any parameter is
    named.  A pure function of the text, so cached: the same condition texts come back in
    statement after statement (and input after input when fuzzing)."""
    if _TIME_ADJECTIVE.search(text):  # blanked, so that offsets into the text still hold
        text = _TIME_ADJECTIVE.sub(lambda m: " " * len(m.group(0)), text)
    tokens = tokenize(text)
    duration, consumed = _find_duration(tokens)
    atoms = find_comparisons(tokens, consumed)
    if not atoms and duration is not None and _amount_of_time(tokens, consumed):
        # "must provide for at least 10 consecutive hours of rest": with no comparison for
        # it to qualify, "for at least 10 hours of rest" is an amount, not a duration
        duration, consumed = None, set()
        atoms = find_comparisons(tokens, consumed)
    return tuple(tokens), duration, frozenset(consumed), tuple(atoms)


# "for more than 10 consecutive minutes": the adjective between a number and its unit
_TIME_ADJECTIVE = re.compile(
    r"(?<=\d)\s+(?:consecutive|continuous|successive|uninterrupted)(?=\s+(?:s|secs?|seconds?|"
    r"mins?|minutes?|h|hrs?|hours?|days?)\b)", re.IGNORECASE)


def _amount_of_time(tokens: list[Token], consumed: set[int]) -> bool:
    """Whether a duration's number is followed by "of" and a noun ("hours of rest")."""
    last = max(consumed)
    return last + 1 < len(tokens) and tokens[last].kind == "num" and (
        tokens[last + 1].low == "of")


def _copied(atom: FoundAtom) -> FoundAtom:
    """``copy.copy(atom)`` without the copy protocol's cost: its fields are its __dict__."""
    new = object.__new__(FoundAtom)
    new.__dict__.update(atom.__dict__)
    return new


_RELATIVE = frozenset({"where", "which", "who", "whom", "whose", "that"})


def _clause_left_out(tokens: list[Token], atoms: list[FoundAtom], first: int,
                     consumed: set[int], trailing_action: bool,
                     known: Callable[[str], bool] | None = None) -> str:
    """Words joined by and/or/while before the first or after the last comparison; an
    "and" inside a parameter's alias ("Total Nitrate and Nitrite") joins nothing."""
    joins = ("and", "or", "while", "whilst", "but")
    filler = ("the", "a", "an", "it", "so", "then", "either", "both")

    def content(words: list[str]) -> bool:
        return any(w not in _CONNECTIVES and w not in filler for w in words)

    before = [t for t in tokens[:first] if t.kind == "word"]
    words = [t.low for t in before]
    said = [t.low for t in tokens[:atoms[0].first]]
    if any(a.requirement for a in atoms) and any(
            said[k + 1] == "that" and (said[k] == "so" or said[k] in _ENSURE_VERBS)
            for k in range(len(said) - 1)):
        # "Control, including testing and recording, shall be exercised so that X is not
        # higher than N": the order's own words before what it requires are no condition
        cut = max(k for k in range(len(said) - 1) if said[k + 1] == "that")
        before = [t for t in tokens[cut + 2:first] if t.kind == "word"]
        words = [t.low for t in before]
    cuts = [k for k, t in enumerate(tokens[:first]) if t.text == ","]
    clause = [t.low for t in tokens[:cuts[-1]] if t.kind == "word"] if cuts else []
    if not trailing_action and any(w in _VERB_GAP for w in clause) and content(
            [w for w in clause if w not in _VERB_GAP]):
        # "When sodium chloride aerosol is used, the relative humidity ... shall not
        # exceed 50 percent": a clause of the condition (it has a verb) that compares
        # nothing; a name before a comma ("Rotor speed (NR), power on, ...") is no clause
        return " ".join(t.text for t in tokens[:cuts[-1]] if t.kind != "punct")
    if trailing_action:
        # "The employer shall establish and maintain a program ... by making testing
        # available to all employees whose exposures equal or exceed N": the comparison
        # is said of whoever the relative clause names; the order's own words are no part
        state_after = atoms[0].states and atoms[0].phase
        if any(t.low in ("whose", "who", "whom") for t in tokens[first:atoms[0].first]) or (
                state_after):
            # ... or the condition is a phase said after the order: "Wheel stops or other
            # protection shall be provided ... during loading or unloading operations"
            before, words = [], []
    for k, word in enumerate(words):
        # "X becomes frobbier than 5 unless Y ...": with nothing read before `unless`,
        # the exception alone would be the whole condition
        if word in ("and", "or") and _noun_coordination(
                words + [t.low for t in tokens[first:first + 2] if t.kind == "word"], k,
                ending=True):
            continue  # "Exposure to impulsive or impact noise should not exceed ..."
        if word in ("and", "or") and _one_noun_twice_qualified(
                words + [t.low for t in tokens[first:first + 2] if t.kind == "word"], k, known):
            continue  # "When ascending or descending grades in excess of 10 percent"
        if word in ("and", "or") and known is not None and _inside_alias(
                words + [t.low for t in tokens[first:first + 8] if t.kind == "word"], k, known):
            continue
        if word in joins + ("unless", "except") and content(words[:k]):
            if trailing_action and any(w in _RELATIVE for w in words[:k]):
                continue  # "The air in every place where persons work or travel shall ..."
            return " ".join(t.text for t in before[:k + 1])
    if trailing_action:
        return ""
    after = [t for i, t in enumerate(tokens) if i > atoms[-1].last and i not in consumed]
    relative = any(t.low in _RELATIVE_PRONOUNS for t in tokens[:atoms[0].first])
    words = [t.low for t in after]
    for k, word in enumerate(words):
        if word in joins and content(words[k + 1:k + 4]) and not _noun_coordination(
                words, k) and not _one_noun_twice_qualified(words, k, known):
            return " ".join(t.text for t in after[k:k + 6])
        if word in _SUBORDINATORS and content(words[k + 1:k + 5]):
            # "If the oil temperature is above 90 °C when the engine is running": a clause
            # of the condition that names nothing a parameter measures
            return " ".join(t.text for t in after[k:k + 6])
        if word in _FINITE and relative and content(words[k + 1:k + 3]):
            # "Whenever a segment that is operated at a hoop stress level of 30 percent or
            # more is spike tested under this part": the comparison is in a relative
            # clause of the subject; what is said of the subject is not read
            return " ".join(t.text for t in after[k:k + 6])
        if word in ("unless", "except") and content(words[k + 1:k + 5]):
            # "A closed bell is used at depths greater than 300 fsw, except when diving is
            # conducted in physically confining spaces": an exception that compares nothing
            return " ".join(t.text for t in after[k:k + 6])
    return ""


# Words that open a clause of a condition after its comparison; a clause they open that
# no comparison or state reads is a condition left out.
_SUBORDINATORS = frozenset({"when", "whenever", "if", "once", "before", "until"})
_FINITE = frozenset({"is", "are", "was", "were", "has", "have"})
_RELATIVE_PRONOUNS = frozenset({"that", "which", "who", "whose"})
_PREPOSITIONS = frozenset({"in", "of", "on", "at", "from", "for", "into", "inside"})
_NP_DETERMINERS = frozenset({"a", "an", "the", "any", "each", "every"})


def _inside_alias(words: list[str], k: int, known: Callable[[str], bool]) -> bool:
    """Whether ``words[k]`` lies inside a run of words that is a parameter's alias."""
    for first in range(max(0, k - 6), k):
        for last in range(k + 1, min(len(words), first + 9)):
            if known(" ".join(words[first:last + 1])):
                return True
    return False


def _noun_coordination(words: list[str], k: int, ending: bool = False) -> bool:
    """Whether the "or"/"and" at ``words[k]`` joins two words of one noun phrase after a
    preposition ("in a blood or breath specimen", "exposure to impulsive or impact noise"),
    where it names what is measured and is no second condition.  ``ending``: the phrase
    may go on (the words before a comparison)."""
    if k < 2 or words[k - 2] not in _PREPOSITIONS | _NP_DETERMINERS | {"to"}:
        return False
    if words[k - 2] in _NP_DETERMINERS and (k < 3 or words[k - 3] not in _PREPOSITIONS):
        return False
    rest = words[k + 1:k + 3] if ending else words[k + 1:]
    plain = [w for w in (words[k - 1], *rest) if w not in _CONNECTIVES and w not in _VERB_GAP
             and w not in _NP_DETERMINERS]
    return 1 <= len(rest) <= 2 and len(plain) == 1 + len(rest)


# Endings two modifiers of one noun share: "ascending or descending grades", "operative
# and effective brakes", "impulsive or impact noise" is read by the preposition rule.
_MODIFIER_ENDINGS = ("ing", "ed", "ive", "al", "ous", "ic", "ble", "ary", "ful", "ent", "ant")


def _one_noun_twice_qualified(words: list[str], k: int,
                              known: Callable[[str], bool] | None) -> bool:
    """Two modifiers of one noun (see _paired_modifiers), unless the first with the noun
    names a parameter itself ("the primary or secondary pressure": two parameters, which
    one reading of the second alone would drop)."""
    if not _paired_modifiers(words, k):
        return False
    return known is None or not known(f"{words[k - 1]} {words[k + 2]}")


def _paired_modifiers(words: list[str], k: int) -> bool:
    """Whether the "or"/"and" at ``words[k]`` joins two modifiers of the same form before
    the noun they both qualify ("when ascending or descending grades in excess of 10
    percent", "have operative and effective brakes"): one phrase, no second condition."""
    if k < 1 or k + 2 >= len(words):
        return False
    left, right, head = words[k - 1], words[k + 1], words[k + 2]
    if any(w in _CONNECTIVES or w in _VERB_GAP or w in _NP_DETERMINERS
           for w in (left, right, head)):
        return False
    if not all(w.isalpha() for w in (left, right, head)):
        return False
    return any(left.endswith(e) and right.endswith(e) and len(left) > len(e) + 2
               and len(right) > len(e) + 2 for e in _MODIFIER_ENDINGS)


def _unplaced_part(text: str, tokens: list[Token], atoms: list[FoundAtom], consumed: set[int],
                   trailing_action: bool, duration: Duration | None) -> str:
    """Why a reading leaves part of its condition unexplained, or "".

    A number has a role when it is a comparison's threshold, the duration, or a word of
    the subject a comparison names ("the 0.5 µm particle count"); in the condition part
    of the text (all of it, or up to the last comparison when an action follows) any
    other number is unplaced: "within 10 seconds of start-up", "after 30 minutes of
    operation".  A threshold said relative to another quantity ("5 K above the ambient
    temperature"), a duration or a count of events in words ("for more than an hour",
    "twice within one hour") are not read either."""
    asides = _asides(tokens)
    placed = set(consumed) | asides
    for atom in atoms:
        if _order_target(tokens, atom):
            # "reduce the concentration of methane to less than 1.0 percent": the
            # quantity of an order, not a condition on a reading
            return (f"an order's target is not a condition: "
                    f"{_span(text, tokens, atom.first - 1, atom.last)!r}")
    for n, atom in enumerate(atoms):
        k = atom.first
        floor = atoms[n - 1].last + 1 if n > 0 else 0
        while k > floor and tokens[k - 1].kind != "punct" and (
                tokens[k - 1].low not in _CONNECTIVES):
            k -= 1  # the subject's words, numbers in names included
        placed.update(range(k, (atom.name_end or atom.last) + 1))
        following = [t.low for t in tokens[atom.last + 1:atom.last + 4]]
        if any(other.first == atom.last + 1 for other in atoms):
            following = []  # "below 25 psi more than 5 minutes after start": the next one
        # "5 K above the ambient temperature" (said as a value), "not be greater than
        # 15 psi less than the air compressor governor ... setting" (any comparison)
        if following[:1] and following[0] in _RELATIVE_WORDS and (
                following[1:2] == ["than"] or atom.op == "==" and following[1:2]
                and following[1] in _REFERENCE):
            return (f"a threshold relative to another quantity is not read: "
                    f"{_span(text, tokens, atom.first, atom.last + 3)!r}")
    end = atoms[-1].last if trailing_action else len(tokens) - 1
    may = next((k for k in range(end + 1, len(tokens)) if tokens[k].low == "may"), None)
    if trailing_action and may is not None and any(
            t.kind == "num" and t.unit is not None and k not in placed
            for k, t in enumerate(tokens) if k > may):
        # "... except that dives with bottom times of 30 minutes or less may be conducted
        # to depths of 220 fsw": what is permitted is part of the condition, no order
        return f"a permission's quantity is not read: {_span(text, tokens, end + 1, end + 8)!r}"
    for i in range(end + 1):
        if tokens[i].low == "until" and i not in asides:
            # "must not simulate failure of an engine until attaining ... at least 400 feet":
            # in force while the condition is not yet met, the opposite of "if"
            until = _span(text, tokens, i, i + 6)
            return f"a rule in force until a condition holds is not read: {until!r}"
        if tokens[i].kind == "num" and i not in placed and not _names_a_thing(tokens, i):
            return f"a number in the condition has no role: {_span(text, tokens, i - 2, i + 3)!r}"
    condition_text = text[:tokens[end].end] if tokens else text
    read_spans = [(tokens[a.first].start, tokens[a.last].end) for a in atoms]
    for pattern in (_WORD_DURATION, _EVENT_COUNT, _HYPOTHETICAL):
        found = pattern.search(condition_text)
        if found and pattern is _HYPOTHETICAL and any(
                lo <= found.start() < hi for lo, hi in read_spans):
            found = None  # a permission read as a comparison ("may be conducted to ...")
        if found and not (pattern is _WORD_DURATION and duration is not None):
            return f"part of the condition is not read: {found.group(0)!r}"
    return ""


# Verbs that set a quantity to a value ("reduce ... to less than 1.0 percent", "to keep ...
# below 10 percent"); verbs of a reading ("falls to 37 bar or below", "increases to 2 or
# more") are not among them.
_ORDER_VERBS = frozenset({"reduce", "lower", "raise", "bring", "restore", "adjust", "set",
                          "cut", "throttle", "return", "recover", "decrease", "limit"})
# ... and those that hold one there, an order's target only as a purpose: "Keep the level
# to 5 % or less" is a limit, "sufficient to keep the level below 5 %" a target.
_HOLD_VERBS = frozenset({"keep", "maintain", "hold"})


def _order_target(tokens: list[Token], atom: FoundAtom) -> bool:
    """Whether a comparison is what an order sets a quantity to, not a condition: in a
    clause with such a verb said as a purpose ("sufficient to keep the concentration
    below 10 percent"), or after "to" following one ("reduce the concentration of methane
    to less than 1.0 percent"); never in a prohibition ("Do not reduce the sweep gas flow
    to less than 0.5 L/min" is a limit)."""
    setter = False
    k = atom.first - 1
    clause = itertools.takewhile(lambda t: t.kind != "punct" and t.low not in _CONNECTIVES,
                                 reversed(tokens[:atom.first]))
    if any(t.low in ("not", "never", "don't", "avoid", "cannot") for t in clause):
        return False  # "may not be set to maintain a pressure higher than 60 p.s.i.": a limit
    while k >= 0 and tokens[k].kind != "punct" and tokens[k].low not in _CONNECTIVES:
        low = tokens[k].low
        if low in _ORDER_VERBS or low in _HOLD_VERBS:
            if k > 0 and tokens[k - 1].low == "to":
                return True
            setter = setter or low in _ORDER_VERBS
        k -= 1
    return setter and atom.first > 0 and tokens[atom.first - 1].low == "to"


# The window a quantity is counted in, not a condition: "during the 24-hour period that
# precedes ...", "during any calendar year".
_WINDOW = re.compile(r"(?:the|any|each|a|every)\s+(?:\S+\s+)?(?:period|calendar|year|month|"
                     r"week|day|shift|quarter)\b")
# How a quantity is measured, not when the rule applies: "when measured at any point on
# a major tread groove", "if measured at another body site".
_HOW_MEASURED = frozenset({"measured", "tested", "taken", "determined", "sampled", "averaged",
                           "calculated", "computed", "corrected", "expressed", "read"})
_EXCEPTING = frozenset({"except", "excepting", "excluding", "unless", "save"})


def _requirement_tail(text: str, tokens: list[Token], atoms: list[FoundAtom],
                      consumed: set[int], resolve: Callable[[str], tuple[str, str] | None]
                      ) -> str:
    """Why the words after a requirement's last threshold are part of it and not read, or
    "": an exception, a condition, a number with no role, or a threshold said as a share
    of another quantity ("percent of the exposure rate")."""
    asides = _asides(tokens)
    last = atoms[-1]
    end = next((k for k in range(last.last + 1, len(tokens))
                if tokens[k].text in (";", ":") or tokens[k].text == "." and k + 1 < len(tokens)),
               len(tokens))  # a clause after a semicolon is a statement of its own
    rest = [(k, t) for k, t in enumerate(tokens[:end]) if k > last.last and k not in consumed
            and k not in asides]
    words = [t.low for _, t in rest]
    for n, (k, tok) in enumerate(rest):
        ahead = [w for w in words[n + 1:n + 5] if w not in _CONNECTIVES]
        if tok.low in _EXCEPTING or (tok.low == "other" and words[n + 1:n + 2] == ["than"]):
            return (f"an exception after the requirement is not read: "
                    f"{_span(text, tokens, k, k + 6)!r}")
        if tok.low in _SUBORDINATORS and ahead and not _WINDOW.match(
                " ".join(words[n + 1:n + 6])) and words[n + 1:n + 2] != [] and (
                words[n + 1] not in _HOW_MEASURED):
            return (f"a condition after the requirement is not read: "
                    f"{_span(text, tokens, k, k + 6)!r}")
        if tok.kind == "num" and tok.unit is not None and not _names_a_thing(tokens, k):
            return (f"a number after the requirement has no role: "
                    f"{_span(text, tokens, k - 2, k + 3)!r}")
    if words[:1] == ["of"] and words[1:2] and words[1] in _NP_DETERMINERS and (
            last.unit is not None and last.unit.dimension == "ratio"):
        named = resolve(" ".join(t.text for _, t in rest[1:7] if t.kind == "word"))
        if named is None or named[0] != last.param:
            return (f"a threshold relative to another quantity is not read: "
                    f"{_span(text, tokens, last.first, last.last + 5)!r}")
    return ""


def _asides(tokens: list[Token]) -> set[int]:
    """Tokens of what a sentence says in passing: inside brackets ("25.6 A (80 % of the 32 A
    breaker rating)"), or after "i.e." / "e.g." to the end of its clause."""
    out: set[int] = set()
    depth, aside = 0, False
    for i, tok in enumerate(tokens):
        if tok.text == "(":
            depth += 1
        elif tok.text == ")":
            depth = max(depth - 1, 0)
            out.add(i)
        elif tok.text == ";" and depth == 0:
            aside = False
        elif (tok.low in ("i", "e") and i + 1 < len(tokens)
              and tokens[i + 1].low in ("e", "g") and tokens[i + 1].gap == "."):
            aside = True
        if depth or aside:
            out.add(i)
    return out


# State words that are common words too ("shut down", "set up", "turn off"): a mention
# counts only right after its parameter's name.
_COMMON_STATE_WORDS = frozenset({
    "on", "off", "up", "down", "in", "out", "open", "opened", "closed", "close", "low",
    "high", "normal", "run", "running", "set", "start", "started", "stop", "stopped", "auto",
    "manual", "hold", "idle", "day", "night", "other", "none", "active", "inactive", "ready",
    "standby", "fault", "ok", "armed", "safe", "full", "empty", "level", "general"})


def unread_state(tokens: list[Token], atoms: list[FoundAtom], table: ParameterTable) -> str:
    """Why a state of a discrete parameter named in the text is left out of the reading,
    or "": a state name or phrase outside every comparison read ("Except for
    helicopters, when flight visibility is at least 1 statute mile")."""
    if not any(info.states for info in table.params.values()):
        return ""
    read = {k for a in atoms for k in range(a.first, a.last + 1)}
    words = [_word_form(t) for t in tokens]
    for k in range(len(tokens)):
        if k in read or tokens[k].kind != "word":
            continue
        for info in table.params.values():
            if not info.states or info.time_in_state_of is not None:
                continue
            found = _state_at(info, words, k)
            if found is None or any(j in read for j in range(k, k + found[1])):
                continue
            if _inside_other_alias(table, words, k, info.name):
                continue  # "the maximum actual operating pressure": a name, no state
            said = " ".join(words[k:k + found[1]])
            if found[1] == 1 and said in _COMMON_STATE_WORDS:
                hit = table.alias_at(words, max(0, k - 3))
                if hit is None or hit[0] != info.name:
                    continue
            return (f"{_span_text(tokens, max(0, k - 3), k + found[1] + 2)!r} names "
                    f"{info.name} {found[0]!r}, which the reading leaves out")
    return ""


_NAMED_VALUE_COMPARISON = re.compile(
    r"\b(?:at or above|at or below|above|below|exceeds?|exceeding|greater than|less than|"
    r"more than|higher than|lower than|at least|at most|equal to)\s+(?:the|that|those|its|"
    r"their)\s+(?P<name>(?:[A-Za-z][\w'-]*\s*){1,6})", re.IGNORECASE)


def _compared_with_a_named_value(text: str, tokens: list[Token], atoms: list[FoundAtom],
                               resolve: Callable[[str], tuple[str, str] | None],
                               trailing_action: bool) -> str:
    """A comparison in the condition with a value named, not given ("at or above the
    baseline test pressure"), that no reading holds; "" when there is none, or when the
    words after it name a parameter the reading compares ("500 feet below the cloud")."""
    end = tokens[atoms[-1].last].end if trailing_action and atoms else len(text)
    spans = [(tokens[a.first].start, tokens[a.last].end) for a in atoms]
    read = {a.param for a in atoms}
    for found in _NAMED_VALUE_COMPARISON.finditer(text, 0, end):
        if any(lo <= found.start() < hi or not text[hi:found.start()].strip()
               for lo, hi in spans):
            continue  # inside a comparison read, or the datum of its value ("16 ft above
            # the top of the core")
        named = resolve(found.group("name"))
        if named is not None and named[0] in read:
            continue
        return f"a comparison with a value given elsewhere: {found.group(0).strip()!r}"
    return ""


def _inside_other_alias(table: ParameterTable, words: list[str], k: int, own: str) -> bool:
    """Whether ``words[k]`` lies inside an alias of another parameter."""
    for j in range(max(0, k - 6), k + 1):
        hit = table.alias_at(words, j)
        if hit is not None and hit[0] != own and j + hit[1] > k:
            return True
    return False


def _names_a_thing(tokens: list[Token], i: int) -> bool:
    """A bare integer after a capitalised word names something: "Data Hall 2", "Pump 3"."""
    tok = tokens[i]
    if tok.unit is not None or i == 0 or not tok.text.isdigit():
        return False
    before = tokens[i - 1]
    return before.kind == "word" and before.text[:1].isupper() and before.text.isalpha()


def _span(text: str, tokens: list[Token], first: int, last: int) -> str:
    first, last = max(first, 0), min(last, len(tokens) - 1)
    return " ".join(text[tokens[first].start:tokens[last].end].split())


_RELATIVE_WORDS = frozenset({"above", "below", "over", "under", "higher", "lower", "more",
                             "less", "greater", "warmer", "colder", "hotter", "cooler"})
_REFERENCE = frozenset({"the", "its", "their", "ambient", "nominal", "normal", "rated",
                        "setpoint", "set", "baseline", "reference", "inlet", "outlet"})
_WORD_DURATION = re.compile(
    r"\b(?:for|lasting|during)\s+(?:more|longer)\s+than\s+(?:an?|one|two|three|four|five|"
    r"six|ten|twelve|several|a few)\s+(?:hours?|minutes?|seconds?|days?|weeks?)\b",
    re.IGNORECASE)
# "If there is any possibility that an employee's eyes may be splashed with solutions
# containing 0.1 percent or greater": what might happen, not what a reading shows.
_HYPOTHETICAL = re.compile(
    r"\b(?:any|a|the|some|no|reasonable)\s+(?:possibility|likelihood|chance|risk|potential)"
    r"\b|\bmay\s+be\s+[a-z]+ed\b|\bcould\s+be\b|\bis\s+(?:likely|expected)\s+to\b",
    re.IGNORECASE)
_EVENT_COUNT = re.compile(
    r"\b(?:(?:two|three|four|five|\d+) (?:consecutive|successive) (?:[a-z]+ ){0,2}"
    r"(?:tests|readings|samples|measurements|results|checks|scans|cycles|trips|alarms|"
    r"values|occurrences)|"  # "two consecutive blood sampling tests"
    r"twice|three times|(?:\d+|two|three|four|five) times|more than once)\b"
    r"(?:\s+(?:within|in|per|during)\b[^,;]*)?", re.IGNORECASE)


# ---------------------------------------------------------------- states

_STATE_VERBS = frozenset({"is", "are", "was", "were", "remains", "remain", "stays", "stay"})
_PHASE_WORDS = frozenset({"during", "in", "throughout", "while"})


# The state a start enters and an operation or a run is in: the running state.
_RUNNING_STATES = ("running", "on", "started", "operating", "run", "active")
_START_WORDS = frozenset({"start", "start-up", "startup", "starting", "ignition", "light-off"})
_RUN_WORDS = frozenset({"operation", "running", "run", "run-time", "runtime"})
_FIRST_WORDS = frozenset({"during", "in", "for", "within", "over", "throughout"})


def find_times_in_state(tokens: list[Token], table: ParameterTable
                        ) -> tuple[list[FoundAtom], list[str]]:
    """How long a discrete parameter has been in its running state, as a condition:
    "within 10 seconds of engine start" and "during the first 30 s after start-up" (at most
    that long since it entered it), "after 30 minutes of operation" and "more than 5 min
    after start" (longer).  Without an alias, the one discrete parameter that has a
    running state is meant; with none or several, the statement needs review."""
    words = [_word_form(t) for t in tokens]
    found: list[FoundAtom] = []
    unsure: list[str] = []
    for n, tok in enumerate(tokens):
        if tok.kind != "num" or tok.unit is None or tok.unit.dimension not in _TIME_DIMENSIONS:
            continue
        before = words[max(0, n - 3):n]
        if before[-1:] == ["within"]:
            first, anchors = n - 1, _START_WORDS
            op = _within_reading(words)
            if op is None:
                unsure.append(f"{_span_text(tokens, n - 1, n + 3)!r}: a deadline (what must "
                              "be reached by then) or a window (what is limited until then) "
                              "is not said")
                continue
        elif before[-2:] == ["the", "first"] and before[-3:-2] and before[-3] in _FIRST_WORDS:
            first, op, anchors = n - 3, "<=", _START_WORDS | _RUN_WORDS
        elif before[-1:] == ["after"]:
            first, op, anchors = n - 1, ">", _RUN_WORDS
        elif before[-2:] in (["more", "than"], ["less", "than"]):
            first, op, anchors = n - 2, ">" if before[-2] == "more" else "<", _START_WORDS
        else:
            continue
        k = n + 1
        if k < len(words) and words[k] in ("of", "after", "from", "following", "since"):
            k += 1
        elif op in (">", "<") and before[-2:] in (["more", "than"], ["less", "than"]):
            continue  # "more than 5 minutes after start" needs its "after"
        anchor = _anchor_at(words, k, anchors, table)
        if anchor is None:
            continue
        last, name = anchor
        if name is None:
            running = [info for info in table.params.values() if _running_state(info)]
            if len(running) != 1:
                unsure.append(f"{_span_text(tokens, first, last)!r}: which machine's "
                              f"{'start' if words[last] in _START_WORDS else 'operation'} "
                              f"is meant is not said ({len(running)} parameters have a "
                              "running state)")
                continue
            name = running[0].name
        info = table.params[name]
        state = _running_state(info)
        if state is None:
            unsure.append(f"{info.name} has no running state for "
                          f"{_span_text(tokens, first, last)!r} (its states: "
                          f"{', '.join(info.states)})")
            continue
        assert tok.value is not None
        atom = FoundAtom(first, last, "in", Decimal(0), tok.unit)
        atom.param, atom.label = info.name, info.name.replace("_", " ")
        atom.states, atom.phase, atom.dwell = (state,), True, (op, tok.value)
        found.append(atom)
    return found, unsure


_ARRIVAL_WORDS = frozenset({"reach", "reaches", "reached", "rise", "rises", "risen", "attain",
                            "attains", "attained", "stabilize", "stabilizes", "stabilise",
                            "stabilises", "come", "comes", "build", "builds", "indicate",
                            "indicates", "show", "shows", "register", "registers"})
_PROHIBITION_WORDS = (["do", "not"], ["must", "not"], ["shall", "not"], ["never"],
                      ["not", "exceed"], ["may", "not"], ["cannot"])


def _within_reading(words: list[str]) -> str | None:
    """How "within N of start" reads: a deadline (">": once N has passed, what the text
    says must have arrived is judged: "if the oil pressure does not rise above 20 psi
    within 10 seconds of engine start"), a window ("<=": "do not exceed 2,700 rpm within
    30 seconds of engine start"), or None when the text does not tell."""
    arrival = any(w in _ARRIVAL_WORDS for w in words)
    prohibition = any(words[k:k + len(p)] == p for k in range(len(words))
                      for p in _PROHIBITION_WORDS)
    if arrival and not prohibition or arrival and any(
            words[k:k + 2] in (["does", "not"], ["do", "not"], ["fails", "to"])
            and k + 2 < len(words) and words[k + 2] in _ARRIVAL_WORDS
            for k in range(len(words))):
        return ">"
    if prohibition and not arrival:
        return "<="
    return None


def _anchor_at(words: list[str], k: int, anchors: frozenset[str], table: ParameterTable
               ) -> tuple[int, str | None] | None:
    """(last word, parameter or None) of "[the] [<alias>] start" or "start of [the]
    <alias>" at ``words[k]``."""
    if k < len(words) and words[k] in ("the", "an", "a", "its"):
        k += 1
    hit = table.alias_at(words, k) if k < len(words) else None
    name: str | None = None
    if hit is not None and table.params[hit[0]].states:
        name, k = hit[0], k + hit[1]
    if k >= len(words) or words[k] not in anchors:
        return None
    last = k
    if name is None and k + 2 < len(words) and words[k + 1] == "of":
        j = k + 2 + (words[k + 2] in ("the", "an", "a"))
        again = table.alias_at(words, j) if j < len(words) else None
        if again is not None and table.params[again[0]].states:
            name, last = again[0], j + again[1] - 1
    return last, name


def _running_state(info: ParameterInfo) -> str | None:
    if not info.states or info.time_in_state_of is not None:
        return None
    return next((info.state_of(w) for w in _RUNNING_STATES if info.state_of(w)), None)


def _span_text(tokens: list[Token], first: int, last: int) -> str:
    return " ".join(t.text for t in tokens[first:last + 1])


def find_states(tokens: list[Token], table: ParameterTable) -> tuple[list[FoundAtom], list[str]]:
    """The comparisons of discrete parameters a text makes, and why a state is not read
    (a word the manifest does not know after "the <alias> is"): "while the engine is
    running", "with the landing gear extended", "the cabin door is not open", "during
    takeoff" (a phase), "in auto mode"."""
    words = [_word_form(t) for t in tokens]
    found: list[FoundAtom] = []
    unknown: list[str] = []
    i = 0
    while i < len(tokens):
        atom = (_phase_at(tokens, words, i, table) or _mode_at(tokens, words, i, table)
                or _scope_at(tokens, words, i, table))
        if atom is not None:
            found.append(atom)
            i = atom.last + 1
            continue
        hit = table.alias_at(words, i) if tokens[i].kind == "word" else None
        if hit is None:
            i += 1
            continue
        name, length = hit
        info = table.params[name]
        if not info.states:
            i += length
            continue
        join = i + length
        if join + 1 < len(tokens) and words[join] in ("or", "and"):
            again = table.alias_at(words, join + 1)
            if again is not None and again[0] == name:
                length += 1 + again[1]  # "while dockboards or bridge plates are in position"
        k, said, negated = i + length, False, False
        if k < len(tokens) and words[k] in _STATE_VERBS:
            k, said = k + 1, True
            if k < len(tokens) and words[k] in ("not", "never"):
                k, negated = k + 1, True
            if k < len(tokens) and words[k] == "in" and _state_at(info, words, k) is None:
                k += 1  # "is in idle" (but "are in position" may be a phrase itself)
        state = _state_at(info, words, k)
        if state is None:
            if said and k < len(tokens) and tokens[k].kind == "word" and (
                    words[k] not in _VERB_GAP and words[k] not in _NOT_A_STATE_WORD):
                unknown.append(f"{name} has no state {tokens[k].text!r} (its states: "
                               f"{', '.join(info.states)})")
            i += length
            continue
        value, size = state
        atom = FoundAtom(i, k + size - 1, "in", Decimal(0), None)
        atom.param, atom.label = name, " ".join(t.text for t in tokens[i:i + length])
        atom.states, atom.not_state = (value,), negated
        # "... shall be provided while the landing gear is extended": when the rule applies
        lead = [w for w in words[max(0, i - 2):i] if w not in ("the", "a")]
        atom.phase = lead[-1:] in (["while"], ["when"], ["whenever"])
        found.append(atom)
        i = atom.last + 1
    return found, unknown


# Words after "the <alias> is" that begin something other than a state: a comparison, a
# number, an article.
_NOT_A_STATE_WORD = frozenset({"a", "an", "the", "more", "less", "greater", "higher", "lower",
                               "above", "below", "over", "under", "between", "within",
                               "outside", "at", "equal", "than", "no", "off", "on", "to",
                               "from", "of", "by", "and", "or"})


def _word_form(tok: Token) -> str:
    """A token as alias words are stored (lower case, plural folded)."""
    found = words_of(tok.text)
    return found[0] if len(found) == 1 else tok.low


def _state_at(info: ParameterInfo, words: list[str], k: int) -> tuple[str, int] | None:
    """(state, number of words) of the state or phrase of one that starts at ``words[k]``,
    longest first."""
    for size in (4, 3, 2, 1):
        if k + size <= len(words) and words[k][:1].isalnum() and (
                words[k + size - 1][:1].isalnum()):  # "bus, truck": no comma inside
            state = info.state_of(" ".join(words[k:k + size]))
            if state is not None:
                return state, size
    return None


def _phase_at(tokens: list[Token], words: list[str], i: int, table: ParameterTable
              ) -> FoundAtom | None:
    """"during takeoff", "in cruise", "throughout the climb": a phase named alone; also
    as the subject that opens the text ("SCUBA diving shall not be conducted ...")."""
    if words[i] in _PHASE_WORDS:
        k = i + 1 + (i + 1 < len(words) and words[i + 1] in ("the", "a"))
    elif i == 0 and any(w in _MODALS or w == "may" for w in words[1:6]) and any(
            t.kind == "num" for t in tokens):  # with a comparison to say what is limited
        k = 0
    else:
        return None
    for info in table.params.values():
        if info.phase and info.states:
            state = _state_at(info, words, k)
            if state is None:
                continue
            longer = table.alias_at(words, k)
            if longer is not None and longer[1] > state[1]:
                continue  # "while the landing gear is extended": a name, not the phase
            states, end = [state[0]], k + state[1]
            while end + 1 < len(words) and words[end] in ("or", "and"):
                more = _state_at(info, words, end + 1)  # "during loading or unloading"
                if more is None:
                    break
                states.append(more[0])
                end += 1 + more[1]
            if end < len(words) and words[end] in _PHASE_NOUNS:
                end += 1  # "during loading or unloading operations"
            atom = FoundAtom(i, end - 1, "in", Decimal(0), None)
            atom.param, atom.label = info.name, info.name.replace("_", " ")
            atom.states, atom.phase = tuple(dict.fromkeys(states)), True
            return atom
    return None


_PHASE_NOUNS = frozenset({"operation", "phase", "period", "stage", "mode"})


def _scope_at(tokens: list[Token], words: list[str], i: int, table: ParameterTable
              ) -> FoundAtom | None:
    """"Any tire on the front wheels of a bus, truck, or truck tractor shall have ...":
    states named after a preposition in the subject, before the order's verb, say which
    things the rule is for; one parameter's states listed together are alternatives."""
    if words[i] not in _SCOPE_PREPOSITIONS or any(
            w in _MODALS or w == "may" for w in words[:i]):
        return None
    k = i + 1 + (i + 1 < len(words) and words[i + 1] in _DETERMINERS)
    for info in table.params.values():
        if info.phase or not info.states:
            continue
        state = _state_at(info, words, k)
        if state is None:
            continue
        states, end = [state[0]], k + state[1]
        while True:
            j = end
            while j < len(words) and words[j] in (",", "or", "and"):
                j += 1
            if j == end:
                break
            more = _state_at(info, words, j) if j < len(words) else None
            if more is None:
                break
            states.append(more[0])
            end = j + more[1]
        atom = FoundAtom(i, end - 1, "in", Decimal(0), None)
        atom.param, atom.label = info.name, info.name.replace("_", " ")
        atom.states = tuple(dict.fromkeys(states))
        return atom
    return None


_SCOPE_PREPOSITIONS = frozenset({"on", "of", "for", "in", "aboard", "at"})


def _mode_at(tokens: list[Token], words: list[str], i: int, table: ParameterTable
             ) -> FoundAtom | None:
    """"in AUTO mode": a state said before its parameter's alias."""
    if words[i] != "in" or i + 2 >= len(words):
        return None
    for info in table.params.values():
        if not info.states:
            continue
        state = _state_at(info, words, i + 1)
        if state is None:
            continue
        after = i + 1 + state[1]
        hit = table.alias_at(words, after) if after < len(words) else None
        if hit is not None and hit[0] == info.name:
            atom = FoundAtom(i, after + hit[1] - 1, "in", Decimal(0), None)
            atom.param, atom.states = info.name, (state[0],)
            atom.label = " ".join(t.text for t in tokens[after:after + hit[1]])
            return atom
    return None


# ---------------------------------------------------------------- durations


def _find_duration(tokens: list[Token]) -> tuple[Duration | None, set[int]]:
    """`for more than 2 seconds` (strict) / `for at least 5 min` (inclusive)."""
    words = [t.low for t in tokens]
    for i, tok in enumerate(tokens):
        if tok.kind != "num" or tok.unit is None or tok.unit.dimension not in _TIME_DIMENSIONS:
            continue
        assert tok.value is not None
        before = words[max(0, i - 4):i]
        seconds = Decimal(str(_to_seconds(tok.value, tok.unit)))
        for pattern, inclusive in (
            (["for", "more", "than"], False), (["for", "longer", "than"], False),
            (["lasting", "more", "than"], False), (["lasting", "longer", "than"], False),
            (["lasting", "over"], False), (["lasting", "at", "least"], True),
            (["for", "over"], False), (["for", "in", "excess", "of"], False),
            (["during", "more", "than"], False), (["during", "over"], False),
            (["during", "at", "least"], True),
            (["for", "at", "least"], True), (["for", "a", "minimum", "of"], True),
            (["for", "a", "period", "exceeding"], False),
            (["period", "of", "more", "than"], False), (["period", "longer", "than"], False),
        ):
            if before[-len(pattern):] == pattern:
                start = _persistence_start(words, i - len(pattern))
                consumed = set(range(start, i + 1))
                return Duration(seconds, inclusive), consumed
        if before[-1:] == ["for"] and words[i + 1:i + 3] in (["or", "more"], ["or", "longer"]):
            return Duration(seconds, True), {i - 1, i, i + 1, i + 2}
    return None, set()


# "drops below 134 °C and stays there for more than 10 s", "is below 500 mbar and this
# condition continues for more than 10 s": the duration is how long the comparison holds.
_PERSISTENCE = re.compile(
    r"and (?:(?:this|the|that|such an?|such) (?:condition|state|situation|reading|value|"
    r"deviation|excursion|alarm|fault) |it |this |that )?(?:continues|persists|lasts|"
    r"remains|stays|holds|prevails|is (?:maintained|sustained|present))"
    r"(?: (?:there|so|unchanged|uninterrupted|in place))?")


def _persistence_start(words: list[str], end: int) -> int:
    """Where a clause that says the comparison before it goes on holding ends at word
    `end` ("and stays there"); `end` when there is none."""
    for length in range(min(6, end), 1, -1):
        if _PERSISTENCE.fullmatch(" ".join(words[end - length:end])):
            return end - length
    return end


def _to_seconds(value: Decimal, unit: Unit) -> Decimal:
    from rulec.compiler.model.units import duration_seconds

    exact = duration_seconds(value, unit)
    return Decimal(exact.numerator) / Decimal(exact.denominator)


# ---------------------------------------------------------------- comparisons


def find_comparisons(tokens: list[Token], consumed: set[int]) -> list[FoundAtom]:
    words = [t.low for t in tokens]
    atoms: list[FoundAtom] = []
    used: set[int] = set(consumed)
    i = 0
    while i < len(tokens):
        if tokens[i].kind != "num" or i in used:
            i += 1
            continue
        found = _range_at(tokens, words, i) or _comparison_at(tokens, words, i)
        if found is None and atoms:
            found = _elided_comparison(tokens, words, i, atoms[-1])
        if found is None:
            i += 1
            continue
        if any(k in used for k in range(found.first, found.last + 1)):
            i += 1
            continue
        if found.first > 0 and words[found.first - 1] == "by":
            # "rises by more than 5 °C within 10 minutes", "exceeds the set point by more
            # than 2 bar": a change or a deviation, which no single reading can show
            used.update(range(found.first, found.last + 1))
            i = found.last + 1
            continue
        atoms.append(found)
        used.update(range(found.first, found.last + 1))
        i = found.last + 1
    return atoms


_ELIDED_LEAD = frozenset({"or", "and", "nor", ","})


def _elided_comparison(tokens: list[Token], words: list[str], i: int,
                       previous: FoundAtom) -> FoundAtom | None:
    """"equal or exceed a TWA of 85 decibels or, equivalently, a dose of fifty percent":
    a second quantity after "or"/"and" that takes the comparison word of the one before
    ("a <name> of N", the name between the joining word and "of")."""
    if i < 3 or words[i - 1] != "of" or previous.op not in _NEGATE:
        return None
    k = i - 2
    while k > previous.last and tokens[k].kind == "word" and words[k] not in _CONNECTIVES:
        k -= 1
    name = tokens[k + 1:i - 1]
    if not name or k <= previous.last or words[k] not in ("or", "and", "nor") and not (
            tokens[k].text == ","):
        return None
    lead = k
    while lead > previous.last and (words[lead] in _ELIDED_LEAD or (
            tokens[lead].kind == "word" and words[lead].endswith("ly"))):
        lead -= 1
    if not any(words[j] in ("or", "and", "nor") for j in range(lead + 1, k + 1)):
        return None
    first = k + 1
    if words[first] in _DETERMINERS:
        name = name[1:]
    if not name or any(t.kind != "word" for t in name):
        return None
    if i + 1 < len(tokens) and tokens[i + 1].kind != "punct" and (
            words[i + 1] not in ("or", "and", "then")):
        return None  # "... and a flow of 5 L/min is not reached": a clause of its own
    tok = tokens[i]
    assert tok.value is not None
    found = FoundAtom(first, i, previous.op, tok.value, tok.unit)
    found.inner = " ".join(t.text for t in name)
    return found


def _range_at(tokens: list[Token], words: list[str], i: int) -> FoundAtom | None:
    """`between A and B`, `from A to B`, `outside (the range) A to B`, `A to B`."""
    j = i + 2
    dashed = (i + 1 < len(tokens) and tokens[i + 1].kind == "num"
              and tokens[i + 1].gap.strip() in ("-", "–", "—", "−"))
    if dashed:
        j = i + 1  # "20–120 psi", "20 - 120 psi"
    elif j >= len(tokens) or tokens[j].kind != "num" or words[i + 1] not in ("and", "to"):
        return None
    low_tok, high_tok = tokens[i], tokens[j]
    assert low_tok.value is not None and high_tok.value is not None
    low, high = low_tok.value, high_tok.value
    unit = high_tok.unit or low_tok.unit
    back = words[max(0, i - 5):i]
    op = None
    first = i
    for pattern, kind in (
        (["outside", "the", "range", "of"], "outside"), (["outside", "the", "range"], "outside"),
        (["outside", "of"], "outside"), (["outside"], "outside"),
        (["not", "between"], "outside"), (["not", "within"], "outside"),
        (["in", "the", "range", "of"], "between"), (["in", "the", "range"], "between"),
        (["within", "the", "range", "of"], "between"), (["within", "the", "range"], "between"),
        (["in", "the", "band"], "between"), (["within", "the", "band"], "between"),
        (["outside", "the", "band"], "outside"),
        (["outside", "the", "tolerance", "of"], "outside"),
        (["outside", "the", "tolerance"], "outside"),
        (["outside", "the", "limits", "of"], "outside"),
        (["outside", "the", "band", "of"], "outside"),
        (["within", "the", "tolerance", "of"], "between"),
        (["within", "the", "limits", "of"], "between"),
        (["between"], "between"), (["within"], "between"), (["from"], "between"),
        (["range", "of"], "between"), (["of"], "between"),
    ):
        if back[-len(pattern):] == pattern:
            if kind == "between" and pattern == ["from"] and words[i + 1] != "to" and not dashed:
                continue
            if pattern in (["between"], ["not", "between"]) and words[i + 1] != "and" and not (
                    dashed):
                continue
            op, first = kind, i - len(pattern)
            break
    if op is None:
        held = ("is", "are", "remains", "remain", "stays", "stay", "be", "kept", "maintained")
        if back[-1:] and back[-1] in held and (words[i + 1] == "to" or dashed):
            op, first = "between", i
        elif back[-1:] == ["at"] and back[-2:-1] and back[-2] in (*held, "held", "stored") and (
                words[i + 1] == "to" or dashed):
            op, first = "between", i  # "shall be maintained at 0–5 °C"
        else:
            return None
    if low > high:
        low, high = high, low
    return FoundAtom(first, j, op, (low, high), unit)


def _comparison_at(tokens: list[Token], words: list[str], i: int) -> FoundAtom | None:
    tok = tokens[i]
    assert tok.value is not None
    # "5 milligrams per cubic meter of air or less": what the unit is of, before "or less"
    base = i + 2 if tok.unit is not None and words[i + 1:i + 2] == ["of"] and (
        i + 3 < len(tokens) and tokens[i + 2].kind == "word" and words[i + 3] == "or") else i
    postfix: tuple[int, int, str] | None = None  # (place in _POSTFIX_OPS, length, op)
    for n, table in _POSTFIX_BY_LENGTH:
        after = base + 1 + n
        if after < len(tokens) and (tokens[after].kind == "num" or words[after] == "than" or (
                after + 1 < len(tokens) and words[after + 1] == "than")):
            # "80 °C or below 5 °C", "-5 % or more positive than +5 %": a second
            # comparison, not "80 or below"
            continue
        found = table.get(tuple(words[base + 1:after]))
        if found is not None and (postfix is None or found[0] < postfix[0]):
            postfix = (found[0], n, found[1])
    if postfix is not None and (words[base + postfix[1]] not in _SIGN_WORDS or tok.value == 0):
        _, n, op = postfix
        first = i
        if i > 0 and words[i - 1] in ("of", "is", "are", "at", "reaches", "reach", "be"):
            first = i - 1
        return FoundAtom(first, base + n, op, tok.value, tok.unit)
    prefix = _prefix_op(words, i)
    if prefix is not None:
        n, op = prefix
        first = i - n
        denial = _denied_before(words, first)
        if denial is not None and op == "==":
            return None  # "does not reach 20 psi": below it, or above? (a number unplaced)
        if op in _NEGATE and words[first] not in ("not", "no") and denial is not None:
            if not _modal_before(words, denial):
                # "does not exceed 5" and "does not rise above 5" state <= 5
                return FoundAtom(denial, i, _NEGATE[op], tok.value, tok.unit)
        return FoundAtom(first, i, op, tok.value, tok.unit)
    inner = _inner_comparison(tokens, words, i)
    if inner is not None:
        return inner
    if i > 0 and words[i - 1] in ("is", "are", "equals", "="):
        return FoundAtom(i - 1, i, "==", tok.value, tok.unit)
    return None


def _inner_comparison(tokens: list[Token], words: list[str], i: int) -> FoundAtom | None:
    """`above a discharge pressure of 6.5 bar`: the parameter stands between the
    comparison word and its number."""
    if i < 2 or words[i - 1] not in ("of", "at"):
        return None
    tok = tokens[i]
    assert tok.value is not None
    for k in range(i - 2, max(-1, i - 9), -1):
        between = tokens[k + 1:i - 1]
        if any(t.kind != "word" or t.low in _CONNECTIVES for t in between):
            return None
        prefix = _prefix_op(words, k + 1) if between else None
        if prefix is not None:
            n, op = prefix
            found = FoundAtom(k - n + 1, i, op, tok.value, tok.unit)
            found.inner = " ".join(t.text for t in between)
            return found
    return None


_MOTION_VERBS = frozenset({"rise", "rises", "fall", "falls", "drop", "drops", "climb", "climbs",
                           "go", "goes", "get", "gets", "increase", "increases", "decrease",
                           "decreases", "come", "comes", "build", "builds", "move", "moves"})


def _denied_before(words: list[str], first: int) -> int | None:
    """Where a denial of the comparison at ``words[first]`` starts: "not" or "never" just
    before it or before a verb of motion ("does not rise above"), or "fails to" ("fails
    to rise above"); None when there is none."""
    k = first - 1
    if k >= 0 and words[k] in _MOTION_VERBS:
        k -= 1
    if k >= 0 and words[k] in ("not", "never"):
        return k
    if k >= 1 and words[k] == "to" and words[k - 1] in ("fails", "fail", "failed", "failing"):
        return k - 1
    return None


def _prefix_op(words: list[str], end: int) -> tuple[int, str] | None:
    """(length, operator) of the first phrase of ``_PREFIX_OPS`` (longest first) that
    ends just before word ``end``, or None."""
    for n, table in _PREFIX_BY_LENGTH:
        if end - n >= 0:
            found = table.get(tuple(words[end - n:end]))
            if found is not None:
                return n, found[1]
    return None


# Verbs that keep a state, not orders: "Plasma shall be stored at a freezer temperature
# of -25 °C or lower" requires the value ("shall be stopped at 80 °C" is an order).
_KEPT = frozenset({"stored", "kept", "held", "maintained", "operated", "run", "used",
                   "transported", "preserved", "conditioned"})


def _kept_at(words: list[str]) -> bool:
    """A modal, "be" and a state-keeping verb before the parameter's name."""
    for k in range(len(words) - 2):
        if _is_modal(words, k):
            rest = words[k + 1:k + 5]
            negated = rest[:1] in (["not"], ["never"])
            if negated:
                rest = rest[1:]
            if rest[:1] == ["be"] and rest[1:2] and rest[1] in _KEPT:
                return True
            if negated and rest[:1] == ["be"] and len(rest) > 2 and rest[1].endswith("ed") and (
                    rest[2] in ("at", "in", "under", "with", "on", "during")):
                return True  # "shall not be conducted at depths deeper than 190 fsw"
    return False


def _is_modal(words: list[str], k: int) -> bool:
    """`must`, `shall`...; `has`/`have` only as in "has to" ("has been above 40 °C" is a
    past state, not a requirement)."""
    word = words[k]
    if word in ("has", "have"):
        return k + 1 < len(words) and words[k + 1] == "to"
    if word == "may":  # "may not exceed": a prohibition; "may exceed" says nothing
        return k + 1 < len(words) and words[k + 1] == "not"
    return word in _MODALS


_DETERMINERS = ("the", "a", "an", "its", "their", "any")


def _shared_comparisons(
    tokens: list[Token],
    atoms: list[FoundAtom],
    resolve: Callable[[str], tuple[str, str] | None],
    known: Callable[[str], bool],
) -> list[FoundAtom]:
    """`the beam symmetry or the beam flatness is greater than 3 %` (also a list, `A, B
    and C are above N`): parameters named just before another's name share its
    comparison.  Only names that are aliases word for word count ("the pressure drops or
    ..." is no name), and the list must start the clause: a word left before it would
    otherwise go unread."""
    out: list[FoundAtom] = []
    for n, atom in enumerate(atoms):
        if atom.states:
            out.append(atom)  # a state comparison names its parameter itself
            continue
        lower = atoms[n - 1].last + 1 if n > 0 else 0
        joint = _phrase_start(tokens, atoms, n) - 1
        shared: list[FoundAtom] = []
        separators: tuple[str, ...] = ("or", "and")
        while joint > lower and tokens[joint].low in separators:
            k = joint
            while k > lower and tokens[k - 1].kind == "word" and (
                    tokens[k - 1].low in _DETERMINERS or (tokens[k - 1].low not in _CONNECTIVES
                                                          and tokens[k - 1].low not in _VERB_GAP)):
                k -= 1
            words = [t.text for t in tokens[k:joint]]
            while words and words[0].lower() in _DETERMINERS:
                words.pop(0)
            name = " ".join(words)
            resolved = resolve(name) if name and known(name) else None
            if resolved is None or resolved[0] == atom.param:
                shared = []
                break
            one = _copied(atom)
            one.first, one.last = joint, joint - 1  # its name ends at the separator
            one.param, one.label, one.phrase = resolved[0], resolved[1], name
            shared.insert(0, one)
            if k == 0 or tokens[k - 1].low in (
                    "if", "when", "whenever", "while", "once", "either", "both", "or", "and"):
                break  # the list starts the clause
            joint, separators = k - 1, (",",)
        else:
            shared = []  # the list does not start the clause
        out.extend(shared)
        out.append(atom)
    return out


_BOUNDS = frozenset({("at", "least"), ("at", "most"), ("no", "more", "than"),
                     ("no", "less", "than"), ("not", "more", "than"), ("not", "less", "than"),
                     ("a", "minimum", "of"), ("a", "maximum", "of")})


def _modal_verb_bound(before: list[str], op_words: list[str]) -> bool:
    """"must provide for at least 10 consecutive hours of rest", "shall have at least
    2 exits": a modal, one verb (and "for"), then a bound: the amount the rule requires."""
    if tuple(op_words) not in _BOUNDS:
        return False
    rest = before[-3:] if before[-1:] == ["for"] else before[-2:]
    return len(rest) >= 2 and rest[0] in ("must", "shall") and rest[1].isalpha() and (
        rest[1] not in _VERB_GAP and rest[1] not in _CONNECTIVES)


def _ensured(tokens: list[Token], start: int) -> tuple[bool, bool]:
    """(True, negated) when the comparison's clause is what a modal "ensure that" requires:
    "The licensee shall ensure that the dose equivalent ... does not exceed 0.5 rem";
    negated when that clause opens with "no" ("shall assure that no employee is exposed
    to a concentration which exceeds 0.75 ppm")."""
    words = [t.low for t in tokens[:start]]
    for k in range(len(words) - 2):
        ensure = words[k + 1] in _ENSURE_VERBS and words[k + 2] == "that"
        # "Sufficient control ... shall be exercised so that the finished equilibrium pH
        # values ... are not higher than 4.6": what the order is for, said as "so that"
        so_that = next((j for j in range(k + 1, min(len(words) - 1, k + 6))
                        if words[j] == "so" and words[j + 1] == "that"), None)
        if words[k] in ("must", "shall") and (ensure or so_that is not None):
            at = k + 3 if ensure else (so_that or 0) + 2
            clause, subject = words[at:], words[:k]
            aside = so_that is not None and not ensure  # "Control, including ..., shall"
            if any(w in _MODALS for w in clause) or ";" in clause or (
                    "," in subject and not aside) or any(w in _SCOPE_WORDS for w in subject):
                return False, False  # "For compressors that are not oil-lubricated, ..."
            # the comparison is the clause's verb ("does not exceed", "which exceeds"),
            # not a noun's modifier ("oxygen concentrations greater than 23.5% are used
            # only in equipment designed for oxygen service")
            op = tokens[start].low
            if op not in _PREDICATE_VERBS and not (clause and clause[-1] in _PREDICATE_VERBS):
                return False, False
            return True, clause[:1] == ["no"]
    return False, False


_PREDICATE_VERBS = frozenset({"exceeds", "exceed", "is", "are", "does", "do", "remains",
                              "remain", "falls", "fall", "drops", "drop", "reaches", "reach",
                              "equals", "equal", "stays", "stay", "be"})
_SCOPE_WORDS = frozenset({"for", "if", "when", "whenever", "while", "unless", "where",
                          "except", "during", "after", "before", "until", "in"})


_ENSURE_VERBS = frozenset({"ensure", "assure", "insure"})


def _required_attribute(before: list[str], op_words: list[str]) -> bool:
    """"Tires shall have a tread groove pattern depth of at least 2/32 of an inch": a
    modal, "have" (or "provide", "maintain"), the quantity's name and "of", then a bound:
    the amount of that quantity the rule requires."""
    if tuple(op_words) not in _BOUNDS or before[-1:] != ["of"]:
        return False
    return any(before[k] in ("must", "shall") and before[k + 1] in _HAVE_VERBS
               for k in range(len(before) - 3))


_HAVE_VERBS = frozenset({"have", "provide", "maintain", "possess"})


def _required_purpose(words: list[str]) -> bool:
    """"must be adjusted so that the blood temperature never goes below 35 °C": what the
    "so that" clause says is what the modal before it requires."""
    for k in range(1, len(words)):
        if words[k] == "that" and words[k - 1] in ("so", "such"):
            return any(w in _MODALS for w in words[:k - 1])
    return False


def _modal_before(words: list[str], k: int) -> bool:
    """A modal before position k, or an imperative "Do not" / "Never" opening the text."""
    if (k == 1 and words[0] in ("do", "don't")) or (k == 0 and words[0] == "never"):
        return True
    if k > 0 and words[k - 1] == "may" and words[k] in ("not", "never"):
        return True  # "may not exceed": a prohibition
    return any(w in _MODALS for w in words[max(0, k - 3):k])


# ---------------------------------------------------------------- parameters


def _names_holding_a_conjunction(tokens: list[Token], atoms: list[FoundAtom],
                                 known: Callable[[str], bool]) -> None:
    """Names that are an alias with "and"/"or" inside ("Total Nitrate and Nitrite | 10"):
    the whole alias names the parameter, not the words after its conjunction."""
    for n, atom in enumerate(atoms):
        if atom.states:
            continue
        start = _phrase_start(tokens, atoms, n)
        lower = atoms[n - 1].last + 1 if n > 0 else 0
        if start - 1 <= lower or tokens[start - 1].low not in ("and", "or"):
            continue
        names = [t for t in tokens[start:atom.first] if t.kind == "word"]
        for first in range(start - 2, max(lower, start - 8) - 1, -1):
            if tokens[first].kind in ("punct", "num"):
                break
            head = [t.text for t in tokens[first:start] if t.kind == "word"]
            if any(known(" ".join(head + [t.text for t in names[:m]]))
                   for m in range(1, len(names) + 1)):
                atom.name_start = first
                break


def _phrase_start(tokens: list[Token], atoms: list[FoundAtom], n: int) -> int:
    """First token of the words naming atom n's parameter (a state comparison's own first
    token: it names its parameter itself)."""
    if atoms[n].states:
        return atoms[n].first
    named_from = atoms[n].name_start
    if named_from is not None:
        return named_from
    lower_bound = atoms[n - 1].last + 1 if n > 0 else 0
    k = atoms[n].first
    while k > lower_bound:
        prev = tokens[k - 1]
        if prev.kind == "punct" or prev.kind == "num" or prev.low in _CONNECTIVES:
            break
        k -= 1
    return k


def _name_atoms(
    text: str,
    tokens: list[Token],
    atoms: list[FoundAtom],
    resolve: Callable[[str], tuple[str, str] | None],
    resolve_by_unit: Callable[[Unit], tuple[str, str] | None] | None,
    problems: list[str],
) -> None:
    for n, atom in enumerate(atoms):
        if atom.states:
            continue  # named where it was found
        start = _phrase_start(tokens, atoms, n)
        words = [t.low for t in tokens[start:atom.first]]
        gap: list[str] = []
        while True:
            while words and words[-1] in _VERB_GAP:
                gap.insert(0, words.pop())
            always = next((len(p) for p in _ALWAYS_PHRASES if tuple(words[-len(p):]) == p), 0)
            if always:
                del words[-always:]  # "must at all times be above": always
                gap.insert(0, "always")
                continue
            never = next((len(p) for p in _NEVER_PHRASES if tuple(words[-len(p):]) == p), 0)
            if not never:
                break
            del words[-never:]  # "shall at no time be less than": never
            gap.insert(0, "never")
        atom.phrase = " ".join(t.text for t in tokens[start:start + len(words)])
        # "Do not exceed N", and after a clause that says when: "With the gear extended,
        # do not exceed 140 kt", "During takeoff, never exceed 2,700 rpm"
        opens = start == 0 or (tokens[start - 1].text == "," and any(
            a.states for a in atoms[:n]))
        imperative = opens and bool(gap) and gap[0] in ("do", "don't", "never") and not words
        atom.requirement = imperative or any(_is_modal(gap, k) for k in range(len(gap))) or (
            "to" in gap and any(w in ("is", "are") for w in gap)) or _kept_at(words) or (
            tokens[atom.first].low == "limited") or (  # "is limited to N": a maximum
            gap[-1:] == ["may"] and tokens[atom.first].low == "at") or (  # "may at most N"
            _required_purpose(words)) or any(test(
                [t.low for t in tokens[start:atom.first]],
                [t.low for t in tokens[atom.first:atom.last + 1] if t.kind == "word"])
                for test in (_modal_verb_bound, _required_attribute))
        ensured, by_none = _ensured(tokens, atom.first)
        said_before = [t.low for t in tokens[start:atom.first]]
        if atom.requirement and not ensured and said_before[:1] in (["no"], ["none"]) and any(
                _is_modal(said_before, k) for k in range(len(said_before))):
            # "No portion of the defrosted liquid shall exceed 50 °F": what is required is
            # that none does, so the limit is the negation of the verb, as for "shall not"
            by_none = True
        atom.requirement = atom.requirement or ensured
        inherited = not words and not gap and n > 0 and atoms[n - 1].requirement
        if inherited:
            # "shall contain at least 19.5 % oxygen and not more than 0.5 % CO2": the
            # second comparison goes on with the same verb, so the same requirement.
            atom.requirement = True
        said = gap + words if _kept_at(words) else gap
        if inherited and atoms[n - 1].negated:
            said = ["not"]  # "must not fall below 40 % nor (or) exceed 60 %": not either
        if by_none:
            said = [*said, "not"]  # "shall assure that no employee is exposed to ... which
            # exceeds 0.75 ppm": the exposure must not exceed it
        if atom.requirement and ("not" in said or "never" in said or "cannot" in said):
            # "must not exceed N": the requirement is the negation of what is written.
            atom.op = _NEGATE.get(atom.op, atom.op)
            atom.negated = True
            if atom.op == "==":
                atom.requirement = False
        resolved = resolve(atom.inner) if atom.inner else None
        if resolved is None:
            resolved = _dimension_named_after(tokens, atom, resolve)
        if resolved is None and _has_noun(atom.phrase):
            resolved = resolve(atom.phrase)
        if resolved is None and gap and words:
            # "the pressure rise exceeds 20 µbar": a word read as a verb ends the name
            resolved = resolve(" ".join(t.text for t in tokens[start:atom.first]
                                        if t.kind == "word"))
        if resolved is None:
            # "more than 3 failed login attempts": the parameter is named after the number.
            after = _words_after(tokens, atom.last)
            resolved = resolve(after) if after else None
            if resolved is None and atom.unit is not None:
                # "exceed 500 hours in any calendar quarter", "at least 10 consecutive
                # hours of rest": the unit's word begins the name said after the number
                after = " ".join(t.text for t in itertools.takewhile(
                    lambda t: t.kind == "word" and t.low not in _CONNECTIVES,
                    tokens[atom.last + 1:atom.last + 9]))
                number = next(t for t in reversed(tokens[atom.first:atom.last + 1])
                              if t.kind == "num")
                resolved = resolve(_unit_and_after(text, number, after))
                if resolved is None:
                    resolved = _name_with_numbers_after(text, tokens, atom, number, resolve)
        if resolved is None and n > 0 and not _has_noun(atom.phrase) and not atoms[n - 1].states:
            prev = atoms[n - 1]
            same_kind = prev.unit is None or atom.unit is None or (
                prev.unit.dimension == atom.unit.dimension)
            resolved = (prev.param, prev.label) if prev.param and same_kind else None
        if resolved is None and words:
            # "The CO concentration in any place where persons work shall be ...": the
            # name stands before a clause that ends the phrase; read back to the clause start.
            lower = atoms[n - 1].last + 1 if n > 0 else 0
            wide = " ".join(t.text for t in tokens[lower:start + len(words)] if t.kind == "word")
            resolved = resolve(wide) if wide != atom.phrase else None
        if resolved is None and not words and start > 0 and tokens[start - 1].text == ",":
            resolved = _name_before_an_aside(tokens, start - 1,
                                             atoms[n - 1].last + 1 if n > 0 else 0, resolve)
        if (resolved is None and resolve_by_unit is not None and atom.unit is not None
                and not _names_a_quantity(atom.phrase)):
            # "Do not operate the pump above 3,000 rpm": the one parameter in rpm; but "at a
            # distance of 5 feet" names a quantity of its own, which no parameter is
            resolved = resolve_by_unit(atom.unit)
            if resolved is not None:
                problems.append(
                    f"parameter for {atom.phrase or 'an unnamed quantity'!r} taken from its "
                    f"unit: {resolved[0]}"
                )
        if resolved is None:
            problems.append(f"no parameter matches {atom.phrase or '(nothing)'!r}")
            continue
        atom.param, atom.label = resolved


def _permitted_up_to(tokens: list[Token], after: int,
                     resolve: Callable[[str], tuple[str, str] | None]) -> FoundAtom | None:
    """"may be conducted to depths of 220 fsw" after an exception's comparisons: the
    permission reaches at most that quantity (a comparison ``<=``), or None."""
    words = [t.low for t in tokens]
    k = after + 1
    if words[k:k + 2] != ["may", "be"] or k + 3 >= len(tokens):
        return None
    k += 3  # "may be conducted"
    if words[k] != "to":
        return None
    num = next((j for j in range(k + 1, min(k + 6, len(tokens))) if tokens[j].kind == "num"),
               None)
    if num is None or tokens[num].unit is None or any(
            t.kind != "punct" for t in tokens[num + 1:]):
        return None
    name = " ".join(t.text for t in tokens[k + 1:num] if t.kind == "word" and t.low != "of")
    resolved = resolve(name) if name else None
    value = tokens[num].value
    if resolved is None or not isinstance(value, Decimal):
        return None
    atom = FoundAtom(after + 1, num, "<=", value, tokens[num].unit, phrase=name)
    atom.param, atom.label = resolved
    return atom


def _dimension_named_after(tokens: list[Token], atom: FoundAtom,
                           resolve: Callable[[str], tuple[str, str] | None]
                           ) -> tuple[str, str] | None:
    """"excavations more than 20 feet in depth": "N <unit> in <quantity>" says which
    quantity of the thing named before it is compared."""
    following = tokens[atom.last + 1:atom.last + 3]
    number = tokens[atom.last]
    if len(following) < 2 or number.kind != "num" or number.unit is None or (
            following[0].low != "in" or following[1].kind != "word"):
        return None
    if following[1].low not in _QUANTITY_NOUNS:
        return None
    return resolve(following[1].text)


def _name_before_an_aside(tokens: list[Token], close: int, lower: int,
                          resolve: Callable[[str], tuple[str, str] | None]
                          ) -> tuple[str, str] | None:
    """"the dose equivalent to the embryo/fetus during the entire pregnancy, due to the
    occupational exposure of a declared pregnant woman, does not exceed 0.5 rem": the
    name stands before an aside set off by commas (one with no number of its own)."""
    opening = close - 1
    depth = 0
    while opening > lower and (tokens[opening].kind != "punct" or depth or
                               tokens[opening].text in ("(", ")")):
        if tokens[opening].kind == "num":
            return None
        if tokens[opening].text == ")":
            depth += 1  # "measured as specified in § 141.74 (a)(2) and (b)(5)": a citation's
        elif tokens[opening].text == "(":  # brackets are part of the aside
            depth = max(depth - 1, 0)
        opening -= 1
    if opening <= lower or tokens[opening].text != "," or opening == close - 1:
        return None
    first = opening
    while first > lower and tokens[first - 1].kind != "punct":
        first -= 1
    name = " ".join(t.text for t in tokens[first:opening] if t.kind == "word")
    return resolve(name) if name else None


_QUANTITY_NOUNS = frozenset({
    "distance", "depth", "height", "width", "length", "altitude", "elevation", "radius",
    "temperature", "pressure", "level", "speed", "velocity", "rate", "concentration",
    "flow", "voltage", "current", "time", "duration", "period", "weight", "mass", "load",
    "volume", "power", "frequency", "thickness", "diameter", "humidity", "dose", "force",
    "torque", "density", "range", "visibility", "content", "amount", "quantity"})


def _names_a_quantity(phrase: str) -> bool:
    """Whether a phrase names a measured quantity ("at a distance of"), so that a value in
    a unit is that quantity, not whichever parameter shares the unit."""
    return any(w.lower().rstrip("s") in _QUANTITY_NOUNS for w in phrase.split())


def _has_noun(phrase: str) -> bool:
    return any(w.lower() not in _NOT_NOUNS for w in phrase.split())


_NOT_NOUNS = {"the", "a", "an", "it", "its", "either", "both", "then", "there", "they",
              "this", "that", "do", "not", "never", "don't"}


_UNIT_START = re.compile(r"[+\-−]?[\d.,]*\d")


_QUALIFIED_SUBJECT = re.compile(r"\b(?:conducting|involving|using|engaged in|operating under|"
                                r"performing)\b", re.IGNORECASE)


def _name_with_numbers_after(text: str, tokens: list[Token], atom: FoundAtom, number: Token,
                             resolve: Callable[[str], tuple[str, str] | None]
                             ) -> tuple[str, str] | None:
    """"more than 32 hours during any seven consecutive days", "120 hours during any 30
    consecutive days": the unit's word begins a name that holds a number of its own (the
    window); read only when a run of words with that number in it names a parameter."""
    if _QUALIFIED_SUBJECT.search(atom.phrase):
        return None  # "a certificate holder conducting flag operations schedules ...": the
        # subject is narrowed by what no parameter measures
    found: tuple[str, str] | None = None
    for k in range(atom.last + 1, min(len(tokens), atom.last + 9)):
        if tokens[k].kind == "punct" or tokens[k].low in _CONNECTIVES:
            break
        if not any(t.kind == "num" for t in tokens[atom.last + 1:k + 1]):
            continue
        said = _unit_and_after(text, number, text[tokens[atom.last + 1].start:tokens[k].end])
        named = resolve(said)
        if named is not None and (found is None or named == found):
            found, atom.name_end = named, k
    return found


def _unit_and_after(text: str, number: Token, after: str) -> str:
    """The words of a number's unit as written, and the words after it."""
    digits = _UNIT_START.match(text, number.start)
    unit_words = text[digits.end() if digits else number.start:number.end]
    return f"{unit_words} {after}"


def _words_after(tokens: list[Token], last: int) -> str:
    """Up to five plain words right after a comparison's number."""
    words = []
    following = tokens[last + 1:last + 7]
    if following and following[0].low == "of":  # "1.0 % or more of methane"
        following = following[1:]
    for tok in following[:5]:
        if tok.kind != "word" or tok.low in _CONNECTIVES or tok.low in _VERB_GAP:
            break
        words.append(tok.text)
    return " ".join(words)


# ---------------------------------------------------------------- structure


def _structure(tokens: list[Token], atoms: list[FoundAtom]) -> list[object]:
    """Atoms interleaved with 'and'/'or'/'andnot' and '('/')' from the words between them."""
    items: list[object] = [atoms[0]]
    open_either = False
    open_unless = 0
    listed: list[int] = []  # places of "and" read from a bare comma, in a run of them
    for n in range(1, len(atoms)):
        between = [t.low for t in tokens[atoms[n - 1].last + 1:_phrase_start(tokens, atoms, n)]]
        if between in (["or"], [",", "or"]) and listed and not open_either:
            # "when A, B or C": the commas of a list part its items as its last word does
            for place in listed:
                items[place] = "or"
        listed = listed + [len(items)] if between == [","] and not open_either else []
        if "unless" in between or "except" in between:
            if open_either:
                items.append(")")
                open_either = False
            items.extend(["andnot", "("])
            open_unless += 1
        elif ("or" in between or "nor" in between) and not (
                atoms[n].negated and atoms[n - 1].negated and not any(
                    w in _VERB_GAP for w in between if w not in ("or", "nor"))):
            # ... but "must not A or B" requires not A and not B
            items.append("or")
        else:
            if open_either:
                items.append(")")
                open_either = False
            items.append("and")
        if "either" in between:
            items.append("(")
            open_either = True
        items.append(atoms[n])
    if open_either:
        items.append(")")
    items.extend([")"] * open_unless)
    return items


def _build(items: list[object]) -> Condition:
    pos = 0

    def expr() -> Condition:
        nonlocal pos
        terms = [term()]
        while pos < len(items) and items[pos] == "or":
            pos += 1
            terms.append(term())
        return terms[0] if len(terms) == 1 else AnyOf(tuple(terms))

    def term() -> Condition:
        nonlocal pos
        factors = [factor()]
        while pos < len(items) and items[pos] in ("and", "andnot"):
            negate = items[pos] == "andnot"
            pos += 1
            item = factor()
            factors.append(Not(item) if negate else item)
        return factors[0] if len(factors) == 1 else All(tuple(factors))

    def factor() -> Condition:
        nonlocal pos
        item = items[pos]
        pos += 1
        if item == "(":
            inner = expr()
            if pos < len(items) and items[pos] == ")":
                pos += 1
            return inner
        assert isinstance(item, FoundAtom) and item.param is not None
        if item.dwell is not None:
            op, value = item.dwell
            return All((Atom.in_states(item.param, item.states, item.label),
                        Atom(item.param + TIME_IN_STATE, op, value,
                             item.unit.symbol if item.unit else None, item.label)))
        if item.states:
            atom = Atom.in_states(item.param, item.states, item.label)
            return Not(atom) if item.not_state else atom
        return Atom(item.param, item.op, item.value, item.unit.symbol if item.unit else None,
                    item.label)

    return expr()
