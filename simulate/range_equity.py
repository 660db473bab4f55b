"""The range runners: range-vs-range Hold'em equity (2..10 players, any mix of ranges and
exact hands) by exact walks or Monte Carlo. :func:`analyze_spot` takes a parsed
:class:`~simulate.request.Spot` and returns a :class:`~simulate.range_report.RangeAnalysis`
(per-combo equity, the 13x13 grid, hand categories: :mod:`simulate.range_report`).

Convention: every combination of the players' combos that shares no card is dealt with
probability proportional to the product of the combos' weights, and every runout of the board
is equally likely.

Exact mode walks every full board once (board-major) and looks up each live combo's strength
on it once; heads-up it then scores all compatible pairs either pair by pair (small ranges) or
by one sort of both ranges with per-card inclusion-exclusion (big ranges); with more players it
walks the compatible combinations. Heads-up against ``random`` (one player holding every live
combo at one weight, the other at most ``VS_RANDOM_MAX`` combos) the random player is not
walked combo by combo: off a flush its strength depends only on its two ranks, so each board
looks up the 91 rank pairs once and counts, for each hero combo, the opponent combos of each
rank pair left after card removal; only the opponent combos that make a flush are looked up
one by one. An exact hand against ``random`` is walked as its whole suit orbit (``AhKh`` as
``AKs`` preflop), which keeps the full board symmetry.

Boards are reduced by suit isomorphism (:mod:`simulate.symmetry`): one board per orbit of the
suit permutations fixing the spot is walked, weighted by the orbit size, and per-combo results
are symmetrised afterwards. ``samples`` of an exact walk counts every runout of every
card-disjoint combination of the players' combos, unweighted (weights change the equities,
never the count).

Monte Carlo draws the non-random players' combos together, each by weight, and redraws the
whole set on any shared card (so card removal is exact, with no bias towards combos that
conflict less); players holding ``random`` are then dealt from the remaining deck, which has
the same distribution because every such player's weight sum over the remaining cards is the
same for every draw of the others.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from evaluator._jit import work_clock
from evaluator.cards import CardError, cards_str
from evaluator.tablegen import CATEGORIES

from . import symmetry as sym
from .range_report import RangeAnalysis, hand_categories
from .ranges import ALL_COMBOS, N_COMBOS, Range
from .request import Spot, parse_spot
from .results import SHARE_UNIT, EquityResult, PlayerResult, std_error_of_mean
from .sampling import Sampling, check_walk, sampling, walk_parts, walk_progress

__all__ = ["RangeAnalysis", "analyze_ranges", "analyze_spot", "hand_categories",
           "preflop_vs_random", "range_equity"]

AUTO_EXACT_SECONDS = 0.25
PAIR_FACTOR = 12  # heads-up: pairwise scoring when n0 * n1 <= PAIR_FACTOR * (n0 + n1)
VS_RANDOM_MAX = 400  # heads-up against random: rank-class walk up to this many hero combos
SORTED_FROM = 12  # ... reading the rank classes from per-board prefix sums from this many
#: A heads-up walk against random estimated under this many seconds of one thread
#: (:func:`estimate_exact_seconds`) runs on one thread in a one-answer program
#: (``evaluator._first_run.for_the_work``) while the parallel walk is neither compiled nor
#: cached: its parallel loop compiles in about 3 s on the 2-core VM, more than it could
#: save (the same blocks, the same bits on any thread count).
SERIAL_BELOW_S = 0.5


def _arrays(ranges: list[Range]) -> dict[str, np.ndarray]:
    from evaluator._tables import get_tables

    t = get_tables()
    P = len(ranges)
    M = max(len(r) for r in ranges)
    ckey = np.zeros((P, M), np.int64)
    cmask = np.zeros((P, M), np.int64)
    cbits = np.zeros((P, M), np.int64)
    cw = np.zeros((P, M), np.float64)
    cards = np.zeros((P, M, 2), np.uint8)
    cid = np.zeros((P, M), np.int64)
    pos = np.full((P, N_COMBOS), -1, np.int32)
    ncombo = np.zeros(P, np.int64)
    for p, r in enumerate(ranges):
        n = len(r)
        a = r.combos[:, 0].astype(np.int64)
        b = r.combos[:, 1].astype(np.int64)
        ncombo[p] = n
        ckey[p, :n] = t.card_key[a] + t.card_key[b]
        cmask[p, :n] = t.card_mask[a] | t.card_mask[b]
        cbits[p, :n] = (np.int64(1) << a) | (np.int64(1) << b)
        cw[p, :n] = r.weights
        cards[p, :n] = r.combos
        cid[p, :n] = r.indices
        pos[p, r.indices] = np.arange(n, dtype=np.int32)
    return {"ckey": ckey, "cmask": cmask, "cbits": cbits, "cw": cw, "cards": cards,
            "cid": cid, "pos": pos, "ncombo": ncombo}


def _cat_of(spot: Spot) -> np.ndarray:
    """``uint8[S + 1]``: the category of each strength of the spot's scale
    (:func:`evaluator.hands.category_table`)."""
    from evaluator.hands import category_table

    return category_table(spot.game.scale)


def _tables(spot: Spot) -> tuple[np.ndarray, ...]:
    """The kernel tables of the spot's scale (Hold'em's, or a short deck's)."""
    from evaluator._tables import get_tables

    return get_tables(spot.game.scale).kernel_args


def _disjoint_pairs(r0: Range, r1: Range) -> int:
    """How many pairs (a combo of ``r0``, a combo of ``r1``) share no card (unweighted)."""
    per_card = np.bincount(r1.combos.reshape(-1), minlength=52)
    a, b = r0.combos[:, 0], r0.combos[:, 1]
    both = np.isin(r0.indices, r1.indices)
    return int((len(r1) - per_card[a] - per_card[b] + both).sum())


def _deals_walked(spot: Spot, pairs: int) -> int:
    """``samples`` of a heads-up exact walk: ``pairs`` card-disjoint combo pairs times the
    runouts left to each (every pair leaves the same number of cards), unweighted."""
    left = spot.game.deck_size - len(spot.board) - len(spot.dead) - 4
    return pairs * math.comb(left, 5 - len(spot.board))


def estimate_exact_seconds(spot: Spot) -> float:
    """Rough single-thread seconds of the exact walk of ``spot`` (all-in EV's heads-up rule
    reads it too)."""
    n_add = 5 - len(spot.board)
    avail = spot.game.deck_size - len(spot.board) - len(spot.dead)
    plan = _vs_random_plan(spot)
    if plan is not None:
        hero = spot.ranges[plan[0]]
        n_h = len(hero)
        if spot.exact_hand[plan[0]]:
            g0 = sym.symmetry(spot.board, spot.out, [])
            h = max(1, len(g0))
            n_h = len(np.unique(sym.perms()[2][g0, int(hero.indices[0])]))
        else:
            h = max(1, len(sym.symmetry(spot.board, spot.out, [hero.dense()])))
        return math.comb(avail, n_add) / h * (1.5e-6 + 1.5e-7 * n_h)
    dense = [r.dense() for r in spot.ranges]
    h = max(1, len(sym.symmetry(spot.board, spot.out, dense)))
    n_boards = math.comb(avail, n_add) / h
    sizes = [len(r) for r in spot.ranges]
    if len(sizes) == 2:
        n0, n1 = sizes
        per = 4e-9 * (n0 + n1) + min(1.5e-9 * n0 * n1, 25e-9 * (n0 + n1))
    else:
        per = 4e-9 * sum(sizes) + 3e-9 * len(sizes) * math.prod(sizes)
    return n_boards * per


def _result(spot: Spot, eq: np.ndarray, win: np.ndarray, tie: np.ndarray, se: np.ndarray,
            cats: np.ndarray, exact: bool, samples: int, t0: float) -> EquityResult:
    players = []
    for p in range(len(spot.ranges)):
        players.append(PlayerResult(
            hand=spot.texts[p], equity=float(eq[p]), win=float(win[p]), tie=float(tie[p]),
            std_error=float(se[p]),
            categories={name: float(cats[p, i]) for i, name in enumerate(CATEGORIES)}))
    return EquityResult(players=players, exact=exact, samples=int(samples),
                        elapsed_s=work_clock() - t0, game=spot.game.name,
                        board=cards_str(spot.board), dead=cards_str(spot.dead))


def _vs_random_plan(spot: Spot) -> tuple[int, int] | None:
    """(hero, villain) player indices when the spot suits :func:`_run_vs_random`: heads-up,
    exactly one player holding ``random`` (every live combo at one weight) and the other's
    range at most ``VS_RANDOM_MAX`` combos; else None."""
    if len(spot.ranges) != 2:
        return None
    rnd = spot.holds_random()
    if rnd[0] == rnd[1]:
        return None
    v = rnd.index(True)
    h = 1 - v
    if len(spot.ranges[h]) > VS_RANDOM_MAX:
        return None
    return h, v


def _run_exact(spot: Spot, threads: int, t0: float,
               progress: Callable[[int, int], None] | None = None) -> RangeAnalysis:
    plan = _vs_random_plan(spot)
    if plan is not None:
        return _run_vs_random(spot, plan[0], plan[1], threads, t0, progress)
    return _run_exact_generic(spot, threads, t0, progress)


def _run_vs_random(spot: Spot, h: int, v: int, threads: int, t0: float,
                   progress: Callable[[int, int], None] | None = None,
                   sorted_from: int | None = None) -> RangeAnalysis:
    """Exact heads-up walk of player ``h``'s range against player ``v`` holding ``random``
    (see :func:`simulate._kernels.ranges.hu_random_walk`). An exact hand is walked as its whole
    orbit under the suit permutations that fix the board and dead cards: every orbit member
    meets the same opponents and runouts up to a relabelling of suits, so the hand's results
    are the orbit's sums divided by its size, and the board walk keeps the full symmetry."""
    from evaluator._first_run import compile_beside, for_the_work, ready
    from evaluator._jit import threads as _threads
    from evaluator._tables import get_tables
    from evaluator.hands import batch_compile_job

    from ._kernels import ranges as K

    perms, card_map, combo_map = sym.perms()
    used = set(spot.board) | set(spot.out)
    pool_cards = np.array([c for c in range(52) if c not in used], dtype=np.int64)
    pool = int(sum(1 << int(c) for c in pool_cards))
    wv = float(spot.ranges[v].weights[0])
    dense_v = np.zeros(N_COMBOS)
    ok = np.ones(52, dtype=bool)
    ok[list(used)] = False
    dense_v[ok[ALL_COMBOS[:, 0]] & ok[ALL_COMBOS[:, 1]]] = wv
    hero = spot.ranges[h]
    orbit = 1
    if spot.exact_hand[h]:
        g0 = sym.symmetry(spot.board, spot.out, [])
        idx = np.unique(combo_map[g0, int(hero.indices[0])])
        orbit = len(idx)
        hero = Range(hero.text, ALL_COMBOS[idx].astype(np.uint8), np.ones(orbit))
    dense_h = hero.dense()
    group = sym.symmetry(spot.board, spot.out, [dense_h, dense_v])
    t = get_tables(spot.game.scale)
    a = hero.combos[:, 0].astype(np.int64)
    b = hero.combos[:, 1].astype(np.int64)
    hkey = t.card_key[a] + t.card_key[b]
    hmask = t.card_mask[a] | t.card_mask[b]
    hbits = (np.int64(1) << a) | (np.int64(1) << b)
    hw = np.ascontiguousarray(hero.weights, dtype=np.float64)
    hcards = np.ascontiguousarray(hero.combos, dtype=np.uint8)
    n = len(hero)
    acc = np.zeros((K.N_BLOCKS, n, 4))
    cat_acc = np.zeros((K.N_BLOCKS, n, 9))
    vacc = np.zeros((K.N_BLOCKS, 4))
    vcat = np.zeros((K.N_BLOCKS, 9))
    tables = t.kernel_args
    sorted_from = SORTED_FROM if sorted_from is None else sorted_from
    walk = K.hu_random_walk
    if not ready(walk):  # a small walk's first run: no parallel loop to compile (same bits)
        walk = for_the_work(walk, K.hu_random_serial,
                            estimate_exact_seconds(spot) < SERIAL_BELOW_S)
    if not ready(walk):
        # a first run: the walk (the longest compile) compiles here, on no boards, while a
        # copy of the process compiles the board enumeration and, where a board is given,
        # the hand categories' evaluator (the report's); :func:`compile_beside`
        jobs = [sym.boards_compile_job()]
        if len(spot.board) >= 3:
            jobs.append(batch_compile_job(spot.game.scale))
        wait = compile_beside(*jobs[0], *jobs[1:])
        try:
            with _threads(threads):
                walk(np.zeros((0, 5), np.uint8), np.zeros(0, np.int64), hkey, hmask, hbits, hw,
                     hcards, np.int64(pool), wv, _cat_of(spot), tables, acc, cat_acc, vacc,
                     vcat, sorted_from)
        finally:
            wait()
    boards, bw = sym.boards(spot.board, spot.out, group)
    n_parts = 1 if progress is None else walk_parts(estimate_exact_seconds(spot) / threads,
                                                    len(boards), 50)
    cuts = np.linspace(0, len(boards), n_parts + 1).astype(np.int64)
    with _threads(threads):
        for part in range(n_parts):
            walk(boards[cuts[part]:cuts[part + 1]], bw[cuts[part]:cuts[part + 1]], hkey, hmask,
                 hbits, hw, hcards, np.int64(pool), wv, _cat_of(spot), tables, acc, cat_acc,
                 vacc, vcat, sorted_from)
            if progress is not None:
                progress(part + 1, n_parts)
    acc = acc.sum(axis=0)
    cat_acc = cat_acc.sum(axis=0)
    vacc = vacc.sum(axis=0) / orbit
    vcat = vcat.sum(axis=0) / orbit
    cid = hero.indices
    pos = np.full(N_COMBOS, -1, np.int64)
    pos[cid] = np.arange(n)
    sym.symmetrise(acc, group, cid, pos)
    sym.symmetrise(cat_acc, group, cid, pos)
    hacc = acc.sum(axis=0) / orbit
    Z = float(hacc[3])
    if not Z > 0:
        raise CardError("no deal is possible: every combination of the players' hands "
                        "shares a card")
    win = np.zeros(2)
    tie = np.zeros(2)
    eq = np.zeros(2)
    cats = np.zeros((2, 9))
    win[h], tie[h], eq[h] = hacc[0] / Z, hacc[1] / Z, (hacc[0] + hacc[2]) / Z
    win[v], tie[v], eq[v] = vacc[0] / Z, vacc[1] / Z, (vacc[0] + vacc[2]) / Z
    cats[h] = cat_acc.sum(axis=0) / orbit / Z
    cats[v] = vcat / Z
    combo_eq: list[np.ndarray | None] = [None, None]
    combo_share: list[np.ndarray | None] = [None, None]
    if orbit > 1:
        combo_eq[h] = np.array([(hacc[0] + hacc[2]) / Z])
        combo_share[h] = np.ones(1)
    else:
        tot = acc[:, 3]
        with np.errstate(invalid="ignore", divide="ignore"):
            combo_eq[h] = np.where(tot > 0, (acc[:, 0] + acc[:, 2]) / tot, np.nan)
        combo_share[h] = tot / Z
    n_deals = _deals_walked(spot, _disjoint_pairs(spot.ranges[h], spot.ranges[v]))
    res = _result(spot, eq, win, tie, np.zeros(2), cats, True, n_deals, t0)
    res.extra["boards_walked"] = int(boards.shape[0])

    def fill() -> tuple[list[np.ndarray], list[np.ndarray]]:
        an = _run_exact_generic(spot, threads, work_clock())
        return an.combo_equity, an.combo_share

    return RangeAnalysis(res, spot.ranges, combo_eq, combo_share, spot.board, spot.dead, fill)


