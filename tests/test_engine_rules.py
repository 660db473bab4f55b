"""The engine's rules, one test per rule, each quoting the text it checks.

Rule texts: the project's rule sources (tests quote them as "rules:") and the poker
Tournament Directors Association's rule 47 examples named in the issue ("TDA 47").
Where pokerkit (the differential peer, tests/test_engine_pokerkit.py) plays a spot
differently, the test here asserts the cardroom rule the engine follows, and says so.

Seats are numbered clockwise; blinds are (1, 2) unless a test says otherwise.
"""

from __future__ import annotations

import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from simulate.engine import Hand, IllegalAction, Rules

NL = Rules()
ROYAL = "AsKsQsJsTs"  # a board everybody plays: every showdown is a split


def scripted(n: int, board: str) -> list[str]:
    """Hole cards for ``n`` seats that do not touch ``board``."""
    used = {board[i:i + 2] for i in range(0, len(board), 2)}
    cards = [r + s for r in "3456789TJQKA2" for s in "cdhs" if r + s not in used]
    return ["".join(cards[2 * i:2 * i + 2]) for i in range(n)]


def hand(stacks, rules=NL, button=0, board="2c7d9hJsKd", hole=None) -> Hand:
    return Hand(rules, list(stacks), button=button,
                hole=hole or scripted(len(stacks), board), board=board)


def play(h: Hand, script: str) -> None:
    """``"s3 cbr 6, s4 cc, s5 f"``: each action checked against the expected actor."""
    for item in script.split(","):
        seat, act = item.split(None, 1)
        assert h.actor == int(seat[1:]), (item, h.actor)
        h.act(act)


def snapshot(h: Hand) -> tuple:
    return (h.actor, h.street, h.legal, h.stacks, h.bets, h.committed, list(h.actions),
            h.board, [(p.amount, p.eligible) for p in h.pots])


# --------------------------------------------------------------------------- order of play
def test_heads_up_order():
    """rules: "Heads-up: ... The button posts the small blind and acts first before the
    flop, then acts last on the flop, the turn and the river. The other player posts the
    big blind ... If the button calls the extra $1 the pot is $4, and the big blind can
    check or raise. The smallest raise makes it $4 to go." """
    h = hand([100, 100], button=1)
    assert h.bets == [2, 1]  # seat 1 is the button: small blind
    assert h.actor == 1
    h.call()
    assert h.actor == 0 and h.legal.check and h.legal.min_raise_to == 4
    assert sum(p.amount for p in h.pots) == 4
    h.check()
    assert h.street == "flop" and h.actor == 0  # the big blind first, the button last
    h.check()
    assert h.actor == 1
    h.check()
    assert h.street == "turn" and h.actor == 0


def test_first_actor_each_street():
    """rules: "Betting starts with the player clockwise from the big blind." ... "The
    flop ... A new betting round runs, starting with the first player still in the hand
    clockwise from the button." """
    h = hand([100] * 6, button=2)  # SB 3, BB 4
    assert h.bets == [0, 0, 0, 1, 2, 0]
    play(h, "s5 cc, s0 cc, s1 cc, s2 cc, s3 f, s4 cc")
    assert h.street == "flop" and h.actor == 4  # seat 3 (left of the button) folded
    play(h, "s4 cc, s5 cc, s0 cc, s1 cc, s2 cc")
    assert h.street == "turn" and h.actor == 4


def test_big_blind_option():
    """rules: "The big blind has the option to raise an otherwise unraised pot." """
    h = hand([100] * 3)
    play(h, "s0 cc, s1 cc")
    assert h.actor == 2 and h.legal.check and not h.legal.fold and h.legal.min_raise_to == 4


