"""Exact Hold'em enumeration kernels (private; arrays and ints only).

Every runout of the board is counted, but boards that no evaluation can tell
apart are walked once, with their multiplicity as a weight:

* Let ``need[s] = 5 - max(hole cards of suit s held by one player)``. A player
  can only make a flush in suit ``s`` if the final board holds at least
  ``need[s] >= 3`` cards of ``s``, so at most one suit is *live* on any board.
* Boards with no live suit: nobody has a flush, and each player's hand depends
  only on the multiset of board ranks. We walk the rank multisets ``R`` of the
  dealt cards once each, weighted by the number of suit assignments of ``R``
  that leave every suit dead (all assignments minus, per suit, those that make
  it live -- a small polynomial product over the ranks of ``R``).
* Boards where suit ``s`` is live: we walk each set ``S`` of dealt cards of suit
  ``s`` (``|S|`` large enough to make ``s`` live) and each rank multiset of the
  remaining dealt cards drawn from the other suits (weighted by how many ways
  the other suits can supply them). A player with five or more cards of ``s``
  scores ``flush_table[ranks of s]`` (once per ``S``); everyone else scores by
  ranks alone.

Heads-up preflop this walks about 42,000 weighted boards instead of 1,712,304.
Counts are integers: weights, and pot shares in units of ``1/2520``
(``2520 = lcm(1..10)``), so a k-way split adds ``2520 / k`` exactly.

``tables`` is ``evaluator._tables.get_tables().kernel_args``; ``cat_of`` is a
``uint8[7463]`` table of the category (0..8) of each strength.
"""

from __future__ import annotations

import numpy as np

from evaluator._jit import inline, serial
from evaluator._kernels.holdem import RANK_BITS, rank_strength
from simulate._kernels.score import ROAD_ANY, equity_counts, equity_scorer, score_rows_on

MAX_MULTISETS = 91  # C(14, 2): multisets of at most 2 ranks out of 13 (rank_multisets)
#: Rows of strengths :func:`walk` gathers before it hands them to the scorer in one call
#: (:func:`simulate._kernels.score.score_rows_on`): one copy of the pot rule compiled instead
#: of one per place a row is made, and the call paid once per batch. The few lines that add a
#: row are written out at both places: as an inlined helper taking the buffers and the
#: scorer's tuple of arrays, Numba reference-counts every array on every row (heads-up
#: preflop 0.51 -> 5.5 ms, measured). A helper taking two tables and scalars runs as fast as
#: its lines written out (the all-in Monte Carlo loops' board key and mask, measured).
ROW_BATCH = 512


@inline
def next_subset(idx, k, n, first):
    """Step ``idx[:k]`` (increasing indices into ``range(n)``) to the next ``k``-subset in
    lexicographic order, ``idx[:first]`` kept fixed; False when there is none."""
    i = k - 1
    while i >= first and idx[i] == n - k + i:
        i -= 1
    if i < first:
        return False
    idx[i] += 1
    for q in range(i + 1, k):
        idx[q] = idx[q - 1] + 1
    return True


@inline
def _binom(n, k):
    """C(n, k) for small ints; 0 when k < 0 or k > n."""
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@serial
def first_card_bins(d, k, n_bins, bin_of):
    """Spread the first cards of a walk over every ``k``-card subset of ``d`` cards (in
    lexicographic order, so first card ``f`` leads ``C(d - 1 - f, k - 1)`` subsets, fewer
    as ``f`` grows) over at most ``n_bins`` bins of nearly equal work, one parallel task a
    bin: each card in turn, the largest first, goes to the bin with the least work so far
    (longest processing time first). A parallel loop over the cards themselves hands each
    thread an equal run of them, and the first run holds most of the work: heads-up Omaha
    preflop walked 1.03× as fast on two threads as on one. Writes ``bin_of`` (int64[>= d]);
    returns the number of bins, ``min(n_bins, d)`` and at least 1. Each card still writes
    its own row, so the bits do not depend on the bins."""
    n = max(1, min(n_bins, d))
    load = np.zeros(n, np.int64)
    for f in range(d):
        b = 0
        for j in range(1, n):
            if load[j] < load[b]:
                b = j
        bin_of[f] = b
        load[b] += _binom(d - 1 - f, k - 1)
    return n


