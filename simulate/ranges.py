"""Hold'em range syntax: parsing, expansion to weighted combos, and the 13x13 grid.

A *combo* is two distinct card ids ``(lo, hi)`` with ``lo < hi``; its index among all
1326 combos is ``combo_index(lo, hi) = hi * (hi - 1) // 2 + lo``. A :class:`Range` holds
``combos: ndarray[n, 2] uint8`` (sorted by combo index) and ``weights: ndarray[n] float64``.

Syntax (comma-separated items; spaces are ignored except inside ``top N%``)::

    AKs  AKo  AK          suited (4 combos), offsuit (12), both (16)
    QQ                    a pair (6 combos)
    TT+  A2s+  KTo+  QT+  pairs up to AA; kicker up to one below the top card
    99-66  KTs-K7s  J9-J6 spans (either order; same top card and suitedness)
    AhKh                  one exact combo
    AhKx  AxKh  AxKx      ``x`` = any suit (4, 4 and 16 combos; AxAx = AA)
    random  (or any)      all 1326 combos
    top 15%               best hands of the shipped 169-hand order, taken in order until
                          their combos reach 15% of 1326
    ITEM:0.5              a weight on one item
    (QQ+,AKs):0.5         a weight on a parenthesised group (no nesting)

When a combo is named more than once the last mention wins, so ``random,AA:0.25`` is
every hand with aces at a quarter weight. A weight of 0 removes the combos; other weights
run from ``MIN_WEIGHT`` (1e-6) to ``MAX_WEIGHT`` (1e6). One weight per item: ``AK:2:3``,
or a weighted item inside a weighted group, is an error (not a product).

Short deck (``game="short_deck"`` or ``"short_deck_triton"``): the same syntax over the 36
cards from 6 to A (``A6s+``, ``99-66``); ``random`` is its 630 combos, ``top N%`` reads the
game's own 81-class order (``data/preflop_81_<game>.csv``) and counts N% of 630, and an item
naming a rank below the six is an error naming it.
"""

from __future__ import annotations

import csv
import functools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from evaluator.cards import RANKS, SUITS, CardError, card_str

from .games import GAMES

N_COMBOS = 1326
PREFLOP_FILE = "preflop_169.csv"


def preflop_file(game: str = "holdem") -> str:
    """The shipped preflop order's file name of a Hold'em-family game: ``preflop_169.csv``,
    or (short deck) ``preflop_81_<game>.csv``."""
    return PREFLOP_FILE if game == "holdem" else f"preflop_81_{game}.csv"


def _low_rank(game: str) -> int:
    g = GAMES.get(game)
    if g is None or not g.ranges:
        raise CardError(f"ranges are for Hold'em games, not '{game}'")
    return g.low_rank


def combo_index(lo: int, hi: int) -> int:
    """Index 0..1325 of the combo of card ids ``lo < hi``."""
    if lo > hi:
        lo, hi = hi, lo
    return hi * (hi - 1) // 2 + lo


def _all_combos() -> np.ndarray:
    out = np.empty((N_COMBOS, 2), dtype=np.uint8)
    for hi in range(52):
        for lo in range(hi):
            out[combo_index(lo, hi)] = (lo, hi)
    return out


ALL_COMBOS = _all_combos()
"""``ndarray[1326, 2] uint8``: the combo of each index, ``(lo, hi)``."""


# ----------------------------------------------------------------------------- hand classes
def class_name(r1: int, r2: int, suited: bool) -> str:
    """Name of a hand class from ranks 0..12: ``AA``, ``AKs``, ``AKo``."""
    hi, lo = max(r1, r2), min(r1, r2)
    if hi == lo:
        return RANKS[hi] * 2
    return RANKS[hi] + RANKS[lo] + ("s" if suited else "o")


def combo_class(a: int, b: int) -> str:
    """Hand class name of the combo of card ids ``a``, ``b``."""
    return class_name(a >> 2, b >> 2, (a & 3) == (b & 3))


def grid_cell(a: int, b: int) -> tuple[int, int]:
    """(row, col) of a combo in the 13x13 grid: rows/cols run A..2, pairs on the diagonal,
    suited hands above it (row = high card), offsuit below it (col = high card)."""
    r1, r2 = a >> 2, b >> 2
    hi, lo = max(r1, r2), min(r1, r2)
    i, j = 12 - hi, 12 - lo
    if hi == lo or (a & 3) == (b & 3):
        return i, j
    return j, i


