"""What the review tests share: the fixture manuals, a copy of them, a decision made
the way the server makes one."""

from __future__ import annotations

import shutil
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "review"
PUMP = FIXTURES / "pump"
RUN = FIXTURES / "pump_run.csv"


def copy_manuals(tmp_path: Path) -> Path:
    """The pump manuals in a folder of the test's own (a test may edit them)."""
    target = tmp_path / "pump"
    shutil.copytree(PUMP, target)
    return target
