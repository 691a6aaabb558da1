"""The architecture, held: no import circle between files, and imports only point down.

Every import of the product code is read with ``ast`` (type-only imports and imports
inside functions included), resolved to the file it names, and checked against the layer
table of docs/architecture.md.  The checks themselves are tested on small made-up trees,
so that a broken check cannot pass silently.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"compiler": "rulec.compiler", "runtime": "rulec.runtime",
            "firmware_bridge": "rulec.firmware_bridge"}

# Lowest first.  A module belongs to the longest prefix that names it; it may import its
# own unit (the same prefix) and any unit of a lower rank, nothing else.
LAYERS: tuple[tuple[int, str], ...] = (
    (0, "rulec.runtime.errors"),
    (0, "rulec.runtime.vocabulary"),
    (0, "rulec.runtime.backend"),
    (1, "rulec.runtime.bundle"),
    (1, "rulec.firmware_bridge"),  # the wire: protocol, cobs, crc, native_codec
    (1, "rulec.firmware_bridge.links"),
    (2, "rulec.firmware_bridge.readers"),
    (2, "rulec.runtime.logic"),
    (3, "rulec.runtime.engine"),
    (4, "rulec.runtime.daemon"),
    (4, "rulec.firmware_bridge.sim"),
    (4, "rulec.runtime.api"),  # the package front's Python API (Engine, load_bundle, replay)
    (5, "rulec.compiler.version"),
    (5, "rulec.compiler.terminal"),
    (5, "rulec.compiler.model"),
    (6, "rulec.compiler.read"),
    (7, "rulec.compiler.extract"),
    (8, "rulec.compiler.llm"),
    (9, "rulec.compiler.build"),
    (10, "rulec.compiler.pipeline"),
    (10, "rulec.compiler.ask"),  # questions in words, answered from a loaded bundle
    (11, "rulec.compiler.kb"),
    (11, "rulec.compiler.eval"),
    (11, "rulec.compiler.refine"),
    (11, "rulec.compiler.fleet"),  # replays recorded runs on the runtime, ground side
    (12, "rulec.compiler.review"),  # the review page over the compile and its checks
    (13, "rulec.compiler.commands"),
    (14, "rulec.compiler.cli"),
    (14, "rulec.compiler.api"),  # the package front and compile_manuals
    (15, "rulec.compiler.__main__"),
)
# Modules that belong to another unit: package fronts and the re-exports of import paths
# that earlier documentation named.
ALIASES = {
    "rulec.runtime": "rulec.runtime.api",
    "rulec.compiler": "rulec.compiler.api",
    "rulec.runtime.bundle_format": "rulec.runtime.bundle",
    "rulec.runtime.signing": "rulec.runtime.bundle",
    "rulec.compiler.rules": "rulec.compiler.model",
    "rulec.compiler.knowledge_base": "rulec.compiler.kb",
}
FORBIDDEN_ROOTS = ("bench", "fuzz", "tests")


def product_modules(root: Path = ROOT) -> dict[str, Path]:
    """Every product module by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for folder, dotted in PACKAGES.items():
        for path in sorted((root / folder).rglob("*.py")):
            parts = path.relative_to(root / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((dotted, *parts))] = path
    return found


