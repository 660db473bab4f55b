"""simulate.replay.accounting on its own: the variant tables, the hand's decimal units, the
chip accounting of the actions (posting, calls and bets capped at the stack, streets, folds,
mucks, discards, the all-in moment), the pots (checked against the one-chip-at-a-time
reference of ``tests/reference.py``), rake, the button, the big blind and the showdown
strength per variant. ``test_replay`` and ``test_phh_engine`` play whole hands."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import best_tuple, omaha_tuple, ref_pots

from evaluator.cards import parse_cards
from evaluator.hands import strength_of_ids
from evaluator.low import low_of_five
from simulate.games import GAMES
from simulate.notation.phh_read import HandHistory, parse_hand
from simulate.pots import MAX_CHIPS, Pot, PotStructure
from simulate.replay import accounting as A


def hand(actions: list[str], **fields: Any) -> HandHistory:
    """A PHH hand: three seats of 100, blinds 1/2, no antes, unless ``fields`` say else."""
    f: dict[str, Any] = {"variant": "NT", "starting_stacks": [100, 100, 100],
                         "blinds_or_straddles": [1, 2, 0], "actions": actions}
    f.update(fields)
    return parse_hand(f)


def play(h: HandHistory) -> A.ChipState:
    return A.play_hand(h, A.Units(A.scale_of(h)))


# ------------------------------------------------- a blind posted short (Robert's Rules)
def test_a_call_after_a_short_big_blind_is_the_full_blind():
    """PHH's blind is the full amount, posted as far as the stack goes; the players who
    call still call the full big blind (the engine's rule, tests/test_engine_rules.py), but
    a seat alone with chips calls no more than was bet."""
    st = play(hand(["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cc", "p1 cc"],
                   starting_stacks=[100, 1, 100]))
    assert st.total == [2, 1, 2]  # the small blind completes to the full 2, not to 1
    st = play(hand(["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 f"],
                   starting_stacks=[100, 1, 100]))
    assert st.total == [1, 1, 0]  # folded to the small blind: its 1 already covers


# ----------------------------------------------------------------------------- tables
def test_the_variant_tables_come_from_the_games():
    for code, (name, betting) in A.ENGINE_VARIANTS.items():
        assert GAMES[name].phh[betting] == code
    assert {c for g in GAMES.values() for c in g.phh.values()} == set(A.ENGINE_VARIANTS)
    assert set(A.PINEAPPLE_VARIANTS) == {"NP", "PP", "FP", "NCP", "PCP", "FCP"}
    assert all(GAMES[name].is_pineapple for name, _ in A.PINEAPPLE_VARIANTS.values())
    assert A.HILO_VARIANTS == {"NO/8", "FO/8", "PO/8", "NO5/8", "FO5/8", "PO5/8"}
    assert {"NO5", "PO5", "FO5", "PO6"} <= A.OMAHA_VARIANTS
    assert A.SHORT_DECK_VARIANTS == {"NS": "short_deck", "NST": "short_deck_triton"}
    assert A.HOLDEM_VARIANTS | A.OMAHA_VARIANTS <= set(A.ENGINE_VARIANTS)
    every = (set(A.ENGINE_VARIANTS) | A.HILO_VARIANTS | A.STUD_HIGH_VARIANTS
             | set(A.SHORT_DECK_VARIANTS))
    assert every <= set(A.VARIANT_NAMES)  # every code has a name for its messages
    assert A.UNKNOWN_STACK == A.MAX_UNITS == MAX_CHIPS
    assert issubclass(A.ReplayError, ValueError)


# ----------------------------------------------------------------------------- units
@pytest.mark.parametrize("stacks,blinds,scale", [
    ([100, 100, 100], [1, 2, 0], 1),
    (["100.0", "100", "100"], [1, 2, 0], 1),          # a zero decimal place is an integer
    (["1720.35", "100", "inf"], [1, 2, 0], 100),
    (["99.5", "100", "100"], ["0.25", "0.5", 0], 100),
    (["2.50", "100", "100"], [1, 2, 0], 10),          # trailing zeros do not count
    (["0.000001", "100", "100"], [1, 2, 0], 10**6),
])
def test_the_scale_is_the_smallest_power_of_ten_making_every_amount_whole(stacks, blinds,
                                                                          scale):
    h = hand([], starting_stacks=[Decimal(str(v)) for v in stacks],
             blinds_or_straddles=[Decimal(str(v)) for v in blinds])
    assert A.scale_of(h) == scale


def test_the_scale_counts_bets_rake_and_bring_in():
    assert A.scale_of(hand(["p3 cbr 10.5"])) == 10
    assert A.scale_of(hand([], rake=Decimal("0.05"))) == 100
    assert A.scale_of(hand([], bring_in=Decimal("0.125"))) == 1000
    with pytest.raises(A.ReplayError, match="^amounts with more than 6 decimal places are not "
                                           "supported$"):
        A.scale_of(hand(["p3 cbr 10.0000001"]))


def test_units_convert_both_ways():
    u = A.Units(100)
    assert u.to_int(Decimal("1720.35")) == 172035 and u.out(172035) == 1720.35
    assert u.to_int(Decimal("Infinity")) == A.UNKNOWN_STACK
    with pytest.raises(A.ReplayError, match=r"^amount 0\.005 has too many decimal places$"):
        u.to_int(Decimal("0.005"))
    with pytest.raises(A.ReplayError, match="is too large"):
        u.to_int(Decimal(MAX_CHIPS))  # 100 times the largest amount in units
    one = A.Units(1)
    assert one.to_int(Decimal(MAX_CHIPS)) == MAX_CHIPS
    assert one.out(7) == 7 and type(one.out(7)) is int
    assert one.out(7.0) == 7 and type(one.out(7.0)) is int  # whole: an int in the document
    assert one.out(2.5) == 2.5  # an expected payout may be a fraction of a unit


@given(st.integers(0, 10**12), st.integers(0, 6))
def test_an_amount_read_into_units_comes_back_the_same(whole, places):
    v = Decimal(whole).scaleb(-places)
    h = hand([], starting_stacks=[v + 1, Decimal(100), Decimal(100)])
    u = A.Units(A.scale_of(h))
    assert u.scale <= 10**places
    n = u.to_int(v)
    assert type(n) is int and Decimal(n) / u.scale == v
    assert Decimal(str(u.out(n))) == v


# ----------------------------------------------------------------------------- posting
def test_heads_up_the_first_seat_posts_the_second_entries():
    st_ = play(hand([], starting_stacks=[50, 50], blinds_or_straddles=[1, 2],
                    antes=[3, 4]))
    assert st_.ante == [4, 3] and st_.total == [2, 1]  # street ended into total
    assert st_.stack == [50 - 4 - 2, 50 - 3 - 1]


def test_antes_come_first_then_blinds_each_capped_at_the_stack():
    st_ = play(hand([], starting_stacks=[3, 1, 100], antes=[2, 2, 2]))
    assert st_.ante == [2, 1, 2] and st_.total == [1, 0, 0] and st_.stack == [0, 0, 98]


def test_a_negative_blind_is_a_post_of_that_amount():
    st_ = play(hand(["p1 f", "p2 f"], blinds_or_straddles=[1, 2, -2]))
    assert st_.total == [1, 2, 2] and st_.folded == [True, True, False]


# ----------------------------------------------------------------------------- actions
def test_calls_and_bets_go_in_by_street_and_are_capped_at_the_stack():
    st_ = play(hand(["p3 cbr 10", "p1 cc", "p2 cbr 30", "p3 cc", "p1 cc", "d db 2c3c4c",
                     "p1 cbr 500", "p2 cc", "p3 f"], starting_stacks=[100, 60, 100]))
    # preflop 30 each; on the flop p1 bets all 70 it has left, p2 calls all-in for 30
    assert st_.total == [100, 60, 30] and st_.stack == [0, 0, 70]
    assert st_.street == [0, 0, 0] and st_.folded == [False, False, True]
    assert st_.board == parse_cards("2c3c4c")


def test_a_call_matches_the_largest_street_total_or_goes_all_in_for_less():
    st_ = play(hand(["p3 cbr 50", "p1 cc", "p2 cc"], starting_stacks=[20, 100, 100]))
    assert st_.total == [20, 50, 50] and st_.stack == [0, 50, 50]


def test_the_bring_in_is_posted_to_its_amount():
    st_ = play(hand(["p3 pb", "p1 cc", "p2 f"], variant="F7S", blinds_or_straddles=[0, 0, 0],
                    antes=[1, 1, 1], bring_in=3))
    assert st_.total == [3, 0, 3] and st_.ante == [1, 1, 1]


@pytest.mark.parametrize("actions,fields,message", [
    (["p2 cbr 1"], {}, "'p2 cbr 1': below the 2 already bet"),
    (["p3 f", "p3 cc"], {}, "'p3 cc': p3 has already folded"),
    (["p3 pb"], {}, "'p3 pb': the hand has no bring_in"),
    (["p3 cc", "p1 cc", "p2 cc", "d db ??2c3c"], {}, "board card unknown in 'd db ??2c3c'"),
])
def test_actions_the_accounting_refuses(actions, fields, message):
    with pytest.raises(A.ReplayError) as e:
        play(hand(actions, **fields))
    assert str(e.value) == message


def test_discards_take_the_named_card_else_an_unknown_one_else_the_first():
    assert play(hand(["d dh p1 AcAdKc", "p1 sd Kc"], variant="NP")).holes[0] == \
        parse_cards("AcAd")
    assert play(hand(["d dh p1 ??????", "p1 sd Kc"], variant="NP")).holes[0] == [None, None]
    assert play(hand(["d dh p1 AcAdKc", "p1 sd 2h"], variant="NP")).holes[0] == \
        parse_cards("AdKc")


def test_shows_and_mucks():
    st_ = play(hand(["d dh p1 AcAd", "p1 sm"]))
    assert st_.mucked == [True, False, False] and st_.holes[0] == parse_cards("AcAd")
    st_ = play(hand(["d dh p1 ????", "p1 sm", "p1 sm AcKd"]))
    assert st_.mucked[0] is False and st_.holes[0] == parse_cards("AcKd")  # shown after all
    assert play(hand(["d dh p1 AcAd", "p1 sm ????"])).holes[0] == parse_cards("AcAd")
    assert play(hand(["d dh p1 ????", "p1 sm Ac"])).holes[0] == [parse_cards("Ac")[0], None]
    assert play(hand(["d dh p1 Ac??", "p1 sm AcKd"])).holes[0] == parse_cards("AcKd")


@pytest.mark.parametrize("actions,variant,board", [
    (["p3 cbr 100", "p1 cc", "p2 f"], "NT", ""),                   # all in preflop
    (["p3 cc", "p1 cc", "p2 cc", "d db 2c3c4c", "p1 cbr 98", "p2 f", "p3 cc"], "NT", "2c3c4c"),
    (["p3 cbr 100", "p1 cc", "p2 cc"], "NO", ""),                  # three all in, Omaha
    (["p3 cbr 100", "p1 cc", "p2 f", "d db 2c3c4c"], "NT", ""),    # the moment, not later
    (["p3 cbr 50", "p1 cc", "p2 f"], "NT", None),                  # chips behind: no all-in
    (["p3 cbr 100", "p1 cbr 100"], "NT", None),                   # p2 still to act
    (["p3 cbr 100", "p1 cc", "p2 f"], "NP", None),                 # pineapple: no all-in EV
])
def test_the_all_in_board_is_the_board_when_at_most_one_seat_has_chips_behind(actions,
                                                                            variant, board):
    got = play(hand(actions, variant=variant)).allin_board
    assert got == (None if board is None else parse_cards(board))


# ----------------------------------------------------------------------------- a ledger
def ref_commitments(starting: list[int], blinds: list[int], actions: list[tuple]) -> list[int]:
    """Chips each seat put in, by the rules of the replay's docstring, one street at a
    time: blinds capped at the stack; ``cc`` matches the street's largest total, and until
    the first board card at least the full big blind however short it was posted (Robert's
    Rules), but no more than another seat's largest total when every other seat has folded
    or has no chips left; or it puts in all that is left; ``cbr X`` brings the seat's street
    total to X, or all in; a board deal ends the street once someone has acted (deals before
    any action are the hand's start, and the blinds stay the street to match)."""
    n = len(starting)
    left = list(starting)
    street = [0] * n
    put = [0] * n
    folded: set[int] = set()
    forced = max(blinds)
    acted = False

    def pay(s: int, chips: int) -> None:
        chips = max(0, min(chips, left[s]))
        left[s] -= chips
        street[s] += chips
        put[s] += chips

    for s, b in enumerate(blinds):
        pay(s, b)
    for act in actions:
        if act[0] == "db":
            if acted:
                street = [0] * n
            forced = 0
            continue
        acted = True
        s = act[0]
        if act[1] == "f":
            folded.add(s)
        elif act[1] == "cc":
            level = max(max(street), forced)
            if all(o in folded or left[o] == 0 for o in range(n) if o != s):
                level = min(level, max(street[o] for o in range(n) if o != s))
            pay(s, level - street[s])
        elif act[1] == "cbr":
            pay(s, act[2] - street[s])
    return put


@st.composite
def action_lists(draw):
    """Random (not necessarily legal) no-limit action lists: folds, calls, bets to some
    total at or above the seat's street total, and board cards, never by a folded seat."""
    n = draw(st.integers(2, 5))
    starting = draw(st.lists(st.integers(1, 300), min_size=n, max_size=n))
    blinds = [1, 2] + [0] * (n - 2)
    folded: set[int] = set()
    street = [0] * n  # street totals as written (the bets' minimum, not the chips paid)
    for s, b in enumerate(blinds if n > 2 else blinds[::-1]):
        street[s] = b
    acts: list[tuple] = []
    cards = iter(range(52))
    for _ in range(draw(st.integers(0, 25))):
        live = [s for s in range(n) if s not in folded]
        kind = draw(st.sampled_from(["cc", "cc", "cbr", "f", "db"]))
        if kind == "db":
            acts.append(("db", [next(cards)]))
            if any(a[0] != "db" for a in acts):
                street = [0] * n
            continue
        s = draw(st.sampled_from(live))
        if kind == "f":
            if len(live) == 1:
                continue
            folded.add(s)
            acts.append((s, "f"))
        elif kind == "cc":
            acts.append((s, "cc"))
            street[s] = max(street)
        else:
            total = street[s] + draw(st.integers(0, 200))
            street[s] = total
            acts.append((s, "cbr", total))
    return starting, acts


def action_text(act: tuple) -> str:
    if act[0] == "db":
        return "d db " + "".join(f"{'23456789TJQKA'[c >> 2]}{'cdhs'[c & 3]}" for c in act[1])
    return f"p{act[0] + 1} " + " ".join(str(x) for x in act[1:])


@given(action_lists())
def test_the_chips_each_seat_put_in_follow_the_ledger(case):
    starting, acts = case
    n = len(starting)
    h = hand([action_text(a) for a in acts], starting_stacks=starting,
             blinds_or_straddles=[1, 2] + [0] * (n - 2))
    st_ = play(h)  # every bet is at or above the street total as written: none refused
    posted = [1, 2] + [0] * (n - 2)
    if n == 2:
        posted = posted[::-1]
    assert st_.total == ref_commitments(starting, posted, acts)
    assert [st_.stack[s] + st_.total[s] for s in range(n)] == starting  # no chip lost
    assert min(st_.stack) >= 0 and st_.street == [0] * n
    assert st_.folded == [any(a[0] == s and a[1] == "f" for a in acts if a[0] != "db")
                          for s in range(n)]
    assert st_.board == [c for a in acts if a[0] == "db" for c in a[1]]


# ----------------------------------------------------------------------------- pots
def state(total: list[int], ante: list[int]) -> A.ChipState:
    n = len(total)
    return A.ChipState(n=n, stack=[0] * n, ante=list(ante), street=[0] * n, total=list(total),
                    folded=[False] * n, mucked=[False] * n, holes=[[] for _ in range(n)],
                    board=[])


def ref_structure(total: list[int], ante: list[int], live: list[bool], trim: bool):
    """Pots by :func:`reference.ref_pots` of the contributions (antes in them when trimmed);
    antes that are not are dead money in the main pot, or a pot of their own placed first
    when some live seat is not in the main pot or there is none."""
    contrib = [t + (a if trim else 0) for t, a in zip(total, ante, strict=True)]
    pots, returned = ref_pots(contrib, live)
    dead = 0 if trim else sum(ante)
    everyone = tuple(s for s in range(len(live)) if live[s])
    if dead:
        if pots and tuple(pots[0][1]) == everyone:
            pots[0] = (pots[0][0] + dead, everyone)
        else:
            pots.insert(0, (dead, everyone))
    return pots, returned


@given(st.integers(2, 6).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 40), min_size=n, max_size=n),
    st.lists(st.integers(0, 3), min_size=n, max_size=n),
    st.lists(st.booleans(), min_size=n, max_size=n), st.booleans())))