def grid_names() -> list[list[str]]:
    """The 13x13 grid of class names (``grid[row][col]``), ``AA`` top left."""
    g = []
    for i in range(13):
        row = []
        for j in range(13):
            ri, rj = 12 - i, 12 - j
            if i == j:
                row.append(RANKS[ri] * 2)
            elif i < j:
                row.append(RANKS[ri] + RANKS[rj] + "s")
            else:
                row.append(RANKS[rj] + RANKS[ri] + "o")
        g.append(row)
    return g


HAND_CLASSES: tuple[str, ...] = tuple(n for row in grid_names() for n in row)
"""The 169 class names in grid order (row by row)."""


def class_combo_count(name: str) -> int:
    """Combos in a class: 6 (pair), 4 (suited), 12 (offsuit)."""
    return 6 if len(name) == 2 else (4 if name[2] == "s" else 12)


@functools.lru_cache(maxsize=1)
def combo_class_index() -> np.ndarray:
    """``ndarray[1326] int16``: for each combo index, its class's position in HAND_CLASSES."""
    pos = {n: i for i, n in enumerate(HAND_CLASSES)}
    return np.array([pos[combo_class(int(a), int(b))] for a, b in ALL_COMBOS], dtype=np.int16)


def class_combos(name: str) -> list[tuple[int, int]]:
    """The combos ``(lo, hi)`` of one hand class, e.g. ``AKs``."""
    hi, lo = RANKS.index(name[0]), RANKS.index(name[1])
    out = []
    if hi == lo:
        for s1 in range(4):
            for s2 in range(s1 + 1, 4):
                out.append((4 * hi + s1, 4 * hi + s2))
        return out
    suited = name[2] == "s"
    for s1 in range(4):
        for s2 in range(4):
            if (s1 == s2) == suited:
                out.append(tuple(sorted((4 * hi + s1, 4 * lo + s2))))
    return out


# ----------------------------------------------------------------------------- ranges
@dataclass
class Range:
    """A weighted set of combos. ``combos``: uint8[n, 2] (lo, hi), sorted by combo index;
    ``weights``: float64[n] (> 0); ``text``: the range as given."""

    text: str
    combos: np.ndarray
    weights: np.ndarray

    def __len__(self) -> int:
        return int(self.combos.shape[0])

    @property
    def indices(self) -> np.ndarray:
        """``ndarray[n] int64``: combo index of each combo."""
        c = self.combos.astype(np.int64)
        return c[:, 1] * (c[:, 1] - 1) // 2 + c[:, 0]

    def dense(self) -> np.ndarray:
        """``ndarray[1326] float64``: the weight of every combo index (0 when absent)."""
        w = np.zeros(N_COMBOS)
        w[self.indices] = self.weights
        return w

    def without(self, cards: list[int] | set[int]) -> Range:
        """The range less every combo holding one of ``cards``."""
        if not cards:
            return self
        bad = np.zeros(52, dtype=bool)
        bad[list(cards)] = True
        keep = ~(bad[self.combos[:, 0]] | bad[self.combos[:, 1]])
        return Range(self.text, self.combos[keep], self.weights[keep])

    def is_uniform_full(self, n_live_cards: int) -> bool:
        """True if this range holds every combo of ``n_live_cards`` cards with one weight
        (call on a range already stripped of board and dead cards)."""
        n = len(self)
        return (n == n_live_cards * (n_live_cards - 1) // 2 and n > 0
                and bool(np.all(self.weights == self.weights[0])))

    def combo_texts(self) -> list[str]:
        return [card_str(b) + card_str(a) for a, b in self.combos]

    def class_weights(self) -> dict[str, float]:
        """Total weight per hand class present."""
        out: dict[str, float] = {}
        for (a, b), w in zip(self.combos.tolist(), self.weights.tolist(), strict=True):
            n = combo_class(a, b)
            out[n] = out.get(n, 0.0) + w
        return out


def _err(item: str) -> CardError:
    return CardError(f"'{item}' is not a hand or range")


