"""Pineapple and Crazy Pineapple equity (simulate.pineapple): Hold'em after the discard,
the discard policies, and the walk and sampling before the discard against brute force."""

from __future__ import annotations

import math
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from helpers import default_ctrl_c, examples
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import (
    pineapple_keep_made,
    pineapple_walk,
    vs_random_twice_wins_ties,
)

from evaluator.cards import CardError, cards_str, parse_cards
from simulate import equity
from simulate.pineapple import (
    DISCARD_AFTER,
    choose_discards,
    flop_classes,
    flop_table,
    pineapple_equity,
)

ROOT = Path(__file__).resolve().parents[1]


def _deal(rng: random.Random, n_players: int, n_hole: int, n_board: int):
    cards = rng.sample(range(52), n_players * n_hole + n_board + 4)
    hands = [cards[i * n_hole:(i + 1) * n_hole] for i in range(n_players)]
    at = n_players * n_hole
    return hands, cards[at:at + n_board], cards[at + n_board:]


# ----------------------------------------------------------------------------- after the discard
@pytest.mark.parametrize("n_players", [2, 3, 6, 10])
@pytest.mark.parametrize("n_board", [0, 3, 4, 5])
def test_after_discard_is_holdem_with_discards_dead(n_players, n_board):
    rng = random.Random(n_players * 10 + n_board)
    hands, board, extra = _deal(rng, n_players, 2, n_board)
    discards = extra[:n_players] if n_players <= 4 else extra[:4]
    game = "pineapple" if n_board < 3 else "crazy_pineapple"
    texts = [cards_str(h) for h in hands]
    kw = dict(seed=7, samples=30_000) if n_board == 0 and n_players > 3 else {}
    ours = equity(texts, cards_str(board), game=game, discards=cards_str(discards), **kw)
    ref = equity(texts, cards_str(board), dead=cards_str(discards), **kw)
    assert ours.game == game and ours.dead == ref.dead
    assert ours.exact == ref.exact and ours.samples == ref.samples
    for a, b in zip(ours.players, ref.players, strict=True):
        assert (a.hand, a.equity, a.win, a.tie, a.categories) == (b.hand, b.equity, b.win,
                                                                  b.tie, b.categories)


def test_at_discard_point_the_discards_are_fixed_and_the_rest_is_holdem():
    hands = ["AhKh2c", "7s7d8c", "QcJc3d"]
    res = pineapple_equity(hands, "2d2s9h", game="crazy_pineapple")
    thrown = res.extra["discards"]
    kept = [cards_str([c for c in parse_cards(h) if cards_str([c]) != t])
            for h, t in zip(hands, thrown, strict=True)]
    ref = equity(kept, "2d2s9h", dead="".join(thrown))
    assert [p.hand for p in res.players] == ["Ah Kh 2c".replace(" ", ""), "7s7d8c", "QcJc3d"]
    assert [p.equity for p in res.players] == [p.equity for p in ref.players]
    assert thrown == ["Kh", "8c", "3d"]  # trips of deuces; the set; the Q-J (made: high card)


# ----------------------------------------------------------------------------- policies
@settings(max_examples=examples(60), deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(list(DISCARD_AFTER)),
       st.integers(2, 6))
def test_made_policy_matches_rules_reference(rnd, after, n_players):
    hands, board, _ = _deal(rnd, n_players, 3, 5)
    got = choose_discards(hands, board, discard_after=after, policy="made")
    seen = board[:DISCARD_AFTER[after]]
    assert got == [pineapple_keep_made(h, seen) for h in hands]


@pytest.mark.slow
@settings(max_examples=examples(40), deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(list(DISCARD_AFTER)),
       st.sampled_from(["made", "equity"]), st.integers(2, 6))
def test_policy_sees_no_hidden_information(rnd, after, policy, n_players):
    """Changing the other players' cards and the cards to come never changes a discard."""
    hands, board, _ = _deal(rnd, n_players, 3, 5)
    mine = choose_discards(hands, board, discard_after=after, policy=policy)[0]
    seen = board[:DISCARD_AFTER[after]]
    free = [c for c in range(52) if c not in set(hands[0]) | set(seen)]
    rnd.shuffle(free)
    others = [free[3 * i:3 * i + 3] for i in range(n_players - 1)]
    to_come = free[3 * (n_players - 1):3 * (n_players - 1) + 5 - len(seen)]
    again = choose_discards([hands[0], *others], seen + to_come, discard_after=after,
                            policy=policy)
    assert again[0] == mine
    # alone, with only what the player saw
    assert choose_discards([hands[0], others[0]], seen, discard_after=after,
                           policy=policy)[0] == mine