def test_pots_equal_the_one_chip_at_a_time_reference(case):
    total, ante, live, trim = case
    st_ = state(total, ante)
    if not any(live):
        with pytest.raises(A.ReplayError, match="^every seat folded or mucked: nobody can win "
                                               "the pot$"):
            A.pot_structure(st_, live, trim)
        return
    try:
        pots, returned = ref_structure(total, ante, live, trim)
    except AssertionError:  # chips two seats put in that no live seat can be eligible for
        with pytest.raises(A.ReplayError, match="^cannot build the pots: "):
            A.pot_structure(st_, live, trim)
        return
    # what one seat put in beyond every other seat goes back to it, live or not (an all-in
    # for more than the caller, mucked at the showdown)
    got = A.pot_structure(st_, live, trim)
    assert [(p.amount, tuple(p.eligible)) for p in got.pots] == pots
    assert list(got.returned) == returned
    assert got.committed == tuple(t + a for t, a in zip(total, ante, strict=True))
    assert got.live == tuple(live)
    assert sum(p.amount for p in got.pots) + sum(got.returned) == sum(total) + sum(ante)


@pytest.mark.parametrize("antes,status,trimmed", [
    ([5, 5, 5], True, True),
    ([5, 5, 5], False, False),
    ([0, 5, 0], True, False),       # a big-blind ante is never trimmed
    ([5, 5, 0], True, False),
    ([5, 4, 5], True, False),
    ([0, 0, 0], True, False),
])
def test_antes_are_trimmed_only_when_uniform_and_the_hand_says_so(antes, status, trimmed):
    assert A.antes_trimmed(hand([], antes=antes, ante_trimming_status=status)) is trimmed


