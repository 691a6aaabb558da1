"""Ground-side compiler: manuals -> rule objects -> knowledge -> msgpack bundle."""

__version__ = "0.1.0"
