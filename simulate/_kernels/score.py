"""The one showdown scorer (private; public wrappers in ``simulate.pots``).

Every engine is a *board source* that produces, one board at a time, a row of
strengths (one per live player, higher is better, equal ties) and a weight (how many
runouts, or deals, the row stands for). This module turns those rows into results
through the one pot rule of :mod:`simulate._kernels.award` (``award``, its hi/lo form,
``best_and_ties``):

- :func:`score_row` adds a weighted row to a *scorer* (below), which also keeps the
  equity statistics (wins, ties, hand categories) when asked to.

Equity is an all-in with one pot of :data:`SHARE_UNIT` units that every player can
win (2520 = lcm(1..10), so a k-way split gives exactly ``2520 / k`` and never an odd
chip): :func:`equity_scorer` builds that scorer (hi/lo: :func:`hilo_equity_scorer`, a pot
of twice the unit, so each half splits without an odd chip too).

A scorer is a tuple of arrays (Numba passes it as one argument)::

    sc = (amounts, eligible, order, split, odd, win, pay, stats, cats, cat_of)

- ``amounts`` int64[P]: chips in each pot; ``eligible`` bool[P, L]: who may win each;
- ``order`` int64[L]: player indices in odd-chip order (first left of the button first);
- ``split``, ``odd`` int64[P, L + 1]: ``amounts[p] // k`` and ``amounts[p] % k`` at
  column ``k`` (from :func:`split_tables`, so rows never divide; column 0 of ``split``
  marks pots whose players are a subset of the pot before's);
- ``win`` [P, L] (int64, or float64 for float weights): chips x weight won from each
  pot, summed over rows; ``pay`` [L] (same dtype): the same summed over pots (a Monte
  Carlo kernel zeroes it before each row to get the row's payout for the std error);
- ``stats`` int64[L, 2] (wins alone, ties in pot 0) and ``cats`` int64[L, 9] (rows by
  final hand category, via ``cat_of`` uint8[7463]); with ``stats.shape[0] == 0`` they
  are skipped (all-in EV does not need them).

A parallel walk keeps one scorer row per task: :func:`block_scorer` (Python) gives the
arrays with a leading row axis and :func:`scorer_row` takes row ``r`` inside the kernel.

The hand engine's one-showdown settlement is
:func:`simulate._kernels.award.settle_kernel`.
"""

from __future__ import annotations

import numpy as np

from evaluator._jit import by_type, inline, serial
from simulate._kernels.award import (
    award,
    award_hilo,
    best_and_ties,
    scorer_tables,
    split_tables,
    split_tables_hilo,
)
from simulate.results import SHARE_UNIT  # lcm(1..10): a k-way split is 2520 // k, no odd chip


@inline
def hilo_stats(st, w, best, n_best, eligible, stats, cats, cat_of):
    """The equity statistics of a hi/lo row ``st`` [2 L] (see :func:`score_row_hilo`): scoops
    in ``stats[i, 0]``, rows with a part of pot 0 in ``stats[i, 1]``, the high's category."""
    n = stats.shape[0]
    bl, nl, _ = best_and_ties(st[n:], eligible[0])
    for i in range(n):
        v = np.int64(st[i])
        cats[i, cat_of[v]] += w
        gh = v == best and eligible[0, i]
        gl = bl > 0 and np.int64(st[n + i]) == bl and eligible[0, i]
        if gh and n_best == 1 and (bl <= 0 or (gl and nl == 1)):
            stats[i, 0] += w
        elif gh or gl:
            stats[i, 1] += w


@inline
def score_row(st, w, sc):
    """Add the row of strengths ``st`` ([L], any integer dtype) with weight ``w`` to the
    scorer ``sc`` (see the module docstring): pots through :func:`award`, then the equity
    statistics of pot 0 when the scorer keeps them. Hi/lo rows: :func:`score_row_hilo`."""
    amounts, eligible, order, split, odd, win, pay, stats, cats, cat_of = sc
    best, n_best = award(st, w, amounts, eligible, order, split, odd, win, pay)
    n = stats.shape[0]
    if n > 0:
        col = 0 if n_best == 1 else 1
        for i in range(n):
            v = np.int64(st[i])
            cats[i, cat_of[v]] += w
            if v == best and eligible[0, i]:
                stats[i, col] += w


