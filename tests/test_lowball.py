"""``evaluator.lowball`` against pokerkit's low hand classes (``RegularLowHand`` for razz,
``StandardLowHand`` for deuce-to-seven, ``BadugiHand``), pair by pair on random hands, and a
few orderings every player knows."""

from __future__ import annotations

import random

import pytest
from helpers import examples

from evaluator.cards import card_str, parse_cards
from evaluator.lowball import ace_to_five_value, badugi_value, deuce_to_seven_value


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@pytest.mark.parametrize("ours,theirs,n", [
    (ace_to_five_value, "RegularLowHand", 7),
    (ace_to_five_value, "RegularLowHand", 5),
    (deuce_to_seven_value, "StandardLowHand", 5),
    (badugi_value, "BadugiHand", 4),
])
def test_same_order_as_pokerkit(ours, theirs, n):
    pk = pytest.importorskip("pokerkit")
    cls = getattr(pk, theirs)
    rng = random.Random(11)
    for _ in range(examples(1500)):
        a, b = (rng.sample(range(52), n) for _ in range(2))
        ha = cls.from_game("".join(card_str(c) for c in a))
        hb = cls.from_game("".join(card_str(c) for c in b))
        want = 1 if ha > hb else -1 if hb > ha else 0
        assert _sign(ours(a) - ours(b)) == want, (theirs, a, b)


def test_orderings_players_know():
    razz = lambda t: ace_to_five_value(parse_cards(t))  # noqa: E731
    assert razz("5s4h3d2cAs") > razz("6s4h3d2cAs") > razz("6s5h3d2cAs")
    assert razz("KsQhJdTc9s") > razz("AsAh2d3c4s")  # any five ranks beat a pair
    assert razz("5s4s3s2sAs") == razz("5h4d3c2sAs")  # no flush, no straight
    assert razz("5s4h3d2cAsKdKc") == razz("5s4h3d2cAs")  # the best five of seven
    d27 = lambda t: deuce_to_seven_value(parse_cards(t))  # noqa: E731
    assert d27("7s5h4d3c2s") > d27("7s6h4d3c2s") > d27("8s5h4d3c2s")
    assert d27("8s6h5d4c3s") > d27("6s5h4d3c2s")  # a straight counts against
    assert d27("7s5s4s3s2h") > d27("7s5s4s3s2s")  # a flush too
    assert d27("As5h4d3c2s") < d27("Ks5h4d3c2s")  # the ace is high: A-5 is ace high
    badugi = lambda t: badugi_value(parse_cards(t))  # noqa: E731
    assert badugi("As2h3d4c") > badugi("As2h3d5c") > badugi("As2h3d4d")  # four cards first
    assert badugi("Ks2h3d4c") > badugi("As2h3d3c")  # a four-card badugi beats any three
    with pytest.raises(ValueError):
        badugi_value(parse_cards("As2h3d"))
