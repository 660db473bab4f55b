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
"""

from __future__ import annotations

import math
import operator
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from evaluator.cards import CardError, cards_str, check_disjoint, parse_cards
from simulate.pots import Pot, PotStructure, build_pots, odd_chip_order
from simulate.request import MAX_PLAYERS, MIN_PLAYERS, parse_board

__all__ = ["AllinPlayer", "AllinResult", "allin_ev", "parse_seat"]

#: ``exact=None`` walks every runout when (runouts x live hands) is at most this.
EXACT_LIMIT = 25_000_000
#: Monte Carlo runouts when neither ``samples`` nor ``target_std_error`` is given.
DEFAULT_SAMPLES = 1_000_000
#: Upper bound on runouts drawn while chasing ``target_std_error``.
MAX_SAMPLES = 50_000_000
#: Walks at least this big run on several threads.
PARALLEL_MIN_RUNOUTS = 100_000

_CHIPS = re.compile(r"\d+")
FOLD_WORDS = ("fold", "folded")

SeatSpec = str | tuple[Any, Any] | list[Any]


@dataclass
class AllinPlayer:
    """One seat's result.

    ``hand``: canonical cards, or ``"fold"``. ``committed``: chips put in;
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
                "std_error": self.std_error, "pot_equity": list(self.pot_equity)}


@dataclass
class AllinResult:
    """Result of :func:`allin_ev`; ``to_dict()`` gives ``pokerjit allin --json``.

    ``pots``: main pot first, then side pots (:class:`simulate.pots.Pot`, with
    ``.amount`` and ``.eligible`` seats); ``players``: one
    :class:`AllinPlayer` per seat in the order given; ``exact``: every runout
    walked; ``samples``: runouts walked or drawn (0 when no pot is contested).
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

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "board": self.board, "dead": self.dead, "button": self.button,
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


def parse_seat(spec: SeatSpec, seat: int) -> tuple[list[int] | None, int]:
    """``(card ids or None for a fold, chips)`` of one seat.

    ``spec``: ``"CARDS:CHIPS"``, ``"fold:CHIPS"`` or a pair ``(cards, chips)``
    with ``cards`` text, card ids, ``None`` or ``"fold"``. Chips are checked for
    being integers here and for being positive by :func:`build_pots`.
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
    if cards is None or (isinstance(cards, str) and cards.strip().lower() in FOLD_WORDS):
        return None, chips
    ids = parse_cards(cards, what=f"seat {seat}")
    if len(ids) != 2:
        raise CardError(f"seat {seat} has {len(ids)} cards; Hold'em hands have 2")
    return ids, chips


@dataclass
class _Spot:
    hands: list[list[int] | None]
    structure: PotStructure
    board: list[int]
    dead: list[int]
    button: int
    order: np.ndarray


