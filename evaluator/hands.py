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
from .cards import RANK_NAMES, RANK_PLURALS, RANKS, CardError, card_str, parse_cards
from .tablegen import CATEGORIES, KEY_INIT, LOWEST_RANK, ROW_SHIFT, SCALES


def _kernels_module():
    """The Numba kernels, imported on first use so that importing the package and
    scalar evaluation stay free of Numba's start-up cost."""
    from ._kernels import holdem as _kernels

    return _kernels


CardsLike = str | Sequence[int] | np.ndarray


def check_scale(game: str) -> str:
    """The evaluator scale ``game`` names (``holdem``, ``short_deck``,
    ``short_deck_triton``); ValueError naming the known ones."""
    g = str(game).strip().lower()
    if g not in SCALES:
        raise ValueError(f"unknown game '{game}' for the evaluator (expected one of: "
                         f"{', '.join(SCALES)})")
    return g


def deck_text(game: str = "holdem") -> str:
    """The deck of an evaluator scale in words, for messages: ``the deck``, or a short deck
    from its lowest rank (:data:`evaluator.tablegen.LOWEST_RANK`) up: ``the short deck (6 to
    A)``."""
    low = LOWEST_RANK[check_scale(game)]
    return f"the short deck ({RANKS[low]} to {RANKS[-1]})" if low else "the deck"


def max_strength(game: str = "holdem") -> int:
    """The top of a scale: 7462 in Hold'em, 1404 in either short-deck scale."""
    return len(get_tables(check_scale(game)).class_info) - 1


def _check_deck(ids: Sequence[int], game: str, what: str = "cards") -> None:
    low = LOWEST_RANK[game]
    for c in ids:
        if c >> 2 < low:
            raise CardError(f"{card_str(c)} in {what} is not in {deck_text(game)}")


class _PyTables:
    """The tables as Python lists, for fast scalar evaluation without JIT compilation."""

    def __init__(self, game: str = "holdem") -> None:
        t = get_tables(game)
        self.card_key = t.card_key.tolist()
        self.card_mask = t.card_mask.tolist()
        self.row_offsets = t.row_offsets
        self.rank_table = t.rank_table
        self.flush_table = t.flush_table
        self.category_start = t.category_start.tolist()
        self.class_info = t.class_info
        self.shift = ROW_SHIFT


_PY: dict[str, _PyTables] = {}


def _py(game: str = "holdem") -> _PyTables:
    p = _PY.get(game)
    if p is None:
        p = _PY[game] = _PyTables(game)
    return p


def strength_of_ids(ids: Sequence[int], game: str = "holdem") -> int:
    """Strength of 5..7 distinct card ids on ``game``'s scale, without validation (pure
    Python, no JIT)."""
    p = _py(game)
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


def _cards_for_eval(cards: CardsLike, sizes: tuple[int, ...] = (5, 6, 7),
                    game: str = "holdem") -> list[int]:
    ids = parse_cards(cards, what="cards")
    if len(ids) not in sizes:
        want = ", ".join(str(s) for s in sizes[:-1]) + f" or {sizes[-1]}"
        raise CardError(f"expected {want} cards, got {len(ids)}")
    if game != "holdem":
        _check_deck(ids, game)
    return ids


def evaluate(cards: CardsLike, *, game: str = "holdem") -> int:
    """Strength of the best five-card hand in 5, 6 or 7 cards.

    ``cards`` is text (``"AsKsQsJsTs"``, ``"Ah Kd 7c 7d 2s"``) or card ids. Higher is
    better and equal means a split. ``game="holdem"``: ``1..7462``, 7462 a royal flush, 1
    7-5-4-3-2 offsuit. ``game="short_deck"`` / ``"short_deck_triton"``: the 36-card deck
    (6 to A; a lower card is an error), ``1..1404`` on that game's own scale (A-6-7-8-9
    the lowest straight, a flush above a full house, trips below a straight or, Triton,
    above it).
    """
    game = check_scale(game)
    return strength_of_ids(_cards_for_eval(cards, game=game), game)


def category(strength: int, *, game: str = "holdem") -> str:
    """Category name of a strength on ``game``'s scale: ``High Card`` ... ``Straight Flush``."""
    game = check_scale(game)
    top = max_strength(game)
    try:
        s = operator.index(strength)
    except TypeError:
        raise ValueError(f"strength must be an integer 1..{top}, got {strength!r}") from None
    if not 1 <= s <= top:
        raise ValueError(f"strength {strength} is out of range 1..{top}")
    return CATEGORIES[int(_py(game).class_info[s, 0])]


