"""The container: header layout, check order, msgpack limits at their edges, atomic writes."""

from __future__ import annotations

import hashlib
import os
import struct
import time
import tracemalloc
from dataclasses import replace
from pathlib import Path
from typing import Any

import msgpack
import msgpack.fallback
import pytest

from rulec.runtime.bundle import format as bundle_format
from rulec.runtime.bundle.format import (
    FORMAT_VERSION,
    HEADER_SIZE,
    MAGIC,
    BundleHeader,
    UnpackLimits,
    decode_bundle,
    encode_bundle,
    frame_payload,
    pack_payload,
    read_header,
    unpack_payload,
    write_bundle_file,
)
from rulec.runtime.errors import BundleError, RulecError

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

PAYLOAD: dict[str, Any] = {
    "meta": {"compiler": "test", "format": 1},
    "values": [1, -2, 3.5, None, True, "text", b"\x00\x01"],
    "nested": {"b": {"c": [1, 2, 3]}, "a": "first"},
}


@pytest.fixture(params=["c", "fallback"])
def unpacker(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test against msgpack's C extension and against its pure-Python fallback."""
    if request.param == "fallback":
        monkeypatch.setattr(bundle_format, "_Unpacker", msgpack.fallback.Unpacker)
    return str(request.param)


def header_of(data: bytes) -> tuple[bytes, int, int, int, bytes]:
    magic, version, flags, length, digest = struct.unpack_from("<4sHHQ32s", data)
    return magic, version, flags, length, digest


# ---------------------------------------------------------------- layout and encoding


def test_header_layout_is_48_bytes_little_endian() -> None:
    data = encode_bundle(PAYLOAD)
    payload = data[HEADER_SIZE:]
    assert HEADER_SIZE == 48
    assert header_of(data) == (
        b"RULC",
        FORMAT_VERSION,
        0,
        len(payload),
        hashlib.sha256(payload).digest(),
    )
    assert data[4:6] == b"\x01\x00"  # little-endian version 1
    assert msgpack.unpackb(payload, raw=False) == PAYLOAD
    assert read_header(data) == BundleHeader(1, 0, len(payload), hashlib.sha256(payload).digest())
    assert read_header(data).digest == hashlib.sha256(payload).hexdigest()


def test_encoding_is_deterministic_whatever_the_dict_order() -> None:
    reordered = {k: PAYLOAD[k] for k in reversed(list(PAYLOAD))}
    reordered["nested"] = {"a": "first", "b": {"c": [1, 2, 3]}}
    assert encode_bundle(PAYLOAD) == encode_bundle(PAYLOAD)
    assert encode_bundle(reordered) == encode_bundle(PAYLOAD)
    assert list(decode_bundle(encode_bundle(PAYLOAD))) == sorted(PAYLOAD)


def test_bytes_are_bin_and_tuples_are_arrays() -> None:
    packed = pack_payload({"b": b"\x01\x02", "t": (1, 2)})
    assert msgpack.unpackb(packed, raw=True) == {b"b": b"\x01\x02", b"t": [1, 2]}
    assert decode_bundle(encode_bundle({"b": b"\x01\x02", "t": (1, 2)})) == {
        "b": b"\x01\x02",
        "t": [1, 2],
    }


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ([1, 2], "top level is list, not map"),
        ({"a": {1: "x"}}, "cannot encode payload.a: map key 1 is not a str"),
        ({"a": object()}, "cannot encode payload"),
        ({"a": 2**64}, "cannot encode payload"),
    ],
)
def test_unencodable_payloads_raise_bundle_error(payload: Any, message: str) -> None:
    with pytest.raises(BundleError, match=message.replace(".", r"\.")):
        encode_bundle(payload)


def test_bundle_error_is_a_value_error_under_the_project_root() -> None:
    with pytest.raises(ValueError):
        decode_bundle(b"")
    with pytest.raises(RulecError):
        decode_bundle(b"")


# --------------------------------------------------------------- header check order


def _with_header(
    data: bytes,
    magic: bytes | None = None,
    version: int | None = None,
    flags: int | None = None,
    length: int | None = None,
    digest: bytes | None = None,
) -> bytes:
    m, v, f, n, d = header_of(data)
    header = struct.pack(
        "<4sHHQ32s",
        m if magic is None else magic,
        v if version is None else version,
        f if flags is None else flags,
        n if length is None else length,
        d if digest is None else digest,
    )
    return header + data[HEADER_SIZE:]