@serial
def score_rows(rows, wts, n, sc):
    """:func:`score_row` of ``rows[:n]`` (int64[R, L]) with weights ``wts[:n]`` (int64[R]):
    a walk that gathers its rows scores them here, through one compiled copy of the pot
    rule.

    An equity scorer (one pot that every player may win, statistics kept) takes a shorter
    road to the same sums, as the exact walks spend about half their time scoring:
    heads-up, each row adds its weight to one cell of a table of (outcome, category,
    category), which is folded into the scorer once per call (:func:`_equity_rows_hu`);
    with more players, one pass per row finds the best and its ties and counts the
    categories, and only ties go through :func:`pay_pot` (:func:`_equity_rows`).

    A caller that knows its road before it compiles calls :func:`score_rows_on` with a
    road tag instead, and compiles that road alone."""
    road = _road(sc)
    if road == _POTS:
        for r in range(n):
            score_row(rows[r], wts[r], sc)
    elif road == _HU:
        _equity_rows_hu(rows, wts, n, sc)
    else:
        _equity_rows(rows, wts, n, sc)


_POTS, _HU, _MULTI = 0, 1, 2  # the roads of :func:`_road`


@inline
def _road(sc):
    """Which loop scores the rows of ``sc``: :data:`_HU` / :data:`_MULTI` for an equity
    scorer (one pot that every one of two / of three or more players may win, statistics
    kept), else :data:`_POTS` (row by row through the pot rule). The one statement of the
    choice: :func:`score_rows` makes it on each call, :func:`road_of` (by this function's
    interpreted form) before a walk compiles."""
    amounts, eligible, stats = sc[0], sc[1], sc[7]
    everyone = amounts.shape[0] == 1 and stats.shape[0] > 0
    for i in range(eligible.shape[1]):
        everyone = everyone and eligible[0, i]
    if not everyone:
        return _POTS
    return _HU if eligible.shape[1] == 2 else _MULTI


#: Road tags for :func:`score_rows_on`: zero-length arrays whose dtype names the loop a
#: caller compiles, so the choice is part of the caller's compiled signature (and of its
#: disk cache entry). :func:`road_of` gives a scorer's own. A tag holds no data, so a kernel
#: that serves every scorer may name :data:`ROAD_ANY` as a constant (it is not a table).
ROAD_ANY = np.zeros(0, np.int8)  # decided on each call, as score_rows does
ROAD_HU = np.zeros(0, np.int16)  # an equity scorer of two players
ROAD_MULTI = np.zeros(0, np.int32)  # an equity scorer of three or more
ROAD_POTS = np.zeros(0, np.int64)  # any other scorer (side pots, no statistics): row by row
ROAD_OUTCOMES = np.zeros(0, np.float64)  # an outcome scorer (:func:`outcome_scorer`)
ROAD_HILO_HU = np.zeros(0, np.uint16)  # hi/lo rows into a hi/lo equity scorer of two
ROAD_HILO = np.zeros(0, np.uint32)  # hi/lo rows into any other hi/lo scorer: row by row
_HILO_TAGS = (ROAD_HILO_HU.dtype, ROAD_HILO.dtype)


def road_of(sc, hilo=False):
    """The road tag of the scorer ``sc``: the loop :func:`score_rows` takes for it, or with
    ``hilo`` (a hi/lo scorer fed hi/lo rows) the one :func:`score_rows_hilo` takes."""
    if len(sc) > 10:
        return ROAD_OUTCOMES
    if hilo:
        return ROAD_HILO_HU if _road.py_func(sc) == _HU else ROAD_HILO
    return (ROAD_POTS, ROAD_HU, ROAD_MULTI)[_road.py_func(sc)]


