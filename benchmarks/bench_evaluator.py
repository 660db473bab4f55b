"""Evaluator speed: pokerjit and every peer's batch path side by side (one group per case).

Groups (``pytest benchmarks/bench_evaluator.py --benchmark-enable``):

* ``eval7 batch, 1 thread``: 200,000 random 7-card hands through ``evaluate_batch`` (one
  thread) and through each native or C-backed peer (OMPEval's native batch, phevaluator and
  eval7 per call from Python, poker-equity's ``score_batch`` over card strings);
* ``eval7 batch, pure-Python peers``: 2,000 hands, pokerjit against treys, pokerkit and
  pokerfast's Python evaluator;
* ``eval7 batch, all threads``: 2,000,000 hands, pokerjit on one thread and on every thread,
  and OMPEval's (single-threaded) native batch;
* ``eval5 batch, 1 thread``: the same for random 5-card hands;
* ``walk``: every one of the 133,784,560 seven-card hands (``strength_histogram``), one
  thread and all threads.

Conversion to each peer's own card format is done outside the timed call. Every benchmark
checks its answer: ours against the pure-Python scalar evaluator on a sample, each peer
against ours (the same strengths where the peer uses the same 7462 classes, else the same
order). In the normal test run (``--benchmark-disable``) each runs once on a small input
as a smoke test (the walk then covers the 2,598,960 five-card hands).
"""

from __future__ import annotations

import math

import numpy as np
import peers
import pytest

from evaluator import evaluate_batch, strength_histogram
from evaluator._jit import resolve_threads
from evaluator._tables import get_tables
from evaluator.hands import strength_of_ids
from evaluator.tablegen import CATEGORIES

NATIVE_PEERS = ("ompeval", "phevaluator", "eval7", "poker_equity")
PYTHON_PEERS = ("treys", "pokerkit", "pokerfast_py")

SEVEN_CARD_COUNTS = {
    "High Card": 23_294_460, "One Pair": 58_627_800, "Two Pair": 31_433_400,
    "Three of a Kind": 6_461_620, "Straight": 6_180_020, "Flush": 4_047_644,
    "Full House": 3_473_184, "Four of a Kind": 224_848, "Straight Flush": 41_584,
}
FIVE_CARD_COUNTS = {
    "High Card": 1_302_540, "One Pair": 1_098_240, "Two Pair": 123_552,
    "Three of a Kind": 54_912, "Straight": 10_200, "Flush": 5_108,
    "Full House": 3_744, "Four of a Kind": 624, "Straight Flush": 40,
}

_HANDS: dict[tuple[int, int], np.ndarray] = {}


def _hands(n: int, k: int) -> np.ndarray:
    if (n, k) not in _HANDS:
        _HANDS[(n, k)] = peers.random_hands(n, k, seed=2024 + k)
    return _HANDS[(n, k)]


def _size(benchmark, full: int, smoke: int) -> int:
    return smoke if benchmark.disabled else full


def _check_ours(cards: np.ndarray, out: np.ndarray) -> None:
    idx = np.linspace(0, len(cards) - 1, num=min(len(cards), 500)).astype(np.int64)
    ref = [strength_of_ids(cards[i].tolist()) for i in idx]
    assert out[idx].tolist() == ref


def _check_peer(peer: str, cards: np.ndarray, scores: np.ndarray) -> None:
    ev = peers.evaluator(peer)
    m = min(len(cards), 2000)
    ours = evaluate_batch(cards[:m], threads=1).astype(np.int64)
    head = np.asarray(scores[:m], dtype=np.int64)
    if ev.contract is not None:
        assert np.array_equal(ev.contract(head), ours)
    else:
        assert peers.same_order(head if ev.higher_is_better else -head, ours)


def _bench_ours(benchmark, cards: np.ndarray, threads: int | None) -> None:
    evaluate_batch(cards[:64], threads=threads)  # compile / load outside the timing
    out = benchmark(evaluate_batch, cards, threads=threads, check=False)
    _check_ours(cards, out)
    benchmark.extra_info["hands"] = len(cards)


