"""Numba settings in one place: the decorators every kernel module uses, the cache
switch and thread resolution.

- :func:`serial` compiles a serial kernel, :func:`parallel` one that uses
  ``numba.prange``, :func:`inline` a small helper inlined into its callers. All
  three cache compiled code on disk unless ``POKERJIT_CACHE=0`` is set (the cache
  is what lets a fresh CLI process answer without compiling).
- :func:`resolve_threads` turns a user's ``threads`` argument into a thread count;
  :class:`threads` runs a ``with`` block on that many Numba threads.
- :func:`parallel_and_serial` compiles one loop both ways; :mod:`evaluator._first_run`
  holds the ways a first run compiles less (the serial twin for small work, a forked copy
  compiling beside this process).

Numba is imported only when a decorator or a thread helper is used, so importing the
packages and scalar evaluation stay free of Numba's start-up cost. ``tests`` fail on a
bare ``numba.njit(`` anywhere else.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any


def env_switch(name: str) -> bool:
    """An on/off environment switch, on unless set to 0, false, no or off."""
    return os.environ.get(name, "1").strip().lower() not in ("0", "false", "no", "off")


CACHE = env_switch("POKERJIT_CACHE")


def _njit(fn: Callable[..., Any] | None, opts: dict[str, Any]) -> Any:
    numba = _numba()
    opts.setdefault("cache", CACHE)
    opts.setdefault("no_cfunc_wrapper", True)  # no kernel is a C callback (less to compile)
    if opts["cache"]:
        _install_tree_stamp()

    def apply(f: Callable[..., Any]) -> Any:
        if opts["cache"]:
            _check_cache_dir()
            try:
                return numba.njit(**opts)(f)
            except RuntimeError as e:  # no writable cache folder anywhere (Numba's locators)
                if "cannot cache" not in str(e):
                    raise
                _warn_once(f"warning: cannot write Numba's cache for {_short(f)} (read-only "
                           "install and home?); compiling in memory, on every run. Set "
                           "NUMBA_CACHE_DIR to a writable folder to keep compiled kernels")
        return numba.njit(**dict(opts, cache=False))(f)

    return apply if fn is None else apply(fn)


# ----------------------------------------------------------------------------- the disk cache
_warned: list[str] = []


def _warn_once(line: str) -> None:
    """A warning line on stderr: the first one of the process only (so a command prints at
    most one, and keeps working)."""
    import sys

    if not _warned:
        print(line, file=sys.stderr)
    if line not in _warned:
        _warned.append(line)


def _short(f: Callable[..., Any]) -> str:
    return f"{f.__module__}.{f.__qualname__}"


_cache_dir_checked = False


def _check_cache_dir() -> None:
    """Warn once when ``NUMBA_CACHE_DIR`` names a folder that cannot be written (Numba then
    quietly falls back to its other places, or to no cache at all)."""
    global _cache_dir_checked
    if _cache_dir_checked:
        return
    _cache_dir_checked = True
    import tempfile

    import numba

    where = numba.config.CACHE_DIR
    if not where:
        return
    try:
        os.makedirs(where, exist_ok=True)
        tempfile.TemporaryFile(dir=where).close()
    except OSError as e:
        _warn_once(f"warning: NUMBA_CACHE_DIR={where} cannot be written "
                   f"({(e.strerror or str(e)).lower()}); compiled kernels are cached in "
                   "Numba's default place, if it can be written")


#: The files whose code or constants compiled kernels hold: a change to any of them makes
#: every cached kernel stale (see :func:`_install_tree_stamp`).
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_KERNEL_DIRS = (os.path.join(_ROOT, "evaluator", "_kernels"),
                os.path.join(_ROOT, "simulate", "_kernels"))
_KERNEL_FILES = (os.path.join(_ROOT, "evaluator", "_jit.py"),
                 os.path.join(_ROOT, "evaluator", "tablegen.py"))


def kernel_sources() -> list[str]:
    """The source files of every cached kernel and of what they compile in, sorted."""
    out = [f for f in _KERNEL_FILES if os.path.exists(f)]
    for d in _KERNEL_DIRS:
        if os.path.isdir(d):
            out += [os.path.join(d, f) for f in os.listdir(d) if f.endswith(".py")]
    return sorted(out)


_stamp: list[bytes] = []


def tree_stamp(paths: list[str] | None = None) -> bytes:
    """SHA-256 over the names and contents of ``paths`` (default :func:`kernel_sources`,
    computed once a process)."""
    import hashlib

    if paths is None and _stamp:
        return _stamp[0]
    h = hashlib.sha256()
    for f in kernel_sources() if paths is None else paths:
        with open(f, "rb") as fh:
            data = fh.read()
        h.update(os.path.basename(f).encode() + b"\0" + len(data).to_bytes(8, "little") + data)
    if paths is None:
        _stamp.append(h.digest())
    return h.digest()


_stamp_installed = False


def installed_copy(root: str = _ROOT) -> bool:
    """Whether ``root`` lies in a Python environment's site-packages (``pip install .``),
    not in a checkout (an editable install, a clone on ``sys.path``)."""
    import site
    import sysconfig

    places = {sysconfig.get_paths()[k] for k in ("purelib", "platlib")}
    places.update(site.getsitepackages() if hasattr(site, "getsitepackages") else [])
    places.add(site.getusersitepackages())
    here = os.path.normcase(os.path.abspath(root)) + os.sep
    return any(here.startswith(os.path.normcase(os.path.abspath(p)) + os.sep) for p in places)


def cache_locator_bases(installed: bool) -> list[str]:
    """The names of Numba's cache locators tried for pokerjit's kernels, in order:
    ``NUMBA_CACHE_DIR``, beside the sources, then a folder in the home. An installed copy
    skips "beside the sources": its ``__pycache__`` folders in site-packages are files
    pip does not know, left behind by ``pip uninstall`` as folders that hide a later
    editable install of the same packages (Python takes them for namespace packages)."""
    names = ["UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator"]
    return [n for n in names if not (installed and n == "InTreeCacheLocator")]


def _install_tree_stamp() -> None:
    """Key pokerjit's cached kernels on all kernel sources, not on each kernel's own file.

    Numba checks a cached kernel against its own file only, so a kernel whose callee in
    another file changed (``play.py`` calling ``engine.py``'s rules, after an edit or a
    ``git pull``) would load stale machine code. Numba's own cache places are kept
    (:func:`cache_locator_bases`); their source stamp becomes :func:`tree_stamp` for files
    of this project. With a Numba whose
    cache internals differ, Numba's default keying is left as is."""
    global _stamp_installed
    if _stamp_installed:
        return
    _stamp_installed = True
    try:
        from numba.core import caching

        bases = [getattr(caching, n) for n in cache_locator_bases(installed_copy())]
        impl = caching.CacheImpl
        impl._locator_classes  # noqa: B018 - fails early where the internals differ
    except (ImportError, AttributeError):  # pragma: no cover - other Numba versions
        return
    ours = tuple(os.path.normcase(d) + os.sep for d in (os.path.join(_ROOT, "evaluator"),
                                                       os.path.join(_ROOT, "simulate")))

    class _TreeStamped:
        def get_source_stamp(self) -> Any:
            return tree_stamp()

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if not os.path.normcase(os.path.abspath(py_file)).startswith(ours):
                return None
            return super().from_function(py_func, py_file)

    mine = [type("Pokerjit" + b.__name__, (_TreeStamped, b), {}) for b in bases]
    impl._locator_classes[:0] = mine


