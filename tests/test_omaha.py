"""Tests for the Omaha evaluator (evaluator.omaha) and Omaha equity (simulate.omaha).

Slow, obvious references (tests/reference.py): the best hand is the maximum over every 2-from-hole x
3-from-board choice (pure Python over ``strength_of_ids``, and the same maximum
computed with the five-card batch evaluator over all combinations with numpy); exact
equity is a pure-Python walk over every runout with that reference.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import examples, peer_or_skip
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import omaha_batch, omaha_equity_walk, omaha_strength

from evaluator.cards import CardError, parse_cards
from evaluator.hands import category, strength_of_ids
from evaluator.omaha import (
    describe_omaha,
    evaluate_omaha,
    evaluate_omaha_batch,
    omaha_best,
)
from simulate.cli import main as cli_main
from simulate.omaha import omaha_equity


# ---------------------------------------------------------------- references
def deals(n: int, n_hole: int = 4, n_board: int = 5, seed: int = 0):
    rng = np.random.default_rng(seed)
    cards = np.argsort(rng.random((n, 52)), axis=1)[:, :n_hole + n_board].astype(np.uint8)
    return np.ascontiguousarray(cards[:, :n_hole]), np.ascontiguousarray(cards[:, n_hole:])


def ids(text: str) -> list[int]:
    return parse_cards(text)


# ---------------------------------------------------------------- evaluator vs references
def test_batch_equals_pure_python_reference():
    for n_hole, n_board in [(4, 5), (4, 3), (4, 4), (5, 5), (6, 5), (6, 3)]:
        holes, boards = deals(400, n_hole, n_board, seed=n_hole * 10 + n_board)
        got = evaluate_omaha_batch(holes, boards)
        want = [omaha_strength(h, b) for h, b in zip(holes.tolist(), boards.tolist(), strict=True)]
        assert got.tolist() == want, (n_hole, n_board)


@pytest.mark.slow
def test_batch_equals_max_over_combos_on_a_million_deals():
    total = 0
    for chunk in range(10):
        holes, boards = deals(100_000, seed=100 + chunk)
        got = evaluate_omaha_batch(holes, boards)
        np.testing.assert_array_equal(got, omaha_batch(holes, boards))
        total += len(holes)
    assert total >= 1_000_000


@pytest.mark.parametrize("n_hole,n_board", [(5, 5), (6, 5), (5, 4), (6, 3)])
def test_big_omaha_equals_max_over_combos(n_hole, n_board):
    holes, boards = deals(40_000, n_hole, n_board, seed=7 + n_hole + n_board)
    np.testing.assert_array_equal(evaluate_omaha_batch(holes, boards), omaha_batch(holes, boards))


def test_naive_baseline_and_threads_agree():
    holes, boards = deals(60_000, seed=3)
    fast1 = evaluate_omaha_batch(holes, boards, threads=1)
    naive = omaha_batch(holes, boards)  # every 2 x 3 choice, five-card evaluations
    np.testing.assert_array_equal(fast1, naive)
    np.testing.assert_array_equal(fast1, evaluate_omaha_batch(holes, boards, threads=2))


def test_equals_phevaluator_plo_on_100k_deals():
    peers = peer_or_skip("phevaluator")
    holes, boards = deals(100_000, seed=11)
    np.testing.assert_array_equal(evaluate_omaha_batch(holes, boards),
                                  peers.omaha_strengths_phevaluator(holes, boards))


def test_equals_pokerkit_omaha_on_a_few_deals():
    peers = peer_or_skip("pokerkit")
    holes, boards = deals(1_000, seed=12)
    np.testing.assert_array_equal(evaluate_omaha_batch(holes, boards),
                                  peers.omaha_strengths_pokerkit(holes, boards))


@settings(max_examples=examples(60), deadline=None)
@given(st.permutations(range(52)), st.sampled_from([4, 5, 6]), st.sampled_from([3, 4, 5]))
def test_card_order_does_not_matter(perm, n_hole, n_board):
    hole, board = list(perm[:n_hole]), list(perm[n_hole:n_hole + n_board])
    s = evaluate_omaha(hole, board)
    assert s == evaluate_omaha(hole[::-1], board[::-1]) == omaha_strength(hole, board)
    assert evaluate_omaha_batch(np.array([hole]), np.array([board]))[0] == s


# ---------------------------------------------------------------- the classic traps
def test_trap_four_hearts_in_hand_two_on_board_is_no_flush():
    s = evaluate_omaha("AhKhQhJh", "2h3h7c8d9s")
    assert category(s) != "Flush"
    assert category(evaluate_omaha("AhKhQhJh", "2h3h7h8d9s")) == "Flush"  # three on board


def test_trap_trips_in_hand_cannot_all_play():
    s = evaluate_omaha("7c7d7h2s", "AsKdQc4h9d")
    assert category(s) == "One Pair"
    assert s == strength_of_ids(ids("7c7dAsKdQc"))


def test_trap_board_straight_needing_three_hole_cards_does_not_count():
    assert category(evaluate_omaha("AhAdKsKc", "5c6d7h8s9c")) == "One Pair"
    # four to a straight on board plus one hole card is not a straight either
    assert category(evaluate_omaha("9h2c2d3s", "5c6d7h8sKc")) != "Straight"
    assert category(evaluate_omaha("9h4c2d3s", "5c6d7h8sKc")) == "Straight"  # two play


def test_trap_board_flush_needing_three_hole_cards_does_not_count():
    assert category(evaluate_omaha("AsAdQcQs", "2h5h8hJhKh")) == "One Pair"
    assert category(evaluate_omaha("AhAdQcQs", "2h5h8hJhKh")) == "One Pair"  # one heart
    assert category(evaluate_omaha("AhQhQcQs", "2h5h8hJhKh")) == "Flush"


def test_trap_board_quads_play_only_with_two_hole_cards():
    s = evaluate_omaha("AhKdQcJs", "9c9d9h9s2c")
    assert category(s) == "Three of a Kind"
    assert s == strength_of_ids(ids("9c9d9hAhKd"))
    assert category(evaluate_omaha("AhAdQcJs", "9c9d9h9s2c")) == "Full House"


def test_trap_one_hole_card_quads_do_not_count():
    # 8 8 8 on board and one 8 in hand: quads would need 8 + a kicker from the hand
    s = evaluate_omaha("8sAh3c4d", "8c8d8hKs2c")
    assert category(s) == "Four of a Kind"  # 8s + Ah from hand, 8 8 8 from board
    assert category(evaluate_omaha("8s3c4d5d", "8c8d8hKs2c")) == "Four of a Kind"


def test_describe_names_two_hole_and_three_board_cards():
    d = describe_omaha("AhKhQd2c", "Jh9h3h5s7c")
    assert d.category == "Flush" and d.hole_used == "Ah Kh" and d.board_used == "Jh 9h 3h"
    assert d.text.startswith("Flush, Ace high")
    s, hp, bt = omaha_best(ids("AhKhQd2c"), ids("Jh9h3h5s7c"))
    assert s == d.strength and len(hp) == 2 and len(bt) == 3


@pytest.mark.parametrize("hole,board,msg", [
    ("AhKhQd", "Jh9h3h5s7c", "4, 5 or 6 hole cards"),
    ("AhKhQd2c3c4c5c", "Jh9h3h5s7c", "4, 5 or 6 hole cards"),
    ("AhKhQd2c", "Jh9h", "3, 4 or 5 cards"),
    ("AhKhQd2c", "Ah9h3h5s7c", "duplicate"),
    ("AhKhQdXx", "Jh9h3h5s7c", "Xx"),
])
def test_evaluator_bad_input(hole, board, msg):
    with pytest.raises(CardError, match=msg):
        evaluate_omaha(hole, board)


def test_batch_bad_input():
    holes, boards = deals(10)
    with pytest.raises(ValueError):
        evaluate_omaha_batch(holes[:, :3], boards)
    with pytest.raises(ValueError):
        evaluate_omaha_batch(holes, boards[:5])
    bad = holes.copy()
    bad[3, 1] = bad[3, 0]
    with pytest.raises(ValueError, match="row 3"):
        evaluate_omaha_batch(bad, boards)


# ---------------------------------------------------------------- equity
@pytest.mark.parametrize("hands,board,dead", [
    (["AhAsKhKs", "QdJdTc9c"], "2h7c8d", ""),
    (["AhAsKhKs", "QdJdTc9c", "7s6s5d4d"], "2h7c8dJs", ""),
    (["AhKh2c3d", "AdKd2h3s"], "QcJs9h7c", ""),           # lots of splits
    (["AhKh2c3d", "AdKd2h3s", "AcKc2s3c"], "QcJs9h7d", "Tc"),
    (["9c9d8h8s", "AcKcQcJc"], "5c6c7d2h3s", ""),           # complete board
])
def test_exact_equity_equals_brute_force(hands, board, dead):
    res = omaha_equity(hands, board, dead, exact=True)
    eq, win, tie, cats, n = omaha_equity_walk(hands, board, dead)
    assert res.exact and res.samples == n and res.game == "omaha"
    for p, e, w, t, c in zip(res.players, eq, win, tie, cats, strict=True):
        assert p.equity == pytest.approx(float(e), abs=1e-12)
        assert p.win == pytest.approx(float(w), abs=1e-12)
        assert p.tie == pytest.approx(float(t), abs=1e-12)
        assert p.std_error == 0.0
        for name, share in p.categories.items():
            assert share == pytest.approx(float(c.get(name, 0)), abs=1e-12)
    assert sum(p.equity for p in res.players) == pytest.approx(1.0)


def test_exact_5_and_6_card_omaha_equal_brute_force():
    for game, hands, board in [("omaha5", ["AhAsKhKs2c", "QdJdTc9c3c"], "2h7c8dJs"),
                               ("omaha6", ["AhAsKhKs2c4d", "QdJdTc9c3c5h"], "2h7c8dJs")]:
        res = omaha_equity(hands, board, game=game)
        eq, _, _, _, n = omaha_equity_walk(hands, board)
        assert res.exact and res.samples == n and res.game == game
        assert [p.equity for p in res.players] == pytest.approx([float(e) for e in eq],
                                                                abs=1e-12)


def test_preflop_exact_matches_known_value():
    res = omaha_equity(["AhAsKhKs", "QdJdTc9c"])  # exact=None picks the walk
    assert res.exact and res.samples == 1_086_008
    assert res.players[0].equity == pytest.approx(0.6163, abs=5e-5)  # poker-equity: 0.6163


@pytest.mark.parametrize("hands,board", [
    (["AhAsKhKs", "QdJdTc9c"], ""),
    (["AhAsKhKs", "QdJdTc9c", "8c8d7h6s"], "2c5h9s"),
])
def test_monte_carlo_within_four_standard_errors(hands, board):
    ex = omaha_equity(hands, board, exact=True)
    mc = omaha_equity(hands, board, exact=False, samples=300_000, seed=5)
    assert not mc.exact and mc.samples == 300_000 and mc.extra["seed"] == 5
    for e, m in zip(ex.players, mc.players, strict=True):
        assert 0 < m.std_error < 0.01
        assert abs(m.equity - e.equity) < 4 * m.std_error
        assert abs(m.win - e.win) < 0.01


def test_ten_players_fill_the_deck():
    rng = random.Random(3)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = ["".join(f"{'23456789TJQKA'[c >> 2]}{'cdhs'[c & 3]}" for c in deck[4 * i:4 * i + 4])
             for i in range(10)]
    res = omaha_equity(hands)
    assert res.exact and res.samples == 792  # C(12, 5)
    assert sum(p.equity for p in res.players) == pytest.approx(1.0)
    assert sum(res.players[0].categories.values()) == pytest.approx(1.0)


@pytest.mark.parametrize("hands,board,dead,kw,msg", [
    (["AhAsKh", "QdJdTc9c"], "", "", {}, "hand 1 has 3 cards; omaha hands have 4"),
    (["AhAsKhKs2c", "QdJdTc9c3c"], "", "", {}, "hand 1 has 5 cards"),
    (["AA", "QdJdTc9c"], "", "", {}, "Omaha takes exact hands only"),
    (["AhAsKhKs", "QQ+"], "", "", {}, "Omaha takes exact hands only"),
    (["AhAsKhKs"], "", "", {}, "players"),
    (["AhAsKhKs", "AhJdTc9c"], "", "", {}, "duplicate card Ah"),
    (["AhAsKhKs", "QdJdTc9c"], "2c3c", "", {}, "0, 3, 4 or 5"),
    (["AhAsKhKs", "QdJdTc9c"], "", "", {"game": "stud"}, "unknown Omaha game"),
    (["AhAsKhKs", "QdJdTc9c"], "", "", {"samples": 0, "exact": False}, "samples"),
])
def test_equity_bad_input(hands, board, dead, kw, msg):
    with pytest.raises(ValueError, match=msg):
        omaha_equity(hands, board, dead, **kw)


def test_too_many_cards_for_the_deck():
    deck = [f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs"]
    hands = ["".join(deck[4 * i:4 * i + 4]) for i in range(10)]
    with pytest.raises(ValueError, match="not enough cards"):
        omaha_equity(hands, dead="".join(deck[40:48]))
    with pytest.raises(ValueError, match="players"):
        omaha_equity(hands + ["".join(deck[40:44])])


# ---------------------------------------------------------------- command line
def test_cli_eval_omaha_text_and_json(capsys):
    assert cli_main(["eval", "--game", "omaha", "AhKhQd2c", "--board", "Jh9h3h5s7c"]) == 0
    out = capsys.readouterr().out
    assert "Flush" in out and "Ah Kh from the hand + Jh 9h 3h from the board" in out
    assert cli_main(["eval", "--game", "omaha", "AhKhQd2c", "--board", "Jh9h3h5s7c",
                     "--json"]) == 0
    import json

    d = json.loads(capsys.readouterr().out)
    assert d["strength"] == evaluate_omaha("AhKhQd2c", "Jh9h3h5s7c")
    assert d["hole_used"] == "Ah Kh" and d["board_used"] == "Jh 9h 3h"


@pytest.mark.parametrize("argv", [
    ["eval", "--game", "omaha", "AhKhQd", "--board", "Jh9h3h5s7c"],
    ["eval", "--game", "omaha", "AhKhQd2c"],
    ["eval", "--game", "omaha", "AhKhQd2c", "--board", "Ah9h3h5s7c"],
])
def test_cli_eval_omaha_errors(argv, capsys):
    assert cli_main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


@pytest.mark.parametrize("game,board", [("omaha", "2c7d8h"), ("omaha_hilo", "2c7d8h"),
                                        ("omaha", "2c7d8h3s")])
def test_first_run_serial_walk_gives_the_same_bits(monkeypatch, game, board):
    """In a one-answer program whose parallel walk and fill are neither compiled nor cached,
    a small exact walk (equity and all-in EV) runs the serial twins, the walk through its
    scorer's one scoring loop: the same counts, bit for bit."""
    import evaluator._first_run as jit
    from evaluator.hands import category_table
    from simulate import allin_ev, equity
    from simulate._kernels import omaha as K
    from simulate._kernels.score import ROAD_ANY, ROAD_HILO_HU, ROAD_HU, equity_block_scorer
    from simulate.omaha import walk_kernel

    hands = ["AhAsKhKs", "Qd2dTc3c"]
    want = equity(hands, board, game=game, exact=True).to_dict()["players"]
    want_ev = allin_ev([f"{hands[0]}:100", f"{hands[1]}:60"], board, game=game,
                       exact=True).to_dict()["players"]
    monkeypatch.setattr(jit, "ready", lambda kernel: kernel not in (K.exact_walk,
                                                                    K.fill_triple_table)
                        and bool(kernel.overloads))
    hilo = game == "omaha_hilo"
    bsc = equity_block_scorer(2, category_table(), 1, hilo=hilo)
    kernel, road = walk_kernel(1000, bsc, hilo)
    assert kernel is K.exact_walk and road is ROAD_ANY  # a library process: parallel
    monkeypatch.setattr(jit, "SERIAL_FIRST_RUNS", True)
    kernel, road = walk_kernel(1000, bsc, hilo)
    # the serial twin compiles its scorer's one loop: the heads-up equity road, hi/lo's
    assert kernel is K.exact_walk_serial and road is (ROAD_HILO_HU if hilo else ROAD_HU)
    kernel, road = walk_kernel(10**9, bsc, hilo)
    assert kernel is K.exact_walk and road is ROAD_ANY  # large work: worth the compile
    assert equity(hands, board, game=game, exact=True).to_dict()["players"] == want
    assert allin_ev([f"{hands[0]}:100", f"{hands[1]}:60"], board, game=game,
                    exact=True).to_dict()["players"] == want_ev


