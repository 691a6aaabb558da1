"""atheris target: the Python frame decoder, differential against the C codec.

Run through ``make fuzz`` (fuzz/run.py), or by hand with libFuzzer flags:
``.venv/bin/python fuzz/targets/frame_decoder.py -max_len=4096 -timeout=10 CORPUS_DIR``.
The C codec is built with cffi on first use (build/fuzz/cffi); without a C compiler
the target still checks the Python side alone.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from fuzz.harness import instrument  # noqa: E402

with instrument("rulec.firmware_bridge"):
    from fuzz.oracles.c_codec import CCodec
    from fuzz.oracles.frames import check_frames

try:
    CODEC: CCodec | None = CCodec.build()
except Exception as exc:  # no compiler: fuzz the Python side alone, and say so
    print(f"frame_decoder: C codec unavailable ({exc}); Python side only", file=sys.stderr)
    CODEC = None


def test_one_input(data: bytes) -> None:
    check_frames(data, CODEC)


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
