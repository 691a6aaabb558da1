"""The daemon's fast lane (csrc/lane.c, runtime/daemon/lane.py) held to the Python stream.

Two daemons read the same chunks of bytes over real TCP connections, one with the lane
and one without: every frame they write back (ADVISORY, SENSOR_FAULT) must be the same
bytes, every log line the same record, every counter the same count, and the stream
left in the same state.  The streams are random and hostile: exact thresholds and
their neighbours, NaN, infinities, values out of range, stale parameters, on-delays,
off-delays, latches, deadbands, unknown channels, duplicates, sequence gaps and
restarts, clocks going back, corrupt bytes, other message types, frames split across
reads.  The lane must also take most frames itself, or it would prove nothing.
"""

from __future__ import annotations

import io
import json
import math
import os
import random
import socket
import struct
import time
from pathlib import Path
from typing import Any

import pytest

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.firmware_bridge import protocol as wire
from rulec.firmware_bridge.links import Chunk
from rulec.runtime import NATIVE
from rulec.runtime.bundle.format import encode_bundle
from rulec.runtime.bundle.loader import load_bundle
from rulec.runtime.daemon.config import build_config
from rulec.runtime.daemon.input import channel_map
from rulec.runtime.daemon.lane import Lane, lane_module
from rulec.runtime.daemon.log import EventLog
from rulec.runtime.daemon.loop import Daemon
from rulec.runtime.engine.engine import Engine

pytestmark = [pytest.mark.compiled, pytest.mark.skipif(lane_module() is None or not NATIVE,
                                reason="the lane runs on the C kernel (not built, or "
                                "RULEC_PUREPYTHON=1)")]

SENSORS = """
[parameters.p0]
unit = "bar"
range = [0, 100]
channel = 0

[parameters.p1]
unit = "bar"
range = [0, 100]
deadband = 2.0
channel = 1

[parameters.p2]
unit = "bar"
range = [0, 100]
max_age_s = 3.0
channel = 2

[parameters.p3]
unit = "bar"
range = [-10, 100]
channel = 5

[parameters.p4]
unit = "bar"
range = [0, 10]
"""

# (id, condition, duration seconds or None, extra bundle keys)
RULES: list[tuple[str, dict[str, Any], float | None, dict[str, Any]]] = [
    ("HI", {"param": "p0", "op": ">", "value": 50}, None, {}),
    ("BAND", {"param": "p1", "op": "between", "value": [20, 30]}, None, {}),
    ("TWO", {"all": [{"param": "p0", "op": ">=", "value": 40},
                     {"param": "p3", "op": "<", "value": 10}]}, None, {}),
    ("DELAY", {"param": "p2", "op": ">", "value": 70}, 2.0, {}),
    ("LATCH", {"param": "p3", "op": ">", "value": 80}, None, {"latch": True}),
    ("OFF", {"param": "p0", "op": "<", "value": 5}, None, {"clear_delay_s": 1.5}),
    ("OUT", {"param": "p3", "op": "outside", "value": [0, 90]}, None, {}),
    ("NOCH", {"all": [{"param": "p4", "op": ">", "value": 1},
                      {"param": "p0", "op": ">", "value": 10}]}, None, {}),
    ("EQ", {"param": "p0", "op": "==", "value": 25}, None, {}),
    ("ANY", {"any": [{"param": "p0", "op": ">", "value": 30},
                     {"param": "p1", "op": ">", "value": 30}]}, None, {}),
    ("DELAYI", {"param": "p2", "op": ">=", "value": 50}, 1.0, {}),
    *((f"G{k:02d}", {"all": [{"param": f"p{k % 4}", "op": "between", "value": [k, k + 7]},
                             {"param": f"p{(k + 1) % 4}", "op": "<=", "value": 3 * k}]},
       None, {}) for k in range(40)),
]

# values that sit on, next to and away from the thresholds above
CHANNELS = (0, 1, 2, 5)  # p0..p3; channel 3 and 4 belong to no parameter
EDGES = [0.0, 5.0, 10.0, 20.0, 25.0, 30.0, 40.0, 50.0, 70.0, 80.0, 90.0, 100.0, -10.0]
SPECIAL = [math.nan, math.inf, -math.inf, 150.0, -20.0]


