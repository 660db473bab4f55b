"""Running a batch: chunks of lines on this process, on worker processes, or on Dask.

The main process splits the input into chunks of consecutive lines (reading only the
lines an earlier run answered) and writes the answers in input order, settling the ids
as it writes (duplicates, lines answered before, changed requests). The work, reading and
answering the lines, is :func:`simulate.batch.chunks.answer_chunk`, run by one of three
backends:

* in this process, with all Numba threads (``workers=1``, the default);
* ``workers=N`` forked processes, one Numba thread each. The main process loads the
  compiled kernels once before the fork (on one thread, so no thread pool is forked), so
  the workers start with them instead of compiling or loading them N times; kernels for
  other kinds of line are compiled in the main process the first time such a line comes
  (the workers then load them from the cache rather than compiling at once);
* ``scheduler="local[:N]"`` (a ``dask.distributed`` LocalCluster of N worker processes)
  or ``scheduler="tcp://HOST:PORT"`` (a running Dask scheduler): chunks are Dask tasks,
  workers are warmed with ``Client.run``, and results stream back with ``as_completed``.

Every backend gives the same output lines: each line's answer depends only on the line
(and the run's defaults), never on where or with how many threads it ran.

The backends are the one pool of pokerjit, public as :func:`executor` (``pokerjit hand``
runs its chunks of hands on it too); the warm-ups they run are kinds of work of the one
registry, :func:`simulate.warmup.warm`.
"""

from __future__ import annotations

import concurrent.futures as cf
import gc
import json
import math
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from simulate.warmup import warm

from .chunks import WARM_KIND, Answer, ChunkInterrupted, Item, Resumed, answer_chunk
from .files import Input, Output, Resume, count_lines, format_record
from .requests import DEFAULTABLE, BadRequest, check_id, digest, effective

MAX_CHUNK_LINES = 4096  # lines per chunk at most (a chunk is one task)
TASKS_PER_WORKER = 8  # aim for at least this many chunks per worker


@dataclass
class BatchSummary:
    """What a run did: input lines (not blank or comments), ``skipped`` as answered before,
    ``done`` now, of which ``errors`` are error lines."""

    total: int = 0
    skipped: int = 0
    done: int = 0
    errors: int = 0
    elapsed_s: float = 0.0


# ----------------------------------------------------------------------------- backends
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

    def map_ordered(self, chunks: Iterable[Any], args: tuple = (), fn: Any = answer_chunk,
                    *, on_error: Any = None) -> Iterator[tuple]:
        for n, items in enumerate(chunks):
            try:
                result = _call(fn, items, args, self.threads, on_error)
            except ChunkInterrupted as stop:  # Ctrl-C inside a line: keep the lines before it
                if stop.answers:
                    yield items[:len(stop.answers)], stop.answers
                raise KeyboardInterrupt from None
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
    kinds_of: Any = None
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

    def map_ordered(self, chunks: Iterable[Any], args: tuple = (), fn: Any = answer_chunk,
                    *, on_error: Any = None) -> Iterator[tuple]:
        """``(chunk, fn(chunk, *args, threads=1))`` for every chunk, in order; ``fn`` must
        be a module-level function (it is pickled to the workers)."""
        _freeze(self)  # the kernels were warmed in this process
        window = 3 * self.workers
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


_EQUITY_SIGNS = (b"+", b"%", b"random", b"any", b"std_error", b"-", b":")


def _kind_of(payload: Any, defaults: dict[str, Any]) -> str:
    """Which warm-up a line needs (see :func:`simulate.batch.chunks.warm`), guessed from its
    bytes without reading them as JSON (a wrong guess costs a compile in a worker, no
    more)."""
    if isinstance(payload, dict):
        payload = json.dumps(payload, default=str).encode()
    if not isinstance(payload, bytes):
        return "fast"
    raw = payload.lower().replace(b'":', b'"')  # a key's colon is no card text
    kind = defaults.get("kind") or "equity"
    if b'"allin"' in raw or (kind == "allin" and b'"kind"' not in raw):
        return "allin"
    if b'"range"' in raw or (kind == "range" and b'"kind"' not in raw):
        return "range"
    if b"omaha" in raw or str(defaults.get("game", "")).lower().startswith("omaha"):
        return "omaha"
    if any(t in raw for t in _EQUITY_SIGNS):
        return "equity"
    return "fast"


