"""The cross-engine sampling contract (simulate/sampling.py, simulate/_kernels/rng.py).

One parametrised set of checks for every Monte Carlo engine -- Hold'em hands, ranges,
Omaha, and all-ins (exact hands, ranges, Omaha) -- instead of a copy per engine:

* the same seed gives the same bits on 1 and 2 threads, and however the blocks are grouped
  into rounds; another seed gives other bits;
* exactly the samples asked for; one draw has an unknown (null) standard error;
* standard errors against the per-deal variance worked out from the exact answer
  (heads-up a deal's pot share is 0, 1/2 or 1, so ``E[X^2] = win + tie / 4``), not only
  "the estimate lands within 4 of its own standard errors" -- which an inflated standard
  error would pass -- and z-scores over many seeds (mean near 0, spread near 1);
* ``samples`` with ``target_std_error``: whichever comes first;
* one set of limits, every bad option refused by name;
* the shared draws: the exactly uniform deal (chi-square), its in-place and read-only forms
  agree, and the weighted combo-tuple draw deals each card-disjoint tuple in proportion to
  its weight product;
* long runs: rounds between which Ctrl-C stops a real ``pokerjit equity`` process (exit 130,
  ``error: interrupted``) and progress is reported.
"""

from __future__ import annotations

import io
import itertools
import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest
from helpers import default_ctrl_c

from evaluator._jit import serial
from simulate import allin_ev, equity
from simulate import sampling as S
from simulate._kernels.rng import deal, deal_setup, draw5, draw_tuple, pick5, stream_state
from simulate.sampling import BLOCK, MAX_SAMPLES, Sampling


# ----------------------------------------------------------------------------- the engines
@dataclass
class Engine:
    """One Monte Carlo engine on one spot: ``run(**opts)`` -> (values, std errors, samples,
    result), ``exact()`` -> values; ``scale`` turns a pot share into the engine's unit."""

    name: str
    call: Callable[..., object]
    kind: str  # "equity" or "allin"
    scale: float = 1.0

    def run(self, **kw: object) -> tuple[list[float], list[float | None], int, object]:
        r = self.call(**kw)
        if self.kind == "equity":
            vals = [p.equity for p in r.players]
            ses = [p.std_error for p in r.players]
        else:
            vals = [p.expected_payout for p in r.players if p.live]
            ses = [p.std_error for p in r.players if p.live]
        return vals, ses, r.samples, r

    def exact(self) -> list[float]:
        return self.run(exact=True)[0]


def _eq(hands: list[str], board: str = "", game: str = "holdem") -> Callable[..., object]:
    return lambda **kw: equity(hands, board, game=game, **kw)


def _allin(specs: list[str], board: str = "", game: str = "holdem") -> Callable[..., object]:
    return lambda **kw: allin_ev(specs, board, game=game, **kw)


ENGINES = [
    Engine("holdem", _eq(["AhKh", "QsQd", "7c7d"], "Ks8h2c"), "equity"),
    Engine("ranges", _eq(["AA,KK,AKs", "AK:0.5,QQ", "random"], "Qd7d2c5h"), "equity"),
    Engine("omaha", _eq(["AhAsKhKs", "QdJdTc9c", "8c8d7h6s"], "2c5h9s", "omaha"), "equity"),
    Engine("allin", _allin(["AhAs:100", "KdKc:60", "QhQs:30", "JcJd:130", "fold:25"]),
           "allin"),
    Engine("allin-ranges", _allin(["QQ+:100", "AhKh:60", "random:30", "fold:10"], "Ks8h2c4d"),
           "allin"),
    Engine("allin-omaha", _allin(["AhAsKhKs:100", "QdJdTc9c:60", "8c8d7h6s:60"], "2c5h9s",
                                 "omaha"), "allin"),
]
# heads-up spots with one pot (300 chips for the all-ins: payout = 300 x pot share), with
# the same spot as an equity request for the exact win/tie/equity
HEADS_UP = [
    (Engine("holdem", _eq(["AcKd", "AdKc"], "Qh7s2d"), "equity"),  # many split pots
     (["AcKd", "AdKc"], "Qh7s2d", "holdem")),
    (Engine("ranges", _eq(["QQ+,AKs", "random"], "Td9d2c"), "equity"),
     (["QQ+,AKs", "random"], "Td9d2c", "holdem")),
    (Engine("omaha", _eq(["AhKh2c3d", "AdKd2h3s"], "QcJs9h", "omaha"), "equity"),
     (["AhKh2c3d", "AdKd2h3s"], "QcJs9h", "omaha")),
    (Engine("allin", _allin(["AhKh:150", "QsQd:150"], "Ks8h2c"), "allin", 300.0),
     (["AhKh", "QsQd"], "Ks8h2c", "holdem")),
    (Engine("allin-ranges", _allin(["QQ+,AKs:150", "random:150"], "Td9d2c"), "allin", 300.0),
     (["QQ+,AKs", "random"], "Td9d2c", "holdem")),
    (Engine("allin-omaha", _allin(["AhKh2c3d:150", "AdKd2h3s:150"], "QcJs9h", "omaha"),
            "allin", 300.0),
     (["AhKh2c3d", "AdKd2h3s"], "QcJs9h", "omaha")),
]
IDS = [e.name for e in ENGINES]


