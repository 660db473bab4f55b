"""What a benchmark case is: :class:`Case` makes a :class:`Work` for a :class:`Config`.

The protocol is described in :mod:`simulate.bench`; :mod:`simulate.bench.cases` holds the one
list of cases and :mod:`simulate.bench.runner` runs them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class PeerWork:
    """One peer's version of a case's work.

    ``run() -> (seconds, work, answer)``: seconds of the peer call(s) alone (conversion to the
    peer's format is done beforehand), the units of work done, and an answer for ``check``.
    ``warm``: an optional first call on a tiny input (not timed). ``max_reps``: cap on timed
    repetitions (slow peers). ``check(answer) -> (ok, detail)``: is the peer's answer right?
    """

    peer: str
    path: str
    note: str
    run: Callable[[], tuple[float, int, Any]]
    check: Callable[[Any], tuple[bool, str]] | None = None
    warm: Callable[[], Any] | None = None
    max_reps: int | None = None


@dataclass
class Work:
    """A case made ready to run: see the module docstring for the protocol."""

    compile: Callable[[], Any]
    run: Callable[[], Any]
    work: int
    check: Callable[[Any], tuple[bool, str]]
    threads: int
    inner: int | None = None  # calls of ``run`` per timed repetition; None = calibrate
    max_repeat: int | None = None  # fewer repetitions for a slow case (quick mode)
    peers: list[PeerWork] = field(default_factory=list)
    detail: str = ""


@dataclass
class Config:
    """What the runner was asked for."""

    mode: str = "full"
    repeat: int = 5
    threads: int = 1  # "all threads" count
    peers: Any = None  # the benchmarks/peers package, or None
    progress: Callable[[str], None] | None = None
    min_rep_s: float = 0.1  # shortest timed repetition (short work is repeated within one)

    def size(self, full: int, quick: int, tiny: int) -> int:
        return {"full": full, "quick": quick, "tiny": tiny}[self.mode]


@dataclass(frozen=True)
class Case:
    """A benchmark case: ``make(cfg) -> Work``."""

    name: str
    title: str
    unit: str
    make: Callable[[Config], Work]


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    res = fn()
    return time.perf_counter() - t0, res