# --------------------------------------------------------------------------- no-limit sizes
def test_minimum_bet_and_raise():
    """rules: "Minimum bet: the size of the big blind ... If the player before you bet $10,
    your raise has to make the new total at least $20. If someone then re-raises to $50 (a
    $30 raise on top of your $20), the next raise has to add at least another $30, making
    the new total at least $80." """
    h = hand([500] * 3)
    play(h, "s0 cc, s1 cc, s2 cc")
    assert h.street == "flop" and h.legal.min_raise_to == 2 and h.legal.max_raise_to == 498
    h.raise_to(10)
    assert h.legal.min_raise_to == 20
    h.raise_to(20)
    assert h.legal.min_raise_to == 30
    h.raise_to(50)
    assert h.actor == 1 and h.legal.min_raise_to == 80 and h.legal.call == 40


def test_short_all_in_does_not_reopen():
    """rules: "Say the blinds are $1/$2, A raises to $6, B calls the $6, C moves all-in for
    $8 and everyone else folds. A now faces $2 more and can call or fold. ... Had C made it
    $10 instead, A would be facing a full $4 increase and could raise again." """
    for c_stack, may_raise in ((8, False), (10, True)):
        h = hand([100, 100, 100, 100, 100, c_stack], button=0)  # A = 3, B = 4, C = 5
        play(h, f"s3 cbr 6, s4 cc, s5 cbr {c_stack}, s0 f, s1 f, s2 f")
        assert h.actor == 3 and h.legal.call == c_stack - 6 and h.legal.fold
        if may_raise:
            assert h.legal.min_raise_to == 14
        else:
            assert h.legal.min_raise_to is None
            with pytest.raises(IllegalAction, match="not reopened"):
                h.raise_to(20)


def _tda_flop(d_stack: int) -> Hand:
    """Five seats A..E = 0..4 (button E); everyone limps; on the flop A acts first."""
    h = hand([1000, 127, 1000, d_stack + 2, 1000], button=4)
    play(h, "s2 cc, s3 cc, s4 cc, s0 cc, s1 cc")
    assert h.street == "flop" and h.actor == 0
    return h


def test_tda_47_example_1_short_all_ins_add_up_to_a_full_raise():
    """TDA Rule 47, Example 1 (as the issue states it: "A bets 100, B all-in 125, C calls,
    D all-in 200, E calls — A may raise"): B's 25 and D's 75 add up to a full raise of
    100, so A, facing it, may re-raise; C, who called after B and faces only D's 75, may
    not."""
    h = _tda_flop(200)
    play(h, "s0 cbr 100, s1 cbr 125, s2 cc, s3 cbr 200, s4 cc")
    assert h.actor == 0 and h.legal.call == 100 and h.legal.min_raise_to == 300
    h.call()
    assert h.actor == 2 and h.legal.call == 75 and h.legal.min_raise_to is None


def test_short_all_ins_short_of_a_full_raise_do_not_reopen():
    """TDA 47 (the other side of Example 1): all-ins that add up to less than a full raise
    do not reopen the betting for a player who already acted."""
    h = _tda_flop(175)
    play(h, "s0 cbr 100, s1 cbr 125, s2 cc, s3 cbr 175, s4 cc")
    assert h.actor == 0 and h.legal.call == 75 and h.legal.min_raise_to is None


def test_minimum_raise_after_a_short_all_in():
    """The issue's "100-bet / 140-all-in / raise-to-240 example": A bets 100, B is all in
    for 140, C's minimum raise is to 240, the last full bet (100) added to the all-in
    (rules: "the amount you raise by must be at least the last full bet or raise on that
    street")."""
    h = hand([1000, 142, 1000], button=2)  # A = seat 0, B = seat 1 (140 behind), C = seat 2
    play(h, "s2 cc, s0 cc, s1 cc")
    play(h, "s0 cbr 100, s1 cbr 140")
    assert h.actor == 2 and h.legal.call == 140 and h.legal.min_raise_to == 240
    with pytest.raises(IllegalAction, match="minimum is 240"):
        h.raise_to(239)


