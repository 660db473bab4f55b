"""The hand engine's Pineapple discards (``Rules(game="pineapple" | "crazy_pineapple")``).

* Timing: for every ``discard_after`` the discards come after that betting round and
  before the next board card, in turn from the seat left of the button, every live seat
  (a seat all in before the discard point too, a folded seat not); betting waits for them.
* Validation: a discard must be one of the actor's cards, only when one is due, by the
  seat whose turn it is; betting during the discards is refused; the hand is unchanged.
* ``.hole`` shows the two kept cards; the showdown evaluates them; chips are conserved.
* ``play`` with the built-in discard rule on 2 and 6 seats: same bits on 1 and 2 threads
  and through the Python loop (:func:`simulate.engine.self_play.replay_hands`).
* PHH: the writer writes the ``sd`` actions and the replay plays them back through the
  engine to the same finishing stacks.
"""

from __future__ import annotations

import random

import pytest

from evaluator.cards import parse_cards
from evaluator.hands import strength_of_ids
from simulate.engine import Hand, IllegalAction, Rules, play
from simulate.engine.self_play import replay_hands
from simulate.notation.phh_read import decode_toml, parse_hand
from simulate.replay.hand_replay import replay

HOLE3 = ["AsKsQs", "2c7d9h", "JhJd3c"]
BOARD = "Ah8d4c5sTd"
BOARD_AT = {"preflop": 0, "flop": 3, "turn": 4}


def _check_round(h: Hand) -> None:
    """Check (or call) until the betting round ends (a discard is due or the hand is over)."""
    while h.actor is not None and not h.legal.discard:
        h.check_or_call()


@pytest.mark.parametrize("discard_after", ["preflop", "flop", "turn"])
def test_discard_timing_and_order(discard_after):
    h = Hand(Rules(game="pineapple", discard_after=discard_after), [100] * 3, button=0,
             hole=HOLE3, board=BOARD)
    assert h.hole == HOLE3
    streets = ["preflop", "flop", "turn"]
    seen = []
    while not h.legal.discard:  # betting, street after street, up to the discard point
        seen.append(h.street)
        h.check_or_call()
    assert sorted(set(seen), key=streets.index) == streets[:streets.index(discard_after) + 1]
    # the betting round is over; the next card is not dealt before the discards
    assert h.street == discard_after
    assert len(parse_cards(h.board)) == BOARD_AT[discard_after]
    order = []
    kept = []
    for _ in range(3):
        lg = h.legal
        assert lg.discard and not lg.fold and not lg.check and lg.call is None
        assert lg.min_raise_to is None and lg.max_raise_to is None
        s = h.actor
        order.append(s)
        card = h.hole[s][:2]
        kept.append(h.hole[s][2:])
        h.act(f"p{s + 1} sd {card}")
        assert h.hole[s] == kept[-1]
        assert h.discards[s] == card
    assert order == [1, 2, 0]  # from the seat left of the button
    assert not h.legal.discard
    assert len(parse_cards(h.board)) == BOARD_AT[discard_after] + (3 if discard_after ==
                                                                   "preflop" else 1)
    while not h.done:
        h.check_or_call()
    assert h.street == "showdown"
    assert [len(x) for x in h.hole] == [4, 4, 4]
    # the showdown evaluates the two kept cards
    b = parse_cards(BOARD)
    st = [strength_of_ids(parse_cards(x) + b) for x in h.hole]
    best = max(st)
    winners = [s for s in range(3) if st[s] == best]
    assert sum(h.payouts) == sum(h.committed) == 6
    for s in range(3):
        assert (h.payouts[s] > 0) == (s in winners)
    assert h.discards == [HOLE3[0][:2], HOLE3[1][:2], HOLE3[2][:2]]


def test_default_timings():
    assert Rules(game="pineapple").discard_after == "preflop"
    assert Rules(game="crazy_pineapple").discard_after == "flop"
    assert Rules(game="crazy_pineapple", discard_after="turn").discard_after == "turn"
    with pytest.raises(ValueError, match="discard_after"):
        Rules(game="pineapple", discard_after="river")
    with pytest.raises(ValueError, match="discard_after"):
        Rules(game="holdem", discard_after="flop")


