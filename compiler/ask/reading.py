"""A question in words read into a point of the bundle's parameter space.

The numbers, units and comparison words are read by the extractor's own reader
(``extract/conditions.tokenize`` and ``find_comparisons``), parameters by the bundle's
aliases (``model/parameters.ParameterTable``), discrete states by ``find_states``, and a
value written in another unit is converted to the manifest's exactly (``model/units``):
"110 °F" against a degC parameter is 130/3 °C.  Nothing is guessed: a phrase that names
no parameter of the bundle is reported as unknown, and a phrase that two parameters could
be ("the pressure" with two pressures and no other hint) as ambiguous.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from rulec.compiler.extract.conditions import Token, find_comparisons, find_states, tokenize
from rulec.compiler.model.parameters import ParameterInfo, ParameterTable, words_of
from rulec.compiler.model.units import Unit, convert, parse_unit, same_quantity
from rulec.runtime.bundle.loader import Bundle
from rulec.runtime.engine.advisory import format_value, unit_suffix

# Words that are never part of a parameter's name in a question: determiners, question
# words, verbs of measuring and moving, prepositions, connectives.
_FILLER_WORDS = ("""
a an the its it their this that these those any each every all our my your current actual
measured present live now currently reading reads read shows show showing indicated
what which who whom whose when whenever where why how if then than so do does did done
is are was were be been being am has have had having will would shall should can could
may might must to of at in on for from by with without into onto over under above below
and or but not no nor while whilst as about around approximately exactly just only still between
reaches reached reach reaching hits hit hitting gets got get getting goes went gone going
rises rose risen rising climbs climbed climbing falls fell fallen falling drops dropped
dropping sits sitting stands standing stays stayed remains remained becomes became exceeds
exceeded exceeding passes passed goes up down value level equal equals greater more less
lower higher fewer least most happen happens happened occur occurs apply applies applied
required require requires needed need needs action actions rule rules limit limits say says
tell me us i we you please i'd there here same time times
acceptable allowed permitted permissible ok okay safe fine eligible compliant legal
run runs running operate operating operated work working aged old given suppose assume
assuming imagine say let lets let's anything something everything nothing else now
new latest last recent recently
""".split())
FILLER = frozenset({"'s", *(w for word in _FILLER_WORDS for w in words_of(word))})
_BOUNDARY_PUNCT = frozenset(",;:?.!()")
_BOUNDARY_WORDS = frozenset({"and", "or", "but", "with", "while", "whilst", "plus"})
_DURATION_LEAD = frozenset({"for", "after", "within", "during", "over"})


@dataclass(frozen=True)
class ReadValue:
    """One parameter's value as the question gives it, and in the manifest's unit."""

    parameter: str
    value: float  # in the manifest's unit (a discrete parameter: the state's index)
    written: str  # as the question writes it: "110 °F", "zero", "running"
    unit: str  # the manifest's unit symbol ("" for a discrete parameter)
    op: str = "=="  # the comparison the question makes: "==", ">", ">=", "<", "<="
    state: str = ""  # a discrete parameter's state name

    def shown(self) -> str:
        """"chamber_temperature = 820 °C", "room_temperature = 43.33 °C (110 °F)"."""
        if self.state:
            return f"{self.parameter} = {self.state}"
        here = format_value(self.value) + unit_suffix(self.unit)
        if len(here) > 24:
            here = f"{self.value:.6g}{unit_suffix(self.unit)}"
        as_written = "" if _same_text(self.written, here) or _same_text(
            self.written, format_value(self.value)) else f" ({self.written})"
        op = "=" if self.op == "==" else self.op
        return f"{self.parameter} {op} {here}{as_written}"


@dataclass
class Reading:
    """What a question says: values, parameters named without a value, what is not known."""

    question: str
    values: list[ReadValue] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)  # parameters named without a value
    unknown: list[str] = field(default_factory=list)  # phrases that name no parameter
    ambiguous: list[str] = field(default_factory=list)  # phrases two parameters could be
    problems: list[str] = field(default_factory=list)  # a unit that does not fit, ...
    numbers: int = 0  # numbers written in the question, read or not
    notes: list[str] = field(default_factory=list)  # said with the answer, not blocking it

    @property
    def state(self) -> dict[str, float]:
        return {v.parameter: v.value for v in self.values}

    def shown(self) -> str:
        return ", ".join(v.shown() for v in self.values)


def parameter_table(bundle: Bundle) -> ParameterTable:
    """The bundle's parameters and aliases as the extractor's table (no inference)."""
    table = ParameterTable()
    for p in bundle.parameters:
        if p.time_in_state_of is None:
            table.add(ParameterInfo(p.name, p.aliases, p.unit or None, states=p.states))
    return table


class QuestionReader:
    """Reads questions against one bundle's parameters."""

    def __init__(self, bundle: Bundle) -> None:
        self.bundle = bundle
        self.table = parameter_table(bundle)
        self._alias_words: dict[str, set[str]] = {}
        for name, info in self.table.params.items():
            said = {w for a in (*info.aliases, name.replace("_", " ")) for w in words_of(a)}
            self._alias_words[name] = said - FILLER

    def read(self, question: str) -> Reading:
        reading = Reading(question)
        tokens = tokenize(question)
        words = [_word(t) for t in tokens]
        ops = {}
        for atom in find_comparisons(tokens, set()):
            for k in range(atom.first, atom.last + 1):
                ops[k] = atom.op
        used: set[int] = set()  # token indexes that named a parameter with a value
        self._read_states(tokens, reading, used)
        for n, tok in enumerate(tokens):
            if tok.kind != "num" or tok.value is None:
                continue
            reading.numbers += 1
            found = self._subject(tokens, words, n, reading)
            if found is None:
                continue
            name, span = found
            if any(v.parameter == name for v in reading.values):
                twice = f"{name} is given more than once"
                if twice not in reading.problems:
                    reading.problems.append(twice)
                continue
            value = self._value(name, tok, reading)
            if value is None:
                continue
            op = ops.get(n, "==")
            written = " ".join(question[tok.start:tok.end].split())
            reading.values.append(ReadValue(name, value, written, self._unit(name),
                                            op if op in ("==", ">", ">=", "<", "<=") else "=="))
            used.update(span)
        self._read_topics(tokens, words, used, reading)
        for name in reading.topics:
            states = self.table.params[name].states
            if states and reading.values:
                # a state named in words the bundle does not carry ("gear down"): never
                # evaluated as if the parameter were absent
                reading.problems.append(f"{name} is named but its state is not read "
                                        f"(its states: {', '.join(states)})")
        return reading

    # ------------------------------------------------------------ discrete states

    def _read_states(self, tokens: list[Token], reading: Reading, used: set[int]) -> None:
        if not any(info.states for info in self.table.params.values()):
            return
        atoms, unknown = find_states(tokens, self.table)
        reading.unknown.extend(unknown)
        for atom in atoms:
            info = self.table.params.get(atom.param or "")
            if info is None or not atom.states or atom.dwell is not None:
                continue
            states = list(info.states)
            if atom.not_state:
                others = [s for s in states if s not in atom.states]
                if len(others) != 1:
                    reading.ambiguous.append(f"{info.name} is not {atom.states[0]}: which "
                                             f"of {', '.join(others)}?")
                    continue
                chosen = others[0]
            else:
                chosen = atom.states[0]
            if any(v.parameter == info.name for v in reading.values):
                continue
            reading.values.append(ReadValue(info.name, float(states.index(chosen)), chosen,
                                            "", "==", chosen))
            used.update(range(atom.first, atom.last + 1))

    # ------------------------------------------------------------ numbers

    def _subject(self, tokens: list[Token], words: list[str], n: int, reading: Reading
                 ) -> tuple[str, list[int]] | None:
        """The parameter a number is the value of: named before it (else right after it),
        else the only parameter measured in its unit."""
        start = n
        while start > 0:
            prev = tokens[start - 1]
            if prev.kind == "punct" and prev.text == ":" and start == n:
                start -= 1  # "Failed login attempts: 5"
                continue
            if prev.kind == "num" or (prev.kind == "punct" and prev.text in _BOUNDARY_PUNCT):
                break
            if prev.kind == "word" and words[start - 1] in _BOUNDARY_WORDS:
                break
            start -= 1
        span = [k for k in range(start, n) if tokens[k].kind == "word"]
        unit = tokens[n].unit
        if any(words[k] not in FILLER for k in span):
            return self._name(tokens, words, span, reading, unit)
        if span and words[span[-1]] in _DURATION_LEAD:
            # "for more than 10 minutes": a duration, which one state does not have
            reading.notes.append(f"{_written(tokens[n])} is a duration: one state has none "
                                 "(rules with durations fire in a stream: rulec replay)")
            return None
        after: list[int] = []
        for k in range(n + 1, len(tokens)):
            if tokens[k].kind != "word" or words[k] in _BOUNDARY_WORDS:
                break
            if words[k] in FILLER and after:
                break  # "40 units of stock on hand": the words right after the number
            if words[k] not in FILLER or after:
                after.append(k)
        exact = self._exact(words, [k for k in range(after[0], min(len(tokens), after[0] + 8))
                                    if tokens[k].kind == "word"]) if after else None
        if exact is not None and exact[1][0] == after[0]:
            return exact
        if after:
            return self._name(tokens, words, after, reading, unit)
        if unit is None:
            reading.problems.append(f"{_written(tokens[n])} is not placed: no parameter is "
                                    "named for it")
            return None
        hits = [name for name in self.table.params if self.table.params[name].unit_symbol and
                _fits(unit, self.table.params[name])]
        if len(hits) == 1:
            return hits[0], []
        if hits:
            reading.ambiguous.append(f"{_written(tokens[n])} could be the value of "
                                     f"{_or(hits)}: name the parameter")
        else:
            reading.problems.append(f"{_written(tokens[n])} is not placed: no parameter of "
                                    "the bundle is measured in its unit")
        return None

    def _exact(self, words: list[str], span: list[int]) -> tuple[str, list[int]] | None:
        """The last alias, word for word, inside a span of word tokens."""
        best = None
        said = [words[j] for j in span]
        for i in range(len(span)):
            hit = self.table.alias_at(said, i)
            if hit is not None:
                best = hit[0], span[i:i + hit[1]]
        return best

    def _name(self, tokens: list[Token], words: list[str], span: list[int], reading: Reading,
              unit: Unit | None) -> tuple[str, list[int]] | None:
        """The parameter a run of words names: an alias word for word, else the one
        parameter whose aliases hold every word of the run that is not filler (the
        others' words in the question break a tie: "the chamber temperature is 820 °C and
        the pressure 45 psi" is the chamber pressure).  A word no alias holds makes the
        phrase unknown: "the humidity in the warehouse" is no warehouse occupancy."""
        exact = self._exact(words, span)
        if exact is not None:
            name, named = exact
            before = [k for k in span if k < named[0]]
            if before and words[before[-1]] not in FILLER and (
                    words[before[-1]] not in self._alias_words[name]):
                # "the room temperature" where only "temperature" is an alias: another
                # quantity, never this one
                reading.unknown.append(_phrase(tokens, [before[-1], *named]))
                return None
            return exact
        content = [k for k in span if words[k] not in FILLER]
        if not content:
            return None
        phrase = _phrase(tokens, list(range(content[0], content[-1] + 1)))
        said = {words[k] for k in content}
        hits = [name for name, have in self._alias_words.items() if said <= have]
        if unit is not None:
            hits = [h for h in hits if _fits(unit, self.table.params[h])]
        if len(hits) > 1:
            context = {w for v in reading.values for w in self._alias_words[v.parameter]}
            context |= {w for w in words if w not in FILLER} - said
            scored = [(len(self._alias_words[h] & context), h) for h in hits]
            top = max(s for s, _ in scored)
            hits = [h for s, h in scored if s == top]
        if len(hits) == 1:
            return hits[0], content
        if hits:
            reading.ambiguous.append(f"{phrase!r} could be {_or(hits)}: name the parameter")
        else:
            reading.unknown.append(phrase)
        return None

    def _value(self, name: str, tok: Token, reading: Reading) -> float | None:
        info = self.table.params[name]
        if info.states:
            reading.problems.append(f"{name} takes a state ({', '.join(info.states)}), "
                                    f"not the number {_written(tok)}")
            return None
        value: Decimal = tok.value if tok.value is not None else Decimal(0)
        if tok.unit is None or not info.unit_symbol or tok.unit.symbol == info.unit_symbol:
            return float(value)
        try:
            own = parse_unit(info.unit_symbol)
        except ValueError:
            reading.problems.append(f"{_written(tok)}: {name} is in {info.unit_symbol}, "
                                    "which rulec cannot convert to")
            return None
        if not same_quantity(tok.unit, own):
            reading.problems.append(f"{_written(tok)} is not a value of {name} "
                                    f"(measured in {info.unit_symbol})")
            return None
        return float(convert(value, tok.unit, own))

    def _unit(self, name: str) -> str:
        return self.table.params[name].unit_symbol or ""

    # ------------------------------------------------------------ parameters named alone

    def _read_topics(self, tokens: list[Token], words: list[str], used: set[int],
                     reading: Reading) -> None:
        """Parameters named without a value ("which rules concern the stock?")."""
        have = {v.parameter for v in reading.values}
        k = 0
        while k < len(tokens):
            if k in used or tokens[k].kind != "word":
                k += 1
                continue
            hit = self.table.alias_at(words, k)
            if hit is not None:
                name, size = hit
                if name not in have and name not in reading.topics:
                    reading.topics.append(name)
                k += size
                continue
            k += 1


_POSSESSIVE = re.compile(r"['’]s$", re.IGNORECASE)


def _word(tok: Token) -> str:
    if tok.kind == "word" and _POSSESSIVE.search(tok.text):
        return "'s"  # "the patient's temperature": whose it is, never part of its name
    found = words_of(tok.text) if tok.kind == "word" else []
    return found[0] if len(found) == 1 else tok.low


def _written(tok: Token) -> str:
    number = tok.text
    if tok.unit is None:
        return number
    return f"{number}{unit_suffix(tok.unit.symbol)}"


def _fits(unit: Unit, info: ParameterInfo) -> bool:
    if info.states:
        return False
    try:
        own = parse_unit(info.unit_symbol or "")
    except ValueError:
        return unit.symbol == info.unit_symbol
    return same_quantity(unit, own)


def _phrase(tokens: list[Token], indexes: list[int]) -> str:
    return " ".join(tokens[k].text for k in indexes)


def _or(names: list[str]) -> str:
    return " or ".join(", ".join(names).rsplit(", ", 1)) if len(names) > 1 else names[0]


def _same_text(written: str, shown: str) -> bool:
    return " ".join(written.replace(",", "").split()) == " ".join(shown.split())