def test_a_check_is_not_acting_on_a_bet():
    """rules: "A check passes the turn without a bet ... players who already checked can
    fold, call or raise when the action returns": an all-in opening bet smaller than the
    big blind is still the first bet a checker faces, so the checker may raise; a player
    who called that bet may not raise again unless a full raise follows."""
    h = hand([100, 100, 3], button=0)  # seat 2 (BB) has 1 chip behind after the blind
    play(h, "s0 cc, s1 cc, s2 cc")
    play(h, "s1 cc, s2 cbr 1")
    assert h.actor == 0 and h.legal.min_raise_to == 3  # the button has not acted
    h.call()
    assert h.actor == 1 and h.legal.call == 1 and h.legal.min_raise_to == 3
    h.raise_to(3)
    assert h.actor == 0 and h.legal.call == 2 and h.legal.min_raise_to == 5  # a full raise


def test_short_first_raise_before_the_flop_does_not_reopen():
    """The blinds are the opening bet, so an all-in raise to 3 over a big blind of 2 is
    short: it does not reopen the betting for the player who limped (pokerkit counts it
    as a full raise and lets the limper raise)."""
    h = hand([100, 100, 100, 100, 3], button=0)  # seat 4 has 3 chips
    play(h, "s3 cc, s4 cbr 3, s0 f, s1 f")
    assert h.actor == 2 and h.legal.min_raise_to == 5  # the big blind has not acted
    h.call()
    assert h.actor == 3 and h.legal.call == 1 and h.legal.min_raise_to is None


def test_no_turn_when_everyone_else_is_all_in():
    """Contract: "once every other live seat is all in and its bet is matched, the hand
    runs out without it" (pokerkit gives that seat a check-only turn)."""
    h = hand([2, 1, 100], button=0)  # button 2 chips, SB 1 chip, BB deep
    assert h.actor == 0
    h.call()  # the button is all in for 2; the SB is all in for 1; the BB's 2 is matched
    assert h.actor is None and h.done and h.street == "showdown" and len(h.board) == 10


def test_nobody_may_raise_when_every_other_live_seat_is_all_in():
    h = hand([30, 100], button=0)
    h.raise_to(30)  # the button is all in
    assert h.actor == 1 and h.legal.call == 28 and h.legal.min_raise_to is None
    with pytest.raises(IllegalAction, match="all in"):
        h.raise_to(60)


# --------------------------------------------------------------------------- pot-limit
def test_pot_limit_sizes():
    """rules: "In pot-limit the maximum bet is the current size of the pot"; a raise may
    make the bet the size of the pot after calling."""
    h = hand([1000] * 4, rules=Rules(betting="pot-limit"), button=0)
    assert h.actor == 3 and h.legal.min_raise_to == 4 and h.legal.max_raise_to == 7  # 3 + 2 + 2
    h.raise_to(7)
    assert h.legal.max_raise_to == 24  # pot 10, call 7 -> 17, raise 17
    h.raise_to(24)
    assert h.actor == 1 and h.legal.max_raise_to == 81  # pot 34, call 23 -> 57, raise 57
    with pytest.raises(IllegalAction, match="maximum is 81"):
        h.raise_to(82)
    play(h, "s1 cc, s2 cc, s3 cc")
    assert h.street == "flop" and sum(h.committed) == 96
    assert h.legal.min_raise_to == 2 and h.legal.max_raise_to == 96  # the pot
    h.raise_to(10)
    assert h.legal.max_raise_to == 10 + (96 + 10 + 10)


# --------------------------------------------------------------------------- fixed-limit
FL = Rules(betting="fixed-limit")


def test_fixed_limit_bet_sizes():
    """rules: "in limit games bets and raises come in fixed sizes" -- the small bet before
    the turn, the big bet from the turn on (the big blind and twice it by default)."""
    h = hand([1000] * 3, rules=FL)
    assert h.legal.min_raise_to == h.legal.max_raise_to == 4
    play(h, "s0 cc, s1 cc, s2 cc")
    assert h.legal.min_raise_to == h.legal.max_raise_to == 2
    play(h, "s1 cc, s2 cc, s0 cc")
    assert h.street == "turn" and h.legal.min_raise_to == h.legal.max_raise_to == 4


