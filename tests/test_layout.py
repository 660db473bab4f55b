"""The shape of the source tree: modules of one concern (bounded size), no import circles,
layers that only look down (no library module imports the CLI), and no module reaching
into another package's private names. Read from the files with ``ast``; nothing is
imported."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("evaluator", "simulate")
#: Largest module, in lines: kernels may be denser than the public layer.
MAX_LINES, MAX_KERNEL_LINES = 600, 700
#: The command line: the only modules that may import it (the server, too, builds on the
#: library's documents, not on the commands).
APP_LAYERS = ("simulate.cli", "simulate.__main__")


def _modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


MODULES = _modules()


def _package_of(name: str) -> str:
    path = MODULES[name]
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _resolve(name: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = _package_of(name).split(".")
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(name: str, *, top_level: bool) -> list[tuple[str, str | None]]:
    """``(module, imported name or None)`` of each import in a module's file; with
    ``top_level`` only those that run at import time (not inside functions or
    ``if TYPE_CHECKING``)."""
    tree = ast.parse(MODULES[name].read_text())
    nodes: list[ast.AST] = []

    def walk(body: list[ast.stmt]) -> None:
        for st in body:
            if isinstance(st, (ast.Import, ast.ImportFrom)):
                nodes.append(st)
            elif isinstance(st, (ast.If, ast.Try)) and top_level:
                if isinstance(st, ast.If) and "TYPE_CHECKING" in ast.unparse(st.test):
                    continue
                for part in (st.body, getattr(st, "orelse", []), getattr(st, "finalbody", [])):
                    walk(part)
                for h in getattr(st, "handlers", []):
                    walk(h.body)

    if top_level:
        walk(tree.body)
    else:
        nodes = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    out: list[tuple[str, str | None]] = []
    for n in nodes:
        if isinstance(n, ast.Import):
            out += [(a.name, None) for a in n.names]
        else:
            mod = _resolve(name, n)
            out += [(mod, a.name) for a in n.names]
    return out


def _edges(name: str) -> set[str]:
    """Project modules a module imports, at import time or later (inside a function)."""
    out = set()
    for mod, what in _imports(name, top_level=False):
        target = f"{mod}.{what}" if what and f"{mod}.{what}" in MODULES else mod
        if target in MODULES and target != name:
            out.add(target)
    return out


def _circles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    graph = {m: _edges(m) for m in MODULES}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_circles():
    """Not even through a deferred import: a circle means two modules of one concern."""
    assert _circles() == []


def test_modules_stay_small():
    big = []
    for name, path in MODULES.items():
        limit = MAX_KERNEL_LINES if "._kernels." in f".{name}." else MAX_LINES
        n = len(path.read_text().splitlines())
        if n > limit:
            big.append(f"{name}: {n} lines (at most {limit})")
    assert big == []


def test_no_library_module_imports_the_cli():
    bad = [f"{m} imports {mod}" for m in MODULES if not m.startswith(APP_LAYERS)
           for mod, _ in _imports(m, top_level=False) if mod.startswith("simulate.cli")]
    assert bad == []


def test_no_module_imports_a_private_name_of_another_package():
    bad = []
    for m in MODULES:
        for mod, what in _imports(m, top_level=False):
            if not what or not what.startswith("_") or what.startswith("__"):
                continue
            if mod in MODULES and _package_of(mod) != _package_of(m):
                bad.append(f"{m}: from {mod} import {what}")
    assert bad == []


#: The private modules of the evaluator that ``simulate`` builds on by design: the one place
#: Numba's options come from, the tables' loader, and the evaluation kernels that the
#: simulation kernels compile in (kernels call kernels; tables are their arguments).
SHARED_INTERNALS = ("evaluator._jit", "evaluator._tables", "evaluator._kernels")


def test_private_modules_of_another_top_package_are_only_the_shared_internals():
    bad = []
    for m in MODULES:
        top = m.split(".")[0]
        for mod, what in _imports(m, top_level=False):
            target = f"{mod}.{what}" if what and f"{mod}.{what}" in MODULES else mod
            if target.split(".")[0] not in PACKAGES or target.split(".")[0] == top:
                continue
            if any(p.startswith("_") for p in target.split(".")[1:]) and not (
                    target.startswith(SHARED_INTERNALS)):
                bad.append(f"{m} imports {target}")
    assert bad == []


def test_reference_uses_public_names_only():
    tree = ast.parse((ROOT / "tests" / "reference.py").read_text())
    bad = []
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom) and n.module and n.module != "__future__":
            if any(p.startswith("_") for p in n.module.split(".")):
                bad.append(n.module)
            bad += [f"{n.module}.{a.name}" for a in n.names if a.name.startswith("_")]
    assert bad == []


@pytest.mark.parametrize(
    "name", ["simulate.equity", "simulate.engine", "simulate.replay.fast_replay"])
def test_the_checks_see_imports(name):
    assert _edges(name), f"no imports found in {name}: the parser is broken"


def test_importing_the_packages_and_the_command_line_loads_neither_numpy_nor_numba() -> None:
    """``import simulate`` / ``evaluator`` / ``simulate.cli`` and ``pokerjit -h`` stay light
    (the names load on first use), and ``simulate.equity`` stays the function once its
    module is imported."""
    import subprocess
    import sys

    code = ("import sys, contextlib, io; import evaluator, simulate, simulate.cli; "
            "from simulate.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    main(['equity', '-h'])\n"
            "assert 'numpy' not in sys.modules and 'numba' not in sys.modules, 'loaded'\n"
            "import simulate.equity, simulate.range_equity, simulate.engine.self_play\n"
            "import importlib, pkgutil, types\n"
            "for m in pkgutil.iter_modules(simulate.__path__):\n"
            "    if m.name in simulate.__all__:\n"
            "        importlib.import_module('simulate.' + m.name)\n"
            "        assert not isinstance(getattr(simulate, m.name), types.ModuleType), m\n"
            "from simulate import equity, range_equity\n"
            "assert callable(equity) and equity is simulate.equity, simulate.equity\n"
            "assert range_equity is simulate.range_equity and callable(range_equity)\n"
            "assert equity(['AhAd', 'KhKd'], board='2c3c4c5s6s').players[0].equity == 0.5\n")
    root = Path(__file__).resolve().parent.parent
    p = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
