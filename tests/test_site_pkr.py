"""The PKR reader (notation.site_pkr) on every PKR sample (NL Hold'em and PL Omaha cash):
detection, the chip check (PKR prints calls as street totals and no returned uncalled
bet), the values the source asserts, a hand checked event by event, and the replay."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from site_expected import asserted, check_site_expected
from site_samples import SITES, files_of, hands, one, recs_of

from simulate.notation import site_pkr
from simulate.notation.site_text import SiteError, decode

FILES = files_of("PKR")
PKR = "poker/extracted/pkr_hands/"


EXPECTED = asserted(FILES)


@pytest.mark.parametrize("path", FILES)
def test_the_last_pot_line_is_the_pot_before_the_rake(path):
    for h in hands(path):
        if h.total_pot is not None:  # the last "Pot sizes" line: the pot before rake
            assert sum(h.collected().values()) + h.rake == h.total_pot


@pytest.mark.parametrize(("path", "exp"), EXPECTED, ids=[p for p, _ in EXPECTED])
def test_the_values_the_sources_assert(path, exp):
    recs = recs_of(path)
    exp = dict(exp)
    h = recs[0]
    # PKR prints no zone (the source reads it as UTC), no seat count and no buy-in
    assert exp.pop("date").endswith(" UTC")
    assert exp.pop("max_players") and exp.pop("buyin")
    assert exp.pop("table_name") == "#" + h.info.table.lstrip("#")
    assert exp.pop("total_pot") == str(h.total_pot)
    assert D(exp.pop("rake", str(h.rake))) == h.rake
    check_site_expected(recs, exp)


def test_holdem_event_by_event():
    h = one(PKR + "HANDS_holdem_full.txt")
    assert (h.info.hand_id, h.info.time, h.info.currency) == ("2433297728",
                                                              "2013-10-05T01:15:45", "USD")
    assert (h.button, h.info.hero, h.info.table) == (3, "Walkman",
                                                     "#52121155 - Rapanui's Leela")
    assert [s.in_hand for s in h.seats] == [True, False, True, True, True]  # away
    assert [(e.kind, e.player, e.amount, " ".join(e.cards)) for e in h.events] == [
        ("small_blind", "Walkman", D("0.25"), ""), ("big_blind", "barly123", D("0.50"), ""),
        ("hole", "Walkman", None, "9s 6d"),
        ("fold", "laxi23", None, ""), ("call", "Capricorn", D("0.50"), ""),
        ("fold", "Walkman", None, ""), ("raise", "barly123", D("1.25"), ""),
        ("call", "Capricorn", D("0.75"), ""),   # "calls $1.25": to $1.25, adding $0.75
        ("board", None, None, "7d 3c Jd"), ("check", "barly123", None, ""),
        ("bet", "Capricorn", D("1.37"), ""), ("raise", "barly123", D("4.11"), ""),
        ("call", "Capricorn", D("2.74"), ""), ("board", None, None, "Js"),
        ("check", "barly123", None, ""), ("check", "Capricorn", None, ""),
        ("board", None, None, "5h"), ("check", "barly123", None, ""),
        ("check", "Capricorn", None, ""), ("show", "barly123", None, "Ah Jc"),
        ("muck", "Capricorn", None, ""), ("collect", "barly123", D("10.43"), "")]
    assert h.rake == D("0.54") and h.total_pot == D("10.97")


def test_unprinted_uncalled_bet_is_returned():
    h = one(PKR + "HANDS_omaha_no_show_down.txt")
    ev = [(e.kind, e.player, e.amount) for e in h.events]
    assert ("raise", "bigbraine777", D("42.48")) in ev
    assert ev[-2:] == [("uncalled", "bigbraine777", D("28.98")),
                       ("collect", "bigbraine777", D("51.30"))]
    h.check_chips()


def test_truncated_hand():
    text = decode((SITES / PKR / "HANDS_holdem_full.txt").read_bytes())
    ((_, err),) = list(site_pkr.read(text[:text.index("End of Hand")], "x"))
    assert isinstance(err, SiteError) and "truncated" in str(err)


