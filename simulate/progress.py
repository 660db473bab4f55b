"""One progress reporter for every long job (built on tqdm).

On a terminal it draws a bar (done/total, rate, time left); when stderr is not a
terminal (a log file, CI) it writes a plain line every few seconds instead, so logs
stay readable. Rates and times left leave out the seconds spent compiling or loading
kernels (:func:`evaluator._jit.work_clock`): a first run's compile is not the work's
speed. ``quiet=True`` silences it. Every command and library function that
reports progress uses :func:`progress`; kernels report through the ``update``
callback between rounds of work.

>>> with progress(total=1000, desc="boards", quiet=True) as bar:
...     bar.update(500)
...     bar.update(500)
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO

PLAIN_EVERY_S = 5.0  # seconds between plain progress lines when stderr is not a terminal


class Progress:
    """What :func:`progress` yields: call ``update(n)`` as work finishes."""

    def __init__(self, total: int | None, desc: str, unit: str, stream: IO[str] | None,
                 quiet: bool) -> None:
        from evaluator._jit import compile_seconds

        self.total, self.desc, self.unit, self.done = total, desc, unit, 0
        self.t0 = time.perf_counter()
        self._last = self.t0
        self._compile0 = self._compile = compile_seconds()[0]
        self._bar = None
        self._stream = None if quiet else (stream if stream is not None else sys.stderr)
        if self._stream is None:
            return
        if _is_tty(self._stream):
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc=desc, unit=unit, file=self._stream,
                             dynamic_ncols=True, leave=False, unit_scale=True)

    def update(self, n: int = 1) -> None:
        """Record ``n`` more units of finished work."""
        from evaluator._jit import compile_seconds

        self.done += n
        c = compile_seconds()[0]
        if c != self._compile and self._bar is not None:  # tqdm's clock: skip the compile
            self._bar.start_t += c - self._compile
        self._compile = c
        if self._bar is not None:
            self._bar.update(n)
        elif self._stream is not None:
            now = time.perf_counter()
            if now - self._last >= PLAIN_EVERY_S:
                self._last = now
                self._stream.write(self.line(now) + "\n")
                self._stream.flush()

    def note(self, text: str) -> None:
        """Show ``text`` as what is being done now (the bar's label, the plain line's
        prefix)."""
        self.desc = text
        if self._bar is not None:
            self._bar.set_description_str(text)

    def callback(self) -> Callable[[int, int], None]:
        """A ``report(done, total)`` function, the form the library's long walks call
        between rounds of work: it moves this reporter to ``done`` of ``total``."""

        def report(done: int, total: int) -> None:
            if total != self.total:
                self.total = total
                if self._bar is not None:
                    self._bar.total = total
                    self._bar.refresh()
            if done > self.done:
                self.update(done - self.done)

        return report

    def line(self, now: float | None = None) -> str:
        """The plain progress line: ``desc: done/total unit (pct), rate/s, ~left``."""
        now = time.perf_counter() if now is None else now
        dt = max(now - self.t0 - (self._compile - self._compile0), 1e-9)  # compile excluded
        rate = self.done / dt
        text = f"{self.desc}: {self.done:,}"
        if self.total:
            text += f"/{self.total:,} {self.unit} ({100 * self.done / self.total:.0f}%)"
        else:
            text += f" {self.unit}"
        text += f", {_rate(rate)} {self.unit}/s"
        if self.total and rate > 0:
            text += f", about {max(self.total - self.done, 0) / rate:,.0f} s left"
        return text

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def _rate(x: float) -> str:
    """A rate with the digits that matter: ``1,234``, ``12.3``, ``0.42``."""
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def _is_tty(stream: IO[str]) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


@contextmanager
def progress(total: int | None = None, desc: str = "", unit: str = "it", *,
             stream: IO[str] | None = None, quiet: bool = False) -> Iterator[Progress]:
    """A progress reporter for a ``with`` block (closed however the block ends)."""
    p = Progress(total, desc, unit, stream, quiet)
    try:
        yield p
    finally:
        p.close()


_PROGRESS: contextvars.ContextVar[bool] = contextvars.ContextVar("pokerjit_progress",
                                                                 default=False)


@contextlib.contextmanager
def report_progress(on: bool = True) -> Iterator[None]:
    """Within this block long runs report progress on stderr (the command line turns it on;
    library calls are silent by default)."""
    token = _PROGRESS.set(on)
    try:
        yield
    finally:
        _PROGRESS.reset(token)


def progress_on() -> bool:
    """Whether long runs report progress here (inside :func:`report_progress`)."""
    return _PROGRESS.get()
