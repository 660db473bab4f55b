"""The GGPoker reader (simulate/notation/site_ggpoker.py) on every GGPoker sample of
tests/data/sites: detection, hand counts, the chip check, the sources' own expected values,
hands checked event by event, and each hand through the replay."""

from __future__ import annotations

from decimal import Decimal

from site_expected import iso_time
from site_samples import SITES, built_boards, expected, files_of, read_hand, recs_of

from simulate.notation import site_ggpoker
from simulate.notation.site_hand import SiteHand
from simulate.notation.sites import read_site
from simulate.replay.hand_replay import replay

FILES = files_of("GGPoker")
GG = ("PokerHandHistoryParser/HandHistories.Parser.UnitTests/SampleHandHistories/GGPoker/"
      "CashGame/")
D = Decimal


def test_expected_values_of_the_sources() -> None:
    (gen,) = recs_of(GG + "GeneralHands/GeneralHand.txt")
    exp = expected()[GG + "GeneralHands/GeneralHand.txt"]
    assert isinstance(gen, SiteHand)
    assert gen.info.hand_id == "HD" + exp["hand_id"]
    assert gen.info.time == iso_time(exp["date_utc"])
    assert gen.button == exp["dealer_button_seat"]
    assert len(gen.seats) == exp["number_of_players"]
    assert gen.rake == D(str(exp["rake"]))
    assert gen.total_pot == D(str(exp["total_pot"]))
    (lim,) = recs_of(GG + "Limits/Limit1.txt")
    assert isinstance(lim, SiteHand)
    assert expected()[GG + "Limits/Limit1.txt"]["limit"] == "$0.50-$1"
    assert (lim.stakes.small_blind, lim.stakes.big_blind) == (D("0.5"), D("1"))
    assert lim.info.currency == "USD"
    (nl,) = recs_of(GG + "GameTypeTests/NoLimitHoldem.txt")
    (plo,) = recs_of(GG + "GameTypeTests/PotLimitOmaha.txt")
    assert isinstance(nl, SiteHand) and isinstance(plo, SiteHand)
    assert (nl.info.game, nl.info.betting) == ("holdem", "no-limit")
    assert (plo.info.game, plo.info.betting) == ("omaha", "pot-limit")


def _kinds(rec: SiteHand) -> list[tuple]:
    return [(e.kind, e.player, e.amount, e.cards, e.run) for e in rec.events]


def test_run_three_times_event_by_event() -> None:
    (rec,) = recs_of(GG + "GeneralHands/RunThreeTimes.txt")
    assert isinstance(rec, SiteHand)
    ev = _kinds(rec)
    assert ev[:2] == [("small_blind", "Hero", D("0.5"), (), 1),
                      ("big_blind", "thg124da", D("1"), (), 1)]
    assert ("hole", "Hero", None, ("8d", "3s"), 1) in ev
    assert ("raise", "88kkaa62", D("5"), (), 1) in ev          # "raises $4 to $5"
    assert ("raise", "22ab6yhc", D("21.77"), (), 1) in ev      # "raises $10.27 to $21.77"
    boards = [(c, r) for k, _, _, c, r in ev if k == "board"]
    assert boards == [(("Th", "9c", "5s"), 1), (("6h",), 1), (("Jc",), 1), (("4d",), 2),
                      (("Kd",), 2), (("Ad",), 3), (("2h",), 3)]
    collects = [(p, a, r) for k, p, a, _, r in ev if k == "collect"]
    assert collects == [("22ab6yhc", D("17.12"), 1), ("22ab6yhc", D("17.11"), 2),
                        ("88kkaa62", D("17.11"), 3)]
    assert built_boards(GG + "GeneralHands/RunThreeTimes.txt") == [
        "Th9c5s6hJc", "Th9c5s4dKd", "Th9c5sAd2h"]
    assert (rec.rake, rec.info.fees) == (D("2.7"), {"jackpot": D("1")})
    assert rec.info.hero == "Hero" and rec.info.table == "NLHGold14" and rec.max_seats == 6


def test_run_twice_from_preflop() -> None:
    (rec,) = recs_of(GG + "GeneralHands/RunTwice.txt")
    assert isinstance(rec, SiteHand)
    assert built_boards(GG + "GeneralHands/RunTwice.txt") == ["2d3c8sJh3d", "6d4s4h3hTs"]
    assert rec.collected() == {"Hero": D("188.36")}
    assert rec.committed() == {"52jj36aa": D("97.18"), "Hero": D("97.18")}


