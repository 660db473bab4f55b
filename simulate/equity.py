"""Hold'em equity of exact hands: exact enumeration and Monte Carlo.

:func:`equity` is the public entry point. Omaha requests go to
:mod:`simulate.omaha` and Hold'em ranges to :mod:`simulate.range_equity`; exact
Hold'em hands (2..10 players, a board of 0, 3, 4 or 5 cards, dead cards) are
handled here by :mod:`simulate._kernels.holdem_exact` (every runout, integer counts) or
:mod:`simulate._kernels.holdem_mc` (seeded, per-block streams).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from evaluator._jit import work_clock
from evaluator.cards import CardError, parse_cards

from .request import Request, check_game, parse_request
from .results import EquityResult, PlayerResult, std_error_of_mean
from .sampling import Sampling, sampling

SHARE_UNIT = 2520  # lcm(1..10): a k-way split gives each 2520 // k units
EXACT_BUDGET = 30_000_000  # player-evaluations an automatic exact walk may take (~0.1 s)

CATEGORY_NAMES = ("High Card", "One Pair", "Two Pair", "Three of a Kind", "Straight", "Flush",
                  "Full House", "Four of a Kind", "Straight Flush")

HandsLike = Sequence[str | Sequence[int]]


def _is_exact_hand(entry: str | Sequence[int]) -> bool:
    """True if ``entry`` is card text or ids (of any count); False if it is a range."""
    if not isinstance(entry, str):
        return True
    try:
        parse_cards(entry)
    except CardError:
        return False
    return True


def equity(hands: HandsLike, board: str | Sequence[int] = "", dead: str | Sequence[int] = "",
           *, game: str = "holdem", exact: bool | None = None, samples: int | None = None,
           target_std_error: float | None = None, seed: int | None = None,
           threads: int | None = None, discard_after: str | None = None,
           discards: str | Sequence[int] = "", discard_policy: str | None = None
           ) -> EquityResult:
    """Each player's share of the pot, ties split.

    ``hands``: 2..10 entries, each an exact hand (``"AhKh"``; four cards for Omaha) or,
    for Hold'em, a range (``"QQ+,AKs"``, ``"random"``, ``"top 15%"``). ``board``: 0, 3, 4
    or 5 cards; ``dead``: cards out of the deck. ``exact=True`` walks every runout,
    ``False`` samples (``samples`` deals, default 1,000,000, or until every player's
    standard error is at most ``target_std_error``; with both, whichever comes first),
    ``None`` walks every runout when that is quick (always, for exact Hold'em hands)
    and samples otherwise. ``seed``: the same seed gives the same answer on any thread
    count (a random one is drawn and reported in ``extra["seed"]`` when omitted).
    ``threads``: Numba threads (default all).

    ``game="pineapple"`` / ``"crazy_pineapple"``: three cards each before the discard, two
    after; ``discard_after`` (``"preflop"``, ``"flop"``, ``"turn"``; default the game's
    standard timing), ``discards`` (cards thrown away, after the discard) and
    ``discard_policy`` (``"made"``, default, or ``"equity"``): see :mod:`simulate.pineapple`.
    """
    g = check_game(game)
    if isinstance(hands, str) or not isinstance(hands, (Sequence, np.ndarray)):
        raise CardError("hands must be a list, e.g. ['AhKh', 'QsQd']")
    sampling(exact, samples, target_std_error, seed, threads)
    if g in ("pineapple", "crazy_pineapple"):
        from .pineapple import DEFAULT_POLICY, pineapple_equity

        return pineapple_equity(hands, board, dead, game=g, discard_after=discard_after,
                                discards=discards, discard_policy=discard_policy or DEFAULT_POLICY,
                                exact=exact, samples=samples, target_std_error=target_std_error,
                                seed=seed, threads=threads)
    if discard_after is not None or len(discards or "") or discard_policy is not None:
        raise CardError(f"discard_after, discards and discard_policy are for pineapple and "
                        f"crazy_pineapple, not {g}")
    if g.startswith("omaha"):
        from .omaha import omaha_equity

        return omaha_equity(hands, board, dead, exact=exact, samples=samples,
                            target_std_error=target_std_error, seed=seed, threads=threads,
                            game=g)
    if not all(_is_exact_hand(h) for h in hands):
        from .range_equity import range_equity

        return range_equity(hands, board, dead, exact=exact, samples=samples,
                            target_std_error=target_std_error, seed=seed, threads=threads)
    req = parse_request(hands, board, dead, game=g)
    return holdem_equity(req, exact=exact, samples=samples, target_std_error=target_std_error,
                         seed=seed, threads=threads)


def exact_work(req: Request) -> int:
    """Upper bound on the player-evaluations of the exact walk of ``req``.

    The walk visits at most one board per rank multiset of the dealt cards, plus, per
    suit, one per (set of dealt cards of that suit, rank multiset of the rest).
    """
    return reduced_walk_work(req.remaining_deck().tolist(), 5 - len(req.board), len(req.hands))


def reduced_walk_work(deck: Sequence[int], k: int, n_players: int) -> int:
    """Upper bound on the player-evaluations of the reduced walk dealing ``k`` cards from
    ``deck`` to ``n_players`` hands (:func:`exact_work`; ``allin_ev`` uses it too, so a spot
    exact in ``equity`` is exact in ``allin_ev``)."""
    boards = math.comb(k + 12, k)
    for s in range(4):
        n_s = sum(1 for c in deck if c & 3 == s)
        boards += sum(math.comb(n_s, j) * math.comb(k - j + 12, k - j) for j in range(k + 1))
    return boards * n_players


def holdem_equity(req: Request, *, exact: bool | None = None, samples: int | None = None,
                  target_std_error: float | None = None, seed: int | None = None,
                  threads: int | None = None) -> EquityResult:
    """Equity of a validated Hold'em :class:`~simulate.request.Request` of exact hands."""
    opts = sampling(exact, samples, target_std_error, seed, threads)
    if opts.exact is None:
        exact = not opts.wants_sampling and exact_work(req) <= EXACT_BUDGET
    if exact:
        return _exact(req)
    return _monte_carlo(req, opts)


def _kernel_inputs(req: Request) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple, np.ndarray]:
    from evaluator._tables import get_tables

    t = get_tables()
    hole = req.hands_array()
    board = np.array(req.board, dtype=np.uint8)
    deck = req.remaining_deck()
    return hole, board, deck, t.kernel_args, _cat_of()


