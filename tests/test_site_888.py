"""The 888poker / Pacific reader (simulate/notation/site_888.py) on every 888 sample:
detection, hand counts, the chip check, the sources' values, hands event by event, the
tournament summaries, localized amounts and card letters, and the replay."""

from __future__ import annotations

from decimal import Decimal

import pytest
from site_expected import check_sources_values
from site_samples import (
    events,
    files_of,
    hands,
    one,
    records,
    sample,
)

from simulate.notation.site_text import SiteError
from simulate.notation.sites import read_site, read_site_records

FILES = files_of("888 / Pacific")
SUMMARIES = files_of("888 (tournament summary, not a hand)")
T = "poker/tests/handhistory/data/888poker/888poker2016032{} Tournament {} WSOP, 888Live & " \
    "Major Tournaments ({}) No Limit Holdem.txt"
T773 = T.format(7, "$0.01 Step 1", 78669773)
T312 = T.format(7, "$0.01 Step 1", 78669312)


@pytest.mark.parametrize("path", SUMMARIES)
def test_tournament_summaries_are_summaries_not_hands(path):
    """The five "Cassava Tournament Summary" files: one summary-only record each, which
    read_site skips (no hand)."""
    (rec,) = [r for _, r in records(path)]
    assert not isinstance(rec, SiteError) and rec.summary_only
    assert rec.info.tournament is not None and rec.info.tournament.id in path
    assert list(read_site(sample(path).read_bytes(), path)) == []


def test_the_sources_values():
    check_sources_values("888 / Pacific", 29)



def test_cash_hand_event_by_event():
    """A bet nobody calls comes back (not printed: derived); 'collected' is after a
    rake the file does not print (0.20 pot, 0.19 collected)."""
    h = one("A:Pacific/CashGame/GeneralHands/GeneralHand.txt")
    assert events(h) == [
        ("small_blind", "FCSM_1935", "0.05", ()), ("big_blind", "silas_tomkyn", "0.10", ()),
        ("call", "FCSM_1935", "0.05", ()), ("check", "silas_tomkyn", None, ()),
        ("board", None, None, ("Jc", "Kc", "3c")), ("check", "silas_tomkyn", None, ()),
        ("bet", "FCSM_1935", "0.10", ()), ("fold", "silas_tomkyn", None, ()),
        ("uncalled", "FCSM_1935", "0.10", ()), ("collect", "FCSM_1935", "0.19", ())]
    assert h.rake == Decimal("0.01") and h.button == 9
    assert h.info.time == "2014-01-06T22:40:28" and h.info.currency == "USD"


def test_dead_blind_is_a_live_post_and_dead_money():
    h = one("A:Pacific/CashGame/HandActionTests/PostingDead.txt")
    assert events(h)[:4] == [
        ("small_blind", "icebbberg", "1", ()), ("big_blind", "whoisdrew", "2", ()),
        ("post", "GYAMEPRO", "2", ()), ("dead", "GYAMEPRO", "1", ())]
    assert h.committed()["GYAMEPRO"] == 3 and h.rake == Decimal("0.30")


def test_tournament_with_antes_and_an_all_in_call_for_less():
    """``raises [$1,594]`` adds 1,594 (all in); the big blind ``calls [$838]``, his last
    chips; 556 of the raise comes back; the pot is 2,676, no rake."""
    (h,) = hands("hhp/test/pacific/tourney.usd.nlh.2016/hands.txt")
    ev = events(h)
    assert ev[:5] == [("ante", p, "20", ()) for p in
                      ("Mr.Tatt00", "CerealRobber", "MatjeP", "bilguun0226", "DiggErr555")]
    assert ev[5:] == [
        ("small_blind", "DiggErr555", "100", ()), ("big_blind", "MatjeP", "200", ()),
        ("hole", "DiggErr555", None, ("8c", "Qs")), ("raise", "CerealRobber", "400", ()),
        ("fold", "Mr.Tatt00", None, ()), ("raise", "bilguun0226", "1594", ()),
        ("fold", "DiggErr555", None, ()), ("call", "MatjeP", "838", ()),
        ("fold", "CerealRobber", None, ()), ("uncalled", "bilguun0226", "556", ()),
        ("board", None, None, ("6d", "7s", "Kd")), ("board", None, None, ("5c",)),
        ("board", None, None, ("8d",)), ("show", "bilguun0226", None, ("Qd", "Js")),
        ("show", "MatjeP", None, ("Ac", "Ad")), ("collect", "MatjeP", "2676", ())]
    t = h.info.tournament
    assert t is not None and (t.id, t.buy_in) == ("83728678", "$18.30 + $1.70")
    assert h.info.hero == "DiggErr555" and h.rake == 0 and h.max_seats == 9
    assert h.info.table == "#1"


def test_fixed_limit_raise_is_a_street_total():
    """FL heads-up: the big blind ``raises [$0.12]`` over the small blind's call: his
    street total is 0.24; the big bet (0.25: 888 rounds it) is read from the turn."""
    h = hands("hhp/test/pacific/cash.hhsmithy.usd.flh.hu/hands.txt")[1]
    assert events(h)[:5] == [
        ("small_blind", "Chillwill184", "0.06", ()), ("big_blind", "uyangau", "0.12", ()),
        ("call", "Chillwill184", "0.06", ()), ("raise", "uyangau", "0.24", ()),
        ("call", "Chillwill184", "0.12", ())]
    assert (h.info.betting, h.stakes.small_bet, h.stakes.big_bet) == (
        "fixed-limit", Decimal("0.12"), Decimal("0.25"))