def test_straddle_dead_blind_and_a_second_big_blind() -> None:
    (st,) = recs_of(GG + "GeneralHands/Straddle.txt")
    assert isinstance(st, SiteHand)
    assert ("straddle", "62dfdfaf", D("2"), (), 1) in _kinds(st)
    assert ("uncalled", "xnvdam1", D("22.68"), (), 1) in _kinds(st)
    (dead,) = recs_of(GG + "HandActionTests/PostingDead.txt")
    assert isinstance(dead, SiteHand)
    assert _kinds(dead)[2:4] == [("dead", "15yfdsaa", D("0.5"), (), 1),
                                 ("post", "15yfdsaa", D("1"), (), 1)]
    (posts,) = recs_of(GG + "GeneralHands/MultiplePosts.txt")
    assert isinstance(posts, SiteHand)
    assert _kinds(posts)[1:3] == [("big_blind", "fadfvasf", D("0.5"), (), 1),
                                  ("post", "123dca2d", D("0.5"), (), 1)]


def test_cash_out_lines() -> None:
    (pays,) = recs_of(GG + "HandActionTests/PaysCashoutFee.txt")
    (gets,) = recs_of(GG + "HandActionTests/ReceivesCashout.txt")
    assert isinstance(pays, SiteHand) and isinstance(gets, SiteHand)
    assert [(e.player, e.amount) for e in pays.events if e.kind == "cashout"] == [
        ("oiesfcv1", D("-22.68"))]
    assert [(e.player, e.amount) for e in gets.events if e.kind == "cashout"] == [
        ("88989dfa", D("9.98"))]
    assert gets.collected() == {"fdfa4dax": D("14.8")}     # the cash-out is outside the pot


def test_a_cash_out_fee_paid_comes_off_the_net_only() -> None:
    """The contract: winnings are what the player collected (a cash-out received counts);
    a premium paid outside the pot comes off the net, not the winnings."""
    path = GG + "HandActionTests/PaysCashoutFee.txt"
    ((_, hh),) = list(read_site((SITES / path).read_bytes(), path))
    d = replay(hh).to_dict()
    i = d["players"].index("oiesfcv1")
    assert d["error"] is None and d["cashout"] == {"oiesfcv1": -22.68}
    assert d["winnings"][i] == 243.86 and d["net"][i] == 98.45



def test_cash_outs_are_written_and_read_back_by_convert() -> None:
    """A cash-out received and one paid outside the pot survive OHH and PokerStars text:
    each hand read back has the site's net, winnings and ``cashout`` (they were dropped, so a
    converted hand's net was off by the cash-out)."""
    import simulate.notation as N

    for name in ("PaysCashoutFee", "ReceivesCashout", "UncalledBetAndPaysCashoutFee"):
        path = GG + f"HandActionTests/{name}.txt"
        ((_, hh),) = list(read_site((SITES / path).read_bytes(), path))
        want = replay(hh).to_dict()
        for fmt in ("ohh", "pokerstars"):
            (back,) = N.read(N.write([hh], fmt))
            got = replay(back).to_dict()
            assert [got[k] for k in ("net", "winnings", "cashout", "error")] == [
                want[k] for k in ("net", "winnings", "cashout", "error")], (name, fmt)

def test_bet_and_muck() -> None:
    (rec,) = recs_of(GG + "HandActionTests/BetAndMuck.txt")
    assert isinstance(rec, SiteHand)
    assert ("bet", "42c6a201", D("0.05"), (), 1) in _kinds(rec)
    assert ("muck", "42c6a201", None, (), 1) in _kinds(rec)


def test_tournament_header_and_antes() -> None:
    text = (
        "Poker Hand #TM1234567: Tournament #98765, $10 Bounty Hunters Hold'em No Limit - "
        "Level7(150/300(40)) - 2021/03/04 05:06:07\n"
        "Table '12' 8-max Seat #2 is the button\n"
        "Seat 1: aaa (10,000 in chips)\nSeat 2: Hero (8,500 in chips)\n"
        "Seat 3: ccc (12,040 in chips)\n"
        "aaa: posts the ante 40\nHero: posts the ante 40\nccc: posts the ante 40\n"
        "ccc: posts small blind 150\naaa: posts big blind 300\n*** HOLE CARDS ***\n"
        "Dealt to aaa \nDealt to Hero [Ah Kd]\nDealt to ccc \n"
        "Hero: raises 450 to 750\nccc: folds\naaa: folds\n"
        "Uncalled bet (450) returned to Hero\n*** SHOWDOWN ***\n"
        "Hero collected 870 from pot\n*** SUMMARY ***\n"
        "Total pot 870 | Rake 0 | Jackpot 0 | Bingo 0 | Fortune 0 | Tax 0\n")
    rec = read_hand(site_ggpoker.read, text)
    assert rec.info.tournament is not None
    assert rec.info.tournament.to_dict() == {"id": "98765", "buy_in": "$10", "level": "7"}
    assert rec.info.currency == "chips"
    assert (rec.stakes.small_blind, rec.stakes.big_blind, rec.stakes.ante) == (
        D(150), D(300), D(40))
    assert rec.seats[2].stack == D(12040)
    rec.check_chips()


