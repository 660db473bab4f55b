"""The compiled play loop of :func:`simulate.engine.play`: many hands, one kernel.

Hand ``i`` of a run is dealt from its own random stream ``stream_state(seed, i)``
(:mod:`simulate._kernels.rng`) by the real procedure (:func:`engine.deal_deck`), with the
button on seat ``(button + i) % n`` and every stack reset; the policies draw from the same
stream after the deal. So a hand does not depend on which block or thread plays it: a seed
gives the same bits on any thread count, and :class:`simulate.engine.Hand` replays any hand.

Work is cut into blocks of hands; each block adds its seats' net chips (int64) and squared
net chips (float64) into its own row of the accumulators, summed in block order by Python.
:func:`play_block` releases the GIL: several threads play blocks by calling it at once
(:func:`simulate.engine.self_play.play`), so no parallel loop is compiled. A ``prange``
loop over the blocks compiled as a kernel of its own cost every first run of more than one
thread (and ``pokerjit warmup``) a second optimisation of the whole inlined hand loop,
about 11 s for Hold'em and 15 s for Omaha on a 2-core machine, for no speed: the blocks
are milliseconds of work each, so a call per block costs nothing measurable.
"""

from __future__ import annotations

import numpy as np
from numba.core import cgutils
from numba.extending import intrinsic

from evaluator._jit import inline, serial
from simulate._kernels import engine as E
from simulate._kernels.policies import (
    CHART_POLICY,
    CUSTOM_POLICY,
    decide,
    decide_simple,
    discard_slot,
)
from simulate._kernels.rng import deal_setup, next_u64, stream_state


