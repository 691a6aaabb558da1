"""atheris target: the bundle loader (``load_bundle`` / ``decode_bundle``).

By hand: ``.venv/bin/python fuzz/targets/bundle_loader.py -max_len=16384 CORPUS_DIR``.
Input layout and properties: fuzz/oracles/bundle.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from fuzz.harness import drop_leaked_comparisons, instrument  # noqa: E402

with instrument("rulec.runtime"):
    from fuzz.oracles.bundle import check_bundle


@drop_leaked_comparisons  # the loader compares numpy arrays: see fuzz/harness.py
def test_one_input(data: bytes) -> None:
    check_bundle(data)


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
