"""The peer adapters (``benchmarks/peers/``) answer known questions correctly.

Every benchmark and differential test trusts these adapters to feed our card ids to each peer
and read its answer back; a broken adapter would make a comparison meaningless. So each peer is
asked questions whose answers are known (pinned exact equities from ``simulate.bench.answers``
or pokerjit's own exact answer on small spots) and every evaluator must rank random hands as
ours does. The peers are in the ``dev`` extra, so each must be installed and working here.
"""

from __future__ import annotations

import math
import time

import numpy as np
import peers
import pytest

from evaluator import evaluate_batch
from evaluator.omaha import evaluate_omaha_batch
from simulate import equity
from simulate.bench.answers import EXACT

AK_QQ = float(EXACT["hu"][1][0])  # AhKh vs QsQd preflop, exact


def _z(got: float, want: float, n: int) -> float:
    """|got - want| in standard errors of a heads-up pot share over ``n`` deals (bounded
    above by the Bernoulli variance)."""
    return abs(got - want) / math.sqrt(max(want * (1 - want), 1e-12) / n)


@pytest.mark.parametrize("peer", peers.PEERS)
def test_every_peer_of_the_dev_extra_is_available(peer):
    assert peers.available(peer), f"{peer} does not import (pip install -e '.[dev]')"


def test_card_text_round_trip_and_errors():
    ids = peers.parse_cards("Ah Kh, 10s 2c")
    assert ids.tolist() == [50, 46, 35, 0]
    assert peers.cards_text(ids) == "AhKhTs2c" and peers.cards_text("A♥K♥") == "AhKh"
    assert peers.CARD_NAMES[4 * 12 + 3] == "As"
    for bad in ("AhAh", "Xx", "Ah1"):
        with pytest.raises(ValueError):
            peers.parse_cards(bad)
    hands = peers.random_hands(500, 7, seed=3)
    assert hands.shape == (500, 7) and hands.dtype == np.uint8
    assert all(len(set(r)) == 7 for r in hands.tolist())


def test_same_order_sees_ties_and_swaps():
    a = np.array([3, 1, 2, 2])
    assert peers.same_order(a, np.array([30, 10, 20, 20]))
    assert not peers.same_order(a, np.array([30, 10, 20, 21]))  # a tie broken
    assert not peers.same_order(a, np.array([10, 30, 20, 20]))  # an order swapped
    assert peers.dense_rank(a).tolist() == [2, 0, 1, 1]


@pytest.fixture(scope="module")
def hands7() -> np.ndarray:
    return peers.random_hands(2_000, 7, seed=7)


@pytest.mark.parametrize("k", [5, 6, 7])
@pytest.mark.parametrize("peer", peers.PEERS)
def test_every_evaluator_ranks_hands_as_ours(peer, k, hands7):
    cards = np.ascontiguousarray(hands7[: 300 if peer == "pokerkit" else 2_000, :k])
    ours = evaluate_batch(cards, threads=1).astype(np.int64)
    assert peers.same_order(peers.peer_strengths(peer, cards), ours)
    ev = peers.evaluator(peer)
    if ev.contract is not None:  # the same 7462 classes: the same numbers
        assert np.array_equal(peers.peer_contract_strengths(peer, cards), ours)
    else:
        with pytest.raises(peers.PeerUnsupported):
            peers.peer_contract_strengths(peer, cards)


def test_omaha_strengths_equal_ours():
    h = peers.random_hands(300, 9, seed=9)
    holes, boards = np.ascontiguousarray(h[:, :4]), np.ascontiguousarray(h[:, 4:])
    ours = evaluate_omaha_batch(holes, boards, threads=1)
    assert np.array_equal(peers.omaha_strengths_phevaluator(holes, boards), ours)
    assert np.array_equal(peers.omaha_strengths_pokerkit(holes[:100], boards[:100]), ours[:100])


@pytest.mark.parametrize("peer", ["ompeval", "poker_equity"])
def test_exact_preflop_equity_is_the_pinned_answer(peer):
    res = peers.exact_equity(peer, ["AhKh", "QsQd"])
    assert res.exact and res.peer == peer and res.elapsed_s > 0
    assert res.equities[0] == pytest.approx(AK_QQ, abs=1e-9)
    assert sum(res.equities) == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize("peer", ["ompeval", "poker_equity", "eval7"])
