"""The server's worker processes: each warmed at start, one request at a time, cancellable.

A request runs in a worker process (:func:`simulate.serve.handlers.document`), never in the
server's event loop, so a long Monte Carlo run never stalls other clients, and a request can
be stopped: the server sets that worker's cancel number to the request's number and sends it
SIGINT. The worker's handler raises KeyboardInterrupt only when the number is the request it
is running (a late signal for a finished request is ignored), and that interrupt lands where
Ctrl-C lands on the command line: between two rounds of work (about
:data:`simulate.sampling.ROUND_S` seconds each, Monte Carlo rounds and exact walk parts
alike). So a client that disconnects, or a request past the server's time limit, is stopped
at the next round and the worker takes the next request. A worker that does not answer the
interrupt within :data:`GRACE_S` (a kernel call longer than any round) is killed and
replaced.

Why not the batch executor (:func:`simulate.batch.executor`, the pool of chunked work):
a server needs what a chunk pool does not give — one request addressed to one known
worker, interrupted or replaced alone while the others go on, answered as soon as it is
done (no input order), from an asyncio event loop. The warm-up is the one registry's
(:func:`simulate.warmup.warm`).
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

GRACE_S = 5.0  # seconds a worker has to answer an interrupt before it is replaced
CLOSE_S = 0.3  # seconds idle workers have to exit when the pool closes

_running = 0  # (in a worker) the number of the request being worked on, 0 when idle
_cancel: Any = None  # (in a worker) the shared number of the request to stop


def _on_interrupt(signum: int, frame: Any) -> None:
    if _running and _cancel.value == _running:
        raise KeyboardInterrupt


def _worker(conn: Any, cancel: Any, warm: bool, report: bool) -> None:
    """A worker process: warm, say ready, then answer ``(number, kind, body)`` messages with
    ``(number, status, payload)``: ``ok`` and the document, ``bad`` and the one-line
    message, ``stopped``, or ``internal`` and a one-line description."""
    global _running, _cancel
    _cancel = cancel
    signal.signal(signal.SIGINT, _on_interrupt)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    from simulate.documents import error_line, start_load_clock
    from simulate.serve.handlers import BAD_INPUT, document

    if warm:
        from simulate.serve.handlers import warm as warm_kernels

        def say(name: str, seconds: float) -> None:
            if report:
                print(f"  warm: {name} ({seconds:.1f} s)", file=sys.stderr, flush=True)

        warm_kernels(say)
    conn.send(("ready", os.getpid()))
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if msg is None:
            return
        number, kind, body = msg
        try:
            try:
                start_load_clock()
                _running = number
                reply: tuple[str, Any] = ("ok", document(kind, body))
            finally:
                _running = 0
        except KeyboardInterrupt:
            reply = ("stopped", None)
        except BAD_INPUT as e:
            reply = ("bad", error_line(e))
        except RecursionError:
            reply = ("bad", "input nested too deeply")
        except MemoryError:
            reply = ("bad", "the request needs more memory than this server has")
        except Exception as e:  # noqa: BLE001 - one request must not stop the worker
            reply = ("internal", " ".join(f"{type(e).__name__}: {e}".split())[:300])
        try:
            conn.send((number, *reply))
        except (OSError, ValueError):  # a reply that cannot be sent: stop this worker
            return


class Stopped(Exception):
    """The request was not answered; ``reason`` says why: ``"time"`` (it ran past the time
    limit), ``"busy"`` (no worker came free before the time limit), ``"gone"`` (its client
    went away) or ``"stopping"`` (the server is stopping). ``waited``: the seconds it spent
    waiting for a free worker."""

    def __init__(self, reason: str, waited: float = 0.0) -> None:
        super().__init__(reason)
        self.reason, self.waited = reason, waited


class _Died(Exception):
    """The worker died before it answered (it has been replaced)."""


class _Worker:
    def __init__(self, ctx: Any, warm: bool, report: bool) -> None:
        self.cancel = ctx.Value("q", 0, lock=False)
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker, args=(child, self.cancel, warm, report),
                                daemon=True, name="pokerjit-serve-worker")
        self.proc.start()
        child.close()
        self._watched: asyncio.AbstractEventLoop | None = None  # the loop watching the pipe

    def reply(self, loop: asyncio.AbstractEventLoop) -> asyncio.Future[Any]:
        """A future of the next message from this worker, read in the event loop once the
        worker has started writing it (no thread in between: the answer of a quick request
        is a few KiB)."""
        fut: asyncio.Future[Any] = loop.create_future()

        def ready() -> None:
            self._unwatch()
            if fut.done():
                return
            try:
                fut.set_result(self.conn.recv())
            except (EOFError, OSError) as e:
                fut.set_exception(e)

        loop.add_reader(self.conn.fileno(), ready)
        self._watched = loop
        fut.add_done_callback(lambda _: self._unwatch())
        return fut

    def _unwatch(self) -> None:
        """Stop watching the pipe. Done before the pipe is closed: the next pipe opened gets
        the same descriptor number, and a registration left behind would stay attached to
        that number in the event loop, so the replacement's answers would never be read."""
        if self._watched is not None:
            self._watched.remove_reader(self.conn.fileno())
            self._watched = None

    def kill(self) -> None:
        self._unwatch()
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(1)
        self.conn.close()


