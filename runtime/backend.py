"""Choose, once at import, which containment backend the runtime uses.

``RULEC_PUREPYTHON=1`` forces the numpy fallback (so a test run can exercise it even
where the C kernel is built); otherwise the cffi module ``rulec.runtime._kernel`` is
used when it imports, and numpy with a warning when it does not.  ``NATIVE`` tells
which one won; ``rulec.runtime.NATIVE`` re-exports it.
"""

from __future__ import annotations

import importlib
import os
import warnings
from types import ModuleType
from typing import Final, Literal

BackendName = Literal["native", "numpy"]

ENV_VAR: Final = "RULEC_PUREPYTHON"
_NATIVE_MODULE: Final = "rulec.runtime._kernel"

_native: ModuleType | None = None
_native_error: BaseException | None = None
_native_tried = False


def load_native() -> ModuleType | None:
    """The compiled kernel module, or None when it is not built or fails to load.

    Lazy and cached; it ignores ``RULEC_PUREPYTHON`` so tests can compare both backends
    in one process.
    """
    global _native, _native_error, _native_tried
    if not _native_tried:
        _native_tried = True
        try:
            _native = importlib.import_module(_NATIVE_MODULE)
        except ImportError as exc:
            _native_error = exc
    return _native


def native_error() -> BaseException | None:
    """Why the kernel did not load (None if it loaded or was never tried)."""
    return _native_error


def forced_pure() -> bool:
    """True when the environment asks for the numpy fallback."""
    return os.environ.get(ENV_VAR, "").strip() not in ("", "0")


def _choose() -> BackendName:
    if forced_pure():
        return "numpy"
    if load_native() is not None:
        return "native"
    warnings.warn(
        f"rulec: C containment kernel unavailable ({_native_error}); "
        "using the slower numpy fallback",
        RuntimeWarning,
        stacklevel=2,
    )
    return "numpy"


BACKEND: Final[BackendName] = _choose()
NATIVE: Final[bool] = BACKEND == "native"
