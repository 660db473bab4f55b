"""One sampling layer for every Monte Carlo engine (Hold'em hands, ranges, Omaha, all-ins).

* :class:`Sampling` -- the options of a run (``exact``, ``samples``, ``target_std_error``,
  ``seed``, ``threads``), checked in one place (:meth:`Sampling.validate`) for the API, the
  command line and batch, against one set of limits (the constants below).
* The block plan: a run of ``cap`` deals is cut into blocks of :data:`BLOCK` deals (the last
  one shorter); block ``b`` deals from its own random stream ``stream_state(seed, b)``
  (:mod:`simulate._kernels.rng`) and kernels add integer counts, so a seed gives the same bits
  on any thread count and however the blocks are grouped into calls.
* The round planner (:func:`run_blocks`): with ``target_std_error`` the run stops at the first
  checkpoint where every standard error is at most the target, or at ``cap`` deals, whichever
  comes first. Checkpoints depend only on the counts so far, never on timing. Between
  checkpoints the blocks run in rounds of about :data:`ROUND_S` seconds, so Ctrl-C stops a run
  within about a second and long runs report progress (:mod:`simulate.progress`).

Standard errors everywhere come from :func:`simulate.results.std_error_of_mean` (sample
variance; unknown below two draws, ``null`` in JSON).
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from evaluator._jit import work_clock
from simulate.progress import progress_on, report_progress  # noqa: F401 - re-exported

if TYPE_CHECKING:
    import numpy as np

#: Deals per block of every Monte Carlo kernel (fixed: the same seed, the same answer).
BLOCK = 16_384
#: Deals drawn when neither ``samples`` nor ``target_std_error`` is given (at most: see
#: :data:`DEFAULT_BUDGET_S`).
DEFAULT_SAMPLES = 1_000_000
#: With neither ``samples`` nor ``target_std_error`` given, a run also stops, at a block
#: boundary, once it has spent this many seconds sampling (compiling excluded), so that a
#: default request on a slow engine answers in seconds; :func:`default_choices` says which
#: limit stopped it. A run that stops on time depends on the machine's speed: give
#: ``samples`` (the deals it reported) with the same seed to draw the same deals again.
DEFAULT_BUDGET_S = 3.0
#: The most deals one request may ask for. Kernels count pot shares in units of 1/2520 and
#: their squares in int64, which stays exact up to about 1.45e12 deals.
MAX_SAMPLES = 10**12
#: Where a ``target_std_error`` run without ``samples`` stops if the target is not reached
#: (whichever comes first); give ``samples`` too to allow more.
TARGET_CAP = 2_000_000_000
#: The smallest ``target_std_error``: far below needs more deals than any run can draw.
MIN_STD_ERROR = 1e-9
#: A share of the pot lies in [0, 1], so its standard error is below 0.5: a
#: ``target_std_error`` in pot fractions must be below this.
MAX_SHARE_STD_ERROR = 0.5
#: The most threads one may ask for (more than there are is run on all there are).
MAX_THREADS = 1024
#: Seeds are integers with 0 <= seed < 2**64.
SEED_LIMIT = 2**64
#: A target-std-error run checks its standard errors first after this many blocks.
FIRST_CHECK_BLOCKS = 4
#: Seconds of work per round between checks for Ctrl-C and progress updates.
ROUND_S = 0.25
#: Show progress when the work left is expected to take longer than this (seconds).
PROGRESS_AFTER_S = 2.0
#: An exact walk expected to take longer than this (seconds) is refused even with
#: ``exact=True``: sample instead.
MAX_WALK_S = 3600.0

#: Option names as the API spells them; the command line and batch pass their own.
API_NAMES = {"exact": "exact", "exact_true": "exact=True", "samples": "samples",
             "target_std_error": "target_std_error", "seed": "seed", "threads": "threads"}
CLI_NAMES = {"exact": "--exact", "exact_true": "--exact", "samples": "--samples",
             "target_std_error": "--std-error", "seed": "--seed", "threads": "--threads"}
BATCH_NAMES = {"exact": "exact", "exact_true": '"exact": true', "samples": "samples",
               "target_std_error": "std_error", "seed": "seed", "threads": "threads"}

#: What a standard error is measured in, by engine (for messages and help texts).
POT_FRACTION = "a fraction of the pot: 0.001 is 0.1%"
CHIPS = "chips"


def _numpy_types(*names: str) -> tuple[type, ...]:
    """numpy's scalar types ``names``, or none when numpy is not loaded (then no value can
    be one: the command line checks its options without importing numpy)."""
    np_ = sys.modules.get("numpy")
    return tuple(getattr(np_, n) for n in names) if np_ is not None else ()


def _is_int(x: object) -> bool:
    return isinstance(x, (int, *_numpy_types("integer"))) and not isinstance(
        x, (bool, *_numpy_types("bool_")))


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float, *_numpy_types("integer", "floating"))) and not isinstance(
        x, (bool, *_numpy_types("bool_")))


def _whole(value: object, name: str, what: str) -> int:
    """``value`` (the option ``name``) as an ``int``; a ValueError saying it must be a whole
    number ``what`` otherwise."""
    if not _is_int(value):
        raise ValueError(f"{name} must be a whole number {what}, got {value!r}")
    return int(value)  # type: ignore[call-overload]


def _count(value: object, name: str, unit: str, most: int, most_text: str) -> int:
    """``value`` (the option ``name``, counted in ``unit``) as an ``int`` in 1..``most``; a
    ValueError naming the option otherwise (``most_text``: the upper bound, in words)."""
    from .games import number_text

    n = _whole(value, name, f"of {unit}")
    if n < 1:
        raise ValueError(f"{name} must be positive ({unit}), got {number_text(n)}")
    if n > most:
        raise ValueError(f"{name} must be at most {most_text}, got {number_text(n)}")
    return n


@dataclass(frozen=True)
class Sampling:
    """How to run a request: exact walk or Monte Carlo, and with what.

    ``exact``: True walks every deal, False samples, None lets the engine choose (exact when
    quick, unless ``samples`` or ``target_std_error`` is given). ``samples``: deals to draw
    (default: :data:`DEFAULT_SAMPLES`, or fewer if :data:`DEFAULT_BUDGET_S` runs out first).
    ``target_std_error``: sample until every player's
    standard error is at most this (with ``samples`` too: whichever comes first; alone: at
    most :data:`TARGET_CAP` deals). ``seed``: 0 <= seed < 2**64, None draws a fresh one.
    ``threads``: Numba threads, None for all.
    """

    exact: bool | None = None
    samples: int | None = None
    target_std_error: float | None = None
    seed: int | None = None
    threads: int | None = None

    def validate(self, names: dict[str, str] | None = None,
                 unit: str = POT_FRACTION) -> Sampling:
        """A checked copy (plain Python numbers); raises ValueError naming the bad option.

        ``names``: how the caller spells the options (:data:`API_NAMES`, :data:`CLI_NAMES`,
        :data:`BATCH_NAMES`); ``unit``: what the standard error is measured in.
        """
        nm = names or API_NAMES
        exact, samples, target = self.exact, self.samples, self.target_std_error
        seed, threads = self.seed, self.threads
        if exact is not None and not isinstance(exact, (bool, *_numpy_types("bool_"))):
            raise ValueError(f"{nm['exact']} must be true, false or null/None, got {exact!r}")
        if samples is not None:
            samples = _count(samples, nm["samples"], "deals", MAX_SAMPLES,
                             f"{MAX_SAMPLES:.0e} deals (more than the counters can hold)")
        if target is not None:
            if not _is_number(target):
                raise ValueError(f"{nm['target_std_error']} must be a number ({unit}), "
                                 f"got {target!r}")
            target = float(target)
            if not math.isfinite(target) or target <= 0:
                raise ValueError(f"{nm['target_std_error']} must be positive and finite "
                                 f"({unit}), got {target!r}")
            if target < MIN_STD_ERROR:
                raise ValueError(f"{nm['target_std_error']} must be at least "
                                 f"{MIN_STD_ERROR:g} ({unit}; smaller needs more deals than "
                                 f"a run can draw), got {target:g}")
            if unit == POT_FRACTION and target >= MAX_SHARE_STD_ERROR:
                raise ValueError(f"{nm['target_std_error']} must be below "
                                 f"{MAX_SHARE_STD_ERROR:g} ({unit}; the standard error of a "
                                 f"share of the pot is below 0.5), got {target:g}")
        if seed is not None:
            seed = _whole(seed, nm["seed"], "with 0 <= seed < 2**64")
            if not 0 <= seed < SEED_LIMIT:
                raise ValueError(f"{nm['seed']} must be at least 0 and below 2**64, got {seed}")
        if threads is not None:
            threads = _count(threads, nm["threads"], "threads", MAX_THREADS,
                             f"{MAX_THREADS} threads")
        if exact and (samples is not None or target is not None):
            raise ValueError(f"{nm['exact_true']} cannot be combined with {nm['samples']} or "
                             f"{nm['target_std_error']}")
        return Sampling(None if exact is None else bool(exact), samples, target, seed, threads)

    @property
    def wants_sampling(self) -> bool:
        """True when the caller asked for Monte Carlo (``exact=False``, ``samples`` or a
        target)."""
        return (self.exact is False or self.samples is not None
                or self.target_std_error is not None)

    @property
    def cap(self) -> int:
        """The most deals this run may draw: ``samples``, else :data:`TARGET_CAP` with a
        target, else :data:`DEFAULT_SAMPLES`."""
        if self.samples is not None:
            return self.samples
        return TARGET_CAP if self.target_std_error is not None else DEFAULT_SAMPLES

    def resolved_seed(self) -> int:
        """The seed to use: ``seed``, or a fresh random one (report it with the result)."""
        return resolve_seed(self.seed)

    def n_threads(self) -> int:
        """The thread count to run on (all there are for None)."""
        from evaluator._jit import resolve_threads

        return resolve_threads(self.threads)

    def kwargs(self) -> dict[str, Any]:
        """The options as keyword arguments of :func:`simulate.equity` and friends."""
        return {"exact": self.exact, "samples": self.samples,
                "target_std_error": self.target_std_error, "seed": self.seed,
                "threads": self.threads}


def sampling(exact: bool | None = None, samples: int | None = None,
             target_std_error: float | None = None, seed: int | None = None,
             threads: int | None = None, *, unit: str = POT_FRACTION) -> Sampling:
    """:class:`Sampling` from the API's keyword arguments, validated."""
    return Sampling(exact, samples, target_std_error, seed, threads).validate(API_NAMES, unit)