@intrinsic
def _borrowed(typingctx, arr):
    """A view of the array ``arr`` that holds no reference (its meminfo is null), so the
    reference counting Numba does on every array bound inside the inlined hand loop becomes
    a null check instead of an atomic add (that counting was about a third of a heads-up
    hand's time). Only for arrays whose owner stays alive while the view is used: the loop
    in :func:`play_block` borrows its scratch and its arguments for one hand at a time."""

    def codegen(context, builder, sig, args):
        view = context.make_array(sig.return_type)(context, builder, args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return arr(arr), codegen


@inline
def play_one(S0, state, b, cp, S, hole, board, deck, mul, thr, lg, st, pay, amounts, elig,
             order, split, odd, win, obuf, charts, cat_start, card_key, card_mask, row_offsets,
             rank_table, flush_table, otables, ptab, custom):
    """Play one hand (see the module docstring) in the scratch arrays; ``pay`` gets each
    seat's net chips. ``S0``: the rules header with the starting stacks in its stack
    section; ``state``: the hand's random stream (``stream_state(seed, index)``); ``b``:
    its button; ``cp`` int64[2, n]: each seat's policy code and parameter; ``otables``: the
    Omaha tables, or None in a Hold'em-like run (then the Omaha evaluator is not compiled
    in: a faster loop); ``obuf``: ``(hbuf, bbuf, sbuf)``, the Omaha evaluator's scratch;
    ``ptab``: the Pineapple policy tables (every seat discards by
    :func:`simulate._kernels.policies.discard_slot`), None in other games. The evaluator's
    tables come one by one: a tuple bound per hand costs a reference-count call per member
    at each end, even of unreferenced views (so no tuple is used on the common paths);
    Numba inlines functions of at most 30 arguments. Returns the number of actions taken."""
    n = S0[E.N]
    for j in range(E.HEADER):  # the rules (no slices: a view costs reference-count calls);
        S[j] = S0[j]  # start() sets every per-seat field of seats < n
    for s in range(n):
        S[E.STACK + s] = S0[E.STACK + s]
    S[E.BUTTON] = b
    state = E.deal_deck(state, n * S[E.NHOLE] + 8, deck, mul, thr)
    E.start_inline(S, hole, board, deck)
    # Hold'em without discards: the strengths can be read before the betting. A run-time
    # test on the rules header (one loop for every game), or known at compile time where
    # ``otables``/``ptab`` are None (that code is then not compiled in)
    early = (otables is None or S[E.GAME] == 0) and (ptab is None or S[E.DISCAT] == 0)
    if early:  # the showdown strengths now: their table reads overlap the betting
        E.dealt_strengths(S, hole, deck, card_key, card_mask, row_offsets, rank_table,
                          flush_table, st)
    acts = 0
    retry = False
    while S[E.ACTOR] >= 0:
        s = S[E.ACTOR]
        if S[E.DISCING] != 0:  # Pineapple (ptab is None in other games: no discard code)
            if ptab is None:
                break
            tables = (card_key, card_mask, row_offsets, rank_table, flush_table)
            E.discard(S, discard_slot(S, s, hole, board, ptab, tables), hole, board, deck)
            acts += 1
            continue
        code = cp[0, s]
        kind = E.CHECK_CALL  # call, and the retry after an illegal choice: no legal options
        amount = 0
        if code != 0 and not retry:
            E.legal(S, lg)
            if code == CUSTOM_POLICY:
                state, v = next_u64(state)
                if custom is not None:
                    kind, amount = custom(s, S, hole, board, lg, v)
            elif code < CHART_POLICY:
                kind, amount, state = decide_simple(code, S, lg, state)
            else:
                tables = (card_key, card_mask, row_offsets, rank_table, flush_table)
                kind, amount, state = decide(code, cp[1, s], S, s, hole, board, lg, state,
                                             charts, cat_start, tables)
        # the one call site of the inlined act (each copy costs compile time)
        if E.act_inline(S, kind, amount, board, deck) != 0:
            retry = True  # a policy's illegal choice (S unchanged): the seat checks or calls
            continue
        retry = False
        acts += 1
    o = b
    for s in range(n):
        pay[s] = 0
        o += 1  # order[s] = (b + 1 + s) % n, without a division
        if o == n:
            o = 0
        order[s] = o
    if S[E.STREET] == 4:
        if early:
            for s in range(n):
                if S[E.STAT + s] == E.OUT:
                    st[s] = 0
        elif otables is None or S[E.GAME] == 0:  # Hold'em-like: Hold'em's evaluator
            E.holdem_strengths(S, hole, board, card_key, card_mask, row_offsets, rank_table,
                               flush_table, st)
        else:
            hbuf, bbuf, sbuf = obuf
            tables = (card_key, card_mask, row_offsets, rank_table, flush_table)
            E.strengths(S, hole, board, tables, otables, st, hbuf, bbuf, sbuf)
    E.settle(S, st, pay, amounts, elig, order, split, odd, win)
    for s in range(n):
        pay[s] -= S[E.COMM + s] + S[E.ANTEP + s]
    return acts


@serial(nogil=True)
def play_block(S0, stacks, first, count, seed, button, codes, params, charts, cat_start,
               tables, otables, custom, ptab, net, sq):
    """Hands ``first .. first+count-1``; adds each seat's net chips to ``net`` (int64[n]) and
    their squares to ``sq`` (float64[n])."""
    n = stacks.shape[0]
    S = np.empty(S0.shape[0], np.int64)
    hole = np.full((E.MAXS, E.MAXH), E.UNKNOWN, np.uint8)
    board = np.full(5, E.UNKNOWN, np.uint8)
    deck = np.empty(52, np.uint8)
    k = n * S0[E.NHOLE] + 8
    mul = np.empty((k + 4) // 5 * 5, np.uint64)
    thr = np.empty((k + 4) // 5 * 5, np.uint64)
    deal_setup(52 - S0[E.DECKLOW], k, mul, thr)  # the game's deck: 52, or short deck's 36
    lg = np.empty(E.LEGAL_SIZE, np.int64)
    st = np.zeros(n, np.int64)
    pay = np.zeros(n, np.int64)
    amounts = np.zeros(n + 1, np.int64)
    elig = np.zeros((n + 1, n), np.bool_)
    order = np.zeros(n, np.int64)
    split = np.zeros((n + 1, n + 1), np.int64)
    odd = np.zeros((n + 1, n + 1), np.int64)
    win = np.zeros((n + 1, n), np.int64)
    hbuf = np.zeros((1, S0[E.NHOLE]), np.uint8)
    bbuf = np.zeros((1, 5), np.uint8)
    sbuf = np.zeros(1, np.int32)
    obuf = (hbuf, bbuf, sbuf)
    bnet = np.zeros(n, np.int64)  # the block's sums, added to net/sq at the end
    bsq = np.zeros(n, np.float64)
    t0, t1, t2, t3, t4 = tables
    S0b = S0.copy()  # the rules and the starting stacks
    for s in range(n):
        S0b[E.STACK + s] = stacks[s]
    cp = np.empty((2, n), np.int64)
    for s in range(n):
        cp[0, s] = codes[s]
        cp[1, s] = params[s]
    b = (button + first) % n
    B = _borrowed  # each hand sees unreferenced views (see _borrowed); the owners live here
    for i in range(first, first + count):
        play_one(B(S0b), stream_state(seed, i), b, B(cp), B(S), B(hole), B(board), B(deck),
                 B(mul), B(thr), B(lg), B(st), B(pay), B(amounts), B(elig), B(order), B(split),
                 B(odd), B(win), obuf, B(charts), B(cat_start), B(t0), B(t1), B(t2), B(t3),
                 B(t4), otables, ptab, custom)
        b += 1  # the button moves one seat a hand
        if b == n:
            b = 0
        for s in range(n):
            x = pay[s]
            bnet[s] += x
            bsq[s] += np.float64(x) * np.float64(x)
    for s in range(n):  # once per block: rows of other threads' blocks may share a cache line
        net[s] += bnet[s]
        sq[s] += bsq[s]
