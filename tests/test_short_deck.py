"""Short-deck evaluation (``game="short_deck"`` and ``"short_deck_triton"``): counts derived by
hand, the slow reference in tests/reference.py, and pokerkit's ShortDeckHoldemHand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from reference import short_deck_best

import evaluator as E
from evaluator.cards import CardError, card_str
from evaluator.hands import combinations, max_strength

GAMES = ("short_deck", "short_deck_triton")
DECK = np.arange(16, 52, dtype=np.uint8)


def _five_card_counts() -> dict[str, int]:
    """Every category of the C(36, 5) five-card hands, counted by hand: 9 ranks (6..A), 4
    suits, 6 straights (A-6-7-8-9 .. T-J-Q-K-A)."""
    c = math.comb
    sf = 6 * 4
    return {
        "High Card": (c(9, 5) - 6) * (4 ** 5 - 4),
        "One Pair": 9 * c(4, 2) * c(8, 3) * 4 ** 3,
        "Two Pair": c(9, 2) * c(4, 2) ** 2 * 7 * 4,
        "Three of a Kind": 9 * c(4, 3) * c(8, 2) * 4 ** 2,
        "Straight": 6 * 4 ** 5 - sf,
        "Flush": c(9, 5) * 4 - sf,
        "Full House": 9 * c(4, 3) * 8 * c(4, 2),
        "Four of a Kind": 9 * 8 * 4,
        "Straight Flush": sf,
    }


def _random_hands(n: int, k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([rng.choice(DECK, k, replace=False) for _ in range(n)], np.uint8)


@pytest.mark.parametrize("game", GAMES)
def test_five_card_walk_counts_every_category(game):
    counts = E.count_categories(5, game=game)
    assert counts == _five_card_counts()
    assert sum(counts.values()) == math.comb(36, 5) == 376_992


def test_scales_have_1404_classes_and_the_royal_flush_on_top():
    for game in GAMES:
        assert max_strength(game) == 1404
        assert E.evaluate("AsKsQsJsTs", game=game) == 1404
        assert E.describe("AsKsQsJsTs", game=game).text == "Royal Flush"
    assert max_strength() == 7462


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("k", [5, 6, 7])
def test_strengths_order_hands_as_the_reference_does(game, k):
    hands = _random_hands(3000, k, seed=k)
    ours = E.evaluate_batch(hands, game=game, threads=1)
    ref = [short_deck_best(h.tolist(), triton=game.endswith("triton")) for h in hands]
    order = np.argsort(ours, kind="stable")
    for a, b in zip(order[:-1], order[1:], strict=True):
        assert (ours[a] < ours[b]) == (ref[a] < ref[b]) and (ours[a] == ours[b]) == \
            (ref[a] == ref[b]), (hands[a], hands[b])
    assert [E.evaluate(h, game=game) for h in hands[:200]] == ours[:200].tolist()


def test_the_lowest_straight_and_the_flush_over_the_full_house():
    for game in GAMES:
        wheel = E.describe("6s7d8c9hAs", game=game)
        assert (wheel.category, wheel.text) == ("Straight", "Straight, Nine high")
        assert wheel.best_five == "9h 8c 7d 6s As"
        assert E.evaluate("6s7d8c9hTs", game=game) > wheel.strength
        assert E.evaluate("6h7h8h9hAh", game=game) > E.evaluate("AhAdAcKhKd", game=game)
        assert E.category(E.evaluate("6h7h8h9hAh", game=game), game=game) == "Straight Flush"
        assert E.evaluate("AhKhQh9h7h", game=game) > E.evaluate("AhAdAcKhKd", game=game)
    # Hold'em has no such straight and ranks the full house above the flush
    assert E.category(E.evaluate("6s7d8c9hAs")) == "High Card"


def test_triton_differs_only_where_trips_meet_a_straight():
    hands = combinations(36, 5) + np.uint8(16)
    a = E.evaluate_batch(hands, game="short_deck", threads=1)
    b = E.evaluate_batch(hands, game="short_deck_triton", threads=1)
    ca = E.hands.category_table("short_deck")[a]
    cb = E.hands.category_table("short_deck_triton")[b]
    assert np.array_equal(ca, cb)
    trips, straight = ca == 3, ca == 4
    assert a[trips].max() < a[straight].min()
    assert b[straight].max() < b[trips].min()
    other = ~(trips | straight)
    # every other pair of hands keeps its order: same rank among the other hands
    ranks_a = np.unique(a[other], return_inverse=True)[1]
    ranks_b = np.unique(b[other], return_inverse=True)[1]
    assert np.array_equal(ranks_a, ranks_b)
    # seven cards: only a hand holding both trips and a straight changes category
    seven = _random_hands(20000, 7, seed=9)
    sa = E.hands.category_table("short_deck")[E.evaluate_batch(seven, game="short_deck")]
    sb = E.hands.category_table("short_deck_triton")[
        E.evaluate_batch(seven, game="short_deck_triton")]
    moved = sa != sb
    assert moved.any() and set(sa[moved]) == {4} and set(sb[moved]) == {3}


def test_a_card_below_six_is_one_line_naming_it():
    with pytest.raises(CardError, match="5h in cards is not in the short deck"):
        E.evaluate("5h6h7h8h9h", game="short_deck")
    rows = _random_hands(10, 7, seed=1)
    rows[6, 3] = 0
    with pytest.raises(ValueError, match=r"row 6 of cards has 2c, which is not in the short"):
        E.evaluate_batch(rows, game="short_deck_triton")
    with pytest.raises(ValueError, match="unknown game 'razz'"):
        E.evaluate("AsKsQsJsTs", game="razz")


def test_combinations_are_every_subset_in_order():
    import itertools

    for n, k in [(6, 3), (9, 5), (7, 7), (5, 1)]:
        assert combinations(n, k).tolist() == [list(c) for c in itertools.combinations(range(n), k)]


def _pokerkit_check(hands: np.ndarray, game: str) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    hand = pokerkit.ShortDeckHoldemHand
    ours = E.evaluate_batch(hands, game=game, threads=1)
    text = ["".join(card_str(int(c)) for c in h) for h in hands]
    theirs = [hand(t) if len(t) == 10 else hand.from_game(t[:4], t[4:]) for t in text]
    order = np.argsort(ours, kind="stable")
    for a, b in zip(order[:-1], order[1:], strict=True):
        assert (ours[a] == ours[b]) == (theirs[a] == theirs[b]), (text[a], text[b])
        assert (ours[a] < ours[b]) == (theirs[a] < theirs[b]), (text[a], text[b])


@pytest.mark.slow
def test_against_pokerkit_sample():
    _pokerkit_check(_random_hands(20_000, 5, seed=3), "short_deck")
    _pokerkit_check(_random_hands(300, 7, seed=4), "short_deck")


@pytest.mark.slow
def test_against_pokerkit_every_five_card_hand():
    """All 376,992 five-card hands in pokerkit's order, and 3,000 six- and seven-card
    hands (pokerkit's best-of-21 takes about 2 ms a hand).

    A five-card hand's value is fixed by its ranks and whether it is a flush (the rules do
    not look at suits otherwise), so pokerkit orders one hand of each of those 1,404 classes
    and ours must give every hand of a class one strength: the same check as asking
    pokerkit about each of the 376,992 hands, in 1/250 of its time."""
    hands = combinations(36, 5) + np.uint8(16)
    ours = E.evaluate_batch(hands, game="short_deck", threads=1)
    ranks = np.sort(hands >> 2, axis=1).astype(np.int64)
    flush = ((hands & 3) == (hands[:, :1] & 3)).all(axis=1)
    key = (ranks * 13 ** np.arange(5)).sum(axis=1) * 2 + flush
    classes, first, which = np.unique(key, return_index=True, return_inverse=True)
    assert len(classes) == 1404
    assert np.array_equal(ours, ours[first][which])  # one strength per class
    _pokerkit_check(hands[first], "short_deck")
    _pokerkit_check(_random_hands(1500, 6, seed=5), "short_deck")
    _pokerkit_check(_random_hands(1500, 7, seed=6), "short_deck")


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_seven_card_walk_against_a_brute_force_sample(game):
    counts = E.count_categories(7, game=game)
    assert sum(counts.values()) == math.comb(36, 7)
    sample = _random_hands(20_000, 7, seed=11)
    triton = game.endswith("triton")
    names = ["High Card", "One Pair", "Two Pair", "Three of a Kind", "Straight",
             "Full House", "Flush", "Four of a Kind", "Straight Flush"]
    if triton:
        names[3], names[4] = names[4], names[3]
    seen = {n: 0 for n in names}
    for h in sample:
        seen[names[short_deck_best(h.tolist(), triton)[0]]] += 1
    for name, k in seen.items():
        p = counts[name] / math.comb(36, 7)
        sd = math.sqrt(p * (1 - p) / len(sample))
        assert abs(k / len(sample) - p) <= 5 * sd + 1e-12, (name, k, p)