def _bench_peer(benchmark, peer: str, cards: np.ndarray) -> None:
    if not peers.available(peer):
        pytest.skip(f"{peer} not installed")
    ev = peers.evaluator(peer)
    native = ev.prepare(cards)
    ev.run(ev.prepare(cards[:100]))
    scores = benchmark(ev.run, native)
    _check_peer(peer, cards, scores)
    benchmark.extra_info.update(hands=len(cards), path=ev.path)


# ----------------------------------------------------------------------- 7-card, 1 thread
@pytest.mark.benchmark(group="eval7 batch, 1 thread")
def test_eval7_pokerjit(benchmark):
    _bench_ours(benchmark, _hands(_size(benchmark, 200_000, 5_000), 7), 1)


@pytest.mark.benchmark(group="eval7 batch, 1 thread")
@pytest.mark.parametrize("peer", NATIVE_PEERS)
def test_eval7_peer(benchmark, peer):
    _bench_peer(benchmark, peer, _hands(_size(benchmark, 200_000, 5_000), 7))


@pytest.mark.benchmark(group="eval7 batch, pure-Python peers")
def test_eval7_small_pokerjit(benchmark):
    _bench_ours(benchmark, _hands(2_000 if not benchmark.disabled else 200, 7), 1)


@pytest.mark.benchmark(group="eval7 batch, pure-Python peers")
@pytest.mark.parametrize("peer", PYTHON_PEERS)
def test_eval7_small_peer(benchmark, peer):
    _bench_peer(benchmark, peer, _hands(2_000 if not benchmark.disabled else 200, 7))


# ----------------------------------------------------------------------- 7-card, all threads
@pytest.mark.benchmark(group="eval7 batch, all threads")
@pytest.mark.parametrize("threads", [1, None], ids=["1-thread", "all-threads"])
def test_eval7_threads_pokerjit(benchmark, threads):
    _bench_ours(benchmark, _hands(_size(benchmark, 2_000_000, 60_000), 7), threads)
    benchmark.extra_info["threads"] = resolve_threads(threads)


@pytest.mark.benchmark(group="eval7 batch, all threads")
def test_eval7_threads_ompeval(benchmark):
    _bench_peer(benchmark, "ompeval", _hands(_size(benchmark, 2_000_000, 60_000), 7))


# ----------------------------------------------------------------------- 5-card
@pytest.mark.benchmark(group="eval5 batch, 1 thread")
def test_eval5_pokerjit(benchmark):
    _bench_ours(benchmark, _hands(_size(benchmark, 200_000, 5_000), 5), 1)


@pytest.mark.benchmark(group="eval5 batch, 1 thread")
@pytest.mark.parametrize("peer", NATIVE_PEERS)
def test_eval5_peer(benchmark, peer):
    _bench_peer(benchmark, peer, _hands(_size(benchmark, 200_000, 5_000), 5))


# ----------------------------------------------------------------------- the walk
@pytest.mark.benchmark(group="walk every hand")
@pytest.mark.parametrize("threads", [1, None], ids=["1-thread", "all-threads"])
def test_walk(benchmark, threads):
    k = 5 if benchmark.disabled else 7
    strength_histogram(5, threads=threads)  # compile / load outside the timing
    if benchmark.disabled:
        hist = benchmark(strength_histogram, k, threads=threads)
    else:
        hist = benchmark.pedantic(strength_histogram, args=(k,), kwargs={"threads": threads},
                                  rounds=5, iterations=1, warmup_rounds=1)
    starts = get_tables().category_start
    counts = {CATEGORIES[c]: int(hist[starts[c]:starts[c + 1]].sum()) for c in range(9)}
    assert counts == (SEVEN_CARD_COUNTS if k == 7 else FIVE_CARD_COUNTS)
    assert int(hist.sum()) == math.comb(52, k)
    assert int(np.count_nonzero(hist)) == (4824 if k == 7 else 7462)
    benchmark.extra_info.update(hands=math.comb(52, k), threads=resolve_threads(threads))
