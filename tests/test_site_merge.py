"""The Merge XML reader (simulate/notation/site_merge.py) on every Merge sample."""

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

from simulate.notation import site_merge
from simulate.notation.site_hand import SiteHand
from simulate.notation.site_text import SiteError

FILES = files_of("Merge")






events = spelled


def test_fixed_limit_with_the_uncalled_bet_in_the_win() -> None:
    """A raise is the street total (6 over the big blind of 3); the flop's board is printed
    after its betting but dealt before it; the winner line ($15.83) holds the flop bet
    nobody called: the pot taken is $12.83, the rake $0.67."""
    path = SAMPLES + "Merge/CashGame/GameTypeTests/FixedLimitHoldem.txt"
    assert events(path) == [
        ("small_blind", "mylastmoneys", "1.50", ""), ("big_blind", "ficaqui", "3.00", ""),
        ("raise", "BlackBook1", "6.00", ""), ("fold", "AtSiki", None, ""),
        ("fold", "flatulentfox", None, ""), ("fold", "etinh38", None, ""),
        ("fold", "mylastmoneys", None, ""), ("call", "ficaqui", "3.00", ""),
        ("board", None, None, "5c 3h Js"),
        ("check", "ficaqui", None, ""), ("bet", "BlackBook1", "3.00", ""),
        ("fold", "ficaqui", None, ""),
        ("uncalled", "BlackBook1", "3.00", ""), ("collect", "BlackBook1", "12.83", ""),
    ]
    hand = records(path)[0][1]
    assert hand.rake == Decimal("0.67") and hand.stakes.big_bet == Decimal(6)


def test_an_all_in_adds_and_an_uncalled_winner_line() -> None:
    """``ALL_IN`` gives what it adds (200.59 on 22.25: the whole 222.84); the file's own
    uncalled winner line (21.74) is the excess the reader works out; the board comes
    once, the hands are shown."""
    path = SAMPLES + "Merge/CashGame/HandActionTests/AllInHandWithShowdown.txt"
    assert events(path)[9:] == [
        ("raise", "dugaly", "222.84", ""), ("call", "anica11", "152.10", ""),
        ("uncalled", "dugaly", "21.74", ""),
        ("board", None, None, "Js Qh Jd"), ("board", None, None, "6h"),
        ("board", None, None, "Th"),
        ("show", "anica11", None, "Kc Kh"), ("show", "dugaly", None, "Ad Ah"),
        ("collect", "dugaly", "407.70", ""),
    ]


def test_a_rabbit_hunt_is_no_board() -> None:
    """After everyone folds, the cards that would have come (``RABBIT``) are printed as a
    board: they are not one."""
    path = SAMPLES + "Merge/CashGame/MultipleHandsTests/10MultipleHands.txt"
    assert [e for e in events(path, 5) if e[0] == "board"] == []
    assert events(path, 5)[-3:] == [("uncalled", "fizzlelicious", "3.00", ""),
                                    ("show", "fizzlelicious", None, "Jh Js"),
                                    ("collect", "fizzlelicious", "5.00", "")]


def test_one_broken_game_costs_one_hand() -> None:
    path = SAMPLES + "Merge/CashGame/MultipleHandsTests/10MultipleHands.txt"
    text = (SITES / path).read_bytes().decode("utf-8-sig")
    games = text.split("<game ")
    games[4] = games[4].replace("</round>", "</roundx>", 1)
    got = list(site_merge.read("<game ".join(games), "x"))
    assert len(got) == 10
    assert [isinstance(r, SiteError) for _, r in got] == [False] * 3 + [True] + [False] * 6


@pytest.mark.parametrize("doc,fault", [
    ('<!DOCTYPE g [<!ENTITY a "aaaa">]><description type="Holdem" stakes="No Limit ($1/$2)"/>'
     '<game id="1-1" numholecards="2">&a;</game>', "document type"),
    ('<description type="Holdem" stakes="No Limit ($1/$2)"/><game id="1-1" numholecards="2">'
     + "<x>" * 100 + "</x>" * 100 + "</game>", "deeper"),
    ('<description type="Holdem" stakes="No Limit ($1/$2)"/><game id="1-1" numholecards="2">'
     "<players>", "not well-formed"),
])
def test_entities_nesting_and_truncation_are_one_error(doc: str, fault: str) -> None:
    (_, err), = site_merge.read(doc, "x")
    assert isinstance(err, SiteError) and fault in str(err)


def test_the_newer_export_without_a_description() -> None:
    """Newer exports (``version="2.1"``) drop the ``<description>``: the game element carries
    its ``stakes``, the game is its ``gametype`` code, the hero's cards are ``HOLE`` cards
    (a card not shown is ``null``); the hand reads as the older export's."""
    path = SAMPLES + "Merge/CashGame/GameTypeTests/FixedLimitHoldem.txt"
    text = (SITES / path).read_bytes().decode("utf-8-sig")
    newer = text.split("\n", 1)[1].replace(
        'gametype="2" seats="6"', 'gametype="2" stakes="Limit $3/$6" seats="6" version="2.1"')
    newer = newer.replace('<round id="PREFLOP" sequence="2">', '<round id="PREFLOP" sequence='
                          '"2">\n\t\t<cards type="HOLE" cards="Ah,null" player="1" hand="A"/>')
    (_, old), = records(path)
    (_, new), = site_merge.read(newer, "x")
    assert isinstance(new, SiteHand) and new.info.hero == "BlackBook1"
    assert new.events[0].kind == "hole" and new.events[0].cards == ("Ah", "??")
    assert [(e.kind, e.player, e.amount) for e in new.events[1:]] == [
        (e.kind, e.player, e.amount) for e in old.events]
    assert (new.info.game, new.info.betting, new.stakes) == (old.info.game, old.info.betting,
                                                             old.stakes)


def test_the_file_says_nine_seats() -> None:
    """Where the source's parser counts the 6 players (tests/test_site_families.py: the
    contradicted fact)."""
    assert records(SAMPLES + "Merge/CashGame/Seats/6 Max.txt")[0][1].max_seats == 9
