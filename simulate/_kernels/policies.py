"""Built-in playing policies for :func:`simulate.engine.play`, as one Numba kernel.

:func:`decide` is called by the compiled play loop and by the Python loop alike, so a
seed gives the same hands on either path. A policy sees the hand's state ``S`` (see
:mod:`simulate._kernels.engine`), the cards, the actor's legal options ``lg``
(``int64[LEGAL_SIZE]`` from :func:`simulate._kernels.engine.legal`) and the hand's random
stream ``state`` (uint64), and returns ``(kind, amount, state)``.

Codes (``POLICY_CODES``):

- ``call``: check or call, always.
- ``random``: facing a bet or not, 15 % fold (a check when there is nothing to call), 65 %
  check or call, 20 % raise, half of those to the minimum and half all in (the maximum
  raise), a call when raising is not allowed. One 64-bit draw per decision.
- ``allin``: before the flop, raise to the maximum (all in, in no-limit) whenever a raise
  is allowed, else check or call; after the flop check or call.
- ``top N%``: before the flop a hand in the chart (``charts[param]``, one flag per combo
  index) raises to three times the current bet (clamped to the legal sizes) while fewer
  than three bets and raises are in, else calls; any other hand checks or folds. After the
  flop two pair or better bets or raises (to the current bet plus the pot after calling,
  clamped) while fewer than two bets and raises are in this street, else calls; one pair
  checks or calls; less checks or folds.
- ``custom``: a user's compiled function (see :func:`simulate.engine.self_play.compiled_policy`).

Pineapple discards (:func:`discard_slot`) are the same for every built-in: the cheap
``made`` rule of :mod:`simulate.pineapple` (keep the pair making the best hand with the
board so far; no board: the best pair by the preflop 169 order; ties by that order). It is
deterministic (no random draw) and sees only the seat's three cards and the board.
"""

from __future__ import annotations

import numpy as np

from evaluator._jit import inline, serial
from evaluator._kernels.holdem import KEY_INIT_I64, lookup
from simulate._kernels.engine import (
    BETLEVEL,
    CHECK,
    CHECK_CALL,
    COMM,
    DEAD,
    FOLD,
    L_CALL,
    L_FOLD,
    L_MAX,
    L_MIN,
    NBOARD,
    NRAISES,
    RAISE,
    STREET,
    N,
)
from simulate._kernels.pineapple import MADE, keep_pair
from simulate._kernels.rng import next_u64

CALL_POLICY = 0
RANDOM_POLICY = 1
ALLIN_POLICY = 2
CHART_POLICY = 3
CUSTOM_POLICY = 9

@serial
def _clamp(x, lg):
    if x < lg[L_MIN]:
        return lg[L_MIN]
    if x > lg[L_MAX]:
        return lg[L_MAX]
    return x


@serial
def _check_or_fold(lg):
    return FOLD if lg[L_FOLD] != 0 else CHECK


@serial
def _hand_strength(S, s, hole, board, card_key, card_mask, row_offsets, rank_table,
                   flush_table):
    key = KEY_INIT_I64 + card_key[hole[s, 0]] + card_key[hole[s, 1]]
    mask = card_mask[hole[s, 0]] | card_mask[hole[s, 1]]
    for j in range(S[NBOARD]):
        key += card_key[board[j]]
        mask |= card_mask[board[j]]
    return lookup(key, mask, row_offsets, rank_table, flush_table)


@serial
def discard_slot(S, s, hole, board, ptab, tables):
    """Pineapple: the slot (0..2) of the hole card seat ``s`` throws away, by the ``made``
    rule (:func:`simulate._kernels.pineapple.keep_pair`), seeing only ``hole[s, :3]`` and the
    board dealt so far. ``ptab``: the pineapple policy tables (only the preflop scores are
    read)."""
    c = np.empty(3, np.int64)
    for i in range(3):
        c[i] = hole[s, i]
    c.sort()
    cards = np.empty(7, np.int64)
    throw = keep_pair(c, board, S[NBOARD], MADE, ptab, tables, cards, np.int64(0), np.int64(0))
    for r in range(3):
        if hole[s, r] == c[throw]:
            return r
    return 0


@inline
def decide_simple(code, S, lg, state):
    """The policies that need no cards (``call``, ``random``, ``allin``): ``(kind, amount,
    state)``; :func:`decide` for every built-in."""
    can_raise = lg[L_MIN] >= 0
    if code == CALL_POLICY:
        return CHECK_CALL, 0, state
    if code == RANDOM_POLICY:
        state, v = next_u64(state)
        u = ((v >> np.uint64(32)) * np.uint64(100)) >> np.uint64(32)  # 0..99
        if u < 15:
            return _check_or_fold(lg), 0, state
        if u < 80 or not can_raise:
            return CHECK_CALL, 0, state
        if v & np.uint64(1):
            return RAISE, lg[L_MAX], state
        return RAISE, lg[L_MIN], state
    if code == ALLIN_POLICY:
        if S[STREET] == 0 and can_raise:
            return RAISE, lg[L_MAX], state
    return CHECK_CALL, 0, state


@serial
def decide(code, param, S, s, hole, board, lg, state, charts, cat_start, tables):
    """The built-in policy ``code`` (with ``param``) for seat ``s``: ``(kind, amount, state)``.

    ``charts``: bool[K, 1326] preflop charts (``top N%``), ``cat_start``: int32[10] first
    strength of each hand category, ``tables``: the evaluator's kernel tables.
    """
    if code != CHART_POLICY:
        return decide_simple(code, S, lg, state)
    can_raise = lg[L_MIN] >= 0
    level = S[BETLEVEL]
    if S[STREET] == 0:
        a = np.int64(hole[s, 0])
        b = np.int64(hole[s, 1])
        lo = min(a, b)
        hi = max(a, b)
        if charts[param, hi * (hi - 1) // 2 + lo]:
            if can_raise and S[NRAISES] < 3:
                return RAISE, _clamp(3 * level, lg), state
            return CHECK_CALL, 0, state
        return _check_or_fold(lg), 0, state
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    st = _hand_strength(S, s, hole, board, card_key, card_mask, row_offsets, rank_table,
                        flush_table)
    if st >= cat_start[2]:
        if can_raise and S[NRAISES] < 2:
            pot = S[DEAD]
            for i in range(S[N]):
                pot += S[COMM + i]
            to_call = lg[L_CALL] if lg[L_CALL] > 0 else 0
            return RAISE, _clamp(level + pot + to_call, lg), state
        return CHECK_CALL, 0, state
    if st >= cat_start[1]:
        return CHECK_CALL, 0, state
    return _check_or_fold(lg), 0, state

