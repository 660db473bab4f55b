"""The one pot rule (private): who takes which chips of each pot at a showdown.

- :func:`best_and_ties` is the one "best strength, count the ties" loop;
- :func:`award` is the one pot-settlement rule (main and side pots, each split on its
  own, odd chips one at a time to the tied winners in odd-chip order; its
  :func:`pay_pot` is the only odd-chip loop in the package). A row of twice the players
  is a high/low split game's (the highs, then the lows, 0 for no qualifying low):
  :func:`award_hilo` halves each pot on its own between its best high and its best low
  (the odd chip high; each half split again among its ties, by the same loop);
- :func:`split_tables` (and its hi/lo and halved forms) precompute each pot's
  ``amount // k`` and ``amount % k`` so rows never divide;
- :func:`settle_kernel` settles one showdown in seat space for the hand engine
  (:func:`simulate.pots.settle` wraps it).

The scorers that add many weighted rows through this rule live in
:mod:`simulate._kernels.score`, whose docstring gives the arrays' shapes.
"""

from __future__ import annotations

import numpy as np

from evaluator._jit import inline, serial


@serial
def split_tables(amounts, eligible):
    """``(split, odd)``, int64[P, L + 1]: ``amounts[p] // k`` and ``amounts[p] % k`` at
    column ``k >= 1``; ``split[p, 0]`` is 1 when pot ``p``'s eligible players are a subset
    of pot ``p - 1``'s (side pots built from commitment levels always are), so a row's sole
    winner of pot ``p - 1`` who is eligible for pot ``p`` wins it without a scan.
    ``amounts``: int64[P]; ``eligible``: bool[P, L]."""
    n_pots = amounts.shape[0]
    n_players = eligible.shape[1]
    split = np.zeros((n_pots, n_players + 1), np.int64)
    odd = np.zeros((n_pots, n_players + 1), np.int64)
    for p in range(n_pots):
        for k in range(1, n_players + 1):
            split[p, k] = amounts[p] // k
            odd[p, k] = amounts[p] - split[p, k] * k
        if p > 0:
            sub = 1
            for i in range(n_players):
                if eligible[p, i] and not eligible[p - 1, i]:
                    sub = 0
            split[p, 0] = sub
    return split, odd


@serial
def split_tables_hilo(amounts, eligible):
    """:func:`split_tables` of a hi/lo game's pots: ``(split, odd)`` int64[3 P, L + 1], rows
    ``0..P-1`` the whole pots (no qualifying low), ``P..2P-1`` their high halves
    (``a - a // 2``: the odd chip goes high) and ``2P..3P-1`` their low halves (``a // 2``)."""
    return split_tables(*halved_pots(amounts, eligible))


@serial
def halved_pots(amounts, eligible):
    """The pots of :func:`split_tables_hilo` (``amounts`` int64[3 P], ``eligible``
    bool[3 P, L]): each pot whole, then its high halves, then its low halves."""
    n_pots = amounts.shape[0]
    a3 = np.empty(3 * n_pots, np.int64)
    e3 = np.empty((3 * n_pots, eligible.shape[1]), np.bool_)
    for p in range(n_pots):
        a3[p] = amounts[p]
        a3[n_pots + p] = amounts[p] - amounts[p] // 2
        a3[2 * n_pots + p] = amounts[p] // 2
        for k in range(3):
            # element by element: a row assignment compiles Numba's broadcast check and
            # its formatted message (about 4 s of a first run's compile)
            for s in range(eligible.shape[1]):
                e3[k * n_pots + p, s] = eligible[p, s]
    return a3, e3


def scorer_tables(amounts, eligible, hilo=False):
    """:func:`split_tables` (``hilo``: :func:`split_tables_hilo`) for a scorer built in
    Python: the same code run by the interpreter (a few pots of at most ten players, tens
    of microseconds), so building a scorer compiles nothing; a fresh install's first
    answer compiles only its walk."""
    if hilo:
        amounts, eligible = halved_pots.py_func(amounts, eligible)
    return split_tables.py_func(amounts, eligible)


@inline
def best_and_ties(st, elig):
    """``(best, n_best, first)``: the highest ``st[i]`` among players with ``elig[i]``
    (bool[L]), how many eligible players hold it, and the first of them (0 players: best
    -1, first -1)."""
    best = np.int64(-1)
    n_best = 0
    first = -1
    for i in range(elig.shape[0]):
        if elig[i]:
            v = np.int64(st[i])
            if v > best:
                best = v
                n_best = 1
                first = i
            elif v == best:
                n_best += 1
    return best, n_best, first


