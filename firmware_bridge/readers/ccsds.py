"""CCSDS Space Packets (CCSDS 133.0-B-2) in, TELEMETRY frames out (docs/telemetry-readers.md).

``CcsdsDecoder`` has the interface of ``protocol.FrameDecoder`` (``feed``, ``reset``,
``stats``) so the daemon only chooses which one to build.  A packet is a 6-octet primary
header, an optional secondary header holding a time code (CUC or CDS, at a configured
offset), and user data whose fields a ``CcsdsConfig`` maps to telemetry channels.  On a
byte stream packets are back to back and the decoder resynchronises after garbage; on
UDP each datagram must be exactly one packet.  Nothing malformed becomes a value: every
dropped packet is counted once, in the first counter of ``CcsdsStats`` that applies.

Standard library only (plus the project's exception root and frame types).
"""

from __future__ import annotations

import binascii
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import NamedTuple

from rulec.firmware_bridge.protocol import Frame, MsgType, encode_telemetry
from rulec.firmware_bridge.readers import masked
from rulec.firmware_bridge.readers.ccsds_config import (
    CRC_SIZE,
    IDLE_APID,
    MAX_PACKET,
    PRIMARY_HEADER,
    TIME_CODES,
    CcsdsConfig,
    CcsdsConfigError,
    FieldSpec,
    PacketSpec,
    parse_ccsds_config,
)

__all__ = [
    "CRC_SIZE", "IDLE_APID", "MAX_PACKET", "PRIMARY_HEADER", "TIME_CODES", "CcsdsConfig",
    "CcsdsConfigError", "CcsdsDecoder", "CcsdsStats", "FieldSpec", "PacketSpec",
    "PrimaryHeader", "crc16_ccitt", "cuc_pfield", "parse_ccsds_config", "parse_primary_header",
]

SEQ_MODULUS = 1 << 14
SEQ_GAP_LIMIT = SEQ_MODULUS // 2  # a larger jump is a restart or reordering, not loss
UNSEGMENTED = 0b11

_HEADER = struct.Struct(">HHH")
_CDS = struct.Struct(">HI")
class PrimaryHeader(NamedTuple):
    """The six fields of a packet's primary header (CCSDS 133.0-B-2, 4.1.3)."""

    version: int
    packet_type: int  # 0 telemetry, 1 telecommand
    secondary_header: bool
    apid: int
    sequence_flags: int  # 0b11: unsegmented
    sequence_count: int
    data_length: int  # octets in the packet data field, minus one

    @property
    def packet_length(self) -> int:
        return PRIMARY_HEADER + self.data_length + 1


def parse_primary_header(data: bytes | bytearray | memoryview) -> PrimaryHeader:
    """The first six octets of ``data`` as header fields (``struct.error`` below six octets)."""
    word0, word1, length = _HEADER.unpack_from(data)
    return PrimaryHeader(
        word0 >> 13,
        word0 >> 12 & 1,
        bool(word0 >> 11 & 1),
        word0 & IDLE_APID,
        word1 >> 14,
        word1 & (SEQ_MODULUS - 1),
        length,
    )


def crc16_ccitt(data: bytes | bytearray | memoryview) -> int:
    """CRC-16-CCITT (poly 0x1021, initial 0xFFFF), the ECSS packet error control."""
    return binascii.crc_hqx(data, 0xFFFF)


def cuc_pfield(coarse: int, fine: int) -> int:
    """P-field of a CUC code with the CCSDS 1958 epoch (CCSDS 301.0-B-4, 3.2.2)."""
    return 0b0001_0000 | (coarse - 1) << 2 | fine


CDS_PFIELD = 0b0100_0000  # CDS, 1958 epoch, 16-bit day, no sub-millisecond field


@dataclass
class CcsdsStats:
    """What a ``CcsdsDecoder`` has seen; each dropped packet counts in exactly one error.

    Errors in order of precedence: ``version_errors`` / ``oversize`` (a header that
    cannot start a packet: alignment lost), ``length_errors`` (a datagram that is not
    one packet, or a packet too short for its mapping), ``crc_errors``, ``type_errors``
    (telecommands), ``header_errors`` (segmented, secondary-header flag or time
    P-field not as configured), ``duplicates``.  ``unmapped`` and ``idle`` packets are
    valid but carry nothing for us; ``packets_missing`` sums the sequence-count gaps.
    """

    packets: int = 0
    version_errors: int = 0
    oversize: int = 0
    length_errors: int = 0
    crc_errors: int = 0
    type_errors: int = 0
    header_errors: int = 0
    duplicates: int = 0
    unmapped: int = 0
    idle: int = 0
    packets_missing: int = 0
    seq_restarts: int = 0
    resyncs: int = 0
    bytes_discarded: int = 0

    @property
    def frames_dropped(self) -> int:
        """Packets dropped for any error."""
        return (
            self.version_errors
            + self.oversize
            + self.length_errors
            + self.crc_errors
            + self.type_errors
            + self.header_errors
            + self.duplicates
        )

    def as_dict(self) -> dict[str, int]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["frames_dropped"] = self.frames_dropped
        return out


