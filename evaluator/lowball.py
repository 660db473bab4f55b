"""Lowball hand values for the games pokerjit keeps as chip accounting (razz, deuce-to-seven
draw, badugi): a showdown of a hand history is settled with them. Plain Python over card
ids (``rank * 4 + suit``, rank 0 the deuce .. 12 the ace): a showdown evaluates a few
hands, not millions.

Every value is a positive int, larger is better, equal values tie (split the pot):

- :func:`ace_to_five_value`: razz's low, the best five of five to seven cards; the ace is
  low, straights and flushes do not count, a pair is worse than any five different ranks
  (5-4-3-2-A is the best hand).
- :func:`deuce_to_seven_value`: the worst poker hand of five cards (of more: the best five
  for this rule); the ace is high only, so A-2-3-4-5 is no straight; straights and flushes
  count against the hand (7-5-4-3-2 of two suits or more is the best hand).
- :func:`badugi_value`: of four cards, the most cards of different suits and different
  ranks, then the lowest (the ace low): A-2-3-4 of four suits is the best hand.

``tests/test_lowball.py`` checks each against pokerkit's hand classes on random hands.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence

__all__ = ["ace_to_five_value", "badugi_value", "deuce_to_seven_value"]

_BASE = 16  # one digit per rank in a key (ranks are 1..14)
_TOP = _BASE ** 6  # above every key: a value is _TOP - key, positive (pots take no sign)


def _digits(ranks: Sequence[int]) -> int:
    """The ranks as one number, the first the most significant (five digits)."""
    v = 0
    for r in list(ranks) + [0] * (5 - len(ranks)):
        v = v * _BASE + r
    return v


def _grouped(ranks: Sequence[int]) -> tuple[int, list[int]]:
    """``(shape, ranks)``: the pairing shape (0 no pair, 1 a pair, 2 two pairs, 3 three of
    a kind, 4 a full house, 5 four of a kind) and the ranks ordered by how many of each,
    then from the highest."""
    count = Counter(ranks)
    order = sorted(count, key=lambda r: (-count[r], -r))
    shape = {(1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 4,
             (4, 1): 5}[tuple(sorted(count.values(), reverse=True))]
    return shape, [r for r in order for _ in range(count[r])]


def _best_five(ids: Sequence[int], key: Callable[[tuple[int, ...]], int], what: str) -> int:
    """``_TOP`` less the smallest ``key`` (the better low) of any five of ``ids``."""
    keys = [key(five) for five in itertools.combinations(ids, 5)]
    if not keys:
        raise ValueError(f"a {what} hand needs five cards or more, got {len(ids)}")
    return _TOP - min(keys)


def _ace_to_five_key(five: tuple[int, ...]) -> int:
    shape, ordered = _grouped([1 if c >> 2 == 12 else (c >> 2) + 2 for c in five])  # ace 1
    return shape * _BASE ** 5 + _digits(ordered)


def _deuce_to_seven_key(five: tuple[int, ...]) -> int:
    ranks = [(c >> 2) + 2 for c in five]  # the ace is 14 only
    shape, ordered = _grouped(ranks)
    flush = len({c & 3 for c in five}) == 1
    straight = shape == 0 and max(ranks) - min(ranks) == 4
    # a poker hand's category, highest the strongest (the worse low)
    category = {0: 0, 1: 1, 2: 2, 3: 3, 4: 6, 5: 7}[shape]
    if straight and flush:
        category = 8
    elif flush:
        category = 5
    elif straight:
        category = 4
    return category * _BASE ** 5 + _digits(ordered)


def ace_to_five_value(ids: Sequence[int]) -> int:
    """Razz's (ace-to-five) low of the best five of ``ids`` (five to seven card ids)."""
    return _best_five(ids, _ace_to_five_key, "razz")


def deuce_to_seven_value(ids: Sequence[int]) -> int:
    """The deuce-to-seven low of ``ids`` (five card ids; of more, the best five)."""
    return _best_five(ids, _deuce_to_seven_key, "deuce-to-seven")


def badugi_value(ids: Sequence[int]) -> int:
    """The badugi value of ``ids`` (four card ids): the most cards of different suits and
    ranks, then the lowest of them, compared from the highest card down (the ace low)."""
    if len(ids) != 4:
        raise ValueError(f"a badugi hand is four cards, got {len(ids)}")
    best = 0
    for size in (4, 3, 2, 1):
        for part in itertools.combinations(ids, size):
            if len({c & 3 for c in part}) < size or len({c >> 2 for c in part}) < size:
                continue
            ranks = sorted((1 if c >> 2 == 12 else (c >> 2) + 2 for c in part), reverse=True)
            best = max(best, size * _BASE ** 5 + _digits([15 - r for r in ranks]))
        if best:
            return best
    return best
