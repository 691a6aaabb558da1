"""sensors.toml: the parameters a folder's documents talk about, their units and limits.

Loading validates everything and fails with one ``ManifestError`` line naming the file
and, where it can be found, the line at fault.  Format and errors: docs/units.md.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulec.compiler.model.parameters import words_of
from rulec.compiler.model.units import PLAIN, Unit, declare_unit, parse_unit
from rulec.runtime.errors import ManifestError, UnitError

__all__ = ["KNOWN_KEYS", "Manifest", "Parameter", "load_manifest", "normalize_alias"]

KNOWN_KEYS = ("unit", "aliases", "range", "channel", "deadband", "max_age_s", "description",
              "states", "phrases", "phase")
# Keys a discrete parameter (one with `states`) has no use for: its value is a state.
_NUMERIC_ONLY = ("unit", "range", "deadband")
_STATE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_ -]{0,39}")
_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Parameter:
    """One sensor parameter; ``range``/``deadband`` are in ``unit``, ``max_age_s`` seconds."""

    name: str
    unit: Unit
    unit_text: str
    aliases: tuple[str, ...]
    range: tuple[float, float] | None
    channel: int | None
    deadband: float
    max_age_s: float | None
    source: str
    line: int | None = None
    description: str = ""
    states: tuple[str, ...] = ()  # discrete: its value is one of these, by 0-based index
    phrases: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (state, other words for it)
    phase: bool = False  # its state names stand alone in text: "during takeoff"

    @property
    def discrete(self) -> bool:
        return bool(self.states)

    def in_range(self, value: float) -> bool:
        """True if ``value`` is a number inside the valid sensor range (bounds included)."""
        if math.isnan(value):
            return False
        return self.range is None or self.range[0] <= value <= self.range[1]


class Manifest(Mapping[str, Parameter]):
    """Parameters by name, in file order; ``source`` is the file they came from."""

    def __init__(self, parameters: Mapping[str, Parameter], source: str | None = None,
                 inhibits: tuple[tuple[str, str, str], ...] = ()) -> None:
        self._params = dict(parameters)
        self.source = source
        # (phase parameter, state, severity or rule id): rules held in that phase
        self.inhibits = inhibits

    @classmethod
    def empty(cls) -> Manifest:
        """A manifest with no parameters (a folder without sensors.toml)."""
        return cls({})

    def __getitem__(self, name: str) -> Parameter:
        return self._params[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._params)

    def __len__(self) -> int:
        return len(self._params)

    def __repr__(self) -> str:
        return f"Manifest({list(self._params)!r}, source={self.source!r})"


def normalize_alias(text: str) -> str:
    """Alias form used for storage and matching: stripped, lower case, spaces folded."""
    return " ".join(text.lower().split())


class _Locator:
    """Finds the line (1-based) of a parameter's table or of one of its keys."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()

    def _find(self, pattern: str, start: int = 0, stop: int | None = None) -> int | None:
        rx = re.compile(pattern)
        for i in range(start, len(self.lines) if stop is None else stop):
            if rx.match(self.lines[i]):
                return i + 1
        return None

    @staticmethod
    def _key(name: str) -> str:
        return rf"""(?:{re.escape(name)}|"{re.escape(name)}"|'{re.escape(name)}')"""

    def table(self, name: str) -> int | None:
        """Line of ``[parameters.NAME]`` (or of ``NAME = {...}`` / ``parameters.NAME.x``)."""
        k = self._key(name)
        return self._find(rf"\s*\[\s*parameters\s*\.\s*{k}\s*\]") or self._find(
            rf"\s*(?:parameters\s*\.\s*)?{k}\s*[.=]"
        )

    def key(self, name: str, key: str) -> int | None:
        """Line of ``KEY =`` inside the table of ``name``; the table line otherwise."""
        start = self.table(name)
        if start is None:
            return None
        end = self._find(r"\s*\[", start) or len(self.lines) + 1
        found = self._find(rf"\s*{self._key(key)}\s*=", start, end - 1)
        if found is None:  # a sub-table: [parameters.NAME.KEY]
            found = self._find(rf"\s*\[\s*parameters\s*\.\s*{self._key(name)}\s*\.\s*"
                               rf"{self._key(key)}\s*\]")
        return found or start

    def top(self, key: str) -> int | None:
        return self._find(rf"\s*\[*\s*{self._key(key)}\b")


def _is_number(x: object) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


