"""All-in expected value with side pots: :func:`allin_ev`.

Every seat has committed a number of chips; live seats hold cards (or, in Hold'em, a
range), folded seats left dead money. The chips form a main pot and side pots
(:func:`simulate.pots.build_pots`); on every runout of the board each pot goes to the best
hand among the seats eligible for it, a split dividing it evenly with the odd chips dealt
one at a time to the tied winners in seat order starting left of the button. ``allin_ev``
averages each seat's payout over every runout (exact) or over random runouts (Monte Carlo,
with standard errors), resolving all pots on the same runout.

The request is parsed once into a :class:`~simulate.request.Spot` (seats, chips and pots:
:func:`simulate.request.parse_allin_spot`) and run by :func:`allin_run` on the engine of
its kind (:mod:`simulate.allin_engines`): exact Hold'em hands walk the equity engine's
reduced walk into the pots scorer; ranges use range equity's walks (heads-up) or its
board-major multiway walk, weighting each card-disjoint tuple of combos by its weight
product (integers when every weight is whole, float64 otherwise), and sample by drawing
every seat's combo by weight together and drawing the whole tuple again when two combos
share a card (unbiased); Omaha (``omaha``: 4 to 6 hole cards, as hand histories name every
Omaha variant; ``omaha5``/``omaha6``: 5 or 6) walks Omaha equity's triple-table walk and
samples runouts in batches; Pineapple hands before the discard point walk or sample the
discard by policy, as :mod:`simulate.pineapple` states. Every engine sums integer chips per
pot and seat; the division happens here, in Python. ``exact=None`` walks exactly the spots
the equity engine for the same hands walks exactly (:func:`walks_exactly`, or
:func:`spot_walks_exactly` of a parsed spot).

Hand histories need two more things (see :mod:`simulate.replay.hand_replay`): ``allow_zero=True``
accepts seats that committed 0 chips (a seat that folded without posting), and
``dead_money`` adds chips that no seat's commitment accounts for (antes that are not part
of the contributions) to the main pot, which every live seat is eligible for
(:func:`simulate.pots.add_dead_money`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from evaluator._jit import work_clock
from evaluator.cards import cards_str
from simulate.allin_engines import Engine, engine_for
from simulate.request import ALLIN_GAMES, SeatSpec, Spot, parse_allin_spot, parse_seat
from simulate.results import AllinPlayer, AllinResult, std_error_of_mean
from simulate.sampling import CHIPS, Sampling, sampling

__all__ = ["ALLIN_GAMES", "AllinPlayer", "AllinResult", "allin_ev", "allin_run",
           "parse_seat", "spot_walks_exactly", "walks_exactly"]


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
    stacks: Sequence[float] | None = None,
    payouts: Sequence[float] | None = None,
    posted: Sequence[int] | None = None,
) -> AllinResult:
    """Expected payout of every seat when the money is in and the board runs out.

    ``players``: 2..10 seats in seat order, each ``"CARDS:CHIPS"`` (a live
    Hold'em hand and the total chips it committed, e.g. ``"AhAs:100"``),
    ``"RANGE:CHIPS"`` (a Hold'em range, e.g. ``"QQ+,AKs:100"``, ``"random:50"``;
    the chips follow the last colon), ``"fold:CHIPS"`` (dead money), or a pair
    ``(cards, chips)`` with ``cards=None`` for a folded seat. ``board``: 0, 3, 4
    or 5 cards; ``dead``: cards out of the deck. ``button``: the button's seat,
    which fixes who gets odd chips in a split (first tied winner left of the
    button). ``game``: any of :data:`ALLIN_GAMES` (the games table): ``"holdem"``,
    ``"omaha"`` (4 to 6 hole cards), ``"omaha5"``, ``"omaha6"`` (no ranges outside Hold'em),
    ``"omaha_hilo"``, ``"omaha5_hilo"`` (each pot split between its best high and best
    eight-or-better low on its own, the odd chip high), ``"pineapple"``,
    ``"crazy_pineapple"``. ``dead_money``: chips in the middle that no seat's commitment
    counts (antes outside the contributions); they join the main pot, which every live seat
    is eligible for (if a live seat committed nothing, they form a first pot of their own,
    eligible for every live seat).
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

    Tournaments: ``stacks`` (each seat's chips behind, not counting what it committed to
    this pot) and ``payouts`` (the prizes of places 1, 2, ...), with ``posted`` (what each
    seat had been forced to put in, blinds and antes; default 0), give every player
    ``icm_equity`` (its expected prize after the pot, exact over every outcome) and
    ``icm_equity_if_folded`` (had it folded with only its posted chips in):
    :mod:`simulate.allin_icm`; exact Hold'em hands only; ``"fold:0"`` names a seat with
    nothing in this pot (it still counts for ICM). Chip EV is unchanged.

    Raises ``ValueError`` (:class:`evaluator.cards.CardError` for card
    problems) with a one-line message on bad input.
    """
    t0 = work_clock()
    tournament = stacks is not None or payouts is not None
    spot = parse_allin_spot(players, board, dead, button, game=game,
                            allow_zero=allow_zero or tournament, dead_money=dead_money,
                            discard_after=discard_after, discard_policy=discard_policy)
    if tournament and not allow_zero:  # fold:0 names a seat out of this pot, still in ICM
        assert spot.chips is not None
        for s, (h, c) in enumerate(zip(spot.hands, spot.chips, strict=True)):
            if h is not None and c == 0:
                raise ValueError(f"seat {s}: committed chips must be positive, got 0")
    opts = sampling(exact, samples, target_std_error, seed, threads, unit=CHIPS)
    if not tournament:
        if posted is not None:
            raise ValueError("posted needs stacks and payouts (ICM equity)")
        return allin_run(spot, opts, t0)
    if stacks is None or payouts is None:
        raise ValueError("ICM equity needs both stacks and payouts")
    from simulate.allin_icm import icm_equities

    eq, folded = icm_equities(spot, stacks, payouts, posted)
    res = allin_run(spot, opts, t0)
    for p, e, f in zip(res.players, eq, folded, strict=True):
        p.icm_equity, p.icm_equity_if_folded = e, f
    res.elapsed_s = work_clock() - t0
    return res


def _ready(spot: Spot) -> Spot:
    """The spot an engine takes: three-card Pineapple hands at their discard point discard
    now (kept pairs live, discards dead), as the rest is Hold'em."""
    if spot.discard_policy is not None:
        from simulate.pineapple import DISCARD_AFTER, discard_now

        if len(spot.board) >= DISCARD_AFTER[spot.discard_after]:  # type: ignore[index]
            return discard_now(spot)[0]
    return spot


def allin_run(spot: Spot, opts: Sampling, t0: float | None = None) -> AllinResult:
    """:func:`allin_ev` of a parsed all-in ``spot`` (:func:`simulate.request.parse_allin_spot`)
    with checked ``opts`` (standard errors in chips); ``t0``: the work clock at the start."""
    t0 = work_clock() if t0 is None else t0
    spot = _ready(spot)
    n_threads = opts.n_threads()
    engine = engine_for(spot)
    n_pots, n_live = len(engine.contested), len(engine.live_seats)

    # Decide how to run. With nothing contested, or a complete board and known hands, the
    # answer is exact.
    if n_pots == 0:
        mode = "none"
    elif opts.exact or (opts.exact is None and not opts.wants_sampling
                        and engine.quick(n_threads)):
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
    res = _result(spot, engine, win, n, std, mode != "mc", used_seed, t0)
    if mode == "exact":
        res.samples = getattr(engine, "deals", n)
    return res


def walks_exactly(players: Sequence[SeatSpec], board: str | Sequence[int] = "",
                  dead: str | Sequence[int] = "", *, game: str = "holdem",
                  dead_money: int = 0, allow_zero: bool = False,
                  threads: int | None = None) -> bool:
    """True when :func:`allin_ev` with ``exact=None`` and no sampling options walks every
    runout of this spot (arguments as :func:`allin_ev`): the equity engines' own rule (the
    reduced walk's board bound, range equity's time estimate, Omaha's runouts x hands), so
    the spots ``equity`` walks exactly. Raises as :func:`allin_ev` on bad input."""
    spot = parse_allin_spot(players, board, dead, 0, game=game, allow_zero=allow_zero,
                            dead_money=dead_money)
    return spot_walks_exactly(spot, threads)


def spot_walks_exactly(spot: Spot, threads: int | None = None) -> bool:
    """:func:`walks_exactly` of a parsed all-in ``spot``
    (:func:`simulate.request.parse_allin_spot`), for a caller that then runs the same spot
    with :func:`allin_run`."""
    from evaluator._jit import resolve_threads

    return engine_for(_ready(spot)).quick(resolve_threads(threads))


def _monte_carlo(engine: Engine, opts: Sampling, seed: int,
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


def _result(spot: Spot, engine: Engine, win: np.ndarray, n: int, std: list[float],
            exact: bool, seed: int | None, t0: float) -> AllinResult:
    structure = spot.pots
    assert structure is not None
    n_seats = len(spot.hands)
    live_index = {s: i for i, s in enumerate(engine.live_seats)}
    contested = {p: j for j, p in enumerate(engine.contested)}
    players = []
    texts = spot.texts
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
        players.append(AllinPlayer(
            seat=s, hand=texts[s], live=hand is not None,
            committed=structure.committed[s], returned=structure.returned[s],
            expected_payout=payout, ev=payout - structure.committed[s],
            std_error=std[live_index[s]] if s in live_index else 0.0, pot_equity=equities))
    return AllinResult(pots=list(structure.pots), players=players, exact=exact, samples=n,
                       elapsed_s=work_clock() - t0, board=cards_str(spot.board),
                       dead=cards_str(spot.dead), button=spot.button, seed=seed,
                       game=spot.game.name, dead_money=spot.dead_money)