def _run_exact_generic(spot: Spot, threads: int, t0: float,
                       progress: Callable[[int, int], None] | None = None) -> RangeAnalysis:
    from evaluator._jit import threads as _threads

    from ._kernels import ranges as K
    from ._kernels.score import block_scorer

    dense = [r.dense() for r in spot.ranges]
    group = sym.symmetry(spot.board, spot.out, dense)
    boards, bw = sym.boards(spot.board, spot.out, group)
    arr = _arrays(spot.ranges)
    P, M = arr["ckey"].shape
    acc = np.zeros((K.N_BLOCKS, P, M, 4))
    cat_acc = np.zeros((K.N_BLOCKS, P, M, 9))
    tables = _tables(spot)
    no_pots = block_scorer(np.zeros(0, np.int64), np.zeros((0, P), np.bool_), np.arange(P),
                           _cat_of(spot), K.N_BLOCKS)
    deals = np.zeros(K.N_BLOCKS, np.int64)
    n_parts = 1 if progress is None else walk_parts(estimate_exact_seconds(spot) / threads,
                                                    len(boards), 50)
    cuts = np.linspace(0, len(boards), n_parts + 1).astype(np.int64)
    with _threads(threads):
        for part in range(n_parts):
            bs, ws = boards[cuts[part]:cuts[part + 1]], bw[cuts[part]:cuts[part + 1]]
            if P == 2:
                K.hu_walk(bs, ws, arr["ckey"], arr["cmask"], arr["cbits"], arr["cw"],
                          arr["ncombo"], arr["cards"], arr["pos"], arr["cid"], _cat_of(spot),
                          tables, acc, cat_acc, PAIR_FACTOR)
            else:
                K.mw_walk(bs, ws, arr["ckey"], arr["cmask"], arr["cbits"], arr["cw"],
                          arr["ncombo"], _cat_of(spot), tables, acc, cat_acc, no_pots, deals)
            if progress is not None:
                progress(part + 1, n_parts)
    acc = acc.sum(axis=0)
    cat_acc = cat_acc.sum(axis=0)
    # symmetrise per-combo sums over the group (totals are unchanged)
    if len(group) > 1:
        combo_map = sym.perms()[2]
        for p in range(P):
            n = int(arr["ncombo"][p])
            loc = arr["pos"][p][combo_map[group][:, arr["cid"][p, :n]]]  # [h, n]
            acc[p, :n] = acc[p][loc].mean(axis=0)
            cat_acc[p, :n] = cat_acc[p][loc].mean(axis=0)
    total = acc[:, :, 3].sum(axis=1)  # the same for every player: all compatible deals
    Z = float(total[0])
    if not Z > 0:
        raise CardError("no deal is possible: every combination of the players' hands "
                        "shares a card")
    win = acc[:, :, 0].sum(axis=1) / Z
    tie = acc[:, :, 1].sum(axis=1) / Z
    eq = (acc[:, :, 0].sum(axis=1) + acc[:, :, 2].sum(axis=1)) / Z
    cats = cat_acc.sum(axis=1) / Z
    combo_eq, combo_share = [], []
    for p in range(P):
        n = int(arr["ncombo"][p])
        tot = acc[p, :n, 3]
        with np.errstate(invalid="ignore", divide="ignore"):
            combo_eq.append(np.where(tot > 0, (acc[p, :n, 0] + acc[p, :n, 2]) / tot, np.nan))
        combo_share.append(tot / Z)
    # compatible deals, unweighted: every runout of every card-disjoint combination
    n_deals = (_deals_walked(spot, _disjoint_pairs(*spot.ranges)) if P == 2
               else int(deals.sum()))
    res = _result(spot, eq, win, tie, np.zeros(P), cats, True, n_deals, t0)
    res.extra["boards_walked"] = int(boards.shape[0])
    return RangeAnalysis(res, spot.ranges, combo_eq, combo_share, spot.board, spot.dead)


