"""The hardware-in-the-loop firmware simulator behind ``rulec-sim``.

``scenario`` reads a CSV of timed samples into frames, ``player`` plays them to the daemon
and judges its replies, ``transports`` carries the bytes (pty, serial URL, TCP, UDP),
``faults`` injects seeded line faults, ``command`` is the command line.
"""
