"""The one pool of pokerjit: work in chunks on this process, on forked worker processes,
or on Dask, answers in input order (:func:`executor`).

``batch`` answers its chunks of lines on it and ``pokerjit hand`` its chunks of hands. The
caller passes the chunk function and the warm-up (a module-level ``warm(kinds)`` that the
backends run before forking and on each Dask worker), so this module knows nothing of what
a chunk holds.

* in this process, with all Numba threads (``workers=1``, the default);
* ``workers=N`` forked processes, one Numba thread each, started after the main process
  has loaded the compiled kernels once (on one thread, so no thread pool is forked);
* ``scheduler="local[:N]"`` (a ``dask.distributed`` LocalCluster of N worker processes)
  or ``scheduler="tcp://HOST:PORT"`` (a running Dask scheduler): chunks are Dask tasks,
  each chunk and its answers one pickle, workers warmed with ``Client.run``, results
  streamed back with ``as_completed``.
"""

from __future__ import annotations

import concurrent.futures as cf
import gc
import signal
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from simulate.run.spool import Spool
from simulate.run.stop import Stopped

#: A warm-up: ``warm(kinds)`` compiles (or loads from Numba's cache) the kernels of some
#: kinds of work, on one thread (a process may fork after it); a module-level function.
Warm = Callable[[tuple[str, ...]], None]


class ChunkInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM, SIGHUP: :mod:`simulate.run.stop`) inside a chunk function run in
    this process: ``answers`` holds the results of the chunk's finished prefix (one per
    item, in order), which :meth:`map_ordered` yields with that prefix of the chunk before
    it raises :class:`~simulate.run.stop.Stopped` for ``signum``."""

    def __init__(self, answers: list[Any], signum: int = signal.SIGINT) -> None:
        super().__init__(answers)
        self.answers = answers
        self.signum = signum


def chunked(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    """``items`` in lists of ``size`` (the last one shorter), read lazily."""
    buf: list[Any] = []
    for it in items:
        buf.append(it)
        if len(buf) >= size:
            yield buf
            buf = []
    if buf:
        yield buf


def _warm(warm: Warm | None, kinds: tuple[str, ...]) -> None:
    """``warm(kinds)`` when there is a warm-up and something to warm."""
    if warm is not None and kinds:
        warm(tuple(kinds))


def _freeze(backend: Any) -> None:
    """For a run, in the main process: the heap as it is now (imports, kernels) stays out
    of the cyclic collector's full passes (see :func:`_freeze_heap`) until :func:`_thaw`."""
    gc.freeze()
    backend.frozen = True


def _thaw(backend: Any) -> None:
    """Undo :func:`_freeze` (at a backend's close), if it froze."""
    if getattr(backend, "frozen", False):
        backend.frozen = False
        gc.unfreeze()


class _Local:
    """Chunks run in this process, one after another."""

    def __init__(self, threads: int | None) -> None:
        self.threads = threads
        self.workers = 1

    def map_ordered(self, chunks: Iterable[Any], args: tuple, fn: Any,
                    *, on_error: Any = None) -> Iterator[tuple]:
        for n, items in enumerate(chunks):
            try:
                result = _call(fn, items, args, self.threads, on_error)
            except ChunkInterrupted as stop:  # Ctrl-C inside a line: keep the lines before it
                if stop.answers:
                    yield items[:len(stop.answers)], stop.answers
                raise Stopped(stop.signum) from None
            if n == 0:
                _freeze(self)  # its kernels are loaded now
            yield items, result

    def close(self, abort: bool = False) -> None:
        _thaw(self)


def _call(fn: Any, items: Any, args: tuple, threads: int | None, on_error: Any) -> Any:
    """``fn(items, *args, threads=threads)``; with ``on_error``, an Exception raised is
    replaced by ``on_error(items, exc)``."""
    if on_error is None:
        return fn(items, *args, threads=threads)
    try:
        return fn(items, *args, threads=threads)
    except Exception as exc:  # noqa: BLE001 - the caller turns it into the chunk's result
        return on_error(items, exc)


