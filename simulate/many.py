"""Equity of many exact-hand Hold'em spots in one call: :func:`equity_many`.

The path for feature generation and notebooks: a million spots of one shape (players,
board length) as numpy arrays in, ``float64[N, P]`` arrays out, without a Python loop
per spot. Row ``i`` is exactly what :func:`simulate.equity` answers for spot ``i``
(exact: the same reduced walk and integer counts; sampled: the same deals, with the
row's seed ``.seeds[i]``), and every row is computed on its own, so the answer does not
depend on the thread count.

>>> import numpy as np
>>> from simulate import equity_many
>>> hands = np.array([[[51, 50], [47, 46]]], np.uint8)   # AsAh vs KsKh
>>> r = equity_many(hands)
>>> r.equity.shape
(1, 2)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from evaluator._jit import work_clock
from evaluator.cards import CARD_TEXT, CardError, check_disjoint
from evaluator.tablegen import CATEGORIES as CATEGORY_NAMES

from .games import BOARD_SIZES, MAX_PLAYERS, MIN_PLAYERS, board_sizes_text
from .results import SHARE_UNIT

__all__ = ["EquityArrays", "equity_many"]

ROUND_WORK = 1 << 22  # about this many runouts (or deals) per kernel call, between checks
ROWS_PER_BLOCK = 16  # rows per parallel work item (fixed; the answer never depends on it)
_CARD_TEXT = np.array(CARD_TEXT, dtype=object)


@dataclass
class EquityArrays:
    """What :func:`equity_many` returns (N spots, P players).

    ``equity``, ``win``, ``tie``: float64[N, P] shares of the pot (ties split), of deals
    won outright, of deals split; ``std_error``: float64[N, P] (None when exact; ``inf``
    where a row had fewer than two deals); ``categories``: float64[N, P, 9], the share
    of deals ending in each hand category (:data:`CATEGORY_NAMES` order); ``samples``:
    int64[N], runouts walked (exact) or deals drawn; ``seeds``: uint64[N], the seed of
    each row (``equity(spot_i, seed=int(seeds[i]), samples=...)`` gives row ``i``),
    None when exact; ``elapsed_s``: time of the whole call.
    """

    equity: np.ndarray
    win: np.ndarray
    tie: np.ndarray
    std_error: np.ndarray | None
    categories: np.ndarray
    samples: np.ndarray
    exact: bool
    seeds: np.ndarray | None
    elapsed_s: float
    hands: np.ndarray
    board: np.ndarray
    dead: np.ndarray
    shares: np.ndarray  # int64[N, P]: pot share in units of 1/2520 (exact: the counts)

    def __len__(self) -> int:
        return int(self.equity.shape[0])

    def to_dicts(self, elapsed_s: float | None = None) -> list[dict[str, object]]:
        """Each row as the ``pokerjit equity --json`` document of that spot (the same keys
        and numbers as ``equity(...).to_dict()``). ``elapsed_s`` per row defaults to the
        call's time divided evenly."""
        n = len(self)
        el = self.elapsed_s / max(n, 1) if elapsed_s is None else elapsed_s
        hand_txt = hand_texts(self.hands)  # [N][P]
        board_txt = card_texts(self.board)
        dead_txt = card_texts(self.dead)
        eq, win, tie = self.equity.tolist(), self.win.tolist(), self.tie.tolist()
        cats = self.categories.tolist()
        samples = self.samples.tolist()
        if self.exact:
            se_rows = None
            shares = self.shares.tolist()
        else:
            se = self.std_error
            assert se is not None and self.seeds is not None
            se_rows = [[x if math.isfinite(x) else None for x in row] for row in se.tolist()]
            seeds = self.seeds.tolist()
        out: list[dict[str, object]] = []
        for i in range(n):
            players = [{"hand": hand_txt[i][p], "equity": eq[i][p], "win": win[i][p],
                        "tie": tie[i][p], "std_error": 0.0 if se_rows is None else se_rows[i][p],
                        "categories": dict(zip(CATEGORY_NAMES, cats[i][p], strict=True))}
                       for p in range(len(hand_txt[i]))]
            d: dict[str, object] = {"game": "holdem", "board": board_txt[i], "dead": dead_txt[i],
                                    "exact": self.exact, "samples": samples[i], "elapsed_s": el,
                                    "players": players}
            if self.exact:
                d["counts"] = {"runouts": samples[i], "share_unit": SHARE_UNIT,
                               "shares": shares[i]}
            else:
                d["seed"] = seeds[i]
            out.append(d)
        return out


def hand_texts(hands: np.ndarray) -> list[list[str]]:
    """``[N][P]`` texts (``"AhKh"``) of the hands uint8[N, P, 2]."""
    t = _CARD_TEXT[hands.astype(np.intp)]  # object[N, P, 2]
    return (t[..., 0] + t[..., 1]).tolist()


