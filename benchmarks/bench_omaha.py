"""Omaha speed: our evaluator and equity against the peers, one thread each.

* exact preflop equity, AhAsKhKs vs QdJdTc9c (1,086,008 runouts): ours vs poker-equity;
* heads-up Monte Carlo deals per second: ours vs poker-equity;
* evaluator hands per second (4 hole + 5 board): ours vs our naive 60-combination
  baseline vs phevaluator's ``evaluate_omaha_cards`` (a Python loop over a C call).

``pytest benchmarks/bench_omaha.py --benchmark-enable`` times each piece with
pytest-benchmark; in the normal test run (``--benchmark-disable``) each runs once as a
smoke test. ``python benchmarks/bench_omaha.py [--json]`` prints the side-by-side ratios
(best of several repeats, measured in one run).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peers  # noqa: E402

from evaluator.omaha import evaluate_omaha_batch, omaha_naive_batch  # noqa: E402
from simulate.omaha import omaha_equity  # noqa: E402

HANDS = ["AhAsKhKs", "QdJdTc9c"]


def _deals(n: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    cards = np.argsort(rng.random((n, 52)), axis=1)[:, :9].astype(np.uint8)
    return np.ascontiguousarray(cards[:, :4]), np.ascontiguousarray(cards[:, 4:])


def _need(peer: str) -> None:
    if not peers.available(peer):
        pytest.skip(f"{peer} not installed")


# ---------------------------------------------------------------- pytest-benchmark
def test_exact_preflop_ours(benchmark):
    res = benchmark(lambda: omaha_equity(HANDS, exact=True, threads=1))
    assert res.players[0].equity == pytest.approx(0.6163, abs=1e-4)


def test_exact_preflop_poker_equity(benchmark):
    _need("poker_equity")
    res = benchmark(lambda: peers.poker_equity_exact(HANDS, game="omaha"))
    assert res.equities[0] == pytest.approx(0.6163, abs=1e-4)


def test_monte_carlo_ours(benchmark):
    res = benchmark(lambda: omaha_equity(HANDS, exact=False, samples=200_000, seed=1,
                                         threads=1))
    p = res.players[0]  # exact: 1,338,564 / (2 x 1,086,008) pot shares
    assert res.samples == 200_000
    assert 0 < p.std_error and abs(p.equity - 1338564 / 2172016) <= 4 * p.std_error


def test_monte_carlo_poker_equity(benchmark):
    _need("poker_equity")
    benchmark(lambda: peers.poker_equity_monte_carlo(HANDS, samples=200_000, game="omaha"))


@pytest.fixture(scope="module")
def eval_deals():
    return _deals(20_000)


def test_eval_ours(benchmark, eval_deals):
    benchmark(lambda: evaluate_omaha_batch(*eval_deals, threads=1, check=False))


def test_eval_naive_baseline(benchmark, eval_deals):
    benchmark(lambda: omaha_naive_batch(*eval_deals))


def test_eval_phevaluator(benchmark, eval_deals):
    _need("phevaluator")
    benchmark(lambda: peers.omaha_strengths_phevaluator(*eval_deals))


# ---------------------------------------------------------------- side-by-side report
def _best(fn: Callable[[], object], repeats: int) -> float:
    fn()  # warm up (compilation, caches)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def report(repeats: int = 5, n_eval: int = 500_000, mc_samples: int = 2_000_000) -> list[dict]:
    """Rows ``{"task", "ours", "peer", "peer_value", "ours_value", "unit", "ratio"}``:
    ``ratio`` is how many times faster we are (ours rate / peer rate)."""
    rows = []
    t_ours = _best(lambda: omaha_equity(HANDS, exact=True, threads=1), repeats)
    if peers.available("poker_equity"):
        t_pe = _best(lambda: peers.poker_equity_exact(HANDS, game="omaha"), repeats)
        rows.append({"task": "exact AhAsKhKs vs QdJdTc9c preflop", "peer": "poker_equity",
                     "ours_value": t_ours, "peer_value": t_pe, "unit": "s",
                     "ratio": t_pe / t_ours})
    n = mc_samples
    t_ours = _best(lambda: omaha_equity(HANDS, exact=False, samples=n, seed=1, threads=1),
                   repeats)
    if peers.available("poker_equity"):
        t_pe = _best(lambda: peers.poker_equity_monte_carlo(HANDS, samples=n, game="omaha"),
                     repeats)
        rows.append({"task": "HU Omaha Monte Carlo", "peer": "poker_equity",
                     "ours_value": n / t_ours, "peer_value": n / t_pe, "unit": "deals/s",
                     "ratio": t_pe / t_ours})
    holes, boards = _deals(n_eval)
    t_ours = _best(lambda: evaluate_omaha_batch(holes, boards, threads=1, check=False), repeats)
    t_naive = _best(lambda: omaha_naive_batch(holes, boards), repeats)
    rows.append({"task": "Omaha eval 4+5", "peer": "naive 60-combo (ours)",
                 "ours_value": n_eval / t_ours, "peer_value": n_eval / t_naive,
                 "unit": "hands/s", "ratio": t_naive / t_ours})
    if peers.available("phevaluator"):
        m = min(n_eval, 200_000)
        t_ph = _best(lambda: peers.omaha_strengths_phevaluator(holes[:m], boards[:m]),
                     max(1, repeats // 2))
        rows.append({"task": "Omaha eval 4+5", "peer": "phevaluator",
                     "ours_value": n_eval / t_ours, "peer_value": m / t_ph,
                     "unit": "hands/s", "ratio": (n_eval / t_ours) / (m / t_ph)})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Omaha speed versus peers (one thread each).")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    rows = report(repeats=args.repeats)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for r in rows:
        fmt = "{:.4f}" if r["unit"] == "s" else "{:,.0f}"
        print(f"{r['task']:<38} ours {fmt.format(r['ours_value']):>12} {r['unit']:<8} "
              f"{r['peer']:<22} {fmt.format(r['peer_value']):>12}  ratio {r['ratio']:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
