"""The request layer: text is parsed here, once, into a :class:`Spot`; engines take objects.

:func:`parse_spot` reads an equity or range request (hands, board, dead cards, game and the
Pineapple discard rule), :func:`parse_allin_spot` an all-in (seats with chips, button, dead
money). Both return a :class:`Spot`, which :func:`simulate.equity`, :func:`simulate.allin_ev`,
the range analysis and batch hand down to the engines together with their
:class:`simulate.sampling.Sampling`.

"Exact hand or range?" is decided in one place, :func:`parse_hand`: in a game whose players
may hold ranges (Hold'em), card text naming exactly two cards is a hand and any other text
is a range (so a comma list of combos, ``AhKh,AsKs``, is a range everywhere); other games
take exact cards only.
"""

from __future__ import annotations

import contextlib
import functools
import operator
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from evaluator.cards import CardError, cards_str, check_disjoint, parse_cards

from .games import (
    BOARD_SIZES,
    DEFAULT_POLICY,
    DISCARD_AFTER,
    GAMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    POLICIES,
    Game,
    board_sizes_text,
    game_names,
    whole_number,
)
from .games import check_game as _check_game
from .ranges import Range, parse_range

if TYPE_CHECKING:
    from .pots import PotStructure

# MIN_PLAYERS, MAX_PLAYERS, BOARD_SIZES, DISCARD_AFTER, POLICIES, DEFAULT_POLICY: defined in
# simulate.games (the command line reads them without loading numpy), imported above.
_STREET_TEXT = {"preflop": "the preflop betting", "flop": "the flop betting",
                "turn": "the turn betting"}

#: All-in seats: chips follow the last colon; these words mark a folded seat.
FOLD_WORDS = ("fold", "folded")
_CHIPS = re.compile(r"\d+")

HandLike = str | Sequence[int]
SeatSpec = str | tuple[Any, Any] | list[Any]


@dataclass
class Spot:
    """One parsed request: everything an engine needs, as card ids and objects.

    ``hands``: one entry per player or seat: ``list[int]`` (an exact hand's card ids),
    a :class:`~simulate.ranges.Range` (its live combos: the board, dead cards and the other
    players' exact cards removed) or ``None`` (an all-in seat that folded). ``board``,
    ``dead``: card ids. ``game``: the :class:`~simulate.games.Game`. Pineapple:
    ``discard_after`` (the betting round after which seats discard), ``discard_policy``
    (the policy name, three-card hands), ``discards`` (cards thrown away, given after the
    discard: dead). All-in: ``chips`` (each seat's committed chips), ``button``,
    ``dead_money`` (chips in the middle beyond the seats' commitments), ``pots`` (the
    :class:`~simulate.pots.PotStructure` they build); ``chips`` is None for equity.
    """

    game: Game
    hands: list[list[int] | Range | None]
    board: list[int]
    dead: list[int]
    discard_after: str | None = None
    discard_policy: str | None = None
    discards: list[int] = field(default_factory=list)
    chips: list[int] | None = None
    button: int = 0
    dead_money: int = 0
    pots: PotStructure | None = None

    @property
    def n_players(self) -> int:
        return len(self.hands)

    @property
    def exact_hand(self) -> list[bool]:
        """Per player: True for an exact hand (card ids)."""
        return [isinstance(h, list) for h in self.hands]

    @property
    def ranged(self) -> bool:
        """True when some player holds a range."""
        return any(isinstance(h, Range) for h in self.hands)

    @property
    def texts(self) -> list[str]:
        """Each hand's text: canonical cards, the range as given, or ``"fold"``."""
        return ["fold" if h is None else h.text if isinstance(h, Range) else cards_str(h)
                for h in self.hands]

    @property
    def out(self) -> list[int]:
        """The cards out of the deck that no hand holds and the board does not show: the dead
        cards and the cards the game's deck lacks (short deck's below the six). The engines
        deal from the rest, so short deck is Hold'em with those cards out."""
        return self.dead + self.game.missing

    @property
    def board_text(self) -> str:
        return cards_str(self.board)

    @property
    def dead_text(self) -> str:
        return cards_str(self.dead)

    @functools.cached_property
    def ranges(self) -> list[Range]:
        """Every hand as a :class:`Range`: an exact hand is a range of one combo, weight 1
        (two-card hands only; folded seats are not listed). Computed once per spot."""
        out = []
        for h in self.hands:
            if isinstance(h, Range):
                out.append(h)
            elif h is not None:
                lo, hi = sorted(h)
                out.append(Range(cards_str(h), np.array([[lo, hi]], np.uint8), np.ones(1)))
        return out

    def holds_random(self) -> list[bool]:
        """Per player (folded seats skipped): True when the player's range is every live
        combo at one weight (``random``), which engines deal from the remaining deck instead
        of drawing combo by combo. The one test of "random" of every engine."""
        n_live = (self.game.deck_size - len(self.board) - len(self.dead)
                  - 2 * sum(self.exact_hand))
        return [isinstance(h, Range) and h.is_uniform_full(n_live) for h in self.hands
                if h is not None]

    def hands_array(self) -> np.ndarray:
        """``ndarray[P, hole] uint8``: the exact hands (every hand must be exact)."""
        return np.array(self.hands, dtype=np.uint8).reshape(len(self.hands), -1)

    def remaining_deck(self) -> np.ndarray:
        """``ndarray[M] uint8``: the cards in no exact hand, not on the board, not dead and
        not discarded."""
        used = set(self.board) | set(self.out) | set(self.discards)
        for h in self.hands:
            if isinstance(h, list):
                used |= set(h)
        return np.array([c for c in range(52) if c not in used], dtype=np.uint8)


