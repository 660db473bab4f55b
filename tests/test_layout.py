"""The shape of the source tree: modules of one concern (bounded size), no import circles
(between modules, nor between folders), layers that only look down (the order is
:data:`LAYERS`; no library module imports the CLI), and no module reaching into another
module's private names. Read from the files with ``ast``; nothing is imported."""

from __future__ import annotations

import ast
import functools
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


@functools.cache
def _tree(name: str) -> ast.Module:
    """A module's parsed file, read once for all the checks of a run (do not change it)."""
    return ast.parse(MODULES[name].read_text())


@functools.cache
def _imports(name: str, *, top_level: bool) -> tuple[tuple[str, str | None], ...]:
    """``(module, imported name or None)`` of each import in a module's file; with
    ``top_level`` only those that run at import time (not inside functions or
    ``if TYPE_CHECKING``)."""
    tree = _tree(name)
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
    return tuple(out)


def _edges(name: str) -> set[str]:
    """Project modules a module imports, at import time or later (inside a function)."""
    out = set()
    for mod, what in _imports(name, top_level=False):
        target = f"{mod}.{what}" if what and f"{mod}.{what}" in MODULES else mod
        if target in MODULES and target != name:
            out.add(target)
    return out


def _circles(graph: dict[str, set[str]] | None = None) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan); by default of the
    module graph."""
    if graph is None:
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
        for w in sorted(graph.get(v, ())):
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


#: The layer order, bottom first: a module imports only from its own layer or one below
#: (at import time or inside a function alike). Each entry names a module and the modules
#: under it; a module belongs to the layer of its longest entry. The roots of
#: :data:`PACKAGES` (the lazy facades ``evaluator`` and ``simulate``) name only their own
#: ``__init__``.
LAYERS: list[tuple[str, ...]] = [
    # The evaluator: Numba's options, the lazy loader, card text, the table generator; how a
    # first run compiles less; its kernels; the tables' loader and the public evaluators;
    # its facade.
    ("evaluator._jit", "evaluator.lazy", "evaluator.cards", "evaluator.tablegen"),
    ("evaluator._first_run",),
    ("evaluator._kernels",),
    ("evaluator._tables", "evaluator.hands", "evaluator.omaha", "evaluator.low",
     "evaluator.lowball"),
    ("evaluator",),
    # The constants the simulation kernels compile in (the games table, the share unit).
    ("simulate.games", "simulate.results"),
    ("simulate._kernels",),
    # Foundations: pots, progress, text tables, the worker pool (it takes its warm-up and
    # chunk function as arguments, so it imports none of the library), text encodings.
    ("simulate.pots", "simulate.progress", "simulate.texttable", "simulate.run",
     "simulate.text_encoding"),
    # The inputs: ranges, a request, a sampling plan.
    ("simulate.ranges", "simulate.request", "simulate.sampling"),
    # The equity engines, all-in EV, tournament and preflop tables.
    ("simulate.holdem", "simulate.omaha", "simulate.pineapple", "simulate.many",
     "simulate.symmetry", "simulate.range_report", "simulate.range_equity",
     "simulate.equity", "simulate.allin_engines", "simulate.icm", "simulate.allin_icm",
     "simulate.allin", "simulate.preflop_table", "simulate.preflop_order",
     "simulate.chart", "simulate.pushfold", "simulate.pushfold_icm"),
    # The hand-history wing, along the data path.
    ("simulate.notation",),
    ("simulate.engine",),
    # The public facade: it names (lazily) everything up to the engine.
    ("simulate",),
    ("simulate.replay",),
    # The hand database (DuckDB): it stores what the replay reads.
    ("simulate.store",),
    ("simulate.batch",),
    ("simulate.warmup",),
    ("simulate.documents",),
    ("simulate.serve",),
    # The benchmark harness (only ``pokerjit bench`` uses it).
    ("simulate.bench",),
    ("simulate.cli", "simulate.__main__"),
]


def _layer_of(name: str) -> int | None:
    """Index in :data:`LAYERS` of a module's longest entry, or None if none names it."""
    best: tuple[int, int] | None = None
    for i, layer in enumerate(LAYERS):
        for entry in layer:
            if name == entry or (entry not in PACKAGES and name.startswith(entry + ".")):
                if best is None or len(entry) > best[0]:
                    best = (len(entry), i)
    return None if best is None else best[1]


def _layer_text(i: int | None) -> str:
    return "no layer" if i is None else f"layer {i} {'/'.join(LAYERS[i])}"


