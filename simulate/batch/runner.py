"""Running a batch: chunks of lines on this process, on worker processes, or on Dask.

The main process reads the input, keeps the id bookkeeping (duplicates, resume, changed
requests) and writes the output in input order; the work is
:func:`simulate.batch.chunks.answer_chunk` on chunks of consecutive lines, run by one of
three backends:

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
"""

from __future__ import annotations

import concurrent.futures as cf
import math
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .chunks import Item, answer_chunk, warm
from .files import Output, count_lines, read_requests
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
class _Local:
    """Chunks answered in this process, one after another."""

    def __init__(self, threads: int | None) -> None:
        self.threads = threads
        self.workers = 1

    def map_ordered(self, chunks: Iterable[list[Any]], args: tuple,
                    fn: Any = answer_chunk) -> Iterator[tuple]:
        for items in chunks:
            yield items, fn(items, *args, threads=self.threads)

    def close(self, abort: bool = False) -> None:
        pass


class _Windowed:
    """Ordered results from a backend with futures: at most ``window`` chunks in flight;
    results are handed back in submission order as soon as the oldest is done."""

    workers = 1

    def submit(self, fn: Any, items: list[Any], args: tuple) -> Any:
        raise NotImplementedError

    def wait_some(self, pending: dict[Any, int]) -> list[Any]:
        raise NotImplementedError

    def on_items(self, items: list[Item]) -> None:
        """Called in the main process before a chunk is submitted."""

    def map_ordered(self, chunks: Iterable[list[Any]], args: tuple,
                    fn: Any = answer_chunk) -> Iterator[tuple]:
        """``(chunk, fn(chunk, *args, threads=1))`` for every chunk, in order; ``fn`` must
        be a module-level function (it is pickled to the workers)."""
        window = 3 * self.workers
        pending: dict[Any, int] = {}
        ready: dict[int, tuple] = {}
        queued: dict[int, list[Item]] = {}
        it = iter(chunks)
        seq = nxt = 0
        exhausted = False
        while True:
            while not exhausted and len(pending) + len(ready) < window:
                items = next(it, None)
                if items is None:
                    exhausted = True
                    break
                if fn is answer_chunk:
                    self.on_items(items)
                pending[self.submit(fn, items, args)] = seq
                queued[seq] = items
                seq += 1
            if not pending and not ready:
                return
            if pending:
                for fut in self.wait_some(pending):
                    ready[pending.pop(fut)] = fut.result()
            while nxt in ready:
                yield queued.pop(nxt), ready.pop(nxt)
                nxt += 1


def _kind_of(req: Any, defaults: dict[str, Any]) -> str:
    """Which warm-up a line needs (see :func:`simulate.batch.chunks.warm`); a guess is fine."""
    if not isinstance(req, dict):
        return "fast"
    kind = req.get("kind") or defaults.get("kind") or "equity"
    if kind in ("range", "allin"):
        return str(kind)
    game = req.get("game") or defaults.get("game") or "holdem"
    if isinstance(game, str) and game.lower().startswith("omaha"):
        return "omaha"
    hands = req.get("hands")
    if isinstance(hands, str):
        hands = hands.split()
    if not isinstance(hands, list) or req.get("std_error") is not None:
        return "equity"
    from .chunks import _cards

    try:
        return "fast" if all(isinstance(h, str) and len(_cards(h)) == 2 for h in hands) \
            else "equity"
    except ValueError:
        return "equity"


class _Processes(_Windowed):
    """Forked worker processes (one Numba thread each)."""

    def __init__(self, workers: int, defaults: dict[str, Any], close_fd: int = -1) -> None:
        import multiprocessing as mp

        self.workers, self.defaults = workers, defaults
        warm(("fast",))  # serial kernels only: no thread pool exists when we fork
        self.warmed = {"fast"}
        # Forking a process whose Numba thread pool (OpenMP) has started is unsafe: then
        # (a notebook that ran parallel kernels first) the workers start fresh instead.
        method = "spawn" if _numba_threads_started() else "fork"
        self.ex = cf.ProcessPoolExecutor(workers, mp_context=mp.get_context(method),
                                         initializer=_worker_init, initargs=(close_fd,))
        self.ex.submit(int).result()  # start every worker now, before any other warm-up

    def on_items(self, items: list[Item]) -> None:
        need = {_kind_of(it[2], self.defaults) for it in items if it[2] is not None}
        if need - self.warmed:
            warm(tuple(sorted(need - self.warmed)))
            self.warmed |= need

    def submit(self, fn: Any, items: list[Any], args: tuple) -> cf.Future:
        return self.ex.submit(fn, items, *args, threads=1)

    def wait_some(self, pending: dict[Any, int]) -> list[Any]:
        done, _ = cf.wait(list(pending), return_when=cf.FIRST_COMPLETED)
        return list(done)

    def close(self, abort: bool = False) -> None:
        """Stop the workers: after the last chunk, or at once (``abort``: Ctrl-C, an error),
        without waiting for the chunks they are on."""
        if abort:
            for proc in list(getattr(self.ex, "_processes", {}).values()):
                proc.terminate()
        self.ex.shutdown(wait=not abort, cancel_futures=True)


def _worker_init(close_fd: int) -> None:
    """In a worker: drop the inherited handle on the output file (so that its lock goes
    with the main process), and die with the main process (Linux), so that a killed run
    leaves no workers behind."""
    import os
    import signal

    if close_fd >= 0:
        try:
            os.close(close_fd)
        except OSError:
            pass
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


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