# ----------------------------------------------------------------------------- pieces
def check_game(game: str | Game) -> Game:
    """:func:`simulate.games.check_game` for a request: a :class:`Game` passes as it is, and
    an unknown name is a :class:`CardError` (the request's fault) naming the games."""
    if isinstance(game, Game):
        return game
    try:
        return _check_game(game)
    except ValueError as e:
        raise CardError(str(e)) from None


def check_player_count(n: int, what: str = "players") -> None:
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise CardError(f"need {MIN_PLAYERS} to {MAX_PLAYERS} {what}, got {n}")


def parse_board(board: str | Sequence[int] | None) -> list[int]:
    ids = parse_cards(board or "", what="board")
    if len(ids) not in BOARD_SIZES:
        raise CardError(f"a board has {board_sizes_text()} cards, got {len(ids)}")
    return ids


def parse_dead(dead: str | Sequence[int] | None, what: str = "dead cards") -> list[int]:
    return parse_cards(dead or "", what=what)


_RANGE_HINT = re.compile(r"[+,%:]|random|top|^\s*[2-9tjqka]{2}[so]?\s*$|[2-9tjqka]{2}[so]?-",
                         re.IGNORECASE)


def parse_hand(entry: HandLike, game: Game, index: int, *, seat: bool = False
               ) -> list[int] | Range:
    """One player's hand: card ids, or a :class:`Range` -- the one "exact or range?" rule.

    Where ranges are allowed (``game.ranges``: Hold'em), text naming exactly two cards is an
    exact hand and any other text is a range (``QQ+,AKs``, ``random``, ``AhKh,AsKs``); text
    that is neither keeps the card error when it is cards (``hand 1 has 3 cards ...``) and
    the range error otherwise. Elsewhere hands are exact cards (Omaha's count checked here,
    Pineapple's by :func:`check_hole_counts`, which needs the board). ``index``: the
    player's number in messages (``hand 1``); ``seat``: an all-in seat (``seat 0``).
    """
    label = f"seat {index}" if seat else f"hand {index}"
    if game.ranges and isinstance(entry, str):
        try:
            n_cards: int | None = len(parse_cards(entry, allow_repeats=True))
        except CardError:
            n_cards = None
        if n_cards != 2:
            try:
                return parse_range(entry, game=game.name)
            except CardError as range_error:
                if n_cards is None:
                    if not seat:
                        raise CardError(f"{range_error} (player {index})") from None
                    if ":" in entry:  # a weighted range: its own message says why
                        raise CardError(f"{label}: {range_error}") from None
                    try:
                        parse_cards(entry, what=label)
                    except CardError as card_error:
                        raise CardError(f"{card_error} (nor is '{entry.strip()}' a range)"
                                        ) from None
    try:
        ids = parse_cards(entry, what=label)
    except CardError:
        if isinstance(entry, str) and not game.ranges and _RANGE_HINT.search(entry):
            raise CardError(f"{label}: '{entry.strip()}' is not a card list but looks like a "
                            f"range: {game.label.split(' (')[0]} takes exact hands only "
                            "(ranges are Hold'em only)") from None
        raise
    if not game.is_pineapple:
        if seat and game.name == "omaha":  # hand histories: 4 to 6 cards under one name
            if not 4 <= len(ids) <= 6:
                raise CardError(f"{label} has {len(ids)} cards; Omaha hands have 4 to 6")
        elif len(ids) != game.hole_cards:
            name = ("Hold'em" if game.ranges else game.name) if seat else game.name
            raise CardError(f"{label} has {len(ids)} cards; {name} hands have {game.hole_cards}")
    return ids


