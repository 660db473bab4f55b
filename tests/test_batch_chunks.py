"""simulate.batch.chunks: the grouped path's request filter (:func:`fast_spot`) and its card
reader take exactly the plain Hold'em exact-hand lines, by the request layer's facts and the
card codec's fast path, and leave every other line to the one-spot path."""

from __future__ import annotations

from typing import Any

import pytest

from evaluator.cards import CARD_TEXT, parse_cards
from simulate.batch.chunks import fast_spot
from simulate.batch.fast_lines import card_tuple
from simulate.batch.requests import effective
from simulate.request import BOARD_SIZES, MAX_PLAYERS, MIN_PLAYERS, parse_spot

HANDS = ["AhKh", "QsQd", "2c3c", "7d8d", "9s9h", "JcTc", "4h5h", "6s6c", "Ad2d", "KcQc",
         "3h3s"]  # 11 hands, no card repeated, none on BOARD
BOARD = "Ks8h2d4d5s"


def _eff(**req: Any) -> dict[str, Any]:
    return effective({"id": 1, **req})


def test_plain_line_is_grouped_by_shape() -> None:
    key, cards, seed = fast_spot(_eff(hands=["AhKh", "qsqd"], board="Ks8h2d", dead="4d"))
    assert key == (2, 3, 1, True, None) and seed is None
    assert list(cards) == parse_cards("AhKhQsQdKs8h2d4d")
    key, _, seed = fast_spot(_eff(hands=["AhKh", "QsQd"], samples=1000, seed=7))
    assert key == (2, 0, 0, False, 1000) and seed == 7
    assert fast_spot(_eff(hands=["10h As", "2c,3c"], game=" Holdem ")) is not None


def test_player_counts_are_the_request_layers() -> None:
    for n in range(MIN_PLAYERS - 1, MAX_PLAYERS + 2):
        taken = fast_spot(_eff(hands=HANDS[:n])) is not None
        assert taken == (MIN_PLAYERS <= n <= MAX_PLAYERS), n
        if taken:
            parse_spot(HANDS[:n])  # the one-spot path takes it too


def test_board_sizes_are_the_request_layers() -> None:
    for k in range(6):
        taken = fast_spot(_eff(hands=HANDS[:2], board=BOARD[:2 * k])) is not None
        assert taken == (k in BOARD_SIZES), k


@pytest.mark.parametrize("req", [
    {"hands": ["AKs", "QQ"]},  # ranges
    {"hands": ["AhKh,AsKs", "QsQd"]},  # a list of combos is a range
    {"hands": ["random", "QsQd"]},
    {"hands": ["AhKhQh", "QsQd"]},  # three cards: the one-spot path names the fault
    {"hands": ["AhKx", "QsQd"]},  # not a card: likewise
    {"hands": ["AhKh", "QsQd"], "board": "2c3"},
    {"hands": ["AhKhQhJh", "QsQdTsTd"], "game": "omaha"},
    {"hands": ["AhKh", "QsQd"], "game": "short_deck"},
    {"hands": ["AhKh", "QsQd"], "std_error": 0.01},
    {"hands": ["AhKh", "QsQd"], "exact": False},  # the default sample size
    {"kind": "range", "hands": ["AhKh", "QsQd"]},
])
def test_other_lines_go_the_one_spot_way(req: dict[str, Any]) -> None:
    assert fast_spot(_eff(**req)) is None


def test_card_reader_is_the_codec() -> None:
    """Back-to-back cards by the codec's fast path (repeats left to bad_rows), any other
    spelling and every fault by parse_cards."""
    for a in CARD_TEXT:
        for b in (a.lower(), a.upper(), "2c", "Ah"):
            want = parse_cards(a + b, allow_repeats=True)
            assert list(card_tuple(a + b)) == want
    assert card_tuple("10h As, 2c") == tuple(parse_cards("Th As 2c"))
    with pytest.raises(ValueError, match="'Kx' in cards is not a card"):
        card_tuple("AhKx")
    with pytest.raises(ValueError, match="duplicate card Ah in cards"):
        card_tuple("Ah Ah")
