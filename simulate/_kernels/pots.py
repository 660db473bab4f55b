"""Pots: the project's one pot builder (:func:`build_pots`, over plain arrays: what
:func:`simulate.pots.build_pots` wraps), the pots of a hand's state (:func:`table_pots`) and
the chips each seat takes at the end (:func:`settle`, by the one pot rule
:func:`simulate._kernels.award.award`; hi/lo games by its split rule,
:func:`simulate._kernels.award.award_hilo`, from the seats' :func:`omaha_value`).
"""

from __future__ import annotations

import numpy as np

from evaluator._jit import inline, serial
from evaluator._kernels.omaha import omaha_batch_serial, omaha_low_batch_serial
from simulate._kernels.award import award, award_hilo, split_tables_hilo
from simulate._kernels.state import (
    COMM,
    DEAD,
    GAME,
    HILO_GAME,
    NLIVE,
    OUT,
    STAT,
    STREET,
    N,
)


@inline
def build_pots(committed, live, amounts, eligible, returned):
    """Main and side pots from the chips committed: the project's one pot builder (the rules
    are stated in :mod:`simulate.pots`, whose :func:`simulate.pots.build_pots` validates and
    wraps this kernel).

    ``committed``: int64[n]; ``live``: bool-like[n] (nonzero while the seat holds cards).
    Writes ``amounts`` (int64[>= n]), ``eligible`` (bool[>= n, n]) and adds uncalled chips to
    ``returned`` (int64[n]). Returns the number of pots. Distinct commitment levels cut
    layers; a layer only one seat reached is returned to it; neighbouring layers with the
    same eligible seats merge.
    """
    n = committed.shape[0]
    prev = 0
    n_pots = 0
    while True:
        level = -1
        for s in range(n):
            c = committed[s]
            if c > prev and (level < 0 or c < level):
                level = c
        if level < 0:
            break
        count = 0
        last = -1
        for s in range(n):
            if committed[s] >= level:
                count += 1
                last = s
        amount = (level - prev) * count
        prev = level
        if count == 1:
            returned[last] += amount
            continue
        same = n_pots > 0
        if same:
            for s in range(n):
                e = committed[s] >= level and live[s] != 0
                if e != eligible[n_pots - 1, s]:
                    same = False
                    break
        if same:
            amounts[n_pots - 1] += amount
        else:
            amounts[n_pots] = amount
            for s in range(n):
                eligible[n_pots, s] = committed[s] >= level and live[s] != 0
            n_pots += 1
    return n_pots


@inline
def table_pots(S, amounts, eligible, returned):
    """The hand's pots: :func:`build_pots` over the blinds and bets, with the antes (dead
    money) added to the main pot, which every live seat may win (a pot of their own, placed
    first, when some live seat is not eligible for the main pot). ``amounts`` int64[>= n+1],
    ``eligible`` bool[>= n+1, n]; uncalled chips are added to ``returned``. Returns the
    number of pots."""
    n = S[N]
    # the common showdown: two or more live seats, all with the same chips in. Then every
    # layer build_pots would cut has two or more seats (the most any seat put in is a live
    # seat's: a seat folds only facing more) and the live seats as its eligible seats, so
    # there is one pot, antes in, and nothing to return.
    top = -1  # the live seats' chips in (-1: none seen yet)
    same = True
    total = S[DEAD]
    for s in range(n):
        c = S[COMM + s]
        total += c
        if S[STAT + s] != OUT:
            if top < 0:
                top = c
            elif c != top:
                same = False
    if same and top > 0 and S[NLIVE] >= 2:
        amounts[0] = total
        for s in range(n):
            eligible[0, s] = S[STAT + s] != OUT
        return 1
    n_pots = build_pots(S[COMM:COMM + n], S[STAT:STAT + n], amounts, eligible, returned)
    dead = S[DEAD]
    if dead == 0:
        return n_pots
    every = n_pots > 0
    if every:
        for s in range(n):
            if eligible[0, s] != (S[STAT + s] != OUT):
                every = False
                break
    if every:
        amounts[0] += dead
        return n_pots
    for p in range(n_pots, 0, -1):
        amounts[p] = amounts[p - 1]
        for s in range(n):
            eligible[p, s] = eligible[p - 1, s]
    amounts[0] = dead
    for s in range(n):
        eligible[0, s] = S[STAT + s] != OUT
    return n_pots + 1


@inline
def _contenders(eligible, p, st, n):
    """``(seats eligible for pot p, whether one of them has an unknown strength)``: the
    strengths ``st[s] < 0`` are not known (hidden cards); a pot with two or more eligible
    seats and an unknown among them cannot be settled (:func:`settle`, :func:`settle_hilo`)."""
    ne = 0
    hidden = False
    for s in range(n):
        if eligible[p, s]:
            ne += 1
            if st[s] < 0:
                hidden = True
    return ne, hidden


