"""The Entraction reader (simulate/notation/site_entraction.py) on every Entraction
sample: detection, hand counts, the chip check (every amount printed: returns and rake
included), the sources' values, hands event by event, and the replay."""

from __future__ import annotations

from decimal import Decimal

import pytest
from site_expected import check_sources_values
from site_samples import (
    events,
    files_of,
    hands,
    key,
    one,
    sample,
)

from simulate.notation.site_text import SiteError
from simulate.notation.sites import read_site, read_site_records
from simulate.replay.hand_replay import replay

FILES = files_of("Entraction")
#: Files that stop after the rake line (no "Game ended" line, so no time): the hand is
#: whole all the same; the source calls the first one invalid for it.
NO_END_LINE = {"A:Entraction/CashGame/ValidHandTests/InValidHand_1.txt",
               "A:Entraction/CashGame/StreetTests/Preflop.txt",
               "A:Entraction/CashGame/GameTypeTests/FixedLimitOmahaHiLo.txt",
               "A:Entraction/CashGame/PlayerTests/OmahaShowdown.txt"}


@pytest.mark.parametrize("path", FILES)
def test_every_hand_in_euros_and_its_time(path):
    """(The chip check, in tests/test_site_families.py, is a real one: the rake is
    printed.)"""
    for h in hands(path):
        assert h.info.currency == "EUR"
        assert (h.info.time is None) == (key(path) in NO_END_LINE)


def test_the_sources_values():
    # the file says "Game ended 2012-05-30 15:49:35 GMT+01:00" (14:49:35 UTC); the
    # source's test expects 13:49:35: we keep the offset the file prints
    skip = {"date_utc": "the file's own offset",
            "is_valid_hand": "whole all the same (NO_END_LINE): read as a hand"}
    check_sources_values("Entraction", 22, lambda k: skip)
    assert one("A:Entraction/CashGame/GeneralHands/GeneralHand.txt").info.time == \
        "2012-05-30T15:49:35+01:00"



def test_payback_and_raises_that_print_the_increment():
    """After the 0.50 small blind, ``Raise (2.50)`` makes 3.00 and the big blind's
    ``Call (2.00)`` matches it; ``Payback (10.50)`` is the uncalled bet; 13.30 won + 0.70
    rake = the 14.00 pot."""
    h = one("A:Entraction/CashGame/GeneralHands/GeneralHand.txt")
    assert events(h) == [
        ("small_blind", "ORFEO", "0.50", ()), ("big_blind", "GrossoGatto", "1.00", ()),
        ("raise", "ORFEO", "3.00", ()), ("call", "GrossoGatto", "2.00", ()),
        ("board", None, None, ("6d", "8d", "9h")), ("bet", "ORFEO", "4.00", ()),
        ("raise", "GrossoGatto", "14.50", ()), ("fold", "ORFEO", None, ()),
        ("uncalled", "GrossoGatto", "10.50", ()), ("collect", "GrossoGatto", "13.30", ())]
    assert (h.rake, h.button, h.max_seats) == (Decimal("0.70"), 4, 6)


def test_all_in_is_a_raise_or_a_call_and_the_board_is_printed_whole():
    h = one("A:Entraction/CashGame/HandActionTests/AllInHandWithShowdown.txt")
    assert events(h)[6:] == [
        ("bet", "YoOyYo", "900.00", ()), ("raise", "bglegend22", "3559.76", ()),
        ("call", "YoOyYo", "1450.00", ()), ("uncalled", "bglegend22", "1209.76", ()),
        ("board", None, None, ("5s",)), ("board", None, None, ("As",)),
        ("show", "YoOyYo", None, ("7d", "8s", "9d", "Th")),
        ("show", "bglegend22", None, ("Qc", "2c", "9s", "Qd")),
        ("collect", "bglegend22", "5898.50", ())]
    ((_, hh),) = list(read_site(sample(
        "A:Entraction/CashGame/HandActionTests/AllInHandWithShowdown.txt").read_bytes(), "x"))
    assert hh.site is not None and hh.site.boards == ["4d2dJs5sAs"]


def test_fixed_limit_headers_give_the_bets_and_games():
    h = one("A:Entraction/CashGame/GameTypeTests/FixedLimitHoldem.txt")
    assert (h.stakes.small_bet, h.stakes.big_bet) == (1, 2)
    assert events(h)[:5] == [
        ("big_blind", "tropas", "1.00", ()), ("small_blind", "Trottola30", "0.50", ()),
        ("call", "Trottola30", "0.50", ()), ("raise", "tropas", "2.00", ()),
        ("call", "Trottola30", "1.00", ())]
    h = one("A:Entraction/CashGame/GameTypeTests/PotLimitFiveCardOmaha.txt")
    assert (h.info.game, h.info.betting) == ("omaha5", "pot-limit")
    assert ("muck", "Mrhomogay88", None, ("4d", "2d", "5h", "Ks", "Ah")) in events(h)
    h = one("A:Entraction/CashGame/PlayerTests/OmahaHiLoShowdown.txt")
    assert events(h)[-2:] == [("collect", "Ballyhoo", "699.25", ()),
                              ("collect", "YoOyYo", "699.25", ())]


def test_a_hand_whose_chips_do_not_add_up_says_so():
    text = sample("A:Entraction/CashGame/GeneralHands/GeneralHand.txt").read_text("utf-8-sig")
    ((_, rec),) = list(read_site_records(text.replace("EUR 0.70", "EUR 0.80"), "x"))
    with pytest.raises(SiteError, match="do not add up"):
        rec.check_chips()
    ((_, hh),) = list(read_site(text.replace("EUR 0.70", "EUR 0.80"), "x"))
    assert isinstance(hh, SiteError)


def test_heads_up_where_the_dealer_posts_the_big_blind():
    """In 10 heads-up hands the "Dealer:" posts the big blind and the other player, the
    small blind, acts first on every street (before and after the flop): the file's
    dealer is kept as the button. PHH's heads-up rule (the button posts the small blind)
    cannot play that, so the replay keeps such a hand as chip accounting only."""
    path = "A:Entraction/CashGame/GameTypeTests/NoLimitHoldem.txt"
    h = one(path)
    assert h.button == 4 and h.seat_of("pauli1").seat == 4
    ev = events(h)
    assert ev[:2] == [("small_blind", "Pinokio1", "0.25", ()), ("big_blind", "pauli1", "0.50", ())]
    assert ev[5] == ("check", "Pinokio1", None, ())  # first to act on the flop
    ((_, hh),) = list(read_site(sample(path).read_bytes(), path))
    doc = replay(hh).to_dict()
    assert doc["error"] is None and not doc["validated"]
    assert "no big blind" in doc["not_validated"]


def test_five_card_omaha_is_played_by_the_engine():
    path = "PokerHandHistoryParser/HandHistories.Parser.UnitTests/SampleHandHistories/" \
        "Entraction/CashGame/GameTypeTests/PotLimitFiveCardOmaha.txt"
    ((_, hh),) = list(read_site(sample(path).read_bytes(), path))
    assert hh.variant == "PO5"
    doc = replay(hh).to_dict()
    assert doc["error"] is None and doc["validated"] and doc["game"] == "omaha5"