def test_strong_policy_turn_counts_match_brute_force():
    from evaluator._tables import get_tables
    from simulate._kernels.pineapple import vs_random_counts
    from simulate.ranges import combo_index

    board = parse_cards("Ks9d4c2h")
    cnt = np.zeros(1326, np.int64)
    vs_random_counts(np.array(board, np.int64), 4, get_tables().kernel_args, cnt)
    for hand in ("AhKd", "9s4s", "3c5d", "QhJh"):
        ids = parse_cards(hand)
        assert cnt[combo_index(*ids)] == vs_random_twice_wins_ties(ids, board)
    assert cnt[combo_index(*parse_cards("Ks2c"))] == 0  # touches the board


def test_strong_policy_flop_table_row_matches_brute_force():
    """One flop-table row, read through a suit permutation of the flop, against brute force
    for a few pairs (the table is per suit-class of flops)."""
    from simulate.ranges import combo_index

    flop_id, flop_class, flop_perm, canon = flop_classes()
    assert canon.shape == (1755, 3)
    flop = parse_cards("Td7h2h")
    f = flop_id[(flop[0] * 52 + flop[1]) * 52 + flop[2]]
    table = flop_table([int(flop_class[f])])
    perm = flop_perm[f]
    for hand in ("AhQh", "7c7d"):
        ids = parse_cards(hand)
        mapped = [(c & ~3) | int(perm[c & 3]) for c in ids]
        got = int(table[flop_class[f], combo_index(*mapped)])
        assert got == vs_random_twice_wins_ties(ids, flop)


def test_strong_policy_keeps_the_pair_with_more_equity():
    flop = parse_cards("Td7h2h")
    a, b, c = parse_cards("AhQhTs")
    kept = {c: (a, b), b: (a, c), a: (b, c)}  # card thrown -> pair kept
    counts = {t: vs_random_twice_wins_ties(k, flop) for t, k in kept.items()}
    want = max(counts, key=counts.get)
    got = choose_discards(["AhQhTs", "3c3d4s"], "Td7h2h", discard_after="flop",
                          policy="equity")[0]
    assert got == want


# ----------------------------------------------------------------------------- before the discard
def test_exact_before_discard_matches_brute_force_made():
    """Crazy Pineapple from three cards before the flop, heads-up, most of the deck dead."""
    rng = random.Random(3)
    hands, _board, _ = _deal(rng, 2, 3, 0)
    left = [c for c in range(52) if c not in {c for h in hands for c in h}]
    dead = rng.sample(left, 31)
    res = pineapple_equity([cards_str(h) for h in hands], "", cards_str(dead),
                           game="crazy_pineapple", exact=True)
    ref, n = pineapple_walk(hands, [], dead, 3, pineapple_keep_made)
    assert res.exact and res.samples == n
    for p, r in zip(res.players, ref, strict=True):
        assert p.equity == pytest.approx(float(r), abs=1e-12)
    assert sum(p.equity for p in res.players) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("policy", ["made", "equity"])
def test_exact_turn_discard_matches_brute_force(policy):
    """The rule text's Crazy Pineapple (discard after the turn) from the flop, three players,
    with the strong policy computed on each turn."""
    rng = random.Random(11)
    hands, board, _ = _deal(rng, 3, 3, 3)
    left = [c for c in range(52) if c not in set(board) | {c for h in hands for c in h}]
    dead = rng.sample(left, 24)

    def discard(h, seen):
        if policy == "made":
            return pineapple_keep_made(h, seen)
        return choose_discards([h], seen, discard_after="turn", policy="equity")[0]

    res = equity([cards_str(h) for h in hands], cards_str(board), cards_str(dead),
                 game="crazy_pineapple", discard_after="turn", discard_policy=policy,
                 exact=True)
    ref, n = pineapple_walk(hands, board, dead, 4, discard)
    assert res.samples == n
    assert [p.equity for p in res.players] == pytest.approx([float(r) for r in ref], abs=1e-12)


