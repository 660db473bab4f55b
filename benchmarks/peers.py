"""Adapters that run the same poker work through other libraries ("peers").

The benchmarks, the differential tests and ``pokerjit bench --peers`` use this module to feed
inputs in *our* encoding (card id = ``4 * rank + suit``, rank 0..12 for 2..A, suit 0..3 for
c, d, h, s; arrays of cards are ``numpy.uint8``) to each peer's public API, and to read the
answers back in a comparable form.

Every peer is imported lazily inside the functions, so this module imports with numpy alone;
ask :func:`available` / :func:`available_peers` before using one. A peer that is missing raises
:class:`PeerUnavailable`; a question a peer cannot answer raises :class:`PeerUnsupported`.

Peers (keys used throughout):

``ompeval``
    OMPEval (C++), as compiled into the ``pokerfast`` wheel and loaded with ctypes. Evaluation
    is a native batch (one C call for the whole array). Equity: exact enumeration or Monte Carlo,
    hands or ranges (OMPEval syntax, ``random`` allowed), at most 6 players, ``threads=1`` forces
    one thread (``0`` = every core). Monte Carlo cannot be asked for a sample count, only for a
    standard error or a time limit (checked every ~0.2 s); the number of deals it did is returned.
    Scores: higher is better, only the order means anything (not 1..7462).
``phevaluator``
    PH Evaluator (C). One C call per hand from a Python loop (per-call Python overhead).
    Ranks 1..7462, *lower* is better, the same classes as ours: ours = 7463 - rank.
    Also ``evaluate_omaha_cards`` for Omaha (board first, then the four hole cards).
``eval7``
    Cython. ``eval7.evaluate`` per hand from a Python loop (per-call overhead). Higher is better,
    order only. Equity: heads-up only, hero an exact hand, villain a hand or an unweighted range.
    ``py_hand_vs_range_monte_carlo`` is native Monte Carlo (always one thread, no seed, no dead
    cards; villain combos are cycled in order rather than drawn). ``py_hand_vs_range_exact`` is
    only exact on a *complete five-card board* (it does not enumerate runouts; before the river it
    returns nonsense, e.g. 0.0 for AhKh vs QsQd preflop), so :func:`eval7_equity_exact` walks
    the runouts in Python and calls it once per full board.
``poker_equity``
    Rust. ``score_batch("high", [...])`` is a native batch over card strings; scores 0..7461,
    *lower* is better: ours = 7462 - score. Equity for fifteen games (``holdem``, ``omaha``, ...):
    ``exact_from_text`` (single-threaded; returns ``None`` -- here :class:`PeerUnsupported` -- when
    the walk is too big, e.g. AKs vs random preflop, after spending seconds deciding so) and
    ``chunk_from_text`` (Monte Carlo with an exact sample count, ``seed`` and ``threads``; ``0`` =
    ``default_thread_count()``, 4 per its README, 2 on a 2-core box). Ranges only for two-card
    hands; ``random`` is written ``**``.
``treys``
    Pure Python Cactus-Kev (21 five-card lookups for 7 cards). Ranks 1..7462, *lower* is better:
    ours = 7463 - rank.
``pokerkit``
    Pure Python. ``StandardHighHand.from_game(...).entry.index`` is 0..7461, higher is better:
    ours = index + 1. ``OmahaHoldemHand`` for Omaha. Equity only by its Python Monte Carlo
    (``calculate_equities``, single process unless given an executor); no exact mode here.
``pokerfast_py``
    ``pokerfast.eval7``: a pure-Python table-driven 7-card evaluator (not the ``eval7`` package).
    Higher is better, order only.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import math
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from itertools import combinations, islice, starmap
from typing import Any

import numpy as np

__all__ = [
    "PEERS",
    "CARD_NAMES",
    "PeerUnavailable",
    "PeerUnsupported",
    "PeerEvaluator",
    "PeerEquity",
    "EQUITY_SUPPORT",
    "available",
    "available_peers",
    "parse_cards",
    "cards_text",
    "random_hands",
    "evaluator",
    "evaluators",
    "peer_scores",
    "peer_strengths",
    "peer_contract_strengths",
    "dense_rank",
    "same_order",
    "ompeval_equity",
    "ompeval_equity_vs_random",
    "poker_equity_exact",
    "poker_equity_monte_carlo",
    "eval7_equity_exact",
    "eval7_equity_monte_carlo",
    "eval7_range_equity_exact",
    "eval7_range_equity_monte_carlo",
    "pokerkit_equity_monte_carlo",
    "exact_equity",
    "monte_carlo_equity",
    "range_equity",
    "omaha_strength_phevaluator",
    "omaha_strengths_phevaluator",
    "omaha_strength_pokerkit",
    "omaha_strengths_pokerkit",
    "bench_batch_eval",
    "baseline",
    "sanity_checks",
    "format_rows",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
#: Text of each card id, ``CARD_NAMES[4 * rank + suit]``.
CARD_NAMES: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)

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


# --------------------------------------------------------------------------- availability
_AVAILABLE: dict[str, bool] = {}


def _import(peer: str) -> Any:
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
            _import(peer)
            _AVAILABLE[peer] = True
        except PeerUnavailable:
            _AVAILABLE[peer] = False
    return _AVAILABLE[peer]


def available_peers() -> list[str]:
    """The keys of :data:`PEERS` that are importable here, in :data:`PEERS` order."""
    return [p for p in PEERS if available(p)]


# --------------------------------------------------------------------------- cards
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


def _mask(ids: Iterable[int]) -> int:
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


def _check_batch(cards: np.ndarray) -> np.ndarray:
    arr = np.ascontiguousarray(cards, dtype=np.uint8)
    if arr.ndim != 2 or not 5 <= arr.shape[1] <= 7:
        raise ValueError(f"cards must be ndarray[N, k] with k in 5..7, got shape {arr.shape}")
    if arr.size and arr.max() > 51:
        raise ValueError("card ids must be 0..51")
    return arr


# --------------------------------------------------------------------------- OMPEval handle
_OMP: Any = None
# OMPEval's own card index is 4 * rank + suit with suits ordered s, h, c, d.
_OMP_SUIT = np.array([2, 3, 1, 0], dtype=np.uint8)
_OMP_ERRORS = {-1: "malformed arguments", -2: "no valid deal", -3: "internal error"}


def _omp() -> Any:
    """ctypes handle on pokerfast's OMPEval library (its plain C ABI), with argtypes set.

    pokerfast's public ``equity.equity`` drops the number of deals OMPEval did and its
    ``equity.evaluate`` only takes card text, so we call the same exported C functions
    directly (after ``pokerfast.equity.available()`` has loaded and initialised the library).
    """
    global _OMP
    if _OMP is None:
        mod = _import("ompeval")
        lib = ctypes.CDLL(mod.find_library())
        lib.pf_evaluate.restype = ctypes.c_int
        lib.pf_evaluate.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_void_p]
        lib.pf_equity.restype = ctypes.c_int
        lib.pf_equity.argtypes = [
            ctypes.POINTER(ctypes.c_char_p),
            ctypes.c_uint,
            ctypes.c_char_p,
            ctypes.c_char_p,
            ctypes.c_int,
            ctypes.c_double,
            ctypes.c_uint,
            ctypes.c_double,
            ctypes.POINTER(ctypes.c_double),
            ctypes.POINTER(ctypes.c_uint64),
        ]
        _OMP = lib
    return _OMP


# --------------------------------------------------------------------------- evaluation
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


def _ompeval_evaluator() -> PeerEvaluator:
    lib = _omp()

    def prepare(cards: np.ndarray) -> tuple[np.ndarray, int, int]:
        arr = _check_batch(cards)
        omp = np.ascontiguousarray(4 * (arr >> 2) + _OMP_SUIT[arr & 3], dtype=np.uint8)
        return omp, arr.shape[0], arr.shape[1]

    def run(prepared: tuple[np.ndarray, int, int]) -> np.ndarray:
        buf, n, k = prepared
        out = np.empty(n, dtype=np.uint16)
        if n:
            rc = lib.pf_evaluate(buf.ctypes.data, n, k, out.ctypes.data)
            if rc != 0:
                raise RuntimeError(f"OMPEval pf_evaluate: {_OMP_ERRORS.get(rc, rc)}")
        return out.astype(np.int64)

    return PeerEvaluator(
        "ompeval",
        prepare,
        run,
        True,
        "native batch",
        "pokerfast's OMPEval C ABI (pf_evaluate): one call for all N hands; higher is better, "
        "order only (values are category*4096 + ..., not 1..7462)",
    )


def _phevaluator_evaluator() -> PeerEvaluator:
    ph = _import("phevaluator")
    try:  # the C extension behind the public wrappers; skips their per-card Card.to_id
        from phevaluator import _pheval as native

        fns = {5: native.evaluate_5cards, 6: native.evaluate_6cards, 7: native.evaluate_7cards}
        how = "phevaluator._pheval.evaluate_{k}cards (C) called per hand"
    except ImportError:
        fns = {5: ph.evaluate_5cards, 6: ph.evaluate_6cards, 7: ph.evaluate_7cards}
        how = "phevaluator.evaluate_{k}cards called per hand"

    def prepare(cards: np.ndarray) -> tuple[list[list[int]], int]:
        arr = _check_batch(cards)
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


def _eval7_evaluator() -> PeerEvaluator:
    e7 = _import("eval7")
    table = [e7.Card(n) for n in CARD_NAMES]

    def prepare(cards: np.ndarray) -> list[list[Any]]:
        arr = _check_batch(cards)
        return [[table[c] for c in row] for row in arr.tolist()]

    def run(prepared: list[list[Any]]) -> np.ndarray:
        return np.fromiter(map(e7.evaluate, prepared), dtype=np.int64, count=len(prepared))

    return PeerEvaluator(
        "eval7",
        prepare,
        run,
        True,
        "per-call Python overhead",
        "eval7.evaluate(list of eval7.Card) per hand; higher is better, order only",
    )


def _poker_equity_evaluator() -> PeerEvaluator:
    pe = _import("poker_equity")

    def prepare(cards: np.ndarray) -> list[str]:
        arr = _check_batch(cards)
        return ["".join(CARD_NAMES[c] for c in row) for row in arr.tolist()]

    def run(prepared: list[str]) -> np.ndarray:
        return np.asarray(pe.score_batch("high", prepared), dtype=np.int64)

    return PeerEvaluator(
        "poker_equity",
        prepare,
        run,
        False,
        "native batch",
        "poker_equity.score_batch('high', [card strings]) -- one call, parses text per hand; "
        "score 0..7461, lower is better (ours = 7462 - score)",
        contract=lambda s: 7462 - np.asarray(s, dtype=np.int64),
    )


_TREYS_EVAL: Any = None


def _treys_evaluator() -> PeerEvaluator:
    global _TREYS_EVAL
    treys = _import("treys")
    if _TREYS_EVAL is None:
        _TREYS_EVAL = treys.Evaluator()
    ev = _TREYS_EVAL
    table = [treys.Card.new(n) for n in CARD_NAMES]

    def prepare(cards: np.ndarray) -> list[tuple[list[int], list[int]]]:
        arr = _check_batch(cards)
        return [([table[c] for c in row[:2]], [table[c] for c in row[2:]]) for row in arr.tolist()]

    def run(prepared: list[tuple[list[int], list[int]]]) -> np.ndarray:
        return np.fromiter(starmap(ev.evaluate, prepared), dtype=np.int64, count=len(prepared))

    return PeerEvaluator(
        "treys",
        prepare,
        run,
        False,
        "pure Python",
        "treys.Evaluator().evaluate(hand, board) per hand (21 five-card lookups for 7 cards); "
        "rank 1..7462, lower is better (ours = 7463 - rank)",
        contract=lambda s: 7463 - np.asarray(s, dtype=np.int64),
    )


def _pokerkit_cards() -> list[Any]:
    pk = _import("pokerkit")
    return [next(iter(pk.Card.parse(n))) for n in CARD_NAMES]


def _pokerkit_evaluator() -> PeerEvaluator:
    pk = _import("pokerkit")
    table = _pokerkit_cards()
    from_game = pk.StandardHighHand.from_game

    def prepare(cards: np.ndarray) -> list[tuple[Any, ...]]:
        arr = _check_batch(cards)
        return [tuple(table[c] for c in row) for row in arr.tolist()]

    def run(prepared: list[tuple[Any, ...]]) -> np.ndarray:
        return np.fromiter(
            (from_game(h).entry.index for h in prepared), dtype=np.int64, count=len(prepared)
        )

    return PeerEvaluator(
        "pokerkit",
        prepare,
        run,
        True,
        "pure Python",
        "pokerkit.StandardHighHand.from_game(cards).entry.index per hand; 0..7461, higher is "
        "better (ours = index + 1)",
        contract=lambda s: np.asarray(s, dtype=np.int64) + 1,
    )


def _pokerfast_py_evaluator() -> PeerEvaluator:
    pf = _import("pokerfast_py")

    def prepare(cards: np.ndarray) -> list[tuple[str, ...]]:
        arr = _check_batch(cards)
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


_EVALUATOR_FACTORIES: dict[str, Callable[[], PeerEvaluator]] = {
    "ompeval": _ompeval_evaluator,
    "phevaluator": _phevaluator_evaluator,
    "eval7": _eval7_evaluator,
    "poker_equity": _poker_equity_evaluator,
    "treys": _treys_evaluator,
    "pokerkit": _pokerkit_evaluator,
    "pokerfast_py": _pokerfast_py_evaluator,
}
_EVALUATORS: dict[str, PeerEvaluator] = {}


def evaluator(peer: str) -> PeerEvaluator:
    """The :class:`PeerEvaluator` for ``peer``; raises :class:`PeerUnavailable` if missing."""
    if peer not in _EVALUATORS:
        if peer not in _EVALUATOR_FACTORIES:
            raise ValueError(f"unknown peer {peer!r}; one of {', '.join(PEERS)}")
        _EVALUATORS[peer] = _EVALUATOR_FACTORIES[peer]()
    return _EVALUATORS[peer]


def evaluators() -> dict[str, PeerEvaluator]:
    """Every available peer's :class:`PeerEvaluator`, keyed by peer, in :data:`PEERS` order."""
    return {p: evaluator(p) for p in available_peers()}


