"""Tests for simulate.allin_ev and ``pokerjit allin``.

The reference below walks every runout with itertools, scores each live hand
with the pure-Python ``strength_of_ids`` and settles the pots with its own
slow chip-by-chip dealer, then compares chip totals with the Numba engine.
"""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest
from helpers import examples, quick_first
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import (
    allin_totals,
    allin_walk,
    holdem_equities,
    ref_pots,
    ref_settle_runout,
)

from evaluator.cards import CardError, cards_str, parse_cards
from evaluator.hands import strength_of_ids
from simulate import allin_ev
from simulate.cli import main

# ---------------------------------------------------------------------------
# Against the slow reference (tests/reference.py): pots by peeling one chip at a
# time, settled by dealing chips one at a time round the winners left of the button.
# ---------------------------------------------------------------------------


def specs_of(hands, committed):
    return [f"{cards_str(h)}:{c}" if h else f"fold:{c}" for h, c in zip(hands, committed,
                                                                          strict=True)]


def assert_matches_reference(res, hands, committed, board, dead=(), button=0):
    totals, pot_totals, runouts, pots = allin_totals(hands, committed, board, dead, button)
    assert res.exact and res.samples == runouts
    assert [(p.amount, p.eligible) for p in res.pots] == pots
    for s, player in enumerate(res.players):
        assert math.isclose(player.expected_payout, totals[s] / runouts, rel_tol=1e-12,
                            abs_tol=1e-9), (s, player, totals[s] / runouts)
        assert math.isclose(player.ev, totals[s] / runouts - committed[s], rel_tol=1e-12,
                            abs_tol=1e-9)
        for p, (amount, _) in enumerate(pots):
            want = pot_totals[p][s] / (runouts * amount)
            assert math.isclose(player.pot_equity[p], want, rel_tol=1e-12, abs_tol=1e-12)
    assert math.isclose(sum(p.expected_payout for p in res.players), sum(committed))


# ---------------------------------------------------------------------------
# Random spots with side pots
# ---------------------------------------------------------------------------


def random_spot(rng: random.Random, n_live: int, n_board: int, n_fold: int = 0,
                min_pots: int = 3):
    """Hands, commitments and board with at least ``min_pots`` pots."""
    while True:
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sorted(deck[2 * i:2 * i + 2]) for i in range(n_live)] + [None] * n_fold
        rng.shuffle(hands)
        board = deck[2 * n_live:2 * n_live + n_board]
        committed = [rng.choice([rng.randint(5, 40), rng.randint(5, 200)]) for _ in hands]
        max_live = max(c for c, h in zip(committed, hands, strict=True) if h)
        committed = [c if h else min(c, max_live) for c, h in zip(committed, hands,
                                                                  strict=True)]
        pots, _ = ref_pots(committed, [h is not None for h in hands])
        if len(pots) >= min_pots:
            return hands, committed, board


@pytest.mark.parametrize("n_live,n_fold,n_board,seed", [
    (3, 0, 3, 1), (4, 0, 3, 2), (5, 1, 3, 3), (6, 0, 3, 4), (4, 2, 3, 5),
    (3, 1, 4, 6), (4, 0, 4, 7), (5, 0, 4, 8), (6, 1, 4, 9),
])
def test_exact_ev_matches_brute_force(n_live, n_fold, n_board, seed):
    rng = random.Random(seed)
    hands, committed, board = random_spot(rng, n_live, n_board, n_fold,
                                          min_pots=3 if n_live >= 4 else 2)
    button = rng.randrange(len(hands))
    res = allin_ev(specs_of(hands, committed), board, button=button, exact=True, threads=1)
    assert_matches_reference(res, hands, committed, board, button=button)
    if n_live >= 4:
        assert len(res.pots) >= 3  # main pot and two side pots at least


def test_exact_ev_with_ties_dead_cards_and_odd_chips():
    # Near-identical hands on a flop with many split runouts; odd pot sizes; dead cards.
    hands = [parse_cards("AhKd"), parse_cards("AcKs"), parse_cards("AdKc"), None,
             parse_cards("QhQd")]
    committed = [101, 37, 155, 20, 64]
    board = parse_cards("Jc Td 2s")
    dead = parse_cards("9h 9c")
    for button in (0, 2, 4):
        res = allin_ev(specs_of(hands, committed), cards_str(board), "9h9c", button=button,
                       threads=1)
        assert_matches_reference(res, hands, committed, board, dead, button)


