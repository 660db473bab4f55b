"""Range equity of one exact hand against a random hand, preflop: pokerjit and OMPEval.

The range cases ``range-pre`` (AKs vs random) and ``range-flop`` (QQ+,AKs vs random on
Td9d2c) are ``pokerjit bench`` cases, timed with OMPEval by ``benchmarks/bench_cases.py``;
this module keeps the one spot that is not among them, AhKh vs random preflop (exact, one
thread each; answers equal to 1e-9). In the normal test run it runs once on a river board.
"""

from __future__ import annotations

import peers
import pytest

from simulate.range_equity import range_equity

HANDS = ["AhKh", "random"]
GROUP = "exact AhKh vs random preflop"


def _board(benchmark) -> str:
    return "Qc7d2s3h5c" if benchmark.disabled else ""


@pytest.mark.benchmark(group=GROUP)
def test_hand_vs_random_pokerjit(benchmark):
    board = _board(benchmark)
    want = peers.ompeval_equity(HANDS, board, exact=True, threads=1).equities[0]
    range_equity(HANDS, "Qc7d2s3h5c", exact=True, threads=1)  # compile outside the timing
    res = benchmark(range_equity, HANDS, board, exact=True, threads=1)
    assert res.players[0].equity == pytest.approx(want, abs=1e-9)


@pytest.mark.benchmark(group=GROUP)
def test_hand_vs_random_ompeval(benchmark):
    board = _board(benchmark)
    want = range_equity(HANDS, board, exact=True, threads=1).players[0].equity
    res = benchmark(peers.ompeval_equity, HANDS, board, exact=True, threads=1)
    assert res.equities[0] == pytest.approx(want, abs=1e-9)
