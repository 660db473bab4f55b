"""Result types shared by the equity, Omaha and range runners."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np


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
    player's final hand is each category.
    """

    hand: str
    equity: float
    win: float
    tie: float
    std_error: float = 0.0
    categories: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {"hand": self.hand, "equity": self.equity, "win": self.win, "tie": self.tie,
                "std_error": json_number(self.std_error), "categories": dict(self.categories)}


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