def cache_works() -> bool:
    """False once this process found that compiled kernels cannot be cached on disk."""
    return CACHE and not any("cannot write Numba's cache" in w for w in _warned)


# ----------------------------------------------------------------------------- compile time
class _CompileClock:
    """Seconds this process spent compiling kernels or loading them from the disk cache
    (Numba's compiler lock held: type inference, LLVM, cache reads) and, of those, compiling
    (cache misses). Fed by Numba's event hooks, installed with the first kernel."""

    def __init__(self) -> None:
        self.total = 0.0  # compiling + loading
        self.compiling = 0.0
        self.on_first_compile: list[Callable[[], None]] = []
        self._compiled = False

    def first_compile(self) -> None:
        """A kernel is being compiled: the first time, call the ``on_first_compile``s."""
        if not self._compiled:
            self._compiled = True
            for cb in self.on_first_compile:
                cb()

    def install(self, numba: Any) -> None:
        import time

        from numba.core import event as ev

        clock = self

        class _Timer(ev.Listener):
            def __init__(self, field: str) -> None:
                self.field, self.depth, self.t0 = field, 0, 0.0

            def on_start(self, event: Any) -> None:
                if self.depth == 0:
                    self.t0 = time.perf_counter()
                    if self.field == "compiling":
                        clock.first_compile()
                self.depth += 1

            def on_end(self, event: Any) -> None:
                self.depth -= 1
                if self.depth == 0:
                    setattr(clock, self.field,
                            getattr(clock, self.field) + time.perf_counter() - self.t0)

        ev.register("numba:compiler_lock", _Timer("total"))
        ev.register("numba:compile", _Timer("compiling"))