@pytest.mark.parametrize("discard_after", ["preflop", "flop", "turn"])
def test_all_in_before_the_discard_point(discard_after):
    """Seat 1 is all in preflop; seat 2 folds: seats 1 and 0 still discard (seat 2 does not),
    then the board runs out."""
    h = Hand(Rules(game="pineapple", discard_after=discard_after), [100, 20, 100], button=0,
             hole=HOLE3, board=BOARD)
    assert h.actor == 0  # 3 seats: the button acts first preflop
    h.call()
    h.raise_to(20)  # seat 1 (small blind) all in
    h.fold()  # seat 2 (big blind)
    h.call()  # seat 0
    assert h.all_in[1] and not h.live[2]
    if discard_after != "preflop":
        # nobody can bet any more; the board runs out up to the discard point only
        assert h.legal.discard
    assert len(parse_cards(h.board)) == BOARD_AT[discard_after]
    assert h.actor == 1 and h.legal.discard
    with pytest.raises(IllegalAction, match="discard"):
        h.check()
    h.discard(h.hole[1][4:])  # its third card, 9h
    assert h.actor == 0 and h.legal.discard
    h.discard("Qs")
    assert h.done and h.street == "showdown"
    assert h.hole == ["AsKs", "2c7d", "JhJd3c"]
    assert h.board == BOARD
    assert sum(h.finishing_stacks) == 220
    assert h.payouts[0] == 42 and h.net == [22, -20, -2]


def test_fold_before_the_discard_needs_none():
    h = Hand(Rules(game="crazy_pineapple"), [100] * 3, button=0, hole=HOLE3, board=BOARD)
    h.raise_to(10)
    h.fold()
    h.fold()
    assert h.done and h.street == "done"
    assert h.hole == HOLE3 and h.discards == [None] * 3
    assert h.net == [3, -1, -2]


def test_illegal_discards_leave_the_hand_unchanged():
    h = Hand(Rules(game="pineapple"), [100] * 3, button=0, hole=HOLE3, board=BOARD)
    with pytest.raises(IllegalAction, match="no discard is due"):
        h.discard("As")
    with pytest.raises(IllegalAction, match="no discard is due"):
        h.act("p1 sd As")
    _check_round(h)
    before = (list(h.actions), h.hole, h.actor, h.board)
    bad = [
        (lambda: h.discard("Ad"), "not one of its cards"),
        (lambda: h.discard("Ah"), "not one of its cards"),  # a board card to come
        (lambda: h.discard("As"), "not one of its cards"),  # seat 0's card
        (lambda: h.discard("2c7d"), "one card"),
        (lambda: h.discard("Xx"), "cannot discard"),
        (lambda: h.act("p1 sd 2c"), "is not to act"),
        (lambda: h.act("p2 cc"), "must discard"),
        (lambda: h.act("cbr 10"), "must discard"),
        (lambda: h.fold(), "must discard"),
        (lambda: h.act("p2 sd"), "one card"),
    ]
    for fn, msg in bad:
        with pytest.raises(IllegalAction, match=msg) as e:
            fn()
        assert "\n" not in str(e.value)
        assert (list(h.actions), h.hole, h.actor, h.board) == before
    h.act("p2 sd 9h")
    assert h.hole[1] == "2c7d"
    with pytest.raises(IllegalAction, match="has no discards"):
        Hand(Rules(), [100] * 2, hole=["AsKs", "2c2d"], board=BOARD).act("p1 sd As")


def _random_hand(rules: Rules, stacks: list[int], seed: int) -> Hand:
    rng = random.Random(seed)
    h = Hand(rules, stacks, seed=seed, button=seed % len(stacks))
    while not h.done:
        if h.legal.discard:
            cards = h.hole[h.actor]
            k = rng.randrange(3)
            h.discard(cards[2 * k:2 * k + 2])
            continue
        lg = h.legal
        x = rng.random()
        if x < 0.1 and lg.fold:
            h.fold()
        elif x < 0.3 and lg.min_raise_to is not None:
            h.raise_to(lg.max_raise_to if x < 0.15 else lg.min_raise_to)
        else:
            h.check_or_call()
    return h


@pytest.mark.parametrize("game,discard_after", [("pineapple", None), ("crazy_pineapple", None),
                                                ("pineapple", "turn")])
