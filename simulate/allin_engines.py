"""The all-in engines behind :func:`simulate.allin_ev`: one class per kind of spot.

Each engine turns a parsed all-in :class:`~simulate.request.Spot` into the arrays of its
kernels, in *live index space* (the live seats, numbered 0..L-1), and answers two calls:
``exact(n_threads)`` (every runout: ``(win object[P, L], runouts)``, ``win[p, i]`` the
chips seat ``i`` takes from contested pot ``p`` summed over the runouts) and
``monte_carlo(seed, cap, lo, hi, n_threads)`` (blocks ``lo..hi-1`` of the block plan of
:mod:`simulate.sampling`: ``(win object[P, L], sumsq float64[L])``). ``quick(n_threads)``
is the rule ``exact=None`` follows: the equity engine's own for the same spot.

* :class:`Engine`: exact Hold'em hands (the reduced walk of
  :mod:`simulate._kernels.holdem_exact` into the pots scorer; the sampler of
  :mod:`simulate._kernels.allin`);
* :class:`RangeEngine`: seats holding ranges (range equity's walks heads-up, its board-major
  multiway walk otherwise; weighted tuple draws when sampling);
* :class:`OmahaEngine`: Omaha (the triple-table walk of :mod:`simulate._kernels.omaha`);
* :class:`PineappleEngine`: three-card Pineapple hands before the discard point.

:func:`engine_for` picks one.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from evaluator.cards import CardError
from simulate.ranges import Range
from simulate.request import DISCARD_AFTER, POLICIES, Spot
from simulate.sampling import Sampling, check_walk, walk_parts, walk_progress

__all__ = ["Engine", "OmahaEngine", "PineappleEngine", "RangeEngine", "engine_for"]

#: Omaha runouts dealt and evaluated per batch (bounds the memory of a long run).
OMAHA_CHUNK = 1 << 18


def engine_for(spot: Spot) -> Engine:
    """The engine of a parsed all-in ``spot`` (three-card Pineapple hands already at their
    discard point must have discarded first: :func:`simulate.pineapple.discard_now`)."""
    if spot.discard_policy is not None:
        return PineappleEngine(spot)
    if spot.game.is_omaha:
        return OmahaEngine(spot)
    if spot.ranged:
        return RangeEngine(spot)
    return Engine(spot)


class Engine:
    """Arrays for the kernels (see :mod:`simulate._kernels.allin`), in live index space."""

    def __init__(self, spot: Spot, live_seats: list[int] | None = None) -> None:
        from evaluator._kernels.holdem import KEY_INIT_I64
        from evaluator._tables import get_tables
        from evaluator.hands import category_table

        # the game's scale and deck: short deck is these kernels with its own tables and the
        # cards below the six out (Spot.out)
        self.tables = get_tables(spot.game.scale).kernel_args
        self.cat_of = category_table(spot.game.scale)
        card_key, card_mask = self.tables[0], self.tables[1]
        n = len(spot.hands)
        if live_seats is None:
            live_seats = [s for s in range(n) if spot.hands[s] is not None]
        self.live_seats = live_seats
        live_index = {s: i for i, s in enumerate(self.live_seats)}
        n_live = len(self.live_seats)
        exact = [spot.hands[s] for s in self.live_seats if isinstance(spot.hands[s], list)]
        self.hole_key = np.array([sum(int(card_key[c]) for c in h) for h in exact], np.int64)
        self.hole_mask = np.array([np.bitwise_or.reduce([int(card_mask[c]) for c in h])
                                   for h in exact], np.int64)
        self.board_key = np.int64(int(KEY_INIT_I64) + sum(int(card_key[c]) for c in spot.board))
        mask = 0
        for c in spot.board:
            mask |= int(card_mask[c])
        self.board_mask = np.int64(mask)
        self.hands = spot.hands
        self.board = np.array(spot.board, np.uint8)
        used = set(spot.board) | set(spot.out)
        self.base_deck = np.array([c for c in range(52) if c not in used], np.uint8)
        for h in spot.hands:
            if isinstance(h, list):
                used |= set(h)
        self.deck = np.array([c for c in range(52) if c not in used], np.uint8)
        self.k = 5 - len(spot.board)
        from simulate.pots import odd_chip_order

        assert spot.pots is not None
        self.contested = [p for p, pot in enumerate(spot.pots.pots) if len(pot.eligible) > 1]
        pots = [spot.pots.pots[p] for p in self.contested]
        self.amounts = np.array([pot.amount for pot in pots], np.int64)
        self.elig = np.zeros((len(pots), n_live), np.bool_)
        for p, pot in enumerate(pots):
            self.elig[p, [live_index[s] for s in pot.eligible]] = True
        order = odd_chip_order(n, spot.button)
        self.order = np.array([live_index[s] for s in order.tolist() if s in live_index],
                              np.int64)
        from simulate._kernels.award import scorer_tables

        self.split, self.odd = scorer_tables(self.amounts, self.elig)
        n_hole = sum(2 if isinstance(h, Range) else len(h) for h in spot.hands if h is not None)
        self.n_runouts = math.comb(len(self.base_deck) - n_hole, self.k)

    def work(self) -> int:
        """Player-evaluations of the reduced walk, bounded as ``equity`` bounds them."""
        from simulate.holdem import reduced_walk_work

        return reduced_walk_work(self.deck.tolist(), self.k, len(self.live_seats))

    @property
    def exact_limit(self) -> int:
        """``exact=None`` walks when :meth:`work` is at most this: ``equity``'s budget."""
        from simulate.holdem import EXACT_BUDGET

        return EXACT_BUDGET

    def quick(self, n_threads: int) -> bool:
        """Whether ``exact=None`` walks every runout (the equity engine's own rule)."""
        return self.k == 0 or self.work() <= self.exact_limit

    def _check_size(self, runouts: int) -> None:
        if int(self.amounts.sum()) * runouts >= 2**63:
            raise ValueError("chip counts too large: use smaller units (total chips x runouts "
                             "must stay below 2**63)")

    def _common(self) -> tuple[Any, ...]:
        return (self.k, self.board_key, self.board_mask, self.deck, self.hole_key,
                self.hole_mask, self.amounts, self.split, self.odd, self.elig,
                self.order, self.tables)

    def scorer(self, dtype: Any = np.int64) -> tuple[np.ndarray, ...]:
        """The contested pots as a :mod:`simulate._kernels.score` scorer (live index space)."""
        from simulate._kernels.score import pots_scorer

        return pots_scorer(self.amounts, self.elig, self.order, self.cat_of, dtype)

    def exact(self, n_threads: int) -> tuple[np.ndarray, int]:
        """Every runout, through the reduced walk of :mod:`simulate._kernels.holdem_exact`
        (one weighted strength row per board class) into the pots scorer, or board by board
        (:func:`simulate._kernels.allin.exact_runouts`) when at most
        ``PLAIN_MAX_CARDS`` cards are to come: ``(win object[P, L] of Python ints,
        runouts)``. One thread: a 4-way preflop spot takes about as long as its equity
        (about 1-2 ms)."""
        from simulate._kernels import allin as K
        from simulate.holdem import run_walk

        self._check_size(self.n_runouts)
        if self.k <= K.PLAIN_MAX_CARDS:  # a few hundred boards: one by one
            win = np.zeros(self.amounts.shape + self.order.shape, np.int64)
            total = K.exact_runouts(*self._common(), win)
            if total != self.n_runouts:
                raise AssertionError(f"runouts: {total}, not {self.n_runouts}")
            return win.astype(object), total
        hole = np.array([self.hands[s] for s in self.live_seats], np.uint8)
        avail = np.zeros(52, np.uint8)
        avail[self.deck] = 1
        sc = self.scorer()
        total = run_walk(hole, self.board, avail, self.tables, sc)
        if total != self.n_runouts:  # the weights must cover every runout
            raise AssertionError(f"exact walk counted {total} runouts, not {self.n_runouts}")
        return sc[5].astype(object), total

    def outcomes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """:meth:`exact`, also counting the runouts by outcome (for a payoff that is not
        linear in the chips, ICM): ``(win object[P, L], outs int64[K, L], weights
        int64[K], runouts)``, ``outs[o]`` the chips each live seat takes from the contested
        pots on the runouts of outcome ``o`` and ``weights[o]`` how many runouts pay it."""
        from simulate._kernels.score import outcome_scorer
        from simulate.holdem import run_walk

        if type(self) is not Engine:
            raise ValueError("ICM equity needs exact Hold'em hands (no ranges, Omaha or "
                             "Pineapple yet)")
        self._check_size(self.n_runouts)
        hole = np.array([self.hands[s] for s in self.live_seats], np.uint8)
        avail = np.zeros(52, np.uint8)
        avail[self.deck] = 1
        sc = outcome_scorer(self.amounts, self.elig, self.order, self.cat_of)
        total = run_walk(hole, self.board, avail, self.tables, sc)
        outs, outw, nout = sc[10:]
        if nout[1] or total != self.n_runouts:
            raise AssertionError(f"outcome walk: {total} runouts, {nout[0]} outcomes")
        k = int(nout[0])
        return sc[5].astype(object), outs[:k].copy(), outw[:k].copy(), total

    def monte_carlo(self, seed: int, cap: int, lo: int, hi: int,
                    n_threads: int) -> tuple[np.ndarray, np.ndarray]:
        """Blocks ``lo..hi-1`` of a run of ``cap`` runouts (the block plan of
        :mod:`simulate.sampling`): ``(win object[P, L], sumsq float64[L])``."""
        from evaluator._jit import threads as _threads
        from simulate._kernels import allin as K

        from .sampling import BLOCK

        self._check_size(BLOCK)
        shape = self.amounts.shape + self.order.shape
        wins = np.zeros((hi - lo, *shape), np.int64)
        sumsqs = np.zeros((hi - lo, len(self.order)), np.float64)
        args = (np.uint64(seed), cap, BLOCK, lo, hi, *self._common(), wins, sumsqs)
        if n_threads == 1 or hi - lo == 1:
            K.mc_serial(*args)
        else:
            with _threads(n_threads):
                K.mc_parallel(*args)
        return wins.astype(object).sum(axis=0), sumsqs.sum(axis=0)


