"""Measure how fast and how cheaply hostile msgpack is refused (the figure in docs/robustness.md).

Each input is a valid 48-byte header with the right SHA-256, then a payload of a few
bytes whose msgpack header declares a 4-billion-entry container.  It reaches the
unpacker, whose limits (``UnpackLimits.for_payload``) refuse it before allocating.
Prints, per input: the median and worst time of ``load_bundle`` over many calls, the
peak of Python allocations during one call (tracemalloc), and the process's peak RSS
before and after all calls.  Run: ``.venv/bin/python fuzz/hostile_msgpack.py``.
"""

from __future__ import annotations

import resource
import statistics
import sys
import time
import tracemalloc

from rulec.runtime.bundle.format import frame_payload
from rulec.runtime.bundle.loader import load_bundle
from rulec.runtime.errors import BundleError

HOSTILE = {
    "array32 (0xdd ffffffff)": b"\xdd\xff\xff\xff\xff",
    "map32 (0xdf ffffffff)": b"\xdf\xff\xff\xff\xff",
    "str32 (0xdb ffffffff)": b"\xdb\xff\xff\xff\xff",
    "bin32 (0xc6 ffffffff)": b"\xc6\xff\xff\xff\xff",
    "ext32 (0xc9 ffffffff 05)": b"\xc9\xff\xff\xff\xff\x05",
    "array32 inside a map": b"\x81\xa1a\xdd\xff\xff\xff\xff",
}
CALLS = 2000


def _refuse(data: bytes) -> None:
    try:
        load_bundle(data)
    except BundleError:
        return
    raise SystemExit("hostile input was accepted")


def main() -> int:
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"{'input':28} {'bytes':>5} {'median':>9} {'worst':>9} {'peak alloc':>11}")
    for name, payload in HOSTILE.items():
        data = frame_payload(payload)
        times = []
        for _ in range(CALLS):
            t0 = time.perf_counter()
            _refuse(data)
            times.append(time.perf_counter() - t0)
        tracemalloc.start()
        _refuse(data)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"{name:28} {len(data):5d} {statistics.median(times) * 1e6:7.1f} us "
              f"{max(times) * 1e6:7.1f} us {peak / 1024:8.1f} KiB")
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak RSS of the process: {rss0 / 1024:.1f} MiB before, {rss1 / 1024:.1f} MiB after "
          f"{CALLS * len(HOSTILE)} refusals")
    return 0


if __name__ == "__main__":
    sys.exit(main())