@inline
def settle(S, st, payout, amounts, eligible, order, split, odd, win):
    """Chips each seat takes from the table at the end of the hand, added to ``payout``
    (int64[n]); ``st`` are the strengths from :func:`strengths`.

    A hand won without a showdown pays every chip (antes included) to the last live seat.
    At a showdown the pots come from :func:`table_pots` and are settled by the project's
    one pot rule, :func:`simulate._kernels.award.award` (each pot on its own, odd chips one
    at a time to the tied winners in ``order`` int64[n] = seats from the button's left). A
    pot with two or more eligible seats of which one has an unknown strength (-1) is left
    unpaid; returns the number of such pots (0 when the outcome is known). Scratch:
    ``amounts`` int64[n+1], ``eligible`` bool[n+1, n], ``split``/``odd`` int64[n+1, n+1],
    ``win`` int64[n+1, n].
    """
    n = S[N]
    if S[STREET] == 5:
        total = S[DEAD]
        w = 0
        for s in range(n):
            total += S[COMM + s]
            if S[STAT + s] != OUT:
                w = s
        payout[w] += total
        return 0
    n_pots = table_pots(S, amounts, eligible, payout)
    if S[GAME] == HILO_GAME:
        return settle_hilo(n, st, payout, amounts[:n_pots], eligible[:n_pots], order)
    unknown = 0
    for p in range(n_pots):
        ne, hidden = _contenders(eligible, p, st, n)
        a = amounts[p]
        if hidden and ne > 1:
            unknown += 1
            a = 0
        # award reads split/odd of pot p only at k = the number of tied winners <= ne;
        # k = 1 needs no division (the common case: one winner)
        split[p, 1] = a
        odd[p, 1] = 0
        for k in range(2, ne + 1):
            q = a // k
            split[p, k] = q
            odd[p, k] = a - q * k
    award(st[:n], np.int64(1), amounts[:n_pots], eligible[:n_pots], order, split, odd, win,
          payout)
    return unknown


#: A hi/lo seat's showdown value is ``high * HILO_SPAN + low`` (low 0..56, 0: none).
HILO_SPAN = 64


@inline
def omaha_value(S, hbuf, bbuf, sbuf, tables, otables):
    """One seat's Omaha showdown value from its cards in ``hbuf`` (uint8[1, h]) and the board
    in ``bbuf`` (uint8[1, 5]): the high strength, and in a hi/lo game ``high * HILO_SPAN +
    low`` (the eight-or-better low, 0 for none), which :func:`settle` takes apart.
    ``otables``: the Omaha tables then the low tables (``pair_index, triple_index, rank5,
    low_bit, low_of_mask``); ``sbuf`` int32[1] is scratch."""
    omaha_batch_serial(hbuf, bbuf, sbuf, tables, (otables[0], otables[1], otables[2]))
    v = np.int64(sbuf[0])
    if S[GAME] == HILO_GAME:
        omaha_low_batch_serial(hbuf, bbuf, sbuf, (otables[3], otables[4]))
        v = v * HILO_SPAN + sbuf[0]
    return v


@serial
def settle_hilo(n, st, payout, amounts, eligible, order):
    """:func:`settle`'s showdown in a hi/lo game: ``st`` holds :func:`omaha_value` values
    (-1: not known); every pot is split high/low on its own by the one pot rule
    (:func:`simulate._kernels.award.award_hilo` on a row of the highs, then the lows). A pot whose
    winner hangs on hidden cards pays nothing; returns how many.

    A kernel of its own, not inlined into :func:`settle`: the play loop, which settles every
    game, then compiles no hi/lo code of its own (a first Hold'em ``play`` compiled about
    7 s sooner on the 2-core VM), and this compiles once, beside it; it allocates its
    scratch anyway, so the call costs a hi/lo hand nothing measurable."""
    n_pots = amounts.shape[0]
    row = np.zeros(2 * n, np.int64)
    for s in range(n):
        if st[s] >= 0:
            row[s] = st[s] // HILO_SPAN
            row[n + s] = st[s] % HILO_SPAN
    a = amounts.copy()
    unknown = 0
    for p in range(n_pots):
        ne, hidden = _contenders(eligible, p, st, n)
        if hidden and ne > 1:
            unknown += 1
            a[p] = 0
    split, odd = split_tables_hilo(a, eligible)
    award_hilo(row, np.int64(1), a, eligible, order, split, odd,
               np.zeros((2 * n_pots, n), np.int64), payout)
    return unknown