GOOD = encode_bundle(PAYLOAD)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "too short for a bundle header: 0 bytes, a header is 48"),
        (GOOD[:47], "too short for a bundle header: 47 bytes, a header is 48"),
        (b"XXXX" + GOOD[4:], "bad magic b'XXXX'"),
        (
            _with_header(GOOD, version=0),
            "unsupported bundle format version 0 (this runtime reads version 1)",
        ),
        (
            _with_header(GOOD, version=2),
            "unsupported bundle format version 2 (this runtime reads version 1)",
        ),
        (_with_header(GOOD, flags=1), "nonzero header flags 0x0001"),
        (_with_header(GOOD, flags=0x8000), "nonzero header flags 0x8000"),
        (
            GOOD[:-3],
            f"truncated: header declares {len(GOOD) - 48} payload bytes, file has {len(GOOD) - 51}",
        ),
        (GOOD[:48], f"truncated: header declares {len(GOOD) - 48} payload bytes, file has 0"),
        (GOOD + b"\0", f"trailing bytes: header declares {len(GOOD) - 48} payload bytes"),
        (_with_header(GOOD, length=2**64 - 1), "truncated: header declares 18446744073709551615"),
        (_with_header(GOOD, digest=b"\0" * 32), "digest mismatch: header says sha256 0000"),
    ],
)
def test_each_header_check_has_its_own_message(data: bytes, message: str) -> None:
    with pytest.raises(BundleError) as info:
        decode_bundle(data)
    assert str(info.value).startswith(message)


def test_checks_run_in_the_documented_order() -> None:
    # each case breaks two things; the earlier check in the documented order must win
    assert_first = [
        (b"XXXX", "too short"),
        (_with_header(GOOD, magic=b"XXXX", version=9), "bad magic"),
        (_with_header(GOOD, version=9, flags=1), "unsupported"),
        (_with_header(GOOD, flags=1, length=3), "nonzero header flags"),
        (_with_header(GOOD, length=3, digest=b"\0" * 32), "trailing bytes"),
        (_with_header(GOOD + b"\0", digest=b"\0" * 32), "trailing bytes"),
        (frame_payload(b"\xc1")[:-1] + b"\xc0", "digest mismatch"),
    ]
    for data, message in assert_first:
        with pytest.raises(BundleError) as info:
            decode_bundle(data)
        assert str(info.value).startswith(message), (data[:8], str(info.value))


def test_decode_accepts_bytearray_and_memoryview() -> None:
    assert decode_bundle(bytearray(GOOD)) == decode_bundle(memoryview(GOOD)) == PAYLOAD


# ------------------------------------------------------------- msgpack inside a frame


@pytest.mark.parametrize(
    ("payload_bytes", "message"),
    [
        (b"", "payload: msgpack data ends before the top-level object does"),
        (b"\x82\xa1a\x01", "payload: msgpack data ends before"),
        (b"\xc1", "payload: invalid msgpack"),
        (b"\x81\x01\x02", "payload: invalid msgpack"),  # int key refused by strict_map_key
        (b"\x81\xa1a\xa2\xff\xfe", "payload: invalid msgpack"),  # str that is not UTF-8
        (b"\x80\x80", "payload: 1 bytes of msgpack follow the top-level object"),
        (b"\x93\x01\x02\x03", "payload: top level must be a map, found list"),
        (b"\xa3abc", "payload: top level must be a map, found str"),
        (b"\x91" * 100_000 + b"\x80", "payload:"),  # nesting deeper than any stack
    ],
)
def test_bad_msgpack_with_a_correct_digest_is_refused(
    unpacker: str, payload_bytes: bytes, message: str
) -> None:
    with pytest.raises(BundleError) as info:
        decode_bundle(frame_payload(payload_bytes))
    assert str(info.value).startswith(message)


def test_limits_are_bounded_by_the_payload_length() -> None:
    assert UnpackLimits.for_payload(1000) == UnpackLimits(
        max_buffer_size=1000,
        max_str_len=1000,
        max_bin_len=1000,
        max_array_len=1000,
        max_map_len=500,
        max_ext_len=1000,
    )
    assert UnpackLimits.for_payload(0).max_buffer_size == 1