def imports_of(name: str, path: Path, known: Iterable[str]) -> set[str]:
    """The modules a file imports, resolved to known module names or left as written."""
    modules = set(known)
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".")
                anchor = anchor[:len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.add(sub if sub in modules else base)
    return out


def layer_of(module: str, layers: Iterable[tuple[int, str]] = LAYERS) -> tuple[int, str] | None:
    """(rank, unit) of a module: the longest prefix of the table that names it."""
    module = ALIASES.get(module, module)
    best: tuple[int, str] | None = None
    for rank, prefix in layers:
        if (module == prefix or module.startswith(prefix + ".")) and (
                best is None or len(prefix) > len(best[1])):
            best = (rank, prefix)
    return best


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one file (or a file importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:  # iterative Tarjan: no recursion limit to meet
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in graph.get(node, ()):
                        found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    modules = product_modules(root)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def layer_violations(graph: Mapping[str, set[str]],
                     layers: Iterable[tuple[int, str]] = LAYERS) -> list[str]:
    layers = tuple(layers)
    found = []
    for module, targets in sorted(graph.items()):
        own = layer_of(module, layers)
        if own is None:
            found.append(f"{module}: in no layer")
            continue
        for target in sorted(targets):
            if target.split(".")[0] in FORBIDDEN_ROOTS:
                found.append(f"{module} imports {target}, which is not product code")
                continue
            if not target.startswith("rulec."):
                continue
            theirs = layer_of(target, layers)
            if theirs is None:
                found.append(f"{module} imports {target}, which is in no layer")
            elif theirs[1] != own[1] and theirs[0] >= own[0]:
                found.append(f"{module} (layer {own[0]}, {own[1]}) imports {target} "
                             f"(layer {theirs[0]}, {theirs[1]})")
    return found


# ------------------------------------------------------------------ the real tree

@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph()


def test_every_product_module_is_read(graph: dict[str, set[str]]) -> None:
    assert "rulec.runtime.engine.engine" in graph and "rulec.compiler.pipeline" in graph
    assert "rulec.runtime.bundle.loader" in graph["rulec.runtime.engine.engine"]


def test_no_import_circle_between_files(graph: dict[str, set[str]]) -> None:
    assert circles(graph) == []


def test_imports_point_down_the_layers(graph: dict[str, set[str]]) -> None:
    assert layer_violations(graph) == []


def test_the_runtime_never_imports_the_compiler(graph: dict[str, set[str]]) -> None:
    onboard = [m for m in graph if m.startswith(("rulec.runtime", "rulec.firmware_bridge"))]
    assert onboard
    assert not [(m, t) for m in onboard for t in graph[m] if t.startswith("rulec.compiler")]


def test_no_folder_holds_more_than_ten_modules() -> None:
    for folder in PACKAGES:
        for directory in [ROOT / folder, *(p.parent for p in (ROOT / folder).rglob("__init__.py"))]:
            modules = [p for p in directory.glob("*.py") if p.name not in ("__init__.py",
                                                                           "__main__.py")]
            assert len(modules) <= 10, f"{directory} holds {len(modules)} modules"


def test_every_package_says_what_it_holds() -> None:
    for folder in PACKAGES:
        for init in (ROOT / folder).rglob("__init__.py"):
            doc = ast.get_docstring(ast.parse(init.read_text("utf-8")))
            assert doc and len(doc.split()) >= 8, f"{init} has no docstring worth the name"


@pytest.mark.parametrize("script", [
    "bench/bench_e2e.py", "bench/bench_kernel.py", "bench/bench_logic.py",
    "bench/fault_matrix.py", "bench/kernel_report.py", "bench/kill_compile.py",
    "bench/overload.py", "bench/eval/agb_rl_experiment.py", "bench/eval/regenerate.py",
    "bench/eval/regenerate_questions.py",
])
def test_every_benchmark_still_finds_what_it_imports(script: str) -> None:
    """The benchmarks import the product (and some the tests' matrix builders) by path;
    a move that breaks one shows here, not at the next benchmark run."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(ROOT / script), "--help"], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]


# ------------------------------------------------------------------ the checks, checked

def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    for folder in PACKAGES:
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / "__init__.py").touch()
    return tmp_path


def test_a_type_only_circle_is_found(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "runtime/engine/__init__.py": "",
        "runtime/engine/a.py": "from rulec.runtime.engine.b import B\n",
        "runtime/engine/b.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                "    from rulec.runtime.engine.a import A\n"),
        "runtime/engine/c.py": "from rulec.runtime.engine import a\n",
    })
    assert circles(import_graph(root)) == [["rulec.runtime.engine.a", "rulec.runtime.engine.b"]]


def test_a_circle_through_a_function_body_and_relative_imports_is_found(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "runtime/logic/__init__.py": "",
        "runtime/logic/a.py": "def f():\n    from . import b\n",
        "runtime/logic/b.py": "from .c import x\n",
        "runtime/logic/c.py": "from .a import f\n",
    })
    assert circles(import_graph(root)) == [
        ["rulec.runtime.logic.a", "rulec.runtime.logic.b", "rulec.runtime.logic.c"]]


def test_an_upward_import_is_refused(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "runtime/engine/__init__.py": "",
        "runtime/engine/a.py": "",
        "runtime/bundle/__init__.py": "",
        "runtime/bundle/loader.py": "from rulec.runtime.engine.a import A\n",
        "runtime/daemon/__init__.py": "",
        "runtime/daemon/x.py": "import rulec.compiler.cli\nimport bench.bench_kernel\n",
    })
    found = layer_violations(import_graph(root))
    assert any("rulec.runtime.bundle.loader (layer 1" in f and "runtime.engine.a" in f
               for f in found)
    assert any("rulec.runtime.daemon.x" in f and "rulec.compiler.cli" in f for f in found)
    assert any("bench.bench_kernel, which is not product code" in f for f in found)


def test_a_sideways_import_between_units_of_one_rank_is_refused(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "runtime/daemon/__init__.py": "",
        "runtime/daemon/x.py": "from rulec.firmware_bridge.sim.player import Simulator\n",
        "firmware_bridge/sim/__init__.py": "",
        "firmware_bridge/sim/player.py": "",
    })
    assert layer_violations(import_graph(root)) == [
        "rulec.runtime.daemon.x (layer 4, rulec.runtime.daemon) imports "
        "rulec.firmware_bridge.sim.player (layer 4, rulec.firmware_bridge.sim)"]
