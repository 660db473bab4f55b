"""``pokerfast.eval7``: pokerfast's pure-Python table-driven 7-card evaluator (not the eval7
package); higher is better, order only."""

from __future__ import annotations

from ._common import (
    CARD_NAMES,
    PeerEvaluator,
    import_peer,
    per_hand_evaluator,
)


def make_evaluator() -> PeerEvaluator:
    pf = import_peer("pokerfast_py")
    return per_hand_evaluator(
        "pokerfast_py", lambda row: tuple(CARD_NAMES[c] for c in row), pf.eval7,
        higher_is_better=True, path="pure Python",
        note="pokerfast.eval7(tuple of card strings) per hand; higher is better, order only")
