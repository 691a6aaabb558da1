"""The last validated bundle, kept on disk so that a restart with a corrupt bundle at
the configured path still evaluates (docs/onboard.md, "Last good bundle").

Every bundle the daemon starts from or swaps in is copied, atomically and durably, to
``last_good``; at start, when the configured bundle is refused, the daemon starts from
that copy, says so, and keeps watching the configured path: the next valid bundle
there is swapped in by the ordinary reload.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from rulec.runtime.bundle.format import write_file_atomically
from rulec.runtime.bundle.loader import load_bundle
from rulec.runtime.engine.engine import Engine
from rulec.runtime.errors import RulecError


def keep(path: str | os.PathLike[str], source: str | os.PathLike[str], engine: Engine) -> str:
    """Copy ``source`` to ``path`` if its bytes are still the bundle ``engine`` serves;
    return what was done, or raise OSError when the copy cannot be written."""
    data = Path(source).read_bytes()
    try:
        same = load_bundle(data).digest == engine.bundle.digest
    except RulecError:
        same = False
    if not same:
        return "skipped: the file changed since it was loaded"
    target = Path(path)
    if target.is_file() and target.read_bytes() == data:
        return "unchanged"
    write_file_atomically(target, data, 0o644)
    return "written"


def load_or_kept(path: str | os.PathLike[str], kept: str | os.PathLike[str] | None,
                 loader: Callable[[str | os.PathLike[str]], Engine]
                 ) -> tuple[Engine, str | None]:
    """The engine of the bundle at ``path``; when it is refused and a kept copy loads,
    that engine and why the bundle was refused.  Without a copy the refusal is raised."""
    try:
        return loader(path), None
    except RulecError as exc:
        if kept is None:
            raise
        try:
            engine = start_from(kept, loader)
        except RulecError:
            raise exc from None
        return engine, " ".join(str(exc).split())


def start_from(path: str | os.PathLike[str],
               loader: Callable[[str | os.PathLike[str]], Engine]) -> Engine:
    """The engine of the kept copy (RulecError when it is missing or refused too)."""
    if not Path(path).is_file():
        raise RulecError(f"{os.fspath(path)}: no last good bundle kept")
    return loader(path)