def score_rows_on(rows, wts, n, sc, road):
    """:func:`score_rows` through the road that ``road`` names (a tag from :func:`road_of`,
    or :data:`ROAD_ANY`). Compiled, the tag's dtype picks the loop when the caller
    compiles, so a first answer compiles one road, not three (the first exact heads-up
    answer of a fresh install compiles about 0.9 s less). The tag must be the scorer's own;
    the interpreter's version checks that, then scores through :func:`score_rows`."""
    hilo = road.dtype in _HILO_TAGS
    if road.dtype != ROAD_ANY.dtype and road.dtype != road_of(sc, hilo).dtype:
        raise ValueError(f"road tag {road.dtype} does not fit this scorer")
    if hilo:
        score_rows_hilo(rows, wts, n, sc)
    elif road.dtype == ROAD_OUTCOMES.dtype:
        _rows_outcomes(rows, wts, n, sc, road)
    else:
        score_rows(rows, wts, n, sc)


@by_type(score_rows_on)
def _score_rows_on(rows, wts, n, sc, road):
    if "float" in str(road.dtype):
        return _rows_outcomes
    if str(road.dtype).startswith("uint"):  # hi/lo rows
        return _rows_hilo_hu if road.dtype.bitwidth == 16 else _rows_hilo
    return {16: _rows_hu, 32: _rows_multi, 64: _rows_pots}.get(road.dtype.bitwidth, _rows_any)


def outcome_scorer(amounts, eligible, order, cat_of, cap=4096):
    """:func:`pots_scorer` (int64) that also counts every row by its outcome, for a payoff
    that is not linear in the chips (ICM): three more arrays, ``outs`` int64[cap, L] (each
    distinct payout vector of one runout, in order of first appearance), ``outw``
    int64[cap] (the weight of the rows that paid it) and ``nout`` int64[2] (how many
    distinct, and 1 if there were more than ``cap``). Its road is :data:`ROAD_OUTCOMES`."""
    return pots_scorer(amounts, eligible, order, cat_of) + (
        np.zeros((cap, eligible.shape[1]), np.int64), np.zeros(cap, np.int64),
        np.zeros(2, np.int64))


def _rows_outcomes(rows, wts, n, sc, road):
    """Rows into an :func:`outcome_scorer`: each row settled by :func:`award` (the one pot
    rule) into ``win`` and ``pay`` with its weight, and once more alone for its payout
    vector, whose weight is added to its entry in ``outs``/``outw`` (found by a scan)."""
    amounts, eligible, order, split, odd, win, pay, stats, cats, cat_of, outs, outw, nout = sc
    n_live = eligible.shape[1]
    row_win = np.zeros(win.shape, np.int64)
    row_pay = np.zeros(n_live, np.int64)
    for r in range(n):
        award(rows[r], wts[r], amounts, eligible, order, split, odd, win, pay)
        for i in range(n_live):
            row_pay[i] = 0
        award(rows[r], np.int64(1), amounts, eligible, order, split, odd, row_win, row_pay)
        found = -1
        for o in range(nout[0]):
            same = True
            for i in range(n_live):
                same = same and outs[o, i] == row_pay[i]
            if same:
                found = o
                break
        if found < 0:
            if nout[0] == outs.shape[0]:
                nout[1] = 1
                continue
            found = nout[0]
            outs[found] = row_pay
            nout[0] += 1
        outw[found] += wts[r]


def _rows_hu(rows, wts, n, sc, road):
    """:func:`score_rows`' heads-up equity road alone (:data:`ROAD_HU`)."""
    _equity_rows_hu(rows, wts, n, sc)


def _rows_multi(rows, wts, n, sc, road):
    """:func:`score_rows`' road for equity among three or more alone (:data:`ROAD_MULTI`)."""
    _equity_rows(rows, wts, n, sc)


def _rows_pots(rows, wts, n, sc, road):
    """:func:`score_rows`' row-by-row road alone (:data:`ROAD_POTS`)."""
    for r in range(n):
        score_row(rows[r], wts[r], sc)


def _rows_hilo_hu(rows, wts, n, sc, road):
    """:func:`score_rows_hilo`'s heads-up equity road alone (:data:`ROAD_HILO_HU`)."""
    _equity_rows_hilo_hu(rows, wts, n, sc)


def _rows_hilo(rows, wts, n, sc, road):
    """:func:`score_rows_hilo`'s row-by-row road alone (:data:`ROAD_HILO`)."""
    for r in range(n):
        score_row_hilo(rows[r], wts[r], sc)


def _rows_any(rows, wts, n, sc, road):
    """:func:`score_rows` itself (:data:`ROAD_ANY`: the road decided on each call)."""
    score_rows(rows, wts, n, sc)


