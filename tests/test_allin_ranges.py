"""allin_ev with ranges, Omaha hands, dead money and seats that put in nothing.

The reference enumerates every card-disjoint tuple of the seats' combos with
itertools, weights it by the product of the combos' weights, walks every runout,
scores hands with the pure-Python ``strength_of_ids`` (Hold'em) or the rules-based
``reference.omaha_tuple`` (Omaha) and settles with the slow chip-by-chip dealer
(all in ``tests/reference.py``).
"""

from __future__ import annotations

import json
import math

import pytest
from reference import range_allin_payouts

from evaluator.cards import CardError
from simulate import allin_ev
from simulate.cli import main

RANGE_SPOTS = [
    # turn, three seats, two pots; integer weights (exact Fractions inside)
    (["QQ+:100", "AhKh:60", "TT,JJ,AQs:30"], "Ks8h2c4d", "", 1),
    # river, four seats, side pots, a fold, fractional weights (float sums)
    (["KK+,AKs:0.5:120", "fold:15", "AhQh:90", "99-77:0.25,AJs:45", "T9s,KQ:70"],
     "Ks8h2c4dJc", "", 3),
    # turn, the ranged seat last, dead cards
    (["AcAd:80", "7s7h:50", "88+,ATs+:0.75:80"], "Td9d2c5h", "3s3h", 0),
    # heads-up (range equity's walk), an odd pot: the odd chip left of the button
    (["QQ+,AKs:0.5:100", "fold:7", "AhKh:60"], "Ks8h2c4d", "", 1),
    (["QQ+,AKs:0.5:100", "fold:7", "AhKh:60"], "Ks8h2c4d", "", 2),
    # heads-up against random on the river (range equity's versus-random walk)
    (["random:50", "fold:3", "AhKh:50"], "Ks8h2c4dJc", "", 0),
]


@pytest.mark.slow
@pytest.mark.parametrize("specs,board,dead,button", RANGE_SPOTS)
def test_exact_range_ev_matches_brute_force(specs, board, dead, button):
    res = allin_ev(specs, board, dead, button=button, threads=1)
    assert res.exact
    want = range_allin_payouts(specs, board, dead, button)
    for p, w in zip(res.players, want, strict=True):
        assert math.isclose(p.expected_payout, w, rel_tol=1e-9, abs_tol=1e-9), (p, w)
    total = sum(int(s.rsplit(":", 1)[1]) for s in specs)
    assert math.isclose(sum(p.expected_payout for p in res.players), total, rel_tol=1e-12)
    for i in range(len(res.pots)):
        assert math.isclose(sum(p.pot_equity[i] for p in res.players), 1.0, rel_tol=1e-12)
    par = allin_ev(specs, board, dead, button=button, threads=2, exact=True)
    assert [p.expected_payout for p in par.players] == [p.expected_payout for p in res.players]


def test_range_monte_carlo_within_four_std_errors_and_seeded():
    specs = ["QQ+:100", "AhKh:60", "random:30", "fold:10"]
    board = "Ks8h2c4d"
    exact = allin_ev(specs, board)
    assert exact.exact and exact.players[2].hand == "random"
    mc = allin_ev(specs, board, samples=300_000, seed=9, threads=2)
    assert not mc.exact and mc.samples == 300_000
    for e, m in zip(exact.players, mc.players, strict=True):
        if m.live:
            assert 0 < m.std_error and abs(e.expected_payout - m.expected_payout) <= 4 * m.std_error
    assert math.isclose(sum(p.expected_payout for p in mc.players), 200)
    one = allin_ev(specs, board, samples=40_000, seed=5, threads=1).to_dict()["players"]
    two = allin_ev(specs, board, samples=40_000, seed=5, threads=2).to_dict()["players"]
    assert one == two
    # preflop: sampled by default (too many tuples x runouts to walk), still conserving
    pre = allin_ev(["QQ+:100", "AhKh:60", "random:30"], samples=50_000, seed=1)
    assert not pre.exact and math.isclose(sum(p.expected_payout for p in pre.players), 190)


def test_range_errors():
    with pytest.raises(CardError, match="no combos left"):
        allin_ev(["AhAs:100", "AA:50"], dead="Ad")
    with pytest.raises(CardError, match="no deal is possible"):
        allin_ev(["AsAh,AsAd:100", "AsAc,AhAd:50", "AcAd,AhAc:50"], "2c3c4c5d")
    with pytest.raises(CardError, match="not a card"):
        allin_ev(["AhAsKsKh:100", "AA:50"], game="omaha")
    with pytest.raises(ValueError, match="game must be"):
        allin_ev(["AhAs:100", "KdKc:50"], game="razz")


# ---------------------------------------------------------------- dead money, zero seats

def test_dead_money_joins_the_main_pot():
    specs = ["AhAs:100", "KdKc:60", "QhQs:30"]
    res = allin_ev(specs, "Ks8h2c", button=1, dead_money=13)
    assert [(p.amount, p.eligible) for p in res.pots] == [(103, (0, 1, 2)), (60, (0, 1))]
    assert res.dead_money == 13 and res.to_dict()["dead_money"] == 13
    assert math.isclose(sum(p.expected_payout for p in res.players), 190 + 13)
    # the same as a folded seat's chips that every live seat has matched
    same = allin_ev([*specs, "fold:13"], "Ks8h2c", button=1)
    for a, b in zip(res.players, same.players[:3], strict=True):
        assert math.isclose(a.expected_payout, b.expected_payout, rel_tol=1e-12)
    want = range_allin_payouts(specs, "Ks8h2c", button=1, dead_money=13)
    assert [p.expected_payout for p in res.players] == pytest.approx(want, rel=1e-12)
    with pytest.raises(ValueError, match="dead money must be non-negative, got -1"):
        allin_ev(specs, dead_money=-1)


