"""Show that the sanitizer build would catch a bug: deliberate ones must be reported.

``make test-sanitize`` runs this before the test suite, in the suite's environment
(ASan and UBSan runtimes preloaded, the same ASAN_OPTIONS/UBSAN_OPTIONS).  It compiles
csrc/sanitizer_canary.c with the flags of the sanitized modules, once as a program and
once as a shared library, and requires that

- the heap overflow and the signed overflow each stop the program with their report,
  and the bug-free run exits 0 without one;
- the same bugs, called through ctypes from the stock interpreter with the runtimes
  preloaded (as the cffi modules are called during the suite), also abort with a report.

Exit status 0 when every case behaved as expected.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "sanitizer_canary.c"

# mode -> text the report must contain (None: must run clean)
CASES: dict[str, str | None] = {
    "heap": "AddressSanitizer: heap-buffer-overflow",
    "overflow": "runtime error: signed integer overflow",
    "clean": None,
}
REPORT_MARKS = ("ERROR: AddressSanitizer", "runtime error:")


def compile_canary(cc: str, cflags: list[str], out: Path) -> tuple[Path, Path]:
    """The canary as a program and as a shared library, both with the given flags."""
    out.mkdir(parents=True, exist_ok=True)
    exe, lib = out / "sanitizer_canary", out / "sanitizer_canary.so"
    common = [cc, "-std=c99", "-Wall", "-Wextra", "-Werror", *cflags]
    subprocess.run([*common, str(SOURCE), "-o", str(exe)], check=True)
    subprocess.run([*common, "-fPIC", "-shared", "-DCANARY_SHARED", str(SOURCE), "-o",
                    str(lib)], check=True)
    return exe, lib


def judge(what: str, mode: str, done: subprocess.CompletedProcess[str]) -> bool:
    """Print one line for the case; True when it behaved as CASES says."""
    expected = CASES[mode]
    text = done.stdout + done.stderr
    reported = any(mark in text for mark in REPORT_MARKS)
    if expected is None:
        ok = done.returncode == 0 and not reported
        verdict = "clean, exit 0" if ok else f"exit {done.returncode}, report: {reported}"
    else:
        ok = done.returncode != 0 and expected in text
        verdict = (f"reported ({expected}), exit {done.returncode}" if ok
                   else f"NOT reported (exit {done.returncode})")
    print(f"{'ok  ' if ok else 'FAIL'} {what:<12} {mode:<9} {verdict}")
    if not ok:
        print(text[-2000:])
    return ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="folder for the canary binaries")
    ap.add_argument("--cflags", required=True, help="the sanitizer flags of the build")
    ap.add_argument("--cc", default=os.environ.get("CC", "gcc"))
    args = ap.parse_args(argv)
    exe, lib = compile_canary(args.cc, shlex.split(args.cflags), args.out)
    good = True
    for mode in CASES:
        done = subprocess.run([str(exe), mode], capture_output=True, text=True, timeout=60)
        good &= judge("program", mode, done)
    for mode in CASES:
        code = (f"import ctypes, sys; lib = ctypes.CDLL({str(lib)!r}); "
                f"sys.exit(lib.canary_run({mode.encode()!r}))")
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=60)
        good &= judge("interpreter", mode, done)
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
