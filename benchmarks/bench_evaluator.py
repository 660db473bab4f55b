"""Five-card evaluation batches: pokerjit and each native or C-backed peer, one thread.

The seven-card batches and the walk of every hand are ``pokerjit bench`` cases (``batch``,
``batch-mt``, ``batch-checked``, ``walk``, ``walk-mt``), timed with their peers by
``benchmarks/bench_cases.py``; this module holds only the five-card comparison, which is not
one of them. ``pytest benchmarks/bench_evaluator.py --benchmark-enable`` times 200,000 random
five-card hands; the normal test run evaluates 5,000 once as a smoke test.

Conversion to each peer's card format is done outside the timed call. Every benchmark checks
its answer: ours against the pure-Python scalar evaluator on a sample, each peer against ours
(the same strengths where the peer uses the same 7462 classes, else the same order).
"""

from __future__ import annotations

import numpy as np
import peers
import pytest

from evaluator import evaluate_batch
from evaluator.hands import strength_of_ids

NATIVE_PEERS = ("ompeval", "phevaluator", "eval7", "poker_equity")
GROUP = "eval5 batch, 1 thread"


def _hands(benchmark) -> np.ndarray:
    return peers.random_hands(5_000 if benchmark.disabled else 200_000, 5, seed=2029)


@pytest.mark.benchmark(group=GROUP)
def test_eval5_pokerjit(benchmark):
    cards = _hands(benchmark)
    evaluate_batch(cards[:64], threads=1)  # compile / load outside the timing
    out = benchmark(evaluate_batch, cards, threads=1, check=False)
    idx = np.linspace(0, len(cards) - 1, num=500).astype(np.int64)
    assert out[idx].tolist() == [strength_of_ids(cards[i].tolist()) for i in idx]
    benchmark.extra_info["hands"] = len(cards)


@pytest.mark.benchmark(group=GROUP)
@pytest.mark.parametrize("peer", NATIVE_PEERS)
def test_eval5_peer(benchmark, peer):
    assert peers.available(peer), f"{peer} not installed (pip install -e '.[dev]')"
    cards = _hands(benchmark)
    ev = peers.evaluator(peer)
    native = ev.prepare(cards)
    ev.run(ev.prepare(cards[:100]))
    scores = benchmark(ev.run, native)
    ours = evaluate_batch(cards[:2000], threads=1).astype(np.int64)
    head = np.asarray(scores[:2000], dtype=np.int64)
    if ev.contract is not None:
        assert np.array_equal(ev.contract(head), ours)
    else:
        assert peers.same_order(head if ev.higher_is_better else -head, ours)
    benchmark.extra_info.update(hands=len(cards), path=ev.path)
