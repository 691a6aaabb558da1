"""Fault injection (``firmware_bridge/sim/faults.py``): seeded, and every counter equals what
was actually done to the bytes; a stream with injected faults never makes the frame
decoder accept a frame that was not sent."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulec.firmware_bridge import protocol as wire
from rulec.firmware_bridge.sim.faults import FaultConfig, FaultCounters, FaultInjector, Injected

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it


def frames(n: int, seed: int = 1) -> list[bytes]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        values = {ch: rng.uniform(-1e3, 1e3) for ch in range(rng.randint(0, 8))}
        out.append(wire.encode_raw_frame(wire.MsgType.TELEMETRY, i, 1000 * i,
                                         wire.encode_telemetry(values)))
    return out


def popcount_diff(a: bytes, b: bytes) -> int:
    assert len(a) == len(b)
    return sum(bin(x ^ y).count("1") for x, y in zip(a, b, strict=True))


def run(config: FaultConfig, n: int = 2000) -> tuple[FaultInjector, list[Injected]]:
    inj = FaultInjector(config)
    return inj, [inj.apply(f) for f in frames(n)]


def test_nothing_injected_by_default() -> None:
    inj, out = run(FaultConfig(), 200)
    assert all(r.copies == [r.original] and r.intact for r in out)
    k = inj.counters
    assert (k.frames_in, k.frames_sent) == (200, 200)
    assert k.bits_flipped == k.bytes_dropped == k.frames_corrupted == k.frames_dropped == 0
    assert not FaultConfig().active


def test_bit_flips_counted_exactly_and_near_the_rate() -> None:
    inj, out = run(FaultConfig(ber=1e-3, seed=7))
    flipped = sum(popcount_diff(r.original, c) for r in out for c in r.copies)
    corrupted = sum(c != r.original for r in out for c in r.copies)
    k = inj.counters
    assert flipped == k.bits_flipped and corrupted == k.frames_corrupted
    bits = 8 * k.bytes_in
    assert abs(k.bits_flipped - bits * 1e-3) < 5 * (bits * 1e-3) ** 0.5  # 5 sigma
    assert k.bytes_dropped == k.bytes_duplicated == 0


def test_byte_drops_and_duplicates_counted_exactly() -> None:
    inj, out = run(FaultConfig(drop_rate=2e-3, dup_rate=1e-3, seed=3))
    k = inj.counters
    out_bytes = sum(len(c) for r in out for c in r.copies)
    assert out_bytes == k.bytes_in - k.bytes_dropped + k.bytes_duplicated
    assert k.bytes_dropped > 0 and k.bytes_duplicated > 0
    changed = [(r.original, r.copies[0]) for r in out if r.copies[0] != r.original]
    assert len(changed) == k.frames_corrupted
    # every changed copy is the original with bytes removed or repeated, nothing else
    for orig, got in changed:
        assert set(got) <= set(orig)
        assert abs(len(got) - len(orig)) <= 4


def test_frame_drops_and_duplicates() -> None:
    inj, out = run(FaultConfig(frame_drop_rate=0.1, frame_dup_rate=0.05, seed=11))
    k = inj.counters
    assert sum(not r.copies for r in out) == k.frames_dropped
    assert sum(len(r.copies) == 2 for r in out) == k.frames_duplicated
    assert sum(len(r.copies) for r in out) == k.frames_sent
    assert k.frames_sent == k.frames_in - k.frames_dropped + k.frames_duplicated
    assert all(c == r.original for r in out for c in r.copies)  # whole frames only
    assert 120 < k.frames_dropped < 280 and 40 < k.frames_duplicated < 170


def test_split_pieces_rejoin_and_are_counted() -> None:
    inj = FaultInjector(FaultConfig(split=True, max_pieces=5, seed=2))
    sizes = []
    for f in frames(300):
        pieces = inj.pieces(f)
        assert b"".join(pieces) == f and all(pieces)
        assert 2 <= len(pieces) <= 5
        sizes.append(len(pieces))
    k = inj.counters
    assert k.split_frames == 300 and k.pieces == sum(sizes)
    assert k.bytes_sent == sum(len(f) for f in frames(300))
    assert len(set(sizes)) > 1


def test_truncation_on_link_drop() -> None:
    inj = FaultInjector(FaultConfig(link_drop_every_s=1.0, seed=5))
    data = frames(1)[0]
    cut = inj.truncate(data)
    assert data.startswith(cut) and len(cut) < len(data)
    k = inj.counters
    assert (k.link_drops, k.frames_truncated, k.bytes_truncated) == (1, 1, len(data) - len(cut))


def test_same_seed_same_faults_other_seed_other_faults() -> None:
    cfg = dict(ber=1e-3, drop_rate=1e-3, dup_rate=1e-3, frame_drop_rate=0.02,
               frame_dup_rate=0.02, split=True)
    a = [FaultInjector(FaultConfig(**cfg, seed=9)) for _ in range(2)]
    b = FaultInjector(FaultConfig(**cfg, seed=10))
    runs = []
    for inj in (*a, b):
        runs.append([(r.copies, [inj.pieces(c) for c in r.copies])
                     for r in (inj.apply(f) for f in frames(500))])
    assert runs[0] == runs[1] and a[0].counters == a[1].counters
    assert runs[0] != runs[2]


@pytest.mark.parametrize("bad", [
    {"ber": -0.1}, {"ber": 1.0}, {"drop_rate": float("nan")}, {"max_pieces": 1},
    {"link_drop_every_s": 0.0}, {"link_down_s": -1.0},
])
def test_bad_configs_are_refused(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        FaultConfig(**bad)


def expected_accepted(results: list[Injected]) -> list[bytes]:
    """Copies the decoder must accept: unchanged (a repeated delimiter is idle fill, not
    damage), and the byte before them a delimiter."""
    out = []
    prev_ends_run = True
    for r in results:
        for c in r.copies:
            if c.endswith(b"\x00") and c.rstrip(b"\x00") + b"\x00" == r.original \
                    and prev_ends_run:
                out.append(r.original)
            if c:
                prev_ends_run = c.endswith(b"\x00")
    return out


@pytest.mark.parametrize("config", [
    FaultConfig(ber=1e-3, seed=1),
    FaultConfig(ber=3e-4, drop_rate=5e-4, dup_rate=5e-4, frame_dup_rate=0.05, seed=2),
    FaultConfig(drop_rate=2e-3, frame_drop_rate=0.05, seed=3),
])
def test_decoder_accepts_exactly_the_intact_frames(config: FaultConfig) -> None:
    """No corrupt frame is believed, and every intact one is: 3000 frames per config."""
    inj, results = run(config, 3000)
    stream = b"".join(c for r in results for c in r.copies)
    dec = wire.FrameDecoder()
    got = dec.feed(stream)
    want = expected_accepted(results)
    assert [wire.encode_frame(f) for f in got] == want
    assert inj.counters.frames_corrupted > 50
    assert dec.stats.frames == len(want)
    assert dec.stats.frames_dropped > 0


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), ber=st.floats(0, 0.02), drop=st.floats(0, 0.02),
       dup=st.floats(0, 0.02), n=st.integers(1, 40))
def test_counters_match_the_bytes(seed: int, ber: float, drop: float, dup: float,
                                  n: int) -> None:
    inj = FaultInjector(FaultConfig(ber=ber, drop_rate=drop, dup_rate=dup, seed=seed))
    results = [inj.apply(f) for f in frames(n, seed)]
    k: FaultCounters = inj.counters
    assert k.bytes_in == sum(len(r.original) for r in results)
    assert sum(len(c) for r in results for c in r.copies) == (
        k.bytes_in - k.bytes_dropped + k.bytes_duplicated)
    assert k.frames_corrupted == sum(c != r.original for r in results for c in r.copies)
    if not drop and not dup:
        assert k.bits_flipped == sum(popcount_diff(r.original, c)
                                     for r in results for c in r.copies)
    dec = wire.FrameDecoder()
    accepted = {wire.encode_frame(f) for f in dec.feed(b"".join(c for r in results
                                                                for c in r.copies))}
    assert accepted <= {r.original for r in results}
