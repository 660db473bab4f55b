"""Private Numba kernel of the range equity sampler (:func:`mc_run`).

Kernels take only arrays and ints; ``tables`` is the evaluator's ``kernel_args`` tuple and
the players' combos come padded as in :mod:`simulate._kernels.ranges` (``cdf float64[P, M]``
cumulative weights, ``ncombo int64[P]``, ``cards uint8[P, M, 2]``). Blocks of deals are
scheduled by :func:`simulate._kernels.ranges.block_bounds`, the walks' schedule.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from evaluator._jit import parallel, serial
from evaluator._kernels.holdem import KEY_INIT_I64, flush_strength, rank_strength
from simulate._kernels.award import best_and_ties
from simulate._kernels.ranges import block_bounds
from simulate._kernels.rng import (
    cards_left,
    deal,
    deal_setup,
    draw5,
    draw_tuple,
    pick5,
    stream_state,
)
from simulate._kernels.score import SHARE_UNIT


@serial
def _mc_block(seed, block, block_size, board, base_bits, cdf, ncombo, cards, is_random,
              cat_of, tables, max_tries, sh, sq, win, tie, cat, combo_n, combo_sh):
    """``block_size`` deals from stream ``block``: the non-random players' combos by the
    weighted tuple draw, then the random players' hole cards and the runout by the exactly
    uniform deal from the cards left (both in :mod:`simulate._kernels.rng`)."""
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    P = ncombo.shape[0]
    k = board.shape[0]
    bkey0 = KEY_INIT_I64
    bmask0 = np.int64(0)
    for j in range(k):
        bkey0 += card_key[board[j]]
        bmask0 |= card_mask[board[j]]
    hole = np.empty((P, 2), np.int64)
    idx = np.zeros(P, np.int64)
    deck = np.empty(64, np.int64)
    strength = np.empty(P, np.int64)
    everyone = np.ones(P, np.bool_)
    n_random = 0
    for p in range(P):
        n_random += is_random[p]
    n_out = 0
    for c in range(52):
        n_out += (base_bits >> c) & 1
    n_deal = 2 * n_random + 5 - k  # random players' cards, then the runout
    m = 52 - n_out - 2 * (P - n_random)
    mul = np.empty(n_deal + 5 - n_deal % 5, np.uint64)
    thr = np.empty(mul.shape[0], np.uint64)
    deal_setup(m, n_deal, mul, thr)
    state = stream_state(np.uint64(seed), block)
    for _ in range(block_size):
        state, used, rej = draw_tuple(state, cdf, ncombo, cards, is_random, base_bits, idx,
                                      max_tries)
        if rej < 0:
            return False
        for p in range(P):
            if not is_random[p]:
                hole[p, 0] = cards[p, idx[p], 0]
                hole[p, 1] = cards[p, idx[p], 1]
        cards_left(used, deck)
        if n_deal <= 5:  # the same deal, tracked in registers (no stores)
            state, r0, r1, r2, r3, r4 = draw5(state, mul, thr, 0)
            deck[0], deck[1], deck[2], deck[3], deck[4] = pick5(
                deck, deck[0], deck[1], deck[2], deck[3], r0, r1, r2, r3, r4)
        else:
            state = deal(state, deck, 0, n_deal, mul, thr)
        t = 0
        for p in range(P):
            if is_random[p]:
                a = deck[t]
                b = deck[t + 1]
                hole[p, 0] = min(a, b)
                hole[p, 1] = max(a, b)
                t += 2
        bkey = bkey0
        bmask = bmask0
        for j in range(t, n_deal):
            bkey += card_key[deck[j]]
            bmask |= card_mask[deck[j]]
        for p in range(P):
            a = hole[p, 0]
            b = hole[p, 1]
            kk = bkey + card_key[a] + card_key[b]
            if (kk >> 32) & 0x8888:
                strength[p] = flush_strength(kk, bmask | card_mask[a] | card_mask[b],
                                             flush_table)
            else:
                strength[p] = rank_strength(kk, row_offsets, rank_table)
        best, nbest, _ = best_and_ties(strength, everyone)
        share = SHARE_UNIT // nbest
        for p in range(P):
            s = strength[p]
            ci = hole[p, 1] * (hole[p, 1] - 1) // 2 + hole[p, 0]
            combo_n[p, ci] += 1
            cat[p, cat_of[s]] += 1
            if s == best:
                sh[p] += share
                sq[p] += share * share
                combo_sh[p, ci] += share
                if nbest == 1:
                    win[p] += 1
                else:
                    tie[p] += 1
    return True


@parallel
def mc_run(seed, n_total, block_size, b_lo, b_hi, board, base_bits, cdf, ncombo, cards,
           is_random, cat_of, tables, max_tries, sh, sq, win, tie, cat, combo_n, combo_sh, ok):
    """Monte Carlo blocks ``b_lo..b_hi-1`` of a run of ``n_total`` deals in blocks of
    ``block_size`` (the block plan of :mod:`simulate.sampling`); block ``b`` deals
    ``min(block_size, n_total - b * block_size)`` times from stream ``stream_state(seed, b)``.
    Non-random players' combos are
    drawn by weight (``cdf float64[P, M]``, cumulative) all together and the whole draw is
    redrawn on any shared card (exact card removal); players whose range is every live combo
    at one weight (``is_random``) are then dealt from the remaining deck, then the runout.
    Integer accumulators per chunk ``C = sh.shape[0]`` (``sh``, ``sq``, ``win``, ``tie``
    int64[C, P]; ``cat`` int64[C, P, 9]; ``combo_n``, ``combo_sh`` int64[C, P, 1326]); shares
    are in units of 1/2520 of a pot, so sums are exact and independent of the thread count.
    ``ok`` (bool[C]) turns False where a draw failed ``max_tries`` times in a row."""
    C = sh.shape[0]
    for ch in nb.prange(C):
        lo, hi = block_bounds(ch, b_lo, b_hi, C)
        for b in range(lo, hi):
            size = min(block_size, n_total - b * block_size)
            if size <= 0:
                break
            if not _mc_block(seed, b, size, board, base_bits, cdf, ncombo,
                             cards, is_random, cat_of, tables, max_tries, sh[ch], sq[ch],
                             win[ch], tie[ch], cat[ch], combo_n[ch], combo_sh[ch]):
                ok[ch] = False
                break
