"""Adapters that run the same poker work through other libraries ("peers"), one module each.

The benchmarks, the differential tests and ``pokerjit bench --peers`` use this module to feed
inputs in *our* encoding (card id = ``4 * rank + suit``, rank 0..12 for 2..A, suit 0..3 for
c, d, h, s; arrays of cards are ``numpy.uint8``) to each peer's public API, and to read the
answers back in a comparable form.

Every peer is imported lazily inside the functions, so this package imports with numpy alone;
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

Layout: :mod:`._common` (peer keys, availability, our card encoding, the answer types), one
module per peer (:mod:`.ompeval`, :mod:`.phevaluator`, :mod:`.eval7`, :mod:`.poker_equity`,
:mod:`.treys`, :mod:`.pokerkit`, :mod:`.pokerfast_py`), and here the dispatchers
(:func:`evaluator`, :func:`exact_equity`, :func:`monte_carlo_equity`). The adapters' sanity
checks (known equities, agreement of every evaluator) are ``tests/test_peers.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from . import eval7, ompeval, phevaluator, poker_equity, pokerfast_py, pokerkit, treys
from ._common import (
    CARD_NAMES,
    PEERS,
    Cards,
    PeerEquity,
    PeerEvaluator,
    PeerUnavailable,
    PeerUnsupported,
    available,
    available_peers,
    cards_text,
    dense_rank,
    import_peer,
    is_exact_hand,
    parse_cards,
    random_hands,
    same_order,
)
from .eval7 import (
    eval7_equity_exact,
    eval7_equity_monte_carlo,
    eval7_range_equity_exact,
    eval7_range_equity_monte_carlo,
)
from .ompeval import ompeval_equity, ompeval_equity_vs_random
from .phevaluator import omaha_strengths_phevaluator
from .poker_equity import poker_equity_exact, poker_equity_monte_carlo
from .pokerkit import omaha_strengths_pokerkit, pokerkit_equity_monte_carlo

__all__ = [
    "CARD_NAMES", "PEERS", "PeerEquity", "PeerEvaluator", "PeerUnavailable", "PeerUnsupported",
    "available", "available_peers", "cards_text", "dense_rank", "eval7_equity_exact",
    "eval7_equity_monte_carlo", "eval7_range_equity_exact", "eval7_range_equity_monte_carlo",
    "evaluator", "exact_equity", "monte_carlo_equity", "omaha_strengths_phevaluator",
    "omaha_strengths_pokerkit", "ompeval_equity", "ompeval_equity_vs_random", "parse_cards",
    "peer_contract_strengths", "peer_strengths", "poker_equity_exact", "poker_equity_monte_carlo",
    "pokerkit_equity_monte_carlo", "random_hands", "range_equity", "same_order",
]

#: Each peer's evaluator factory (its module's ``make_evaluator``), in :data:`PEERS` order.
_EVALUATOR_FACTORIES: dict[str, Callable[[], PeerEvaluator]] = {
    "ompeval": ompeval.make_evaluator,
    "phevaluator": phevaluator.make_evaluator,
    "eval7": eval7.make_evaluator,
    "poker_equity": poker_equity.make_evaluator,
    "treys": treys.make_evaluator,
    "pokerkit": pokerkit.make_evaluator,
    "pokerfast_py": pokerfast_py.make_evaluator,
}
_EVALUATORS: dict[str, PeerEvaluator] = {}


def evaluator(peer: str) -> PeerEvaluator:
    """The :class:`PeerEvaluator` for ``peer``; raises :class:`PeerUnavailable` if missing."""
    if peer not in _EVALUATORS:
        if peer not in _EVALUATOR_FACTORIES:
            raise ValueError(f"unknown peer {peer!r}; one of {', '.join(PEERS)}")
        _EVALUATORS[peer] = _EVALUATOR_FACTORIES[peer]()
    return _EVALUATORS[peer]


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


def _require(ok: bool, why: str) -> None:
    """Raise :class:`PeerUnsupported` (``why``) unless the peer can answer (``ok``)."""
    if not ok:
        raise PeerUnsupported(why)


def _cannot(peer: str, what: str) -> PeerUnsupported:
    """The error for a peer with no ``what``: :class:`PeerUnavailable` (raised) when it is
    missing, else :class:`PeerUnsupported` (returned, to raise)."""
    import_peer(peer)
    return PeerUnsupported(f"{peer}: no {what}")


def exact_equity(peer: str, hands: Sequence[str], board: Cards = "", dead: Cards = "", *,
                 game: str = "holdem") -> PeerEquity:
    """Exact equity of ``hands`` (exact hands or ranges) through ``peer``, one thread.

    ompeval: Hold'em, 1..6 players. poker_equity: any game it knows. eval7: heads-up Hold'em
    (hero exact or a range). Anything else raises :class:`PeerUnsupported`.
    """
    if peer == "ompeval":
        _require(game == "holdem", "ompeval: Hold'em only")
        return ompeval_equity(hands, board, dead, exact=True, threads=1)
    if peer == "poker_equity":
        return poker_equity_exact(hands, board, dead, game=game)
    if peer == "eval7":
        _require(game == "holdem" and len(hands) == 2, "eval7: heads-up Hold'em only")
        walk = eval7_equity_exact if is_exact_hand(hands[0]) else eval7_range_equity_exact
        return walk(hands[0], hands[1], board, dead)
    raise _cannot(peer, "exact equity")


def monte_carlo_equity(peer: str, hands: Sequence[str], board: Cards = "", dead: Cards = "", *,
                       samples: int = 1_000_000, game: str = "holdem", threads: int = 1,
                       seed: int = 0) -> PeerEquity:
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
        _require(game == "holdem", "ompeval: Hold'em only")
        return ompeval_equity(
            hands, board, dead, exact=False, stdev=0.5 / math.sqrt(max(1, samples)), threads=threads
        )
    if peer == "eval7":
        _require(game == "holdem" and len(hands) == 2 and is_exact_hand(hands[0]),
                 "eval7: heads-up Hold'em, hero an exact hand")
        _require(not parse_cards(dead).size, "eval7: no dead cards in Monte Carlo")
        return eval7_equity_monte_carlo(hands[0], hands[1], board, iterations=samples)
    if peer == "pokerkit":
        return pokerkit_equity_monte_carlo(hands, board, dead, samples=samples, game=game)
    raise _cannot(peer, "Monte Carlo equity")


def range_equity(peer: str, ranges: Sequence[str], board: Cards = "",
                 dead: Cards = "") -> PeerEquity:
    """Exact range equity (e.g. ``["QQ+,AKs", "random"]`` on ``"Td9d2c"``) through ``peer``:
    ompeval (fastest), poker_equity (declines big preflop walks), eval7 (heads-up, post-flop).
    Same as :func:`exact_equity`; kept as its own name for the benchmarks.
    """
    return exact_equity(peer, ranges, board, dead)
