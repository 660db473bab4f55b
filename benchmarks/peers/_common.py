"""What every peer adapter shares: the peer keys and their availability, our card encoding
(``4 * rank + suit``) to text and back, :data:`Cards` (what the equity adapters take for a
board or dead cards), the evaluator and equity answer types, and order comparison of score
arrays."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from itertools import starmap
from typing import Any

import numpy as np

RANKS = "23456789TJQKA"


SUITS = "cdhs"


#: Text of each card id, ``CARD_NAMES[4 * rank + suit]``.
CARD_NAMES: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)


#: Some cards as the equity adapters take them (a board, dead cards): text or our card ids.
Cards = str | Sequence[int]


#: Every peer key this module knows, fastest evaluators first.
PEERS: tuple[str, ...] = (
    "ompeval",
    "phevaluator",
    "eval7",
    "poker_equity",
    "treys",
    "pokerkit",
    "pokerfast_py",
)


_MODULES = {
    "ompeval": "pokerfast.equity",
    "phevaluator": "phevaluator",
    "eval7": "eval7",
    "poker_equity": "poker_equity",
    "treys": "treys",
    "pokerkit": "pokerkit",
    "pokerfast_py": "pokerfast",
}


class PeerUnavailable(ImportError):
    """The peer library is not installed (or its native part does not load)."""


class PeerUnsupported(RuntimeError):
    """The peer cannot answer this question (wrong game, too many players, too big to walk...)."""


_AVAILABLE: dict[str, bool] = {}


def import_peer(peer: str) -> Any:
    """Import and return the peer's module, or raise :class:`PeerUnavailable`."""
    import importlib

    if peer not in _MODULES:
        raise ValueError(f"unknown peer {peer!r}; one of {', '.join(PEERS)}")
    try:
        mod = importlib.import_module(_MODULES[peer])
    except Exception as exc:  # ImportError, or a native library failing to load
        raise PeerUnavailable(f"{peer}: cannot import {_MODULES[peer]}: {exc}") from exc
    if peer == "ompeval" and not mod.available():
        raise PeerUnavailable("ompeval: pokerfast is installed without its OMPEval library")
    return mod


def available(peer: str) -> bool:
    """True if ``peer`` (a key of :data:`PEERS`) imports and works here. Cached."""
    if peer not in _AVAILABLE:
        try:
            import_peer(peer)
            _AVAILABLE[peer] = True
        except PeerUnavailable:
            _AVAILABLE[peer] = False
    return _AVAILABLE[peer]


def available_peers() -> list[str]:
    """The keys of :data:`PEERS` that are importable here, in :data:`PEERS` order."""
    return [p for p in PEERS if available(p)]


_RANK_OF = {c: i for i, c in enumerate(RANKS)}
_RANK_OF.update({c.lower(): i for c, i in list(_RANK_OF.items())})
_SUIT_OF = {"c": 0, "d": 1, "h": 2, "s": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3}
_SUIT_OF.update({c.upper(): i for c, i in list(_SUIT_OF.items()) if c.isascii()})
_CARD_RE = re.compile(r"(10|[2-9TJQKAtjqka])([cdhsCDHS♣♦♥♠])")


def parse_cards(cards: str | Sequence[int] | np.ndarray) -> np.ndarray:
    """Cards as ``ndarray[k] uint8`` of our ids.

    ``cards`` is text (``"AhKh"``, ``"Ah Kh"``, ``"10h, 9s"``, ``"A♥K♥"``; empty is no cards) or
    a sequence of ids. Raises ``ValueError`` on a bad card or a repeat.
    """
    if isinstance(cards, str):
        text = re.sub(r"[\s,]+", "", cards)
        pos, ids = 0, []
        for m in _CARD_RE.finditer(text):
            if m.start() != pos:
                break
            ids.append(
                4 * (8 if m.group(1) == "10" else _RANK_OF[m.group(1)]) + _SUIT_OF[m.group(2)]
            )
            pos = m.end()
        if pos != len(text):
            raise ValueError(f"bad card text {cards!r}")
        arr = np.array(ids, dtype=np.uint8)
    else:
        arr = np.asarray(cards, dtype=np.int64).reshape(-1)
        if arr.size and (arr.min() < 0 or arr.max() > 51):
            raise ValueError(f"card ids must be 0..51, got {cards!r}")
        arr = arr.astype(np.uint8)
    if len(set(arr.tolist())) != arr.size:
        raise ValueError(f"repeated card in {cards!r}")
    return arr


def cards_text(cards: str | Sequence[int] | np.ndarray) -> str:
    """Canonical text of some cards, concatenated: ``"AhKh"`` (``""`` for none)."""
    return "".join(CARD_NAMES[c] for c in parse_cards(cards).tolist())


