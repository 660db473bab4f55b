"""Numba kernels of the all-in expected-value engine (private; see ``simulate.allin``).

Every kernel works in *live index* space: the ``L`` players still holding cards,
numbered ``0..L-1`` in seat order. Shared inputs:

- ``hole_key``, ``hole_mask``: ``int64[L]``, the sum of each player's two
  ``card_key`` entries and the OR of their ``card_mask`` entries.
- ``board_key``, ``board_mask``: int64 scalars, ``KEY_INIT`` plus the known
  board cards' keys, and their mask.
- ``deck``: ``uint8[M]``, the cards that can still come (not in a hand, on the
  board or dead); ``k``: how many board cards are still to come (0..5).
- ``amounts``: ``int64[P]`` chips of each *contested* pot (two or more
  eligible players); ``elig``: ``bool[P, L]``, who may win each; ``split``,
  ``odd``: ``int64[P, L + 1]`` from :func:`simulate._kernels.award.split_tables`.
- ``order``: ``int64[L]``, the live indices in odd-chip order (first live
  seat left of the button first).
- ``tables``: :attr:`evaluator._tables.Tables.kernel_args`.

Exact all-ins run the equity engines' walks (the reduced Hold'em walk, the board-major
range walk, Omaha's triple table) into the one scorer, :mod:`simulate._kernels.score`,
except exact Hold'em hands with at most two board cards to come, which
:func:`exact_runouts` settles board by board. This module holds that loop and the Monte
Carlo kernels.

Outputs are integer chip totals, summed over runouts: ``win[p, i]`` is what
live player ``i`` took from pot ``p``. Monte Carlo kernels also return
``sumsq[i]`` (float64), the sum over runouts of the square of player ``i``'s
chips from all contested pots on that runout, for standard errors. Callers
divide in Python.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from evaluator._jit import inline, parallel, serial
from evaluator._kernels.holdem import flush_strength, rank_strength
from simulate._kernels.award import award, award_any
from simulate._kernels.holdem_exact import next_subset
from simulate._kernels.rng import (
    deal_setup,
    draw5,
    draw_set5,
    draw_tuple,
    pick5,
    stream_state,
    subset_params,
    to_front,
)


# The per-runout helpers are inlined at the Numba IR level: a plain call passes a
# dozen arrays and pays reference counting on each, which measured about twice the
# cost of the whole walk (evaluation and settlement) for a four-way preflop spot.
@inline
def _strengths(bkey, bmask, hole_key, hole_mask, st, row_offsets, rank_table, flush_table):
    """Fill ``st`` (uint16[L]) with each live player's strength on a full board."""
    for i in range(hole_key.shape[0]):
        key = bkey + hole_key[i]
        if (key >> 32) & 0x8888:
            st[i] = flush_strength(key, bmask | hole_mask[i], flush_table)
        else:
            st[i] = rank_strength(key, row_offsets, rank_table)


@inline
def _settle(st, amounts, split, odd, elig, order, win, pay):
    """Award every contested pot on one runout (:func:`simulate._kernels.award.award`, the
    one pot rule): add to ``win[p, i]`` and ``pay[i]``."""
    award(st, np.int64(1), amounts, elig, order, split, odd, win, pay)


@inline
def _full_board(board_key, board_mask, k, c0, c1, c2, c3, c4, card_key, card_mask):
    """The key and mask of the full board: the known board's ``board_key``/``board_mask``
    plus the first ``k`` (0..5) of the dealt cards ``c0..c4``."""
    key = board_key
    mask = board_mask
    cards = (c0, c1, c2, c3, c4)
    for t in range(k):
        key += card_key[cards[t]]
        mask |= card_mask[cards[t]]
    return key, mask


@inline
def _add_squares(pay, sumsq):
    """``sumsq[i] += pay[i] ** 2`` (float64) for one runout's chips ``pay`` (int64[L])."""
    for i in range(pay.shape[0]):
        x = np.float64(pay[i])
        sumsq[i] += x * x


@inline
def _one_runout(bkey, bmask, hole_key, hole_mask, st, amounts, split, odd, elig, order,
                win, pay, row_offsets, rank_table, flush_table):
    _strengths(bkey, bmask, hole_key, hole_mask, st, row_offsets, rank_table, flush_table)
    _settle(st, amounts, split, odd, elig, order, win, pay)


