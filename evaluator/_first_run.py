"""How a first run compiles less (after installing, with an empty Numba cache, a command
compiles what it needs before it answers):

- :func:`for_the_work` picks the serial twin of a :func:`evaluator._jit.parallel_and_serial`
  pair for small work in a one-answer program (:func:`serial_first_runs`) while the
  parallel kernel is not :func:`ready`: the parallel loop's own compile costs seconds;
- :func:`compile_beside` compiles kernels in a forked copy of the ``pokerjit`` program
  (:func:`allow_compile_beside`) while this process compiles others; this process's first
  compile of one of them (a call, or typing a kernel that calls it) waits for it
  (:func:`await_beside`) and reads it from the disk cache the copy wrote (Numba compiles
  on one core).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from evaluator._jit import (
    cache_works,
    compiled_elsewhere,
    count_ready_seconds,
    env_switch,
    no_compile_notice,
)

FORK_COMPILE = env_switch("POKERJIT_FORK_COMPILE")
_beside_allowed = False


def allow_compile_beside() -> None:
    """Let :func:`compile_beside` fork this process: the ``pokerjit`` program calls it (a
    process of its own, which no other code shares); a library user's process is never
    forked."""
    global _beside_allowed
    _beside_allowed = True


def compile_beside(kernel: Any, args: tuple[Any, ...],
                   *more: tuple[Any, tuple[Any, ...]]) -> Callable[[], None]:
    """Start compiling ``kernel`` for ``args`` in a forked copy of this process, which
    writes it to the disk cache while this one goes on (compiling its own kernels: Numba
    compiles on one core). ``more``: further ``(kernel, args)`` the same copy compiles after
    it, one after another. This process's first compile of one of them (calling it, or
    compiling a kernel that calls it) waits for that kernel alone, then loads it from the
    cache, or compiles it if the copy failed (:func:`await_beside`, which callers need not
    call); meanwhile this process compiles what it may while the copy goes on. Returns
    ``wait()``, which waits for all of them and the copy's end.

    Only when it pays and is safe: :func:`allow_compile_beside` was called, a kernel is
    neither compiled nor loaded in this process yet (a later call costs nothing), the disk
    cache is on (and ``POKERJIT_FORK_COMPILE`` is not 0), this process may run on two CPUs
    or more, no other thread runs, and the cache lacks the kernel for these argument types
    (the common case: a warm cache costs one look at its index); the kernels that are
    ready are left out. Otherwise ``wait`` does nothing. The copy prints nothing; this
    process shows the compile notice (once) and counts the wait as compiling
    (:func:`work_clock` stands still)."""
    import threading

    jobs = [(k, a) for k, a in ((kernel, args), *more) if not k.overloads]
    if not (_beside_allowed and jobs and FORK_COMPILE and cache_works()
            and hasattr(os, "fork") and threading.active_count() == 1):
        return _no_wait
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - no affinity on this system
        cpus = os.cpu_count() or 1
    if cpus < 2:
        return _no_wait
    import time

    t0 = time.perf_counter()
    try:
        return _fork_compile(jobs)
    finally:  # a look at the cache and a fork: getting kernels ready, not the work
        count_ready_seconds(time.perf_counter() - t0)


def ready(kernel: Any) -> bool:
    """Whether calling ``kernel`` costs no compile: compiled in this process, or its disk
    cache holds machine code for it (of any argument types: the kernels this is asked of
    have one). A caller with two roads to the same answer takes the compiled one only when
    the work is large or the kernel is ready, so a first run on a small input compiles less
    (``pokerjit hand`` on a file of a few hands)."""
    if getattr(kernel, "overloads", None):
        return True
    if not cache_works():
        return False
    try:
        return bool(kernel._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - other Numba internals: say not ready
        return False


def _no_wait() -> None:
    """The ``wait`` of a :func:`compile_beside` that started nothing."""


def _fork_compile(jobs: list[tuple[Any, tuple[Any, ...]]]) -> Callable[[], None]:
    """:func:`compile_beside` once it is allowed: the look at the cache and the fork."""
    import sys

    todo = []
    try:
        for kernel, args in jobs:
            sig = tuple(kernel.typeof_pyval(a) for a in args)
            cache = kernel._cache
            key = cache._index_key(sig, kernel.targetctx.codegen())
            if key not in cache._cache_file._load_index():
                todo.append((kernel, sig))
    except Exception:  # noqa: BLE001 - other Numba internals: compile here, as always
        return _no_wait
    if not todo:
        return _no_wait
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    done_r, done_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the copy: compile, save, leave (no exit handlers, no output)
        code = 1
        try:
            os.close(done_r)
            no_compile_notice()  # the process forked from shows it
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.dup2(null, 2)
            for kernel, sig in todo:
                kernel.compile(sig)
                os.write(done_w, b".")  # one byte per kernel in the cache
            code = 0
        except BaseException:  # noqa: BLE001, S110 - this process compiles it then
            pass
        finally:
            os._exit(code)
    os.close(done_w)
    compiled_elsewhere()
    copy = _Copy(pid, done_r, len(todo))
    for i, (kernel, _sig) in enumerate(todo):
        _beside[id(kernel)] = (copy, i + 1)
        _await_on_compile(kernel)

    def wait() -> None:
        copy.wait(len(todo))  # every kernel, and the copy's end

    return wait


class _Copy:
    """A forked copy compiling kernels: it writes one byte to ``fd`` per kernel saved."""

    def __init__(self, pid: int, fd: int, n: int) -> None:
        self.pid, self.fd, self.n, self.done, self.ended = pid, fd, n, 0, False

    def wait(self, count: int) -> None:
        """Wait until ``count`` of its ``n`` kernels are saved, or the copy has ended (it is
        then reaped: a kernel it did not save compiles here when called). Past the last
        kernel it waits for the end, which follows at once."""
        import time

        if count >= self.n:
            count = self.n + 1
        t0 = time.perf_counter()
        try:
            while self.done < count and not self.ended:
                got = os.read(self.fd, 64)
                self.done += len(got)
                if not got:
                    self.ended = True
                    os.close(self.fd)
                    try:
                        os.waitpid(self.pid, 0)
                    except ChildProcessError:  # pragma: no cover - already reaped
                        pass
        finally:
            count_ready_seconds(time.perf_counter() - t0, compiling=True)


#: Kernels a forked copy is compiling (:func:`compile_beside`): ``id(kernel)`` -> the copy
#: and how many of its kernels must be done before this one is in the cache.
_beside: dict[int, tuple[_Copy, int]] = {}


def _await_on_compile(kernel: Any) -> None:
    """Make this process's first compile of ``kernel`` wait for the copy compiling it
    (:func:`await_beside`), then load it from the disk cache: also where Numba compiles it
    as the callee of another kernel, while typing the caller (a loop that calls it: this
    process compiles the loop while the copy compiles the callees). The wait is installed
    on the dispatcher itself (Numba asks ``dispatcher.compile`` for every overload) and
    removed at its first use."""

    def compile(sig: Any) -> Any:  # noqa: A001 - Numba's name
        kernel.__dict__.pop("compile", None)
        await_beside(kernel)
        return type(kernel).compile(kernel, sig)

    kernel.compile = compile


def await_beside(kernel: Any) -> None:
    """Wait until the copy that :func:`compile_beside` forked to compile ``kernel`` has
    saved it to the disk cache, which this process then loads instead of compiling it a
    second time. Its first compile here calls this (:func:`_await_on_compile`), so callers
    need not. Returns at once where no copy compiles it (a dictionary lookup)."""
    if _beside:
        job = _beside.pop(id(kernel), None)
        if job is not None:
            job[0].wait(job[1])


#: Whether :func:`for_the_work` may pick a serial twin: set by :func:`serial_first_runs`.
SERIAL_FIRST_RUNS = False


def serial_first_runs() -> None:
    """Let :func:`for_the_work` answer small work with serial twins while the parallel
    kernels are not compiled: the ``pokerjit`` program calls it for its commands that
    answer once and end (``equity``, ``range``, ``allin``), where a first run's
    compile is most of the wait. A library user's process, a server, a batch, ``bench`` and
    ``warmup`` keep the parallel kernels (compiled once, then as fast as the threads allow)."""
    global SERIAL_FIRST_RUNS
    SERIAL_FIRST_RUNS = True


def for_the_work(parallel_kernel: Any, serial_kernel: Any, small: bool) -> Any:
    """The kernel of a :func:`parallel_and_serial` pair to call: the serial one for
    ``small`` work in a process that allows it (:func:`serial_first_runs`) while the
    parallel one is neither compiled nor cached (:func:`ready`), so a one-answer command's
    first run on a small input compiles no parallel loop (its compile, seconds, costs more
    than the second thread saves); the parallel one otherwise."""
    if small and SERIAL_FIRST_RUNS and not ready(parallel_kernel):
        return serial_kernel
    return parallel_kernel
