"""Omaha evaluation: the suited-triple kernel against the naive 60-combination baseline.

Omaha equity (exact and Monte Carlo) and the evaluation batch against phevaluator and
pokerkit are ``pokerjit bench`` cases (``omaha-eval``, ``omaha-exact``, ``omaha-mc``), timed
with their peers by ``benchmarks/bench_cases.py``. This module keeps the comparison that is
not one of them: ``evaluate_omaha_batch`` against ``omaha_naive_batch`` (every 2 x 3
five-card hand looked up) on the same deals, one thread, both checked against each other.
``pytest benchmarks/bench_omaha.py --benchmark-enable`` times 200,000 deals; the normal test
run does 5,000 once.
"""

from __future__ import annotations

import numpy as np
import peers
import pytest

from evaluator.omaha import evaluate_omaha_batch, omaha_naive_batch

GROUP = "Omaha 4+5 evaluation, 1 thread"


def _deals(benchmark) -> tuple[np.ndarray, np.ndarray]:
    cards = peers.random_hands(5_000 if benchmark.disabled else 200_000, 9, seed=31)
    return np.ascontiguousarray(cards[:, :4]), np.ascontiguousarray(cards[:, 4:])


@pytest.mark.benchmark(group=GROUP)
@pytest.mark.parametrize("fn", [evaluate_omaha_batch, omaha_naive_batch],
                         ids=["kernel", "naive-60-combos"])
def test_omaha_eval(benchmark, fn):
    holes, boards = _deals(benchmark)
    want = omaha_naive_batch(holes[:500], boards[:500])
    kw = {"threads": 1, "check": False} if fn is evaluate_omaha_batch else {}
    fn(holes[:16], boards[:16], **kw)  # compile / load outside the timing
    out = benchmark(fn, holes, boards, **kw)
    assert np.array_equal(np.asarray(out[:500]), want)
    assert out.shape == (len(holes),) and 1 <= out.min() and out.max() <= 7462
    benchmark.extra_info["hands"] = len(holes)
