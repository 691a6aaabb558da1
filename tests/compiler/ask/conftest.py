"""Bundles of the example manuals, compiled once per test session for the ask tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.runtime.bundle.format import encode_bundle
from rulec.runtime.bundle.loader import Bundle, load_bundle
from rulec.runtime.engine.engine import Engine

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "manuals"
DOMAINS = ("rocket_engine", "inventory", "hospital", "access_control", "temperature_control")


def bundle_bytes(folder: Path) -> bytes:
    result = collect_rules([folder])
    return encode_bundle(build_payload(result, folder.name))


@pytest.fixture(scope="session")
def example_bytes() -> dict[str, bytes]:
    return {name: bundle_bytes(EXAMPLES / name) for name in DOMAINS}


@pytest.fixture(scope="session")
def bundles(example_bytes: dict[str, bytes]) -> dict[str, Bundle]:
    return {name: load_bundle(data) for name, data in example_bytes.items()}


@pytest.fixture(scope="session")
def engines(bundles: dict[str, Bundle]) -> dict[str, Engine]:
    return {name: Engine(b) for name, b in bundles.items()}


@pytest.fixture(scope="session")
def bundle_files(example_bytes: dict[str, bytes], tmp_path_factory: pytest.TempPathFactory
                 ) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("ask-bundles")
    out = {}
    for name, data in example_bytes.items():
        out[name] = folder / f"{name}.bundle"
        out[name].write_bytes(data)
    return out