def resolve_seed(seed: int | None) -> int:
    """``seed`` itself (checked: 0 <= seed < 2**64) or a fresh random one."""
    if type(seed) is int and 0 <= seed < SEED_LIMIT:
        return seed  # the common case, without building a Sampling
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    return Sampling(seed=seed).validate().seed  # type: ignore[return-value]


# ----------------------------------------------------------------------------- block plan
def n_blocks(cap: int) -> int:
    """Blocks in a run of ``cap`` deals."""
    return -(-cap // BLOCK)


def deals_in(blocks: int, cap: int) -> int:
    """Deals covered by the first ``blocks`` blocks of a run of ``cap`` deals."""
    return min(cap, blocks * BLOCK)


def next_check(n: int, worst: float, target: float, done: int, last: int) -> int:
    """The block count of the next standard-error check: enough deals for the worst error
    ``worst`` (after ``n`` deals, ``done`` blocks) to reach ``target``, plus 5%, at least one
    block more and at most ``last``. Depends only on the counts, so a seed stops at the same
    deal on any thread count."""
    if not math.isfinite(worst):  # unknown error (fewer than two deals): double
        return min(last, max(done + 1, 2 * done))
    need = n * (worst / target) ** 2 * 1.05
    need_blocks = math.ceil(min(need, float(last) * BLOCK) / BLOCK)
    return min(last, max(done + 1, need_blocks))


def switched_note(extra: dict[str, object]) -> str:
    """For result texts: why a request the engine chose to sample was not walked exactly
    (``extra["exact_estimate_s"]``, set when the walk looked too long), else ``""``."""
    est = extra.get("exact_estimate_s")
    if not isinstance(est, (int, float)):
        return ""
    when = (f"{est:.1f} s" if est < 10 else f"{est:,.0f} s" if est < 7200
            else f"{est / 3600:,.0f} hours" if est < 48 * 3600 else f"{est / 86400:,.0f} days")
    if est > MAX_WALK_S:
        return f" (the exact walk would take about {when}, too long to walk)"
    return f" (the exact walk would take about {when}: --exact to insist)"


# ----------------------------------------------------------------------------- rounds
def check_walk(estimate_s: float, threads: int) -> None:
    """Refuse (ValueError) an exact walk expected to take longer than :data:`MAX_WALK_S`."""
    if estimate_s > MAX_WALK_S:
        hours = estimate_s / 3600
        size = f"{hours:,.0f} hours" if hours < 48 else f"{hours / 24:,.0f} days"
        raise ValueError(f"the exact walk would take about {size} on {threads} "
                         f"thread{'s' if threads != 1 else ''}, over the "
                         f"{MAX_WALK_S / 3600:g}-hour limit for exact walks: sample instead")


def walk_parts(estimate_s: float, n_items: int, least: int = 1) -> int:
    """Into how many calls to cut an exact walk of ``n_items`` (boards, heads...) expected to
    take ``estimate_s`` seconds, so each takes about :data:`ROUND_S` (at least ``least``
    parts, at most one item each)."""
    want = math.ceil(estimate_s / ROUND_S) if math.isfinite(estimate_s) else n_items
    return max(1, min(n_items, max(least, want)))


@contextlib.contextmanager
def walk_progress(estimate_s: float, desc: str = "exact walk",
                  unit: str = "parts") -> Iterator[Callable[[int, int], None] | None]:
    """A ``report(done, total)`` callback for an exact walk expected to take ``estimate_s``
    seconds, or None when it is quick (one call). The walk runs in parts and calls it
    between them: Python gets control back (Ctrl-C works), and a bar or plain lines show on
    stderr when :func:`report_progress` is on and the walk is long."""
    if estimate_s < ROUND_S:
        yield None
        return
    with contextlib.ExitStack() as stack:
        bar: Any = None

        def report(done: int, total: int) -> None:
            nonlocal bar
            if bar is None:
                if not progress_on() or estimate_s < PROGRESS_AFTER_S:
                    return
                from .progress import progress

                bar = stack.enter_context(progress(total, desc, unit))
            bar.update(done - bar.done)

        yield report


_CHOICES: contextvars.ContextVar[list[dict[str, Any]] | None] = contextvars.ContextVar(
    "pokerjit_default_choices", default=None)


@contextlib.contextmanager
def default_choices() -> Iterator[list[dict[str, Any]]]:
    """Within this block every Monte Carlo run that took the default size (neither
    ``samples`` nor ``target_std_error``) appends ``{"deals", "cap", "budget_s",
    "stopped_by"}`` to the list yielded: ``stopped_by`` is ``"cap"`` (all
    :data:`DEFAULT_SAMPLES` deals) or ``"time"`` (:data:`DEFAULT_BUDGET_S` spent first).
    The command line and batch report it with the answer."""
    out: list[dict[str, Any]] = []
    token = _CHOICES.set(out)
    try:
        yield out
    finally:
        _CHOICES.reset(token)


class Rounds:
    """Runs block ranges in rounds of about :data:`ROUND_S` seconds.

    ``run(lo, hi)`` adds blocks ``lo..hi-1`` to the caller's accumulators (any grouping of
    blocks gives the same counts). Between rounds Python gets control back, so Ctrl-C raises
    KeyboardInterrupt within about a round, and progress is shown once the work left looks
    longer than :data:`PROGRESS_AFTER_S` (when :func:`report_progress` is on).
    ``min_round``: the fewest blocks worth one call (e.g. the thread count).
    """

    def __init__(self, run: Callable[[int, int], None], *, min_round: int = 1,
                 desc: str = "Monte Carlo", unit: str = "deals", cap: int | None = None
                 ) -> None:
        self._run = run
        self._min = max(1, int(min_round))
        self._size = self._min
        self._desc, self._unit = desc, unit
        self._cap = cap  # deals in the whole run (progress counts deals, not blocks)
        self._bar: Any = None
        self._stack = contextlib.ExitStack()

    def __enter__(self) -> Rounds:
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def run(self, lo: int, hi: int, total_blocks: int | None = None,
            budget_s: float | None = None) -> int:
        """Blocks ``lo..hi-1``; ``total_blocks``: the whole run's blocks, when known, for
        the progress bar; ``budget_s``: stop after the round that brings the seconds of
        work (compiling excluded) to this. Returns the block reached."""
        b = lo
        spent = 0.0
        while b < hi and (budget_s is None or spent < budget_s):
            step = min(self._size, hi - b)
            t0 = work_clock()  # a first round's compile is not the blocks' speed
            self._run(b, b + step)
            dt = work_clock() - t0
            spent += dt
            b += step
            per_block = dt / step
            if per_block > 0:
                self._size = max(self._min, int(ROUND_S / per_block))
            self._progress(b, step, per_block * ((total_blocks or hi) - b), total_blocks)
        return b

    def _progress(self, done: int, step: int, left_s: float, total: int | None) -> None:
        if self._bar is None:
            if not progress_on() or left_s < PROGRESS_AFTER_S:
                return
            from .progress import progress

            self._bar = self._stack.enter_context(progress(
                None if total is None else self._deals(total), self._desc, self._unit))
        self._bar.update(self._deals(done) - self._bar.done)

    def _deals(self, blocks: int) -> int:
        return blocks * BLOCK if self._cap is None else deals_in(blocks, self._cap)


def run_blocks(opts: Sampling, run: Callable[[int, int], None],
               std_errors: Callable[[int], np.ndarray], *, min_round: int = 1,
               desc: str = "Monte Carlo") -> int:
    """Run a Monte Carlo request by the block plan and round planner; returns the deals drawn.

    ``run(lo, hi)`` adds blocks ``lo..hi-1`` of a run of ``opts.cap`` deals to the caller's
    integer accumulators (block ``b`` has ``min(BLOCK, cap - b * BLOCK)`` deals).
    ``std_errors(n)`` gives every player's standard error after ``n`` deals (only called
    with a target).
    """
    cap = opts.cap
    last = n_blocks(cap)
    target = opts.target_std_error
    with Rounds(run, min_round=min_round, desc=desc, cap=cap) as rounds:
        if target is None:
            if opts.samples is not None:
                rounds.run(0, last, last)
                return cap
            n = deals_in(rounds.run(0, last, last, DEFAULT_BUDGET_S), cap)  # the default
            choices = _CHOICES.get()
            if choices is not None:
                choices.append({"deals": n, "cap": cap, "budget_s": DEFAULT_BUDGET_S,
                                "stopped_by": "cap" if n >= cap else "time"})
            return n
        import numpy as np

        done, check = 0, min(FIRST_CHECK_BLOCKS, last)
        while True:
            rounds.run(done, check)
            done = check
            n = deals_in(done, cap)
            worst = float(np.max(std_errors(n)))
            if worst <= target or done >= last:
                return n
            check = next_check(n, worst, target, done, last)
