"""What the atheris targets share: which modules get coverage instrumentation, and a
leak in atheris's comparison tracing that the bundle target works around.

Instrumentation scope: ``atheris.instrument_imports(include=["rulec.runtime"])`` keeps
only the top-level package of each name ("rulec"), so it instruments every rulec module
imported inside it, and ``fuzz.oracles`` imports all of them.  ``instrument`` also lists
the rulec modules outside the named ones as excluded, so a target's coverage map holds
the code under test and nothing else.

The leak: atheris (3.0) replaces each ``a < b`` of an instrumented module with a call
to ``atheris._trace_cmp``, which returns the comparison's result with one reference too
many.  A ``bool`` costs nothing, but a numpy comparison returns a new array, which then
lives forever: the bundle loader validates its arrays with ``(x < lo) | (x > hi)`` and
the fuzzing process grew by 170 to 190 bytes an execution until ``-rss_limit_mb``
stopped it.  ``drop_leaked_comparisons`` swaps in a wrapper that releases that reference.
"""

from __future__ import annotations

import ctypes
import importlib.util
import pkgutil
import sys
from collections.abc import Callable
from typing import Any

import atheris

_PACKAGES = ("rulec.compiler", "rulec.runtime", "rulec.firmware_bridge")


def _rulec_modules() -> list[str]:
    """Every module of the rulec packages, found on disk without importing them."""
    names = []
    for package in _PACKAGES:
        spec = importlib.util.find_spec(package)
        if spec is None or spec.submodule_search_locations is None:
            continue
        names.append(package)
        names += [f"{package}.{m.name}" for m in pkgutil.iter_modules(
            spec.submodule_search_locations)]
    return names


def instrument(*modules: str) -> Any:
    """``atheris.instrument_imports`` for ``modules`` (and their submodules) only.

    Use as a context manager around the imports of the oracle.
    """
    def wanted(name: str) -> bool:
        return any(name == m or name.startswith(m + ".") for m in modules)

    exclude = [name for name in _rulec_modules() if not wanted(name)]
    return atheris.instrument_imports(include=list(modules), exclude=exclude)


_Py_DecRef = ctypes.pythonapi.Py_DecRef
_Py_DecRef.argtypes = [ctypes.py_object]
_Py_DecRef.restype = None


def drop_leaked_comparisons(test_one_input: Callable[[bytes], None]) -> Callable[[bytes], None]:
    """``test_one_input``, made to release the reference ``atheris._trace_cmp`` leaks.

    Instrumented code looks the function up on the atheris module at each comparison,
    and ``atheris.Fuzz()`` binds it to the engine's own function when it starts, so the
    wrapper goes in at the first input.  It costs a Python call per traced comparison:
    worth it where comparisons make new objects (numpy), not elsewhere.  If the engine's
    function does not leak (a fixed atheris), it is left alone.
    """
    installed = False

    def run(data: bytes) -> None:
        nonlocal installed
        if not installed:
            _wrap_trace_cmp()
            installed = True
        test_one_input(data)

    return run


def _wrap_trace_cmp() -> None:
    native: Callable[..., Any] = atheris._trace_cmp
    if getattr(native, "_drops_leak", False) or not _leaks(native):
        return

    def trace_cmp(left: object, right: object, op: int, index: int, const: bool) -> Any:
        result = native(left, right, op, index, const)
        if result.__class__ is not bool:  # True and False are shared: no leak to undo
            _Py_DecRef(result)
        return result

    trace_cmp._drops_leak = True  # type: ignore[attr-defined]
    atheris._trace_cmp = trace_cmp


def _leaks(native: Callable[..., Any]) -> bool:
    """Whether ``native`` returns a comparison's result with an extra reference."""

    class Result:
        pass

    class Compared:
        def __lt__(self, other: object) -> Any:
            return Result()

    plain = Compared() < 0
    traced = native(Compared(), 0, 0, 0, False)  # 0 is Py_LT
    extra = sys.getrefcount(traced) - sys.getrefcount(plain)
    if extra > 0:
        _Py_DecRef(traced)
    return extra > 0