class _Windowed:
    """Ordered results from a backend with futures: at most ``window`` chunks in flight;
    results are handed back in submission order as soon as the oldest is done."""

    workers = 1
    ahead = 3  # chunks in flight per worker
    kinds_of: Any = None
    warm: Warm | None = None
    warmed: set[str]

    def submit(self, fn: Any, items: Any, args: tuple) -> Any:
        raise NotImplementedError

    def wait_some(self, pending: dict[Any, int]) -> list[Any]:
        raise NotImplementedError

    def result(self, fut: Any) -> Any:
        """A finished chunk's value, as ``fn`` returned it."""
        return fut.result()

    def warm_here(self, kinds: tuple[str, ...]) -> None:
        """Warm ``kinds`` (not yet warmed) where the workers are; see :meth:`on_items`."""

    def on_items(self, items: Any) -> None:
        """Called in the main process before a chunk is submitted: the warm-ups
        ``kinds_of(chunk)`` asks for that were not done yet."""
        if self.kinds_of is None:
            return
        need = set(self.kinds_of(items)) - self.warmed
        if need:
            self.warm_here(tuple(sorted(need)))
            self.warmed |= need

    def map_ordered(self, chunks: Iterable[Any], args: tuple, fn: Any,
                    *, on_error: Any = None) -> Iterator[tuple]:
        """``(chunk, fn(chunk, *args, threads=1))`` for every chunk, in order; ``fn`` must
        be a module-level function (it is pickled to the workers)."""
        _freeze(self)  # the kernels were warmed in this process
        window = self.ahead * self.workers
        pending: dict[Any, int] = {}
        ready: dict[int, tuple] = {}
        queued: dict[int, Any] = {}
        it = iter(chunks)
        seq = nxt = 0
        exhausted = False
        while True:
            while not exhausted and len(pending) + len(ready) < window:
                items = next(it, _END)
                if items is _END:
                    exhausted = True
                    break
                self.on_items(items)
                pending[self.submit(fn, items, args)] = seq
                queued[seq] = items
                seq += 1
            if not pending and not ready:
                return
            if pending:
                for fut in self.wait_some(pending):
                    n = pending.pop(fut)
                    if on_error is None:
                        ready[n] = self.result(fut)
                        continue
                    try:
                        ready[n] = self.result(fut)
                    except Exception as exc:  # noqa: BLE001 - see executor()
                        ready[n] = on_error(queued[n], exc)
            while nxt in ready:
                yield queued.pop(nxt), ready.pop(nxt)
                nxt += 1


_END = object()


class _Processes(_Windowed):
    """Forked worker processes (one Numba thread each)."""

    def __init__(self, workers: int, warm: Warm | None, warm_kinds: tuple[str, ...],
                 kinds_of: Any = None, close_fd: int = -1, spool: Spool | None = None
                 ) -> None:
        import multiprocessing as mp

        self.workers, self.kinds_of, self.warm = workers, kinds_of, warm
        # Forking a process whose Numba thread pool (OpenMP) has started is unsafe: then
        # (a notebook that ran parallel kernels first) the workers start fresh instead,
        # and warm themselves.
        method = "spawn" if _numba_threads_started() else "fork"
        if method == "fork":
            _warm(warm, warm_kinds)  # serial kernels only: no thread pool is forked
        self.spool = spool if method == "fork" else None  # a spawned worker has no spool
        self.warmed = set(warm_kinds)
        self.ex = cf.ProcessPoolExecutor(
            workers, mp_context=mp.get_context(method), initializer=_worker_init,
            initargs=(close_fd, warm, warm_kinds if method == "spawn" else (), self.spool))
        self.ex.submit(int).result()  # start every worker now, before any other warm-up

    def warm_here(self, kinds: tuple[str, ...]) -> None:
        # compiled here once: the workers load it from the cache when they first need it
        _warm(self.warm, kinds)

    def submit(self, fn: Any, items: Any, args: tuple) -> cf.Future:
        if self.spool is not None:
            return self.ex.submit(_spooled_call, fn, items, args)
        return self.ex.submit(fn, items, *args, threads=1)

    def wait_some(self, pending: dict[Any, int]) -> list[Any]:
        done, _ = cf.wait(list(pending), return_when=cf.FIRST_COMPLETED)
        return list(done)

    def close(self, abort: bool = False) -> None:
        """Stop the workers: after the last chunk, or at once (``abort``: Ctrl-C, an error),
        without waiting for the chunks they are on."""
        _thaw(self)
        if abort:
            for proc in list(getattr(self.ex, "_processes", {}).values()):
                proc.terminate()
        self.ex.shutdown(wait=not abort, cancel_futures=True)


#: In a forked worker: the spool its chunks' results write their output to, if any.
_SPOOL: Spool | None = None


def _spooled_call(fn: Any, items: Any, args: tuple) -> Any:
    """In a worker: ``fn(items, *args, threads=1)``; a result with a ``to_spool(spool)``
    method (as batch's chunk answers have) then moves its bulk to the spool,
    so that only a reference to it travels back (:mod:`simulate.run.spool`)."""
    result = fn(items, *args, threads=1)
    to_spool = getattr(result, "to_spool", None)
    if to_spool is not None and _SPOOL is not None:
        to_spool(_SPOOL)
    return result


