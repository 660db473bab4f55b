"""Omaha equity: exact enumeration of runouts or Monte Carlo, 2..10 players.

Games: ``omaha`` (four hole cards), ``omaha5`` and ``omaha6`` (five and six hole cards;
the same two-plus-three rule), and the eight-or-better hi/lo split games ``omaha_hilo`` and
``omaha5_hilo`` (each player's ``high`` and ``low`` shares and ``scoop`` reported apart).
Hands are exact cards only -- ranges are a Hold'em feature. See
:mod:`simulate._kernels.omaha` for how a runout is scored: a hi/lo game's triple table has
a low column per player beside the high one, and its rows go to the scorer's hi/lo rule.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from evaluator._first_run import compile_beside, for_the_work
from evaluator._jit import work_clock
from evaluator.cards import CardError
from evaluator.tablegen import CATEGORIES

from .games import GAMES, game_names
from .request import Spot, parse_spot
from .results import SHARE_UNIT, EquityResult, PlayerResult, std_error_of_mean
from .sampling import Sampling, sampling

OMAHA_GAMES = {n: GAMES[n].hole_cards for n in game_names("omaha")}
#: ``exact=None`` walks every runout when runouts x players is at most this (~0.2 s on one
#: thread here); with at least two Omaha hands dealt this covers every request.
EXACT_WORK_LIMIT = 3_000_000


def _tables() -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    from evaluator._tables import get_tables
    from evaluator.hands import category_table

    t = get_tables()
    return t.kernel_args, category_table()


def omaha_equity(hands: Sequence[str | Sequence[int]], board: str | Sequence[int] = "",
                 dead: str | Sequence[int] = "", *, exact: bool | None = None,
                 samples: int | None = None, target_std_error: float | None = None,
                 seed: int | None = None, threads: int | None = None,
                 game: str = "omaha") -> EquityResult:
    """Equity of 2..10 exact Omaha hands (:func:`simulate.equity` with an Omaha ``game``).

    ``hands``: e.g. ``["AhAsKhKs", "QdJdTc9c"]`` (4 cards each; 5 or 6 with
    ``game="omaha5"``/``"omaha6"``); ``board``: 0, 3, 4 or 5 cards; ``dead``: cards out
    of the deck. Sampling options as :func:`simulate.equity`; see :func:`omaha_run`.
    """
    g = str(game).strip().lower()
    if g not in OMAHA_GAMES:
        raise CardError(f"unknown Omaha game '{game}' (expected one of: "
                        f"{', '.join(OMAHA_GAMES)})")
    opts = sampling(exact, samples, target_std_error, seed, threads)
    return omaha_run(parse_spot(hands, board, dead, game=g), opts)


def omaha_run(spot: Spot, opts: Sampling) -> EquityResult:
    """Equity of a parsed Omaha ``spot``. ``opts.exact=True`` walks every runout, ``False``
    samples, ``None`` walks when that is quick (runouts x players at most
    :data:`EXACT_WORK_LIMIT`, which every Omaha deal of 2+ hands meets); a complete board is
    always exact. The same seed gives the same answer on any thread count; the seed used is
    in ``result.extra["seed"]``.
    """
    from evaluator._jit import threads as _threads

    from ._kernels import omaha as K
    from ._kernels.score import equity_block_scorer

    t0 = work_clock()
    n_threads = opts.n_threads()
    tables, cat_of = _tables()

    n_players = len(spot.hands)
    hilo = spot.game.hilo
    halves = 2 if hilo else 1
    unit = halves * SHARE_UNIT
    k = 5 - len(spot.board)
    deck_cards = spot.remaining_deck().tolist()
    runouts = math.comb(len(deck_cards), k) if k else 1  # a complete board: its one "runout"

    exact = opts.exact
    if exact is None:
        exact = not opts.wants_sampling and runouts * n_players <= EXACT_WORK_LIMIT
    if k == 0:
        exact = True
    walk = None
    if exact:
        rows = len(deck_cards) if k >= 2 else 1
        bsc = equity_block_scorer(n_players, cat_of, rows, hilo=hilo)
        kernel, road = walk_kernel(runouts * n_players, bsc, hilo)
        walk = (kernel, halves * n_players, bsc, road, n_threads)
    fixed, deck, tri, u = triple_walk(spot.hands_array(), spot.board, deck_cards, n_threads,
                                      hilo=hilo, walk=walk)

    extra: dict[str, object] = {}
    if walk is not None:
        with _threads(n_threads):
            walk[0](fixed, deck, tri, u, *walk[1:])
        stats, cats = bsc[7].sum(axis=0), bsc[8].sum(axis=0)
        totals = [bsc[5].sum(axis=0), stats[:, 0], stats[:, 1], cats, None]
        n = runouts
        std = [0.0] * n_players
    else:
        s = opts.resolved_seed()
        extra["seed"] = s
        totals, n = _sample(K, s, fixed, deck, tri, u, n_players, cat_of, n_threads, opts,
                            halves)
        std = _std_errors(totals, n, unit)
    share, win, tie, cat, _sq = totals  # share [halves, P]: the high's units, then the low's
    players = []
    texts = spot.texts
    for p in range(n_players):
        pr = PlayerResult(
            hand=texts[p], equity=float(share[:, p].sum()) / (unit * n),
            win=float(win[p]) / n, tie=float(tie[p]) / n, std_error=std[p],
            categories={CATEGORIES[c]: float(cat[p, c]) / n for c in range(9)})
        if hilo:
            pr.high = float(share[0, p]) / (unit * n)
            pr.low = float(share[1, p]) / (unit * n)
            pr.scoop = pr.win
        players.append(pr)
    return EquityResult(players=players, exact=bool(exact), samples=int(n),
                        elapsed_s=work_clock() - t0, game=spot.game.name,
                        board=spot.board_text, dead=spot.dead_text, extra=extra)


def walk_kernel(work: int, bsc: tuple, hilo: bool) -> tuple[Any, np.ndarray]:
    """The triple-table walk to call for ``work`` (runouts x players) into the block scorer
    ``bsc``, and its road tag (``hilo``: a hi/lo scorer): ``(kernel, road)``, called as
    ``kernel(fixed, deck, tri, u, columns, bsc, road, n_bins)`` (``n_bins``: the threads).
    :func:`~simulate._kernels.omaha.exact_walk` with ``ROAD_ANY``; or, on a one-answer
    program's first run, while that is neither compiled nor cached, its serial twin for
    work up to :data:`EXACT_WORK_LIMIT` (a fifth of a second on one thread: every exact
    Omaha request of two hands or more), which compiles without the parallel loop's seconds
    (:func:`evaluator._first_run.for_the_work`; the same bits), with the scorer's own road tag, so
    it compiles one scoring loop, not the high roads and the hi/lo ones."""
    from ._kernels import omaha as K
    from ._kernels.score import ROAD_ANY, road_of, scorer_row

    kernel = for_the_work(K.exact_walk, K.exact_walk_serial, work <= EXACT_WORK_LIMIT)
    if kernel is K.exact_walk:
        return kernel, ROAD_ANY
    return kernel, road_of(scorer_row.py_func(bsc, 0), hilo)


def triple_walk(hands: np.ndarray, board: Sequence[int], deck_cards: Sequence[int],
                n_threads: int, *, hilo: bool = False, walk: tuple | None = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Inputs of the triple-table walk (:mod:`simulate._kernels.omaha`):
    ``(fixed, deck, tri, u)``. ``hands`` uint8[P, h]; ``board`` the known cards;
    ``deck_cards`` the undealt ones. ``fixed``/``deck``: universe indices (int64) of the
    known board and of the undealt cards (a complete board is walked as four known cards and
    one "runout", its fifth); ``tri``: uint16[u**3 * P], each player's best hole pair with
    every triple of the ``u``-card universe (``hilo``: uint16[u**3 * 2P], each player's best
    low, 0 for none, in columns ``P..2P-1``). ``walk``: the walk the caller will make, its
    kernel (:func:`walk_kernel`) and the rest of its arguments (columns, block scorer): on a
    first run that walk compiles in a copy of this process while this one compiles the
    table's fill (:func:`evaluator._first_run.compile_beside`)."""
    from evaluator._jit import threads as _threads
    from evaluator.low import low_tables

    from ._kernels import omaha as K

    tables, _ = _tables()
    universe = sorted(list(board) + list(deck_cards))
    pos = {c: i for i, c in enumerate(universe)}
    u = len(universe)
    fixed = np.array([pos[c] for c in board], dtype=np.int64)
    deck = np.array([pos[c] for c in deck_cards], dtype=np.int64)
    if len(board) == 5:
        fixed, deck = fixed[:4].copy(), fixed[4:].copy()
    tri = np.zeros(u ** 3 * hands.shape[0] * (2 if hilo else 1), dtype=np.uint16)
    wait = compile_beside(walk[0], (fixed, deck, tri, u) + walk[1:]) if walk else None
    # every table is small (the largest, heads-up hi/lo preflop: C(44, 3) triples x 4
    # columns, a few milliseconds of one thread): a first run fills it on one thread
    fill = for_the_work(K.fill_triple_table, K.fill_triple_table_serial, True)
    with _threads(n_threads):
        known = np.array([c in set(board) for c in universe], dtype=np.uint8)
        fill(hands, np.array(universe, dtype=np.uint8), known, max(0, len(board) - 2), tables,
             low_tables(), tri, K.WITH_LOWS if hilo else K.HIGHS_ONLY)
    if wait is not None:
        wait()
    return fixed, deck, tri, u


