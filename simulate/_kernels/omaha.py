"""Private Numba kernels of Omaha equity (exact walk and Monte Carlo).

The key idea: a player's best Omaha hand on a board is the maximum, over the
board's ten three-card subsets, of ``T_p(triple) = max over hole pairs of
strength(pair + triple)``. ``T_p`` depends only on the triple, so it is tabulated
once per request for every triple of the *universe* (known board cards plus the
undealt deck, ``U`` cards): ``tri[((i * U + j) * U + k) * P + p]`` (uint16, filled
for every ordering of distinct ``i, j, k``). A runout then costs ten table reads per
player instead of 60 five-card evaluations; walking boards ``a<b<c<d<e`` in order,
the four triples without ``e`` are maxed once per prefix and only six reads per
player remain in the inner loop.

Every runout's strength row goes to the one scorer (:mod:`simulate._kernels.score`):
the exact walk feeds a block scorer (equity, or an all-in's pots; one row per first
dealt card), the Monte Carlo blocks an equity scorer whose totals land in integer rows
per RNG block: ``share`` in units of 1/2520 of a pot (2520 is divisible by every split
count 1..10), ``win`` (deals won alone), ``tie`` (deals split), ``cat`` (deals ending in
each category), ``sq`` (sum of squared shares, for the standard error). Kernels take
only arrays and ints.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from evaluator._jit import by_type, inline, parallel, parallel_and_serial, serial
from evaluator._kernels.holdem import KEY_INIT_I64, RANK_BITS, flush_strength, rank_strength
from evaluator._kernels.omaha import (
    hole_pairs,
    low_pairs,
)
from simulate._kernels.holdem_exact import first_card_bins
from simulate._kernels.rng import draw_set5, stream_state, subset_params
from simulate._kernels.score import (
    HILO_HU_CELLS,
    ROAD_ANY,
    equity_scorer,
    hilo_equity_scorer,
    hilo_hu_add,
    hilo_hu_fold,
    hilo_hu_squares,
    score_row,
    score_row_hilo,
    score_rows,
    score_rows_hilo,
    score_rows_on,
    scorer_row,
)
from simulate.results import SHARE_UNIT

#: Tags for :func:`fill_triple_table`'s ``lows``: zero-length arrays whose dtype says, when
#: the kernel compiles, whether it fills the low columns too (hi/lo) or the highs alone.
WITH_LOWS = np.zeros(0, np.uint8)
HIGHS_ONLY = np.zeros(0, np.int8)

#: Rows the walk gathers before it scores them in one call (score.score_rows).
ROW_BATCH = 512


@serial
def _put_triple(tri, u, stride, col, i, j, k, s):
    """Write ``s`` into column ``col`` of ``tri`` (``stride`` columns) at all six orderings
    of the triple ``i, j, k`` of a universe of ``u`` cards."""
    tri[((i * u + j) * u + k) * stride + col] = s
    tri[((i * u + k) * u + j) * stride + col] = s
    tri[((j * u + i) * u + k) * stride + col] = s
    tri[((j * u + k) * u + i) * stride + col] = s
    tri[((k * u + i) * u + j) * stride + col] = s
    tri[((k * u + j) * u + i) * stride + col] = s


@serial
def _fill_player(p, n_players, hand, universe, known, min_known, tables, tri):
    """Column ``p`` of ``tri`` (``n_players`` columns): the best high of ``hand``'s hole
    pairs with each triple of ``universe``. The triple's key, mask and rank part and the
    best of the pairs are written out here (the flush test as in
    :func:`evaluator._kernels.omaha.best_flush`): building each triple through the
    evaluator's array helpers (``board_triples`` and a best-of-pairs call per triple) made
    the fill about twice as slow (measured)."""
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    u = universe.shape[0]
    pk = np.empty(15, np.int64)
    pm = np.empty(15, np.int64)
    pr = np.empty(15, np.int64)
    n_pairs = hand.shape[0] * (hand.shape[0] - 1) // 2
    n_pr = hole_pairs(hand, card_key, card_mask, pk, pm, pr)
    for i in range(u):
        ci = universe[i]
        ki = KEY_INIT_I64 + card_key[ci]
        mi = card_mask[ci]
        for j in range(i + 1, u):
            cj = universe[j]
            kj = ki + card_key[cj]
            mj = mi | card_mask[cj]
            kij = known[i] + known[j]
            for k in range(j + 1, u):
                if kij + known[k] < min_known:
                    continue  # no runout puts these three cards on one board
                ck = universe[k]
                tk = kj + card_key[ck]
                tm = mj | card_mask[ck]
                tr = tk & RANK_BITS
                s = 0
                for a in range(n_pr):  # rank-only strengths, one per distinct pair ranks
                    v = rank_strength(pr[a] + tr, row_offsets, rank_table)
                    if v > s:
                        s = v
                c = tk >> 32
                if ((c >> 1) & (c >> 2) & 0x1111) != 0:  # a suited triple: flushes
                    for a in range(n_pairs):
                        key = pk[a] + tk
                        if (key >> 32) & 0x8888:
                            v = flush_strength(key, pm[a] | tm, flush_table)
                            if v > s:
                                s = v
                _put_triple(tri, u, n_players, p, i, j, k, s)


@serial
def _fill_low(col, stride, hand, universe, known, min_known, ltables, tri):
    """Column ``col`` of ``tri`` (``stride`` columns): the best eight-or-better low of
    ``hand``'s hole pairs with each triple of ``universe`` (0: none), as
    :func:`_fill_player` fills the highs (the triple's low mask and the best of the pairs
    written out, as there)."""
    low_bit, low_of_mask = ltables
    u = universe.shape[0]
    pm = np.empty(15, np.int64)
    n_pairs = low_pairs(hand, low_bit, pm)
    if n_pairs == 0:
        return
    for i in range(u):
        x = np.int64(low_bit[universe[i]])
        if x == 0:
            continue
        for j in range(i + 1, u):
            y = np.int64(low_bit[universe[j]])
            if y == 0 or y == x:
                continue
            kij = known[i] + known[j]
            for k in range(j + 1, u):
                if kij + known[k] < min_known:
                    continue
                z = np.int64(low_bit[universe[k]])
                if z == 0 or z == x or z == y:
                    continue  # no low triple: the column stays 0
                tm = x | y | z
                s = 0
                for a in range(n_pairs):
                    if pm[a] & tm == 0:
                        v = np.int64(low_of_mask[pm[a] | tm])
                        if v > s:
                            s = v
                _put_triple(tri, u, stride, col, i, j, k, s)


def fill_triple_table(hands, universe, known, min_known, tables, ltables, tri, lows):
    """``tri`` (uint16[U**3 * C], zeroed; ``C`` = P columns, or 2 P in a hi/lo game) <- best
    strength of each player's hole pairs with each triple of ``universe`` (uint8[U] card
    ids) holding at least ``min_known`` cards with ``known[i] == 1`` (uint8[U]: the known
    board; a board that still needs ``k`` cards has ``3 - k`` known cards in every triple, so
    a flop spot fills a fifth of the table); ``hands``: uint8[P, h]. With 2 P columns,
    columns ``P..2P-1`` hold each player's best low the same way (``ltables``: as for
    :func:`evaluator._kernels.omaha.omaha_low_batch_serial`): a low also takes exactly two
    hole and three board cards, so a runout's best low is the max over its triples too.
    ``lows``: :data:`WITH_LOWS` for a hi/lo table, :data:`HIGHS_ONLY` for a high one (a tag:
    the kernel then holds no low code, so an Omaha high answer does not compile the low's)."""
    u = universe.shape[0]
    stride = tri.shape[0] // (u * u * u)
    for q in nb.prange(stride):
        fill_column(np.int64(q), stride, hands, universe, known, min_known, tables, ltables,
                    tri, lows)


#: The fill, parallel over the columns, and its serial twin (``_jit.parallel_and_serial``),
#: which a one-answer program's first run takes for a small table
#: (``simulate.omaha.triple_walk``): the parallel loop's own compile is about 3 s.
fill_triple_table, fill_triple_table_serial = parallel_and_serial(fill_triple_table,
                                                                  "fill_triple_table_serial")


def fill_column(q, stride, hands, universe, known, min_known, tables, ltables, tri, lows):
    """Column ``q`` of :func:`fill_triple_table`'s ``tri``: player ``q``'s highs, or with
    ``q >= P`` player ``q - P``'s lows. Compiled, :data:`HIGHS_ONLY` keeps the highs alone."""
    n_players = hands.shape[0]
    if q < n_players:
        _fill_player(q, stride, hands[q], universe, known, min_known, tables, tri)
    else:
        _fill_low(q, stride, hands[q - n_players], universe, known, min_known, ltables, tri)


@by_type(fill_column)
def _fill_column(q, stride, hands, universe, known, min_known, tables, ltables, tri, lows):
    return fill_column if lows.dtype == _WITH_LOWS_DTYPE else _fill_high_column


def _fill_high_column(q, stride, hands, universe, known, min_known, tables, ltables, tri,
                      lows):
    _fill_player(q, stride, hands[q], universe, known, min_known, tables, tri)


_WITH_LOWS_DTYPE = nb.from_dtype(WITH_LOWS.dtype)


@inline
def _walk_prefix(b0, b1, b2, b3, inner, lo, hi, tri, u, n_players, row3, s, at, ones, pre,
                 sc, road):
    """Every runout whose first four board cards are universe indices ``b0..b3`` and whose
    fifth is ``inner[lo:hi]``, each a strength row written into ``s[at:at + hi - lo]``
    (``s`` int64[R, C], rows gathered for the scorer ``sc``); when fewer than
    ``inner.shape[0]`` rows are left after them, the rows so far are scored (weights
    ``ones``, int64[R], all 1). Returns the number of rows now waiting in ``s``. ``row3``
    (int64[U * C]): :func:`_fill_row3` of ``b0, b1, b2``, the fifth card's three triples
    with two of the first three cards."""
    up = u * n_players
    uup = u * up
    o012 = b0 * uup + b1 * up + b2 * n_players
    o013 = b0 * uup + b1 * up + b3 * n_players
    o023 = b0 * uup + b2 * up + b3 * n_players
    o123 = b1 * uup + b2 * up + b3 * n_players
    for p in range(n_players):
        pre[p] = max(tri[o012 + p], tri[o013 + p], tri[o023 + p], tri[o123 + p])
    q03 = b0 * uup + b3 * up
    q13 = b1 * uup + b3 * up
    q23 = b2 * uup + b3 * up
    # the rows first, then one call scores them all (score_rows: the equity scorer's short
    # road); the kind of row (high or hi/lo) is decided once per batch (a hi/lo branch in a
    # row loop made the Omaha high walk about twice as slow, see award_any). A row's column
    # p is the best of ``pre`` (the first four cards' triples), ``row3`` (the fifth with two
    # of the first three) and the fifth's three triples with the fourth; one column at a
    # time over the fifth cards (17.9 -> 16.3 ms heads-up preflop, against a row at a time)
    for p in range(n_players):
        pp = pre[p]
        for t in range(lo, hi):
            e = inner[t] * n_players + p
            v = max(pp, row3[e])
            w = tri[q03 + e]
            if w > v:
                v = w
            w = tri[q13 + e]
            if w > v:
                v = w
            w = tri[q23 + e]
            if w > v:
                v = w
            s[at + t - lo, p] = v
    at += hi - lo
    if at + inner.shape[0] > s.shape[0]:  # no room left for another prefix's rows
        score_gathered(s, ones, at, sc, road)
        at = 0
    return at


def score_gathered(s, ones, n, sc, road):
    """Score the first ``n`` rows of ``s`` (high rows, or hi/lo rows of 2 P columns) through
    the loop the road tag ``road`` names (:func:`simulate._kernels.score.road_of`), or with
    ``ROAD_ANY`` the loop the rows and the scorer need, decided on each call (the parallel
    walk: one compiled form for every scorer). Compiled, a tag's dtype picks the loop when
    the walk compiles: a first answer's serial walk compiles one."""
    if road.dtype == ROAD_ANY.dtype and s.shape[1] > sc[1].shape[1]:
        score_rows_hilo(s, ones, np.int64(n), sc)
    else:
        score_rows_on(s, ones, np.int64(n), sc, road)


_ROAD_ANY_DTYPE = nb.from_dtype(ROAD_ANY.dtype)


@by_type(score_gathered)
def _score_gathered(s, ones, n, sc, road):
    if road.dtype == _ROAD_ANY_DTYPE:
        def either(s, ones, n, sc, road):
            if s.shape[1] > sc[1].shape[1]:
                score_rows_hilo(s, ones, np.int64(n), sc)
            else:
                score_rows(s, ones, np.int64(n), sc)
        return either

    def tagged(s, ones, n, sc, road):
        score_rows_on(s, ones, np.int64(n), sc, road)
    return tagged


@inline
def _fill_row3(b0, b1, b2, inner, start, tri, u, n_players, row3):
    """``row3[c * C + p]`` (int64[U * C]) for each fifth card ``c`` of ``inner[start:]``:
    column ``p``'s best of the triples of ``c`` with two of the first three board cards
    ``b0..b2`` (shared by every fourth card; a fifth card comes after the fourth, so the
    cards before ``start`` are never read)."""
    up = u * n_players
    uup = u * up
    q01 = b0 * uup + b1 * up
    q02 = b0 * uup + b2 * up
    q12 = b1 * uup + b2 * up
    for t in range(start, inner.shape[0]):
        e = inner[t] * n_players
        for p in range(n_players):
            row3[e + p] = max(np.int64(tri[q01 + e + p]), np.int64(tri[q02 + e + p]),
                              np.int64(tri[q12 + e + p]))


@serial
def _walk_first(first, fixed, deck, k, tri, u, n_players, sc, road):
    """Every runout of ``k`` (>= 1) cards from ``deck`` (universe indices, int64[D]) whose
    first drawn card is ``deck[first]`` (any first card when ``k == 1``); ``fixed``: the
    known board cards' universe indices (int64[5 - k]). ``first`` uint64 (the parallel
    loop's index type) and ``k`` int64 at both calls: one compiled signature, not three.
    The gathered rows are scored through :func:`score_gathered` by the road tag ``road``:
    the parallel walk passes ``ROAD_ANY`` (both loops: a tag that compiled one of them
    alone walked Omaha high 10-15 % slower, measured, 16.0 against 18.2 ms heads-up
    preflop, one thread); the serial twin, a first answer's walk, its scorer's own tag
    (one loop compiled)."""
    d = deck.shape[0]
    nf = fixed.shape[0]
    board = np.empty(5, np.int64)
    for i in range(nf):
        board[i] = fixed[i]
    rows = ROW_BATCH + max(d, 1)  # rows gathered before they are scored
    s = np.empty((rows, n_players), np.int64)
    ones = np.ones(rows, np.int64)
    pre = np.empty(n_players, np.int64)
    row3 = np.empty(u * n_players, np.int64)
    at = np.int64(0)
    if k == 1:
        _fill_row3(board[0], board[1], board[2], deck, 0, tri, u, n_players, row3)
        at = _walk_prefix(board[0], board[1], board[2], board[3], deck, 0, d, tri, u,
                          n_players, row3, s, at, ones, pre, sc, road)
        if at > 0:
            score_gathered(s, ones, at, sc, road)
        return
    m = k - 1  # outer drawn cards (the first is fixed to ``first``)
    idx = np.empty(m, np.int64)
    idx[0] = first
    for i in range(1, m):
        idx[i] = first + i
    if idx[m - 1] >= d - 1:
        return
    last = -1  # the (b0, b1, b2) row3 holds, as one number
    while True:
        for i in range(m):
            board[nf + i] = deck[idx[i]]
        key3 = (board[0] * u + board[1]) * u + board[2]
        if key3 != last:
            # the fifth card follows the fourth, a drawn card after the third when that is
            # drawn too: its row3 entries from two places past the third's
            start = idx[2 - nf] + 2 if nf <= 2 else 0
            _fill_row3(board[0], board[1], board[2], deck, start, tri, u, n_players, row3)
            last = key3
        at = _walk_prefix(board[0], board[1], board[2], board[3], deck, idx[m - 1] + 1, d,
                          tri, u, n_players, row3, s, at, ones, pre, sc, road)
        # advance the odometer of drawn cards 1..m-1 (card 0 stays ``first``)
        i = m - 1
        while i >= 1 and idx[i] >= d - 1 - (m - i):
            i -= 1
        if i < 1:
            if at > 0:
                score_gathered(s, ones, at, sc, road)
            return
        idx[i] += 1
        for j in range(i + 1, m):
            idx[j] = idx[j - 1] + 1


def exact_walk(fixed, deck, tri, u, n_players, bsc, road, n_bins):
    """Walk every runout, one strength row each (``n_players`` columns of ``tri``: 2 P in a
    hi/lo game, highs then lows, for a hi/lo scorer), into the block scorer ``bsc``
    (:func:`simulate._kernels.score.block_scorer`, equity or the pots of an all-in; one row
    per first drawn card, ``D`` rows, or one row when ``k == 1``). ``fixed``: known board
    (universe indices, int64[nb], nb in 0..4); ``deck``: undealt cards (universe indices,
    int64[D]). ``road``: the scoring loop's tag (:func:`score_gathered`). The parallel walk
    takes ``ROAD_ANY`` alone; :data:`exact_walk_serial`, the same walk on one thread
    (``_jit.parallel_and_serial``), the scorer's own tag (``simulate.omaha.walk_kernel``
    picks both). ``n_bins``: how many tasks the first cards are cut into
    (:func:`~simulate._kernels.holdem_exact.first_card_bins`; the thread count); the
    answer does not depend on it."""
    k = 5 - fixed.shape[0]
    # one task when k == 1. The count is a plain variable: a conditional expression inside
    # ``prange(...)`` keeps Numba from making the loop parallel (it warns, runs one thread)
    tasks = deck.shape[0]
    if k == 1:
        tasks = 1
    bin_of = np.empty(tasks, np.int64)  # the first cards in bins of equal work
    n_bins = first_card_bins(tasks, k, n_bins, bin_of)
    for b in nb.prange(n_bins):
        for f in range(tasks):
            if bin_of[f] == b:  # one call site (each compiles its own copy of the call)
                _walk_first(np.uint64(f), fixed, deck, np.int64(k), tri, u, n_players,
                            scorer_row(bsc, f), road)


exact_walk, exact_walk_serial = parallel_and_serial(exact_walk, "exact_walk_serial")


@serial
def _sample_block(seed, block, n, fixed, deck_init, tri, u, n_players, cat_of,
                  share, win, tie, cat, sq):
    """``n`` runouts from stream ``block``, dealt by the exactly uniform deal of
    :mod:`simulate._kernels.rng` (``deck_init`` is only read). ``share`` [H, P]: H = 2 in a
    hi/lo game (the high's units, then the low's; ``tri`` has 2 P columns)."""
    state = stream_state(seed, block)
    d = np.zeros(64, np.int64)  # every position Floyd's sampling can name
    d[:deck_init.shape[0]] = deck_init
    nf = fixed.shape[0]
    k = 5 - nf
    sp = subset_params(deck_init.shape[0], k)
    board = np.zeros(5, np.int64)
    for i in range(nf):
        board[i] = fixed[i]
    f0, f1, f2, f3, f4 = board[0], board[1], board[2], board[3], board[4]  # the known cards
    halves = share.shape[0]
    n_cols = halves * n_players
    s = np.empty(n_cols, np.int64)
    up = u * n_cols
    uup = u * up
    # the one scorer: a pot of 2520 units (hi/lo: 5040, with rows of highs then lows)
    sc = hilo_equity_scorer(n_players, cat_of) if halves == 2 else equity_scorer(n_players,
                                                                                  cat_of)
    pay = sc[6]
    # hi/lo or high decided once: two loops, each with its own inlined scorer (a dispatch
    # inside the loop kept both scorers' code in the hot path; as in _walk_prefix)
    if halves == 2 and n_players == 2:
        # heads-up hi/lo: each deal adds to the outcome table the exact walk's rows go to
        # (score.hilo_hu_add), paid once a block (hilo_hu_fold); a deal's payout is fixed by
        # its outcome, so the squares follow from the table: the same integers as adding
        # each deal's square (scored row by row, this took 6.5-7.4x Omaha high's time)
        hu = np.zeros(HILO_HU_CELLS, np.int64)
        for _ in range(n):
            state = _runout_strengths(state, d, sp, f0, f1, f2, f3, f4, nf, tri, uup, up,
                                      n_cols, s)
            hilo_hu_add(hu, s[0], s[1], s[2], s[3], np.int64(1), cat_of)
        hilo_hu_fold(hu, sc)
        hilo_hu_squares(hu, sc, sq)
    elif halves == 2:
        for _ in range(n):
            state = _runout_strengths(state, d, sp, f0, f1, f2, f3, f4, nf, tri, uup, up,
                                      n_cols, s)
            for p in range(n_players):
                pay[p] = 0
            score_row_hilo(s, np.int64(1), sc)
            for p in range(n_players):
                sq[p] += pay[p] * pay[p]
    elif n_players == 2:
        # heads-up: rows gathered and scored in one call a batch (score_rows' heads-up
        # table); a row pays SHARE_UNIT to a sole winner and half of it to each of two tied
        # players, so the squares follow from the wins and ties: the same integers as adding
        # each row's square
        rows = np.empty((ROW_BATCH, 2), np.int64)
        ones = np.ones(ROW_BATCH, np.int64)
        at = 0
        for _ in range(n):
            state, v0, v1 = _runout_pair(state, d, sp, f0, f1, f2, f3, f4, nf, tri, uup, up)
            rows[at, 0] = v0
            rows[at, 1] = v1
            at += 1
            if at == ROW_BATCH:
                score_rows(rows, ones, np.int64(at), sc)
                at = 0
        if at > 0:
            score_rows(rows, ones, np.int64(at), sc)
        half = SHARE_UNIT // 2
        for p in range(2):
            sq[p] += sc[7][p, 0] * (SHARE_UNIT * SHARE_UNIT) + sc[7][p, 1] * (half * half)
    else:
        for _ in range(n):
            state = _runout_strengths(state, d, sp, f0, f1, f2, f3, f4, nf, tri, uup, up,
                                      n_cols, s)
            for p in range(n_players):
                pay[p] = 0
            score_row(s, np.int64(1), sc)
            for p in range(n_players):
                sq[p] += pay[p] * pay[p]
    for p in range(n_players):
        for h in range(halves):
            share[h, p] += sc[5][h, p]
        win[p] += sc[7][p, 0]
        tie[p] += sc[7][p, 1]
        for c in range(9):
            cat[p, c] += sc[8][p, c]


@inline
def _board_cards(f0, f1, f2, f3, f4, nf, c0, c1, c2, c3, c4):
    """The five cards of a runout's board, as values: the ``nf`` known cards ``f0..`` then
    the dealt ``c0, c1, ...``. Kept in registers rather than written to a board array and
    read back (heads-up, a million deals: 22.9 -> 20.9 ms)."""
    x0 = f0 if nf > 0 else c0
    x1 = f1 if nf > 1 else (c1 if nf == 0 else c0)
    x2 = f2 if nf > 2 else (c2 if nf == 0 else (c1 if nf == 1 else c0))
    x3 = f3 if nf > 3 else (c3 if nf == 0 else (c2 if nf == 1 else (c1 if nf == 2 else c0)))
    x4 = f4 if nf > 4 else (c4 if nf == 0 else (c3 if nf == 1 else (c2 if nf == 2 else
                                                                   (c1 if nf == 3 else c0))))
    return x0, x1, x2, x3, x4


@inline
def _runout_strengths(state, d, sp, f0, f1, f2, f3, f4, nf, tri, uup, up, n_cols, s):
    """One runout of :func:`_sample_block`: the ``5 - nf`` missing board cards drawn from
    stream ``state`` (the known ones are ``f0..``: :func:`_board_cards`), then ``s[p]``
    (int64[n_cols]) the best of column ``p`` over the board's 10 triples. Returns the
    stream."""
    state, q0, q1, q2, q3, q4 = draw_set5(state, sp)
    c0, c1, c2, c3, c4 = d[q0], d[q1], d[q2], d[q3], d[q4]
    x0, x1, x2, x3, x4 = _board_cards(f0, f1, f2, f3, f4, nf, c0, c1, c2, c3, c4)
    # the ten triples' offsets in registers, not in a scratch array read back for every
    # column (three-way, 300,000 deals: 23.1 -> 20.8 ms)
    a0 = x0 * uup
    a1 = x1 * uup
    a2 = x2 * uup
    b1 = x1 * up
    b2 = x2 * up
    b3 = x3 * up
    e2 = x2 * n_cols
    e3 = x3 * n_cols
    e4 = x4 * n_cols
    o0 = a0 + b1 + e2
    o1 = a0 + b1 + e3
    o2 = a0 + b1 + e4
    o3 = a0 + b2 + e3
    o4 = a0 + b2 + e4
    o5 = a0 + b3 + e4
    o6 = a1 + b2 + e3
    o7 = a1 + b2 + e4
    o8 = a1 + b3 + e4
    o9 = a2 + b3 + e4
    for p in range(n_cols):
        v = max(tri[o0 + p], tri[o1 + p], tri[o2 + p], tri[o3 + p], tri[o4 + p])
        v = max(v, tri[o5 + p], tri[o6 + p], tri[o7 + p], tri[o8 + p], tri[o9 + p])
        s[p] = v
    return state


@inline
def _runout_pair(state, d, sp, f0, f1, f2, f3, f4, nf, tri, uup, up):
    """:func:`_runout_strengths` of two columns (heads-up high): ``(state, s0, s1)``, the
    two players' best over the board's 10 triples kept in registers (through the general
    loop's row ``s``: 42 -> 23.4 ms for a million heads-up deals)."""
    state, q0, q1, q2, q3, q4 = draw_set5(state, sp)
    c0, c1, c2, c3, c4 = d[q0], d[q1], d[q2], d[q3], d[q4]
    x0, x1, x2, x3, x4 = _board_cards(f0, f1, f2, f3, f4, nf, c0, c1, c2, c3, c4)
    v0 = 0
    v1 = 0
    for a in range(3):
        for b in range(a + 1, 4):
            xa = x0 if a == 0 else (x1 if a == 1 else x2)
            xb = x1 if b == 1 else (x2 if b == 2 else x3)
            ab = xa * uup + xb * up
            for c in range(b + 1, 5):
                o = ab + (x2 if c == 2 else (x3 if c == 3 else x4)) * 2
                w = tri[o]
                if w > v0:
                    v0 = w
                w = tri[o + 1]
                if w > v1:
                    v1 = w
    return state, v0, v1


@parallel
def sample_blocks(seed, n_total, block_size, b_lo, b_hi, fixed, deck, tri, u, n_players, cat_of,
                  share, win, tie, cat, sq):
    """Monte Carlo blocks ``b_lo..b_hi-1`` of a run of ``n_total`` deals in blocks of
    ``block_size`` (the block plan of :mod:`simulate.sampling`): block ``b`` deals
    ``min(block_size, n_total - b * block_size)`` runouts from its own RNG stream
    ``stream_state(seed, b)``, so results do not depend on the thread count. Rows as in
    :func:`exact_walk`, row ``b - b_lo`` for block ``b`` (``share`` [R, H, P]: H = 2, the
    high's and the low's units, in a hi/lo game). ``deck``: undealt cards (universe
    indices, int64[D]); ``fixed``: known board."""
    for i in nb.prange(b_hi - b_lo):
        b = b_lo + i
        n = min(block_size, n_total - b * block_size)
        if n > 0:
            _sample_block(np.uint64(seed), b, n, fixed, deck, tri, u, n_players, cat_of,
                          share[i], win[i], tie[i], cat[i], sq[i])
