"""The Winamax reader (simulate/notation/site_winamax.py) on every Winamax sample of
tests/data/sites: detection, hand counts, the chip check, the sources' own expected values,
hands checked event by event (the uncalled bet the old exports fold into the collection),
the Windows-1252 files, and each hand through the replay."""

from __future__ import annotations

from decimal import Decimal

import pytest
from site_expected import iso_time, plain_hand
from site_samples import SITES, built_boards, expected, files_of, moves, one, read_hand, recs_of

from simulate.notation import site_winamax
from simulate.notation.site_hand import SiteHand
from simulate.notation.site_text import decode

FILES = files_of("Winamax", "Winamax (invalid header)")
WM = "PokerHandHistoryParser/HandHistories.Parser.UnitTests/SampleHandHistories/Winamax/"
D = Decimal

#: Windows-1252 files (``€`` as byte 0x80, no BOM).
CP1252 = [WM + "CashGame/GameTypeTests/NoLimitHoldem.txt",
          WM + "CashGame/GameTypeTests/PotLimitOmaha.txt",
          WM + "CashGame/ValidHandTests/ValidHand_1.txt"]


@pytest.mark.parametrize("path", sorted(k for k in expected() if k.startswith(WM)))
def test_expected_values_of_the_sources(path: str) -> None:
    rec, exp = plain_hand(path, hand_id=lambda ours: ours.replace("-", "."))
    if rec is None:
        return
    info = rec.info
    if "date_utc" in exp:
        assert info.time == iso_time(exp["date_utc"]) + "+00:00"
    if "rake" in exp:
        assert rec.rake == D(str(exp["rake"]))
    if "total_pot" in exp:  # the source's pot is before the rake, Winamax prints it after
        assert rec.total_pot is not None and rec.rake is not None
        assert rec.total_pot + rec.rake == D(str(exp["total_pot"]))
    if "limit" in exp:
        st = rec.stakes
        parts = exp["limit"].replace("€", "").split("-")
        assert (st.small_blind, st.big_blind) == (D(parts[0]), D(parts[1]))
        if "Ante" in parts:
            assert st.ante == D(parts[-1])
        else:
            assert st.ante is None and info.currency == "EUR"


def test_uncalled_bet_folded_into_the_collection() -> None:
    rec = one(WM + "CashGame/GameTypeTests/PotLimitFiveCardOmahaHiLo.txt")
    assert (rec.info.game, rec.info.betting) == ("omaha5_hilo", "pot-limit")
    assert moves(rec, ("hole",)) == [
        ("small_blind", "sheld0r", D(5)), ("big_blind", "JDOUBLON12", D(10)),
        ("raise", "milanda", D(35)),                         # "raises 25€ to 35€"
        ("fold", "AmyDiamond", None), ("fold", "sheld0r", None),
        ("fold", "JDOUBLON12", None),
        ("uncalled", "milanda", D(25)),                      # not printed: 35 - 10
        ("collect", "milanda", D(25))]                       # printed: "collected 50€"
    assert rec.rake == 0


def test_uncalled_bet_on_a_later_street_and_the_rake() -> None:
    hands = [r for r in recs_of(WM + "CashGame/MultipleHandsTests/10MultipleHands.txt")
             if isinstance(r, SiteHand) and r.info.hand_id == "5334642-852-1383822101"]
    (rec,) = hands
    ev = moves(rec, ("hole",))
    assert ev[-3:] == [("fold", "ovechkin08", None), ("uncalled", "TORINOFA", D(12)),
                       ("collect", "TORINOFA", D("11.22"))]
    assert rec.rake == D("0.78") and rec.total_pot == D("23.22")


def test_showdown_all_in_and_cards() -> None:
    rec = one(WM + "CashGame/PlayerTests/WithShowdown.txt")
    ev = [(e.kind, e.player, e.amount, e.cards) for e in rec.events]
    assert ("raise", "LEROISALO", D("22.85"), ()) in ev
    assert ("call", "nico86190", D("20.35"), ()) in ev
    assert ("show", "LEROISALO", None, ("Kh", "Ah")) in ev
    assert built_boards(WM + "CashGame/PlayerTests/WithShowdown.txt") == ["3c7cJd6c5s"]
    assert rec.collected() == {"nico86190": D("43.45")} and rec.rake == D(3)


def test_tournament_antes_and_event() -> None:
    rec = one(WM + "MultiTableTournament/GeneralHands/GeneralHand.txt")
    assert rec.info.tournament is not None
    assert rec.info.tournament.to_dict() == {"id": "153100000",
                                             "buy_in": "€4.50 + €4.50 + €1", "level": "4"}
    assert rec.info.currency == "chips"
    assert moves(rec, ("hole",))[:5] == [("ante", "Player1", D(25)), ("ante", "Player2", D(25)),
                               ("ante", "Player3", D(25)), ("small_blind", "Player1", D(150)),
                               ("big_blind", "Player2", D(300))]
    sng = one(WM + "SitAndGo/GeneralHands/GeneralHand.txt")
    assert sng.info.tournament is not None and sng.info.tournament.buy_in == "Ticket only"
    assert built_boards(WM + "SitAndGo/GeneralHands/GeneralHand.txt") == ["Tc7c4cQs5s"]


def test_dead_and_live_posts_out_of_position() -> None:
    path = WM + "CashGame/HandActionTests/PostingDead.txt"
    text = decode((SITES / path).read_bytes()).replace("Dbrz34 calls 0.50€", "Dbrz34 calls 1€")
    (rec,) = [r for _, r in site_winamax.read(text, path)]  # the call the pot holds
    assert isinstance(rec, SiteHand)
    assert moves(rec, ("hole",))[2:4] == [("dead", "Dbrz34", D("0.25")),
                                          ("post", "Dbrz34", D("0.50"))]
    rec.check_chips()


def test_seat_sitting_out_and_hero() -> None:
    rec = one(WM + "CashGame/PlayerTests/WithSittingOut.txt")
    assert [(s.name, s.in_hand) for s in rec.seats][0] == ("Player1", False)
    assert rec.info.hero == "HERO"
    assert ("hole", "HERO") in [(e.kind, e.player) for e in rec.events]


@pytest.mark.parametrize("path", CP1252)
def test_windows_1252_files(path: str) -> None:
    raw = (SITES / path).read_bytes()
    assert b"\x80" in raw and not raw.startswith(b"\xef\xbb\xbf")
    rec = one(path)
    assert rec.info.currency == "EUR"
    assert rec.stakes.small_blind in (D("0.25"), D("0.50"))
    rec.check_chips()


def test_localized_amounts_in_a_hand() -> None:
    text = ("Winamax Poker - CashGame - HandId: #1-2-3 - Holdem no limit (0,05€/0,10€) - "
            "2020/01/02 03:04:05 UTC\n"
            "Table: 'Nice 05' 6-max (real money) Seat #1 is the button\n"
            "Seat 1: a b (1 234,50€)\nSeat 2: c (10€)\n*** ANTE/BLINDS ***\n"
            "a b posts small blind 0,05€\nc posts big blind 0,10€\n*** PRE-FLOP *** \n"
            "a b folds\nc collected 0,15€ from pot\n*** SUMMARY ***\n"
            "Total pot 0,15€ | No rake\nSeat 2: c (big blind) won 0,15€\n")
    rec = read_hand(site_winamax.read, text)
    assert rec.seats[0].stack == D("1234.50")
    assert rec.collected() == {"c": D("0.10")}
    rec.check_chips()