def _kinds_of(items: list[Item], defaults: dict[str, Any]) -> set[str]:
    """The warm-ups a chunk needs (:func:`_kind_of` of each line): ``{"fast"}`` from one
    look at the whole chunk when no line shows a sign of anything else (the common case:
    exact hands), else line by line."""
    if (defaults.get("kind") or "equity") == "equity" and not any(
            isinstance(p, dict) for _, p in items) and not str(
            defaults.get("game", "")).lower().startswith("omaha"):
        raw = b"\n".join([p for _, p in items if isinstance(p, bytes)])
        raw = raw.lower().replace(b'":', b'"')
        if not any(t in raw for t in (b'"allin"', b'"range"', b"omaha", *_EQUITY_SIGNS)):
            return {"fast"}
    return {_kind_of(payload, defaults) for _, payload in items}


class _Processes(_Windowed):
    """Forked worker processes (one Numba thread each)."""

    def __init__(self, workers: int, warm_kinds: tuple[str, ...], kinds_of: Any = None,
                 close_fd: int = -1) -> None:
        import multiprocessing as mp

        self.workers, self.kinds_of = workers, kinds_of
        # Forking a process whose Numba thread pool (OpenMP) has started is unsafe: then
        # (a notebook that ran parallel kernels first) the workers start fresh instead,
        # and warm themselves.
        method = "spawn" if _numba_threads_started() else "fork"
        if method == "fork":
            warm(warm_kinds, serial=True)  # serial kernels only: no thread pool is forked
        self.warmed = set(warm_kinds)
        self.ex = cf.ProcessPoolExecutor(
            workers, mp_context=mp.get_context(method), initializer=_worker_init,
            initargs=(close_fd, warm_kinds if method == "spawn" else ()))
        self.ex.submit(int).result()  # start every worker now, before any other warm-up

    def warm_here(self, kinds: tuple[str, ...]) -> None:
        # compiled here once: the workers load it from the cache when they first need it
        warm(kinds, serial=True)

    def submit(self, fn: Any, items: Any, args: tuple) -> cf.Future:
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


def _worker_init(close_fd: int, warm_kinds: tuple[str, ...] = ()) -> None:
    """In a worker: drop the inherited handle on the output file (so that its lock goes
    with the main process), warm ``warm_kinds`` (a spawned worker, which inherits no
    kernels), freeze the heap it inherits (:func:`_freeze_heap`), and die with the main
    process (Linux), so that a killed run leaves no workers behind."""
    import os
    import signal

    if close_fd >= 0:
        try:
            os.close(close_fd)
        except OSError:
            pass
    if warm_kinds:
        warm(warm_kinds, serial=True)
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


def _warm_worker(kinds: tuple[str, ...]) -> None:
    """:func:`simulate.warmup.warm` of ``kinds`` (serial), then :func:`_freeze_heap` (run on
    Dask workers)."""
    warm(kinds, serial=True)
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

    def __init__(self, spec: str, workers: int, warm_kinds: tuple[str, ...],
                 kinds_of: Any = None) -> None:
        how, n = parse_scheduler(spec)
        try:
            import logging

            from distributed import Client, LocalCluster, as_completed
        except ImportError:
            raise ValueError("--scheduler needs Dask: pip install 'pokerjit[distributed]'"
                             ) from None
        self.kinds_of = kinds_of
        self.cluster = None
        if how == "local":
            warm(warm_kinds, serial=True)  # fill the kernel cache once; the workers load it
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
        self.client.run(_warm_worker, warm_kinds)
        self.warmed = set(warm_kinds)
        self.ac = as_completed()

    def warm_here(self, kinds: tuple[str, ...]) -> None:
        if self.cluster is not None:
            warm(kinds, serial=True)  # compile here once; local workers load from the cache
        self.client.run(_warm_worker, kinds)

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

    def map_ordered(self, chunks: Iterable[Any], args: tuple = (), fn: Any = ..., *,
                    on_error: Any = None) -> Iterator[tuple[Any, Any]]: ...

    def close(self, abort: bool = False) -> None: ...


