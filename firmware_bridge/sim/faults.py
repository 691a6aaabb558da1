"""Seeded fault injection for the HIL simulator (``rulec-sim``).

A ``FaultInjector`` sits between the simulator's frame encoder and the link.  It
changes what goes on the wire the way a bad line does, and counts exactly what it did:

- ``frame_drop_rate`` / ``frame_dup_rate``: a whole frame is lost / sent twice;
- ``drop_rate`` / ``dup_rate``: each byte is lost / repeated with this probability
  (a UART overrun, a glitching converter);
- ``ber``: each bit on the wire is flipped with this probability (applied after the
  byte faults, to the bytes that are actually sent, delimiters included);
- ``split``: a frame is written in 2..``max_pieces`` random pieces (separate writes);
- link drops (``link_drop_every_s``, driven by the simulator's clock): the frame being
  sent is cut at a random byte, the link goes down for ``link_down_s``, then comes back.

Events are drawn from one ``random.Random(seed)``: the same seed and the same frames
give the same faults, byte for byte.  Byte and bit events are placed with geometric
gaps (one draw per event, not one per byte), so a long run at ``ber = 1e-6`` costs
almost nothing.  Every counter equals what was injected;
``tests/firmware_bridge/sim/test_faults.py`` checks that against the bytes themselves.
"""

from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass, field
from itertools import pairwise

__all__ = ["FaultConfig", "FaultCounters", "FaultInjector", "Injected"]


@dataclass(frozen=True)
class FaultConfig:
    """What to inject; every rate is a probability in [0, 1)."""

    ber: float = 0.0
    drop_rate: float = 0.0
    dup_rate: float = 0.0
    frame_drop_rate: float = 0.0
    frame_dup_rate: float = 0.0
    split: bool = False
    max_pieces: int = 4
    link_drop_every_s: float | None = None
    link_down_s: float = 0.5
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("ber", "drop_rate", "dup_rate", "frame_drop_rate", "frame_dup_rate"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and 0.0 <= value < 1.0):
                raise ValueError(f"{name} must be a probability in [0, 1), not {value!r}")
        if self.max_pieces < 2:
            raise ValueError(f"max_pieces must be at least 2, not {self.max_pieces}")
        every = self.link_drop_every_s
        if every is not None and not (math.isfinite(every) and every > 0):
            raise ValueError(f"link_drop_every_s must be a positive number, not {every!r}")
        if not (math.isfinite(self.link_down_s) and self.link_down_s >= 0):
            raise ValueError(f"link_down_s must be >= 0, not {self.link_down_s!r}")

    @property
    def active(self) -> bool:
        """Whether anything at all is injected."""
        return bool(
            self.ber or self.drop_rate or self.dup_rate or self.frame_drop_rate
            or self.frame_dup_rate or self.split or self.link_drop_every_s
        )

    @property
    def alters_bytes(self) -> bool:
        """Whether a frame that is sent can arrive different from how it was encoded."""
        return bool(self.ber or self.drop_rate or self.dup_rate or self.link_drop_every_s)


@dataclass
class FaultCounters:
    """Exactly what was injected (and what went through untouched)."""

    frames_in: int = 0  # frames offered to the injector
    frames_sent: int = 0  # copies written (frames_in - frames_dropped + frames_duplicated)
    frames_dropped: int = 0  # whole frames never sent
    frames_duplicated: int = 0  # extra copies sent
    frames_corrupted: int = 0  # copies sent with at least one byte or bit changed
    bits_flipped: int = 0
    bytes_dropped: int = 0
    bytes_duplicated: int = 0
    bytes_in: int = 0  # bytes of the frames offered
    bytes_sent: int = 0  # bytes handed to the link
    split_frames: int = 0  # copies written in more than one piece
    pieces: int = 0  # separate writes of split copies
    link_drops: int = 0
    frames_truncated: int = 0  # copies cut short by a link drop
    bytes_truncated: int = 0  # bytes of those copies never sent

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


@dataclass
class Injected:
    """What became of one frame: the copies that go on the wire (possibly none)."""

    original: bytes
    copies: list[bytes] = field(default_factory=list)

    @property
    def intact(self) -> bool:
        """At least one copy is sent exactly as encoded."""
        return any(c == self.original for c in self.copies)


