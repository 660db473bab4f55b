"""Parsing and validation of an equity request (hands, board, dead cards).

The public layer parses text once, here; kernels only ever see card ids.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from evaluator.cards import CardError, cards_str, check_disjoint, parse_cards

from .games import GAMES as _GAME_TABLE

#: Cards dealt to each player, by game (derived from :data:`simulate.games.GAMES`).
GAMES = {name: g.hole for name, g in _GAME_TABLE.items()}
MIN_PLAYERS, MAX_PLAYERS = 2, 10
BOARD_SIZES = (0, 3, 4, 5)


@dataclass
class Request:
    """A validated request of exact hands.

    ``hands``: one list of card ids per player; ``board``, ``dead``: card ids;
    ``texts``: each hand's canonical text.
    """

    game: str
    hands: list[list[int]]
    board: list[int]
    dead: list[int]

    @property
    def texts(self) -> list[str]:
        return [cards_str(h) for h in self.hands]

    @property
    def board_text(self) -> str:
        return cards_str(self.board)

    @property
    def dead_text(self) -> str:
        return cards_str(self.dead)

    def hands_array(self) -> np.ndarray:
        """``ndarray[P, hole] uint8``."""
        return np.array(self.hands, dtype=np.uint8).reshape(len(self.hands), -1)

    def remaining_deck(self) -> np.ndarray:
        """``ndarray[M] uint8``: the cards not in any hand, the board or the dead cards."""
        used = set(self.board) | set(self.dead)
        for h in self.hands:
            used |= set(h)
        return np.array([c for c in range(52) if c not in used], dtype=np.uint8)


def check_game(game: str) -> str:
    g = str(game).strip().lower()
    if g not in GAMES:
        raise CardError(f"unknown game '{game}' (expected one of: {', '.join(GAMES)})")
    return g


def check_player_count(n: int) -> None:
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise CardError(f"need {MIN_PLAYERS} to {MAX_PLAYERS} players, got {n}")


def parse_board(board: str | Sequence[int] | None) -> list[int]:
    ids = parse_cards(board or "", what="board")
    if len(ids) not in BOARD_SIZES:
        raise CardError(f"a board has 0, 3, 4 or 5 cards, got {len(ids)}")
    return ids


def parse_request(hands: Sequence[str | Sequence[int]], board: str | Sequence[int] = "",
                  dead: str | Sequence[int] = "", *, game: str = "holdem") -> Request:
    """Validate exact hands for ``game``; raise :class:`CardError` with a one-line reason."""
    game = check_game(game)
    if isinstance(hands, str):
        raise CardError("hands must be a list, e.g. ['AhKh', 'QsQd']")
    check_player_count(len(hands))
    hole = GAMES[game]
    parsed = []
    for i, h in enumerate(hands, 1):
        ids = parse_cards(h, what=f"hand {i}")
        if len(ids) != hole:
            raise CardError(f"hand {i} has {len(ids)} cards; {game} hands have {hole}")
        parsed.append(ids)
    b = parse_board(board)
    d = parse_cards(dead or "", what="dead cards")
    check_disjoint([*[(f"hand {i}", h) for i, h in enumerate(parsed, 1)], ("board", b),
                    ("dead cards", d)])
    need = 5 - len(b)
    left = 52 - hole * len(parsed) - len(b) - len(d)
    if left < need:
        raise CardError(f"not enough cards: the board needs {need} more but only {left} "
                        "remain in the deck")
    return Request(game=game, hands=parsed, board=b, dead=d)
