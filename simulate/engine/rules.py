"""The rules of a hand: :class:`Rules` (game, betting, forced bets), :class:`Legal` (the
actor's options), :class:`IllegalAction`, and the chip check every amount goes through.

The rules themselves are played by the Numba kernels of :mod:`simulate._kernels.engine`;
:meth:`Rules.header` writes a :class:`Rules` into the kernel state's header. The hand
(:class:`simulate.engine.Hand`) and the batch simulator (:func:`simulate.engine.self_play.play`)
both start from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from simulate.games import BETTINGS as _BETTING_NAMES
from simulate.games import DISCARD_AFTER as _DISCARD_AFTER
from simulate.games import GAMES, Game, check_game
from simulate.pots import MAX_CHIPS, check_chips

__all__ = ["BETTINGS", "DEFAULT_DISCARD_AFTER", "DISCARD_STREETS", "HOLDEM_LIKE",
           "STREETS", "IllegalAction", "Legal", "Rules", "chips", "kernels"]

#: Games evaluated as Hold'em at the showdown (Pineapple: the two cards kept).
HOLDEM_LIKE = tuple(n for n, g in GAMES.items() if not g.is_omaha)
#: Pineapple discard timing: the betting round after which every live seat discards.
DISCARD_STREETS = tuple(_DISCARD_AFTER)
DEFAULT_DISCARD_AFTER = {n: g.discard_after for n, g in GAMES.items()
                         if g.discard_after}
BETTINGS = {name: code for code, name in enumerate(_BETTING_NAMES)}
STREETS = ("preflop", "flop", "turn", "river", "showdown", "done")


class IllegalAction(ValueError):
    """An action the rules do not allow; the message is one line naming the reason and
    the legal options. The hand is left unchanged."""


_KERNELS: Any = None


def kernels() -> Any:
    """The kernel module, imported on first use (Numba loads only when a hand is played)."""
    global _KERNELS
    if _KERNELS is None:
        from simulate._kernels import engine as K

        _KERNELS = K
    return _KERNELS


def chips(value: Any, what: str, *, allow_zero: bool = True) -> int:
    """A chip amount by the project's one check (:func:`simulate.pots.check_chips`); a
    float with no fraction (``200.0``) is taken as its integer."""
    if type(value) is int and 0 <= value <= MAX_CHIPS and (value or allow_zero):
        return value  # what check_chips returns for a plain int in range, without the call
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return check_chips(value, what, allow_zero=allow_zero)


@dataclass(frozen=True)
class Rules:
    """The game and its betting structure (see the module docstring and the README).

    ``game``: any game of :data:`simulate.games.GAMES` (``holdem``, ``omaha``, ...,
    ``short_deck``), by name (any case) or as its :class:`~simulate.games.Game`; the rules
    hold the table's :class:`~simulate.games.Game` (``rules.game.name`` is its name).
    ``betting``: ``no-limit``, ``pot-limit`` or ``fixed-limit`` (``small_bet`` before the
    turn, ``big_bet`` from the turn; default the big blind and twice it; ``max_raises``
    counts the opening bet and its raises per street, the big blind being the opening bet
    before the flop; with ``uncapped_heads_up`` there is no cap while only two players are
    left). ``ante`` is posted by every seat, or by the big blind alone with ``bb_ante``; antes are
    dead money, posted before the blinds. ``straddles`` are posted by the seats after the big
    blind, in order; a straddle sets the new minimum raise (a raise to at least twice
    the largest straddle). ``pineapple`` and ``crazy_pineapple`` deal three hole cards;
    after the betting round ``discard_after`` (``preflop``, ``flop`` or ``turn``; default
    ``preflop`` for ``pineapple`` and ``flop`` for ``crazy_pineapple``, the standard
    timings) every live seat discards one, then the hand is Hold'em with the two kept.
    ``posts``: per seat from the button's left (entry 0 the seat after the button, as PHH
    lists the seats), chips posted as a live bet by a player who plays at once instead of
    waiting for the big blind (0: no post); only seats after the blinds and straddles
    post, and a post moves neither the first actor nor the minimum raise (PHH writes a
    post as a negative entry of ``blinds_or_straddles``). ``button_blind``: short deck's
    forced bet, with ``blinds=(0, B)``: the button posts the blind ``B`` (after its ante),
    nobody posts a small blind, the seat after the button acts first before the flop and
    ``B`` is the minimum bet; heads-up, as Hold'em's heads-up blinds swap, the other seat
    posts it and the button acts first (pokerkit's ``{-1: B}`` blinds, both ways). The
    ``short_deck`` games deal from the 36 cards 6 to A and score on their own scales.
    """

    game: Game = GAMES["holdem"]
    betting: str = "no-limit"
    blinds: tuple[int, int] = (1, 2)
    ante: int = 0
    bb_ante: bool = False
    straddles: tuple[int, ...] = ()
    small_bet: int | None = None
    big_bet: int | None = None
    max_raises: int = 4
    uncapped_heads_up: bool = True
    discard_after: str | None = None
    posts: tuple[int, ...] = ()
    button_blind: bool = False

    def __post_init__(self) -> None:
        g = self.game
        if isinstance(g, Game):
            if GAMES.get(g.name) != g:
                raise ValueError(f"game must be one of {', '.join(GAMES)}, got {g.name!r}")
            g = GAMES[g.name]
        else:
            try:
                g = check_game(g)  # any case, as everywhere
            except ValueError:
                raise ValueError(f"game must be one of {', '.join(GAMES)}, got {g!r}") from None
        object.__setattr__(self, "game", g)
        if g.discard_after:
            da = g.discard_after if self.discard_after is None else self.discard_after
            if da not in DISCARD_STREETS:
                raise ValueError(f"discard_after must be one of {', '.join(DISCARD_STREETS)}, "
                                 f"got {da!r}")
            object.__setattr__(self, "discard_after", da)
        elif self.discard_after is not None:
            raise ValueError(f"discard_after is for pineapple and crazy_pineapple, not "
                             f"{g.name}")
        if self.betting not in BETTINGS:
            raise ValueError(f"betting must be one of {', '.join(BETTINGS)}, got {self.betting!r}")
        try:
            sb, bb = self.blinds
        except (TypeError, ValueError):
            raise ValueError(
                f"blinds must be two amounts (small, big), got {self.blinds!r}") from None
        sb = chips(sb, "the small blind")
        bb = chips(bb, "the big blind", allow_zero=False)
        if sb > bb:
            raise ValueError(f"the small blind ({sb}) is larger than the big blind ({bb})")
        object.__setattr__(self, "button_blind", bool(self.button_blind))
        if self.button_blind and (sb or self.straddles or self.posts):
            raise ValueError("a button blind is the only blind: blinds=(0, B), no straddles "
                             "or posts")
        object.__setattr__(self, "blinds", (sb, bb))
        object.__setattr__(self, "ante", chips(self.ante, "ante"))
        object.__setattr__(self, "bb_ante", bool(self.bb_ante))
        strad = self.straddles
        if type(strad) is not tuple or strad:
            strad = tuple(chips(x, "a straddle", allow_zero=False) for x in strad)
        if len(strad) > 8:
            raise ValueError("at most 8 straddles")
        prev = bb
        for x in strad:
            if x < prev:
                raise ValueError(f"a straddle ({x}) must be at least the bet before it ({prev})")
            prev = x
        object.__setattr__(self, "straddles", strad)
        posts = self.posts
        if type(posts) is not tuple or posts:
            posts = tuple(chips(x, "a post") for x in posts)
            while posts and posts[-1] == 0:
                posts = posts[:-1]
        if len(posts) > 10:
            raise ValueError("posts: one entry per seat, at most 10")
        if any(posts[:2 + len(strad)]):
            raise ValueError("a post is made by a seat after the blinds and straddles")
        object.__setattr__(self, "posts", posts)
        small = (bb if self.small_bet is None
                 else chips(self.small_bet, "small_bet", allow_zero=False))
        big = (2 * small if self.big_bet is None
               else chips(self.big_bet, "big_bet", allow_zero=False))
        object.__setattr__(self, "small_bet", small)
        object.__setattr__(self, "big_bet", big)
        mr = self.max_raises
        if isinstance(mr, bool) or not isinstance(mr, (int, np.integer)) or mr < 1:
            raise ValueError(f"max_raises must be a positive integer, got {mr!r}")
        object.__setattr__(self, "max_raises", int(mr))
        object.__setattr__(self, "uncapped_heads_up", bool(self.uncapped_heads_up))

    @property
    def n_hole(self) -> int:
        """Hole cards per seat."""
        return self.game.hole_cards

    @property
    def deck(self) -> tuple[int, ...]:
        """The card ids of the game's deck (52; short deck's 36, from the six)."""
        return self.game.deck

    @property
    def scale(self) -> str:
        """The evaluator's tables the showdown reads (``holdem`` or a short-deck scale)."""
        return self.game.scale

    def header(self) -> np.ndarray:
        """The rule fields of a kernel state (``int64[STATE_SIZE]``, other fields 0)."""
        S = np.zeros(kernels().STATE_SIZE, np.int64)
        self._write_header(memoryview(S))
        return S

    def _write_header(self, S: Any) -> None:
        """Write the rule fields into ``S`` (a kernel state, or a memoryview of one, whose
        other fields are left as they are)."""
        K = kernels()
        S[K.BETTING] = BETTINGS[self.betting]
        S[K.NHOLE] = self.n_hole
        S[K.GAME] = (0 if not self.game.is_omaha
                     else K.HILO_GAME if self.game.hilo else 1)
        S[K.BTNBLIND] = int(self.button_blind)
        S[K.DECKLOW] = 4 * self.game.low_rank
        if self.discard_after is not None:
            S[K.DISCAT] = DISCARD_STREETS.index(self.discard_after) + 1
        S[K.SB], S[K.BB] = self.blinds
        S[K.ANTE] = self.ante
        S[K.BBANTE] = int(self.bb_ante)
        S[K.SMALLBET] = self.small_bet
        S[K.BIGBET] = self.big_bet
        S[K.MAXRAISES] = self.max_raises
        S[K.UNCAPPED] = int(self.uncapped_heads_up)
        S[K.NSTRAD] = len(self.straddles)
        for i, x in enumerate(self.straddles):
            S[K.STRAD0 + i] = x
        S[K.NPOST] = len(self.posts)
        for i, x in enumerate(self.posts):
            S[K.POST0 + i] = x

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game.name, "betting": self.betting, "blinds": list(self.blinds),
                "ante": self.ante, "bb_ante": self.bb_ante, "straddles": list(self.straddles),
                "small_bet": self.small_bet, "big_bet": self.big_bet,
                "max_raises": self.max_raises, "uncapped_heads_up": self.uncapped_heads_up,
                **({"discard_after": self.discard_after} if self.discard_after else {}),
                **({"posts": list(self.posts)} if self.posts else {}),
                **({"button_blind": True} if self.button_blind else {})}