@pytest.mark.parametrize("hands,board,dead", [(["AhKh", "QsQd"], "Ks8h2c", ""),
                                              (["7c7d", "AsKd"], "Td9d2c", "Ah"),
                                              (["QQ+,AKs", "random"], "Td9d2c4h", "")])
def test_exact_equity_on_later_streets_equals_ours(peer, hands, board, dead):
    want = equity(hands, board, dead, exact=True, threads=1).players[0].equity
    res = peers.exact_equity(peer, hands, board, dead)
    assert res.equities[0] == pytest.approx(want, abs=1e-7)


def test_range_equity_is_the_pinned_answer():
    hands, want, _ = EXACT["range-flop"]  # poker_equity takes seconds here: OMPEval only
    got = peers.range_equity("ompeval", hands, "Td9d2c").equities[0]
    assert got == pytest.approx(float(want[0]), abs=1e-9)


def test_omaha_exact_equity_equals_ours():
    hands, board = ["AhAsKhKs", "QdJdTc9c"], "2c5h9s"
    want = equity(hands, board, game="omaha", exact=True, threads=1).players[0].equity
    res = peers.poker_equity_exact(hands, board, game="omaha")
    assert res.equities[0] == pytest.approx(want, abs=1e-9)


def test_hand_vs_random_batch_equals_ours():
    qs = [("AhKh", "Ks8h2c"), ("7c7d", "Td9d2c4h")]
    t0 = time.perf_counter()
    got, secs = peers.ompeval_equity_vs_random(qs)
    wall = time.perf_counter() - t0
    assert 0 < secs <= wall  # the native call's own time, inside the adapter's call
    for (hole, board), g in zip(qs, got, strict=True):
        want = equity([hole, "random"], board, exact=True, threads=1).players[0].equity
        assert g == pytest.approx(want, abs=1e-7)


@pytest.mark.parametrize("peer,n", [("ompeval", 200_000), ("poker_equity", 200_000),
                                    ("eval7", 200_000), ("pokerkit", 400)])
def test_monte_carlo_equity_lands_near_the_exact_answer(peer, n):
    res = peers.monte_carlo_equity(peer, ["AhKh", "QsQd"], samples=n)
    assert not res.exact and res.samples >= min(n, 1_000)
    if peer != "ompeval":  # OMPEval stops at a std-error target, not a count
        assert res.samples == n
    assert _z(res.equities[0], AK_QQ, res.samples) < 4.5
    assert sum(res.equities) == pytest.approx(1.0, abs=1e-6)


def test_omaha_monte_carlo_lands_near_the_exact_answer():
    hands, want, _ = EXACT["omaha"]
    res = peers.poker_equity_monte_carlo(hands, samples=100_000, game="omaha", seed=3)
    assert res.samples == 100_000 and _z(res.equities[0], float(want[0]), 100_000) < 4.5
    res = peers.pokerkit_equity_monte_carlo(hands, samples=200, game="omaha")
    assert _z(res.equities[0], float(want[0]), 200) < 4.5


def test_eval7_ranges():
    board = "Td9d2c4h"
    want = equity(["JJ+", "AdKd,QdJd"], board, exact=True, threads=1).players[0].equity
    got = peers.eval7_range_equity_exact("JJ+", "AdKd,QdJd", board).equities[0]
    assert got == pytest.approx(want, abs=1e-7)
    mc = peers.eval7_range_equity_monte_carlo("JJ+", "AdKd,QdJd", board + "3s", iterations=1)
    river = equity(["JJ+", "AdKd,QdJd"], board + "3s", exact=True, threads=1)
    assert mc.equities[0] == pytest.approx(river.players[0].equity, abs=1e-6)


def test_questions_a_peer_cannot_answer_are_refused():
    with pytest.raises(peers.PeerUnsupported):
        peers.ompeval_equity(["AhKh"] * 7)
    with pytest.raises(peers.PeerUnsupported):
        peers.exact_equity("pokerkit", ["AhKh", "QsQd"])
    with pytest.raises(peers.PeerUnsupported):
        peers.monte_carlo_equity("eval7", ["AhKh", "QsQd", "JcJd"], samples=10)
    with pytest.raises(ValueError, match="unknown peer"):
        peers.evaluator("nope")
