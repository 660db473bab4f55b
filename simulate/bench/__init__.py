"""``pokerjit bench``: evaluator and equity speed on this machine, every answer checked.

Each case builds its inputs, then

1. **first call** -- the case's function on a tiny input, timed on its own: that is the JIT
   compile (or the load of Numba's on-disk cache when it is warm), reported as ``compile_s``;
2. **warm-up** -- one full-size run, untimed, under :mod:`tracemalloc` (peak of the Python and
   numpy allocations it made) with the process peak RSS reset just before it (Linux
   ``/proc/self/clear_refs``), so ``memory`` is the run's own peak; its answer is checked;
3. **timed repetitions** -- ``repeat`` runs, each answer checked again; with peers, every
   repetition of ours is followed by one of each peer on the same work (alternating, so a
   noisy neighbour hurts both sides alike).

Every case checks its own answer against a value that does not come from the code being
timed: pinned exact fractions (exact equities, computed once and cross-checked with OMPEval
and poker-equity), the known category counts of the exhaustive walks, a pure-Python scalar
evaluation of a sample of the batch, and "within 4 standard errors of the exact value" for
Monte Carlo. A failed check marks the case ``FAILED`` and :func:`run_bench` reports
``ok = False`` (the command exits 1).

Speed-ups against a peer are ``peer seconds / pokerjit seconds`` for the same work (computed
from rates where the work differs, e.g. a slow peer timed on fewer hands): **greater than 1
means pokerjit is faster**. The median and min..max of the per-repetition (paired) ratios are
reported.

The package: :mod:`~simulate.bench.answers` (pinned answers and the checks against them),
:mod:`~simulate.bench.cases` (the one list of cases, :data:`CASES`, also used by
``benchmarks/bench_cases.py`` and the tests), :mod:`~simulate.bench.work` (what a case
builds), :mod:`~simulate.bench.runner` (:func:`run_bench`), :mod:`~simulate.bench.report`
(text and markdown tables) and :mod:`~simulate.bench.timing` (the one timer: spreads, paired
ratios, and :func:`compare` / :func:`script_main`, the side-by-side runs of the
``benchmarks/bench_*.py`` scripts). The peer adapters live in the ``benchmarks/peers/`` package of a
source checkout; :func:`load_peers` loads it by path and returns ``None`` when it is not there
(e.g. installed from a wheel).
"""

from __future__ import annotations

from .answers import ALLIN, EXACT, WALK_COUNTS, WALK_DISTINCT
from .cases import CASE_NAMES, CASES, random_cards
from .report import format_report, markdown_table
from .runner import DEFAULT_REPEAT, MODES, load_peers, machine_info, run_bench
from .timing import (
    Comparison,
    Side,
    compare,
    format_comparisons,
    inner_calls,
    paired_ratios,
    script_main,
    spread,
)
from .work import Case, Config, PeerWork, Work

__all__ = [
    "ALLIN", "CASES", "CASE_NAMES", "DEFAULT_REPEAT", "EXACT", "MODES", "WALK_COUNTS",
    "WALK_DISTINCT", "Case", "Comparison", "Config", "PeerWork", "Side", "Work", "compare",
    "format_comparisons", "format_report", "inner_calls", "load_peers", "machine_info",
    "markdown_table", "paired_ratios", "random_cards", "run_bench", "script_main", "spread",
]
