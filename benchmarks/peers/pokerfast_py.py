"""``pokerfast.eval7``: pokerfast's pure-Python table-driven 7-card evaluator (not the eval7
package); higher is better, order only."""

from __future__ import annotations

import numpy as np

from ._common import (
    CARD_NAMES,
    PeerEvaluator,
    check_batch,
    import_peer,
)


def make_evaluator() -> PeerEvaluator:
    pf = import_peer("pokerfast_py")

    def prepare(cards: np.ndarray) -> list[tuple[str, ...]]:
        arr = check_batch(cards)
        return [tuple(CARD_NAMES[c] for c in row) for row in arr.tolist()]

    def run(prepared: list[tuple[str, ...]]) -> np.ndarray:
        return np.fromiter(map(pf.eval7, prepared), dtype=np.int64, count=len(prepared))

    return PeerEvaluator(
        "pokerfast_py",
        prepare,
        run,
        True,
        "pure Python",
        "pokerfast.eval7(tuple of card strings) per hand; higher is better, order only",
    )
