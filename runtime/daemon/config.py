"""Configuration of `rulec-onboard`: one table of options feeds the TOML file, the flags,
``--help`` and the checks, so the three can never disagree.

Every flag ``--some-name`` is the TOML key ``some_name`` (top level of the file).  Flags
override the file; the input is chosen as a whole (an input flag replaces the file's
input).  Relative paths in the file are relative to the file's folder.
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import serial

from rulec.firmware_bridge.links.base import parse_host_port
from rulec.firmware_bridge.readers.ccsds import parse_ccsds_config
from rulec.firmware_bridge.readers.mavlink import parse_mavlink_config
from rulec.runtime.errors import RulecError

INPUT_KEYS = ("serial", "tcp_listen", "udp_listen", "stdin")
INPUT_FORMATS = ("rulec", "ccsds", "mavlink")
SECTIONS = ("ccsds", "mavlink")  # file-only tables: the mapping of standard telemetry
STDIN_FORMATS = ("auto", "csv", "jsonl")


class ConfigError(RulecError, ValueError):
    """The daemon's configuration (file or flags) is malformed or inconsistent."""


@dataclass(frozen=True)
class Option:
    """One setting: TOML key, type, default, and the help text shown by --help."""

    key: str
    kind: type
    default: Any
    help: str
    metavar: str | None = None
    group: str = "daemon"

    @property
    def flag(self) -> str:
        return "--" + self.key.replace("_", "-")


