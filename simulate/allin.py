"""All-in expected value with side pots: :func:`allin_ev`.

Every seat has committed a number of chips; live seats hold a known Hold'em
hand, folded seats left dead money. The chips form a main pot and side pots
(:func:`simulate.pots.build_pots`); on every runout of the board each pot goes
to the best hand among the seats eligible for it, a split dividing it evenly
with the odd chips dealt one at a time to the tied winners in seat order
starting left of the button. ``allin_ev`` averages each seat's payout over
every runout (exact) or over random runouts (Monte Carlo, with standard
errors), resolving all pots on the same runout.

The engine evaluates each live hand once per runout (board keys built by
adding one number per card) and settles every pot from those strengths in a
Numba kernel, summing integer chips per pot and seat; the division happens
here, in Python.

Hold'em seats may hold a *range* instead of a hand (``"QQ+,AKs:100"``,
``"random:50"``; syntax of :mod:`simulate.ranges`). The convention is the
equity engine's: every combination of the seats' combos that shares no card
is dealt with probability proportional to the product of the combos'
weights, and every runout of the board is equally likely. Exactly, every
such tuple and every runout is walked and each tuple's chip totals are
weighted by its weight product (integer arithmetic when every weight is a
whole number, float64 otherwise); sampled, each deal draws every seat's
combo by weight all together and draws the whole tuple again when two combos
share a card (unbiased), then a runout.

Omaha (``game="omaha"``, 4 to 6 hole cards, exact hands only) evaluates the
runouts in batches with :func:`evaluator.omaha.evaluate_omaha_batch` and
settles them with the same per-pot rule.

Hand histories need two more things (see :mod:`simulate.phh.replay`):
``allow_zero=True`` accepts seats that committed 0 chips (a seat that folded
without posting), and ``dead_money`` adds chips that no seat's commitment
accounts for (antes that are not part of the contributions) to the main pot,
which every live seat is eligible for
(:func:`simulate.pots.add_dead_money`).
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from evaluator._jit import work_clock
from evaluator.cards import CardError, cards_str, check_disjoint, parse_cards
from simulate.pots import (
    Pot,
    PotStructure,
    add_dead_money,
    build_pots,
    check_chips,
    odd_chip_order,
)
from simulate.ranges import Range, parse_range
from simulate.request import MAX_PLAYERS, MIN_PLAYERS, parse_board
from simulate.results import json_number, std_error_of_mean
from simulate.sampling import CHIPS, Sampling, check_walk, sampling, walk_parts, walk_progress

__all__ = ["AllinPlayer", "AllinResult", "allin_ev", "parse_seat", "walks_exactly"]

#: Omaha runouts dealt and evaluated per batch (bounds the memory of a long run).
OMAHA_CHUNK = 1 << 18
#: Games ``allin_ev`` plays.
GAMES = ("holdem", "omaha", "pineapple", "crazy_pineapple")

_CHIPS = re.compile(r"\d+")
FOLD_WORDS = ("fold", "folded")

SeatSpec = str | tuple[Any, Any] | list[Any]


@dataclass
class AllinPlayer:
    """One seat's result.

    ``hand``: canonical cards, the range text, or ``"fold"``. ``committed``: chips put in;
    ``returned``: uncalled chips handed back (included in the payout);
    ``expected_payout``: chips expected back from the table; ``ev`` =
    ``expected_payout - committed``; ``std_error``: standard error of both (0
    when exact); ``pot_equity[p]``: expected share of pot ``p`` (0 where not
    eligible).
    """

    seat: int
    hand: str
    live: bool
    committed: int
    returned: int
    expected_payout: float
    ev: float
    std_error: float = 0.0
    pot_equity: list[float] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "hand": self.hand, "live": self.live,
                "committed": self.committed, "returned": self.returned,
                "expected_payout": self.expected_payout, "ev": self.ev,
                "std_error": json_number(self.std_error), "pot_equity": list(self.pot_equity)}


@dataclass
class AllinResult:
    """Result of :func:`allin_ev`; ``to_dict()`` gives ``pokerjit allin --json``.

    ``pots``: main pot first, then side pots (:class:`simulate.pots.Pot`, with
    ``.amount`` and ``.eligible`` seats); ``players``: one
    :class:`AllinPlayer` per seat in the order given; ``exact``: every runout
    walked; ``samples``: runouts walked or drawn (0 when no pot is contested;
    with ranges, exactly, the deals walked: card-disjoint combo tuples x
    runouts); ``dead_money``: chips in the pots beyond the seats'
    commitments; ``game``: ``"holdem"`` or ``"omaha"``.
    """

    pots: list[Pot]
    players: list[AllinPlayer]
    exact: bool
    samples: int
    elapsed_s: float
    board: str = ""
    dead: str = ""
    button: int = 0
    seed: int | None = None
    game: str = "holdem"
    dead_money: int = 0

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "game": self.game, "board": self.board, "dead": self.dead, "button": self.button,
            "dead_money": self.dead_money,
            "pots": [p.to_dict() for p in self.pots],
            "players": [p.to_dict() for p in self.players],
            "exact": self.exact, "samples": self.samples, "elapsed_s": self.elapsed_s,
        }
        if self.seed is not None:
            d["seed"] = self.seed
        return d


# ----------------------------------------------------------------------------- input


def _chips_from_text(text: str, seat: int) -> int:
    t = text.strip()
    if not _CHIPS.fullmatch(t):
        raise CardError(f"seat {seat}: chips must be a positive integer, got '{t}'")
    return int(t)


def parse_seat(spec: SeatSpec, seat: int, *,
               game: str = "holdem") -> tuple[list[int] | Range | None, int]:
    """``(card ids, a Range, or None for a fold; chips)`` of one seat.

    ``spec``: ``"CARDS:CHIPS"``, ``"RANGE:CHIPS"`` (Hold'em), ``"fold:CHIPS"``
    or a pair ``(cards, chips)`` with ``cards`` text, card ids, ``None`` or
    ``"fold"``. In a string the chips follow the *last* colon (a range may hold
    weights such as ``AKs:0.5``). Text that is not exact cards is read as a
    range (:func:`simulate.ranges.parse_range`, before board and dead cards
    are taken out). Chips are checked for being integers here and for being
    positive by :func:`build_pots`.
    """
    if isinstance(spec, str):
        if ":" not in spec:
            raise CardError(f"seat {seat}: expected CARDS:CHIPS or fold:CHIPS, got '{spec}'")
        cards, chips_text = spec.rsplit(":", 1)
        chips: Any = _chips_from_text(chips_text, seat)
    elif isinstance(spec, (tuple, list)) and len(spec) == 2:
        cards, chips = spec
        if isinstance(chips, str):
            chips = _chips_from_text(chips, seat)
        elif isinstance(chips, (bool, np.bool_)) or not isinstance(chips, (int, np.integer)):
            raise CardError(f"seat {seat}: chips must be a positive integer, got {chips!r}")
        chips = operator.index(chips)
    else:
        raise CardError(f"seat {seat}: expected 'CARDS:CHIPS', 'fold:CHIPS' or a (cards, chips) "
                        f"pair, got {spec!r}")
    check_chips(chips, f"seat {seat}: chips", allow_zero=True)  # positive: build_pots
    if cards is None or (isinstance(cards, str) and cards.strip().lower() in FOLD_WORDS):
        return None, chips
    ids: list[int] | None = None
    try:
        ids = parse_cards(cards, what=f"seat {seat}")
    except CardError as exc:
        if game != "holdem" or not isinstance(cards, str):
            raise
        card_error = exc
    if game == "holdem" and isinstance(cards, str) and (ids is None or len(ids) != 2):
        try:  # not two cards: a range (e.g. 'QQ+,AKs' or 'AsAc,AhAd')
            return parse_range(cards), chips
        except CardError as range_error:
            if ids is None and ":" in cards:  # a weighted range: its own message says why
                raise CardError(f"seat {seat}: {range_error}") from None
            if ids is None:
                raise CardError(f"{card_error} (nor is '{cards.strip()}' a range)") from None
    assert ids is not None
    if game in ("pineapple", "crazy_pineapple"):
        return ids, chips  # 2 or 3 cards, checked against the board in _parse
    if game == "omaha":
        if not 4 <= len(ids) <= 6:
            raise CardError(f"seat {seat} has {len(ids)} cards; Omaha hands have 4 to 6")
    elif len(ids) != 2:
        raise CardError(f"seat {seat} has {len(ids)} cards; Hold'em hands have 2")
    return ids, chips


@dataclass
class _Spot:
    hands: list[list[int] | Range | None]
    structure: PotStructure
    board: list[int]
    dead: list[int]
    button: int
    order: np.ndarray
    game: str = "holdem"
    dead_money: int = 0
    discard_after: str = ""  # pineapple games before the discard: when, and by which policy
    discard_policy: str = ""
    discards: list[int] | None = None  # pineapple at the discard point: each seat's discard

    @property
    def ranged(self) -> bool:
        return any(isinstance(h, Range) for h in self.hands)


def _parse(players: Sequence[SeatSpec], board: Any, dead: Any, button: Any, *,
           game: str = "holdem", allow_zero: bool = False, dead_money: Any = 0,
           discard_after: str | None = None, discard_policy: str | None = None) -> _Spot:
    if game not in ("pineapple", "crazy_pineapple") and (discard_after is not None
                                                         or discard_policy is not None):
        raise CardError(f"discard_after and discard_policy are for pineapple and "
                        f"crazy_pineapple, not {game}")
    if game not in GAMES:
        raise ValueError(f"game must be one of {', '.join(GAMES)}, got {game!r}")
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise CardError("players must be a list of seats, e.g. ['AhAs:100', 'KdKc:60']")
    n = len(players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise CardError(f"need {MIN_PLAYERS} to {MAX_PLAYERS} seats, got {n}")
    seats = [parse_seat(p, s, game=game) for s, p in enumerate(players)]
    hands = [h for h, _ in seats]
    chips = [c for _, c in seats]
    b = parse_board(board)
    d = parse_cards(dead or "", what="dead cards")
    exact_hands = [(f"seat {s}", h) for s, h in enumerate(hands) if isinstance(h, list)]
    check_disjoint([*exact_hands, ("board", b), ("dead cards", d)])
    if all(h is None for h in hands):
        raise CardError("no live player: at least one seat must hold cards")
    taken = set(b) | set(d) | {c for _, h in exact_hands for c in h}
    for s, h in enumerate(hands):
        if isinstance(h, Range):
            hands[s] = h.without(taken)
            if len(hands[s]) == 0:
                raise CardError(f"seat {s}: range '{h.text}' has no combos left after removing "
                                "the board, dead cards and the other seats' hands")
    structure = add_dead_money(build_pots(chips, [h is not None for h in hands],
                                          allow_zero=allow_zero), dead_money)
    order = odd_chip_order(n, button)
    need = 5 - len(b)
    n_hole = sum(2 if isinstance(h, Range) else len(h) for h in hands if h is not None)
    left = 52 - n_hole - len(b) - len(d)
    if left < need:
        raise CardError(f"not enough cards: the board needs {need} more but only {left} remain "
                        "in the deck")
    spot = _Spot(hands, structure, b, d, int(operator.index(button)), order, game,
                 sum(p.amount for p in structure.pots) + sum(structure.returned)
                 - sum(structure.committed))
    if game in ("pineapple", "crazy_pineapple"):
        _pineapple_spot(spot, discard_after, discard_policy)
    return spot


def _pineapple_spot(spot: _Spot, discard_after: str | None, discard_policy: str | None
                    ) -> None:
    """Pineapple seats: two cards (after the discard) are Hold'em as they stand; three at
    the discard point discard now by the policy (kept pair live, discard dead); three
    before it leave ``discard_after``/``discard_policy`` set for :class:`_PineappleEngine`."""
    from simulate.pineapple import (
        DEFAULT_POLICY,
        DISCARD_AFTER,
        check_hole_counts,
        check_policy,
        choose_discards,
        resolve_discard_after,
    )

    da = resolve_discard_after(spot.game, discard_after)
    policy = check_policy(discard_policy or DEFAULT_POLICY)
    hands = spot.hands
    n_hole = check_hole_counts([h if isinstance(h, list) else None for h in hands], spot.game,
                               da, len(spot.board), what="seat", first=0)
    if n_hole == 2:
        return
    if len(spot.board) < DISCARD_AFTER[da]:
        spot.discard_after, spot.discard_policy = da, policy
        return
    live = [s for s, h in enumerate(hands) if isinstance(h, list)]
    thrown = choose_discards([hands[s] for s in live], spot.board, discard_after=da,
                             policy=policy)
    for s, t in zip(live, thrown, strict=True):
        hands[s] = [c for c in hands[s] if c != t]  # type: ignore[union-attr]
    spot.dead = spot.dead + thrown
    spot.discards = thrown


# ----------------------------------------------------------------------------- engine
class _Engine:
    """Arrays for the kernels (see :mod:`simulate._kernels.allin`), in live index space."""

    def __init__(self, spot: _Spot, live_seats: list[int] | None = None) -> None:
        from evaluator._kernels.holdem import KEY_INIT_I64
        from evaluator._tables import get_tables

        self.tables = get_tables().kernel_args
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
        used = set(spot.board) | set(spot.dead)
        self.base_deck = np.array([c for c in range(52) if c not in used], np.uint8)
        for h in spot.hands:
            if isinstance(h, list):
                used |= set(h)
        self.deck = np.array([c for c in range(52) if c not in used], np.uint8)
        self.k = 5 - len(spot.board)
        self.contested = [p for p, pot in enumerate(spot.structure.pots) if len(pot.eligible) > 1]
        pots = [spot.structure.pots[p] for p in self.contested]
        self.amounts = np.array([pot.amount for pot in pots], np.int64)
        self.elig = np.zeros((len(pots), n_live), np.bool_)
        for p, pot in enumerate(pots):
            self.elig[p, [live_index[s] for s in pot.eligible]] = True
        self.order = np.array([live_index[s] for s in spot.order.tolist() if s in live_index],
                              np.int64)
        from simulate._kernels.score import split_tables

        self.split, self.odd = split_tables(self.amounts, self.elig)
        n_hole = sum(2 if isinstance(h, Range) else len(h) for h in spot.hands if h is not None)
        self.n_runouts = math.comb(len(self.base_deck) - n_hole, self.k)

    def work(self) -> int:
        """Player-evaluations of the reduced walk, bounded as ``equity`` bounds them."""
        from simulate.equity import reduced_walk_work

        return reduced_walk_work(self.deck.tolist(), self.k, len(self.live_seats))

    @property
    def exact_limit(self) -> int:
        """``exact=None`` walks when :meth:`work` is at most this: ``equity``'s budget."""
        from simulate.equity import EXACT_BUDGET

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
        from evaluator.hands import category_table
        from simulate._kernels.score import pots_scorer

        return pots_scorer(self.amounts, self.elig, self.order, category_table(), dtype)

    def exact(self, n_threads: int) -> tuple[np.ndarray, int]:
        """Every runout, through the reduced walk of :mod:`simulate._kernels.holdem_exact`
        (one weighted strength row per board class) into the pots scorer:
        ``(win object[P, L] of Python ints, runouts)``. One thread: a 4-way preflop spot
        takes about as long as its equity (about 1-2 ms)."""
        from simulate._kernels.holdem_exact import walk

        self._check_size(self.n_runouts)
        hole = np.array([self.hands[s] for s in self.live_seats], np.uint8)
        avail = np.zeros(52, np.uint8)
        avail[self.deck] = 1
        sc = self.scorer()
        total = int(walk(hole, self.board, avail, self.tables, sc))
        if total != self.n_runouts:  # the weights must cover every runout
            raise AssertionError(f"exact walk counted {total} runouts, not {self.n_runouts}")
        return sc[5].astype(object), total

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


class _RangeEngine(_Engine):
    """Live seats holding ranges (exact hands are ranges of one combo of weight 1).

    Live index space puts the seat with the most combos first: the exact walk hands its
    combos out to threads. ``ccards`` uint8[L, M, 2], ``cw`` and ``cdf`` float64[L, M]
    (``cw_int`` int64 when every weight is a whole number), ``ncombo`` int64[L].
    """

    def __init__(self, spot: _Spot) -> None:
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
        from simulate.range_equity import _boards, _symmetry

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
        group = _symmetry(self.spot.board, self.spot.dead, dense)
        boards, bw = _boards(self.spot.board, self.spot.dead, group)
        return ckey, cmask, cbits, boards, bw

    def _texts(self) -> list[str]:
        """The live seats' hands as range-equity input (exact cards or range text)."""
        hands = [self.spot.hands[s] for s in self.live_seats]
        return [h.text if isinstance(h, Range) else cards_str(h) for h in hands]

    def quick(self, n_threads: int) -> bool:
        """Range equity's rule: its estimate of the walk's seconds on ``n_threads`` at most
        :data:`simulate.range_equity.AUTO_EXACT_SECONDS`. Heads-up that is range equity's
        own walk (the one this engine runs); with more seats, its multiway walk."""
        from simulate.range_equity import AUTO_EXACT_SECONDS

        return self.estimate_s(n_threads) <= AUTO_EXACT_SECONDS

    def estimate_s(self, n_threads: int) -> float:
        """Range equity's estimate of the exact walk's seconds on ``n_threads``."""
        from simulate.range_equity import _estimate_exact_seconds, _prepare

        if len(self.live_seats) == 2:
            est = _estimate_exact_seconds(_prepare(self._texts(), self.spot.board,
                                                   self.spot.dead))
        else:
            from simulate.range_equity import _symmetry

            n_boards = self.n_boards / max(1, len(_symmetry(self.spot.board, self.spot.dead,
                                                            [])))
            sizes = [int(c) for c in self.ncombo]
            est = n_boards * (4e-9 * sum(sizes) + 3e-9 * len(sizes) * math.prod(sizes))
        return est / n_threads

    def _heads_up_exact(self, n_threads: int) -> tuple[np.ndarray, int]:
        """Two live seats: every contested pot is between them, so range equity's exact
        walk (its heads-up and versus-random walks) gives each seat's win and tie shares,
        and pot ``p`` pays ``amount x win + tie x (amount // 2, the odd chip to the first
        of the two left of the button)``. Floats (the walk sums weights in float64)."""
        from simulate.range_equity import analyze_ranges

        an = analyze_ranges(self._texts(), self.spot.board, self.spot.dead, exact=True,
                            threads=n_threads)
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
        from evaluator.hands import category_table
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
        bsc = block_scorer(self.amounts, self.elig, self.order, category_table(), n_blocks,
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
                           category_table(), self.tables, np.zeros((n_blocks, 0, 0, 4)),
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


class _OmahaEngine(_Engine):
    """Omaha hands: runouts dealt as rows, every live hand evaluated on every row with
    :func:`evaluator.omaha.evaluate_omaha_batch`, rows settled by
    :func:`simulate._kernels.allin.settle_rows`."""

    def work(self) -> int:
        """Runouts x live hands, as Omaha equity counts its walk."""
        return self.n_runouts * len(self.live_seats)

    @property
    def exact_limit(self) -> int:
        from simulate.omaha import EXACT_WORK_LIMIT

        return EXACT_WORK_LIMIT

    def __init__(self, spot: _Spot) -> None:
        super().__init__(spot)
        self.holes = [np.array(spot.hands[s], np.uint8) for s in self.live_seats]
        self.fixed = np.array(spot.board, np.uint8)

    def _settle(self, runs: np.ndarray, n_threads: int, win: np.ndarray,
                sumsq: np.ndarray) -> None:
        from evaluator.omaha import evaluate_omaha_batch
        from simulate._kernels import allin as K

        m = runs.shape[0]
        boards = np.empty((m, 5), np.uint8)
        boards[:, : len(self.fixed)] = self.fixed
        boards[:, len(self.fixed):] = runs
        st = np.empty((m, len(self.holes)), np.int32)
        for i, hole in enumerate(self.holes):
            holes = np.ascontiguousarray(np.broadcast_to(hole, (m, hole.size)))
            st[:, i] = evaluate_omaha_batch(holes, boards, threads=n_threads, check=False)
        K.settle_rows(st, self.amounts, self.split, self.odd, self.elig, self.order,
                      win, sumsq)

    def exact(self, n_threads: int) -> tuple[np.ndarray, int]:
        """Every runout through Omaha's triple-table walk (:mod:`simulate._kernels.omaha`,
        the equity engine's) into the pots scorer, one scorer row per first dealt card:
        ``(win object[P, L] of Python ints, runouts)``."""
        from evaluator._jit import threads as _threads
        from evaluator.hands import category_table
        from simulate._kernels import omaha as KO
        from simulate._kernels.score import block_scorer
        from simulate.omaha import triple_walk

        self._check_size(self.n_runouts)
        hands = np.array([self.hands[s] for s in self.live_seats], np.uint8)
        fixed, deck, tri, u = triple_walk(hands, list(self.board), self.deck.tolist(),
                                          n_threads)
        rows = len(deck) if self.k >= 2 else 1
        bsc = block_scorer(self.amounts, self.elig, self.order, category_table(), rows)
        with _threads(n_threads):
            KO.exact_walk(fixed, deck, tri, u, len(hands), bsc)
        return bsc[5].astype(object).sum(axis=0), self.n_runouts

    def monte_carlo(self, seed: int, cap: int, lo: int, hi: int,
                    n_threads: int) -> tuple[np.ndarray, np.ndarray]:
        from evaluator._jit import threads as _threads
        from simulate._kernels import allin as K

        from .sampling import BLOCK, deals_in

        self._check_size(BLOCK)
        win = np.zeros(self.amounts.shape + self.order.shape, np.int64)
        sumsq = np.zeros(len(self.order))
        per_chunk = max(1, OMAHA_CHUNK // BLOCK)
        for b in range(lo, hi, per_chunk):
            top = min(hi, b + per_chunk)
            runs = np.empty((deals_in(top, cap) - b * BLOCK, self.k), np.uint8)
            with _threads(n_threads):
                K.deal_rows(np.uint64(seed), cap, BLOCK, b, top, self.deck, runs)
            self._settle(runs, n_threads, win, sumsq)
        return win.astype(object), sumsq


def allin_ev(
    players: Sequence[SeatSpec],
    board: str | Sequence[int] = "",
    dead: str | Sequence[int] = "",
    *,
    button: int = 0,
    exact: bool | None = None,
    samples: int | None = None,
    target_std_error: float | None = None,
    seed: int | None = None,
    threads: int | None = None,
    game: str = "holdem",
    dead_money: int = 0,
    allow_zero: bool = False,
    discard_after: str | None = None,
    discard_policy: str | None = None,
) -> AllinResult:
    """Expected payout of every seat when the money is in and the board runs out.

    ``players``: 2..10 seats in seat order, each ``"CARDS:CHIPS"`` (a live
    Hold'em hand and the total chips it committed, e.g. ``"AhAs:100"``),
    ``"RANGE:CHIPS"`` (a Hold'em range, e.g. ``"QQ+,AKs:100"``, ``"random:50"``;
    the chips follow the last colon), ``"fold:CHIPS"`` (dead money), or a pair
    ``(cards, chips)`` with ``cards=None`` for a folded seat. ``board``: 0, 3, 4
    or 5 cards; ``dead``: cards out of the deck. ``button``: the button's seat,
    which fixes who gets odd chips in a split (first tied winner left of the
    button). ``game``: ``"holdem"`` or ``"omaha"`` (4 to 6 hole cards; no
    ranges). ``dead_money``: chips in the middle that no seat's commitment
    counts (antes outside the contributions); they join the main pot, which
    every live seat is eligible for (if a live seat committed nothing, they
    form a first pot of their own, eligible for every live seat).
    ``allow_zero``: accept seats that committed 0 chips (folded without
    posting; a live seat with 0 can win only that dead money).

    Ranges: every card-disjoint combination of the seats' combos counts in
    proportion to the product of its weights, every runout equally likely.
    Walked exactly when (tuples x runouts x live seats) is small enough,
    else sampled: each deal draws every seat's combo by weight together and
    draws again if two share a card.

    ``exact=True`` walks every runout (at most C(48, 5) = 1,712,304);
    ``False`` samples ``samples`` runouts (default 1,000,000) or, with
    ``target_std_error``, keeps sampling until every seat's standard error of
    its expected payout (in chips) is at most that (with ``samples`` too,
    whichever comes first; see :mod:`simulate.sampling` for the limits);
    ``None`` walks every runout when that is quick (always, for exact hands)
    unless ``samples`` or ``target_std_error`` is given. The same ``seed``
    (0 <= seed < 2**64) gives the same answer on any thread count.

    ``game="pineapple"`` / ``"crazy_pineapple"``: exact hands of three cards
    before the discard (each seat's discard chosen by ``discard_policy``,
    ``"made"`` or ``"equity"``, as :mod:`simulate.pineapple` states; at the
    discard point the discards are made at once and are dead), two after it
    (the discards given as ``dead``); ``discard_after``: ``"preflop"``,
    ``"flop"`` or ``"turn"`` (default: the game's standard timing).

    Raises ``ValueError`` (:class:`evaluator.cards.CardError` for card
    problems) with a one-line message on bad input.
    """
    t0 = work_clock()
    spot = _parse(players, board, dead, button, game=game, allow_zero=allow_zero,
                  dead_money=dead_money, discard_after=discard_after,
                  discard_policy=discard_policy)
    opts = sampling(exact, samples, target_std_error, seed, threads, unit=CHIPS)
    n_threads = opts.n_threads()
    structure = spot.structure
    engine = _engine(spot)
    n_pots, n_live = len(engine.contested), len(engine.live_seats)

    # Decide how to run. With nothing contested, or a complete board and known hands, the
    # answer is exact.
    if n_pots == 0:
        mode = "none"
    elif exact or (exact is None and not opts.wants_sampling and engine.quick(n_threads)):
        mode = "exact"
    elif engine.k == 0 and not spot.ranged:
        mode = "exact"
    else:
        mode = "mc"

    win: np.ndarray = np.zeros((n_pots, n_live), object)
    sumsq = np.zeros(n_live)
    used_seed: int | None = None
    if mode == "none":
        n = 0
    elif mode == "exact":
        win, n = engine.exact(n_threads)
    else:
        used_seed = opts.resolved_seed()
        win, sumsq, n = _monte_carlo(engine, opts, used_seed, n_threads)
    std = _std_errors(win, sumsq, n) if mode == "mc" else [0.0] * n_live
    res = _result(spot, engine, structure, win, n, std, mode != "mc", used_seed, t0)
    if mode == "exact":
        res.samples = getattr(engine, "deals", n)
    return res


def _engine(spot: _Spot) -> _Engine:
    if spot.discard_after:
        return _PineappleEngine(spot)
    if spot.game == "omaha":
        return _OmahaEngine(spot)
    if spot.ranged:
        return _RangeEngine(spot)
    return _Engine(spot)


class _PineappleEngine(_Engine):
    """Three-card Pineapple hands before the discard: the board completed to the discard
    point, each seat's discard by the policy, then the runout (the kernels of
    :mod:`simulate._kernels.pineapple`, into the pots scorer)."""

    def __init__(self, spot: _Spot) -> None:
        from simulate.pineapple import DISCARD_AFTER, POLICIES

        super().__init__(spot)
        self.dlen = DISCARD_AFTER[spot.discard_after]
        self.policy = POLICIES[spot.discard_policy]
        self.hole3 = np.array([self.hands[s] for s in self.live_seats], np.uint8)
        f = self.dlen - len(spot.board)
        m = len(self.deck)
        self.n_runouts = math.comb(m, f) * math.comb(m - f, 5 - self.dlen)

    def _ptab(self) -> tuple[np.ndarray, ...]:
        from simulate.pineapple import _policy_tables

        return _policy_tables(self.policy, self.dlen, self.board, None)

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
                                  self._ptab(), self.tables, bsc)
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


def walks_exactly(players: Sequence[SeatSpec], board: str | Sequence[int] = "",
                  dead: str | Sequence[int] = "", *, game: str = "holdem",
                  dead_money: int = 0, allow_zero: bool = False,
                  threads: int | None = None) -> bool:
    """True when :func:`allin_ev` with ``exact=None`` and no sampling options walks every
    runout of this spot (arguments as :func:`allin_ev`): the equity engines' own rule (the
    reduced walk's board bound, range equity's time estimate, Omaha's runouts x hands), so
    the spots ``equity`` walks exactly. Raises as :func:`allin_ev` on bad input."""
    from evaluator._jit import resolve_threads

    spot = _parse(players, board, dead, 0, game=game, allow_zero=allow_zero,
                  dead_money=dead_money)
    return _engine(spot).quick(resolve_threads(threads))


def _monte_carlo(engine: _Engine, opts: Sampling, seed: int,
                 n_threads: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Sample by the block plan and round planner of :mod:`simulate.sampling`:
    ``(win object[P, L], sumsq float64[L], runouts)``."""
    from .sampling import run_blocks

    cap = opts.cap
    acc: list[Any] = [np.zeros((len(engine.contested), len(engine.live_seats)), object),
                      np.zeros(len(engine.live_seats))]

    def run(lo: int, hi: int) -> None:
        w, s = engine.monte_carlo(seed, cap, lo, hi, n_threads)
        acc[0] = acc[0] + w
        acc[1] = acc[1] + s

    n = run_blocks(opts, run, lambda n: np.array(_std_errors(acc[0], acc[1], n)),
                   min_round=n_threads)
    return acc[0], acc[1], n


def _std_errors(win: np.ndarray, sumsq: np.ndarray, n: int) -> list[float]:
    """Standard error of each live player's mean payout from the sums over ``n`` runouts."""
    se = std_error_of_mean(win.sum(axis=0).astype(np.float64), sumsq.astype(np.float64), n)
    return [float(x) for x in se]


def _result(spot: _Spot, engine: _Engine, structure: PotStructure, win: np.ndarray, n: int,
            std: list[float], exact: bool, seed: int | None, t0: float) -> AllinResult:
    n_seats = len(spot.hands)
    live_index = {s: i for i, s in enumerate(engine.live_seats)}
    contested = {p: j for j, p in enumerate(engine.contested)}
    players = []
    for s in range(n_seats):
        chips = structure.returned[s]
        equities = []
        payout = float(chips)
        for p, pot in enumerate(structure.pots):
            if s not in pot.eligible:
                equities.append(0.0)
            elif p not in contested:
                equities.append(1.0)
                payout += pot.amount
            else:
                won = win[contested[p], live_index[s]]  # int, or Fraction (ranges)
                equities.append(float(won / (n * pot.amount)))
                payout += float(won / n)
        hand = spot.hands[s]
        text = ("fold" if hand is None else hand.text if isinstance(hand, Range)
                else cards_str(hand))
        players.append(AllinPlayer(
            seat=s, hand=text, live=hand is not None,
            committed=structure.committed[s], returned=structure.returned[s],
            expected_payout=payout, ev=payout - structure.committed[s],
            std_error=std[live_index[s]] if s in live_index else 0.0, pot_equity=equities))
    return AllinResult(pots=list(structure.pots), players=players, exact=exact, samples=n,
                       elapsed_s=work_clock() - t0, board=cards_str(spot.board),
                       dead=cards_str(spot.dead), button=spot.button, seed=seed,
                       game=spot.game, dead_money=spot.dead_money)
