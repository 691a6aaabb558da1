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

class OptionalModule:
    """A compiled extension that may not be built: imported once, on first use, with the
    reason kept when it fails.  The kernel here and the wire codec
    (``rulec.firmware_bridge.native_codec``) each hold one."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._module: ModuleType | None = None
        self._error: BaseException | None = None
        self._tried = False

    def load(self) -> ModuleType | None:
        """The module, or None when it is not built or fails to load (cached)."""
        if not self._tried:
            self._tried = True
            try:
                self._module = importlib.import_module(self.name)
            except ImportError as exc:
                self._error = exc
        return self._module

    def error(self) -> BaseException | None:
        """Why it did not load (None if it loaded or was never tried)."""
        return self._error


_KERNEL = OptionalModule(_NATIVE_MODULE)


def load_native() -> ModuleType | None:
    """The compiled kernel module, or None when it is not built or fails to load.

    Lazy and cached; it ignores ``RULEC_PUREPYTHON`` so tests can compare both backends
    in one process.
    """
    return _KERNEL.load()


def native_error() -> BaseException | None:
    """Why the kernel did not load (None if it loaded or was never tried)."""
    return _KERNEL.error()


def forced_pure() -> bool:
    """True when the environment asks for the numpy fallback."""
    return os.environ.get(ENV_VAR, "").strip() not in ("", "0")


def _choose() -> BackendName:
    if forced_pure():
        return "numpy"
    if load_native() is not None:
        return "native"
    warnings.warn(
        f"rulec: C containment kernel unavailable ({_KERNEL.error()}); "
        "using the slower numpy fallback",
        RuntimeWarning,
        stacklevel=2,
    )
    return "numpy"


BACKEND: Final[BackendName] = _choose()
NATIVE: Final[bool] = BACKEND == "native"