def test_seats_that_put_in_nothing():
    with pytest.raises(ValueError, match="must be positive"):
        allin_ev([("AhAs", 100), (None, 0), ("KdKc", 100)])
    res = allin_ev([("AhAs", 100), (None, 0), ("KdKc", 100)], "Ks8h2c", allow_zero=True,
                   dead_money=6)
    assert res.players[1].expected_payout == 0 and res.players[1].committed == 0
    assert [(p.amount, p.eligible) for p in res.pots] == [(206, (0, 2))]
    # a live seat with nothing in: eligible only for the dead money, a pot of its own
    res = allin_ev([("AhAs", 100), ("7c2d", 0), ("KdKc", 100)], "Ks8h2c", allow_zero=True,
                   dead_money=9)
    assert [(p.amount, p.eligible) for p in res.pots] == [(9, (0, 1, 2)), (200, (0, 2))]
    assert math.isclose(sum(p.expected_payout for p in res.players), 209)


# ---------------------------------------------------------------- Omaha

def test_omaha_side_pots_match_brute_force():
    specs = ["AhAsKhKs:100", "QdJdTc9c:60", "7c7d6s5s:30"]
    res = allin_ev(specs, "2c8h3dKd", button=2, game="omaha", threads=1)
    assert res.exact and res.samples == 52 - 12 - 4
    want = range_allin_payouts(specs, "2c8h3dKd", button=2, omaha=True)
    assert [p.expected_payout for p in res.players] == pytest.approx(want, rel=1e-12)


def test_omaha_heads_up_is_equity_times_pot_and_sampling():
    from simulate import equity

    hands = ["AhAsKhKs", "QdJdTc9c"]
    eq = equity(hands, "7s8h2c", game="omaha", exact=True)
    res = allin_ev([f"{h}:50" for h in hands], "7s8h2c", game="omaha")
    for p, e in zip(res.players, eq.players, strict=True):
        assert math.isclose(p.expected_payout, 100 * e.equity, rel_tol=1e-12)
    mc = allin_ev([f"{h}:50" for h in hands], "7s8h2c", game="omaha", samples=40_000, seed=2)
    for p, e in zip(mc.players, res.players, strict=True):
        assert abs(p.expected_payout - e.expected_payout) <= 4 * p.std_error
    again = allin_ev([f"{h}:50" for h in hands], "7s8h2c", game="omaha", samples=40_000, seed=2,
                     threads=1)
    assert again.to_dict()["players"] == mc.to_dict()["players"]


# ---------------------------------------------------------------- command line

def test_cli_ranges(capsys):
    argv = ["allin", "QQ+:100", "AhKh:60", "random:30", "--board", "Ks8h2c4d", "--json"]
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["exact"] is True and [p["hand"] for p in doc["players"]] == ["QQ+", "AhKh",
                                                                          "random"]
    assert math.isclose(sum(p["expected_payout"] for p in doc["players"]), 190)
    assert main(["allin", "QQ+,AKs:0.5:100", "AhKh:60", "--board", "Ks8h2c4d",
                 "--dead-money", "5"]) == 0
    out = capsys.readouterr().out
    assert "QQ+,AKs:0.5" in out and "dead money: 5" in out
    assert main(["allin", "AhAsKhKs:100", "QdJdTc9c:60", "--board", "7s8h2c", "--game",
                 "omaha"]) == 0
    assert "exact, 820 runouts" in capsys.readouterr().out
    assert main(["allin", "AA:100", "AhAs:50", "--dead", "Ad"]) == 2
    assert "no combos left" in capsys.readouterr().err


@pytest.mark.parametrize("game,hands", [
    ("omaha5", ["AhAsKhKs2c", "QdJdTc9c3c"]),
    ("omaha6", ["AhAsKhKs2c7d", "QdJdTc9c3c8h"]),
])
def test_every_omaha_game_of_the_table(game, hands):
    """``allin_ev`` plays every game of the games table: five- and six-card Omaha heads-up
    is the pot times the equity; a seat of the wrong size is refused."""
    from simulate import equity
    from simulate.games import GAMES
    from simulate.request import ALLIN_GAMES

    assert set(ALLIN_GAMES) == set(GAMES)
    eq = equity(hands, "7s6h2d", game=game, exact=True)
    res = allin_ev([f"{h}:50" for h in hands], "7s6h2d", game=game)
    assert res.exact and res.game == game and res.samples == eq.samples
    for p, q in zip(res.players, eq.players, strict=True):
        assert p.expected_payout == pytest.approx(100 * q.equity, abs=1e-9)
    mc = allin_ev([f"{h}:50" for h in hands], game=game, samples=20_000, seed=3)
    assert not mc.exact and math.isclose(sum(p.expected_payout for p in mc.players), 100)
    with pytest.raises(CardError, match=f"seat 0 has 4 cards; {game} hands have"):
        allin_ev(["AhAsKhKs:50", f"{hands[1]}:50"], game=game)
