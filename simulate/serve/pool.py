"""The server's worker processes: each warmed at start, one request at a time, cancellable.

A request runs in a worker process (:func:`simulate.serve.documents.document`), never in the
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
    from simulate.serve.documents import BAD_INPUT, document

    if warm:
        from simulate.serve.documents import warm as warm_kernels

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
    """The request was stopped (its client went away, the time limit passed, or the server
    is stopping); ``reason`` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


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
        self.closed = False

    @property
    def started(self) -> bool:
        return self._idle is not None

    async def _spawn(self, report: bool) -> _Worker:
        w = _Worker(self._ctx, self._warm, report)
        loop = asyncio.get_running_loop()
        status, _ = await loop.run_in_executor(self._threads, w.conn.recv)
        if status != "ready":
            raise RuntimeError("a worker process did not start")
        self._workers.append(w)
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
        """Answer one request on an idle worker: ``("ok", document)``, ``("bad", message)``
        or ``("internal", message)``. Raises :class:`Stopped` when the request ran past
        ``timeout`` seconds (``"time"``) or ``await gone()`` turned true (``"gone"``, checked
        every ``poll_s``); the worker is interrupted and goes back to the queue either way."""
        assert self._idle is not None, "Pool.start() first"
        w: _Worker | None = await self._idle.get()
        loop = asyncio.get_running_loop()
        number = next(self._numbers)
        reply_f = None
        try:
            w.conn.send((number, kind, body))
            reply_f = w.reply(loop)
            deadline = loop.time() + timeout
            why = None
            while why is None:
                left = deadline - loop.time()
                if left <= 0:
                    why = "time"
                    break
                done, _ = await asyncio.wait({reply_f}, timeout=min(poll_s, left))
                if done:
                    got, status, payload = reply_f.result()
                    assert got == number
                    return status, payload
                if gone is not None and await gone():
                    why = "gone"
            w = await self._stop(w, number, reply_f)
            reply_f = None
            raise Stopped(why)
        except asyncio.CancelledError:  # the server is stopping: stop this worker now
            w.cancel.value = number
            w.kill()
            if w in self._workers:
                self._workers.remove(w)
            w = None
            raise
        except (EOFError, OSError):  # the worker died: replace it
            w.kill()
            self._workers.remove(w)
            w = await self._spawn(False)
            return "internal", "a worker process stopped; the request was not answered"
        finally:
            if w is not None and not self.closed:
                self._idle.put_nowait(w)

    async def _stop(self, w: _Worker, number: int, reply_f: Any) -> _Worker:
        """Interrupt ``w`` on request ``number`` and wait for its reply (or replace it)."""
        w.cancel.value = number
        try:
            os.kill(w.proc.pid, signal.SIGINT)
        except ProcessLookupError:
            pass
        try:
            await asyncio.wait_for(asyncio.shield(reply_f), GRACE_S)
            return w
        except (asyncio.TimeoutError, EOFError, OSError):
            w.kill()
            if w in self._workers:
                self._workers.remove(w)
            if self.closed:
                return w
            return await self._spawn(False)

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
