"""Slow, obvious reference evaluator, written independently of the lookup tables.

A five-card hand is scored as a tuple ``(category, tiebreak ranks...)`` straight
from the rules; 6 and 7 cards take the max over every five-card subset.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

import numpy as np


def five_card_tuple(cards: Sequence[int]) -> tuple[int, ...]:
    ranks = sorted((c // 4 for c in cards), reverse=True)
    suits = {c % 4 for c in cards}
    counts = Counter(ranks)
    # groups ordered by (count, rank), both descending
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    flush = len(suits) == 1
    distinct = sorted(counts, reverse=True)
    straight_high = None
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_high = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:  # A-2-3-4-5 plays five high
            straight_high = 3
    if straight_high is not None and flush:
        return (8, straight_high)
    if groups[0][1] == 4:
        return (7, groups[0][0], groups[1][0])
    if groups[0][1] == 3 and groups[1][1] == 2:
        return (6, groups[0][0], groups[1][0])
    if flush:
        return (5, *ranks)
    if straight_high is not None:
        return (4, straight_high)
    if groups[0][1] == 3:
        return (3, groups[0][0], groups[1][0], groups[2][0])
    if groups[0][1] == 2 and groups[1][1] == 2:
        return (2, groups[0][0], groups[1][0], groups[2][0])
    if groups[0][1] == 2:
        return (1, groups[0][0], *[g[0] for g in groups[1:]])
    return (0, *ranks)


def best_tuple(cards: Sequence[int]) -> tuple[int, ...]:
    """Best five-card tuple among ``cards`` (5..7 card ids)."""
    return max(five_card_tuple(f) for f in itertools.combinations(cards, 5))


def random_hands(n: int, k: int, seed: int) -> np.ndarray:
    """``ndarray[n, k] uint8`` of random distinct cards per row."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, k), dtype=np.uint8)
    step = 200_000
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        out[lo:hi] = rng.random((hi - lo, 52)).argpartition(k, axis=1)[:, :k]
    return out
