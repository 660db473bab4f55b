"""Basic tests of simulate.engine (Rules, Hand, play) and its kernels.

The rule-by-rule tests quoting the rule texts are in tests/test_engine_rules.py, the
pokerkit differential test in tests/test_engine_pokerkit.py and the play statistics in
tests/test_engine_play.py; this file checks the engine's own mechanics.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from evaluator import evaluate
from evaluator.cards import card_str
from simulate.engine import Hand, IllegalAction, Rules, play
from simulate.engine.self_play import CHECK_CALL, RAISE, compiled_policy, replay_hands
from simulate.notation.phh_read import decode_toml, parse_hand
from simulate.replay.hand_replay import replay

HOLE6 = ["AhKh", "QsQd", "2c3c", "7d8d", "9s9h", "JcTc"]
BOARD = "Ks8h2d4d5s"


def snapshot(h: Hand) -> tuple:
    return (h.actor, h.street, h.stacks, h.bets, h.committed, h.board, tuple(h.actions),
            h.legal)


def test_blinds_first_actor_and_legal():
    h = Hand(Rules(blinds=(1, 2)), [200] * 6, button=0, hole=HOLE6, board=BOARD)
    assert h.stacks == [200, 199, 198, 200, 200, 200]
    assert h.bets == [0, 1, 2, 0, 0, 0]
    assert h.actor == 3 and h.street == "preflop"
    lg = h.legal
    assert (lg.fold, lg.check, lg.call, lg.min_raise_to, lg.max_raise_to) == \
        (True, False, 2, 4, 200)
    h.raise_to(6)
    assert h.legal.min_raise_to == 10  # a raise of 4 on top of 6
    assert h.actions[-1] == "p4 cbr 6"


def test_illegal_action_message_and_hand_unchanged():
    h = Hand(Rules(), [200] * 6, hole=HOLE6, board=BOARD)
    h.raise_to(6)
    before = snapshot(h)
    with pytest.raises(IllegalAction) as e:
        h.raise_to(7)
    msg = str(e.value)
    assert msg == "seat 4 cannot raise to 7: the minimum is 10 (legal: fold, call 6, " \
                  "raise to 10..200)"
    assert "\n" not in msg
    assert snapshot(h) == before
    with pytest.raises(IllegalAction, match="cannot check: facing a bet of 6"):
        h.check()
    with pytest.raises(IllegalAction, match="the stack allows at most 200"):
        h.raise_to(500)
    with pytest.raises(IllegalAction, match="is not to act"):
        h.act("p1 f")
    assert snapshot(h) == before
    assert isinstance(e.value, ValueError)


def test_heads_up_button_is_small_blind_and_acts_first_then_last():
    h = Hand(Rules(), [100, 100], button=1, hole=["AhKh", "QsQd"], board=BOARD)
    assert h.bets == [2, 1] and h.actor == 1
    h.call()
    assert h.actor == 0  # the big blind's option
    h.check()
    assert h.street == "flop" and h.actor == 0  # the button acts last after the flop
    h.check()
    assert h.actor == 1


def test_short_all_in_does_not_reopen_but_short_all_ins_adding_up_do():
    # TDA Rule 47 Example 1: A bets 100, B all-in 125, C calls, D all-in 200, E calls:
    # A faces a full raise (100 more than his bet) and may raise; C may not.
    stacks = [1000, 1000, 135, 1000, 210, 1000]  # B = seat 2, D = seat 4 (10 go preflop)
    h = Hand(Rules(blinds=(5, 10)), stacks, button=0, seed=1)
    while h.street == "preflop":
        h.check_or_call()
    assert h.street == "flop" and h.actor == 1 and h.stacks[2] == 125
    h.raise_to(100)  # A
    h.raise_to(125)  # B all in
    assert h.stacks[2] == 0
    h.call()  # C
    h.raise_to(200)  # D all in
    assert h.stacks[4] == 0
    h.call()  # E
    h.fold()  # the button
    assert h.actor == 1 and h.legal.min_raise_to == 300  # A may raise
    h.call()
    assert h.actor == 3 and h.legal.call == 75 and h.legal.min_raise_to is None  # C may not
    with pytest.raises(IllegalAction, match="not reopened"):
        h.raise_to(400)


def test_raise_after_short_all_in_is_a_full_raise_over_it():
    # 100 bet, 140 all-in: the next raise must be to at least 240
    h = Hand(Rules(blinds=(5, 10)), [1000, 1000, 150, 1000], button=0, seed=3)
    while h.street == "preflop":
        h.check_or_call()
    assert h.actor == 1
    h.raise_to(100)
    h.raise_to(140)  # seat 2 all in
    assert h.stacks[2] == 0
    assert h.legal.min_raise_to == 240


def test_pot_limit_sizes():
    h = Hand(Rules(betting="pot-limit", game="omaha"), [500] * 4, button=0, seed=5)
    assert h.legal.max_raise_to == 7  # 1/2: call 2, pot 5, raise 5 on top
    h.raise_to(7)
    # pot 1 + 2 + 7 = 10, call 7 -> pot 17, raise to 7 + 17 = 24
    assert h.legal.max_raise_to == 24


def test_fixed_limit_cap_and_heads_up():
    h = Hand(Rules(betting="fixed-limit"), [500] * 3, button=0, seed=2)
    lg = h.legal
    assert lg.min_raise_to == lg.max_raise_to == 4
    h.raise_to(4)
    h.raise_to(6)
    h.raise_to(8)  # the big blind, a bet and three raises: capped
    assert h.legal.min_raise_to is None
    h2 = Hand(Rules(betting="fixed-limit"), [500] * 2, seed=2)
    for total in (4, 6, 8, 10, 12):
        h2.raise_to(total)  # heads-up: no cap
    h3 = Hand(Rules(betting="fixed-limit", uncapped_heads_up=False), [500] * 2, seed=2)
    for total in (4, 6, 8):
        h3.raise_to(total)
    assert h3.legal.min_raise_to is None


def test_antes_are_dead_money_and_straddle_sets_min_raise():
    h = Hand(Rules(ante=1, straddles=(4,)), [100] * 5, button=0, seed=9)
    assert h.antes == [1] * 5 and h.bets == [0, 1, 2, 4, 0]
    assert h.actor == 4 and h.legal.call == 4 and h.legal.min_raise_to == 8
    # antes 5 + blinds 3 + the straddle's 2 that someone matched (its other 2 are uncalled)
    assert sum(p.amount for p in h.pots) == 10
    h2 = Hand(Rules(ante=2, bb_ante=True), [100] * 3, button=0, seed=9)
    assert h2.antes == [0, 0, 2] and h2.committed == [0, 1, 4]


def test_seeded_deal_order_burns_and_reproducibility():
    h = Hand(Rules(), [100] * 3, button=1, seed=42)
    deck = [card_str(c) for c in h._deck]
    # one card at a time from the seat left of the button: seats 2, 0, 1, 2, 0, 1
    assert h.hole == [deck[1] + deck[4], deck[2] + deck[5], deck[0] + deck[3]]
    while not h.done:
        h.check_or_call()
    # burn at 6, flop 7..9, burn 10, turn 11, burn 12, river 13
    assert h.board == "".join(deck[i] for i in (7, 8, 9, 11, 13))
    h2 = Hand(Rules(), [100] * 3, button=1, seed=42)
    assert h2.hole == h.hole
    assert Hand(Rules(), [100] * 3, button=1, seed=43).hole != h.hole


def test_showdown_pays_best_hand_and_conserves_chips():
    h = Hand(Rules(), [200] * 6, hole=HOLE6, board=BOARD)
    while not h.done:
        h.check_or_call()
    assert h.street == "showdown"
    best = max(range(6), key=lambda s: evaluate(HOLE6[s] + BOARD))
    assert h.payouts[best] == 12 and sum(h.payouts) == 12
    assert sum(h.finishing_stacks) == 1200
    shows = [a for a in h.actions if " sm " in a]
    assert len(shows) == 6
    assert h.actions[:6] == [f"d dh p{s + 1} {HOLE6[s]}" for s in range(6)]


def test_fold_win_returns_everything_and_street_done():
    h = Hand(Rules(), [200] * 3, seed=1)
    h.raise_to(20)
    h.fold()
    h.fold()
    assert h.done and h.street == "done"
    assert h.payouts == [23, 0, 0] and h.finishing_stacks == [203, 199, 198]
    with pytest.raises(IllegalAction, match="the hand is over"):
        h.call()


def test_uncalled_all_in_chips_returned_and_side_pots():
    h = Hand(Rules(), [300, 50, 100], button=0, hole=["2c7d", "AhAd", "KhKd"],
             board="Ks8h2d4d5s")
    h.raise_to(300)  # the button moves in; the blinds call all in for less
    h.call()
    h.call()
    assert h.done and h.street == "showdown"
    assert [(p.amount, p.eligible) for p in h.pots] == [(150, (0, 1, 2)), (100, (0, 2))]
    assert h.payouts == [200, 0, 250]  # seat 0's 200 uncalled chips come back
    assert h.finishing_stacks == [200, 0, 250]


def test_nobody_raises_when_everyone_else_is_all_in():
    h = Hand(Rules(), [10, 500], button=0, seed=4)
    h.raise_to(10)  # button all in
    lg = h.legal
    assert lg.min_raise_to is None and lg.call == 8
    h.call()
    assert h.done and h.actor is None


def test_manual_deals_unknown_cards_and_shows():
    r = Rules()
    h = Hand(r, [100, 100, 100], button=2, deal="manual")
    assert h.actor is None
    with pytest.raises(IllegalAction):
        h.call()
    h.act("d dh p1 AhKh")
    h.act("d dh p2 ????")
    with pytest.raises(IllegalAction, match="dealt twice"):
        h.act("d dh p3 AhQd")
    h.act("d dh p3 QsQd")
    assert h.actor == 2  # three-handed, the button acts first before the flop
    while h.street == "preflop":
        h.act("cc")
    with pytest.raises(IllegalAction, match="is 3 cards"):
        h.act("d db Jc3d")
    h.act("d db Jc3d5c")
    for board in ("d db 7h", "d db 2s"):
        while h.actor is not None:
            h.act("cc")
        h.act(board)
    while h.actor is not None:
        h.act("cc")
    assert h.done and not h.outcome_known and None in h.payouts
    with pytest.raises(IllegalAction, match="was dealt"):
        h.act("p1 sm AhKd")
    h.act("p2 sm 9c9d")
    assert h.outcome_known and sum(h.payouts) == 6
    assert h.actions[-1] == "p2 sm 9c9d"


def test_manual_deals_when_the_blinds_put_a_seat_all_in():
    # The big blind's ante and blind take its whole stack: the preflop betting is closed
    # before anyone acts, and the hole cards are still dealt first (a hand Hand.to_phh()
    # writes this way must replay).
    r = Rules(blinds=(50, 100), ante=100, bb_ante=True)
    h = Hand(r, [1000, 150], button=0, deal="manual")
    assert h.actor is None
    with pytest.raises(IllegalAction, match="not all dealt"):
        h.act("d db 2hTh8c")
    h.act("d dh p1 5h3s")
    h.act("d dh p2 4c4s")
    with pytest.raises(IllegalAction, match="dealt once per player"):
        h.act("d dh p2 AcAd")
    for board in ("d db 2hTh8c", "d db Kh", "d db 6s"):
        h.act(board)
    h.act("p2 sm 4c4s")
    h.act("p1 sm 5h3s")
    assert h.done and h.outcome_known and h.payouts == [0, 200]
    seeded = Hand(r, [1000, 150], button=0, seed=5)
    while seeded.actor is not None:
        seeded.check_or_call()
    rp = replay(parse_hand(decode_toml(seeded.to_phh())))
    assert rp.error is None and rp.not_validated is None
    assert rp.finishing_stacks == [seeded.finishing_stacks[s] for s in (1, 0)]


def test_act_accepts_phh_strings():
    h = Hand(Rules(), [200] * 3, seed=7)
    h.act("p1 cbr 6  # open")
    h.act("p2 cc")
    h.act("f")
    assert h.actions[-4:-1] == ["p1 cbr 6", "p2 cc", "p3 f"]
    assert h.actions[-1].startswith("d db ")
    with pytest.raises(IllegalAction, match="not an action"):
        h.act("xyz")


def test_bad_rules_and_tables():
    with pytest.raises(ValueError, match="game"):
        Rules(game="stud")
    with pytest.raises(ValueError, match="betting"):
        Rules(betting="spread")
    with pytest.raises(ValueError, match="2 to 10"):
        Hand(Rules(), [100])
    with pytest.raises(ValueError, match="straddles"):
        Hand(Rules(straddles=(4,)), [100, 100])
    with pytest.raises(ValueError, match="both"):
        Hand(Rules(), [100, 100], hole=["AhKh", "QsQd"])
    with pytest.raises(ValueError, match="duplicate card Ah"):
        Hand(Rules(), [100, 100], hole=["AhKh", "AhQd"], board=BOARD)


def test_build_pots_kernel_matches_reference():
    """The one pot builder (simulate.pots.build_pots wraps it) against the chip-by-chip
    reference, with ``live`` as int64 (the engine's state) rather than bool."""
    from reference import ref_pots

    from simulate._kernels.engine import build_pots as kernel_build_pots

    rng = random.Random(5)
    for _ in range(300):
        n = rng.randint(2, 9)
        committed = [rng.choice([rng.randint(1, 50), 10, 20]) for _ in range(n)]
        live = [rng.random() < 0.7 for _ in range(n)]
        top = max(range(n), key=lambda s: committed[s])
        live[top] = True
        want_pots, want_returned = ref_pots(committed, live)
        amounts = np.zeros(n, np.int64)
        elig = np.zeros((n, n), np.bool_)
        ret = np.zeros(n, np.int64)
        m = kernel_build_pots(np.array(committed, np.int64), np.array(live, np.int64), amounts,
                              elig, ret)
        got = [(int(amounts[p]), tuple(int(s) for s in np.flatnonzero(elig[p])))
               for p in range(m)]
        assert got == want_pots
        assert list(ret) == want_returned


@pytest.mark.slow
def test_play_same_bits_any_threads_and_replays():
    rules = Rules(ante=1)
    pol = ["random", "call", "top 20%", "allin"]
    a = play(rules, [300] * 4, 3000, policy=pol, seed=5, threads=1)
    b = play(rules, [300] * 4, 3000, policy=pol, seed=5, threads=2)
    assert a.net == b.net and a.std_error == b.std_error and sum(a.net) == 0
    tot = np.zeros(4, np.int64)
    for h in replay_hands(rules, [300] * 4, 200, policy=pol, seed=5):
        tot += np.array(h.net)
    c = play(rules, [300] * 4, 200, policy=pol, seed=5, threads=1)
    assert list(tot) == c.net
    d = a.to_dict()
    assert set(d) >= {"hands", "elapsed_s", "hands_per_s", "players"}
    assert d["players"][0]["policy"] == "random"
    json.dumps(d)


def test_play_python_and_compiled_policies():
    @compiled_policy
    def raiser(seat, S, hole, board, legal, rnd):
        if legal[3] >= 0 and rnd % 4 == 0:
            return RAISE, legal[3]
        return CHECK_CALL, 0

    def py_raiser(hand):
        lg = hand.legal
        return f"cbr {lg.min_raise_to}" if lg.min_raise_to is not None else "cc"

    r = play(Rules(), [200] * 3, 500, policy=[raiser, "call", py_raiser], seed=3)
    assert sum(r.net) == 0 and r.policies == ["raiser", "call", "py_raiser"]
    with pytest.raises(ValueError, match="unknown policy"):
        play(Rules(), [200] * 2, 10, policy="nit")


def test_play_cli(tmp_path, capsys):
    from simulate.cli import main

    assert main(["play", "--players", "3", "--hands", "2000", "--seed", "1", "--json",
                 "-q", "--phh", str(tmp_path / "h.phhs"), "--phh-hands", "5"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["hands"] == 2000 and len(d["players"]) == 3 and d["seed"] == 1
    assert (tmp_path / "h.phhs").read_text().count("variant") == 5
    assert main(["play", "--players", "1"]) == 2
    assert main(["play", "--blinds", "x"]) == 2
    assert "error:" in capsys.readouterr().err
