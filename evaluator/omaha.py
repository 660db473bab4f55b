"""Omaha hand evaluation: the best five cards using exactly two hole cards and exactly
three board cards, on the same ``1..7462`` scale as :func:`evaluator.evaluate`.

Hole sets of 4 cards (Omaha), 5 or 6 cards (5- and 6-card Omaha: the same
two-plus-three rule) and boards of 3, 4 or 5 cards are accepted.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from ._jit import resolve_threads
from ._jit import threads as _threads
from ._tables import get_tables
from .cards import CardError, card_str, check_disjoint, parse_cards
from .hands import (
    CardsLike,
    card_id_rows,
    category,
    describe_strength,
    order_five,
    strength_of_ids,
)
from .tablegen import ROW_SHIFT


def _omaha_kernels_module():
    """The Numba kernels, imported on first use so that importing the package and
    scalar evaluation stay free of Numba's start-up cost."""
    from ._kernels import omaha as _omaha_kernels

    return _omaha_kernels


HOLE_SIZES = (4, 5, 6)
BOARD_SIZES = (3, 4, 5)


def _check_sizes(n_hole: int, n_board: int) -> None:
    if n_hole not in HOLE_SIZES:
        raise CardError(f"Omaha needs 4, 5 or 6 hole cards, got {n_hole}")
    if n_board not in BOARD_SIZES:
        raise CardError(f"an Omaha board has 3, 4 or 5 cards, got {n_board}")


def parse_omaha(hole: CardsLike, board: CardsLike) -> tuple[list[int], list[int]]:
    """``(hole ids, board ids)`` of an Omaha hand (text or ids): 4, 5 or 6 hole cards and
    3, 4 or 5 board cards, no card twice; a :class:`~evaluator.cards.CardError` otherwise."""
    h = parse_cards(hole, what="hole cards")
    b = parse_cards(board, what="board")
    _check_sizes(len(h), len(b))
    check_disjoint([("hole cards", h), ("board", b)])
    return h, b


def omaha_best(hole_ids: list[int], board_ids: list[int]) -> tuple[int, tuple[int, ...],
                                                                   tuple[int, ...]]:
    """Pure-Python reference: ``(strength, two hole ids, three board ids)`` of the best hand,
    the maximum over every 2-from-hole x 3-from-board choice (no validation)."""
    best, hp, bt = -1, (), ()
    for pair in itertools.combinations(hole_ids, 2):
        for triple in itertools.combinations(board_ids, 3):
            s = strength_of_ids(pair + triple)
            if s > best:
                best, hp, bt = s, pair, triple
    return best, hp, bt


def evaluate_omaha(hole: CardsLike, board: CardsLike) -> int:
    """Strength ``1..7462`` of the best Omaha hand: exactly two of ``hole`` (4, 5 or 6
    cards, text or ids) and exactly three of ``board`` (3, 4 or 5 cards)."""
    h, b = parse_omaha(hole, board)
    return omaha_best(h, b)[0]


def omaha_rows(holes: np.ndarray, boards: np.ndarray, check: bool = True
               ) -> tuple[np.ndarray, np.ndarray]:
    """``(holes, boards)`` as uint8 card-id rows of the same length, with 4..6 hole and 3..5
    board cards; ``check``: also refuse a row with a repeated or out-of-range card
    (ValueError naming the row). The batch evaluators' (high and low) one input check."""
    hs = _as_cards(holes, "holes")
    bs = _as_cards(boards, "boards")
    if hs.shape[0] != bs.shape[0]:
        raise ValueError(f"holes and boards need the same number of rows, got {hs.shape[0]} "
                         f"and {bs.shape[0]}")
    _check_sizes(hs.shape[1], bs.shape[1])
    if hs.shape[0] and check:
        bad = _omaha_kernels_module().first_bad_omaha_row(hs, bs)
        if bad >= 0:
            raise ValueError(f"row {bad} has a repeated or out-of-range card: hole "
                             f"{hs[bad].tolist()}, board {bs[bad].tolist()}")
    return hs, bs


