"""What `rulec-sim` plays: a scenario CSV mapped to telemetry channels, as frames.

``ChannelMap`` says which channel carries each parameter (from a bundle, a sensors.toml
or ``--channels``); ``load_scenario`` reads the CSV (``rulec replay`` format) through
it; ``scenario_frames`` turns the rows into timed TELEMETRY frames (``Outgoing``).
Apart from the simulator because none of it touches a link or a clock.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rulec.firmware_bridge import protocol as wire
from rulec.firmware_bridge.sim.errors import SimError
from rulec.runtime.errors import RulecError

__all__ = ["ChannelMap", "Outgoing", "Scenario", "load_scenario", "scenario_frames"]


# --------------------------------------------------------------------------- channels


@dataclass
class ChannelMap:
    """Parameter name -> telemetry channel, plus what is needed to print replies."""

    channels: dict[str, int] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)  # normalised alias -> name
    actions: dict[str, str] = field(default_factory=dict)  # rule id -> action text

    @staticmethod
    def normalise(name: str) -> str:
        return " ".join(name.lower().replace("_", " ").split())

    def channel_of(self, column: str) -> int | None:
        if column in self.channels:
            return self.channels[column]
        name = self.aliases.get(self.normalise(column))
        return None if name is None else self.channels.get(name)

    def names(self) -> dict[int, str]:
        return {ch: name for name, ch in self.channels.items()}

    @classmethod
    def from_bundle(cls, path: str | os.PathLike[str]) -> ChannelMap:
        from rulec.runtime.bundle.loader import load_bundle

        try:
            bundle = load_bundle(path)
        except RulecError as exc:
            raise SimError(f"--bundle {path}: {exc}") from None
        out = cls()
        for p in bundle.parameters:
            if p.channel is not None:
                out.channels[p.name] = p.channel
            for alias in (p.name, *p.aliases):
                out.aliases[cls.normalise(alias)] = p.name
        out.actions = {r.id: r.action for r in bundle.rules if r.action}
        return out

    @classmethod
    def from_sensors(cls, path: str | os.PathLike[str]) -> ChannelMap:
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise SimError(f"--sensors {path}: {exc}") from None
        params = data.get("parameters", {})
        if not isinstance(params, dict):
            raise SimError(f"--sensors {path}: [parameters] must be a table")
        out = cls()
        for name, spec in params.items():
            if not isinstance(spec, dict):
                continue
            ch = spec.get("channel")
            if isinstance(ch, int) and not isinstance(ch, bool):
                out.channels[name] = ch
            for alias in (name, *spec.get("aliases", ())):
                if isinstance(alias, str):
                    out.aliases[cls.normalise(alias)] = name
        return out

    def add_spec(self, spec: str) -> None:
        """``name=ch,name=ch`` (``--channels``); overrides what the bundle said."""
        for item in spec.split(","):
            if not item.strip():
                continue
            name, sep, ch_text = item.partition("=")
            try:
                ch = int(ch_text)
            except ValueError:
                ch = -1
            if not sep or not name.strip() or not 0 <= ch <= 0xFFFF:
                raise SimError(f"--channels: {item!r} is not NAME=CHANNEL (0..65535)")
            self.channels[name.strip()] = ch
            self.aliases[self.normalise(name)] = name.strip()


# --------------------------------------------------------------------------- scenario


@dataclass
class Scenario:
    """Rows of (time, {channel: value}) ready to encode."""

    rows: list[tuple[float, dict[int, float]]]
    columns: dict[str, int]  # CSV column -> channel
    unmapped: list[str]  # CSV columns with no channel (not sent)

    @property
    def duration_s(self) -> float:
        return self.rows[-1][0] - self.rows[0][0] if self.rows else 0.0


def load_scenario(path: str | os.PathLike[str], channels: ChannelMap) -> Scenario:
    """Read a scenario CSV (``rulec replay`` format) and map its columns to channels."""
    from rulec.runtime.engine.replay import read_samples

    columns: dict[str, int] = {}
    unmapped: list[str] = []
    rows: list[tuple[float, dict[int, float]]] = []
    try:
        for t, sample in read_samples(Path(path)):
            values: dict[int, float] = {}
            for name, value in sample.items():
                ch = columns.get(name)
                if ch is None and name not in unmapped:
                    ch = channels.channel_of(name)
                    if ch is None:
                        unmapped.append(name)
                    else:
                        columns[name] = ch
                if ch is not None:
                    values[ch] = value
            rows.append((t, values))
    except RulecError as exc:
        raise SimError(str(exc)) from None
    if not rows:
        raise SimError(f"{path}: no rows")
    if not columns:
        raise SimError(f"{path}: no column has a telemetry channel (give --bundle, --sensors "
                       "or --channels)")
    return Scenario(rows, columns, unmapped)


@dataclass(frozen=True, slots=True)
class Outgoing:
    """Bytes to write once ``ready`` (seconds after ``start_clock``; None: as soon as
    the line is free, i.e. queued behind the frames before it).

    ``ts_us`` is the timestamp of the (last) frame in ``data``, used to match replies
    for the round trip; ``frames`` is how many frames ``data`` holds.
    """

    ready: float | None
    ts_us: int | None
    data: bytes
    frames: int = 1


def scenario_frames(
    scenario: Scenario,
    speed: float | None = 1.0,
    repeat: int = 1,
    first_seq: int = 0,
) -> Iterator[Outgoing]:
    """TELEMETRY frames of the scenario; ``speed=None`` means as fast as possible.

    Each repetition continues the clock (times shift by the duration plus one sample
    period), so the daemon never sees its firmware clock go back.
    """
    rows = scenario.rows
    t_first = rows[0][0]
    period = rows[1][0] - rows[0][0] if len(rows) > 1 else 1.0
    span = scenario.duration_s + max(period, 0.0)
    seq = first_seq
    for rep in range(repeat):
        for t, values in rows:
            t_rel = t - t_first + rep * span
            ts_us = max(0, round((t + rep * span) * 1e6))
            data = wire.encode_raw_frame(
                wire.MsgType.TELEMETRY, seq, ts_us, wire.encode_telemetry(values)
            )
            seq = (seq + 1) & 0xFFFF_FFFF
            yield Outgoing(None if speed is None else t_rel / speed, ts_us, data)
