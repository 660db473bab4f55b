"""The Winning Poker / ACR reader (simulate/notation/site_winning.py) on every sample of its
three formats in tests/data/sites (2014, 2019+, the sit & go / tournament form, and ACR's
seven-card stud hi/lo as chip accounting): detection, hand counts, the chip check, the
sources' own expected values, hands checked event by event, and the replay."""

from __future__ import annotations

from decimal import Decimal

import pytest
from site_expected import iso_time, plain_hand
from site_samples import built_boards, expected, files_of, moves, one, recs_of

from simulate.notation import site_winning
from simulate.notation.site_hand import SiteHand

LABELS = ("Winning Poker (2014 format)", "Winning Poker / ACR (2019+ format)",
          "Winning Poker / ACR (tournament format)")
FILES = files_of(*LABELS)
A = "PokerHandHistoryParser/HandHistories.Parser.UnitTests/SampleHandHistories/"
WP, V2 = A + "WinningPoker/CashGame/", A + "WinningPokerV2/CashGame/"
F = "Poker-Hand-Tracker/"
SIDE_POT = next(k for k in FILES if "hh_for_side_pot" in k)
LONG = F + "__tests__/fake_data_tourneys/long_hand_history_for_tests.txt"
STUD = "hand-history-parser/extracted/acr/HAND_7CARD_STUD_HILO.txt"
D = Decimal


@pytest.mark.parametrize("path", sorted(k for k in expected() if k.startswith((WP, V2))))
def test_expected_values_of_the_sources(path: str) -> None:
    rec, exp = plain_hand(path)
    if rec is None:
        return
    info = rec.info
    if "date_utc" in exp:
        assert info.time is not None and info.time.startswith(iso_time(exp["date_utc"]))
    fees = sum(info.fees.values(), D(0))
    if exp.get("rake") is not None:  # the source's rake holds the jackpot fee
        assert rec.rake is not None and rec.rake + fees == D(str(exp["rake"]))
    if exp.get("total_pot") is not None:  # the source's pot is before the rake
        assert rec.total_pot is not None and rec.rake is not None
        assert rec.total_pot + rec.rake + fees == D(str(exp["total_pot"]))
    if "limit" in exp:
        sb, bb = (D(x.lstrip("$")) for x in exp["limit"].split("-"))
        assert (rec.stakes.small_blind, rec.stakes.big_blind) == (sb, bb)


def test_2014_amounts_are_what_each_action_adds() -> None:
    rec = one(WP + "PlayerTests/OmahaShowdown.txt")
    assert moves(rec) == [
        ("small_blind", "do not-call", D(2)), ("big_blind", "digbick30", D(4)),
        ("raise", "do not-call", D(12)),     # "raises (10)" on top of the small blind's 2
        ("raise", "digbick30", D(36)),       # "raises (32)" on top of the big blind's 4
        ("call", "do not-call", D(24)),
        ("bet", "digbick30", D(71)),
        ("raise", "do not-call", D(124)),    # "allin (124)" over a bet: a raise to 124
        ("call", "digbick30", D(53)),
        ("show", "do not-call", None), ("show", "digbick30", None),
        ("collect", "do not-call", D(319))]
    assert rec.committed() == {"do not-call": D(160), "digbick30": D(160)}
    assert rec.rake == D(1)
    assert built_boards(WP + "PlayerTests/OmahaShowdown.txt") == ["9hTd7cAh3s"]
    shown = [e.cards for e in rec.events if e.kind == "show"]
    assert shown == [("3c", "6h", "7d", "8c"), ("Qh", "Kc", "Ks", "4d")]


def test_2014_dead_post_straddle_and_jackpot_drop() -> None:
    dead = one(WP + "HandActionTests/PostingDead.txt")
    assert moves(dead)[2:4] == [("dead", "TheKunttzz", D("0.25")),
                                 ("post", "TheKunttzz", D("0.50"))]
    assert dead.info.fees == {}  # no flop: no jackpot drop
    straddle = one(WP + "HandActionTests/Straddle.txt")
    assert ("straddle", "D3SISION", D("0.50")) in moves(straddle)
    assert straddle.info.fees == {"jackpot": D("0.25")}  # a (JP) table, a flop, 6 dealt in
    three = one(WP + "StreetTests/Turn.txt")
    assert three.info.fees == {}  # a (JP) table, a flop, but 3 dealt in


