"""``simulate.engine.play`` is honest: fair results, the right payouts, the same bits anywhere.

* ``call`` everywhere is a symmetric game under the moving button: every seat's bb/100
  must be within 4 standard errors of 0 (2 and 6 seats, 10**6 hands in the slow set and
  10**5 in the default run).
* A policy that moves all in before the flop: hand by hand (the hands of a run are
  rebuilt from the seed with :func:`simulate.engine.self_play.replay_hands`), the chips each seat
  gets
  are what :func:`simulate.allin_ev` computes for the same cards on the board dealt, and
  the run's net per seat is the sum of those hands' nets.
* The same seed gives the same bits on 1 and 2 threads, and through the compiled loop
  and the Python loop.
"""

from __future__ import annotations

import pytest

from simulate import allin_ev
from simulate.engine import Rules, play
from simulate.engine.self_play import replay_hands


def _fair(n_seats: int, hands: int, seed: int) -> None:
    r = play(Rules(), [200] * n_seats, hands, policy="call", seed=seed, threads=1)
    assert r.hands == hands and sum(r.net) == 0
    for seat, (x, se) in enumerate(zip(r.bb_per_100, r.std_error, strict=True)):
        assert 0 < se < 5, (seat, se)
        assert abs(x) <= 4 * se, (seat, x, se)


@pytest.mark.parametrize("n_seats", [2, 6])
def test_call_down_is_fair(n_seats):
    _fair(n_seats, 100_000, seed=2024 + n_seats)


@pytest.mark.slow
@pytest.mark.parametrize("n_seats", [2, 6])
def test_call_down_is_fair_million_hands(n_seats):
    _fair(n_seats, 1_000_000, seed=7 + n_seats)


def _specs(h) -> tuple[list[str], int]:
    """The hand's seats as ``allin`` specs (chips committed beyond the antes) and the antes."""
    specs = []
    for s in range(h.n):
        chips = h.committed[s] - h.antes[s]
        specs.append(f"{h.hole[s]}:{chips}" if h.live[s] else f"fold:{chips}")
    return specs, sum(h.antes)


@pytest.mark.parametrize("rules, stacks", [
    (Rules(), [100, 250, 40]),
    (Rules(blinds=(5, 10)), [1000, 35, 400, 400, 12, 990]),
    (Rules(ante=2), [60, 300, 7, 150, 45, 300, 90, 3, 500]),
    (Rules(blinds=(1, 2)), [200, 200]),
])
def test_all_in_preflop_pays_what_allin_ev_says(rules, stacks):
    hands, seed = 400, 99
    total = [0] * len(stacks)
    for h in replay_hands(rules, stacks, hands, policy="allin", seed=seed):
        assert h.done and len(h.board) == 10
        assert all(b == 0 for b in h.bets) or h.street in ("showdown", "done")
        specs, dead = _specs(h)
        if sum(h.live) > 1:
            r = allin_ev(specs, board=h.board, button=h.button, dead_money=dead,
                         allow_zero=True)
            assert r.exact
            want = [p.expected_payout for p in r.players]
            assert h.payouts == want, (specs, h.board, h.button)
        for s, x in enumerate(h.net):
            total[s] += x
    r = play(rules, stacks, hands, policy="allin", seed=seed, threads=1)
    assert r.net == total  # the compiled loop played the same hands


def test_same_bits_on_one_and_two_threads():
    rules = Rules(blinds=(1, 2))
    a = play(rules, [150, 300, 80, 200, 400, 120], 30_000, policy="random", seed=5, threads=1)
    b = play(rules, [150, 300, 80, 200, 400, 120], 30_000, policy="random", seed=5, threads=2)
    assert a.net == b.net and a.std_error == b.std_error and a.bb_per_100 == b.bb_per_100
    c = play(rules, [150, 300, 80, 200, 400, 120], 30_000, policy="random", seed=6, threads=1)
    assert c.net != a.net


