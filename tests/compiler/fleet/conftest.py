"""Fixtures of the fleet tests: the rocket-engine example compiled as the new bundle,
a variant of it as the bundle in service, and two vehicles' folders of recorded runs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from fleet_runs import MANUAL, SCENARIO, compile_folder, varied_run, write_run


@pytest.fixture(scope="session")
def bundles(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(new, old): the example, and the bundle in service: a 500 °C threshold where the
    example says 600 °C (another rule id) and a wide turbopump deadband (clears later)."""
    top = tmp_path_factory.mktemp("fleet-bundles")
    old_manual = top / "in_service"
    shutil.copytree(MANUAL, old_manual)
    text = old_manual / "hot_fire_limits.txt"
    text.write_text(text.read_text(encoding="utf-8").replace("exceeds 600 °C", "exceeds 500 °C"),
                    encoding="utf-8")
    toml = old_manual / "sensors.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        "channel = 3\n", "channel = 3\ndeadband = 3000.0\n", 1), encoding="utf-8")
    return compile_folder(MANUAL, top / "new.bundle"), compile_folder(old_manual,
                                                                      top / "old.bundle")


@pytest.fixture(scope="session")
def fleet_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two vehicles' folders of varied runs, the example itself among them."""
    top = tmp_path_factory.mktemp("fleet-telemetry") / "telemetry"
    for i in range(6):
        header, rows = varied_run(seed=i, repeats=1 + i % 3)
        write_run(top / f"V{i % 2 + 1}" / f"run_{i:02d}.csv", header, rows)
    shutil.copy(SCENARIO, top / "V1" / "engine_test.csv")
    return top
