"""The OnGame reader (simulate/notation/site_ongame.py) on every OnGame sample (the
Italian skin's included): detection, hand counts, the chip check and the summary's own
sums, the sources' values, hands event by event, and the replay."""

from __future__ import annotations

from decimal import Decimal

import pytest
from site_expected import check_sources_values
from site_samples import (
    events,
    expected,
    files_of,
    hands,
    one,
    sample,
)

from simulate.notation.site_text import SiteError
from simulate.notation.sites import read_site_records

FILES = files_of("OnGame")


@pytest.mark.parametrize("path", FILES)
def test_every_hand_has_its_pot(path):
    """The reader checks more than the chip check (tests/test_site_families.py): the pots
    printed hold what was committed, and each seat's final stack and net in the summary
    follow from the hand."""
    for h in hands(path):
        assert h.total_pot is not None


def test_the_sources_values():
    # OnGame prints no table size: the source guesses it from the seats; we leave it
    compared = check_sources_values("OnGame", 23, lambda k: {"max_players": "not printed"})
    for k, rec in compared.items():
        if "max_players" in expected()[k]:
            assert rec.max_seats is None



def test_raise_to_totals_and_an_uncalled_bet_not_printed():
    """``raises $192.15 to $210.15 [all in]``: the total; the 123.24 nobody called is not
    printed (derived); the pot of 229.82 is printed before the rake of 3."""
    h = one("A:OnGame/CashGame/HandActionTests/AllInHandWithShowdown.txt")
    ev = events(h)
    assert ev[2:11] == [
        ("fold", "BlackH0L3", None, ()), ("raise", "Cockatrice", "3.00", ()),
        ("fold", "BONUS 1OOO", None, ()), ("call", "fyabcf", "3.00", ()),
        ("raise", "kliketiklok", "10.50", ()), ("fold", "Dbcee89", None, ()),
        ("fold", "Cockatrice", None, ()), ("raise", "fyabcf", "26.00", ()),
        ("call", "kliketiklok", "15.50", ())]
    assert ev[11:] == [
        ("board", None, None, ("6d", "Kd", "8c")), ("check", "kliketiklok", None, ()),
        ("bet", "fyabcf", "18.00", ()), ("raise", "kliketiklok", "36.00", ()),
        ("raise", "fyabcf", "210.15", ()), ("call", "kliketiklok", "50.91", ()),
        ("uncalled", "fyabcf", "123.24", ()), ("board", None, None, ("Js",)),
        ("board", None, None, ("4h",)), ("show", "fyabcf", None, ("Kc", "Kh")),
        ("show", "kliketiklok", None, ("6s", "8s")), ("collect", "fyabcf", "226.82", ())]
    assert (h.rake, h.total_pot) == (Decimal(3), Decimal("229.82"))
    assert h.info.time == "2014-01-06T01:08:00+01:00" and h.info.table == "Bonn [361850810]"


def test_tournament_omaha_hi_lo_euros_and_the_hero():
    h = one("A:OnGame/MultiTableTournament/GeneralHands/GeneralHand.txt")
    t = h.info.tournament
    assert t is not None and (t.id, t.buy_in) == ("R-10093-864", "€5")
    assert (h.info.currency, h.info.hero, h.rake) == ("chips", "Player1", 0)
    assert h.info.time == "2014-06-11T20:10:37+02:00"
    h = one("A:OnGame/CashGame/PlayerTests/OmahaHiLoShowdown.txt")
    assert (h.info.game, h.info.betting, h.rake) == ("omaha_hilo", "pot-limit", 1)
    assert events(h)[-2:] == [("collect", "alikator21", "259.50", ())] * 2
    h = one("A:OnGameIt/CashGame/Limits/EuroTable.txt")
    assert (h.info.currency, h.rake, h.stakes.big_blind) == ("EUR", Decimal("1.22"), 1)
    h = one("A:OnGame/CashGame/GeneralHands/HeroName.txt")
    assert h.info.hero == "ONG_Hero" and ("hole", "ONG_Hero", None, ("8h", "3c")) in events(h)
    h = one("A:OnGame/CashGame/GameTypeTests/FixedLimitHoldem.txt")
    assert (h.stakes.small_bet, h.stakes.big_bet) == (Decimal("0.50"), 1)


def test_a_summary_that_disagrees_is_the_hands_error():
    text = sample("A:OnGame/CashGame/GeneralHands/GeneralHand.txt").read_text("utf-8-sig")
    bad = text.replace("Seat 10: Dbcee89 ($100.50), net: +$0.50",
                       "Seat 10: Dbcee89 ($100.60), net: +$0.60")
    ((_, rec),) = list(read_site_records(bad, "x"))
    assert isinstance(rec, SiteError) and "Dbcee89 ends with 100.60" in str(rec)


