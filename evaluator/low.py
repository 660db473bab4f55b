"""The eight-or-better low, for Omaha hi/lo: five different ranks of eight or lower.

The ace plays low; straights and flushes do not count against a low. Lows compare from the
highest card down (8-5-4-3-2 beats 8-6-3-2-A), so the 56 possible lows (five of the eight
ranks A..8) are numbered ``1..56``, higher is better: ``56`` is 5-4-3-2-A (the wheel), ``1``
is 8-7-6-5-4. A low is named by its rank set, a mask of eight bits (bit 0 the ace, bit
``k`` the rank ``k + 1``), and :data:`LOW_OF_MASK` gives the value of each mask (0 when the
mask does not hold exactly five ranks).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from .cards import CardError

__all__ = ["LOW_OF_MASK", "N_LOWS", "best_low", "describe_low", "evaluate_low",
           "evaluate_low_batch", "low_of_five", "low_of_fives", "low_rank_bits", "low_tables"]

N_LOWS = 56
_NAMES = "A2345678"


def _low_table() -> np.ndarray:
    sets = list(itertools.combinations(range(8), 5))
    # best first: the smallest highest card, then the next, ...
    sets.sort(key=lambda s: tuple(sorted(s, reverse=True)))
    table = np.zeros(256, np.int8)
    for i, s in enumerate(sets):
        table[sum(1 << r for r in s)] = N_LOWS - i
    return table


#: ``int8[256]``: the low value of each 8-bit rank mask (0: not exactly five ranks).
LOW_OF_MASK = _low_table()
_MASK_OF_LOW = {int(v): m for m, v in enumerate(LOW_OF_MASK.tolist()) if v}

#: ``uint8[52]``: each card's low bit (ace bit 0, deuce bit 1 .. eight bit 7; 0 for 9..K).
_CARD_LOW_BIT = np.array([(1 << 0) if c >> 2 == 12 else (1 << ((c >> 2) + 1))
                          if c >> 2 <= 6 else 0 for c in range(52)], np.uint8)


def low_rank_bits(ids: Sequence[int]) -> int:
    """The OR of the cards' low bits (0 for a card above eight)."""
    m = 0
    for c in ids:
        m |= int(_CARD_LOW_BIT[c])
    return m


def low_of_five(ids: Sequence[int]) -> int:
    """The low value ``1..56`` of exactly five cards, 0 when they make no low (a rank
    above eight, or a paired rank)."""
    if any(_CARD_LOW_BIT[c] == 0 for c in ids):
        return 0
    return int(LOW_OF_MASK[low_rank_bits(ids)]) if len({c >> 2 for c in ids}) == 5 else 0


def best_low(ids: Sequence[int]) -> int:
    """The eight-or-better low of the best five of ``ids`` (any five of five to seven
    cards: stud's rule), ``1..56`` (higher is better), 0 when fewer than five different
    ranks of eight or lower: the best low is the five lowest such ranks."""
    m = low_rank_bits(ids)
    if m.bit_count() < 5:
        return 0
    while m.bit_count() > 5:
        m &= ~(1 << (m.bit_length() - 1))  # drop the highest rank
    return int(LOW_OF_MASK[m])


def low_of_fives(cards: np.ndarray) -> np.ndarray:
    """``int8[N]``: the low value of each row of ``cards`` (``uint8[N, 5]`` card ids), 0
    when a row makes no low."""
    bits = _CARD_LOW_BIT[np.asarray(cards, np.uint8)]
    mask = np.bitwise_or.reduce(bits, axis=1)
    ok = (bits != 0).all(axis=1)
    return np.where(ok, LOW_OF_MASK[mask], 0).astype(np.int8)


def evaluate_low(hole: str | Sequence[int], board: str | Sequence[int]) -> int | None:
    """The eight-or-better low of an Omaha hand: exactly two of ``hole`` (4, 5 or 6 cards)
    and exactly three of ``board`` (3, 4 or 5 cards), five different ranks of eight or
    lower. ``1..56``, higher is better (56: 5-4-3-2-A); None when no low qualifies."""
    from .omaha import parse_omaha

    h, b = parse_omaha(hole, board)
    best = 0
    pairs = {low_rank_bits(p) for p in itertools.combinations(h, 2)
             if _CARD_LOW_BIT[p[0]] and _CARD_LOW_BIT[p[1]] and p[0] >> 2 != p[1] >> 2}
    triples = {low_rank_bits(t) for t in itertools.combinations(b, 3)
               if all(_CARD_LOW_BIT[c] for c in t) and len({c >> 2 for c in t}) == 3}
    for p in pairs:
        for t in triples:
            if not p & t:
                best = max(best, int(LOW_OF_MASK[p | t]))
    return best or None


def describe_low(value: int) -> str:
    """The low's ranks from the highest down, e.g. ``8-6-4-2-A`` (value ``1..56``)."""
    if value not in _MASK_OF_LOW:
        raise CardError(f"a low is 1..{N_LOWS}, got {value!r}")
    m = _MASK_OF_LOW[value]
    return "-".join(_NAMES[r] for r in range(7, -1, -1) if m >> r & 1)


def low_tables() -> tuple[np.ndarray, np.ndarray]:
    """``(low_bit uint8[52], low_of_mask int8[256])``: the tables the compiled low kernels
    take (:mod:`evaluator._kernels.omaha`): each card's low bit and :data:`LOW_OF_MASK`."""
    return _CARD_LOW_BIT, LOW_OF_MASK


def evaluate_low_batch(holes: np.ndarray, boards: np.ndarray, *,
                       check: bool = True) -> np.ndarray:
    """The eight-or-better lows of many Omaha hands, compiled: ``holes`` ``ndarray[N, h]``
    (h 4..6), ``boards`` ``ndarray[N, b]`` (b 3..5), row ``i`` of both one hand. Returns
    ``ndarray[N] int32``: 1..56, 0 where no low qualifies (the scalar
    :func:`evaluate_low` says None). ``check=False`` skips the card check."""
    from ._kernels import omaha as K
    from .omaha import omaha_rows

    hs, bs = omaha_rows(holes, boards, check)
    out = np.zeros(hs.shape[0], np.int32)
    if hs.shape[0]:
        K.omaha_low_batch_serial(hs, bs, out, low_tables())
    return out
