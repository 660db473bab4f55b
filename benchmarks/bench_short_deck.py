"""Short deck beside Hold'em, one thread (issue: at least Hold'em's speed).

* seven-card batches: 1,000,000 random seven-card hands of each deck with the default card
  check (the normal test run evaluates 5,000 once as a smoke test, each checked against the
  scalar evaluator on a sample);
* exact heads-up preflop equity of the same two hands (``AhKh`` against ``QsQd``, both in
  the 36-card deck): Hold'em's 1,712,304 runouts against short deck's 201,376, by the same
  reduced walk (:mod:`simulate._kernels.holdem_exact`) given each game's tables and deck.

``pytest benchmarks/bench_short_deck.py --benchmark-enable`` times both with
pytest-benchmark; ``python benchmarks/bench_short_deck.py [--json] [--repeat N]`` times the
exact walks side by side in one process and prints the ratio
(:func:`simulate.bench.script_main`).
"""

from __future__ import annotations

import argparse
import functools
from pathlib import Path

import numpy as np
import pytest

from evaluator import evaluate, evaluate_batch
from simulate import equity
from simulate.bench import Comparison, Side, script_main

GROUP = "eval7 batch by deck, 1 thread, checked"
EXACT_GROUP = "exact heads-up preflop AhKh vs QsQd by game, 1 thread"
SPOT = ["AhKh", "QsQd"]
RUNOUTS = {"holdem": 1_712_304, "short_deck": 201_376, "short_deck_triton": 201_376}


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


def exact_preflop(game: str) -> object:
    return equity(SPOT, game=game, exact=True, threads=1)


@pytest.mark.benchmark(group=EXACT_GROUP)
@pytest.mark.parametrize("game", list(RUNOUTS))
def test_exact_heads_up_preflop_by_game(benchmark, game):
    exact_preflop(game)  # compile / load outside the timing
    res = benchmark(exact_preflop, game)
    assert res.exact and res.samples == RUNOUTS[game]
    assert sum(p.equity for p in res.players) == pytest.approx(1.0)


def comparisons(args: argparse.Namespace, _tmp: Path) -> list[Comparison]:
    """The exact heads-up preflop walk of each game, alternated in one process (the first
    side, Hold'em, is the reference: the ratio is Hold'em's time over short deck's)."""
    return [Comparison(f"exact heads-up preflop {' vs '.join(SPOT)}, one thread",
                       [Side(game, functools.partial(exact_preflop, game), work=n)
                        for game, n in RUNOUTS.items()],
                       unit="runouts", min_rep_s=0.2)]


if __name__ == "__main__":
    raise SystemExit(script_main(__doc__, comparisons, repeat=7))
