import numpy as np
import pytest
from helpers import examples

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


def test_ids_of_text_is_parse_cards_on_back_to_back_cards():
    """The codec's fast path reads every two-character spelling of every card as
    parse_cards does, and runs of them (any length, repeats left to the caller)."""
    import random

    from evaluator.cards import CARD_IDS, CARD_TEXT, ids_of_text

    assert ids_of_text("") == [] == parse_cards("")
    for text, c in CARD_IDS.items():
        assert ids_of_text(text) == parse_cards(text) == [c]
    for a in CARD_TEXT:  # every pair of cards, repeats included
        for b in CARD_TEXT:
            assert ids_of_text(a + b) == parse_cards(a + b, allow_repeats=True)
    rng = random.Random(3)
    spellings = list(CARD_IDS)
    for n in (3, 5, 7, 9, 52, 64, 65, 70, 200):  # past the precomputed slices too
        text = "".join(rng.choice(spellings) for _ in range(n))
        assert ids_of_text(text) == parse_cards(text, allow_repeats=True), n
    assert ids_of_text("Ah" * 70) == [50] * 70


@pytest.mark.parametrize("text", [
    "Ah Kh", "Ah,Kh", " AhKh", "AhKh ", "10hAs", "A♠Kh", "♠A", "Ah??", "??",  # other spellings
    "AhK", "A", "Ahx", "Xh", "Ax", "1h", "11h", "AhKx", "ÀhKh",  # faults: parse_cards names them
])
def test_ids_of_text_leaves_every_other_text_to_parse_cards(text):
    """None for any text that is not back-to-back two-character cards; parse_cards then
    reads it (the same ids as written out) or raises its own CardError."""
    from evaluator.cards import ids_of_text

    assert ids_of_text(text) is None
    try:
        parse_cards(text, allow_repeats=True)
    except CardError as e:
        assert " in cards is not a card" in str(e)


@pytest.mark.parametrize("value", [None, 50, [50, 46], (50, 46), b"AhKh", np.array([50, 46])])
def test_ids_of_text_is_none_for_what_is_not_text(value):
    from evaluator.cards import ids_of_text

    assert ids_of_text(value) is None


def test_ids_of_text_agrees_with_parse_cards_on_any_text():
    """Whatever the text: when the fast path answers, parse_cards (repeats allowed) gives the
    same ids; when it does not, the text is not plain two-character cards."""
    hypothesis = pytest.importorskip("hypothesis")
    from hypothesis import strategies as st

    from evaluator.cards import CARD_IDS, ids_of_text

    tokens = st.sampled_from([*CARD_IDS, "10h", "??", " ", ",", "x", "A", "♠", "h"])

    @hypothesis.settings(max_examples=examples(400), deadline=None)
    @hypothesis.given(st.lists(tokens, max_size=12).map("".join) | st.text(max_size=12))
    def check(text: str) -> None:
        got = ids_of_text(text)
        try:
            want = parse_cards(text, allow_repeats=True)
        except CardError:
            want = None
        if got is not None:
            assert got == want
        else:
            assert len(text) % 2 or any(text[i:i + 2] not in CARD_IDS
                                        for i in range(0, len(text), 2))

    check()