def lane_bundle(tmp: Path) -> Path:
    folder = tmp / "lane_rules"
    folder.mkdir(exist_ok=True)
    (folder / "sensors.toml").write_text(SENSORS, encoding="utf-8")
    with open(folder / "rules.jsonl", "w", encoding="utf-8") as f:
        for line, (rule_id, cond, duration, _) in enumerate(RULES, 1):
            rule: dict[str, Any] = {
                "schema": 1, "id": rule_id, "kind": "if_then",
                "severity": ("warning", "caution", "advisory")[line % 3],
                "condition": cond, "action": f"act on {rule_id}",
                "source": {"file": "rules.jsonl", "line": line, "text": f"rule {rule_id}"}}
            if duration is not None:
                rule["duration"] = {"seconds": duration, "inclusive": rule_id.endswith("I")}
            f.write(json.dumps(rule) + "\n")
    result = collect_rules([folder])
    assert not result.errors and len(result.rules) == len(RULES)
    payload = build_payload(result, "lane")
    extra = {rule_id: keys for rule_id, _, _, keys in RULES if keys}
    for entry in payload["rules"]:
        entry.update(extra.get(entry["id"], {}))
    path = tmp / "lane.bundle"
    path.write_bytes(encode_bundle(payload))
    return path


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return lane_bundle(tmp_path_factory.mktemp("lane"))


def value(rng: random.Random) -> float:
    roll = rng.random()
    if roll < 0.45:
        v = rng.choice(EDGES)
        return rng.choice([v, math.nextafter(v, math.inf), math.nextafter(v, -math.inf)])
    if roll < 0.5:
        return rng.choice(SPECIAL)
    return round(rng.uniform(-5, 100), rng.choice([0, 1, 3]))


def stream(seed: int, n_frames: int) -> bytes:
    """A hostile byte stream from one firmware."""
    rng = random.Random(seed)
    out = bytearray()
    seq, t_us = 1, 1_000_000
    last = b""
    current = {ch: 10.0 for ch in CHANNELS}
    for _ in range(n_frames):
        roll = rng.random()
        if roll < 0.03 and last:
            out += last  # duplicate
            continue
        if roll < 0.04 and last:  # the last frame's sequence number, something else changed
            twin = wire.FrameDecoder().feed(last)
            if twin:
                f = twin[0]
                change = rng.randrange(3)
                ts = f.timestamp_us + (1 if change == 0 else 0)
                payload = f.payload + (b"\x00" if change == 1 else b"")
                if change == 2 and f.payload:
                    payload = bytes([f.payload[0] ^ 1]) + f.payload[1:]
                out += wire.encode_raw_frame(f.msg_type, f.seq, ts, payload)
                continue
        if roll < 0.05:
            out += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 30)))  # noise
            continue
        seq = (seq + (rng.choice([2, 5, 70000]) if rng.random() < 0.05 else 1)) & 0xFFFFFFFF
        step = rng.choice([100_000, 250_000, 500_000, 1_000_000, 2_500_000, 4_000_000])
        if rng.random() < 0.03:
            step = -rng.choice([200_000, 3_000_000])  # the clock goes back (a little, a lot)
        t_us = max(0, t_us + step)
        if rng.random() < 0.04:
            payload = wire.encode_heartbeat(wire.Heartbeat(1, 2, 3, 4))
            frame = wire.encode_raw_frame(wire.MsgType.HEARTBEAT, seq, t_us, payload)
        elif rng.random() < 0.02:  # intact frame, payload that is not TELEMETRY's layout
            payload = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 15)))
            frame = wire.encode_raw_frame(wire.MsgType.TELEMETRY, seq, t_us, payload)
        else:
            for ch in rng.sample(CHANNELS, rng.randint(1, 4)):
                current[ch] = value(rng)
            sent = {ch: v for ch, v in current.items() if rng.random() < 0.8} or current
            if rng.random() < 0.03:
                sent = {**sent, rng.choice([4, 9]): 1.0}  # a channel no parameter has
            frame = wire.encode_raw_frame(wire.MsgType.TELEMETRY, seq, t_us,
                                          wire.encode_telemetry(sent))
        if rng.random() < 0.02:
            bad = bytearray(frame)
            bad[rng.randrange(len(bad) - 1)] ^= 1 << rng.randrange(8)
            frame = bytes(bad).replace(b"\x00", b"\x01")[:-1] + b"\x00"
        out += frame
        last = frame
    return bytes(out)


