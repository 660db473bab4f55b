"""The shipped tables are exactly what evaluator/tablegen.py builds."""

from __future__ import annotations

import numpy as np
import pytest

from evaluator import tablegen
from evaluator._tables import get_tables, load_arrays

# digest of the shipped data/tables.npz (names, dtypes, shapes and bytes of its arrays);
# after a deliberate change rebuild with `python -m evaluator.tablegen` and update this
PINNED = "b75d3ff9f22316b4aa43936b97270e164148ee29833d28c97e5bb4ebb9d97a90"


@pytest.mark.slow
def test_generator_reproduces_shipped_tables():
    built = tablegen.build_tables()
    shipped = load_arrays()
    assert sorted(built) == sorted(shipped)
    for name in built:
        assert built[name].dtype == shipped[name].dtype, name
        assert np.array_equal(built[name], shipped[name]), name
    assert tablegen.tables_digest(built) == tablegen.tables_digest(shipped) == PINNED


def test_tables_are_compact():
    t = get_tables()
    assert t.nbytes < 600_000
    assert t.flush_table.size == 8192


def test_rank_multipliers_give_unique_sums():
    mults = get_tables().rank_multipliers.tolist()
    sums = {}
    for m in tablegen._rank_multisets():
        s = sum(k * mults[r] for r, k in enumerate(m))
        assert s not in sums
        sums[s] = m
    assert len(sums) == len(tablegen._rank_multisets())


def test_fft_lengths_are_the_smallest_5_smooth_numbers_at_least_n():
    def smooth(k: int) -> bool:
        for p in (2, 3, 5):
            while k % p == 0:
                k //= p
        return k == 1

    for n in range(1, 3000):
        got = tablegen._fft_length(n)
        assert got >= n and smooth(got), n
        assert not any(smooth(k) for k in range(n, got)), n
