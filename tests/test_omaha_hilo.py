"""Omaha hi/lo eight or better (``omaha_hilo``, ``omaha5_hilo``) above the evaluator: the
scorer's hi/lo rule, exact equity and all-in EV with side pots against the obvious walks
of tests/reference.py (every runout, each pot halved by the rule, every chip dealt by hand)
to the last fraction, Monte Carlo within 4 standard errors of exact, and bad input."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from reference import (
    hilo_allin_totals,
    hilo_equity_walk,
    ref_hilo_settle_runout,
    ref_pots,
)

import simulate
import simulate._kernels.score as S
from evaluator.cards import CardError, card_str, parse_cards
from simulate.allin_engines import engine_for
from simulate.cli import main as cli_main
from simulate.request import parse_allin_spot


def _random_spot(rng: random.Random, game: str, n_players: int, n_board: int):
    n_hole = 5 if game == "omaha5_hilo" else 4
    cards = [card_str(c) for c in rng.sample(range(52), n_players * n_hole + n_board)]
    hands = ["".join(cards[i * n_hole:(i + 1) * n_hole]) for i in range(n_players)]
    return hands, "".join(cards[n_players * n_hole:])


# ---------------------------------------------------------------- the scorer's rule
def test_award_hilo_equals_the_chip_dealer():
    """Random side pots, highs and lows (small ranges: ties and quartering are common),
    through the compiled scorer and the reference dealer, chip for chip."""
    rng = random.Random(5)
    for _ in range(400):
        n = rng.randint(2, 6)
        committed = [rng.randint(1, rng.choice([3, 11, 101])) for _ in range(n)]
        live = [rng.random() < 0.85 for _ in range(n)]
        live[rng.randrange(n)] = True
        top = max(c for c, a in zip(committed, live, strict=True) if a)
        committed = [c if a else min(c, top) for c, a in zip(committed, live, strict=True)]
        pots, returned = ref_pots(committed, live)
        if not pots:
            continue
        button = rng.randrange(n)
        highs = [rng.randint(1, 3) for _ in range(n)]
        lows = [rng.choice([0, 0, 1, 2]) for _ in range(n)]
        want, _, _ = ref_hilo_settle_runout(
            pots, returned, highs, [-v if v else None for v in lows], button)
        amounts = np.array([a for a, _ in pots], np.int64)
        elig = np.array([[s in e for s in range(n)] for _, e in pots], np.bool_)
        order = np.array([(button + 1 + i) % n for i in range(n)], np.int64)
        sc = S.pots_scorer(amounts, elig, order, np.zeros(7463, np.uint8), hilo=True)
        S.score_row(np.array(highs + lows, np.int64), np.int64(1), sc)
        got = [int(x) + r for x, r in zip(sc[6], returned, strict=True)]
        assert got == want, (pots, highs, lows, button)
        assert sc[5].shape == (2 * len(pots), n)


def test_odd_chip_goes_high_then_left_of_the_button():
    # a pot of 11: the high takes 6, the low 5; two tied lows split 5 as 3 + 2, the first
    # tied low left of the button (seat 2, button 1) taking the odd chip
    amounts = np.array([11], np.int64)
    elig = np.ones((1, 3), np.bool_)
    order = np.array([2, 0, 1], np.int64)
    sc = S.pots_scorer(amounts, elig, order, np.zeros(7463, np.uint8), hilo=True)
    S.score_row(np.array([9, 1, 1, 0, 4, 4], np.int64), np.int64(1), sc)
    assert sc[6].tolist() == [6, 2, 3]
    assert sc[5].tolist() == [[6, 0, 0], [0, 2, 3]]


# ---------------------------------------------------------------- exact equity
SPOTS = [("omaha_hilo", 2, 4), ("omaha_hilo", 3, 4), ("omaha_hilo", 4, 5),
         ("omaha_hilo", 2, 5), ("omaha5_hilo", 2, 4), ("omaha5_hilo", 3, 5),
         ("omaha5_hilo", 4, 4)]


@pytest.mark.parametrize("game,n_players,n_board", SPOTS)
def test_exact_equity_equals_the_walk(game, n_players, n_board):
    rng = random.Random(hash((game, n_players, n_board)) & 0xFFFF)
    for _ in range(4):
        hands, board = _random_spot(rng, game, n_players, n_board)
        res = simulate.equity(hands, board, game=game, exact=True)
        eq, high, low, scoop, n = hilo_equity_walk(hands, board)
        assert res.exact and res.samples == n
        for p, pl in enumerate(res.players):
            assert pl.equity == float(eq[p])
            assert pl.high == float(high[p]) and pl.low == float(low[p])
            assert pl.scoop == float(scoop[p]) == pl.win
        assert sum(pl.equity for pl in res.players) == pytest.approx(1.0)


def test_board_without_a_low_is_plain_omaha():
    hands, board = ["AhAs2c3d", "KhKsQdJd"], "9c9dTsJc"
    hl = simulate.equity(hands, board, game="omaha_hilo")
    hi = simulate.equity(hands, board, game="omaha")
    for a, b in zip(hl.players, hi.players, strict=True):
        assert a.equity == b.equity and a.high == b.equity and a.low == 0.0


def test_json_reports_high_low_scoop():
    d = simulate.equity(["Ah2h3c4d", "KsKdQcJh"], "5c6d9s", game="omaha_hilo").to_dict()
    for p in d["players"]:
        assert {"high", "low", "scoop"} <= set(p)
        assert p["equity"] == pytest.approx(p["high"] + p["low"])
    plain = simulate.equity(["Ah2h3c4d", "KsKdQcJh"], "5c6d9s", game="omaha").to_dict()
    assert "high" not in plain["players"][0]


# ---------------------------------------------------------------- Monte Carlo
@pytest.mark.parametrize("game,board", [("omaha_hilo", "7c9d2s"), ("omaha5_hilo", "")])
def test_monte_carlo_within_4_std_errors(game, board):
    hands = (["Ah2h3c4d", "KsKdQcJh", "5s6s7d8d"] if game == "omaha_hilo"
             else ["Ah2h3c4dKc", "KsKdQcJhTs"])
    exact = simulate.equity(hands, board, game=game, exact=True)
    mc = simulate.equity(hands, board, game=game, exact=False, samples=300_000, seed=11)
    assert not mc.exact and mc.samples == 300_000
    for a, b in zip(mc.players, exact.players, strict=True):
        assert a.std_error > 0
        assert abs(a.equity - b.equity) <= 4 * a.std_error
        assert abs(a.high - b.high) <= 0.01 and abs(a.low - b.low) <= 0.01
    again = simulate.equity(hands, board, game=game, exact=False, samples=300_000, seed=11,
                            threads=1)
    assert [p.equity for p in again.players] == [p.equity for p in mc.players]


# ---------------------------------------------------------------- all-in EV, side pots
ALLINS = [
    (["AhAs2c3d:100", "KhKsQdJd:60", "4c5c8h9h:30", "fold:7"], "7c8d9s2h", 1),
    (["Ah2h3c4d:50", "As2s5c6d:50", "KcKdQhJh:80"], "7h8h9cTd", 0),
    (["Ah2h3c4d:33", "As2s5c6d:21"], "7h8h9c3s2d", 1),
    (["Ac2c3h4hKd:45", "AdJd3s4s5c:45", "7c7d8h9sTs:20", "fold:3"], "6c8dKs2h", 2),
]


@pytest.mark.parametrize("players,board,button", ALLINS)
def test_exact_allin_equals_the_chip_dealer(players, board, button):
    game = "omaha5_hilo" if len(players[0].split(":")[0]) == 10 else "omaha_hilo"
    spot = parse_allin_spot(players, board, "", button, game=game)
    engine = engine_for(spot)
    win, n = engine.exact(1)
    hands = [None if p.startswith("fold") else parse_cards(p.split(":")[0]) for p in players]
    chips = [int(p.split(":")[1]) for p in players]
    totals, n_ref, pots = hilo_allin_totals(hands, chips, parse_cards(board), button=button)
    assert n == n_ref
    assert [(p.amount, tuple(p.eligible)) for p in spot.pots.pots] == pots
    got = [spot.pots.returned[s] * n for s in range(len(players))]
    for j, p in enumerate(engine.contested):
        for i, s in enumerate(engine.live_seats):
            got[s] += int(win[j, i])
    for p, pot in enumerate(spot.pots.pots):
        if p not in engine.contested:
            (s,) = pot.eligible
            got[s] += pot.amount * n
    assert got == totals
    res = simulate.allin_ev(players, board, button=button, game=game)
    for s, pl in enumerate(res.players):
        assert pl.expected_payout == pytest.approx(float(Fraction(totals[s], n)), abs=1e-9)


def test_monte_carlo_allin_within_4_std_errors():
    players, board, button = ALLINS[1]
    exact = simulate.allin_ev(players, board[:8], button=button, game="omaha_hilo")
    mc = simulate.allin_ev(players, board[:8], button=button, game="omaha_hilo",
                           exact=False, samples=200_000, seed=5)
    for a, b in zip(mc.players, exact.players, strict=True):
        assert abs(a.expected_payout - b.expected_payout) <= 4 * a.std_error + 1e-9


# ---------------------------------------------------------------- bad input
def test_a_four_card_hand_in_omaha5_hilo_is_one_line(capsys):
    with pytest.raises(CardError, match="hand 1 has 4 cards; omaha5_hilo hands have 5"):
        simulate.equity(["AhKh2c3c", "QsQd2d3d4d"], game="omaha5_hilo")
    rc = cli_main(["equity", "AhKh2c3c", "QsQd2d3d4d", "--game", "omaha5_hilo"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "omaha5_hilo" in err and err.startswith("error:")


def test_cli_equity_table_and_json(capsys):
    import json

    rc = cli_main(["equity", "Ah2h3c4d", "KsKdQcJh", "--board", "5c6d9s", "--game",
                   "omaha_hilo", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["game"] == "omaha_hilo"
    assert out["players"][0]["low"] > 0 and out["players"][1]["low"] == 0
    rc = cli_main(["equity", "Ah2h3c4d", "KsKdQcJh", "--board", "5c6d9s", "--game",
                   "omaha_hilo"])
    text = capsys.readouterr().out
    assert rc == 0 and "high" in text and "low" in text and "scoop" in text