class RangeEngine(Engine):
    """Live seats holding ranges (exact hands are ranges of one combo of weight 1).

    Live index space puts the seat with the most combos first: the exact walk hands its
    combos out to threads. ``ccards`` uint8[L, M, 2], ``cw`` and ``cdf`` float64[L, M]
    (``cw_int`` int64 when every weight is a whole number), ``ncombo`` int64[L].
    """

    def __init__(self, spot: Spot) -> None:
        n = len(spot.hands)

        def size(s: int) -> int:
            h = spot.hands[s]
            return len(h) if isinstance(h, Range) else 1

        live = sorted((s for s in range(n) if spot.hands[s] is not None),
                      key=lambda s: (-size(s), s))
        super().__init__(spot, live)
        n_live = len(live)
        m = max(size(s) for s in live)
        self.ccards = np.zeros((n_live, m, 2), np.uint8)
        self.cw = np.zeros((n_live, m), np.float64)
        self.ncombo = np.zeros(n_live, np.int64)
        for i, s in enumerate(live):
            h = spot.hands[s]
            if isinstance(h, Range):
                self.ccards[i, : len(h)] = h.combos
                self.cw[i, : len(h)] = h.weights
                self.ncombo[i] = len(h)
            else:
                assert h is not None
                self.ccards[i, 0] = sorted(h)
                self.cw[i, 0] = 1.0
                self.ncombo[i] = 1
        self.spot = spot
        self.n_boards = math.comb(len(self.base_deck), self.k)
        self.cdf = np.cumsum(self.cw, axis=1)
        whole = bool(np.all(self.cw == np.round(self.cw))) and float(self.cw.max()) < 2**20
        self.cw_int = self.cw.astype(np.int64) if whole else None
        self.n_tuples_bound = math.prod(int(c) for c in self.ncombo)

    def _arrays(self) -> tuple[Any, ...]:
        return (self.k, self.board_key, self.board_mask, self.base_deck, self.ccards)

    def _pots(self) -> tuple[Any, ...]:
        return (self.amounts, self.split, self.odd, self.elig, self.order, self.tables)

    def _walk_inputs(self) -> tuple[Any, ...]:
        """Combo arrays of the board-major walk (:func:`simulate._kernels.ranges.mw_walk`) and
        the canonical boards under the spot's suit symmetry: ``(ckey, cmask, cbits, boards,
        board weights)``."""
        from simulate import symmetry as sym

        card_key, card_mask = self.tables[0], self.tables[1]
        a = self.ccards[:, :, 0].astype(np.int64)
        b = self.ccards[:, :, 1].astype(np.int64)
        live = np.arange(self.ccards.shape[1])[None, :] < self.ncombo[:, None]
        ckey = np.where(live, card_key[a] + card_key[b], 0)
        cmask = np.where(live, card_mask[a] | card_mask[b], 0)
        cbits = np.where(live, (np.int64(1) << a) | (np.int64(1) << b), 0)
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        dense = []
        for i in range(len(self.ncombo)):
            n = int(self.ncombo[i])
            v = np.zeros(1326)
            v[hi[i, :n] * (hi[i, :n] - 1) // 2 + lo[i, :n]] = self.cw[i, :n]
            dense.append(v)
        group = sym.symmetry(self.spot.board, self.spot.out, dense)
        boards, bw = sym.boards(self.spot.board, self.spot.out, group)
        return ckey, cmask, cbits, boards, bw

    def _live_spot(self) -> Spot:
        """The live seats' hands, in live index order, as a range-equity spot."""
        return Spot(self.spot.game, [self.spot.hands[s] for s in self.live_seats],
                    self.spot.board, self.spot.dead)

    def quick(self, n_threads: int) -> bool:
        """Range equity's rule: its estimate of the walk's seconds on ``n_threads`` at most
        :data:`simulate.range_equity.AUTO_EXACT_SECONDS`. Heads-up that is range equity's
        own walk (the one this engine runs); with more seats, its multiway walk."""
        from simulate.range_equity import AUTO_EXACT_SECONDS

        return self.estimate_s(n_threads) <= AUTO_EXACT_SECONDS

    def estimate_s(self, n_threads: int) -> float:
        """Range equity's estimate of the exact walk's seconds on ``n_threads``."""
        from simulate import symmetry as sym
        from simulate.range_equity import estimate_exact_seconds

        if len(self.live_seats) == 2:
            est = estimate_exact_seconds(self._live_spot())
        else:
            n_boards = self.n_boards / max(1, len(sym.symmetry(self.spot.board, self.spot.out,
                                                               [])))
            sizes = [int(c) for c in self.ncombo]
            est = n_boards * (4e-9 * sum(sizes) + 3e-9 * len(sizes) * math.prod(sizes))
        return est / n_threads

    def _heads_up_exact(self, n_threads: int) -> tuple[np.ndarray, int]:
        """Two live seats: every contested pot is between them, so range equity's exact
        walk (its heads-up and versus-random walks) gives each seat's win and tie shares,
        and pot ``p`` pays ``amount x win + tie x (amount // 2, the odd chip to the first
        of the two left of the button)``. Floats (the walk sums weights in float64)."""
        from simulate.range_equity import analyze_spot

        an = analyze_spot(self._live_spot(), Sampling(True, threads=n_threads))
        res = an.result
        self.deals = res.samples
        win = np.zeros((len(self.amounts), 2), object)
        for p, a in enumerate(self.amounts.tolist()):
            for i in range(2):
                odd = a % 2 if int(self.order[0]) == i else 0
                pl = res.players[i]
                win[p, i] = (a * pl.win + pl.tie * (a // 2 + odd)) * self.n_runouts
        return win, self.n_runouts

    def exact(self, n_threads: int) -> tuple[np.ndarray, int]:
        """Board-major walk (:func:`simulate._kernels.ranges.mw_walk`, range equity's): for
        each canonical board, every live combo's strength once, then every card-disjoint
        tuple into the pots scorer, weighted by the board's orbit size times the tuple's
        weight product: ``(win object[P, L], runouts)`` where ``win[p, i] / runouts`` is
        player ``i``'s expected take from pot ``p`` (Fractions when the weights are whole
        numbers, floats otherwise). Sets ``self.deals`` (tuples x runouts walked).
        Two live seats go through :meth:`_heads_up_exact`."""
        from fractions import Fraction

        from evaluator._jit import threads as _threads
        from simulate._kernels import ranges as KR
        from simulate._kernels.score import block_scorer

        if len(self.live_seats) == 2:
            return self._heads_up_exact(n_threads)
        self._check_size(self.n_runouts)
        integer = self.cw_int is not None
        cw = self.cw_int if integer else self.cw
        if integer:  # the weighted sums must fit in int64: bound the sum of tuple weights
            bound = math.prod(int(x) for x in cw.sum(axis=1))
            if int(self.amounts.sum()) * bound * self.n_boards >= 2**62:
                integer, cw = False, self.cw
        est = self.estimate_s(n_threads)
        check_walk(est, n_threads)  # over the limit even when asked for
        ckey, cmask, cbits, boards, bw = self._walk_inputs()
        n_blocks = KR.N_BLOCKS
        bsc = block_scorer(self.amounts, self.elig, self.order, self.cat_of, n_blocks,
                           dtype=cw.dtype)
        deals = np.zeros(n_blocks, np.int64)
        # a long walk runs in parts of boards: Ctrl-C and progress between them
        with walk_progress(est) as report, _threads(n_threads):
            n_parts = 1 if report is None else walk_parts(est, len(boards))
            cuts = np.linspace(0, len(boards), n_parts + 1).astype(np.int64)
            for part in range(n_parts):
                lo, hi = cuts[part], cuts[part + 1]
                part_deals = np.zeros(n_blocks, np.int64)  # set (not added) per call
                KR.mw_walk(boards[lo:hi], bw[lo:hi], ckey, cmask, cbits, cw, self.ncombo,
                           self.cat_of, self.tables, np.zeros((n_blocks, 0, 0, 4)),
                           np.zeros((n_blocks, 0, 0, 9)), bsc, part_deals)
                deals += part_deals
                if report is not None:
                    report(part + 1, n_parts)
        self.deals = int(deals.sum())
        if self.deals == 0:
            raise CardError("no deal is possible: every combination of the seats' hands "
                            "shares a card")
        total = int(self.amounts.sum())
        if integer:
            acc = bsc[5].astype(object).sum(axis=0)
            w = int(acc.sum()) // total  # sum over (tuple, runout) of the tuple's weight
            win = np.array([[Fraction(int(x) * self.n_runouts, w) for x in row] for row in acc],
                           object)
        else:
            acc = bsc[5].sum(axis=0)
            w = float(acc.sum()) / total
            win = (acc * (self.n_runouts / w)).astype(object)
        return win, self.n_runouts

    def monte_carlo(self, seed: int, cap: int, lo: int, hi: int,
                    n_threads: int) -> tuple[np.ndarray, np.ndarray]:
        from evaluator._jit import threads as _threads
        from simulate._kernels import allin as K

        from .sampling import BLOCK

        self._check_size(BLOCK)
        shape = self.amounts.shape + self.order.shape
        wins = np.zeros((hi - lo, *shape), np.int64)
        sumsqs = np.zeros((hi - lo, len(self.order)), np.float64)
        rejected = np.zeros(hi - lo, np.int64)
        args = (np.uint64(seed), cap, BLOCK, lo, hi, *self._arrays(), self.cdf,
                self.ncombo, *self._pots(), 1_000_000, wins, sumsqs, rejected)
        with _threads(n_threads):
            K.mc_range_run(*args)
        if (rejected < 0).any():
            raise CardError("no deal found: the seats' ranges (almost) always share a card")
        return wins.astype(object).sum(axis=0), sumsqs.sum(axis=0)


class OmahaEngine(Engine):
    """Omaha hands: runouts dealt as rows, every live hand evaluated on every row with
    :func:`evaluator.omaha.evaluate_omaha_batch`, rows settled by
    :func:`simulate._kernels.allin.settle_rows`.

    Hi/lo games (``omaha_hilo``, ``omaha5_hilo``): each row also holds every live hand's
    low (:func:`evaluator.low.evaluate_low_batch`; the exact walk's triple table has the low
    columns), and the one scorer splits each contested pot high/low on its own
    (:func:`simulate._kernels.award.award_hilo`: its split tables and a ``win`` of the highs'
    chips then the lows'; :meth:`_pots` adds the halves up per pot)."""

    def work(self) -> int:
        """Runouts x live hands, as Omaha equity counts its walk."""
        return self.n_runouts * len(self.live_seats)

    @property
    def exact_limit(self) -> int:
        from simulate.omaha import EXACT_WORK_LIMIT

        return EXACT_WORK_LIMIT

    def __init__(self, spot: Spot) -> None:
        super().__init__(spot)
        self.holes = [np.array(spot.hands[s], np.uint8) for s in self.live_seats]
        self.fixed = np.array(spot.board, np.uint8)
        self.hilo = spot.game.hilo
        if self.hilo:
            from simulate._kernels.award import scorer_tables

            self.split, self.odd = scorer_tables(self.amounts, self.elig, hilo=True)

    def _pots(self, win: np.ndarray) -> np.ndarray:
        """Chips per contested pot and live seat (hi/lo: the high's and the low's added)."""
        p = len(self.amounts)
        return win[:p] + win[p:] if self.hilo else win

    def _settle(self, runs: np.ndarray, n_threads: int, win: np.ndarray,
                sumsq: np.ndarray) -> None:
        from evaluator.omaha import evaluate_omaha_batch
        from simulate._kernels import allin as K

        m = runs.shape[0]
        boards = np.empty((m, 5), np.uint8)
        boards[:, : len(self.fixed)] = self.fixed
        boards[:, len(self.fixed):] = runs
        n = len(self.holes)
        st = np.empty((m, 2 * n if self.hilo else n), np.int32)
        for i, hole in enumerate(self.holes):
            holes = np.ascontiguousarray(np.broadcast_to(hole, (m, hole.size)))
            st[:, i] = evaluate_omaha_batch(holes, boards, threads=n_threads, check=False)
            if self.hilo:
                from evaluator.low import evaluate_low_batch

                st[:, n + i] = evaluate_low_batch(holes, boards, check=False)
        K.settle_rows(st, self.amounts, self.split, self.odd, self.elig, self.order,
                      win, sumsq)

    def exact(self, n_threads: int) -> tuple[np.ndarray, int]:
        """Every runout through Omaha's triple-table walk (:mod:`simulate._kernels.omaha`,
        the equity engine's) into the pots scorer, one scorer row per first dealt card:
        ``(win object[P, L] of Python ints, runouts)``."""
        from evaluator._jit import threads as _threads
        from evaluator.hands import category_table
        from simulate._kernels.score import block_scorer
        from simulate.omaha import triple_walk, walk_kernel

        self._check_size(self.n_runouts)
        hands = np.array([self.hands[s] for s in self.live_seats], np.uint8)
        fixed, deck, tri, u = triple_walk(hands, list(self.board), self.deck.tolist(),
                                          n_threads, hilo=self.hilo)
        rows = len(deck) if self.k >= 2 else 1
        bsc = block_scorer(self.amounts, self.elig, self.order, category_table(), rows,
                           hilo=self.hilo)
        kernel, road = walk_kernel(self.n_runouts * len(hands), bsc, self.hilo)
        with _threads(n_threads):
            kernel(fixed, deck, tri, u, (1 + self.hilo) * len(hands), bsc, road, n_threads)
        return self._pots(bsc[5].astype(object).sum(axis=0)), self.n_runouts

    def monte_carlo(self, seed: int, cap: int, lo: int, hi: int,
                    n_threads: int) -> tuple[np.ndarray, np.ndarray]:
        from evaluator._jit import threads as _threads
        from simulate._kernels import allin as K

        from .sampling import BLOCK, deals_in

        self._check_size(BLOCK)
        win = np.zeros(((1 + self.hilo) * len(self.amounts), len(self.order)), np.int64)
        sumsq = np.zeros(len(self.order))
        per_chunk = max(1, OMAHA_CHUNK // BLOCK)
        for b in range(lo, hi, per_chunk):
            top = min(hi, b + per_chunk)
            runs = np.empty((deals_in(top, cap) - b * BLOCK, self.k), np.uint8)
            with _threads(n_threads):
                K.deal_rows(np.uint64(seed), cap, BLOCK, b, top, self.deck, runs)
            self._settle(runs, n_threads, win, sumsq)
        return self._pots(win).astype(object), sumsq


class PineappleEngine(Engine):
    """Three-card Pineapple hands before the discard: the board completed to the discard
    point, each seat's discard by the policy, then the runout (the kernels of
    :mod:`simulate._kernels.pineapple`, into the pots scorer)."""

    def __init__(self, spot: Spot) -> None:
        super().__init__(spot)
        self.dlen = DISCARD_AFTER[spot.discard_after]  # type: ignore[index]
        self.policy = POLICIES[spot.discard_policy]  # type: ignore[index]
        self.hole3 = np.array([self.hands[s] for s in self.live_seats], np.uint8)
        f = self.dlen - len(spot.board)
        m = len(self.deck)
        self.n_runouts = math.comb(m, f) * math.comb(m - f, 5 - self.dlen)

    def _ptab(self) -> tuple[np.ndarray, ...]:
        from simulate.pineapple import policy_tables

        return policy_tables(self.policy, self.dlen, self.board, None)

    def work(self) -> int:
        from simulate.pineapple import exact_work

        return exact_work(len(self.live_seats), len(self.board), len(self.deck), self.dlen,
                          self.policy)

    @property
    def exact_limit(self) -> int:
        from simulate.pineapple import EXACT_BUDGET

        return EXACT_BUDGET

    def exact(self, n_threads: int) -> tuple[np.ndarray, int]:
        from evaluator._jit import threads as _threads
        from evaluator.hands import category_table
        from simulate._kernels import pineapple as K
        from simulate._kernels.score import block_scorer

        self._check_size(self.n_runouts)
        rows = len(self.deck) if self.dlen > len(self.board) else 1
        bsc = block_scorer(self.amounts, self.elig, self.order, category_table(), rows)
        with _threads(n_threads):
            per_row = K.exact_pre(self.hole3, self.board, self.deck, self.dlen, self.policy,
                                  self._ptab(), self.tables, bsc, n_threads)
        total = int(per_row.sum())
        if total != self.n_runouts:
            raise AssertionError(f"pineapple walk counted {total} deals, not {self.n_runouts}")
        return bsc[5].astype(object).sum(axis=0), total

    def monte_carlo(self, seed: int, cap: int, lo: int, hi: int,
                    n_threads: int) -> tuple[np.ndarray, np.ndarray]:
        from evaluator._jit import threads as _threads
        from evaluator.hands import category_table
        from simulate._kernels import pineapple as K
        from simulate._kernels.score import block_scorer

        from .sampling import BLOCK

        self._check_size(BLOCK)
        bsc = block_scorer(self.amounts, self.elig, self.order, category_table(), hi - lo)
        sq = np.zeros((hi - lo, len(self.order)), np.float64)
        with _threads(n_threads):
            K.sample_pre(np.uint64(seed), cap, BLOCK, lo, hi, self.hole3, self.board,
                         self.deck, self.dlen, self.policy, self._ptab(), self.tables, bsc, sq)
        return bsc[5].astype(object).sum(axis=0), sq.sum(axis=0)
