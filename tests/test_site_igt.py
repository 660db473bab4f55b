"""The IGT JSON reader (simulate/notation/site_igt.py) on every IGT sample (SEK and USD
cash, Hold'em, Omaha, Omaha hi/lo)."""

from __future__ import annotations

from decimal import Decimal
from functools import partial

import pytest
from site_samples import (
    SAMPLES,
    SITES,
    files_of,
    records,
    spelled,
)

from simulate.notation import site_igt
from simulate.notation.site_text import SiteError

FILES = files_of("IGT")


def test_an_empty_file_in_the_folder_is_no_hand() -> None:
    path = SAMPLES + "IGT/CashGame/HandActionTests/AllInPreflop.txt"
    assert records(path) == ()




events = partial(spelled, pot=True)


def test_calls_are_street_totals_and_a_short_all_in_call() -> None:
    """``ACTION_CALL 7.50`` after a raise to 1.75 adds 5.75 (the ``bankRoll`` after it says
    so: 41.25 -> 35.50); the hero's all in for 13.52 calls the 15 bet short and 1.48
    comes back (the file's ``ACTION_ADJUSTEMENT`` to 13.52); the loser mucks."""
    path = SAMPLES + "IGT/CashGame/HandActionTests/AllInHandWithShowdown.txt"
    assert events(path)[-15:-1] == [
        ("raise", "PLAYER5", "7.50", "", None), ("fold", "PLAYER1", None, "", None),
        ("call", "PLAYER2", "5.75", "", None), ("call", "HERO", "5.75", "", None),
        ("board", None, None, "Ac As 4d", None), ("check", "PLAYER5", None, "", None),
        ("bet", "PLAYER2", "15.00", "", None), ("call", "HERO", "13.52", "", None),
        ("fold", "PLAYER5", None, "", None), ("uncalled", "PLAYER2", "1.48", "", None),
        ("board", None, None, "8d", None), ("board", None, None, "Jc", None),
        ("show", "PLAYER2", None, "Qc Ad Kc 6s", None),
        ("muck", "HERO", None, "", None),
    ]
    assert events(path)[-1] == ("collect", "PLAYER2", "48.69", "", "main pot")
    hand = records(path)[0][1]
    assert hand.rake == Decimal("1.35") and hand.total_pot == Decimal("50.04")
    # the stacks printed as 0.00, from the stacks after the hand (the bankRoll after each
    # player's first action agrees: 41.25 + 1.75, 19.27 + 1.75)
    assert [s.stack for s in hand.seats][:3] == [Decimal("131.65"), Decimal("43.00"),
                                                 Decimal("21.02")]


def test_hi_lo_pays_the_low_half_and_cards_rank_from_the_deuce() -> None:
    """Hand 202: two pair jacks and tens (links 35 48 8 34 19) wins high, 8-4-3-2-A
    (40 41 42 51) low."""
    path = SAMPLES + "IGT/CashGame/GeneralHands/GeneralHand.txt"
    got = events(path)
    assert got[0] == ("hole", "HERO", None, "Jh 9d 4d Tc", None)
    assert got[-4:] == [("show", "HERO", None, "Jh 9d 4d Tc", None),
                        ("show", "PLAYER4", None, "3s 4s 5s As", None),
                        ("collect", "HERO", "19.71", "", "main pot"),
                        ("collect", "PLAYER4", "19.7", "", "main pot (low)")]


def test_a_dead_small_blind_and_a_post() -> None:
    """A player coming in posts a dead small blind (``HAND_DSB``) and the big blind
    again: dead money and a live post; the hand's date (cut short in the sample) is the
    first action's."""
    path = SAMPLES + "IGT/CashGame/ExtraHands/IGT2019Hand.txt"
    got = events(path)
    assert got[1:5] == [("dead", "Player4", "0.25", "", None),
                        ("small_blind", "Player1", "0.25", "", None),
                        ("big_blind", "HERO", "0.50", "", None),
                        ("post", "Player4", "0.50", "", None)]
    assert records(path)[0][1].info.time == "2019-02-04T16:41:36+00:00"


@pytest.mark.parametrize("doc,fault", [
    ('{"history": [', "not an IGT JSON document"),
    ('{"history": {}}', "without its \"history\" list"),
    ('{"history": [{"game": "GAME_XYZ"}]}', "unknown IGT game"),
    ('{"history": [' + "[" * 100000 + "]" * 100000 + "]}", "not an IGT JSON document"),
])
def test_bad_documents_are_errors(doc: str, fault: str) -> None:
    got = list(site_igt.read(doc, "x"))
    assert len(got) == 1 and isinstance(got[0][1], SiteError) and fault in str(got[0][1])


def test_documents_one_after_the_other() -> None:
    """Two exports written one after the other, a broken one between them: both hands
    read, the broken document is one error."""
    path = SAMPLES + "IGT/CashGame/GeneralHands/GeneralHand.txt"
    one = (SITES / path).read_bytes().decode("utf-8-sig")
    got = list(site_igt.read(one + "\n" + '{"history": [{"handId": ' + "\n" + one, "x"))
    kinds = [type(r).__name__ for _, r in got]
    assert kinds == ["SiteHand", "SiteError", "SiteHand"]
    assert got[2][0] == one.count("\n") + 3