@inline
def rank_multisets(m, avail, rank_key, keys, weights):
    """Every multiset of ``m`` ranks, ``m`` at most 2, whose count of rank ``r`` is at most
    ``avail[r]`` (int64[13]): its rank-key sum into ``keys`` and its number of card choices
    ``prod C(avail[r], count[r])`` into ``weights`` (int64[>= MAX_MULTISETS]). Returns how
    many were written.

    Two are enough for :func:`walk`: a suit ``s`` turns live with ``j >= t[s] = max(0, 5 -
    hold[s] - b0[s])`` of the ``k = 5 - |board0|`` dealt cards (``hold[s] <= 2``, a hand's
    hole cards of ``s``; ``b0[s] <= |board0|``, the board's), so the others number ``k - j
    <= k - t[s]``: with ``t[s] > 0`` that is ``hold[s] + b0[s] - |board0| <= 2``, and with
    ``t[s] = 0`` (``hold[s] + b0[s] >= 5``) ``k <= 5 - b0[s] <= hold[s] <= 2``."""
    n = 0
    if m == 0:
        keys[0] = 0
        weights[0] = 1
        return 1
    for r in range(13):
        if m == 1:
            if avail[r] > 0:
                keys[n] = rank_key[r]
                weights[n] = avail[r]
                n += 1
            continue
        for q in range(r, 13):
            w = avail[r] * (avail[r] - 1) // 2 if q == r else avail[r] * avail[q]
            if w > 0:
                keys[n] = rank_key[r] + rank_key[q]
                weights[n] = w
                n += 1
    return n


@serial
def exact_walk(hole, board0, avail_cards, tables, cat_of, res, cats):
    """Equity of one spot: walk every runout of ``board0`` from the cards with
    ``avail_cards[c] == 1`` into an equity scorer (one pot of 2520 units).

    ``hole`` uint8[P, 2]; ``board0`` uint8[0..5]; ``avail_cards`` uint8[52]; ``cat_of``
    uint8[7463]. Adds to ``res`` int64[P, 3] (wins alone, ties, pot share in units of
    1/2520) and ``cats`` int64[P, 9] (runouts by final hand category). Returns the number
    of runouts (the sum of the weights). Signature unchanged since the scorer redesign;
    :func:`walk` is the same walk into any scorer.
    """
    sc = equity_scorer(hole.shape[0], cat_of)
    total = walk(hole, board0, avail_cards, tables, sc, ROAD_ANY)
    equity_counts(sc, res, cats)
    return total


