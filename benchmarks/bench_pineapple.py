"""Pineapple speed: Crazy Pineapple heads-up from three cards each before the flop (the
discard after the flop betting), one thread.

* exact with the cheap ``made`` policy (every flop, every discard, every turn and river:
  13,707,540 deals): target <= 1 s;
* Monte Carlo with the strong ``equity`` policy (the flop table): target >= 1,000,000
  deals/s/thread; the flop table's build (1,755 flop classes x 1,326 pairs, int32, 9.3 MB,
  cached on disk) is timed apart when it is not cached yet.

``pytest benchmarks/bench_pineapple.py --benchmark-enable`` times each piece with
pytest-benchmark; in the normal test run (``--benchmark-disable``) each runs once as a
smoke test (the Monte Carlo one on few deals). ``python benchmarks/bench_pineapple.py
[--json] [--repeat N] [--quick]`` prints the medians (:func:`simulate.bench.script_main`)
and, for the README, how much the choice of policy moves the equities on a few spots.
"""

from __future__ import annotations

import argparse
import functools
from pathlib import Path

import pytest

from simulate import equity
from simulate.bench import Comparison, Side, script_main

SPOT = ["AhKh2c", "7s7d8c"]
MC_DEALS = 2_000_000
#: Spots for "how much the policy moves the equities": (hands, board, game, discard_after).
POLICY_SPOTS = [
    (["AhKh2c", "7s7d8c"], "", "crazy_pineapple", "flop"),
    (["AsQs9d", "JhTh5c"], "", "crazy_pineapple", "flop"),
    (["KcQd7h", "9s8s8c", "Ad5d4c"], "", "crazy_pineapple", "flop"),
    (["AhKh2c", "7s7d8c"], "Qh9c3d", "crazy_pineapple", "turn"),
]


def exact_cheap() -> object:
    return equity(SPOT, game="crazy_pineapple", exact=True, threads=1)


def mc_strong(samples: int = MC_DEALS) -> object:
    return equity(SPOT, game="crazy_pineapple", discard_policy="equity", samples=samples,
                  seed=1, threads=1)


def test_exact_cheap_policy(benchmark):
    res = benchmark(exact_cheap)
    assert res.exact and res.samples == 13_707_540


@pytest.mark.slow  # builds the flop table (about a minute, once) when it is not cached
def test_mc_strong_policy(benchmark):
    from simulate.pineapple import flop_table

    flop_table(None)  # built (or loaded) before timing
    res = benchmark(mc_strong, 50_000)
    assert not res.exact and res.samples == 50_000


def comparisons(args: argparse.Namespace, _tmp: Path) -> list[Comparison]:
    """The flop table's load (or build, once), the exact walk with the cheap policy and the
    Monte Carlo run with the strong one, each on one thread."""
    from simulate.pineapple import flop_table

    deals = 200_000 if args.quick else MC_DEALS
    return [
        Comparison("flop table, load or build (once)",
                   [Side("pokerjit", lambda: flop_table(None, threads=1))], repeat=1, warm=False),
        Comparison("exact, made policy, one thread (13,707,540 deals; target <= 1 s)",
                   [Side("pokerjit", exact_cheap, work=13_707_540,
                         info=lambda r: {"equity": [round(p.equity, 6) for p in r.players]})],
                   unit="deals"),
        Comparison(f"Monte Carlo, equity policy, one thread ({deals:,} deals; target >= 1M "
                   "deals/s)",
                   [Side("pokerjit", functools.partial(mc_strong, deals), work=deals,
                         info=lambda r: {"equity": [round(p.equity, 4) for p in r.players]})],
                   unit="deals"),
    ]


def policy_spots(args: argparse.Namespace, _tmp: Path) -> dict[str, object]:
    """For the README: how much the choice of discard policy moves the equities."""
    samples = 100_000 if args.quick else 1_000_000
    spots = []
    for hands, board, game, after in POLICY_SPOTS:
        made = equity(hands, board, game=game, discard_after=after, discard_policy="made",
                      samples=samples, seed=3)
        strong = equity(hands, board, game=game, discard_after=after, discard_policy="equity",
                        samples=samples, seed=3)
        spots.append({"hands": hands, "board": board, "game": game, "discard_after": after,
                      "made": [round(p.equity, 4) for p in made.players],
                      "equity": [round(p.equity, 4) for p in strong.players],
                      "std_error": max(p.std_error for p in strong.players)})
    return {"policy_spots": spots}


if __name__ == "__main__":
    raise SystemExit(script_main(__doc__, comparisons, extra=policy_spots))
