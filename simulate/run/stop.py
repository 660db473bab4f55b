"""Stopping a run: Ctrl-C, SIGTERM and SIGHUP take one road.

Python turns Ctrl-C (SIGINT) into :class:`KeyboardInterrupt`, which long work notices
between rounds (:class:`simulate.sampling.Rounds`) and which the pool and ``batch`` answer
by keeping what is finished (:class:`simulate.run.ChunkInterrupted`). SIGTERM (``kill``,
``timeout``, a service manager) and SIGHUP (a closed terminal) would end the process at
once instead, losing what was answered but not yet written, and leaving a file half
written. Within :func:`stop_on_signals` they raise :class:`Stopped`, a KeyboardInterrupt,
so every ``except KeyboardInterrupt`` and ``finally`` that handles Ctrl-C handles them
too; the command line then prints one ``error:`` line and exits with ``128 + signal``
(130, 143, 129), as a shell reports a process the signal ended.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

#: The signals that stop a run, besides SIGINT (which Python already raises as an exception).
STOP_SIGNALS = tuple(getattr(signal, s) for s in ("SIGTERM", "SIGHUP") if hasattr(signal, s))

_NAMES = {signal.SIGINT: "Ctrl-C (SIGINT)"}


class Stopped(KeyboardInterrupt):
    """A run stopped by a signal: ``signum`` (SIGINT for Ctrl-C); ``str()`` is the one line
    to print (empty: only the signal is known, :attr:`line` says that)."""

    def __init__(self, signum: int = signal.SIGINT, message: str = "") -> None:
        super().__init__(message)
        self.signum = int(signum)

    @property
    def status(self) -> int:
        """The exit status a shell gives a process this signal ended: ``128 + signum``."""
        return 128 + self.signum

    @property
    def signal_name(self) -> str:
        return _NAMES.get(self.signum) or signal.Signals(self.signum).name

    @property
    def line(self) -> str:
        """What to print after ``error:``."""
        return str(self) or ("interrupted" if self.signum == signal.SIGINT
                             else f"stopped by {self.signal_name}")


def stopped(exc: BaseException | None = None) -> Stopped:
    """``exc`` as a :class:`Stopped` (a plain KeyboardInterrupt is Ctrl-C)."""
    if isinstance(exc, Stopped):
        return exc
    return Stopped(getattr(exc, "signum", signal.SIGINT))


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """While the block runs, SIGTERM and SIGHUP raise :class:`Stopped` in the main thread
    (instead of ending the process at once), so that the run stops as on Ctrl-C: what is
    finished is kept, temporary files are removed. Once one has come, later ones are
    ignored until the block ends (the first stop's cleanup is not cut short: a second
    ``kill`` cannot tear a line being written). The previous handlers come back
    afterwards. Elsewhere than the main thread, a no-op."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    state = {"stopping": False}

    def stop(signum: int, frame: Any) -> None:
        if state["stopping"]:
            return
        state["stopping"] = True
        raise Stopped(signum)

    old = {s: signal.signal(s, stop) for s in STOP_SIGNALS}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP back while the block runs (main thread only): one
    that comes is noted, and raised again to the handler it had once the block ends, so
    that a document written in one go is written whole and a database transaction ends in
    its commit or rollback. The handlers are swapped rather than the signals blocked: a
    signal blocked in this thread is taken by another (DuckDB's, a pool's) and its handler
    runs here all the same; and DuckDB turns an exception raised by a handler during a
    query into its own error ('Query interrupted'), the stop lost."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    got: list[int] = []

    def note(signum: int, frame: Any) -> None:
        got.append(signum)

    old = {s: signal.signal(s, note) for s in (signal.SIGINT, *STOP_SIGNALS)}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, signal.SIG_DFL if handler is None else handler)
        if got:
            signal.raise_signal(got[0])