def _any_deal(ranges: list[Range], limit: int = 200_000) -> bool | None:
    """True if some combination of combos shares no card, False if none, None if unsure."""
    lists = sorted(([int((1 << int(a)) | (1 << int(b))) for a, b in r.combos.tolist()]
                    for r in ranges), key=len)
    nodes = 0

    def dfs(level: int, used: int) -> bool | None:
        nonlocal nodes
        if level == len(lists):
            return True
        unsure = False
        for bits in lists[level]:
            nodes += 1
            if nodes > limit:
                return None
            if bits & used:
                continue
            r = dfs(level + 1, used | bits)
            if r:
                return True
            if r is None:
                unsure = True
        return None if unsure else False

    return dfs(0, 0)


def _run_mc(spot: Spot, opts: Sampling, threads: int, t0: float) -> RangeAnalysis:
    from evaluator._jit import threads as _threads

    from ._kernels import range_mc as KM
    from .sampling import BLOCK, run_blocks

    if _any_deal(spot.ranges) is False:
        raise CardError("no deal is possible: every combination of the players' hands "
                        "shares a card")
    seed = opts.resolved_seed()
    arr = _arrays(spot.ranges)
    P, M = arr["ckey"].shape
    is_random = np.array(spot.holds_random(), dtype=np.bool_)
    cdf = np.zeros((P, M))
    for p in range(P):
        n = int(arr["ncombo"][p])
        cdf[p, :n] = np.cumsum(arr["cw"][p, :n])
    base_bits = 0
    for c in spot.board + spot.out:
        base_bits |= 1 << c
    C = max(2, 2 * threads)
    sh = np.zeros((C, P), np.int64)
    sq = np.zeros((C, P), np.int64)
    win = np.zeros((C, P), np.int64)
    tie = np.zeros((C, P), np.int64)
    cat = np.zeros((C, P, 9), np.int64)
    combo_n = np.zeros((C, P, N_COMBOS), np.int64)
    combo_sh = np.zeros((C, P, N_COMBOS), np.int64)
    ok = np.ones(C, dtype=np.bool_)
    board = np.array(spot.board, dtype=np.uint8)
    tables = _tables(spot)
    unit = float(SHARE_UNIT)
    cap = opts.cap

    def run(lo: int, hi: int) -> None:
        with _threads(threads):
            KM.mc_run(np.uint64(seed), cap, BLOCK, lo, hi, board, np.int64(base_bits), cdf,
                     arr["ncombo"], arr["cards"], is_random, _cat_of(spot), tables, 1_000_000,
                     sh, sq, win, tie, cat, combo_n, combo_sh, ok)
        if not ok.all():
            raise CardError("no deal found: the players' ranges almost always share a card")

    def std_errors(n: int) -> np.ndarray:
        return std_error_of_mean(sh.sum(axis=0) / unit, sq.sum(axis=0) / (unit * unit), n)

    n = run_blocks(opts, run, std_errors, min_round=threads)
    eq = sh.sum(axis=0) / (n * unit)
    se = std_errors(n)
    cn = combo_n.sum(axis=0)
    cs = combo_sh.sum(axis=0)
    combo_eq, combo_share = [], []
    for p in range(P):
        idx = arr["cid"][p, :int(arr["ncombo"][p])]
        with np.errstate(invalid="ignore", divide="ignore"):
            combo_eq.append(np.where(cn[p, idx] > 0, cs[p, idx] / (unit * cn[p, idx]), np.nan))
        combo_share.append(cn[p, idx] / n)
    res = _result(spot, eq, win.sum(axis=0) / n, tie.sum(axis=0) / n, se, cat.sum(axis=0) / n,
                  False, n, t0)
    res.extra["seed"] = seed
    return RangeAnalysis(res, spot.ranges, combo_eq, combo_share, spot.board, spot.dead)