def _walk_kernel(name, unsuited, suited):
    """The reduced walk as a kernel named ``name``: the boards where no suit is live when
    ``unsuited``, those where one suit is live when ``suited`` (Numba takes the two flags
    as constants and compiles only the half asked for: :data:`walk` has both,
    :data:`walk_unsuited` and :data:`walk_suited` one each, so that a fresh install's first
    answer compiles them in two processes, ``simulate.holdem.run_walk``)."""

    def kernel(hole, board0, avail_cards, tables, sc, road):
        """The reduced walk: every runout of ``board0`` from the cards with
        ``avail_cards[c] == 1``, one weighted strength row per board class, added to the
        scorer ``sc`` (:mod:`simulate._kernels.score`: equity, or the pots of an all-in)
        through the scoring loop the road tag ``road`` names (``score.road_of(sc)``, or
        ``score.ROAD_ANY``); :data:`walk_unsuited` and :data:`walk_suited` walk one half of
        the boards each.

        ``hole`` uint8[P, 2]; ``board0`` uint8[0..5]; ``avail_cards`` uint8[52]. Returns the
        number of runouts walked (the sum of the weights).

        A fresh install's first answer compiles the two halves, one scoring road and what
        they call: the road tag, not a branch on the scorer, picks the road (about 0.9 s
        less on the 2-core VM); every array comes from ``np.zeros`` of int64, one
        allocation to compile per number of axes (no ``np.empty``, ``np.arange`` or boolean
        array); no ``min`` or ``max`` of ints (each compiles a helper); the small helpers
        are inlined, and the other cards of a live suit's boards are at most two ranks
        (:func:`rank_multisets`): about 0.5 s less together. (Arrays of more axes reshaped
        from one, ``low`` flattened to two axes, or every array a view of one work array
        passed in compiled no less or ran 4-10 % slower; the halves as inlined helpers of
        one kernel ran 5 % slower, their arrays reference-counted on every call.)
        """
        card_key, card_mask, row_offsets, rank_table, flush_table = tables
        n_players = hole.shape[0]
        k = 5 - board0.shape[0]

        rank_key = np.zeros(13, np.int64)
        for r in range(13):
            rank_key[r] = card_key[4 * r] & RANK_BITS
        # the deck by rank and suit
        has = np.zeros((4, 13), np.int64)
        avail = np.zeros(13, np.int64)
        for c in range(52):
            if avail_cards[c]:
                has[c & 3, c >> 2] = 1
                avail[c >> 2] += 1
        # players: rank key, suit counts and suit rank-sets of hole + board
        base = np.zeros(n_players, np.int64)
        scnt = np.zeros((n_players, 4), np.int64)
        smask = np.zeros((n_players, 4), np.int64)
        hold = np.zeros(4, np.int64)  # most cards of a suit in one hand
        for p in range(n_players):
            hc = np.zeros(4, np.int64)
            for i in range(2):
                c = np.int64(hole[p, i])
                base[p] += rank_key[c >> 2]
                scnt[p, c & 3] += 1
                smask[p, c & 3] |= np.int64(1) << (c >> 2)
                hc[c & 3] += 1
            for i in range(board0.shape[0]):
                c = np.int64(board0[i])
                base[p] += rank_key[c >> 2]
                scnt[p, c & 3] += 1
                smask[p, c & 3] |= np.int64(1) << (c >> 2)
            for s in range(4):
                if hc[s] > hold[s]:
                    hold[s] = hc[s]
        b0 = np.zeros(4, np.int64)
        for i in range(board0.shape[0]):
            b0[board0[i] & 3] += 1
        # dealt cards of suit s needed to make s live
        t = np.zeros(4, np.int64)
        for s in range(4):
            t[s] = 5 - hold[s] - b0[s] if hold[s] + b0[s] < 5 else 0

        rows = np.zeros((ROW_BATCH, n_players), np.int64)
        wts_b = np.zeros(ROW_BATCH, np.int64)
        n_rows = np.int64(0)
        total = np.int64(0)

        # ---- boards where no suit is live: ranks only
        if unsuited:
            # bt[n, c + 1] = C(n, c) for n 0..4, c -1..5
            bt = np.zeros((5, 7), np.int64)
            for n in range(5):
                for c in range(6):
                    bt[n, c + 1] = _binom(n, c)
            any_dead_only = True
            for s in range(4):
                if t[s] == 0:
                    any_dead_only = False  # every runout makes s live
            if any_dead_only:
                # Depth-first over runs (rank r, count c) with r increasing. The state after d
                # runs: W[d] = card choices, K[d] = rank-key sum, rem[d] = cards still to deal,
                # and for each suit s that can turn live, low[d, s, j] (j < t[s]) = choices
                # dealing exactly j cards of suit s; those with j >= t[s] make s live, so the
                # all-dead weight of a leaf is W - sum_s (W - sum_j low[d, s, j]).
                live = np.zeros(4, np.int64)
                n_live = 0
                for s in range(4):
                    if t[s] <= k:
                        live[n_live] = s
                        n_live += 1
                W = np.zeros(7, np.int64)
                K = np.zeros(7, np.int64)
                rem = np.zeros(7, np.int64)
                low = np.zeros((7, 4, 6), np.int64)
                # sums of low[d, q, j] over j < t and over j < t - 1: a leaf needs only these
                sa = np.zeros((7, 4), np.int64)
                sb = np.zeros((7, 4), np.int64)
                nr = np.zeros(7, np.int64)
                nc = np.zeros(7, np.int64)
                W[0] = 1
                rem[0] = k
                for q in range(n_live):
                    low[0, q, 0] = 1
                    sa[0, q] = 1
                    sb[0, q] = 1 if t[live[q]] >= 2 else 0
                nc[0] = 1
                d = 0
                if k == 0:
                    d = -1  # the board is complete; no suit can turn live (t > 0 for all)
                    total += 1
                    for p in range(n_players):
                        rows[0, p] = rank_strength(base[p], row_offsets, rank_table)
                    wts_b[0] = 1
                    n_rows = 1
                while d >= 0:
                    r = nr[d]
                    c = nc[d]
                    while r <= 12 and (c > avail[r] or c > rem[d]):
                        r += 1
                        c = 1
                    if r > 12:
                        d -= 1
                        continue
                    nr[d] = r
                    nc[d] = c + 1
                    wr = W[d] * bt[avail[r], c + 1]
                    if c == rem[d]:
                        # a leaf: the last run completes the board
                        w = wr * (1 - n_live)
                        for q in range(n_live):
                            s = live[q]
                            u = avail[r] - has[s, r]
                            w += bt[u, c + 1] * sa[d, q] + bt[u, c] * has[s, r] * sb[d, q]
                        if w > 0:
                            total += w
                            key = K[d] + c * rank_key[r]
                            for p in range(n_players):
                                rows[n_rows, p] = rank_strength(base[p] + key, row_offsets,
                                                                rank_table)
                            wts_b[n_rows] = w
                            n_rows += 1
                            if n_rows == ROW_BATCH:
                                score_rows_on(rows, wts_b, n_rows, sc, road)
                                n_rows = 0
                        continue
                    e = d + 1
                    W[e] = wr
                    K[e] = K[d] + c * rank_key[r]
                    rem[e] = rem[d] - c
                    for q in range(n_live):
                        s = live[q]
                        u = avail[r] - has[s, r]
                        l0 = bt[u, c + 1]
                        l1 = bt[u, c] * has[s, r]
                        v = low[d, q, 0] * l0
                        low[e, q, 0] = v
                        a = v
                        b = v if t[s] >= 2 else 0
                        for j in range(1, t[s]):
                            v = low[d, q, j] * l0 + low[d, q, j - 1] * l1
                            low[e, q, j] = v
                            a += v
                            if j < t[s] - 1:
                                b += v
                        sa[e, q] = a
                        sb[e, q] = b
                    nr[e] = r + 1
                    nc[e] = 1
                    d = e

        if suited:
            keys = np.zeros(MAX_MULTISETS, np.int64)
            wts = np.zeros(MAX_MULTISETS, np.int64)
            other = np.zeros(13, np.int64)
            ranks_s = np.zeros(13, np.int64)
            fl = np.zeros(n_players, np.int64)  # 1: player p has a flush in s
            fst = np.zeros(n_players, np.int64)
            for s in range(4):
                n_s = 0
                for r in range(13):
                    other[r] = avail[r] - has[s, r]
                    if has[s, r]:
                        ranks_s[n_s] = r
                        n_s += 1
                for j in range(t[s], (k if k < n_s else n_s) + 1):
                    n_m = rank_multisets(k - j, other, rank_key, keys, wts)
                    # every j-subset of the available cards of suit s
                    idx = np.zeros(j, np.int64)
                    for i in range(j):
                        idx[i] = i
                    while True:
                        ks = np.int64(0)
                        ms = np.int64(0)
                        for i in range(j):
                            r = ranks_s[idx[i]]
                            ks += rank_key[r]
                            ms |= np.int64(1) << r
                        for p in range(n_players):
                            fl[p] = scnt[p, s] + j >= 5
                            if fl[p]:
                                fst[p] = flush_table[smask[p, s] | ms]
                        for q in range(n_m):
                            w = wts[q]
                            key = ks + keys[q]
                            for p in range(n_players):
                                if fl[p]:
                                    rows[n_rows, p] = fst[p]
                                else:
                                    rows[n_rows, p] = rank_strength(base[p] + key, row_offsets,
                                                                    rank_table)
                            wts_b[n_rows] = w
                            n_rows += 1
                            if n_rows == ROW_BATCH:
                                score_rows_on(rows, wts_b, n_rows, sc, road)
                                n_rows = 0
                            total += w
                        if not next_subset(idx, j, n_s, 0):  # indices into ranks_s
                            break
        if n_rows > 0:
            score_rows_on(rows, wts_b, n_rows, sc, road)
        return total

    kernel.__name__ = kernel.__qualname__ = name  # its own name: its own disk cache files
    return serial(kernel)


#: The whole walk, and its two halves as kernels of their own (see :func:`_walk_kernel`).
walk = _walk_kernel("walk", True, True)
walk_unsuited = _walk_kernel("walk_unsuited", True, False)
walk_suited = _walk_kernel("walk_suited", False, True)