@pytest.mark.parametrize("d, k", [(44, 5), (45, 4), (46, 3), (40, 2), (8, 5), (3, 5)])
def test_first_card_bins_spread_the_walk_evenly(d, k):
    # the parallel exact walks (Omaha, Pineapple's completions) run one task per bin: an
    # equal run of first cards per thread gave two threads 1.03x one on Omaha preflop
    from math import comb

    from simulate._kernels.holdem_exact import first_card_bins

    work = [comb(d - 1 - f, k - 1) for f in range(d)]
    for n_bins in (1, 2, 3, 4, 8, 16, 64):
        bin_of = np.full(d, -1, np.int64)
        n = first_card_bins(d, k, n_bins, bin_of)
        assert n == max(1, min(n_bins, d))
        assert bin_of.min() == 0 and bin_of.max() < n
        loads = np.bincount(bin_of, weights=work, minlength=n)
        # longest processing time first: no bin above an even share plus one card's work
        assert loads.max() <= sum(work) / n + max(work)
        if n == 2 and d > 10:
            assert loads.max() / loads.min() < 1.1


@pytest.mark.parametrize("game, hands, board, dead", [
    ("omaha", ["AhKhQdJd", "7s7d8c9c"], "", ""),
    ("omaha_hilo", ["Ah2h3c4d", "KsKdQcJh"], "", ""),
    ("omaha", ["AhKhQdJd", "7s7d8c9c", "2c3c4d5d"], "Kd7c2s", ""),
    ("omaha_hilo", ["Ah2h3c4d", "KsKdQcJh"], "Td7c2s9h", ""),
    ("crazy_pineapple", ["AhKh2c", "7s7d8c"], "", "2s3s4s5s6s8s9sTsJsQsKsAs"),
])
def test_parallel_exact_walks_give_the_same_bits_on_one_and_two_threads(game, hands, board,
                                                                          dead):
    # each first card writes its own row; the bins that hand rows to threads change with
    # the thread count, the answer must not
    from simulate import equity

    one = equity(hands, board=board, dead=dead, game=game, exact=True, threads=1).to_dict()
    two = equity(hands, board=board, dead=dead, game=game, exact=True, threads=2).to_dict()
    for d in (one, two):
        d.pop("elapsed_s", None)
        d.get("extra", {}).pop("threads", None)
    assert one == two
