"""Load rulec's compiled modules from RULEC_NATIVE_DIR instead of the installed ones.

Put this folder on PYTHONPATH and set RULEC_NATIVE_DIR to a folder laid out like the
package (``rulec/runtime/_kernel.abi3.so``, as csrc/build_instrumented.py writes it):
every Python process started with that environment, the test run and the daemons and
CLIs it spawns alike, then imports those builds (sanitized or gcov-instrumented) while
the in-place modules of the editable install stay untouched for everyone else.
Without RULEC_NATIVE_DIR it does nothing.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType


class InstrumentedFinder:
    """Meta-path finder: a ``rulec.*`` extension module found under root wins."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("rulec."):
            return None
        *package, leaf = fullname.split(".")
        folder = self.root.joinpath(*package)
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            candidate = folder / (leaf + suffix)
            if candidate.is_file():
                loader = importlib.machinery.ExtensionFileLoader(fullname, str(candidate))
                return importlib.machinery.ModuleSpec(fullname, loader, origin=str(candidate))
        return None


_root = os.environ.get("RULEC_NATIVE_DIR", "")
if _root:
    sys.meta_path.insert(0, InstrumentedFinder(Path(_root).resolve()))
