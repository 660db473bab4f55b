"""Range equity speed side by side with OMPEval (pokerfast), one thread each, as ratios.

Under the normal ``pytest`` run (``--benchmark-disable``) each case runs once as a smoke test
on a small spot; ``pytest benchmarks/bench_ranges.py --benchmark-enable`` times the real cases.
The full 169-hand chart is timed by ``python benchmarks/bench_ranges.py --chart``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peers  # noqa: E402

from simulate.range_equity import preflop_vs_random, range_equity  # noqa: E402

CASES = {
    "QQ+,AKs vs random on Td9d2c": (["QQ+,AKs", "random"], "Td9d2c"),
    "AKs vs random preflop": (["AKs", "random"], ""),
    "AhKh vs random preflop": (["AhKh", "random"], ""),
}


def _enabled(request: pytest.FixtureRequest) -> bool:
    return not request.config.getoption("benchmark_disable", default=True)


@pytest.mark.parametrize("name", list(CASES))
def test_range_equity_exact(benchmark, request, name):
    hands, board = CASES[name]
    if not _enabled(request):
        board = board or "Qc7d2s3h"  # smoke test: keep it quick
    res = benchmark(lambda: range_equity(hands, board, exact=True, threads=1))
    if peers.available("ompeval"):
        theirs = peers.ompeval_equity(hands, board, exact=True, threads=1)
        assert res.players[0].equity == pytest.approx(theirs.equities[0], abs=1e-9)


def compare(repeats: int = 3) -> list[tuple[str, float, float, float]]:
    """Seconds for us and OMPEval on each case, runs interleaved: (name, our best, their best,
    median of the per-run ratios)."""
    out = []
    for name, (hands, board) in CASES.items():
        range_equity(hands, board, exact=True, threads=1)  # compile / warm caches
        ours, theirs, ratios = [], [], []
        for _ in range(repeats):
            t0 = time.perf_counter()
            range_equity(hands, board, exact=True, threads=1)
            ours.append(time.perf_counter() - t0)
            theirs.append(peers.ompeval_equity(hands, board, exact=True, threads=1).elapsed_s)
            ratios.append(ours[-1] / theirs[-1])
        out.append((name, min(ours), min(theirs), sorted(ratios)[len(ratios) // 2]))
    return out


if __name__ == "__main__":
    if "--chart" in sys.argv:
        preflop_vs_random(threads=2)
        t0 = time.perf_counter()
        preflop_vs_random(threads=2)
        print(f"169-hand chart vs one random hand, exact, 2 threads: "
              f"{time.perf_counter() - t0:.1f} s")
    for name, a, b, med in compare():
        print(f"{name:32s} pokerjit {a:8.4f} s  ompeval {b:8.4f} s  ratio of bests {a / b:5.2f}"
              f"  median ratio {med:5.2f}")
