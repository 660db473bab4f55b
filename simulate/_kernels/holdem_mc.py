"""Monte Carlo Hold'em equity kernels (private; arrays and ints only).

A run of ``n`` deals is cut into blocks of ``block`` deals; block ``b`` draws from
its own random stream ``stream_state(seed, b)`` and deals from the deck as
given, so its counts do not depend on which thread ran it. Counts are integers,
and integer sums do not depend on the order they are added in, so the totals are
the same on any thread count.

Each deal is the exactly uniform unordered deal of :mod:`simulate._kernels.rng`
(``draw_set5``: Floyd's sampling of the deck's positions, the deck never written), so every
runout is equally likely.

Per player the accumulator ``acc`` (int64[P, N_FIELDS]) holds the nine category
counts (columns 0..8), then at column ``TIED + k`` (k = 1..10) the deals on which
the player was one of exactly k best hands: k = 1 are wins, k >= 2 ties. Pot
share (units of 1/2520: ``2520 // k``) and its square, for the standard error,
follow from these counts in Python.

This is the one Monte Carlo path that keeps a fused "best strength, count the ties" loop
instead of building strength rows for the scorer (:mod:`simulate._kernels.score`): heads-up,
4,000,000 deals on one thread, side by side in one process, this kernel dealt 30.1 M deals/s
and the same deals through the scorer (``allin_ev`` with one pot) 17.5 M deals/s.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from evaluator._jit import parallel, serial
from evaluator._kernels.holdem import KEY_INIT_I64, flush_strength, rank_strength
from simulate._kernels.rng import draw_set5, stream_state, subset_params

MAX_PLAYERS = 10
TIED = 8  # acc[p, TIED + k]: deals on which player p was one of k best hands (k = 1..10)
N_FIELDS = TIED + MAX_PLAYERS + 1


@serial
def mc_block(hole, board0, deck, n_deals, seed, block, tables, cat_of, acc):
    """Deal ``n_deals`` random runouts for block ``block`` and add the outcome to ``acc``.

    ``hole`` uint8[P, 2]; ``board0`` uint8[0, 3, 4 or 5]; ``deck`` uint8[M] the cards left
    (not modified); ``seed`` uint64; ``cat_of`` uint8[7463]; ``acc`` int64[P, N_FIELDS]
    (see the module docstring).

    Heads-up (AhKh v QsQd preflop, one thread) a deal takes 7.5-7.8 ns, from 12.4 with the
    ordered deal and SplitMix64; each step measured side by side: the unordered deal
    (Floyd's bit set, not the ordered deal's tracked swaps) with the five draws from one
    output by multiplies and the keys of the deck's positions in ``dk`` (one load a card,
    not two) to 9.7 ns; wyrand's one multiply for SplitMix64's two, 8.8; unsigned positions
    (no negative-index code), 7.7; the board's suit mask only on deals where a suit counter
    shows a flush, 0.4 ns. The draws' bounds are scalars here (``subset_params``): read from
    an array they were loaded again every deal, 1.2 ns more. The board code is written out
    in both loops below: as a helper function it cost a third of the speed.
    """
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    n_players = hole.shape[0]
    k = 5 - board0.shape[0]
    m = deck.shape[0]
    dk = np.zeros(64, np.int64)  # by deck position: the card's key and suit mask
    dm = np.zeros(64, np.int64)
    for i in range(m):
        dk[i] = card_key[deck[i]]
        dm[i] = card_mask[deck[i]]
    sp = subset_params(m, k)
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
    state = stream_state(seed, block)
    if n_players == 2:
        # heads-up: one counter per deal, [outcome, category 0, category 1], outcome
        # 0 = player 0 wins, 1 = player 1 wins, 2 = split
        hu = np.zeros((3, 9, 9), np.int64)
        hk0, hk1, hm0, hm1 = hk[0] + bk0, hk[1] + bk0, hm[0] | bm0, hm[1] | bm0
        for _ in range(n_deals):
            state, q0, q1, q2, q3, q4 = draw_set5(state, sp)
            key = np.int64(0)
            if k == 5:
                key = dk[q0] + dk[q1] + dk[q2] + dk[q3] + dk[q4]
            elif k == 2:
                key = dk[q0] + dk[q1]
            elif k == 1:
                key = dk[q0]
            ka = key + hk0
            kb = key + hk1
            if ((ka | kb) >> 32) & 0x8888:
                mask = np.int64(0)
                if k == 5:
                    mask = dm[q0] | dm[q1] | dm[q2] | dm[q3] | dm[q4]
                elif k == 2:
                    mask = dm[q0] | dm[q1]
                elif k == 1:
                    mask = dm[q0]
                if (ka >> 32) & 0x8888:
                    va = flush_strength(ka, mask | hm0, flush_table)
                else:
                    va = rank_strength(ka, row_offsets, rank_table)
                if (kb >> 32) & 0x8888:
                    vb = flush_strength(kb, mask | hm1, flush_table)
                else:
                    vb = rank_strength(kb, row_offsets, rank_table)
            else:
                va = rank_strength(ka, row_offsets, rank_table)
                vb = rank_strength(kb, row_offsets, rank_table)
            hu[np.int64(vb > va) + 2 * np.int64(va == vb), cat_of[va], cat_of[vb]] += 1
        for ca in range(9):
            for cb in range(9):
                for o in range(3):
                    acc[0, ca] += hu[o, ca, cb]
                    acc[1, cb] += hu[o, ca, cb]
                acc[0, TIED + 1] += hu[0, ca, cb]
                acc[1, TIED + 1] += hu[1, ca, cb]
                acc[0, TIED + 2] += hu[2, ca, cb]
                acc[1, TIED + 2] += hu[2, ca, cb]
        return
    st = np.empty(n_players, np.int64)
    for _ in range(n_deals):
        state, q0, q1, q2, q3, q4 = draw_set5(state, sp)
        key = bk0
        if k == 5:
            key += dk[q0] + dk[q1] + dk[q2] + dk[q3] + dk[q4]
        elif k == 2:
            key += dk[q0] + dk[q1]
        elif k == 1:
            key += dk[q0]
        # best strength, how many hold it and who (the last to reach it), branch-free
        best = 0
        n_best = 0
        winner = 0
        for p in range(n_players):
            kk = key + hk[p]
            if (kk >> 32) & 0x8888:
                mask = bm0
                if k == 5:
                    mask |= dm[q0] | dm[q1] | dm[q2] | dm[q3] | dm[q4]
                elif k == 2:
                    mask |= dm[q0] | dm[q1]
                elif k == 1:
                    mask |= dm[q0]
                v = flush_strength(kk, mask | hm[p], flush_table)
            else:
                v = rank_strength(kk, row_offsets, rank_table)
            st[p] = v
            acc[p, cat_of[v]] += 1
            above = v > best
            n_best = 1 if above else n_best + (v == best)
            winner = p if above else winner
            best = max(best, v)
        if n_best == 1:
            acc[winner, TIED + 1] += 1
        else:
            for p in range(n_players):
                if st[p] == best:
                    acc[p, TIED + n_best] += 1


@serial
def mc_range(hole, board0, deck, n_total, block, b_lo, b_hi, seed, tables, cat_of, acc):
    """Blocks ``b_lo..b_hi-1`` of a run of ``n_total`` deals in blocks of ``block``,
    all added to ``acc`` (int64[P, N_FIELDS])."""
    for b in range(b_lo, b_hi):
        n = min(block, n_total - b * block)
        if n > 0:
            mc_block(hole, board0, deck, n, seed, b, tables, cat_of, acc)


@parallel
def mc_parallel(hole, board0, deck, n_total, block, b_lo, b_hi, seed, tables, cat_of, accs):
    """As :func:`mc_range`, the blocks split into ``accs.shape[0]`` contiguous chunks
    run in parallel, chunk ``i`` adding to ``accs[i]`` (int64[C, P, N_FIELDS])."""
    n_chunks = accs.shape[0]
    n_blocks = b_hi - b_lo
    step = (n_blocks + n_chunks - 1) // n_chunks
    for i in nb.prange(n_chunks):
        lo = b_lo + i * step
        hi = min(b_hi, lo + step)
        if lo < hi:
            mc_range(hole, board0, deck, n_total, block, lo, hi, seed, tables, cat_of, accs[i])
