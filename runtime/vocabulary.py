"""The words the ground and the vehicle share, each defined once: rule kinds, severities
and sensor-fault reasons, with their codes on the wire.

The compiler writes them into rule objects and bundles, the bundle loader checks them,
the engine orders advisories by them, the wire protocol and the C lane carry their
codes, and the knowledge base stores them.  Everything else imports them from here.
"""

from __future__ import annotations

import enum
from typing import Final

# Rule kinds.  A bundle's ``rules`` section holds the firing kinds; a procedure is a rule
# object too, but goes to the bundle's ``procedures`` section.
CONDITIONAL_KINDS: Final = ("if_then", "constraint")  # a condition that fires the rule
RULE_KINDS: Final = (*CONDITIONAL_KINDS, "exclusion")  # the bundle's rules section
PROCEDURE: Final = "procedure"
RULE_OBJECT_KINDS: Final = (*RULE_KINDS, PROCEDURE)

# A time in state: the derived parameter "<discrete parameter>.time_in_state", in seconds
# ("within 10 seconds of engine start": engine == running and engine.time_in_state <= 10 s).
TIME_IN_STATE: Final = ".time_in_state"


def time_in_state_of(name: str) -> str | None:
    """The discrete parameter whose time in state ``name`` is, or None."""
    return name[:-len(TIME_IN_STATE)] if name.endswith(TIME_IN_STATE) else None


def parameter_words(name: str) -> str:
    """A parameter's name as advisories say it: "oil pressure", "time in state of engine"."""
    of = time_in_state_of(name)
    if of is not None:
        return f"time in state of {of.replace('_', ' ')}"
    return name.replace("_", " ")


# Severities, most severe first, and their codes in ADVISORY frames.
SEVERITIES: Final = ("warning", "caution", "advisory")
SEVERITY_RANK: Final = {name: rank for rank, name in enumerate(SEVERITIES)}
SEVERITY_CODES: Final = {"warning": 1, "caution": 2, "advisory": 3}
DEFAULT_SEVERITY: Final = "advisory"
FAULT_SEVERITY: Final = "caution"  # a sensor-fault advisory


class FaultReason(enum.IntEnum):
    """Why a value cannot be believed: the code in a SENSOR_FAULT frame (payload byte 2)
    and in the C lane, with the words the advisory and the log use."""

    NAN = 1
    INFINITE = 2
    BELOW_RANGE = 3
    ABOVE_RANGE = 4
    STALE = 5
    MISSING = 6
    NOT_A_STATE = 7  # a discrete parameter's value between two state indexes

    @property
    def words(self) -> str:
        return FAULT_WORDS[self]

    @classmethod
    def of_words(cls, words: str) -> FaultReason:
        """The reason a fault's words name ("below range" -> BELOW_RANGE)."""
        return _BY_WORDS[words]


FAULT_WORDS: Final = {
    FaultReason.NAN: "not a number",
    FaultReason.INFINITE: "infinite",
    FaultReason.BELOW_RANGE: "below range",
    FaultReason.ABOVE_RANGE: "above range",
    FaultReason.STALE: "stale",
    FaultReason.MISSING: "missing",
    FaultReason.NOT_A_STATE: "not a state",
}
_BY_WORDS: Final = {words: reason for reason, words in FAULT_WORDS.items()}