@inline
def _equity_rows_hu(rows, wts, n, sc):
    """:func:`score_rows` of heads-up rows into an equity scorer: ``hu[81 o + 9 a + b]``
    sums the weights of rows with outcome ``o`` (0: player 0 wins, 1: player 1 wins, 2: a
    tie) and categories ``a``, ``b``; then the pot's shares (a tie: ``split[0, 2]`` each,
    the odd chips, if any, to the first in ``order``, as :func:`pay_pot` pays two tied
    players), the wins and ties and the categories are added from it, in one pass over the
    81 category pairs. (Compile time, for a fresh install's first answer: a table of more
    axes costs one more allocation to compile, about 0.1 s; loops of a constant length,
    which LLVM unrolls, about 0.05 s more. Summing each row's weight three times instead
    of the table scored about 5 % slower.)"""
    amounts, eligible, order, split, odd, win, pay, stats, cats, cat_of = sc
    hu = np.zeros(243, np.int64)
    for r in range(n):
        a = rows[r, 0]
        b = rows[r, 1]
        hu[81 * (np.int64(b > a) + 2 * np.int64(a == b)) + 9 * cat_of[a] + cat_of[b]] += wts[r]
    w0 = 0
    w1 = 0
    t = 0
    n_cats = cats.shape[1]  # 9, not a constant: LLVM does not unroll the loops
    for ca in range(n_cats):
        for cb in range(n_cats):
            c0 = hu[9 * ca + cb]
            c1 = hu[81 + 9 * ca + cb]
            c2 = hu[162 + 9 * ca + cb]
            w0 += c0
            w1 += c1
            t += c2
            cats[0, ca] += c0 + c1 + c2
            cats[1, cb] += c0 + c1 + c2
    for i in range(2):
        x = (w0 if i == 0 else w1) * split[0, 1] + t * split[0, 2]
        if order[0] == i:
            x += t * odd[0, 2]
        win[0, i] += x
        pay[i] += x
    stats[0, 0] += w0
    stats[1, 0] += w1
    stats[0, 1] += t
    stats[1, 1] += t


@inline
def _equity_rows(rows, wts, n, sc):
    """:func:`score_rows` of rows of three or more players into an equity scorer: one pass
    a row finds the set of players holding the best strength (a bit mask) and counts the
    categories; the weights are summed per set, and each set is paid once per call by the
    pot rule: ``split[0, k]`` to each of its ``k`` players and the ``odd[0, k]`` odd chips
    one at a time to its players in ``order`` (as :func:`pay_pot` pays a row)."""
    amounts, eligible, order, split, odd, win, pay, stats, cats, cat_of = sc
    n_players = eligible.shape[1]
    by_set = np.zeros(1 << n_players, np.int64)
    if n_players == 3:
        # three players written out, the values in registers and the best set branch-free
        # (three-way exact preflop, the walk and its scoring: 410 -> 365 us)
        c0, c1, c2 = cats[0], cats[1], cats[2]
        for r in range(n):
            w = wts[r]
            a = rows[r, 0]
            b = rows[r, 1]
            c = rows[r, 2]
            c0[cat_of[a]] += w
            c1[cat_of[b]] += w
            c2[cat_of[c]] += w
            m = a if a > b else b
            m = m if m > c else c
            by_set[np.int64(a == m) | (np.int64(b == m) << 1) | (np.int64(c == m) << 2)] += w
    else:
        for r in range(n):
            w = wts[r]
            best = np.int64(-1)
            held = 0
            for i in range(n_players):
                v = rows[r, i]
                cats[i, cat_of[v]] += w
                if v > best:
                    best = v
                    held = 1 << i
                elif v == best:
                    held |= 1 << i
            by_set[held] += w
    for held in range(1, 1 << n_players):
        w = by_set[held]
        if w == 0:
            continue
        k = 0
        for i in range(n_players):
            k += (held >> i) & 1
        x = w * split[0, k]
        col = 0 if k == 1 else 1
        for i in range(n_players):
            if (held >> i) & 1:
                win[0, i] += x
                pay[i] += x
                stats[i, col] += w
        left = odd[0, k]
        j = 0
        while left > 0:
            i = order[j]
            if (held >> i) & 1:
                win[0, i] += w
                pay[i] += w
                left -= 1
            j += 1


