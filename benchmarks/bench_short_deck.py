"""Short-deck seven-card batches beside Hold'em's, one thread (issue: at least Hold'em's rate).

``pytest benchmarks/bench_short_deck.py --benchmark-enable`` times 1,000,000 random
seven-card hands of each deck with the default card check; the normal test run evaluates
5,000 once as a smoke test, each checked against the scalar evaluator on a sample.
"""

from __future__ import annotations

import numpy as np
import pytest

from evaluator import evaluate, evaluate_batch

GROUP = "eval7 batch by deck, 1 thread, checked"


def _hands(benchmark, lowest_id: int) -> np.ndarray:
    n = 5_000 if benchmark.disabled else 1_000_000
    rng = np.random.default_rng(2031)
    deck = np.arange(lowest_id, 52, dtype=np.uint8)
    return deck[np.argsort(rng.random((n, len(deck))), axis=1)[:, :7]]


@pytest.mark.benchmark(group=GROUP)
@pytest.mark.parametrize("game,lowest_id", [("holdem", 0), ("short_deck", 16),
                                            ("short_deck_triton", 16)])
def test_eval7_by_deck(benchmark, game, lowest_id):
    cards = _hands(benchmark, lowest_id)
    evaluate_batch(cards[:64], threads=1, game=game)  # compile / load outside the timing
    out = benchmark(evaluate_batch, cards, threads=1, game=game)
    idx = np.linspace(0, len(cards) - 1, num=200).astype(np.int64)
    assert out[idx].tolist() == [evaluate(cards[i].tolist(), game=game) for i in idx]
    benchmark.extra_info["hands"] = len(cards)
