"""atheris target: the sensors.toml reader as the compiler calls it.

By hand: ``.venv/bin/python fuzz/targets/sensors_toml.py -max_len=4096 CORPUS_DIR``.
tomllib (pure Python) is instrumented too, so coverage guides mutations to valid TOML.
Properties: fuzz/oracles/sensors_toml.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from fuzz.harness import instrument  # noqa: E402

with instrument("tomllib", "rulec.compiler.model.manifest", "rulec.compiler.model.units",
                "rulec.compiler.model.parameters", "rulec.compiler.pipeline"):
    from fuzz.oracles.sensors_toml import check_sensors_toml


def test_one_input(data: bytes) -> None:
    check_sensors_toml(data)


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