def _worker_init(close_fd: int, warm: Warm | None = None, warm_kinds: tuple[str, ...] = (),
                 spool: Spool | None = None) -> None:
    """In a worker: drop the inherited handle on the output file (so that its lock goes
    with the main process), keep the ``spool`` to write to, warm ``warm_kinds`` (a spawned
    worker, which inherits no kernels), freeze the heap it inherits
    (:func:`_freeze_heap`), and die with the main process (Linux), so that a killed run
    leaves no workers behind."""
    import os

    global _SPOOL
    _SPOOL = spool

    # Ctrl-C and SIGHUP (which a terminal sends to the workers too) are the main process's
    # to handle: it stops the workers. SIGTERM kills a worker: a forked worker inherits the
    # main process's handlers (simulate.run.stop turns SIGTERM into an exception), under
    # which close(abort=True)'s terminate() only interrupted the chunk it was on, and the
    # worker, left waiting for the next one, kept the interpreter's exit waiting for it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if close_fd >= 0:
        try:
            os.close(close_fd)
        except OSError:
            pass
    _warm(warm, warm_kinds)
    gc.freeze()  # see _freeze_heap (no collection: it would write to every inherited page)
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _freeze_heap() -> None:
    """In a worker, once its imports and kernels are loaded: collect cyclic garbage once,
    then leave every object alive now out of the collector's later full passes
    (``gc.freeze``). Building a chunk's answers triggers full passes, and each walks the
    whole heap of NumPy, Numba (and Dask) objects: ~15% of a Dask worker's CPU, 2 of the
    10 s of 200,000 spots on one worker (measured). The main process does the same for
    a run (:func:`_freeze`, without the collection) and thaws it at the end."""
    gc.collect()
    gc.freeze()


def _warm_worker(warm: Warm | None, kinds: tuple[str, ...]) -> None:
    """``warm(kinds)``, then :func:`_freeze_heap` (run on Dask workers)."""
    _warm(warm, kinds)
    _freeze_heap()


def _numba_threads_started() -> bool:
    import sys

    par = sys.modules.get("numba.np.ufunc.parallel")
    return bool(getattr(par, "_is_initialized", False))


def parse_scheduler(spec: str) -> tuple[str, int | None]:
    """``("local", N or None)`` for ``local`` / ``local:N``, ``("address", None)`` for
    ``tcp://HOST:PORT`` (or another Dask address such as ``tls://...``); ValueError else."""
    s = spec.strip()
    if s == "local" or s.startswith("local:"):
        n_text = s[6:]
        if n_text and (not n_text.isdigit() or int(n_text) < 1):
            raise ValueError(f"--scheduler {spec}: local:N needs a positive number of workers")
        return "local", int(n_text) if n_text else None
    if "://" in s and s.split("://", 1)[1]:
        return "address", None
    raise ValueError(f"--scheduler {spec}: expected local, local:N or tcp://HOST:PORT")