def chunks(data: bytes, seed: int) -> list[bytes]:
    """Reads as a link might return them: whole frames mostly, sometimes cut anywhere."""
    rng = random.Random(seed)
    out, i = [], 0
    while i < len(data):
        n = rng.choice([1, 7, 40, 200, 1000]) if rng.random() < 0.3 else len(data)
        if rng.random() < 0.7:  # up to the end of a frame
            end = data.find(b"\x00", i)
            n = end + 1 - i if end >= 0 else len(data) - i
        out.append(data[i:i + n])
        i += n
    return out


class Run:
    """A daemon on a real TCP listener with one real connection, driven chunk by chunk."""

    def __init__(self, bundle: Path, fast_lane: bool, **options: Any) -> None:
        flags = {"bundle": str(bundle), "tcp_listen": "127.0.0.1:0", "summary_s": 0.0,
                 "heartbeat_s": 0.0, "reload_poll_s": 0.0, **options}
        self.log = io.StringIO()
        self.daemon = Daemon(build_config({}, flags), EventLog("-", stream=self.log),
                             fast_lane=fast_lane)
        assert (self.daemon._lane is not None) == fast_lane
        self._until("listening")
        self.sock = socket.create_connection(self.daemon.link.address)
        self._until("up")
        self.received = bytearray()

    def _until(self, state: str) -> None:
        deadline = time.monotonic() + 5
        while self.daemon.link_state != state:
            assert time.monotonic() < deadline, f"the link is not {state}"
            self.daemon.supervisor.read(0.05)
            self.daemon._link_events()

    def feed(self, data: bytes) -> None:
        self.daemon._on_chunk(Chunk(data), time.perf_counter())
        self.sock.setblocking(False)
        try:
            while True:
                got = self.sock.recv(65536)
                if not got:
                    break
                self.received += got
        except BlockingIOError:
            pass

    def close(self) -> None:
        self.sock.settimeout(0.2)
        try:
            while got := self.sock.recv(65536):
                self.received += got
        except (TimeoutError, BlockingIOError):
            pass
        self.sock.close()
        self.daemon.supervisor.close()

    def frames(self) -> list[tuple[int, int, int, bytes]]:
        """What came back, less BUNDLE_INFO (its timestamp is the daemon's uptime)."""
        frames = wire.FrameDecoder().feed(bytes(self.received))
        return [(int(f.msg_type), f.seq, f.timestamp_us, f.payload) for f in frames
                if f.msg_type != wire.MsgType.BUNDLE_INFO]

    def records(self) -> list[dict[str, Any]]:
        skip = {"start", "link", "summary", "stop"}
        lines = [json.loads(line) for line in self.log.getvalue().splitlines()]
        return [{k: v for k, v in r.items() if k != "ts"} for r in lines  # ts: wall clock
                if r.get("event") not in skip]


def same_floats(a: Any, b: Any) -> bool:
    return struct.pack(f"{len(a)}d", *a) == struct.pack(f"{len(b)}d", *b)


def compare(bundle: Path, data_chunks: list[bytes], **options: Any) -> tuple[Run, Run]:
    fast, slow = Run(bundle, True, **options), Run(bundle, False, **options)
    try:
        for piece in data_chunks:
            fast.feed(piece)
            slow.feed(piece)
    finally:
        fast.close()
        slow.close()
    assert fast.frames() == slow.frames()
    assert fast.records() == slow.records()
    fc, sc = fast.daemon.counters.total, slow.daemon.counters.total
    assert fc == sc
    fs, ss = fast.daemon.engine.stream, slow.daemon.engine.stream
    assert fs.raised == ss.raised and fs.since == ss.since and fs.faults == ss.faults
    assert fs.false_since == ss.false_since and fs.t == ss.t
    assert same_floats(fs.last_value, ss.last_value) and same_floats(fs.last_time, ss.last_time)
    return fast, slow


@pytest.mark.parametrize("seed", range(12))
def test_the_lane_writes_and_logs_what_the_python_stream_does(bundle: Path, seed: int) -> None:
    data = stream(seed, 400)
    fast, _ = compare(bundle, chunks(data, seed))
    lane = fast.daemon._lane
    assert lane is not None
    ok = fast.daemon.counters.total["frames_ok"]
    assert lane.taken > 0.3 * ok, f"the lane took {lane.taken} of {ok} frames"
    assert fast.daemon.counters.total["advisories.raise"] > 0