def test_fixed_limit_cap_counts_the_big_blind_as_the_bet():
    """Issue: "a bet and three raises, the big blind being the bet before the flop"
    (pokerkit allows four raises after the big blind)."""
    h = hand([1000] * 6, rules=FL)
    play(h, "s3 cbr 4, s4 cbr 6, s5 cbr 8")
    assert h.actor == 0 and h.legal.call == 8 and h.legal.min_raise_to is None
    with pytest.raises(IllegalAction, match="capped"):
        h.raise_to(10)
    play(h, "s0 cc, s1 cc, s2 cc, s3 cc, s4 cc")
    assert h.street == "flop"
    play(h, "s1 cbr 2, s2 cbr 4, s3 cbr 6, s4 cbr 8")
    assert h.actor == 5 and h.legal.min_raise_to is None


def test_fixed_limit_uncapped_heads_up():
    """Issue: "uncapped while only two players are left unless uncapped_heads_up=False"."""
    h = hand([1000] * 2, rules=FL, button=0)
    play(h, "s0 cbr 4, s1 cbr 6, s0 cbr 8, s1 cbr 10, s0 cbr 12")
    assert h.legal.min_raise_to == 14
    h = hand([1000] * 2, rules=Rules(betting="fixed-limit", uncapped_heads_up=False), button=0)
    play(h, "s0 cbr 4, s1 cbr 6, s0 cbr 8")
    assert h.actor == 1 and h.legal.min_raise_to is None
    # three seats, one folds: two players left, no cap
    h = hand([1000] * 3, rules=FL)
    play(h, "s0 f, s1 cbr 4, s2 cbr 6, s1 cbr 8, s2 cbr 10")
    assert h.legal.min_raise_to == 12


def test_fixed_limit_half_bet_all_in_counts_as_a_full_raise():
    """Issue: "an all-in of half a bet or more counts as a full bet": it reopens the
    betting (pokerkit only reopens for a full bet)."""
    rules = Rules(betting="fixed-limit", blinds=(2, 4))
    h = hand([1000, 1000, 1000, 1000, 10], rules=rules, button=0)  # seat 4 has 10
    play(h, "s3 cbr 8, s4 cbr 10, s0 f, s1 f, s2 cc")  # all in for 2 more: half a bet
    assert h.actor == 3 and h.legal.call == 2 and h.legal.min_raise_to == 14
    h = hand([1000, 1000, 1000, 1000, 9], rules=rules, button=0)
    play(h, "s3 cbr 8, s4 cbr 9, s0 f, s1 f, s2 cc")  # 1 more: less than half
    assert h.actor == 3 and h.legal.call == 1 and h.legal.min_raise_to is None


def test_fixed_limit_short_all_in_is_not_a_raise():
    """An all-in of less than half a bet is not a raise: it does not count toward the cap
    (pokerkit counts it)."""
    rules = Rules(betting="fixed-limit", blinds=(2, 4))
    h = hand([1000, 1000, 1000, 1000, 9, 1000], rules=rules, button=0)
    play(h, "s3 cbr 8, s4 cbr 9, s5 cbr 13")  # the big blind, 8 and 13 are three bets
    assert h.actor == 0 and h.legal.min_raise_to == 17
    h.raise_to(17)
    assert h.actor == 1 and h.legal.min_raise_to is None  # four bets: capped


# --------------------------------------------------------------------------- forced bets
def test_antes_are_dead_money_posted_before_the_blinds():
    """rules: "Each player pays the ante into the pot before then hand is dealt";
    contract: antes are dead money in the main pot, not part of any call."""
    h = hand([100, 100, 100], rules=Rules(ante=1))
    assert h.bets == [0, 1, 2] and h.committed == [1, 2, 3]
    assert h.legal.call == 2  # the ante is not part of the call
    play(h, "s0 cc, s1 cc, s2 cc")
    assert [(p.amount, p.eligible) for p in h.pots] == [(9, (0, 1, 2))]
    h = hand([100, 100, 3], rules=Rules(ante=2))  # the BB posts its ante first, then 1
    assert h.bets == [0, 1, 1] and h.stacks[2] == 0 and h.committed[2] == 3


