"""Onboard runtime: loads a rule bundle and evaluates sensor states against it.

Dependency-light on purpose (numpy, msgpack, cffi, pycosat, pyserial); it never
imports the ground-side compiler.  Layers, lowest first: the foundation (``errors``,
``backend``), ``bundle/``, ``logic/``, ``engine/``, ``daemon/`` (docs/architecture.md).
"""

from typing import TYPE_CHECKING, Any

from rulec.runtime.backend import NATIVE as NATIVE  # True when the C containment kernel is in use

if TYPE_CHECKING:
    from rulec.runtime.bundle.loader import Bundle as Bundle
    from rulec.runtime.bundle.loader import load_bundle as load_bundle
    from rulec.runtime.engine.engine import Engine as Engine
    from rulec.runtime.engine.replay import replay as replay

# The small Python API (docs/python-api.md), imported on first use so that
# ``import rulec.runtime`` stays cheap for the daemon.
_API = {
    "Engine": ("rulec.runtime.engine.engine", "Engine"),
    "Bundle": ("rulec.runtime.bundle.loader", "Bundle"),
    "load_bundle": ("rulec.runtime.bundle.loader", "load_bundle"),
    "replay": ("rulec.runtime.engine.replay", "replay"),
}
__all__ = ["NATIVE", *_API]


def __getattr__(name: str) -> Any:
    if name not in _API:
        raise AttributeError(f"module 'rulec.runtime' has no attribute {name!r}")
    import importlib

    module, attr = _API[name]
    return getattr(importlib.import_module(module), attr)
