"""Omaha hi/lo (eight or better) beside Omaha high on the same hands, heads-up before the
flop, one thread (issue 21: exact within 2.5x of Omaha high, Monte Carlo within 2x).

Each comparison times Omaha high first and Omaha hi/lo second on the same two hands, so
``x first`` is hi/lo's time over high's (paired per round by
:func:`simulate.bench.compare`). The hi/lo walk is the same triple-table walk with a low
column per player beside the high one (twice the table reads per runout) and its rows go
through the scorer's hi/lo rule (each pot halved between the best high and the best low).

``python benchmarks/bench_hilo.py [--json] [--repeat N] [--quick]`` prints the medians;
``pytest benchmarks/bench_hilo.py --benchmark-enable`` times the hi/lo cases alone; in the
normal test run each runs once as a smoke test.
"""

from __future__ import annotations

import argparse
import functools
from pathlib import Path

import pytest

from simulate import equity
from simulate.bench import Comparison, Side, script_main

#: Heads-up spots: a low-and-high hand against a high-only one, and two low draws.
SPOTS = [["Ah2h3c4d", "KsKdQcJh"], ["As2d5c6h", "Ac3d7s8h"]]
RUNOUTS = 1_086_008  # C(44, 5): every preflop board of a heads-up Omaha spot
MC_DEALS = 1_000_000


def run(hands: list[str], game: str, samples: int | None = None) -> object:
    if samples is None:
        return equity(hands, game=game, exact=True, threads=1)
    return equity(hands, game=game, exact=False, samples=samples, seed=1, threads=1)


@pytest.mark.parametrize("hands", SPOTS)
def test_exact_preflop_hilo(benchmark, hands):
    res = benchmark(run, hands, "omaha_hilo")
    assert res.exact and res.samples == RUNOUTS
    assert sum(p.high + p.low for p in res.players) == pytest.approx(1.0)


def test_monte_carlo_preflop_hilo(benchmark):
    res = benchmark(run, SPOTS[0], "omaha_hilo", 20_000)
    assert not res.exact and res.samples == 20_000


def _info(r) -> dict[str, object]:
    return {"equity": [round(p.equity, 4) for p in r.players]}


def comparisons(args: argparse.Namespace, _tmp: Path) -> list[Comparison]:
    deals = 200_000 if args.quick else MC_DEALS
    out = []
    for hands in SPOTS:
        name = " vs ".join(hands)
        out.append(Comparison(
            f"exact preflop {name}, one thread ({RUNOUTS:,} runouts; target <= 2.5x)",
            [Side("omaha", functools.partial(run, hands, "omaha"), work=RUNOUTS, info=_info),
             Side("omaha_hilo", functools.partial(run, hands, "omaha_hilo"), work=RUNOUTS,
                  info=_info)], unit="runouts"))
        out.append(Comparison(
            f"Monte Carlo preflop {name}, one thread ({deals:,} deals; target <= 2x)",
            [Side("omaha", functools.partial(run, hands, "omaha", deals), work=deals,
                  info=_info),
             Side("omaha_hilo", functools.partial(run, hands, "omaha_hilo", deals),
                  work=deals, info=_info)], unit="deals"))
    return out


if __name__ == "__main__":
    raise SystemExit(script_main(__doc__, comparisons))
