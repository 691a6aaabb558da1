"""The floor under ``rulec-onboard``'s latency: the same links and codec, no evaluation.

``bench_e2e.py --floor`` runs this in place of the daemon.  It opens the link the way
the daemon does (``rulec.firmware_bridge.links``, same classes and buffer sizes),
decodes with the same ``FrameDecoder`` (the C codec when built), and answers every
TELEMETRY frame with one ADVISORY frame stamped with the frame's timestamp, as the
daemon does when a frame raises or clears a rule.  No bundle is loaded, nothing is
evaluated, logged or counted: what it measures is what a Python process pays to be
woken, read a frame and write a reply on this machine, so ``daemon e2e - floor e2e``
is the cost of evaluation and bookkeeping.

    python bench/floor_daemon.py DUMP.json -- --tcp-listen 127.0.0.1:7700
    python bench/floor_daemon.py DUMP.json -- --serial /dev/pts/3 --baudrate 921600

Timers (kept in DUMP.json at SIGTERM): ``e2e_us`` chunk read -> replies written, and
``cpu_us`` the thread's CPU time for the chunk, like the daemon's wrapper in
``bench_e2e.py``.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from pathlib import Path
from types import FrameType

from rulec.firmware_bridge import protocol as wire
from rulec.firmware_bridge.links import (
    Backoff,
    Link,
    LinkSupervisor,
    SerialLink,
    TcpListenLink,
    UdpListenLink,
    parse_host_port,
)

MAX_READ = 65536  # the daemon's default max_buffer_bytes
WRITE_TIMEOUT_S = 0.5


def make_link(args: argparse.Namespace) -> Link:
    if args.serial:
        return SerialLink(args.serial, args.baudrate, MAX_READ, WRITE_TIMEOUT_S)
    if args.tcp_listen:
        host, port = parse_host_port(args.tcp_listen)
        return TcpListenLink(host, port, MAX_READ, WRITE_TIMEOUT_S, 2.0)
    host, port = parse_host_port(args.udp_listen)
    return UdpListenLink(host, port, MAX_READ)


def serve(link: Link, dump: Path) -> int:
    supervisor = LinkSupervisor(link, Backoff(0.05, 1.0))
    decoder = wire.FrameDecoder()
    head = wire.advisory_head("raise", "caution", "FLOOR")
    info = wire.encode_bundle_info(wire.BundleInfo("floor", 1, bytes(32)))
    e2e: list[float] = []
    cpu: list[float] = []
    stop = False
    seq = 0

    def on_term(signum: int, frame: FrameType | None) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, on_term)
    while not stop:
        chunks = supervisor.read(0.05)
        for ev in supervisor.events():
            if ev.state == "up":
                decoder = wire.FrameDecoder()
                supervisor.write(wire.encode_raw_frame(int(wire.MsgType.BUNDLE_INFO), seq, 0,
                                                       info), ev.peer)
                seq += 1
        for chunk in chunks:
            received, started = time.perf_counter(), time.thread_time_ns()
            replies = []
            for frame in decoder.feed(chunk.data):
                if frame.msg_type != wire.MsgType.TELEMETRY:
                    continue
                values = wire.decode_telemetry(frame.payload)
                payload = wire.encode_advisory_values(head, {0: values.get(0, 0.0)})
                replies.append(wire.encode_raw_frame(int(wire.MsgType.ADVISORY), seq,
                                                     frame.timestamp_us, payload))
                seq += 1
            if replies:
                supervisor.write(b"".join(replies), chunk.peer)
                e2e.append((time.perf_counter() - received) * 1e6)
                cpu.append((time.thread_time_ns() - started) / 1e3)
    link.close()
    dump.write_text(json.dumps({"e2e_us": e2e, "eval_us": [], "cpu_us": cpu}), encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    dump, rest = Path(argv[0]), [a for a in argv[1:] if a != "--"]
    parser = argparse.ArgumentParser(description=__doc__)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--serial")
    where.add_argument("--tcp-listen")
    where.add_argument("--udp-listen")
    parser.add_argument("--baudrate", type=int, default=921600)
    args, _ = parser.parse_known_args(rest)  # the daemon's other flags are ignored
    return serve(make_link(args), dump)


if __name__ == "__main__":
    sys.exit(main())