OPTIONS: tuple[Option, ...] = (
    Option(
        "bundle",
        str,
        None,
        "the rule bundle to serve (required); watched for changes and reloaded when it validates",
        "FILE",
        "bundle",
    ),
    Option(
        "last_good",
        str,
        None,
        "keep a copy of every validated bundle here (atomically), and start from it when "
        "the bundle is refused at start",
        "FILE",
    ),
    Option(
        "trust",
        str,
        None,
        "public key (PEM, NAME.pub from `rulec keygen`): only bundles signed with its "
        "private key load, at start and on reload; needs the [sign] extra "
        "(without it, bundles load unverified, with a warning)",
        "PUBKEY",
        "bundle",
    ),
    Option(
        "serial",
        str,
        None,
        "read telemetry frames from a pyserial URL: a device "
        "(/dev/ttyUSB0), a pty path, loop://, socket://HOST:PORT, rfc2217://HOST:PORT; "
        "advisories go back on the same port",
        "URL",
        "input (choose one)",
    ),
    Option(
        "tcp_listen",
        str,
        None,
        "listen for one firmware TCP connection at a time on "
        "[HOST:]PORT (HOST defaults to 127.0.0.1; PORT 0 picks a free one)",
        "[HOST:]PORT",
        "input (choose one)",
    ),
    Option(
        "udp_listen",
        str,
        None,
        "receive telemetry datagrams on [HOST:]PORT (HOST "
        "defaults to 127.0.0.1); advisories go to the last sender",
        "[HOST:]PORT",
        "input (choose one)",
    ),
    Option(
        "stdin",
        str,
        None,
        "read text samples from standard input: csv (header `time` "
        '+ parameter names, like `rulec replay`), jsonl ({"t": 1.5, "values": '
        '{"name": 3.2}} per line) or auto; the daemon exits 0 at end of input',
        "{auto,csv,jsonl}",
        "input (choose one)",
    ),
    Option(
        "baudrate",
        int,
        115200,
        "baud rate for a real serial port (ignored by URLs that have none)",
        "BAUD",
        "input (choose one)",
    ),
    Option(
        "input_format",
        str,
        "rulec",
        "what the serial/TCP/UDP bytes are: rulec (our TELEMETRY frames), ccsds "
        "(CCSDS space packets) or mavlink (needs the [mavlink] extra); ccsds and mavlink "
        "read the [ccsds] / [mavlink] mapping table of --config (docs/telemetry-readers.md)",
        "{rulec,ccsds,mavlink}",
        "input format",
    ),
    Option(
        "log",
        str,
        "-",
        "where JSON lines go: - for stdout (default) or a file, "
        "appended to and reopened on SIGHUP (logrotate)",
        "FILE",
        "output",
    ),
    Option(
        "heartbeat_s",
        float,
        1.0,
        "send a HEARTBEAT frame every S seconds (0: never)",
        "S",
        "output",
    ),
    Option(
        "summary_s",
        float,
        10.0,
        "log a summary line (frames ok/dropped, advisories, "
        "evaluation latency p50/p99) every S seconds (0: only at exit)",
        "S",
        "output",
    ),
    Option(
        "reload_poll_s",
        float,
        1.0,
        "check the bundle file for a change every S seconds (0: reload on SIGHUP only)",
        "S",
        "reload",
    ),
    Option(
        "reconnect_min_s", float, 0.1, "first delay before reopening a failed link", "S", "link"
    ),
    Option("reconnect_max_s", float, 5.0, "cap of the exponential reconnect delay", "S", "link"),
    Option(
        "read_timeout_s",
        float,
        0.05,
        "longest wait for input before housekeeping "
        "(heartbeat, reload, staleness); bounds signal reaction time",
        "S",
        "link",
    ),
    Option(
        "busy_poll_s",
        float,
        0.0,
        "after each read, keep polling the link for S seconds before sleeping: a core "
        "that never idles answers sooner and more steadily, for a core of its own (0: "
        "sleep at once; at most read_timeout_s)",
        "S",
        "link",
    ),
    Option(
        "stale_check_s",
        float,
        0.5,
        "when no frame came for S seconds, advance the "
        "engine clock so values older than their max_age_s turn stale",
        "S",
        "link",
    ),
    Option(
        "max_time_jump_s",
        float,
        60.0,
        "a frame stamped more than S seconds after the last sample is a clock fault: "
        "counted, logged and not evaluated (0: no bound)",
        "S",
        "link",
    ),
    Option(
        "max_clock_skew_s",
        float,
        0.0,
        "a frame whose time ran S seconds ahead of the local monotonic clock since the "
        "last sample is a clock fault (0: off; for firmware that streams in real time)",
        "S",
        "link",
    ),
    Option(
        "clock_rebase_frames",
        int,
        5,
        "after N clock-fault frames in a row whose own times move forward, the firmware "
        "clock is taken to have restarted: engine time continues from where it was",
        "N",
        "link",
    ),
    Option(
        "takeover_s",
        float,
        5.0,
        "TCP: a waiting connection replaces the current one after it has been silent this long",
        "S",
        "link",
    ),
    Option(
        "write_timeout_s",
        float,
        0.5,
        "longest blocking write to the link; a serial "
        "write that times out is dropped, a TCP one drops the connection",
        "S",
        "link",
    ),
    Option(
        "max_buffer_bytes",
        int,
        65536,
        "bound of every read and receive buffer (and of one text line)",
        "N",
        "link",
    ),
    Option(
        "max_frames_per_read",
        int,
        0,
        "overload bound: evaluate at most N frames of one read one by one; older frames "
        "of that read fold into the next evaluated one (latest value per channel) and "
        "count as dropped `overload`; exact duplicates are dropped first and do not count "
        "(0: evaluate every frame)",
        "N",
        "link",
    ),
)

_BY_KEY = {o.key: o for o in OPTIONS}


@dataclass(frozen=True)
class OnboardConfig:
    """The daemon's settings after file and flags are merged and checked."""

    bundle: Path
    trust: Path | None = None
    last_good: str | None = None
    serial: str | None = None
    tcp_listen: str | None = None
    udp_listen: str | None = None
    stdin: str | None = None
    baudrate: int = 115200
    log: str = "-"
    heartbeat_s: float = 1.0
    summary_s: float = 10.0
    reload_poll_s: float = 1.0
    reconnect_min_s: float = 0.1
    reconnect_max_s: float = 5.0
    read_timeout_s: float = 0.05
    busy_poll_s: float = 0.0
    stale_check_s: float = 0.5
    max_time_jump_s: float = 60.0
    max_clock_skew_s: float = 0.0
    clock_rebase_frames: int = 5
    takeover_s: float = 5.0
    write_timeout_s: float = 0.5
    max_buffer_bytes: int = 65536
    max_frames_per_read: int = 0
    input_format: str = "rulec"
    ccsds: Mapping[str, Any] | None = None  # the [ccsds] table, checked by check_config
    mavlink: Mapping[str, Any] | None = None  # the [mavlink] table

    @property
    def input_kind(self) -> str:
        """The chosen input: serial, tcp_listen, udp_listen or stdin."""
        for key in INPUT_KEYS:
            if getattr(self, key) is not None:
                return key
        raise ConfigError("no input chosen")

    @property
    def has_input(self) -> bool:
        """False only for ``--check`` run without an input option."""
        return any(getattr(self, key) is not None for key in INPUT_KEYS)

    @property
    def input_text(self) -> str:
        kind = self.input_kind
        return f"{kind}={getattr(self, kind)}"


