"""treys (pure Python Cactus-Kev): ranks 1..7462, lower is better (ours = 7463 - rank)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._common import (
    CARD_NAMES,
    PeerEvaluator,
    import_peer,
    per_hand_evaluator,
)

_TREYS_EVAL: Any = None


def make_evaluator() -> PeerEvaluator:
    global _TREYS_EVAL
    treys = import_peer("treys")
    if _TREYS_EVAL is None:
        _TREYS_EVAL = treys.Evaluator()
    ev = _TREYS_EVAL
    table = [treys.Card.new(n) for n in CARD_NAMES]
    return per_hand_evaluator(
        "treys", lambda row: ([table[c] for c in row[:2]], [table[c] for c in row[2:]]),
        ev.evaluate, spread=True, higher_is_better=False, path="pure Python",
        note="treys.Evaluator().evaluate(hand, board) per hand (21 five-card lookups for 7 "
             "cards); rank 1..7462, lower is better (ours = 7463 - rank)",
        contract=lambda s: 7463 - np.asarray(s, dtype=np.int64))