class Pool:
    """``workers`` worker processes (spawned, so no thread state is forked) and the queue of
    idle ones. ``await start()`` before use; ``await run(kind, body, ...)`` answers one
    request; ``close()`` stops them all."""

    def __init__(self, workers: int, *, warm: bool = True, report: bool = False) -> None:
        self.size = max(1, int(workers))
        self._warm, self._report = warm, report
        self._ctx = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        self._idle: asyncio.Queue[_Worker] | None = None
        self._threads = ThreadPoolExecutor(max_workers=self.size + 1,
                                           thread_name_prefix="pokerjit-serve-pipe")
        self._numbers = itertools.count(1)
        self._tasks: set[asyncio.Future[None]] = set()  # replacements and interrupts running
        self.closed = False
        self.stopping = False

    @property
    def started(self) -> bool:
        return self._idle is not None

    async def _spawn(self, report: bool) -> _Worker:
        w = _Worker(self._ctx, self._warm, report)
        self._workers.append(w)  # listed at once, so that close() stops it while it warms
        loop = asyncio.get_running_loop()
        try:
            status, _ = await loop.run_in_executor(self._threads, w.conn.recv)
        except (EOFError, OSError):
            status = None
        if status != "ready":
            w.kill()
            if w in self._workers:
                self._workers.remove(w)
            raise RuntimeError("a worker process did not start")
        return w

    async def start(self) -> None:
        """Start the workers: the first alone (it compiles what the disk cache lacks, and
        reports its steps when ``report``), then the rest together (they load the cache)."""
        self._idle = asyncio.Queue()
        first = await self._spawn(self._report)
        rest = await asyncio.gather(*(self._spawn(False) for _ in range(self.size - 1)))
        for w in (first, *rest):
            self._idle.put_nowait(w)

    async def run(self, kind: str, body: Any, *, timeout: float,
                  gone: Callable[[], Awaitable[bool]] | None = None,
                  poll_s: float = 0.1) -> tuple[str, Any]:
        """Answer one request on the next idle worker: ``("ok", document)``, ``("bad",
        message)`` or ``("internal", message)``, within about ``timeout`` seconds of the call,
        the wait for a free worker included. Raises :class:`Stopped` when no worker came free
        in that time (``"busy"``), the request ran past it (``"time"``), ``await gone()``
        turned true (``"gone"``, checked every ``poll_s``) or the server is stopping
        (``"stopping"``); a stopped request's worker is interrupted in the background and goes
        back to the queue (or is replaced). A worker found dead (killed while idle, say) is
        replaced and the request asked again of the next idle one, once."""
        assert self._idle is not None, "Pool.start() first"
        loop = asyncio.get_running_loop()
        start = loop.time()
        deadline = start + timeout
        for attempt in (1, 2):
            w = await self._acquire(deadline, gone, poll_s, start)
            try:
                return await self._ask(w, kind, body, deadline, gone, poll_s, start)
            except _Died:
                if attempt == 2:
                    return "internal", "a worker process stopped; the request was not answered"
        raise AssertionError("unreachable")

    async def _acquire(self, deadline: float, gone: Callable[[], Awaitable[bool]] | None,
                       poll_s: float, start: float) -> _Worker:
        """The next idle worker (first come, first served), or :class:`Stopped` when none
        comes free before ``deadline`` (``"busy"``), the client goes, or the server stops."""
        assert self._idle is not None
        loop = asyncio.get_running_loop()
        get = asyncio.ensure_future(self._idle.get())
        try:
            while True:
                if self.stopping:
                    raise Stopped("stopping", loop.time() - start)
                left = deadline - loop.time()
                done, _ = await asyncio.wait({get}, timeout=max(0.0, min(poll_s, left)))
                if done:
                    w = get.result()
                    if not self.stopping and loop.time() < deadline:
                        return w
                    self._release(w)
                    raise Stopped("stopping" if self.stopping else "busy", loop.time() - start)
                if loop.time() >= deadline:
                    raise Stopped("busy", loop.time() - start)
                if gone is not None and await gone():
                    raise Stopped("gone", loop.time() - start)
        except BaseException:
            if not get.done():
                get.cancel()  # leaves the queue's next worker to the next waiter
            raise

    async def _ask(self, w: _Worker, kind: str, body: Any, deadline: float,
                   gone: Callable[[], Awaitable[bool]] | None, poll_s: float,
                   start: float) -> tuple[str, Any]:
        """Send the request to ``w`` and wait for its answer (see :meth:`run`)."""
        loop = asyncio.get_running_loop()
        number = next(self._numbers)
        try:
            w.conn.send((number, kind, body))
        except (OSError, ValueError):  # the worker died while idle
            self._replace(w)
            raise _Died from None
        reply_f = w.reply(loop)
        waited = loop.time() - start
        try:
            while True:
                left = deadline - loop.time()
                done, _ = await asyncio.wait({reply_f}, timeout=max(0.0, min(poll_s, left)))
                if done:
                    try:
                        got, status, payload = reply_f.result()
                    except (EOFError, OSError):  # the worker died on this request
                        self._replace(w)
                        raise _Died from None
                    assert got == number
                    self._release(w)
                    return status, payload
                if self.stopping:
                    why = "stopping"
                elif loop.time() >= deadline:
                    why = "time"
                elif gone is not None and await gone():
                    why = "gone"
                else:
                    continue
                break
        except asyncio.CancelledError:  # the server is stopping: stop this worker now
            w.cancel.value = number
            self._replace(w)
            raise
        self._background(self._stop(w, number, reply_f))
        raise Stopped(why, waited)

    def _release(self, w: _Worker) -> None:
        """``w`` is idle again: back to the queue (unless the pool is closed)."""
        if not self.closed and self._idle is not None:
            self._idle.put_nowait(w)

    def _replace(self, w: _Worker) -> None:
        """Kill ``w`` and start its replacement in the background (it joins the queue once
        ready), unless the server is stopping."""
        w.kill()
        if w in self._workers:
            self._workers.remove(w)
        if not (self.closed or self.stopping):
            self._background(self._respawn())

    async def _respawn(self) -> None:
        try:
            w = await self._spawn(False)
        except (RuntimeError, OSError, EOFError) as e:
            if not self.closed:
                print(f"pokerjit serve: a replacement worker did not start ({e})",
                      file=sys.stderr, flush=True)
            return
        self._release(w)

    def _background(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)  # a reference until done: the loop keeps only weak ones
        task.add_done_callback(self._tasks.discard)

    async def _stop(self, w: _Worker, number: int, reply_f: asyncio.Future[Any]) -> None:
        """Interrupt ``w`` on request ``number``; it goes back to the queue once it answers,
        and is replaced when it does not within :data:`GRACE_S` (or died)."""
        w.cancel.value = number
        try:
            os.kill(w.proc.pid, signal.SIGINT)
        except ProcessLookupError:
            pass
        loop = asyncio.get_running_loop()
        end = loop.time() + GRACE_S
        while not reply_f.done() and not self.stopping and loop.time() < end:
            await asyncio.wait({reply_f}, timeout=min(0.1, end - loop.time()))
        if reply_f.done() and not reply_f.cancelled() and reply_f.exception() is None:
            self._release(w)
        else:
            reply_f.cancel()
            self._replace(w)

    def stop_requests(self) -> None:
        """The server is stopping: requests waiting or running end with
        :class:`Stopped` ``("stopping")`` at their next poll, new ones at once."""
        self.stopping = True

    def close(self) -> None:
        """Stop every worker at once: idle ones are told to exit (up to
        :data:`CLOSE_S` seconds for all), busy and slow ones are killed. Safe to call twice."""
        self.closed = True
        for w in self._workers:
            try:
                w.conn.send(None)
            except (OSError, ValueError):
                pass
        deadline = time.monotonic() + CLOSE_S
        for w in self._workers:
            w.proc.join(max(0.0, deadline - time.monotonic()))
            w.kill()
        self._workers.clear()
        self._threads.shutdown(wait=False, cancel_futures=True)