def read_config_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The TOML file's settings, type-checked, with paths made relative to its folder."""
    where = os.fspath(path)
    try:
        with open(path, "rb") as f:
            raw = tomllib.load(f)
    except OSError as exc:
        raise ConfigError(f"{where}: cannot read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: not valid TOML: {exc}") from None
    base = Path(path).resolve().parent
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key in SECTIONS:
            if not isinstance(value, dict):
                raise ConfigError(f"{where}: {key} must be a table ([{key}])")
            out[key] = value
            continue
        option = _BY_KEY.get(key)
        if option is None:
            known = ", ".join(o.key for o in OPTIONS)
            raise ConfigError(f"{where}: unknown key {key!r} (known: {known})")
        out[key] = _typed(option, value, f"{where}: {key}")
        relative = key in ("bundle", "log", "trust", "last_good") and not Path(
            out[key]).is_absolute()
        if relative and out[key] != "-":
            out[key] = str(base / out[key])
    return out


def _typed(option: Option, value: Any, where: str) -> Any:
    if option.kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if option.key in ("tcp_listen", "udp_listen") and isinstance(value, int) and not (
            isinstance(value, bool)):
        value = str(value)  # `tcp_listen = 7000`: a port on 127.0.0.1, as the flag takes it
    if isinstance(value, bool) or not isinstance(value, option.kind):
        raise ConfigError(
            f"{where} must be {option.kind.__name__}, found {type(value).__name__} {value!r}"
        )
    return value


def build_config(
    file_values: Mapping[str, Any] | None = None,
    flag_values: Mapping[str, Any] | None = None,
    need_input: bool = True,
) -> OnboardConfig:
    """Defaults <- file <- flags (None means "not given"); then every value is checked.

    ``need_input=False`` (``--check``) lets a pre-flight check name no input.
    """
    file_values = dict(file_values or {})
    flags = {k: v for k, v in (flag_values or {}).items() if v is not None}
    if any(k in flags for k in INPUT_KEYS):
        for key in INPUT_KEYS:
            file_values.pop(key, None)
    merged: dict[str, Any] = {}
    for f in fields(OnboardConfig):
        if f.name in flags:
            merged[f.name] = flags[f.name]
        elif f.name in file_values:
            merged[f.name] = file_values[f.name]
    if "bundle" not in merged:
        raise ConfigError("no bundle given (--bundle FILE or `bundle = ...` in the config)")
    merged["bundle"] = Path(merged["bundle"])
    if merged.get("trust") is not None:
        if not str(merged["trust"]).strip():
            raise ConfigError("--trust: empty path")
        merged["trust"] = Path(merged["trust"])
    config = OnboardConfig(**merged)
    try:
        check_config(config, need_input)
    except ConfigError as exc:
        # a value from the config file is named by its key there, not by the flag
        message = str(exc)
        for key in sorted(set(file_values) - set(flags), key=len, reverse=True):
            option = _BY_KEY.get(key)
            if option is not None:
                message = re.sub(rf"{re.escape(option.flag)}(?![\w-])",
                                 f"{key} (config file)", message)
        raise ConfigError(message) from None
    return config