def test_big_blind_ante():
    h = hand([100, 100, 100], rules=Rules(ante=2, bb_ante=True))
    assert h.committed == [0, 1, 4] and h.bets == [0, 1, 2] and h.legal.call == 2


def test_straddle_sets_the_minimum_raise_and_the_first_actor():
    """Contract: "a straddle sets the new minimum raise and the seat after the last
    straddler acts first" (pokerkit's minimum is only a big blind over the straddle)."""
    h = hand([100] * 5, rules=Rules(straddles=(4,)), button=0)
    assert h.bets == [0, 1, 2, 4, 0]
    assert h.actor == 4 and h.legal.call == 4 and h.legal.min_raise_to == 8
    play(h, "s4 cc, s0 cc, s1 cc, s2 cc")
    assert h.actor == 3 and h.legal.check and h.legal.min_raise_to == 8  # the straddle's option
    h.check()
    assert h.street == "flop" and h.actor == 1


# --------------------------------------------------------------------------- the deal
def test_deal_order_and_burns():
    """rules: "Each player will receive one card face down, in sequences starting with the
    player to the left of the dealer, then followed up by a second card in sequence to each
    player." ... "Before the flop, the turn and the river, the dealer discards the top card
    face down. That is the burn card ... A hand that reaches the river burns three cards."
    Heads-up: "The other player posts the big blind and takes the first card of the deal."
    """
    from evaluator.cards import card_str

    for n, button, seed in ((6, 4, 11), (2, 1, 12), (9, 0, 13)):
        h = Hand(NL, [100] * n, button=button, seed=seed)
        deck = [card_str(int(c)) for c in h._deck]  # the shuffled deck the dealer deals from
        order = [(button + 1 + k) % n for k in range(n)]  # heads-up: the big blind first
        for r in range(2):
            for k, s in enumerate(order):
                assert h.hole[s][2 * r:2 * r + 2] == deck[r * n + k]
        while not h.done:
            h.check_or_call()
        p = 2 * n
        assert h.board == "".join(deck[p + j] for j in (1, 2, 3, 5, 7))
        burns = {deck[p], deck[p + 4], deck[p + 6]}
        assert not burns & {h.board[i:i + 2] for i in range(0, 10, 2)}
        again = Hand(NL, [100] * n, button=button, seed=seed)  # a seed reproduces the hand
        assert again.hole == h.hole
        while not again.done:
            again.check_or_call()
        assert again.board == h.board


def test_showdown_order():
    """rules: "The last player to bet or raise on the river shows their cards first; if no
    one bet the river, the first remaining player left of the button shows first. After
    that, the action moves clockwise." """
    h = hand([100] * 4, button=0)
    play(h, "s3 cc, s0 cc, s1 cc, s2 cc")
    for _ in range(2):
        play(h, "s1 cc, s2 cc, s3 cc, s0 cc")
    play(h, "s1 cc, s2 cbr 10, s3 cc, s0 f, s1 cc")
    shows = [a.split()[0] for a in h.actions if " sm " in a]
    assert shows == ["p3", "p4", "p2"]
    h = hand([100] * 4, button=0)
    play(h, "s3 cc, s0 cc, s1 f, s2 cc")
    for _ in range(3):
        play(h, "s2 cc, s3 cc, s0 cc")
    shows = [a.split()[0] for a in h.actions if " sm " in a]
    assert shows == ["p3", "p4", "p1"]  # seat 1 folded: seat 2 is the first left of the button


def test_last_player_standing_wins_without_showing():
    """rules: "If all other players fold, the winner takes the pot without ever showing
    their cards." """
    h = hand([100] * 3)
    play(h, "s0 cbr 6, s1 f, s2 f")
    assert h.done and h.street == "done"
    assert not [a for a in h.actions if " sm " in a]
    assert h.finishing_stacks == [103, 99, 98]