def _acc(rows: int, n_players: int, halves: int = 1) -> tuple[np.ndarray, ...]:
    """Zeroed block rows: share (int64[rows, halves, P]: hi/lo's high and low units), win,
    tie (int64[rows, P]), cat (int64[rows, P, 9]), sq."""
    z = np.zeros((rows, n_players), dtype=np.int64)
    return (np.zeros((rows, halves, n_players), dtype=np.int64), z, z.copy(),
            np.zeros((rows, n_players, 9), dtype=np.int64), z.copy())


def _std_errors(totals: Sequence[np.ndarray], n: int, unit: int = SHARE_UNIT) -> list[float]:
    se = std_error_of_mean(totals[0].sum(axis=0) / unit, totals[4] / unit**2, n)
    return [float(x) for x in se]


def _sample(K, seed: int, fixed: np.ndarray, deck: np.ndarray, tri: np.ndarray, u: int,
            n_players: int, cat_of: np.ndarray, n_threads: int,
            opts: Sampling, halves: int = 1) -> tuple[list[np.ndarray], int]:
    """Monte Carlo by the block plan of :mod:`simulate.sampling`: ``(totals, deals)``."""
    from evaluator._jit import threads as _threads

    from .sampling import BLOCK, run_blocks

    cap = opts.cap
    totals = [a[0] for a in _acc(1, n_players, halves)]

    def run(lo: int, hi: int) -> None:
        acc = _acc(hi - lo, n_players, halves)
        with _threads(n_threads):
            K.sample_blocks(np.uint64(seed), cap, BLOCK, lo, hi, fixed, deck, tri, u,
                            n_players, cat_of, *acc)
        for t, a in zip(totals, acc, strict=True):
            t += a.sum(axis=0)

    unit = halves * SHARE_UNIT
    n = run_blocks(opts, run, lambda n: np.array(_std_errors(totals, n, unit)),
                   min_round=n_threads)
    return totals, n
