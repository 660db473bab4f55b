"""PH Evaluator (C): one C call per hand from a Python loop; ranks 1..7462, lower is better
(ours = 7463 - rank); ``evaluate_omaha_cards`` for Omaha."""

from __future__ import annotations

from itertools import starmap

import numpy as np

from ._common import (
    PeerEvaluator,
    check_batch,
    import_peer,
)


def make_evaluator() -> PeerEvaluator:
    ph = import_peer("phevaluator")
    try:  # the C extension behind the public wrappers; skips their per-card Card.to_id
        from phevaluator import _pheval as native

        fns = {5: native.evaluate_5cards, 6: native.evaluate_6cards, 7: native.evaluate_7cards}
        how = "phevaluator._pheval.evaluate_{k}cards (C) called per hand"
    except ImportError:
        fns = {5: ph.evaluate_5cards, 6: ph.evaluate_6cards, 7: ph.evaluate_7cards}
        how = "phevaluator.evaluate_{k}cards called per hand"

    def prepare(cards: np.ndarray) -> tuple[list[list[int]], int]:
        arr = check_batch(cards)
        return arr.tolist(), arr.shape[1]

    def run(prepared: tuple[list[list[int]], int]) -> np.ndarray:
        rows, k = prepared
        return np.fromiter(starmap(fns[k], rows), dtype=np.int64, count=len(rows))

    return PeerEvaluator(
        "phevaluator",
        prepare,
        run,
        False,
        "per-call Python overhead",
        how + "; rank 1..7462, lower is better (ours = 7463 - rank)",
        contract=lambda s: 7463 - np.asarray(s, dtype=np.int64),
    )


def omaha_strengths_phevaluator(holes: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """Batch of :func:`omaha_strength_phevaluator`: ``holes: ndarray[N, 4] uint8``,
    ``boards: ndarray[N, 5] uint8`` -> ``ndarray[N] int64`` on our 1..7462 scale
    (Python loop over the C call)."""
    import_peer("phevaluator")
    try:
        from phevaluator import _pheval as native

        fn = native.evaluate_omaha_cards
    except ImportError:
        from phevaluator import evaluate_omaha_cards as fn
    rows = np.concatenate(
        [
            np.asarray(boards, dtype=np.uint8).reshape(-1, 5),
            np.asarray(holes, dtype=np.uint8).reshape(-1, 4),
        ],
        axis=1,
    ).tolist()
    return 7463 - np.fromiter(starmap(fn, rows), dtype=np.int64, count=len(rows))
