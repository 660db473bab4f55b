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
_SHIFT = np.uint64(ROW_SHIFT)


@nb.njit(cache=CACHE)
def flush_strength(key, mask, flush_table):
    """Strength of the flush in a hand whose suit counters show one (``key >> 32 & 0x8888``)."""
    f = (key >> 32) & 0x8888
    if f & 0x8:
        sh = 0
    elif f & 0x80:
        sh = 16
    elif f & 0x800:
        sh = 32
    else:
        sh = 48
    return flush_table[(mask >> sh) & 0x1FFF]


@nb.njit(cache=CACHE)
def rank_strength(key, row_offsets, rank_table):
    """Strength of a hand without a flush, from the rank sum in the key's low 32 bits."""
    # Unsigned indices spare Numba's negative-index wraparound code, and the
    # table's uint16 is returned as is; measured, either change alone halves batch speed.
    rk = np.uint64(key & _RANK_BITS)
    return rank_table[rk + np.uint64(np.int64(row_offsets[rk >> _SHIFT]))]


@nb.njit(cache=CACHE)
def lookup(key, mask, row_offsets, rank_table, flush_table):
    """Strength 1..7462 of a hand of 5..7 cards from its key and mask (int64)."""
    if (key >> 32) & 0x8888:
        return flush_strength(key, mask, flush_table)
    return rank_strength(key, row_offsets, rank_table)


@nb.njit(cache=CACHE)
def _batch7(cards, out, card_key, card_mask, row_offsets, rank_table, flush_table):
    for i in range(cards.shape[0]):
        c0, c1, c2, c3 = cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3]
        c4, c5, c6 = cards[i, 4], cards[i, 5], cards[i, 6]
        key = (KEY_INIT_I64 + card_key[c0] + card_key[c1] + card_key[c2] + card_key[c3]
               + card_key[c4] + card_key[c5] + card_key[c6])
        if (key >> 32) & 0x8888:
            mask = (card_mask[c0] | card_mask[c1] | card_mask[c2] | card_mask[c3]
                    | card_mask[c4] | card_mask[c5] | card_mask[c6])
            out[i] = flush_strength(key, mask, flush_table)
        else:
            out[i] = rank_strength(key, row_offsets, rank_table)


@nb.njit(cache=CACHE)
def _batch6(cards, out, card_key, card_mask, row_offsets, rank_table, flush_table):
    for i in range(cards.shape[0]):
        c0, c1, c2, c3 = cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3]
        c4, c5 = cards[i, 4], cards[i, 5]
        key = (KEY_INIT_I64 + card_key[c0] + card_key[c1] + card_key[c2] + card_key[c3]
               + card_key[c4] + card_key[c5])
        if (key >> 32) & 0x8888:
            mask = (card_mask[c0] | card_mask[c1] | card_mask[c2] | card_mask[c3]
                    | card_mask[c4] | card_mask[c5])
            out[i] = flush_strength(key, mask, flush_table)
        else:
            out[i] = rank_strength(key, row_offsets, rank_table)


@nb.njit(cache=CACHE)
def _batch5(cards, out, card_key, card_mask, row_offsets, rank_table, flush_table):
    for i in range(cards.shape[0]):
        c0, c1, c2, c3, c4 = cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4]
        key = (KEY_INIT_I64 + card_key[c0] + card_key[c1] + card_key[c2] + card_key[c3]
               + card_key[c4])
        if (key >> 32) & 0x8888:
            mask = (card_mask[c0] | card_mask[c1] | card_mask[c2] | card_mask[c3]
                    | card_mask[c4])
            out[i] = flush_strength(key, mask, flush_table)
        else:
            out[i] = rank_strength(key, row_offsets, rank_table)


@nb.njit(cache=CACHE)
def eval_batch_serial(cards, out, tables):
    """Strength of each row of ``cards`` (uint8[N, k], 5 <= k <= 7) into ``out`` (int32[N]).

    Row loads are unrolled per ``k`` and the rank-set mask is only built when the
    suit counters show a flush.
    """
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    k = cards.shape[1]
    if k == 7:
        _batch7(cards, out, card_key, card_mask, row_offsets, rank_table, flush_table)
    elif k == 6:
        _batch6(cards, out, card_key, card_mask, row_offsets, rank_table, flush_table)
    else:
        _batch5(cards, out, card_key, card_mask, row_offsets, rank_table, flush_table)


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


@nb.njit(cache=CACHE)
def first_bad_row(cards):
    """Index of the first row of ``cards`` (uint8[N, k]) holding a card id > 51 or a
    repeated card, or -1 if every row is fine."""
    n, k = cards.shape
    for i in range(n):
        seen = np.int64(0)
        for j in range(k):
            c = cards[i, j]
            if c > 51:
                return i
            bit = np.int64(1) << c
            if seen & bit:
                return i
            seen |= bit
    return -1