class _Dask(_Windowed):
    """Chunks as Dask tasks (needs ``pip install 'pokerjit[distributed]'``)."""

    def __init__(self, spec: str, workers: int, defaults: dict[str, Any]) -> None:
        how, n = parse_scheduler(spec)
        try:
            import logging

            from distributed import Client, LocalCluster, as_completed
        except ImportError:
            raise ValueError("--scheduler needs Dask: pip install 'pokerjit[distributed]'"
                             ) from None
        self.defaults = defaults
        self.cluster = None
        if how == "local":
            warm(("fast",))  # fill the kernel cache once; the workers then load it
            self.cluster = LocalCluster(n_workers=n or workers, threads_per_worker=1,
                                        processes=True, dashboard_address=None,
                                        silence_logs=logging.ERROR)
            self.client = Client(self.cluster)
        else:
            try:
                self.client = Client(spec, timeout=30)
            except OSError as e:
                raise ValueError(f"--scheduler {spec}: cannot reach the scheduler ({e})"
                                 ) from None
        self.workers = max(1, len(self.client.scheduler_info().get("workers", {})))
        self.client.run(warm, ("fast",))
        self.warmed = {"fast"}
        self.ac = as_completed()

    def on_items(self, items: list[Item]) -> None:
        need = {_kind_of(it[2], self.defaults) for it in items if it[2] is not None}
        if need - self.warmed:
            new = tuple(sorted(need - self.warmed))
            if self.cluster is not None:
                warm(new)  # compile here once; local workers load from the cache
            self.client.run(warm, new)
            self.warmed |= need

    def submit(self, fn: Any, items: list[Any], args: tuple) -> Any:
        fut = self.client.submit(fn, items, *args, threads=1, pure=False)
        self.ac.add(fut)
        return fut

    def wait_some(self, pending: dict[Any, int]) -> list[Any]:
        done = [next(self.ac)]
        done += [f for f in self.ac.next_batch(block=False)] if self.ac.count() else []
        return [f for f in done if f in pending]

    def close(self, abort: bool = False) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _backend(workers: int, scheduler: str | None, threads: int | None,
             defaults: dict[str, Any], close_fd: int = -1) -> Any:
    if scheduler:
        return _Dask(scheduler, workers, defaults)
    if workers > 1:
        return _Processes(workers, defaults, close_fd)
    return _Local(threads)


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
    if d:  # the same checks as a line's fields
        probe = {"id": 0, "kind": d.get("kind"), "players" if d.get("kind") == "allin"
                 else "hands": ["AhKh", "QsQd"]}
        try:
            effective(probe, d)
        except BadRequest as e:
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
    with Output(out_path) as out, progress(n_lines, "batch", "lines", quiet=quiet,
                                           stream=progress_stream) as bar:
        backend = _backend(workers, scheduler, threads, d, out.fd)
        try:
            chunk = chunk_lines or _chunk_size(n_lines, backend.workers)
            items = _items(read_requests(in_path), out, d, summary, bar, str(out_path))
            for done, (lines, errors) in backend.map_ordered(_chunked(items, chunk),
                                                             (d, out.fmt)):
                out.write(lines)
                summary.done += len(done)
                summary.errors += errors
                bar.update(len(done))
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


def _chunked(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    buf: list[Item] = []
    for it in items:
        buf.append(it)
        if len(buf) >= size:
            yield buf
            buf = []
    if buf:
        yield buf


def _items(lines: Iterable[tuple[int, Any, str | None]], out: Output, defaults: dict[str, Any],
           summary: BatchSummary, bar: Any, out_name: str) -> Iterator[Item]:
    """The input lines still to answer, with the answers known up front (unreadable lines,
    duplicate ids, changed requests); counts the rest as skipped."""
    resume = out.resume
    seen: dict[str, int] = {}

    def skip() -> None:
        summary.skipped += 1
        bar.update(1)

    for lineno, req, err in lines:
        summary.total += 1
        rid = None
        if err is None:
            try:
                rid, _ = check_id(req)
                key = out.key_of(rid)
                assert key is not None
            except BadRequest as e:
                err = str(e)
                rid = None
        if err is not None:
            if lineno in resume.lines:
                skip()
            else:
                yield lineno, None, None, {"error": err}
            continue
        if key in seen:
            if lineno in resume.lines:
                skip()
            else:
                yield lineno, rid, None, {"error": f"duplicate id {rid!r} (first on line "
                                                   f"{seen[key]})", "refused": "duplicate"}
            continue
        seen[key] = lineno
        if key in resume.answered:
            try:
                dg = digest(effective(req, defaults))
            except BadRequest:
                dg = None
            if (key, dg) in resume.acknowledged:
                skip()
                continue
            first = resume.answered[key][0]
            yield lineno, rid, None, {
                "digest": dg,
                "error": f"request {rid!r} changed since it was answered (line {first} of the "
                         f"input, in {out_name}); give it a new id or write to another output",
                "refused": "changed"}
            continue
        yield lineno, rid, req, None


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
    backend = _backend(workers, scheduler, threads, d)

    def items() -> Iterator[Item]:
        seen: dict[str, int] = {}
        for n, req in enumerate(requests, 1):
            try:
                rid, key = check_id(req)
            except BadRequest as e:
                yield n, None, None, {"error": str(e)}
                continue
            if key in seen:
                yield n, rid, None, {"error": f"duplicate id {rid!r} (first on line "
                                              f"{seen[key]})", "refused": "duplicate"}
                continue
            seen[key] = n
            yield n, rid, req, None

    try:
        size = chunk_lines if backend.workers == 1 else max(1, chunk_lines // 4)
        for _, (recs, _) in backend.map_ordered(_chunked(items(), size), (d, "dict")):
            yield from recs
    except BaseException:
        backend.close(abort=True)
        raise
    backend.close()

