"""What the onboard daemon writes on the link: frames numbered in one sequence, kept per
chunk of input and written once it is evaluated (one write per peer on a stream link,
one datagram per frame on UDP), with the ``tx.*`` counters and ``tx_error`` lines.

Apart from the loop so that the reply side (numbering, batching, ADVISORY encoding with
its cached heads) has one owner.  The daemon binds ``send``, ``send_advisory`` and
``write`` once and fills ``batch`` itself around each chunk: the per-frame path gets no
call more than it had when this was part of the daemon.
"""

from __future__ import annotations

import math

from rulec.firmware_bridge import protocol as wire
from rulec.firmware_bridge.links import LinkSupervisor
from rulec.runtime.bundle.loader import Bundle
from rulec.runtime.daemon.log import Counters, EventLog
from rulec.runtime.engine.stream import Event

TxFrame = tuple[str | None, bytes, wire.MsgType]  # (peer, encoded frame, its type)

_TX_KEYS = {t: f"tx.{t.name.lower()}" for t in wire.MsgType}  # counter per frame written


def frame_us(t: float) -> int:
    """Engine time as a frame timestamp (microseconds, clamped; 0 when not finite)."""
    return min(max(int(round(t * 1e6)), 0), 2**63 - 1) if math.isfinite(t) else 0


class Transmitter:
    """Encodes, numbers and writes the daemon's frames (nothing when the input is text)."""

    def __init__(self, supervisor: LinkSupervisor, counters: Counters, log: EventLog, *,
                 binary: bool, datagrams: bool) -> None:
        self.supervisor = supervisor
        self.counters = counters
        self.log = log
        self.binary = binary  # text input (stdin) gets no frames back
        self.joined = not datagrams  # a stream link takes a peer's frames in one write
        self.seq = 0
        # frames of the chunk being evaluated, written by the daemon at its end; None
        # outside a chunk (a frame is then written at once)
        self.batch: list[TxFrame] | None = None
        self._name_channel: dict[str, int] = {}
        self._advisory_heads: dict[tuple[str, str, str], bytes] = {}  # (event, severity, rule)

    def use_channels(self, channels: dict[int, str]) -> None:
        """The bundle's channel map (at start and after a reload)."""
        self._name_channel = {name: ch for ch, name in channels.items()}
        self._advisory_heads.clear()

    def channel_of(self, name: str | None) -> int | None:
        """The telemetry channel of a parameter, None when it has none."""
        return self._name_channel.get(name or "")

    def send_advisory(self, ev: Event, sender: str | None) -> None:
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
            self.error(wire.MsgType.ADVISORY, exc)
            return
        self.send(wire.MsgType.ADVISORY, payload, frame_us(ev.t), sender)

    def send_bundle_info(self, bundle: Bundle, t_us: int, peer: str | None = None) -> None:
        info = wire.BundleInfo(
            str(bundle.meta.get("bundle_id", "")),
            bundle.format_version,
            bytes.fromhex(bundle.digest),
        )
        self.send(wire.MsgType.BUNDLE_INFO, wire.encode_bundle_info(info), t_us, peer)

    def send(self, msg_type: wire.MsgType, payload: bytes, t_us: int, peer: str | None) -> None:
        if not self.binary:
            return
        try:
            data = wire.encode_raw_frame(int(msg_type), self.seq, t_us, payload)
        except (wire.ProtocolError, ValueError, OverflowError) as exc:
            self.error(msg_type, exc)
            return
        self.seq = (self.seq + 1) & 0xFFFF_FFFF
        if self.batch is not None:  # inside a chunk: written when the chunk ends
            self.batch.append((peer, data, msg_type))
        else:
            self.write([(peer, data, msg_type)])

    def error(self, msg_type: wire.MsgType, exc: Exception) -> None:
        self.counters.add("tx_errors")
        self.log.write({"event": "tx_error", "level": "error", "msg_type": msg_type.name,
                        "error": str(exc)})

    def write(self, frames: list[TxFrame]) -> None:
        """Write frames in order; on a stream link, consecutive ones to a peer in one write."""
        joined = self.joined
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
