"""Showdown strengths of the hand engine's seats: Hold'em's (also read from the deck right
after the deal, by the play loop) and every game's through :func:`strengths`, over the
state ``S`` of :mod:`simulate._kernels.engine` (re-exported there)."""

from __future__ import annotations

import numpy as np

from evaluator._jit import inline, serial
from evaluator._kernels.holdem import KEY_INIT_I64, lookup
from simulate._kernels.pots import omaha_value
from simulate._kernels.state import DPOS, GAME, NBOARD, NHOLE, OUT, STAT, UNKNOWN, N


@inline
def dealt_strengths(S, hole, deck, card_key, card_mask, row_offsets, rank_table, flush_table,
                    out):
    """Hold'em: every seat's strength (into ``out``) with the board a seeded deal will turn,
    read from ``deck`` right after :func:`start` (each street burns one card, as
    :func:`_deal_board_from_deck` deals them: board card ``j`` lies ``1 + j + (j >= 3) +
    (j >= 4)`` past ``DPOS``). The play loop evaluates before the betting so that the
    evaluator's table reads (cache misses, mostly) overlap the betting; at a showdown these
    are :func:`holdem_strengths` (folded seats aside, which it sets to 0)."""
    n = S[N]
    h = S[NHOLE]
    p = S[DPOS] + 1
    bkey = KEY_INIT_I64
    bmask = np.int64(0)
    for j in range(5):
        c = deck[p + j + (j >= 3) + (j >= 4)]
        bkey += card_key[c]
        bmask |= card_mask[c]
    for s in range(n):
        key = bkey
        mask = bmask
        for r in range(h):
            c = hole[s, r]
            key += card_key[c]
            mask |= card_mask[c]
        out[s] = lookup(key, mask, row_offsets, rank_table, flush_table)


@inline
def holdem_strengths(S, hole, board, card_key, card_mask, row_offsets, rank_table, flush_table,
                     out):
    """Hold'em showdown strengths into ``out`` (see :func:`strengths`)."""
    n = S[N]
    h = S[NHOLE]
    nb = S[NBOARD]
    bkey = KEY_INIT_I64
    bmask = np.int64(0)
    board_known = True
    for j in range(nb):
        c = board[j]
        if c == UNKNOWN:
            board_known = False
        else:
            bkey += card_key[c]
            bmask |= card_mask[c]
    for s in range(n):
        if S[STAT + s] == OUT:
            out[s] = 0
            continue
        key = bkey
        mask = bmask
        known = board_known
        for r in range(h):
            c = hole[s, r]
            if c == UNKNOWN:
                known = False
            else:
                key += card_key[c]
                mask |= card_mask[c]
        out[s] = lookup(key, mask, row_offsets, rank_table, flush_table) if known else -1


@serial
def strengths(S, hole, board, tables, otables, out, hbuf, bbuf, sbuf):
    """Showdown strength of each live seat into ``out`` (int64[n]; hi/lo: the packed high and
    low of :func:`simulate._kernels.pots.omaha_value`); -1 for a seat whose cards are not
    all known, 0 for a folded seat. ``hbuf`` uint8[1, NHOLE], ``bbuf`` uint8[1, 5] and
    ``sbuf`` int32[1] are scratch for the Omaha evaluator."""
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    if S[GAME] == 0:
        holdem_strengths(S, hole, board, card_key, card_mask, row_offsets, rank_table,
                         flush_table, out)
        return
    n = S[N]
    h = S[NHOLE]
    nb = S[NBOARD]
    for s in range(n):
        if S[STAT + s] == OUT:
            out[s] = 0
            continue
        known = True
        for r in range(h):
            hbuf[0, r] = hole[s, r]
            if hole[s, r] == UNKNOWN:
                known = False
        for j in range(nb):
            bbuf[0, j] = board[j]
            if board[j] == UNKNOWN:
                known = False
        out[s] = omaha_value(S, hbuf, bbuf, sbuf, tables, otables) if known else -1