class _Loader:
    def __init__(self, path: Path, text: str) -> None:
        self.path = str(path)
        self.where = _Locator(text)

    def error(self, message: str, line: int | None = None) -> ManifestError:
        at = f"{self.path}:{line}" if line else self.path
        return ManifestError(f"{at}: {message}")

    def parameter(self, name: str, body: Any) -> Parameter:
        where = self.where
        line = where.table(name)
        if not _NAME_RE.fullmatch(name):
            raise self.error(
                f"parameter name {name!r} is not an identifier (letters, digits, _)", line
            )
        if not isinstance(body, dict):
            raise self.error(f"parameter {name!r} must be a table [parameters.{name}]", line)
        unknown = [k for k in body if k not in KNOWN_KEYS]
        if unknown:
            raise self.error(
                f"parameter {name!r}: unknown key {unknown[0]!r} "
                f"(known keys: {', '.join(KNOWN_KEYS)})",
                where.key(name, unknown[0]),
            )

        def bad(key: str, message: str) -> ManifestError:
            return self.error(f"parameter {name!r}: {message}", where.key(name, key))

        states, phrases, phase = self.discrete(name, body, bad)
        unit_text = body.get("unit", "")
        if not isinstance(unit_text, str):
            raise bad("unit", f"unit must be a string, not {unit_text!r}")
        try:
            unit = parse_unit(unit_text) if unit_text.strip() else PLAIN
        except UnitError as exc:
            try:
                unit = declare_unit(unit_text)  # "aw": compared as written, never converted
            except UnitError:
                raise bad("unit", str(exc)) from None

        raw_aliases = body.get("aliases", [])
        if not isinstance(raw_aliases, list) or not all(isinstance(a, str) for a in raw_aliases):
            raise bad("aliases", "aliases must be a list of strings")
        aliases: list[str] = []
        for raw in [*raw_aliases, name.replace("_", " ")]:
            alias = normalize_alias(raw)
            if not alias:
                raise bad("aliases", "an alias is empty")
            if alias not in aliases:
                aliases.append(alias)

        rng: tuple[float, float] | None = (0.0, float(len(states) - 1)) if states else None
        if "range" in body:
            r = body["range"]
            if not (isinstance(r, list) and len(r) == 2 and all(_is_number(x) for x in r)):
                raise bad("range", f"range must be two numbers [low, high], not {r!r}")
            lo, hi = float(r[0]), float(r[1])
            if math.isnan(lo) or math.isnan(hi) or not lo < hi:
                raise bad("range", f"range low must be below high, got [{r[0]}, {r[1]}]")
            rng = (lo, hi)

        deadband = body.get("deadband", 0.0)
        if not _is_number(deadband) or not math.isfinite(deadband) or deadband < 0:
            raise bad("deadband", f"deadband must be a number >= 0, not {deadband!r}")

        max_age = body.get("max_age_s")
        if max_age is not None and (
            not _is_number(max_age) or not math.isfinite(max_age) or max_age <= 0
        ):
            raise bad("max_age_s", f"max_age_s must be a number > 0, not {max_age!r}")

        channel = body.get("channel")
        if channel is not None and (
            not isinstance(channel, int) or isinstance(channel, bool) or channel < 0
        ):
            raise bad("channel", f"channel must be an integer >= 0, not {channel!r}")

        description = body.get("description", "")
        if not isinstance(description, str):
            raise bad("description", "description must be a string")

        return Parameter(
            name=name,
            unit=unit,
            unit_text=unit_text,
            aliases=tuple(aliases),
            range=rng,
            channel=channel,
            deadband=float(deadband),
            max_age_s=None if max_age is None else float(max_age),
            source=self.path,
            line=line,
            description=description,
            states=states,
            phrases=phrases,
            phase=phase,
        )

    def discrete(self, name: str, body: dict[str, Any], bad: Any
                 ) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...], bool]:
        """The states, their other words and the phase flag of a discrete parameter."""
        if "states" not in body:
            for key in ("phrases", "phase"):
                if key in body:
                    raise bad(key, f"{key!r} needs 'states' (a discrete parameter)")
            return (), (), False
        raw = body["states"]
        if not isinstance(raw, list) or len(raw) < 2 or not all(isinstance(s, str) for s in raw):
            raise bad("states", "states must be a list of at least two state names")
        states = tuple(normalize_alias(s) for s in raw)
        for state in states:
            if not _STATE_NAME.fullmatch(state):
                raise bad("states", f"state name {state!r} is not a word or words "
                          "(letters, digits, _, - and spaces, at most 40)")
        if len(set(states)) != len(states):
            twice = next(s for s in states if states.count(s) > 1)
            raise bad("states", f"state {twice!r} is named twice")
        for key in _NUMERIC_ONLY:
            if key in body:
                raise bad(key, f"a discrete parameter (with 'states') has no {key!r}")
        table = body.get("phrases", {})
        if not isinstance(table, dict):
            raise bad("phrases", "phrases must be a table of state = [words, ...]")
        phrases: list[tuple[str, tuple[str, ...]]] = []
        owner: dict[str, str] = {}
        for state, words in table.items():
            state = normalize_alias(state)
            if state not in states:
                raise bad("phrases", f"phrases name {state!r}, not one of the states "
                          f"{', '.join(states)}")
            if not isinstance(words, list) or not all(
                    isinstance(w, str) and w.strip() for w in words):
                raise bad("phrases", f"phrases.{state} must be a list of words")
            said = tuple(normalize_alias(w) for w in words)
            for word in (*said, state):
                other = owner.setdefault(word, state)
                if other != state:
                    raise bad("phrases", f"{word!r} names both {other!r} and {state!r}")
            phrases.append((state, said))
        for state in states:
            other = owner.setdefault(state, state)
            if other != state:
                raise bad("phrases", f"{state!r} is a state and a phrase of {other!r}")
        phase = body.get("phase", False)
        if not isinstance(phase, bool):
            raise bad("phase", f"phase must be true or false, not {phase!r}")
        return states, tuple(phrases), phase

    def manifest(self, data: dict[str, Any]) -> Manifest:
        for key in data:
            if key not in ("parameters", "inhibit"):
                raise self.error(
                    f"unknown top-level key {key!r} (expected [parameters.NAME] tables "
                    "and an [inhibit.PHASE] table)",
                    self.where.top(key),
                )
        table = data.get("parameters", {})
        if not isinstance(table, dict):
            raise self.error("'parameters' must be a table", self.where.top("parameters"))
        params: dict[str, Parameter] = {}
        # Aliases are compared as prose is matched (words_of: plurals folded, punctuation
        # dropped), so "oil temps" and "oil temp" cannot name two parameters.
        alias_owner: dict[tuple[str, ...], tuple[str, str]] = {}
        channel_owner: dict[int, str] = {}
        for name, body in table.items():
            p = self.parameter(name, body)
            for alias in p.aliases:
                words = tuple(words_of(alias))
                other, spelled = alias_owner.setdefault(words, (name, alias))
                if other != name and words:
                    same = "" if spelled == alias else f" (read as {spelled!r} of {other!r})"
                    raise self.error(
                        f"alias {alias!r}{same} belongs to both {other!r} and {name!r}",
                        self.where.key(name, "aliases"),
                    )
            if p.channel is not None:
                other = channel_owner.setdefault(p.channel, name)
                if other != name:
                    raise self.error(
                        f"channel {p.channel} is used by both {other!r} and {name!r}",
                        self.where.key(name, "channel"),
                    )
            params[name] = p
        return Manifest(params, source=self.path, inhibits=self.inhibits(data, params))

    def inhibits(self, data: dict[str, Any], params: dict[str, Parameter]
                 ) -> tuple[tuple[str, str, str], ...]:
        """[inhibit.PHASE] STATE = [severity or rule id, ...]: what is held in a phase."""
        table = data.get("inhibit", {})
        line = self.where.top("inhibit")
        if not isinstance(table, dict):
            raise self.error("'inhibit' must be a table of [inhibit.PHASE] tables", line)
        out: list[tuple[str, str, str]] = []
        for phase, states in table.items():
            param = params.get(phase)
            if param is None or not param.states:
                raise self.error(f"inhibit.{phase}: {phase!r} is not a discrete parameter",
                                 line)
            if not isinstance(states, dict):
                raise self.error(f"inhibit.{phase} must be a table of STATE = [...]", line)
            for state, entries in states.items():
                state = normalize_alias(state)
                if state not in param.states:
                    raise self.error(f"inhibit.{phase}: {state!r} is not one of its states "
                                     f"({', '.join(param.states)})", line)
                if not isinstance(entries, list) or not all(
                        isinstance(e, str) and e.strip() for e in entries):
                    raise self.error(f"inhibit.{phase}.{state} must list severities or rule "
                                     "ids", line)
                out.extend((phase, state, e.strip()) for e in entries)
        return tuple(out)


def load_manifest(path: Path | str) -> Manifest:
    """Read and validate a sensors.toml; raise ``ManifestError`` naming file and line."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ManifestError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ManifestError(
            f"{path}:{line}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})"
        ) from None
    text = text.removeprefix("\ufeff")
    try:
        data = tomllib.loads(text)
    except RecursionError:  # tomllib recurses once per level of nested arrays/tables
        raise ManifestError(f"{path}: bad TOML: arrays or tables nested too deeply") from None
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"at line (\d+)", str(exc))
        if m:
            at = f"{path}:{m.group(1)}"
        else:  # "at end of document": the last line that holds something
            lines = [i for i, ln in enumerate(text.splitlines(), 1) if ln.strip()]
            at = f"{path}:{lines[-1]}" if lines else str(path)
        raise ManifestError(f"{at}: bad TOML: {exc}") from None
    return _Loader(path, text).manifest(data)
