"""Short-deck equity, ranges and all-ins (``game="short_deck"`` / ``"short_deck_triton"``)
against obvious brute force (:mod:`tests.reference`: the rules' tuples over every runout of
the 36-card deck), Monte Carlo within 4 standard errors of exact, and the bad-input lines.

The engines are Hold'em's, given the game's tables and its deck (the cards below the six
out), so these tests check that wiring rather than new kernels."""

from __future__ import annotations

import csv
import hashlib
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from reference import SHORT_DECK, holdem_walk, short_deck_walk

from evaluator.cards import CardError, parse_cards
from evaluator.hands import category_table
from simulate import allin_ev, equity, range_equity
from simulate.cli import main
from simulate.ranges import parse_range

GAMES = ("short_deck", "short_deck_triton")


# ----------------------------------------------------------------------------- exact hands
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("hands,board,dead", [
    (["AhKh", "QsQd"], "Ts9s7c6d", ""),
    (["AhKh", "QsQd", "8c8d"], "Jh9c6s", ""),
    (["As9s", "KdKc", "JhTh", "7c7d"], "8h 6h Qc Ad", "Ks"),
    (["Ac6d", "9h8h"], "TsJc7d", "Qh"),
    (["KhQh", "Jd9d"], "Ah Th 8h 7c 6s", ""),
])
def test_exact_equity_matches_brute_force(game, hands, board, dead):
    triton = game == "short_deck_triton"
    eq, win, tie, n = short_deck_walk(hands, board, dead, triton=triton)
    r = equity(hands, board, dead, game=game, exact=True)
    assert r.exact and r.samples == n and r.game == game
    for p, pr in enumerate(r.players):
        assert pr.equity == float(eq[p])
        assert pr.win == float(win[p]) and pr.tie == float(tie[p])


@pytest.mark.parametrize("game", GAMES)
def test_exact_preflop_matches_a_plain_walk_of_every_runout(game):
    """Heads-up and three-way preflop: the reduced walk against every one of the C(32, 5)
    (C(30, 5)) runouts scored by ``evaluate_batch`` on the game's scale."""
    for hands in (["AhKh", "QsQd"], ["AsKd", "9h8h", "7c7d"]):
        hole = np.array([parse_cards(h) for h in hands], np.uint8)
        used = {c for h in hole.tolist() for c in h}
        deck = np.array([c for c in SHORT_DECK if c not in used], np.uint8)
        res = np.zeros((len(hands), 3), np.int64)
        cats = np.zeros((len(hands), 9), np.int64)
        n = holdem_walk(hole, np.zeros(0, np.uint8), deck, category_table(game), res, cats,
                        game=game)
        assert n == math.comb(36 - 2 * len(hands), 5)
        r = equity(hands, game=game, exact=True)
        assert r.samples == n
        assert r.extra["counts"]["shares"] == res[:, 2].tolist()
        for p, pr in enumerate(r.players):
            assert pr.win == float(Fraction(int(res[p, 0]), n))
            assert pr.categories["Flush"] == float(Fraction(int(cats[p, 5]), n))


def test_the_two_rule_sets_differ_only_where_trips_meet_a_straight():
    # trips of sixes against a made straight on the board's side: the rules disagree
    hands, board = ["6h6d", "KhQd"], "6c 9s Jc Ts 7s"
    plain = equity(hands, board, game="short_deck", exact=True)
    triton = equity(hands, board, game="short_deck_triton", exact=True)
    assert plain.players[1].equity > plain.players[0].equity  # straight beats trips
    assert triton.players[0].equity > triton.players[1].equity  # trips beat the straight


@pytest.mark.parametrize("game", GAMES)
def test_monte_carlo_within_four_standard_errors_of_exact(game):
    for hands in (["AhKh", "QsQd"], ["AsKd", "9h8h", "7c7d", "JcTc"]):
        ex = equity(hands, game=game, exact=True)
        mc = equity(hands, game=game, samples=400_000, seed=5)
        assert not mc.exact and mc.samples == 400_000
        for e, m in zip(ex.players, mc.players, strict=True):
            assert abs(m.equity - e.equity) <= 4 * m.std_error


def test_monte_carlo_is_the_same_on_any_thread_count():
    a = equity(["AhKh", "QsQd", "9c9d"], game="short_deck", samples=100_000, seed=9, threads=1)
    b = equity(["AhKh", "QsQd", "9c9d"], game="short_deck", samples=100_000, seed=9, threads=2)
    assert [p.equity for p in a.players] == [p.equity for p in b.players]


