"""`rulec-sim`'s command line: flags -> channel map, scenario, transport and fault
injector; replies printed as they come (``Printer``: human lines or JSON lines); one
JSON summary at the end.

Apart from the simulator so that ``Simulator`` can be driven from code (tests,
``bench/bench_e2e.py``) without the flags and the printing.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from rulec.firmware_bridge import protocol as wire
from rulec.firmware_bridge.sim.errors import SimError
from rulec.firmware_bridge.sim.faults import FaultConfig, FaultInjector
from rulec.firmware_bridge.sim.player import Reply, Simulator
from rulec.firmware_bridge.sim.scenario import ChannelMap, load_scenario, scenario_frames
from rulec.firmware_bridge.sim.transports import (
    PtyTransport,
    SerialTransport,
    TcpTransport,
    Transport,
    UdpTransport,
)

__all__ = ["Printer", "main"]

EXIT_OK = 0
EXIT_NO_DAEMON = 1
EXIT_USAGE = 2


# --------------------------------------------------------------------------- printing


class Printer:
    """Replies as human lines or JSON lines."""

    def __init__(self, names: Mapping[int, str], actions: Mapping[str, str], as_json: bool,
                 verbose: bool, out: TextIO | None = None) -> None:
        self.names = dict(names)
        self.actions = dict(actions)
        self.as_json = as_json
        self.verbose = verbose
        self.out = out

    def _named(self, values: Mapping[int, float]) -> dict[str, float | None]:
        return {self.names.get(ch, f"ch{ch}"): (v if math.isfinite(v) else None)
                for ch, v in values.items()}

    def line(self, record: dict[str, Any], text: str) -> None:
        out = self.out or sys.stdout
        if self.as_json:
            print(json.dumps(record, ensure_ascii=False), file=out, flush=True)
        else:
            print(text, file=out, flush=True)

    def link(self, elapsed_s: float, state: str) -> None:
        self.line({"event": "link", "state": state, "elapsed_s": round(elapsed_s, 3),
                   "injected": True},
                  f"link {state} (injected) at {elapsed_s:.2f} s")

    def reply(self, reply: Reply) -> None:
        frame, msg = reply.frame, reply.message
        t = frame.timestamp_us / 1e6
        rtt = None if reply.rtt_us is None else round(reply.rtt_us, 1)
        rtt_text = "" if rtt is None else f"  rtt {rtt / 1e3:.2f} ms"
        if isinstance(msg, wire.Advisory):
            values = self._named(msg.values)
            action = self.actions.get(msg.rule_id, "")
            shown = " ".join(f"{k}={v:g}" if v is not None else f"{k}=nan"
                             for k, v in values.items())
            self.line(
                {"event": msg.event, "t": t, "rule": msg.rule_id, "severity": msg.severity,
                 "values": values, "action": action or None, "seq": frame.seq, "rtt_us": rtt},
                f"t={t:8.2f}s  {msg.event.upper():<5}  {msg.severity:<8} {msg.rule_id}  "
                f"{shown}{rtt_text}" + (f"\n{'':13}-> {action}" if action else ""),
            )
        elif isinstance(msg, wire.SensorFault):
            name = self.names.get(msg.channel, f"ch{msg.channel}")
            self.line(
                {"event": "sensor_fault", "t": t, "channel": msg.channel, "parameter": name,
                 "reason": msg.reason.name.lower(), "seq": frame.seq, "rtt_us": rtt},
                f"t={t:8.2f}s  FAULT  {name} (channel {msg.channel}): "
                f"{msg.reason.name.lower()}{rtt_text}",
            )
        elif isinstance(msg, wire.BundleInfo):
            self.line(
                {"event": "bundle_info", "bundle_id": msg.bundle_id,
                 "format_version": msg.format_version, "digest": msg.digest.hex()},
                f"daemon serves bundle {msg.bundle_id} (format {msg.format_version}, "
                f"digest {msg.digest.hex()[:16]}...)",
            )
        elif isinstance(msg, wire.Heartbeat):
            if self.verbose:
                self.line(
                    {"event": "heartbeat", "uptime_ms": msg.uptime_ms,
                     "frames_ok": msg.frames_ok, "frames_dropped": msg.frames_dropped,
                     "advisories": msg.advisories},
                    f"heartbeat: uptime {msg.uptime_ms / 1e3:.1f} s, frames ok "
                    f"{msg.frames_ok}, dropped {msg.frames_dropped}, active {msg.advisories}",
                )
        elif self.verbose:
            self.line({"event": "frame", "type": frame.msg_type.name.lower(), "seq": frame.seq,
                       "ts_us": frame.timestamp_us, "malformed": msg is None},
                      f"frame {frame.msg_type.name} seq {frame.seq}"
                      + (" (malformed payload)" if msg is None else ""))


# --------------------------------------------------------------------------- command line

_EPILOG = """\
examples:
  # make a pty, print its path, wait for the daemon, play at 10x real time
  rulec-sim examples/scenarios/engine_test.csv --bundle out/rocket_engine.bundle --speed 10
  rulec-onboard --bundle out/rocket_engine.bundle --serial /dev/pts/N      # other terminal

  # TCP at 115200 baud with bit errors and split writes, as fast as the line allows
  rulec-onboard --bundle b.rulec --tcp-listen 7700 &
  rulec-sim engine_test.csv --bundle b.rulec --tcp 7700 --as-fast-as-possible \\
      --baud 115200 --ber 1e-4 --split --seed 3

