"""Shared pytest setup.

The suite runs once per backend: plain ``pytest`` uses the C kernel when it is built,
``RULEC_PUREPYTHON=1 pytest`` forces the numpy fallback (``runtime/backend.py`` reads
the variable once at import).  Tests that must see both backends in one process ask
for the ``any_backend`` fixture or pass ``backend=`` to ``BoxIndex`` explicitly.
"""

from __future__ import annotations

import os

import pytest

# --- backend parametrisation -------------------------------------------------------
from rulec.runtime import backend as rulec_backend


def pytest_report_header(config: pytest.Config) -> str:
    """Say in the run's header which backend this run exercises."""
    forced = os.environ.get(rulec_backend.ENV_VAR, "")
    return f"rulec backend: {rulec_backend.BACKEND} ({rulec_backend.ENV_VAR}={forced!r})"


def native_available() -> bool:
    """True when the C kernel imports (regardless of RULEC_PUREPYTHON)."""
    return rulec_backend.load_native() is not None


@pytest.fixture(scope="session")
def default_backend() -> str:
    """The backend this run exercises by default: "native" or "numpy"."""
    return rulec_backend.BACKEND


@pytest.fixture(params=["native", "numpy"])
def any_backend(request: pytest.FixtureRequest) -> str:
    """Each backend in turn; native is skipped when the kernel is not built."""
    if request.param == "native" and not native_available():
        pytest.skip(f"C kernel not built: {rulec_backend.native_error()}")
    return str(request.param)


# --- end of backend parametrisation ----------------------------------------------
