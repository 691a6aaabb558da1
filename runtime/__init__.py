"""Onboard runtime: loads a rule bundle and evaluates sensor states against it.

Dependency-light on purpose (numpy, msgpack, cffi, pycosat, pyserial); it never
imports the ground-side compiler.  Layers, lowest first: the foundation (``errors``,
``backend``), ``bundle/``, ``logic/``, ``engine/``, ``daemon/`` (docs/architecture.md).
"""

from rulec.runtime.backend import NATIVE as NATIVE  # True when the C containment kernel is in use
