"""`rulec-onboard`: the onboard daemon.  Telemetry in, advisories out, hot reload.

One thread runs the loop: read a bounded chunk from the link, decode frames (or text
samples), step the engine once per sample, write ADVISORY / SENSOR_FAULT frames back,
log JSON lines; between chunks it does the housekeeping (heartbeat, summary, staleness
while silent, bundle reload, signals).  A reload is validated on a worker thread and
swapped in between two samples.  See docs/onboard.md for formats and semantics.

The parts: this module (the ``Daemon``: the loop, per-sample evaluation, link state and
housekeeping), ``input.py`` (the link and the frame readers the configuration
names), ``tx.py`` (the frames written back), ``log.py`` (JSON lines,
counters, the summary line), ``config.py`` (options) and ``command.py``
(the command line; ``main`` here hands over to it).
"""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable
from importlib import metadata
from typing import Any

from rulec.firmware_bridge import protocol as wire
from rulec.firmware_bridge.links import (
    Backoff,
    Chunk,
    LinkEvent,
    LinkSupervisor,
    TextSamples,
    UdpListenLink,
)
from rulec.runtime.daemon import last_good
from rulec.runtime.daemon.config import OnboardConfig
from rulec.runtime.daemon.input import (
    DECODER_COUNTS,
    Peer,
    channel_map,
    decoder_factory,
    make_link,
)
from rulec.runtime.daemon.lane import Lane, supports
from rulec.runtime.daemon.log import Counters, EventLog, summary_record
from rulec.runtime.daemon.notify import Notifier
from rulec.runtime.daemon.reload import (
    BundleReloader,
    ReloadOutcome,
    adopt,
    engine_loader,
    file_signature,
)
from rulec.runtime.daemon.tx import Transmitter, frame_us
from rulec.runtime.engine.engine import Engine, Event
from rulec.runtime.errors import RulecError
from rulec.runtime.vocabulary import FaultReason

__all__ = ["Counters", "Daemon", "EventLog", "package_version"]

EXIT_OK = 0
MAX_INPUT_ERRORS_LOGGED = 100
SEQ_GAP_LIMIT = 1 << 16  # a larger sequence jump is a sender restart, not lost frames
MIN_WIRE_FRAME = wire.MIN_FRAME + 2  # COBS adds at least one byte, then the delimiter

_ADVISORY_KEYS = {"raise": "advisories.raise", "clear": "advisories.clear"}


