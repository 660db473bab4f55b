"""Tournament equity speed (issue 40): ICM, heads-up push/fold and the ICM push/fold game.

* ICM, 9 players with 9 places paid: ``simulate.icm`` (the subset walk, compiled; target
  <= 20 us a call) against a plain Python recursion over the same sets of finished players
  (memoized, the textbook way);
* ICM, 1,000 players with 10 places paid (the race integral; target <= 5 ms);
* heads-up push/fold: one stack (target <= 50 ms) and the whole 1-25 big blind chart in
  tenths (241 stacks, each started from the last; target <= 2 s);
* the 6-handed ICM push/fold game (target <= 10 s, with its exploitability).

``python benchmarks/bench_icm.py [--json] [--repeat N] [--quick]`` prints the medians;
``pytest benchmarks/bench_icm.py --benchmark-enable`` times the pieces; in the normal test run
each runs once as a smoke test.
"""

from __future__ import annotations

import argparse
import functools
from pathlib import Path

import numpy as np
import pytest

from simulate import icm, pushfold
from simulate.bench import Comparison, Side, script_main
from simulate.pushfold import pushfold_chart
from simulate.pushfold_icm import pushfold_icm

STACKS9 = [9000.0, 7500.0, 6200.0, 5100.0, 4000.0, 3300.0, 2500.0, 1700.0, 900.0]
PAY9 = [30.0, 20.0, 14.0, 10.0, 8.0, 6.5, 5.0, 3.5, 3.0]
RNG = np.random.default_rng(40)
STACKS1000 = RNG.uniform(100, 10_000, 1000)
PAY10 = [25.0, 15.0, 11.0, 9.0, 8.0, 7.0, 6.5, 6.0, 6.0, 6.5]
STACKS6 = [10.0, 15.0, 20.0, 8.0, 12.0, 25.0]
PAY3 = [50.0, 30.0, 20.0]


def python_icm(stacks: list[float], payouts: list[float]) -> list[float]:
    """ICM by a plain Python recursion: the chance of each set of players having taken the
    first places, memoized, each place shared out by chip shares of those left."""
    n, total = len(stacks), sum(stacks)

    @functools.cache
    def rest(mask: int) -> tuple[float, ...]:
        """Each player's expected prize from the places after the players in ``mask``."""
        k = bin(mask).count("1")
        out = [0.0] * n
        if k >= len(payouts):
            return tuple(out)
        left = total - sum(stacks[i] for i in range(n) if mask >> i & 1)
        for j in range(n):
            if not mask >> j & 1:
                p = stacks[j] / left
                out[j] += p * payouts[k]
                for i, v in enumerate(rest(mask | 1 << j)):
                    out[i] += p * v
        return tuple(out)

    return list(rest(0))


def test_icm_nine(benchmark):
    e = benchmark(icm, STACKS9, PAY9)
    np.testing.assert_allclose(e, python_icm(STACKS9, PAY9), rtol=1e-12)


def test_icm_thousand(benchmark):
    e = benchmark(icm, STACKS1000, PAY10)
    assert e.sum() == pytest.approx(sum(PAY10))


def test_pushfold_one_stack(benchmark):
    assert benchmark(pushfold, 12.0).exploitability_mbb < 0.01


@pytest.mark.slow
def test_pushfold_chart(benchmark):
    assert benchmark.pedantic(pushfold_chart, rounds=1).exploitability_mbb < 0.01


@pytest.mark.slow
def test_pushfold_six_handed(benchmark):
    r = benchmark.pedantic(pushfold_icm, (STACKS6, PAY3), rounds=1)
    assert r.exploitability < 1e-3


def _calls(f, n: int) -> None:  # noqa: ANN001 - one of the two ICM functions
    for _ in range(n):
        f(STACKS9, PAY9)


def comparisons(args: argparse.Namespace, _tmp: Path) -> list[Comparison]:
    out = [
        Comparison("ICM 9 players, 9 paid: 1,000 calls / 100 calls (target <= 20 us a call)",
                   [Side("simulate.icm", functools.partial(_calls, icm, 1000), work=1000),
                    Side("Python recursion", functools.partial(_calls, python_icm, 100),
                         work=100)],
                   unit="calls"),
        Comparison("ICM 1,000 players, 10 paid (target <= 5 ms)",
                   [Side("simulate.icm", functools.partial(icm, STACKS1000, PAY10))],
                   unit="calls", min_rep_s=0.2),
        Comparison("heads-up push/fold, one stack of 12 bb (target <= 50 ms)",
                   [Side("pushfold", functools.partial(pushfold, 12.0),
                         info=lambda r: {"exploitability_mbb": r.exploitability_mbb})],
                   unit="solves", min_rep_s=0.2),
    ]
    if not args.quick:
        out += [
            Comparison("heads-up chart, 241 stacks 1-25 bb (target <= 2 s)",
                       [Side("pushfold_chart", pushfold_chart,
                             info=lambda r: {"exploitability_mbb": r.exploitability_mbb})],
                       unit="charts", repeat=1),
            Comparison("6-handed ICM push/fold (target <= 10 s)",
                       [Side("pushfold_icm", functools.partial(pushfold_icm, STACKS6, PAY3),
                             info=lambda r: {"exploitability": r.exploitability,
                                             "deals": r.deals})],
                       unit="solves", repeat=1),
        ]
    return out


if __name__ == "__main__":
    raise SystemExit(script_main(__doc__, comparisons))