@dataclass(frozen=True)
class Legal:
    """The actor's options. ``fold`` only when facing a bet (a replayed record's fold when
    checking is free is still taken: TDA's binding "Non-Standard Folds", never offered);
    ``call`` the chips a call adds now (capped at the stack; before the flop at least up to
    the full big blind, however short it was posted), None when there is nothing to call;
    ``min_raise_to`` and ``max_raise_to`` street totals, None when no bet or raise is
    allowed (a short stack's all-in is both). ``discard`` (Pineapple): the actor must
    discard one hole card now (the others are then all False/None)."""

    fold: bool = False
    check: bool = False
    call: int | None = None
    min_raise_to: int | None = None
    max_raise_to: int | None = None
    discard: bool = False

    @property
    def raise_allowed(self) -> bool:
        return self.min_raise_to is not None

    @classmethod
    def _of(cls, fold: bool, check: bool, call: int | None, min_raise_to: int | None,
            max_raise_to: int | None) -> Legal:
        """``Legal(fold, check, call, min_raise_to, max_raise_to)`` made without the frozen
        dataclass's ``object.__setattr__`` per field (a third of the cost: the Hand makes
        one per decision)."""
        self = object.__new__(cls)
        self.__dict__.update(fold=fold, check=check, call=call, min_raise_to=min_raise_to,
                             max_raise_to=max_raise_to, discard=False)
        return self

    def text(self) -> str:
        """``fold, call 100, raise to 200..980``."""
        parts = []
        if self.discard:
            parts.append("discard one hole card")
        if self.fold:
            parts.append("fold")
        if self.check:
            parts.append("check")
        if self.call is not None:
            parts.append(f"call {self.call}")
        if self.min_raise_to is not None:
            lo, hi = self.min_raise_to, self.max_raise_to
            parts.append(f"raise to {lo}" if lo == hi else f"raise to {lo}..{hi}")
        return ", ".join(parts) if parts else "nothing"