class Daemon:
    """The onboard loop; ``run()`` returns the exit status."""

    def __init__(
        self,
        config: OnboardConfig,
        log: EventLog,
        stdin_fd: int | None = None,
        loader: Callable[[Any], Engine] | None = None,
        fast_lane: bool | None = None,
    ) -> None:
        self.config = config
        self.log = log
        self.counters = Counters()
        load = loader or engine_loader(config.trust)
        seen = file_signature(config.bundle)  # before reading: a later write is noticed
        engine, self.fallback = last_good.load_or_kept(config.bundle, config.last_good, load)
        # self.fallback: why the start came from the last good bundle (None: it did not)
        self.reloader = BundleReloader(config.bundle, engine, config.reload_poll_s,
                                       loader=load, seen=seen)
        self.engine = self.reloader.current
        self.notifier = Notifier()
        self.link = make_link(config, stdin_fd)
        self.binary = config.input_kind != "stdin"
        self.supervisor = LinkSupervisor(
            self.link, Backoff(config.reconnect_min_s, config.reconnect_max_s)
        )
        self.text = (
            TextSamples(config.stdin or "auto", self._known, config.max_buffer_bytes,
                        value=self._value_of)
            if not self.binary
            else None
        )
        self._channels = channel_map(self.engine)
        self.tx = Transmitter(self.supervisor, self.counters, log, binary=self.binary,
                              datagrams=isinstance(self.link, UdpListenLink))
        self.tx.use_channels(self._channels)
        # bound once: the per-frame path calls them as it called its own methods
        self._send = self.tx.send
        self._send_advisory = self.tx.send_advisory
        self._tx_write = self.tx.write
        self._new_decoder = decoder_factory(config)
        self._cobs = config.input_format == "rulec"  # a 0x00 ends a frame (and a datagram)
        if fast_lane is None:
            fast_lane = os.environ.get("RULEC_FAST_LANE", "1") != "0"
        # the lane has no local clock to hold frame times to: with a skew bound, Python
        # judges every frame
        fast_lane = fast_lane and not config.max_clock_skew_s
        # the C lane takes the common frame of a stream link (runtime/daemon/lane.py)
        self._lane = (Lane.for_engine(self.engine, self._channels)
                      if fast_lane and self._cobs and self.binary
                      and not isinstance(self.link, UdpListenLink) else None)
        if self._lane is not None:
            self._lane.read_buffer(self.link.max_read)
        self._lane_dirty = True  # the stream or the clock moved in Python: sync first
        self._lane_peer: Peer | None = None
        self._lane_unread = False  # the last lane call's events are not in the stream yet
        self._peers: dict[str | None, Peer] = {}
        self._active: dict[str, Event] = {}
        self._stale: set[str] = set()  # parameters invalidated by a link loss
        self._seen: set[str] = set()  # parameters that had a sample
        self._lat_batch: list[float] | None = None  # eval times of a chunk's samples
        self._t_offset = 0.0
        self._clock_faults: list[float] = []  # raw times of the clock-fault frames in a row
        self._new_session = False  # the link came up again: its first frame may rebase
        self._last_t: float | None = None  # engine time of the last step
        self._sample_t: float | None = None  # engine time of the last real sample
        self._sample_mono = 0.0
        self._started = time.monotonic()
        self._next_heartbeat = self._started
        self._next_summary = self._started + (config.summary_s or math.inf)
        self._last_summary = self._started
        self._next_tick = 0.0
        self._input_errors = 0
        self._stop_reason: str | None = None
        self._reopen_log = False
        self.link_state = "starting"

    # ------------------------------------------------------------ control

    def request_stop(self, reason: str = "stop requested") -> None:
        """Ask the loop to finish (signal-handler safe: sets one attribute)."""
        self._stop_reason = reason

    def request_reload(self, trigger: str = "SIGHUP") -> None:
        self.reloader.request(trigger)
        self._reopen_log = True

    def run(self, stop: threading.Event | None = None) -> int:
        self._log_start()
        bundle_id = self.engine.bundle.meta.get("bundle_id")
        self.notifier.ready(f"serving bundle {bundle_id} on {self.config.input_text}")
        try:
            while self._stop_reason is None:
                if stop is not None and stop.is_set():
                    self._stop_reason = "stop event"
                    break
                if not self._serve():
                    self._read_chunks(self._read())
                self._link_events()
                self._housekeeping(time.monotonic())
        finally:
            self.notifier.stopping(f"stopping: {self._stop_reason}")
            self._shutdown()
        return EXIT_OK

    # ------------------------------------------------------------ input

    def _read(self) -> list[Chunk]:
        """What the link has; with ``busy_poll_s``, first polled without sleeping for
        that long, so that the core never idles between frames (docs/onboard.md)."""
        spin = self.config.busy_poll_s
        if spin:
            read, clock = self.supervisor.read, time.perf_counter
            deadline = clock() + spin
            while self._stop_reason is None:
                chunks = read(0.0)
                if chunks or clock() >= deadline:
                    return chunks
        return self.supervisor.read(self.config.read_timeout_s)

    def _read_chunks(self, chunks: list[Chunk]) -> None:
        self._link_events()  # a link coming up is logged before what it brought
        for chunk in chunks:
            self._on_chunk(chunk, time.perf_counter())

    def _serve(self) -> bool:
        """Wait, read, evaluate and answer in one C call (``Lane.serve``) when the link
        lets the lane read it; False: read in Python.  What the call does not finish
        (a frame for Python, the overload bound, anything unusual on the link) is
        finished here as a chunk read in Python would be."""
        lane = self._lane
        if lane is None:
            return False
        fds = self.supervisor.read_fds()
        if fds is None:
            return False
        self._peer(None)  # the lane's decoder, before the lane reads
        if self._lane_dirty:
            self._lane_sync()
        config, tx, c = self.config, self.tx, lane.c
        c.tx_seq = tx.seq
        status = lane.serve(fds[0], fds[1], config.read_timeout_s, config.busy_poll_s,
                            config.max_frames_per_read, MIN_WIRE_FRAME)
        tx.seq = c.tx_seq
        if status == lane.SERVE_IDLE:
            return True
        if status == lane.SERVE_LINK:
            self._read_chunks(self.supervisor.read(0.0))
            return True
        self.supervisor.note_read(lane.served.n_read)
        self._on_chunk(Chunk(lane.bytes_read()), lane.served.t_read,
                       served=status == lane.SERVE_RAN)
        return True

    def _known(self, name: str) -> bool:
        return self.engine.knows(name)

    def _value_of(self, name: str, text: str) -> float:
        """A text value of stdin input: a discrete parameter's state name."""
        return self.engine.value_of(name, text)

    def _on_chunk(self, chunk: Chunk, received: float, served: bool = False) -> None:
        """One read: evaluate all of it, write its replies (one write per peer), then log.

        Every sample's e2e ends when the chunk's replies are written; the JSON lines
        are encoded and written after that, once per chunk.  ``served``: the lane read
        the chunk itself and its first call has run (and written) already.
        """
        self.tx.batch, self._lat_batch = [], []
        self.log.hold()
        sent = None
        try:
            self._chunk_samples(chunk, received, served)
            lane = self._lane
            if served and lane is not None and lane.served.run_status == lane.DONE:
                sent = lane.served.t_done  # C wrote every reply: the e2e ends there
        finally:
            self._end_chunk(received, sent)

    def _end_chunk(self, received: float, sent: float | None = None) -> None:
        """Write what the chunk left to write and take its latencies: ``sent`` is when
        C wrote its replies, when it did (all of them: nothing is left in the batch)."""
        tx = self.tx
        batch, tx.batch = tx.batch, None
        evals, self._lat_batch = self._lat_batch, None
        if batch:
            self._tx_write(batch)
            sent = None
        if evals:
            e2e_us = ((time.perf_counter() if sent is None else sent) - received) * 1e6
            for eval_us in evals:
                self.counters.latency(eval_us, e2e_us)
        if self._lane_unread:
            self._lane_catch_up()
        peer, self._lane_peer = self._lane_peer, None
        if peer is not None:
            self._decoder_counts(peer)
        self.log.release()

    def _chunk_samples(self, chunk: Chunk, received: float, served: bool = False) -> None:
        self.counters.add("bytes_in", len(chunk.data))
        if self.text is not None:
            self._text_samples(self.text.feed(chunk.data), received)
            return
        peer = self._peer(chunk.peer)
        limit = self.config.max_frames_per_read
        if served or (peer.checked and (not limit or (len(chunk.data) + peer.decoder.pending)
                                        // MIN_WIRE_FRAME <= limit)):
            self._lane_chunk(chunk.data, peer, received, served)
            return
        frames = peer.decoder.feed(chunk.data)
        if self._cobs and chunk.peer is not None and not chunk.data.endswith(b"\x00"):
            frames += peer.decoder.feed(b"\x00")  # a datagram ends its last frame
        self._decoder_counts(peer)
        if not peer.checked:  # duplicates never count towards the overload bound
            frames = [frame for frame in frames if self._admit(frame, peer)]
        # overload: only the newest are evaluated
        carry: dict[str, float] | None = {} if limit and len(frames) > limit else None
        for i, frame in enumerate(frames):
            fold = carry is not None and i < len(frames) - limit
            self._evaluate_frame(frame, chunk.peer, received, fold, carry)

    def _text_samples(self, samples: list[tuple[float, dict[str, float]]], received: float) -> None:
        for t, values in samples:
            known = {k: v for k, v in values.items() if self.engine.knows(k)}
            self.counters.add("unknown_channel", len(values) - len(known))
            self._sample(t, known, None, received)
        self._input_errors_out()

    def _peer(self, key: str | None) -> Peer:
        peer = self._peers.get(key)
        if peer is None:
            if len(self._peers) >= 64:
                old_key = next(iter(self._peers))
                self._decoder_counts(self._peers.pop(old_key))
            if key is None and self._lane is not None:
                peer = self._peers[key] = Peer(self._lane.new_decoder(), checked=True)
            else:
                peer = self._peers[key] = Peer(self._new_decoder())
        return peer

    # ------------------------------------------------------------ the fast lane

    def _lane_chunk(self, data: bytes, peer: Peer, received: float,
                    served: bool = False) -> None:
        """A chunk through the C lane; the frames it hands back go the Python way.

        Before the replies are written only they are taken from C; the events behind
        them reach the stream and the log after the write (``_end_chunk``), unless a
        frame handed back needs the stream up to date first.  ``served``: the lane read
        the chunk itself and its first call has run (and written) already.
        """
        lane = self._lane
        assert lane is not None
        tx, c = self.tx, lane.c
        batch = tx.batch
        assert batch is not None
        pos = 0
        fd = self.supervisor.write_fd(None)
        while True:
            if served:
                got = lane.served
                status, used, started, done = got.run_status, got.consumed, got.t_read, got.t_ran
            else:
                if self._lane_dirty:
                    self._lane_sync()
                c.tx_seq = tx.seq
                started = time.perf_counter()
                status, used = lane.run(data, pos)
                done = time.perf_counter()
                tx.seq = c.tx_seq
            pos += used
            n = c.n_fast
            if n:
                if c.n_events:
                    if fd is not None and not batch and status == lane.DONE and not served:
                        lane.write(fd)  # one write(2) from C; earlier replies go first
                    written, rest = lane.replies()
                    if written:
                        self.counters.add("tx.advisory", written)
                    batch += rest
                    self._lane_unread = True
                self._lane_frames(c.last_t, n, (done - started) * 1e6 / n)
            served = False
            if status != lane.SLOW:
                break
            if self._lane_unread:  # the stream must see them before this frame
                self._lane_catch_up()
            self._frame(lane.slow_frame(), peer, None, received)  # marks the lane dirty
        self._lane_peer = peer  # its counters are read once the replies are out

    def _lane_frames(self, t: float, n: int, eval_us: float) -> None:
        """The clock and counters of n frames the lane took, the last at engine time t."""
        self._last_t = self._sample_t = self.engine.stream.t = t
        self._sample_mono = time.monotonic()
        self._clock_faults = []  # a good frame ends a run of clock faults
        self._new_session = False
        counters = self.counters
        counters.add("frames_ok", n)
        counters.add("samples", n)
        if self._lat_batch is not None:
            self._lat_batch += [eval_us] * n

    def _lane_catch_up(self) -> None:
        """The stream takes the lane's raises and clears; they are counted and logged."""
        lane = self._lane
        assert lane is not None
        self._lane_unread = False
        for ev in lane.take_events(lane.events()):
            self._note_advisory(ev)

    def _lane_sync(self) -> None:
        lane = self._lane
        assert lane is not None
        lane.sync(self._stale, self._last_t, self._t_offset, self.config.max_time_jump_s)
        self._lane_dirty = False

    def _decoder_counts(self, peer: Peer) -> None:
        stats = peer.decoder.stats
        if type(stats) is wire.DecoderStats:  # counters only grow: equal sums, no change
            seen, dropped = peer.seen, stats.frames_dropped
            if seen.get("frames_dropped") == dropped and (
                seen.get("bytes_discarded", 0) == stats.bytes_discarded
            ):
                return
            seen["frames_dropped"] = dropped
        for name, key in DECODER_COUNTS:
            now = int(getattr(stats, name, 0))
            delta = now - peer.seen.get(name, 0)
            if delta:
                peer.seen[name] = now
                self.counters.add(key, delta)

    def _frame(self, frame: wire.Frame, peer: Peer, sender: str | None, received: float) -> None:
        """One frame from a peer: sequence checks (unless its decoder made them), then
        evaluation."""
        if peer.checked or self._admit(frame, peer):
            self._evaluate_frame(frame, sender, received)

    def _admit(self, frame: wire.Frame, peer: Peer) -> bool:
        """Drop an exact duplicate of the peer's last frame; count sequence gaps."""
        key = (int(frame.msg_type), frame.seq, frame.timestamp_us, frame.payload)
        if key == peer.last_frame:
            self.counters.add("dropped.duplicate")
            return False
        peer.last_frame = key
        if peer.last_seq is not None:
            gap = wire.seq_gap(peer.last_seq, frame.seq)
            if gap < SEQ_GAP_LIMIT:
                self.counters.add("frames_missing", gap)
            else:  # far out of order: the sender restarted its sequence
                self.counters.add("seq_restarts")
        peer.last_seq = frame.seq
        return True

    def _evaluate_frame(self, frame: wire.Frame, sender: str | None, received: float,
                        fold: bool = False, carry: dict[str, float] | None = None) -> None:
        if frame.msg_type != wire.MsgType.TELEMETRY:
            self.counters.add(f"ignored.{frame.msg_type.name.lower()}")
            return
        try:
            channels = wire.decode_telemetry(frame.payload)
        except (wire.ProtocolError, ValueError):
            self.counters.add("dropped.payload")
            return
        values: dict[str, float] = {}
        for channel, value in channels.items():
            name = self._channels.get(channel)
            if name is None:
                self.counters.add("unknown_channel")
            else:
                values[name] = value
        if carry is not None:  # overload: a folded frame's values ride on the next one
            if fold:
                carry.update(values)
                self.counters.add("dropped.overload")
                return
            values = {**carry, **values}
            carry.clear()
        t = self._frame_time(frame.timestamp_us)
        if t is None:
            return  # a clock fault: counted and logged, not evaluated
        self.counters.add("frames_ok")
        self._sample(t, values, sender, received)

    def _frame_time(self, timestamp_us: int) -> float | None:
        """Engine time of a frame, or None when its timestamp is a clock fault: earlier
        than the last sample, later than it by more than max_time_jump_s, or ahead of
        the local clock by more than max_clock_skew_s.  A fault frame is counted and
        logged, never evaluated; ``clock_rebase_frames`` of them in a row that move
        forward among themselves mean the firmware clock restarted, and engine time
        continues from where it was."""
        raw = timestamp_us / 1e6
        t = raw + self._t_offset
        last, sample = self._last_t, self._sample_t
        if last is None:
            return t
        if self._new_session:
            # the first frame of a new link session: a firmware clock that starts over
            # is no fault; engine time continues from where it was
            self._new_session = False
            if t < (sample if sample is not None else last):  # earlier than any sample
                self._t_offset = last - raw
                self._lane_dirty = True
                self.log.write({"event": "clock", "state": "rebased", "frame_t": raw,
                                "engine_t": last, "offset_s": self._t_offset,
                                "reason": "new link session"})
                return last
        why = self._clock_fault(t, sample if sample is not None else last)
        if why is None:
            self._clock_faults = []
            return max(t, last)  # the silence clock may have run a little ahead
        run = self._clock_faults
        run.append(raw)
        forward = all(b > a for a, b in zip(run, run[1:], strict=False))
        if not forward:
            del run[:-1]
        if len(run) < self.config.clock_rebase_frames:
            self.counters.add("dropped.clock")
            self.log.write({"event": "clock", "state": "fault", "reason": why,
                            "frame_t": raw, "engine_t": last})
            return None
        self._clock_faults = []
        self._t_offset = last - raw
        self._lane_dirty = True
        self.log.write({"event": "clock", "state": "rebased", "frame_t": raw,
                        "engine_t": last, "offset_s": self._t_offset})
        return last

    def _clock_fault(self, t: float, since: float) -> str | None:
        """Why a frame's time cannot be believed, or None."""
        c = self.config
        if not math.isfinite(t) or t < since:
            return "time goes back"
        if c.max_time_jump_s and t - since > c.max_time_jump_s:
            return f"time jumps ahead by {t - since:.6g} s (max_time_jump_s {c.max_time_jump_s:g})"
        if c.max_clock_skew_s and self._sample_mono is not None and (
                t - since) - (time.monotonic() - self._sample_mono) > c.max_clock_skew_s:
            return f"time runs ahead of the local clock (max_clock_skew_s {c.max_clock_skew_s:g})"
        return None

    def _sample(
        self, t: float, values: dict[str, float], sender: str | None, received: float
    ) -> None:
        started = time.perf_counter()
        self._lane_dirty = True  # even a refused sample may have moved the stream
        try:
            events = self.engine.step(t, values)
        except RulecError as exc:  # an unknown name or a non-number: drop the sample
            self.counters.add("dropped.sample")
            self._input_error(f"sample at t={t:g} refused: {exc}")
            return
        except Exception as exc:  # noqa: BLE001 - one bad sample must not stop the vehicle's monitor
            self.counters.add("dropped.sample")
            self.log.write(
                {
                    "event": "error",
                    "level": "error",
                    "t": t,
                    "error": f"engine failed on a sample: {type(exc).__name__}: {exc}",
                }
            )
            return
        done = time.perf_counter()
        self._last_t = self._sample_t = t
        self._sample_mono = time.monotonic()
        self._seen.update(values)
        if self._stale:
            self._stale.difference_update(values)
        self.counters.add("samples")
        self._emit(events, sender)
        if self._lat_batch is not None:  # e2e ends when the chunk's replies are written
            self._lat_batch.append((done - started) * 1e6)
        else:
            self.counters.latency((done - started) * 1e6, (time.perf_counter() - received) * 1e6)

    def _input_error(self, what: str) -> None:
        self._input_errors += 1
        if self._input_errors <= MAX_INPUT_ERRORS_LOGGED:
            self.log.write({"event": "input_error", "error": what})

    def _input_errors_out(self) -> None:
        assert self.text is not None
        for error in self.text.errors:
            self.counters.add("dropped.text")
            self._input_error(error)
        self.text.errors.clear()

    # ------------------------------------------------------------ output

    def _emit(self, events: Iterable[Event], sender: str | None) -> None:
        for ev in events:
            if ev.rule is not None:
                self._note_advisory(ev)
                self._send_advisory(ev, sender)
                continue
            record = ev.to_json()
            name = next(iter(ev.values), None) if ev.event == "fault" else _cleared_name(ev)
            reason = self._fault_reason(ev, name)
            record["parameter"] = name
            if ev.event == "fault":
                record["reason"] = reason.words if reason is not None else None
                if name in self._stale:
                    record["advisory"] = f"Sensor fault: {name} stale (link down)"
                self.counters.add("faults")
            channel = self.tx.channel_of(name)
            if channel is not None:
                record["channel"] = channel
            self.log.write(record)
            if ev.event == "fault" and channel is not None and reason is not None:
                fault = wire.SensorFault(channel, reason)
                self._send(wire.MsgType.SENSOR_FAULT, wire.encode_sensor_fault(fault),
                           frame_us(ev.t), sender)

    def _note_advisory(self, ev: Event) -> None:
        assert ev.rule is not None
        if ev.event == "raise":
            self._active[ev.rule] = ev
        else:
            self._active.pop(ev.rule, None)
        self.counters.add(_ADVISORY_KEYS[ev.event])
        self.log.write(ev.to_json)  # built with the line, after the replies are out

    def _fault_reason(self, ev: Event, name: str | None) -> FaultReason | None:
        if ev.event != "fault" or name is None:
            return None
        if name in self._stale:
            return FaultReason.STALE
        return ev.reason

    def _sync_peer(self, peer: str | None) -> None:
        """A new peer learns the bundle, then every advisory raised now."""
        self.tx.send_bundle_info(self.engine.bundle, self._uptime_us(), peer)
        for ev in list(self._active.values()):
            self._send_advisory(ev, peer)

    def _uptime_us(self) -> int:
        return int((time.monotonic() - self._started) * 1e6)

    # ------------------------------------------------------------ link state

    def _link_events(self) -> None:
        for ev in self.supervisor.events():
            self._on_link_event(ev)

    def _on_link_event(self, ev: LinkEvent) -> None:
        self.log.write(ev.to_json())
        if ev.state in ("up", "listening"):
            self.link_state = ev.state
            if ev.state == "up":
                self._flush_decoder(None)
                self._sync_peer(ev.peer)
                self._new_session = True  # its firmware may count time from zero again
        elif ev.state in ("down", "retry"):
            if self.link_state != "down":
                self._flush_decoder(None)
                self._mark_stale(ev.error or "link down")
            self.link_state = "down"
        elif ev.state == "eof":
            if self.text is not None:
                self._text_samples(self.text.finish(), time.perf_counter())
            self.request_stop("end of input")

    def _flush_decoder(self, key: str | None) -> None:
        """Close a half-received frame (counted as a drop) so it never joins new bytes."""
        peer = self._peers.pop(key, None)
        if peer is None:
            return
        frames = peer.decoder.feed(b"\x00") if self._cobs else []
        if not self._cobs:  # a standard packet cannot be closed early: its octets are dropped
            peer.decoder.reset()
        self._decoder_counts(peer)
        for frame in frames:
            self._frame(frame, peer, key, time.perf_counter())

    def _mark_stale(self, why: str) -> None:
        """Link lost: every parameter that had a value is invalid until its next sample."""
        if self._last_t is None:
            return
        stream = self.engine.stream
        seen = self._seen | {p.name for p, when in zip(self.engine.bundle.parameters,
                                                       stream.last_time, strict=True)
                             if when > -math.inf}  # the lane's samples are there
        names = sorted(n for n in seen - self._stale if n in self.engine.bundle.param_index)
        if not names:
            return
        t = self._engine_now()
        self._lane_dirty = True
        self._stale.update(names)
        events = self.engine.step(t, {name: math.nan for name in names})
        self._last_t = t
        self.log.write({"event": "stale", "t": t, "reason": why, "parameters": names})
        self._emit(events, None)

    def _engine_now(self) -> float:
        """Engine time now: the last sample's time plus the monotonic time since it."""
        assert self._last_t is not None
        base = self._sample_t if self._sample_t is not None else self._last_t
        return max(self._last_t, base + (time.monotonic() - self._sample_mono))

    # ------------------------------------------------------------ housekeeping

    def _housekeeping(self, now: float) -> None:
        self.notifier.watchdog(now)
        if self._reopen_log:
            self._reopen_log = False
            self.log.reopen()
        outcome = self.reloader.poll(now)
        if outcome is not None:
            self._reloaded(outcome)
        if self.binary and self._last_t is not None and now >= self._next_tick:
            self._next_tick = now + self.config.stale_check_s
            if now - self._sample_mono >= self.config.stale_check_s:
                t = self._engine_now()
                self._lane_dirty = True
                self._emit(self.engine.tick(t), None)
                self._last_t = t
        if self.config.heartbeat_s and now >= self._next_heartbeat:
            self._next_heartbeat = now + self.config.heartbeat_s
            self._heartbeat(now)
        if now >= self._next_summary:
            self._next_summary = now + self.config.summary_s
            self._summary(now)

    def _heartbeat(self, now: float) -> None:
        total = self.counters.total
        beat = wire.Heartbeat(
            uptime_ms=int((now - self._started) * 1e3),
            frames_ok=total["frames_ok"],
            frames_dropped=sum(self.counters.dropped(total).values()),
            advisories=len(self._active),
        )
        self._send(wire.MsgType.HEARTBEAT, wire.encode_heartbeat(beat), self._uptime_us(), None)

    def _reloaded(self, outcome: ReloadOutcome) -> None:
        record = outcome.to_json(self.engine)
        if outcome.ok and outcome.engine is not None and outcome.changed:
            old, new = self.engine, outcome.engine
            adoption = adopt(old, new, self._last_t)
            self.engine = new
            self.reloader.accepted(new)
            self._channels = channel_map(new)
            self.tx.use_channels(self._channels)
            if self._lane is not None and not supports(new):
                self._lane = None  # the new rules need what only Python does
            if self._lane is not None:
                self._lane.use(new, self._channels)
            self._lane_dirty = True
            self._stale &= set(new.bundle.param_index)
            record["previous"] = old.bundle.meta.get("bundle_id")
            record["carried"] = adoption.to_json()
            self.log.write(record)
            self._emit(adoption.events, None)
            self.fallback = None
            self._keep_last_good()
        else:
            self.log.write(record)
            if not outcome.ok:
                print(
                    f"rulec-onboard: reload failed, keeping bundle "
                    f"{self.engine.bundle.meta.get('bundle_id')}: {outcome.error}",
                    file=sys.stderr,
                    flush=True,
                )
        self.tx.send_bundle_info(self.engine.bundle, self._uptime_us())

    def _summary(self, now: float) -> None:
        totals = {
            "reloads": self.reloader.attempts,
            "reload_failures": self.reloader.failures,
            "link_failures": self.supervisor.failures,
        }
        self.log.write(summary_record(self.counters, now - self._last_summary, self.link_state,
                                      self.engine.bundle.meta.get("bundle_id"), self._active,
                                      totals))
        self._last_summary = now

    # ------------------------------------------------------------ start / stop

    def _log_start(self) -> None:
        bundle = self.engine.bundle
        self.log.write(
            {
                "event": "start",
                "version": package_version(),
                "pid": os.getpid(),
                "input": self.config.input_text,
                "bundle": str(self.config.bundle),
                "bundle_id": bundle.meta.get("bundle_id"),
                "digest": bundle.digest,
                "rules": len(bundle.rules),
                "channels": {name: ch for ch, name in sorted(self._channels.items())},
                "signature": bundle.signature.to_json(),
            }
        )
        if self.fallback is not None:
            self.log.write({"event": "warning", "level": "warning", "bundle": self.config.last_good,
                            "warning": f"started from the last good bundle: {self.fallback}"})
            print(f"rulec-onboard: warning: the bundle was refused ({self.fallback}); "
                  f"serving the last good bundle {self.config.last_good}", file=sys.stderr)
        else:
            self._keep_last_good()
        if bundle.signature.warning():
            self.log.write(
                {"event": "warning", "level": "warning", "warning": bundle.signature.warning()}
            )
        if self.binary and not self._channels:
            self.log.write(
                {
                    "event": "warning",
                    "level": "warning",
                    "warning": "no parameter of the bundle has a telemetry channel: "
                    "frames cannot carry any value",
                }
            )

    def _keep_last_good(self) -> None:
        """Copy the bundle now serving to ``last_good`` (if configured)."""
        if self.config.last_good is None:
            return
        try:
            done = last_good.keep(self.config.last_good, self.config.bundle, self.engine)
        except OSError as exc:
            done = f"failed: {exc.strerror or exc}"
        self.log.write({"event": "last_good", "path": self.config.last_good, "state": done,
                        "digest": self.engine.bundle.digest})

    def _shutdown(self) -> None:
        now = time.monotonic()
        self._summary(now)
        self.supervisor.close()
        self.log.write(
            {
                "event": "stop",
                "reason": self._stop_reason or "error",
                "uptime_s": round(now - self._started, 3),
            }
        )


def _cleared_name(ev: Event) -> str | None:
    prefix, suffix = "Sensor ", " valid again"
    text = ev.advisory
    if text.startswith(prefix) and text.endswith(suffix):
        return text[len(prefix) : -len(suffix)]
    return None


def package_version() -> str:
    """The installed rulec version (the start line, ``--version``)."""
    try:
        return metadata.version("rulec")
    except metadata.PackageNotFoundError:
        return "unknown"

