"""Monte Carlo Hold'em equity kernels (private; arrays and ints only).

A run of ``n`` deals is cut into blocks of ``block`` deals; block ``b`` draws from
its own SplitMix64 stream ``stream_state(seed, b)`` and deals from a fresh copy of
the deck, so its counts do not depend on which thread ran it. Counts are
integers, and integer sums do not depend on the order they are added in, so the
totals are the same on any thread count.

Per player the accumulator ``acc`` (int64[P, 13]) holds: wins, ties, pot share in
units of 1/2520, the sum of squared shares (units 1/2520**2, for the standard
error), then the nine category counts.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from evaluator._jit import CACHE
from evaluator._kernels import KEY_INIT_I64, flush_strength, rank_strength

from ._enum_kernels import share_table
from ._rng import mix64, stream_state

N_FIELDS = 13
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_S32 = np.uint64(32)
_LO32 = np.uint64(0xFFFFFFFF)


@nb.njit(cache=CACHE)
def mc_block(hole, board0, deck, n_deals, seed, block, tables, cat_of, acc):
    """Deal ``n_deals`` random runouts for block ``block`` and add the outcome to ``acc``.

    ``hole`` uint8[P, 2]; ``board0`` uint8[0..5]; ``deck`` uint8[M] the cards left
    (not modified); ``seed`` uint64; ``acc`` int64[P, 13] (see the module docstring).
    """
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    n_players = hole.shape[0]
    k = 5 - board0.shape[0]
    m = deck.shape[0]
    d = deck.copy()
    shares = share_table()
    hk = np.empty(n_players, np.int64)
    hm = np.empty(n_players, np.int64)
    for p in range(n_players):
        hk[p] = card_key[hole[p, 0]] + card_key[hole[p, 1]]
        hm[p] = card_mask[hole[p, 0]] | card_mask[hole[p, 1]]
    bk0 = KEY_INIT_I64
    bm0 = np.int64(0)
    for i in range(board0.shape[0]):
        bk0 += card_key[board0[i]]
        bm0 |= card_mask[board0[i]]
    st = np.empty(n_players, np.int64)
    state = stream_state(seed, block)
    for _ in range(n_deals):
        key = bk0
        mask = bm0
        # partial Fisher-Yates: two draws from each 64-bit output
        i = 0
        while i < k:
            state = state + _GOLDEN
            z = mix64(state)
            j = i + np.int64(((z >> _S32) * np.uint64(m - i)) >> _S32)
            c = d[j]
            d[j] = d[i]
            d[i] = c
            key += card_key[c]
            mask |= card_mask[c]
            i += 1
            if i < k:
                j = i + np.int64(((z & _LO32) * np.uint64(m - i)) >> _S32)
                c = d[j]
                d[j] = d[i]
                d[i] = c
                key += card_key[c]
                mask |= card_mask[c]
                i += 1
        best = 0
        nb_best = 0
        for p in range(n_players):
            kk = key + hk[p]
            if (kk >> 32) & 0x8888:
                v = flush_strength(kk, mask | hm[p], flush_table)
            else:
                v = rank_strength(kk, row_offsets, rank_table)
            st[p] = v
            if v > best:
                best = v
                nb_best = 1
            elif v == best:
                nb_best += 1
        share = shares[nb_best]
        sq = share * share
        for p in range(n_players):
            v = st[p]
            acc[p, 4 + cat_of[v]] += 1
            if v == best:
                if nb_best == 1:
                    acc[p, 0] += 1
                else:
                    acc[p, 1] += 1
                acc[p, 2] += share
                acc[p, 3] += sq


@nb.njit(cache=CACHE)
def mc_range(hole, board0, deck, n_total, block, b_lo, b_hi, seed, tables, cat_of, acc):
    """Blocks ``b_lo..b_hi-1`` of a run of ``n_total`` deals in blocks of ``block``,
    all added to ``acc`` (int64[P, 13])."""
    for b in range(b_lo, b_hi):
        n = min(block, n_total - b * block)
        if n > 0:
            mc_block(hole, board0, deck, n, seed, b, tables, cat_of, acc)


@nb.njit(cache=CACHE, parallel=True)
def mc_parallel(hole, board0, deck, n_total, block, b_lo, b_hi, seed, tables, cat_of, accs):
    """As :func:`mc_range`, the blocks split into ``accs.shape[0]`` contiguous chunks
    run in parallel, chunk ``i`` adding to ``accs[i]`` (int64[C, P, 13])."""
    n_chunks = accs.shape[0]
    n_blocks = b_hi - b_lo
    step = (n_blocks + n_chunks - 1) // n_chunks
    for i in nb.prange(n_chunks):
        lo = b_lo + i * step
        hi = min(b_hi, lo + step)
        if lo < hi:
            mc_range(hole, board0, deck, n_total, block, lo, hi, seed, tables, cat_of, accs[i])
