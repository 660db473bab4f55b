"""The PKR reader (notation.site_pkr) on every PKR sample (NL Hold'em and PL Omaha cash):
detection, the chip check (PKR prints calls as street totals and no returned uncalled
bet), the values the source asserts, a hand checked event by event, and the replay."""

from __future__ import annotations

import json
from decimal import Decimal as D

import pytest
from site_expected import check_site_expected, site_expected
from site_samples import SITES, files_of, index, mutated_texts

from simulate.notation import site_pkr
from simulate.notation.site_hand import SiteHand
from simulate.notation.site_text import SiteError, decode
from simulate.notation.sites import SITE_FORMATS, read_site, read_site_records
from simulate.replay.hand_replay import replay

FILES = [(p, index()[p]) for p in files_of(*{"PKR"})]
PKR = "poker/extracted/pkr_hands/"


def _hand(path: str) -> SiteHand:
    (rec,) = [r for _, r in read_site_records((SITES / path).read_bytes(), path)]
    assert isinstance(rec, SiteHand), rec
    return rec


@pytest.mark.parametrize(("path", "entry"), FILES, ids=[p for p, _ in FILES])
def test_every_sample_is_detected_read_and_adds_up(path, entry):
    head = decode((SITES / path).read_bytes())[:8192].lstrip("\ufeff \n\t")
    assert [f.name for f in SITE_FORMATS if f.detect(head)] == ["pkr"]
    recs = [r for _, r in read_site_records((SITES / path).read_bytes(), path)]
    assert len(recs) == entry["hands"]
    for rec in recs:
        assert isinstance(rec, SiteHand), rec
        rec.check_chips()
        if rec.total_pot is not None:  # the last "Pot sizes" line: the pot before rake
            assert sum(rec.collected().values()) + rec.rake == rec.total_pot


def test_the_detector_takes_no_other_sites_file():
    index = json.loads((SITES / "index.json").read_text(encoding="utf-8"))
    for p, e in index.items():
        if e["site"] != "PKR":
            head = decode((SITES / p).read_bytes())[:8192].lstrip("\ufeff \n\t")
            assert not site_pkr.detect(head), p


EXPECTED = [(p, site_expected(p)) for p, _ in FILES if site_expected(p)]


@pytest.mark.parametrize(("path", "exp"), EXPECTED, ids=[p for p, _ in EXPECTED])
def test_the_values_the_sources_assert(path, exp):
    recs = [r for _, r in read_site_records((SITES / path).read_bytes(), path)]
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
    h = _hand(PKR + "HANDS_holdem_full.txt")
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
    h = _hand(PKR + "HANDS_omaha_no_show_down.txt")
    ev = [(e.kind, e.player, e.amount) for e in h.events]
    assert ("raise", "bigbraine777", D("42.48")) in ev
    assert ev[-2:] == [("uncalled", "bigbraine777", D("28.98")),
                       ("collect", "bigbraine777", D("51.30"))]
    h.check_chips()


def test_truncated_hand():
    text = decode((SITES / PKR / "HANDS_holdem_full.txt").read_bytes())
    ((_, err),) = list(site_pkr.read(text[:text.index("End of Hand")], "x"))
    assert isinstance(err, SiteError) and "truncated" in str(err)


@pytest.mark.slow
def test_replay_of_every_hand():
    docs = [replay(hh, p).to_dict() for p, _ in FILES
            for _, hh in read_site((SITES / p).read_bytes(), p)]
    assert len(docs) == 5
    assert all(d["validated"] and not d.get("error") for d in docs)


def test_damaged_text_gives_errors_never_exceptions():
    """Cut, dropped, doubled and garbled lines: each hand reads or is its SiteError."""
    for i, (path, _) in enumerate(FILES):
        text = decode((SITES / path).read_bytes())
        for damaged in mutated_texts(text, i, 40):
            for _, rec in site_pkr.read(damaged, "damaged"):
                assert isinstance(rec, (SiteHand, SiteError))
                if isinstance(rec, SiteHand):
                    try:
                        rec.check_chips()
                    except SiteError:
                        pass