def _bits(r: object) -> object:
    d = r.to_dict()  # type: ignore[attr-defined]
    d.pop("elapsed_s")
    return d


# ----------------------------------------------------------------------------- determinism
@pytest.mark.parametrize("eng", ENGINES, ids=IDS)
def test_same_seed_same_bits_on_any_thread_count(eng):
    n = 2 * BLOCK + 7  # the last block cut short
    a = eng.run(samples=n, seed=42, threads=1)[3]
    b = eng.run(samples=n, seed=42, threads=2)[3]
    c = eng.run(samples=n, seed=43, threads=2)[3]
    assert _bits(a) == _bits(b)
    assert _bits(a) != _bits(c)
    assert a.samples == n  # type: ignore[attr-defined]


@pytest.mark.parametrize("eng", ENGINES, ids=IDS)
def test_rounds_do_not_change_the_bits(eng, monkeypatch):
    """One block per round (a round ends after any time) gives the bits of the default."""
    n = 3 * BLOCK + 11
    a = eng.run(samples=n, seed=7, threads=2)[3]
    monkeypatch.setattr(S, "ROUND_S", 0.0)
    b = eng.run(samples=n, seed=7, threads=2)[3]
    assert _bits(a) == _bits(b)


@pytest.mark.parametrize("eng", ENGINES, ids=IDS)
def test_target_std_error_reproduces_on_any_thread_count(eng):
    target = 0.004 if eng.kind == "equity" else 0.25
    a = eng.run(target_std_error=target, seed=9, threads=1)
    b = eng.run(target_std_error=target, seed=9, threads=2)
    assert max(a[1]) <= target
    assert a[2] == b[2] and a[2] % BLOCK == 0
    assert _bits(a[3]) == _bits(b[3])


@pytest.mark.parametrize("eng", ENGINES, ids=IDS)
def test_target_run_draws_about_the_deals_the_target_needs(eng):
    _, ses, n0, _ = eng.run(samples=200_000, seed=2, threads=1)
    sd = max(ses) * math.sqrt(n0)  # the worst player's per-deal standard deviation
    need = 300_000
    target = sd / math.sqrt(need)
    _, ses, n, _ = eng.run(target_std_error=target, seed=4)
    assert max(ses) <= target
    assert 0.8 * need <= n <= 1.3 * need + BLOCK, (n, need)


def test_seed_is_reported_and_drawn_when_omitted():
    r = equity(["AhKh", "QsQd"], samples=1000)
    assert 0 <= r.extra["seed"] < 2**64
    again = equity(["AhKh", "QsQd"], samples=1000, seed=r.extra["seed"])
    assert _bits(again) == _bits(r)


