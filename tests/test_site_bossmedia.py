"""The Boss Media XML reader (simulate/notation/site_bossmedia.py) on every Boss Media
sample (SEK and USD cash, Omaha and Omaha hi/lo, tournaments with antes)."""

from __future__ import annotations

from decimal import Decimal
from functools import partial

import pytest
from site_samples import (
    SAMPLES,
    files_of,
    hands,
    key,
    records,
    spelled,
)

from simulate.notation.site_bossmedia import card_of_link

FILES = files_of("Boss Media")


@pytest.mark.parametrize("path", FILES, ids=key)
def test_the_pot_printed_is_what_was_put_in(path: str) -> None:
    """(With the rake the file prints: the chip check in tests/test_site_families.py is not
    circular.)"""
    for h in hands(path):
        assert h.total_pot == sum(h.committed().values(), Decimal(0)), key(path)




events = partial(spelled, pot=True)


def test_card_numbers() -> None:
    """Rank from the ace (the showdowns' hand names prove it: 24 20 19 18 16 is a queen
    high flush, 38 25 12 three kings), suit in MicroGaming's order."""
    assert [card_of_link(x) for x in ("0", "12", "13", "25", "38", "51", "b", "100")] == [
        "As", "Ks", "Ac", "Kc", "Kd", "Kh", "??", "??"]


def test_omaha_all_in_raises_are_street_totals() -> None:
    """``ACTION_ALLIN 15972.51`` is the raiser's whole stack (his street total), the call
    all in for 8635 adds 3385 to the 5250 in; 7337.51 comes back; the loser mucks; the
    pot printed (17555) is after the rake (15)."""
    path = SAMPLES + "BossMedia/CashGame/HandActionTests/AllInHandWithShowdown.txt"
    got = events(path)
    assert got[0] == ("hole", "ItalyToast", None, "Kd Qh Jc As", None)
    assert got[-10:] == [
        ("raise", "ItalyToast", "5250.00", "", None),
        ("raise", "SAMERRRR", "15972.51", "", None),
        ("call", "ItalyToast", "3385.00", "", None),
        ("uncalled", "SAMERRRR", "7337.51", "", None),
        ("board", None, None, "8h 4h 5s", None), ("board", None, None, "6c", None),
        ("board", None, None, "7d", None),
        ("muck", "ItalyToast", None, "", None),
        ("show", "SAMERRRR", None, "Jh 8d Qd 7s", None),
        ("collect", "SAMERRRR", "17555.00", "", "main pot"),
    ]
    hand = records(path)[0][1]
    assert hand.rake == Decimal("15.00") and hand.total_pot == Decimal("17570.00")
    assert hand.info.game == "omaha" and hand.info.currency == "USD"


def test_a_tournament_with_antes() -> None:
    path = SAMPLES + "BossMedia/CashGame/HandActionTests/Ante.txt"
    hand = records(path)[0][1]
    assert hand.info.currency == "chips" and hand.info.tournament is not None
    antes = [e for e in events(path) if e[0] == "ante"]
    assert len(antes) == 8 and all(e[2] == "100.00" for e in antes)


def test_a_hi_lo_sit_and_go_splits_the_pot() -> None:
    path = SAMPLES + "BossMedia/SitAndGo/GeneralHands/GeneralHand.txt"
    hand = records(path)[0][1]
    assert hand.info.game == "omaha_hilo" and hand.info.currency == "chips"
    assert events(path)[-2:] == [("collect", "Player1", "1620.00", "", "main pot"),
                                 ("collect", "Player2", "540.00", "", "main pot (low)")]


