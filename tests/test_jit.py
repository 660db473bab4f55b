"""evaluator/_jit.py is the one place that calls Numba's compilers.

Every kernel is compiled through ``serial``, ``parallel`` or ``inline`` so that the cache
switch (``POKERJIT_CACHE``) and the compile options stay in one place. The scan below fails
on any other direct use of ``numba.njit`` / ``numba.jit`` / ``nb.njit`` / ``from numba import
njit`` in the repository's Python files (tests and benchmarks included).
"""

from __future__ import annotations

import ast
from pathlib import Path

import numba
import numpy as np
import pytest

from evaluator import _jit

ROOT = Path(__file__).resolve().parents[1]
ALLOWED = {Path("evaluator/_jit.py")}
SKIP_DIRS = {".git", ".venv", "venv", "build", "dist", "__pycache__", ".ci"}


def _python_files() -> list[Path]:
    out = []
    for p in ROOT.rglob("*.py"):
        rel = p.relative_to(ROOT)
        if SKIP_DIRS & set(rel.parts[:-1]) or any(part.endswith(".egg-info")
                                                   for part in rel.parts):
            continue
        out.append(rel)
    return sorted(out)


JIT_NAMES = {"njit", "jit", "generated_jit", "vectorize", "guvectorize", "cfunc", "stencil"}


