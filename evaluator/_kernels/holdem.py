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

from evaluator._jit import parallel, serial
from evaluator.tablegen import KEY_INIT, ROW_SHIFT

KEY_INIT_I64 = np.int64(KEY_INIT)
_RANK_BITS = np.int64(0xFFFFFFFF)
_SHIFT = np.uint64(ROW_SHIFT)


@serial
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


@serial
def rank_strength(key, row_offsets, rank_table):
    """Strength of a hand without a flush, from the rank sum in the key's low 32 bits."""
    # Unsigned indices spare Numba's negative-index wraparound code, and the
    # table's uint16 is returned as is; measured, either change alone halves batch speed.
    rk = np.uint64(key & _RANK_BITS)
    return rank_table[rk + np.uint64(np.int64(row_offsets[rk >> _SHIFT]))]


@serial
def lookup(key, mask, row_offsets, rank_table, flush_table):
    """Strength 1..7462 of a hand of 5..7 cards from its key and mask (int64)."""
    if (key >> 32) & 0x8888:
        return flush_strength(key, mask, flush_table)
    return rank_strength(key, row_offsets, rank_table)


@serial
def _bad_cards(cs):
    """Nonzero when the card ids in the tuple ``cs`` repeat or exceed 51 (branch-free).

    Distinct ids give distinct bits, whose sum equals their OR; a repeat carries.
    """
    total = np.int64(0)
    either = np.int64(0)
    over = np.int64(0)
    for c in cs:
        bit = np.int64(1) << (np.int64(c) & 63)
        total += bit
        either |= bit
        over |= np.int64(c) + 12  # ids <= 51 keep this below 64
    return (total ^ either) | (over >> 6)


@serial
def _batch7(cards, out, check, card_key, card_mask, row_offsets, rank_table, flush_table):
    for i in range(cards.shape[0]):
        c0, c1, c2, c3 = cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3]
        c4, c5, c6 = cards[i, 4], cards[i, 5], cards[i, 6]
        if check and _bad_cards((c0, c1, c2, c3, c4, c5, c6)):
            return i
        key = (KEY_INIT_I64 + card_key[c0] + card_key[c1] + card_key[c2] + card_key[c3]
               + card_key[c4] + card_key[c5] + card_key[c6])
        if (key >> 32) & 0x8888:
            mask = (card_mask[c0] | card_mask[c1] | card_mask[c2] | card_mask[c3]
                    | card_mask[c4] | card_mask[c5] | card_mask[c6])
            out[i] = flush_strength(key, mask, flush_table)
        else:
            out[i] = rank_strength(key, row_offsets, rank_table)
    return -1


@serial
def _batch6(cards, out, check, card_key, card_mask, row_offsets, rank_table, flush_table):
    for i in range(cards.shape[0]):
        c0, c1, c2, c3 = cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3]
        c4, c5 = cards[i, 4], cards[i, 5]
        if check and _bad_cards((c0, c1, c2, c3, c4, c5)):
            return i
        key = (KEY_INIT_I64 + card_key[c0] + card_key[c1] + card_key[c2] + card_key[c3]
               + card_key[c4] + card_key[c5])
        if (key >> 32) & 0x8888:
            mask = (card_mask[c0] | card_mask[c1] | card_mask[c2] | card_mask[c3]
                    | card_mask[c4] | card_mask[c5])
            out[i] = flush_strength(key, mask, flush_table)
        else:
            out[i] = rank_strength(key, row_offsets, rank_table)
    return -1


@serial
def _batch5(cards, out, check, card_key, card_mask, row_offsets, rank_table, flush_table):
    for i in range(cards.shape[0]):
        c0, c1, c2, c3, c4 = cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4]
        if check and _bad_cards((c0, c1, c2, c3, c4)):
            return i
        key = (KEY_INIT_I64 + card_key[c0] + card_key[c1] + card_key[c2] + card_key[c3]
               + card_key[c4])
        if (key >> 32) & 0x8888:
            mask = (card_mask[c0] | card_mask[c1] | card_mask[c2] | card_mask[c3]
                    | card_mask[c4])
            out[i] = flush_strength(key, mask, flush_table)
        else:
            out[i] = rank_strength(key, row_offsets, rank_table)
    return -1


