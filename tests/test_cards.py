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


def test_the_codec_tables_agree_with_parse_cards():
    from evaluator.cards import CARD_IDS, CARD_PAIRS, CARD_SLOTS, CARD_TEXT, UNKNOWN

    assert len(CARD_IDS) == (8 + 5 * 2) * 4 * 2 and CARD_SLOTS["??"] == UNKNOWN  # cases
    for text, c in CARD_IDS.items():
        assert parse_cards(text) == [c] and CARD_TEXT[c] == card_str(c)
    for b0 in range(128):
        for b1 in range(128):
            got = int(CARD_PAIRS[128 * b0 + b1])
            assert got == CARD_SLOTS.get(chr(b0) + chr(b1), -1)
    assert not CARD_PAIRS.flags.writeable


def test_unknown_cards_in_text_and_back():
    from evaluator.cards import UNKNOWN, cards_text

    assert parse_cards("Ah ??,10s", allow_unknown=True) == [50, UNKNOWN, 35]
    assert parse_cards("A h", allow_unknown=True) == [50]  # spaces anywhere
    assert parse_cards("AhAh", allow_unknown=True) == [50, 50]  # repeats: the caller's
    assert cards_text([50, UNKNOWN, 0]) == "Ah??2c"
    for bad, tok in [("AhK", "K"), ("1h0", "1h"), ("10x", "10x"), ("Ahxx", "xx")]:
        with pytest.raises(CardError, match=f"'{tok}' in w is not a card"):
            parse_cards(bad, what="w", allow_unknown=True)
    with pytest.raises(CardError):
        cards_text([52])