def test_rake_comes_out_of_the_main_pot_first():
    base = PotStructure(pots=[Pot(30, (0, 1, 2)), Pot(20, (1, 2))], returned=[0, 0, 5],
                        committed=(10, 20, 25), live=(True, True, True))
    assert A.take_rake(base, 0) is base
    assert [p.amount for p in A.take_rake(base, 7).pots] == [23, 20]
    raked = A.take_rake(base, 35)
    assert [(p.amount, p.eligible) for p in raked.pots] == [(0, (0, 1, 2)), (15, (1, 2))]
    assert raked.returned == [0, 0, 5] and raked.committed == base.committed
    assert A.take_rake(base, 50).pots[1].amount == 0
    with pytest.raises(A.ReplayError, match="^rake is larger than the pots$"):
        A.take_rake(base, 51)


# ----------------------------------------------------------------------------- seats
@pytest.mark.parametrize("variant,blinds,button", [
    ("NT", [1, 2, 4, 0], 3),      # a straddle: still the seat before the small blind
    ("NT", [0, 0, 0, 3], 3),      # one blind on the last seat: a button blind (pokerkit too)
    ("NT", [0, 0, 3, 0], 1),      # one blind elsewhere: the seat before it
    ("NS", [0, 0, 0, 3], 3),      # short deck: the last seat's blind is the button blind
    ("NS", [1, 2, 0, 0], 3),
    ("NT", [2, 1], 0),            # heads-up, blinds written big first: seat 1 posts 2
])
def test_the_button(variant, blinds, button):
    n = len(blinds)
    h = hand([], variant=variant, starting_stacks=[100] * n, blinds_or_straddles=blinds)
    assert A.button_seat(h) == button