def check_config(c: OnboardConfig, need_input: bool = True) -> None:
    """Refuse values the daemon cannot run with, naming the option."""
    chosen = [k for k in INPUT_KEYS if getattr(c, k) is not None]
    if len(chosen) != 1 and (need_input or chosen):
        flags = ", ".join(_BY_KEY[k].flag for k in INPUT_KEYS)
        found = ", ".join(_BY_KEY[k].flag for k in chosen) or "none"
        raise ConfigError(f"choose exactly one input of {flags} (found {found})")
    if c.stdin is not None and c.stdin not in STDIN_FORMATS:
        raise ConfigError(f"--stdin must be one of {', '.join(STDIN_FORMATS)}, not {c.stdin!r}")
    _check_format(c)
    for key in ("tcp_listen", "udp_listen"):
        value = getattr(c, key)
        if value is not None:
            try:
                parse_host_port(value)
            except ValueError as exc:
                raise ConfigError(f"{_BY_KEY[key].flag}: {exc}") from None
    if c.serial is not None:
        if not c.serial.strip():
            raise ConfigError("--serial: empty URL")
        try:  # an unknown URL scheme never works: refuse it now rather than retry forever
            serial.serial_for_url(c.serial, do_not_open=True)
        except (ValueError, serial.SerialException) as exc:
            raise ConfigError(f"--serial {c.serial!r}: {exc}") from None
    if not c.log.strip():
        raise ConfigError("--log: empty path (use - for stdout)")
    _positive(c, "baudrate", c.baudrate, 1, 100_000_000)
    _positive(c, "max_buffer_bytes", c.max_buffer_bytes, 256, 16 * 1024 * 1024)
    if c.max_frames_per_read:
        _positive(c, "max_frames_per_read", c.max_frames_per_read, 1, 1 << 20)
    _positive(c, "clock_rebase_frames", c.clock_rebase_frames, 1, 1 << 20)
    for key in ("heartbeat_s", "summary_s", "reload_poll_s", "busy_poll_s",
                "max_time_jump_s", "max_clock_skew_s"):
        _seconds(key, getattr(c, key), allow_zero=True)
    for key in (
        "reconnect_min_s",
        "reconnect_max_s",
        "read_timeout_s",
        "stale_check_s",
        "takeover_s",
        "write_timeout_s",
    ):
        _seconds(key, getattr(c, key), allow_zero=False)
    if c.reconnect_max_s < c.reconnect_min_s:
        raise ConfigError("--reconnect-max-s must not be below --reconnect-min-s")
    if c.read_timeout_s > 1.0:
        raise ConfigError("--read-timeout-s must be at most 1 s (it bounds signal handling)")
    if c.busy_poll_s > c.read_timeout_s:
        raise ConfigError("--busy-poll-s must not exceed --read-timeout-s (housekeeping "
                          "waits for it)")


def _check_format(c: OnboardConfig) -> None:
    """The input format and its mapping table (standard readers only read bytes)."""
    if c.input_format not in INPUT_FORMATS:
        formats = ", ".join(INPUT_FORMATS)
        raise ConfigError(f"--input-format must be one of {formats}, not {c.input_format!r}")
    if c.input_format == "rulec":
        return
    if c.stdin is not None:
        raise ConfigError(f"--input-format {c.input_format} reads serial, TCP or UDP, not --stdin")
    table = getattr(c, c.input_format)
    if table is None:
        raise ConfigError(
            f"--input-format {c.input_format} needs a [{c.input_format}] mapping table in "
            "--config (docs/telemetry-readers.md)"
        )
    try:
        parse_input_mapping(c.input_format, table)
    except ValueError as exc:
        raise ConfigError(f"[{c.input_format}] mapping: {exc}") from None


def parse_input_mapping(input_format: str, table: Mapping[str, Any]) -> Any:
    """The parsed mapping of a standard reader (``ValueError`` naming the key at fault)."""
    if input_format == "ccsds":
        return parse_ccsds_config(table)
    return parse_mavlink_config(table)


def _positive(c: OnboardConfig, key: str, value: int, lo: int, hi: int) -> None:
    if not lo <= value <= hi:
        raise ConfigError(f"{_BY_KEY[key].flag} must be in {lo}..{hi}, not {value}")


def _seconds(key: str, value: float, allow_zero: bool) -> None:
    ok = math.isfinite(value) and (value > 0 or (allow_zero and value == 0))
    if not ok or value > 86400:
        what = "0 or a positive" if allow_zero else "a positive"
        raise ConfigError(f"{_BY_KEY[key].flag} must be {what} number of seconds, not {value}")
