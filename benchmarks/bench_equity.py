"""Hold'em equity speed, pokerjit and peers side by side (one ``group`` per target).

Run ``pytest benchmarks/bench_equity.py --benchmark-enable`` to time; in the normal
test run (benchmarks disabled) each case runs once, on a smaller size, as a smoke
test. Every case is single-threaded unless its name says otherwise. Targets:

* exact AhKh vs QsQd and AhAs vs KdKc vs QhQs preflop: pokerjit time <= OMPEval's;
* heads-up Monte Carlo: >= 20M showdowns/s/thread and >= 1.5x eval7's native MC;
* six players, 1,000,000 deals: >= 4x faster than poker-equity;
* 2 threads >= 1.8x one thread on a large run.

``python benchmarks/bench_equity.py`` prints the same comparisons as ratios.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import peers  # noqa: E402

from simulate import equity  # noqa: E402

HU = ["AhKh", "QsQd"]
THREE = ["AhAs", "KdKc", "QhQs"]
SIX = ["AhKh", "QsQd", "JcTc", "9h9d", "7s6s", "Ad2c"]


def _need(peer: str) -> None:
    if not peers.available(peer):
        pytest.skip(f"{peer} not installed")


def _deals(benchmark, full: int, smoke: int = 20_000) -> int:
    return smoke if benchmark.disabled else full


def _warm() -> None:
    equity(HU)
    equity(HU, samples=20_000, seed=1, threads=1)
    equity(HU, samples=40_000, seed=1, threads=2)


@pytest.mark.benchmark(group="exact AhKh vs QsQd preflop")
def test_exact_hu_pokerjit(benchmark):
    _warm()
    r = benchmark(equity, HU, exact=True, threads=1)
    assert abs(r.players[0].equity - 0.46214457) < 1e-8


@pytest.mark.benchmark(group="exact AhKh vs QsQd preflop")
def test_exact_hu_ompeval(benchmark):
    _need("ompeval")
    r = benchmark(peers.ompeval_equity, HU, exact=True, threads=1)
    assert abs(r.equities[0] - 0.46214457) < 1e-8


@pytest.mark.benchmark(group="exact AhAs vs KdKc vs QhQs preflop")
def test_exact_3way_pokerjit(benchmark):
    _warm()
    r = benchmark(equity, THREE, exact=True, threads=1)
    assert r.exact and r.samples == 1_370_754


@pytest.mark.benchmark(group="exact AhAs vs KdKc vs QhQs preflop")
def test_exact_3way_ompeval(benchmark):
    _need("ompeval")
    r = benchmark(peers.ompeval_equity, THREE, exact=True, threads=1)
    assert r.samples == 1_370_754


@pytest.mark.benchmark(group="MC heads-up AhKh vs QsQd, 1M deals")
def test_mc_hu_pokerjit(benchmark):
    _warm()
    n = _deals(benchmark, 1_000_000)
    r = benchmark(equity, HU, samples=n, seed=1, threads=1)
    assert r.samples == n
    p = r.players[0]
    assert 0 < p.std_error and abs(p.equity - 0.46214457) <= 4 * p.std_error


@pytest.mark.benchmark(group="MC heads-up AhKh vs QsQd, 1M deals")
def test_mc_hu_eval7(benchmark):
    _need("eval7")
    n = _deals(benchmark, 1_000_000)
    benchmark(peers.eval7_equity_monte_carlo, HU[0], HU[1], iterations=n)


@pytest.mark.benchmark(group="MC heads-up AhKh vs QsQd, 1M deals")
def test_mc_hu_poker_equity(benchmark):
    _need("poker_equity")
    n = _deals(benchmark, 1_000_000)
    benchmark(peers.poker_equity_monte_carlo, HU, samples=n, threads=1)


@pytest.mark.benchmark(group="MC six players, 1M deals")
def test_mc_six_pokerjit(benchmark):
    _warm()
    n = _deals(benchmark, 1_000_000)
    r = benchmark(equity, SIX, samples=n, seed=1, threads=1)
    assert r.samples == n


@pytest.mark.benchmark(group="MC six players, 1M deals")
def test_mc_six_poker_equity(benchmark):
    _need("poker_equity")
    n = _deals(benchmark, 1_000_000)
    benchmark(peers.poker_equity_monte_carlo, SIX, samples=n, threads=1)


@pytest.mark.benchmark(group="MC six players, 8M deals, threads")
@pytest.mark.parametrize("threads", [1, 2])
def test_mc_six_threads_pokerjit(benchmark, threads):
    _warm()
    n = _deals(benchmark, 8_000_000, 40_000)
    r = benchmark.pedantic(equity, (SIX,), {"samples": n, "seed": 1, "threads": threads},
                           rounds=3, iterations=1)
    assert r.samples == n


# --------------------------------------------------------------------------- script
def _best(fn, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def compare(repeat: int = 5) -> list[tuple[str, float, str, float, float]]:
    """Rows (case, pokerjit seconds, peer, peer seconds, peer/pokerjit speed ratio)."""
    _warm()
    rows = []

    def add(case, ours, peer, theirs):
        if not peers.available(peer):
            return
        a = _best(ours, repeat)
        b = _best(theirs, repeat)
        rows.append((case, a, peer, b, b / a))

    add("exact AhKh vs QsQd", lambda: equity(HU, exact=True, threads=1), "ompeval",
        lambda: peers.ompeval_equity(HU, exact=True, threads=1))
    add("exact AhAs vs KdKc vs QhQs", lambda: equity(THREE, exact=True, threads=1), "ompeval",
        lambda: peers.ompeval_equity(THREE, exact=True, threads=1))
    add("MC HU 1M deals", lambda: equity(HU, samples=1_000_000, seed=1, threads=1), "eval7",
        lambda: peers.eval7_equity_monte_carlo(HU[0], HU[1], iterations=1_000_000))
    add("MC HU 1M deals", lambda: equity(HU, samples=1_000_000, seed=1, threads=1),
        "poker_equity", lambda: peers.poker_equity_monte_carlo(HU, samples=1_000_000,
                                                               threads=1))
    add("MC 6 players 1M deals", lambda: equity(SIX, samples=1_000_000, seed=1, threads=1),
        "poker_equity", lambda: peers.poker_equity_monte_carlo(SIX, samples=1_000_000,
                                                               threads=1))
    if peers.available("ompeval"):
        a = _best(lambda: equity(HU, samples=1_000_000, seed=1, threads=1), repeat)
        r = peers.ompeval_equity(HU, exact=False, stdev=0.0, time_limit=1.0, threads=1)
        rows.append(("MC HU showdowns/s", 1e6 / a, "ompeval", r.samples / r.elapsed_s,
                     (1e6 / a) / (r.samples / r.elapsed_s)))
    t1 = _best(lambda: equity(SIX, samples=8_000_000, seed=1, threads=1), 2)
    t2 = _best(lambda: equity(SIX, samples=8_000_000, seed=1, threads=2), 2)
    rows.append(("MC 6 players 8M deals, 2 threads vs 1", t2, "pokerjit 1 thread", t1, t1 / t2))
    return rows


def main() -> None:
    for case, a, peer, b, ratio in compare():
        print(f"{case:<40} pokerjit {a:10.5f}  {peer:<18} {b:10.5f}  ratio {ratio:6.2f}x")


if __name__ == "__main__":
    main()
