"""`rulec-onboard`: the onboard daemon.  Telemetry in, advisories out, hot reload.

One thread runs the loop: read a bounded chunk from the link, decode frames (or text
samples), step the engine once per sample, write ADVISORY / SENSOR_FAULT frames back,
log JSON lines; between chunks it does the housekeeping (heartbeat, summary, staleness
while silent, bundle reload, signals).  A reload is validated on a worker thread and
swapped in between two samples.  See docs/onboard.md for formats and semantics.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any, Protocol

from rulec.firmware_bridge import protocol as wire
from rulec.firmware_bridge.ccsds import CcsdsDecoder
from rulec.firmware_bridge.links import (
    Backoff,
    Chunk,
    Link,
    LinkEvent,
    LinkSupervisor,
    SerialLink,
    StdinLink,
    TcpListenLink,
    TextSamples,
    UdpListenLink,
    parse_host_port,
)
from rulec.firmware_bridge.mavlink import MavlinkDecoder
from rulec.runtime.engine import Engine, Event
from rulec.runtime.errors import RulecError
from rulec.runtime.onboard_config import (
    OPTIONS,
    OnboardConfig,
    build_config,
    parse_input_mapping,
    read_config_file,
)
from rulec.runtime.onboard_log import Counters, EventLog, _percentiles
from rulec.runtime.reloader import BundleReloader, ReloadOutcome, adopt, engine_loader

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 70
CLOCK_JUMP_S = 1.0  # a frame timestamp this far back means the firmware clock restarted
MAX_INPUT_ERRORS_LOGGED = 100
SEQ_GAP_LIMIT = 1 << 16  # a larger sequence jump is a sender restart, not lost frames

_FAULT_REASONS = {
    "not a number": wire.FaultReason.NAN,
    "infinite": wire.FaultReason.INFINITE,
    "below range": wire.FaultReason.BELOW_RANGE,
    "above range": wire.FaultReason.ABOVE_RANGE,
    "stale": wire.FaultReason.STALE,
}
_DECODER_FIELDS = {
    "crc_errors": "crc",
    "length_errors": "length",
    "cobs_errors": "cobs",
    "version_errors": "version",
    "type_errors": "type",
    "oversize": "oversize",
    "header_errors": "header",  # the standard readers (firmware_bridge/ccsds.py, mavlink.py)
    "duplicates": "duplicate",
}
_TX_KEYS = {t: f"tx.{t.name.lower()}" for t in wire.MsgType}  # counter per frame written
_DECODER_COUNTS = (  # decoder counter -> daemon counter
    *((name, f"dropped.{reason}") for name, reason in _DECODER_FIELDS.items()),
    ("bytes_discarded", "bytes_discarded"),
    ("unmapped", "ignored.unmapped"),
    ("idle", "ignored.idle"),
    ("packets_missing", "frames_missing"),
    ("seq_restarts", "seq_restarts"),
)


# --------------------------------------------------------------------------- log

# --------------------------------------------------------------------------- daemon


class _Decoder(Protocol):
    """Bytes in, frames out: ``wire.FrameDecoder`` or a standard reader (CCSDS, MAVLink)."""

    stats: Any

    def feed(self, data: bytes | bytearray | memoryview) -> list[wire.Frame]: ...

    def reset(self) -> None: ...


@dataclass
class _Peer:
    """Per-sender frame decoding state (one for stream links, one per UDP sender)."""

    decoder: _Decoder
    seen: dict[str, int] = field(default_factory=dict)
    last_frame: tuple[int, int, int, bytes] | None = None
    last_seq: int | None = None


class Daemon:
    """The onboard loop; ``run()`` returns the exit status."""

    def __init__(
        self,
        config: OnboardConfig,
        log: EventLog,
        stdin_fd: int | None = None,
        loader: Callable[[Any], Engine] | None = None,
    ) -> None:
        self.config = config
        self.log = log
        self.counters = Counters()
        self.reloader = BundleReloader.start(
            config.bundle, poll_s=config.reload_poll_s, loader=loader or engine_loader(config.trust)
        )
        self.engine = self.reloader.current
        self.link = _make_link(config, stdin_fd)
        self.binary = config.input_kind != "stdin"
        self.supervisor = LinkSupervisor(
            self.link, Backoff(config.reconnect_min_s, config.reconnect_max_s)
        )
        self.text = (
            TextSamples(config.stdin or "auto", self._known, config.max_buffer_bytes)
            if not self.binary
            else None
        )
        self._channels = _channel_map(self.engine)
        self._name_channel = {name: ch for ch, name in self._channels.items()}
        self._advisory_heads: dict[tuple[str, str, str], bytes] = {}  # (event, severity, rule)
        self._new_decoder = _decoder_factory(config)
        self._cobs = config.input_format == "rulec"  # a 0x00 ends a frame (and a datagram)
        self._peers: dict[str | None, _Peer] = {}
        self._active: dict[str, Event] = {}
        self._stale: set[str] = set()  # parameters invalidated by a link loss
        self._seen: set[str] = set()  # parameters that had a sample
        self._tx_seq = 0
        self._tx_batch: list[tuple[str | None, bytes, wire.MsgType]] | None = None  # a chunk's
        self._lat_batch: list[float] | None = None  # replies, and its samples' eval times
        self._t_offset = 0.0
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
        try:
            while self._stop_reason is None:
                if stop is not None and stop.is_set():
                    self._stop_reason = "stop event"
                    break
                chunks = self.supervisor.read(self.config.read_timeout_s)
                self._link_events()
                for chunk in chunks:
                    self._on_chunk(chunk, time.perf_counter())
                self._link_events()
                self._housekeeping(time.monotonic())
        finally:
            self._shutdown()
        return EXIT_OK

    # ------------------------------------------------------------ input

    def _known(self, name: str) -> bool:
        return self.engine.knows(name)

    def _on_chunk(self, chunk: Chunk, received: float) -> None:
        """One read: evaluate all of it, write its replies (one write per peer), then log.

        Every sample's e2e ends when the chunk's replies are written; the JSON lines
        are encoded and written after that, once per chunk.
        """
        self._tx_batch, self._lat_batch = [], []
        self.log.hold()
        try:
            self._chunk_samples(chunk, received)
        finally:
            self._end_chunk(received)

    def _end_chunk(self, received: float) -> None:
        batch, self._tx_batch = self._tx_batch, None
        evals, self._lat_batch = self._lat_batch, None
        if batch:
            self._tx_write(batch)
        if evals:
            e2e_us = (time.perf_counter() - received) * 1e6
            for eval_us in evals:
                self.counters.latency(eval_us, e2e_us)
        self.log.release()

    def _chunk_samples(self, chunk: Chunk, received: float) -> None:
        self.counters.add("bytes_in", len(chunk.data))
        if self.text is not None:
            self._text_samples(self.text.feed(chunk.data), received)
            return
        peer = self._peer(chunk.peer)
        frames = peer.decoder.feed(chunk.data)
        if self._cobs and chunk.peer is not None and not chunk.data.endswith(b"\x00"):
            frames += peer.decoder.feed(b"\x00")  # a datagram ends its last frame
        self._decoder_counts(peer)
        limit = self.config.max_frames_per_read  # overload: only the newest are evaluated
        carry: dict[str, float] | None = {} if limit and len(frames) > limit else None
        for i, frame in enumerate(frames):
            fold = carry is not None and i < len(frames) - limit
            self._frame(frame, peer, chunk.peer, received, fold, carry)

    def _text_samples(self, samples: list[tuple[float, dict[str, float]]], received: float) -> None:
        for t, values in samples:
            known = {k: v for k, v in values.items() if self.engine.knows(k)}
            self.counters.add("unknown_channel", len(values) - len(known))
            self._sample(t, known, None, received)
        self._input_errors_out()

    def _peer(self, key: str | None) -> _Peer:
        peer = self._peers.get(key)
        if peer is None:
            if len(self._peers) >= 64:
                old_key = next(iter(self._peers))
                self._decoder_counts(self._peers.pop(old_key))
            peer = self._peers[key] = _Peer(self._new_decoder())
        return peer

    def _decoder_counts(self, peer: _Peer) -> None:
        stats = peer.decoder.stats
        if type(stats) is wire.DecoderStats:  # counters only grow: equal sums, no change
            seen, dropped = peer.seen, stats.frames_dropped
            if seen.get("frames_dropped") == dropped and (
                seen.get("bytes_discarded", 0) == stats.bytes_discarded
            ):
                return
            seen["frames_dropped"] = dropped
        for name, key in _DECODER_COUNTS:
            now = int(getattr(stats, name, 0))
            delta = now - peer.seen.get(name, 0)
            if delta:
                peer.seen[name] = now
                self.counters.add(key, delta)

    def _frame(self, frame: wire.Frame, peer: _Peer, sender: str | None, received: float,
               fold: bool = False, carry: dict[str, float] | None = None) -> None:
        key = (int(frame.msg_type), frame.seq, frame.timestamp_us, frame.payload)
        if key == peer.last_frame:
            self.counters.add("dropped.duplicate")
            return
        peer.last_frame = key
        if peer.last_seq is not None:
            gap = wire.seq_gap(peer.last_seq, frame.seq)
            if gap < SEQ_GAP_LIMIT:
                self.counters.add("frames_missing", gap)
            else:  # far out of order: the sender restarted its sequence
                self.counters.add("seq_restarts")
        peer.last_seq = frame.seq
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
        self.counters.add("frames_ok")
        self._sample(self._frame_time(frame.timestamp_us), values, sender, received)

    def _frame_time(self, timestamp_us: int) -> float:
        """Engine time of a frame: its timestamp, kept monotonic across firmware restarts."""
        t = timestamp_us / 1e6 + self._t_offset
        last = self._last_t
        if last is not None and t < last:
            if last - t > CLOCK_JUMP_S:
                self._t_offset += last - t
                self.log.write(
                    {
                        "event": "clock",
                        "state": "rebased",
                        "frame_t": timestamp_us / 1e6,
                        "engine_t": last,
                        "offset_s": self._t_offset,
                    }
                )
            t = last
        return t

    def _sample(
        self, t: float, values: dict[str, float], sender: str | None, received: float
    ) -> None:
        started = time.perf_counter()
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
                if ev.event == "raise":
                    self._active[ev.rule] = ev
                else:
                    self._active.pop(ev.rule, None)
                self.counters.add(_ADVISORY_KEYS[ev.event])
                self.log.write(ev.to_json)  # built with the line, after the replies are out
                self._send_advisory(ev, sender)
                continue
            record = ev.to_json()
            name = next(iter(ev.values), None) if ev.event == "fault" else _cleared_name(ev)
            reason = self._fault_reason(ev, name)
            record["parameter"] = name
            if ev.event == "fault":
                record["reason"] = reason
                if name in self._stale:
                    record["advisory"] = f"Sensor fault: {name} stale (link down)"
                self.counters.add("faults")
            channel = self._channel_of(name)
            if channel is not None:
                record["channel"] = channel
            self.log.write(record)
            if ev.event == "fault" and channel is not None and reason in _FAULT_REASONS:
                fault = wire.SensorFault(channel, _FAULT_REASONS[reason])
                self._send(
                    wire.MsgType.SENSOR_FAULT, wire.encode_sensor_fault(fault), _us(ev.t), sender
                )

    def _fault_reason(self, ev: Event, name: str | None) -> str | None:
        if ev.event != "fault" or name is None:
            return None
        if name in self._stale:
            return "stale"
        reason = getattr(ev, "reason", None)
        if isinstance(reason, str):
            return reason
        for text in _FAULT_REASONS:
            if ev.advisory.endswith(" " + text):
                return text
        return None

    def _channel_of(self, name: str | None) -> int | None:
        index = self.engine.bundle.param_index.get(name or "")
        return None if index is None else self.engine.bundle.parameters[index].channel

    def _send_advisory(self, ev: Event, sender: str | None) -> None:
        channel_of = self._name_channel
        values = {channel_of[name]: value for name, value in ev.values.items()
                  if value is not None and name in channel_of}
        assert ev.rule is not None
        key = (ev.event, ev.severity or "", ev.rule)
        try:
            head = self._advisory_heads.get(key)
            if head is None:
                head = self._advisory_heads[key] = wire.advisory_head(*key)
            payload = wire.encode_advisory_values(head, values)
        except wire.ProtocolError as exc:
            self._tx_error(wire.MsgType.ADVISORY, exc)
            return
        self._send(wire.MsgType.ADVISORY, payload, _us(ev.t), sender)

    def _send(self, msg_type: wire.MsgType, payload: bytes, t_us: int, peer: str | None) -> None:
        if not self.binary:
            return
        try:
            data = wire.encode_raw_frame(int(msg_type), self._tx_seq, t_us, payload)
        except (wire.ProtocolError, ValueError, OverflowError) as exc:
            self._tx_error(msg_type, exc)
            return
        self._tx_seq = (self._tx_seq + 1) & 0xFFFF_FFFF
        if self._tx_batch is not None:  # inside a chunk: written by _end_chunk
            self._tx_batch.append((peer, data, msg_type))
        else:
            self._tx_write([(peer, data, msg_type)])

    def _tx_error(self, msg_type: wire.MsgType, exc: Exception) -> None:
        self.counters.add("tx_errors")
        self.log.write({"event": "tx_error", "level": "error", "msg_type": msg_type.name,
                        "error": str(exc)})

    def _tx_write(self, frames: list[tuple[str | None, bytes, wire.MsgType]]) -> None:
        """Write frames in order; on a stream link, consecutive ones to a peer in one write."""
        joined = not isinstance(self.link, UdpListenLink)  # one frame per datagram
        i, n = 0, len(frames)
        while i < n:
            peer = frames[i][0]
            j = i + 1
            while joined and j < n and frames[j][0] == peer:
                j += 1
            data = frames[i][1] if j == i + 1 else b"".join(f[1] for f in frames[i:j])
            if self.supervisor.write(data, peer):
                for _, _, msg_type in frames[i:j]:
                    self.counters.add(_TX_KEYS[msg_type])
            else:
                self.counters.add("tx_unsent", j - i)
            i = j

    def _send_bundle_info(self, peer: str | None = None) -> None:
        bundle = self.engine.bundle
        info = wire.BundleInfo(
            str(bundle.meta.get("bundle_id", "")),
            bundle.format_version,
            bytes.fromhex(bundle.digest),
        )
        self._send(wire.MsgType.BUNDLE_INFO, wire.encode_bundle_info(info), self._uptime_us(), peer)

    def _sync_peer(self, peer: str | None) -> None:
        """A new peer learns the bundle, then every advisory raised now."""
        self._send_bundle_info(peer)
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
        names = sorted(n for n in self._seen - self._stale if n in self.engine.bundle.param_index)
        if not names:
            return
        t = self._engine_now()
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
                self._emit(self.engine.step(t, {}), None)
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
            self._channels = _channel_map(new)
            self._name_channel = {name: ch for ch, name in self._channels.items()}
            self._advisory_heads.clear()
            self._stale &= set(new.bundle.param_index)
            record["previous"] = old.bundle.meta.get("bundle_id")
            record["carried"] = adoption.to_json()
            self.log.write(record)
            self._emit(adoption.events, None)
        else:
            self.log.write(record)
            if not outcome.ok:
                print(
                    f"rulec-onboard: reload failed, keeping bundle "
                    f"{self.engine.bundle.meta.get('bundle_id')}: {outcome.error}",
                    file=sys.stderr,
                    flush=True,
                )
        self._send_bundle_info()

    def _summary(self, now: float) -> None:
        period, eval_us, e2e_us = self.counters.take_period()
        total = self.counters.total
        self.log.write(
            {
                "event": "summary",
                "period_s": round(now - self._last_summary, 3),
                "link": self.link_state,
                "bundle_id": self.engine.bundle.meta.get("bundle_id"),
                "frames_ok": period["frames_ok"],
                "frames_dropped": self.counters.dropped(period),
                "frames_ignored": {
                    k[8:]: v for k, v in sorted(period.items()) if k.startswith("ignored.")
                },
                "frames_missing": period["frames_missing"],
                "bytes_discarded": period["bytes_discarded"],
                "unknown_channels": period["unknown_channel"],
                "samples": period["samples"],
                "advisories": {
                    "raise": period["advisories.raise"],
                    "clear": period["advisories.clear"],
                },
                "faults": period["faults"],
                "active": sorted(self._active),
                "latency_us": {"eval": _percentiles(eval_us), "e2e": _percentiles(e2e_us)},
                "totals": {
                    "frames_ok": total["frames_ok"],
                    "frames_dropped": sum(self.counters.dropped(total).values()),
                    "frames_missing": total["frames_missing"],
                    "samples": total["samples"],
                    "advisories": total["advisories.raise"] + total["advisories.clear"],
                    "reloads": self.reloader.attempts,
                    "reload_failures": self.reloader.failures,
                    "link_failures": self.supervisor.failures,
                },
            }
        )
        self._last_summary = now

    # ------------------------------------------------------------ start / stop

    def _log_start(self) -> None:
        bundle = self.engine.bundle
        self.log.write(
            {
                "event": "start",
                "version": _version(),
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


_ADVISORY_KEYS = {"raise": "advisories.raise", "clear": "advisories.clear"}


def _cleared_name(ev: Event) -> str | None:
    prefix, suffix = "Sensor ", " valid again"
    text = ev.advisory
    if text.startswith(prefix) and text.endswith(suffix):
        return text[len(prefix) : -len(suffix)]
    return None


def _channel_map(engine: Engine) -> dict[int, str]:
    return {p.channel: p.name for p in engine.bundle.parameters if p.channel is not None}


def _us(t: float) -> int:
    return min(max(int(round(t * 1e6)), 0), 2**63 - 1) if math.isfinite(t) else 0


def _decoder_factory(config: OnboardConfig) -> Callable[[], _Decoder]:
    """What each peer's bytes go through; a standard reader is built once here to fail early."""
    if config.input_format == "rulec":
        return wire.FrameDecoder
    mapping = parse_input_mapping(config.input_format, getattr(config, config.input_format))
    kind: Callable[..., _Decoder] = CcsdsDecoder
    if config.input_format == "mavlink":
        kind = MavlinkDecoder  # imports pymavlink when built
    datagrams = config.input_kind == "udp_listen"  # one packet per datagram
    kind(mapping, datagrams=datagrams)
    return functools.partial(kind, mapping, datagrams=datagrams)


