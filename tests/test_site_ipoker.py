"""The iPoker XML reader (simulate/notation/site_ipoker.py) on every iPoker sample."""

from __future__ import annotations

from decimal import Decimal

import pytest
from site_samples import (
    SAMPLES,
    SITES,
    files_of,
    records,
    spelled,
)

from simulate.notation import site_ipoker
from simulate.notation.site_hand import SiteHand
from simulate.notation.site_text import SiteError
from simulate.notation.sites import read_site_records

FILES = files_of("iPoker")


def test_a_session_without_a_game_is_no_hand() -> None:
    """The fragment (a session's table information without a hand) is iPoker, with no
    hand."""
    assert records(SAMPLES + "IPoker/CashGame/IdTest/IdTest1.txt") == ()






events = spelled


def test_a_posted_blind_with_dead_money_and_an_uncalled_bet() -> None:
    """A player posts €15 (the big blind live, €5 dead) to come in; the file's actions are
    grouped by player and replayed in their ``no`` order; the turn bet nobody calls comes
    back, and the win (€140) held it: the pot taken is €80, the rake €4."""
    path = SAMPLES + "IPoker/CashGame/HandActionTests/PostingDead.txt"
    assert events(path) == [
        ("hole", "HERO", None, "Qh 2c As 3c"),
        ("small_blind", "Player5", "5", ""), ("big_blind", "HERO", "10", ""),
        ("post", "Player1", "10", ""), ("dead", "Player1", "5", ""),
        ("fold", "Player8", None, ""), ("fold", "Player10", None, ""),
        ("check", "Player1", None, ""), ("fold", "Player3", None, ""),
        ("call", "Player5", "5", ""), ("check", "HERO", None, ""),
        ("board", None, None, "8h 4s Qs"),
        ("bet", "Player5", "24.50", ""), ("call", "HERO", "24.50", ""),
        ("fold", "Player1", None, ""),
        ("board", None, None, "7s"), ("bet", "Player5", "60", ""), ("fold", "HERO", None, ""),
        ("uncalled", "Player5", "60", ""), ("collect", "Player5", "80", ""),
    ]
    hand = records(path)[0][1]
    assert hand.rake == Decimal("4.00") and hand.info.hero == "HERO"
    assert hand.info.currency == "EUR" and hand.info.betting == "pot-limit"


def test_raises_are_street_totals_and_an_all_in_adds() -> None:
    """Type 23 gives the raiser's total (0.20, 0.40, 19.25: his whole stack), type 7 what
    the all-in adds (1.30 on 0.40: the caller's 1.70 stack); the 17.55 nobody could call
    comes back before the board, and the showdown shows both hands."""
    path = SAMPLES + "IPoker/CashGame/HandActionTests/AllInHandWithShowdown.txt"
    assert events(path) == [
        ("hole", "Amalfitano1", None, "9d Kc"), ("hole", "Taras2107", None, "Js Jd"),
        ("small_blind", "Amalfitano1", "0.05", ""), ("big_blind", "Taras2107", "0.10", ""),
        ("raise", "Amalfitano1", "0.20", ""), ("raise", "Taras2107", "0.40", ""),
        ("raise", "Amalfitano1", "19.25", ""), ("call", "Taras2107", "1.30", ""),
        ("uncalled", "Amalfitano1", "17.55", ""),
        ("board", None, None, "7d Th 9s"), ("board", None, None, "8c"),
        ("board", None, None, "Ts"),
        ("show", "Amalfitano1", None, "9d Kc"), ("show", "Taras2107", None, "Js Jd"),
        ("collect", "Taras2107", "3.18", ""),
    ]


def test_a_tournament_with_antes() -> None:
    path = SAMPLES + "IPoker/MultiTableTournament/ExtraHands/ShootOutTournament.txt"
    hand = records(path)[0][1]
    assert hand.info.tournament is not None and hand.info.tournament.id == "875000000"
    assert hand.info.currency == "chips" and hand.rake == 0
    assert events(path)[2:4] == [("ante", "BingoPlayer", "1", ""),
                                 ("ante", "MrMagnificent", "1", "")]