def executor(workers: int = 1, scheduler: str | None = None, threads: int | None = None, *,
             warm: tuple[str, ...] = ("batch",),
             kinds_of: Callable[[Any], Iterable[str]] | None = None,
             close_fd: int = -1) -> Executor:
    """The one pool of pokerjit: runs chunks of work in this process, on worker processes
    or on Dask, and hands the results back in input order. ``pokerjit batch`` and
    ``pokerjit hand --workers/--scheduler`` run on it.

    Where: ``workers=1`` (and no ``scheduler``) runs in this process with ``threads``
    Numba threads (None: all); ``workers=N`` on N forked processes, one Numba thread each
    (spawned instead when this process's Numba thread pool has started, which forking
    would break); ``scheduler`` (``local``, ``local:N`` or ``tcp://HOST:PORT``, see
    :func:`parse_scheduler`) on Dask workers (needs ``pokerjit[distributed]``; ValueError
    when it is missing or the scheduler cannot be reached).

    Warm-up: ``warm`` names kinds of work of :func:`simulate.warmup.warm`, compiled (or
    loaded from Numba's cache) on one thread before the workers start, so that forked
    workers inherit the kernels and Dask workers load them once each; ``kinds_of(chunk)``
    (optional, called in this process before each chunk is sent) names further kinds a
    chunk needs, warmed the first time one is asked for.

    The returned object has ``workers`` (how many run at once), ``map_ordered(chunks,
    args=(), fn, *, on_error=None)`` and ``close(abort=False)``. ``map_ordered`` yields
    ``(chunk, fn(chunk, *args, threads=T))`` for each chunk of the iterable ``chunks``, in
    input order (T is ``threads`` in this process, 1 on workers). ``fn`` and the chunks
    must pickle (``fn`` a module-level function). At most ``3 * workers`` chunks are in
    flight (``chunks`` is read lazily, as results are taken), so memory stays bounded for
    an input of any length. An exception raised by ``fn`` (or a worker process that died:
    ``BrokenProcessPool``) is raised from ``map_ordered`` where that chunk's result would
    come, unless ``on_error(chunk, exc)`` is given, whose return value then stands for the
    chunk's result. ``close()`` waits for the workers to finish and stops them;
    ``close(abort=True)`` (what to call on Ctrl-C, SIGTERM or an error) terminates worker
    processes at once without waiting for their chunks. Worker processes also die with
    this process (Linux). ``close_fd``: a file descriptor worker processes must not keep
    open (a locked output).
    """
    if scheduler:
        return _Dask(scheduler, workers, warm, kinds_of)
    if workers > 1:
        return _Processes(workers, warm, kinds_of, close_fd)
    return _Local(threads)


def _batch_executor(workers: int, scheduler: str | None, threads: int | None,
                    defaults: dict[str, Any], close_fd: int = -1) -> Executor:
    """:func:`executor` for batch lines: the grouped kernels first, the others as lines
    that need them come (:func:`_kinds_of`)."""
    def kinds_of(items: list[Item]) -> set[str]:
        return {WARM_KIND[k] for k in _kinds_of(items, defaults)}

    return executor(workers, scheduler, threads, warm=(WARM_KIND["fast"],),
                    kinds_of=kinds_of, close_fd=close_fd)


