"""Deterministic generator of the evaluator's lookup tables (``data/tables.npz``).

Run ``python -m evaluator.tablegen`` to rebuild the shipped file; a digest test
pins the file to this script's output.

How the evaluator works
-----------------------
Every card has a 64-bit *key* and a 64-bit *mask*; a hand's key is the sum of
its cards' keys plus ``KEY_INIT``, its mask the OR of its cards' masks, so adding
a card is adding a number (the equity runner builds keys incrementally).

* Low 32 bits of the key: the sum of one *rank multiplier* per card. The 13
  multipliers are chosen (greedily, smallest first) so that every multiset of
  at most 7 ranks with at most 4 of a rank has its own sum.
* Bits 32..47: four 4-bit suit counters that start at 3, so bit 3 of a counter
  is set exactly when that suit holds 5 or more cards (``key >> 32 & 0x8888``).
* The mask holds one 13-bit rank set per suit, at bit ``16 * suit + rank``.

With a flush (at most one suit can hold five of at most seven cards, and then
no quads or full house is possible) the strength is ``flush[rankset]``, a table
of 8192 entries. Otherwise the rank sum is looked up in a sparse table that is
compressed by *row displacement*: the key's high bits pick a row, and
``rank_table[key + row_offset[key >> ROW_SHIFT]]`` is the strength. Rows are
packed first-fit, densest first, so no two used keys share a slot.

Strengths run 1..7462 (higher is better): the 7,462 distinct five-card hand
classes in order, from 7-5-4-3-2 offsuit to the royal flush.

Short deck (36 cards, 6 to A) has tables of its own on its own scale, for each of its two
rule sets (:data:`CATEGORY_ORDER`): A-6-7-8-9 is the lowest straight, a flush beats a full
house, and three of a kind ranks below a straight (``short_deck``, pokerkit's and the
older cardrooms' rule) or above it (``short_deck_triton``). They use the same card keys
(a short-deck rank multiset is a Hold'em one), with a row-displaced rank table and a flush
table of their own, stored in the same file under the prefix ``"<scale>__"``. The flush
shortcut holds there too: five of a suit in seven cards leave no room for a full house.
"""

from __future__ import annotations

import functools
import hashlib
import io
import itertools
from pathlib import Path

import numpy as np

N_RANKS = 13
MAX_CARDS = 7
ROW_SHIFT = 10
KEY_INIT = 0x3333 << 32

# categories, lowest first
CATEGORIES = ("High Card", "One Pair", "Two Pair", "Three of a Kind", "Straight", "Flush",
              "Full House", "Four of a Kind", "Straight Flush")
HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

#: Each evaluator scale's category order, lowest first (in the category codes above).
CATEGORY_ORDER = {
    "holdem": (HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH),
    "short_deck": (HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FULL_HOUSE, FLUSH, QUADS,
                   STRAIGHT_FLUSH),
    "short_deck_triton": (HIGH, PAIR, TWO_PAIR, STRAIGHT, TRIPS, FULL_HOUSE, FLUSH, QUADS,
                          STRAIGHT_FLUSH),
}
#: The evaluator's scales (``evaluate(..., game=...)``).
SCALES = tuple(CATEGORY_ORDER)
#: The lowest rank in each scale's deck (0 = deuce; short deck starts at the six).
LOWEST_RANK = {"holdem": 0, "short_deck": 4, "short_deck_triton": 4}


# ---------------------------------------------------------------- hand classes
def _straight_high(rank_set: int, low: int = 0) -> int:
    """Highest straight's top rank in a 13-bit rank set, -1 if none. ``low`` is the deck's
    lowest rank: the ace also plays below it (A-2-3-4-5 -> 3; short deck A-6-7-8-9 -> 7)."""
    for hi in range(12, low + 3, -1):
        need = 0x1F << (hi - 4)
        if rank_set & need == need:
            return hi
    wheel = (1 << 12) | (0xF << low)
    if rank_set & wheel == wheel:
        return low + 3
    return -1