def _live_ranges(hands: list[list[int] | Range | None], board: list[int], dead: list[int],
                 empty: Any) -> None:
    """Strip every range (in place) of the board, the dead cards (with the cards the game's
    deck lacks) and the exact hands; ``empty(i, text)`` gives the error for a range left with
    no combos."""
    taken = set(board) | set(dead) | {c for h in hands if isinstance(h, list) for c in h}
    for i, h in enumerate(hands):
        if isinstance(h, Range):
            hands[i] = h.without(taken)
            if len(hands[i]) == 0:  # type: ignore[arg-type]
                raise empty(i, h.text)


def check_in_deck(game: Game, groups: Sequence[tuple[str, Sequence[int]]]) -> None:
    """Every card of the named ``groups`` must be in ``game``'s deck: short deck refuses a
    card below the six, naming it and where it is (``2c in hand 1 is not in the short deck
    (6 to A)``)."""
    if not game.low_rank:
        return
    for name, cards in groups:
        for c in cards:
            if c >> 2 < game.low_rank:
                raise CardError(f"{cards_str([c])} in {name} is not in {game.deck_text}")


def _check_deck(hands: Sequence[list[int] | Range | None], board: list[int],
                out: int, deck: int = 52) -> None:
    need = 5 - len(board)
    n_hole = sum(2 if isinstance(h, Range) else len(h) for h in hands if h is not None)
    left = deck - n_hole - len(board) - out
    if left < need:
        raise CardError(f"not enough cards: the board needs {need} more but only {left} "
                        "remain in the deck")


# ----------------------------------------------------------------------------- discards
def resolve_discard_after(game: str | Game, discard_after: str | None) -> str:
    """The betting round after which ``game`` discards: ``discard_after`` checked, or the
    game's standard timing when None."""
    g = GAMES.get(game.name if isinstance(game, Game) else str(game).strip().lower())
    if g is None or not g.is_pineapple:
        if discard_after is not None:
            raise CardError(f"discard_after applies to pineapple and crazy_pineapple only, "
                            f"not {game}")
        raise CardError(f"'{game}' is not a pineapple game")
    if discard_after is None:
        return g.discard_after  # type: ignore[return-value]
    d = str(discard_after).strip().lower()
    if d not in DISCARD_AFTER:
        raise CardError(f"unknown discard_after '{discard_after}' (expected one of: "
                        f"{', '.join(DISCARD_AFTER)})")
    return d


def check_policy(name: str) -> str:
    p = str(name).strip().lower()
    if p not in POLICIES:
        raise CardError(f"unknown discard policy '{name}' (expected one of: "
                        f"{', '.join(POLICIES)})")
    return p