@pytest.mark.slow
def test_monte_carlo_before_discard_agrees_with_exact_and_is_thread_independent():
    hands = ["AhKh2c", "7s7d8c"]
    dead = "2s3s4s5s6s8s9sTsJsQsKsAs"
    ex = pineapple_equity(hands, "", dead, game="crazy_pineapple", exact=True)
    mc1 = pineapple_equity(hands, "", dead, game="crazy_pineapple", samples=60_000, seed=5,
                           threads=1)
    mc2 = pineapple_equity(hands, "", dead, game="crazy_pineapple", samples=60_000, seed=5,
                           threads=2)
    assert [p.equity for p in mc1.players] == [p.equity for p in mc2.players]
    assert not mc1.exact and mc1.samples == 60_000 and mc1.extra["seed"] == 5
    for e, m in zip(ex.players, mc1.players, strict=True):
        assert abs(e.equity - m.equity) < 5 * m.std_error + 1e-9
    assert sum(p.equity for p in mc1.players) == pytest.approx(1.0, abs=1e-9)
    assert math.isclose(sum(p.equity for p in ex.players), 1.0, abs_tol=1e-12)


@pytest.mark.parametrize("after", ["flop", "turn"])
def test_sums_to_one_many_players(after):
    rng = random.Random(2)
    hands, _b, _ = _deal(rng, 6, 3, 0)
    res = pineapple_equity([cards_str(h) for h in hands], "", game="crazy_pineapple",
                           discard_after=after, samples=20_000, seed=1)
    assert sum(p.equity for p in res.players) == pytest.approx(1.0, abs=1e-9)
    assert res.extra["discard_after"] == after and res.extra["discard_policy"] == "made"


# ----------------------------------------------------------------------------- errors
@pytest.mark.parametrize("hands, board, kw, msg", [
    (["AhKh", "7s7d8c"], "", {}, "hand 1 has 2 cards but the board"),
    (["AhKhQhJh", "7s7d8c"], "", {}, "hand 1 has 4 cards"),
    (["AhKh2c", "7s7d8c"], "2d2s9h4c", {}, "hand 1 has 3 cards but the board"),
    (["AhKh2c", "7s7d"], "2d2s9h", {}, "hands have 2 and 3 cards"),
    (["AhKh2c", "7s7d8c"], "", {"discards": "2d"}, "discards are given after the discard"),
    (["AhKh", "7s7d"], "2d2s9h", {"discards": "Ah"}, "Ah"),
    (["AhKh2c", "7s7d8c"], "", {"discard_policy": "best"}, "unknown discard policy"),
    (["AhKh2c", "7s7d8c"], "", {"discard_after": "river"}, "unknown discard_after"),
])
def test_errors_are_one_line(hands, board, kw, msg):
    with pytest.raises(CardError) as e:
        equity(hands, board, game="crazy_pineapple", **kw)
    assert msg in str(e.value) and "\n" not in str(e.value)


def test_discard_options_rejected_for_other_games():
    with pytest.raises(CardError, match="pineapple"):
        equity(["AhKh", "7s7d"], discard_after="flop")


# ----------------------------------------------------------------------------- all in
def test_allin_before_discard_heads_up_is_pot_times_equity():
    from simulate import allin_ev

    dead = "2s3s4s5s6s8s9sTsJsQsKsAs"
    for policy in ("made", "equity"):
        kw = dict(game="crazy_pineapple", discard_after="turn", discard_policy=policy)
        r = allin_ev(["AhKh2c:100", "7s7d8c:100"], "Qh9c3d", dead, **kw)
        e = equity(["AhKh2c", "7s7d8c"], "Qh9c3d", dead, **kw)
        assert r.exact and r.samples == e.samples
        for p, q in zip(r.players, e.players, strict=True):
            assert p.expected_payout == pytest.approx(200 * q.equity, abs=1e-9)


@pytest.mark.slow
def test_allin_side_pots_sampled_thread_independent_and_complete():
    from simulate import allin_ev

    seats = ["AhKh2c:100", "7s7d8c:50", "QcJc3d:100"]
    a = allin_ev(seats, game="crazy_pineapple", samples=40_000, seed=9, threads=1)
    b = allin_ev(seats, game="crazy_pineapple", samples=40_000, seed=9, threads=2)
    assert [p.expected_payout for p in a.players] == [p.expected_payout for p in b.players]
    assert sum(p.expected_payout for p in a.players) == pytest.approx(250)
    assert a.game == "crazy_pineapple" and not a.exact


