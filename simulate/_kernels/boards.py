"""Dealing: the seeded deck of a hand (:func:`deal_deck`, :func:`seeded_deck`: the
project's one deal, :func:`simulate._kernels.rng.deal`) and the board turned from it
(:func:`deal_board_from_deck`, a burn before each street).
"""

from __future__ import annotations

import numpy as np

from evaluator._jit import inline, serial
from simulate._kernels.rng import deal, stream_state
from simulate._kernels.state import (
    DPOS,
    NBOARD,
    STREET,
)


@inline
def deal_board_from_deck(S, board, deck):
    """Burn one card and turn the street's board cards from the deck."""
    k = 3 if S[STREET] == 1 else 1
    p = S[DPOS] + 1  # the burn
    for j in range(k):
        board[S[NBOARD] + j] = deck[p + j]
    S[NBOARD] += k
    S[DPOS] = p + k


@inline
def deal_deck(state, n_cards, deck, mul, thr):
    """Fill ``deck`` (uint8[52]) with the game's deck and deal its top ``n_cards`` uniformly
    (the project's one deal, :func:`simulate._kernels.rng.deal`) from the random stream at
    ``state`` (uint64); ``mul``, ``thr``: :func:`simulate._kernels.rng.deal_setup` of
    ``(m, n_cards)`` for a deck of ``m`` cards, the ``m`` highest ids (52: 0..51; short deck,
    36: 16..51, the six up), which come first in ``deck`` (the rest after them, never
    dealt). ``mul[0]`` is ``m``. Returns the stream state after the deal (policies draw from
    it)."""
    low = 52 - np.int64(mul[0])
    for c in range(52):
        deck[c] = c + low if c + low < 52 else c + low - 52
    return deal(state, deck, 0, n_cards, mul, thr)


@serial
def seeded_deck(seed, index, n_cards, deck, mul, thr):
    """:func:`deal_deck` from the stream of hand ``index`` under ``seed``."""
    return deal_deck(stream_state(seed, index), n_cards, deck, mul, thr)