def test_nine_players_use_the_36_card_deck():
    hands = ["AhAd", "KhKd", "QhQd", "JhJd", "ThTd", "9h9d", "8h8d", "7h7d", "6h6d"]
    r = equity(hands, game="short_deck", exact=True)
    assert r.samples == math.comb(18, 5)
    assert sum(p.equity for p in r.players) == pytest.approx(1.0)


# ----------------------------------------------------------------------------- ranges
def test_short_deck_ranges_hold_only_the_36_cards():
    assert len(parse_range("random", game="short_deck")) == 630
    assert len(parse_range("A6s+", game="short_deck")) == 8 * 4
    assert len(parse_range("99-66", game="short_deck")) == 4 * 6
    assert len(parse_range("top 100%", game="short_deck")) == 630
    # top N% counts N% of 630 by the game's own order
    assert len(parse_range("top 1%", game="short_deck")) == 12  # AA and KK
    with pytest.raises(CardError, match=r"'A2s\+' holds a 2, which is not in the short deck"):
        parse_range("A2s+", game="short_deck")
    with pytest.raises(CardError, match="'54s' holds a 4"):
        parse_range("QQ+,54s", game="short_deck_triton")


def test_range_equity_matches_brute_force_on_a_turn():
    specs, board = ["AKs,QQ", "JTs,99"], "Ah Qd 9c 6s"
    r = range_equity(specs, board, game="short_deck", exact=True)
    # every combo pair of the two ranges off the board, each walked by the reference
    a = [c for c in parse_range(specs[0], game="short_deck").without(
        set(parse_cards(board))).combo_texts()]
    b = [c for c in parse_range(specs[1], game="short_deck").without(
        set(parse_cards(board))).combo_texts()]
    total, eq0 = 0, Fraction(0)
    for x in a:
        for y in b:
            if set(parse_cards(x)) & set(parse_cards(y)):
                continue
            eq, _, _, n = short_deck_walk([x, y], board)
            eq0 += eq[0]
            total += 1
    assert r.players[0].equity == pytest.approx(float(eq0 / total), abs=1e-12)


def test_range_against_random_preflop_agrees_with_monte_carlo():
    ex = range_equity(["A6s+", "random"], game="short_deck_triton", exact=True)
    mc = range_equity(["A6s+", "random"], game="short_deck_triton", samples=300_000, seed=3)
    assert abs(ex.players[0].equity - mc.players[0].equity) <= 4 * mc.players[0].std_error
    assert ex.game == "short_deck_triton"


# ----------------------------------------------------------------------------- 81-class order
DATA = Path(__file__).resolve().parents[1] / "data"
#: sha256 of the shipped orders (``python -m simulate.preflop_order --game G`` writes them)
ORDER_DIGESTS = {
    "short_deck": "9b210159096c43694c61e299423e8905a64e84ee79347255929c613ebc72b04d",
    "short_deck_triton": "5725bc0982362c4860af55fde6ff632573536a1ad4b0a4dbbd3c7f61a8918761",
}


