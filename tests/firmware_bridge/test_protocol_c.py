"""C side of the wire protocol (csrc/rulec_proto.c), built with the host compiler.

csrc/proto_test.c is compiled with ``cc -std=c99 -Wall -Wextra -Werror -O2`` twice
(table CRC and ``RULEC_PROTO_CRC_BITWISE``), runs its own unit tests, then answers
commands on stdin (see its header): the C encoder must reproduce every shared vector
byte for byte, the C decoder must decode every vector and count every corrupt stream
exactly as the vector says, and frames and payloads cross between Python and C in
both directions, corrupt streams included.
"""

from __future__ import annotations

import os
import random
import shlex
import shutil
import struct
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_protocol import (
    STAT_NAMES,
    bits,
    from_bits,
    inject,
    load_vectors,
    message_from_json,
    msg_type_of,
    same_message,
)

from rulec.firmware_bridge.cobs import CobsError, cobs_decode, cobs_encode
from rulec.firmware_bridge.protocol import (
    EVENT_CODES,
    MAX_CHANNELS,
    MAX_FRAME,
    SEVERITY_CODES,
    Advisory,
    BundleInfo,
    FaultReason,
    Frame,
    FrameDecoder,
    Heartbeat,
    Message,
    MsgType,
    ProtocolError,
    SensorFault,
    decode_message,
    encode_message,
    encode_telemetry,
)

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

CSRC = Path(__file__).resolve().parents[2] / "csrc"
# RULEC_CFLAGS / RULEC_LDFLAGS come last, as in the cffi builds: `make test-sanitize` and
# `make coverage` build proto_test with sanitizers or gcov through them.
CFLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-O2",
          *shlex.split(os.environ.get("RULEC_CFLAGS", ""))]
LDFLAGS = shlex.split(os.environ.get("RULEC_LDFLAGS", ""))
_EVENTS = {v: k for k, v in EVENT_CODES.items()}
_SEVERITIES = {v: k for k, v in SEVERITY_CODES.items()}


def c_compiler() -> str | None:
    return os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")