_BUTTON_BLIND_HAND = """variant = "NT"
antes = [0, 0, 0, 0]
blinds_or_straddles = [0, 0, 0, 2]
min_bet = 2
starting_stacks = [400, 400, 400, 400]
actions = ["d dh p1 Qc5d", "d dh p2 5h4s", "d dh p3 7hQd", "d dh p4 Qh9h", "p1 cbr 4",
           "p2 cbr 400", "p3 cc", "p4 cc", "p1 cc", "p1 sm Qc5d", "p2 sm 5h4s", "p3 sm 7hQd",
           "p4 sm Qh9h", "d db TcJcAc", "d db Js", "d db 2d"]
"""


def test_a_hold_em_button_blind_pays_the_odd_chip_left_of_the_button():
    """A Hold'em hand ``play --button-blind`` wrote (the last seat alone posts): the three-way
    split's odd chip goes to the first seat left of the button, the one that posted, as
    ``play`` paid it and pokerkit replays it (it went to the poster)."""
    from simulate.notation.phh_read import parse_text
    from simulate.replay.hand_replay import replay

    ((_, hand),) = parse_text(_BUTTON_BLIND_HAND, "bb.phh")
    d = replay(hand).to_dict()
    assert d["error"] is None and d["finishing_stacks"] == [534, 0, 533, 533]
    pokerkit = pytest.importorskip("pokerkit")
    *_, state = pokerkit.HandHistory.loads(_BUTTON_BLIND_HAND)  # (the hand's last state)
    assert list(state.stacks) == [534, 0, 533, 533]