@pytest.mark.parametrize("game", GAMES)
def test_shipped_order_is_pinned_and_reproduces_a_few_rows(game):
    path = DATA / f"preflop_81_{game}.csv"
    assert hashlib.sha256(path.read_bytes()).hexdigest() == ORDER_DIGESTS[game]
    rows = list(csv.DictReader(path.open()))
    assert len(rows) == 81 and [int(r["rank"]) for r in rows] == list(range(1, 82))
    eq = [float(r["equity"]) for r in rows]
    assert eq == sorted(eq, reverse=True) and rows[0]["hand"] == "AA"
    assert all(r["hand"][1] in "6789TJQKA" for r in rows)
    by = {r["hand"]: float(r["equity"]) for r in rows}
    for hand in ("T9s", rows[-1]["hand"]):
        r = range_equity([hand, "random"], game=game, exact=True)
        assert r.players[0].equity == pytest.approx(by[hand], abs=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_shipped_order_regenerates_exactly(game, tmp_path):
    """The whole 81-class order, recomputed exactly by its script (a few seconds each)."""
    from simulate.preflop_order import main as regen

    out = tmp_path / "p.csv"
    assert regen(["--game", game, "-o", str(out)]) == 0
    assert hashlib.sha256(out.read_bytes()).hexdigest() == ORDER_DIGESTS[game]


# ----------------------------------------------------------------------------- all-in
@pytest.mark.parametrize("game", GAMES)
def test_allin_side_pots_match_brute_force(game):
    specs = ["AhAs:60", "KdKc:120", "QhQs:240", "JcTc:500"]
    board = "9h 8d 6c"
    r = allin_ev(specs, board, game=game, button=1, exact=True)
    hands = [s.split(":")[0] for s in specs]
    *_, pay = short_deck_walk(hands, board, triton=game.endswith("triton"),
                              committed=[60, 120, 240, 500], button=1)
    assert [p.expected_payout for p in r.players] == pytest.approx([float(x) for x in pay],
                                                                   abs=1e-9)
    assert len(r.pots) == 3


def test_allin_with_a_fold_and_a_range_monte_carlo_near_exact():
    specs = ["AhKh:100", "fold:20", "QQ+:100", "9c9d:40"]
    ex = allin_ev(specs, game="short_deck", exact=True)
    mc = allin_ev(specs, game="short_deck", samples=200_000, seed=4)
    for e, m in zip(ex.players, mc.players, strict=True):
        if e.hand != "fold":
            assert abs(m.expected_payout - e.expected_payout) <= 4 * m.std_error + 1e-9


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("argv,message", [
    (["equity", "AhKh", "Qs2d", "--game", "short_deck"],
     "error: 2d in hand 2 is not in the short deck (6 to A)"),
    (["equity", "AhKh", "QsQd", "--board", "5c7d8h", "--game", "short_deck_triton"],
     "error: 5c in board is not in the short deck (6 to A)"),
    (["equity", "A2s+", "random", "--game", "short_deck"],
     "error: 'A2s+' holds a 2, which is not in the short deck (6 to A)"),
    (["range", "QQ+", "--vs", "22+", "--game", "short_deck"], "holds a 2"),
    (["allin", "AhKh:10", "Qs4s:10", "--game", "short_deck"], "4s in seat 1 is not in"),
    (["eval", "Ah Kd Qc Jh 3s", "--game", "short_deck"], "3s in cards is not in"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(message if message.startswith("error") else "error: ")
    assert message in err and err.count("\n") == 1


def test_cli_json_names_the_game(capsys):
    assert main(["equity", "AhKh", "QsQd", "--game", "short_deck", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["game"] == "short_deck" and doc["exact"] is True
    assert doc["samples"] == math.comb(32, 5)


def test_batch_lines_take_the_short_deck(tmp_path):
    from simulate.batch import run_batch

    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    lines = [{"id": 1, "hands": ["AhKh", "QsQd"], "exact": True},
             {"id": 2, "kind": "range", "hands": ["A6s+", "random"], "exact": True},
             {"id": 3, "kind": "allin", "players": ["AhAs:60", "KdKc:120", "9c9d:120"],
              "exact": True},
             {"id": 4, "hands": ["AhKh", "Qs2d"]},
             {"id": 5, "hands": ["AhKh", "QsQd"], "game": "holdem", "exact": True}]
    src.write_text("".join(json.dumps(x) + "\n" for x in lines))
    s = run_batch(src, out, quiet=True, defaults={"game": "short_deck"})
    recs = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert (s.done, s.errors) == (5, 1)
    assert recs[1]["result"]["samples"] == math.comb(32, 5)
    assert recs[1]["result"]["game"] == recs[2]["result"]["game"] == "short_deck"
    assert recs[3]["result"]["game"] == "short_deck"
    assert recs[4]["error"] == "2d in hand 2 is not in the short deck (6 to A)"
    assert recs[5]["result"]["samples"] == math.comb(48, 5)


def test_the_readme_gives_the_player_counts_short_deck_answers():
    """Short deck answers 2 to 10 players (10 x 2 + 5 cards fit in 36), and the README's
    short-deck section says so."""
    from simulate.games import MAX_PLAYERS, MIN_PLAYERS

    hands = ["AhKh", "QsQd", "JcTc", "9d9s", "8h7h", "6c6d", "AsKs", "QhJh", "TdTs", "9c8c"]
    r = equity(hands[:MAX_PLAYERS], game="short_deck", samples=2000, seed=1)
    assert len(r.players) == MAX_PLAYERS == 10
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("36 cards (6 to A", 1)[1][:200]
    assert f"equity for {MIN_PLAYERS}–{MAX_PLAYERS}\n" in section, section
