"""The one error `rulec-sim` raises on purpose, apart so that its scenario, transport,
simulator and command-line modules can share it without importing each other."""

from __future__ import annotations

from rulec.runtime.errors import RulecError

__all__ = ["SimError"]


class SimError(RulecError):
    """A scenario, channel map or link the simulator cannot use."""