@serial
def mc_block(seed, block, n, k, board_key, board_mask, deck, hole_key, hole_mask, amounts,
             split, odd, elig, order, tables, win, sumsq):
    """``n`` random runouts from stream ``block`` of ``seed`` (uint64): deal ``k`` cards
    from ``deck`` by the exactly uniform deal of :mod:`simulate._kernels.rng` (``deck`` is
    only read), settle, add to ``win`` (int64[P, L]) and ``sumsq`` (float64[L]).

    The board's key and mask (:func:`_full_board`), the settling (:func:`_one_runout`) and
    the squares (:func:`_add_squares`) are three inlined helpers called here and in
    :func:`mc_range_block` alike, each taking only what it needs: one inlined helper doing
    all three (the dealt cards, ``pay``, ``sumsq`` and the card tables as arguments) took the
    same four-player run 36 ms instead of 6.6 ms on one thread (measured); these three run
    as fast as the lines written out (measured side by side)."""
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    n_live = hole_key.shape[0]
    m = deck.shape[0]
    d = np.zeros(64, np.uint8)  # every position Floyd's sampling can name
    d[:m] = deck
    sp = subset_params(m, k)
    st = np.zeros(n_live, np.uint16)
    pay = np.zeros(n_live, np.int64)
    state = stream_state(seed, block)
    for _ in range(n):
        state, q0, q1, q2, q3, q4 = draw_set5(state, sp)
        c0, c1, c2, c3, c4 = d[q0], d[q1], d[q2], d[q3], d[q4]
        key, mask = _full_board(board_key, board_mask, k, c0, c1, c2, c3, c4, card_key,
                                card_mask)
        for i in range(n_live):
            pay[i] = 0
        _one_runout(key, mask, hole_key, hole_mask, st, amounts, split, odd, elig,
                    order, win, pay, row_offsets, rank_table, flush_table)
        _add_squares(pay, sumsq)


@serial
def mc_serial(seed, n_total, block_size, b_lo, b_hi, k, board_key, board_mask, deck, hole_key,
              hole_mask, amounts, split, odd, elig, order, tables, wins, sumsqs):
    """Blocks ``b_lo..b_hi-1`` of a run of ``n_total`` runouts in blocks of ``block_size``
    (the block plan of :mod:`simulate.sampling`: block ``b`` does ``min(block_size, n_total
    - b * block_size)`` runouts from stream ``b``), on one thread.

    ``wins``: ``int64[B, P, L]``, ``sumsqs``: ``float64[B, L]`` (zeroed), row ``b - b_lo``
    for block ``b``.
    """
    for i in range(b_hi - b_lo):
        b = b_lo + i
        n = min(block_size, n_total - b * block_size)
        if n > 0:
            mc_block(seed, b, n, k, board_key, board_mask, deck, hole_key, hole_mask,
                     amounts, split, odd, elig, order, tables, wins[i], sumsqs[i])


@parallel
def mc_parallel(seed, n_total, block_size, b_lo, b_hi, k, board_key, board_mask, deck,
                hole_key, hole_mask, amounts, split, odd, elig, order, tables, wins,
                sumsqs):
    """As :func:`mc_serial`, blocks spread over threads (same answer, any thread count)."""
    for i in nb.prange(b_hi - b_lo):
        b = b_lo + i
        n = min(block_size, n_total - b * block_size)
        if n > 0:
            mc_block(seed, b, n, k, board_key, board_mask, deck, hole_key, hole_mask,
                     amounts, split, odd, elig, order, tables, wins[i], sumsqs[i])


#: :meth:`simulate.allin_engines.Engine.exact` walks every runout of at most this many
#: cards one by one (:func:`exact_runouts`, at most C(45, 2) = 990 boards: a flop, turn or
#: river all-in); more cards take the equity engine's reduced walk.
PLAIN_MAX_CARDS = 2


