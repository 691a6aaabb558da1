"""The CCSDS packet mapping: which APIDs carry which channels (docs/telemetry-readers.md).

Read from the ``[ccsds]`` table of the onboard TOML config and checked once at start, so
a bad mapping stops the daemon with the key at fault instead of misreading packets.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulec.firmware_bridge.protocol import MAX_CHANNELS
from rulec.runtime.errors import RulecError

PRIMARY_HEADER = 6
MAX_PACKET = PRIMARY_HEADER + 65536  # the data length field counts up to 65536 octets
IDLE_APID = 0x7FF
TIME_CODES = ("none", "cuc", "cds")
CRC_SIZE = 2

_CDS = struct.Struct(">HI")
_FIELD_SIZES = {"i1": 1, "u1": 1, "i2": 2, "u2": 2, "i4": 4, "u4": 4, "i8": 8, "u8": 8}
_FIELD_SIZES |= {"f4": 4, "f8": 8}
_STRUCT_CODES = {"i1": "b", "u1": "B", "i2": "h", "u2": "H", "i4": "i", "u4": "I"}
_STRUCT_CODES |= {"i8": "q", "u8": "Q", "f4": "f", "f8": "d"}
_FIELD_KEYS = {"channel", "type", "offset", "scale", "bias", "mask"}
_TOP_KEYS = {
    "time_code",
    "time_pfield",
    "time_offset",
    "cuc_coarse",
    "cuc_fine",
    "secondary_header_bytes",
    "crc",
    "max_packet_bytes",
    "packet",
}



def _mask(item: Mapping[str, Any], kind: str, at: str) -> int | None:
    mask = item.get("mask")
    if mask is None:
        return None
    bits = 8 * _FIELD_SIZES[kind.lstrip("<>")]
    if kind.lstrip("<>")[0] not in "iu" or type(mask) is not int or not 0 < mask < 1 << bits:
        raise CcsdsConfigError(f"{at}.mask must be an integer of at most the field's bits, "
                               f"on an integer type, not {mask!r}")
    return mask


class CcsdsConfigError(RulecError, ValueError):
    """The packet mapping is malformed (a key, a type, a range)."""


@dataclass(frozen=True)
class FieldSpec:
    """One value in the user data: ``raw * scale + bias`` goes to ``channel``."""

    channel: int
    type: str  # numpy-style: >f4 <i2 u1 ...
    offset: int  # octets from the start of the user data field
    scale: float = 1.0
    bias: float = 0.0
    mask: int | None = None  # integer types: the bits selected, shifted down (a state index)

    @property
    def size(self) -> int:
        return _FIELD_SIZES[self.type.lstrip("<>")]

    @property
    def struct(self) -> struct.Struct:
        order = "<" if self.type.startswith("<") else ">"
        return struct.Struct(order + _STRUCT_CODES[self.type.lstrip("<>")])


@dataclass(frozen=True)
class PacketSpec:
    """The fields read from the packets of one APID."""

    apid: int
    fields: tuple[FieldSpec, ...]

    @property
    def user_bytes(self) -> int:
        """Shortest user data field that holds every mapped field."""
        return max(f.offset + f.size for f in self.fields)


@dataclass(frozen=True)
class CcsdsConfig:
    """What the packets look like and which APIDs carry which channels."""

    packets: Mapping[int, PacketSpec]
    time_code: str = "none"
    time_pfield: bool = False  # a 1-octet P-field precedes the T-field, and is checked
    time_offset: int = 0  # octets from the start of the secondary header
    cuc_coarse: int = 4
    cuc_fine: int = 2
    secondary_header_bytes: int = 0
    crc: bool = False  # packet error control: CRC-16-CCITT in the last 2 octets
    max_packet_bytes: int = 4096

    @property
    def time_bytes(self) -> int:
        """Length of the time code, P-field included (0 without one)."""
        t = {"none": 0, "cuc": self.cuc_coarse + self.cuc_fine, "cds": _CDS.size}[self.time_code]
        return t + (1 if self.time_pfield and t else 0)

    def min_packet(self, apid: int) -> int:
        """Shortest packet of ``apid`` that holds its secondary header, fields and CRC."""
        spec = self.packets.get(apid)
        user = spec.user_bytes if spec is not None else 1
        return PRIMARY_HEADER + self.secondary_header_bytes + user + (CRC_SIZE if self.crc else 0)


def parse_ccsds_config(table: Mapping[str, Any]) -> CcsdsConfig:
    """The ``[ccsds]`` table of the daemon's TOML file -> ``CcsdsConfig`` (or a named error)."""
    if not isinstance(table, Mapping):
        raise CcsdsConfigError("[ccsds] must be a table")
    unknown = sorted(set(table) - _TOP_KEYS)
    if unknown:
        raise CcsdsConfigError(f"[ccsds]: unknown key(s) {', '.join(unknown)}")
    time_code = _get(table, "time_code", str, "none", "ccsds")
    if time_code not in TIME_CODES:
        raise CcsdsConfigError(f"ccsds.time_code must be one of {', '.join(TIME_CODES)}")
    coarse = _int_in(table, "cuc_coarse", 4, 1, 4, "ccsds")
    fine = _int_in(table, "cuc_fine", 2, 0, 3, "ccsds")
    pfield = _get(table, "time_pfield", bool, False, "ccsds")
    offset = _int_in(table, "time_offset", 0, 0, 255, "ccsds")
    probe = CcsdsConfig({}, time_code, pfield, offset, coarse, fine)
    need = offset + probe.time_bytes if probe.time_bytes else 0
    sec = _int_in(table, "secondary_header_bytes", need, need, 255, "ccsds")
    if time_code == "none" and offset:
        raise CcsdsConfigError("ccsds.time_offset needs a time_code")
    crc = _get(table, "crc", bool, False, "ccsds")
    max_bytes = _int_in(table, "max_packet_bytes", 4096, PRIMARY_HEADER + 1, MAX_PACKET, "ccsds")
    raw_packets = table.get("packet", [])
    if not isinstance(raw_packets, list) or not raw_packets:
        raise CcsdsConfigError("[ccsds] needs at least one [[ccsds.packet]] with apid and fields")
    packets: dict[int, PacketSpec] = {}
    for i, raw in enumerate(raw_packets):
        spec = _packet_spec(raw, f"ccsds.packet[{i}]")
        if spec.apid in packets:
            raise CcsdsConfigError(f"ccsds.packet[{i}]: apid {spec.apid} is mapped twice")
        packets[spec.apid] = spec
    config = CcsdsConfig(packets, time_code, pfield, offset, coarse, fine, sec, crc, max_bytes)
    for apid in packets:
        if config.min_packet(apid) > max_bytes:
            raise CcsdsConfigError(
                f"ccsds: apid {apid} needs {config.min_packet(apid)}-octet packets, "
                f"more than max_packet_bytes={max_bytes}"
            )
    return config