def _make_link(config: OnboardConfig, stdin_fd: int | None) -> Link:
    kind = config.input_kind
    size = config.max_buffer_bytes
    if kind == "serial":
        assert config.serial is not None
        return SerialLink(config.serial, config.baudrate, size, config.write_timeout_s)
    if kind == "tcp_listen":
        assert config.tcp_listen is not None
        host, port = parse_host_port(config.tcp_listen)
        return TcpListenLink(host, port, size, config.write_timeout_s, config.takeover_s)
    if kind == "udp_listen":
        assert config.udp_listen is not None
        host, port = parse_host_port(config.udp_listen)
        return UdpListenLink(host, port, size)
    return StdinLink(stdin_fd, size)


def _version() -> str:
    try:
        return metadata.version("rulec")
    except metadata.PackageNotFoundError:
        return "unknown"


# --------------------------------------------------------------------------- command line

_EPILOG = """\
examples:
  rulec-onboard --bundle engine.rulec --serial /dev/ttyUSB0 --baudrate 921600
  rulec-onboard --bundle engine.rulec --serial /dev/pts/7          # a pty (rulec-sim)
  rulec-onboard --bundle engine.rulec --tcp-listen 7700            # 127.0.0.1:7700
  rulec-onboard --bundle engine.rulec --udp-listen 0.0.0.0:7701 --log /var/log/rulec.jsonl
  rulec-onboard --bundle engine.rulec --stdin csv < examples/scenarios/engine_test.csv
  rulec-onboard --config /etc/rulec/onboard.toml --check           # validate, exit 0/2
  rulec-onboard --config ccsds.toml --input-format ccsds --udp-listen 7702  # space packets
  rulec-onboard --bundle engine.rulec --trust fleet.pub --check    # pre-flight, signed

config file (--config, TOML): every option below is a top-level key named like the
flag without dashes (--heartbeat-s 2 is `heartbeat_s = 2.0`); flags override the file.

signals: SIGHUP reloads the bundle (kept only if it validates) and reopens --log;
SIGTERM/SIGINT flush, close the link and exit 0.  Exit status: 0 after a clean stop
(or --check passed), 2 for a bad configuration or an invalid first bundle.
Log lines and reload semantics: docs/onboard.md."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulec-onboard",
        description="The onboard daemon: evaluates live telemetry against a rule bundle "
        "and sends advisories back.  Telemetry arrives as TELEMETRY frames (serial, TCP, "
        "UDP), CCSDS space packets or MAVLink (--input-format), or text samples (stdin); "
        "raise/clear events, sensor faults, link changes, reloads and summaries are written "
        "as JSON lines.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--config", metavar="FILE", help="TOML file with any of the options below")
    parser.add_argument(
        "--check",
        action="store_true",
        help="load and validate the bundle as the daemon would, print a "
        "JSON summary and exit (0 valid, 2 not)",
    )
    parser.add_argument("--version", action="version", version=f"rulec-onboard {_version()}")
    groups: dict[str, argparse._ArgumentGroup] = {}
    for option in OPTIONS:
        group = groups.get(option.group)
        if group is None:
            group = groups[option.group] = parser.add_argument_group(option.group)
        default = "" if option.default is None else f" [default: {option.default}]"
        kind: Callable[[str], Any] = option.kind
        group.add_argument(
            option.flag,
            dest=option.key,
            type=kind,
            default=None,
            metavar=option.metavar,
            help=option.help + default,
        )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        file_values = read_config_file(args.config) if args.config else {}
        flags = {o.key: getattr(args, o.key) for o in OPTIONS}
        config = build_config(file_values, flags, need_input=not args.check)
        if args.check:
            return _check(config)
        log = EventLog(config.log)
        daemon = Daemon(config, log)
    except RulecError as exc:
        print(f"rulec-onboard: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as exc:  # noqa: BLE001 - never a traceback
        print(f"rulec-onboard: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_INTERNAL
    _install_signals(daemon)
    try:
        return daemon.run()
    except Exception as exc:  # noqa: BLE001 - log it as a line, exit non-zero for systemd
        log.write({"event": "crash", "level": "error", "error": f"{type(exc).__name__}: {exc}"})
        print(f"rulec-onboard: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        log.close()


def _check(config: OnboardConfig) -> int:
    engine = engine_loader(config.trust)(config.bundle)  # the daemon's start and reload path
    bundle = engine.bundle
    print(
        json.dumps(
            {
                "ok": True,
                "bundle": str(config.bundle),
                "bundle_id": bundle.meta.get("bundle_id"),
                "digest": bundle.digest,
                "format": bundle.format_version,
                "rules": len(bundle.rules),
                "parameters": [
                    {"name": p.name, "unit": p.unit, "channel": p.channel, "max_age_s": p.max_age_s}
                    for p in bundle.parameters
                ],
                "input": config.input_text if config.has_input else None,
                "signature": bundle.signature.to_json(),
                "warning": bundle.signature.warning(),
            },
            ensure_ascii=False,
        )
    )
    if config.has_input and config.input_kind != "stdin" and not _channel_map(engine):
        print(
            "rulec-onboard: warning: no parameter has a telemetry channel; frames "
            "cannot carry any value",
            file=sys.stderr,
        )
    return EXIT_OK


def _install_signals(daemon: Daemon) -> None:
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGTERM, lambda *_: daemon.request_stop("SIGTERM"))
    signal.signal(signal.SIGINT, lambda *_: daemon.request_stop("SIGINT"))
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, lambda *_: daemon.request_reload("SIGHUP"))


if __name__ == "__main__":
    sys.exit(main())