def test_allin_at_and_after_discard_is_holdem():
    from simulate import allin_ev

    at = allin_ev(["AhKh2c:100", "7s7d8c:60"], "Ks8h3c", game="crazy_pineapple")
    ref = allin_ev(["AhKh:100", "7d8c:60"], "Ks8h3c", "2c7s")
    assert at.dead == ref.dead == "2c7s"
    assert [p.expected_payout for p in at.players] == [p.expected_payout for p in ref.players]
    after = allin_ev(["AhKh:100", "7d8c:60"], "Ks8h3c", "2c7s", game="crazy_pineapple")
    assert [p.expected_payout for p in after.players] == [p.expected_payout for p in ref.players]
    with pytest.raises(CardError, match="seat 1 has 2 cards but the board"):
        allin_ev(["AhKh2c:100", "7s7d:60"], game="crazy_pineapple")


# ----------------------------------------------------------------------------- command line
def _cli(capsys, *argv):
    from simulate.cli import main

    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_cli_equity_before_and_after_discard(capsys):
    import json

    rc, out, err = _cli(capsys, "equity", "AhKh2c", "7s7d8c", "--game", "crazy_pineapple",
                        "--board", "Ks8h3c", "--discard-policy", "equity", "--json")
    assert rc == 0 and err == ""
    d = json.loads(out)
    assert d["game"] == "crazy_pineapple" and d["discard_after"] == "flop"
    assert d["discard_policy"] == "equity" and len(d["discards"]) == 2
    assert [p["hand"] for p in d["players"]] == ["AhKh2c", "7s7d8c"]
    rc, out, _ = _cli(capsys, "equity", "AhKh", "7d8c", "--game", "pineapple", "--board",
                      "Ks8h3c", "--discards", "2c7s")
    assert rc == 0 and "dead 2c7s" in out and "discard after the preflop betting" in out
    rc, out, _ = _cli(capsys, "equity", "AhKh2c", "7s7d8c", "--game", "crazy_pineapple",
                      "--discard-after", "turn", "--samples", "20000", "--seed", "4")
    assert rc == 0 and "discard after the turn betting by the made policy" in out


@pytest.mark.parametrize("argv, msg", [
    (["equity", "AhKh", "7s7d8c", "--game", "crazy_pineapple"], "hand 1 has 2 cards"),
    (["equity", "AhKh2c", "7s7d8c", "--game", "pineapple", "--discards", "3c"],
     "discards are given after the discard"),
    (["equity", "AhKh", "7s7d", "--discard-policy", "equity"], "not holdem"),
    (["allin", "AhKh2c3c4c:100", "7s7d8c:100", "--game", "pineapple"], "seat 0 has 5 cards"),
])
def test_cli_errors(capsys, argv, msg):
    rc, out, err = _cli(capsys, *argv)
    assert rc == 2 and out == ""
    assert err.startswith("error: ") and msg in err and err.count("\n") == 1


def test_monte_carlo_strong_turn_discard_agrees_with_exact():
    """The sampled strong policy on the turn (count rows kept per turn card in each block)."""
    hands = ["AhKh2c", "7s7d8c", "QcJc3d"]
    dead = "2s3s4s5s6s8s9sTsJsQsKs"
    kw = dict(game="crazy_pineapple", discard_after="turn", discard_policy="equity")
    ex = equity(hands, "Qh9c3h", dead, exact=True, **kw)
    mc = equity(hands, "Qh9c3h", dead, samples=40_000, seed=2, **kw)
    for e, m in zip(ex.players, mc.players, strict=True):
        assert abs(e.equity - m.equity) < 5 * m.std_error


# ----------------------------------------------------------------------------- the turn table
def test_turn_classes_cover_every_turn_once():
    from simulate.pineapple import turn_classes

    turn_class, turn_perm, canon = turn_classes()
    assert canon.shape == (16432, 4) and turn_class.max() == 16431
    assert np.bincount(turn_class).min() >= 1  # every class has a turn
    rng = random.Random(5)
    for _ in range(200):  # the suit map takes a turn onto its class's canonical turn
        t = sorted(rng.sample(range(52), 4))
        i = t[0] + math.comb(t[1], 2) + math.comb(t[2], 3) + math.comb(t[3], 4)
        mapped = sorted((c & ~3) | int(turn_perm[i][c & 3]) for c in t)
        assert mapped == canon[turn_class[i]].tolist()