def test_cash_drop_is_paid_outside_the_pot() -> None:
    text = (
        "Poker Hand #RC3: Hold'em No Limit ($0.10/$0.25) - 2025/05/13 11:54:15\n"
        "Table 'RushAndCash3' 6-max Seat #1 is the button\n"
        "Seat 1: a ($25.80 in chips)\nSeat 2: b ($25.00 in chips)\n"
        "Seat 3: c ($25.00 in chips)\nSeat 4: d ($25.80 in chips)\n"
        "Cash Drop to Pot : total $2.50\n"
        "b: posts small blind $0.10\nc: posts big blind $0.25\n*** HOLE CARDS ***\n"
        "d: raises $0.38 to $0.63\na: calls $0.63\nb: calls $0.53\n"
        "c: raises $24.37 to $25.00 and is all-in\nd: folds\na: folds\nb: folds\n"
        "Uncalled bet ($24.37) returned to c\n*** SHOWDOWN ***\nc collected $4.77 from pot\n"
        "*** SUMMARY ***\n"
        "Total pot $5.02 | Rake $0.25 | Jackpot $0 | Bingo $0 | Fortune $0 | Tax $0\n")
    rec = read_hand(site_ggpoker.read, text)
    assert [(e.kind, e.player, e.amount, e.pot) for e in rec.events
            if e.kind in ("collect", "cashout")] == [
        ("collect", "c", D("2.27"), "pot"), ("cashout", "c", D("2.50"), "cash drop")]
    rec.check_chips()
    (hh,) = [h for _, h in read_site(text, "t")]
    doc = replay(hh).to_dict()
    assert doc["error"] is None and doc["validated"]
    assert doc["winnings"][doc["players"].index("c")] == 4.77
    assert doc["cashout"] == {"c": 2.5}


def test_short_deck_antes_and_button_blind() -> None:
    text = (
        "Poker Hand #SD27208848: ShortDeck No Limit ($0.02) - 2021/03/02 18:22:40\n"
        "Table 'SDWhite20' 5-max Seat #3 is the button\n"
        "Seat 1: f1da9c5a ($2.75 in chips)\n"
        "Seat 2: 27925b27 ($2.09 in chips)\n"
        "Seat 3: Hero ($2 in chips)\n"
        "Seat 5: 11294517 ($0.8 in chips)\n"
        "27925b27: posts the ante $0.02\n"
        "11294517: posts the ante $0.02\n"
        "Hero: posts the ante $0.02\n"
        "f1da9c5a: posts the ante $0.02\n"
        "Hero: posts button blind $0.02\n"
        "*** HOLE CARDS ***\n"
        "Dealt to f1da9c5a \n"
        "Dealt to 27925b27 \n"
        "Dealt to Hero [Tc Ac]\n"
        "Dealt to 11294517 \n"
        "11294517: folds\n"
        "f1da9c5a: calls $0.02\n"
        "27925b27: calls $0.02\n"
        "Hero: checks\n"
        "*** FLOP *** [Qh 8s 9d]\n"
        "f1da9c5a: checks\n"
        "27925b27: bets $0.2\n"
        "Hero: folds\n"
        "f1da9c5a: calls $0.2\n"
        "*** TURN *** [Qh 8s 9d] [6c]\n"
        "f1da9c5a: checks\n"
        "27925b27: checks\n"
        "*** RIVER *** [Qh 8s 9d 6c] [7h]\n"
        "f1da9c5a: checks\n"
        "27925b27: checks\n"
        "f1da9c5a: shows [Ts Js] (a straight, Queen high)\n"
        "27925b27: shows [Kd Kc] (a pair of Kings)\n"
        "*** SHOWDOWN ***\n"
        "f1da9c5a collected $0.52 from pot\n"
        "*** SUMMARY ***\n"
        "Total pot $0.54 | Rake $0.02 | Jackpot $0 | Bingo $0 | Fortune $0 | Tax $0\n")
    rec = read_hand(site_ggpoker.read, text)
    assert (rec.info.game, rec.stakes.ante) == ("short_deck_triton", D("0.02"))
    assert ("big_blind", "Hero", D("0.02"), (), 1) in _kinds(rec)   # "posts button blind"
    rec.check_chips()
    (hh,) = [h for _, h in read_site(text, "t")]
    doc = replay(hh).to_dict()
    assert doc["error"] is None and doc["validated"]




def test_a_later_board_repeating_a_card_is_the_hands_error() -> None:
    """The engine plays the first board only: a second board's own card that is on the
    first board or in a hand dealt or shown (52jj36aa shows [Kc As]) is the builder's
    error, naming the card and both places."""
    text = (SITES / GG / "GeneralHands/RunTwice.txt").read_text(encoding="utf-8")
    for swap, card in (("4h", "Kc"), ("4h", "8s")):
        bad = text.replace(f"[6d 4s {swap}]", f"[6d 4s {card}]").replace(
            f"[6d 4s {swap} 3h]", f"[6d 4s {card} 3h]")
        ((_, got),) = list(read_site(bad, "bad"))
        assert not isinstance(got, SiteHand) and f"card {card} is dealt twice (" in str(got)
        assert str(got).endswith(" and board 2)"), got