def peer_scores(peer: str, cards: np.ndarray) -> np.ndarray:
    """The peer's raw scores, ``ndarray[N] int64``, for ``cards: ndarray[N, k] uint8`` (k 5..7).

    Direction differs by peer: see :attr:`PeerEvaluator.higher_is_better`.
    """
    return evaluator(peer).scores(cards)


def peer_strengths(peer: str, cards: np.ndarray) -> np.ndarray:
    """Scores oriented so that higher is better (negated where the peer's lower is better).

    ``ndarray[N] int64``; compare *orders* with ours through :func:`same_order`.
    """
    ev = evaluator(peer)
    s = ev.scores(cards)
    return s if ev.higher_is_better else -s


def peer_contract_strengths(peer: str, cards: np.ndarray) -> np.ndarray:
    """The peer's answers on our 1..7462 scale (``ndarray[N] int64``), for peers whose scores
    are the same 7462 classes (phevaluator, treys, poker_equity, pokerkit); compare with
    ``evaluator.evaluate_batch`` for exact equality. Raises :class:`PeerUnsupported` otherwise.
    """
    ev = evaluator(peer)
    if ev.contract is None:
        raise PeerUnsupported(f"{peer}: scores define an order only; use peer_strengths")
    return ev.contract(ev.scores(cards))


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