def test_a_quiet_healthy_stream_never_leaves_the_lane(bundle: Path) -> None:
    rng = random.Random(7)
    frames = []
    for i in range(300):
        values = {ch: rng.choice([12.0, 33.0, 45.0, 55.0, 60.0]) for ch in CHANNELS}
        payload = wire.encode_telemetry(values)
        frames.append(wire.encode_raw_frame(wire.MsgType.TELEMETRY, i + 1,
                                            1_000_000 + 100_000 * i, payload))
    fast, _ = compare(bundle, frames)
    lane = fast.daemon._lane
    assert lane is not None and lane.taken == 300
    assert fast.daemon.counters.total["advisories.raise"] > 10


def test_overload_folding_goes_the_python_way_with_the_same_result(bundle: Path) -> None:
    data = stream(99, 300)
    compare(bundle, [data[i:i + 3000] for i in range(0, len(data), 3000)],
            max_frames_per_read=4)


def test_a_lane_for_an_engine_without_geometry_is_not_built(bundle: Path) -> None:
    engine = Engine(load_bundle(bundle), paths=("logic",))
    assert Lane.for_engine(engine, channel_map(engine)) is None
    numpy_engine = Engine(load_bundle(bundle), backend="numpy")
    assert Lane.for_engine(numpy_engine, channel_map(numpy_engine)) is None


def test_rules_with_timers_and_latches_are_marked_for_the_stream(tmp_path: Path) -> None:
    path = lane_bundle(tmp_path)
    bundle = load_bundle(path)
    engine = Engine(bundle)
    lane = Lane.for_engine(engine, channel_map(engine))
    assert lane is not None and lane.rules is not None
    flags = lane.ffi.cast("uint8_t *", lane.rules.rules.flags)
    ids = [r.id for r in bundle.rules]
    lib = lane.lib
    assert flags[ids.index("DELAY")] & lib.RL_RULE_ON_DELAY
    assert flags[ids.index("LATCH")] & lib.RL_RULE_LATCH
    assert flags[ids.index("OFF")] & lib.RL_RULE_OFF_DELAY
    assert not flags[ids.index("HI")]


def lane_for(bundle: Path) -> Lane:
    engine = Engine(load_bundle(bundle))
    lane = Lane.for_engine(engine, channel_map(engine))
    assert lane is not None
    lane.new_decoder()
    lane.sync(set(), None, 0.0)
    return lane


def flapping(n: int) -> bytes:
    """n frames that raise and clear EQ in turn: one ADVISORY each."""
    return b"".join(
        wire.encode_raw_frame(wire.MsgType.TELEMETRY, i + 1, 1_000_000 + 1000 * i,
                              wire.encode_telemetry({0: 25.0 if i % 2 == 0 else 12.0}))
        for i in range(n))


def test_the_lane_writes_its_replies_itself_when_given_the_descriptor(bundle: Path) -> None:
    frames = flapping(60)
    twin = lane_for(bundle)
    assert twin.run(frames, 0) == (twin.DONE, len(frames))
    written, rest = twin.replies()
    assert written == 0 and len(rest) == 60
    expected = b"".join(entry[1] for entry in rest)

    lane = lane_for(bundle)
    near, far = socket.socketpair()
    with near, far:
        assert lane.run(frames, 0) == (lane.DONE, len(frames))
        assert lane.write(near.fileno()) == len(expected)
        assert lane.replies() == (60, [])
        far.settimeout(2)
        got = b""
        while len(got) < len(expected):
            got += far.recv(65536)
        assert got == expected

        # a link that takes nothing now: every reply is left to the transmitter, in order
        near.setblocking(False)
        try:
            while True:
                near.send(b"\x01" * 4096)
        except BlockingIOError:
            pass
        again = lane_for(bundle)
        assert again.run(frames, 0) == (again.DONE, len(frames))
        assert again.write(near.fileno()) == 0
        written, rest = again.replies()
        assert written == 0 and b"".join(entry[1] for entry in rest) == expected


