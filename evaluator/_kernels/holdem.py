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
    """Nonzero when the card ids in ``cs`` (a tuple or 1-D array) repeat or exceed 51.

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


_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_ONE = np.uint64(1)


@serial
def _popcount(x):
    """Set bits of the uint64 ``x`` (LLVM turns this pattern into ``popcnt``)."""
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return (x * _H01) >> np.uint64(56)


@serial
def _max_id(flat, lo, hi):
    """Largest of ``flat[lo:hi]`` (uint8); a plain max loop, which LLVM vectorizes."""
    part = flat[lo:hi]  # indices from 0 up: no negative-index code, so it vectorizes
    mx = np.uint8(0)
    for j in range(part.shape[0]):
        mx = max(mx, part[j])
    return mx


@serial
def _repeats(flat, lo, hi, k):
    """Nonzero when a row ``lo..hi-1`` of ``flat`` (uint8, ``k`` ids a row, row ``i`` at
    ``flat[k*i:k*i+k]``) repeats a card. Every id must already be known to be <= 51.

    One bit per id, OR-ed: a repeat collapses two bits, so the row's popcount falls below
    ``k``. The fixed stride lets LLVM vectorize the loop over rows (interleaved loads).
    """
    acc = np.uint64(0)
    flat = flat[k * lo:k * hi]  # indices from 0 up: no negative-index code
    hi -= lo
    lo = 0
    if k == 7:
        for i in range(lo, hi):
            b = 7 * i
            bits = ((_ONE << np.uint64(flat[b])) | (_ONE << np.uint64(flat[b + 1]))
                    | (_ONE << np.uint64(flat[b + 2])) | (_ONE << np.uint64(flat[b + 3]))
                    | (_ONE << np.uint64(flat[b + 4])) | (_ONE << np.uint64(flat[b + 5]))
                    | (_ONE << np.uint64(flat[b + 6])))
            acc |= _popcount(bits) ^ np.uint64(7)
    elif k == 6:
        for i in range(lo, hi):
            b = 6 * i
            bits = ((_ONE << np.uint64(flat[b])) | (_ONE << np.uint64(flat[b + 1]))
                    | (_ONE << np.uint64(flat[b + 2])) | (_ONE << np.uint64(flat[b + 3]))
                    | (_ONE << np.uint64(flat[b + 4])) | (_ONE << np.uint64(flat[b + 5])))
            acc |= _popcount(bits) ^ np.uint64(6)
    else:
        for i in range(lo, hi):
            b = 5 * i
            bits = ((_ONE << np.uint64(flat[b])) | (_ONE << np.uint64(flat[b + 1]))
                    | (_ONE << np.uint64(flat[b + 2])) | (_ONE << np.uint64(flat[b + 3]))
                    | (_ONE << np.uint64(flat[b + 4])))
            acc |= _popcount(bits) ^ np.uint64(5)
    return acc


@serial
def _batch7(cards, out, lo, hi, card_key, card_mask, row_offsets, rank_table, flush_table):
    # rows from 0 up: no negative-index code (measured: 17 % slower when lo is not
    # known to be 0 at compile time)
    cards = cards[lo:hi]
    out = out[lo:hi]
    for i in range(hi - lo):
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


@serial
def _batch6(cards, out, lo, hi, card_key, card_mask, row_offsets, rank_table, flush_table):
    cards = cards[lo:hi]
    out = out[lo:hi]
    for i in range(hi - lo):
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


@serial
def _batch5(cards, out, lo, hi, card_key, card_mask, row_offsets, rank_table, flush_table):
    cards = cards[lo:hi]
    out = out[lo:hi]
    for i in range(hi - lo):
        c0, c1, c2, c3, c4 = cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4]
        key = (KEY_INIT_I64 + card_key[c0] + card_key[c1] + card_key[c2] + card_key[c3]
               + card_key[c4])
        if (key >> 32) & 0x8888:
            mask = (card_mask[c0] | card_mask[c1] | card_mask[c2] | card_mask[c3]
                    | card_mask[c4])
            out[i] = flush_strength(key, mask, flush_table)
        else:
            out[i] = rank_strength(key, row_offsets, rank_table)


@serial
def _eval_rows(cards, out, lo, hi, tables):
    """Rows ``lo..hi-1`` of ``cards``, unchecked, by the loop unrolled for their ``k``."""
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    k = cards.shape[1]
    if k == 7:
        _batch7(cards, out, lo, hi, card_key, card_mask, row_offsets, rank_table, flush_table)
    elif k == 6:
        _batch6(cards, out, lo, hi, card_key, card_mask, row_offsets, rank_table, flush_table)
    else:
        _batch5(cards, out, lo, hi, card_key, card_mask, row_offsets, rank_table, flush_table)


#: Rows checked at a time before they are evaluated (their 28 KB of ids stay in L1/L2;
#: measured: 0.76x unchecked speed against 0.71x with 1,024 rows).
_CHECK_ROWS = 4096


@serial
def eval_rows(cards, out, lo, hi, tables, check):
    """Strength of rows ``lo..hi-1`` of ``cards`` (C-contiguous uint8[N, k], 5 <= k <= 7)
    into ``out`` (int32[N]).

    Row loads are unrolled per ``k`` and the rank-set mask is only built when the suit
    counters show a flush. With ``check``, each group of ``_CHECK_ROWS`` rows is first
    tested, before any table is read with its ids: one vectorized max over its bytes
    (an id over 51) and one vectorized popcount per row of the OR of ``1 << id`` (a
    repeat). Returns the index of the first bad row (rows before it are evaluated, later
    ones may not be), else -1.
    """
    if not check:
        _eval_rows(cards, out, lo, hi, tables)
        return -1
    k = cards.shape[1]
    flat = cards.reshape(cards.shape[0] * k)
    for blo in range(lo, hi, _CHECK_ROWS):
        bhi = min(hi, blo + _CHECK_ROWS)
        if _max_id(flat, k * blo, k * bhi) > 51 or _repeats(flat, blo, bhi, k):
            for i in range(blo, bhi):
                if _bad_cards(cards[i]):
                    return i
        _eval_rows(cards, out, blo, bhi, tables)
    return -1


@serial
def eval_batch_serial(cards, out, tables, check):
    """Strength of each row of ``cards`` (C-contiguous uint8[N, k], 5 <= k <= 7) into
    ``out`` (int32[N]); see :func:`eval_rows`. Returns the first bad row, else -1."""
    return eval_rows(cards, out, 0, cards.shape[0], tables, check)


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
            bad[b] = eval_rows(cards, out, lo, hi, tables, check)
    for b in range(n_blocks):
        if bad[b] >= 0:
            return bad[b]
    return -1


#: One more card in every suit counter: a prefix plus one card can show a flush only if
#: the prefix's key plus this does (some suit already holds four cards).
_ONE_EACH_SUIT = np.int64(0x1111 << 32)


@serial
def _flush_card_loop(key, mask, lo, tables, hist4):
    """Add the strengths of the hands ``prefix + g`` for every card ``g`` in ``lo..51``
    (the prefix's ``key`` and ``mask``), flushes included.

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
def _rank_card_loop(key, lo, tables, hist4):
    """As :func:`_flush_card_loop` for a prefix with no suit of four: no ``g`` can make a
    flush, so each hand is the rank lookup alone (no flush test, no branch)."""
    card_key, row_offsets, rank_table = tables[0], tables[2], tables[3]
    for g in range(lo, 52):
        hist4[g & 3, rank_strength(key + card_key[g], row_offsets, rank_table)] += 1


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
                _flush_card_loop(kd, md, d + 1, tables, hist4)
                continue
            for e in range(d + 1, top + 5):
                ke = kd + card_key[e]
                me = md | card_mask[e]
                if n_cards == 6:
                    _flush_card_loop(ke, me, e + 1, tables, hist4)
                    continue
                # Most 6-card prefixes hold no suit of four: no 7th card makes a flush.
                # None does when the 5-card prefix holds no suit of three.
                if ((ke + 2 * _ONE_EACH_SUIT) >> 32) & 0x8888:
                    for f in range(e + 1, top + 6):
                        kf = ke + card_key[f]
                        if ((kf + _ONE_EACH_SUIT) >> 32) & 0x8888:
                            _flush_card_loop(kf, me | card_mask[f], f + 1, tables, hist4)
                        else:
                            _rank_card_loop(kf, f + 1, tables, hist4)
                else:
                    for f in range(e + 1, top + 6):
                        _rank_card_loop(ke + card_key[f], f + 1, tables, hist4)


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
