"""Public evaluator API: strengths, categories and descriptions of poker hands."""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ._jit import resolve_threads
from ._jit import threads as _threads
from ._tables import get_tables
from .cards import RANK_NAMES, RANK_PLURALS, CardError, card_str, parse_cards
from .tablegen import CATEGORIES, KEY_INIT, ROW_SHIFT


def _kernels_module():
    """The Numba kernels, imported on first use so that importing the package and
    scalar evaluation stay free of Numba's start-up cost."""
    from ._kernels import holdem as _kernels

    return _kernels


CardsLike = str | Sequence[int] | np.ndarray

MAX_STRENGTH = 7462


class _PyTables:
    """The tables as Python lists, for fast scalar evaluation without JIT compilation."""

    def __init__(self) -> None:
        t = get_tables()
        self.card_key = t.card_key.tolist()
        self.card_mask = t.card_mask.tolist()
        self.row_offsets = t.row_offsets
        self.rank_table = t.rank_table
        self.flush_table = t.flush_table
        self.category_start = t.category_start.tolist()
        self.class_info = t.class_info
        self.shift = ROW_SHIFT


_PY: _PyTables | None = None


def _py() -> _PyTables:
    global _PY
    if _PY is None:
        _PY = _PyTables()
    return _PY


def strength_of_ids(ids: Sequence[int]) -> int:
    """Strength of 5..7 distinct card ids, without validation (pure Python, no JIT)."""
    p = _py()
    key = KEY_INIT
    mask = 0
    for c in ids:
        key += p.card_key[c]
        mask |= p.card_mask[c]
    f = (key >> 32) & 0x8888
    if f:
        sh = 16 * ((f.bit_length() - 4) // 4)
        return int(p.flush_table[(mask >> sh) & 0x1FFF])
    rk = key & 0xFFFFFFFF
    return int(p.rank_table[rk + int(p.row_offsets[rk >> p.shift])])


def _cards_for_eval(cards: CardsLike, sizes: tuple[int, ...] = (5, 6, 7)) -> list[int]:
    ids = parse_cards(cards, what="cards")
    if len(ids) not in sizes:
        want = ", ".join(str(s) for s in sizes[:-1]) + f" or {sizes[-1]}"
        raise CardError(f"expected {want} cards, got {len(ids)}")
    return ids


def evaluate(cards: CardsLike) -> int:
    """Strength ``1..7462`` of the best five-card hand in 5, 6 or 7 cards.

    ``cards`` is text (``"AsKsQsJsTs"``, ``"Ah Kd 7c 7d 2s"``) or card ids. Higher is
    better and equal means a split; 7462 is a royal flush, 1 is 7-5-4-3-2 offsuit.
    """
    return strength_of_ids(_cards_for_eval(cards))


def category(strength: int) -> str:
    """Category name of a strength: ``High Card`` ... ``Straight Flush``."""
    try:
        s = operator.index(strength)
    except TypeError:
        raise ValueError(f"strength must be an integer 1..{MAX_STRENGTH}, got {strength!r}"
                         ) from None
    if not 1 <= s <= MAX_STRENGTH:
        raise ValueError(f"strength {strength} is out of range 1..{MAX_STRENGTH}")
    starts = _py().category_start
    for cat in range(8, -1, -1):
        if s >= starts[cat]:
            return CATEGORIES[cat]
    raise AssertionError("unreachable")


def category_index(strengths: np.ndarray) -> np.ndarray:
    """Category index 0..8 (``High Card`` .. ``Straight Flush``) of each strength (int array)."""
    starts = get_tables().category_start[1:9]
    return np.searchsorted(starts, np.asarray(strengths), side="right").astype(np.int8)


@functools.lru_cache(maxsize=1)
def category_table() -> np.ndarray:
    """``ndarray[7463] uint8``: the category index 0..8 of each strength (index 0 unused)."""
    return category_index(np.arange(7463)).astype(np.uint8)


def evaluate_batch(cards: np.ndarray, *, threads: int | None = None,
                   check: bool = True) -> np.ndarray:
    """Strengths of many hands at once.

    ``cards``: ``ndarray[N, k]`` of card ids (uint8 preferred; other integer types are
    converted), ``k`` in 5..7, each row distinct cards. Returns ``ndarray[N] int32``.
    ``threads``: ``1`` runs the serial kernel, ``None`` uses every Numba thread.
    ``check=False`` skips the range and repeated-card check (faster; garbage in,
    garbage out).
    """
    arr = np.asarray(cards)
    if arr.ndim != 2 or not 5 <= arr.shape[1] <= 7:
        raise ValueError(f"cards must have shape (N, 5..7), got {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"cards must be integer card ids, got dtype {arr.dtype}")
    if arr.dtype != np.uint8:
        if arr.size and (arr.min() < 0 or arr.max() > 51):
            raise ValueError("card ids must be in 0..51")
        arr = arr.astype(np.uint8)
    arr = np.ascontiguousarray(arr)
    out = np.empty(arr.shape[0], dtype=np.int32)
    if arr.shape[0] == 0:
        return out
    tables = get_tables().kernel_args
    kernels = _kernels_module()
    n_threads = resolve_threads(threads)
    if n_threads == 1 or arr.shape[0] < 50_000:
        bad = kernels.eval_batch_serial(arr, out, tables, check)
    else:
        with _threads(n_threads):
            bad = kernels.eval_batch_parallel(arr, out, tables, check, 8 * n_threads)
    if bad >= 0:
        raise ValueError(f"row {bad} of cards has a repeated or out-of-range card: "
                         f"{arr[bad].tolist()}")
    return out


@dataclass(frozen=True)
class HandDescription:
    """What a hand makes: ``strength`` 1..7462, ``category``, ``best_five`` (text), ``text``."""

    strength: int
    category: str
    best_five: str
    text: str
    cards: str

    def to_dict(self) -> dict[str, object]:
        return {"cards": self.cards, "strength": self.strength, "category": self.category,
                "best_five": self.best_five, "text": self.text}


def _names(ranks: Sequence[int]) -> str:
    return ", ".join(RANK_NAMES[r] for r in ranks)


def describe_strength(strength: int) -> str:
    """Plain-English text of a strength, e.g. ``Full House, Kings full of Nines``."""
    info = [int(x) for x in _py().class_info[int(strength)] if x >= 0]
    cat, r = info[0], info[1:]
    name = CATEGORIES[cat]
    if cat == 8:
        return "Royal Flush" if r[0] == 12 else f"Straight Flush, {RANK_NAMES[r[0]]} high"
    if cat == 7:
        return f"{name}, {RANK_PLURALS[r[0]]}, {RANK_NAMES[r[1]]} kicker"
    if cat == 6:
        return f"{name}, {RANK_PLURALS[r[0]]} full of {RANK_PLURALS[r[1]]}"
    if cat == 5:
        return f"{name}, {RANK_NAMES[r[0]]} high ({_names(r[1:])})"
    if cat == 4:
        return f"{name}, {RANK_NAMES[r[0]]} high"
    if cat == 3:
        return f"{name}, {RANK_PLURALS[r[0]]}, kickers {_names(r[1:])}"
    if cat == 2:
        return f"{name}, {RANK_PLURALS[r[0]]} and {RANK_PLURALS[r[1]]}, {RANK_NAMES[r[2]]} kicker"
    if cat == 1:
        return f"{name}, {RANK_PLURALS[r[0]]}, kickers {_names(r[1:])}"
    return f"{name}, {RANK_NAMES[r[0]]} high, kickers {_names(r[1:])}"


def order_five(ids: Sequence[int]) -> list[int]:
    """Five cards in reading order: by group size, then rank; a wheel reads 5-4-3-2-A."""
    ranks = [c >> 2 for c in ids]
    counts = {r: ranks.count(r) for r in ranks}
    out = sorted(ids, key=lambda c: (-counts[c >> 2], -(c >> 2), -(c & 3)))
    if sorted(ranks) == [0, 1, 2, 3, 12]:
        out = out[1:] + out[:1]
    return out


def best_five_of(ids: Sequence[int]) -> tuple[int, list[int]]:
    """``(strength, five card ids)`` of the best five-card hand in 5..7 ids."""
    best, best_ids = -1, list(ids)
    for five in itertools.combinations(ids, 5):
        s = strength_of_ids(five)
        if s > best:
            best, best_ids = s, list(five)
    return best, order_five(best_ids)


def describe(cards: CardsLike) -> HandDescription:
    """Strength, category, best five cards and a plain-English text of 5..7 cards."""
    ids = _cards_for_eval(cards)
    strength, five = best_five_of(ids)
    return HandDescription(strength=strength, category=category(strength),
                           best_five=" ".join(card_str(c) for c in five),
                           text=describe_strength(strength),
                           cards=" ".join(card_str(c) for c in ids))


def strength_histogram(n_cards: int = 7, *, threads: int | None = None) -> np.ndarray:
    """``ndarray[7463] int64``: how many of the C(52, n_cards) hands have each strength.

    Walks every hand (n_cards 5, 6 or 7) with incremental keys; index 0 stays 0.
    """
    if n_cards not in (5, 6, 7):
        raise ValueError(f"n_cards must be 5, 6 or 7, got {n_cards}")
    tables = get_tables().kernel_args
    n_threads = resolve_threads(threads)
    if n_threads == 1:
        hist4 = np.zeros((4, 7463), dtype=np.int64)
        # One kernel call per (lowest, second-lowest) card pair, from here: Ctrl-C is seen
        # between pairs, and the walk runs at its in-process speed from Numba's disk cache
        # (one loop over the pairs inside a kernel: 0.30 s loaded from the cache against
        # 0.24 s compiled in the process, the same machine code placed differently;
        # per pair: 0.245-0.26 s either way, for ~1,100 calls of ~2 us each).
        walk = _kernels_module().walk_prefix2
        top = 52 - n_cards
        for a in range(top + 1):
            for b in range(a + 1, top + 2):
                walk(n_cards, a, b, tables, hist4)
        return hist4.sum(axis=0)
    hists = np.zeros((8 * n_threads, 4, 7463), dtype=np.int64)
    with _threads(n_threads):
        _kernels_module().walk_parallel(n_cards, tables, hists)
    return hists.sum(axis=(0, 1))


def count_categories(n_cards: int = 7, *, threads: int | None = None) -> dict[str, int]:
    """Walk every one of the C(52, n_cards) hands and count each category (n_cards 5, 6, 7)."""
    hist = strength_histogram(n_cards, threads=threads)
    starts = get_tables().category_start
    return {CATEGORIES[c]: int(hist[starts[c]:starts[c + 1]].sum()) for c in range(9)}


