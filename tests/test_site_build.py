"""The one builder from a transcribed site hand to the replayed hand (notation.site_build),
and the site keys of the document (replay.hand_replay.site_keys), on hands written here
event by event, each checked by hand."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from simulate.notation.phh_write import hand_to_phh
from simulate.notation.site_build import build
from simulate.notation.site_hand import Event, Seat, SiteHand, Stakes
from simulate.notation.site_text import SiteError, SiteInfo
from simulate.replay.hand_replay import replay


def _hand(events, seats, button, *, rake=None, game="holdem", betting="no-limit",
          stakes=None, fees=None) -> SiteHand:
    info = SiteInfo(site="pokerstars", hand_id="42", game=game, betting=betting,
                    table="T", currency="USD", line=7, fees=fees or {})
    return SiteHand(info=info, seats=[Seat(i, n, D(s)) for i, n, s in seats],
                    stakes=stakes or Stakes(D("0.05"), D("0.10")), events=events,
                    button=button, rake=rake)


def E(kind, player=None, amount=None, cards=(), **kw):  # noqa: N802 - reads as a table
    return Event(kind, player, None if amount is None else D(amount), tuple(cards), **kw)


THREE = [(1, "ann", "10"), (3, "bob", "10"), (5, "cy", "10"), (6, "dee", "8")]


def three_handed() -> SiteHand:
    # dee sits out (no event names her); button seat 5 (cy): ann small blind, bob big blind
    return _hand([
        E("small_blind", "ann", "0.05"), E("big_blind", "bob", "0.10"),
        E("hole", "bob", cards=("Ah", "Kh")),
        E("raise", "cy", "0.30"), E("fold", "ann"), E("call", "bob", "0.20"),
        E("board", cards=("2c", "7d", "Jh")),
        E("bet", "bob", "0.50"), E("raise", "cy", "1.50"), E("call", "bob", "1.00"),
        E("board", cards=("3s",)), E("bet", "bob", "2"), E("fold", "cy"),
        E("uncalled", "bob", "2", line=30), E("collect", "bob", "3.52", pot="pot"),
    ], THREE, button=5, rake=D("0.13"))


def test_three_handed_fields_order_and_actions():
    hh = build(three_handed(), "f.txt")
    # PHH order: from the seat after the button round to the button
    assert hh.players == ["ann", "bob", "cy"]
    assert hh.fields["blinds_or_straddles"] == [D("0.05"), D("0.1"), 0]
    assert hh.fields["antes"] == [0, 0, 0]
    acts = hh.fields["actions"]
    assert acts[:3] == ["d dh p1 ????", "d dh p2 AhKh", "d dh p3 ????"]
    assert acts[3:] == ["p3 cbr 0.3", "p1 f", "p2 cc", "d db 2c7dJh", "p2 cbr 0.5",
                        "p3 cbr 1.5", "p2 cc", "d db 3s", "p2 cbr 2", "p3 f"]
    assert hh.winnings == [0, D("3.52"), 0] and hh.rake == D("0.13")
    assert hh.site.seats == [1, 3, 5]
    assert hh.fields["hand"] == "42" and hh.fields["venue"] == "pokerstars"


def test_three_handed_document():
    d = replay(build(three_handed(), "f.txt")).to_dict()
    assert d["error"] is None and d["validated"] is True
    assert d["site"] == "pokerstars" and d["hand_id"] == "42" and d["seats"] == [1, 3, 5]
    # committed excludes the uncalled 2 returned to bob
    assert d["committed"] == [0.05, 1.8, 1.8]
    assert d["winnings"] == [0, 3.52, 0]
    assert d["net"] == [-0.05, 1.72, -1.8]
    assert d["rake"] == 0.13


def test_written_phh_reads_back_the_same_hand():
    from simulate.notation.phh_read import parse_text

    hh = build(three_handed(), "f.txt")
    [(_, back)] = list(parse_text(hand_to_phh(hh)))
    assert back.actions == hh.actions and back.players == hh.players
    assert back.winnings == hh.winnings and back.starting_stacks == hh.starting_stacks


def test_heads_up_order_is_big_blind_then_button():
    seats = [(1, "ann", "5"), (2, "bob", "5")]
    h = _hand([E("small_blind", "bob", "0.05"), E("big_blind", "ann", "0.10"),
               E("call", "bob", "0.05"), E("check", "ann"),
               E("board", cards=("2c", "7d", "Jh")), E("check", "ann"), E("check", "bob"),
               E("board", cards=("3s",)), E("check", "ann"), E("check", "bob"),
               E("board", cards=("4s",)), E("check", "ann"), E("check", "bob"),
               E("show", "ann", cards=("Ac", "Ad")), E("show", "bob", cards=("Kc", "Kd")),
               E("collect", "ann", "0.20")], seats, button=2)
    hh = build(h, "f.txt")
    assert hh.players == ["ann", "bob"]
    # PHH heads-up: the lists are swapped (the first entry is the button's small blind)
    assert hh.fields["blinds_or_straddles"] == [D("0.05"), D("0.1")]
    assert hh.fields["actions"][:2] == ["d dh p1 AcAd", "d dh p2 KcKd"]
    d = replay(hh).to_dict()
    assert d["error"] is None and d["validated"] and d["winnings"] == [0.2, 0]


def test_chips_that_do_not_add_up_name_the_line():
    h = three_handed()
    h.rake = D("0.10")
    with pytest.raises(SiteError, match=r"line 7: the chips do not add up: 3.65 committed, "
                                        r"3.52 collected \+ 0.10 rake"):
        build(h, "f.txt")


def test_uncalled_bet_printed_larger_than_the_bet_is_capped_and_noted():
    h = three_handed()
    for e in h.events:
        if e.kind == "uncalled":
            e.amount = D("2.50")
    h.rake = D("0.13") - D("0.50")  # the site's sums were made with the printed return
    with pytest.raises(SiteError):
        build(h, "f.txt")
    h = three_handed()
    for e in h.events:
        if e.kind == "uncalled":
            e.amount = D("2.50")
    h.events.append(E("collect", "bob", "0.50"))  # collected counts the printed return
    h.events = [e for e in h.events if not (e.kind == "collect" and e.amount == D("0.50"))]
    h.rake = D("0.13")
    hh = build(h, "f.txt")  # capped at 2: the sums add up again
    assert hh.site.repairs == ["line 30: uncalled bet of 2.50 returned to bob capped at the 2 "
                               "not called"]
    assert any("capped" in r for r in replay(hh).to_dict()["repairs"])


def test_post_and_dead_money_and_antes():
    seats = [(1, "ann", "10"), (2, "bob", "10"), (3, "cy", "10"), (4, "dee", "10")]
    h = _hand([E("ante", p, "0.01") for p in ("ann", "bob", "cy", "dee")] + [
        E("small_blind", "bob", "0.05"), E("big_blind", "cy", "0.10"),
        E("post", "dee", "0.10"), E("dead", "dee", "0.05"),
        E("fold", "dee"), E("fold", "ann"), E("fold", "bob"),
        E("collect", "cy", "0.34")], seats, button=1)
    hh = build(h, "f.txt")
    assert hh.players == ["bob", "cy", "dee", "ann"]
    assert hh.fields["antes"] == [D("0.01"), D("0.01"), D("0.06"), D("0.01")]
    assert hh.fields["blinds_or_straddles"] == [D("0.05"), D("0.1"), D("-0.1"), 0]
    d = replay(hh).to_dict()
    assert d["error"] is None
    assert d["winnings"] == [0, 0.34, 0, 0]


def test_stud_is_chip_accounting_only():
    seats = [(1, "ann", "10"), (2, "bob", "10")]
    st = Stakes(small_bet=D("0.10"), big_bet=D("0.20"), ante=D("0.02"), bring_in=D("0.05"))
    h = _hand([E("ante", "ann", "0.02"), E("ante", "bob", "0.02"),
               E("hole", "ann", cards=("??", "??", "Kc")),
               E("hole", "bob", cards=("??", "??", "2c")),
               E("bring_in", "bob", "0.05"), E("complete", "ann", "0.10"), E("fold", "bob"),
               E("uncalled", "ann", "0.05"), E("collect", "ann", "0.14")],
              seats, button=None, game="stud", betting="fixed-limit", stakes=st)
    hh = build(h, "f.txt")
    assert hh.variant == "F7S" and hh.fields["bring_in"] == D("0.05")
    d = replay(hh).to_dict()
    assert d["error"] is None and d["validated"] is False and d["winnings"] == [0.14, 0]


def test_a_game_without_a_variant_code_is_the_hands_error():
    h = three_handed()
    h.info.game = "5_card_draw"
    with pytest.raises(SiteError, match="no variant code"):
        build(h, "f.txt")


def test_betting_our_rules_refuse_leaves_a_site_hand_not_validated_a_phh_hand_in_error():
    """A site's record is what happened at its table: a raise short of the minimum by a
    player with chips behind (which a site may take and our engine refuses) leaves the
    hand on its chip accounting, not validated, with the reason; the same hand as PHH is
    that hand's error. (A fold with nothing to call is no longer such a case: it is a
    binding fold, TDA "Non-Standard Folds", and is replayed.)"""
    seats = [(1, "ann", "5"), (2, "bob", "5")]
    h = _hand([E("small_blind", "bob", "0.05"), E("big_blind", "ann", "0.10"),
               E("raise", "bob", "0.15"), E("fold", "ann"), E("uncalled", "bob", "0.05"),
               E("collect", "bob", "0.20")], seats, button=2)
    hh = build(h, "f.txt")
    d = replay(hh).to_dict()
    assert d["error"] is None and d["validated"] is False
    assert "rules engine refuses" in d["not_validated"] and "raise" in d["not_validated"]
    assert d["winnings"] == [0, 0.2] and d["net"] == [-0.1, 0.1]
    hh.site = None
    assert "raise" in replay(hh).to_dict()["error"]