def _parse(players: Sequence[SeatSpec], board: Any, dead: Any, button: Any) -> _Spot:
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise CardError("players must be a list of seats, e.g. ['AhAs:100', 'KdKc:60']")
    n = len(players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise CardError(f"need {MIN_PLAYERS} to {MAX_PLAYERS} seats, got {n}")
    seats = [parse_seat(p, s) for s, p in enumerate(players)]
    hands = [h for h, _ in seats]
    chips = [c for _, c in seats]
    b = parse_board(board)
    d = parse_cards(dead or "", what="dead cards")
    check_disjoint([*[(f"seat {s}", h) for s, h in enumerate(hands) if h is not None],
                    ("board", b), ("dead cards", d)])
    if all(h is None for h in hands):
        raise CardError("no live player: at least one seat must hold cards")
    structure = build_pots(chips, [h is not None for h in hands])
    order = odd_chip_order(n, button)
    need = 5 - len(b)
    left = 52 - 2 * sum(h is not None for h in hands) - len(b) - len(d)
    if left < need:
        raise CardError(f"not enough cards: the board needs {need} more but only {left} remain "
                        "in the deck")
    return _Spot(hands, structure, b, d, int(operator.index(button)), order)


# ----------------------------------------------------------------------------- engine
class _Engine:
    """Arrays for the kernels (see :mod:`simulate._allin_kernels`), in live index space."""

    def __init__(self, spot: _Spot) -> None:
        from evaluator._kernels import KEY_INIT_I64
        from evaluator._tables import get_tables

        self.tables = get_tables().kernel_args
        card_key, card_mask = self.tables[0], self.tables[1]
        n = len(spot.hands)
        self.live_seats = [s for s in range(n) if spot.hands[s] is not None]
        live_index = {s: i for i, s in enumerate(self.live_seats)}
        n_live = len(self.live_seats)
        self.hole_key = np.array([int(card_key[h[0]]) + int(card_key[h[1]])
                                  for h in (spot.hands[s] for s in self.live_seats)], np.int64)
        self.hole_mask = np.array([int(card_mask[h[0]]) | int(card_mask[h[1]])
                                   for h in (spot.hands[s] for s in self.live_seats)], np.int64)
        self.board_key = np.int64(int(KEY_INIT_I64) + sum(int(card_key[c]) for c in spot.board))
        mask = 0
        for c in spot.board:
            mask |= int(card_mask[c])
        self.board_mask = np.int64(mask)
        used = set(spot.board) | set(spot.dead)
        for h in spot.hands:
            if h is not None:
                used |= set(h)
        self.deck = np.array([c for c in range(52) if c not in used], np.uint8)
        self.k = 5 - len(spot.board)
        self.contested = [p for p, pot in enumerate(spot.structure.pots) if len(pot.eligible) > 1]
        pots = [spot.structure.pots[p] for p in self.contested]
        self.amounts = np.array([pot.amount for pot in pots], np.int64)
        self.members = np.zeros((len(pots), n_live), np.int64)
        self.n_members = np.zeros(len(pots), np.int64)
        self.elig = np.zeros((len(pots), n_live), np.bool_)
        for p, pot in enumerate(pots):
            idx = [live_index[s] for s in pot.eligible]
            self.members[p, : len(idx)] = idx
            self.n_members[p] = len(idx)
            self.elig[p, idx] = True
        self.order = np.array([live_index[s] for s in spot.order.tolist() if s in live_index],
                              np.int64)
        self.n_runouts = math.comb(len(self.deck), self.k)

    def _check_size(self, runouts: int) -> None:
        if int(self.amounts.sum()) * runouts >= 2**63:
            raise ValueError("chip counts too large: use smaller units (total chips x runouts "
                             "must stay below 2**63)")

    def _common(self) -> tuple[Any, ...]:
        return (self.k, self.board_key, self.board_mask, self.deck, self.hole_key,
                self.hole_mask, self.amounts, self.members, self.n_members, self.elig,
                self.order, self.tables)

    def exact(self, n_threads: int) -> tuple[np.ndarray, int]:
        """Walk every runout: ``(win object[P, L] of Python ints, runouts)``."""
        from evaluator.hands import _threads
        from simulate import _allin_kernels as K

        self._check_size(self.n_runouts)
        m = len(self.deck)
        if self.k >= 5:
            n_head = self.k - 3
            heads = np.array([(i, j) for i in range(m) for j in range(i + 1, m - 3)], np.int64)
        else:
            n_head = 0
            heads = np.zeros((1, 2), np.int64)
        shape = self.amounts.shape + self.order.shape
        if n_threads == 1 or self.n_runouts < PARALLEL_MIN_RUNOUTS:
            win = np.zeros(shape, np.int64)
            count = K.exact_serial(heads, n_head, *self._common(), win)
            return win.astype(object), int(count)
        n_tasks = min(len(heads), 8 * n_threads)
        wins = np.zeros((n_tasks, *shape), np.int64)
        counts = np.zeros(n_tasks, np.int64)
        with _threads(n_threads):
            K.exact_parallel(heads, n_head, *self._common(), wins, counts)
        return wins.astype(object).sum(axis=0), int(counts.sum())

    def monte_carlo(self, seed: int, first_block: int, n_samples: int,
                    n_threads: int) -> tuple[np.ndarray, np.ndarray]:
        """``n_samples`` runouts from blocks ``first_block, ...``:
        ``(win object[P, L], sumsq float64[L])``."""
        from evaluator.hands import _threads
        from simulate import _allin_kernels as K

        block = K.MC_BLOCK
        self._check_size(block)
        n_blocks = -(-n_samples // block)
        shape = self.amounts.shape + self.order.shape
        wins = np.zeros((n_blocks, *shape), np.int64)
        sumsqs = np.zeros((n_blocks, len(self.order)), np.float64)
        args = (np.uint64(seed), first_block, n_samples, block, *self._common(), wins, sumsqs)
        if n_threads == 1 or n_blocks == 1:
            K.mc_serial(*args)
        else:
            with _threads(n_threads):
                K.mc_parallel(*args)
        return wins.astype(object).sum(axis=0), sumsqs.sum(axis=0)


def _positive_int(value: Any, name: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    if value <= 0:
        raise ValueError(f"{name} must be positive, got {value}")
    return int(value)


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
) -> AllinResult:
    """Expected payout of every seat when the money is in and the board runs out.

    ``players``: 2..10 seats in seat order, each ``"CARDS:CHIPS"`` (a live
    Hold'em hand and the total chips it committed, e.g. ``"AhAs:100"``),
    ``"fold:CHIPS"`` (dead money), or a pair ``(cards, chips)`` with
    ``cards=None`` for a folded seat. ``board``: 0, 3, 4 or 5 cards;
    ``dead``: cards out of the deck. ``button``: the button's seat, which fixes
    who gets odd chips in a split (first tied winner left of the button).

    ``exact=True`` walks every runout (at most C(48, 5) = 1,712,304);
    ``False`` samples ``samples`` runouts (default 1,000,000) or, with
    ``target_std_error``, keeps sampling until every seat's standard error of
    its expected payout (in chips) is at most that (up to 50,000,000 runouts);
    ``None`` walks every runout when that is quick (always, for exact hands)
    unless ``samples`` or ``target_std_error`` is given. The same ``seed``
    gives the same answer on any thread count.

    Raises ``ValueError`` (:class:`evaluator.cards.CardError` for card
    problems) with a one-line message on bad input.
    """
    t0 = time.perf_counter()
    spot = _parse(players, board, dead, button)
    if exact is not None and not isinstance(exact, (bool, np.bool_)):
        raise ValueError(f"exact must be True, False or None, got {exact!r}")
    if samples is not None:
        samples = _positive_int(samples, "samples")
    if target_std_error is not None:
        if isinstance(target_std_error, bool) or not isinstance(target_std_error,
                                                                 (int, float, np.floating)):
            raise ValueError(f"target_std_error must be a number, got {target_std_error!r}")
        if not target_std_error > 0 or not math.isfinite(target_std_error):
            raise ValueError(f"target_std_error must be positive, got {target_std_error}")
    if exact and (samples is not None or target_std_error is not None):
        raise ValueError("exact=True cannot be combined with samples or target_std_error")
    if samples is not None and target_std_error is not None:
        raise ValueError("give samples or target_std_error, not both")
    from evaluator.hands import _resolve_threads
    from simulate._rng import resolve_seed

    n_threads = _resolve_threads(threads)
    structure = spot.structure
    engine = _Engine(spot)
    n_pots, n_live = len(engine.contested), len(engine.live_seats)

    # Decide how to run. With nothing contested, or a complete board, the answer is exact.
    if n_pots == 0:
        mode = "none"
    elif engine.k == 0 or exact:
        mode = "exact"
    elif exact is None and samples is None and target_std_error is None:
        mode = "exact" if engine.n_runouts * n_live <= EXACT_LIMIT else "mc"
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
        used_seed = resolve_seed(seed)
        from simulate._allin_kernels import MC_BLOCK

        if target_std_error is None:
            n = samples or DEFAULT_SAMPLES
            win, sumsq = engine.monte_carlo(used_seed, 0, n, n_threads)
        else:
            n, blocks = 0, 0
            step = 8 * MC_BLOCK
            while True:
                w, s = engine.monte_carlo(used_seed, blocks, step, n_threads)
                win, sumsq = win + w, sumsq + s
                n += step
                blocks += step // MC_BLOCK
                worst = float(max(_std_errors(win, sumsq, n)))
                if worst <= target_std_error or n >= MAX_SAMPLES:
                    break
                want = n * (worst / target_std_error) ** 2 * 1.05
                step = int(min(max(want - n, MC_BLOCK), MAX_SAMPLES - n))
                step = -(-step // MC_BLOCK) * MC_BLOCK
    std = _std_errors(win, sumsq, n) if mode == "mc" else [0.0] * n_live
    return _result(spot, engine, structure, win, n, std, mode != "mc", used_seed, t0)


def _std_errors(win: np.ndarray, sumsq: np.ndarray, n: int) -> list[float]:
    """Standard error of each live player's mean payout from the sums over ``n`` runouts."""
    out = []
    for i in range(win.shape[1]):
        mean = float(sum(win[:, i])) / n
        var = max(float(sumsq[i]) / n - mean * mean, 0.0)
        if n > 1:
            var *= n / (n - 1)
        out.append(math.sqrt(var / n))
    return out


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
                won = int(win[contested[p], live_index[s]])
                equities.append(won / (n * pot.amount))
                payout += won / n
        hand = spot.hands[s]
        players.append(AllinPlayer(
            seat=s, hand="fold" if hand is None else cards_str(hand), live=hand is not None,
            committed=structure.committed[s], returned=structure.returned[s],
            expected_payout=payout, ev=payout - structure.committed[s],
            std_error=std[live_index[s]] if s in live_index else 0.0, pot_equity=equities))
    return AllinResult(pots=list(structure.pots), players=players, exact=exact, samples=n,
                       elapsed_s=time.perf_counter() - t0, board=cards_str(spot.board),
                       dead=cards_str(spot.dead), button=spot.button, seed=seed)
