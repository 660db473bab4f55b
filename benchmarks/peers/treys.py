"""treys (pure Python Cactus-Kev): ranks 1..7462, lower is better (ours = 7463 - rank)."""

from __future__ import annotations

from itertools import starmap
from typing import Any

import numpy as np

from ._common import (
    CARD_NAMES,
    PeerEvaluator,
    check_batch,
    import_peer,
)

_TREYS_EVAL: Any = None


def make_evaluator() -> PeerEvaluator:
    global _TREYS_EVAL
    treys = import_peer("treys")
    if _TREYS_EVAL is None:
        _TREYS_EVAL = treys.Evaluator()
    ev = _TREYS_EVAL
    table = [treys.Card.new(n) for n in CARD_NAMES]

    def prepare(cards: np.ndarray) -> list[tuple[list[int], list[int]]]:
        arr = check_batch(cards)
        return [([table[c] for c in row[:2]], [table[c] for c in row[2:]]) for row in arr.tolist()]

    def run(prepared: list[tuple[list[int], list[int]]]) -> np.ndarray:
        return np.fromiter(starmap(ev.evaluate, prepared), dtype=np.int64, count=len(prepared))

    return PeerEvaluator(
        "treys",
        prepare,
        run,
        False,
        "pure Python",
        "treys.Evaluator().evaluate(hand, board) per hand (21 five-card lookups for 7 cards); "
        "rank 1..7462, lower is better (ours = 7463 - rank)",
        contract=lambda s: 7463 - np.asarray(s, dtype=np.int64),
    )