@serial
def score_rows_hilo(rows, wts, n, sc):
    """:func:`score_rows` of hi/lo rows (int64[R, 2 L]) into a hi/lo scorer: a heads-up
    equity scorer (:func:`_road`'s :data:`_HU`) through :func:`_equity_rows_hilo_hu`, any
    other row by row (:func:`score_row_hilo`)."""
    if _road(sc) == _HU:
        _equity_rows_hilo_hu(rows, wts, n, sc)
    else:
        for r in range(n):
            score_row_hilo(rows[r], wts[r], sc)


@inline
def _equity_rows_hilo_hu(rows, wts, n, sc):
    """:func:`_equity_rows_hu` of heads-up hi/lo rows ``(h0, h1, l0, l1)``: ``hu[81 o + 9 a
    + b]`` sums the weights by outcome ``o = 4 oh + ol`` (``oh``: 0 or 1 that player's high
    alone, 2 tied; ``ol``: 0 no low, 1 or 2 player 0's or 1's alone, 3 tied) and high
    categories; each outcome is paid once as :func:`award_hilo` pays a row (split row 0, the
    whole pot, to the high with no low, else rows 1 and 2, the halves) and counted as
    :func:`hilo_stats` counts it. (Row by row, scoring was most of the walk's time.)"""
    cat_of = sc[9]
    hu = np.zeros(HILO_HU_CELLS, np.int64)
    for r in range(n):
        hilo_hu_add(hu, rows[r, 0], rows[r, 1], rows[r, 2], rows[r, 3], wts[r], cat_of)
    hilo_hu_fold(hu, sc)


#: Cells of the heads-up hi/lo outcome table: 12 outcomes x 9 x 9 high categories.
HILO_HU_CELLS = 972


@inline
def hilo_hu_add(hu, h0, h1, l0, l1, w, cat_of):
    """Add weight ``w`` of the heads-up hi/lo row ``(h0, h1, l0, l1)`` to the outcome table
    ``hu`` (int64[:data:`HILO_HU_CELLS`]): cell ``81 o + 9 a + b``, ``o`` its
    :func:`hilo_hu_outcome`, ``a`` and ``b`` the highs' categories (``cat_of``)."""
    hu[81 * hilo_hu_outcome(h0, h1, l0, l1) + 9 * cat_of[h0] + cat_of[h1]] += w


@inline
def hilo_hu_fold(hu, sc):
    """Pay and count the outcome table ``hu`` (:func:`hilo_hu_add`) into the heads-up hi/lo
    equity scorer ``sc``, each outcome once (see :func:`_equity_rows_hilo_hu`); the table
    is only read."""
    amounts, eligible, order, split, odd, win, pay, stats, cats, cat_of = sc
    n_cats = cats.shape[1]  # not a constant: LLVM does not unroll the loops
    for o in range(12):
        oh, ol = o // 4, o % 4
        w = 0
        for ca in range(n_cats):
            for cb in range(n_cats):
                c = hu[81 * o + 9 * ca + cb]
                w += c
                cats[0, ca] += c
                cats[1, cb] += c
        _pay_outcome(o, w, split, odd, order, win, pay)
        for i in range(2):
            if oh == i and (ol == 0 or ol == i + 1):
                stats[i, 0] += w  # a scoop
            elif oh == i or oh == 2 or ol == i + 1 or ol == 3:
                stats[i, 1] += w


@inline
def hilo_hu_outcome(h0, h1, l0, l1):
    """The outcome ``4 oh + ol`` (0..11) of a heads-up hi/lo row: ``oh`` 0 or 1 that
    player's high alone, 2 tied; ``ol`` 0 no low, 1 or 2 player 0's or 1's low alone, 3
    tied (a low is > 0, the larger the better)."""
    o = 4 * np.int64(h1 > h0) + 8 * np.int64(h0 == h1) + np.int64(l0 > l1)
    return o + 2 * np.int64(l1 > l0) + 3 * np.int64(l0 == l1) * np.int64(l0 > 0)