# --------------------------------------------------------------------------- equity
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


def _is_exact_hand(spec: str, n_cards: int = 2) -> bool:
    try:
        return parse_cards(spec).size == n_cards
    except ValueError:
        return False


def _norm_range(spec: str) -> str:
    return re.sub(r"\s+", "", spec)


def _board_dead(board: Any, dead: Any) -> tuple[np.ndarray, np.ndarray]:
    b = parse_cards(board)
    d = parse_cards(dead)
    if b.size > 5:
        raise ValueError("a board has at most 5 cards")
    return b, d


def ompeval_equity(
    hands: Sequence[str],
    board: str | Sequence[int] = "",
    dead: str | Sequence[int] = "",
    *,
    exact: bool = True,
    stdev: float = 5e-5,
    time_limit: float = 0.0,
    threads: int = 1,
) -> PeerEquity:
    """Hold'em equity through OMPEval (pokerfast's build), 1..6 players.

    ``hands``: per player an exact hand (``"AhKh"``) or an OMPEval range (``"QQ+,AKs"``,
    ``"random"``). ``exact=True`` enumerates every deal (``threads=1``: one thread; ``0``: all
    cores). ``exact=False`` is Monte Carlo stopping when player 1's standard error is below
    ``stdev`` or after ``time_limit`` seconds (checked about every 0.2 s); OMPEval cannot be
    asked for a fixed number of samples -- ``samples`` in the result says how many it did.
    """
    lib = _omp()
    if not 1 <= len(hands) <= 6:
        raise PeerUnsupported("ompeval: 1..6 players")
    specs = [cards_text(h) if _is_exact_hand(h) else _norm_range(h) for h in hands]
    b, d = _board_dead(board, dead)
    if not exact and stdev <= 0 and time_limit <= 0:
        raise ValueError("Monte Carlo needs stdev > 0 or time_limit > 0")
    n = len(specs)
    rs = (ctypes.c_char_p * n)(*[s.encode("ascii") for s in specs])
    out = (ctypes.c_double * n)()
    count = ctypes.c_uint64()
    t0 = time.perf_counter()
    rc = lib.pf_equity(
        rs,
        n,
        cards_text(b).encode(),
        cards_text(d).encode(),
        int(bool(exact)),
        float(stdev),
        int(threads),
        float(time_limit),
        out,
        ctypes.byref(count),
    )
    dt = time.perf_counter() - t0
    if rc != 0:
        raise ValueError(f"ompeval: {_OMP_ERRORS.get(rc, rc)} for {specs} board={cards_text(b)}")
    return PeerEquity(
        "ompeval", list(out), bool(exact), int(count.value), dt, note=f"threads={threads}"
    )


def ompeval_equity_vs_random(
    queries: Sequence[tuple[str, str]],
) -> tuple[list[float], float]:
    """Exact equity of each ``(hole, board)`` against one random hand, in one native batch call
    (``pokerfast.equity.equity_vs_random_many``, single-threaded). Returns (equities, seconds).
    """
    mod = _import("ompeval")
    qs = [(cards_text(h), cards_text(b)) for h, b in queries]
    t0 = time.perf_counter()
    res = mod.equity_vs_random_many(qs)
    return list(res), time.perf_counter() - t0


def _pe_field(spec: str, game: str) -> str:
    if spec.strip().lower() == "random":
        if game not in ("holdem", "short_deck"):
            raise PeerUnsupported("poker_equity: 'random' only for two-card games")
        return "**"
    n_hole = 4 if game == "omaha" else 2
    if _is_exact_hand(spec, n_hole):
        return cards_text(spec)
    return spec  # its own notation: ranges ("QQ+,AKs"), wildcards ("A*")


def _pe_result(raw: dict[str, Any], dt: float, note: str) -> PeerEquity:
    return PeerEquity(
        "poker_equity",
        [float(p["equity"]) for p in raw["players"]],
        bool(raw["exact"]),
        int(raw["samples"]),
        dt,
        note=note,
        extra={
            "std_error": [float(p["std_error"]) for p in raw["players"]],
            "win": [float(p["win"]) for p in raw["players"]],
            "tie": [float(p["tie"]) for p in raw["players"]],
        },
    )