_clock = _CompileClock()
_clock_installed = False


def _numba() -> Any:
    """``import numba``, installing the compile clock and :func:`_share_inlined_scopes` the
    first time."""
    global _clock_installed
    import numba

    if not _clock_installed:
        _clock_installed = True
        _clock.install(numba)
        if SHARE_SCOPES:
            _share_inlined_scopes()
    return numba


# ------------------------------------------------------------------- inlining's IR copies
SHARE_SCOPES = env_switch("POKERJIT_SHARE_SCOPES")
_scopes_shared = False


def _share_inlined_scopes() -> bool:
    """Make Numba's ``inline="always"`` copy a callee's variable scope once per inlining
    instead of once per block (numba/numba#8989, open for Numba 0.58-0.69). Returns whether
    the change is in place.

    To inline a callee, Numba deep-copies its IR block by block, twice; every block refers to
    the function's one ``Scope`` (every variable, each with its source location), and each
    block's copy copies that whole scope again, so the cost grows as blocks × variables. The
    hand engine's play loop inlines the rules into one function of about two thousand blocks:
    with the per-block copies, copying took half of its compile time (about 70 of 140 s on
    the 2-core AMD EPYC machine, ``benchmarks/README.md``). Here every block copied during
    one ``InlineWorker.inline_ir`` call gets the same copy of a scope they shared, which is
    what one deep copy of all the blocks together would give; nothing else changes (the
    compiled code is the same). ``POKERJIT_SHARE_SCOPES=0`` leaves Numba as it is; so does a
    Numba whose internals differ."""
    global _scopes_shared
    if _scopes_shared:
        return True
    try:
        import contextvars
        import copy

        from numba.core import inline_closurecall, ir

        worker = inline_closurecall.InlineWorker
        original = worker.inline_ir
        if "__deepcopy__" in vars(ir.Scope) or not callable(original):
            return False
    except (ImportError, AttributeError):  # pragma: no cover - other Numba versions
        return False
    copies: contextvars.ContextVar[dict[int, tuple[Any, Any]] | None] = \
        contextvars.ContextVar("pokerjit_scope_copies", default=None)

    def inline_ir(self: Any, *args: Any, **kwargs: Any) -> Any:
        token = copies.set({})
        try:
            return original(self, *args, **kwargs)
        finally:
            copies.reset(token)

    def scope_deepcopy(self: Any, memo: dict[int, Any]) -> Any:
        made = copies.get()
        if made is not None and id(self) in made:
            return made[id(self)][1]
        new = ir.Scope.__new__(ir.Scope)
        memo[id(self)] = new
        for key, value in self.__dict__.items():
            setattr(new, key, copy.deepcopy(value, memo))
        if made is not None:
            made[id(self)] = (self, new)  # the original kept alive: ids stay unique
        return new

    inline_ir.__wrapped__ = original  # type: ignore[attr-defined]
    worker.inline_ir = inline_ir
    ir.Scope.__deepcopy__ = scope_deepcopy
    _scopes_shared = True
    return True


def compile_seconds() -> tuple[float, float]:
    """``(compiling and loading, compiling)``: seconds this process has spent so far getting
    kernels ready, all of it (a load from the disk cache included) and the compiling part
    (first runs, or no cache). Results time the work without them (:func:`work_clock`)."""
    return _clock.total, _clock.compiling


def work_clock() -> float:
    """A clock in seconds (``time.perf_counter()``) that stands still while kernels are
    compiled or loaded from the cache: ``work_clock() - t0`` is the time of the work itself,
    what every result's ``elapsed_s`` reports."""
    import time

    return time.perf_counter() - compile_seconds()[0]