# ----------------------------------------------------------------------------- sample counts
@pytest.mark.parametrize("eng", ENGINES, ids=IDS)
def test_exactly_the_samples_asked_for_and_null_error_for_one_draw(eng):
    for n in (1, 10_001, BLOCK + 1):
        vals, ses, samples, r = eng.run(samples=n, seed=5)
        assert samples == n and not r.exact  # type: ignore[attr-defined]
        d = json.loads(json.dumps(r.to_dict(), allow_nan=False))  # type: ignore[attr-defined]
        live = [p for p in d["players"] if p.get("hand") != "fold"]
        if n == 1:
            assert all(p["std_error"] is None for p in live)
        else:
            assert all(p["std_error"] > 0 for p in live)


@pytest.mark.parametrize("eng", ENGINES, ids=IDS)
def test_samples_and_target_whichever_comes_first(eng):
    tiny = 1e-6 if eng.kind == "equity" else 1e-4
    assert eng.run(samples=20_000, target_std_error=tiny, seed=1)[2] == 20_000
    loose = 0.01 if eng.kind == "equity" else 1.5
    vals, ses, n, _ = eng.run(samples=10_000_000, target_std_error=loose, seed=1)
    assert n < 10_000_000 and max(ses) <= loose


# ----------------------------------------------------------------------------- std errors
@pytest.mark.parametrize("eng,spot", HEADS_UP, ids=[e.name for e, _ in HEADS_UP])
def test_std_error_is_the_per_deal_standard_error(eng, spot):
    n = 100_000
    hands, board, game = spot
    ex = equity(hands, board, game=game, exact=True)
    assert ex.players[0].tie > 0 or eng.name != "holdem"
    vals, ses, _, _ = eng.run(samples=n, seed=3, threads=1)
    for p, se in zip(ex.players, ses, strict=True):
        var = p.win + p.tie / 4 - p.equity**2
        assert se == pytest.approx(eng.scale * math.sqrt(var / n), rel=0.03)


def _check_z(exact: list[float], runs: list[tuple[list[float], list[float]]]) -> None:
    z = np.array([[(v - e) / s for e, v, s in zip(exact, vals, ses, strict=True)]
                  for vals, ses in runs])
    n_seeds = z.shape[0]
    # per player: the mean of n_seeds z-scores has standard error 1/sqrt(n_seeds)
    assert np.all(np.abs(z.mean(axis=0)) < 4 / math.sqrt(n_seeds)), z.mean(axis=0)
    assert 0.7 < z.std() < 1.3, z.std()


@pytest.mark.parametrize("eng", ENGINES, ids=IDS)
def test_z_scores_over_seeds(eng):
    exact = eng.exact()
    runs = [eng.run(samples=4_000, seed=s, threads=1)[:2] for s in range(40)]
    _check_z(exact, runs)


@pytest.mark.parametrize("eng", ENGINES, ids=IDS)
def test_monte_carlo_within_four_standard_errors_of_exact(eng):
    exact = eng.exact()
    vals, ses, _, _ = eng.run(samples=200_000, seed=11)
    for e, v, s in zip(exact, vals, ses, strict=True):
        assert 0 < s and abs(e - v) <= 4 * s


# ----------------------------------------------------------------------------- limits
BAD = [
    ({"samples": 0}, "samples must be positive"),
    ({"samples": -5}, "samples must be positive"),
    ({"samples": MAX_SAMPLES + 1}, "samples must be at most 1e+12"),
    ({"samples": True}, "samples must be a whole number"),
    ({"samples": 1.5}, "samples must be a whole number"),
    ({"samples": "100"}, "samples must be a whole number"),
    ({"target_std_error": 0}, "target_std_error must be positive"),
    ({"target_std_error": -1.0}, "target_std_error must be positive"),
    ({"target_std_error": float("nan")}, "target_std_error must be positive"),
    ({"target_std_error": float("inf")}, "target_std_error must be positive"),
    ({"target_std_error": 1e-12}, "target_std_error must be at least 1e-09"),
    ({"target_std_error": "0.01"}, "target_std_error must be a number"),
    ({"target_std_error": True}, "target_std_error must be a number"),
    ({"seed": -1}, "seed must be at least 0 and below 2**64"),
    ({"seed": 2**64}, "seed must be at least 0 and below 2**64"),
    ({"seed": 1.0}, "seed must be a whole number"),
    ({"seed": True}, "seed must be a whole number"),
    ({"seed": "7"}, "seed must be a whole number"),
    ({"threads": 0}, "threads must be positive"),
    ({"threads": 5000}, "threads must be at most 1024"),
    ({"threads": 1.5}, "threads must be a whole number"),
    ({"exact": "yes"}, "exact must be true, false or null"),
    ({"exact": True, "samples": 10}, "exact=True cannot be combined"),
    ({"exact": True, "target_std_error": 0.01}, "exact=True cannot be combined"),
]