class CcsdsDecoder:
    """Bytes in, TELEMETRY frames out; ``datagrams=True`` reads each ``feed`` as one packet.

    A stream starts unaligned: a candidate header (a mapped APID or idle, version 0,
    telemetry, unsegmented, a plausible length) is believed only once the header after
    it is plausible too, or its CRC passes when ``crc`` is on.  Aligned, packets are
    taken by their length; a header of another version or longer than
    ``max_packet_bytes`` drops the alignment.  At most one packet and the next header
    are held between calls.  ``feed`` never raises.
    """

    __slots__ = (
        "config",
        "datagrams",
        "clock",
        "stats",
        "_buf",
        "_aligned",
        "_seq_out",
        "_last",
        "_readers",
        "_prefixes",
        "_min",
    )

    def __init__(
        self,
        config: CcsdsConfig,
        *,
        datagrams: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.datagrams = datagrams
        self.clock = clock  # packet time when the packet has no time code
        self.stats = CcsdsStats()
        self._buf = bytearray()
        self._aligned = False
        self._seq_out = 0
        self._last: dict[int, tuple[int, bytes]] = {}  # apid -> (sequence count, packet)
        self._readers = {
            apid: [(f.channel, f.struct.unpack_from, f.offset, f.scale, f.bias, f.mask)
                   for f in p.fields]
            for apid, p in config.packets.items()
        }
        self._min = {apid: config.min_packet(apid) for apid in (*config.packets, IDLE_APID)}
        flag = 1 if config.secondary_header_bytes else 0
        words = [flag << 11 | apid for apid in config.packets] + [IDLE_APID]
        self._prefixes = [w.to_bytes(2, "big") for w in words]

    @property
    def pending(self) -> int:
        """Octets held for a packet not yet complete."""
        return len(self._buf)

    def reset(self) -> None:
        """Forget a partial packet (after a reconnect); its octets count as discarded."""
        self.stats.bytes_discarded += len(self._buf)
        self._buf = bytearray()
        self._aligned = False

    def feed(self, data: bytes | bytearray | memoryview) -> list[Frame]:
        """Consume ``data``; return the frames of the packets it completes, in order."""
        if self.datagrams:
            return self._datagram(bytes(data))
        buf = self._buf
        buf += data
        frames: list[Frame] = []
        pos = self._aligned_run(buf, 0, frames) if self._aligned else 0
        while not self._aligned and len(buf) - pos >= PRIMARY_HEADER:
            moved = self._hunt(buf, pos)
            if moved == pos and not self._aligned:
                break  # a candidate waits for more octets
            pos = self._aligned_run(buf, moved, frames) if self._aligned else moved
        del buf[:pos]
        return frames

    # ---------------------------------------------------------------- stream

    def _aligned_run(self, buf: bytearray, pos: int, frames: list[Frame]) -> int:
        """Take packets by their length until the buffer runs out or alignment is lost."""
        limit = self.config.max_packet_bytes
        while len(buf) - pos >= PRIMARY_HEADER:
            word0, _, length = _HEADER.unpack_from(buf, pos)
            total = length + PRIMARY_HEADER + 1
            if word0 >> 13 or total > limit:
                if word0 >> 13:
                    self.stats.version_errors += 1
                else:
                    self.stats.oversize += 1
                self.stats.resyncs += 1
                self._aligned = False
                return pos
            if len(buf) - pos < total:
                break
            frame = self._packet(bytes(buf[pos : pos + total]))
            if frame is not None:
                frames.append(frame)
            pos += total
        return pos

    def _hunt(self, buf: bytearray, pos: int) -> int:
        """Discard octets up to a confirmed packet start (sets ``_aligned``) or the data's end."""
        found = [i for i in (buf.find(p, pos) for p in self._prefixes) if i >= 0]
        if not found:
            keep = max(pos, len(buf) - 1)  # its last octet may begin a header
            self.stats.bytes_discarded += keep - pos
            return keep
        start = min(found)
        self.stats.bytes_discarded += start - pos
        if len(buf) - start < PRIMARY_HEADER:
            return start
        word0, word1, length = _HEADER.unpack_from(buf, start)
        total = length + PRIMARY_HEADER + 1
        apid = word0 & IDLE_APID
        plausible = word1 >> 14 == UNSEGMENTED and (
            self._min[apid] <= total <= self.config.max_packet_bytes
        )
        if plausible and self.config.crc:
            if len(buf) - start < total:
                return start
            end = start + total
            confirmed = crc16_ccitt(buf[start : end - CRC_SIZE]) == int.from_bytes(
                buf[end - CRC_SIZE : end], "big"
            )
        elif plausible:
            if len(buf) - start < total + PRIMARY_HEADER:
                return start
            next0, _, next_len = _HEADER.unpack_from(buf, start + total)
            confirmed = not next0 >> 13 and next_len + PRIMARY_HEADER + 1 <= (
                self.config.max_packet_bytes
            )
        else:
            confirmed = False
        if confirmed:
            self._aligned = True
            return start
        self.stats.bytes_discarded += 1
        return start + 1

    # ---------------------------------------------------------------- packets

    def _datagram(self, data: bytes) -> list[Frame]:
        stats = self.stats
        if len(data) < PRIMARY_HEADER + 1:
            stats.length_errors += 1
        else:
            word0, _, length = _HEADER.unpack_from(data)
            total = length + PRIMARY_HEADER + 1
            if word0 >> 13:
                stats.version_errors += 1
            elif total > self.config.max_packet_bytes:
                stats.oversize += 1
            elif total != len(data):
                stats.length_errors += 1
            else:
                frame = self._packet(data)
                return [] if frame is None else [frame]
        stats.bytes_discarded += len(data)
        return []

    def _packet(self, pkt: bytes) -> Frame | None:
        """One whole packet (version 0, length checked) -> a frame, or counted and None."""
        config, stats = self.config, self.stats
        word0, word1, _ = _HEADER.unpack_from(pkt)
        apid = word0 & IDLE_APID
        if apid == IDLE_APID:
            stats.idle += 1
            return None
        spec = config.packets.get(apid)
        n = len(pkt)
        error: str | None = None
        if spec is not None and n < self._min[apid]:
            error = "length_errors"
        elif config.crc and crc16_ccitt(pkt[: n - CRC_SIZE]) != int.from_bytes(pkt[-2:], "big"):
            error = "crc_errors"
        elif word0 >> 12 & 1:
            error = "type_errors"
        elif (
            word1 >> 14 != UNSEGMENTED
            or bool(word0 >> 11 & 1) != bool(config.secondary_header_bytes)
            or (spec is not None and not self._pfield_ok(pkt))
        ):
            error = "header_errors"
        elif spec is None:
            stats.unmapped += 1
            return None
        if error is not None:
            setattr(stats, error, getattr(stats, error) + 1)
            stats.bytes_discarded += n
            return None
        assert spec is not None
        seq = word1 & (SEQ_MODULUS - 1)
        last = self._last.get(apid)
        if last is not None:
            if last == (seq, pkt):
                stats.duplicates += 1
                stats.bytes_discarded += n
                return None
            gap = (seq - last[0] - 1) % SEQ_MODULUS
            if gap < SEQ_GAP_LIMIT:
                stats.packets_missing += gap
            else:
                stats.seq_restarts += 1
        self._last[apid] = (seq, pkt)
        base = PRIMARY_HEADER + config.secondary_header_bytes
        values = {
            channel: (unpack(pkt, base + offset)[0] if mask is None
                      else masked(unpack(pkt, base + offset)[0], mask)) * scale + bias
            for channel, unpack, offset, scale, bias, mask in self._readers[apid]
        }
        t_us = self._time_us(pkt)
        frame = Frame(MsgType.TELEMETRY, self._seq_out, t_us, encode_telemetry(values))
        self._seq_out = (self._seq_out + 1) & 0xFFFF_FFFF
        stats.packets += 1
        return frame

    def _pfield_ok(self, pkt: bytes) -> bool:
        config = self.config
        if not config.time_pfield or config.time_code == "none":
            return True
        p = pkt[PRIMARY_HEADER + config.time_offset]
        if config.time_code == "cds":
            return p & 0b1111_0111 == CDS_PFIELD  # either epoch
        return p & 0b1000_1111 == cuc_pfield(config.cuc_coarse, config.cuc_fine) & 0b1000_1111 and (
            p >> 4 & 0b111 in (0b001, 0b010)  # CCSDS or agency epoch
        )

    def _time_us(self, pkt: bytes) -> int:
        """The packet's time code in microseconds, or the reception time without one."""
        config = self.config
        if config.time_code == "none":
            return int(self.clock() * 1e6)
        at = PRIMARY_HEADER + config.time_offset + (1 if config.time_pfield else 0)
        if config.time_code == "cds":
            day, ms = _CDS.unpack_from(pkt, at)
            return (day * 86_400_000 + ms) * 1000
        coarse = int.from_bytes(pkt[at : at + config.cuc_coarse], "big")
        at += config.cuc_coarse
        fine = int.from_bytes(pkt[at : at + config.cuc_fine], "big")
        return coarse * 1_000_000 + (fine * 1_000_000 >> 8 * config.cuc_fine)