def mask(ids: Iterable[int]) -> int:
    m = 0
    for c in ids:
        m |= 1 << int(c)
    return m


def random_hands(n: int, k: int = 7, seed: int = 12345) -> np.ndarray:
    """``ndarray[n, k] uint8``: n hands of k distinct random cards (our ids)."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, k), dtype=np.uint8)
    step = 200_000
    for lo in range(0, n, step):
        m = min(step, n - lo)
        out[lo : lo + m] = np.argsort(rng.random((m, 52)), axis=1)[:, :k]
    return out


def check_batch(cards: np.ndarray) -> np.ndarray:
    arr = np.ascontiguousarray(cards, dtype=np.uint8)
    if arr.ndim != 2 or not 5 <= arr.shape[1] <= 7:
        raise ValueError(f"cards must be ndarray[N, k] with k in 5..7, got shape {arr.shape}")
    if arr.size and arr.max() > 51:
        raise ValueError("card ids must be 0..51")
    return arr


@dataclass(frozen=True)
class PeerEvaluator:
    """How one peer evaluates a batch of 5-, 6- or 7-card hands.

    ``prepare(cards: ndarray[N, k] uint8) -> native`` converts our ids to the peer's own
    representation (do it outside the timed region); ``run(native) -> ndarray[N] int64`` scores
    every hand with the peer's fastest path. ``higher_is_better`` gives the score direction;
    ``contract`` maps a score array onto our 1..7462 scale (higher is better) where the peer's
    scores are the same 7462 classes, else ``None`` (order only). ``path`` is
    ``"native batch"``, ``"per-call Python overhead"`` or ``"pure Python"``.
    """

    peer: str
    prepare: Callable[[np.ndarray], Any]
    run: Callable[[Any], np.ndarray]
    higher_is_better: bool
    path: str
    note: str
    contract: Callable[[np.ndarray], np.ndarray] | None = None

    def scores(self, cards: np.ndarray) -> np.ndarray:
        """Raw peer scores, ``ndarray[N] int64``, for ``cards: ndarray[N, k] uint8``."""
        return self.run(self.prepare(cards))


def per_hand_evaluator(peer: str, convert: Callable[[list[int]], Any],
                       score: Callable[..., int], *, higher_is_better: bool, path: str,
                       note: str, contract: Callable[[np.ndarray], np.ndarray] | None = None,
                       spread: bool = False) -> PeerEvaluator:
    """A peer that scores one hand per call from Python: ``convert`` turns each row of our ids
    into the peer's hand (in ``prepare``, outside the timed region), and ``run`` calls
    ``score(hand)`` per hand (``score(*hand)`` with ``spread``)."""

    def prepare(cards: np.ndarray) -> list[Any]:
        return [convert(row) for row in check_batch(cards).tolist()]

    def run(prepared: list[Any]) -> np.ndarray:
        calls = starmap(score, prepared) if spread else map(score, prepared)
        return np.fromiter(calls, dtype=np.int64, count=len(prepared))

    return PeerEvaluator(peer, prepare, run, higher_is_better, path, note, contract)


def dense_rank(scores: np.ndarray) -> np.ndarray:
    """Dense rank of each score (0 = smallest; equal scores share a rank), ``ndarray[N] int64``.

    Two score arrays (both oriented higher-is-better) induce the same order, ties included,
    exactly when their dense ranks are equal elementwise.
    """
    return np.unique(np.asarray(scores), return_inverse=True)[1].reshape(-1).astype(np.int64)


def same_order(a: np.ndarray, b: np.ndarray) -> bool:
    """True if ``a`` and ``b`` (``ndarray[N]``, both higher-is-better) rank the hands the same
    way, ties included."""
    return bool(np.array_equal(dense_rank(a), dense_rank(b)))


@dataclass
class PeerEquity:
    """One peer's equity answer.

    ``equities``: share of the pot per player (ties split), in the order given.
    ``samples``: deals walked (exact) or sampled, as the peer counts them (``None`` if the peer
    does not say). ``elapsed_s``: wall time of the peer call(s) alone.
    """

    peer: str
    equities: list[float]
    exact: bool
    samples: int | None
    elapsed_s: float
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Plain-dict form (JSON-ready)."""
        return asdict(self)


def is_exact_hand(spec: str, n_cards: int = 2) -> bool:
    try:
        return parse_cards(spec).size == n_cards
    except ValueError:
        return False


def norm_range(spec: str) -> str:
    return re.sub(r"\s+", "", spec)


def board_dead(board: Any, dead: Any) -> tuple[np.ndarray, np.ndarray]:
    b = parse_cards(board)
    d = parse_cards(dead)
    if b.size > 5:
        raise ValueError("a board has at most 5 cards")
    return b, d