@pytest.fixture(scope="module", params=["table-crc", "bitwise-crc"])
def proto_test(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    cc = c_compiler()
    if cc is None:
        pytest.skip("no C compiler: install cc/gcc or set CC to test csrc/rulec_proto.c")
    exe = tmp_path_factory.mktemp("proto") / "proto_test"
    defines = ["-DRULEC_PROTO_CRC_BITWISE"] if request.param == "bitwise-crc" else []
    cmd = [
        cc,
        *CFLAGS,
        *defines,
        "-I",
        str(CSRC),
        str(CSRC / "proto_test.c"),
        str(CSRC / "rulec_proto.c"),
        "-o",
        str(exe),
        *LDFLAGS,
    ]
    built = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, f"{' '.join(cmd)}\n{built.stdout}{built.stderr}"
    return exe


def serve(exe: Path, commands: list[str]) -> Iterator[str]:
    """Run a batch of commands through one proto_test process; yield its answer lines."""
    done = subprocess.run(
        [str(exe), "serve"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "err usage" not in done.stdout and "err unknown" not in done.stdout
    return iter(done.stdout.splitlines())


def hx(data: bytes) -> str:
    return data.hex() or "-"


def unhx(text: str) -> bytes:
    return b"" if text == "-" else bytes.fromhex(text)


# --- Python messages <-> proto_test commands ------------------------------------------


def values_args(values: dict[int, float]) -> str:
    items = sorted(values.items())
    return " ".join([str(len(items))] + [f"{ch} {bits(v):016x}" for ch, v in items])


def encode_command(msg: Message) -> str:
    if isinstance(msg, dict):
        return f"tel_enc {values_args(msg)}"
    if isinstance(msg, Advisory):
        ev, sev = EVENT_CODES[msg.event], SEVERITY_CODES[msg.severity]
        return f"adv_enc {ev} {sev} {hx(msg.rule_id.encode())} {values_args(msg.values)}"
    if isinstance(msg, Heartbeat):
        return f"hb_enc {msg.uptime_ms} {msg.frames_ok} {msg.frames_dropped} {msg.advisories}"
    if isinstance(msg, BundleInfo):
        return f"bi_enc {msg.format_version} {msg.digest.hex()} {hx(msg.bundle_id.encode())}"
    return f"sf_enc {msg.channel} {int(msg.reason)}"


DECODE_COMMAND = {
    MsgType.TELEMETRY: "tel_dec",
    MsgType.ADVISORY: "adv_dec",
    MsgType.HEARTBEAT: "hb_dec",
    MsgType.BUNDLE_INFO: "bi_dec",
    MsgType.SENSOR_FAULT: "sf_dec",
}


def parse_values(tokens: list[str]) -> dict[int, float]:
    n = int(tokens[0])
    assert len(tokens) == 1 + 2 * n
    return {int(tokens[1 + 2 * i]): from_bits(int(tokens[2 + 2 * i], 16)) for i in range(n)}


def parse_decoded(msg_type: MsgType, line: str) -> Message | None:
    """A typed-decode answer as a Python message, or None for "err"."""
    status, *tok = line.split()
    if status == "err":
        return None
    assert status == "ok", line
    if msg_type is MsgType.TELEMETRY:
        return parse_values(tok)
    if msg_type is MsgType.ADVISORY:
        return Advisory(
            _EVENTS[int(tok[0])],
            _SEVERITIES[int(tok[1])],
            unhx(tok[2]).decode("utf-8"),
            parse_values(tok[3:]),
        )
    if msg_type is MsgType.HEARTBEAT:
        return Heartbeat(*map(int, tok))
    if msg_type is MsgType.BUNDLE_INFO:
        return BundleInfo(unhx(tok[2]).decode("utf-8"), int(tok[0]), bytes.fromhex(tok[1]))
    return SensorFault(int(tok[0]), FaultReason(int(tok[1])))


def read_decode(lines: Iterator[str]) -> tuple[list[list[object]], dict[str, int]]:
    """The answer to one "decode" command: frames, then the counters."""
    frames: list[list[object]] = []
    for line in lines:
        kind, *tok = line.split()
        if kind == "stats":
            return frames, dict(zip(STAT_NAMES, map(int, tok), strict=True))
        assert kind == "frame", line
        frames.append([int(tok[0]), int(tok[1]), int(tok[2]), unhx(tok[3]).hex()])
    raise AssertionError("decode answer without stats")


def python_decode(stream: bytes, max_frame: int = MAX_FRAME) -> tuple[list[list[object]], dict]:
    dec = FrameDecoder(max_frame)
    frames = [[int(f.msg_type), f.seq, f.timestamp_us, f.payload.hex()] for f in dec.feed(stream)]
    return frames, {name: getattr(dec.stats, name) for name in STAT_NAMES}


# --- the tests -----------------------------------------------------------------------


def test_c_selftest(proto_test: Path) -> None:
    done = subprocess.run([str(proto_test), "selftest"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("selftest ok ")


def test_c_crc_and_cobs_vectors(proto_test: Path) -> None:
    v = load_vectors()
    cmds = [f"crc {hx(bytes.fromhex(c['data']))}" for c in v["crc32c"]]
    cmds += [f"cobs_enc {hx(bytes.fromhex(c['data']))}" for c in v["cobs"]]
    cmds += [f"cobs_dec {c['encoded']}" for c in v["cobs"]]
    out = serve(proto_test, cmds)
    for c in v["crc32c"]:
        assert next(out) == c["crc"]
    for c in v["cobs"]:
        assert next(out) == f"ok {hx(bytes.fromhex(c['encoded']))}"
    for c in v["cobs"]:
        assert next(out) == f"ok {hx(bytes.fromhex(c['data']))}"


def test_c_encodes_every_vector_byte_for_byte(proto_test: Path) -> None:
    frames = load_vectors()["frames"]
    cmds = []
    for f in frames:
        msg = message_from_json(f["msg_type"], f["message"])
        cmds.append(encode_command(msg))
        t = MsgType[f["msg_type"]]
        cmds.append(f"frame_enc {int(t)} {f['seq']} {f['timestamp_us']} {hx(unhx(f['payload']))}")
    out = serve(proto_test, cmds)
    for f in frames:
        assert next(out) == f"ok {hx(unhx(f['payload']))}", f["name"]
        assert next(out) == f"ok {f['frame']}", f["name"]


def test_c_decodes_every_vector(proto_test: Path) -> None:
    frames = load_vectors()["frames"]
    cmds = []
    for f in frames:
        cmds.append(f"decode {MAX_FRAME} 0 {f['frame']}")
        cmds.append(f"{DECODE_COMMAND[MsgType[f['msg_type']]]} {hx(unhx(f['payload']))}")
    out = serve(proto_test, cmds)
    for f in frames:
        got, stats = read_decode(out)
        t = int(MsgType[f["msg_type"]])
        assert got == [[t, f["seq"], f["timestamp_us"], f["payload"]]], f["name"]
        assert stats["frames"] == 1 and sum(stats.values()) == 1
        decoded = parse_decoded(MsgType[f["msg_type"]], next(out))
        assert decoded is not None
        assert same_message(decoded, message_from_json(f["msg_type"], f["message"])), f["name"]


@pytest.mark.parametrize("chunk", [0, 1, 5, 4096])
def test_c_counts_every_corrupt_stream_like_the_vector(proto_test: Path, chunk: int) -> None:
    streams = load_vectors()["streams"]
    out = serve(proto_test, [f"decode {s['max_frame']} {chunk} {s['stream']}" for s in streams])
    for s in streams:
        frames, stats = read_decode(out)
        assert frames == s["frames"], s["name"]
        assert stats == s["stats"], s["name"]
        assert stats[s["counter"]] == 1


def random_message(rng: random.Random) -> Message:
    def value() -> float:
        return from_bits(rng.getrandbits(64)) if rng.random() < 0.3 else rng.uniform(-1e4, 1e4)

    def values(n: int) -> dict[int, float]:
        return {rng.randrange(65536): value() for _ in range(n)}

    def text() -> str:
        alphabet = "abcXYZ-_.09 \u00e9\u2265\U0001f680\x00"
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40)))

    kind = rng.randrange(5)
    if kind == 0:
        return values(rng.randint(0, MAX_CHANNELS))
    if kind == 1:
        return Advisory(rng.choice(list(EVENT_CODES)), rng.choice(list(SEVERITY_CODES)),
                        text(), values(rng.randint(0, 12)))
    if kind == 2:
        return Heartbeat(*(rng.getrandbits(64) for _ in range(4)))
    if kind == 3:
        return BundleInfo(text(), rng.randrange(65536), rng.randbytes(32))
    return SensorFault(rng.randrange(65536), rng.choice(list(FaultReason)))


def test_python_and_c_agree_on_random_messages(proto_test: Path) -> None:
    rng = random.Random(2024)
    msgs = [(random_message(rng), rng.getrandbits(32), rng.getrandbits(64)) for _ in range(300)]
    wires = [encode_message(m, seq, ts) for m, seq, ts in msgs]
    frames = [FrameDecoder().feed(w)[0] for w in wires]
    cmds = []
    for (msg, seq, ts), frame in zip(msgs, frames, strict=True):
        cmds.append(encode_command(msg))  # C encodes the payload ...
        cmds.append(f"frame_enc {int(frame.msg_type)} {seq} {ts} {hx(frame.payload)}")  # frame
        cmds.append(f"{DECODE_COMMAND[frame.msg_type]} {hx(frame.payload)}")  # C decodes
    stream = b"".join(wires)
    cmds.append(f"decode {MAX_FRAME} 0 {stream.hex()}")
    cmds.append(f"decode {MAX_FRAME} 333 {stream.hex()}")
    out = serve(proto_test, cmds)
    for (msg, _seq, _ts), frame, wire in zip(msgs, frames, wires, strict=True):
        assert next(out) == f"ok {hx(frame.payload)}"
        c_wire = unhx(next(out).split()[1])
        assert c_wire == wire
        (again,) = FrameDecoder().feed(c_wire)  # Python decodes what C encoded
        assert same_message(decode_message(again), msg)
        decoded = parse_decoded(frame.msg_type, next(out))
        assert decoded is not None and same_message(decoded, msg)
    expected = python_decode(stream)
    assert read_decode(out) == expected
    assert read_decode(out) == expected
    assert expected[1]["frames"] == len(msgs)


def test_python_and_c_count_injected_faults_identically(proto_test: Path) -> None:
    """Corrupt streams (faults as in test_protocol, garbage, small decoders): same result."""
    rng = random.Random(99)
    cmds, expected = [], []
    for trial in range(40):
        frames = [
            Frame(MsgType.TELEMETRY, i, i * 100, encode_telemetry(
                {c: rng.uniform(0, 3000) for c in rng.sample(range(64), 8)}
            ))
            for i in range(rng.randint(1, 30))
        ]
        faults = {
            i: (rng.choice(["flip", "drop", "dup"]), rng.randrange(10**6), rng.randrange(8))
            for i in range(0, len(frames), 2)
            if rng.random() < 0.5
        }
        stream = inject(frames, faults)[0] + rng.randbytes(rng.randint(0, 50)) + b"\x00"
        max_frame = MAX_FRAME if trial % 4 else rng.randint(20, 200)
        expected.append(python_decode(stream, max_frame))
        chunk = rng.choice([0, 1, 7, 4096])
        cmds.append(f"decode {max_frame} {chunk} {hx(stream)}")
    out = serve(proto_test, cmds)
    for result in expected:
        assert read_decode(out) == result


def test_python_and_c_accept_and_refuse_the_same_payloads(proto_test: Path) -> None:
    """Random and mutated payloads: both sides refuse, or both decode the same message."""
    rng = random.Random(5)
    cases: list[tuple[MsgType, bytes]] = []
    for _ in range(600):
        msg = random_message(rng)
        t = msg_type_of(msg) if rng.random() < 0.8 else rng.choice(list(MsgType))
        payload = FrameDecoder().feed(encode_message(msg, 0, 0))[0].payload
        if rng.random() < 0.5:  # mutate one byte, or truncate, or append
            payload = bytearray(payload)
            what = rng.randrange(3)
            if what == 0 and payload:
                payload[rng.randrange(len(payload))] = rng.randrange(256)
            elif what == 1:
                del payload[rng.randrange(len(payload) + 1) :]
            else:
                payload += rng.randbytes(rng.randint(1, 3))
            payload = bytes(payload)
        elif rng.random() < 0.3:
            payload = rng.randbytes(rng.randint(0, 60))
        cases.append((t, payload))
    cases += [
        (MsgType.ADVISORY, b"\x01\x01\x02\x00\xed\xa0" + struct.pack("<H", 0)),  # surrogate
        (MsgType.ADVISORY, b"\x01\x01\x02\x00\xc0\xaf" + struct.pack("<H", 0)),  # overlong
        (MsgType.ADVISORY, b"\x01\x01\x04\x00\xf4\x90\x80\x80" + struct.pack("<H", 0)),
        (MsgType.BUNDLE_INFO, bytes(34) + b"\x04\x00\xf0\x9f\x9a\x80"),  # U+1F680: valid
    ]
    out = serve(proto_test, [f"{DECODE_COMMAND[t]} {hx(p)}" for t, p in cases])
    accepted = 0
    for t, payload in cases:
        c_msg = parse_decoded(t, next(out))
        try:
            py_msg: Message | None = decode_message(Frame(t, 0, 0, payload))
        except ProtocolError:
            py_msg = None
        assert (c_msg is None) == (py_msg is None), (t, payload.hex())
        if c_msg is not None and py_msg is not None:
            accepted += 1
            assert same_message(c_msg, py_msg) and msg_type_of(py_msg) is t
    assert 100 < accepted < len(cases)


def test_c_refuses_what_python_refuses_to_encode(proto_test: Path) -> None:
    cmds = [
        "tel_enc 2 5 3ff0000000000000 5 3ff0000000000000",  # duplicate channel
        "tel_enc 2 6 3ff0000000000000 5 3ff0000000000000",  # C needs ascending order
        f"tel_enc {MAX_CHANNELS + 1} "
        + " ".join(f"{c} 0000000000000000" for c in range(MAX_CHANNELS + 1)),
        "adv_enc 3 1 52 0",  # unknown event
        "adv_enc 1 4 52 0",  # unknown severity
        "adv_enc 1 1 - 0",  # empty rule id
        "adv_enc 1 1 eda080 0",  # lone surrogate is not UTF-8
        f"adv_enc 1 1 {'79' * 1019} 0",  # payload 1025 bytes
        f"bi_enc 1 {'00' * 32} -",
        f"bi_enc 1 {'00' * 32} {'61' * 989}",  # payload 1025 bytes
        "sf_enc 1 0",
        "sf_enc 1 8",
        "frame_enc 6 0 0 -",
        "frame_enc 0 0 0 -",
        f"frame_enc 1 0 0 {'01' * 1025}",
    ]
    out = list(serve(proto_test, cmds))
    assert len(out) == len(cmds)
    for cmd, line in zip(cmds, out, strict=True):
        assert line.startswith("err -"), (cmd[:40], line)
    # and at n - 1 / the limit itself both succeed
    ok = serve(
        proto_test,
        [f"adv_enc 1 1 {'79' * 1018} 0", f"bi_enc 1 {'00' * 32} {'61' * 988}",
         f"frame_enc 1 0 0 {'01' * 1024}"],
    )
    assert all(line.startswith("ok ") for line in ok)


def test_python_and_c_agree_on_cobs_of_random_and_broken_input(proto_test: Path) -> None:
    rng = random.Random(11)
    blobs = []
    for _ in range(400):
        n = rng.choice([1, 2, 5, 253, 254, 255, 256, 300, 600])
        data = bytes(rng.choice([0, 0, 1, 7, 255]) if rng.random() < 0.5 else rng.randrange(256)
                     for _ in range(n))
        enc = cobs_encode(data)
        if rng.random() < 0.6:  # break it: change, drop or append a nonzero byte
            broken = bytearray(enc)
            at = rng.randrange(len(broken))
            what = rng.randrange(3)
            if what == 0:
                broken[at] = rng.randrange(1, 256)
            elif what == 1 and len(broken) > 1:
                del broken[at]
            else:
                broken.append(rng.randrange(1, 256))
            enc = bytes(broken)
        blobs.append((data, enc))
    cmds = [f"cobs_enc {hx(d)}" for d, _ in blobs] + [f"cobs_dec {hx(e)}" for _, e in blobs]
    out = serve(proto_test, cmds)
    for data, _ in blobs:
        assert next(out) == f"ok {hx(cobs_encode(data))}"
    refused = 0
    for _, enc in blobs:
        line = next(out)
        try:
            expected = f"ok {hx(cobs_decode(enc))}"
        except CobsError:
            expected = "err -3"
            refused += 1
        assert line == expected, enc.hex()
    assert 50 < refused < len(blobs)