def poker_equity_exact(
    hands: Sequence[str],
    board: str | Sequence[int] = "",
    dead: str | Sequence[int] = "",
    *,
    game: str = "holdem",
) -> PeerEquity:
    """Exact equity through poker-equity's ``exact_from_text`` (single-threaded; no thread
    option). ``game``: ``"holdem"``, ``"omaha"`` (four-card hands) or any of
    ``poker_equity.variants()``. Raises :class:`PeerUnsupported` when it declines (returns
    ``None``: too many deals to walk -- deciding that can itself take seconds).
    """
    pe = _import("poker_equity")
    b, d = _board_dead(board, dead)
    fields = [_pe_field(h, game) for h in hands]
    t0 = time.perf_counter()
    raw = pe.exact_from_text(game, fields, cards_text(b), cards_text(d))
    dt = time.perf_counter() - t0
    if raw is None:
        raise PeerUnsupported(f"poker_equity: too many deals to walk exactly ({dt:.1f} s to say)")
    return _pe_result(raw, dt, "exact_from_text, one thread")


def poker_equity_monte_carlo(
    hands: Sequence[str],
    board: str | Sequence[int] = "",
    dead: str | Sequence[int] = "",
    *,
    samples: int = 1_000_000,
    game: str = "holdem",
    seed: int = 0,
    threads: int = 1,
) -> PeerEquity:
    """Monte Carlo equity through poker-equity's ``chunk_from_text``: exactly ``samples``
    deals, seeded, on ``threads`` threads (``1`` = one thread; ``0`` = its default,
    ``default_thread_count()``). Works for every game it knows, e.g. ``game="omaha"``.
    """
    pe = _import("poker_equity")
    b, d = _board_dead(board, dead)
    fields = [_pe_field(h, game) for h in hands]
    t0 = time.perf_counter()
    raw = pe.chunk_from_text(
        game,
        fields,
        cards_text(b),
        cards_text(d),
        samples=int(samples),
        seed=int(seed),
        threads=int(threads),
    )
    dt = time.perf_counter() - t0
    return _pe_result(raw, dt, f"chunk_from_text, threads={threads}")


# eval7 ------------------------------------------------------------------------------------
def _eval7_options(spec: str, excluded_mask: int) -> list[tuple[int, int]]:
    """Villain/hero two-card options as (id, id) pairs, unweighted, minus card conflicts."""
    if spec.strip().lower() == "random":
        combos = list(combinations(range(52), 2))
    elif _is_exact_hand(spec):
        a, b = parse_cards(spec).tolist()
        combos = [(a, b)]
    else:
        e7 = _import("eval7")
        try:
            hr = e7.HandRange(spec)
        except Exception as exc:
            raise ValueError(f"eval7 cannot parse range {spec!r}: {exc}") from exc
        seen: set[tuple[int, int]] = set()
        combos = []
        for (c1, c2), _weight in hr.hands:  # eval7 ignores weights in its equity code
            ids = tuple(sorted(parse_cards(str(c1) + str(c2)).tolist()))
            if ids not in seen:
                seen.add(ids)
                combos.append(ids)
    return [c for c in combos if not (_mask(c) & excluded_mask)]


