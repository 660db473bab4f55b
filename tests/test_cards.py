import numpy as np
import pytest

from evaluator.cards import CardError, card_str, cards_str, check_disjoint, parse_cards


@pytest.mark.parametrize(
    "text, ids",
    [
        ("Ah", [50]),
        ("2c", [0]),
        ("AhKh", [50, 46]),
        ("ah kh", [50, 46]),
        ("10s,Jd", [35, 37]),
        ("10♠ j♥", [35, 38]),
        ("T♣ t♦", [32, 33]),
        ("  As, Ks ,Qs  ", [51, 47, 43]),
        ("", []),
    ],
)
def test_parse(text, ids):
    assert parse_cards(text) == ids


def test_ids_and_roundtrip():
    assert parse_cards([0, 51]) == [0, 51]
    assert parse_cards(np.array([4, 5], dtype=np.uint8)) == [4, 5]
    for c in range(52):
        assert parse_cards(card_str(c)) == [c]
    assert cards_str(range(4)) == "2c2d2h2s"


@pytest.mark.parametrize(
    "text, message",
    [
        ("Xh", "'Xh' in cards is not a card"),
        ("Ax", "'Ax' in cards is not a card"),
        ("AhK", "'K' in cards is not a card"),
        ("1h", "'1h' in cards is not a card"),
        ("AhAh", "duplicate card Ah in cards"),
        ("11h", "'11' in cards is not a card"),
    ],
)
def test_errors(text, message):
    with pytest.raises(CardError) as e:
        parse_cards(text)
    assert str(e.value) == message


def test_bad_ids():
    with pytest.raises(CardError):
        parse_cards([52])
    with pytest.raises(CardError):
        card_str(52)


def test_disjoint_names_both_places():
    with pytest.raises(CardError, match="duplicate card Ah in hand 2 and board"):
        check_disjoint([("hand 1", [1, 2]), ("hand 2", [50]), ("board", [50, 7, 8])])
    check_disjoint([("hand 1", [1, 2]), ("board", [3, 4, 5])])