@pytest.mark.parametrize("fields,big_blind", [
    ({"blinds_or_straddles": [1, 2, 0]}, 2),
    ({"blinds_or_straddles": [Decimal("0.25"), Decimal("0.5"), 0]}, 0.5),
    ({"blinds_or_straddles": [0, 3, 0]}, 3),                 # the only blind
    ({"blinds_or_straddles": [1, 2, 4]}, 2),                 # a straddle is not the big blind
    ({"blinds_or_straddles": [0, 0, 0], "small_bet": 10, "big_bet": 20}, 10),
    ({"blinds_or_straddles": [0, 0, 0], "bring_in": 3}, 3),
    ({"blinds_or_straddles": [0, 0, 0]}, None),
])
def test_the_big_blind_in_the_files_units(fields, big_blind):
    h = hand([], **fields)
    got = A.big_blind_of(h, A.Units(A.scale_of(h)))
    assert got == big_blind and type(got) is type(big_blind)


# ----------------------------------------------------------------------------- showdown
def test_strength_per_variant_is_the_games_scorer():
    board = parse_cards("Kh8h2c5d9s")
    for variant in ("NT", "FT", "NP"):
        assert A.showdown_strength(variant, parse_cards("AhQh"), board, "p1") == \
            strength_of_ids(parse_cards("AhQh") + board)
    hole = parse_cards("AhQhJd3c")
    omaha = {A.showdown_strength(v, hole, board, "p1") for v in ("NO", "PO", "FO/8")}
    assert len(omaha) == 1
    stud = parse_cards("AhAdKsKc2h3d9s")
    assert A.showdown_strength("F7S", stud, [], "p1") == strength_of_ids(stud)
    # the order of two hands is the rules' order
    a, b = parse_cards("AhQh"), parse_cards("9c9d")
    want = (best_tuple(a + board) > best_tuple(b + board)) - \
        (best_tuple(a + board) < best_tuple(b + board))
    got = A.showdown_strength("NT", a, board, "") - A.showdown_strength("NT", b, board, "")
    assert (got > 0) - (got < 0) == want
    c = parse_cards("KsKd4c6c")
    stronger = A.showdown_strength("NO", hole, board, "") > A.showdown_strength("NO", c, board, "")
    assert stronger == (omaha_tuple(hole, board) > omaha_tuple(c, board))