def _cat_of() -> np.ndarray:
    """``uint8[7463]``: category index 0..8 of each strength (index 0 unused)."""
    from evaluator.hands import category_table

    return category_table()


def _categories(counts: np.ndarray, total: int, exact: bool) -> dict[str, float]:
    return {name: (float(Fraction(int(n), total)) if exact else int(n) / total)
            for name, n in zip(CATEGORY_NAMES, counts.tolist(), strict=True)}


def _exact(req: Request) -> EquityResult:
    from ._kernels import holdem_exact as ek

    hole, board, deck, tables, cat_of = _kernel_inputs(req)
    avail = np.zeros(52, dtype=np.uint8)
    avail[deck] = 1
    n = len(req.hands)
    res = np.zeros((n, 3), dtype=np.int64)
    cats = np.zeros((n, 9), dtype=np.int64)
    t0 = work_clock()
    total = int(ek.exact_walk(hole, board, avail, tables, cat_of, res, cats))
    elapsed = work_clock() - t0
    k = 5 - len(req.board)
    if total != math.comb(len(deck), k):  # the weights must cover every runout
        raise AssertionError(f"exact walk counted {total} runouts, "
                             f"expected {math.comb(len(deck), k)}")
    players = []
    for p, text in enumerate(req.texts):
        win, tie, share = (int(x) for x in res[p])
        players.append(PlayerResult(
            hand=text, equity=float(Fraction(share, SHARE_UNIT * total)),
            win=float(Fraction(win, total)), tie=float(Fraction(tie, total)), std_error=0.0,
            categories=_categories(cats[p], total, True)))
    return EquityResult(players=players, exact=True, samples=total, elapsed_s=elapsed,
                        game=req.game, board=req.board_text, dead=req.dead_text,
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


def _monte_carlo(req: Request, opts: Sampling) -> EquityResult:
    from evaluator._jit import threads as _threads

    from ._kernels import holdem_mc as mk
    from .sampling import BLOCK, run_blocks

    s = opts.resolved_seed()
    n_threads = opts.n_threads()
    hole, board, deck, tables, cat_of = _kernel_inputs(req)
    n_players = len(req.hands)
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
                            categories=_categories(acc[p, :9], n, False))
               for p, text in enumerate(req.texts)]
    return EquityResult(players=players, exact=False, samples=n, elapsed_s=elapsed,
                        game=req.game, board=req.board_text, dead=req.dead_text,
                        extra={"seed": s})