def test_random_hands_conserve_chips_and_round_trip_phh(game, discard_after):
    rules = Rules(game=game, discard_after=discard_after)
    n_sd = 0
    for seed in range(12):
        n = 2 + seed % 5
        stacks = [40 + 30 * ((seed + s) % 4) for s in range(n)]
        h = _random_hand(rules, stacks, seed)
        assert sum(h.finishing_stacks) == sum(stacks)
        live = [s for s in range(n) if h.live[s]]
        if h.street == "showdown":
            assert all(len(h.hole[s]) == 4 for s in live)
            assert all(h.discards[s] is not None for s in live)
        sd = [a for a in h.actions if " sd " in a]
        n_sd += len(sd)
        text = h.to_phh()
        assert ('variant = "NP"' if game == "pineapple" else 'variant = "NCP"') in text
        assert text.count(" sd ") == len(sd)
        rp = replay(parse_hand(decode_toml(text)))
        assert rp.error is None, rp.error
        assert rp.not_validated is None  # played through the engine, sd actions included
        order = [(h.button + 1 + i) % n for i in range(n)]  # PHH seats: small blind first
        assert rp.finishing_stacks == [h.finishing_stacks[s] for s in order]
    assert n_sd > 10


def test_phh_replay_refuses_a_bad_discard():
    h = Hand(Rules(game="pineapple"), [100] * 2, button=1, hole=["AsKsQs", "2c7d9h"],
             board=BOARD)
    while not h.done:
        if h.legal.discard:
            h.discard(h.hole[h.actor][4:])
        else:
            h.check_or_call()
    good = h.to_phh()
    assert replay(parse_hand(decode_toml(good))).error is None
    bad = good.replace("sd Qs", "sd Qd")
    rp = replay(parse_hand(decode_toml(bad)))
    assert rp.error is not None and "Qd" in rp.error


@pytest.mark.parametrize("game", ["pineapple", "crazy_pineapple"])
@pytest.mark.parametrize("n_seats", [2, 6])
def test_play_same_bits_on_threads_and_python_loop(game, n_seats):
    rules = Rules(game=game)
    stacks = [200] * n_seats
    hands = 300
    a = play(rules, stacks, hands, policy="random", seed=11, threads=1)
    b = play(rules, stacks, hands, policy="random", seed=11, threads=2)
    assert a.net == b.net and sum(a.net) == 0
    net = [0] * n_seats
    discards = 0
    for h in replay_hands(rules, stacks, hands, policy="random", seed=11):
        for s in range(n_seats):
            net[s] += h.net[s]
        discards += sum(d is not None for d in h.discards)
        if h.street == "showdown":
            assert all(len(h.hole[s]) == 4 for s in range(n_seats) if h.live[s])
    assert net == a.net
    assert discards > hands // 4


def test_play_discard_rule_is_made():
    """The built-ins keep the pair making the best hand with the board at the discard
    (preflop: the best pair by the preflop order)."""
    rules = Rules(game="crazy_pineapple")
    for h in replay_hands(rules, [200] * 3, 30, policy="call", seed=5):
        assert h.street == "showdown"
        flop = parse_cards(h.board)[:3]
        for s in range(3):
            kept = parse_cards(h.hole[s])
            three = kept + parse_cards(h.discards[s])
            best = max(strength_of_ids([a, b] + flop)
                       for i, a in enumerate(three) for b in three[i + 1:])
            assert strength_of_ids(kept + flop) == best
    h = next(replay_hands(Rules(game="pineapple"), [200] * 2, [0], policy="call", seed=5))
    assert h.street == "showdown"


def test_python_policy_answers_the_discard():
    seen = []

    def keep_first_two(hand):
        if hand.legal.discard:
            seen.append(hand.hole[hand.actor])
            return f"sd {hand.hole[hand.actor][4:]}"
        return "cc"

    r = play(Rules(game="pineapple"), [100, 100], 40, policy=[keep_first_two, "call"], seed=3,
             threads=1)
    assert sum(r.net) == 0 and len(seen) == 40 and all(len(x) == 6 for x in seen)


def test_cli_play_pineapple(capsys, tmp_path):
    from simulate.cli import main

    out = tmp_path / "h.phhs"
    assert main(["play", "--players", "3", "--game", "crazy_pineapple", "--discard-after",
                 "turn", "--hands", "200", "--seed", "1", "--threads", "1", "--policy",
                 "random", "--phh", str(out), "--phh-hands", "3", "--quiet", "--json"]) == 0
    text = out.read_text()
    assert 'variant = "NCP"' in text
    assert main(["play", "--players", "2", "--discard-after", "flop", "--hands", "10"]) == 2
    assert "discard_after" in capsys.readouterr().err
