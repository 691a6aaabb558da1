"""Determinism across builds: the same telemetry, replayed through the C kernel as
installed, the numpy backend (``RULEC_PUREPYTHON=1``), and the kernel rebuilt at -O0,
at -O2 and with AddressSanitizer + UBSan, gives bit-identical streams of advisories
(the SHA-256 of every event's JSON, and of every ``evaluate`` answer without timings).

Each variant runs in its own interpreter.  The rebuilt kernels come from
``csrc/build_instrumented.py`` (RULEC_CFLAGS appended last, so they win) into a cache
folder under the system temp directory keyed by the C sources and flags, and are loaded
through ``tools/instrumented_site`` (``RULEC_NATIVE_DIR``); every child reports the file
its kernel was loaded from, so a variant silently falling back is caught.  The
sanitizer variant needs libasan and libubsan preloaded (an uninstrumented python loads
an instrumented module); it is skipped when the compiler has no libasan, and
``bench/fault_matrix.py`` runs it with more telemetry.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.runtime.backend import load_native
from rulec.runtime.bundle.format import encode_bundle, write_bundle_file
from rulec.runtime.bundle.loader import Bundle, load_bundle

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "manuals"
SCENARIO = REPO / "examples" / "scenarios" / "engine_test.csv"
SANITIZE = "-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
BUILDS = {"O0": ("-O0", ""), "O2": ("-O2", ""),
          "asan+ubsan": (SANITIZE, "-fsanitize=address,undefined")}

RUNNER = r"""
import hashlib, json, math, sys
from pathlib import Path
from rulec.runtime import backend
from rulec.runtime.engine.engine import Engine
from rulec.runtime.engine.replay import read_samples

def clean(value):
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items() if k not in ("latency_us", "path_us")}
    if isinstance(value, list):
        return [clean(v) for v in value]
    return value

events, answers, n_events = hashlib.sha256(), hashlib.sha256(), 0
for pair in sys.argv[1:]:
    bundle, csv = pair.split("=", 1)
    engine = Engine.from_file(bundle)
    for t, sample in read_samples(Path(csv), known=engine.knows):
        for ev in engine.step(t, sample):
            events.update(json.dumps(clean(ev.to_json()), sort_keys=True).encode() + b"\n")
            n_events += 1
        answer = clean(engine.evaluate(sample).to_json())
        answers.update(json.dumps(answer, sort_keys=True).encode() + b"\n")
kernel = backend.load_native()
print(json.dumps({"backend": backend.BACKEND, "kernel": getattr(kernel, "__file__", None),
                  "events": n_events, "events_sha256": events.hexdigest(),
                  "answers_sha256": answers.hexdigest()}))
