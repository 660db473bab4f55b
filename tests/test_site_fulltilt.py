"""The Full Tilt reader (notation.site_fulltilt) on every Full Tilt sample (cash NL/PL/FL
and cap no-limit Hold'em, Omaha and hi/lo, run it twice, a sit & go and an MTT):
detection, hand counts, the chip check, the values the sources assert, hands checked event
by event, and the replay."""

from __future__ import annotations

from decimal import Decimal as D

from site_samples import SITES, files_of, one, rows

from simulate.notation import site_fulltilt
from simulate.notation.site_text import SiteError, decode
from simulate.notation.sites import read_site

LABELS = {"Full Tilt"}
FILES = files_of(*LABELS)
FTP = "PokerHandHistoryParser/HandHistories.Parser.UnitTests/SampleHandHistories/FullTilt/"


def test_run_it_twice_event_by_event():
    h = one(FTP + "CashGame/RunItTwiceTests/RunItTwice1.txt")
    assert (h.info.table, h.max_seats, h.button, h.info.hero) == ("Myron", 6, 2, "Postrail")
    assert h.info.time == "2015-04-08T04:44:44-04:00"
    assert [s.in_hand for s in h.seats] == [False, True, True, True, True, True]
    assert rows(h) == [
        ("small_blind", "VanyaRabotaet", D(5), "", None, 1, False),
        ("big_blind", "1mperial", D(10), "", None, 1, False),
        ("hole", "Postrail", None, "5s Ah", None, 1, False),
        ("fold", "Postrail", None, "", None, 1, False),
        ("raise", "Darkking_pt", D(20), "", None, 1, False),     # "raises to $20"
        ("call", "ginalisa18", D(20), "", None, 1, False),
        ("fold", "VanyaRabotaet", None, "", None, 1, False),
        ("call", "1mperial", D(10), "", None, 1, False),
        ("board", None, None, "Td 3d 3h", None, 1, False),
        ("check", "1mperial", None, "", None, 1, False),
        ("bet", "Darkking_pt", D(40), "", None, 1, False),
        ("fold", "ginalisa18", None, "", None, 1, False),
        ("call", "1mperial", D(40), "", None, 1, False),
        ("board", None, None, "Qh", None, 1, False),
        ("check", "1mperial", None, "", None, 1, False),
        ("bet", "Darkking_pt", D("72.50"), "", None, 1, False),
        ("raise", "1mperial", D(240), "", None, 1, False),       # ", and is capped"
        ("call", "Darkking_pt", D("167.50"), "", None, 1, False),
        ("board", None, None, "Ac", None, 1, False),             # *** RIVER 1 ***
        ("board", None, None, "2h", None, 2, False),             # *** RIVER 2 ***
        # shown before the river: kept for the showdown
        ("show", "1mperial", None, "Jd Qd", None, 1, False),
        ("show", "Darkking_pt", None, "6d Ad", None, 1, False),
        ("collect", "Darkking_pt", D(311), "", "pot 1", 1, False),
        ("collect", "1mperial", D(311), "", "pot 2", 2, False),
    ]
    ((_, hh),) = list(read_site((SITES / FTP / "CashGame/RunItTwiceTests/RunItTwice1.txt")
                                .read_bytes(), "rit"))
    assert hh.site.boards == ["Td3d3hQhAc", "Td3d3hQh2h"]  # one board per run (the builder's)
    assert (h.total_pot, h.rake) == (D(625), D(3))
    h.check_chips()


def test_omaha_hilo_split_pot_and_all_in_call():
    h = one(FTP + "CashGame/HandActionTests/OmahaHiLo.txt")
    assert (h.info.game, h.info.betting) == ("omaha_hilo", "pot-limit")
    ev = rows(h)
    assert ("call", "great johnny", D("2.26"), "", None, 1, True) in ev  # ", and is all in"
    assert ("uncalled", "Bauko", D("3.14"), "", None, 1, False) in ev
    assert [e for e in ev if e[0] == "collect"] == [
        ("collect", "Bauko", D("4.72"), "", "high pot", 1, False),
        ("collect", "great johnny", D("4.71"), "", "low pot", 1, False)]
    h.check_chips()


def test_fixed_limit_and_sit_and_go():
    f = one(FTP + "CashGame/GameTypeTests/FixedLimitHoldem.txt")
    assert (f.info.betting, f.stakes.small_bet, f.stakes.big_bet) == (
        "fixed-limit", D("0.05"), D("0.10"))
    assert rows(f)[:4] == [
        ("small_blind", "miezemuis", D("0.02"), "", None, 1, False),
        ("big_blind", "kerberi", D("0.05"), "", None, 1, False),
        ("raise", "miezemuis", D("0.10"), "", None, 1, False),
        ("call", "kerberi", D("0.05"), "", None, 1, False)]
    # the winner unopposed "mucks": no showdown, no muck event
    assert not [e for e in f.events if e.kind in ("show", "muck")]
    t = one("poker/extracted/ftp_hands/TURBO_SNG.txt")
    assert t.info.tournament.to_dict() == {"id": "268569961", "buy_in": "$10", "level": None}
    assert (t.info.currency, t.info.table, t.info.time) == ("chips", "1",
                                                            "2014-06-29T11:57:01+02:00")
    assert [s.stack for s in t.seats] == [D(1500)] * 6   # "(1,500)"
    t.check_chips()


def test_old_cap_header_and_a_cut_hand():
    h = one(FTP + "CashGame/GameTypeTests/CapNoLimitHoldem.txt")
    assert (h.info.game, h.info.betting, h.stakes.big_blind) == ("holdem", "no-limit",
                                                                 D("0.50"))
    text = decode((SITES / FTP / "CashGame/HandActionTests/BasicHand.txt").read_bytes())
    cut = text[:text.index("*** SUMMARY ***")]
    ((_, err),) = list(site_fulltilt.read(cut, "x"))
    assert isinstance(err, SiteError) and "truncated" in str(err)