def best_class_from_counts(counts: tuple[int, ...], game: str = "holdem") -> tuple[int, ...]:
    """Class tuple ``(category, tiebreak ranks...)`` of the best non-flush hand.

    ``counts[r]`` is how many cards of rank ``r`` the hand holds (5..7 cards); ``game``
    names the scale (where trips and a straight in one hand rank, where the ace plays low).
    """
    low = LOWEST_RANK[game]
    trips_first = CATEGORY_ORDER[game].index(TRIPS) > CATEGORY_ORDER[game].index(STRAIGHT)
    by_count: dict[int, list[int]] = {1: [], 2: [], 3: [], 4: []}
    for r in range(12, -1, -1):
        if counts[r]:
            by_count[counts[r]].append(r)
    present = [r for r in range(12, -1, -1) if counts[r]]
    if by_count[4]:
        q = by_count[4][0]
        return (QUADS, q, next(r for r in present if r != q))
    trips, pairs = by_count[3], by_count[2]
    if trips and (len(trips) >= 2 or pairs):
        t = trips[0]
        p = max([r for r in trips[1:]] + pairs)
        return (FULL_HOUSE, t, p)
    rank_set = sum(1 << r for r in present)
    hi = _straight_high(rank_set, low)
    if trips and trips_first:
        t = trips[0]
        return (TRIPS, t, *[r for r in present if r != t][:2])
    if hi >= 0:
        return (STRAIGHT, hi)
    if trips:
        t = trips[0]
        return (TRIPS, t, *[r for r in present if r != t][:2])
    if len(pairs) >= 2:
        p1, p2 = pairs[:2]
        return (TWO_PAIR, p1, p2, next(r for r in present if r not in (p1, p2)))
    if pairs:
        p = pairs[0]
        return (PAIR, p, *[r for r in present if r != p][:3])
    return (HIGH, *present[:5])


def best_flush_class(rank_set: int, game: str = "holdem") -> tuple[int, ...]:
    """Class tuple of the best hand in one suit holding the ranks in ``rank_set``."""
    hi = _straight_high(rank_set, LOWEST_RANK[game])
    if hi >= 0:
        return (STRAIGHT_FLUSH, hi)
    return (FLUSH, *[r for r in range(12, -1, -1) if rank_set >> r & 1][:5])


def all_five_card_classes(game: str = "holdem") -> list[tuple[int, ...]]:
    """The class tuples of five-card hands of a scale, weakest first (7,462 in Hold'em)."""
    classes = set()
    for combo in itertools.combinations_with_replacement(range(LOWEST_RANK[game], N_RANKS), 5):
        counts = [0] * N_RANKS
        for r in combo:
            counts[r] += 1
        if max(counts) > 4:
            continue
        classes.add(best_class_from_counts(tuple(counts), game))
        if max(counts) == 1:
            classes.add(best_flush_class(sum(1 << r for r in combo), game))
    order = CATEGORY_ORDER[game]
    return sorted(classes, key=lambda c: (order.index(c[0]), c[1:]))


# ---------------------------------------------------------------- rank keys
def _rank_multisets(max_cards: int = MAX_CARDS) -> list[tuple[int, ...]]:
    """Every rank-count vector with 0..max_cards cards and at most 4 of a rank."""
    out = []

    def rec(r: int, left: int, cur: list[int]) -> None:
        if r == N_RANKS:
            out.append(tuple(cur))
            return
        for k in range(min(4, left) + 1):
            cur.append(k)
            rec(r + 1, left - k, cur)
            cur.pop()

    rec(0, max_cards, [])
    return out


def _fft_length(n: int) -> int:
    """The smallest ``2**a * 3**b * 5**c >= n``. numpy's FFT runs as fast per point on such
    lengths as on a power of two, which can be nearly twice ``n``: the multipliers' search
    took half the time with them."""
    best = 1 << (n - 1).bit_length()
    p5 = 1
    while p5 < best:
        p35 = p5
        while p35 < best:
            p = p35
            while p < n:
                p *= 2
            best = min(best, p)
            p35 *= 3
        p5 *= 5
    return best


