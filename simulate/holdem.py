"""Hold'em equity of exact hands: exact enumeration and Monte Carlo.

:func:`holdem_equity` takes a parsed :class:`~simulate.request.Spot` of exact hands (2..10
players, a board of 0, 3, 4 or 5 cards, dead cards) and its
:class:`~simulate.sampling.Sampling`; :func:`simulate.equity` routes such requests here.
The exact walk is :mod:`simulate._kernels.holdem_exact` (every runout, integer counts), the
sampler :mod:`simulate._kernels.holdem_mc` (seeded, per-block streams).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from evaluator._first_run import compile_beside
from evaluator._jit import work_clock
from evaluator.tablegen import CATEGORIES

from .request import Spot
from .results import SHARE_UNIT, EquityResult, PlayerResult, std_error_of_mean
from .sampling import Sampling


class Scorer(NamedTuple):
    """One scorer of :mod:`simulate._kernels.score` (one row of
    :func:`~simulate._kernels.score.block_scorer`), its ten arrays named. The kernels take
    it as the plain tuple (``tuple(scorer)``: the compiled signatures stay the same).

    ``amounts`` int64[L] the pots; ``eligible`` bool[L, P]; ``order`` int64[P];
    ``split``, ``odd`` the pots' split tables; ``win`` [L, P] (hi/lo: [2 L, P]) and ``pay``
    [P] the accumulators (int64, or object for exact big counts); ``stats`` int64[P, 2]
    (wins, ties) and ``cats`` int64[P, 9] (hand categories; zero-length without
    statistics); ``cat_of`` uint8[S + 1] the category of each strength."""

    amounts: np.ndarray
    eligible: np.ndarray
    order: np.ndarray
    split: np.ndarray
    odd: np.ndarray
    win: np.ndarray
    pay: np.ndarray
    stats: np.ndarray
    cats: np.ndarray
    cat_of: np.ndarray

    @classmethod
    def row_of(cls, block: tuple, r: int = 0) -> Scorer:
        """Row ``r`` of a :func:`~simulate._kernels.score.block_scorer` (views, no
        copies)."""
        return cls(*block[:5], *(a[r] for a in block[5:9]), block[9])


EXACT_BUDGET = 30_000_000  # player-evaluations an automatic exact walk may take (~0.1 s)


def exact_work(spot: Spot) -> int:
    """Upper bound on the player-evaluations of the exact walk of ``spot`` (exact hands).

    The walk visits at most one board per rank multiset of the dealt cards, plus, per
    suit, one per (set of dealt cards of that suit, rank multiset of the rest).
    """
    return reduced_walk_work(spot.remaining_deck().tolist(), 5 - len(spot.board),
                             len(spot.hands))


def reduced_walk_work(deck: Sequence[int], k: int, n_players: int) -> int:
    """Upper bound on the player-evaluations of the reduced walk dealing ``k`` cards from
    ``deck`` to ``n_players`` hands (:func:`exact_work`; ``allin_ev`` uses it too, so a spot
    exact in ``equity`` is exact in ``allin_ev``)."""
    boards = math.comb(k + 12, k)
    for s in range(4):
        n_s = sum(1 for c in deck if c & 3 == s)
        boards += sum(math.comb(n_s, j) * math.comb(k - j + 12, k - j) for j in range(k + 1))
    return boards * n_players


def holdem_equity(spot: Spot, opts: Sampling) -> EquityResult:
    """Equity of a Hold'em :class:`~simulate.request.Spot` of exact hands; ``opts``: checked
    sampling options (``exact=None`` walks when :func:`exact_work` is at most
    :data:`EXACT_BUDGET`, unless sampling was asked for)."""
    exact = opts.exact
    if exact is None:
        exact = not opts.wants_sampling and exact_work(spot) <= EXACT_BUDGET
    if exact:
        return _exact(spot)
    return _monte_carlo(spot, opts)


def _kernel_inputs(spot: Spot) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple,
                                         np.ndarray]:
    """``(hole uint8[P, 2], board uint8[B], deck uint8[M], tables, cat_of uint8[S + 1])``:
    the deck and the tables are the game's (short deck: its 36 cards and its own scale; the
    kernels are the same)."""
    from evaluator._tables import get_tables
    from evaluator.hands import category_table

    hole = spot.hands_array()
    board = np.array(spot.board, dtype=np.uint8)
    scale = spot.game.scale
    return (hole, board, spot.remaining_deck(), get_tables(scale).kernel_args,
            category_table(scale))


def categories(counts: np.ndarray, total: int, exact: bool) -> dict[str, float]:
    """``{category name: share}`` from counts per category (int64[9]) over ``total`` deals.
    ``exact`` is kept for callers: Python's ``int / int`` is correctly rounded, so the share
    is the float nearest the exact fraction either way."""
    return {name: n / total for name, n in zip(CATEGORIES, counts.tolist(), strict=True)}


def run_walk(hole: np.ndarray, board: np.ndarray, avail: np.ndarray, tables: tuple,
             sc: tuple) -> int:
    """The reduced walk (:func:`simulate._kernels.holdem_exact.walk`) of ``hole`` uint8[P,
    2] and ``board`` uint8[0..5] over the cards with ``avail[c] == 1`` (uint8[52]) into the
    scorer ``sc``, through its road: the number of runouts. The walk's two halves are called
    in turn, so a fresh install's first answer compiles one in a copy of the process while
    it compiles the other (:func:`evaluator._first_run.compile_beside`; the first run of `pokerjit
    equity AhKh QsQd` about 0.75 s shorter on the 2-core VM)."""
    from ._kernels import holdem_exact as ek
    from ._kernels.score import road_of

    args = (hole, board, avail, tables, sc, road_of(sc))
    wait = compile_beside(ek.walk_unsuited, args)  # in a copy, while this one does the other
    try:
        total = int(ek.walk_suited(*args))
    finally:
        wait()
    return total + int(ek.walk_unsuited(*args))


def _exact(spot: Spot) -> EquityResult:
    from ._kernels.score import equity_block_scorer

    hole, board, deck, tables, cat_of = _kernel_inputs(spot)
    avail = np.zeros(52, dtype=np.uint8)
    avail[deck] = 1
    n = len(spot.hands)
    # the scorer is built here and the walk called directly (not ek.exact_walk, which
    # builds it inside) with the scorer's road tag: a fresh install then compiles the walk
    # and one scoring road alone for its first answer
    sc = Scorer.row_of(equity_block_scorer(n, cat_of, 1))
    t0 = work_clock()
    total = run_walk(hole, board, avail, tables, tuple(sc))
    elapsed = work_clock() - t0
    cats = sc.cats
    res = np.column_stack([sc.stats[:, 0], sc.stats[:, 1], sc.win[0]])
    k = 5 - len(spot.board)
    if total != math.comb(len(deck), k):  # the weights must cover every runout
        raise AssertionError(f"exact walk counted {total} runouts, "
                             f"expected {math.comb(len(deck), k)}")
    players = []
    for p, text in enumerate(spot.texts):
        win, tie, share = (int(x) for x in res[p])
        players.append(PlayerResult(
            hand=text, equity=share / (SHARE_UNIT * total),  # correctly rounded, as Fraction
            win=win / total, tie=tie / total, std_error=0.0,
            categories=categories(cats[p], total, True)))
    return EquityResult(players=players, exact=True, samples=total, elapsed_s=elapsed,
                        game=spot.game.name, board=spot.board_text, dead=spot.dead_text,
                        extra={"counts": {"runouts": total, "share_unit": SHARE_UNIT,
                                          "shares": res[:, 2].tolist()}})


def mc_totals(acc: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per player from the Monte Carlo counts ``acc`` (int64[..., P, N_FIELDS], see
    :mod:`simulate._kernels.holdem_mc`; any leading axes, e.g. one per spot): wins, ties and
    pot share in units of 1/2520 (int64[..., P]), and the sum of squared shares in pot units
    (float64[..., P]: a k-way split's share is 1/k)."""
    from ._kernels.holdem_mc import MAX_PLAYERS, TIED

    k = np.arange(1, MAX_PLAYERS + 1)
    by_k = acc[..., TIED + 1:TIED + 1 + MAX_PLAYERS]  # int64[..., P, 10]: k-way splits
    share = by_k @ (SHARE_UNIT // k)
    share_sq = by_k @ (1.0 / (k * k))
    return by_k[..., 0], by_k[..., 1:].sum(axis=-1), share, share_sq


def mc_std_errors(acc: np.ndarray, n: int) -> np.ndarray:
    """Standard error of each player's equity after ``n`` deals from the counts in ``acc``
    (int64[..., P, N_FIELDS]): the one formula, :func:`simulate.results.std_error_of_mean`."""
    _, _, share, share_sq = mc_totals(acc)
    return std_error_of_mean(share / SHARE_UNIT, share_sq, n)


def _monte_carlo(spot: Spot, opts: Sampling) -> EquityResult:
    from evaluator._jit import threads as _threads

    from ._kernels import holdem_mc as mk
    from .sampling import BLOCK, run_blocks

    s = opts.resolved_seed()
    n_threads = opts.n_threads()
    hole, board, deck, tables, cat_of = _kernel_inputs(spot)
    n_players = len(spot.hands)
    cap = opts.cap
    acc = np.zeros((n_players, mk.N_FIELDS), dtype=np.int64)
    seed64 = np.uint64(s)

    def run(b_lo: int, b_hi: int) -> None:
        if n_threads == 1 or b_hi - b_lo < 2:
            mk.mc_range(hole, board, deck, cap, BLOCK, b_lo, b_hi, seed64, tables, cat_of, acc)
            return
        accs = np.zeros((min(8 * n_threads, b_hi - b_lo), n_players, mk.N_FIELDS), np.int64)
        with _threads(n_threads):
            mk.mc_parallel(hole, board, deck, cap, BLOCK, b_lo, b_hi, seed64, tables, cat_of,
                           accs)
        acc[:] += accs.sum(axis=0)

    t0 = work_clock()
    n = run_blocks(opts, run, lambda n: mc_std_errors(acc, n), min_round=n_threads)
    elapsed = work_clock() - t0
    se = mc_std_errors(acc, n)
    win, tie, share, _ = mc_totals(acc)
    players = [PlayerResult(hand=text, equity=int(share[p]) / (SHARE_UNIT * n),
                            win=int(win[p]) / n, tie=int(tie[p]) / n,
                            std_error=float(se[p]),
                            categories=categories(acc[p, :9], n, False))
               for p, text in enumerate(spot.texts)]
    return EquityResult(players=players, exact=False, samples=n, elapsed_s=elapsed,
                        game=spot.game.name, board=spot.board_text, dead=spot.dead_text,
                        extra={"seed": s})