def test_side_pots_and_a_short_big_blind():
    h = [r for line, r in records(T312) if line == 1][0]
    assert [e for e in events(h) if e[0] == "collect"] == [
        ("collect", "joeballoons", "2940", ()), ("collect", "ketaminol44n", "60", ())]
    # the big blind all in for 33 of 200: the caller still calls the full 200; 100 of it
    # is nobody's (the small blind folded its 100), and 888 pays it back in the side pot
    h = [r for line, r in records(T773) if line == 705][0]
    ev = events(h)
    assert ("big_blind", "Pyfik106", "33", ()) in ev
    assert ("call", "sportsfury8", "200", ()) in ev
    assert ev[ev.index(("call", "sportsfury8", "200", ())) + 2] == (
        "uncalled", "sportsfury8", "100", ())
    assert ev[-2:] == [("collect", "Pyfik106", "299", ()),
                       ("collect", "sportsfury8", "134", ())]


def test_a_raise_nobody_can_answer_is_a_call():
    """River: DeepDishDeep bets his last 700, LutherFoxx raises all in to 3,265, and
    7tapa7 "raises [$5,145]" though the one player left behind (ABC321123, 2,330 behind)
    cannot put in more than 3,265: it is a call of 3,265 (as the engine plays it) and the
    1,880 more never goes in; the pots (8,550 + 5,130) add up without it, no rake."""
    h = [r for line, r in records(T.format(8, "$0.01 Step 1", 78670600)) if line == 1203][0]
    assert events(h)[-10:-5] == [
        ("bet", "DeepDishDeep", "700", ()), ("fold", "sharip2018", None, ()),
        ("raise", "LutherFoxx", "3265", ()), ("call", "7tapa7", "3265", ()),
        ("fold", "ABC321123", None, ())]
    assert h.rake == 0 and [e for e in events(h) if e[0] == "uncalled"] == []


def test_a_payout_that_leaves_too_much_rake_is_the_hands_error():
    text = sample("A:Pacific/CashGame/HandActionTests/PostingDead.txt").read_text("utf-8-sig")
    ((_, rec),) = list(read_site_records(text.replace("[ $5.70 ]", "[ $5.00 ]"), "x"))
    assert isinstance(rec, SiteError) and "a rake of 1.00" in str(rec)  # 1 of a 6 pot


def test_omaha_hi_lo_pays_each_half():
    h = one("A:Pacific/CashGame/PlayerTests/OmahaHiLoShowdown.txt")
    assert (h.info.game, h.info.betting) == ("omaha_hilo", "pot-limit")
    assert events(h)[-3:] == [("muck", "clarefrush", None, ("6s", "6h", "Kc", "7h")),
                              ("collect", "IbetIgotYou", "0.38", ()),
                              ("collect", "IbetIgotYou", "0.38", ())]


def test_localized_amounts_and_scandinavian_card_letters():
    """'1 192,48 $' amounts; Danish/Swedish ranks: E (ace), Kn (jack), D (queen)."""
    h = one("A:Pacific/CashGame/ExtraHands/SpecialCards.txt")
    assert h.seats[0].stack == Decimal("1192.48")
    assert [e for e in events(h) if e[0] == "show"] == [
        ("show", "alexepro", None, ("Ac", "Jc", "3h", "3c")),
        ("show", "Mpodafone", None, ("Js", "Th", "5c", "Qc"))]
    assert h.rake == Decimal("3.40")  # 5% of 68
    # a UTF-8 no-break space written twice over ('Â\xa0') as the thousands separator
    h = one("A:Pacific/CashGame/Limits/Limit5.txt")
    assert [s.stack for s in h.seats] == [Decimal("3023.50"), Decimal("15552.50"),
                                          Decimal("4925"), Decimal("7167")]


def test_skins_and_the_hero():
    assert one("A:Pacific/CashGame/GeneralHands/HeroName.txt").info.hero == "PAC_Hero"
    h = one("A:MicroGaming/CashGame/Seats/HeadsUp.txt")  # Cassava, in MicroGaming's folder
    assert h.info.hand_id == "438238654" and h.info.betting == "fixed-limit"
    assert [e for e in events(h) if e[0] in ("raise", "uncalled", "collect")] == [
        ("raise", "FOTOREGIME", "4", ()), ("uncalled", "FOTOREGIME", "2", ()),
        ("collect", "FOTOREGIME", "4", ())]


def test_a_product_name_after_the_skin_and_play_money():
    """Headers this reader tolerates beyond the samples: a product name after the skin
    ("888poker Snap Poker"), a play-money table (its chips are not a currency)."""
    text = sample("A:Pacific/CashGame/GeneralHands/GeneralHand.txt").read_text("utf-8-sig")
    text = text.replace("888poker Hand", "888poker Snap Poker Hand").replace("Real", "Play")
    ((_, h),) = list(read_site_records(text, "x"))
    assert not isinstance(h, SiteError)
    assert (h.info.hand_id, h.info.currency) == ("349736402", "chips")


def test_a_hand_cut_short_is_its_error_not_the_files():
    text = sample("hhp/test/pacific/cash.hhsmithy.usd.nlh.6max/hands.txt").read_text()
    cut = text.replace("Kostan88 collected [ $14.25 ]", "")
    recs = list(read_site_records(cut, "x"))
    assert isinstance(recs[0][1], SiteError) and "line 21" in str(recs[0][1])
    assert [type(r).__name__ for _, r in recs[1:]] == ["SiteHand", "SiteHand"]