class _Countdown:
    """Distance to the next event of a Bernoulli(p) process over a stream of units."""

    __slots__ = ("_rng", "_log_q", "left")

    def __init__(self, rng: random.Random, p: float) -> None:
        self._rng = rng
        self._log_q = math.log1p(-p) if p > 0 else 0.0
        self.left = self._gap()

    def _gap(self) -> int:
        if not self._log_q:
            return 1 << 62  # never
        u = self._rng.random()
        gap = math.log1p(-u) / self._log_q  # geometric, support 0, 1, 2, ...
        return int(gap) if gap < 1 << 62 else 1 << 62

    def positions(self, n: int) -> list[int]:
        """Offsets in [0, n) of the events in the next ``n`` units; advances the stream."""
        out: list[int] = []
        pos = self.left
        while pos < n:
            out.append(pos)
            pos += 1 + self._gap()
        self.left = pos - n
        return out


class FaultInjector:
    """Applies a ``FaultConfig`` to frames, with one seeded RNG and exact counters."""

    def __init__(self, config: FaultConfig | None = None, rng: random.Random | None = None):
        self.config = config or FaultConfig()
        self.rng = rng or random.Random(self.config.seed)
        self.counters = FaultCounters()
        c = self.config
        self._flip = _Countdown(self.rng, c.ber)
        self._drop = _Countdown(self.rng, c.drop_rate)
        self._dup = _Countdown(self.rng, c.dup_rate)

    def apply(self, frame: bytes) -> Injected:
        """The copies of ``frame`` to send, after frame, byte and bit faults."""
        c, k = self.config, self.counters
        k.frames_in += 1
        k.bytes_in += len(frame)
        out = Injected(bytes(frame))
        if c.frame_drop_rate and self.rng.random() < c.frame_drop_rate:
            k.frames_dropped += 1
            return out
        copies = 1
        if c.frame_dup_rate and self.rng.random() < c.frame_dup_rate:
            k.frames_duplicated += 1
            copies = 2
        for _ in range(copies):
            data = self._bytes(out.original)
            data = self._bits(data)
            if data != out.original:
                k.frames_corrupted += 1
            k.frames_sent += 1
            out.copies.append(data)
        return out

    def _bytes(self, data: bytes) -> bytes:
        if not (self.config.drop_rate or self.config.dup_rate):
            return data
        n = len(data)
        drops = set(self._drop.positions(n))
        dups = [i for i in self._dup.positions(n) if i not in drops]
        if not drops and not dups:
            return data
        self.counters.bytes_dropped += len(drops)
        self.counters.bytes_duplicated += len(dups)
        dup_set = set(dups)
        buf = bytearray()
        for i, b in enumerate(data):
            if i in drops:
                continue
            buf.append(b)
            if i in dup_set:
                buf.append(b)
        return bytes(buf)

    def _bits(self, data: bytes) -> bytes:
        if not self.config.ber:
            return data
        flips = self._flip.positions(8 * len(data))
        if not flips:
            return data
        buf = bytearray(data)
        for bit in flips:
            buf[bit >> 3] ^= 1 << (bit & 7)
        self.counters.bits_flipped += len(flips)
        return bytes(buf)

    def pieces(self, data: bytes) -> list[bytes]:
        """``data`` as the writes that carry it: one, or 2..max_pieces random pieces."""
        k = self.counters
        k.bytes_sent += len(data)
        if not self.config.split or len(data) < 2:
            return [data]
        count = self.rng.randint(2, min(self.config.max_pieces, len(data)))
        cuts = sorted(self.rng.sample(range(1, len(data)), count - 1))
        bounds = [0, *cuts, len(data)]
        k.split_frames += 1
        k.pieces += count
        return [data[a:b] for a, b in pairwise(bounds)]

    def truncate(self, data: bytes) -> bytes:
        """A link drop during ``data``: the bytes that made it out before the cut."""
        k = self.counters
        k.link_drops += 1
        if not data:
            return data
        cut = self.rng.randrange(len(data))  # never the whole copy, delimiter included
        k.frames_truncated += 1
        k.bytes_truncated += len(data) - cut
        return data[:cut]
