"""The tournament side of an all-in: each seat's ICM equity after the pot, and had it
folded (:func:`icm_equities`, behind ``allin_ev(..., stacks=, payouts=, posted=)``).

Chips are not money in a tournament: the prize a seat expects is the ICM equity
(:func:`simulate.icm.icm`) of the stacks after the pot, which is not linear in the chips, so
the runouts cannot be averaged into chips first. The all-in engine's exact walk counts the
runouts by outcome instead (:meth:`simulate.allin_engines.Engine.outcomes`: every distinct
payout vector of the contested pots, settled by the one pot rule, with its number of
runouts, ties and every side-pot outcome their own), and the equity is the weighted mean of
ICM over those outcomes. The stacks after the pot: each seat's chips behind plus what it
takes back (returned chips, uncontested pots, its part of the contested ones); the players
it busts take the lowest places, those who started the hand with more chips higher.

Had seat ``s`` folded: the same spot with ``s`` a folded seat that put in only its
``posted`` chips (dead money; its cards out of the deck), everything else unchanged; ``s``
keeps ``stacks[s] + committed[s] - posted[s]``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simulate.allin_engines import engine_for
from simulate.icm import check_amounts, check_payouts, icm_after_hand
from simulate.pots import check_chips
from simulate.request import Spot, parse_allin_spot

__all__ = ["icm_equities"]


def icm_equities(spot: Spot, stacks: Sequence[float], payouts: Sequence[float],
                 posted: Sequence[int] | None = None
                 ) -> tuple[list[float], list[float | None]]:
    """``(icm_equity, icm_equity_if_folded)`` per seat of a parsed all-in ``spot``
    (:func:`simulate.request.parse_allin_spot`, exact Hold'em hands): ``stacks`` each
    seat's chips behind (not counting this pot), ``payouts`` the prizes of places 1, 2,
    ...; ``posted`` what each seat was forced to put in (blinds, antes; default 0).
    ``icm_equity_if_folded`` is None for a seat whose fold leaves no live seat, or whose
    posted chips would top every live commitment. One-line ValueError on bad input."""
    n = len(spot.hands)
    assert spot.chips is not None
    behind = check_amounts(stacks, "stacks")
    if behind.size != n:
        raise ValueError(f"stacks: {behind.size} given for {n} seats")
    pay = check_payouts(payouts, n)
    if posted is None:
        posted = [0] * n
    if isinstance(posted, (str, bytes)) or len(posted) != n:
        raise ValueError(f"posted: give one amount per seat ({n})")
    forced = [check_chips(c, f"posted: seat {s}", allow_zero=True) for s, c in enumerate(posted)]
    for s, c in enumerate(forced):
        if c > spot.chips[s]:
            raise ValueError(f"posted: seat {s} posted {c} but committed only {spot.chips[s]}")
    committed = np.array(spot.chips, np.float64)
    start = behind + committed
    actual = _expected(spot, behind, start, pay)
    folded: list[float | None] = []
    for s in range(n):
        if spot.hands[s] is None and forced[s] == spot.chips[s]:
            folded.append(float(actual[s]))  # it did fold with only its posted chips
            continue
        others_live = any(h is not None for t, h in enumerate(spot.hands) if t != s)
        if not others_live:
            folded.append(None)
            continue
        players = [(None, forced[t]) if t == s else (spot.hands[t], spot.chips[t])
                   for t in range(n)]
        hand = spot.hands[s]
        dead = list(spot.dead) + (list(hand) if isinstance(hand, list) else [])
        try:
            alt = parse_allin_spot(players, list(spot.board), dead, spot.button,
                                   game=spot.game.name, allow_zero=True,
                                   dead_money=spot.dead_money)
        except ValueError:
            folded.append(None)
            continue
        keep = behind.copy()
        keep[s] += committed[s] - forced[s]
        folded.append(float(_expected(alt, keep, start, pay)[s]))
    return [float(x) for x in actual], folded


def _expected(spot: Spot, behind: np.ndarray, start: np.ndarray, pay: np.ndarray) -> np.ndarray:
    """Each seat's ICM equity after the pot of ``spot``, weighted over every outcome of its
    exact walk; ``behind`` float64[n] the chips each seat keeps outside the pot."""
    structure = spot.pots
    assert structure is not None
    base = behind + np.array(structure.returned, np.float64)
    engine = engine_for(spot)
    for p, pot in enumerate(structure.pots):
        if p not in engine.contested:
            base[pot.eligible[0]] += pot.amount
    if not engine.contested:
        return icm_after_hand(base, start, pay)
    _, outs, weights, total = engine.outcomes()
    live = np.array(engine.live_seats, np.int64)
    acc = np.zeros(base.size)
    for o in range(outs.shape[0]):
        final = base.copy()
        final[live] += outs[o]
        acc += float(weights[o]) * icm_after_hand(final, start, pay)
    return acc / total