def test_2014_hero_cards_one_a_line() -> None:
    rec = one(WP + "PlayerTests/OmahaHoleCards.txt")
    holes = [(e.player, e.cards) for e in rec.events if e.kind == "hole"]
    assert len(holes) == 1 and len(holes[0][1]) == 4 and rec.info.hero == holes[0][0]
    hero = one(WP + "GeneralHands/HeroName.txt")
    assert [(e.player, e.cards) for e in hero.events if e.kind == "hole"] == [
        ("WP_Hero", ("6d", "Ks"))]


def test_2014_big_blind_all_in_for_less() -> None:
    rec = one(WP + "ValidHandTests/ValidHand_2.txt")
    assert moves(rec)[:2] == [("small_blind", "choptop", D("0.10")),
                               ("big_blind", "L6U11C2K1Y3", D("0.24"))]


def test_2014_hands_glued_together() -> None:
    recs = recs_of(WP + "MultipleHandsTests/10MultipleHands.txt")
    assert len({r.info.hand_id for r in recs if isinstance(r, SiteHand)}) == 10


def test_v2_side_pots_rake_and_jackpot_fee() -> None:
    rec = one(V2 + "HandActionTests/SplitPot.txt")
    assert [(e.player, e.amount, e.pot) for e in rec.events if e.kind == "collect"] == [
        ("Player1", D("280.76"), "main pot"), ("Player1", D("836.62"), "side pot-1")]
    assert (rec.rake, rec.info.fees) == (D("2.76"), {"jackpot": D("0.24")})
    assert ("raise", "Player9", D(350)) in moves(rec)          # "raises $350.00 to $350.00"
    assert ("call", "Player4", D("20.38")) in moves(rec)


def test_v2_collection_from_the_summary_and_the_uncalled_blind() -> None:
    rec = one(V2 + "GameTypeTests/NoLimitHoldem.txt")
    assert [(e.player, e.amount) for e in rec.events if e.kind == "collect"] == [
        ("Player4", D("0.20"))]
    first = recs_of(SIDE_POT)[0]
    assert isinstance(first, SiteHand)
    # everyone folds to the big blind: the site prints no return and collects 4400
    assert moves(first)[-2:] == [("uncalled", "PotNoodle99912", D(1000)),
                                  ("collect", "PotNoodle99912", D(3400))]


def test_tournament_antes_and_an_uncalled_bet_printed_after_the_runout() -> None:
    path = next(k for k in FILES if "hh_for_pos_and_plr_name" in k)
    hands = [r for r in recs_of(path) if isinstance(r, SiteHand)
             and r.info.hand_id == "712012036"]
    (rec,) = hands
    assert rec.info.tournament is not None
    assert rec.info.tournament.to_dict() == {"id": "24095328", "buy_in": None, "level": "10"}
    assert rec.info.currency == "chips" and rec.info.time == "2021-02-20T18:50:12+00:00"
    assert moves(rec)[0] == ("ante", "MateusVR", D(600))
    kinds = [e.kind for e in rec.events]
    k = kinds.index("uncalled")
    assert kinds[k - 1] == "call" and kinds[k + 1] == "board"  # back on the flop
    assert rec.events[k].amount == D(25782)


def test_seven_card_stud_hi_lo_street_by_street() -> None:
    rec = one(STUD)
    assert (rec.info.game, rec.info.betting) == ("stud_hilo", "fixed-limit")
    assert (rec.stakes.small_bet, rec.stakes.big_bet) == (D("0.10"), D("0.20"))
    holes = [(e.player, e.cards) for e in rec.events if e.kind == "hole"]
    assert holes[:2] == [("AzRic", ("??", "??", "8s")), ("fuggins", ("4c", "7h", "3c"))]
    assert ("AzRic", ("5s",)) in holes and ("fuggins", ("6h",)) in holes
    assert ("AzRic", ("??",)) in holes            # 7th street, dealt down, not printed
    assert rec.info.hero == "fuggins"
    ev = moves(rec)
    assert ev[8:10] == [("bring_in", "cleaver52", D("0.05")),
                        ("complete", "fuggins", D("0.10"))]
    assert sum(1 for e in rec.events if e.kind == "street") == 4
    assert (rec.rake, rec.info.fees) == (D("0.08"), {"jackpot": D("0.02")})


def test_detect_rejects_other_texts() -> None:
    assert not site_winning.detect("PokerStars Hand #1: Hold'em No Limit ($1/$2)")
    assert site_winning.detect("Hand #1 - Holdem(No Limit) - $1/$2 - 2020/01/01 00:00:00 UTC")