def test_every_module_has_exactly_one_layer():
    """Each entry is listed once and names a module (no stale entry); each module has a
    layer (a new module is placed on purpose, not by default)."""
    entries = [e for layer in LAYERS for e in layer]
    assert sorted(e for e in set(entries) if entries.count(e) > 1) == []
    assert [e for e in entries if e not in MODULES] == []
    assert [m for m in MODULES if _layer_of(m) is None] == []


def test_imports_point_down_the_layers():
    """Not even through a deferred import (inside a function): the same layer or below."""
    bad = []
    for m in sorted(MODULES):
        mine = _layer_of(m)
        for target in sorted(_edges(m)):
            theirs = _layer_of(target)
            if mine is None or theirs is None or theirs > mine:
                bad.append(f"{m} ({_layer_text(mine)}) imports {target} "
                           f"({_layer_text(theirs)})")
    assert bad == [], "\n".join(bad)


def _room(name: str) -> str:
    """A module's folder: each sub-package (``simulate.replay``, ``evaluator._kernels``)
    is one room; a top-level module (``simulate.equity``) is a room of its own."""
    parts = name.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 or (
        len(parts) == 2 and MODULES[name].name == "__init__.py") else name


def test_no_import_circles_between_folders():
    """Each sub-package taken as one room: its modules together import no room that
    imports them back (a loop of folders is one concern cut across them)."""
    graph: dict[str, set[str]] = {}
    for m in MODULES:
        graph.setdefault(_room(m), set()).update(
            _room(t) for t in _edges(m) if _room(t) != _room(m))
    loops = _circles(graph)
    assert loops == [], "\n".join(" <-> ".join(c) for c in loops)


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


def _private_uses(name: str) -> list[str]:
    """Private names (``_x``, not dunders) a module takes from another project module:
    ``from m import _x`` and ``alias._x`` where ``alias`` is an imported project module
    (the same reach by another spelling). A private *module* is a module, not a name:
    ``from simulate._kernels import holdem_exact`` or ``from evaluator import _jit``
    imports a module, whose public names may be used."""
    tree = _tree(name)
    bound: dict[str, str] = {}  # local name -> project module it binds
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            for a in n.names:
                if a.asname and a.name in MODULES:
                    bound[a.asname] = a.name
                elif not a.asname and a.name.split(".")[0] in PACKAGES:
                    bound[a.name.split(".")[0]] = a.name.split(".")[0]
        elif isinstance(n, ast.ImportFrom):
            mod = _resolve(name, n)
            for a in n.names:
                if f"{mod}.{a.name}" in MODULES:
                    bound[a.asname or a.name] = f"{mod}.{a.name}"
                elif (mod in MODULES and mod != name and a.name.startswith("_")
                        and not a.name.startswith("__")):
                    out.append(f"{name}: from {mod} import {a.name}")
    for n in ast.walk(tree):
        if not isinstance(n, ast.Attribute) or not n.attr.startswith("_") or (
                n.attr.startswith("__")):
            continue
        base = ast.unparse(n.value)
        head, _, rest = base.partition(".")
        mod = bound[head] + (f".{rest}" if rest else "") if head in bound else None
        if mod in MODULES and mod != name and f"{mod}.{n.attr}" not in MODULES:
            out.append(f"{name}: {base}.{n.attr} (line {n.lineno}) of {mod}")
    return out


def test_no_module_imports_a_private_name_of_another_module():
    """A private name (``_x``, not a dunder) stays in its module: no other module imports
    it, a sibling in the same package as little as a module of another package, nor reads
    it as an attribute of the imported module. What may cross is public: make the name
    public (documented, no underscore) or move the code to where it is used.

    Private *modules* are a different thing: ``simulate._kernels.x``, ``evaluator._jit``,
    ``evaluator._tables``, ``evaluator._kernels.x`` may be imported as modules (within
    the limits of the next test) and their public names used. ``from m import y as _y``
    of a public ``y`` is fine: the name taken is public, the alias is the importer's own.
    """
    bad = [use for m in MODULES for use in _private_uses(m)]
    assert bad == [], "\n".join(bad)


#: The private modules of the evaluator that ``simulate`` builds on by design: the one place
#: Numba's options come from, how a first run compiles less, the tables' loader, and the
#: evaluation kernels that the simulation kernels compile in (kernels call kernels; tables
#: are their arguments).
SHARED_INTERNALS = ("evaluator._jit", "evaluator._first_run", "evaluator._tables",
                    "evaluator._kernels")


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
