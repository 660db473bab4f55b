"""The one table of games: every place that names a game derives its list from :data:`GAMES`.

A :class:`Game` says how many hole cards are dealt, which evaluator scores the showdown
(``family``), when a Pineapple game discards, and the PHH variant code of each betting
structure. The CLI's ``choices``, the engine's rules, the PHH reader and writer, batch and
``bench`` all read this table; adding a game here (and its evaluator) is what makes it
known everywhere. The facts every game shares live here too, so that the command line can
read them without loading the engines: the seat bounds (:data:`MIN_PLAYERS`,
:data:`MAX_PLAYERS`), the board sizes (:data:`BOARD_SIZES`) and Pineapple's discard
timings and policies (:data:`DISCARD_AFTER`, :data:`POLICIES`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["BETTINGS", "BOARD_SIZES", "DEFAULT_POLICY", "DISCARD_AFTER", "GAMES", "MAX_CHIPS",
           "MAX_PLAYERS", "MIN_PLAYERS", "POLICIES", "Game", "board_sizes_text", "check_game",
           "game_names", "games_help", "number_text", "whole_number"]

#: Betting structures, in the engine's order (its kernel code is the index).
BETTINGS = ("no-limit", "pot-limit", "fixed-limit")
#: The most chips one amount may hold (a seat's commitment, dead money, a stack, a blind, an
#: amount in a hand history): ten seats' worth plus dead money, and the products the engines
#: form with runout counts (checked where they are formed), stay inside int64.
MAX_CHIPS = 10**15
#: The most digits a number in a message is written with (longer: "a number of N digits").
MAX_DIGITS = 20
#: The longest digit string :func:`whole_number` converts, under Python's own limit of 4,300
#: (a shorter one past an amount's limit gets that limit's message from its own check).
MAX_READ_DIGITS = 4000
#: Players (seats) in a spot, an all-in or a hand.
MIN_PLAYERS, MAX_PLAYERS = 2, 10
#: Board cards a spot may show: preflop, flop, turn, river.
BOARD_SIZES = (0, 3, 4, 5)
#: Pineapple: cards on the board when the discard happens, by ``discard_after`` (the
#: betting round after which every seat discards).
DISCARD_AFTER = {"preflop": 0, "flop": 3, "turn": 4}
#: Pineapple discard policies by name, with their kernel codes (``made`` is the default).
POLICIES = {"made": 0, "equity": 1}
DEFAULT_POLICY = "made"


@dataclass(frozen=True)
class Game:
    """One game.

    ``hole_cards``: cards dealt to each seat (Pineapple: three, one discarded). ``family``:
    ``holdem`` (best five of hole and board), ``omaha`` (exactly two hole and three board
    cards) or ``pineapple`` (Hold'em after a discard). ``discard_after``: the betting round
    after which a Pineapple game discards by default (None elsewhere). ``phh``: the PHH
    variant code of each betting structure (Pineapple's, no- and pot-limit Omaha hi/lo's
    ``NO/8`` and ``PO/8`` and the five- and six-card Omahas' ``PO5``, ``PO6``, ``PO5/8``, ...
    are the project's own: PHH has none). ``label``: the name a person reads. ``scale``:
    the evaluator's tables (:func:`evaluator._tables.get_tables`): ``holdem``, or a
    short-deck scale. ``low_rank``: the lowest rank in the deck (0, the deuce; 4, the six,
    in short deck, whose deck is the 36 cards from 6 to A). ``hilo``: a high/low split
    game (eight or better).
    """

    name: str
    hole_cards: int
    family: str
    label: str
    phh: dict[str, str] = field(default_factory=dict, hash=False)
    discard_after: str | None = None
    scale: str = "holdem"
    low_rank: int = 0
    hilo: bool = False

    @property
    def is_omaha(self) -> bool:
        return self.family == "omaha"

    @property
    def is_pineapple(self) -> bool:
        return self.family == "pineapple"

    @property
    def deck(self) -> tuple[int, ...]:
        """The card ids of the game's deck (52, or short deck's 36)."""
        return tuple(range(4 * self.low_rank, 52))

    @property
    def deck_size(self) -> int:
        return 52 - 4 * self.low_rank

    @property
    def missing(self) -> list[int]:
        """The card ids the game's deck lacks (short deck: the 16 cards below the six); the
        engines treat them as dead cards, so short deck is Hold'em without them."""
        return list(range(4 * self.low_rank))

    @property
    def deck_text(self) -> str:
        """The deck in words, for messages: ``the short deck (6 to A)`` (the evaluator's
        :func:`evaluator.hands.deck_text` of the game's scale)."""
        from evaluator.hands import deck_text

        return deck_text(self.scale)

    @property
    def kept(self) -> int:
        """Hole cards a seat holds at the showdown (Pineapple: two after the discard)."""
        return 2 if self.is_pineapple else self.hole_cards

    @property
    def ranges(self) -> bool:
        """Whether a player may hold a range (Hold'em's 169-class notation)."""
        return self.family == "holdem"


def _codes(suffix: str) -> dict[str, str]:
    return {"no-limit": f"N{suffix}", "pot-limit": f"P{suffix}", "fixed-limit": f"F{suffix}"}


GAMES: dict[str, Game] = {g.name: g for g in (
    Game("holdem", 2, "holdem", "Hold'em", _codes("T")),
    Game("omaha", 4, "omaha", "Omaha (4 hole cards)", _codes("O")),
    Game("omaha5", 5, "omaha", "Omaha (5 hole cards)", _codes("O5")),
    Game("omaha6", 6, "omaha", "Omaha (6 hole cards)", _codes("O6")),
    Game("pineapple", 3, "pineapple", "Pineapple (3 cards, one discarded after preflop)",
         _codes("P"), discard_after="preflop"),
    Game("crazy_pineapple", 3, "pineapple",
         "Crazy Pineapple (3 cards, one discarded after the flop)", _codes("CP"),
         discard_after="flop"),
    Game("short_deck", 2, "holdem",
         "Short deck (6+) Hold'em, 36 cards; trips below a straight", {"no-limit": "NS"},
         scale="short_deck", low_rank=4),
    Game("short_deck_triton", 2, "holdem",
         "Short deck (6+) Hold'em, Triton rules: trips above a straight",
         {"no-limit": "NST"}, scale="short_deck_triton", low_rank=4),
    Game("omaha_hilo", 4, "omaha", "Omaha hi/lo eight or better (4 hole cards)",
         {"no-limit": "NO/8", "pot-limit": "PO/8", "fixed-limit": "FO/8"}, hilo=True),
    Game("omaha5_hilo", 5, "omaha", "Omaha hi/lo eight or better (5 hole cards)",
         {"no-limit": "NO5/8", "pot-limit": "PO5/8", "fixed-limit": "FO5/8"}, hilo=True),
)}


def game_names(family: str | None = None) -> tuple[str, ...]:
    """The names of every game (or of one ``family``), in the table's order."""
    return tuple(n for n, g in GAMES.items() if family is None or g.family == family)


def games_help() -> str:
    """One line for a CLI ``--game`` help text: every game and what it deals."""
    return "; ".join(f"{g.name}: {g.label}" for g in GAMES.values())


def board_sizes_text() -> str:
    """:data:`BOARD_SIZES` in words, for messages: ``0, 3, 4 or 5``."""
    return f"{', '.join(map(str, BOARD_SIZES[:-1]))} or {BOARD_SIZES[-1]}"


def whole_number(digits: str, what: str) -> int:
    """The digit string ``digits`` (its form checked by the caller) as an int; a ValueError
    naming ``what`` when it is longer than :data:`MAX_READ_DIGITS` (far too large for any
    amount, count or seat here; Python's own error there is advice on its limit)."""
    if len(digits) > MAX_READ_DIGITS:
        raise ValueError(f"{what} is too large: a number of {len(digits):,} digits")
    return int(digits)


def number_text(n: int) -> str:
    """``n`` for a message: its digits, or for a number longer than :data:`MAX_DIGITS` "a
    number of N digits" (its digits would flood the line, and past 4,300 Python refuses to
    write them)."""
    bits = abs(n).bit_length()
    if bits > 14_000:  # past Python's 4,300 digits: counted from the bits
        return f"a number of about {int(bits * 0.30103) + 1:,} digits"
    text = str(n)
    digits = len(text.lstrip("-"))
    return text if digits <= MAX_DIGITS else f"a number of {digits:,} digits"


def check_game(game: str) -> Game:
    """The :class:`Game` named ``game`` (any case); ValueError naming the known games."""
    g = GAMES.get(str(game).strip().lower())
    if g is None:
        raise ValueError(f"unknown game '{game}' (expected one of: {', '.join(GAMES)})")
    return g