def on_first_compile(callback: Callable[[], None]) -> None:
    """Call ``callback()`` when this process first compiles a kernel (a cache miss), e.g. to
    tell a waiting user why the first run is slow. (Numba is not imported for this.)"""
    if callback not in _clock.on_first_compile:
        _clock.on_first_compile.append(callback)


def compiled_elsewhere() -> None:
    """Say that a helper process of this one compiles kernels (``pokerjit warmup --jobs``):
    the ``on_first_compile`` callbacks run as for a compile here (once per process)."""
    _clock.first_compile()


def count_ready_seconds(seconds: float, compiling: bool = False) -> None:
    """Count ``seconds`` spent outside Numba getting kernels ready (waiting for a copy that
    compiles them, :mod:`evaluator._first_run`) as :func:`compile_seconds` counts Numba's
    own: :func:`work_clock` stands still for them; ``compiling``: as compiling too."""
    _clock.total += seconds
    if compiling:
        _clock.compiling += seconds


def no_compile_notice() -> None:
    """This process shows no ``on_first_compile`` notice (a forked copy that compiles
    while the process it was forked from shows it)."""
    _clock._compiled = True


def serial(fn: Callable[..., Any] | None = None, **opts: Any) -> Any:
    """Compile ``fn`` as a serial Numba kernel (``@serial`` or ``@serial(...)``)."""
    return _njit(fn, dict(opts))


def parallel(fn: Callable[..., Any] | None = None, **opts: Any) -> Any:
    """Compile ``fn`` as a parallel (``prange``) Numba kernel."""
    return _njit(fn, dict(opts, parallel=True))


def parallel_and_serial(fn: Callable[..., Any], serial_name: str) -> tuple[Any, Any]:
    """``fn`` (a loop over blocks with ``prange``) compiled twice from its one source: as a
    parallel kernel, and as a serial one named ``serial_name`` (``prange`` is ``range``
    there; its own name gives it its own disk cache files). When each iteration writes only
    its own block, both give the same bits. The serial twin compiles in a fraction of the
    parallel loop's time: :func:`for_the_work` picks it for small work on a first run."""
    import types

    twin = types.FunctionType(fn.__code__, fn.__globals__, serial_name, fn.__defaults__,
                              fn.__closure__)
    twin.__qualname__ = fn.__qualname__.rpartition(".")[0] + "." + serial_name \
        if "." in fn.__qualname__ else serial_name
    twin.__doc__ = fn.__doc__
    twin.__module__ = fn.__module__
    return parallel(fn), serial(twin)


def inline(fn: Callable[..., Any] | None = None, **opts: Any) -> Any:
    """Compile ``fn`` as a helper that Numba inlines into every caller."""
    return _njit(fn, dict(opts, inline="always"))


def by_type(py_func: Callable[..., Any]) -> Any:
    """Register the decorated chooser as ``py_func``'s compiled form (Numba's
    ``overload``): called with the argument *types* when a kernel that calls ``py_func``
    is compiled, it returns the implementation for them, so a choice made by an argument's
    type costs nothing at run time and compiles only the branch taken (cached with the
    caller, as any kernel code). ``py_func`` stays the interpreter's version."""
    _numba()
    from numba.extending import overload

    # called from kernels only: no wrapper for calls from Python or C (less to compile)
    return overload(py_func, jit_options={"no_cpython_wrapper": True, "no_cfunc_wrapper": True})


def max_threads() -> int:
    """The most Numba threads this process may use (``NUMBA_NUM_THREADS``)."""
    numba = _numba()

    return int(numba.config.NUMBA_NUM_THREADS)


def resolve_threads(threads: int | None) -> int:
    """``threads`` (None = all) as a thread count in ``1..max_threads()``.

    Raises ValueError for anything but a positive integer.
    """
    import numpy as np

    if threads is None:
        return max_threads()
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise ValueError(f"threads must be a positive integer, got {threads!r}")
    return min(int(threads), max_threads())


class threads:
    """Context manager running Numba parallel code on ``n`` threads."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __enter__(self) -> None:
        import numba

        self.old = numba.get_num_threads()
        numba.set_num_threads(self.n)

    def __exit__(self, *exc: object) -> None:
        import numba

        numba.set_num_threads(self.old)