def find_rank_multipliers() -> list[int]:
    """Greedy smallest multipliers giving every rank multiset of <= 7 cards its own sum.

    Adding rank ``r`` with multiplier ``m`` collides exactly when two earlier
    sums ``s1`` (any size) and ``s2`` (size <= 7 - j) differ by ``j * m`` for some
    ``j`` in 1..4. Difference sets are computed by FFT correlation of indicator
    arrays, so the search is exact and fast.
    """
    mults: list[int] = []
    # sums_by_size[c] = sorted array of sums of multisets with c cards
    sums_by_size = [np.array([0], dtype=np.int64)] + [np.array([], dtype=np.int64)] * MAX_CARDS
    for _r in range(N_RANKS):
        all_sums = np.concatenate(sums_by_size)
        top = int(all_sums.max()) if all_sums.size else 0
        forbidden = np.zeros(top + 2, dtype=np.bool_)  # forbidden[m]: m would collide
        length = _fft_length(2 * (top + 1))  # no wrap-around onto the positive lags
        ind_all = np.zeros(length)
        ind_all[all_sums] = 1.0
        fa = np.fft.rfft(ind_all)
        for j in range(1, 5):
            small = np.concatenate(sums_by_size[: MAX_CARDS - j + 1])
            ind_small = np.zeros(length)
            ind_small[small] = 1.0
            corr = np.fft.irfft(fa * np.conj(np.fft.rfft(ind_small)), length)
            diffs = np.nonzero(corr[: top + 1] > 0.5)[0]  # positive differences s1 - s2
            forbidden[diffs[(diffs > 0) & (diffs % j == 0)] // j] = True
        free = np.flatnonzero(~forbidden[1:])  # top + 1 is never a difference
        m = int(free[0]) + 1
        mults.append(m)
        new = [np.array([], dtype=np.int64) for _ in range(MAX_CARDS + 1)]
        for c in range(MAX_CARDS + 1):
            for k in range(0, min(4, MAX_CARDS - c) + 1):
                new[c + k] = np.concatenate([new[c + k], sums_by_size[c] + k * m])
        sums_by_size = [np.unique(s) for s in new]
    return mults


def _first_fit(cols_flat: np.ndarray, starts: np.ndarray, order: np.ndarray, width: int,
               capacity: int) -> np.ndarray:
    """First-fit base slot for each row (``order`` gives the packing order)."""
    occupied = np.zeros(capacity, dtype=np.bool_)
    bases = np.zeros(starts.size - 1, dtype=np.int64)
    lowest_free = 0
    for row in order:
        a, b = starts[row], starts[row + 1]
        if a == b:
            continue
        while occupied[lowest_free]:
            lowest_free += 1
        base = lowest_free - cols_flat[a]
        if base < 0:
            base = 0
        while True:
            if base + width >= capacity:
                raise ValueError("row displacement ran out of room")
            ok = True
            for i in range(a, b):
                if occupied[base + cols_flat[i]]:
                    ok = False
                    break
            if ok:
                break
            base += 1
        for i in range(a, b):
            occupied[base + cols_flat[i]] = True
        bases[row] = base
    return bases


@functools.cache
def _compiled_first_fit():
    """:func:`_first_fit` compiled once a process, for the three tables it packs (not
    cached on disk: the generator runs rarely)."""
    from evaluator._jit import serial

    return serial(cache=False)(_first_fit)


def _displace_rows(keys: np.ndarray, values: np.ndarray, shift: int):
    """Row-displacement packing of a sparse key -> value map.

    Returns ``(offsets int32[n_rows], table uint16[size])`` with
    ``table[key + offsets[key >> shift]] == value`` for every key. Rows are placed
    densest first (ties by row number), each at the lowest base where none of its
    columns lands on a used slot.
    """
    width = 1 << shift
    order_k = np.argsort(keys, kind="stable")
    keys, values = keys[order_k], values[order_k]
    rows = keys >> shift
    n_rows = int(rows.max()) + 1
    starts = np.searchsorted(rows, np.arange(n_rows + 1)).astype(np.int64)
    sizes = np.diff(starts)
    order = np.lexsort((np.arange(n_rows), -sizes)).astype(np.int64)
    cols = (keys & (width - 1)).astype(np.int64)
    bases = _compiled_first_fit()(cols, starts, order, width, 4 * len(keys) + 4 * width)
    offsets = bases - np.arange(n_rows, dtype=np.int64) * width
    idx = keys + offsets[rows]
    table = np.zeros(int(idx.max()) + 1, dtype=np.uint16)
    table[idx] = values
    return offsets.astype(np.int32), table


def build_tables() -> dict[str, np.ndarray]:
    """Build every table; returns name -> array (the contents of ``tables.npz``)."""
    classes = all_five_card_classes()
    assert len(classes) == 7462
    strength_of = {c: i + 1 for i, c in enumerate(classes)}

    mults = find_rank_multipliers()
    multisets = [m for m in _rank_multisets() if 5 <= sum(m) <= MAX_CARDS]
    keys = np.array([sum(k * mults[r] for r, k in enumerate(m)) for m in multisets],
                    dtype=np.int64)
    values = np.array([strength_of[best_class_from_counts(m)] for m in multisets],
                      dtype=np.uint16)
    assert len(np.unique(keys)) == len(keys)
    offsets, rank_table = _displace_rows(keys, values, ROW_SHIFT)

    flush = np.zeros(1 << N_RANKS, dtype=np.uint16)
    for rank_set in range(1 << N_RANKS):
        if bin(rank_set).count("1") >= 5:
            flush[rank_set] = strength_of[best_flush_class(rank_set)]

    # category boundaries: first strength of each category (index 9 = 7463)
    cat_start = np.zeros(10, dtype=np.int32)
    for cat in range(9):
        cat_start[cat] = min(strength_of[c] for c in classes if c[0] == cat)
    cat_start[9] = 7463

    card_key = np.zeros(52, dtype=np.int64)
    card_mask = np.zeros(52, dtype=np.int64)
    for card in range(52):
        r, s = card >> 2, card & 3
        card_key[card] = mults[r] + (1 << (32 + 4 * s))
        card_mask[card] = 1 << (16 * s + r)

    # class tuples (category, up to 5 tiebreak ranks, -1 padded) for describe()
    class_info = np.full((7463, 6), -1, dtype=np.int8)
    for c, s in strength_of.items():
        class_info[s, : len(c)] = c

    scales = {}
    for game in SCALES[1:]:
        scales.update({f"{game}__{k}": v for k, v in
                       _scale_tables(game, mults, multisets, keys).items()})
    return {
        **scales,
        "rank_multipliers": np.array(mults, dtype=np.int64),
        "card_key": card_key,
        "card_mask": card_mask,
        "row_offsets": offsets,
        "rank_table": rank_table,
        "flush_table": flush,
        "category_start": cat_start,
        "class_info": class_info,
        "meta": np.array([ROW_SHIFT, KEY_INIT], dtype=np.int64),
    }


def _scale_tables(game: str, mults: list[int], multisets: list[tuple[int, ...]],
                  keys: np.ndarray) -> dict[str, np.ndarray]:
    """The tables of one short-deck scale: ``row_offsets``, ``rank_table``, ``flush_table``
    and ``class_info`` (as for Hold'em, over the multisets and rank sets of its deck)."""
    classes = all_five_card_classes(game)
    strength_of = {c: i + 1 for i, c in enumerate(classes)}
    low = LOWEST_RANK[game]
    mine = [i for i, m in enumerate(multisets) if not any(m[:low])]
    values = np.array([strength_of[best_class_from_counts(multisets[i], game)] for i in mine],
                      dtype=np.uint16)
    offsets, rank_table = _displace_rows(keys[mine], values, ROW_SHIFT)
    flush = np.zeros(1 << N_RANKS, dtype=np.uint16)
    for rank_set in range(1 << N_RANKS):
        if bin(rank_set).count("1") >= 5 and not rank_set & ((1 << low) - 1):
            flush[rank_set] = strength_of[best_flush_class(rank_set, game)]
    class_info = np.full((len(classes) + 1, 6), -1, dtype=np.int8)
    for c, s in strength_of.items():
        class_info[s, : len(c)] = c
    return {"row_offsets": offsets, "rank_table": rank_table, "flush_table": flush,
            "class_info": class_info}


def tables_digest(tables: dict[str, np.ndarray]) -> str:
    """SHA-256 over the arrays' names, dtypes, shapes and bytes (format-independent)."""
    h = hashlib.sha256()
    for name in sorted(tables):
        a = np.ascontiguousarray(tables[name])
        h.update(f"{name}:{a.dtype.str}:{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def write_tables(path: Path) -> dict[str, np.ndarray]:
    tables = build_tables()
    buf = io.BytesIO()
    np.savez_compressed(buf, **tables)
    path.write_bytes(buf.getvalue())
    return tables


DATA_DIR = Path(__file__).resolve().parent.parent / "data"

if __name__ == "__main__":
    out = DATA_DIR / "tables.npz"
    t = write_tables(out)
    total = sum(a.nbytes for a in t.values())
    print(f"wrote {out} ({out.stat().st_size} bytes on disk, {total} bytes in memory)")
    print("multipliers:", t["rank_multipliers"].tolist())
    print("rank table:", t["rank_table"].size, "rows:", t["row_offsets"].size)
    print("digest:", tables_digest(t))