@serial
def hilo_hu_squares(hu, sc, sq):
    """Add to ``sq`` (int64[2]) each player's payout squared, summed over the rows of the
    outcome table ``hu`` (:func:`hilo_hu_add`, rows of weight 1): a row's payout is fixed
    by its outcome (:func:`_pay_outcome`, as :func:`hilo_hu_fold` pays it, from the heads-up
    hi/lo scorer ``sc``'s split tables), so the squares need no row-by-row scoring."""
    split, odd, order = sc[3], sc[4], sc[2]
    win = np.zeros((2, 2), np.int64)
    pay = np.zeros(2, np.int64)
    for o in range(12):
        count = 0
        for j in range(81):
            count += hu[81 * o + j]
        if count == 0:
            continue
        pay[0] = 0
        pay[1] = 0
        _pay_outcome(o, np.int64(1), split, odd, order, win, pay)
        for i in range(2):
            sq[i] += count * pay[i] * pay[i]


@inline
def _pay_outcome(o, w, split, odd, order, win, pay):
    """Pay the heads-up hi/lo outcome ``o`` (:func:`hilo_hu_outcome`) ``w`` times as
    :func:`award_hilo` pays a row: split row 0, the whole pot, to the high when no one has
    a low, else row 1 to the high and row 2 to the low (:func:`_pay_two`); adds to ``win``
    (row 0 the high's, row 1 the low's) and ``pay``."""
    oh, ol = o // 4, o % 4
    _pay_two(oh, 0 if ol == 0 else 1, w, split, odd, order, win, 0, pay)
    if ol > 0:
        _pay_two(ol - 1, 2, w, split, odd, order, win, 1, pay)


@inline
def _pay_two(o, row, w, split, odd, order, win, wrow, pay):
    """Pay row ``row`` of the split tables ``w`` times to heads-up outcome ``o`` (0, 1: that
    player alone; 2: ``split[row, 2]`` each, the odd chip, if any, to ``order[0]``) as
    :func:`pay_pot` pays it; adds to ``win[wrow]`` and ``pay``."""
    for i in range(2):
        x = w * split[row, 1] if o == i else 0
        if o == 2:
            x = w * split[row, 2] + (w * odd[row, 2] if order[0] == i else 0)
        win[wrow, i] += x
        pay[i] += x


@inline
def score_row_any(st, w, sc):
    """:func:`score_row` of a row [L], or :func:`score_row_hilo` of a hi/lo row [2 L], for
    the row loops that serve both kinds (Omaha's Monte Carlo)."""
    if st.shape[0] > sc[1].shape[1]:
        score_row_hilo(st, w, sc)
    else:
        score_row(st, w, sc)


@inline
def score_row_hilo(st, w, sc):
    """:func:`score_row` of a hi/lo row ``st`` [2 L] (highs, then lows) into a hi/lo scorer
    (:func:`hilo_equity_scorer`; ``stats[i, 0]`` counts scoops, the whole pot alone,
    ``stats[i, 1]`` rows with a part of it; categories are the high hand's). A walk that
    knows its kind before its row loop calls this or :func:`score_row` (two loops), not
    :func:`score_row_any` in one."""
    amounts, eligible, order, split, odd, win, pay, stats, cats, cat_of = sc
    best, n_best = award_hilo(st, w, amounts, eligible, order, split, odd, win, pay)
    if stats.shape[0] > 0:
        hilo_stats(st, w, best, n_best, eligible, stats, cats, cat_of)


@serial
def equity_scorer(n_players, cat_of):
    """A scorer for equity: one pot of :data:`SHARE_UNIT` that all ``n_players`` can win,
    with statistics (``win[0, i]`` = share units, ``stats[i]`` = wins, ties, ``cats[i]``)."""
    amounts = np.full(1, SHARE_UNIT, np.int64)
    eligible = np.ones((1, n_players), np.bool_)
    split, odd = split_tables(amounts, eligible)
    return _one_pot_scorer(amounts, eligible, split, odd, 1, cat_of)


@serial
def hilo_equity_scorer(n_players, cat_of):
    """:func:`equity_scorer` of a hi/lo game: one pot of ``2 * SHARE_UNIT`` (each half
    splits any number of ways without an odd chip) fed rows of ``2 * n_players``;
    ``win[0, i]`` / ``win[1, i]`` are the units won by the high and the low, ``stats[i]``
    scoops and parts."""
    amounts = np.full(1, 2 * SHARE_UNIT, np.int64)
    eligible = np.ones((1, n_players), np.bool_)
    split, odd = split_tables_hilo(amounts, eligible)
    return _one_pot_scorer(amounts, eligible, split, odd, 2, cat_of)


