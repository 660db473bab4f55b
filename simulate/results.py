"""Result types of every engine: equity (:class:`EquityResult`, :class:`PlayerResult`) and
all-in EV (:class:`AllinResult`, :class:`AllinPlayer`), and the one standard-error formula."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: Pot share unit of every equity kernel: lcm(1..10), so a k-way split of one pot gives each
#: winner exactly ``SHARE_UNIT // k`` units (no odd chip), and sums stay integers.
SHARE_UNIT = 2520


def std_error_of_mean(total: np.ndarray, total_sq: np.ndarray, n: int) -> np.ndarray:
    """Standard error of the mean of ``n`` draws from their sum and sum of squares.

    ``total``, ``total_sq``: float arrays of the same shape (one entry per player or
    seat), in the units of the result. Uses the sample variance (``n - 1``); with
    fewer than two draws the error is unknown and comes back as ``inf``.
    """
    total = np.asarray(total, dtype=np.float64)
    if n < 2:
        return np.full(total.shape, math.inf)
    var = np.maximum(np.asarray(total_sq, dtype=np.float64) - total * total / n, 0.0) / (n - 1)
    return np.sqrt(var / n)


def json_number(x: float) -> float | None:
    """``x`` for JSON: ``None`` (null) where it is not finite (an unknown std error)."""
    return x if math.isfinite(x) else None


@dataclass
class PlayerResult:
    """One player's share of an equity calculation.

    ``equity`` is the share of the pot (ties split), ``win`` the share of deals won
    outright, ``tie`` the share of deals split, ``std_error`` the standard error of
    ``equity`` (0 when exact), ``categories`` the share of deals on which this
    player's final hand is each category (the high hand's, in a hi/lo game).

    Hi/lo split games also give ``high`` and ``low`` (the pot shares won by the high and by
    the low half; ``equity`` is their sum) and ``scoop`` (the share of deals won whole and
    alone, which is ``win`` there; ``tie`` counts the deals with a part of the pot);
    elsewhere they are None and left out of :meth:`to_dict`.
    """

    hand: str
    equity: float
    win: float
    tie: float
    std_error: float = 0.0
    categories: dict[str, float] = field(default_factory=dict)
    high: float | None = None
    low: float | None = None
    scoop: float | None = None

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"hand": self.hand, "equity": self.equity, "win": self.win,
                                "tie": self.tie}
        if self.high is not None:
            d.update(high=self.high, low=self.low, scoop=self.scoop)
        d.update(std_error=json_number(self.std_error), categories=dict(self.categories))
        return d


@dataclass
class EquityResult:
    """Result of :func:`simulate.equity`; ``to_dict()`` gives the contract's JSON."""

    players: list[PlayerResult]
    exact: bool
    samples: int
    elapsed_s: float
    game: str = "holdem"
    board: str = ""
    dead: str = ""
    extra: dict[str, object] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {
            "game": self.game, "board": self.board, "dead": self.dead, "exact": self.exact,
            "samples": self.samples, "elapsed_s": self.elapsed_s,
            "players": [p.to_dict() for p in self.players],
        }
        d.update(self.extra)
        return d


@dataclass
class AllinPlayer:
    """One seat's result of :func:`simulate.allin_ev`.

    ``hand``: canonical cards, the range text, or ``"fold"``. ``committed``: chips put in;
    ``returned``: uncalled chips handed back (included in the payout);
    ``expected_payout``: chips expected back from the table; ``ev`` =
    ``expected_payout - committed``; ``std_error``: standard error of both (0
    when exact); ``pot_equity[p]``: expected share of pot ``p`` (0 where not
    eligible). With stacks and payouts (:mod:`simulate.allin_icm`): ``icm_equity``, the
    expected prize after the pot, and ``icm_equity_if_folded``, had the seat folded with
    only its posted chips in (None where that cannot be).
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
    icm_equity: float | None = None
    icm_equity_if_folded: float | None = None

    def to_dict(self) -> dict[str, Any]:
        d = {"seat": self.seat, "hand": self.hand, "live": self.live,
             "committed": self.committed, "returned": self.returned,
             "expected_payout": self.expected_payout, "ev": self.ev,
             "std_error": json_number(self.std_error), "pot_equity": list(self.pot_equity)}
        if self.icm_equity is not None:  # asked for with stacks and payouts
            d["icm_equity"] = self.icm_equity
            d["icm_equity_if_folded"] = self.icm_equity_if_folded
        return d


@dataclass
class AllinResult:
    """Result of :func:`simulate.allin_ev`; ``to_dict()`` gives ``pokerjit allin --json``.

    ``pots``: main pot first, then side pots (:class:`simulate.pots.Pot`, with
    ``.amount`` and ``.eligible`` seats); ``players``: one
    :class:`AllinPlayer` per seat in the order given; ``exact``: every runout
    walked; ``samples``: runouts walked or drawn (0 when no pot is contested;
    with ranges, exactly, the deals walked: card-disjoint combo tuples x
    runouts, unweighted); ``dead_money``: chips in the pots beyond the seats'
    commitments; ``game``: the game's name.
    """

    pots: list[Any]  # simulate.pots.Pot (not imported: pots imports the kernels)
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
