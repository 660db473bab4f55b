"""evaluator.low: the eight-or-better low (Omaha hi/lo), against the rule written out in
tests/reference.py and against pokerkit's OmahaEightOrBetterLowHand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers import examples
from reference import low_tuple, omaha_low_tuple

from evaluator import describe_low, evaluate_low
from evaluator.cards import CardError, card_str
from evaluator.hands import combinations
from evaluator.low import N_LOWS, low_of_five, low_of_fives


def test_every_low_class_over_all_five_card_hands():
    """Each of the 56 lows is 1,024 hands (4^5 suit choices); nothing else is a low."""
    counts = np.bincount(low_of_fives(combinations(52, 5)).astype(np.int64), minlength=57)
    assert counts[1:].tolist() == [4 ** 5] * N_LOWS
    assert counts[0] == math.comb(52, 5) - N_LOWS * 4 ** 5


def test_values_follow_the_rule_high_card_first():
    assert describe_low(56) == "5-4-3-2-A" and describe_low(1) == "8-7-6-5-4"
    by_value = sorted(range(1, 57), key=lambda v: tuple(
        8 - "A2345678".index(ch) for ch in describe_low(v).split("-")))
    assert by_value == list(range(1, 57))  # the tuple order read off the text
    assert low_of_five([51, 0, 5, 10, 15]) == 56  # As 2c 3d 4h 5s: the wheel
    assert low_of_five([51, 0, 5, 10, 28]) == 0   # a nine
    assert low_of_five([51, 48, 5, 10, 15]) == 0  # a pair of aces


def _random_spot(rng: np.random.Generator, n_hole: int, n_board: int):
    cards = rng.choice(52, n_hole + n_board, replace=False).tolist()
    return cards[:n_hole], cards[n_hole:]


@pytest.mark.parametrize("n_hole,n_board", [(4, 5), (4, 3), (5, 4), (6, 5)])
def test_omaha_low_equals_the_reference(n_hole, n_board):
    rng = np.random.default_rng(n_hole * 10 + n_board)
    spots = [_random_spot(rng, n_hole, n_board) for _ in range(3000)]
    ours = [evaluate_low(h, b) for h, b in spots]
    ref = [omaha_low_tuple(h, b) for h, b in spots]
    assert [o is None for o in ours] == [r is None for r in ref]
    assert any(o is not None for o in ours) and any(o is None for o in ours)
    pairs = [(o, r) for o, r in zip(ours, ref, strict=True) if o is not None]
    for (o1, r1), (o2, r2) in zip(pairs, pairs[1:], strict=False):
        assert (o1 > o2) == (r1 < r2) and (o1 == o2) == (r1 == r2)


def test_two_hole_cards_exactly():
    # four low hole cards and a board of one low card: no low (three board cards needed)
    assert evaluate_low("Ah2h3c4d", "5h9sTcKdQs") is None
    # the board alone makes 5-4-3-2-A, but two hole cards must play: 8 and 2 with A-3-4
    assert describe_low(evaluate_low("8h2cKcKd", "As3d4h5sQc")) == "8-4-3-2-A"


def test_bad_input_is_one_line():
    with pytest.raises(CardError, match="Omaha needs 4, 5 or 6 hole cards"):
        evaluate_low("AhKh", "2c3c4c")
    with pytest.raises(CardError, match="duplicate card"):
        evaluate_low("AhKh2c3c", "Ah4c5c")


def test_against_pokerkit():
    pokerkit = pytest.importorskip("pokerkit")
    low = pokerkit.OmahaEightOrBetterLowHand
    rng = np.random.default_rng(7)
    seen = []
    for _ in range(examples(1500)):
        h, b = _random_spot(rng, 4, 5)
        ht, bt = "".join(card_str(c) for c in h), "".join(card_str(c) for c in b)
        ours = evaluate_low(h, b)
        try:
            theirs = low.from_game(ht, bt)
        except ValueError:
            theirs = None
        assert (ours is None) == (theirs is None), (ht, bt)
        if ours is not None:
            seen.append((ours, theirs))
    seen.sort(key=lambda x: x[0])
    for (o1, t1), (o2, t2) in zip(seen, seen[1:], strict=False):
        assert (o1 == o2) == (t1 == t2) and (o1 < o2) == (t1 < t2)


def test_five_card_lows_equal_the_reference():
    rng = np.random.default_rng(3)
    hands = np.array([rng.choice(52, 5, replace=False) for _ in range(20000)], np.uint8)
    ours = low_of_fives(hands).tolist()
    ref = [low_tuple(h.tolist()) for h in hands]
    assert ours == [low_of_five(h.tolist()) for h in hands]
    assert [o == 0 for o in ours] == [r is None for r in ref]
    got = sorted((o, r) for o, r in zip(ours, ref, strict=True) if o)
    for (o1, r1), (o2, r2) in zip(got, got[1:], strict=False):
        assert (o1 == o2) == (r1 == r2) and (o1 < o2) == (r1 > r2)


@pytest.mark.parametrize("n_hole,n_board", [(4, 5), (5, 4), (6, 3)])
def test_compiled_batch_equals_the_scalar_low(n_hole, n_board):
    from evaluator.low import evaluate_low_batch

    rng = np.random.default_rng(100 + n_hole)
    spots = [_random_spot(rng, n_hole, n_board) for _ in range(4000)]
    holes = np.array([h for h, _ in spots], np.uint8)
    boards = np.array([b for _, b in spots], np.uint8)
    got = evaluate_low_batch(holes, boards).tolist()
    assert got == [evaluate_low(h, b) or 0 for h, b in spots]
    with pytest.raises(ValueError, match="row 0 has a repeated"):
        evaluate_low_batch(np.array([[0, 0, 1, 2]]), np.array([[3, 4, 5, 6, 7]]))


def test_best_low_of_any_five_is_the_brute_force():
    """``best_low``: the best eight-or-better low of any five of five to seven cards (stud)
    equals the best ``low_of_five`` over every five-card subset."""
    import itertools
    import random

    from evaluator.low import best_low, low_of_five

    rng = random.Random(7)
    for _ in range(3000):
        cards = rng.sample(range(52), rng.choice((5, 6, 7)))
        want = max(low_of_five(c) for c in itertools.combinations(cards, 5))
        assert best_low(cards) == want, cards