@pytest.mark.parametrize("specs,board,button", quick_first([
    (["AhAs:60", "KdKc:120", "QhQs:240", "JcTc:500"], "", 0),      # the spot
    (["AcKc:55", "AdKd:55", "QsJs:21"], "2c7h9d", 1),                # splits on a flop
    (["AhAs:100", "KdKc:60", "QhQs:30", "JcJd:130", "fold:20"], "", 2),
    (["Ah2h:75", "Kh3h:75", "9c9d:33", "fold:11", "7h6h:75"], "", 4),  # flush-heavy, odd chips
], 2))
def test_exact_walk_equals_every_runout_to_the_chip(specs, board, button):
    """The reduced walk's chip totals equal a plain walk of every runout exactly, on
    preflop spots too long for the Python reference (Fractions compared, not floats)."""
    from fractions import Fraction

    from simulate.pots import build_pots, odd_chip_order, pots_to_arrays

    res = allin_ev(specs, board, button=button, threads=1)
    assert res.exact
    seats = [s.rsplit(":", 1) for s in specs]
    live = [c != "fold" for c, _ in seats]
    structure = build_pots([int(x) for _, x in seats], live)
    live_seats = [s for s in range(len(seats)) if live[s]]
    amounts, elig = pots_to_arrays(structure)
    hole = np.array([parse_cards(seats[s][0]) for s in live_seats], np.uint8)
    b = np.array(parse_cards(board), np.uint8)
    deck = np.array([c for c in range(52) if c not in set(hole.ravel()) | set(b)], np.uint8)
    order = np.array([live_seats.index(s) for s in odd_chip_order(len(seats), button)
                      if live[s]], np.int64)
    win = np.zeros((len(amounts), len(live_seats)), np.int64)
    n = allin_walk(hole, b, deck, amounts, elig[:, live_seats], order, win)
    assert res.samples == n == math.comb(len(deck), 5 - len(b))
    for i, s in enumerate(live_seats):
        want = Fraction(int(win[:, i].sum()), n) + structure.returned[s]
        assert math.isclose(res.players[s].expected_payout, want, rel_tol=1e-15)
        for p, pot in enumerate(structure.pots):  # chip totals: equal to the last chip
            assert res.players[s].pot_equity[p] == float(Fraction(int(win[p, i]),
                                                                  n * pot.amount))
    assert allin_ev(specs, board, button=button, threads=2).to_dict()["players"] == \
        res.to_dict()["players"]


@pytest.mark.parametrize("specs,board,dead", [
    (["AcKc:55", "AdKd:55", "QsJs:21"], "2c7h9d", ""),  # splits on a flop
    (["AhAs:100", "KdKc:60", "QhQs:30", "JcJd:130", "fold:20"], "Ks8h2c4d", "9h"),
    (["Ah2h:75", "Kh3h:75", "9c9d:33"], "5h6h7c8s9s", ""),  # the river: one runout
    (["AhKh:50", "QsQd:50"], "Ts9h2h", ""),
])
def test_board_by_board_equals_the_reduced_walk(specs, board, dead, monkeypatch):
    # A flop, turn or river all-in of exact Hold'em hands settles its few hundred boards
    # one by one (exact_runouts, which compiles in a fraction of the walk's time); the
    # reduced walk gives the same chip totals.
    from simulate._kernels import allin as K

    plain = allin_ev(specs, board, dead, exact=True, threads=1)
    monkeypatch.setattr(K, "PLAIN_MAX_CARDS", -1)
    walked = allin_ev(specs, board, dead, exact=True, threads=1)
    assert plain.samples == walked.samples
    assert plain.to_dict()["players"] == walked.to_dict()["players"]


# ---------------------------------------------------------------------------
# Chip conservation and settlement on every finished board (property test)
# ---------------------------------------------------------------------------

PLAYING_BOARDS = ["AsKsQsJsTs", "2c2d2h2s3c", "5h5d5s9c9d"]


@st.composite
def finished_hands(draw):
    n = draw(st.integers(2, 10))
    rng = random.Random(draw(st.integers(0, 2**32)))
    mode = draw(st.sampled_from(["random", "plays", "plays", "pairs"]))
    deck = list(range(52))
    if mode == "plays":
        board = parse_cards(rng.choice(PLAYING_BOARDS))
        deck = [c for c in deck if c not in board]
        rng.shuffle(deck)
    else:
        rng.shuffle(deck)
        board, deck = deck[:5], deck[5:]
    live = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    live[draw(st.integers(0, n - 1))] = True
    hands = [sorted(deck[2 * i:2 * i + 2]) if live[i] else None for i in range(n)]
    top = draw(st.sampled_from([3, 10, 500]))
    committed = draw(st.lists(st.integers(1, top), min_size=n, max_size=n))
    max_live = max(c for c, a in zip(committed, live, strict=True) if a)
    committed = [c if a else min(c, max_live) for c, a in zip(committed, live, strict=True)]
    button = draw(st.integers(0, n - 1))
    return hands, committed, board, button


