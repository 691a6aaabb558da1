"""pytest plugin for runs against instrumented builds (``-p rulec_instrumented``).

Sanitizers and gcov make the C code several times slower, and a loaded shared machine
slower still, so hypothesis' per-example deadline (a timing assertion) is turned off:
a run against an instrumented build must fail on reports, never on timings.  The run's
summary names the file each compiled module was loaded from, so the log shows that the
instrumented builds (not the in-place ones) were the ones tested.
"""

from __future__ import annotations

import importlib
import os

import pytest
from hypothesis import settings

settings.register_profile("instrumented", deadline=None)
settings.load_profile("instrumented")

MODULES = ("rulec.runtime._kernel", "rulec.firmware_bridge._proto")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line per compiled module: the file this run loaded it from."""
    root = os.environ.get("RULEC_NATIVE_DIR")
    terminalreporter.write_line(f"compiled modules (RULEC_NATIVE_DIR={root}):")
    for name in MODULES:
        try:
            where = importlib.import_module(name).__file__
        except ImportError as exc:
            where = f"not importable ({exc})"
        terminalreporter.write_line(f"  {name}: {where}")
