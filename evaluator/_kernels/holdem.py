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
from evaluator._kernels.cardcheck import GROUP, LOAD, bad_group5, bad_group6, bad_group7
from evaluator.tablegen import KEY_INIT, ROW_SHIFT

KEY_INIT_I64 = np.int64(KEY_INIT)
RANK_BITS = np.int64(0xFFFFFFFF)  # a key's rank part: the low 32 bits (suit counts above)
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
    rk = np.uint64(key & RANK_BITS)
    return rank_table[rk + np.uint64(np.int64(row_offsets[rk >> _SHIFT]))]


@serial
def lookup(key, mask, row_offsets, rank_table, flush_table):
    """Strength 1..7462 of a hand of 5..7 cards from its key and mask (int64).

    The hot loops write the branch out where they use the strength (``if (key >> 32) &
    0x8888: ... flush_strength ... else: ... rank_strength``) instead of calling this: the
    range walks ran 1.3-1.4x slower through it (AKs v random preflop 148 against 116 ms,
    AA,KK v QQ,JJ,AKs 67 against 48 ms; measured side by side, same answers), and no other
    form of it ran as fast: inlined, 148 ms; an inlined helper storing into the caller's
    array in each branch, 191 ms (likely the reference counts of the arrays a helper takes,
    as with the exact walk's row helper: ``simulate._kernels.holdem_exact.ROW_BATCH``)."""
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


@serial
def _vector_groups(n_rows, lo, hi, k):
    """How many whole 8-row groups from row ``lo`` up to ``hi`` (``k`` ids a row, ``n_rows``
    rows in all) can be checked in place: the check's 64-byte load from a group's first id
    must stay inside the array."""
    g = (hi - lo) // GROUP
    while g > 0 and k * (lo + GROUP * (g - 1)) + LOAD > k * n_rows:
        g -= 1
    return g


# The three group loops below differ only in the number of ids a row (one loop over a
# literal k, unrolled by LLVM, measured 1-4 % slower). Each evaluates the ``n_groups``
# groups of 8 rows from row ``lo`` (the caller makes sure that each group's 64-byte check
# load stays inside ``cards``). With ``check``, a group is checked just before it is
# evaluated (one vector check, see cardcheck.py: its cost hides behind the latency of the
# table reads; measured 0.96-1.0x unchecked speed, where a separate pass over the ids ran
# at 0.75-0.79x), so no table is read with a bad id; a bad group stops the loop, which
# returns its first row (-1 when every group is good). Measured: any other code in the loop
# (even a call that finds the bad row) cost 10-15 % of the speed. Rows are indexed from 0
# over slices: a start row not known to be 0 at compile time made the loop 17 % slower.


@serial
def _groups7(cards, out, lo, n_groups, check, card_key, card_mask, row_offsets, rank_table,
             flush_table):
    flat = cards.reshape(cards.shape[0] * 7)[7 * lo:]
    cards = cards[lo:]
    out = out[lo:]
    for g in range(n_groups):
        r0 = GROUP * g
        if check and bad_group7(flat, 7 * r0) != 0:
            return lo + r0
        for i in range(r0, r0 + GROUP):
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
    return -1


@serial
def _groups6(cards, out, lo, n_groups, check, card_key, card_mask, row_offsets, rank_table,
             flush_table):
    flat = cards.reshape(cards.shape[0] * 6)[6 * lo:]
    cards = cards[lo:]
    out = out[lo:]
    for g in range(n_groups):
        r0 = GROUP * g
        if check and bad_group6(flat, 6 * r0) != 0:
            return lo + r0
        for i in range(r0, r0 + GROUP):
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
    return -1


@serial
def _groups5(cards, out, lo, n_groups, check, card_key, card_mask, row_offsets, rank_table,
             flush_table):
    flat = cards.reshape(cards.shape[0] * 5)[5 * lo:]
    cards = cards[lo:]
    out = out[lo:]
    for g in range(n_groups):
        r0 = GROUP * g
        if check and bad_group5(flat, 5 * r0) != 0:
            return lo + r0
        for i in range(r0, r0 + GROUP):
            c0, c1, c2, c3, c4 = cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4]
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
def _groups(cards, out, lo, n_groups, check, tables):
    """:func:`_groups7`, :func:`_groups6` or :func:`_groups5`, by the row length of ``cards``."""
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    k = cards.shape[1]
    if k == 7:
        return _groups7(cards, out, lo, n_groups, check, card_key, card_mask, row_offsets,
                        rank_table, flush_table)
    if k == 6:
        return _groups6(cards, out, lo, n_groups, check, card_key, card_mask, row_offsets,
                        rank_table, flush_table)
    return _groups5(cards, out, lo, n_groups, check, card_key, card_mask, row_offsets,
                    rank_table, flush_table)


@serial
def eval_rows(cards, out, lo, hi, tables, check):
    """Strength of rows ``lo..hi-1`` of ``cards`` (C-contiguous uint8[N, k], 5 <= k <= 7)
    into ``out`` (int32[N]).

    Rows go in groups of 8 (:func:`_groups7` and its siblings), with the loads unrolled
    per ``k`` and the rank-set mask built only when the suit counters show a flush. The
    rows after the last whole group that can be checked in place (fewer than 16) go
    through a padded copy. With ``check``, every group is checked for an id over 51 or a
    repeated id before any table is read with its ids
    (:mod:`evaluator._kernels.cardcheck`). Returns the index of the first bad row, else
    -1; rows in groups before the bad row's group are evaluated, later ones are not.
    """
    k = cards.shape[1]
    n_vec = _vector_groups(cards.shape[0], lo, hi, k)
    bad = _groups(cards, out, lo, n_vec, check, tables)
    rest = lo + GROUP * n_vec
    if bad < 0 and rest < hi:
        m = hi - rest
        n_rest = (m + GROUP - 1) // GROUP
        # one group more than the rows need, so every check load stays inside; padding
        # rows hold the valid hand 0, 1, .., k-1
        pad = np.empty(((n_rest + 1) * GROUP, k), np.uint8)
        for i in range(pad.shape[0]):
            for j in range(k):
                pad[i, j] = cards[rest + i, j] if i < m else j
        pout = np.empty(pad.shape[0], np.int32)
        bad = _groups(pad, pout, 0, n_rest, check, tables)
        for i in range(m if bad < 0 else bad):
            out[rest + i] = pout[i]
        if bad >= 0:
            bad += rest
    if bad >= 0:
        for i in range(bad, min(hi, bad + GROUP)):
            if _bad_cards(cards[i]):
                return i
    return bad


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
    step += -step % GROUP  # whole groups of 8 rows (see eval_rows)
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