"""


# --------------------------------------------------------------------------- telemetry


def telemetry_csv(bundle: Bundle, path: Path, n: int, seed: int) -> Path:
    """A CSV for ``rulec replay``: values on, just beside and around every threshold,
    NaN, infinities, out-of-range values, and gaps long enough to go stale."""
    rng = random.Random(seed)
    b = bundle.boxes
    marks: dict[int, list[float]] = {}
    for c in range(len(b.axis)):
        for v in (float(b.lo[c]), float(b.hi[c])):
            if math.isfinite(v):
                marks.setdefault(int(b.axis[c]), []).extend(
                    [v, math.nextafter(v, math.inf), math.nextafter(v, -math.inf),
                     v + 3.25, v - 3.25, v * 1.5])
    names = [p.name for p in bundle.parameters]
    lines = ["time," + ",".join(names)]
    t = 0.0
    for _ in range(n):
        t += rng.choice([0.1, 0.25, 0.5, 1.0, 2.5])
        cells = []
        for i, p in enumerate(bundle.parameters):
            roll = rng.random()
            if roll < 0.4:
                cells.append("")
            elif roll < 0.45:
                cells.append(rng.choice(["nan", "inf", "-inf"]))
            elif roll < 0.5 and math.isfinite(p.range_hi):
                cells.append(repr(p.range_hi + rng.choice([1e-9, 1.0, 1e6])))
            else:
                cells.append(repr(rng.choice(marks.get(i, [0.0]))))
        lines.append(f"{t!r}," + ",".join(cells))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def workload(folder: Path, samples: int) -> list[str]:
    """``bundle=csv`` pairs: the rocket test-stand scenario and seeded random telemetry
    for two example domains."""
    pairs = []
    for name in ("rocket_engine", "temperature_control"):
        data = encode_bundle(build_payload(collect_rules([EXAMPLES / name]), name))
        path = folder / f"{name}.rulec"
        write_bundle_file(path, data)
        csv = telemetry_csv(load_bundle(data), folder / f"{name}.csv", samples, seed=len(name))
        pairs.append(f"{path}={csv}")
        if name == "rocket_engine":
            pairs.append(f"{path}={SCENARIO}")
    return pairs


# --------------------------------------------------------------------------- builds


def sources_key(cflags: str, ldflags: str) -> str:
    h = hashlib.sha256(f"{cflags}|{ldflags}|{sys.version}".encode())
    for path in sorted((REPO / "csrc").glob("*")):
        if path.suffix in (".c", ".h", ".py"):
            h.update(path.name.encode() + path.read_bytes())
    return h.hexdigest()[:16]


def build_variant(cflags: str, ldflags: str) -> Path:
    """The kernel built with these flags (cached); the folder to give RULEC_NATIVE_DIR."""
    cache = Path(tempfile.gettempdir()) / "rulec-fault-matrix-builds"
    out = cache / sources_key(cflags, ldflags)
    if not (out / "lib").is_dir():
        cache.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(dir=cache, prefix="build-"))
        done = subprocess.run(
            [sys.executable, str(REPO / "csrc" / "build_instrumented.py"), str(work),
             f"--cflags={cflags}", f"--ldflags={ldflags}"],
            capture_output=True, text=True, timeout=600, cwd=REPO)
        if done.returncode != 0:
            raise AssertionError(f"build {cflags!r} failed:\n{done.stdout}\n{done.stderr}")
        try:
            work.rename(out)
        except OSError:  # another run built it meanwhile
            shutil.rmtree(work, ignore_errors=True)
    return out / "lib"


def sanitizer_runtimes() -> list[str] | None:
    """libasan and libubsan as the compiler links them, or None when there are none."""
    found = []
    for lib in ("libasan.so", "libubsan.so"):
        try:
            path = subprocess.run([os.environ.get("CC", "gcc"), f"-print-file-name={lib}"],
                                  capture_output=True, text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return None
        if not os.path.isabs(path) or not os.path.exists(path):
            return None
        found.append(os.path.realpath(path))
    return found


def run_variant(pairs: list[str], env_extra: dict[str, str]) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("RULEC_PUREPYTHON", "RULEC_NATIVE_DIR", "LD_PRELOAD")}
    env.update(env_extra)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", RUNNER, *pairs], capture_output=True,
                          text=True, env=env, timeout=3600, cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["stderr"] = done.stderr
    result["seconds"] = round(time.perf_counter() - started, 1)
    return result


def variant_env(name: str) -> dict[str, str]:
    """The environment of one variant ("installed", "numpy" or a key of BUILDS)."""
    if name == "installed":
        return {}
    if name == "numpy":
        return {"RULEC_PUREPYTHON": "1"}
    cflags, ldflags = BUILDS[name]
    env = {"RULEC_NATIVE_DIR": str(build_variant(cflags, ldflags)),
           "PYTHONPATH": os.pathsep.join(
               [str(REPO / "tools" / "instrumented_site"), os.environ.get("PYTHONPATH", "")])}
    if name == "asan+ubsan":
        runtimes = sanitizer_runtimes()
        assert runtimes is not None
        env["LD_PRELOAD"] = " ".join(runtimes)
        env["ASAN_OPTIONS"] = "detect_leaks=0:halt_on_error=1:abort_on_error=0"
        env["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1"
    return env


def determinism_matrix(folder: Path, samples: int, variants: list[str]) -> dict[str, Any]:
    pairs = workload(folder, samples)
    return {name: run_variant(pairs, variant_env(name)) for name in variants}


# --------------------------------------------------------------------------- tests


@pytest.fixture(scope="module")
def pairs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return workload(tmp_path_factory.mktemp("determinism"), 150)


@pytest.fixture(scope="module")
def installed(pairs: list[str]) -> dict[str, Any]:
    """The reference: the kernel of the editable install, in a child like the others."""
    if load_native() is None:
        pytest.skip("the C kernel is not built: nothing to compare the builds with")
    r = run_variant(pairs, variant_env("installed"))
    assert r["backend"] == "native" and r["events"] > 100, r
    return r


@pytest.mark.parametrize("name", ["numpy", *BUILDS])
def test_the_advisory_stream_is_bit_identical_to_the_installed_kernel(
        pairs: list[str], installed: dict[str, Any], name: str) -> None:
    if name in BUILDS and not (REPO / "csrc" / "build_instrumented.py").exists():
        pytest.skip("csrc/build_instrumented.py is not in this tree")
    if name == "asan+ubsan" and sanitizer_runtimes() is None:
        pytest.skip("no libasan/libubsan next to the C compiler: the sanitizer build "
                    "cannot be loaded into python (bench/fault_matrix.py reports it)")
    r = run_variant(pairs, variant_env(name))
    print(f"\n{name:<11} {r['backend']:<7} events {r['events']} "
          f"{r['events_sha256'][:16]} answers {r['answers_sha256'][:16]}  {r['kernel']}")
    if name == "numpy":
        assert r["backend"] == "numpy"
    else:  # the rebuilt kernel, not the installed one, answered
        assert r["backend"] == "native" and r["kernel"] is not None
        assert variant_env(name)["RULEC_NATIVE_DIR"] in r["kernel"], (name, r["kernel"])
        assert "ERROR: AddressSanitizer" not in r["stderr"], r["stderr"][-2000:]
        assert "runtime error:" not in r["stderr"], r["stderr"][-2000:]
    for key in ("events", "events_sha256", "answers_sha256"):
        assert r[key] == installed[key], (name, key)