@serial
def exact_runouts(k, board_key, board_mask, deck, hole_key, hole_mask, amounts, split, odd,
                  elig, order, tables, win):
    """Every runout of ``k`` cards from ``deck`` (uint8[M]), each board once, in
    lexicographic order of deck positions: settle it (:func:`_one_runout`) and add to
    ``win`` (int64[P, L]). Returns the number of runouts, ``C(M, k)``.

    A few hundred boards at most (``k <= PLAIN_MAX_CARDS`` where the engine calls it): the
    totals are the reduced walk's to the chip (both sum exact chips over the same boards),
    and this loop compiles in a fraction of that walk's time, so a hand replay's post-flop
    all-in compiles no walk."""
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    n_live = hole_key.shape[0]
    m = deck.shape[0]
    if k > m:
        return 0
    st = np.zeros(n_live, np.uint16)
    pay = np.zeros(n_live, np.int64)
    d = np.zeros(64, np.uint8)  # the deck, padded: the positions past k name card 0
    for j in range(m):  # element by element: a slice assignment compiles Numba's shape
        d[j] = deck[j]  # check and its formatted message (3.6 s of this kernel's compile)
    q = np.zeros(5, np.int64)  # deck positions of the dealt cards (only the first k read)
    for t in range(k):
        q[t] = t
    n = 0
    while True:
        key, mask = _full_board(board_key, board_mask, k, d[q[0]], d[q[1]], d[q[2]], d[q[3]],
                                d[q[4]], card_key, card_mask)
        _one_runout(key, mask, hole_key, hole_mask, st, amounts, split, odd, elig, order,
                    win, pay, row_offsets, rank_table, flush_table)
        n += 1
        if not next_subset(q, k, m, 0):
            return n


# ----------------------------------------------------------------------------- ranges
# A live player with a range holds one of ``ncombo[i]`` combos: ``ccards[i, j]`` (uint8[2])
# with weight ``cw[i, j]`` (cumulative in ``cdf[i, j]`` for sampling); an exact hand is a
# range of one combo of weight 1. ``ccards``: uint8[L, M, 2], ``cw``/``cdf``: [L, M],
# ``ncombo``: int64[L]. ``base_deck``: uint8[D], every card not on the board or dead (the
# hands' cards are taken out per deal).

@serial
def mc_range_block(seed, block, n, k, board_key, board_mask, base_deck, ccards, cdf, ncombo,
                   amounts, split, odd, elig, order, tables, max_tries, win, sumsq):
    """``n`` random deals from stream ``block`` of ``seed``: every live player's combo drawn
    by weight, all together, the whole tuple drawn again if two combos share a card
    (:func:`simulate._kernels.rng.draw_tuple`); then ``k`` board cards from what is left
    (the exactly uniform deal). Adds to ``win`` (int64[P, L]) and ``sumsq`` (float64[L]) as
    :func:`mc_block`. ``base_deck``: uint8[D], every card not on the board or dead. Returns
    the number of rejected tuples, or -1 when one deal needed more than ``max_tries``
    draws."""
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    n_live = ncombo.shape[0]
    one = np.int64(1)
    out = one << np.int64(52)
    out -= one
    for i in range(base_deck.shape[0]):
        out &= ~(one << np.int64(base_deck[i]))  # cards out of the deck: board and dead
    m = base_deck.shape[0] - 2 * n_live  # cards left once the hands are dealt
    d = np.zeros(64 + 2 * n_live, np.uint8)  # rest = d[top:]: every position Floyd names
    d[:base_deck.shape[0]] = base_deck
    pos = np.full(52, -1, np.int64)
    for i in range(base_deck.shape[0]):
        pos[base_deck[i]] = i
    top = 2 * n_live
    sp = subset_params(m, k)
    st = np.zeros(n_live, np.uint16)
    pay = np.zeros(n_live, np.int64)
    hole_key = np.zeros(n_live, np.int64)
    hole_mask = np.zeros(n_live, np.int64)
    idx = np.zeros(n_live, np.int64)
    skip = np.zeros(n_live, np.bool_)
    rejected = 0
    state = stream_state(seed, block)
    for _ in range(n):
        state, _used, rej = draw_tuple(state, cdf, ncombo, ccards, skip, out, idx, max_tries)
        if rej < 0:
            return -1
        rejected += rej
        for i in range(n_live):  # the hands' cards to the front; deal from the rest
            a = ccards[i, idx[i], 0]
            b = ccards[i, idx[i], 1]
            hole_key[i] = card_key[a] + card_key[b]
            hole_mask[i] = card_mask[a] | card_mask[b]
            to_front(d, pos, a, 2 * i)
            to_front(d, pos, b, 2 * i + 1)
        rest = d[top:]
        state, q0, q1, q2, q3, q4 = draw_set5(state, sp)
        c0, c1, c2, c3, c4 = rest[q0], rest[q1], rest[q2], rest[q3], rest[q4]
        key, mask = _full_board(board_key, board_mask, k, c0, c1, c2, c3, c4, card_key,
                                card_mask)
        for i in range(n_live):
            pay[i] = 0
        _one_runout(key, mask, hole_key, hole_mask, st, amounts, split, odd, elig,
                    order, win, pay, row_offsets, rank_table, flush_table)
        _add_squares(pay, sumsq)
    return rejected


