"""Build the cffi modules of csrc/ with extra compiler flags into a separate folder.

``make test-sanitize`` and ``make coverage`` need the C parts compiled with sanitizers
or ``--coverage`` without touching the in-place ``runtime/_kernel*.so`` that the normal
editable install (and everyone else's test runs) loads.  This script compiles every
``cffi_modules`` entry of setup.py, exactly as the install does, but with RULEC_CFLAGS
and RULEC_LDFLAGS set (the build scripts append them last, so they win) and with
``build_lib``/``build_temp`` under OUT::

    python csrc/build_instrumented.py OUT --cflags "--coverage -O0" --ldflags "--coverage"

gives OUT/lib/rulec/runtime/_kernel.abi3.so (objects, and gcov's .gcno files, under
OUT/temp).  ``RULEC_NATIVE_DIR=OUT/lib`` with tools/instrumented_site on PYTHONPATH
makes every Python process load the modules from there (see its sitecustomize.py).
``--check`` instead imports them under the current environment and prints where each
one was loaded from, failing unless it comes from OUT/lib and, with ``--needs LIB``,
unless the file links LIB and LIB is mapped into the process.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def cffi_modules(setup_py: Path = ROOT / "setup.py") -> list[str]:
    """The ``cffi_modules=[...]`` entries of setup.py, read without running it."""
    for node in ast.walk(ast.parse(setup_py.read_text(encoding="utf-8"))):
        if isinstance(node, ast.keyword) and node.arg == "cffi_modules":
            value = ast.literal_eval(node.value)
            return [value] if isinstance(value, str) else list(value)
    raise SystemExit(f"{setup_py}: no cffi_modules= found")


def build(out: Path, cflags: str, ldflags: str) -> list[Path]:
    """Compile every cffi module into out/lib (objects in out/temp); return the files."""
    from cffi.setuptools_ext import add_cffi_module
    from setuptools import Distribution

    os.environ["RULEC_CFLAGS"] = cflags
    os.environ["RULEC_LDFLAGS"] = ldflags
    os.chdir(ROOT)  # the build scripts give their sources relative to the cwd
    dist = Distribution({"name": "rulec-instrumented", "script_name": "build_instrumented"})
    for spec in cffi_modules():
        add_cffi_module(dist, spec)
    cmd: Any = dist.get_command_obj("build_ext")
    cmd.build_lib = str(out / "lib")
    cmd.build_temp = str(out / "temp")
    cmd.force = True  # the flags differ from any earlier build: never reuse objects
    dist.run_command("build_ext")
    return [Path(p) for p in cmd.get_outputs()]


def module_names() -> list[str]:
    """Dotted names of the cffi modules setup.py builds (from their set_source call)."""
    names = []
    for spec in cffi_modules():
        script = ROOT / spec.split(":")[0]
        for node in ast.walk(ast.parse(script.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "set_source" and node.args):
                names.append(ast.literal_eval(node.args[0]))
    return names


def _needed(path: Path) -> list[str]:
    """DT_NEEDED entries of a shared object, as readelf prints them."""
    done = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True,
                          check=True)
    return [line.split("[", 1)[1].rstrip("]") for line in done.stdout.splitlines()
            if "(NEEDED)" in line]


def check(out: Path, needs: list[str]) -> int:
    """Import each module and show it is the one from out/lib; 0 when all are."""
    lib_dir = (out / "lib").resolve()
    maps = Path("/proc/self/maps").read_text() if Path("/proc/self/maps").exists() else ""
    bad = 0
    for name in module_names():
        mod = importlib.import_module(name)
        path = Path(str(mod.__file__)).resolve()
        linked = _needed(path)
        print(f"{name}: loaded from {path}")
        print(f"  links {', '.join(linked)}")
        if lib_dir not in path.parents:
            print(f"  NOT the instrumented build (expected under {lib_dir})")
            bad += 1
        for lib in needs:
            if not any(entry.startswith(lib) for entry in linked):
                print(f"  does not link {lib}")
                bad += 1
            elif f"/{lib}" not in maps:
                print(f"  {lib} is not mapped into this process")
                bad += 1
    if "rulec.runtime._kernel" in module_names():
        from rulec.runtime import NATIVE

        print(f"rulec.runtime.NATIVE = {NATIVE}")
        bad += not NATIVE
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="output folder (modules land in OUT/lib)")
    ap.add_argument("--cflags", default="", help="extra compiler flags (RULEC_CFLAGS)")
    ap.add_argument("--ldflags", default="", help="extra linker flags (RULEC_LDFLAGS)")
    ap.add_argument("--check", action="store_true",
                    help="import the modules and verify they come from OUT/lib")
    ap.add_argument("--needs", action="append", default=[],
                    help="with --check: a library (e.g. libasan) the modules must link")
    args = ap.parse_args(argv)
    out = args.out.resolve()
    if args.check:
        return check(out, args.needs)
    for path in build(out, args.cflags, args.ldflags):
        print(f"built {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