def check_options(workers: Any, scheduler: str | None, defaults: dict[str, Any] | None
                  ) -> dict[str, Any]:
    """Check the run's options before any work; returns the defaults (ValueError if bad)."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    if scheduler is not None:
        parse_scheduler(scheduler)
    d = dict(defaults or {})
    bad = sorted(set(d) - set(DEFAULTABLE))
    if bad:
        raise ValueError(f"no default can be given for {bad[0]!r} "
                         f"(defaults: {', '.join(DEFAULTABLE)})")
    d = {k: v for k, v in d.items() if v is not None}
    if d:  # the same checks as a line's fields, and the game and cards themselves
        from evaluator.cards import CardError, check_disjoint, parse_cards
        from simulate.games import check_game
        from simulate.request import parse_board

        probe = {"id": 0, "kind": d.get("kind"), "players" if d.get("kind") == "allin"
                 else "hands": ["AhKh", "QsQd"]}
        try:
            eff = effective(probe, d)
            if "game" in d:
                check_game(d["game"])
            check_disjoint([("board", parse_board(eff["board"])),
                            ("dead cards", parse_cards(eff["dead"], what="dead cards"))])
        except (BadRequest, CardError, ValueError) as e:
            raise ValueError(f"default {e}") from None
    return d


# ----------------------------------------------------------------------------- file runs
def run_batch(in_path: str | Path, out_path: str | Path, *, workers: int = 1,
              scheduler: str | None = None, defaults: dict[str, Any] | None = None,
              threads: int | None = None, quiet: bool = False,
              progress_stream: Any = None, chunk_lines: int | None = None) -> BatchSummary:
    """Answer every request of ``in_path``, appending to ``out_path`` (see the package doc).

    ``workers``: processes (1 = this process, ``threads`` Numba threads); ``scheduler``:
    ``local[:N]`` or ``tcp://HOST:PORT`` for Dask; ``defaults``: values for fields a line
    leaves out (:data:`~simulate.batch.requests.DEFAULTABLE`); ``chunk_lines``: lines per
    chunk of work (default: up to 4,096, at least 8 chunks per worker; the output does not
    depend on it). Progress goes to stderr (a bar on a terminal, plain lines otherwise)
    unless ``quiet``. Raises ValueError or
    OSError, before any work, for a bad option, a missing input, an output that is the
    input, a folder, a device or pipe, not a batch output, or in use by another run.
    """
    from simulate.progress import progress

    d = check_options(workers, scheduler, defaults)
    if chunk_lines is not None and (isinstance(chunk_lines, bool)
                                    or not isinstance(chunk_lines, int) or chunk_lines < 1):
        raise ValueError(f"chunk_lines must be a positive integer, got {chunk_lines!r}")
    in_path, out_path = Path(in_path), Path(out_path)
    if not in_path.is_file():
        if in_path.exists():
            raise ValueError(f"{in_path}: not a regular file")
        raise FileNotFoundError(f"no such input file: {in_path}")
    if out_path.exists() and out_path.resolve() == in_path.resolve():
        raise ValueError(f"the output file is the input file: {out_path}")
    t0 = time.perf_counter()
    summary = BatchSummary()
    n_lines = count_lines(in_path)
    inp = Input(in_path)
    with Output(out_path) as out, progress(n_lines, "batch", "lines", quiet=quiet,
                                           stream=progress_stream) as bar:
        backend = _batch_executor(workers, scheduler, threads, d, out.fd)
        try:
            chunk = chunk_lines or _chunk_size(n_lines, backend.workers)
            payloads = _payloads(inp, out, d)
            settle = _Settler(out.resume, out.fmt, str(out_path))
            last = 0
            for _, answers in backend.map_ordered(chunked(payloads, chunk),
                                                  (d, out.fmt, inp.header)):
                lines, errors, skipped = settle(answers)
                out.write(lines)
                summary.total += len(answers)
                summary.done += len(lines)
                summary.errors += errors
                summary.skipped += skipped
                bar.update(answers[-1][0] - last)  # physical lines, as counted for the total
                last = answers[-1][0]
        except BaseException:
            backend.close(abort=True)
            raise
        backend.close()
    summary.elapsed_s = time.perf_counter() - t0
    return summary


def _chunk_size(n_lines: int, workers: int) -> int:
    if workers == 1:
        return MAX_CHUNK_LINES
    return max(1, min(MAX_CHUNK_LINES, math.ceil(n_lines / (TASKS_PER_WORKER * workers))))


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


def _payloads(inp: Input, out: Output, defaults: dict[str, Any]) -> Iterator[Item]:
    """Every input line as a chunk item: its bytes, to be answered, or for a line an
    earlier run answered, ``Resumed(id, key, digest)`` (read here, in this process)."""
    done = out.resume.lines
    for lineno, payload in inp.lines():
        if lineno not in done or isinstance(payload, str):
            yield lineno, payload
            continue
        rid = key = dg = None
        try:
            req = Input.decode(payload, lineno, inp.header)
            rid, _ = check_id(req)
            key = out.key_of(rid)
            dg = digest(effective(req, defaults))
        except BadRequest:
            pass
        if key is not None and key not in out.resume.answered:
            yield lineno, payload  # a new request where an old one was: answer it
        else:
            yield lineno, Resumed((rid, key, dg))


class _Settler:
    """Decides, in input order, what of each answered line is written: the id bookkeeping
    (duplicates, lines answered before, changed requests) happens here, once per line."""

    def __init__(self, resume: Resume, fmt: str, out_name: str) -> None:
        self.resume, self.fmt, self.out_name = resume, fmt, out_name
        self.seen: dict[str, int] = {}

    def __call__(self, answers: list[Answer]) -> tuple[list[Any], int, int]:
        """``(output lines, errors among them, lines skipped)`` for a chunk's answers."""
        out: list[Any] = []
        errors = skipped = 0
        r, seen = self.resume, self.seen
        for line, rid, key, dg, text, is_error in answers:
            refusal = None
            if key is None:
                if text is None:  # an unreadable line answered before
                    skipped += 1
                    continue
            elif key in seen:
                if text is None:
                    skipped += 1
                    continue
                refusal = {"error": f"duplicate id {rid!r} (first on line {seen[key]})",
                           "refused": "duplicate"}
            else:
                seen[key] = line
                if key in r.answered:
                    if (key, dg) in r.acknowledged:
                        skipped += 1
                        continue
                    refusal = {"error": f"request {rid!r} changed since it was answered (line "
                                        f"{r.answered[key][0]} of the input, in "
                                        f"{self.out_name}); give it a new id or write to "
                                        "another output", "refused": "changed"}
                elif text is None:  # answered before under a key no record holds now
                    skipped += 1
                    continue
            if refusal is not None:
                text, is_error = format_record(rid, line, dg, refusal, self.fmt), True
            elif r.errors and r.errors.get(line) == text:  # the same error as last time
                skipped += 1
                continue
            out.append(text)
            errors += is_error
        return out, errors, skipped


