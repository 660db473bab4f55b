"""simulate.request: the one parse of an equity request's text (hands, board, dead cards,
game) into a :class:`Spot` of card ids, and its errors: a :class:`CardError` (a ValueError)
with one line that names the place."""

from __future__ import annotations

import numpy as np
import pytest

from evaluator.cards import CardError
from simulate.games import GAMES
from simulate.request import check_game, parse_board, parse_spot


def test_cards_in_every_spelling_give_the_same_ids():
    want = parse_spot(["AhKh", "Td9d"], "Ks8h2c", "2d")
    for hands, board, dead in [(["ah kh", "10d,9D"], "K♠ 8♥ 2♣", "2♦"),
                               (["Ah,Kh", "td 9d"], "ks8h2c", "2d"),
                               ([[50, 46], [33, 29]], [47, 26, 0], [1])]:
        r = parse_spot(hands, board, dead)
        assert (r.hands, r.board, r.dead) == (want.hands, want.board, want.dead)
    assert want.hands == [[50, 46], [33, 29]] and want.board == [47, 26, 0]
    assert want.texts == ["AhKh", "Td9d"]
    assert (want.board_text, want.dead_text) == ("Ks8h2c", "2d")


def test_arrays_and_the_remaining_deck():
    r = parse_spot(["AhKh", "QsQd", "7c7d"], "Ks8h2c4d", "2d")
    h = r.hands_array()
    assert h.dtype == np.uint8 and h.shape == (3, 2)
    deck = r.remaining_deck()
    assert deck.dtype == np.uint8 and len(deck) == 52 - 6 - 4 - 1
    assert not set(deck.tolist()) & (set(h.ravel().tolist()) | set(r.board) | set(r.dead))
    assert deck.tolist() == sorted(deck.tolist())


@pytest.mark.parametrize("board", ["", "Ks8h2c", "Ks8h2c4d", "Ks8h2c4d9s"])
def test_every_board_size(board):
    assert len(parse_spot(["AhKh", "QsQd"], board).board) == len(board) // 2
    assert len(parse_board(board)) == len(board) // 2


def test_games_come_from_the_one_table():
    for game, g in GAMES.items():
        hole = g.hole_cards
        hands = ["AhKhQhJhTh9h"[:2 * hole], "7c8c9cTcJcQc"[:2 * hole]]
        r = parse_spot(hands, game=game)
        assert r.game.name == game and r.hands_array().shape == (2, hole)
    assert check_game(" Omaha ").name == "omaha"


@pytest.mark.parametrize("args,kwargs,message", [
    ((["AhKh", "AhQd"],), {}, "duplicate card Ah in hand 1 and hand 2"),
    ((["AhKh", "QsQd"], "Ks8h2c", "Ks"), {}, "duplicate card Ks in board and dead cards"),
    ((["AhKh", "QsQd"], "Ks8hKs"), {}, "duplicate card Ks"),
    ((["AhKh"],), {}, "need 2 to 10 players, got 1"),
    ((["AhKh"] * 11,), {}, "need 2 to 10 players, got 11"),
    (("AhKh",), {}, "hands must be a list"),
    ((["AhKh", "QsQd"], "Ks8h"), {}, "a board has 0, 3, 4 or 5 cards, got 2"),
    ((["AhKh", "QsQd"], "Ks8h2c4d9s3c"), {}, "a board has 0, 3, 4 or 5 cards, got 6"),
    ((["AhKhQd", "QsQd"],), {}, "hand 1 has 3 cards; holdem hands have 2"),
    ((["AhKh", "QsQd"],), {"game": "omaha"}, "hand 1 has 2 cards; omaha hands have 4"),
    ((["AhKx2c3c", "QsQdJcTc"],), {"game": "omaha"}, "'Kx' in hand 1 is not a card"),
    ((["AhKz", "QsQd"],), {}, "'AhKz' is not a hand or range (player 1)"),
    ((["AhKh", "QsQd"], "Ks8h1c"), {}, "in board"),
    ((["AhKh", "QsQd"], "", "Zz"), {}, "in dead cards"),
    ((["AhKh", "QsQd"],), {"game": "stud"}, "unknown game 'stud' (expected one of: holdem"),
    ((["AhKh", "QsQd"],), {"game": ""}, "unknown game"),
    ((["AhKh", [50, 99]],), {}, "99 in hand 2 is not a card id (0..51)"),
])
def test_errors_are_one_line_naming_the_place(args, kwargs, message):
    with pytest.raises(CardError) as e:
        parse_spot(*args, **kwargs)
    text = str(e.value)
    assert message in text and "\n" not in text
    assert isinstance(e.value, ValueError)


def test_not_enough_cards_left_for_the_board():
    hands = ["AhAsAdAc", "KhKsKdKc", "QhQsQdQc", "JhJsJdJc", "ThTsTdTc", "9h9s9d9c",
             "8h8s8d8c", "7h7s7d7c", "6h6s6d6c", "5h5s5d5c"]
    with pytest.raises(CardError, match="not enough cards: the board needs 5 more but only "
                                        "4 remain"):
        parse_spot(hands, "", "4h4s4d4c2c2d2h2s", game="omaha")
    # with the board dealt, the same hands leave enough
    r = parse_spot(hands, "4h4s4d", "2c2d2h2s", game="omaha")
    assert len(r.remaining_deck()) == 52 - 40 - 3 - 4


def test_exact_or_range_is_decided_once():
    """Two cards are a hand, any other Hold'em text a range (a comma list of combos too);
    other games take exact cards, and a range there gets its own message."""
    from simulate.ranges import Range

    s = parse_spot(["AhKh", "AcKx", "AsKs,AdKd"], "Qc7d2h")
    assert s.hands[0] == [50, 46] and s.exact_hand == [True, False, False]
    assert [len(h) for h in s.hands[1:]] == [3, 2]  # AhKh's cards taken out
    assert isinstance(s.hands[2], Range) and s.ranged and s.texts[2] == "AsKs,AdKd"
    assert s.holds_random() == [False, False, False]
    assert parse_spot(["QQ+", "random"]).holds_random() == [False, True]
    with pytest.raises(CardError, match="looks like a range: Omaha takes exact hands only"):
        parse_spot(["QQ+", "AhAsKhKs"], game="omaha")
