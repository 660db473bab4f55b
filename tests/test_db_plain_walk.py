"""simulate._kernels.walk (through simulate.store.plain_walk): the compiled counting walk
gives every seat's counts and every action row of the Python walk it twins
(simulate.store.counts.walk, whose counts test_db_counts works out by hand), on the
hand-made hands of test_db_counts and on hands ``play`` makes with random policies (all-ins,
3-bets, c-bets, folds to them, straddles, antes, fixed limit); the action strings it does not
take leave the hand to the Python walk."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import quick_first
from test_db_counts import phh

from simulate._kernels.walk import ACTION_NAMES, COUNTS, STREET_NAMES
from simulate.notation.phh_read import HandHistory, parse_text
from simulate.replay.hand_replay import replay
from simulate.store.counts import COUNT_FIELDS, STREETS, walk_hand
from simulate.store.plain_walk import walk_plain

HAND_MADE = [
    "p3 f, p4 f, p5 f, p6 f, p1 f",  # a walk
    "p3 cc, p4 f, p5 f, p6 cc, p1 cc, p2 cc, /, p1 cc, p2 cbr 4, p3 f, p6 cc, p1 f, /, "
    "p2 cc, p6 cc, /, p2 cc, p6 cc",  # a limped pot, a flop bet that is no c-bet
    "p3 cbr 6, p4 cc, p5 cbr 24, p6 f, p1 f, p2 f, p3 f, p4 f",  # a squeeze
    "p3 cbr 6, p4 f, p5 f, p6 f, p1 f, p2 cc, /, p2 cc, p3 cbr 8, p2 f",  # c-bet, fold to it
    "p3 cbr 6, p4 cc, p5 f, p6 f, p1 f, p2 f, /, p3 cc, p4 cbr 10, p3 cc, /, p3 cc, p4 cc, /, "
    "p3 cc, p4 cc",  # the raiser checks: a missed c-bet, then a stab
    "p3 cbr 6, p4 cc, p5 f, p6 f, p1 f, p2 cc, /, p2 cbr 8, p3 cc, p4 f, /, p2 cc, p3 cc, /, "
    "p2 cc, p3 cc",  # a donk bet
    "p3 cbr 200, p4 f, p5 f, p6 f, p1 f, p2 cc, /, /, /",  # all in preflop
    "p3 cbr 6, p4 cbr 18, p5 f, p6 f, p1 f, p2 f, p3 cbr 50, p4 f",  # a 4-bet
    "p3 cbr 6, p4 f, p5 f, p6 f, p1 f, p2 f",  # the blinds fold to a raise
]


def fields_of(hand: HandHistory) -> dict:
    """The fields :func:`walk_plain` takes, as the compiled replay reads them."""
    return {"variant": hand.variant,
            "starting_stacks": tuple(int(x) for x in hand.starting_stacks),
            "blinds_or_straddles": tuple(int(x) for x in hand.blinds_or_straddles),
            "antes": tuple(int(x) for x in hand.antes),
            "actions": "[" + ", ".join(f"'{a.text}'" for a in hand.actions) + "]"}


def compare(hands: list[HandHistory]) -> int:
    """Walk ``hands`` both ways and assert the same counts and rows; returns how many the
    kernel walked."""
    winnings = [replay(h).to_dict()["winnings"] for h in hands]
    w = walk_plain([fields_of(h) for h in hands], winnings)
    walked = [j for j in range(len(hands)) if w.walked(j)]
    cols = w.action_columns(walked)
    at = np.searchsorted(cols["hand"], np.arange(len(walked) + 1))
    for k, j in enumerate(walked):
        counts, rows = walk_hand(hands[j], winnings[j])
        want = [[getattr(c, f) for f in COUNT_FIELDS] for c in counts]
        assert w.seat_counts(j) == want, (j, hands[j].actions)
        got = [(int(cols["seq"][r]), cols["street"][r],
                None if cols["seat"][r] < 0 else int(cols["seat"][r]), cols["action"][r],
                None if np.isnan(cols["amount"][r]) else cols["amount"][r],
                None if np.isnan(cols["total"][r]) else cols["total"][r],
                bool(cols["allin"][r]), cols["cards"][r]) for r in range(at[k], at[k + 1])]
        assert got == [tuple(r) for r in rows], j
    return len(walked)


def test_the_kernel_names_the_walks_columns():
    assert COUNTS == COUNT_FIELDS
    assert STREET_NAMES == STREETS
    assert set(ACTION_NAMES) <= {"deal_hole", "deal_board", "fold", "check", "call", "bet",
                                 "raise", "show"}


def test_hand_made_hands_walk_as_the_python_walk():
    hands = [parse_text(phh(a))[0][1] for a in HAND_MADE]
    hands.append(parse_text(phh("p4 cbr 10, p1 f, p2 f, p3 cc, /, p3 cc, p4 cbr 10, p3 f",
                                n=4, blinds=[1, 2, 4, 0]))[0][1])  # a straddle
    hands.append(parse_text(phh("p2 cbr 6, p1 cc, /, p1 cc, p2 cbr 6, p1 cc, /, p1 cc, p2 cc, "
                                "/, p1 cc, p2 cc", n=2))[0][1])  # heads-up
    assert compare(hands) == len(hands)


def test_what_the_kernel_does_not_take_is_left_to_the_python_walk():
    text = phh("p3 f, p4 f, p5 f, p6 f, p1 f")
    muck = phh("p3 cbr 6, p4 f, p5 f, p6 f, p1 f, p2 cc, /, p2 cc, p3 cc, /, p2 cc, p3 cc, /, "
               "p2 cc, p3 cc, p2 sm AsAh, p3 sm")
    hands = [parse_text(t)[0][1] for t in (text, muck)]
    w = walk_plain([fields_of(h) for h in hands], [[0] * 6, [0] * 6])
    assert [w.walked(0), w.walked(1)] == [True, False]


@pytest.mark.parametrize("args", quick_first([
    ["--players", "6", "--policy", "random"],
    ["--players", "9", "--policy", "random", "--ante", "1", "--straddle", "4",
     "--stacks", "100,50,200,30,400,80,60,120,90"],
    ["--players", "2", "--policy", "random"],
    ["--players", "6", "--policy", "random", "--betting", "fixed-limit"],
    ["--players", "4", "--policy", "random,call,allin,random", "--betting", "pot-limit",
     "--stacks", "30"],
], 2), ids=["six", "nine-ante-straddle", "heads-up", "fixed-limit", "pot-limit-short"])
def test_played_hands_walk_as_the_python_walk(tmp_path, args, capsys):
    from simulate.cli import main
    from simulate.notation.phh_read import iter_hands

    f = tmp_path / "p.phhs"
    assert main(["play", *args, "--hands", "200", "--seed", "7", "--phh", str(f),
                 "--phh-hands", "200", "-q"]) == 0
    capsys.readouterr()
    hands = [h for _, h in iter_hands(f)]
    assert len(hands) == 200
    assert compare(hands) >= 160