def test_a_first_run_keeps_its_threads_as_nothing_more_is_compiled_for_them(monkeypatch):
    """Threads play blocks by calling the one compiled block loop at once (it releases the
    GIL): no parallel loop exists to compile, so a first run in a one-answer program keeps
    the threads it was given or the default, and any thread count gives the same bits."""
    import evaluator._first_run as jit
    import simulate._kernels.play as P
    from evaluator._jit import resolve_threads

    assert not hasattr(P, "play_parallel") and P.play_block.targetoptions["nogil"]
    rules = Rules(blinds=(1, 2))
    stacks = [150, 300, 80, 200]
    hands = 5 * 2048 + 7  # blocks enough for every thread, and a short last one
    one = play(rules, stacks, hands, policy="random", seed=4, threads=1)
    monkeypatch.setattr(jit, "ready", lambda kernel: False)
    monkeypatch.setattr(jit, "SERIAL_FIRST_RUNS", True)
    first = play(rules, stacks, hands, policy="random", seed=4)
    assert first.extra["threads"] == resolve_threads(None) and first.net == one.net
    three = play(rules, stacks, hands, policy="random", seed=4, threads=3)
    assert three.extra["threads"] == resolve_threads(3) and three.net == one.net
    assert three.std_error == one.std_error


def test_play_checks_its_table_as_a_hand_does():
    """``play`` refuses a table with the one check a Hand makes (straddles, cards), before
    any kernel runs."""
    from simulate.engine import Hand

    for rules, stacks in ((Rules(straddles=(4,)), [100, 100]),
                          (Rules(game="omaha6", betting="pot-limit"), [100] * 8)):
        with pytest.raises(ValueError) as by_hand:
            Hand(rules, stacks)
        with pytest.raises(ValueError) as by_play:
            play(rules, stacks, 10, seed=1)
        assert str(by_play.value) == str(by_hand.value)


def test_compiled_and_python_loops_play_the_same_hands():
    rules = Rules(betting="pot-limit", game="omaha")
    stacks = [100, 300, 50, 200]
    r = play(rules, stacks, 500, policy="random", seed=11, threads=1)
    total = [0] * len(stacks)
    for h in replay_hands(rules, stacks, 500, policy="random", seed=11):
        for s, x in enumerate(h.net):
            total[s] += x
    assert r.net == total
    # a plain Python callable takes the Python loop: 'cc' is the call policy
    assert play(rules, stacks, 300, policy=lambda h: "cc", seed=3).net == \
        play(rules, stacks, 300, policy="call", seed=3).net


def test_random_policy_is_the_contracts():
    """Contract: ``random`` (facing a bet or not: 15 % fold -- a check when there is
    nothing to call --, 65 % check or call, 20 % raise, half to the minimum and half all
    in, a call when raising is not allowed). Each decision of a run is replayed on a fresh
    hand dealt from the same seed, so the legal set it faced is known."""
    import math

    from simulate.engine import Hand

    rules, stacks, seed = Rules(), [120, 400, 60, 250, 400, 90], 21
    counts = {"bet": [0, 0, 0, 0], "free": [0, 0, 0, 0], "no_raise": [0, 0, 0]}
    # [fold, check or call, raise to the minimum, all in]; no_raise: facing a bet, no raise
    for i, h in enumerate(replay_hands(rules, stacks, 1500, policy="random", seed=seed)):
        r = Hand(rules, stacks, button=h.button, seed=seed, hand_index=i)
        assert r.hole == h.hole
        for a in h.actions:
            if a.startswith("d ") or " sm " in a:
                continue
            lg = r.legal
            kind = a.split()[1]
            if lg.min_raise_to is None:
                if lg.call is not None:
                    counts["no_raise"][{"f": 0, "cc": 1, "cbr": 2}[kind]] += 1
                else:
                    assert kind == "cc"
            elif lg.min_raise_to < lg.max_raise_to:
                c = counts["bet" if lg.call is not None else "free"]
                if kind == "cbr":
                    c[2 if int(a.split()[2]) == lg.min_raise_to else 3] += 1
                else:
                    c[0 if kind == "f" else 1] += 1
            r.act(a)
        assert r.finishing_stacks == h.finishing_stacks
    assert counts["no_raise"][2] == 0 and counts["free"][0] == 0  # no raise, no free fold

    def near(k: int, n: int, p: float) -> bool:
        return abs(k - n * p) <= 5 * math.sqrt(n * p * (1 - p))

    bet, free = counts["bet"], counts["free"]
    n_bet, n_free = sum(bet), sum(free)
    assert n_bet > 1000 and n_free > 1000
    assert near(bet[0], n_bet, 0.15) and near(bet[1], n_bet, 0.65)
    assert near(bet[2], n_bet, 0.10) and near(bet[3], n_bet, 0.10)
    assert near(free[1], n_free, 0.80)  # the 15 % fold is a check
    assert near(free[2], n_free, 0.10) and near(free[3], n_free, 0.10)
    nr = counts["no_raise"]
    assert nr[0] + nr[1] > 200 and near(nr[0], nr[0] + nr[1], 0.15)  # the raise is a call
