"""Atomic bundle writes, proved by SIGKILL: a writer killed anywhere leaves the old bundle
or the complete new one at the path, never a partial file.

A child process runs the real ``write_bundle_file`` with its test hook
(``bundle_format._write_progress``) set to report each step on stdout: after every
chunk of the temporary file ("write N"), after the fsync ("fsync N"), after the rename
("replace N").  In step mode the child then waits on stdin, so the parent kills it at
an exact, known point, with no timing involved.  In paced mode it sleeps a little after
each chunk instead (the write window widened to tens of milliseconds, honestly: the
bytes and system calls are the real ones) and the parent kills it after a random delay;
this is the short version of ``bench/kill_compile.py``, which kills 1,000 real
``rulec compile`` runs without any hook.  A control child that writes in place shows
that the check does catch a non-atomic writer.
"""

from __future__ import annotations

import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.runtime.bundle.format import encode_bundle, write_bundle_file
from rulec.runtime.bundle.loader import load_bundle
from rulec.runtime.errors import BundleError

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

REPO = Path(__file__).resolve().parents[3]
MANUALS = REPO / "examples" / "manuals"
CHUNK = 2048

CHILD = r"""
import os, sys, time
import rulec.runtime.bundle.format as bf
target, source, mode = sys.argv[1], sys.argv[2], sys.argv[3]
data = open(source, "rb").read()

def report(step, n):
    print(step, n, flush=True)
    if mode == "paced":
        time.sleep(0.002)
    else:
        sys.stdin.readline()  # the parent kills us here, or says go on

def naive_write(path, data):  # the control: in place, no temporary file
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
    for start in range(0, len(data), bf._WRITE_CHUNK_BYTES):
        os.write(fd, data[start:start + bf._WRITE_CHUNK_BYTES])
        report("write", min(len(data), start + bf._WRITE_CHUNK_BYTES))
    os.close(fd)

bf._WRITE_CHUNK_BYTES = int(sys.argv[4])
bf._write_progress = report
print("ready", flush=True)
sys.stdin.readline()
if mode == "naive":
    naive_write(target, data)
else:
    bf.write_bundle_file(target, data)
print("done", flush=True)
"""


def compile_domain(name: str) -> bytes:
    folder = MANUALS / name
    return encode_bundle(build_payload(collect_rules([folder]), folder.name))


@pytest.fixture(scope="module")
def old_new(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes, Path]:
    """The bundle at the path (traffic), the bundle being written (rocket_engine)."""
    folder = tmp_path_factory.mktemp("atomic")
    new = compile_domain("rocket_engine")
    (folder / "new.bin").write_bytes(new)
    return compile_domain("traffic"), new, folder / "new.bin"


def leftovers(folder: Path, name: str) -> list[Path]:
    """Temporary files a killed writer left (``.NAME.XXXXXXXX.tmp``)."""
    pattern = re.compile(rf"^\.{re.escape(name)}\.[^.]+\.tmp$")
    return [p for p in folder.iterdir() if pattern.match(p.name)]


def spawn_child(target: Path, source: Path, mode: str) -> subprocess.Popen[str]:
    """A child that imports, says "ready" and waits for a line before writing."""
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, str(target), str(source), mode, str(CHUNK)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def start_child(target: Path, source: Path, mode: str) -> subprocess.Popen[str]:
    return ready(spawn_child(target, source, mode))


def ready(proc: subprocess.Popen[str]) -> subprocess.Popen[str]:
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    return proc


