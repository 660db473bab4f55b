"""Replay a hand history's actions through the engine's rules in one compiled call.

:func:`replay_actions` loops over a hand's actions, already turned into integer arrays by
:mod:`simulate.phh.replay`, and applies each with the engine's own kernels
(:func:`simulate._kernels.engine.act` and :func:`~simulate._kernels.engine.deal_board`):
no rule is written here. It is a fast path only: it takes the ordinary case (every card
known or, for hole cards, ``??``; every action legal; shown hands equal to the dealt
ones) and stops at the first action it does not take, returning that action's index.
The caller then replays the whole hand action by action through
:class:`simulate.engine.Hand`, which builds the one-line message (or repairs the
history), so results and errors are those of the per-action path by construction.

One row per action in ``rows`` (``int64[m, 10]``): the action code (below), the seat
(the actor or the seat dealt to, -1 for the board), the ``cbr`` total in the hand's
integer units (else 0), the number of cards, then six card slots
(:data:`~simulate._kernels.engine.UNKNOWN` for ``??`` and for unused slots). Codes:
"""

from __future__ import annotations

import numpy as np

from evaluator._jit import serial
from simulate._kernels import engine as K

FOLD = 0  # pN f
CHECK_CALL = 1  # pN cc
RAISE = 2  # pN cbr X
DEAL_HOLE = 3  # d dh pN CARDS
DEAL_BOARD = 4  # d db CARDS
SHOW = 5  # pN sm CARDS (every card known)
SHOW_NOTHING = 6  # pN sm ???? (nothing learned; the seat must hold cards)
SKIP = 7  # pN sm (a muck: the replay settles it, the engine never sees it)
OTHER = 8  # anything else (pb, sd, ...): never taken here

#: :func:`replay_actions` result when every action was applied and the hand is over.
DONE = -1


@serial
def replay_actions(S, hole, board, deck, rows):
    """Apply the actions to a started manual-deal hand (``S``, ``hole``, ``board``,
    ``deck`` as :mod:`simulate._kernels.engine` keeps them). Returns :data:`DONE`, or the
    0-based index of the first action not taken (``m`` when every action was taken but
    the hand is not over); the state is then partly advanced and must be thrown away."""
    m = rows.shape[0]
    n = S[K.N]
    h = S[K.NHOLE]
    used = np.zeros(52, np.bool_)
    cards = np.empty((m, 6), np.uint8)
    for i in range(m):
        for r in range(6):
            cards[i, r] = rows[i, 4 + r]
    dealt = 0  # seats whose hole cards are dealt
    for i in range(m):
        kind = rows[i, 0]
        s = rows[i, 1]
        k = rows[i, 3]
        if kind == SKIP:
            continue
        if kind == DEAL_HOLE:
            if S[K.STREET] != 0 or S[K.NACTIONS] > 0 or S[K.HOLEN + s] != 0 or k != h:
                return i
            for r in range(k):
                c = cards[i, r]
                if c != K.UNKNOWN:
                    if used[c]:
                        return i
                    used[c] = True
                hole[s, r] = c
            S[K.HOLEN + s] = h
            dealt += 1
            continue
        if kind == DEAL_BOARD:
            if S[K.NEED] == 0 or k != S[K.NEED]:
                return i
            for r in range(k):
                c = cards[i, r]
                if c == K.UNKNOWN or used[c]:
                    return i
                used[c] = True
            if K.deal_board(S, board, cards[i, :k]) != 0:
                return i
            continue
        if kind == SHOW or kind == SHOW_NOTHING:
            if s < 0 or s >= n or S[K.STAT + s] == K.OUT:
                return i
            if kind == SHOW_NOTHING:
                continue
            if k != h or S[K.HOLEN + s] != h:
                return i
            # the shown cards must be the dealt ones (every one known), in any order
            for r in range(h):
                c = hole[s, r]
                if c == K.UNKNOWN:
                    return i
                found = 0
                for q in range(h):
                    if cards[i, q] == c:
                        found += 1
                if found != 1:
                    return i
            continue
        if kind == FOLD or kind == CHECK_CALL or kind == RAISE:
            if S[K.STREET] == 0 and dealt < n:
                return i  # hole cards still due
            if S[K.ACTOR] < 0 or S[K.NEED] != 0 or S[K.ACTOR] != s:
                return i
            if kind == FOLD:
                code = K.act(S, K.FOLD, 0, board, deck)
            elif kind == CHECK_CALL:
                code = K.act(S, K.CHECK_CALL, 0, board, deck)
            else:
                code = K.act(S, K.RAISE, rows[i, 2], board, deck)
            if code != K.OK:
                return i
            continue
        return i
    if S[K.STREET] < 4:
        return m
    return DONE