@settings(max_examples=examples(250), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(finished_hands())
def test_every_settled_runout_conserves_chips_and_matches_reference(spot):
    hands, committed, board, button = spot
    res = allin_ev(specs_of(hands, committed), cards_str(board), button=button, threads=1)
    payouts = [p.expected_payout for p in res.players]
    assert all(float(x).is_integer() for x in payouts)
    assert sum(int(x) for x in payouts) == sum(committed)
    assert res.samples in (0, 1) and res.exact
    pots, returned = ref_pots(committed, [h is not None for h in hands])
    strengths = [strength_of_ids(board + h) if h else None for h in hands]
    want, _ = ref_settle_runout(pots, returned, strengths, button)
    assert [int(x) for x in payouts] == want
    assert all(payouts[s] == 0 for s in range(len(hands)) if hands[s] is None)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(finished_hands(), st.integers(0, 2))
def test_incomplete_boards_conserve_chips_on_average(spot, cut):
    hands, committed, board, button = spot
    board = board[: (0, 3, 4)[cut]]  # preflop (sampled), flop, turn (exact)
    res = allin_ev(specs_of(hands, committed), cards_str(board), button=button, threads=1,
                   samples=None if cut else 20_000, seed=1)
    total = sum(p.expected_payout for p in res.players)
    assert math.isclose(total, sum(committed), rel_tol=1e-12)
    for i in range(len(res.pots)):
        shares = sum(p.pot_equity[i] for p in res.players)
        assert math.isclose(shares, 1.0, rel_tol=1e-12)


def test_eleven_chips_three_ways_pays_4_4_3_from_the_button():
    specs = ["2c3d:3", "4h5c:3", "6d7h:3", "fold:2"]  # the board plays: royal flush
    for button, want in [(3, [4, 4, 3, 0]), (0, [3, 4, 4, 0]), (1, [4, 3, 4, 0]),
                         (2, [4, 4, 3, 0])]:
        res = allin_ev(specs, "AsKsQsJsTs", button=button)
        assert [p.expected_payout for p in res.players] == want
        assert res.pots[0].amount == 11


# ---------------------------------------------------------------------------
# Heads-up and single pots reduce to equity x pot; side pots to sums of them
# ---------------------------------------------------------------------------


def exact_equities(hands, board="", dead=""):
    """Exact equities from every engine at hand: OMPEval (an outsider) and simulate.equity."""
    answers = []
    try:
        import peers

        if peers.available("ompeval"):
            answers.append(peers.ompeval_equity(hands, board, dead, exact=True).equities)
    except ImportError:
        pass
    try:
        from simulate import equity
    except ImportError:
        equity = None
    if equity is not None:
        answers.append([p.equity for p in equity(hands, board, dead, exact=True).players])
    if not answers:
        pytest.skip("no exact equity engine to compare with")
    return answers


@pytest.mark.parametrize("hands,board", [
    (["AhKh", "QsQd"], "Ks8h2c"), (["7c7d", "AsKd"], "Td9d2c5h"), (["AhKd", "AcKs"], "Qh3c7d"),
])
def test_heads_up_is_equity_times_pot(hands, board):
    # Equal stacks: one pot of 2 x 150 (even, so a split has no odd chip).
    res = allin_ev([f"{hands[0]}:150", f"{hands[1]}:150"], board)
    ids = [parse_cards(h) for h in hands]
    eq = holdem_equities(ids, parse_cards(board))
    for p, e in zip(res.players, eq, strict=True):
        assert math.isclose(p.expected_payout, 300 * e, rel_tol=1e-12)
    # Unequal stacks: the short stack's amount is at risk, the rest comes back.
    res = allin_ev([f"{hands[0]}:150", f"{hands[1]}:90"], board)
    assert res.players[0].returned == 60
    assert math.isclose(res.players[0].expected_payout, 60 + 180 * eq[0], rel_tol=1e-12)
    assert math.isclose(res.players[1].expected_payout, 180 * eq[1], rel_tol=1e-12)


def test_single_pot_preflop_is_equity_times_pot():
    hands = ["AhKh", "QsQd", "7c7d"]
    # 3 x 50 + 30 dead: 180 chips, divisible by 2 and 3 (no odd chips)
    res = allin_ev([f"{h}:50" for h in hands] + ["fold:30"], threads=2)
    assert len(res.pots) == 1 and res.pots[0].amount == 180
    assert res.players[3].expected_payout == 0
    for eq in exact_equities(hands):
        for p, e in zip(res.players[:3], eq, strict=True):
            assert math.isclose(p.expected_payout, 180 * e, rel_tol=1e-9)


def test_side_pots_are_sums_of_pot_equities():
    # Each pot is won by the best hand among its eligible seats, with the other hands
    # dead: pot equity = equity of the eligible hands with the others as dead cards.
    # Amounts divisible by 2, 3 and 4 so that no split leaves an odd chip.
    hands = ["AhAs", "KdKc", "QhQs", "JcJd"]
    res = allin_ev([f"{h}:{c}" for h, c in zip(hands, [120, 60, 30, 120], strict=True)],
                   threads=2)
    assert [(p.amount, p.eligible) for p in res.pots] == [(120, (0, 1, 2, 3)),
                                                           (90, (0, 1, 3)), (120, (0, 3))]
    n_engines = len(exact_equities(hands))
    for k in range(n_engines):
        expected = [0.0] * 4
        for i, pot in enumerate(res.pots):
            live = [hands[s] for s in pot.eligible]
            dead = "".join(hands[s] for s in range(4) if s not in pot.eligible)
            eq = exact_equities(live, "", dead)[k]
            for s, e in zip(pot.eligible, eq, strict=True):
                expected[s] += pot.amount * e
                assert math.isclose(res.players[s].pot_equity[i], e, rel_tol=1e-9)
        for p, e in zip(res.players, expected, strict=True):
            assert math.isclose(p.expected_payout, e, rel_tol=1e-9)


# ---------------------------------------------------------------------------
# Monte Carlo
# ---------------------------------------------------------------------------

MC_SPEC = ["AhAs:100", "KdKc:60", "QhQs:30", "JcJd:130", "fold:25"]


def test_monte_carlo_within_four_std_errors_of_exact():
    exact = allin_ev(MC_SPEC, threads=2)
    mc = allin_ev(MC_SPEC, samples=200_000, seed=11, threads=2)
    assert not mc.exact and mc.samples == 200_000 and mc.seed == 11
    for e, m in zip(exact.players, mc.players, strict=True):
        if not m.live:
            assert m.expected_payout == 0 and m.std_error == 0
            continue
        assert 0 < m.std_error < 1
        assert abs(e.expected_payout - m.expected_payout) <= 4 * m.std_error
    assert math.isclose(sum(p.expected_payout for p in mc.players), 345)
    flop = allin_ev(MC_SPEC, "Ks8h2c", samples=50_000, seed=3)
    flop_exact = allin_ev(MC_SPEC, "Ks8h2c")
    for e, m in zip(flop_exact.players, flop.players, strict=True):
        assert abs(e.expected_payout - m.expected_payout) <= 4 * m.std_error + 1e-9


def test_mode_choice_and_trivial_spots():
    res = allin_ev(["AhAs:100", "KdKc:60"], "Ks8h2c")
    assert res.exact and res.samples == math.comb(45, 2) and res.seed is None
    # complete board: one runout, exact even when sampling was asked for
    res = allin_ev(["AhAs:100", "KdKc:60"], "Ks8h2c3d4s", samples=1000)
    assert res.exact and res.samples == 1
    # one live player: takes everything, nothing to deal
    res = allin_ev(["AhAs:10", "fold:10", (None, 5)])
    assert res.exact and res.samples == 0
    assert [p.expected_payout for p in res.players] == [25, 0, 0]
    assert [p.ev for p in res.players] == [15, -10, -5]
    # tuple form with card ids, numpy ints
    res = allin_ev([(parse_cards("AhAs"), np.int64(50)), ("KdKc", 50)], "Ks8h2c",
                   dead=parse_cards("2d"))
    assert res.players[0].hand == "AhAs" and res.dead == "2d"


@pytest.mark.parametrize("players,kwargs,message", [
    (["AhAs:100"], {}, "need 2 to 10 seats, got 1"),
    ([f"fold:{i}" for i in range(1, 12)], {}, "need 2 to 10 seats, got 11"),
    (["fold:10", "fold:20"], {}, "no live player"),
    (["AhAs:0", "KdKc:10"], {}, "seat 0: committed chips must be positive, got 0"),
    (["AhAs:10", "KdKc:1.5"], {}, "seat 1: chips must be a positive integer, got '1.5'"),
    (["AhAs:10", "KdKc:-5"], {}, "seat 1: chips must be a positive integer, got '-5'"),
    (["AhAs:10", "KdKc"], {}, "seat 1: expected CARDS:CHIPS or fold:CHIPS"),
    (["AhAs:10", ("KdKc", 2.5)], {}, "seat 1: chips must be a positive integer"),
    (["AhAs:10", ("KdKc", True)], {}, "seat 1: chips must be a positive integer"),
    (["AhAs:100", "fold:200", "KdKc:50"], {}, "dead money above every live commitment"),
    (["AhAs:100", "AhKc:50"], {}, "duplicate card Ah in seat 0 and seat 1"),
    (["AhAs:100", "KdKc:50", "QcQd:10"], {"board": "Kd8h2c"},
     "duplicate card Kd in seat 1 and board"),
    (["AhAs:100", "KdKc:50"], {"dead": "As"}, "duplicate card As in seat 0 and dead cards"),
    (["AhAs:100", "KdKc:50"], {"board": "2c3c"}, "a board has 0, 3, 4 or 5 cards, got 2"),
    (["AhAsKs:100", "KdKc:50"], {}, "seat 0 has 3 cards; Hold'em hands have 2"),
    (["AhXx:100", "KdKc:50"], {}, "'Xx' in seat 0 is not a card"),
    (["AhAs:100", "KdKc:50"], {"button": 2}, "button 2 is not a seat"),
    (["AhAs:100", "KdKc:50"], {"samples": 0}, "samples must be positive"),
    (["AhAs:100", "KdKc:50"], {"exact": True, "samples": 10}, "exact=True cannot be combined"),
    (["AhAs:100", "KdKc:50"], {"target_std_error": -1.0}, "target_std_error must be positive"),
    ("AhAs:100 KdKc:50", {}, "players must be a list"),
])
def test_bad_input_is_one_line_value_error(players, kwargs, message):
    with pytest.raises(ValueError) as info:
        allin_ev(players, **kwargs)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_card_errors_are_card_errors():
    with pytest.raises(CardError):
        allin_ev(["AhAs:100", "AhKc:50"])


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


def test_cli_table(capsys):
    assert main(["allin", "AhAs:100", "KdKc:60", "QhQs:30", "--board", "Ks8h2c"]) == 0
    out = capsys.readouterr().out
    assert "exact, 903 runouts" in out
    assert "main pot" in out and "side pot 1" in out
    assert "uncalled: 40 chips returned to seat 0" in out
    assert "KdKc" in out and "expected" in out


def test_cli_json(capsys):
    argv = ["allin", "AhAs:100", "KdKc:60", "fold:10", "--board", "Ks8h2c", "--button", "1",
            "--samples", "20000", "--seed", "4", "--json"]
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {"pots", "players", "exact", "samples"} <= set(doc)
    assert doc["exact"] is False and doc["samples"] == 20000 and doc["seed"] == 4
    assert doc["pots"] == [{"amount": 130, "eligible": [0, 1]}]
    for p in doc["players"]:
        assert {"hand", "committed", "expected_payout", "ev"} <= set(p)
        assert math.isclose(p["ev"], p["expected_payout"] - p["committed"])
    assert doc["players"][2]["hand"] == "fold"
    api = allin_ev(["AhAs:100", "KdKc:60", "fold:10"], "Ks8h2c", button=1, samples=20000,
                   seed=4)
    assert [p["expected_payout"] for p in doc["players"]] == [
        p.expected_payout for p in api.players]


@pytest.mark.parametrize("argv,message", [
    (["AhAs:100"], "need 2 to 10 seats"),
    (["fold:10", "fold:20"], "no live player"),
    (["AhAs:0", "KdKc:10"], "must be positive"),
    (["AhAs:10", "KdKc:x"], "must be a positive integer"),
    (["AhAs:100", "fold:200", "KdKc:50"], "dead money above every live commitment"),
    (["AhAs:100", "KdKc:50", "--board", "Kd8h2c"], "duplicate card Kd in seat 1 and board"),
    (["AhAs:100", "KdKc:50", "--button", "7"], "button 7 is not a seat"),
    (["AhAs:100", "KdKc:50", "--button", "x"], "--button must be a seat number"),
    (["AhAs:100", "KdKc:50", "--samples", "0"], "--samples must be positive"),
    (["AhAs:100", "KdKc:50", "--exact", "--samples", "5"],
     "--exact cannot be combined with --samples"),
])
def test_cli_bad_input_exits_2_with_one_line(capsys, argv, message):
    assert main(["allin", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