def test_newer_exports_leave_the_uncalled_bet_out_of_the_win() -> None:
    """``<uncalled_bet_enabled>true``: the win (€26) is the pot without the €109 that comes
    back; the ``bet`` attribute there is the plain sum of the sums (6 + 122), not used."""
    path = "hhp-xml/test/fixtures/ipoker/cash.hhsmithy.eur.NLHE.hu.2018.xml"
    assert events(path, 3) == [
        ("small_blind", "hulahHULAH", "3", ""), ("big_blind", "HAZERA586", "6", ""),
        ("raise", "hulahHULAH", "13", ""), ("raise", "HAZERA586", "122", ""),
        ("fold", "hulahHULAH", None, ""),
        ("uncalled", "HAZERA586", "109", ""), ("collect", "HAZERA586", "26", ""),
    ]


def test_a_wrong_uncalled_flag_gives_way_to_the_hands_numbers() -> None:
    """The flag says whether the wins hold the uncalled bets; a hand whose numbers say
    otherwise is read by its numbers: a win (26) smaller than the bet it would hold (109),
    wins (20.73) beyond the pot (3.40). (Where the numbers allow both, the flag decides.)"""
    for path, n, flag in (
            ("hhp-xml/test/fixtures/ipoker/cash.hhsmithy.eur.NLHE.hu.2018.xml", 3,
             ("<uncalled_bet_enabled>true", "<uncalled_bet_enabled>false")),
            (SAMPLES + "IPoker/CashGame/HandActionTests/AllInHandWithShowdown.txt", 0,
             ("<mode>", "<uncalled_bet_enabled>true</uncalled_bet_enabled><mode>"))):
        text = (SITES / path).read_bytes().decode("utf-8-sig")
        assert flag[0] in text
        (_, want), (_, got) = records(path)[n], list(site_ipoker.read(
            text.replace(flag[0], flag[1]), "x"))[n]
        assert isinstance(got, SiteHand)
        assert [(e.kind, e.player, e.amount) for e in got.events] == [
            (e.kind, e.player, e.amount) for e in want.events]


def test_comma_decimals_and_utf16_read_the_same() -> None:
    """An export with ``€0,05`` amounts, and one saved as UTF-16, give the same hand."""
    path = SAMPLES + "IPoker/CashGame/HandActionTests/AllInHandWithShowdown.txt"
    raw = (SITES / path).read_bytes()
    text = raw.decode("utf-8-sig")
    comma = text
    for amount in ("0.05", "0.10", "0.20", "0.40", "1.30", "1.70", "19.25", "17.55", "3.18"):
        comma = comma.replace(f"€{amount}", "€" + amount.replace(".", ","))
    assert "€0,05" in comma
    want = [(e.kind, e.player, e.amount, e.cards) for e in records(path)[0][1].events]
    for data in (comma.encode("utf-8"), text.encode("utf-16")):
        (_, hand), = read_site_records(data, "x.xml")
        assert isinstance(hand, SiteHand)
        assert [(e.kind, e.player, e.amount, e.cards) for e in hand.events] == want


def test_one_broken_game_costs_one_hand() -> None:
    """A session cut short (no ``</session>``) and a game with a stray tag: the other games
    are read, the broken one is its error, naming its line."""
    path = SAMPLES + "IPoker/CashGame/MultipleHandsTests/10MultipleHands.txt"
    text = (SITES / path).read_bytes().decode("utf-8-sig")
    games = text.split("<game ")
    games[3] = games[3].replace("</round>", "</rounds>", 1)
    broken = "<game ".join(games).replace("</session>", "")
    got = list(site_ipoker.read(broken, "x"))
    assert len(got) == 10
    faults = [r for _, r in got if isinstance(r, SiteError)]
    assert len(faults) == 1 and "not well-formed XML" in str(faults[0])
    third = broken.index("<game ", broken.index("<game ", broken.index("<game ") + 1) + 1)
    assert got[2][0] == broken.count("\n", 0, third) + 1


@pytest.mark.parametrize("doc,fault", [
    ('<!DOCTYPE s [<!ENTITY a "aaaa">]><session><general><gametype>Holdem NL $1/$2'
     "</gametype></general></session>", "document type"),
    ("<session><general><gametype>Holdem NL $1/$2</gametype></general>"
     + "<game>" + "<x>" * 100 + "</x>" * 100 + "</game></session>", "deeper"),
])
def test_entities_and_absurd_nesting_are_refused(doc: str, fault: str) -> None:
    (_, err), = site_ipoker.read(doc, "x")
    assert isinstance(err, SiteError) and fault in str(err)