@parallel
def mc_range_run(seed, n_total, block_size, b_lo, b_hi, k, board_key, board_mask, base_deck,
                 ccards, cdf, ncombo, amounts, split, odd, elig, order, tables,
                 max_tries, wins, sumsqs, rejected):
    """Blocks ``b_lo..b_hi-1`` over threads, as :func:`mc_parallel` (any thread count, same
    answer); ``rejected``: int64[B], per block (-1: a deal found no card-disjoint tuple)."""
    for i in nb.prange(b_hi - b_lo):
        b = b_lo + i
        n = min(block_size, n_total - b * block_size)
        if n > 0:
            rejected[i] = mc_range_block(seed, b, n, k, board_key, board_mask, base_deck,
                                         ccards, cdf, ncombo, amounts, split, odd,
                                         elig, order, tables, max_tries, wins[i], sumsqs[i])


# ----------------------------------------------------------------------------- strength rows
# Games whose strengths come from a batch evaluator (Omaha): the caller deals runouts as
# rows, evaluates every live hand on every row, and settles the rows here.

@serial
def settle_rows(strengths, amounts, split, odd, elig, order, win, sumsq):
    """Settle each row of ``strengths`` (int32[N, L]; hi/lo: int32[N, 2 L], the highs then
    the lows, with hi/lo tables and ``win`` int64[2 P, L], see
    :func:`simulate._kernels.award.award_any`): add to ``win`` (int64[P, L]) and ``sumsq``
    (float64[L], the squares of each row's chips per player)."""
    n_live = sumsq.shape[0]
    st = np.zeros(strengths.shape[1], np.int32)
    pay = np.zeros(n_live, np.int64)
    for r in range(strengths.shape[0]):
        for i in range(strengths.shape[1]):
            st[i] = strengths[r, i]
        for i in range(n_live):
            pay[i] = 0
        award_any(st, np.int64(1), amounts, elig, order, split, odd, win, pay)
        for i in range(n_live):
            x = np.float64(pay[i])
            sumsq[i] += x * x


@parallel
def deal_rows(seed, n_total, block_size, b_lo, b_hi, deck, out):
    """Fill ``out`` (uint8[N, k]) with the random ``k``-card runouts from ``deck`` (uint8[M])
    of blocks ``b_lo..b_hi-1`` of a run of ``n_total`` runouts in blocks of ``block_size``
    (block ``b``: stream ``b`` of ``seed``, rows from ``(b - b_lo) * block_size``), dealt by
    the exactly uniform deal of :mod:`simulate._kernels.rng`."""
    k = out.shape[1]
    m = deck.shape[0]
    for i in nb.prange(b_hi - b_lo):
        b = b_lo + i
        n = min(block_size, n_total - b * block_size)
        d = np.zeros(max(m, 5), np.uint8)
        d[:m] = deck
        mul = np.empty(5, np.uint64)
        thr = np.empty(5, np.uint64)
        deal_setup(m, k, mul, thr)
        state = stream_state(seed, b)
        for row in range(i * block_size, i * block_size + n):
            state, r0, r1, r2, r3, r4 = draw5(state, mul, thr, 0)
            c0, c1, c2, c3, c4 = pick5(d, d[0], d[1], d[2], d[3], r0, r1, r2, r3, r4)
            if k >= 1:
                out[row, 0] = c0
            if k >= 2:
                out[row, 1] = c1
            if k >= 3:
                out[row, 2] = c2
            if k >= 4:
                out[row, 3] = c3
            if k >= 5:
                out[row, 4] = c4