@pytest.mark.parametrize("eng", ENGINES, ids=IDS)
@pytest.mark.parametrize("kw,message", BAD, ids=[str(k) for k, _ in BAD])
def test_bad_sampling_options_are_refused_by_name(eng, kw, message):
    with pytest.raises(ValueError) as info:
        eng.run(**kw)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_std_error_messages_state_the_unit():
    with pytest.raises(ValueError, match="fraction of the pot"):
        equity(["AhKh", "QsQd"], target_std_error=-1)
    with pytest.raises(ValueError, match=r"\(chips\)"):
        allin_ev(["AhAs:10", "KdKc:10"], target_std_error=-1)


CLI_BAD = [
    (["equity", "AhKh", "QsQd", "--seed", "-1"], "--seed must be at least 0 and below 2**64"),
    (["equity", "AhKh", "QsQd", "--seed", str(2**64)], "--seed must be at least 0"),
    (["equity", "AhKh", "QsQd", "--samples", "0"], "--samples must be positive (deals)"),
    (["equity", "AhKh", "QsQd", "--samples", str(10**13)], "--samples must be at most 1e+12"),
    (["equity", "AhKh", "QsQd", "--threads", "0"], "--threads must be positive (threads)"),
    (["equity", "AhKh", "QsQd", "--threads", "4096"], "--threads must be at most 1024 threads"),
    (["equity", "AhKh", "QsQd", "--std-error", "0"], "(a fraction of the pot: 0.001 is 0.1%)"),
    (["equity", "AhKh", "QsQd", "--std-error", "1e-12"], "--std-error must be at least 1e-09"),
    (["equity", "AhKh", "QsQd", "--exact", "--std-error", "0.1"],
     "--exact cannot be combined with --samples or --std-error"),
    (["range", "AA", "--vs", "KK", "--std-error", "nan"], "--std-error must be positive"),
    (["allin", "AhAs:10", "KdKc:10", "--std-error", "-2"], "(chips)"),
    (["allin", "AhAs:10", "KdKc:10", "--seed", "-3"], "--seed must be at least 0"),
]


@pytest.mark.parametrize("argv,message", CLI_BAD, ids=[" ".join(a[3:]) for a, _ in CLI_BAD])
def test_cli_sampling_options_one_line_error_exit_2(capsys, argv, message):
    from simulate.cli import main

    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("error: ")
    assert message in err