# ----------------------------------------------------------------------------- Python API
def run(requests: Iterable[dict[str, Any]], *, workers: int = 1, scheduler: str | None = None,
        defaults: dict[str, Any] | None = None, threads: int | None = None,
        chunk_lines: int = 1024) -> Iterator[dict[str, Any]]:
    """Answer requests (dicts, as batch lines) and yield one record each, in order:
    ``{"id", "line", "digest", "result"}`` or ``{..., "error"}`` (``line`` counts from 1).

    Runs in this process, on ``workers`` processes, or on Dask (``scheduler``), exactly
    as :func:`run_batch` does, but without files: nothing is resumed. Meant for notebooks::

        for rec in run([{"id": 1, "hands": ["AhKh", "QsQd"], "board": "Ks8h2c"}]):
            print(rec["result"]["players"][0]["equity"])
    """
    d = check_options(workers, scheduler, defaults)
    backend = _batch_executor(workers, scheduler, threads, d)
    settle = _Settler(Resume(), "dict", "")
    try:
        size = chunk_lines if backend.workers == 1 else max(1, chunk_lines // 4)
        items = ((n, req if isinstance(req, dict) else "a request must be a JSON object")
                 for n, req in enumerate(requests, 1))
        for _, answers in backend.map_ordered(chunked(items, size), (d, "dict", None)):
            yield from settle(answers)[0]
    except BaseException:
        backend.close(abort=True)
        raise
    backend.close()