@inline
def pay_pot(st, w, eligible, p, row, best, n_best, first, split, odd, order, win, wrow, pay):
    """Pay pot ``p``'s share ``row`` of the split tables (the whole pot, or one half of a
    hi/lo pot) to the ``n_best`` eligible players holding ``best`` in ``st`` (``first`` the
    first of them): ``w * split[row, k]`` each, then the ``odd[row, k]`` odd chips ``w`` at a
    time to the tied winners in ``order``; adds to ``win[wrow]`` and ``pay``. The only
    odd-chip loop in the package."""
    if n_best == 1:  # one winner takes it (most rows): no split, no odd chips
        x = w * split[row, 1]
        win[wrow, first] += x
        pay[first] += x
        return
    share = w * split[row, n_best]
    for i in range(first, eligible.shape[1]):
        if eligible[p, i] and np.int64(st[i]) == best:
            win[wrow, i] += share
            pay[i] += share
    left = odd[row, n_best]
    j = 0
    while left > 0:
        i = order[j]
        if eligible[p, i] and np.int64(st[i]) == best:
            win[wrow, i] += w
            pay[i] += w
            left -= 1
        j += 1


@inline
def award(st, w, amounts, eligible, order, split, odd, win, pay):
    """Settle every pot on one row of strengths ``st`` (any integer dtype, [L]) with weight
    ``w``: each winner of pot ``p`` gets ``w * split[p, k]`` (k tied winners), and the
    ``odd[p, k]`` odd chips go ``w`` each to the tied winners in ``order``. Adds to ``win``
    [P, L] and ``pay`` [L]; returns pot 0's ``(best, n_best)``. A pot nobody is eligible for
    is skipped (callers never build one holding chips). The split tables alone say what a
    pot pays (``amounts`` is not read), so a caller may zero a pot's columns to pay nothing;
    ``split[p, 0]`` must be 0 unless pot ``p``'s players are a subset of pot ``p - 1``'s
    (:func:`split_tables` sets it).

    ``st`` holds exactly ``L`` values (a hi/lo row goes to :func:`award_hilo`, or to
    :func:`award_any` where a kernel serves both kinds)."""
    best0 = np.int64(-1)
    n0 = 0
    best = np.int64(-1)
    n_best = 0
    first = -1
    for p in range(amounts.shape[0]):
        # a sole winner of the pot before who may win this one (its players a subset of
        # the last pot's) wins it too: no scan. 6 players, 5 pots preflop: 5.5 -> 3.5 ms.
        if not (n_best == 1 and split[p, 0] == 1 and eligible[p, first]):
            best, n_best, first = best_and_ties(st, eligible[p])
        if p == 0:
            best0 = best
            n0 = n_best
        # one winner takes it (most rows), written out: through the inlined pay_pot, whose
        # early return ends this branch, the Hold'em walks ran several times slower
        if n_best == 1:
            x = w * split[p, 1]
            win[p, first] += x
            pay[first] += x
        elif n_best > 1:
            pay_pot(st, w, eligible, p, p, best, n_best, first, split, odd, order, win, p, pay)
    return best0, n0


@inline
def award_hilo(st, w, amounts, eligible, order, split, odd, win, pay):
    """:func:`award` for a high/low split game: ``st`` [2 L] holds the highs, then the lows
    (0: no qualifying low). Each pot on its own: with no qualifying low among its eligible
    players the high takes it all; else the high takes ``a - a // 2`` (the odd chip) and the
    low ``a // 2``, each half split among its tied hands (quartering) with its odd chips in
    ``order``. Tables from :func:`split_tables_hilo` (``split``/``odd`` [3 P, L + 1]: the
    pots, their high halves, their low halves); the high's chips go to ``win[p]``, the
    low's to ``win[P + p]`` (``win`` [2 P, L]). Returns pot 0's high ``(best, n_best)``."""
    n = eligible.shape[1]
    n_pots = amounts.shape[0]
    hi = st[:n]
    lo = st[n:]
    best0 = np.int64(-1)
    n0 = 0
    for p in range(n_pots):
        bh, nh, fh = best_and_ties(hi, eligible[p])
        if p == 0:
            best0 = bh
            n0 = nh
        if nh == 0:
            continue
        bl, nl, fl = best_and_ties(lo, eligible[p])
        if bl <= 0:
            pay_pot(hi, w, eligible, p, p, bh, nh, fh, split, odd, order, win, p, pay)
        else:
            pay_pot(hi, w, eligible, p, n_pots + p, bh, nh, fh, split, odd, order, win, p,
                    pay)
            pay_pot(lo, w, eligible, p, 2 * n_pots + p, bl, nl, fl, split, odd, order, win,
                    n_pots + p, pay)
    return best0, n0