# --------------------------------------------------------------------------- settlement
def test_uncalled_chips_are_returned():
    h = hand([200, 50], button=0, hole=["2d3h", "AhAd"])
    play(h, "s0 cbr 200, s1 cc")  # the big blind calls all in for 50 and wins
    assert h.done
    assert [p.amount for p in h.pots] == [100]  # the button's other 150 is not a pot
    assert h.payouts == [150, 100] and h.finishing_stacks == [150, 100]
    h = hand([100, 100, 100], hole=["2d3h", "AhAd", "4s5s"])
    play(h, "s0 cbr 30, s1 f, s2 f")  # nobody calls: the 30 comes back
    assert h.payouts == [33, 0, 0] and h.finishing_stacks == [103, 99, 98]


def test_odd_chips_one_at_a_time_from_the_left_of_the_button():
    """The cardroom odd-chip rule: a split pot's odd chips go one at a time to the tied
    winners, starting left of the button (pokerkit gives them all to the first)."""
    h = hand([100] * 4, rules=Rules(ante=1), button=0, board=ROYAL)
    play(h, "s3 cc, s0 cc, s1 f, s2 cc")  # pot 4 antes + 6 + SB's dead 1 = 11, 3 ways
    while not h.done:
        h.check()
    assert h.payouts == [3, 0, 4, 4]
    assert h.finishing_stacks == [100 - 3 + 3, 98, 100 - 3 + 4, 100 - 3 + 4]


def test_chips_conserved_and_pots_sum_to_the_committed_chips():
    h = Hand(NL, [50, 120, 300, 80], button=1, seed=5)
    total = 550
    while not h.done:
        assert sum(h.stacks) + sum(h.committed) == total
        lg = h.legal
        h.raise_to(lg.max_raise_to) if lg.min_raise_to is not None else h.check_or_call()
    assert sum(h.finishing_stacks) == total


# --------------------------------------------------------------------------- bad actions
@pytest.mark.parametrize("bad, why", [
    (lambda h: h.raise_to(3), "the minimum is 4"),
    (lambda h: h.raise_to(10**6), "at most 100"),
    (lambda h: h.check(), "facing a bet of 2"),
    (lambda h: h.act("cbr x"), "integer"),
    (lambda h: h.act("p1 f"), "not to act"),
    (lambda h: h.act("zz"), "not an action"),
])
def test_illegal_action_one_line_reason_and_options_hand_unchanged(bad, why):
    h = hand([100] * 4)
    before = snapshot(h)
    with pytest.raises(IllegalAction) as e:
        bad(h)
    msg = str(e.value)
    assert "\n" not in msg and why in msg
    assert snapshot(h) == before
    h.call()  # the hand goes on


def test_illegal_action_message_names_the_legal_options():
    h = hand([100] * 4)
    with pytest.raises(IllegalAction) as e:
        h.raise_to(3)
    assert str(e.value) == ("seat 3 cannot raise to 3: the minimum is 4 "
                            "(legal: fold, call 2, raise to 4..100)")
    h.call()
    play(h, "s0 cc, s1 cc, s2 cc")
    with pytest.raises(IllegalAction, match=r"nothing to call.*legal: check, raise to 2\.\.98"):
        h.fold()
    play(h, "s1 cc, s2 cc, s3 cc, s0 cc")
    assert h.street == "turn"


def test_actions_after_the_end_are_refused():
    h = hand([100, 100])
    h.fold()
    with pytest.raises(IllegalAction, match="over"):
        h.call()


# ------------------------------------------------------------- forced bets posted short
# Robert's Rules of Poker, "Button and blind use", rules for using blinds 1: "The minimum
# bring-in and allowable raise sizes for the opener are specified by the poker form used and
# blind amounts set for a game. They remain the same even when the player in the blind does
# not have enough chips to post the full amount." (As cardrooms deal it: the players to act
# call the full big blind and the excess makes a side pot.) pokerkit lowers the bet to the
# chips the blind put in (tests/test_engine_pokerkit.py, ``short_blind``).
BLINDS_50_100 = Rules(blinds=(50, 100))