@serial
def eval_batch_serial(cards, out, tables, check):
    """Strength of each row of ``cards`` (uint8[N, k], 5 <= k <= 7) into ``out`` (int32[N]).

    Row loads are unrolled per ``k`` and the rank-set mask is only built when the
    suit counters show a flush. With ``check`` each row is first tested for a
    repeated or out-of-range card (branch-free, before any table is read); the index
    of the first bad row is returned (evaluation stops there), else -1.
    """
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    k = cards.shape[1]
    if k == 7:
        return _batch7(cards, out, check, card_key, card_mask, row_offsets, rank_table,
                       flush_table)
    if k == 6:
        return _batch6(cards, out, check, card_key, card_mask, row_offsets, rank_table,
                       flush_table)
    return _batch5(cards, out, check, card_key, card_mask, row_offsets, rank_table,
                   flush_table)


@parallel
def eval_batch_parallel(cards, out, tables, check, n_blocks):
    """As :func:`eval_batch_serial`, split into ``n_blocks`` contiguous blocks over threads;
    returns the first bad row (-1 if none)."""
    n = cards.shape[0]
    step = (n + n_blocks - 1) // n_blocks
    bad = np.full(n_blocks, -1, np.int64)
    for b in nb.prange(n_blocks):
        lo = b * step
        hi = min(n, lo + step)
        if lo < hi:
            r = eval_batch_serial(cards[lo:hi], out[lo:hi], tables, check)
            if r >= 0:
                bad[b] = lo + r
    for b in range(n_blocks):
        if bad[b] >= 0:
            return bad[b]
    return -1


@serial
def _last_card_loop(key, mask, lo, tables, hist4):
    """Add the strengths of the hands ``prefix + g`` for every card ``g`` in ``lo..51``.

    ``hist4`` is int64[4, 7463]; the row is picked by ``g & 3`` so consecutive
    increments of one strength do not wait on each other.
    """
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    for g in range(lo, 52):
        k = key + card_key[g]
        if (k >> 32) & 0x8888:
            s = flush_strength(k, mask | card_mask[g], flush_table)
        else:
            s = rank_strength(k, row_offsets, rank_table)
        hist4[g & 3, s] += 1


@serial
def walk_prefix2(n_cards, a, b, tables, hist4):
    """Add to ``hist4`` (int64[4, 7463]) the strength of every ``n_cards``-card hand
    (5, 6 or 7) whose two lowest cards are ``a < b``.

    Nested loops carry the partial key and mask of the cards so far (adding a
    card is adding a number); the last card is a tight inner loop.
    """
    card_key, card_mask = tables[0], tables[1]
    top = 52 - n_cards  # highest possible lowest card
    kb = KEY_INIT_I64 + card_key[a] + card_key[b]
    mb = card_mask[a] | card_mask[b]
    for c in range(b + 1, top + 3):
        kc = kb + card_key[c]
        mc = mb | card_mask[c]
        for d in range(c + 1, top + 4):
            kd = kc + card_key[d]
            md = mc | card_mask[d]
            if n_cards == 5:
                _last_card_loop(kd, md, d + 1, tables, hist4)
                continue
            for e in range(d + 1, top + 5):
                ke = kd + card_key[e]
                me = md | card_mask[e]
                if n_cards == 6:
                    _last_card_loop(ke, me, e + 1, tables, hist4)
                    continue
                for f in range(e + 1, top + 6):
                    _last_card_loop(ke + card_key[f], me | card_mask[f], f + 1, tables, hist4)


@serial
def walk_range(n_cards, first_lo, first_hi, tables, hist4):
    """Every ``n_cards``-card hand whose lowest card is in ``[first_lo, first_hi)``,
    into ``hist4`` (int64[4, 7463])."""
    top = 52 - n_cards
    for a in range(first_lo, min(first_hi, top + 1)):
        for b in range(a + 1, top + 2):
            walk_prefix2(n_cards, a, b, tables, hist4)


@parallel
def walk_parallel(n_cards, tables, hists):
    """Every hand, in parallel, into per-block histograms ``hists`` (int64[B, 4, 7463]).

    The work items are the (lowest, second-lowest) card pairs, dealt round-robin to
    the B blocks so each block gets a similar share (work per pair falls steeply with
    the pair's cards, so contiguous chunks would leave one thread most of it).
    """
    top = 52 - n_cards
    n_pairs = 0
    for a in range(top + 1):
        n_pairs += top + 1 - a
    pa = np.empty(n_pairs, np.int64)
    pb = np.empty(n_pairs, np.int64)
    i = 0
    for a in range(top + 1):
        for b in range(a + 1, top + 2):
            pa[i] = a
            pb[i] = b
            i += 1
    n_blocks = hists.shape[0]
    for blk in nb.prange(n_blocks):
        for j in range(blk, n_pairs, n_blocks):
            walk_prefix2(n_cards, pa[j], pb[j], tables, hists[blk])