def category_index(strengths: np.ndarray) -> np.ndarray:
    """Category index 0..8 (``High Card`` .. ``Straight Flush``) of each strength (int array)."""
    starts = get_tables().category_start[1:9]
    return np.searchsorted(starts, np.asarray(strengths), side="right").astype(np.int8)


@functools.cache
def category_table(game: str = "holdem") -> np.ndarray:
    """``ndarray[S + 1] uint8``: the category index 0..8 (``High Card`` .. ``Straight
    Flush``) of each strength of ``game``'s scale (index 0 unused, 0)."""
    if game == "holdem":
        return category_index(np.arange(7463)).astype(np.uint8)
    cats = get_tables(check_scale(game)).class_info[:, 0].astype(np.int64)
    cats[0] = 0
    return cats.astype(np.uint8)


def card_id_rows(arr: np.ndarray, what: str) -> np.ndarray:
    """``arr`` (2-D, integer card ids) as a C-contiguous ``uint8`` array; a ``ValueError``
    naming ``what`` for another dtype, an id outside 0..51 where the dtype is wider."""
    if not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"{what} must be integer card ids, got dtype {arr.dtype}")
    if arr.dtype != np.uint8:
        if arr.size and (arr.min() < 0 or arr.max() > 51):
            raise ValueError("card ids must be in 0..51")
        arr = arr.astype(np.uint8)
    return np.ascontiguousarray(arr)


def evaluate_batch(cards: np.ndarray, *, threads: int | None = None,
                   check: bool = True, game: str = "holdem") -> np.ndarray:
    """Strengths of many hands at once.

    ``cards``: ``ndarray[N, k]`` of card ids (uint8 preferred; other integer types are
    converted), ``k`` in 5..7, each row distinct cards. Returns ``ndarray[N] int32``.
    ``threads``: ``1`` runs the serial kernel, ``None`` uses every Numba thread.
    ``check=False`` skips the range and repeated-card check: only for rows known to be
    valid, since a bad row (a card over 51, a card twice) reads outside the lookup tables,
    which can return nonsense or crash the process. The check costs about 1 % (``pokerjit
    bench --case batch-checked``). ``game``: the scale, as for :func:`evaluate` (short
    deck: a card below the six is a bad card too).
    """
    game = check_scale(game)
    arr = np.asarray(cards)
    if arr.ndim != 2 or not 5 <= arr.shape[1] <= 7:
        raise ValueError(f"cards must have shape (N, 5..7), got {arr.shape}")
    arr = card_id_rows(arr, "cards")
    out = np.empty(arr.shape[0], dtype=np.int32)
    if arr.shape[0] == 0:
        return out
    if check and game != "holdem" and arr.size and int(arr.min()) < 4 * LOWEST_RANK[game]:
        low = np.nonzero((arr < 4 * LOWEST_RANK[game]).any(axis=1))[0]
        if low.size:  # one min() over the ids on the way in; the row is looked for here
            row = int(low[0])
            bad = next(c for c in arr[row].tolist() if c >> 2 < LOWEST_RANK[game])
            raise ValueError(f"row {row} of cards has {card_str(bad)}, which is not in "
                             f"{deck_text(game)}: {arr[row].tolist()}")
    tables = get_tables(game).kernel_args
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


def batch_compile_job(game: str = "holdem") -> tuple[object, tuple[object, ...]]:
    """``(kernel, arguments)``: what :func:`evaluate_batch` with ``threads=1`` compiles for
    ``game``'s scale, for :func:`evaluator._first_run.compile_beside` (a first run that will
    evaluate a batch can have it compiled in a copy of the process meanwhile)."""
    tables = get_tables(check_scale(game)).kernel_args
    return _kernels_module().eval_batch_serial, (np.zeros((1, 5), np.uint8),
                                                 np.empty(1, np.int32), tables, True)


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


def describe_strength(strength: int, game: str = "holdem") -> str:
    """Plain-English text of a strength, e.g. ``Full House, Kings full of Nines``."""
    info = [int(x) for x in _py(game).class_info[int(strength)] if x >= 0]
    cat, r = info[0], info[1:]
    if cat == 8:
        return "Royal Flush" if r[0] == 12 else f"Straight Flush, {RANK_NAMES[r[0]]} high"
    words = {f"n{i}": RANK_NAMES[x] for i, x in enumerate(r)}
    words.update({f"p{i}": RANK_PLURALS[x] for i, x in enumerate(r)})
    return _TEXTS[cat].format(name=CATEGORIES[cat], rest=_names(r[1:]), **words)


