"""The tournament side of ``allin_ev`` (``stacks=``, ``payouts=``, ``posted=``) and of
``pokerjit allin --stacks --payouts --posted``: against a spot worked out by hand and the
reference's runout-by-runout ICM."""

from __future__ import annotations

import json

import pytest

from evaluator.cards import parse_cards
from simulate import allin_ev, icm
from simulate.cli import main
from tests.reference import allin_icm, icm_by_orders

PAY = [50, 30, 20]


def test_a_river_spot_with_a_side_pot_and_a_tie_by_hand():
    """River Ks Qd 7c 2h 3d. Seat 0 AhAs and seat 1 AdAc (the same aces with the board's
    kickers: a tie) put in 100 each, seat 2 QhQs (a set) 30. Main pot 90 (all three): the set
    wins. Side pot 140 (seats 0, 1): aces tie, 70 each. Stacks behind 0, 20, 70."""
    r = allin_ev(["AhAs:100", "AdAc:100", "QhQs:30"], "KsQd7c2h3d",
                 stacks=[0, 20, 70], payouts=PAY)
    final = [70, 90, 160]  # 0 + 70, 20 + 70, 70 + 90
    want = icm_by_orders(final, PAY)
    assert [p.icm_equity for p in r.players] == pytest.approx(want, rel=1e-12)
    # by hand: first place 70/320, 90/320, 160/320; e.g. seat 2 takes second behind seat 0
    # with 70/320 * 160/250, behind seat 1 with 90/320 * 160/230
    p1 = 160 / 320
    p2 = 70 / 320 * 160 / 250 + 90 / 320 * 160 / 230
    assert r.players[2].icm_equity == pytest.approx(50 * p1 + 30 * p2 + 20 * (1 - p1 - p2))
    assert r.players[0].expected_payout == 70  # chip EV unchanged


def test_a_turn_spot_with_side_pots_against_every_runout():
    hands = ["AhAs", "KdKc", "QhQs"]
    committed = [100, 60, 30]
    stacks, board = [0, 40, 70], "Ks8h2c4d"
    r = allin_ev([f"{h}:{c}" for h, c in zip(hands, committed, strict=True)], board,
                 stacks=stacks, payouts=PAY)
    want = allin_icm([parse_cards(h) for h in hands], committed, parse_cards(board), stacks,
                     PAY)
    assert [p.icm_equity for p in r.players] == pytest.approx(want, rel=1e-12)
    assert sum(p.icm_equity for p in r.players) == pytest.approx(sum(PAY))


def test_busting_places_by_starting_chips():
    """Seat 1 (60 + 10 behind) and seat 2 (30 + 0) can both bust on the river: the one
    that started with more takes the better place."""
    hands = ["AhAs", "KdKc", "QhQs"]
    committed, stacks, board = [100, 60, 30], [5, 10, 0], "Ks8h2c4d"
    r = allin_ev([f"{h}:{c}" for h, c in zip(hands, committed, strict=True)], board,
                 stacks=stacks, payouts=PAY)
    want = allin_icm([parse_cards(h) for h in hands], committed, parse_cards(board), stacks,
                     PAY)
    assert [p.icm_equity for p in r.players] == pytest.approx(want, rel=1e-12)


def test_if_folded_keeps_the_chips_not_posted():
    """Heads-up preflop, 100 in each: folding with 20 posted, seat 0 keeps 80 and seat 1
    takes back 120 (its 80 uncalled and the 40 pot); folding with 10 posted, seat 1 keeps
    50 + 90 and seat 0 takes back 110."""
    r = allin_ev(["AhKh:100", "QsQd:100", "fold:0"], stacks=[0, 50, 150], payouts=PAY,
                 posted=[20, 10, 0])
    folded_0 = icm([80, 170, 150], PAY)[0]
    folded_1 = icm([110, 140, 150], PAY)[1]
    assert r.players[0].icm_equity_if_folded == pytest.approx(folded_0)
    assert r.players[1].icm_equity_if_folded == pytest.approx(folded_1)
    assert r.players[2].icm_equity_if_folded == pytest.approx(r.players[2].icm_equity)


@pytest.mark.parametrize("kw,needle", [
    ({"stacks": [0, 10]}, "both stacks and payouts"),
    ({"stacks": [0, 10, 3], "payouts": [1]}, "3 given for 2 seats"),
    ({"stacks": [0, -1], "payouts": [1]}, "negative"),
    ({"stacks": [0, 1], "payouts": [1, 2, 3]}, "3 places paid"),
    ({"stacks": [0, 1], "payouts": [1], "posted": [200, 0]}, "posted 200"),
    ({"posted": [1, 1]}, "posted needs"),
    ({"stacks": [0, 1], "payouts": [1e308, 1e308]}, "payouts: the total is too large"),
])
def test_bad_tournament_input(kw, needle):
    with pytest.raises(ValueError, match=needle):
        allin_ev(["AhAs:100", "KdKc:100"], **kw)


def test_ranges_are_refused_with_one_line():
    with pytest.raises(ValueError, match="exact Hold'em hands"):
        allin_ev(["QQ+:100", "KdKc:100"], stacks=[0, 0], payouts=[1])


def test_cli(capsys):
    assert main(["allin", "AhAs:100", "KdKc:60", "QhQs:30", "--board", "Ks8h2c4d", "--stacks",
                 "0", "40", "70", "--payouts", "50", "30", "20", "--posted", "0", "0", "10",
                 "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert all({"icm_equity", "icm_equity_if_folded"} <= set(p) for p in d["players"])
    assert sum(p["icm_equity"] for p in d["players"]) == pytest.approx(100)
    assert main(["allin", "AhAs:100", "KdKc:60", "fold:0", "--stacks", "0", "40", "500",
                 "--payouts", "50", "30", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["players"][2]["icm_equity"] > 25  # the big stack out of the pot
    assert main(["allin", "AhAs:100", "fold:0", "--stacks", "0", "10", "--payouts", "50",
                 "30"]) == 0  # no pot at all: everything goes back
    assert "48.1818" in capsys.readouterr().out
    assert main(["allin", "AhAs:100", "KdKc:0", "--stacks", "0", "40", "--payouts", "1"]) == 2
    assert "seat 1: committed chips must be positive" in capsys.readouterr().err
    assert main(["allin", "AhAs:100", "KdKc:60", "--stacks", "0", "40"]) == 2
    assert "--payouts" in capsys.readouterr().err
    assert main(["allin", "AhAs:100", "KdKc:60", "--stacks", "0", "x", "--payouts", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'x' is not a number" in err