@pytest.mark.parametrize("took", [1, 39, 40, 41, 400, 2399])
def test_a_reply_written_in_part_leaves_its_tail_then_the_others(bundle: Path,
                                                                 took: int) -> None:
    lane = lane_for(bundle)
    frames = flapping(60)
    assert lane.run(frames, 0) == (lane.DONE, len(frames))
    _, whole = lane.replies()
    expected = b"".join(entry[1] for entry in whole)
    lane.c.written = took  # as if write(2) had taken this much
    written, rest = lane.replies()
    assert expected[:took] + b"".join(entry[1] for entry in rest) == expected
    assert written == expected[:took].count(b"\x00")  # frames written whole
    assert written + len(rest) == 60


def crowd_bundle(tmp: Path, n: int, long_id: bool = False) -> Path:
    """n rules p0 > k (k = 0..n-1): one sample can raise all of them at once."""
    folder = tmp / f"crowd_{n}_{long_id}"
    folder.mkdir()
    (folder / "sensors.toml").write_text(
        '[parameters.p0]\nunit = "bar"\nrange = [0, 1000]\nchannel = 0\n', encoding="utf-8")
    with open(folder / "rules.jsonl", "w", encoding="utf-8") as f:
        for k in range(n):
            rule = {"schema": 1, "id": f"C{k:03d}", "kind": "if_then", "severity": "caution",
                    "condition": {"param": "p0", "op": ">", "value": k},
                    "action": f"act {k}", "source": {"file": "rules.jsonl", "line": k + 1,
                                                     "text": f"rule {k}"}}
            f.write(json.dumps(rule) + "\n")
    payload = build_payload(collect_rules([folder]), "crowd")
    if long_id:  # an ADVISORY for this one cannot fit a frame
        payload["rules"][0]["id"] = "L" * 1100
    path = tmp / f"crowd_{n}_{long_id}.bundle"
    path.write_bytes(encode_bundle(payload))
    return path


def ramp(values: list[float]) -> list[bytes]:
    return [wire.encode_raw_frame(wire.MsgType.TELEMETRY, i + 1, 1_000_000 + 100_000 * i,
                                  wire.encode_telemetry({0: v})) for i, v in enumerate(values)]


def test_a_sample_with_more_changes_than_one_call_holds_goes_to_python(tmp_path: Path) -> None:
    bundle = crowd_bundle(tmp_path, 150)
    fast, _ = compare(bundle, ramp([0.5, 3.5, 200.0, 10.5, 500.0, 0.0, 20.5]))
    lane = fast.daemon._lane
    assert lane is not None and 0 < lane.taken < 7
    assert fast.daemon.counters.total["advisories.raise"] > 300


def test_a_rule_whose_advisory_cannot_fit_a_frame_is_left_to_python(tmp_path: Path) -> None:
    bundle = crowd_bundle(tmp_path, 3, long_id=True)
    fast, _ = compare(bundle, ramp([0.5, 2.5, 0.0, 1.5, 0.5, 5.0]))
    assert fast.daemon.counters.total["tx_errors"] > 0  # the long id's frames, in both


def test_timestamps_at_the_ends_of_the_clock(bundle: Path) -> None:
    frames = [wire.encode_raw_frame(wire.MsgType.TELEMETRY, i + 1, ts,
                                    wire.encode_telemetry({0: v}))
              for i, (ts, v) in enumerate([(0, 60.0), (0, 12.0), (1, 60.0),
                                           (2**63 + 5, 12.0), (2**64 - 1, 60.0)])]
    compare(bundle, frames)


