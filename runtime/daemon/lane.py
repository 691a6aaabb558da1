"""The daemon's fast lane: a chunk read from the link decoded, evaluated and answered in C.

A Python process woken for one frame pays more for running its own code from cold
caches than for the evaluation itself.  ``csrc/lane.c`` (built into
``rulec.runtime._kernel``) takes the common frame in one call: decode, the duplicate
and sequence checks, validity, containment, the raise / clear decisions and the
ADVISORY frames.  Every other frame comes back here untouched, one at a time, and the
daemon runs it through ``runtime/engine/stream.py`` as before; the stream stays the
definition of the semantics (``docs/onboard.md``, "Fast lane").

What the C side takes (everything else goes to Python): TELEMETRY frames whose payload
decodes, whose channels all belong to parameters and whose time does not go back; that
change no parameter's validity or fault reason (fault events are written in Python)
and carry no parameter a link loss marked stale; whose raises and clears have frames
that fit, and not more of them than one call holds.  On-delays, off-delays, latches
and deadbands run in C as in the stream.

Where the link lets it (``Link.read_fds``), ``serve`` also waits for the link, reads
it and writes the replies in the same C call (``csrc/lane_io.c``), so that Python runs
only once the replies are out.

The lane shares the stream's value and time arrays (``array('d')``) and keeps its own
copy of the rest (raised, acknowledged, timing and waiting rules, each parameter's
fault): ``take_events`` brings the stream's dictionaries up to date after a call, and
``sync`` the lane after Python has stepped the stream.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from rulec.firmware_bridge import protocol as wire
from rulec.runtime.backend import load_native
from rulec.runtime.engine.engine import Engine
from rulec.runtime.engine.stream import Event
from rulec.runtime.vocabulary import SEVERITIES, FaultReason

EVENTS_CAP = 64  # events (raises, clears, timer changes) per call; a frame with more: Python

_STAT_FIELDS = ("frames", "crc_errors", "length_errors", "cobs_errors", "version_errors",
                "type_errors", "oversize", "bytes_discarded")
_LANE_COUNTS = ("duplicates", "missing", "restarts")


# rl_serve's times are CLOCK_MONOTONIC, which is perf_counter's clock on Linux
_SAME_CLOCK = (time.get_clock_info("perf_counter").implementation
               == "clock_gettime(CLOCK_MONOTONIC)")


def fault_codes(lib: Any) -> dict[str, int]:
    """The stream's fault words as lane.h's ``RL_FAULT_*`` codes."""
    return {FaultReason.NAN.words: lib.RL_FAULT_NAN,
            FaultReason.INFINITE.words: lib.RL_FAULT_INFINITE,
            FaultReason.BELOW_RANGE.words: lib.RL_FAULT_BELOW,
            FaultReason.ABOVE_RANGE.words: lib.RL_FAULT_ABOVE,
            FaultReason.STALE.words: lib.RL_FAULT_STALE,
            FaultReason.NOT_A_STATE.words: lib.RL_FAULT_NOT_STATE}


def lane_module() -> ModuleType | None:
    """The compiled kernel module when it carries the lane (None: a pure-Python build)."""
    module = load_native()
    if module is None or not hasattr(module.lib, "rl_run"):
        return None
    return module


def supports(engine: Engine) -> bool:
    """Whether the lane can evaluate for this engine: geometry decides, in the C kernel,
    and no rule needs a time in state (the C lane keeps no state entry times)."""
    hold = engine.stream.hold_index
    if any(p.time_in_state_of for p in engine.bundle.parameters):
        return False
    return ("geometry" in engine.paths and engine.backend == "native"
            and (hold is None or hold.backend == "native") and lane_module() is not None)


class LaneRules:
    """One engine's bundle as ``rl_rules`` (the arrays it points into live here)."""

    def __init__(self, engine: Engine, channels: dict[int, str], module: ModuleType) -> None:
        ffi = module.ffi
        bundle = engine.bundle
        params = bundle.parameters
        n_params, n_rules = len(params), len(bundle.rules)
        self._keep: list[Any] = []
        r = self.rules = ffi.new("rl_rules *")
        r.strict = engine.native_index()
        hold = engine.stream.hold_index
        r.hold = hold.native_index() if hold is not None else ffi.NULL
        r.n_params, r.n_rules = n_params, n_rules
        r.n_boxes = engine.n_boxes
        name_channel = {name: ch for ch, name in channels.items()}
        param_channel = np.array([name_channel.get(p.name, -1) for p in params], np.int32)
        channel_param = np.full(max(channels, default=-1) + 1, -1, np.int32)
        for ch, name in channels.items():
            channel_param[ch] = bundle.param_index[name]
        flags = np.zeros(n_rules, np.uint8)
        duration = np.zeros(max(n_rules, 1))
        clear_delay = np.zeros(max(n_rules, 1))
        severity = np.zeros(n_rules, np.uint8)
        ids = bytearray()
        id_start = np.zeros(n_rules + 1, np.int32)
        axis_start = np.zeros(n_rules + 1, np.int32)
        axes: list[int] = []
        lib = module.lib
        severity_codes = {name: getattr(lib, f"RULEC_SEVERITY_{name.upper()}")
                          for name in SEVERITIES}
        for i, spec in enumerate(bundle.rules):
            rule_axes = sorted(engine.rule_axes(i))
            rule_id = spec.id.encode("utf-8")
            flags[i] = ((lib.RL_RULE_ON_DELAY if spec.duration_s is not None else 0)
                        | (lib.RL_RULE_INCLUSIVE if spec.duration_inclusive else 0)
                        | (lib.RL_RULE_OFF_DELAY if spec.clear_delay_s else 0)
                        | (lib.RL_RULE_LATCH if spec.latch else 0))
            duration[i] = spec.duration_s if spec.duration_s is not None else 0.0
            clear_delay[i] = spec.clear_delay_s or 0.0
            with_channel = sum(param_channel[a] >= 0 for a in rule_axes)
            code = severity_codes.get(spec.severity)
            if (code is None or not rule_id or with_channel > lib.RULEC_MAX_CHANNELS
                    or lib.RULEC_ADVISORY_FIXED + len(rule_id)
                    + lib.RULEC_VALUE_PAIR * with_channel > lib.RULEC_MAX_PAYLOAD):
                flags[i] |= lib.RL_RULE_PYTHON  # Python reports what cannot be sent
            if spec.inhibit:
                flags[i] |= lib.RL_RULE_PYTHON  # a phase may hold its raise: Python decides
            severity[i] = code or 1
            ids += rule_id or b"?"
            id_start[i + 1] = len(ids)
            axes += rule_axes
            axis_start[i + 1] = len(axes)
        big = np.finfo(np.float64).max
        arrays = {
            "box_rule": ("int32_t[]", np.asarray(bundle.boxes.rule, np.int32)),
            "flags": ("uint8_t[]", flags if n_rules else np.zeros(1, np.uint8)),
            "duration": ("double[]", duration),
            "clear_delay": ("double[]", clear_delay),
            "severity": ("uint8_t[]", severity),
            "ids": ("uint8_t[]", np.frombuffer(bytes(ids), np.uint8)),
            "id_start": ("int32_t[]", id_start),
            "axis_start": ("int32_t[]", axis_start),
            "axes": ("int32_t[]", np.array(axes or [0], np.int32)),
            "param_channel": ("int32_t[]", param_channel),
            "channel_param": ("int32_t[]", channel_param if channel_param.size
                              else np.full(1, -1, np.int32)),
            "valid_lo": ("double[]", np.array([max(p.range_lo, -big) for p in params] or [0.0])),
            "valid_hi": ("double[]", np.array([min(p.range_hi, big) for p in params] or [0.0])),
            "max_age": ("double[]", np.array(
                [np.inf if p.max_age_s is None else float(p.max_age_s) for p in params]
                or [0.0])),
            "discrete": ("uint8_t[]", np.array([1 if p.states else 0 for p in params] or [0],
                                                np.uint8)),
        }
        for name, (ctype, arr) in arrays.items():
            arr = np.ascontiguousarray(arr)
            ptr = ffi.from_buffer(ctype, arr)
            self._keep.append((arr, ptr))
            setattr(r, name, ptr)
        r.n_channels = int(channel_param.size)
        self._keep.append((engine,))  # the indexes r.strict and r.hold point into
        status = lib.rl_validate(r)
        if status != lib.RL_DONE:
            raise ValueError(f"the fast lane refused the bundle's tables ({status})")
        self.n_params, self.n_rules, self.n_boxes = n_params, n_rules, int(r.n_boxes)