def evaluate_omaha_batch(holes: np.ndarray, boards: np.ndarray, *, threads: int | None = None,
                         check: bool = True) -> np.ndarray:
    """Best Omaha strengths of many hands.

    ``holes``: ``ndarray[N, h]`` card ids (uint8 preferred), h in 4..6; ``boards``:
    ``ndarray[N, b]``, b in 3..5; row ``i`` of both is one hand. Returns
    ``ndarray[N] int32`` on the 1..7462 scale. ``threads=1`` runs serially, ``None`` uses
    every Numba thread; ``check=False`` skips the range/repeated-card check.
    """
    hs, bs = omaha_rows(holes, boards, check)
    out = np.empty(hs.shape[0], dtype=np.int32)
    if hs.shape[0] == 0:
        return out
    tables = get_tables().kernel_args
    otables = omaha_tables()
    n_threads = resolve_threads(threads)
    if n_threads == 1 or hs.shape[0] < 20_000:
        _omaha_kernels_module().omaha_batch_serial(hs, bs, out, tables, otables)
    else:
        with _threads(n_threads):
            _omaha_kernels_module().omaha_batch_parallel(hs, bs, out, tables, otables,
                                                         8 * n_threads)
    return out


_OMAHA_TABLES: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
N_TRIPLE_CLASSES = 455  # multisets of 3 of the 13 ranks


def omaha_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(pair_index int32[169], triple_index int32[2197], rank5 uint16[91 * 455])``.

    ``pair_index[r1 * 13 + r2]`` is ``455 *`` the class (0..90) of a hole pair's ranks,
    ``triple_index[(r1 * 13 + r2) * 13 + r3]`` the class (0..454) of a board triple's
    ranks (any order), and ``rank5[pair + triple]`` the non-flush strength of the five
    cards: the rank part of the evaluator's own lookup, tabulated for Omaha's split
    (83 KB, one read per combination instead of two dependent ones). Built on first use.
    """
    global _OMAHA_TABLES
    if _OMAHA_TABLES is None:
        t = get_tables()
        mult = (t.card_key[::4] & 0xFFFFFFFF).astype(np.int64)
        pairs = list(itertools.combinations_with_replacement(range(13), 2))
        triples = list(itertools.combinations_with_replacement(range(13), 3))
        pair_index = np.zeros(169, dtype=np.int32)
        for i, (a, b) in enumerate(pairs):
            pair_index[a * 13 + b] = pair_index[b * 13 + a] = i * N_TRIPLE_CLASSES
        triple_index = np.zeros(2197, dtype=np.int32)
        for i, tr in enumerate(triples):
            for a, b, c in itertools.permutations(tr):
                triple_index[(a * 13 + b) * 13 + c] = i
        pr = np.array([mult[a] + mult[b] for a, b in pairs], dtype=np.int64)
        trr = np.array([mult[a] + mult[b] + mult[c] for a, b, c in triples], dtype=np.int64)
        rk = (pr[:, None] + trr[None, :]).ravel()
        # five of a rank cannot happen; those (unused) slots stay 0
        ok = np.array([[max((p + q).count(r) for r in range(13)) <= 4 for q in triples]
                       for p in pairs]).ravel()
        rank5 = np.zeros(rk.shape[0], dtype=np.uint16)
        k = rk[ok]
        rank5[ok] = t.rank_table[k + t.row_offsets[k >> ROW_SHIFT]]
        _OMAHA_TABLES = (pair_index, triple_index, rank5)
    return _OMAHA_TABLES


def _as_cards(a: np.ndarray, what: str) -> np.ndarray:
    arr = np.asarray(a)
    if arr.ndim != 2:
        raise ValueError(f"{what} must be a 2-D array of card ids, got shape {arr.shape}")
    return card_id_rows(arr, what)


@dataclass(frozen=True)
class OmahaDescription:
    """The best Omaha hand: ``strength`` 1..7462, ``category``, ``best_five`` and ``text``,
    and which cards make it: ``hole_used`` (two hole cards), ``board_used`` (three board
    cards); ``hole`` and ``board`` echo the input (canonical text)."""

    strength: int
    category: str
    best_five: str
    text: str
    hole_used: str
    board_used: str
    hole: str
    board: str

    def to_dict(self) -> dict[str, object]:
        return {"game": "omaha", "hole": self.hole, "board": self.board,
                "strength": self.strength, "category": self.category,
                "best_five": self.best_five, "text": self.text,
                "hole_used": self.hole_used, "board_used": self.board_used}


def describe_omaha(hole: CardsLike, board: CardsLike) -> OmahaDescription:
    """Strength, category, best five, text, and the two hole + three board cards that
    make the best Omaha hand (the first such choice when several tie)."""
    h, b = parse_omaha(hole, board)
    s, hp, bt = omaha_best(h, b)
    return OmahaDescription(
        strength=s, category=category(s),
        best_five=" ".join(card_str(c) for c in order_five(list(hp + bt))),
        text=describe_strength(s),
        hole_used=" ".join(card_str(c) for c in hp),
        board_used=" ".join(card_str(c) for c in bt),
        hole=" ".join(card_str(c) for c in h), board=" ".join(card_str(c) for c in b))
