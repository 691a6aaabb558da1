"""Replay every fuzz seed and regression input through the fuzz targets' own oracles.

fuzz/seeds/<target>/ holds real inputs (protocol vectors, example bundles, sensors.toml
files, manual snippets); fuzz/regressions/<target>/ holds inputs that once broke a
property, and interesting ones (hostile msgpack).  The oracles (fuzz/oracles) need no
fuzzing engine: this suite runs them on every file, so a fixed bug stays fixed without
atheris or clang installed.  The frame decoder's differential half compiles
csrc/rulec_proto.c with the host C compiler through cffi, as the fuzz target does.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from fuzz.oracles import ORACLES, OracleFailure, check_frames  # noqa: E402
from fuzz.oracles.bundle import bundle_bytes  # noqa: E402
from fuzz.oracles.c_codec import CCodec  # noqa: E402
from fuzz.oracles.frames import reference_decoder  # noqa: E402
from rulec.runtime.bundle.format import frame_payload  # noqa: E402
from rulec.runtime.bundle.loader import load_bundle  # noqa: E402
from rulec.runtime.errors import BundleError  # noqa: E402

FUZZ = ROOT / "fuzz"
C_TARGET = FUZZ / "c" / "frame_decoder.c"


def _inputs(kind: str) -> list[tuple[str, Path]]:
    out = []
    for folder in sorted((FUZZ / kind).iterdir()):
        target = folder.name
        for path in sorted(folder.iterdir()):
            if path.is_file():
                out.append((target, path))
    return out


SEEDS = _inputs("seeds")
REGRESSIONS = _inputs("regressions")


def _id(case: tuple[str, Path]) -> str:
    return f"{case[0]}/{case[1].name}"


def _oracle_for(target: str) -> str:
    """Seeds are shared by the C and Python frame targets; both replay through the oracle."""
    return "frame_decoder" if target.startswith("frame_decoder") else target


def _c_compiler() -> str | None:
    return os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")


@pytest.fixture(scope="module")
def codec(tmp_path_factory: pytest.TempPathFactory) -> CCodec:
    if _c_compiler() is None:
        pytest.skip("no C compiler: the differential half needs csrc/rulec_proto.c built")
    return CCodec.build(tmp_path_factory.mktemp("cffi"))


def _replay(target: str, path: Path, codec: CCodec) -> None:
    data = path.read_bytes()
    name = _oracle_for(target)
    if name == "frame_decoder":
        check_frames(data, codec)
    else:
        ORACLES[name](data)


def test_every_target_has_seeds_and_an_oracle() -> None:
    targets = {t for t, _ in SEEDS}
    assert targets == {"frame_decoder", "bundle_loader", "sensors_toml", "manual_parser"}
    assert {_oracle_for(t) for t, _ in REGRESSIONS} <= set(ORACLES)


@pytest.mark.parametrize("case", SEEDS, ids=_id)
def test_seed_passes_its_oracle(case: tuple[str, Path], codec: CCodec) -> None:
    _replay(*case, codec)


@pytest.mark.parametrize("case", REGRESSIONS, ids=_id)
def test_regression_input_passes_its_oracle(case: tuple[str, Path], codec: CCodec) -> None:
    _replay(*case, codec)


def test_seed_bundles_really_load() -> None:
    """The bundle seeds reach the schema checks: they are real, loadable bundles."""
    for target, path in SEEDS:
        if target == "bundle_loader":
            assert load_bundle(bundle_bytes(path.read_bytes())).rules


def test_frame_seeds_hold_frames() -> None:
    """The frame seeds are real traffic: together they decode to frames of every type."""
    types = set()
    for target, path in SEEDS:
        if target == "frame_decoder":
            types |= {f.msg_type for f in reference_decoder(1044).feed(path.read_bytes())}
    assert len(types) == 5


def test_oracle_catches_a_broken_property() -> None:
    """The oracle is not vacuous: a decoder that drops a frame is reported."""
    stream = (FUZZ / "seeds" / "frame_decoder" / "stream_all_frames").read_bytes()
    check_frames(stream)
    with pytest.raises(OracleFailure):
        from fuzz.oracles.failure import expect

        frames = reference_decoder(1044).feed(stream)
        expect(frames[1:] == frames, "dropped frame")


def test_hostile_msgpack_array32_is_refused_with_little_memory() -> None:
    """A 48-byte valid header, then a 5-byte payload declaring a 4-billion-entry array.

    The digest is correct, so the bytes reach msgpack; the unpacker limits refuse the
    claim before allocating (tests/runtime/bundle/test_bundle_format.py also checks map/str/bin/ext;
    the time it takes is measured by fuzz/hostile_msgpack.py, not asserted here).
    """
    data = frame_payload(b"\xdd\xff\xff\xff\xff")
    assert len(data) == 53
    tracemalloc.start()
    try:
        with pytest.raises(BundleError, match="payload: "):
            load_bundle(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000, peak


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("deeply_nested_array_recursion_error.toml", "nested too deeply"),
        ("plural_alias_shadows_other_parameter.toml",
         "alias 'oil temp' \\(read as 'oil temps' of 'x'\\) belongs to both 'x' and 'oil_temp'"),
    ],
)
def test_manifest_findings_are_refused_with_one_line(
    name: str, message: str, tmp_path: Path
) -> None:
    """Two inputs the sensors.toml oracle broke on: now a ManifestError, not a traceback
    (RecursionError) or a silently shadowed parameter."""
    from rulec.compiler.model.manifest import load_manifest
    from rulec.runtime.errors import ManifestError

    path = tmp_path / "sensors.toml"
    path.write_bytes((FUZZ / "regressions" / "sensors_toml" / name).read_bytes())
    with pytest.raises(ManifestError, match=message):
        load_manifest(path)


@pytest.mark.skipif(shutil.which("clang") is None, reason="clang not installed")
def test_libfuzzer_target_replays_the_seeds(tmp_path: Path) -> None:
    """The C target's own oracles (run without fuzzing: libFuzzer replays the files)."""
    exe = tmp_path / "frame_decoder_c"
    build = [
        "clang", "-std=c99", "-g", "-O1", "-fsanitize=fuzzer,address,undefined",
        "-fno-sanitize-recover=all", "-I", str(ROOT / "csrc"), str(C_TARGET),
        str(ROOT / "csrc" / "rulec_proto.c"), "-o", str(exe),
    ]
    made = subprocess.run(build, capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"clang cannot build libFuzzer targets here: {made.stderr[-300:]}")
    files = [str(p) for t, p in SEEDS + REGRESSIONS if t.startswith("frame_decoder")]
    run = subprocess.run([str(exe), *files], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]


