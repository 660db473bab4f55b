"""Result types shared by the equity, Omaha and range runners."""

from __future__ import annotations

from dataclasses import dataclass, field


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
                "std_error": self.std_error, "categories": dict(self.categories)}


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
