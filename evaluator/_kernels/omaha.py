"""Private Numba kernels of the Omaha evaluator (exactly two hole cards + three board cards).

Kernels take only arrays and ints; ``tables`` is the tuple from
:attr:`evaluator._tables.Tables.kernel_args` (see :mod:`evaluator._kernels.holdem`).

Keys are additive, so a five-card Omaha hand's key is ``pair_key + triple_key``:
the (up to 15) hole-pair partial keys and the (up to 10) board-triple partial keys
(which carry ``KEY_INIT``) are built once per hand, then every combination costs
one addition and one table lookup. A flush needs a suited board triple and a hole
pair of the same suit; only those combinations touch the flush table. The
non-flush part depends only on ranks, so pairs and triples with the same rank sum
are evaluated once (paired boards, paired hands).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from evaluator._jit import parallel, serial
from evaluator._kernels.holdem import KEY_INIT_I64, RANK_BITS, flush_strength

_SUITS = np.int64(0xFFFF) << np.int64(32)


@serial
def hole_pairs(hole, card_key, card_mask, pk, pm, pr):
    """Partial keys of every two-card subset of ``hole`` (uint8[h]).

    Writes ``pk`` (int64 keys, no ``KEY_INIT``), ``pm`` (masks) and ``pr`` (rank part
    of the key) for all C(h, 2) pairs; returns how many ``pr`` values are distinct
    (they are moved to the front of ``pr``).
    """
    h = hole.shape[0]
    n = 0
    for i in range(h):
        ki = card_key[hole[i]]
        mi = card_mask[hole[i]]
        for j in range(i + 1, h):
            pk[n] = ki + card_key[hole[j]]
            pm[n] = mi | card_mask[hole[j]]
            n += 1
    return _distinct_ranks(pk, n, pr)


@serial
def board_triples(board, card_key, card_mask, tk, tm, tr):
    """Partial keys (with ``KEY_INIT``) of every three-card subset of ``board`` (uint8[b]).

    Writes ``tk``, ``tm`` and ``tr`` like :func:`hole_pairs`; returns the number of
    distinct rank parts.
    """
    b = board.shape[0]
    n = 0
    for i in range(b):
        ki = KEY_INIT_I64 + card_key[board[i]]
        mi = card_mask[board[i]]
        for j in range(i + 1, b):
            kj = ki + card_key[board[j]]
            mj = mi | card_mask[board[j]]
            for k in range(j + 1, b):
                tk[n] = kj + card_key[board[k]]
                tm[n] = mj | card_mask[board[k]]
                n += 1
    return _distinct_ranks(tk, n, tr)


@serial
def _distinct_ranks(keys, n, out):
    m = 0
    for i in range(n):
        r = keys[i] & RANK_BITS
        new = True
        for j in range(m):
            if out[j] == r:
                new = False
                break
        if new:
            out[m] = r
            m += 1
    return m


@serial
def best_flush(pk, pm, n_pairs, tk, tm, n_trip, flush_table):
    """Best flush over every (pair, triple) of the partial keys and masks, 0 if none.

    A flush needs a suited triple (its suit counter reads 6 = 3 + 3) and a pair of
    that suit; other triples are skipped without a lookup.
    """
    best = 0
    for t in range(n_trip):
        c = tk[t] >> 32
        if ((c >> 1) & (c >> 2) & 0x1111) == 0:
            continue
        for a in range(n_pairs):
            key = pk[a] + tk[t]
            if (key >> 32) & 0x8888:
                s = flush_strength(key, pm[a] | tm[t], flush_table)
                if s > best:
                    best = s
    return best


@serial
def omaha_batch_serial(holes, boards, out, tables, otables):
    """Best Omaha strength of each row: ``holes`` uint8[N, h] (h 2..6), ``boards``
    uint8[N, b] (b 3..5) -> ``out`` int32[N].

    ``otables`` = ``(pair_index int32[169], triple_index int32[2197], rank5 uint16[91 * 455])``
    (see :func:`evaluator.omaha.omaha_tables`): the non-flush strength of a hole pair and a
    board triple is one read, ``rank5[pair_index[r1 * 13 + r2] + triple_index[...]]``
    (pair_index is pre-multiplied by 455). Flushes are only looked for when the board holds
    three cards of a suit and the hand two of the same suit.
    """
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    pair_index, triple_index, rank5 = otables
    pidx = np.empty(15, np.int64)
    tidx = np.empty(10, np.int64)
    pk = np.empty(15, np.int64)
    pm = np.empty(15, np.int64)
    tk = np.empty(10, np.int64)
    tm = np.empty(10, np.int64)
    tr = np.empty(10, np.int64)
    pr = np.empty(15, np.int64)
    h = holes.shape[1]
    b = boards.shape[1]
    n_pairs = h * (h - 1) // 2
    n_trip = b * (b - 1) * (b - 2) // 6
    for row in range(holes.shape[0]):
        n = 0
        hs = np.int64(0)  # hole suit counts, one nibble per suit
        for i in range(h):
            ci = np.int64(holes[row, i])
            hs += np.int64(1) << ((ci & 3) * 4)
            ri = (ci >> 2) * 13
            for j in range(i + 1, h):
                pidx[n] = pair_index[ri + (np.int64(holes[row, j]) >> 2)]
                n += 1
        n = 0
        bs = np.int64(0)
        for i in range(b):
            ci = np.int64(boards[row, i])
            bs += np.int64(1) << ((ci & 3) * 4)
            ri = (ci >> 2) * 169
            for j in range(i + 1, b):
                rj = ri + (np.int64(boards[row, j]) >> 2) * 13
                for k in range(j + 1, b):
                    tidx[n] = triple_index[rj + (np.int64(boards[row, k]) >> 2)]
                    n += 1
        best = np.uint16(0)
        for a in range(n_pairs):
            base = pidx[a]
            for t in range(n_trip):
                s = rank5[base + tidx[t]]
                if s > best:
                    best = s
        # a flush needs a suit with >= 3 board cards and >= 2 hole cards
        flush = False
        for su in range(4):
            if ((bs >> (4 * su)) & 0xF) >= 3 and ((hs >> (4 * su)) & 0xF) >= 2:
                flush = True
        if flush:
            hole_pairs(holes[row], card_key, card_mask, pk, pm, pr)
            board_triples(boards[row], card_key, card_mask, tk, tm, tr)
            f = best_flush(pk, pm, n_pairs, tk, tm, n_trip, flush_table)
            if f > best:
                best = f
        out[row] = best


@parallel
def omaha_batch_parallel(holes, boards, out, tables, otables, n_blocks):
    """As :func:`omaha_batch_serial`, in ``n_blocks`` contiguous blocks over threads."""
    n = holes.shape[0]
    step = (n + n_blocks - 1) // n_blocks
    for blk in nb.prange(n_blocks):
        lo = blk * step
        hi = min(n, lo + step)
        if lo < hi:
            omaha_batch_serial(holes[lo:hi], boards[lo:hi], out[lo:hi], tables, otables)


@serial
def first_bad_omaha_row(holes, boards):
    """Index of the first row whose hole + board cards hold an id > 51 or a repeat, or -1."""
    for i in range(holes.shape[0]):
        seen = np.int64(0)
        for j in range(holes.shape[1] + boards.shape[1]):
            c = holes[i, j] if j < holes.shape[1] else boards[i, j - holes.shape[1]]
            if c > 51:
                return i
            bit = np.int64(1) << c
            if seen & bit:
                return i
            seen |= bit
    return -1


# ----------------------------------------------------------------- the eight-or-better low
# ``ltables`` = ``(low_bit uint8[52], low_of_mask int8[256])`` (:func:`evaluator.low.low_tables`):
# each card's low rank bit (0 above eight) and the low value 1..56 of each 8-bit rank mask
# (0 unless it holds exactly five ranks). A low uses two hole and three board cards like the
# high; five cards with nonzero bits make a low exactly when their bits are five distinct
# ranks, so a pair's mask OR a triple's mask looks the value up directly.

@serial
def low_pairs(hole, low_bit, out):
    """The rank masks (into ``out`` int64[>= C(h, 2)]) of the two-card subsets of ``hole``
    that can be part of a low (two different ranks of eight or lower); returns how many."""
    n = 0
    h = hole.shape[0]
    for i in range(h):
        a = np.int64(low_bit[hole[i]])
        if a == 0:
            continue
        for j in range(i + 1, h):
            b = np.int64(low_bit[hole[j]])
            if b != 0 and b != a:
                out[n] = a | b
                n += 1
    return n


@serial
def low_triples(board, low_bit, out):
    """As :func:`low_pairs` for the three-card subsets of ``board`` (three different ranks
    of eight or lower); returns how many."""
    n = 0
    b = board.shape[0]
    for i in range(b):
        x = np.int64(low_bit[board[i]])
        if x == 0:
            continue
        for j in range(i + 1, b):
            y = np.int64(low_bit[board[j]])
            if y == 0 or y == x:
                continue
            for k in range(j + 1, b):
                z = np.int64(low_bit[board[k]])
                if z != 0 and z != x and z != y:
                    out[n] = x | y | z
                    n += 1
    return n


@serial
def best_low(pm, n_pairs, tm, n_trip, low_of_mask):
    """The best low value over every (pair mask, triple mask) of rank-disjoint parts, 0 if
    none."""
    best = 0
    for a in range(n_pairs):
        for t in range(n_trip):
            if pm[a] & tm[t] == 0:
                v = np.int64(low_of_mask[pm[a] | tm[t]])
                if v > best:
                    best = v
    return best


@serial
def omaha_low_batch_serial(holes, boards, out, ltables):
    """The eight-or-better low of each row: ``holes`` uint8[N, h] (h 2..6), ``boards``
    uint8[N, b] (b 3..5) -> ``out`` (an integer dtype, [N]): 1..56, 0 when no low
    qualifies."""
    low_bit, low_of_mask = ltables
    pm = np.empty(15, np.int64)
    tm = np.empty(10, np.int64)
    for row in range(holes.shape[0]):
        n_pairs = low_pairs(holes[row], low_bit, pm)
        n_trip = low_triples(boards[row], low_bit, tm) if n_pairs else 0
        out[row] = best_low(pm, n_pairs, tm, n_trip, low_of_mask)
