"""The MicroGaming XML reader (simulate/notation/site_microgaming.py) on every MicroGaming
sample (cp1252 files among them)."""

from __future__ import annotations

from decimal import Decimal
from functools import partial

from site_samples import (
    SAMPLES,
    files_of,
    records,
    spelled,
)

FILES = files_of("MicroGaming")






events = partial(spelled, pot=True)


def test_fixed_limit_raises_print_what_they_add() -> None:
    """``Raise 15`` on a small blind of 5 is a raise to 20 (10/20 fixed limit), ``Raise 20``
    on a bet of 10 a raise to 20; the river bet nobody calls (20) comes back and the pot of
    120 is paid 119, the rake (``rake="100"``, in cents) 1.00."""
    path = SAMPLES + "MicroGaming/CashGame/GameTypeTests/FixedLimitHoldem.txt"
    got = events(path)
    assert got[:4] == [("small_blind", "inmyownzone", "5.00", "", None),
                       ("big_blind", "Jackofclubs1", "10.00", "", None),
                       ("raise", "inmyownzone", "20.00", "", None),
                       ("call", "Jackofclubs1", "10.00", "", None)]
    assert got[6:9] == [("bet", "inmyownzone", "10.00", "", None),
                        ("raise", "Jackofclubs1", "20.00", "", None),
                        ("call", "inmyownzone", "10.00", "", None)]
    # the lone winner's MuckCards shows nothing: no showdown event
    assert got[-3:] == [("fold", "inmyownzone", None, "", None),
                        ("uncalled", "Jackofclubs1", "20.00", "", None),
                        ("collect", "Jackofclubs1", "119.00", "", "main pot")]
    hand = records(path)[0][1]
    assert hand.rake == Decimal("1.00") and hand.info.currency == "EUR"
    assert hand.info.table == "Gutshot 1 - €200 Min"        # a cp1252 file


def test_a_tournament_side_pot_and_a_blind_all_in() -> None:
    """The small blind goes all in for 10 (printed ``AllIn`` before the big blind); the
    hero's raise to 40 gets 20 back (``MoneyReturned``); the main pot (30) and the side
    pot (20) are paid apart."""
    path = SAMPLES + "MicroGaming/MultiTableTournament/HandActionTests/SBisAllin.txt"
    hand = records(path)[0][1]
    assert hand.info.tournament is not None and hand.info.tournament.id == "16000000"
    assert hand.info.currency == "chips" and hand.info.hero == "HERO"
    got = events(path)
    assert got[:3] == [("hole", "HERO", None, "4h Jd", None),
                       ("small_blind", "Player7", "10.00", "", None),
                       ("big_blind", "Player8", "20.00", "", None)]
    assert got[8:11] == [("raise", "HERO", "40.00", "", None), ("fold", "Player8", None, "", None),
                         ("uncalled", "HERO", "20.00", "", None)]
    assert got[-4:] == [("show", "HERO", None, "4h Jd", None),
                        ("show", "Player7", None, "3c Kh", None),
                        ("collect", "HERO", "20.00", "", "side pot-1"),
                        ("collect", "Player7", "30.00", "", "main pot")]


def test_the_bad_beat_jackpot_is_a_fee() -> None:
    path = SAMPLES + "MicroGaming/CashGame/Limits/Limit3.txt"
    hand = records(path)[0][1]
    assert ("dead", "Dinho1010", "0.02", "", None) in events(path)
    assert hand.info.fees == {"bad beat jackpot": Decimal("0.02")}
    assert hand.rake == Decimal("1.95")
    hand.check_chips()


def test_omaha_hi_lo_pays_the_low_half() -> None:
    path = SAMPLES + "MicroGaming/CashGame/PlayerTests/OmahaHiLoShowdown.txt"
    hand = records(path)[0][1]
    assert hand.info.game == "omaha_hilo"
    pays = [(e.player, str(e.amount), e.pot) for e in hand.events if e.kind == "collect"]
    assert pays == [("uk_munchkin", "0.17", "main pot"), ("tigersue", "0.16", "main pot (low)")]


