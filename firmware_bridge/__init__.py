"""The firmware side of the onboard daemon's wire.

The wire protocol itself lives at this level (``protocol``: frames and their fields,
``cobs`` and ``crc``: framing and checksums, ``native_codec``: the C codec behind them);
``links/`` moves bytes (serial, TCP, UDP, stdin) without knowing frames; ``readers/``
turns other telemetry formats (CCSDS, MAVLink) into samples; ``sim/`` is the
hardware-in-the-loop simulator, ``rulec-sim``.
"""
