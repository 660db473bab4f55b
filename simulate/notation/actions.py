"""PHH action text: the project's one reader of actions.

One action is one string: ``d dh pN CARDS`` (hole cards to player N, ``??`` an unknown
card), ``d db CARDS`` (board cards), ``pN f`` (fold), ``pN cc`` (check or call), ``pN cbr X``
(complete, bet or raise to a street total of X), ``pN pb`` (post the bring-in), ``pN sd
[CARDS]`` (stand pat or discard), ``pN sm [CARDS]`` (show; no cards: muck). A ``#`` starts a
comment. Players are numbered from 1 in the text; :class:`Action` holds 0-based seats.

:func:`parse_action` reads the text in one of two dialects:

- the hand history's (the default), as :mod:`simulate.notation.phh_read` reads a file: every
  action names its player (``p1``, no leading zero), amounts are decimals
  (:class:`~decimal.Decimal`, at most :data:`MAX_AMOUNT`), cards are read at once;
- the engine's (``engine=True``), as :meth:`simulate.engine.Hand.act` takes it from a
  user or a policy: the player may be left out of ``f``, ``cc``, ``cbr`` and ``sd`` (the
  actor is meant), ``p04`` is player 4, a ``cbr`` amount is an integer (any size: the
  rules judge it; an amount that is not one is left in :attr:`Action.arg` with
  ``amount`` None, for the hand to refuse), and the card text is kept as written
  (:attr:`Action.arg`) for the hand to read when the action's turn comes (the hand names
  its faults in order: a deal in a hand that deals its own cards before a bad card).

Faults raise :class:`ActionError` (one line naming the action). The compiled reader of
plain hands (:func:`simulate._kernels.replay.parse_actions`) takes a subset of the hand
history's dialect and is tested against this one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from evaluator.cards import CARD_SLOTS, UNKNOWN
from simulate.games import MAX_CHIPS

__all__ = ["MAX_AMOUNT", "Action", "ActionError", "CardSlots", "PHHError", "check_amount",
           "parse_action", "parse_card_text"]

#: The largest amount (stack, blind, bet) a hand history may name, in the file's units.
MAX_AMOUNT = Decimal(MAX_CHIPS)

#: Card slots: a card id 0..51, or ``None`` for an unknown card (``??``).
CardSlots = list[int | None]


class PHHError(ValueError):
    """A hand history that cannot be read; the message is one line."""


class ActionError(PHHError):
    """Action text that cannot be read; the message is one line."""


@dataclass(frozen=True)
class Action:
    """One parsed action.

    ``actor``: 0-based seat, or ``None`` for the dealer (and, in the engine's dialect, for
    an action that leaves the actor unnamed). ``kind``: ``dh``, ``db``, ``f``, ``cc``,
    ``cbr``, ``pb``, ``sd`` or ``sm``. ``target``: for ``dh`` the seat dealt to. ``cards``:
    card slots (``None`` = unknown) or ``None`` when the action names no cards. ``amount``:
    the ``cbr`` street total (a Decimal; an int in the engine's dialect). ``arg``: the
    ``cbr`` amount as written, and in the engine's dialect the card text as written
    (``None`` when there is none).
    """

    text: str
    actor: int | None
    kind: str
    target: int | None = None
    cards: CardSlots | None = None
    amount: Decimal | int | None = None
    arg: str | None = None


def parse_card_text(text: str, what: str = "cards") -> CardSlots:
    """``"AcKd"`` -> ``[48, 45]``; ``"????"`` -> ``[None, None]``; ``"-"`` -> ``[]`` (the
    hand history's cards: two characters each, rank and suit in either case)."""
    s = text.strip()
    if s in ("", "-"):
        return []
    s = s.replace(" ", "")
    ids = CARD_SLOTS
    out: CardSlots = []
    for pos in range(0, len(s), 2):
        c = ids.get(s[pos:pos + 2])
        if c is None:
            raise ActionError(f"bad {what} {text!r}: cannot read {s[pos:pos + 2]!r}")
        out.append(None if c == UNKNOWN else c)
    return out


_PLAYER_RE = re.compile(r"^p([1-9][0-9]{0,2})$")
_SEAT_TOKENS = {f"p{i + 1}": i for i in range(23)}  # the usual spellings (see _PLAYER_RE)


def _seat(tok: str, n: int, text: str) -> int:
    """The hand history's ``pN`` (N = 1..999 without a leading zero) as a seat below ``n``."""
    seat = _SEAT_TOKENS.get(tok)
    if seat is not None and seat < n:
        return seat
    m = _PLAYER_RE.match(tok)
    if m is None:
        raise ActionError(f"bad action {text!r}: {tok!r} is not a player (p1, p2, ...)")
    seat = int(m.group(1)) - 1
    if seat >= n:
        raise ActionError(f"bad action {text!r}: there are only {n} players")
    return seat


def check_amount(value: Decimal, what: str) -> Decimal:
    """``value`` when it is an amount a hand may name (0 to :data:`MAX_AMOUNT`, or inf)."""
    if value.is_nan() or value < 0:
        raise ActionError(f"{what}: {value} is not an amount")
    if value.is_finite() and value > MAX_AMOUNT:
        raise ActionError(f"{what}: {value:.3e} is too large (at most {MAX_AMOUNT:.0e})")
    return value


def _decimal(tok: str, text: str) -> Decimal:
    try:
        value = Decimal(tok)
    except (ArithmeticError, ValueError):
        raise ActionError(f"bad action {text!r}: {tok[:20]!r} is not an amount") from None
    if not value.is_finite():
        raise ActionError(f"bad action {text!r}: {tok[:20]!r} is not an amount")
    return check_amount(value, f"bad action {text!r}")


def parse_action(text: str, n_players: int, *, engine: bool = False) -> Action:
    """Read one action (see the module docstring) of a hand of ``n_players`` seats; raises
    :class:`ActionError`."""
    if not isinstance(text, str):
        if engine:
            raise ActionError(f"an action must be a string, got {text!r}")
        raise ActionError(f"action {str(text)[:40]!r} is not a string")
    if len(text) > 1000 and not engine:
        raise ActionError(f"action {text[:40]!r}... is longer than 1000 characters")
    toks = text.split("#", 1)[0].split()
    if not toks:
        raise ActionError(f"empty action {text!r}")
    if engine:
        return _engine_action(text, toks, n_players)
    if toks[0] == "d":
        if len(toks) >= 2 and toks[1] == "dh":
            if len(toks) not in (3, 4):
                raise ActionError(f"bad action {text!r}: want 'd dh pN CARDS'")
            cards = parse_card_text(toks[3] if len(toks) == 4 else "", "cards")
            return Action(text, None, "dh", _seat(toks[2], n_players, text), cards)
        if len(toks) >= 2 and toks[1] == "db":
            if len(toks) != 3:
                raise ActionError(f"bad action {text!r}: want 'd db CARDS'")
            return Action(text, None, "db", None, parse_card_text(toks[2], "board"))
        raise ActionError(f"unknown dealer action {text!r}")
    seat = _seat(toks[0], n_players, text)
    if len(toks) < 2:
        raise ActionError(f"bad action {text!r}: no action after {toks[0]}")
    kind = toks[1]
    rest = toks[2:]
    if kind in ("f", "cc", "pb"):
        if rest:
            raise ActionError(f"bad action {text!r}: {kind!r} takes nothing after it")
        return Action(text, seat, kind)
    if kind == "cbr":
        if len(rest) != 1:
            raise ActionError(f"bad action {text!r}: want 'pN cbr AMOUNT'")
        return Action(text, seat, "cbr", amount=_decimal(rest[0], text), arg=rest[0])
    if kind in ("sd", "sm"):
        if len(rest) > 1:
            raise ActionError(f"bad action {text!r}: cards must be written without spaces")
        cards = parse_card_text(rest[0]) if rest else None
        if cards == []:
            cards = None
        return Action(text, seat, kind, cards=cards)
    raise ActionError(f"unknown action {kind!r} in {text!r}")


def _engine_action(text: str, toks: list[str], n: int) -> Action:
    """:func:`parse_action` in the engine's dialect (``toks``: the text's words)."""
    if toks[0] == "d":
        if len(toks) < 3 or toks[1] not in ("dh", "db"):
            raise ActionError(f"{text!r} is not a deal (d dh p1 CARDS, d db CARDS)")
        if toks[1] == "db":
            return Action(text, None, "db", arg=" ".join(toks[2:]))
        who = toks[2]
        if not (who[:1] == "p" and who[1:].isdecimal() and 1 <= int(who[1:]) <= n) \
                or len(toks) < 4:
            raise ActionError(f"{text!r}: a hole deal names a player p1..p{n} and cards")
        return Action(text, None, "dh", int(who[1:]) - 1, arg=" ".join(toks[3:]))
    seat = None
    who = toks[0]
    if who[:1] == "p" and who[1:].isdecimal() and len(toks) > 1:
        seat = int(who[1:]) - 1
        toks = toks[1:]
    kind = toks[0]
    if kind not in ("f", "cc", "cbr", "sm", "sd") or (kind in ("f", "cc") and len(toks) > 1):
        raise ActionError(f"{text!r} is not an action (f, cc, cbr N, sm CARDS)")
    if seat is not None and not 0 <= seat < n:
        raise ActionError(f"{text!r}: there is no player {who}")
    arg = " ".join(toks[1:]) or None
    if kind == "cbr":
        try:
            return Action(text, seat, kind, amount=int(arg or ""))
        except ValueError:  # the hand says so, after checking the actor
            return Action(text, seat, kind, arg=arg)
    if kind == "sm" and seat is None:
        raise ActionError(f"{text!r}: a show names its player (p1 sm AhKh)")
    return Action(text, seat, kind, arg=arg)