def test_short_deck_strengths_use_the_games_scale():
    board = parse_cards("Ah6h7c8d9s")
    hole = parse_cards("TsTd")
    assert A.showdown_strength("NS", hole, board, "") == strength_of_ids(hole + board, "short_deck")
    assert A.showdown_strength("NST", hole, board, "") == \
        strength_of_ids(hole + board, "short_deck_triton")


@pytest.mark.parametrize("variant,hole,board,message", [
    ("NT", "Ah??", "Kh8h2c5d9s", "p1's hole cards are unknown at the showdown"),
    ("NT", "", "Kh8h2c5d9s", "p1's hole cards are unknown at the showdown"),
    ("NT", "AhQh", "Kh8h2c5d", "showdown needs 2 hole cards and 5 board cards (p1)"),
    ("NT", "AhQhJh", "Kh8h2c5d9s", "showdown needs 2 hole cards and 5 board cards (p1)"),
    ("NS", "AhQh", "Kh8h2c5d9s", "2c at p1's showdown is not in the short deck"),
    ("NO", "AhQhJd2c", "Kh8h2c5d", "showdown needs 5 board cards (p1)"),
    ("F7S", "AhAdKsKc2h3d", "", "stud showdown needs 7 cards, p1 has 6"),
    ("FR", "AhAdKsKc2h3d", "", "variant FR (razz) showdown needs 7 cards, p1 has 6"),
    ("FB", "AhAdKs", "", "variant FB (badugi) showdown needs 4 cards, p1 has 3"),
    ("XX", "AhQh", "Kh8h2c5d9s", "variant XX is not supported at a contested showdown"),
])
def test_strength_refuses(variant, hole, board, message):
    cards = [None if t == "??" else parse_cards(t)[0]
             for t in (hole[i:i + 2] for i in range(0, len(hole), 2))]
    with pytest.raises(A.ReplayError) as e:
        A.showdown_strength(variant, cards, parse_cards(board), "p1")
    assert str(e.value) == message