@dataclass(frozen=True)
class LaneEvent:
    """An event taken in C (``RL_EVENT_*``), copied out before the next call reuses the
    buffers."""

    kind: int
    rule: int
    box: int
    t: float
    x: bytes  # the point the frame made, n_params doubles (raises and clears)


class LaneStats:
    """The lane decoder's counters as the daemon reads them (``DECODER_COUNTS`` names)."""

    __slots__ = (*_STAT_FIELDS, "duplicates", "packets_missing", "seq_restarts")

    def __init__(self) -> None:
        for name in self.__slots__:
            setattr(self, name, 0)


class LaneDecoder:
    """The lane's decoder as one peer's ``Decoder``: frames past the duplicate and
    sequence checks (the lane counts those), for when the daemon evaluates in Python."""

    def __init__(self, lane: Lane) -> None:
        self._lane = lane
        self._seen = (0,) * (len(_STAT_FIELDS) + len(_LANE_COUNTS))
        self._stats = LaneStats()

    @property
    def stats(self) -> LaneStats:
        """Counters so far (the C ones are uint32 and wrap: added up by difference)."""
        c = self._lane.c
        d = c.decoder.stats
        now = (d.frames, d.crc_errors, d.length_errors, d.cobs_errors, d.version_errors,
               d.type_errors, d.oversize, d.bytes_discarded, c.duplicates, c.missing,
               c.restarts)
        if now != self._seen:
            wire.add_wrapped(self._stats, LaneStats.__slots__, now, self._seen)
            self._seen = now
        return self._stats

    @property
    def pending(self) -> int:
        return int(self._lane.c.decoder.len)

    def feed(self, data: bytes | bytearray | memoryview) -> list[wire.Frame]:
        """Every frame ``data`` completes, none evaluated in C."""
        frames: list[wire.Frame] = []
        lane = self._lane
        pos, n = 0, len(data)
        while True:
            status, used = lane.run(data, pos, fast=False)
            pos += used
            if status != lane.SLOW:
                return frames
            frames.append(lane.slow_frame())
            if pos >= n:
                return frames

    def reset(self) -> None:
        lane = self._lane
        lane.lib.rulec_decoder_reset(lane.ffi.addressof(lane.c, "decoder"))


