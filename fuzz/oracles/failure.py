"""The one exception an oracle raises when an input breaks a documented property."""

from __future__ import annotations


class OracleFailure(AssertionError):
    """An input made a fuzzed module break its contract (not merely refuse the input)."""


def expect(condition: bool, message: str) -> None:
    """Raise ``OracleFailure(message)`` unless ``condition`` holds (kept under ``python -O``)."""
    if not condition:
        raise OracleFailure(message)