_SUIT_SYMBOLS = str.maketrans("\u2663\u2666\u2665\u2660", "cdhs")  # the card suit symbols
_RANK_RE = "[2-9TJQKA]"
_CLASS = re.compile(rf"^({_RANK_RE})({_RANK_RE})([SO]?)$")
_CLASS_PLUS = re.compile(rf"^({_RANK_RE})({_RANK_RE})([SO]?)\+$")
_CLASS_SPAN = re.compile(rf"^({_RANK_RE})({_RANK_RE})([SO]?)-({_RANK_RE})({_RANK_RE})([SO]?)$")
_EXACT = re.compile(rf"^({_RANK_RE})([CDHSX])({_RANK_RE})([CDHSX])$")
_TOP = re.compile(r"^TOP\s*(\d+(?:\.\d+)?)\s*%$")


def _kinds(suffix: str) -> tuple[bool, ...]:
    """Suitedness values a suffix allows: 's' -> (True,), 'o' -> (False,), '' -> both."""
    return {"S": (True,), "O": (False,), "": (True, False)}[suffix]


def _class_cards(hi: int, lo: int, suffix: str) -> list[tuple[int, int]]:
    if hi == lo:
        return class_combos(RANKS[hi] * 2)
    out = []
    for suited in _kinds(suffix):
        out += class_combos(RANKS[hi] + RANKS[lo] + ("s" if suited else "o"))
    return out


def _expand_item(item: str, game: str = "holdem") -> list[tuple[int, int]]:
    """The combos of one item without its weight (raises CardError); in short deck an item
    naming a rank below the six is an error."""
    low = _low_rank(game)
    s = re.sub(r"\s+", " ", item.strip()).translate(_SUIT_SYMBOLS).upper()
    if s in ("RANDOM", "ANY", "ALL"):
        return [tuple(c) for c in ALL_COMBOS.tolist() if c[0] >> 2 >= low]
    m = _TOP.match(s)
    if m:
        return _top_combos(float(m.group(1)), item, game)
    combos = _expand_cards(item, s)
    bad = min(lo >> 2 for lo, _ in combos)
    if bad < low:
        raise CardError(f"'{item.strip()}' holds a {RANKS[bad]}, which is not in "
                        f"{GAMES[game].deck_text}")
    return combos


def _expand_cards(item: str, s: str) -> list[tuple[int, int]]:
    """The combos of one class, span or exact item (``s``: ``item`` normalised)."""
    raw = item
    s = s.replace(" ", "").replace("10", "T")
    m = _CLASS.match(s)
    if m:
        r1, r2 = RANKS.index(m.group(1)), RANKS.index(m.group(2))
        if (r1 == r2 and m.group(3)) or r1 < r2:
            raise _err(raw)
        return _class_cards(r1, r2, m.group(3))
    m = _CLASS_PLUS.match(s)
    if m:
        r1, r2 = RANKS.index(m.group(1)), RANKS.index(m.group(2))
        if r1 == r2:
            if m.group(3):
                raise _err(raw)
            return [c for r in range(r1, 13) for c in _class_cards(r, r, "")]
        if r1 < r2:
            raise _err(raw)
        return [c for k in range(r2, r1) for c in _class_cards(r1, k, m.group(3))]
    m = _CLASS_SPAN.match(s)
    if m:
        a1, a2, sa, b1, b2, sb = m.groups()
        a1, a2, b1, b2 = (RANKS.index(x) for x in (a1, a2, b1, b2))
        if sa != sb:
            raise _err(raw)
        if a1 == a2 and b1 == b2 and not sa:
            lo, hi = sorted((a1, b1))
            return [c for r in range(lo, hi + 1) for c in _class_cards(r, r, "")]
        if a1 != b1 or a2 >= a1 or b2 >= b1:
            raise _err(raw)
        lo, hi = sorted((a2, b2))
        return [c for k in range(lo, hi + 1) for c in _class_cards(a1, k, sa)]
    m = _EXACT.match(s)
    if m:
        r1, s1, r2, s2 = m.groups()
        r1, r2 = RANKS.index(r1), RANKS.index(r2)
        suits1 = range(4) if s1 == "X" else [SUITS.index(s1.lower())]
        suits2 = range(4) if s2 == "X" else [SUITS.index(s2.lower())]
        out = set()
        for u in suits1:
            for v in suits2:
                a, b = 4 * r1 + u, 4 * r2 + v
                if a != b:
                    out.add((min(a, b), max(a, b)))
        if not out:
            raise _err(raw)
        return sorted(out)
    raise _err(raw)