class Lane:
    """One daemon's lane: the C state, the current bundle's tables, the output buffers."""

    def __init__(self, engine: Engine, channels: dict[int, str], module: ModuleType) -> None:
        self.module = module
        self.ffi, self.lib = module.ffi, module.lib
        self._fault_codes = fault_codes(module.lib)  # the stream's words -> RL_FAULT_*
        self.SLOW: int = self.lib.RL_SLOW
        self.DONE: int = self.lib.RL_DONE
        c = self.c = self.ffi.new("rl_lane *")
        self._consumed = self.ffi.new("int32_t *")
        self._out = self.ffi.new("uint8_t[]", EVENTS_CAP * self.lib.RULEC_MAX_WIRE_FRAME)
        self._reply_start = self.ffi.new("int32_t[]", EVENTS_CAP + 1)
        self._events = self.ffi.new("rl_event[]", EVENTS_CAP)
        c.out, c.out_cap = self._out, len(self._out)
        c.reply_start, c.events, c.events_cap = self._reply_start, self._events, EVENTS_CAP
        self._out_view = self.ffi.buffer(self._out)
        self.served = self.ffi.new("rl_served *")
        self._read_buf = self.ffi.new("uint8_t[]", 1)
        self.SERVE_IDLE: int = self.lib.RL_SERVE_IDLE
        self.SERVE_RAN: int = self.lib.RL_SERVE_RAN
        self.SERVE_READ: int = self.lib.RL_SERVE_READ
        self.SERVE_LINK: int = self.lib.RL_SERVE_LINK
        self.rules: LaneRules | None = None
        self.taken = 0  # frames evaluated in C so far
        self.use(engine, channels)

    @classmethod
    def for_engine(cls, engine: Engine, channels: dict[int, str]) -> Lane | None:
        """A lane for this engine, or None when it cannot run (then Python does it all)."""
        module = lane_module()
        if module is None or not supports(engine):
            return None
        return cls(engine, channels, module)

    def use(self, engine: Engine, channels: dict[int, str]) -> None:
        """Point the lane at an engine (at start and after a reload); sync follows."""
        ffi, c = self.ffi, self.c
        rules = LaneRules(engine, channels, self.module)
        stream = engine.stream
        n_params, n_rules, n_boxes = rules.n_params, rules.n_rules, rules.n_boxes
        self._state: dict[str, np.ndarray] = {
            "rule_state": np.zeros(max(n_rules, 1), np.uint8),
            "since_t": np.zeros(max(n_rules, 1)),
            "false_t": np.zeros(max(n_rules, 1)),
            "tracked": np.zeros(max(n_rules, 1), np.int32),
            "fault": np.zeros(max(n_params, 1), np.uint8),
            "x": np.zeros(max(n_params, 1)),
            "fresh": np.zeros(max(n_params, 1), np.uint8),
            "code": np.zeros(max(n_params, 1), np.uint8),
            "match": np.zeros(max(n_boxes, 1), np.int32),
            "hold_match": np.zeros(max(n_boxes, 1), np.int32),
            "mark": np.zeros(max(n_rules, 1), np.uint8),
            "first_box": np.zeros(max(n_rules, 1), np.int32),
            "cand": np.zeros(max(n_rules, 1), np.int32),
            "event_x": np.zeros(max(EVENTS_CAP * n_params, 1)),
        }
        types = {np.dtype(np.uint8): "uint8_t[]", np.dtype(np.int32): "int32_t[]",
                 np.dtype(np.float64): "double[]"}
        self._ptrs = [ffi.from_buffer("double[]", stream.last_value),
                      ffi.from_buffer("double[]", stream.last_time)]
        c.last_value, c.last_time = self._ptrs
        for name, arr in self._state.items():
            ptr = ffi.from_buffer(types[arr.dtype], arr)
            self._ptrs.append(ptr)
            setattr(c, name, ptr)
        self._rule_state = self._state["rule_state"]
        self._event_x = memoryview(self._state["event_x"].data).cast("B")
        c.rules = rules.rules
        c.n_tracked = 0
        self.rules = rules  # the old tables go only once nothing points at them
        self.engine = engine
        self.stream = stream
        self.n_params = n_params

    def new_decoder(self) -> LaneDecoder:
        """A fresh decoder and sequence state for a new connection."""
        c = self.c
        status = self.lib.rulec_decoder_init(self.ffi.addressof(c, "decoder"), 0)
        assert status == 0
        c.has_last = 0
        c.duplicates = c.missing = c.restarts = 0
        return LaneDecoder(self)

    def sync(self, link_stale: set[str], last_t: float | None, t_offset: float,
             max_jump: float = 0.0) -> None:
        """Take the stream's state as it stands (after Python stepped it) and the daemon's
        clock; ``link_stale`` are the parameters a link loss invalidated."""
        stream, c, lib, st = self.stream, self.c, self.lib, self._state
        state = st["rule_state"]
        state[:] = 0
        since = stream.since
        if since:
            timing = [r for r in since if r not in stream.raised]
            state[timing] = lib.RL_TIMING
            st["since_t"][timing] = [since[r] for r in timing]
        raised = list(stream.raised)
        if raised:
            state[raised] = lib.RL_RAISED
            acked = [r for r in stream.acked if r in stream.raised]
            state[acked] |= lib.RL_ACKED
            waiting = [r for r in stream.false_since if r in stream.raised]
            state[waiting] |= lib.RL_WAITING
            st["false_t"][waiting] = [stream.false_since[r] for r in waiting]
        tracked = sorted(set(raised) | set(since))
        st["tracked"][: len(tracked)] = tracked
        c.n_tracked = len(tracked)
        fault = st["fault"]
        fault[:] = 0
        index = stream.bundle.param_index
        for name, reason in stream.faults.items():
            fault[index[name]] = self._fault_codes[reason]
        for name in link_stale:
            if name in index:
                fault[index[name]] |= lib.RL_FAULT_LINK
        c.has_last_t = int(last_t is not None)
        c.last_t = last_t if last_t is not None else 0.0
        c.t_offset = t_offset
        c.max_jump = max_jump

    def run(self, data: bytes | bytearray | memoryview, pos: int,
            fast: bool = True) -> tuple[int, int]:
        """One C call on ``data[pos:]``: (status, bytes taken)."""
        n = len(data) - pos
        src = self.ffi.from_buffer("uint8_t[]", data) + pos if n else self.ffi.NULL
        status = self.lib.rl_run(self.c, src, n, int(fast), self._consumed)
        if status < 0:
            raise RuntimeError(f"the fast lane failed with status {status}")
        self.taken += self.c.n_fast
        return status, int(self._consumed[0])

    def serve(self, fd: int, watch_fd: int, timeout_s: float, spin_s: float,
              max_frames: int, min_wire: int) -> int:
        """Wait for ``fd``, read it, run what came and write the replies, in one C call
        (``csrc/lane_io.c``): an ``RL_SERVE_*`` status, the details in ``served``."""
        lib, got = self.lib, self.served
        timeout_ms = max(0, min(int(math.ceil(timeout_s * 1000.0)), 2**31 - 1))
        status = lib.rl_serve(self.c, fd, watch_fd, timeout_ms, spin_s, max_frames, min_wire,
                              self._read_buf, len(self._read_buf), got)
        if status < 0 or (status == lib.RL_SERVE_RAN and got.run_status < 0):
            raise RuntimeError(f"the fast lane failed with status {min(status, got.run_status)}")
        if status == lib.RL_SERVE_RAN:
            self.taken += self.c.n_fast
        if not _SAME_CLOCK and status in (lib.RL_SERVE_RAN, lib.RL_SERVE_READ):
            got.t_read = got.t_ran = got.t_done = time.perf_counter()  # no finer times here
        return int(status)

    def read_buffer(self, size: int) -> None:
        """Room for one read of ``size`` bytes (the link's largest read) for ``serve``."""
        if len(self._read_buf) != size:
            self._read_buf = self.ffi.new("uint8_t[]", max(size, 1))

    def bytes_read(self) -> bytes:
        """What the last ``serve`` read."""
        return bytes(self.ffi.buffer(self._read_buf, self.served.n_read))

    def write(self, fd: int) -> int:
        """The last call's replies to ``fd`` with one ``write(2)``: the bytes it took."""
        return int(self.lib.rl_write(self.c, fd))

    def slow_frame(self) -> wire.Frame:
        """The frame the last call handed back."""
        c = self.c
        payload = bytes(self.ffi.buffer(c.slow_payload, c.slow_len))
        return wire.Frame(wire.MsgType(c.slow_type), int(c.slow_seq), int(c.slow_ts), payload)

    def replies(self) -> tuple[int, list[tuple[None, bytes, wire.MsgType]]]:
        """The last call's ADVISORY frames: how many ``write`` wrote whole, and
        the rest as the transmitter's batch entries (a frame written in part: its tail)."""
        out, starts, kind = self._out_view, self._reply_start, wire.MsgType.ADVISORY
        written = self.c.written
        done, rest = 0, []
        for i in range(self.c.n_events):
            start, end = starts[i], starts[i + 1]
            if end == start:
                continue  # a silent event
            if end <= written:
                done += 1
            else:
                rest.append((None, out[max(start, written):end], kind))
        return done, rest

    def events(self) -> list[LaneEvent]:
        """The last call's events, in order (their frames: ``replies``)."""
        width, x = 8 * self.n_params, self._event_x
        found = []
        for i in range(self.c.n_events):
            ev = self._events[i]
            found.append(LaneEvent(ev.kind, ev.rule, ev.box, ev.t,
                                   bytes(x[i * width:(i + 1) * width])))
        return found

    def take_events(self, events: list[LaneEvent]) -> list[Event]:
        """Bring the stream up to the C side's changes; the raises and clears as the
        stream's own events."""
        stream, lib = self.stream, self.lib
        taken = []
        for ev in events:
            kind, r, t = ev.kind, ev.rule, ev.t
            if kind == lib.RL_EVENT_RAISE:
                taken.append(stream.raise_now(t, r, np.frombuffer(ev.x, np.float64), [ev.box]))
            elif kind == lib.RL_EVENT_CLEAR:
                taken.append(stream.clear_now(t, r, np.frombuffer(ev.x, np.float64)))
            elif kind == lib.RL_EVENT_TIMER_START:
                stream.since[r] = t
            elif kind == lib.RL_EVENT_TIMER_STOP:
                stream.since.pop(r, None)
            elif kind == lib.RL_EVENT_WAIT:
                stream.false_since[r] = t
            else:
                stream.false_since.pop(r, None)
        return taken