def test_bad_tables_and_arguments_are_refused(bundle: Path, tmp_path: Path) -> None:
    lane = lane_for(bundle)
    assert lane.rules is not None
    ffi, lib, r = lane.ffi, lane.lib, lane.rules.rules
    assert lib.rl_validate(r) == lib.RL_DONE
    for field, index, bad in [("box_rule", 0, -1), ("box_rule", 0, 10**6), ("id_start", 0, 1),
                              ("id_start", 1, 0), ("axis_start", 0, 1), ("axis_start", 1, -1),
                              ("severity", 0, 0), ("severity", 0, 4), ("axes", 0, 99),
                              ("axes", 0, -1), ("param_channel", 0, -2),
                              ("param_channel", 0, 70000), ("channel_param", 0, 99),
                              ("channel_param", 0, -2)]:
        array = ffi.cast(ffi.typeof(getattr(r, field)), getattr(r, field))
        old = array[index]
        array[index] = bad
        try:
            assert lib.rl_validate(r) == lib.RL_E_ARG, field
        finally:
            array[index] = old
    assert lib.rl_validate(r) == lib.RL_DONE
    assert lib.rl_validate(ffi.NULL) == lib.RL_E_ARG
    other = Engine(load_bundle(crowd_bundle(tmp_path, 3)))  # one parameter, not five
    for field, bad in [("strict", ffi.NULL), ("n_params", -1), ("n_boxes", -1),
                       ("n_rules", -1), ("n_channels", -1),
                       ("strict", other.native_index()), ("hold", other.native_index()),
                       ("n_boxes", 0)]:
        old = getattr(r, field)
        setattr(r, field, bad)
        try:
            assert lib.rl_validate(r) == lib.RL_E_ARG, field
        finally:
            setattr(r, field, old)
    # a copy of the index claiming fewer entries than its buckets hold (a count larger
    # than an array would make rk_validate itself read past it: it checks consistency,
    # the arrays' lengths are the caller's)
    broken = ffi.new("rk_index *", r.strict[0])
    assert broken.n_entries > 0
    broken.n_entries = 0
    r.strict, old_strict = broken, r.strict
    try:
        assert lib.rl_validate(r) == lib.RL_E_ARG
    finally:
        r.strict = old_strict
    assert lib.rl_validate(r) == lib.RL_DONE
    consumed = ffi.new("int32_t *")
    assert lib.rl_run(ffi.NULL, ffi.NULL, 0, 1, consumed) == lib.RL_E_ARG
    assert lib.rl_run(lane.c, ffi.NULL, 5, 1, consumed) == lib.RL_E_ARG
    assert lib.rl_run(lane.c, ffi.NULL, -1, 1, consumed) == lib.RL_E_ARG
    assert lib.rl_run(lane.c, ffi.NULL, 0, 1, ffi.NULL) == lib.RL_E_ARG
    rules, lane.c.rules = lane.c.rules, ffi.NULL
    assert lib.rl_run(lane.c, ffi.NULL, 0, 1, consumed) == lib.RL_E_ARG
    lane.c.rules = rules
    assert lib.rl_write(ffi.NULL, 1) == lib.RL_E_ARG


@pytest.mark.parametrize("which", ["strict", "hold"])
def test_a_frame_the_kernel_cannot_answer_is_handed_back(bundle: Path, tmp_path: Path,
                                                        which: str) -> None:
    lane = lane_for(bundle)
    frame = ramp([60.0])[0]  # raises HI: with it raised, the deadband index is read too
    assert lane.run(frame, 0) == (lane.DONE, len(frame)) and lane.c.n_fast == 1
    other = Engine(load_bundle(crowd_bundle(tmp_path, 3)))  # one parameter, not five
    assert lane.rules is not None
    setattr(lane.rules.rules, which, other.native_index())  # noqa: B010
    again = wire.encode_raw_frame(wire.MsgType.TELEMETRY, 2, 2_000_000,
                                  wire.encode_telemetry({0: 12.0}))
    assert lane.run(again, 0) == (lane.SLOW, len(again)) and lane.c.n_fast == 0
    assert lane.slow_frame().seq == 2


def test_writing_nothing_or_to_a_closed_descriptor_takes_nothing(bundle: Path) -> None:
    lane = lane_for(bundle)
    quiet = ramp([12.0])[0]
    assert lane.run(quiet, 0) == (lane.DONE, len(quiet)) and lane.c.out_len == 0
    near, far = socket.socketpair()
    with near, far:
        assert lane.write(near.fileno()) == 0  # no replies: no write at all
        loud = wire.encode_raw_frame(wire.MsgType.TELEMETRY, 2, 1_100_000,
                                     wire.encode_telemetry({0: 60.0}))
        assert lane.run(loud, 0) == (lane.DONE, len(loud)) and lane.c.out_len > 0
        assert lane.write(-1) == 0
        fd = os.dup(near.fileno())
        os.close(fd)
        assert lane.write(fd) == 0  # EBADF: the link's own write reports it
        assert lane.replies()[0] == 0