def test_atheris_comparison_results_are_not_kept_alive() -> None:
    """fuzz/harness.py: atheris's comparison tracing keeps an extra reference to each
    result; a numpy comparison's array then leaked on every bundle-loader input."""
    atheris = pytest.importorskip("atheris")
    np = pytest.importorskip("numpy")
    from fuzz import harness

    native = atheris._trace_cmp
    try:
        harness._wrap_trace_cmp()
        result = atheris._trace_cmp(np.arange(3), 1, 0, 0, False)  # np.arange(3) < 1
        assert result.tolist() == [True, False, False]
        assert sys.getrefcount(result) == 2  # the name and getrefcount's own argument
    finally:
        atheris._trace_cmp = native


def test_atheris_targets_instrument_only_the_code_under_test() -> None:
    """atheris keeps only the top-level package of an include name; the harness excludes
    the other rulec modules itself."""
    pytest.importorskip("atheris")
    from fuzz import harness

    modules = harness._rulec_modules()
    assert {"rulec.runtime.bundle.loader", "rulec.compiler.model.units",
            "rulec.firmware_bridge.cobs"} <= set(modules)
    hook = harness.instrument("rulec.runtime")
    excluded = hook._exclude_modules
    assert "rulec.compiler.model.units" in excluded and "rulec.firmware_bridge.cobs" in excluded
    assert not any(m.startswith("rulec.runtime") for m in excluded)
