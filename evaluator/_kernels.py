"""Private Numba kernels of the hand evaluator.

Kernels take only arrays and ints. ``tables`` is always the tuple
``(card_key int64[52], card_mask int64[52], row_offsets int32[R],
rank_table uint16[T], flush_table uint16[8192])`` from
:attr:`evaluator._tables.Tables.kernel_args`. See :mod:`evaluator.tablegen` for
the key layout. A hand's key starts at :data:`KEY_INIT` and its mask at 0.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._jit import CACHE
from .tablegen import KEY_INIT, ROW_SHIFT

KEY_INIT_I64 = np.int64(KEY_INIT)
_RANK_BITS = np.int64(0xFFFFFFFF)


@nb.njit(cache=CACHE, inline="always")
def lookup(key, mask, row_offsets, rank_table, flush_table):
    """Strength 1..7462 of a hand of 5..7 cards from its key and mask (int64)."""
    f = (key >> 32) & 0x8888
    if f != 0:
        if f & 0x8:
            sh = 0
        elif f & 0x80:
            sh = 16
        elif f & 0x800:
            sh = 32
        else:
            sh = 48
        return np.int32(flush_table[(mask >> sh) & 0x1FFF])
    rk = key & _RANK_BITS
    return np.int32(rank_table[rk + row_offsets[rk >> ROW_SHIFT]])


@nb.njit(cache=CACHE)
def eval_batch_serial(cards, out, tables):
    """Strength of each row of ``cards`` (uint8[N, k], 5 <= k <= 7) into ``out`` (int32[N])."""
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    n, k = cards.shape
    for i in range(n):
        key = KEY_INIT_I64
        mask = np.int64(0)
        for j in range(k):
            c = cards[i, j]
            key += card_key[c]
            mask |= card_mask[c]
        out[i] = lookup(key, mask, row_offsets, rank_table, flush_table)


@nb.njit(cache=CACHE, parallel=True)
def eval_batch_parallel(cards, out, tables, n_blocks):
    """As :func:`eval_batch_serial`, split into ``n_blocks`` contiguous blocks over threads."""
    n = cards.shape[0]
    step = (n + n_blocks - 1) // n_blocks
    for b in nb.prange(n_blocks):
        lo = b * step
        hi = min(n, lo + step)
        if lo < hi:
            eval_batch_serial(cards[lo:hi], out[lo:hi], tables)


@nb.njit(cache=CACHE)
def walk_prefix_range(n_cards, first_lo, first_hi, tables, hist):
    """Add to ``hist`` (int64[7463]) the strength of every ``n_cards``-card hand
    (5..7) whose lowest card lies in ``[first_lo, first_hi)``.

    Outer cards advance like an odometer; the last card is a tight inner loop
    that adds one key and one mask to the prefix's.
    """
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    m = n_cards - 1
    idx = np.empty(m, np.int64)
    if first_lo > 52 - n_cards:
        return
    for i in range(m):
        idx[i] = first_lo + i
    while idx[0] < first_hi:
        key = KEY_INIT_I64
        mask = np.int64(0)
        for i in range(m):
            key += card_key[idx[i]]
            mask |= card_mask[idx[i]]
        for c in range(idx[m - 1] + 1, 52):
            s = lookup(key + card_key[c], mask | card_mask[c], row_offsets, rank_table,
                       flush_table)
            hist[s] += 1
        # advance the odometer of the outer cards
        i = m - 1
        while i >= 0 and idx[i] >= 52 - n_cards + i:
            i -= 1
        if i < 0:
            return
        idx[i] += 1
        for j in range(i + 1, m):
            idx[j] = idx[j - 1] + 1


@nb.njit(cache=CACHE, parallel=True)
def walk_parallel(n_cards, tables, hists):
    """Per-first-card histograms ``hists`` (int64[52, 7463]) over every hand, in parallel."""
    for first in nb.prange(52):
        walk_prefix_range(n_cards, first, first + 1, tables, hists[first])