def test_a_frame_whose_replies_would_not_fit_the_output_is_handed_back(bundle: Path) -> None:
    lane = lane_for(bundle)
    lane.c.out_cap = 100  # room for no whole frame of the largest size
    loud = wire.encode_raw_frame(wire.MsgType.TELEMETRY, 1, 1_000_000,
                                 wire.encode_telemetry({0: 60.0}))
    assert lane.run(loud, 0) == (lane.SLOW, len(loud)) and lane.c.n_fast == 0
    quiet = wire.encode_raw_frame(wire.MsgType.TELEMETRY, 2, 1_100_000,
                                  wire.encode_telemetry({0: 12.0}))
    assert lane.run(quiet, 0) == (lane.DONE, len(quiet)) and lane.c.n_fast == 1


def injected(bundle: Path, setup: Any, values: dict[int, float], t: float
             ) -> tuple[list[tuple[str, str, dict[str, float | None]]], list[wire.Advisory]]:
    """One frame through a lane whose stream ``setup`` put in a state the daemon reaches
    only by a reload or an acknowledgement; the same frame through the Python stream."""
    lane = lane_for(bundle)
    reference = Engine(load_bundle(bundle))
    for engine in (lane.engine, reference):
        setup(engine)
    lane.sync(set(), None, 0.0)
    frame = wire.encode_raw_frame(wire.MsgType.TELEMETRY, 1, int(t * 1e6),
                                  wire.encode_telemetry(values))
    assert lane.run(frame, 0) == (lane.DONE, len(frame)) and lane.c.n_fast == 1
    _, replies = lane.replies()
    got = [(e.event, e.rule or "", e.values) for e in lane.take_events(lane.events())]
    names = {ch: p.name for p in reference.bundle.parameters
             if (ch := p.channel) is not None}
    want = [(e.event, e.rule or "", e.values)
            for e in reference.step(t, {names[ch]: v for ch, v in values.items()})]
    assert got == want
    return got, [wire.decode_advisory(f.payload) for _, data, _ in replies
                 for f in wire.FrameDecoder().feed(data)]


def _index(engine: Engine, rule_id: str) -> int:
    return engine.bundle.rule_index[rule_id]


def test_an_acknowledged_latch_clears_in_the_lane(bundle: Path) -> None:
    def setup(engine: Engine) -> None:
        engine.step(1.0, {"p3": 85.0})
        engine.acknowledge("LATCH")
    got, sent = injected(bundle, setup, {5: 20.0}, 2.0)
    assert ("clear", "LATCH", {"p3": 20.0}) in got
    assert [a.rule_id for a in sent] == ["LATCH"]


def test_an_off_delay_rule_reading_an_invalid_value_clears_at_once(bundle: Path) -> None:
    def setup(engine: Engine) -> None:
        engine.step(1.0, {"p0": 2.0})  # OFF raised
        stream = engine.stream
        i = engine.bundle.param_index["p0"]
        stream.last_value[i] = math.nan  # then p0 invalid, as a reload might carry it
        stream.faults = {"p0": "not a number"}
    got, _ = injected(bundle, setup, {1: 12.0}, 2.0)
    assert ("clear", "OFF", {"p0": None}) in got


def test_a_value_without_a_channel_or_a_value_is_left_out_of_the_frame(bundle: Path) -> None:
    def setup(engine: Engine) -> None:
        i = engine.bundle.param_index["p4"]
        engine.stream.last_value[i] = 5.0  # carried over from a bundle where p4 had one
        engine.stream.last_time[i] = 1.0
    got, sent = injected(bundle, setup, {0: 60.0}, 1.5)
    assert ("raise", "NOCH", {"p0": 60.0, "p4": 5.0}) in got
    assert [a.values for a in sent if a.rule_id == "NOCH"] == [{0: 60.0}]

    def raised_then_unseen(engine: Engine) -> None:
        engine.step(1.0, {"p0": 60.0})
        i = engine.bundle.param_index["p0"]
        engine.stream.last_value[i] = math.nan
        engine.stream.last_time[i] = -math.inf  # never seen: no fault, no value
    got, sent = injected(bundle, raised_then_unseen, {1: 12.0}, 2.0)
    assert ("clear", "HI", {"p0": None}) in got
    assert [a.values for a in sent if a.rule_id == "HI"] == [{}]


# ---------------------------------------------------------------- discrete parameters

DISCRETE_SENSORS = """
[parameters.gear]
states = ["retracted", "transit", "extended"]
channel = 0

[parameters.phase]
states = ["taxi", "takeoff", "climb"]
channel = 1

[parameters.speed]
unit = "kt"
range = [0, 400]
channel = 2
"""