def _eval7_walk(
    hero: tuple[int, int],
    options: list[tuple[int, int]],
    board: list[int],
    dead_mask: int,
    max_evaluations: float,
) -> tuple[int, int, int]:
    """Walk every runout; returns (points, pairs, calls) where points = 2*wins + ties over
    every (villain option, runout) pair that shares no card, and pairs counts those pairs."""
    e7 = _import("eval7")
    table = [e7.Card(n) for n in CARD_NAMES]
    hero_cards = [table[c] for c in hero]
    used = _mask(hero) | _mask(board) | dead_mask
    deck = [c for c in range(52) if not (used >> c) & 1]
    need = 5 - len(board)
    n_runouts = math.comb(len(deck), need)
    if n_runouts * max(1, len(options)) > max_evaluations:
        raise PeerUnsupported(
            f"eval7 exact: {n_runouts} runouts x {len(options)} combos is over max_evaluations"
        )
    if not options:
        return 0, 0, 0
    opt_masks = np.array([_mask(o) for o in options], dtype=np.uint64)
    opt_list = [((table[a], table[b]), 1.0) for a, b in options]
    base = [table[c] for c in board]
    bits = np.array([1 << c for c in range(52)], dtype=np.uint64)
    chunk = max(1, 2_000_000 // len(options))
    points = pairs = calls = 0
    it = combinations(deck, need)
    evaluate_exact = e7.py_hand_vs_range_exact
    while True:
        block = list(islice(it, chunk))
        if not block:
            break
        if need:
            run_masks = np.bitwise_or.reduce(bits[np.array(block, dtype=np.intp)], axis=1)
            counts = ((run_masks[:, None] & opt_masks[None, :]) == 0).sum(axis=1).tolist()
        else:
            counts = [len(options)]
        for runout, n in zip(block, counts, strict=True):
            if n == 0:
                continue
            full = base + [table[c] for c in runout]
            e = evaluate_exact(hero_cards, opt_list, full)
            points += int(round(e * n * 2))  # float32 share * n -> exact 2*wins + ties
            pairs += n
            calls += 1
    return points, pairs, calls


def eval7_equity_exact(
    hero: str,
    villain: str,
    board: str | Sequence[int] = "",
    dead: str | Sequence[int] = "",
    *,
    max_evaluations: float = 3e8,
) -> PeerEquity:
    """Heads-up exact equity through eval7: ``hero`` an exact hand, ``villain`` a hand, an
    (unweighted) eval7 range string or ``"random"``.

    eval7's ``py_hand_vs_range_exact`` only scores a *complete* board, so this walks every
    runout in Python and calls it once per runout (native loop over villain combos inside;
    Python overhead per runout: preflop hand-vs-hand is 1.7 M calls, seconds). Every
    (villain combo, runout) pair that shares no card counts once. Returns [hero, villain].
    """
    b, d = _board_dead(board, dead)
    h = parse_cards(hero)
    if h.size != 2:
        raise PeerUnsupported("eval7 exact: hero must be one exact two-card hand")
    options = _eval7_options(villain, _mask(h) | _mask(b) | _mask(d))
    t0 = time.perf_counter()
    points, pairs, calls = _eval7_walk(
        tuple(h.tolist()), options, b.tolist(), _mask(d), max_evaluations
    )
    dt = time.perf_counter() - t0
    if pairs == 0:
        raise ValueError("eval7 exact: no valid deal")
    eq = points / (2 * pairs)
    return PeerEquity(
        "eval7",
        [eq, 1.0 - eq],
        True,
        pairs,
        dt,
        note=f"py_hand_vs_range_exact once per runout ({calls} calls)",
    )


def eval7_range_equity_exact(
    hero_range: str,
    villain_range: str,
    board: str | Sequence[int] = "",
    dead: str | Sequence[int] = "",
    *,
    max_evaluations: float = 3e8,
) -> PeerEquity:
    """Heads-up exact range-vs-range equity through eval7 (unweighted ranges): the walk of
    :func:`eval7_equity_exact` for every hero combo, pooled over every non-conflicting
    (hero combo, villain combo, runout). Fine on a flop or later; far too slow preflop.
    """
    b, d = _board_dead(board, dead)
    used = _mask(b) | _mask(d)
    heroes = _eval7_options(hero_range, used)
    t0 = time.perf_counter()
    points = pairs = calls = 0
    budget = max_evaluations
    for hc in heroes:
        options = _eval7_options(villain_range, used | _mask(hc))
        p, n, c = _eval7_walk(hc, options, b.tolist(), _mask(d), budget)
        points, pairs, calls = points + p, pairs + n, calls + c
    dt = time.perf_counter() - t0
    if pairs == 0:
        raise ValueError("eval7 exact: no valid deal")
    eq = points / (2 * pairs)
    return PeerEquity(
        "eval7",
        [eq, 1.0 - eq],
        True,
        pairs,
        dt,
        note=f"{len(heroes)} hero combos, {calls} py_hand_vs_range_exact calls",
    )


def eval7_equity_monte_carlo(
    hero: str,
    villain: str,
    board: str | Sequence[int] = "",
    *,
    iterations: int = 1_000_000,
) -> PeerEquity:
    """Heads-up Monte Carlo through eval7's native ``py_hand_vs_range_monte_carlo``.

    ``hero`` an exact hand; ``villain`` a hand, an eval7 range or ``"random"`` (weights
    ignored; combos are used in turn, not drawn). Always one thread, unseeded, no dead cards.
    ``iterations`` < 2**31. Returns [hero, villain].
    """
    e7 = _import("eval7")
    b = parse_cards(board)
    h = parse_cards(hero)
    if h.size != 2:
        raise PeerUnsupported("eval7: hero must be one exact two-card hand")
    table = [e7.Card(n) for n in CARD_NAMES]
    options = _eval7_options(villain, _mask(h) | _mask(b))
    if not options:
        raise ValueError("eval7: no villain combo fits")
    opt_list = [((table[x], table[y]), 1.0) for x, y in options]
    hero_cards = [table[c] for c in h.tolist()]
    board_cards = [table[c] for c in b.tolist()]
    t0 = time.perf_counter()
    eq = float(e7.py_hand_vs_range_monte_carlo(hero_cards, opt_list, board_cards, int(iterations)))
    dt = time.perf_counter() - t0
    return PeerEquity(
        "eval7",
        [eq, 1.0 - eq],
        False,
        int(iterations),
        dt,
        note="py_hand_vs_range_monte_carlo, one thread",
    )


def eval7_range_equity_monte_carlo(
    hero_range: str,
    villain_range: str,
    board: str | Sequence[int] = "",
    *,
    iterations: int = 100_000,
) -> PeerEquity:
    """Heads-up range-vs-range Monte Carlo through eval7's ``py_all_hands_vs_range``
    (``iterations`` per hero combo; exact per combo on a complete board). Hero combos are
    pooled with weight = number of villain combos that fit them, the usual convention.
    """
    e7 = _import("eval7")
    b = parse_cards(board)
    table = [e7.Card(n) for n in CARD_NAMES]
    heroes = _eval7_options(hero_range, _mask(b))
    villains = _eval7_options(villain_range, _mask(b))
    hero_list = [((table[x], table[y]), 1.0) for x, y in heroes]
    vil_list = [((table[x], table[y]), 1.0) for x, y in villains]
    board_cards = [table[c] for c in b.tolist()]
    t0 = time.perf_counter()
    res = e7.py_all_hands_vs_range(hero_list, vil_list, board_cards, int(iterations))
    dt = time.perf_counter() - t0
    vm = [_mask(v) for v in villains]
    num = den = 0.0
    for (c1, c2), eq in res.items():
        hm = _mask(parse_cards(str(c1) + str(c2)).tolist())
        w = sum(1 for m in vm if not m & hm)
        num += w * float(eq)
        den += w
    if den == 0:
        raise ValueError("eval7: no valid deal")
    eq = num / den
    return PeerEquity(
        "eval7",
        [eq, 1.0 - eq],
        False,
        int(iterations) * len(res),
        dt,
        note="py_all_hands_vs_range, one thread",
    )


# pokerkit -----------------------------------------------------------------------------------
def pokerkit_equity_monte_carlo(
    hands: Sequence[str],
    board: str | Sequence[int] = "",
    dead: str | Sequence[int] = "",
    *,
    samples: int = 10_000,
    game: str = "holdem",
) -> PeerEquity:
    """Monte Carlo equity through ``pokerkit.calculate_equities`` (pure Python, one process):
    exactly ``samples`` deals, unseeded (``random`` module). ``game``: ``holdem`` (hands, ranges
    in pokerkit syntax, or ``random``) or ``omaha`` (exact four-card hands). Slow: thousands of
    deals per second.
    """
    pk = _import("pokerkit")
    table = _pokerkit_cards()
    b, d = _board_dead(board, dead)
    n_hole = {"holdem": 2, "omaha": 4}.get(game)
    if n_hole is None:
        raise PeerUnsupported(f"pokerkit adapter: game {game!r}")
    hand_type = pk.StandardHighHand if game == "holdem" else pk.OmahaHoldemHand
    ranges = []
    for h in hands:
        if _is_exact_hand(h, n_hole):
            ranges.append([frozenset(table[c] for c in parse_cards(h).tolist())])
        elif game == "holdem" and h.strip().lower() == "random":
            ranges.append([frozenset((table[x], table[y])) for x, y in combinations(range(52), 2)])
        elif game == "holdem":
            ranges.append(list(pk.parse_range(h)))
        else:
            raise PeerUnsupported("pokerkit adapter: Omaha hands must be exact")
    dead_mask = _mask(d)
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


# dispatchers --------------------------------------------------------------------------------
#: What each peer offers for equity (used by ``bench --peers`` to pick what to run).
EQUITY_SUPPORT: dict[str, dict[str, str]] = {
    "ompeval": {
        "exact": "holdem, 1..6 players, ranges",
        "mc": "holdem, 1..6 players, ranges; stdev/time target, not a sample count",
        "threads": "threads=1 / 0=all",
    },
    "poker_equity": {
        "exact": "15 games; declines big walks",
        "mc": "15 games, exact sample count, seeded",
        "threads": "threads=1 (0 = default_thread_count()); exact: 1",
    },
    "eval7": {
        "exact": "heads-up, Python loop over runouts",
        "mc": "heads-up, hero exact hand",
        "threads": "always 1",
    },
    "pokerkit": {
        "exact": "none",
        "mc": "any players, holdem/omaha, pure Python",
        "threads": "1 (executor=None)",
    },
}


def exact_equity(
    peer: str,
    hands: Sequence[str],
    board: str | Sequence[int] = "",
    dead: str | Sequence[int] = "",
    *,
    game: str = "holdem",
) -> PeerEquity:
    """Exact equity of ``hands`` (exact hands or ranges) through ``peer``, one thread.

    ompeval: Hold'em, 1..6 players. poker_equity: any game it knows. eval7: heads-up Hold'em
    (hero exact or a range). Anything else raises :class:`PeerUnsupported`.
    """
    if peer == "ompeval":
        if game != "holdem":
            raise PeerUnsupported("ompeval: Hold'em only")
        return ompeval_equity(hands, board, dead, exact=True, threads=1)
    if peer == "poker_equity":
        return poker_equity_exact(hands, board, dead, game=game)
    if peer == "eval7":
        if game != "holdem" or len(hands) != 2:
            raise PeerUnsupported("eval7: heads-up Hold'em only")
        if _is_exact_hand(hands[0]):
            return eval7_equity_exact(hands[0], hands[1], board, dead)
        return eval7_range_equity_exact(hands[0], hands[1], board, dead)
    _import(peer)
    raise PeerUnsupported(f"{peer}: no exact equity")


def monte_carlo_equity(
    peer: str,
    hands: Sequence[str],
    board: str | Sequence[int] = "",
    dead: str | Sequence[int] = "",
    *,
    samples: int = 1_000_000,
    game: str = "holdem",
    threads: int = 1,
    seed: int = 0,
) -> PeerEquity:
    """Monte Carlo equity through ``peer`` with (about) ``samples`` deals on ``threads`` threads.

    poker_equity and pokerkit deal exactly ``samples``; eval7 does ``samples`` iterations
    heads-up (hero an exact hand, no dead cards, one thread); OMPEval cannot be given a count,
    so it is asked for the standard error that many deals would give (0.5/sqrt(samples)) and
    stops at its next ~0.2 s check -- read ``result.samples`` for what it did.
    """
    if peer == "poker_equity":
        return poker_equity_monte_carlo(
            hands, board, dead, samples=samples, game=game, seed=seed, threads=threads
        )
    if peer == "ompeval":
        if game != "holdem":
            raise PeerUnsupported("ompeval: Hold'em only")
        return ompeval_equity(
            hands, board, dead, exact=False, stdev=0.5 / math.sqrt(max(1, samples)), threads=threads
        )
    if peer == "eval7":
        if game != "holdem" or len(hands) != 2 or not _is_exact_hand(hands[0]):
            raise PeerUnsupported("eval7: heads-up Hold'em, hero an exact hand")
        if parse_cards(dead).size:
            raise PeerUnsupported("eval7: no dead cards in Monte Carlo")
        return eval7_equity_monte_carlo(hands[0], hands[1], board, iterations=samples)
    if peer == "pokerkit":
        return pokerkit_equity_monte_carlo(hands, board, dead, samples=samples, game=game)
    _import(peer)
    raise PeerUnsupported(f"{peer}: no Monte Carlo equity")


def range_equity(
    peer: str,
    ranges: Sequence[str],
    board: str | Sequence[int] = "",
    dead: str | Sequence[int] = "",
) -> PeerEquity:
    """Exact range equity (e.g. ``["QQ+,AKs", "random"]`` on ``"Td9d2c"``) through ``peer``:
    ompeval (fastest), poker_equity (declines big preflop walks), eval7 (heads-up, post-flop).
    Same as :func:`exact_equity`; kept as its own name for the benchmarks.
    """
    return exact_equity(peer, ranges, board, dead)


# --------------------------------------------------------------------------- Omaha strength
def _omaha_args(hole: Any, board: Any) -> tuple[list[int], list[int]]:
    h = parse_cards(hole).tolist()
    b = parse_cards(board).tolist()
    if len(h) != 4 or len(b) != 5:
        raise ValueError("Omaha strength needs 4 hole cards and a 5-card board")
    if set(h) & set(b):
        raise ValueError("hole and board share a card")
    return h, b


def omaha_strength_phevaluator(hole_ids: Any, board_ids: Any) -> int:
    """Best Omaha hand (exactly 2 hole + 3 board) via ``phevaluator.evaluate_omaha_cards``,
    on our scale 1..7462 (higher is better; phevaluator's own rank r maps to 7463 - r).
    ``hole_ids``: 4 cards, ``board_ids``: 5 cards (ids or text)."""
    ph = _import("phevaluator")
    h, b = _omaha_args(hole_ids, board_ids)
    return 7463 - int(ph.evaluate_omaha_cards(*b, *h))  # board first, then hole


def omaha_strengths_phevaluator(holes: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """Batch of :func:`omaha_strength_phevaluator`: ``holes: ndarray[N, 4] uint8``,
    ``boards: ndarray[N, 5] uint8`` -> ``ndarray[N] int64`` on our 1..7462 scale
    (Python loop over the C call)."""
    _import("phevaluator")
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


def omaha_strength_pokerkit(hole_ids: Any, board_ids: Any) -> int:
    """Best Omaha hand via ``pokerkit.OmahaHoldemHand.from_game(hole, board)``, on our scale
    1..7462 (``entry.index + 1``). Pure Python, ~60 five-card lookups per call."""
    pk = _import("pokerkit")
    table = _pokerkit_cards()
    h, b = _omaha_args(hole_ids, board_ids)
    hand = pk.OmahaHoldemHand.from_game([table[c] for c in h], [table[c] for c in b])
    return int(hand.entry.index) + 1


def omaha_strengths_pokerkit(holes: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """Batch of :func:`omaha_strength_pokerkit`: ``holes: ndarray[N, 4] uint8``,
    ``boards: ndarray[N, 5] uint8`` -> ``ndarray[N] int64`` (our 1..7462 scale)."""
    pk = _import("pokerkit")
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


# --------------------------------------------------------------------------- benchmarks
#: Largest batch each pure-Python peer is timed on (the rate is extrapolated from it).
EVAL_CAPS: dict[str, int] = {"treys": 100_000, "pokerkit": 5_000, "pokerfast_py": 200_000}


def bench_batch_eval(
    peer: str,
    cards: np.ndarray,
    *,
    max_hands: int | None = None,
    repeats: int = 3,
) -> dict[str, Any]:
    """Time ``peer`` evaluating ``cards: ndarray[N, k] uint8`` (the first ``max_hands`` rows,
    default :data:`EVAL_CAPS` for the slow peers). ``prepare`` is outside the timed region; the
    best of ``repeats`` runs is kept (one run if a run takes over a second).
    Returns a row dict (see :func:`format_rows`)."""
    ev = evaluator(peer)
    cap = max_hands if max_hands is not None else EVAL_CAPS.get(peer)
    sub = cards if cap is None else cards[:cap]
    native = ev.prepare(sub)
    ev.run(ev.prepare(sub[:100]))  # warm up tables / caches
    best = math.inf
    for _ in range(max(1, repeats)):
        t0 = time.perf_counter()
        ev.run(native)
        best = min(best, time.perf_counter() - t0)
        if best > 1.0:
            break
    n = int(sub.shape[0])
    return {
        "task": f"eval {sub.shape[1]}-card batch",
        "peer": peer,
        "seconds": best,
        "rate": n / best if best else math.inf,
        "unit": "hands/s",
        "work": n,
        "result": None,
        "note": ev.path,
    }


def _row(task: str, res: PeerEquity, *, unit: str = "", rate: bool = False) -> dict[str, Any]:
    return {
        "task": task,
        "peer": res.peer,
        "seconds": res.elapsed_s,
        "rate": (res.samples / res.elapsed_s) if rate and res.samples else None,
        "unit": unit,
        "work": res.samples,
        "result": [round(x, 6) for x in res.equities],
        "note": res.note,
    }


def _skip(task: str, peer: str, why: str) -> dict[str, Any]:
    return {
        "task": task,
        "peer": peer,
        "seconds": None,
        "rate": None,
        "unit": "",
        "work": None,
        "result": None,
        "note": f"skipped: {why}",
    }


def baseline(quick: bool = False, n_eval: int = 1_000_000, seed: int = 12345) -> list[dict]:
    """Single-thread baseline timings of every available peer on the shared tasks.

    Returns rows ``{"task", "peer", "seconds", "rate", "unit", "work", "result", "note"}``.
    ``quick`` shrinks the work (and skips the multi-second walks)."""
    rows: list[dict] = []
    have = set(available_peers())

    def attempt(task: str, peer: str, fn: Callable[[], PeerEquity], **kw: Any) -> None:
        if peer not in have:
            rows.append(_skip(task, peer, "not installed"))
            return
        try:
            rows.append(_row(task, fn(), **kw))
        except PeerUnsupported as exc:
            rows.append(_skip(task, peer, str(exc)))

    # exact equity
    exact_tasks = [
        ("exact AhKh vs QsQd preflop", ["AhKh", "QsQd"], ""),
        ("exact AhAs vs KdKc vs QhQs preflop", ["AhAs", "KdKc", "QhQs"], ""),
        ("exact QQ+,AKs vs random on Td9d2c", ["QQ+,AKs", "random"], "Td9d2c"),
        ("exact AKs vs random preflop", ["AKs", "random"], ""),
    ]
    # in quick mode the multi-second walks (poker_equity on a flop range, eval7) are skipped
    for task, hands, board in exact_tasks:
        attempt(task, "ompeval", lambda h=hands, b=board: ompeval_equity(h, b, threads=1))

        pe_why = None
        if hands[0] == "AKs":
            pe_why = "quick mode (it declines, after ~7 s)" if quick else None
        elif quick and board:
            pe_why = "quick mode (~4 s walk)"
        if pe_why and "poker_equity" in have:
            rows.append(_skip(task, "poker_equity", pe_why))
        else:
            attempt(task, "poker_equity", lambda h=hands, b=board: poker_equity_exact(h, b))

        e7_why = None
        if len(hands) != 2:
            e7_why = "heads-up only"
        elif hands[0] == "AKs":
            e7_why = "preflop range walk is far too slow in Python"
        elif quick:
            e7_why = "quick mode (runouts walked in Python, seconds)"
        if e7_why and "eval7" in have:
            rows.append(_skip(task, "eval7", e7_why))
        else:
            attempt(task, "eval7", lambda h=hands, b=board: exact_equity("eval7", h, b))

    # batch evaluation
    n = min(n_eval, 100_000) if quick else n_eval
    hands7 = random_hands(n, 7, seed)
    for peer in PEERS:
        if peer not in have:
            rows.append(_skip("eval 7-card batch", peer, "not installed"))
            continue
        cap = EVAL_CAPS.get(peer)
        if quick and cap:
            cap = max(1000, cap // 10)
        rows.append(bench_batch_eval(peer, hands7, max_hands=cap))

    # heads-up Monte Carlo
    hu = ["AhKh", "QsQd"]
    mc_n = 200_000 if quick else 2_000_000
    task = "MC heads-up AhKh vs QsQd"
    attempt(
        task,
        "eval7",
        lambda: eval7_equity_monte_carlo(*hu, iterations=mc_n),
        unit="showdowns/s",
        rate=True,
    )
    attempt(
        task,
        "ompeval",
        lambda: ompeval_equity(
            hu, exact=False, stdev=0.0, time_limit=0.4 if quick else 1.0, threads=1
        ),
        unit="showdowns/s",
        rate=True,
    )
    attempt(
        task,
        "poker_equity",
        lambda: poker_equity_monte_carlo(hu, samples=mc_n, threads=1),
        unit="showdowns/s",
        rate=True,
    )
    attempt(
        task,
        "pokerkit",
        lambda: pokerkit_equity_monte_carlo(hu, samples=500 if quick else 3000),
        unit="showdowns/s",
        rate=True,
    )

    six = ["random"] * 6
    task = "MC six players random"
    attempt(
        task,
        "poker_equity",
        lambda: poker_equity_monte_carlo(six, samples=100_000 if quick else 1_000_000, threads=1),
        unit="deals/s",
        rate=True,
    )
    attempt(
        task,
        "ompeval",
        lambda: ompeval_equity(
            six, exact=False, stdev=0.0, time_limit=0.4 if quick else 1.0, threads=1
        ),
        unit="deals/s",
        rate=True,
    )

    # Omaha
    om = ["AhAsKhKs", "QdJdTc9c"]
    attempt(
        "Omaha exact AhAsKhKs vs QdJdTc9c preflop",
        "poker_equity",
        lambda: poker_equity_exact(om, game="omaha"),
        unit="deals/s",
        rate=True,
    )
    attempt(
        "Omaha MC heads-up AhAsKhKs vs QdJdTc9c",
        "poker_equity",
        lambda: poker_equity_monte_carlo(
            om, samples=100_000 if quick else 1_000_000, game="omaha", threads=1
        ),
        unit="deals/s",
        rate=True,
    )
    attempt(
        "Omaha MC heads-up AhAsKhKs vs QdJdTc9c",
        "pokerkit",
        lambda: pokerkit_equity_monte_carlo(om, samples=200 if quick else 1000, game="omaha"),
        unit="deals/s",
        rate=True,
    )
    no = 2_000 if quick else 50_000
    holes = random_hands(no, 9, seed + 1)
    for peer, fn in (
        ("phevaluator", omaha_strengths_phevaluator),
        ("pokerkit", omaha_strengths_pokerkit),
    ):
        task = "Omaha 4+5 strength batch"
        if peer not in have:
            rows.append(_skip(task, peer, "not installed"))
            continue
        m = no if peer == "phevaluator" else min(no, 1000)
        t0 = time.perf_counter()
        fn(holes[:m, :4], holes[:m, 4:])
        dt = time.perf_counter() - t0
        rows.append(
            {
                "task": task,
                "peer": peer,
                "seconds": dt,
                "rate": m / dt,
                "unit": "hands/s",
                "work": m,
                "result": None,
                "note": "Python loop over C call" if peer == "phevaluator" else "pure Python",
            }
        )
    return rows


def sanity_checks() -> list[tuple[str, bool, str]]:
    """Run every available adapter on known spots; returns (name, ok, detail) triples.

    AhKh vs QsQd = 0.4621/0.5379 exactly; AhAd vs KsKc = 0.8126; the evaluators agree on the
    order of random hands (and on our 1..7462 scale where they share it); the two Omaha
    evaluators agree."""
    out: list[tuple[str, bool, str]] = []
    have = set(available_peers())

    def check(name: str, fn: Callable[[], tuple[bool, str]]) -> None:
        try:
            ok, detail = fn()
        except (PeerUnavailable, PeerUnsupported) as exc:
            ok, detail = True, f"skipped: {exc}"
        out.append((name, ok, detail))

    ak_qq = 0.46214457
    aa_kk = 0.81255  # AhAd vs KsKc preflop, exact (the ~82% spot; shared suits)
    for peer in ("ompeval", "poker_equity", "eval7"):
        if peer in have:
            check(
                f"{peer} exact AhKh vs QsQd",
                lambda p=peer: _near(exact_equity(p, ["AhKh", "QsQd"]), ak_qq, 1e-6),
            )
            check(
                f"{peer} exact AhAd vs KsKc",
                lambda p=peer: _near(exact_equity(p, ["AhAd", "KsKc"]), aa_kk, 1e-5),
            )
    for peer, samples, tol in (
        ("ompeval", 2_000_000, 3e-3),
        ("poker_equity", 1_000_000, 3e-3),
        ("eval7", 1_000_000, 3e-3),
        ("pokerkit", 2_000, 4e-2),
    ):
        if peer in have:
            check(
                f"{peer} MC AhKh vs QsQd",
                lambda p=peer, s=samples, t=tol: _near(
                    monte_carlo_equity(p, ["AhKh", "QsQd"], samples=s), ak_qq, t
                ),
            )
    if "ompeval" in have and "poker_equity" in have:

        def cross() -> tuple[bool, str]:
            a = exact_equity("ompeval", ["QQ+,AKs", "random"], "Td9d2c").equities[0]
            b = exact_equity("poker_equity", ["QQ+,AKs", "random"], "Td9d2c").equities[0]
            return abs(a - b) < 1e-9, f"ompeval {a:.6f} poker_equity {b:.6f}"

        check("range QQ+,AKs vs random on Td9d2c agree", cross)
    if "poker_equity" in have:
        check(
            "poker_equity Omaha exact vs MC",
            lambda: _near(
                poker_equity_monte_carlo(["AhAsKhKs", "QdJdTc9c"], samples=400_000, game="omaha"),
                poker_equity_exact(["AhAsKhKs", "QdJdTc9c"], game="omaha").equities[0],
                5e-3,
            ),
        )

    hands = random_hands(20_000, 7, 7)
    ref_peer = next(
        (p for p in ("phevaluator", "poker_equity", "treys", "pokerkit") if p in have), None
    )
    if ref_peer is not None:
        ref = peer_contract_strengths(ref_peer, hands[:2000])
        for peer in sorted(have):

            def agree(p: str = peer) -> tuple[bool, str]:
                s = peer_strengths(p, hands[:2000])
                ok = same_order(s, ref)
                if evaluator(p).contract is not None:
                    ok = ok and bool(np.array_equal(peer_contract_strengths(p, hands[:2000]), ref))
                return ok, f"order vs {ref_peer} on 2000 hands"

            check(f"{peer} 7-card order", agree)
        for k in (5, 6):
            sub = np.ascontiguousarray(hands[:2000, :k])
            ref_k = peer_contract_strengths(ref_peer, sub)
            for peer in sorted(have):
                check(
                    f"{peer} {k}-card order",
                    lambda p=peer, s=sub, r=ref_k: (
                        same_order(peer_strengths(p, s), r),
                        f"vs {ref_peer}",
                    ),
                )
    if "phevaluator" in have and "pokerkit" in have:

        def omaha() -> tuple[bool, str]:
            h = random_hands(300, 9, 9)
            a = omaha_strengths_phevaluator(h[:, :4], h[:, 4:])
            b = omaha_strengths_pokerkit(h[:, :4], h[:, 4:])
            return bool(np.array_equal(a, b)), "300 random Omaha hands"

        check("Omaha phevaluator == pokerkit", omaha)
    return out


def _near(res: PeerEquity, want: float, tol: float) -> tuple[bool, str]:
    got = res.equities[0]
    return abs(got - want) <= tol, f"{got:.6f} (want {want:.6f} +/- {tol:g}, {res.samples} deals)"


def format_rows(rows: Sequence[dict]) -> str:
    """Plain-text table of :func:`baseline` rows."""
    lines = []
    for r in rows:
        secs = "-" if r["seconds"] is None else f"{r['seconds']:.4f}s"
        rate = "" if not r["rate"] else f"{r['rate']:>14,.0f} {r['unit']}"
        res = "" if r["result"] is None else " ".join(f"{x:.4f}" for x in r["result"])
        lines.append(
            f"{r['task'][:42]:<42} {r['peer']:<13} {secs:>10} {rate:<28} {res:<22} {r['note']}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the single-thread peer baseline (``--quick`` for a short run, ``--json``)."""
    ap = argparse.ArgumentParser(description="Peer-library baseline timings (single thread).")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--check", action="store_true", help="run the sanity checks too")
    ap.add_argument("-n", type=int, default=1_000_000, help="hands for the evaluator batch")
    args = ap.parse_args(argv)
    rows = baseline(quick=args.quick, n_eval=args.n)
    checks = sanity_checks() if args.check else []
    if args.json:
        print(
            json.dumps(
                {
                    "peers": {p: available(p) for p in PEERS},
                    "rows": rows,
                    "checks": [{"name": n, "ok": ok, "detail": d} for n, ok, d in checks],
                },
                indent=1,
            )
        )
    else:
        print("peers:", ", ".join(f"{p}={'yes' if available(p) else 'no'}" for p in PEERS))
        print(format_rows(rows))
        for name, ok, detail in checks:
            print(f"{'ok ' if ok else 'BAD'} {name}: {detail}")
    return 0 if all(ok for _, ok, _ in checks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
