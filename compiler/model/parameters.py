"""Name the parameter a phrase of prose refers to.

With a sensors.toml the answer is the parameter whose alias is the longest
one found in the phrase ("the number of failed login attempts" -> failed_logins);
plural and singular read alike.  Without one, parameters are inferred from the
text itself ("the chamber temperature" -> chamber_temperature).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulec.compiler.model.units import Unit

_WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_DETERMINERS = {
    "the", "a", "an", "its", "any", "each", "every", "all", "their", "his", "her", "this",
    "that", "these", "those", "our", "your", "measured", "current", "actual", "either",
    "both", "if", "when", "whenever", "while", "once", "should", "do", "not", "never",
    "there", "they", "it", "then", "than", "unless", "except", "and", "or", "with",
}


def words_of(text: str) -> list[str]:
    """Lower-cased words with plurals folded to singular."""
    return [_singular(w) for w in _WORD.findall(text.lower())]


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@dataclass
class ParameterInfo:
    name: str
    aliases: tuple[str, ...]
    unit_symbol: str | None = None  # None: take the unit of the first threshold seen
    inferred: bool = False
    states: tuple[str, ...] = ()  # discrete: the state names, in index order
    phrases: dict[str, tuple[str, ...]] = field(default_factory=dict)  # state -> other words
    phase: bool = False  # state names stand alone in text ("during takeoff")
    time_in_state_of: str | None = None  # derived: seconds that parameter is in its state
    # what names each state, as ``words_of`` folds prose: name or phrase -> state
    _said: dict[str, str] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for state in self.states:
            for words in (state, *self.phrases.get(state, ())):
                self._said.setdefault(" ".join(words_of(words)), state)

    def state_of(self, words: str) -> str | None:
        """The state that words name (its name or one of its phrases, plurals folded as
        ``words_of`` folds them: "dockboards in position"), or None."""
        return self._said.get(" ".join(words_of(words)))


@dataclass
class ParameterTable:
    """The parameters of one domain and the aliases that name them in prose."""

    params: dict[str, ParameterInfo] = field(default_factory=dict)
    infer: bool = False  # without a manifest, unknown phrases become new parameters
    _aliases: list[tuple[tuple[str, ...], str, str]] = field(default_factory=list)
    # alias words -> place of the first alias with those words in _aliases (see _index)
    _first: dict[tuple[str, ...], int] = field(default_factory=dict, init=False, repr=False,
                                               compare=False)
    _longest: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._index()

    def add(self, info: ParameterInfo) -> None:
        self.params[info.name] = info
        names = set(info.aliases) | {info.name.replace("_", " ")}
        for alias in names:
            key = tuple(words_of(alias))
            if key:
                self._aliases.append((key, info.name, alias))
        self._aliases.sort(key=lambda item: (-len(item[0]), -len(item[2])))
        self._index()

    def time_in_state(self, of: str) -> str:
        """The derived parameter of how long discrete ``of`` has been in its state (added
        on first use, with no alias: no text names it)."""
        from rulec.runtime.vocabulary import TIME_IN_STATE

        name = of + TIME_IN_STATE
        if name not in self.params:
            self.params[name] = ParameterInfo(name, (), "s", time_in_state_of=of)
        return name

    def _index(self) -> None:
        """Index _aliases by their words, for resolve."""
        self._first = {}
        for place, (key, _, _) in enumerate(self._aliases):
            self._first.setdefault(key, place)
        self._longest = max((len(key) for key in self._first), default=0)

    def knows(self, phrase: str) -> bool:
        """Whether the phrase is, word for word, an alias (nothing is inferred)."""
        return tuple(words_of(phrase)) in self._first

    def resolve(self, phrase: str) -> tuple[str, str] | None:
        """(parameter name, alias as found) for the longest alias inside the phrase."""
        # The first alias in _aliases (longest first) whose words run in the phrase: the
        # phrase's runs of words looked up, rather than every alias tried in turn.
        words = words_of(phrase)
        best: int | None = None
        for n in range(1, min(len(words), self._longest) + 1):
            for i in range(len(words) - n + 1):
                place = self._first.get(tuple(words[i:i + n]))
                if place is not None and (best is None or place < best):
                    best = place
        if best is not None:
            _, name, alias = self._aliases[best]
            return name, alias
        if self.infer:
            return self._infer(phrase)
        return None

    def alias_at(self, words: list[str], i: int) -> tuple[str, int] | None:
        """(parameter, number of words) of the longest alias starting at ``words[i]``
        (words as ``words_of`` gives them), or None."""
        for n in range(min(self._longest, len(words) - i), 0, -1):
            place = self._first.get(tuple(words[i:i + n]))
            if place is not None:
                return self._aliases[place][1], n
        return None

    def named_in(self, text: str) -> list[str]:
        """The parameters whose aliases run, word for word, somewhere in the text (the
        longest alias at each place; nothing is inferred)."""
        words = words_of(text)
        found: list[str] = []
        i = 0
        while i < len(words):
            for n in range(min(self._longest, len(words) - i), 0, -1):
                place = self._first.get(tuple(words[i:i + n]))
                if place is not None:
                    name = self._aliases[place][1]
                    if name not in found:
                        found.append(name)
                    i += n
                    break
            else:
                i += 1
        return found

    def _infer(self, phrase: str) -> tuple[str, str] | None:
        words = [w for w in _WORD.findall(phrase.lower()) if w not in _DETERMINERS]
        words = [w.replace("-", "_") for w in words]
        if not words or len(words) > 6 or not words[-1][:1].isalpha():
            return None
        name = "_".join(words)
        if name not in self.params:
            self.add(ParameterInfo(name, (" ".join(words).replace("_", " "),), inferred=True))
        return name, " ".join(words)

    def unit_of(self, name: str) -> Unit | None:
        """A parameter's unit, or None when it has none yet (or none rulec knows)."""
        from rulec.compiler.model.units import parse_unit

        symbol = self.params[name].unit_symbol
        try:
            return parse_unit(symbol) if symbol else None
        except ValueError:
            return None

    def measured_in(self, unit: Unit) -> list[ParameterInfo]:
        """The parameters a value in this unit can be a reading of ("8 breaths per minute"
        is no pump's rpm)."""
        from rulec.compiler.model.units import same_quantity

        return [info for name, info in self.params.items()
                if (own := self.unit_of(name)) is not None and same_quantity(unit, own)]

    def resolve_by_unit(self, unit: Unit) -> tuple[str, str] | None:
        """The only parameter a value in this unit can be compared with, if exactly one is."""
        hits = self.measured_in(unit)
        if len(hits) == 1:
            return hits[0].name, hits[0].aliases[0] if hits[0].aliases else hits[0].name
        return None