def _packet_spec(raw: Any, where: str) -> PacketSpec:
    if not isinstance(raw, Mapping) or set(raw) - {"apid", "fields"}:
        raise CcsdsConfigError(f"{where} must be a table with the keys apid and fields")
    apid = _int_in(raw, "apid", None, 0, IDLE_APID - 1, where)
    items = raw.get("fields")
    if not isinstance(items, list) or not 1 <= len(items) <= MAX_CHANNELS:
        raise CcsdsConfigError(f"{where}.fields must list 1..{MAX_CHANNELS} fields")
    out: list[FieldSpec] = []
    for j, item in enumerate(items):
        at = f"{where}.fields[{j}]"
        if not isinstance(item, Mapping) or set(item) - _FIELD_KEYS:
            raise CcsdsConfigError(f"{at} must be a table of channel, type, offset[, scale, bias]")
        kind = _get(item, "type", str, None, at)
        if kind.lstrip("<>") not in _FIELD_SIZES or kind.count("<") + kind.count(">") > 1:
            raise CcsdsConfigError(f"{at}.type {kind!r} is not one of >f4 >f8 >i1..>i8 >u1..>u8")
        spec = FieldSpec(
            _int_in(item, "channel", None, 0, 0xFFFF, at),
            kind if kind[0] in "<>" else ">" + kind,
            _int_in(item, "offset", None, 0, MAX_PACKET, at),
            _finite(item, "scale", 1.0, at),
            _finite(item, "bias", 0.0, at),
            _mask(item, kind, at),
        )
        if any(f.channel == spec.channel for f in out):
            raise CcsdsConfigError(f"{at}: channel {spec.channel} appears twice in one packet")
        out.append(spec)
    return PacketSpec(apid, tuple(out))


def _get(table: Mapping[str, Any], key: str, kind: type, default: Any, where: str) -> Any:
    value = table.get(key, default)
    if value is None:
        raise CcsdsConfigError(f"{where}.{key} is required")
    if isinstance(value, bool) is not (kind is bool) or not isinstance(value, kind):
        raise CcsdsConfigError(f"{where}.{key} must be {kind.__name__}, not {value!r}")
    return value


def _int_in(
    table: Mapping[str, Any], key: str, default: int | None, lo: int, hi: int, where: str
) -> int:
    value: int = _get(table, key, int, default, where)
    if not lo <= value <= hi:
        raise CcsdsConfigError(f"{where}.{key} must be in {lo}..{hi}, not {value}")
    return value


def _finite(table: Mapping[str, Any], key: str, default: float, where: str) -> float:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise CcsdsConfigError(f"{where}.{key} must be a finite number, not {value!r}")
    return float(value)