links: --pty (default) creates a pty pair and prints the slave path for the daemon
(`--pty-path-file F` also writes it to F); --serial URL uses an existing pty or port
(any pyserial URL); --tcp/--udp [HOST:]PORT talk to a daemon listening on 127.0.0.1.
Unless --wait-s 0, the scenario starts when the daemon's BUNDLE_INFO arrives (default
wait: 60 s on a pty made here, 10 s for tcp/serial; udp does not wait).

faults (seeded by --seed, counted exactly, printed in the final JSON summary):
--ber bit error rate; --drop-rate / --dup-rate per byte; --frame-drop-rate /
--frame-dup-rate per frame; --split random split writes; --link-drop-every S cuts the
frame being sent every S seconds and keeps the link down --link-down-s (a socket or
serial port is closed and reopened; a pty just goes silent).

output: advisories as they raise and clear (with the round trip, telemetry frame
written -> reply read, when the reply's timestamp matches a frame we sent), sensor
faults, then one JSON line {"event": "summary", ...}.  --json makes every line JSON."""


def _version() -> str:
    """The installed rulec version."""
    from importlib import metadata

    try:
        return metadata.version("rulec")
    except metadata.PackageNotFoundError:
        return "unknown"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="rulec-sim",
        description="Hardware-in-the-loop firmware simulator: plays a scenario CSV as "
        "TELEMETRY frames to rulec-onboard and prints the advisories that come back.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"rulec-sim {_version()}")
    p.add_argument("scenario", type=Path, metavar="SCENARIO.csv",
                   help="CSV with a 'time' column (s) and one column per parameter")
    g = p.add_argument_group("channels (at least one)")
    g.add_argument("--bundle", metavar="BUNDLE",
                   help="take parameter channels (and advisory texts) from this bundle")
    g.add_argument("--sensors", metavar="TOML", help="take channels from a sensors.toml")
    g.add_argument("--channels", metavar="NAME=CH,...", help="explicit channels (override)")
    g = p.add_argument_group("link (one; default --pty)")
    links = g.add_mutually_exclusive_group()
    links.add_argument("--pty", action="store_true", help="create a pty pair (default)")
    links.add_argument("--serial", metavar="URL",
                       help="an existing pty path or any pyserial URL")
    links.add_argument("--tcp", metavar="[HOST:]PORT", help="connect to a TCP listener")
    links.add_argument("--udp", metavar="[HOST:]PORT", help="send datagrams")
    g.add_argument("--pty-path-file", metavar="FILE", help="also write the pty path here")
    g.add_argument("--wait-s", type=float, default=None, metavar="S",
                   help="wait this long for the daemon's BUNDLE_INFO before playing (0: no)")
    g = p.add_argument_group("timing")
    speed = g.add_mutually_exclusive_group()
    speed.add_argument("--speed", type=float, default=1.0, metavar="X",
                       help="play X times faster than real time [default: 1]")
    speed.add_argument("--as-fast-as-possible", action="store_true",
                       help="ignore the scenario's times (the baud rate still paces)")
    g.add_argument("--baud", type=int, default=None, metavar="N",
                   help="pace bytes as a UART at N baud would carry them (10 bits a byte)")
    g.add_argument("--repeat", type=int, default=1, metavar="N",
                   help="play the scenario N times, the clock running on [default: 1]")
    g.add_argument("--linger-s", type=float, default=1.0, metavar="S",
                   help="keep reading replies this long after the last frame [default: 1]")
    g = p.add_argument_group("faults")
    g.add_argument("--seed", type=int, default=0, help="RNG seed [default: 0]")
    g.add_argument("--ber", type=float, default=0.0, metavar="P", help="bit error rate")
    g.add_argument("--drop-rate", type=float, default=0.0, metavar="P",
                   help="probability that a byte is lost")
    g.add_argument("--dup-rate", type=float, default=0.0, metavar="P",
                   help="probability that a byte is sent twice")
    g.add_argument("--frame-drop-rate", type=float, default=0.0, metavar="P",
                   help="probability that a whole frame is lost")
    g.add_argument("--frame-dup-rate", type=float, default=0.0, metavar="P",
                   help="probability that a whole frame is sent twice")
    g.add_argument("--split", action="store_true",
                   help="write every frame in 2..--max-pieces random pieces")
    g.add_argument("--max-pieces", type=int, default=4, metavar="N", help=argparse.SUPPRESS)
    g.add_argument("--link-drop-every", type=float, default=None, metavar="S",
                   help="cut the link every S seconds")
    g.add_argument("--link-down-s", type=float, default=0.5, metavar="S",
                   help="how long a cut link stays down [default: 0.5]")
    g = p.add_argument_group("output")
    g.add_argument("--json", action="store_true", help="JSON lines only")
    g.add_argument("-v", "--verbose", action="store_true",
                   help="also print heartbeats and other frames")
    g.add_argument("-q", "--quiet", action="store_true",
                   help="print only the final summary")
    return p


def _host_port(text: str) -> tuple[str, int]:
    host, sep, port_text = text.strip().rpartition(":")
    if not sep:
        host, port_text = "", text.strip()
    try:
        port = int(port_text)
    except ValueError:
        raise SimError(f"bad address {text!r}: PORT must be a number") from None
    if not 0 < port <= 65535:
        raise SimError(f"bad address {text!r}: port {port} out of 1..65535")
    return host.strip("[]") or "127.0.0.1", port


def _channels(args: argparse.Namespace) -> ChannelMap:
    if args.bundle:
        cmap = ChannelMap.from_bundle(args.bundle)
    elif args.sensors:
        cmap = ChannelMap.from_sensors(args.sensors)
    else:
        cmap = ChannelMap()
    if args.bundle and args.sensors:
        extra = ChannelMap.from_sensors(args.sensors)
        cmap.channels.update(extra.channels)
        cmap.aliases.update(extra.aliases)
    if args.channels:
        cmap.add_spec(args.channels)
    if not cmap.channels:
        raise SimError("no telemetry channels: give --bundle, --sensors or --channels")
    return cmap


def _transport(args: argparse.Namespace, wait: float) -> Transport:
    if args.serial:
        return SerialTransport(args.serial, args.baud or 115200, connect_timeout=max(wait, 1))
    if args.tcp:
        host, port = _host_port(args.tcp)
        return TcpTransport(host, port, connect_timeout=max(wait, 1))
    if args.udp:
        return UdpTransport(*_host_port(args.udp))
    return PtyTransport()


def _injector(args: argparse.Namespace) -> FaultInjector:
    try:
        config = FaultConfig(
            ber=args.ber, drop_rate=args.drop_rate, dup_rate=args.dup_rate,
            frame_drop_rate=args.frame_drop_rate, frame_dup_rate=args.frame_dup_rate,
            split=args.split, max_pieces=args.max_pieces,
            link_drop_every_s=args.link_drop_every, link_down_s=args.link_down_s,
            seed=args.seed,
        )
    except ValueError as exc:
        raise SimError(str(exc)) from None
    return FaultInjector(config)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except SimError as exc:
        print(f"rulec-sim: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


def _run(args: argparse.Namespace) -> int:
    if args.speed <= 0 or not math.isfinite(args.speed):
        raise SimError(f"--speed must be a positive number, not {args.speed}")
    if args.repeat < 1:
        raise SimError(f"--repeat must be at least 1, not {args.repeat}")
    cmap = _channels(args)
    injector = _injector(args)
    scenario = load_scenario(args.scenario, cmap)
    for column in scenario.unmapped:
        print(f"rulec-sim: warning: column {column!r} has no telemetry channel; not sent",
              file=sys.stderr)
    created_pty = not (args.serial or args.tcp or args.udp)
    wait = args.wait_s
    if wait is None:
        wait = 0.0 if args.udp else 60.0 if created_pty else 10.0
    printer = Printer(cmap.names(), cmap.actions, args.json, args.verbose)
    quiet = args.quiet
    transport = _transport(args, wait)
    try:
        if isinstance(transport, PtyTransport):
            if args.pty_path_file:
                Path(args.pty_path_file).write_text(transport.path + "\n", encoding="utf-8")
            printer.line({"event": "pty", "path": transport.path},
                         f"rulec-sim: pty {transport.path}  "
                         f"(rulec-onboard --serial {transport.path})")
        sim = Simulator(transport, injector, args.baud,
                        on_reply=None if quiet else printer.reply,
                        on_link=None if quiet else printer.link)
        if wait > 0 and not sim.wait_for(lambda: sim.bundle_info is not None, wait):
            print(f"rulec-sim: error: no BUNDLE_INFO from the daemon on {transport.name} "
                  f"within {wait:g} s", file=sys.stderr)
            return EXIT_NO_DAEMON
        speed = None if args.as_fast_as_possible else args.speed
        frames = len(scenario.rows) * args.repeat
        pace = "as fast as possible" if speed is None else f"at x{speed:g}"
        if not quiet:
            printer.line(
                {"event": "play", "scenario": str(args.scenario), "frames": frames,
                 "duration_s": scenario.duration_s * args.repeat, "speed": speed,
                 "baud": args.baud, "link": transport.name, "channels": scenario.columns,
                 "faults": injector.config.active},
                f"playing {args.scenario.name}: {frames} frames, "
                f"{scenario.duration_s * args.repeat:g} s of data {pace}"
                + (f", {args.baud} baud" if args.baud else "") + f" over {transport.name}",
            )
        sim.start_clock()
        sim.play(scenario_frames(scenario, speed, args.repeat))
        sim.drain(args.linger_s)
        summary = sim.summary()
    finally:
        transport.close()
    print(json.dumps(summary, ensure_ascii=False), flush=True)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