def check_hole_counts(hands: Sequence[Sequence[int] | None], game: str, da: str,
                      n_board: int, what: str = "hand", first: int = 1) -> int:
    """All hands (None: a folded seat, skipped) must hold 3 cards before the discard point,
    2 after it, and the same count at it; returns that count. ``what``/``first``: how
    messages name the hands (``hand 1``, ``seat 0``)."""
    dlen = DISCARD_AFTER[da]
    when = _STREET_TEXT[da]
    counts = set()
    for i, ids in enumerate(hands, first):
        if ids is None:
            continue
        n = len(ids)
        if n not in (2, 3):
            raise CardError(f"{what} {i} has {n} cards; {game} hands have 3 before the discard "
                            f"(after {when}) and 2 after it")
        if n == 2 and n_board < dlen:
            raise CardError(f"{what} {i} has 2 cards but the board ({n_board} cards) is before "
                            f"the discard (after {when}): {game} hands have 3 there")
        if n == 3 and n_board > dlen:
            raise CardError(f"{what} {i} has 3 cards but the board ({n_board} cards) is past "
                            f"the discard (after {when}): {game} hands have 2 there")
        counts.add(n)
    if len(counts) > 1:
        raise CardError(f"hands have 2 and 3 cards: at the discard either every {game} hand "
                        "has discarded (2 cards) or none has (3)")
    return counts.pop() if counts else 2


def _discard_rule(spot: Spot, discard_after: str | None, discard_policy: str | None,
                  what: str, first: int) -> int:
    """Set the spot's Pineapple discard rule; returns the hole count (2 or 3)."""
    g = spot.game
    spot.discard_after = resolve_discard_after(g, discard_after)
    policy = check_policy(discard_policy or DEFAULT_POLICY)
    n_hole = check_hole_counts([h if isinstance(h, list) else None for h in spot.hands],
                               g.name, spot.discard_after, len(spot.board), what, first)
    spot.discard_policy = policy if n_hole == 3 else None
    return n_hole


# ----------------------------------------------------------------------------- equity
def parse_spot(hands: Sequence[HandLike], board: str | Sequence[int] = "",
               dead: str | Sequence[int] = "", *, game: str | Game = "holdem",
               discard_after: str | None = None, discards: str | Sequence[int] = "",
               discard_policy: str | None = None) -> Spot:
    """An equity or range request as a :class:`Spot`; :class:`CardError` (one line) on bad
    input. ``hands``: 2..10 exact hands or (Hold'em) ranges; ``board``: 0, 3, 4 or 5 cards;
    ``dead``: cards out of the deck; Pineapple: ``discard_after``, ``discards``,
    ``discard_policy`` (see :mod:`simulate.pineapple`; refused for other games)."""
    g = check_game(game)
    if isinstance(hands, str) or not isinstance(hands, (Sequence, np.ndarray)):
        raise CardError("hands must be a list, e.g. ['AhKh', 'QsQd']")
    if not g.is_pineapple and (discard_after is not None or len(discards or "")
                               or discard_policy is not None):
        raise CardError(f"discard_after, discards and discard_policy are for pineapple and "
                        f"crazy_pineapple, not {g.name}")
    check_player_count(len(hands))
    parsed = [parse_hand(h, g, i) for i, h in enumerate(hands, 1)]
    b = parse_board(board)
    d = parse_dead(dead)
    disc = parse_dead(discards, "discards") if g.is_pineapple else []
    spot = Spot(g, list(parsed), b, d, discards=disc)
    if g.is_pineapple:
        n_hole = _discard_rule(spot, discard_after, discard_policy, "hand", 1)
        if disc and n_hole == 3:
            raise CardError("discards are given after the discard: hands then have 2 cards")
    groups = [*[(f"hand {i}", h) for i, h in enumerate(spot.hands, 1) if isinstance(h, list)],
              ("board", b), ("dead cards", d), *([("discards", disc)] if disc else [])]
    check_in_deck(g, groups)
    check_disjoint(groups)
    _live_ranges(spot.hands, b, spot.out, lambda i, text: CardError(
        f"player {i + 1}'s range '{text}' has no combos left after removing the board, dead "
        "cards and other players' hands"))
    _check_deck(spot.hands, b, len(d) + len(disc), g.deck_size)
    return spot