#: The text of each category (8, the straight flush, is written above), with the class's
#: ranks as ``n0``, ``n1`` ... (names) and ``p0``, ``p1`` ... (plurals); ``rest``: the
#: ranks after the first, joined.
_TEXTS = {7: "{name}, {p0}, {n1} kicker", 6: "{name}, {p0} full of {p1}",
          5: "{name}, {n0} high ({rest})", 4: "{name}, {n0} high",
          3: "{name}, {p0}, kickers {rest}", 2: "{name}, {p0} and {p1}, {n2} kicker",
          1: "{name}, {p0}, kickers {rest}", 0: "{name}, {n0} high, kickers {rest}"}


def order_five(ids: Sequence[int], game: str = "holdem") -> list[int]:
    """Five cards in reading order: by group size, then rank; a wheel reads 5-4-3-2-A
    (short deck: 9-8-7-6-A)."""
    ranks = [c >> 2 for c in ids]
    counts = {r: ranks.count(r) for r in ranks}
    out = sorted(ids, key=lambda c: (-counts[c >> 2], -(c >> 2), -(c & 3)))
    low = LOWEST_RANK[game]
    if sorted(ranks) == [low, low + 1, low + 2, low + 3, 12]:
        out = out[1:] + out[:1]
    return out


def best_five_of(ids: Sequence[int], game: str = "holdem") -> tuple[int, list[int]]:
    """``(strength, five card ids)`` of the best five-card hand in 5..7 ids."""
    best, best_ids = -1, list(ids)
    for five in itertools.combinations(ids, 5):
        s = strength_of_ids(five, game)
        if s > best:
            best, best_ids = s, list(five)
    return best, order_five(best_ids, game)


def describe(cards: CardsLike, *, game: str = "holdem") -> HandDescription:
    """Strength, category, best five cards and a plain-English text of 5..7 cards
    (``game`` as for :func:`evaluate`)."""
    game = check_scale(game)
    ids = _cards_for_eval(cards, game=game)
    strength, five = best_five_of(ids, game)
    return HandDescription(strength=strength, category=category(strength, game=game),
                           best_five=" ".join(card_str(c) for c in five),
                           text=describe_strength(strength, game),
                           cards=" ".join(card_str(c) for c in ids))


def combinations(n: int, k: int) -> np.ndarray:
    """``ndarray[C(n, k), k] uint8``: every k-subset of ``0..n-1``, ascending, in
    lexicographic order (built a column at a time with numpy)."""
    rows = np.arange(n - k + 1, dtype=np.uint8)[:, None]
    for col in range(1, k):
        last = rows[:, -1].astype(np.int64)
        count = (n - k + col) - last  # choices above the last element that leave room
        rep = np.repeat(np.arange(len(rows)), count)
        start = np.repeat(np.cumsum(count) - count, count)
        nxt = last[rep] + 1 + (np.arange(len(rep)) - start)
        rows = np.concatenate([rows[rep], nxt[:, None].astype(np.uint8)], axis=1)
    return rows


def strength_histogram(n_cards: int = 7, *, threads: int | None = None,
                       game: str = "holdem") -> np.ndarray:
    """``ndarray[S + 1] int64``: how many of the C(52, n_cards) hands (short deck:
    C(36, n_cards)) have each strength of ``game``'s scale; index 0 stays 0.

    Hold'em walks every hand (n_cards 5, 6 or 7) with incremental keys; short deck
    evaluates every hand of its 36 cards in one batch.
    """
    if n_cards not in (5, 6, 7):
        raise ValueError(f"n_cards must be 5, 6 or 7, got {n_cards}")
    game = check_scale(game)
    if game != "holdem":
        low = 4 * LOWEST_RANK[game]
        hands = combinations(52 - low, n_cards) + np.uint8(low)
        s = evaluate_batch(hands, threads=threads, check=False, game=game)
        return np.bincount(s, minlength=max_strength(game) + 1).astype(np.int64)
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


def count_categories(n_cards: int = 7, *, threads: int | None = None,
                     game: str = "holdem") -> dict[str, int]:
    """Walk every one of the C(52, n_cards) hands (short deck: C(36, n_cards)) and count
    each category (n_cards 5, 6, 7), in the order ``High Card`` .. ``Straight Flush``."""
    game = check_scale(game)
    hist = strength_histogram(n_cards, threads=threads, game=game)
    cats = np.bincount(category_table(game), weights=hist, minlength=9)
    return {CATEGORIES[c]: int(cats[c]) for c in range(9)}