def _split_top(text: str) -> list[str]:
    """Split on commas that are not inside parentheses."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
            if depth > 1:
                raise CardError(f"'{text.strip()}': nested parentheses are not allowed")
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise CardError(f"'{text.strip()}': unbalanced parentheses")
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if depth != 0:
        raise CardError(f"'{text.strip()}': unbalanced parentheses")
    parts.append("".join(cur))
    return parts


MAX_WEIGHT = 1e6
"""The largest weight: the engines multiply one weight per player (ten at most) and add
them over every deal, which must stay a finite float64 (and, for whole weights, inside
int64 where all-in EVs are exact fractions)."""
MIN_WEIGHT = 1e-6
"""The smallest positive weight (0 removes combos); smaller ones underflow those products."""


def _weight(text: str, item: str, part: str) -> float:
    """The weight ``text`` given to ``item`` (within ``part``, for messages)."""
    if ":" in text:
        raise CardError(f"'{part}' has more than one weight (give one: '{item}:W')")
    try:
        weight = float(text)
    except ValueError:
        raise CardError(f"'{text.strip()}' in '{part}' is not a weight") from None
    if not math.isfinite(weight) or weight < 0:
        raise CardError(f"weight {text.strip()} for '{item}' must be a finite number >= 0")
    if weight > MAX_WEIGHT:
        raise CardError(f"weight {text.strip()} for '{item}' is too large "
                        f"(at most {MAX_WEIGHT:g})")
    if 0 < weight < MIN_WEIGHT:
        raise CardError(f"weight {text.strip()} for '{item}' is too small (at least "
                        f"{MIN_WEIGHT:g}, or 0 to remove the combos)")
    return weight


def _split_weight(part: str) -> tuple[str, float | None]:
    """``(item, weight)`` of ``ITEM`` or ``ITEM:W`` (weight None when there is none). One
    weight per item: ``AK:2:3`` is an error, not a product."""
    item, sep, w = part.strip().partition(":")
    if not sep:
        return item, None
    return item.strip(), _weight(w, item.strip(), part.strip())


def parse_range(text: str, *, game: str = "holdem") -> Range:
    """Expand range text (see the module docstring) to a :class:`Range` of ``game``
    (``holdem`` or a short deck: its 36 cards only).

    Raises :class:`CardError` (a ValueError) with a one-line message, e.g.
    ``'AKx' is not a hand or range``, or ``range '...' has no combos``.

    The expansion of a text is kept (the last 256 texts): a range such as ``random`` costs
    about half a millisecond to expand, a good part of a flop spot's exact walk; each call
    returns its own arrays.
    """
    if not isinstance(text, str):
        raise CardError(f"{text!r} is not a hand or range")
    idx, weights = _expanded(text, game)
    return Range(text.strip(), ALL_COMBOS[idx], weights.copy())


@functools.lru_cache(maxsize=256)
def _expanded(text: str, game: str) -> tuple[np.ndarray, np.ndarray]:
    """:func:`parse_range`'s expansion of ``text``: the combo indices (int64[n], sorted)
    and their weights (float64[n]); callers copy before handing them out."""
    _low_rank(game)
    weights: dict[int, float] = {}
    for part in _split_top(text):
        if not part.strip():
            continue
        stripped = part.strip()
        if stripped.startswith("("):  # a group: (ITEM,ITEM...) or (ITEM,ITEM...):W
            inner, close, after = stripped[1:].partition(")")
            if not close or (after.strip() and not after.strip().startswith(":")):
                raise _err(stripped)
            group = f"({inner})"
            w = _weight(after.strip()[1:], group, stripped) if after.strip() else None
            items = [x for x in inner.split(",") if x.strip()]
            if not items:
                raise _err(stripped)
        else:
            if ")" in stripped:
                raise _err(stripped)
            w, items = None, [part]  # the item's own weight is read below
        for it in items:
            it_body, it_w = _split_weight(it)
            if it_w is not None and w is not None:
                raise CardError(f"'{it.strip()}' has a weight inside the weighted group "
                                f"'{part.strip()}' (weight the item or the group, not both)")
            weight = next((x for x in (it_w, w) if x is not None), 1.0)
            for lo, hi in _expand_item(it_body, game):
                weights[combo_index(lo, hi)] = weight
    idx = np.array(sorted(k for k, v in weights.items() if v > 0), dtype=np.int64)
    if idx.size == 0:
        raise CardError(f"range '{text.strip()}' has no combos")
    idx.flags.writeable = False
    w = np.array([weights[i] for i in idx], dtype=np.float64)
    w.flags.writeable = False
    return idx, w


# ----------------------------------------------------------------------------- top N%
def _data_path(name: str = PREFLOP_FILE) -> Path:
    return Path(__file__).resolve().parent.parent / "data" / name


@functools.cache
def preflop_order(game: str = "holdem") -> list[tuple[str, float, int]]:
    """The shipped 169-hand order ``[(hand, equity, rank)...]``, best first
    (``data/preflop_169.csv``, written by ``python -m simulate.preflop_order``); short deck:
    its 81 classes in its own order (:func:`preflop_file`)."""
    _low_rank(game)
    name = preflop_file(game)
    try:
        text = resources.files("pokerjit_data").joinpath(name).read_text()
    except (ModuleNotFoundError, FileNotFoundError):
        text = _data_path(name).read_text()
    rows = [(r["hand"], float(r["equity"]), int(r["rank"]))
            for r in csv.DictReader(text.splitlines())]
    rows.sort(key=lambda r: r[2])
    return rows


def top_classes(percent: float, game: str = "holdem") -> list[str]:
    """Hand classes of ``top percent%``: classes in order until their combos reach
    ``percent`` % of 1326 (short deck: of 630; the last class may overshoot)."""
    n = GAMES[game].deck_size
    need = percent / 100.0 * (n * (n - 1) // 2)
    out, total = [], 0
    for hand, _, _ in preflop_order(game):
        if total >= need - 1e-9:
            break
        out.append(hand)
        total += class_combo_count(hand)
    return out


def _top_combos(percent: float, raw: str, game: str = "holdem") -> list[tuple[int, int]]:
    if not 0 <= percent <= 100:
        raise CardError(f"'{raw.strip()}': the percentage must be between 0 and 100")
    return [c for n in top_classes(percent, game) for c in class_combos(n)]


def range_text(freq: Sequence[float] | np.ndarray, *, full: float = 0.995,
               none: float = 0.005) -> str:
    """Range text of per-class frequencies (``freq`` float[169], in :data:`HAND_CLASSES`
    order): classes played at least ``full`` of the time joined into runs (``22+``,
    ``TT-55``, ``A2s+``, ``K9o-K6o``), those between ``none`` and ``full`` as weighted
    classes (``AJo:0.43``); :func:`parse_range` reads it back. ``""`` for an empty range."""
    pos = {c: i for i, c in enumerate(HAND_CLASSES)}

    def f(name: str) -> float:
        return float(freq[pos[name]])

    parts: list[str] = []
    mixed: list[str] = []

    def runs(names: list[str], top: str | None) -> None:
        """``names`` best first; a run starting at ``top`` is written with ``+``."""
        i = 0
        while i < len(names):
            if f(names[i]) < full:
                if f(names[i]) > none:
                    mixed.append(f"{names[i]}:{f(names[i]):.2f}")
                i += 1
                continue
            j = i
            while j + 1 < len(names) and f(names[j + 1]) >= full:
                j += 1
            if j == i:
                parts.append(names[i])
            elif names[i] == top:
                parts.append(names[j] + "+")
            else:
                parts.append(f"{names[i]}-{names[j]}")
            i = j + 1

    runs([r * 2 for r in reversed(RANKS)], "AA")
    for hi in range(12, 0, -1):
        for kind in "so":
            names = [RANKS[hi] + RANKS[lo] + kind for lo in range(hi - 1, -1, -1)]
            runs(names, names[0])
    return ",".join(parts + mixed)
