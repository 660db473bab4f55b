"""Many exact-hand Hold'em spots in one call (private; arrays and ints only).

Each spot (row) is answered by the one-spot kernels it would get from
:func:`simulate.equity`: the reduced exact walk
(:func:`simulate._kernels.holdem_exact.exact_walk`) or the Monte Carlo block runner
(:func:`simulate._kernels.holdem_mc.mc_range`, blocks of ``block`` deals, block ``b``
of row ``i`` drawing from ``stream_state(seeds[i], b)``). Rows are independent and
each writes only its own output rows, so the answers do not depend on how rows
are split between threads: the parallel kernels cut the rows ``lo..hi`` into fixed
blocks of ``rows_per_block`` and run the blocks on all threads.

Shapes (N spots, P players, B board cards):

* ``hole`` uint8[N, P, 2], ``board`` uint8[N, B], ``avail`` uint8[N, 52]
  (1 where a card is still in the deck, in card-id order: the deck of row ``i``
  is ``nonzero(avail[i])``, as :meth:`simulate.request.Spot.remaining_deck`).
* exact: ``res`` int64[N, P, 3] (wins, ties, pot share in units of 1/2520),
  ``cats`` int64[N, P, 9], ``totals`` int64[N] (runouts walked).
* Monte Carlo: ``samples`` int64[N], ``seeds`` uint64[N], ``acc``
  int64[N, P, N_FIELDS] (see :mod:`simulate._kernels.holdem_mc`).

Outputs are added to, so callers pass zeroed arrays.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from evaluator._jit import parallel, serial
from simulate._kernels.holdem_exact import exact_walk
from simulate._kernels.holdem_mc import mc_range
from simulate._kernels.rng import stream_state


@serial
def exact_rows(hole, board, avail, lo, hi, tables, cat_of, res, cats, totals):
    """Rows ``lo..hi-1`` of an exact run, one after another."""
    for i in range(lo, hi):
        totals[i] += exact_walk(hole[i], board[i], avail[i], tables, cat_of, res[i], cats[i])


@parallel
def exact_rows_parallel(hole, board, avail, lo, hi, rows_per_block, tables, cat_of, res, cats,
                        totals):
    """As :func:`exact_rows`, in blocks of ``rows_per_block`` rows on all threads."""
    n_blocks = (hi - lo + rows_per_block - 1) // rows_per_block
    for b in nb.prange(n_blocks):
        a = lo + b * rows_per_block
        exact_rows(hole, board, avail, a, min(hi, a + rows_per_block), tables, cat_of, res, cats,
                   totals)


@serial
def mc_rows(hole, board, avail, samples, seeds, block, lo, hi, tables, cat_of, acc):
    """Rows ``lo..hi-1`` of a Monte Carlo run: row ``i`` deals ``samples[i]`` runouts in
    blocks of ``block`` from seed ``seeds[i]``, exactly as a one-spot run does."""
    deck = np.empty(52, np.uint8)
    for i in range(lo, hi):
        m = 0
        for c in range(52):
            if avail[i, c]:
                deck[m] = c
                m += 1
        n_blocks = (samples[i] + block - 1) // block
        mc_range(hole[i], board[i], deck[:m], samples[i], block, 0, n_blocks, seeds[i], tables,
                 cat_of, acc[i])


@parallel
def mc_rows_parallel(hole, board, avail, samples, seeds, block, lo, hi, rows_per_block, tables,
                     cat_of, acc):
    """As :func:`mc_rows`, in blocks of ``rows_per_block`` rows on all threads."""
    n_blocks = (hi - lo + rows_per_block - 1) // rows_per_block
    for b in nb.prange(n_blocks):
        a = lo + b * rows_per_block
        mc_rows(hole, board, avail, samples, seeds, block, a, min(hi, a + rows_per_block), tables,
                cat_of, acc)


@serial
def row_seeds(seed, out):
    """``out[i] = stream_state(seed, i)`` (uint64[N]): one independent seed per row."""
    for i in range(out.shape[0]):
        out[i] = stream_state(seed, i)
