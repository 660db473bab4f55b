"""``simulate.engine.play`` through its public API (``play``, ``Rules``, ``PlayResult``):
seeded runs reproducible on any thread count, chips conserved (the nets sum to zero) in
every game and betting structure, and bb/100 and its standard error exactly the arithmetic
of the hands' own nets (recorded hand by hand through a Python policy)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simulate.engine import Rules, play

STACKS = [150, 300, 80, 200]


@pytest.mark.parametrize("rules", [Rules(), Rules(betting="fixed-limit", ante=1),
                                   pytest.param(Rules(game="omaha", betting="pot-limit"),
                                                marks=pytest.mark.slow),
                                   Rules(game="crazy_pineapple", blinds=(2, 4))],
                         ids=["nl-holdem", "fl-holdem-ante", "plo", "crazy-pineapple"])
def test_seeded_runs_are_reproducible_on_any_thread_count(rules):
    kw = {"policy": "random", "seed": 17}
    a = play(rules, STACKS, 6_000, threads=1, **kw)
    b = play(rules, STACKS, 6_000, threads=2, **kw)
    again = play(rules, STACKS, 6_000, threads=1, **kw)
    assert a.net == b.net == again.net
    assert a.std_error == b.std_error and a.bb_per_100 == b.bb_per_100
    assert a.seed == 17 and a.to_dict()["seed"] == 17
    other = play(rules, STACKS, 6_000, threads=1, policy="random", seed=18)
    assert other.net != a.net


@pytest.mark.parametrize("game", ["holdem", "omaha", "omaha5", "pineapple"])
@pytest.mark.parametrize("betting", ["no-limit", "pot-limit", "fixed-limit"])
def test_nets_sum_to_zero(game, betting):
    rules = Rules(game=game, betting=betting, blinds=(1, 2), ante=1)
    stacks = [60, 500, 35, 200, 90]
    chart = "top 20%" if game == "holdem" else "call"  # preflop charts are Hold'em only
    for policy in ("random", ["call", "random", "allin", chart, "random"]):
        r = play(rules, stacks, 3_000, policy=policy, seed=2, threads=1)
        assert sum(r.net) == 0, (policy, r.net)
        assert any(r.net)  # chips did move


def test_unseeded_runs_report_the_seed_they_used():
    r = play(Rules(), STACKS, 2_000, policy="random")
    assert isinstance(r.seed, int)
    assert play(Rules(), STACKS, 2_000, policy="random", seed=r.seed).net == r.net


def test_bb_per_100_and_its_error_are_the_per_hand_arithmetic():
    rules = Rules(blinds=(5, 10))
    stacks = [400, 250, 1000]
    seen: dict[int, object] = {}

    def call_recording(hand):  # the Python loop; 'cc' is the built-in "call" policy
        seen[id(hand)] = hand
        return "cc"

    n = 400
    r = play(rules, stacks, n, policy=call_recording, seed=9)
    assert len(seen) == n  # every hand asked the policy at least once (nobody folds)
    per_hand = np.array([h.net for h in seen.values()], np.float64)
    assert r.net == per_hand.sum(axis=0).astype(int).tolist()
    bb = 10
    assert r.bb_per_100 == pytest.approx((per_hand.sum(axis=0) * 100 / bb / n).tolist(),
                                         rel=1e-12)
    want = per_hand.std(axis=0, ddof=1) / math.sqrt(n) * 100 / bb
    assert r.std_error == pytest.approx(want.tolist(), rel=1e-9)
    # the compiled loop plays the same hands
    c = play(rules, stacks, n, policy="call", seed=9, threads=1)
    assert (c.net, c.bb_per_100) == (r.net, r.bb_per_100)
    assert c.std_error == pytest.approx(r.std_error, rel=1e-12)
    d = c.to_dict()
    assert [p["bb_per_100"] for p in d["players"]] == c.bb_per_100
    assert [p["net"] for p in d["players"]] == c.net and d["hands"] == n


def test_the_error_shrinks_as_one_over_root_hands():
    rules = Rules()
    small = play(rules, STACKS, 20_000, policy="random", seed=1, threads=1)
    big = play(rules, STACKS, 80_000, policy="random", seed=1, threads=1)
    for a, b in zip(small.std_error, big.std_error, strict=True):
        assert 0.4 < b / a < 0.6  # 1/2 for four times the hands


def test_one_hand_has_an_unknown_error():
    r = play(Rules(), STACKS, 1, seed=3)
    assert all(math.isinf(x) for x in r.std_error)
    assert all(p["std_error"] is None for p in r.to_dict()["players"])


@pytest.mark.parametrize("kwargs,message", [
    ({"hands": 0}, "hands must be a positive integer"),
    ({"hands": True}, "hands must be a positive integer"),
    ({"hands": 10, "button": 4}, "button must be a seat 0..3"),
    ({"hands": 10, "threads": 0}, "threads must be a positive integer"),
])
def test_bad_arguments_are_one_line_errors(kwargs, message):
    with pytest.raises(ValueError, match=message) as e:
        play(Rules(), STACKS, **kwargs)
    assert "\n" not in str(e.value)


def test_rules_must_be_rules():
    with pytest.raises(ValueError, match="rules must be a simulate.engine.Rules"):
        play("holdem", STACKS, 10)  # type: ignore[arg-type]


def test_two_compiled_loops_serve_every_game_and_betting():
    """Plain Hold'em runs its own loop; every other game shares one loop, the variant read
    at run time (so the first play of another game or betting compiles nothing)."""
    from simulate._kernels import play as kernels

    def loops() -> int:
        return len(kernels.play_block.signatures)

    play(Rules(), [100, 100], 50, seed=1)
    hold_em = loops()
    for betting in ("no-limit", "pot-limit", "fixed-limit"):
        play(Rules(betting=betting, ante=1), [100] * 6, 50, policy="random", seed=1)
    assert loops() == hold_em
    play(Rules(game="omaha", betting="fixed-limit"), [100] * 3, 50, policy="random", seed=1)
    general = loops()
    assert general <= hold_em + 1
    for rules, seats in [(Rules(game="pineapple"), 10), (Rules(game="crazy_pineapple"), 4),
                         (Rules(game="omaha6", betting="pot-limit"), 5),
                         (Rules(game="omaha5", betting="no-limit", bb_ante=True, ante=2), 2)]:
        r = play(rules, [100] * seats, 50, policy="random", seed=1)
        assert sum(r.net) == 0
    assert loops() == general
    # one thread calls play_block block by block, several threads call it at once: the
    # same compiled play_block (no loop of their own)
    play(Rules(), [100, 100], 3 * 2048, seed=1, threads=2)
    play(Rules(game="omaha", betting="fixed-limit"), [100] * 3, 3 * 2048, policy="random",
         seed=1, threads=2)
    assert loops() == general