def analyze_ranges(hands: Sequence[str], board: str | Sequence[int] = "",
                   dead: str | Sequence[int] = "", *, exact: bool | None = None,
                   samples: int | None = None, target_std_error: float | None = None,
                   seed: int | None = None, threads: int | None = None,
                   game: str = "holdem") -> RangeAnalysis:
    """Range equity with its per-combo breakdown (see :class:`RangeAnalysis`).
    Arguments as :func:`range_equity`."""
    opts = sampling(exact, samples, target_std_error, seed, threads)
    return analyze_spot(parse_spot(hands, board, dead, game=range_game(game)), opts)


def range_game(game: str) -> str:
    """The name of ``game`` when it takes ranges (Hold'em, short deck); CardError otherwise."""
    from .request import check_game

    g = check_game(game)
    if not g.ranges:
        raise CardError(f"ranges are for Hold'em games, not {g.name}")
    return g.name


def analyze_spot(spot: Spot, opts: Sampling) -> RangeAnalysis:
    """The range analysis of a parsed Hold'em ``spot`` with checked ``opts``: exact when
    asked, or (``exact=None``, no sampling options) when the walk's estimate on the threads
    is at most :data:`AUTO_EXACT_SECONDS`; sampled otherwise (then ``extra`` says how long
    the walk would have taken)."""
    t0 = work_clock()
    n_threads = opts.n_threads()
    exact = opts.exact
    estimate = None
    if exact is not False and not opts.wants_sampling:
        estimate = estimate_exact_seconds(spot) / n_threads
    if exact is None:
        exact = estimate is not None and estimate <= AUTO_EXACT_SECONDS
    if exact:
        # a long walk (the user insisted) runs in parts: Ctrl-C and progress between them
        check_walk(estimate or 0.0, n_threads)
        with walk_progress(estimate or 0.0, "exact walk", "parts") as report:
            return _run_exact(spot, n_threads, t0, report)
    an = _run_mc(spot, opts, n_threads, t0)
    if estimate is not None:  # switched to sampling: say how long the walk would take
        an.result.extra["exact_estimate_s"] = float(f"{estimate:.2g}")
    return an