def go_on(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    proc.stdin.write("\n")
    proc.stdin.flush()


def kill_after(target: Path, source: Path, mode: str, steps: int) -> tuple[str, bytes]:
    """Let the child report ``steps`` steps, kill it at the last one; (step, file bytes)."""
    proc = start_child(target, source, mode)
    assert proc.stdout is not None
    go_on(proc)
    line = "ready"
    for i in range(steps):
        line = proc.stdout.readline().strip()
        if i < steps - 1:
            go_on(proc)
    proc.send_signal(signal.SIGKILL)
    assert proc.wait(10) == -signal.SIGKILL
    return line, target.read_bytes()


def test_a_kill_at_every_step_leaves_the_old_or_the_whole_new_bundle(
    tmp_path: Path, old_new: tuple[bytes, bytes, Path]
) -> None:
    old, new, source = old_new
    target = tmp_path / "out.bundle"
    n_chunks = -(-len(new) // CHUNK)
    expected = [f"write {min(len(new), (i + 1) * CHUNK)}" for i in range(n_chunks)]
    expected += [f"fsync {len(new)}", f"replace {len(new)}"]
    for steps in range(1, len(expected) + 1):
        write_bundle_file(target, old)
        step, found = kill_after(target, source, "step", steps)
        assert step == expected[steps - 1]
        if step.startswith("replace"):
            assert found == new  # renamed: the complete new bundle, nothing left over
            assert not leftovers(tmp_path, target.name)
        else:
            assert found == old, f"killed after {step!r}: the old bundle must be intact"
            left = leftovers(tmp_path, target.name)
            assert len(left) == 1 and new.startswith(left[0].read_bytes())
            left[0].unlink()
        load_bundle(target)


def test_the_check_catches_a_writer_that_is_not_atomic(
    tmp_path: Path, old_new: tuple[bytes, bytes, Path]
) -> None:
    old, new, source = old_new
    target = tmp_path / "out.bundle"
    write_bundle_file(target, old)
    step, found = kill_after(target, source, "naive", 2)
    assert step == f"write {2 * CHUNK}" and found == new[: 2 * CHUNK]
    with pytest.raises(BundleError, match="truncated"):
        load_bundle(target)


def test_random_kills_while_writing(tmp_path: Path, old_new: tuple[bytes, bytes, Path]) -> None:
    """~20 kills at random delays over a paced write (2 ms per 2 KiB chunk)."""
    old, new, source = old_new
    target = tmp_path / "out.bundle"
    rng = random.Random(20250101)
    seen: dict[str, int] = {}
    upcoming = spawn_child(target, source, "paced")
    for run in range(20):
        write_bundle_file(target, old)
        for left in leftovers(tmp_path, target.name):
            left.unlink()
        proc = ready(upcoming)
        if run < 19:  # the next child imports while this one is killed
            upcoming = spawn_child(target, source, "paced")
        go_on(proc)
        time.sleep(rng.uniform(0.0, 0.03))
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        assert proc.stdout is not None
        lines = proc.stdout.read().split()
        last = lines[-2] if len(lines) >= 2 else "before"  # "write", "fsync", "replace"
        last = "done" if lines[-1:] == ["done"] else last
        found = target.read_bytes()
        assert found in (old, new), f"partial bundle after a kill at {last!r}"
        if last in ("replace", "done"):
            assert found == new
        elif last in ("before", "write"):  # the rename comes after the "fsync" report
            assert found == old
        load_bundle(target)
        seen[last] = seen.get(last, 0) + 1
    print("kills by last step reached:", dict(sorted(seen.items())))


def test_rulec_compile_killed_inside_its_write_keeps_the_old_bundle(
    tmp_path: Path, old_new: tuple[bytes, bytes, Path]
) -> None:
    """The real compile path: ``rulec compile`` with the hook, killed after one chunk."""
    old, new, _ = old_new
    target = tmp_path / "out.bundle"
    write_bundle_file(target, old)
    code = (
        "import sys; import rulec.runtime.bundle.format as bf; bf._WRITE_CHUNK_BYTES = 2048\n"
        "def hook(step, n):\n"
        "    print(step, n, flush=True); sys.stdin.readline()\n"
        "bf._write_progress = hook\n"
        "from rulec.compiler.cli import main; sys.exit(main(sys.argv[1:]))\n"
    )
    command = [sys.executable, "-c", code, "compile", str(MANUALS / "rocket_engine")]
    proc = subprocess.Popen(
        [*command, "-o", str(target), "-q"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == f"write {CHUNK}\n"
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    assert target.read_bytes() == old
    (left,) = leftovers(tmp_path, target.name)
    assert left.read_bytes() == new[:CHUNK]