# Each value is a payload whose largest item has exactly N = 10 units of the limited kind.
N = 10
AT_LIMIT: dict[str, bytes] = {
    "max_str_len": msgpack.packb({"s": "x" * N}),
    "max_bin_len": msgpack.packb({"b": b"x" * N}, use_bin_type=True),
    "max_array_len": msgpack.packb({"a": list(range(N))}),
    "max_map_len": msgpack.packb({f"k{i}": i for i in range(N)}),
    "max_ext_len": msgpack.packb({"e": msgpack.ExtType(5, b"x" * N)}),
}


@pytest.mark.parametrize("limit", sorted(AT_LIMIT))
def test_each_length_limit_at_n_and_n_minus_1(unpacker: str, limit: str) -> None:
    payload = AT_LIMIT[limit]
    generous = UnpackLimits.for_payload(len(payload))
    assert unpack_payload(payload, replace(generous, **{limit: N})) == msgpack.unpackb(payload)
    with pytest.raises(BundleError, match=rf"payload: invalid msgpack: .*{limit}"):
        unpack_payload(payload, replace(generous, **{limit: N - 1}))


def test_max_buffer_size_at_n_and_n_minus_1(unpacker: str) -> None:
    payload = msgpack.packb({"s": "x" * N})
    n = len(payload)
    limits = UnpackLimits.for_payload(n)
    assert unpack_payload(payload, replace(limits, max_buffer_size=n)) == {"s": "x" * N}
    with pytest.raises(BundleError, match=rf"payload: {n} bytes exceed max_buffer_size {n - 1}"):
        unpack_payload(payload, replace(limits, max_buffer_size=n - 1))


def test_a_str_filling_almost_the_whole_payload_is_accepted(unpacker: str) -> None:
    big = {"s": "x" * 100_000, "b": b"y" * 100_000}
    assert decode_bundle(encode_bundle(big)) == big


HOSTILE = {
    "array32": b"\xdd\xff\xff\xff\xff",
    "map32": b"\xdf\xff\xff\xff\xff",
    "str32": b"\xdb\xff\xff\xff\xff",
    "bin32": b"\xc6\xff\xff\xff\xff",
    "ext32": b"\xc9\xff\xff\xff\xff\x05",
    "nested array32": b"\x81\xa1a\xdd\xff\xff\xff\xff",
    "array32 in array": b"\x91\xdd\xff\xff\xff\xff" + b"\x00" * 64,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_4gb_declarations_are_refused_fast_with_little_memory(
    unpacker: str, name: str
) -> None:
    data = frame_payload(HOSTILE[name])  # correct digest: it reaches the unpacker
    tracemalloc.start()
    try:
        t0 = time.perf_counter()
        with pytest.raises(BundleError, match="payload: "):
            decode_bundle(data)
        elapsed = time.perf_counter() - t0
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert elapsed < 0.1, elapsed
    assert peak < 1_000_000, peak


# ------------------------------------------------------------------------ writing


def test_write_is_complete_and_leaves_no_temporary_files(tmp_path: Path) -> None:
    path = tmp_path / "rules.rulc"
    path.write_bytes(b"old bundle")
    write_bundle_file(path, GOOD)
    assert path.read_bytes() == GOOD
    assert sorted(os.listdir(tmp_path)) == ["rules.rulc"]
    assert path.stat().st_mode & 0o777 == 0o644


def test_write_accepts_a_str_path_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write_bundle_file("here.rulc", GOOD)
    assert (tmp_path / "here.rulc").read_bytes() == GOOD


def test_write_refuses_bytes_that_are_not_a_valid_bundle(tmp_path: Path) -> None:
    path = tmp_path / "rules.rulc"
    path.write_bytes(GOOD)
    with pytest.raises(BundleError, match="truncated"):
        write_bundle_file(path, GOOD[:-1])
    assert path.read_bytes() == GOOD  # the old bundle is untouched
    assert sorted(os.listdir(tmp_path)) == ["rules.rulc"]


def test_write_failures_name_the_path_and_clean_up(tmp_path: Path) -> None:
    with pytest.raises(BundleError, match=r"cannot write bundle file .*missing.*rules\.rulc"):
        write_bundle_file(tmp_path / "missing" / "rules.rulc", GOOD)
    target = tmp_path / "a_folder"
    target.mkdir()
    with pytest.raises(BundleError, match=r"cannot write bundle file .*a_folder"):
        write_bundle_file(target, GOOD)
    assert sorted(os.listdir(tmp_path)) == ["a_folder"]
    assert MAGIC == GOOD[:4]