# ----------------------------------------------------------------------------- all-in seats
def _chips_from_text(text: str, seat: int) -> int:
    t = text.strip()
    if not _CHIPS.fullmatch(t):
        raise CardError(f"seat {seat}: chips must be a positive integer, got '{t}'")
    return whole_number(t, f"seat {seat}: chips")


def parse_seat(spec: SeatSpec, seat: int, *,
               game: str | Game = "holdem") -> tuple[list[int] | Range | None, int]:
    """``(card ids, a Range, or None for a fold; chips)`` of one all-in seat.

    ``spec``: ``"CARDS:CHIPS"``, ``"RANGE:CHIPS"`` (Hold'em), ``"fold:CHIPS"`` or a pair
    ``(cards, chips)`` with ``cards`` text, card ids, ``None`` or ``"fold"``. In a string the
    chips follow the *last* colon (a range may hold weights such as ``AKs:0.5``). Cards or a
    range by :func:`parse_hand` (before board and dead cards are taken out). Chips are
    checked for being integers here and for being positive by
    :func:`simulate.pots.build_pots`.
    """
    from .pots import check_chips

    g = check_game(game)
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
    return parse_hand(cards, g, seat, seat=True), chips


#: Games ``allin_ev`` plays: every game of the table.
ALLIN_GAMES = game_names()


def parse_allin_spot(players: Sequence[SeatSpec], board: Any = "", dead: Any = "",
                     button: Any = 0, *, game: str = "holdem", allow_zero: bool = False,
                     dead_money: Any = 0, discard_after: str | None = None,
                     discard_policy: str | None = None) -> Spot:
    """An all-in request (arguments as :func:`simulate.allin_ev`) as a :class:`Spot` with
    ``chips`` and ``pots``; ValueError (:class:`CardError` for cards) on bad input."""
    from .pots import add_dead_money, build_pots

    g = GAMES.get(game) if isinstance(game, str) else None
    if g is None and isinstance(game, str):  # any case, as every game name is read
        with contextlib.suppress(ValueError):
            g = _check_game(game)
    if g is None or not g.is_pineapple:
        if discard_after is not None or discard_policy is not None:
            raise CardError(f"discard_after and discard_policy are for pineapple and "
                            f"crazy_pineapple, not {game}")
    if g is None or g.name not in ALLIN_GAMES:
        raise ValueError(f"game must be one of {', '.join(ALLIN_GAMES)}, got {game!r}")
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise CardError("players must be a list of seats, e.g. ['AhAs:100', 'KdKc:60']")
    check_player_count(len(players), "seats")
    seats = [parse_seat(p, s, game=g) for s, p in enumerate(players)]
    hands = [h for h, _ in seats]
    chips = [c for _, c in seats]
    b = parse_board(board)
    d = parse_dead(dead)
    groups = [*[(f"seat {s}", h) for s, h in enumerate(hands) if isinstance(h, list)],
              ("board", b), ("dead cards", d)]
    check_in_deck(g, groups)
    check_disjoint(groups)
    if all(h is None for h in hands):
        raise CardError("no live player: at least one seat must hold cards")
    _live_ranges(hands, b, d + g.missing, lambda s, text: CardError(
        f"seat {s}: range '{text}' has no combos left after removing the board, dead cards "
        "and the other seats' hands"))
    structure = add_dead_money(build_pots(chips, [h is not None for h in hands],
                                          allow_zero=allow_zero), dead_money)
    from .pots import odd_chip_order

    odd_chip_order(len(hands), button)  # checks the button
    _check_deck(hands, b, len(d), g.deck_size)
    spot = Spot(g, hands, b, d, chips=chips, button=int(operator.index(button)),
                dead_money=sum(p.amount for p in structure.pots) + sum(structure.returned)
                - sum(structure.committed), pots=structure)
    if g.is_pineapple:
        _discard_rule(spot, discard_after, discard_policy, "seat", 0)
    return spot