def card_texts(cards: np.ndarray) -> list[str]:
    """``[N]`` texts (``"Ks8h2c"``, ``""`` for none) of the card rows uint8[N, K]."""
    if cards.shape[1] == 0:
        return [""] * cards.shape[0]
    t = _CARD_TEXT[cards.astype(np.intp)]
    s = t[:, 0]
    for j in range(1, cards.shape[1]):
        s = s + t[:, j]
    return s.tolist()


def _as_cards(a: object, name: str, ndim: int) -> np.ndarray:
    arr = np.asarray(a)
    if arr.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-d array of card ids, got shape {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"{name} must hold integer card ids (0..51), got dtype {arr.dtype}")
    return arr.astype(np.int64, copy=False)


def bad_rows(cards: np.ndarray) -> np.ndarray:
    """bool[N]: the rows of ``cards`` (int[N, K], every card of a spot) holding a card id
    outside 0..51 or one card twice (one vectorized pass)."""
    bad = ((cards < 0) | (cards > 51)).any(axis=1)
    srt = np.sort(cards, axis=1)
    return bad | (srt[:, 1:] == srt[:, :-1]).any(axis=1)


def check_spots(hands: object, board: object = None, dead: object = None,
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Validate spots; return ``(hands uint8[N, P, 2], board uint8[N, B], dead uint8[N, D],
    avail uint8[N, 52])``.

    One vectorized pass over all rows; raises ValueError naming the first bad row
    (``row 17: duplicate card Ah in hand 2 and board``).
    """
    h = _as_cards(hands, "hands", 3)
    n, n_players = h.shape[0], h.shape[1]
    if h.shape[2] != 2:
        raise ValueError(f"hands must have shape (N, P, 2) (two hole cards), got {h.shape}")
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise ValueError(f"need {MIN_PLAYERS} to {MAX_PLAYERS} players, got {n_players} "
                         f"(hands shape {h.shape})")
    b = np.zeros((n, 0), np.int64) if board is None else _as_cards(board, "board", 2)
    d = np.zeros((n, 0), np.int64) if dead is None else _as_cards(dead, "dead", 2)
    for name, a in (("board", b), ("dead", d)):
        if a.shape[0] != n:
            raise ValueError(f"{name} has {a.shape[0]} rows but hands has {n}")
    if b.shape[1] not in BOARD_SIZES:
        raise ValueError(f"a board has {board_sizes_text()} cards, got {b.shape[1]} "
                         f"(shape {b.shape})")
    left = 52 - 2 * n_players - b.shape[1] - d.shape[1]
    if left < 5 - b.shape[1]:
        raise ValueError(f"not enough cards: the board needs {5 - b.shape[1]} more but only "
                         f"{left} remain in the deck")
    cards = np.concatenate([h.reshape(n, 2 * n_players), b, d], axis=1)
    bad = bad_rows(cards)
    if bad.any():
        i = int(np.argmax(bad))
        row = cards[i].tolist()
        off = [c for c in row if not 0 <= c <= 51]
        if off:
            raise ValueError(f"row {i}: {off[0]} is not a card id (0..51)")
        try:
            check_disjoint([*[(f"hand {p + 1}", h[i, p].tolist()) for p in range(n_players)],
                            ("board", b[i].tolist()), ("dead cards", d[i].tolist())])
        except CardError as e:
            raise ValueError(f"row {i}: {e}") from None
        raise AssertionError("unreachable: a bad row with no fault found")  # pragma: no cover
    avail = np.ones((n, 52), np.uint8)
    avail[np.arange(n)[:, None], cards] = 0
    return h.astype(np.uint8), b.astype(np.uint8), d.astype(np.uint8), avail


def row_seeds(seed: int | None, n: int) -> np.ndarray:
    """uint64[n]: the seed of each row of a sampled call with ``seed`` (a random one
    when None): row ``i`` gets ``stream_state(seed, i)``, so rows never share deals."""
    from ._kernels.many import row_seeds as kernel
    from .sampling import resolve_seed

    out = np.empty(n, np.uint64)
    kernel(np.uint64(resolve_seed(seed)), out)
    return out


def equity_many(hands: object, board: object = None, *, exact: bool | None = True,
                samples: int | None = None, seed: int | np.ndarray | None = None,
                threads: int | None = None, dead: object = None,
                progress: Callable[[int], None] | None = None) -> EquityArrays:
    """Equity of N exact-hand Hold'em spots of one shape.

    ``hands``: uint8[N, P, 2] (P 2..10 players, card ids ``4 * rank + suit``);
    ``board``: uint8[N, B] with B in 0, 3, 4, 5, or None (preflop); ``dead``:
    uint8[N, D] cards out of the deck, or None. ``exact=True`` (default) walks every
    runout; ``exact=False`` (or ``samples`` given with ``exact=None``) deals ``samples``
    random runouts per row (default 1,000,000) from ``seed``: an int (row ``i`` then uses
    ``row_seeds(seed, N)[i]``) or a uint64[N] array of row seeds. ``threads``: Numba
    threads (default all). ``progress``: called with the number of rows finished after
    each round of work. A bad row raises ValueError naming the row.
    """
    from evaluator._jit import resolve_threads
    from evaluator._tables import get_tables
    from evaluator.hands import category_table

    from ._kernels import many as mk
    from ._kernels.holdem_mc import N_FIELDS
    from .holdem import mc_std_errors, mc_totals
    from .sampling import BLOCK, Sampling

    opts = Sampling(exact, samples, None, None if isinstance(seed, np.ndarray) else seed,
                    threads).validate()
    exact = not opts.wants_sampling
    n_threads = resolve_threads(opts.threads)
    h, b, d, avail = check_spots(hands, board, dead)
    n, n_players = h.shape[0], h.shape[1]
    tables, cat_of = get_tables().kernel_args, category_table()
    k = 5 - b.shape[1]
    t0 = work_clock()
    if exact:
        res = np.zeros((n, n_players, 3), np.int64)
        cats = np.zeros((n, n_players, 9), np.int64)
        totals = np.zeros(n, np.int64)
        per_row = math.comb(52 - 2 * n_players - b.shape[1] - d.shape[1], k)
        step = max(1, ROUND_WORK // max(per_row // 20, 1))  # the walk visits ~1/20 of them
        _rounds(n, step, n_threads, progress,
                lambda lo, hi: mk.exact_rows(h, b, avail, lo, hi, tables, cat_of, res, cats,
                                             totals),
                lambda lo, hi: mk.exact_rows_parallel(h, b, avail, lo, hi, ROWS_PER_BLOCK,
                                                      tables, cat_of, res, cats, totals))
        deck = avail.sum(axis=1, dtype=np.int64)
        want = np.array([math.comb(int(m), k) for m in range(53)], np.int64)[deck]
        if not np.array_equal(totals, want):  # the weights must cover every runout
            i = int(np.argmax(totals != want))
            raise AssertionError(f"row {i}: exact walk counted {totals[i]} runouts, "
                                 f"expected {want[i]}")
        tot = totals[:, None].astype(np.float64)
        shares = res[:, :, 2]
        return EquityArrays(
            equity=shares / (SHARE_UNIT * tot), win=res[:, :, 0] / tot, tie=res[:, :, 1] / tot,
            std_error=None, categories=cats / tot[:, :, None], samples=totals, exact=True,
            seeds=None, elapsed_s=work_clock() - t0, hands=h, board=b, dead=d,
            shares=shares)
    n_samples = opts.cap
    if isinstance(seed, np.ndarray):
        seeds = np.asarray(seed, dtype=np.uint64).reshape(-1)
        if seeds.shape[0] != n:
            raise ValueError(f"seed has {seeds.shape[0]} row seeds but hands has {n} rows")
    else:
        seeds = row_seeds(opts.seed, n)
    samp = np.full(n, n_samples, np.int64)
    acc = np.zeros((n, n_players, N_FIELDS), np.int64)
    step = max(1, ROUND_WORK // n_samples)
    _rounds(n, step, n_threads, progress,
            lambda lo, hi: mk.mc_rows(h, b, avail, samp, seeds, BLOCK, lo, hi, tables, cat_of,
                                      acc),
            lambda lo, hi: mk.mc_rows_parallel(h, b, avail, samp, seeds, BLOCK, lo, hi, 1,
                                               tables, cat_of, acc))
    wins, ties, shares, _ = mc_totals(acc)  # per spot and player
    nf = float(n_samples)
    mean = shares / (SHARE_UNIT * nf)
    se = mc_std_errors(acc, n_samples)
    return EquityArrays(
        equity=mean, win=wins / nf, tie=ties / nf,
        std_error=se, categories=acc[:, :, :9] / nf, samples=samp, exact=False, seeds=seeds,
        elapsed_s=work_clock() - t0, hands=h, board=b, dead=d, shares=shares)


def _rounds(n: int, step: int, n_threads: int, progress: Callable[[int], None] | None,
            serial_run: Callable[[int, int], None],
            parallel_run: Callable[[int, int], None]) -> None:
    """Run rows ``0..n-1`` in rounds of ``step`` rows (Ctrl-C and progress between rounds),
    on one thread or, in fixed blocks of rows, on ``n_threads``."""
    from evaluator._jit import threads as _threads

    for lo in range(0, n, step):
        hi = min(n, lo + step)
        if n_threads == 1 or hi - lo < 2:
            serial_run(lo, hi)
        else:
            with _threads(n_threads):
                parallel_run(lo, hi)
        if progress is not None:
            progress(hi - lo)
