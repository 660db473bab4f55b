"""Pineapple kernels (private; arrays and ints only): the discard policies and the equity
of three-card hands before the discard.

**Policies.** At the discard point a player sees only their three cards and the board so
far (``nb`` = 0, 3 or 4 cards). Each of the three pairs they could keep gets an int64
score and the best score is kept (ties: the first pair in the order (c0, c1), (c0, c2),
(c1, c2) of the three cards sorted by id). Every score ends with the pair's preflop class
score (0..168, higher better, from the shipped 169-hand order) as the last tie-break:

* :data:`MADE` (cheap): no board -> the preflop order; a board -> the made hand of the
  pair plus the board (strength 1..7462), then the preflop order.
* :data:`EQUITY` (strong): the pair's equity against one random hand on the board so far,
  as integer counts over every (opponent hand, runout): with no board the preflop order
  (itself exact equity against a random hand), on a flop the cached flop table and on a
  turn the cached turn table (:func:`fill_board_table`: one row of
  :func:`vs_random_counts` per suit-class of flops or turns, read through the suit map
  that takes the board to its class, :func:`table_row`).

Cards are ids 0..51 (rank ``c >> 2``, suit ``c & 3``); a combo of ``lo < hi`` has index
``hi * (hi - 1) // 2 + lo`` (:func:`simulate.ranges.combo_index`).

**Equity before the discard.** The board is completed to the discard point (``dlen`` cards),
every player keeps a pair by the policy, and the rest is Hold'em with the discards dead.
:func:`exact_pre` walks every completion and hands the rest to the reduced Hold'em walk
(:func:`simulate._kernels.holdem_exact.walk`); :func:`sample_pre` deals whole boards with
the exactly uniform deal of :mod:`simulate._kernels.rng` (the discards are out of the deck
either way, so the board cards are a uniform draw from the cards nobody holds).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from evaluator._jit import inline, parallel, serial
from evaluator._kernels.holdem import KEY_INIT_I64, flush_strength, rank_strength
from simulate._kernels.holdem_exact import first_card_bins, next_subset, walk
from simulate._kernels.rng import deal_setup, draw5, pick5, put_drawn, stream_state
from simulate._kernels.score import ROAD_ANY, score_row, scorer_row

MADE = 0
EQUITY = 1
N_COMBOS = 1326
PRE_SHIFT = 256  # score = main score * PRE_SHIFT + preflop class score (0..168)


@inline
def _combo(a, b):
    lo = min(a, b)
    hi = max(a, b)
    return np.int64(hi) * (np.int64(hi) - 1) // 2 + np.int64(lo)


@inline
def _strength(cards, n, tables):
    """Strength of the ``n`` (5..7) cards ``cards[:n]``."""
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    key = KEY_INIT_I64
    mask = np.int64(0)
    for i in range(n):
        key += card_key[cards[i]]
        mask |= card_mask[cards[i]]
    if (key >> 32) & 0x8888:
        return np.int64(flush_strength(key, mask, flush_table))
    return np.int64(rank_strength(key, row_offsets, rank_table))


@serial
def vs_random_counts(board, nb_, tables, out):
    """For every combo disjoint from ``board[:nb_]`` (``nb_`` 3 or 4 cards), add to ``out``
    (int64[1326]) twice its wins plus its ties against one random hand over every runout
    and every opponent hand disjoint from both (so each such combo gets the same number of
    (runout, opponent) pairs). Per complete board the combos are sorted by strength and
    swept once, card removal by inclusion-exclusion on per-card counts."""
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    used = np.zeros(52, np.bool_)
    for i in range(nb_):
        used[board[i]] = True
    rest = np.empty(52, np.int64)
    m = 0
    for c in range(52):
        if not used[c]:
            rest[m] = c
            m += 1
    full = np.empty(5, np.int64)
    for i in range(nb_):
        full[i] = board[i]
    keys = np.empty(N_COMBOS, np.int64)
    lo_c = np.empty(N_COMBOS, np.int64)
    hi_c = np.empty(N_COMBOS, np.int64)
    below = np.zeros(52, np.int64)
    group = np.zeros(52, np.int64)
    k = 5 - nb_
    idx = np.arange(k)
    while True:
        for i in range(k):
            full[nb_ + i] = rest[idx[i]]
        bk = KEY_INIT_I64
        bm = np.int64(0)
        onb = np.int64(0)
        for i in range(5):
            bk += card_key[full[i]]
            bm |= card_mask[full[i]]
            onb |= np.int64(1) << full[i]
        n = 0
        for hi in range(52):
            if (onb >> hi) & 1:
                continue
            for lo in range(hi):
                if (onb >> lo) & 1:
                    continue
                kk = bk + card_key[lo] + card_key[hi]
                if (kk >> 32) & 0x8888:
                    s = flush_strength(kk, bm | card_mask[lo] | card_mask[hi], flush_table)
                else:
                    s = rank_strength(kk, row_offsets, rank_table)
                keys[n] = (np.int64(s) << 11) | n
                lo_c[n] = lo
                hi_c[n] = hi
                n += 1
        srt = np.sort(keys[:n])
        for c in range(52):
            below[c] = 0
            group[c] = 0
        n_below = 0
        i = 0
        while i < n:
            s = srt[i] >> 11
            j = i
            while j < n and (srt[j] >> 11) == s:
                h = srt[j] & 2047
                group[lo_c[h]] += 1
                group[hi_c[h]] += 1
                j += 1
            g = j - i
            for q in range(i, j):
                h = srt[q] & 2047
                a = lo_c[h]
                b = hi_c[h]
                wins = n_below - below[a] - below[b]
                ties = g - group[a] - group[b] + 1
                out[_combo(a, b)] += 2 * wins + ties
            for q in range(i, j):
                h = srt[q] & 2047
                a = lo_c[h]
                b = hi_c[h]
                below[a] += 1
                below[b] += 1
                group[a] = 0
                group[b] = 0
            n_below += g
            i = j
        if not next_subset(idx, k, m, 0):  # the next k-subset of rest[:m]
            break


@parallel
def fill_board_table(boards, tables, out):
    """Row ``i`` of ``out`` (int32[F, 1326]) <- :func:`vs_random_counts` of the board
    ``boards[i]`` (uint8[F, 3] flops or uint8[F, 4] turns); combos touching the board stay
    0. One board per task."""
    for i in nb.prange(boards.shape[0]):
        cnt = np.zeros(N_COMBOS, np.int64)
        vs_random_counts(boards[i], boards.shape[1], tables, cnt)
        for h in range(N_COMBOS):
            out[i, h] = np.int32(cnt[h])


@inline
def _packed(perm_row):
    """A suit map ``uint8[4]`` packed into an int: suit ``s`` -> ``(p >> 2 * s) & 3``."""
    return (np.int64(perm_row[0]) | (np.int64(perm_row[1]) << 2)
            | (np.int64(perm_row[2]) << 4) | (np.int64(perm_row[3]) << 6))


@inline
def table_row(board, nb_, policy, ptab):
    """``(class, packed suit map)`` of the board ``board[:nb_]`` in the flop table
    (``nb_ == 3``) or the turn table (``nb_ == 4``) when the strong policy discards there,
    else ``(0, 0)``. ``ptab`` is ``(pre, flop_id, flop_class, flop_perm, flop_table,
    turn_class, turn_perm, turn_table)``; a turn's index is the colex rank of its four
    cards sorted, ``a + C(b, 2) + C(c, 3) + C(d, 4)``."""
    if policy != EQUITY or (nb_ != 3 and nb_ != 4):
        return np.int64(0), np.int64(0)
    if nb_ == 3:
        flop_id, flop_class, flop_perm = ptab[1], ptab[2], ptab[3]
        f = flop_id[(np.int64(board[0]) * 52 + board[1]) * 52 + board[2]]
        return np.int64(flop_class[f]), _packed(flop_perm[f])
    turn_class, turn_perm = ptab[5], ptab[6]
    a, b, c, d = np.int64(board[0]), np.int64(board[1]), np.int64(board[2]), np.int64(board[3])
    if a > b:
        a, b = b, a
    if c > d:
        c, d = d, c
    if a > c:
        a, c = c, a
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    t = a + b * (b - 1) // 2 + c * (c - 1) * (c - 2) // 6 + d * (d - 1) * (d - 2) * (d - 3) // 24
    return np.int64(turn_class[t]), _packed(turn_perm[t])


@inline
def keep_pair(c, board, nb_, policy, ptab, tables, cards, cls, perm):
    """Which card of ``c`` (int64[3], sorted ascending) to throw away (index 0..2) under
    ``policy``, seeing only ``c`` and ``board[:nb_]`` (``nb_`` 0, 3 or 4). ``cls``,
    ``perm``: :func:`table_row` of this board; ``cards``: int64[>= 6] scratch."""
    pre = ptab[0]
    best = np.int64(-1)
    throw = 0
    for t in range(3):  # throw c[2], c[1], c[0]: keep (c0, c1), (c0, c2), (c1, c2)
        d = 2 - t
        a = c[0] if d != 0 else c[1]
        b = c[2] if d != 2 else c[1]
        h = _combo(a, b)
        if nb_ == 0:
            main = np.int64(0)
        elif policy == MADE:
            cards[0] = a
            cards[1] = b
            for i in range(nb_):
                cards[2 + i] = board[i]
            main = _strength(cards, 2 + nb_, tables)
        else:
            pa = (a & ~3) | ((perm >> (2 * (a & 3))) & 3)
            pb = (b & ~3) | ((perm >> (2 * (b & 3))) & 3)
            if nb_ == 3:
                main = np.int64(ptab[4][cls, _combo(pa, pb)])
            else:
                main = np.int64(ptab[7][cls, _combo(pa, pb)])
        score = main * PRE_SHIFT + pre[h]
        if score > best:
            best = score
            throw = d
    return throw


@serial
def choose_discards(hands, board, nb_, policy, ptab, tables, out):
    """``out[p]`` (int64[P]) <- the card id player ``p`` throws away: ``hands`` uint8[P, 3],
    ``board`` the first ``nb_`` cards seen at the discard point."""
    cls, perm = table_row(board, nb_, policy, ptab)
    c = np.empty(3, np.int64)
    cards = np.empty(7, np.int64)
    for p in range(hands.shape[0]):
        for i in range(3):
            c[i] = hands[p, i]
        c.sort()
        out[p] = c[keep_pair(c, board, nb_, policy, ptab, tables, cards, cls, perm)]


@serial
def _walk_completion(hands, board, nb_, avail, policy, ptab, tables, sc, hole2, c, cards):
    """Discard by the policy on ``board[:nb_]`` (the board at the discard point) and walk
    every runout of the rest (cards with ``avail[c] == 1``) into the scorer ``sc``."""
    cls, perm = table_row(board, nb_, policy, ptab)
    for p in range(hands.shape[0]):
        for i in range(3):
            c[i] = hands[p, i]
        c.sort()
        d = keep_pair(c, board, nb_, policy, ptab, tables, cards, cls, perm)
        j = 0
        for i in range(3):
            if i != d:
                hole2[p, j] = c[i]
                j += 1
    b = np.empty(nb_, np.uint8)
    for i in range(nb_):
        b[i] = board[i]
    return walk(hole2, b, avail, tables, sc, ROAD_ANY)


@parallel
def exact_pre(hands, board0, deck, dlen, policy, ptab, tables, bsc, n_bins):
    """Every completion of ``board0`` (uint8[b]) to ``dlen`` cards from ``deck`` (uint8[M],
    the cards nobody holds), the policy's discards on it, then every runout by the reduced
    Hold'em walk, into the block scorer ``bsc`` (row ``f`` for completions whose first new
    card is ``deck[f]``; one row, 0, when ``dlen == b``). ``hands`` uint8[P, 3]. ``n_bins``:
    how many tasks the first cards are cut into (``holdem_exact.first_card_bins``; the
    thread count; the answer does not depend on it). Returns int64[M]: the runouts walked
    per row."""
    b0 = board0.shape[0]
    f = dlen - b0
    m = deck.shape[0]
    n_players = hands.shape[0]
    totals = np.zeros(m, np.int64)
    n_first = m if f > 0 else 1
    bin_of = np.empty(n_first, np.int64)  # the first cards in bins of equal work
    n_bins = first_card_bins(n_first, max(f, 1), n_bins, bin_of)
    for bn in nb.prange(n_bins):
        for first in range(n_first):
            if bin_of[first] != bn:
                continue
            sc = scorer_row(bsc, first)
            board = np.empty(5, np.int64)
            for i in range(b0):
                board[i] = board0[i]
            avail = np.zeros(52, np.uint8)
            for i in range(m):
                avail[deck[i]] = 1
            hole2 = np.empty((n_players, 2), np.uint8)
            c = np.empty(3, np.int64)
            cards = np.empty(7, np.int64)
            if f == 0:
                totals[0] += _walk_completion(hands, board, dlen, avail, policy, ptab, tables, sc,
                                              hole2, c, cards)
                continue
            # completions with first new card deck[first], the rest later in the deck
            if m - first < f:
                continue
            idx = np.empty(f, np.int64)
            for i in range(f):
                idx[i] = first + i
            while True:
                for i in range(f):
                    board[b0 + i] = deck[idx[i]]
                    avail[deck[idx[i]]] = 0
                totals[first] += _walk_completion(hands, board, dlen, avail, policy, ptab, tables,
                                                  sc, hole2, c, cards)
                for i in range(f):
                    avail[deck[idx[i]]] = 1
                if not next_subset(idx, f, m, 1):  # idx[0] = first stays
                    break
    return totals


@serial
def _sample_block(seed, block, n, hands, board0, deck_init, dlen, policy, ptab, tables, sc,
                  sq):
    """``n`` deals from stream ``block``: the board completed by the exactly uniform deal
    (its first ``dlen - b`` new cards complete the board the players see at the discard),
    the policy's discards, then every kept pair scored on the full board into the scorer
    ``sc`` (:mod:`simulate._kernels.score`: equity, or the pots of an all-in), ``sq[p]``
    adding each deal's payout to player ``p`` squared (for the standard error)."""
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    n_players = hands.shape[0]
    b0 = board0.shape[0]
    k = 5 - b0
    m = deck_init.shape[0]
    state = stream_state(seed, block)
    d = np.zeros(max(m, 5), np.int64)
    d[:m] = deck_init
    d0, d1, d2, d3 = d[0], d[1], d[2], d[3]
    mul = np.empty(5, np.uint64)
    thr = np.empty(5, np.uint64)
    deal_setup(m, k, mul, thr)
    board = np.empty(5, np.int64)
    for i in range(b0):
        board[i] = board0[i]
    cs = np.empty((n_players, 3), np.int64)
    for p in range(n_players):
        for i in range(3):
            cs[p, i] = hands[p, i]
        cs[p].sort()
    cards = np.empty(7, np.int64)
    st = np.empty(n_players, np.int64)
    pay = sc[6]
    for _ in range(n):
        state, r0, r1, r2, r3, r4 = draw5(state, mul, thr, 0)
        c0, c1, c2, c3, c4 = pick5(d, d0, d1, d2, d3, r0, r1, r2, r3, r4)
        put_drawn(board, b0, k, c0, c1, c2, c3, c4)
        cls, perm = table_row(board, dlen, policy, ptab)
        bk = KEY_INIT_I64
        bm = np.int64(0)
        for i in range(5):
            bk += card_key[board[i]]
            bm |= card_mask[board[i]]
        for p in range(n_players):
            t = keep_pair(cs[p], board, dlen, policy, ptab, tables, cards, cls, perm)
            a = cs[p, 0] if t != 0 else cs[p, 1]
            b = cs[p, 2] if t != 2 else cs[p, 1]
            kk = bk + card_key[a] + card_key[b]
            if (kk >> 32) & 0x8888:
                st[p] = flush_strength(kk, bm | card_mask[a] | card_mask[b], flush_table)
            else:
                st[p] = rank_strength(kk, row_offsets, rank_table)
        for p in range(n_players):
            pay[p] = 0
        score_row(st, np.int64(1), sc)
        for p in range(n_players):
            sq[p] += pay[p] * pay[p]


@parallel
def sample_pre(seed, n_total, block_size, b_lo, b_hi, hands, board0, deck, dlen, policy, ptab,
               tables, bsc, sq):
    """Monte Carlo blocks ``b_lo..b_hi-1`` (the block plan of :mod:`simulate.sampling`),
    block ``b`` into row ``b - b_lo`` of the block scorer ``bsc``
    (:func:`simulate._kernels.score.block_scorer`) and of ``sq`` ([R, P], the squared
    payouts)."""
    for i in nb.prange(b_hi - b_lo):
        b = b_lo + i
        n = min(block_size, n_total - b * block_size)
        if n > 0:
            _sample_block(np.uint64(seed), b, n, hands, board0, deck, dlen, policy, ptab,
                          tables, scorer_row(bsc, i), sq[i])