class _Whole:
    """A chunk, or what a task made of it, on its way to or from a Dask worker, sent as one
    pickle. Dask sends a bare list (or tuple) element by element, one frame and header
    each: a 4,096-line chunk's answers then cost ~0.2 s of CPU to send and more to receive
    (measured), as much as answering them; wrapped, a few milliseconds."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __reduce__(self) -> tuple:
        return _Whole, (self.value,)


def _dask_task(fn: Any, chunk: _Whole, args: tuple, threads: int) -> _Whole:
    """A Dask task: ``fn(chunk, *args, threads=threads)``, the chunk and its result wrapped
    (see :class:`_Whole`)."""
    return _Whole(fn(chunk.value, *args, threads=threads))


class _Dask(_Windowed):
    """Chunks as Dask tasks (needs ``pip install 'pokerjit[distributed]'``)."""

    def __init__(self, spec: str, workers: int, warm: Warm | None,
                 warm_kinds: tuple[str, ...], kinds_of: Any = None) -> None:
        how, n = parse_scheduler(spec)
        try:
            import logging

            from distributed import Client, LocalCluster, as_completed
        except ImportError:
            raise ValueError("--scheduler needs Dask: pip install 'pokerjit[distributed]'"
                             ) from None
        self.kinds_of, self.warm = kinds_of, warm
        self.cluster = None
        if how == "local":
            _warm(warm, warm_kinds)  # fill the kernel cache once; the workers load it
            self.cluster = LocalCluster(n_workers=n or workers, threads_per_worker=1,
                                        processes=True, dashboard_address=None,
                                        silence_logs=logging.ERROR,
                                        # its HTTP server (no dashboard) on a free port:
                                        # no warning when 8787 is taken
                                        scheduler_kwargs={"dashboard_address": ":0"})
            self.client = Client(self.cluster, direct_to_workers=True)
        else:
            try:
                self.client = Client(spec, timeout=30)
            except OSError as e:
                raise ValueError(f"--scheduler {spec}: cannot reach the scheduler ({e})"
                                 ) from None
        self.workers = max(1, len(self.client.scheduler_info().get("workers", {})))
        self.client.run(_warm_worker, warm, warm_kinds)
        self.warmed = set(warm_kinds)
        self.ac = as_completed()

    def warm_here(self, kinds: tuple[str, ...]) -> None:
        if self.cluster is not None:
            _warm(self.warm, kinds)  # compile here once; local workers load from the cache
        self.client.run(_warm_worker, self.warm, kinds)

    def submit(self, fn: Any, items: Any, args: tuple) -> Any:
        fut = self.client.submit(_dask_task, fn, _Whole(items), args, 1, pure=False)
        self.ac.add(fut)
        return fut

    def result(self, fut: Any) -> Any:
        return fut.result().value

    def wait_some(self, pending: dict[Any, int]) -> list[Any]:
        done = [next(self.ac)]
        done += [f for f in self.ac.next_batch(block=False)] if self.ac.count() else []
        return [f for f in done if f in pending]

    def close(self, abort: bool = False) -> None:
        _thaw(self)
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


class Executor(Protocol):
    """What :func:`executor` returns (see there)."""

    workers: int

    def map_ordered(self, chunks: Iterable[Any], args: tuple, fn: Any, *,
                    on_error: Any = None) -> Iterator[tuple[Any, Any]]: ...

    def close(self, abort: bool = False) -> None: ...


def executor(workers: int = 1, scheduler: str | None = None, threads: int | None = None, *,
             warm: Warm | None = None, warm_kinds: Iterable[str] = (),
             kinds_of: Callable[[Any], Iterable[str]] | None = None,
             close_fd: int = -1, spool: Spool | None = None, ahead: int = 3) -> Executor:
    """The one pool of pokerjit: runs chunks of work in this process, on worker processes
    or on Dask, and hands the results back in input order. ``pokerjit batch`` and
    ``pokerjit hand --workers/--scheduler`` run on it.

    Where: ``workers=1`` (and no ``scheduler``) runs in this process with ``threads``
    Numba threads (None: all); ``workers=N`` on N forked processes, one Numba thread each
    (spawned instead when this process's Numba thread pool has started, which forking
    would break); ``scheduler`` (``local``, ``local:N`` or ``tcp://HOST:PORT``, see
    :func:`parse_scheduler`) on Dask workers (needs ``pokerjit[distributed]``; ValueError
    when it is missing or the scheduler cannot be reached).

    Warm-up: ``warm`` (a module-level function, or None: no warm-up) is called as
    ``warm(kinds)`` with the tuple ``warm_kinds`` before the workers start (in this process,
    so that forked workers inherit the kernels, and on each Dask worker, which loads them
    once); it must compile (or load from Numba's cache) on one thread only, since the
    process may fork after it. ``kinds_of(chunk)`` (optional, called in this process before
    each chunk is sent) names further kinds a chunk needs, warmed the same way the first
    time one is asked for. In this process (``workers=1``) nothing is warmed: the chunks
    load what they need.

    The returned object has ``workers`` (how many run at once), ``map_ordered(chunks, args,
    fn, *, on_error=None)`` and ``close(abort=False)``. ``map_ordered`` yields ``(chunk,
    fn(chunk, *args, threads=T))`` for each chunk of the iterable ``chunks``, in input order
    (T is ``threads`` in this process, 1 on workers). ``fn`` and the chunks must pickle
    (``fn`` a module-level function). At most ``ahead * workers`` chunks are in flight
    (``chunks`` is read lazily, as results are taken), so memory stays bounded for an input
    of any length; a caller that stops to store results (``pokerjit import``) asks for more,
    so that the workers keep busy meanwhile. An exception raised by ``fn`` (or a worker
    process that died: ``BrokenProcessPool``) is raised from ``map_ordered`` where that
    chunk's result would come, unless ``on_error(chunk, exc)`` is given, whose return value
    then stands for the chunk's result. ``close()`` waits for the workers to finish and
    stops them; ``close(abort=True)`` (what to call on Ctrl-C, SIGTERM or an error)
    terminates worker processes at once without waiting for their chunks. Worker processes
    also die with this process (Linux). ``close_fd``: a file descriptor worker processes
    must not keep open (a locked output). ``spool``: a :class:`~simulate.run.spool.Spool`
    that forked worker processes write the bulk of a result to (a result with a
    ``to_spool(spool)`` method), which then comes back as a reference; the caller keeps it
    open until every result is written, then closes it. Ignored in this process, on Dask and
    by spawned workers.
    """
    kinds = tuple(warm_kinds)
    pool: _Windowed
    if scheduler:
        pool = _Dask(scheduler, workers, warm, kinds, kinds_of)
    elif workers > 1:
        pool = _Processes(workers, warm, kinds, kinds_of, close_fd, spool)
    else:
        return _Local(threads)
    pool.ahead = ahead
    return pool