@pytest.mark.parametrize("betting, raise_to", [
    ("no-limit", (200, 1000)), ("pot-limit", (200, 350)), ("fixed-limit", (200, 200))])
def test_a_big_blind_all_in_for_less_is_still_called_in_full(betting, raise_to):
    """The big blind is all in for 30 of 100: the first player calls 100, raises to 200 at
    least, and a pot-limit opener may raise what the full blinds allow (50 + 100 + the call
    of 100: to 350)."""
    rules = Rules(betting=betting, blinds=(50, 100))
    h = hand([1000, 1000, 30, 1000], rules=rules)
    assert h.bets == [0, 50, 30, 0] and h.actor == 3
    lg = h.legal
    assert (lg.fold, lg.check, lg.call) == (True, False, 100)
    assert (lg.min_raise_to, lg.max_raise_to) == raise_to
    h.call()
    play(h, "s0 f")
    assert h.actor == 1 and h.legal.call == 50  # the small blind completes the full blind too
    h.fold()
    # the big blind's 30 is matched by each seat (main pot); the small blind's other 20 and
    # as much of the caller's make a side pot only the caller is in; the caller's last 50,
    # which nobody matched, comes back
    assert [(p.amount, p.eligible) for p in h.pots] == [(90, (2, 3)), (40, (3,))]
    assert h.done and sum(h.finishing_stacks) == 3030


def test_a_short_big_blind_leaves_the_minimum_raise_and_its_side_pot_contested():
    """Both blinds call a raise over a big blind all in for 40 of 100: main pot 3 x 40,
    the side pot everything above it between the two who can cover."""
    h = hand([1000, 1000, 40, 1000], rules=BLINDS_50_100)
    play(h, "s3 cbr 250, s0 f, s1 cc")
    assert h.street == "flop" and h.committed == [0, 250, 40, 250]
    assert [(p.amount, p.eligible) for p in h.pots] == [(120, (1, 2, 3)), (420, (1, 3))]


def test_a_seat_left_alone_with_chips_calls_no_more_than_was_bet():
    """Heads-up, the big blind all in for 30: the small blind's 50 already covers it, so
    it has no decision (the board runs out) and gets its other 20 back; with a third player
    all in for 80, the small blind calls 30 more, not the 50 up to the full blind."""
    h = hand([1000, 30], rules=BLINDS_50_100)  # seat 0: the button, the small blind
    assert h.actor is None and h.done
    assert [(p.amount, p.eligible) for p in h.pots] == [(60, (0, 1))]
    assert h.finishing_stacks[0] + h.finishing_stacks[1] == 1030
    assert h.finishing_stacks[0] >= 970
    h = hand([1000, 1000, 30, 80], rules=BLINDS_50_100)
    play(h, "s3 cc, s0 f")
    assert h.actor == 1 and h.legal.call == 30 and h.legal.min_raise_to is None


def test_a_straddle_all_in_for_less_is_called_in_full():
    """A straddle sets the bring-in (Robert's Rules, no-limit rule 2: "A straddle bet sets a
    new minimum bring-in"); posted short by a player all in, it stays the amount to call."""
    h = hand([100, 100, 100, 3, 100], rules=Rules(straddles=(4,)))
    assert h.bets == [0, 1, 2, 3, 0] and h.actor == 4
    assert (h.legal.call, h.legal.min_raise_to) == (4, 8)


def test_a_short_small_blind_changes_nothing_for_the_callers():
    """A small blind all in for 20 of 50: the call is still the big blind, 100."""
    h = hand([1000, 20, 1000, 1000], rules=BLINDS_50_100)
    assert h.bets == [0, 20, 100, 0] and (h.legal.call, h.legal.min_raise_to) == (100, 200)


