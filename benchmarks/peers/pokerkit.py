"""pokerkit (pure Python): ``StandardHighHand`` / ``OmahaHoldemHand`` strengths (index 0..7461,
higher is better: ours = index + 1) and its Monte Carlo ``calculate_equities``."""

from __future__ import annotations

import time
from collections.abc import Sequence
from itertools import combinations
from typing import Any

import numpy as np

from . import _common
from ._common import Cards, PeerEquity, PeerUnsupported, import_peer


def _pokerkit_cards() -> list[Any]:
    pk = import_peer("pokerkit")
    return [next(iter(pk.Card.parse(n))) for n in _common.CARD_NAMES]


def make_evaluator() -> _common.PeerEvaluator:
    pk = import_peer("pokerkit")
    table = _pokerkit_cards()
    from_game = pk.StandardHighHand.from_game
    return _common.per_hand_evaluator(
        "pokerkit", lambda row: tuple(table[c] for c in row),
        lambda h: from_game(h).entry.index, higher_is_better=True, path="pure Python",
        note="pokerkit.StandardHighHand.from_game(cards).entry.index per hand; 0..7461, higher "
             "is better (ours = index + 1)",
        contract=lambda s: np.asarray(s, dtype=np.int64) + 1)


def pokerkit_equity_monte_carlo(hands: Sequence[str], board: Cards = "", dead: Cards = "", *,
                                samples: int = 10_000, game: str = "holdem") -> PeerEquity:
    """Monte Carlo equity through ``pokerkit.calculate_equities`` (pure Python, one process):
    exactly ``samples`` deals, unseeded (``random`` module). ``game``: ``holdem`` (hands, ranges
    in pokerkit syntax, or ``random``) or ``omaha`` (exact four-card hands). Slow: thousands of
    deals per second.
    """
    pk = import_peer("pokerkit")
    table = _pokerkit_cards()
    b, d = _common.board_dead(board, dead)
    n_hole = {"holdem": 2, "omaha": 4}.get(game)
    if n_hole is None:
        raise PeerUnsupported(f"pokerkit adapter: game {game!r}")
    hand_type = pk.StandardHighHand if game == "holdem" else pk.OmahaHoldemHand
    ranges = []
    for h in hands:
        if _common.is_exact_hand(h, n_hole):
            ranges.append([frozenset(table[c] for c in _common.parse_cards(h).tolist())])
        elif game == "holdem" and h.strip().lower() == "random":
            ranges.append([frozenset((table[x], table[y])) for x, y in combinations(range(52), 2)])
        elif game == "holdem":
            ranges.append(list(pk.parse_range(h)))
        else:
            raise PeerUnsupported("pokerkit adapter: Omaha hands must be exact")
    dead_mask = _common.mask(d)
    deck = tuple(table[c] for c in range(52) if not (dead_mask >> c) & 1)
    t0 = time.perf_counter()
    eqs = pk.calculate_equities(
        ranges,
        [table[c] for c in b.tolist()],
        n_hole,
        5,
        deck,
        (hand_type,),
        sample_count=int(samples),
    )
    dt = time.perf_counter() - t0
    return PeerEquity(
        "pokerkit",
        [float(x) for x in eqs],
        False,
        int(samples),
        dt,
        note="calculate_equities, one process",
    )


def omaha_strengths_pokerkit(holes: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """Batch of :func:`omaha_strength_pokerkit`: ``holes: ndarray[N, 4] uint8``,
    ``boards: ndarray[N, 5] uint8`` -> ``ndarray[N] int64`` (our 1..7462 scale)."""
    pk = import_peer("pokerkit")
    table = _pokerkit_cards()
    fg = pk.OmahaHoldemHand.from_game
    hs = np.asarray(holes, dtype=np.uint8).reshape(-1, 4).tolist()
    bs = np.asarray(boards, dtype=np.uint8).reshape(-1, 5).tolist()
    return np.fromiter(
        (
            fg([table[c] for c in h], [table[c] for c in b]).entry.index + 1
            for h, b in zip(hs, bs, strict=True)
        ),
        dtype=np.int64,
        count=len(hs),
    )