def range_equity(hands: Sequence[str], board: str | Sequence[int] = "",
                 dead: str | Sequence[int] = "", *, exact: bool | None = None,
                 samples: int | None = None, target_std_error: float | None = None,
                 seed: int | None = None, threads: int | None = None,
                 game: str = "holdem") -> EquityResult:
    """Hold'em (or, ``game``, short-deck) equity of 2..10 players, each an exact hand
    (``AhKh``) or a range (``QQ+,AKs:0.5``, ``random``, ``top 15%``; see
    :mod:`simulate.ranges`).

    ``exact=True`` walks every compatible deal, ``False`` samples (``samples`` deals, default
    1,000,000, or until every player's standard error is at most ``target_std_error``),
    ``None`` walks when that is quick. The same ``seed`` gives the same answer on any thread
    count. Raises :class:`evaluator.cards.CardError` (a ValueError) with a one-line message on
    bad input, including a range left empty by the board and dead cards.
    """
    return analyze_ranges(hands, board, dead, exact=exact, samples=samples,
                          target_std_error=target_std_error, seed=seed,
                          threads=threads, game=game).result


def preflop_vs_random(*, threads: int | None = None,
                      progress: Callable[[int, int], None] | None = None,
                      game: str = "holdem") -> dict[str, float]:
    """Exact all-in equity of each of the 169 starting hands (short deck: its 81) against one
    random hand, by one walk of every suit-canonical five-card board scoring every pair of
    combos at once. Returns ``{class name: equity}``; ``progress(done, total)`` is called
    along the way."""
    from evaluator._jit import resolve_threads

    from .ranges import HAND_CLASSES, combo_class_index

    spot = parse_spot(["random", "random"], game=range_game(game))
    an = _run_exact(spot, resolve_threads(threads), work_clock(), progress)
    cls = combo_class_index()[spot.ranges[0].indices]
    num = np.bincount(cls, weights=an.combo_equity[0] * an.combo_share[0], minlength=169)
    den = np.bincount(cls, weights=an.combo_share[0], minlength=169)
    return {name: float(num[i] / den[i]) for i, name in enumerate(HAND_CLASSES) if den[i] > 0}