# -------------------------------------------------- a fold when checking is free (a record)
# TDA Rules, "Non-Standard Folds" (Rule 45 of the 2011 rules): "Anytime before the end of
# the last betting round of a hand, folding in turn when facing a check or folding out of
# turn are both binding folds and may be subject to penalty." Robert's Rules (Bob Ciaffone,
# "When You Can Fold", Card Player 2003) calls it an ethical breach, not an illegal action.
def test_a_fold_facing_a_check_is_taken_from_a_record_but_never_offered():
    """Replaying a table's record (manual deals) the fold stands; the legal set still
    offers a check, not a fold, and a dealt hand (self-play, the interactive Hand) refuses
    it (see test_illegal_action_message_names_the_legal_options)."""
    h = Hand(NL, [100, 100, 100], button=0, deal="manual")
    for s, cards in enumerate(["AcAd", "KcKd", "QcQd"], 1):
        h.act(f"d dh p{s} {cards}")
    h.act("p1 cc")
    h.act("p2 cc")
    assert h.actor == 2 and h.legal.check and not h.legal.fold
    h.act("p3 f")  # the big blind folds its option
    assert h.actor is None and h.live == [True, True, False]
    h.act("d db 2h7s9d")
    assert h.actor == 1 and not h.legal.fold
    h.act("p2 f")  # nothing to call on the flop either
    assert h.done and h.finishing_stacks == [104, 98, 98]


# --------------------------------------------------------------------------- invariants
@settings(max_examples=examples(150), deadline=None)
@given(st.data())
def test_random_play_invariants(data):
    """Over random tables and random legal actions: chips are conserved at every step, the
    legal set is consistent (check xor call, fold only facing a bet, min <= max <= all in),
    its edges are accepted and a chip past them refused, and the finishing stacks add up."""
    n = data.draw(st.integers(2, 9), label="seats")
    betting = data.draw(st.sampled_from(["no-limit", "pot-limit", "fixed-limit"]))
    game = data.draw(st.sampled_from(["holdem", "omaha", "omaha5"] if n <= 7 else ["holdem"]))
    ante = data.draw(st.sampled_from([0, 0, 1, 3]))
    straddles = data.draw(st.sampled_from([(), (), (4,), (4, 8)][:1 if n == 2 else
                                                                   2 if n == 3 else 4]))
    rules = Rules(game=game, betting=betting, ante=ante, straddles=straddles,
                  bb_ante=data.draw(st.booleans()) if ante else False)
    stack = st.one_of(st.integers(1, 6), st.integers(1, 400))  # short stacks often
    stacks = data.draw(st.lists(stack, min_size=n, max_size=n), label="stacks")
    h = Hand(rules, stacks, button=data.draw(st.integers(0, n - 1)),
             seed=data.draw(st.integers(0, 2**32)))
    total = sum(stacks)
    while not h.done:
        assert sum(h.stacks) + sum(h.committed) == total
        s, lg = h.actor, h.legal
        assert s is not None
        assert lg.check != (lg.call is not None)
        assert lg.fold == (lg.call is not None)
        assert lg.call is None or 0 < lg.call <= h.stacks[s]
        if lg.min_raise_to is not None:
            assert lg.min_raise_to <= lg.max_raise_to <= h.stacks[s] + h.bets[s]
            assert lg.min_raise_to > max(h.bets)
            before = snapshot(h)
            for bad in (lg.min_raise_to - 1, lg.max_raise_to + 1):
                if bad > max(h.bets):
                    with pytest.raises(IllegalAction):
                        h.raise_to(bad)
                    assert snapshot(h) == before
        choice = data.draw(st.sampled_from(["fold", "cc", "min", "max"]))
        if choice == "fold" and lg.fold:
            h.fold()
        elif choice in ("min", "max") and lg.min_raise_to is not None:
            h.raise_to(lg.min_raise_to if choice == "min" else lg.max_raise_to)
        else:
            h.check_or_call()
    fin = h.finishing_stacks
    assert sum(fin) == total and min(fin) >= 0
    assert all(p >= 0 for p in h.payouts)
    assert [f - x for f, x in zip(fin, h.stacks, strict=True)] == h.payouts
    in_pots = sum(p.amount for p in h.pots)
    assert in_pots <= sum(h.committed) and sum(h.payouts) == sum(h.committed)
    for p in h.pots:
        assert p.eligible and all(h.live[s] for s in p.eligible)