@pytest.mark.slow
@settings(max_examples=examples(25), deadline=None)
@given(st.randoms(use_true_random=False), st.integers(2, 5))
def test_strong_policy_on_the_turn_reads_the_table_as_the_counts_say(rnd, n_players):
    """The turn table, read through the board's suit map, keeps the pair the counts of the
    board itself (vs_random_counts) would keep, on random turns and hands."""
    from evaluator._tables import get_tables
    from simulate._kernels.pineapple import vs_random_counts
    from simulate.pineapple import preflop_scores
    from simulate.ranges import combo_index

    hands, board, _ = _deal(rnd, n_players, 3, 4)
    cnt = np.zeros(1326, np.int64)
    vs_random_counts(np.array(board, np.int64), 4, get_tables().kernel_args, cnt)
    pre = preflop_scores()
    want = []
    for h in hands:
        a, b, c = sorted(h)
        keeps = {c: (a, b), b: (a, c), a: (b, c)}  # card thrown -> pair kept, in kernel order
        score = {t: int(cnt[combo_index(*k)]) * 256 + int(pre[combo_index(*k)])
                 for t, k in keeps.items()}
        want.append(max(score, key=lambda t: (score[t], -[c, b, a].index(t))))
    assert choose_discards(hands, board, discard_after="turn", policy="equity") == want


def test_turn_table_row_matches_brute_force():
    from simulate.pineapple import _turn_class, turn_classes, turn_table
    from simulate.ranges import combo_index

    turn = parse_cards("Ks9d4c2h")
    cls = _turn_class(turn)
    t = sorted(turn)
    perm = turn_classes()[1][t[0] + math.comb(t[1], 2) + math.comb(t[2], 3) + math.comb(t[3], 4)]
    row = turn_table([cls])[cls]
    for hand in ("AhKd", "9s4s", "3c5d"):
        ids = parse_cards(hand)
        mapped = [(c & ~3) | int(perm[c & 3]) for c in ids]
        assert int(row[combo_index(*mapped)]) == vs_random_twice_wins_ties(ids, turn)


@pytest.mark.slow
def test_default_strong_turn_discard_answers_in_seconds_and_says_how_many():
    """The issue's request: no --samples, the strong policy on the turn from preflop. With
    the turn table (built once, cached) the deals are table reads: far more than the ~2,500
    deals 3 s drew when each deal computed its turn, and the answer says how it was sized."""
    import json

    from simulate.pineapple import turn_table

    turn_table(None)  # built (or loaded) once, as a first run would
    p = subprocess.run([sys.executable, "-m", "simulate", "equity", "AhKh2c", "7s7d8c",
                        "--game", "crazy_pineapple", "--discard-after", "turn",
                        "--discard-policy", "equity", "--json"], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["exact"] is False and d["samples"] > 50_000
    assert d["default_samples"]["deals"] == d["samples"]
    assert d["default_samples"]["stopped_by"] in ("cap", "time")


@pytest.mark.slow
def test_ctrl_c_while_the_turn_table_is_built(tmp_path):
    """SIGINT during the one-time build of the turn table: exit 130 within ~2 s; the rows
    built so far are kept in the cache file."""
    env = dict(os.environ, POKERJIT_DATA_CACHE=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "simulate", "equity", "AhKh2c", "7s7d8c",
                             "--game", "crazy_pineapple", "--discard-after", "turn",
                             "--discard-policy", "equity", "--samples", "1000"], cwd=ROOT,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, preexec_fn=default_ctrl_c)
    assert proc.stderr is not None
    for line in proc.stderr:
        if line.startswith("pineapple turn table (once)"):
            break
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    rest = proc.stderr.read()
    assert proc.wait(timeout=30) == 130 and time.monotonic() - t0 < 2.5, rest
    with np.load(tmp_path / "pineapple_turn_v1.npz") as z:
        assert 0 < int(z["done"].sum()) < 16432