@inline
def award_any(st, w, amounts, eligible, order, split, odd, win, pay):
    """:func:`award` of a row ``st`` [L], or :func:`award_hilo` of a hi/lo row [2 L], for the
    kernels that serve both kinds (Omaha's, the strength rows of all-ins).

    High-only walks call :func:`award` itself: measured on exact heads-up preflop, a hi/lo
    branch in their row loop (inlined, or as a call, whose arrays Numba then reference-
    counts through the whole loop) made the walk 5-8 times slower (1.4 -> 8-12 ms)."""
    if st.shape[0] > eligible.shape[1]:
        return award_hilo(st, w, amounts, eligible, order, split, odd, win, pay)
    return award(st, w, amounts, eligible, order, split, odd, win, pay)


def settle_kernel(strengths, amounts, eligible, odd_order, payout_out):
    """Award every pot of one showdown to its best eligible hand(s), adding chips to
    ``payout_out``. The hand engine's entry point (seat space):

    - ``strengths``: ``ndarray[n_seats]`` of an integer dtype (``int32`` or ``uint16`` in
      practice; any integer dtype compiles). Higher is better; equal values tie. Values
      of seats that are not eligible for any pot (folded seats) are never read.
    - ``amounts``: ``ndarray[P] int64``, the chips in each pot (``>= 0``).
    - ``eligible``: ``ndarray[P, n_seats] bool``, ``eligible[p, s]`` is True when seat
      ``s`` can win pot ``p``.
    - ``odd_order``: ``ndarray[n_seats] int64``, a permutation of the seat indices in
      odd-chip order: the seat left of the button first, i.e. ``button + 1, button + 2,
      ...`` wrapping, the button last.
    - ``payout_out``: ``ndarray[n_seats] int64``, **added to** (not cleared), so one
      buffer can accumulate many showdowns.

    For each pot the winners are the eligible seats holding the highest strength among
    the eligible seats; each gets ``amount // n_winners`` and the ``amount % n_winners``
    odd chips go one at a time to the winners in ``odd_order`` (:func:`award`). Every pot
    is split on its own, so the kernel adds exactly ``amounts.sum()`` to ``payout_out``.
    ``strengths`` of ``2 n_seats`` values (the highs, then the lows: 0 for none) settle a
    high/low split game (:func:`award_hilo`).

    Raises ``ValueError`` if a pot holding chips has no eligible seat, or if
    ``odd_order`` is not a permutation of the seats. Returns nothing.

    A Python function choosing one of two kernels, :func:`settle_high` or
    :func:`settle_hilo`, by the length of ``strengths``: a Hold'em hand's first settle
    compiles no hi/lo code (1.9 s of the first run of ``pokerjit hand`` before).
    """
    kernel = settle_hilo if strengths.shape[0] > eligible.shape[1] else settle_high
    kernel(strengths, amounts, eligible, odd_order, payout_out)


@inline
def _check_showdown(amounts, eligible, odd_order):
    """:func:`settle_kernel`'s checks of its input: raises ValueError."""
    n_seats = eligible.shape[1]
    if odd_order.shape[0] != n_seats:
        raise ValueError("settle_kernel: odd_order must list every seat once")
    seen = np.zeros(n_seats, np.bool_)
    for j in range(n_seats):
        s = odd_order[j]
        if s < 0 or s >= n_seats or seen[s]:
            raise ValueError("settle_kernel: odd_order must list every seat once")
        seen[s] = True
    for p in range(amounts.shape[0]):
        if amounts[p] != 0:
            anyone = False
            for s in range(n_seats):
                anyone = anyone or eligible[p, s]
            if not anyone:
                raise ValueError("settle_kernel: a pot holding chips has no eligible seat")


@serial
def settle_high(strengths, amounts, eligible, odd_order, payout_out):
    """:func:`settle_kernel` of a high-only showdown (``strengths``: one per seat)."""
    _check_showdown(amounts, eligible, odd_order)
    win = np.zeros((2 * amounts.shape[0], eligible.shape[1]), np.int64)
    split, odd = split_tables(amounts, eligible)
    award(strengths, np.int64(1), amounts, eligible, odd_order, split, odd, win, payout_out)


@serial
def settle_hilo(strengths, amounts, eligible, odd_order, payout_out):
    """:func:`settle_kernel` of a high/low split showdown (``strengths``: the highs of
    every seat, then the lows)."""
    _check_showdown(amounts, eligible, odd_order)
    win = np.zeros((2 * amounts.shape[0], eligible.shape[1]), np.int64)
    split, odd = split_tables_hilo(amounts, eligible)
    award_hilo(strengths, np.int64(1), amounts, eligible, odd_order, split, odd, win,
               payout_out)
