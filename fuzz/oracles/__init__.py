"""Fuzz oracles: one function per target, importable without atheris.

Each takes one input's bytes, returns quietly when the module under test either
accepts the input or refuses it with its documented exception, and raises
``OracleFailure`` (or lets an undocumented exception escape) otherwise.  The atheris
targets in fuzz/targets and tests/integration/test_fuzz_regressions.py call the same functions.
"""

from __future__ import annotations

from collections.abc import Callable

from .bundle import check_bundle
from .failure import OracleFailure, expect
from .frames import check_frames
from .manual import check_manual
from .sensors_toml import check_sensors_toml

__all__ = ["ORACLES", "OracleFailure", "check_bundle", "check_frames", "check_manual",
           "check_sensors_toml", "expect"]

ORACLES: dict[str, Callable[[bytes], None]] = {
    "frame_decoder": check_frames,  # the differential half needs a CCodec: see targets
    "bundle_loader": check_bundle,
    "sensors_toml": check_sensors_toml,
    "manual_parser": check_manual,
}