@inline
def _one_pot_scorer(amounts, eligible, split, odd, win_rows, cat_of):
    """The scorer of :func:`equity_scorer` and :func:`hilo_equity_scorer` from its pot and
    split tables: every seat in order, ``win`` int64[win_rows, L] and the statistics zeroed."""
    n_players = eligible.shape[1]
    return (amounts, eligible, np.arange(n_players), split, odd,
            np.zeros((win_rows, n_players), np.int64), np.zeros(n_players, np.int64),
            np.zeros((n_players, 2), np.int64), np.zeros((n_players, 9), np.int64), cat_of)


def pots_scorer(amounts, eligible, order, cat_of, dtype=np.int64, *, hilo=False):
    """A scorer for all-in EV without statistics (built in Python): ``amounts`` int64[P],
    ``eligible`` bool[P, L], ``order`` int64[L]; ``win``/``pay`` of ``dtype`` (int64 for
    exact integer sums, float64 for float weights). ``cat_of`` is only carried. ``hilo``:
    the tables of :func:`split_tables_hilo` and ``win`` [2 P, L] (highs, then lows)."""
    n_players = eligible.shape[1]
    split, odd = scorer_tables(amounts, eligible, hilo)
    return (amounts, eligible, order, split, odd,
            np.zeros(((1 + hilo) * amounts.shape[0], n_players), dtype),
            np.zeros(n_players, dtype),
            np.zeros((0, 2), np.int64), np.zeros((0, 9), np.int64), cat_of)


@serial
def equity_counts(sc, res, cats):
    """Add an equity scorer's totals to ``res`` int64[L, 3] (wins, ties, share units) and
    ``cats`` int64[L, 9] (the layout :mod:`simulate.equity` reads)."""
    win = sc[5]
    stats = sc[7]
    cc = sc[8]
    for i in range(res.shape[0]):
        res[i, 0] += stats[i, 0]
        res[i, 1] += stats[i, 1]
        res[i, 2] += win[0, i]
        for c in range(9):
            cats[i, c] += cc[i, c]


def block_scorer(amounts, eligible, order, cat_of, rows, *, stats=False, dtype=np.int64,
                 hilo=False):
    """A scorer with ``rows`` independent accumulators (one per parallel task or block),
    built in Python: ``win`` [rows, P, L], ``pay`` [rows, L], and with ``stats`` also
    ``stats`` int64[rows, L, 2] and ``cats`` int64[rows, L, 9] (else zero-length). A kernel
    takes row ``r`` with :func:`scorer_row` and Python sums the rows. ``hilo``: as for
    :func:`pots_scorer` (``win`` [rows, 2 P, L])."""
    n_players = eligible.shape[1]
    split, odd = scorer_tables(amounts, eligible, hilo)
    n_st = n_players if stats else 0
    return (amounts, eligible, order, split, odd,
            np.zeros((rows, (1 + hilo) * amounts.shape[0], n_players), dtype),
            np.zeros((rows, n_players), dtype), np.zeros((rows, n_st, 2), np.int64),
            np.zeros((rows, n_st, 9), np.int64), cat_of)


def equity_block_scorer(n_players, cat_of, rows, *, hilo=False):
    """:func:`block_scorer` for equity: one pot of :data:`SHARE_UNIT` (hi/lo: twice that, as
    :func:`hilo_equity_scorer`), everyone eligible, with statistics."""
    amounts = np.full(1, (1 + hilo) * SHARE_UNIT, np.int64)
    return block_scorer(amounts, np.ones((1, n_players), np.bool_), np.arange(n_players),
                        cat_of, rows, stats=True, hilo=hilo)


@inline
def scorer_row(bsc, r):
    """Row ``r`` of a :func:`block_scorer` as a plain scorer (views, no copies)."""
    return (bsc[0], bsc[1], bsc[2], bsc[3], bsc[4], bsc[5][r], bsc[6][r], bsc[7][r], bsc[8][r],
            bsc[9])