def test_low_is_eight_or_better_or_zero():
    from evaluator.low import evaluate_low

    board = parse_cards("3c4d8hKsQs")
    assert A.showdown_low("PO/8", parse_cards("Ah2sKhKd"), board) == \
        evaluate_low(parse_cards("Ah2sKhKd"), board) > 0
    assert A.showdown_low("PO/8", parse_cards("QdJdTc9c"), board) == 0
    # stud: any five of the seven (here 8-7-5-3-2: no two of Omaha's rule needed)
    seven = parse_cards("3h2d8s5s7sQh9h")
    assert A.showdown_low("F7S/8", seven, []) == low_of_five(parse_cards("3h2d8s5s7s")) > 0
    assert A.showdown_low("F7S/8", parse_cards("5dTdTcTsAs9d4h"), []) == 0  # A-4-5 only
    assert A.has_lows("F7S/8") and A.has_lows("FO/8") and not A.has_lows("F7S")


def test_stud_hilo_showdown_splits_high_and_low():
    """A seven card stud hi/lo hand (chip accounting): the set of tens takes the high half
    and the 8-7-5-3-2 the low half of each pot, as the site paid it (ACR's sample)."""
    from site_samples import SITES

    from simulate.replay.hand_files import analyze

    (doc,) = list(analyze(SITES / "hand-history-parser/extracted/acr/HAND_7CARD_STUD_HILO.txt"))
    assert not doc.get("error"), doc.get("error")
    assert doc["validated"] is False
    won = dict(zip(doc["players"], doc["winnings"], strict=True))
    assert won["AzRic"] == won["KickShorty"] == 4.48
    assert sum(v for k, v in won.items() if k not in ("AzRic", "KickShorty")) == 0


@pytest.mark.parametrize("variant,at_least", [("F7S/8", 7), ("FR", 10), ("F2L3D", 8),
                                              ("N2L1D", 7), ("FB", 1)])
def test_chip_accounting_phh_hands_end_with_the_recorded_stacks(variant, at_least):
    """Every stud hi/lo, razz, deuce-to-seven draw and badugi hand of the vendored PHH
    sample (the WSOP hands' finishing stacks recorded by their authors), contested
    showdowns included, replays and ends with the recorded stacks."""
    from pathlib import Path

    from simulate.replay.hand_files import analyze

    pattern = re.compile(rf"""^variant = ['"]{re.escape(variant)}['"]""", re.M)
    files = sorted(p for p in (Path(__file__).parent / "data" / "phh").rglob("*.phh")
                   if pattern.search(p.read_text(encoding="utf-8")))
    assert len(files) >= at_least
    compared = 0
    for doc in analyze(files):
        assert not doc.get("error"), doc.get("error")
        if doc.get("recorded_finishing_stacks") is not None:
            assert doc["recorded_finishing_stacks"] == doc["finishing_stacks"]
            compared += 1
    assert compared >= at_least - 1
