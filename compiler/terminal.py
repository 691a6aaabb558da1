"""Text from manuals never reaches a terminal raw.

A manual (or a reviewed rules file) can carry escape sequences that recolour, retitle or
rewrite an engineer's terminal, and bidirectional overrides that make a line read other
than it is.  Every line the command line prints goes through :class:`EscapingStream`,
which spells such characters as ``\\uXXXX``: readable to a person, and still the same
character inside a JSON string (JSON output escapes C0 controls itself).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

_UNSAFE = [*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F, *range(0x80, 0xA0),
           0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_TABLE = {c: f"\\u{c:04x}" for c in _UNSAFE}


def escape_controls(text: str) -> str:
    """``text`` with control, escape and direction-override characters spelled out
    (newline and tab are kept)."""
    return text.translate(_TABLE)


class EscapingStream:
    """A text stream that escapes what it is given and passes the rest (``buffer`` for
    binary output, ``isatty``, ``fileno``) to the stream it wraps."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(escape_controls(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextmanager
def escaped_output() -> Iterator[None]:
    """Within this block, sys.stdout and sys.stderr escape control characters."""
    saved = sys.stdout, sys.stderr
    sys.stdout = EscapingStream(saved[0])
    sys.stderr = EscapingStream(saved[1])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