def bare_jit_uses(source: str) -> list[tuple[int, str]]:
    """``(line number, code)`` of every direct use of a Numba compiler in ``source``.

    Parsed, not grepped: ``numba.njit``/``nb.jit``... on any alias of ``import numba`` (also
    ``numba.core...``), and ``from numba import njit`` (then ``@njit``); words in strings and
    comments do not count. A source that never names ``numba`` imports none of them (and
    is not parsed).
    """
    if "numba" not in source:
        return []
    tree = ast.parse(source)
    aliases = {"numba"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases |= {a.asname or a.name for a in node.names if a.name == "numba"}
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "numba":
            if any(a.name in JIT_NAMES for a in node.names):
                hits.append(node)
        elif isinstance(node, ast.Attribute) and node.attr in JIT_NAMES:
            root = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in aliases:
                hits.append(node)
    return sorted((n.lineno, ast.unparse(n)) for n in hits)


@pytest.mark.parametrize("code", ["fit = numba.njit(cache=False)(_first_fit)",
                                  "import numba as nb\n@nb.njit\ndef f(): pass",
                                  "import numba as nb\n@nb.njit(parallel=True)\ndef f(): pass",
                                  "@numba.jit(nopython=True)\ndef f(): pass",
                                  "from numba import njit, prange",
                                  "from numba.core.decorators import jit",
                                  "import numba as q\ng = q . njit(f)"])
def test_the_scan_finds_bare_decorators(code):
    assert bare_jit_uses(code)


@pytest.mark.parametrize("code", ["@serial\ndef f(): pass", "@parallel(cache=False)\ndef f(): pass",
                                  "from numba import prange", "import numba", "nb.prange(n)",
                                  "# numba.njit( in a comment", "s = 'nb.njit(f)'",
                                  "from evaluator._jit import inline, serial",
                                  "x.njit(f)"])
def test_the_scan_ignores_the_sanctioned_forms(code):
    assert not bare_jit_uses(code)


def test_no_bare_njit_outside_evaluator_jit():
    files = _python_files()
    assert Path("evaluator/_kernels/holdem.py") in files  # the walk sees the kernels
    assert len(files) > 30
    bad = [f"{rel}:{no}: {line}" for rel in files if rel not in ALLOWED
           for no, line in bare_jit_uses((ROOT / rel).read_text(encoding="utf-8"))]
    assert not bad, "compile through evaluator._jit (serial/parallel/inline):\n" + "\n".join(bad)
    assert bare_jit_uses((ROOT / "evaluator/_jit.py").read_text(encoding="utf-8"))


def conditional_pranges(source: str) -> list[tuple[int, str]]:
    """``(line number, code)`` of every ``prange(...)`` whose arguments hold a conditional
    expression (``a if c else b``): Numba cannot make such a loop parallel; it warns once
    at compile time (a cached kernel never again) and runs the loop on one thread."""
    if "prange" not in source:
        return []
    hits = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and (
                getattr(node.func, "attr", None) == "prange"
                or getattr(node.func, "id", None) == "prange"):
            if any(isinstance(sub, ast.IfExp) for a in node.args for sub in ast.walk(a)):
                hits.append((node.lineno, ast.unparse(node)))
    return hits


def test_no_prange_counts_its_tasks_with_a_conditional_expression():
    # exact_walk's `prange(1 if k == 1 else deck.shape[0])` ran Omaha's parallel exact walk
    # on one thread (2 threads: 25.2 ms against 25.3 on one) until the count became a variable
    assert conditional_pranges("for f in nb.prange(1 if k == 1 else n):\n    pass")
    assert not conditional_pranges("for f in nb.prange(n):\n    pass")
    bad = [f"{rel}:{no}: {code}" for rel in _python_files() if rel.parts[0] != "tests"
           for no, code in conditional_pranges((ROOT / rel).read_text(encoding="utf-8"))]
    assert not bad, "count a prange's tasks in a variable first:\n" + "\n".join(bad)


def test_a_conditional_prange_count_is_not_made_parallel():
    # the rule the scan above enforces, as Numba compiles it today
    import warnings

    from numba.core.errors import NumbaPerformanceWarning

    def conditional(x, k):
        for f in numba.prange(1 if k == 1 else x.shape[0]):
            x[f] += 1.0

    def counted(x, k):
        n = x.shape[0]
        if k == 1:
            n = 1
        for f in numba.prange(n):
            x[f] += 1.0

    for fn, parallel_loop in ((conditional, False), (counted, True)):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            x = np.zeros(4)
            _jit.parallel(fn, cache=False)(x, 2)
        assert x.tolist() == [1.0] * 4
        warned = any(issubclass(w.category, NumbaPerformanceWarning)
                     and "parallel=True" in str(w.message) for w in seen)
        assert warned is not parallel_loop, fn.__name__


def test_decorators_compile_and_keep_their_options():
    def add(a, b):
        return a + b

    for deco in (_jit.serial, _jit.inline):
        f = deco(cache=False)(add)
        assert f(2, 3) == 5
    f = _jit.serial(add, cache=False)
    assert f(2, 3) == 5 and f.targetoptions.get("parallel") is not True
    def total(x):
        s = 0.0
        for i in numba.prange(x.shape[0]):
            s += x[i]
        return s

    g = _jit.parallel(total, cache=False)
    assert g(np.arange(10.0)) == 45.0 and g.targetoptions.get("parallel") is True


def test_resolve_threads():
    top = _jit.max_threads()
    assert _jit.resolve_threads(None) == top
    assert _jit.resolve_threads(1) == 1
    assert _jit.resolve_threads(10**6) == top
    for bad in (0, -1, True, 1.5, "2"):
        with pytest.raises(ValueError, match="threads"):
            _jit.resolve_threads(bad)


_NESTED_INLINE = '''
import hashlib
import numpy as np
from evaluator import _jit
from evaluator._jit import inline, serial

@inline
def helper(a, k):
    s = 0
    for i in range(a.shape[0]):
        if a[i] > k:
            s += a[i]
        elif a[i] == k:
            s -= 1
    return s

@inline
def mid(a, k):
    return helper(a, k) + helper(a, k + 1)

@serial(cache=False)
def outer(a):
    t = 0
    for k in range(3):
        t += mid(a, k)
    return t

answer = outer(np.arange(10))
llvm = outer.inspect_llvm(outer.signatures[0])
print(answer, hashlib.sha256(llvm.encode()).hexdigest(), _jit._scopes_shared)
'''


@pytest.mark.slow  # compiles one kernel twice (LLVM IR compared)
def test_shared_scope_copies_compile_the_same_code():
    """``_share_inlined_scopes`` (Numba's inlining copies a callee's scope once per inlining,
    not once per block) changes compile time only: nested ``inline`` helpers give the same
    answer and the same LLVM IR with it on and off (``POKERJIT_SHARE_SCOPES=0``)."""
    import os
    import subprocess
    import sys

    out = {}
    for flag in ("0", "1"):
        env = dict(os.environ, POKERJIT_SHARE_SCOPES=flag)
        run = subprocess.run([sys.executable, "-c", _NESTED_INLINE], env=env, cwd=ROOT,
                             capture_output=True, text=True, timeout=300, check=True)
        out[flag] = run.stdout.split()
    assert out["0"][2] == "False" and out["1"][2] == "True"
    assert out["0"][:2] == out["1"][:2] and out["0"][0] == "250"


def test_shared_scope_copies_are_installed_with_the_first_kernel():
    from numba.core import inline_closurecall, ir

    _jit.serial(cache=False)(lambda x: x + 1)  # the first kernel of a process installs it
    assert _jit.SHARE_SCOPES and _jit._scopes_shared
    assert hasattr(inline_closurecall.InlineWorker.inline_ir, "__wrapped__")
    assert "__deepcopy__" in vars(ir.Scope)


def test_an_installed_copy_keeps_its_kernels_out_of_site_packages(tmp_path: Path) -> None:
    """A checkout caches beside its sources; a copy in site-packages does not (its
    ``__pycache__`` folders would outlive ``pip uninstall`` and hide a later editable
    install as namespace packages), so its kernels go to NUMBA_CACHE_DIR or the home."""
    import sysconfig

    site_root = str(Path(sysconfig.get_paths()["purelib"]) / "evaluator")
    assert _jit.installed_copy(site_root)
    assert not _jit.installed_copy(str(tmp_path / "evaluator"))
    assert not _jit.installed_copy(str(ROOT))  # the tests run on a checkout
    assert _jit.cache_locator_bases(False) == [
        "UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator"]
    assert _jit.cache_locator_bases(True) == ["UserProvidedCacheLocator",
                                              "UserWideCacheLocator"]
    from numba.core import caching

    for name in _jit.cache_locator_bases(False):
        assert issubclass(getattr(caching, name), caching._CacheLocator)


def test_ready_says_whether_a_call_would_compile():
    from evaluator._first_run import ready

    def twice(x):
        return 2 * x

    f = _jit.serial(twice, cache=False)
    assert not ready(f)  # neither compiled here nor cached
    assert f(3) == 6
    assert ready(f)