def test_cli_samples_with_std_error_is_whichever_first(capsys):
    from simulate.cli import main

    assert main(["equity", "AhKh", "QsQd", "--samples", "30000", "--std-error", "1e-6",
                 "--seed", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["samples"] == 30_000
    assert main(["allin", "AhAs:10", "KdKc:10", "--samples", "30000", "--std-error", "1e-6",
                 "--seed", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["samples"] == 30_000


@pytest.mark.parametrize("cmd,unit", [("equity", "fraction of the pot"), ("range",
                                                                         "fraction of the pot"),
                                      ("allin", "in chips")])
def test_cli_help_states_the_std_error_unit_and_limits(capsys, cmd, unit):
    from simulate.cli import main

    with pytest.raises(SystemExit):
        main([cmd, "-h"])
    text = " ".join(capsys.readouterr().out.split())
    assert unit in text and "2**64" in text and "1 to 1024" in text and "1e+12" in text


def test_largest_seed_and_numpy_integers_are_accepted():
    a = equity(["AhKh", "QsQd"], samples=1000, seed=2**64 - 1)
    b = equity(["AhKh", "QsQd"], samples=np.int64(1000), seed=np.uint64(2**64 - 1),
               threads=np.int32(1))
    assert _bits(a) == _bits(b) and a.extra["seed"] == 2**64 - 1


def test_validate_returns_plain_numbers_and_one_set_of_names():
    s = Sampling(None, np.int64(10), np.float32(0.25), np.uint64(3), np.int8(2)).validate()
    assert s == Sampling(None, 10, 0.25, 3, 2)
    assert type(s.samples) is int and type(s.seed) is int and type(s.threads) is int
    assert s.cap == 10 and Sampling(target_std_error=0.1).cap == S.TARGET_CAP
    assert Sampling().cap == S.DEFAULT_SAMPLES
    with pytest.raises(ValueError, match="^--std-error must be positive"):
        Sampling(target_std_error=0).validate(S.CLI_NAMES)
    with pytest.raises(ValueError, match="^std_error must be positive"):
        Sampling(target_std_error=0).validate(S.BATCH_NAMES)


def test_round_planner_checks_only_at_planned_block_counts():
    assert S.next_check(BLOCK * 4, 0.002, 0.001, 4, 10_000) == math.ceil(4 * 4 * 1.05)
    assert S.next_check(BLOCK * 4, 0.0010001, 0.001, 10, 10_000) == 11  # at least one more
    assert S.next_check(BLOCK * 4, 1.0, 1e-9, 4, 77) == 77  # never past the cap
    assert S.next_check(1, math.inf, 0.1, 1, 100) == 2  # unknown error: double


# ----------------------------------------------------------------------------- the draws
# The counting loops are compiled and cached on disk like the library's kernels, so a warm
# test run loads them instead of compiling them again.
@serial
def _deal_counts(deck, n):
    """(subsets int64[2**m], first int64[m], same bool): ``n`` read-only deals of 5 from
    ``deck`` (uint8[m]) counted by subset bitmask and first card; ``same``: the in-place
    deal gave the same cards and stream state every time."""
    m = deck.shape[0]
    mul = np.empty(5, np.uint64)
    thr = np.empty(5, np.uint64)
    deal_setup(m, 5, mul, thr)
    subsets = np.zeros(1 << m, np.int64)
    first = np.zeros(m, np.int64)
    state = stream_state(np.uint64(12345), 0)
    same = True
    for _ in range(n):
        s0 = state
        state, r0, r1, r2, r3, r4 = draw5(state, mul, thr, 0)
        c = pick5(deck, deck[0], deck[1], deck[2], deck[3], r0, r1, r2, r3, r4)
        d = deck.copy()
        s1 = deal(s0, d, 0, 5, mul, thr)
        same &= s1 == state
        bits = 0
        for i, x in enumerate(c):
            same &= d[i] == x
            bits |= 1 << np.int64(x)
        subsets[bits] += 1
        first[c[0]] += 1
    return subsets, first, same


@serial
def _deal_seven_counts(n):
    """(out int64[7, 12], head int64[2]): ``n`` in-place deals of 7 cards from 10 at offset 2
    of a 12-card array, counted by dealt position and card; ``head``: the two cards before
    the offset afterwards."""
    d = np.arange(12, dtype=np.int64)
    mul = np.empty(10, np.uint64)
    thr = np.empty(10, np.uint64)
    deal_setup(10, 7, mul, thr)
    out = np.zeros((7, 12), np.int64)
    state = stream_state(np.uint64(99), 3)
    for _ in range(n):
        state = deal(state, d, 2, 7, mul, thr)
        for i in range(7):
            out[i, d[2 + i]] += 1
    return out, d[:2].copy()


@serial
def _tuple_draw_counts(cdf, ncombo, cards, n):
    """int64[M, M, M]: ``n`` weighted draws of one combo per player (three players, at most
    M combos each) counted by the tuple of combo indices."""
    P, M = cdf.shape
    idx = np.zeros(P, np.int64)
    skip = np.zeros(P, np.bool_)
    out = np.zeros((M, M, M), np.int64)
    state = stream_state(np.uint64(5), 0)
    for _ in range(n):
        state, used, rej = draw_tuple(state, cdf, ncombo, cards, skip, np.int64(0), idx, 1000)
        out[idx[0], idx[1], idx[2]] += 1
    return out


def test_uniform_deal_deals_every_runout_equally_often():
    """The read-only deal (draw5 + pick5) and the in-place deal (deal) give the same cards
    from the same draws; each 5-card subset of a 9-card deck, and each first card, comes
    equally often (chi-square bound)."""
    n = 252_000
    subsets, first, same = _deal_counts(np.arange(9, dtype=np.uint8), n)
    assert same
    sizes = np.array([bin(b).count("1") for b in range(1 << 9)])
    assert subsets[sizes != 5].sum() == 0  # five distinct cards every time
    for counts in (subsets[sizes == 5], first):
        want = n / len(counts)
        chi2 = float(((counts - want) ** 2 / want).sum())
        dof = len(counts) - 1
        assert chi2 < dof + 6 * math.sqrt(2 * dof), (chi2, dof)


def test_in_place_deal_of_more_than_five_cards_is_uniform():
    """``deal`` of 7 ordered cards from 10 at an offset: every card equally often at every
    dealt position; the cards before the offset are never touched."""
    n = 100_000
    out, head = _deal_seven_counts(n)
    assert head.tolist() == [0, 1]
    assert out[:, :2].sum() == 0
    want = n / 10
    chi2 = float(((out[:, 2:] - want) ** 2 / want).sum())
    dof = 7 * 9
    assert chi2 < dof + 6 * math.sqrt(2 * dof), chi2


def test_weighted_tuple_draw_is_proportional_to_weight_products():
    """Three players, overlapping combos with weights: every card-disjoint tuple comes in
    proportion to the product of its weights (no bias towards combos that conflict less)."""
    combos = [[(0, 1), (0, 2), (3, 4)], [(1, 2), (3, 5)], [(4, 5), (0, 6), (2, 7)]]
    weights = [[1.0, 2.0, 0.5], [1.0, 3.0], [2.0, 1.0, 1.0]]
    P, M = 3, 3
    cards = np.zeros((P, M, 2), np.uint8)
    cdf = np.zeros((P, M))
    ncombo = np.array([len(c) for c in combos], np.int64)
    for p in range(P):
        cards[p, :len(combos[p])] = combos[p]
        cdf[p, :len(combos[p])] = np.cumsum(weights[p])

    n = 200_000
    got = _tuple_draw_counts(cdf, ncombo, cards, n)
    want = np.zeros((M, M, M))
    for t in itertools.product(*(range(len(c)) for c in combos)):
        cs = [set(combos[p][t[p]]) for p in range(P)]
        if all(not (cs[i] & cs[j]) for i in range(P) for j in range(i + 1, P)):
            want[t] = math.prod(weights[p][t[p]] for p in range(P))
    assert got[want == 0].sum() == 0
    want = want / want.sum() * n
    mask = want > 0
    chi2 = float(((got[mask] - want[mask]) ** 2 / want[mask]).sum())
    dof = int(mask.sum()) - 1
    assert chi2 < dof + 6 * math.sqrt(2 * dof), chi2


# ----------------------------------------------------------------------------- long runs
def test_progress_is_reported_between_rounds(monkeypatch):
    from simulate import progress as P

    monkeypatch.setattr(S, "PROGRESS_AFTER_S", 0.0)
    monkeypatch.setattr(S, "ROUND_S", 0.0)
    monkeypatch.setattr(P, "PLAIN_EVERY_S", 0.0)
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    with S.report_progress():
        equity(["AhKh", "QsQd"], samples=4 * BLOCK - 5, seed=1, threads=1)
    lines = err.getvalue().splitlines()
    n = 4 * BLOCK - 5
    assert len(lines) >= 3 and lines[-1].startswith(f"Monte Carlo: {n:,}/{n:,} deals (100%)")
    err.truncate(0)
    equity(["AhKh", "QsQd"], samples=4 * BLOCK, seed=1, threads=1)  # library calls: silent
    assert err.getvalue() == ""


def test_long_exact_walk_is_switched_to_sampling_with_an_estimate():
    r = equity(["QQ+", "random", "random"], "Td9d2c", samples=None, seed=1)
    assert not r.exact and r.extra["exact_estimate_s"] > 1
    assert "--exact to insist" in S.switched_note(r.extra)
    assert "exact_estimate_s" not in equity(["QQ+", "random"], "Td9d2c", samples=1000).extra
    assert S.switched_note({}) == ""
    assert "about 0.4 s: --exact to insist" in S.switched_note({"exact_estimate_s": 0.42})
    assert "about 13 days, too long to walk" in S.switched_note({"exact_estimate_s": 1.1e6})


def test_exact_walk_beyond_the_limit_is_refused_with_its_size():
    with pytest.raises(ValueError, match=r"exact walk would take about \d+ days on 1 thread, "
                                         r"over the 1-hour limit"):
        equity(["random", "random", "random"], exact=True, threads=1)


def test_long_exact_walk_runs_in_parts_with_progress(monkeypatch):
    """An exact range walk expected to take longer than a round is cut into parts (Python
    gets control back between them) and reports progress; the answer is the one-call answer."""
    from simulate import progress as P
    from simulate.range_equity import _run_exact, estimate_exact_seconds
    from simulate.request import parse_spot

    monkeypatch.setattr(S, "ROUND_S", 1e-5)  # a small walk stands in for a long one
    spot = parse_spot(["QQ+,AKs", "random"], "Td9d2c", "")
    assert estimate_exact_seconds(spot) > S.ROUND_S
    assert S.walk_parts(0.004, 10**6) == 400 and S.walk_parts(1e-7, 10**6, 50) == 50
    assert S.walk_parts(1e9, 30) == 30 and S.walk_parts(math.inf, 7) == 7
    monkeypatch.setattr(S, "PROGRESS_AFTER_S", 0.0)
    monkeypatch.setattr(P, "PLAIN_EVERY_S", 0.0)
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    with S.report_progress():
        walked = equity(["QQ+,AKs", "random"], "Td9d2c", exact=True)
    lines = err.getvalue().splitlines()
    last = re.match(r"exact walk: (\d+)/(\d+) parts \(100%\)", lines[-1])
    assert last and last[1] == last[2] and int(last[1]) >= 50 and len(lines) >= 50, lines[-3:]
    one_call = _run_exact(spot, 2, 0.0).result
    assert [p.equity for p in walked.players] == pytest.approx(
        [p.equity for p in one_call.players], rel=1e-12)


def test_ranged_allin_walk_runs_in_parts_and_refuses_the_huge(monkeypatch):
    spec, board = ["QQ+,AKs:100", "AhKh:60", "random:30", "fold:10"], "Ks8h2c4d"
    one_call = allin_ev(spec, board, exact=True)
    monkeypatch.setattr(S, "ROUND_S", 1e-7)  # every board its own part
    parts = allin_ev(spec, board, exact=True)
    assert parts.exact and parts.samples == one_call.samples
    assert [p.expected_payout for p in parts.players] == pytest.approx(
        [p.expected_payout for p in one_call.players], rel=1e-12)
    with pytest.raises(ValueError, match="exact walk would take about .* over the 1-hour"):
        allin_ev(["random:10", "random:20", "random:30"], exact=True, threads=1)


def test_interrupt_between_rounds_stops_the_run():
    calls = []

    def run(lo: int, hi: int) -> None:
        calls.append((lo, hi))
        time.sleep(0.01)  # rounds of about ROUND_S: 25 blocks each
        if len(calls) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        S.run_blocks(Sampling(samples=10**9), run, lambda n: np.zeros(2))
    assert len(calls) == 3 and calls[0][0] == 0 and calls[1][0] == calls[0][1]


def test_ctrl_c_stops_a_long_equity_run_within_two_seconds():
    """A real process: a Monte Carlo run of 10**12 deals gets SIGINT, exits 130 with
    ``error: interrupted`` on its own line and nothing on stdout."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "simulate", "equity", "AhKh", "QsQd",
                             "--samples", str(10**12), "--threads", "1", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env,
                            preexec_fn=default_ctrl_c)
    try:
        time.sleep(1.5)
        assert proc.poll() is None, proc.communicate()
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, (proc.returncode, err)
    assert out == ""
    assert err.splitlines()[-1] == "error: interrupted"
    assert took < 2.0, took


# ----------------------------------------------------------------------------- issue 23
@pytest.mark.parametrize("call", [
    lambda: equity(["AhKh", "QsQd"], target_std_error=0.5),
    lambda: equity(["AhKh", "QsQd"], target_std_error=5),
    lambda: equity(["AhKhQd", "7c7d2s"], game="pineapple", target_std_error=0.7),
    lambda: __import__("simulate").range_equity(["QQ+", "random"], target_std_error=0.5),
], ids=["equity-0.5", "equity-5", "pineapple", "range"])
def test_a_share_std_error_target_is_below_half(call):
    with pytest.raises(ValueError, match=r"target_std_error must be below 0\.5"):
        call()


def test_std_error_below_half_on_the_command_line_and_in_batch(capsys):
    from simulate.batch import run
    from simulate.cli import main

    for argv in (["equity", "AhKh", "QsQd", "--std-error", "5"],
                 ["range", "QQ+", "--vs", "random", "--std-error", "0.5"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--std-error must be below 0.5" in err
    rec = next(run([{"id": 1, "hands": ["AhKh", "QsQd"], "std_error": 0.9}]))
    assert "std_error must be below 0.5" in rec["error"]
    # an all-in's standard error is in chips: any positive target
    assert allin_ev(["AhAs:100", "KdKc:100"], target_std_error=5, seed=1).samples > 0


def test_the_default_sample_size_stops_on_a_time_budget(monkeypatch, capsys):
    """Without samples or a target a run stops at DEFAULT_SAMPLES deals or DEFAULT_BUDGET_S
    seconds of sampling, at a block boundary; the answer says which; the deals it reports,
    given as samples with the seed, draw the same deals again."""
    from simulate.cli import main

    with S.default_choices() as chosen:
        fast = equity(["AhKh", "QsQd"], exact=False, seed=1)
    assert fast.samples == S.DEFAULT_SAMPLES and chosen == [
        {"deals": S.DEFAULT_SAMPLES, "cap": S.DEFAULT_SAMPLES, "budget_s": S.DEFAULT_BUDGET_S,
         "stopped_by": "cap"}]
    monkeypatch.setattr(S, "DEFAULT_BUDGET_S", 1e-9)  # a slow engine: the budget ends first
    with S.default_choices() as chosen:
        slow = equity(["AhKh", "QsQd"], exact=False, seed=1, threads=1)
    assert slow.samples < S.DEFAULT_SAMPLES and slow.samples % BLOCK == 0
    assert chosen[0]["stopped_by"] == "time" and chosen[0]["deals"] == slow.samples
    again = equity(["AhKh", "QsQd"], samples=slow.samples, seed=1, threads=2)
    assert _bits(again) == _bits(slow)
    assert main(["equity", "AhKh", "QsQd", "--seed", "1", "--samples", "1000", "--json"]) == 0
    assert "default_samples" not in json.loads(capsys.readouterr().out)  # sized by the user
    assert main(["equity", "AhKh", "7c7d", "--board", "", "--seed", "1", "--json"]) == 0
    assert "default_samples" not in json.loads(capsys.readouterr().out)  # exact
    for cmd in (["range", "random", "--vs", "random", "random"],
                ["allin", "QQ+:100", "AK:60", "random:30"]):  # sampled by default
        assert main([*cmd, "--seed", "2", "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert doc["default_samples"]["stopped_by"] == "time"
        assert doc["default_samples"]["deals"] == doc["samples"] < S.DEFAULT_SAMPLES
    assert main(["range", "random", "--vs", "random", "random", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"sample size: [\d,]+ deals, what 1e-09 s of sampling drew", out), out