DISCRETE_RULES: list[tuple[str, dict[str, Any], float | None]] = [
    ("GEAR_SPEED", {"all": [{"param": "gear", "op": "==", "state": "extended"},
                            {"param": "speed", "op": ">", "value": 140}]}, None),
    ("NOT_DOWN", {"all": [{"param": "gear", "op": "!=", "state": "extended"},
                          {"param": "speed", "op": "<", "value": 80}]}, None),
    ("TAKEOFF", {"all": [{"param": "phase", "op": "in", "states": ["takeoff", "climb"]},
                         {"param": "speed", "op": ">=", "value": 200}]}, 1.0),
    ("TRANSIT", {"param": "gear", "op": "==", "state": "transit"}, None),
    ("HELD", {"param": "speed", "op": ">", "value": 140}, None),  # inhibited in takeoff
]


def discrete_bundle(tmp: Path) -> Path:
    folder = tmp / "discrete_rules"
    folder.mkdir(exist_ok=True)
    (folder / "sensors.toml").write_text(DISCRETE_SENSORS, encoding="utf-8")
    with open(folder / "rules.jsonl", "w", encoding="utf-8") as f:
        for line, (rule_id, cond, duration) in enumerate(DISCRETE_RULES, 1):
            rule: dict[str, Any] = {
                "schema": 1, "id": rule_id, "kind": "if_then", "severity": "caution",
                "condition": cond, "action": f"act on {rule_id}",
                "source": {"file": "rules.jsonl", "line": line, "text": f"rule {rule_id}"}}
            if duration is not None:
                rule["duration"] = {"seconds": duration, "inclusive": False}
            if rule_id == "HELD":
                rule["inhibit"] = {"param": "phase", "states": ["takeoff"]}
            f.write(json.dumps(rule) + "\n")
    result = collect_rules([folder])
    assert not result.errors and len(result.rules) == len(DISCRETE_RULES)
    path = tmp / "discrete.bundle"
    path.write_bytes(encode_bundle(build_payload(result, "discrete")))
    return path


def discrete_stream(seed: int, n_frames: int) -> tuple[bytes, list[tuple[float, dict[str, float]]]]:
    """Frames that switch states (and send indexes a state parameter lacks, between two
    indexes, NaN), with the samples they carry, by name, for a replay."""
    rng = random.Random(seed)
    out, samples = bytearray(), []
    names = {0: "gear", 1: "phase", 2: "speed"}
    for i in range(1, n_frames + 1):
        values = {0: float(rng.choice([0, 1, 2, 2, 0, 3, -1, 0.5, math.nan])),
                  1: float(rng.choice([0, 1, 2, 1, 7])),
                  2: rng.choice([60.0, 79.0, 80.0, 140.0, 141.0, 199.0, 200.0, 250.0])}
        sent = {ch: v for ch, v in values.items() if rng.random() < 0.8} or values
        t_us = 1_000_000 + 250_000 * i
        out += wire.encode_raw_frame(wire.MsgType.TELEMETRY, i, t_us, wire.encode_telemetry(sent))
        samples.append((t_us / 1e6, {names[ch]: v for ch, v in sent.items()}))
    return bytes(out), samples


@pytest.mark.parametrize("seed", range(4))
def test_states_on_the_wire_give_the_lane_the_python_stream_and_replay_the_same_events(
        tmp_path: Path, seed: int) -> None:
    bundle = discrete_bundle(tmp_path)
    data, samples = discrete_stream(seed, 300)
    fast, slow = compare(bundle, chunks(data, seed))
    assert fast.daemon._lane is not None and fast.daemon._lane.taken > 0
    engine = Engine.from_file(str(bundle))
    want = [(e.t, e.event, e.rule) for t, sample in samples for e in engine.step(t, sample)]
    got = [(r["t"], r["event"], r.get("rule")) for r in slow.records()
           if r.get("event") in ("raise", "clear", "fault", "fault_clear")]
    assert got == want
    assert {e for _, e, _ in want} >= {"raise", "clear", "fault"}
    held = [e for e in want if e[2] == "HELD"]
    assert held and any(e[1] == "raise" for e in held)
    reasons = {r.get("reason") for r in slow.records() if r.get("event") == "fault"}
    assert {"not a state", "above range", "below range"} <= reasons, reasons
