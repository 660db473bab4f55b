"""PHH text in and out of a :class:`simulate.engine.Hand`: actions read by the one PHH
action reader (:func:`simulate.notation.actions.parse_action`, the engine's dialect), scripted
hole cards and board, manual deals (``d dh``, ``d db``), shows (``sm``) and Pineapple
discards (``sd``). :class:`HandText` is a part of :class:`~simulate.engine.Hand`: its
methods work on the hand's state and record each event in ``hand.actions`` as PHH text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from evaluator.cards import (
    UNKNOWN,
    CardError,
    card_str,
    cards_text,
    check_disjoint,
    ids_of_text,
    parse_cards,
)
from simulate.engine.rules import STREETS, IllegalAction, kernels
from simulate.notation.actions import Action, ActionError, parse_action

__all__ = ["HandText"]

_K = kernels
_UNKNOWN_CARD = UNKNOWN


_DECK_BYTES = bytes(range(52))


def check_in_deck(cards: Sequence[int], rules: Any, where: str | None = None) -> None:
    """The engine's one deck check, at every deal (scripted, manual, or played by the fast
    replay kernel): a :class:`~evaluator.cards.CardError` naming the first of ``cards``
    (card ids; unknown cards pass) that the game of ``rules`` does not deal (short deck:
    the cards below the six), ``where`` it was dealt and the game's deck."""
    low = rules.game.low_rank * 4
    if low:
        for c in cards:
            if c < low:
                at = f" in {where}" if where else ""
                raise CardError(f"{rules.game.name}: {card_str(c)}{at} is not in "
                                f"{rules.game.deck_text}")


def _back_to_back(hole: Any, board: Any, width: int) -> list[int] | None:
    """The card ids of ``hole`` (one text per seat, ``width`` characters each) then
    ``board`` (five cards) when every text is cards written back to back (``AhKh``: the
    codec's fast path, :func:`evaluator.cards.ids_of_text`) and no card repeats; else None
    (then :func:`evaluator.cards.parse_cards` reads them, or names the fault)."""
    try:
        if len(board) != 10 or not all(map(width.__eq__, map(len, hole))):
            return None
        cards = ids_of_text("".join(hole) + board)
    except TypeError:
        return None
    return cards if cards is not None and len(set(cards)) == len(cards) else None


#: The betting actions read so far (text -> what :func:`_read_betting_action` gave).
_BETTING_ACTIONS: dict[str, tuple[int, int, int, str | None]] = {}


def _read_betting_action(action: str) -> tuple[int, int, int, str | None] | None:
    """``(seat, kind, amount, text)`` of a betting action (``p3 cc``, ``f``, ``p3 cbr 300``,
    as :func:`simulate.notation.actions.parse_action` reads it; ``seat`` -1 when not named,
    ``text`` the PHH action recorded when it is, else None), remembered for the next time;
    None for anything else (deals, shows, discards, faults: :meth:`Hand.act` reads those
    the long way). The seat is not checked against the hand's seats here."""
    try:
        a = parse_action(action, _ANY_SEATS, engine=True)
    except ActionError:
        return None
    kind = _KINDS.get(a.kind)
    if kind is None or (kind == 4 and a.amount is None) or (a.actor is not None
                                                              and a.actor < 0):
        return None
    seat = -1 if a.actor is None else a.actor
    amount = int(a.amount or 0)
    text = (None if seat < 0 else f"p{seat + 1} {a.kind}" if kind != 4
            else f"p{seat + 1} cbr {amount}")
    if len(_BETTING_ACTIONS) >= 4096:
        _BETTING_ACTIONS.clear()
    got = _BETTING_ACTIONS[action] = (seat, kind, amount, text)
    return got


#: Engine kinds of the betting actions; a seat bound the cache's reads never reach.
_KINDS = {"f": 0, "cc": 3, "cbr": 4}
_ANY_SEATS = 1 << 30


class HandText:
    """The text side of a :class:`simulate.engine.Hand` (see the module docstring)."""

    # set by Hand: the state arrays and the hand's facts these methods read and write
    rules: Any
    n: int
    manual: bool
    actions: list[str]
    discards: list[str | None]
    button: int
    _S: np.ndarray
    _hole: np.ndarray
    _board: np.ndarray
    _deck: np.ndarray
    _dealt: set[int]
    _result: Any

    def _script(self, hole: Sequence[str], board: str) -> None:
        n, h = self.n, self.rules.n_hole
        if isinstance(hole, str) or len(hole) != n:
            raise ValueError(f"hole must give one hand per seat ({n})")
        cards = _back_to_back(hole, board, 2 * h)
        if cards is None:  # the general reader, which names any fault
            hands = [parse_cards(x, what=f"seat {i}'s hole cards") for i, x in enumerate(hole)]
            for i, x in enumerate(hands):
                if len(x) != h:
                    raise CardError(f"seat {i}'s hole cards: {self.rules.game.name} needs {h} "
                                    f"cards, got {len(x)}")
            b = parse_cards(board, what="board")
            if len(b) != 5:
                raise CardError(f"board needs the five cards in order, got {len(b)}")
            check_disjoint([(f"seat {i}'s hole cards", x) for i, x in enumerate(hands)]
                           + [("board", b)])
            cards = [c for x in hands for c in x] + b
        for i in range(n):
            check_in_deck(cards[i * h:(i + 1) * h], self.rules, f"seat {i}'s hole cards")
        check_in_deck(cards[n * h:], self.rules, "board")
        low = self.rules.deck[0]
        # the deck: the hole cards one at a time from the button's left, then a burn before
        # each street with its board cards, then the cards left in order
        m = n * h
        dealt = bytes(cards)
        spare = _DECK_BYTES[low:].translate(None, dealt)
        f = (self.button + 1) % n * h
        seats = dealt[f:m] + dealt[:f]  # each seat's cards, from the button's left
        b = cards[m:]
        deck = b"".join([seats[r::h] for r in range(h)]) + bytes(
            (spare[0], b[0], b[1], b[2], spare[1], b[3], spare[2], b[4])) + spare[3:] \
            + _DECK_BYTES[:low]  # short deck: the cards below the six last, never dealt
        self._deck[:] = np.frombuffer(deck, np.uint8)

    def discard(self, card: str | int) -> None:
        """Pineapple: the actor throws away ``card`` (text such as ``"Ah"``, or a card id),
        one of its hole cards; it is dead. ``"??"`` discards an unknown card (manual
        deals)."""
        K = _K()
        S = self._S
        s = self.actor
        if s is None or not S[K.DISCING]:
            why = ("the hand is over" if self.done else
                   f"{self.rules.game.name} has no discards" if self.rules.discard_after is None
                   else "no discard is due now"
                   + (f" (legal: {self.legal.text()})" if s is not None else ""))
            raise IllegalAction(f"cannot discard {card!r}: {why}")
        if isinstance(card, (int, np.integer)) and not isinstance(card, (bool, np.bool_)):
            cards = [int(card)] if 0 <= int(card) < 52 else None
        elif isinstance(card, str):
            try:
                cards = parse_cards(card, what="the discard", allow_unknown=True)
            except CardError as e:
                raise IllegalAction(f"seat {s} cannot discard {card!r}: {e}") from None
        else:
            cards = None
        if cards is None or len(cards) != 1:
            raise IllegalAction(f"seat {s} cannot discard {card!r}: a discard is one card")
        c = cards[0]
        h = int(S[K.HOLEN + s])
        cur = [int(x) for x in self._hole[s, :h]]
        if c in cur:
            slot = cur.index(c)
        elif _UNKNOWN_CARD in cur and (c == _UNKNOWN_CARD or c not in self._dealt):
            slot = cur.index(_UNKNOWN_CARD)
        else:
            raise IllegalAction(f"seat {s} cannot discard {cards_text([c])}: it is not one of "
                                f"its cards {cards_text(cur)}")
        if c != _UNKNOWN_CARD and c not in cur:
            self._mark([c])
        nb = int(S[K.NBOARD])
        street = int(S[K.STREET])
        code = K.discard(S, slot, self._hole, self._board, self._deck)
        if code:  # pragma: no cover - checked above
            raise IllegalAction(f"seat {s} cannot discard: error {code}")
        self._result = None
        self.discards[s] = cards_text([c])
        self.actions.append(f"p{s + 1} sd {cards_text([c])}")
        if not self.manual:
            self._after(nb, street)

    def act(self, action: str) -> None:
        """Apply one PHH action string: ``f``, ``cc``, ``cbr 300`` (optionally prefixed by
        the actor ``p3``), and in manual mode ``d dh p1 AhKh``, ``d db Jc3d5c`` and
        ``p1 sm AhKh`` (read by :func:`simulate.notation.actions.parse_action`, the engine's
        dialect). Text after ``#`` is a comment."""
        if type(action) is str:
            fast = _BETTING_ACTIONS.get(action) or _read_betting_action(action)
            if fast is not None:
                seat, kind, amount, text = fast
                if seat >= self.n:
                    raise IllegalAction(f"{action!r}: there is no player {action.split()[0]}")
                return self._do(kind, amount, text, seat, action)  # the kernel checks seat
        try:
            a = parse_action(action, self.n, engine=True)
        except ActionError as e:
            if not self.manual and isinstance(action, str) \
                    and action.split("#", 1)[0].split()[:1] == ["d"]:
                raise IllegalAction(f"{action!r}: deals are actions only with "
                                    "deal='manual'") from None
            raise IllegalAction(str(e)) from None
        self.apply(a)

    def apply(self, a: Action) -> None:
        """Apply one action read by :func:`simulate.notation.actions.parse_action` in the
        engine's dialect (``engine=True``; what :meth:`act` does after reading)."""
        action = a.text
        op = a.kind
        if op == "dh" or op == "db":
            return self._deal_action(a)
        seat = a.actor
        if op == "sm":
            assert seat is not None
            return self._show(seat, a.arg or "", action)
        actor = self.actor
        if seat is not None and actor is not None and seat != actor:
            raise IllegalAction(f"{action!r}: player p{seat + 1} (seat {seat}) is not to act; "
                                f"seat {actor} is")
        if op == "sd":
            if self.rules.discard_after is None:
                raise IllegalAction(f"{action!r}: {self.rules.game.name} has no discards")
            try:
                return self.discard(a.arg or "")
            except IllegalAction as e:
                raise IllegalAction(f"{action!r}: {e}") from None
        if op == "f":
            self.fold()
        elif op == "cc":
            self.check_or_call()
        elif op == "cbr":
            if a.amount is None:
                raise IllegalAction(f"{action!r}: cbr needs an integer amount")
            self.raise_to(int(a.amount))
        else:
            raise IllegalAction(f"{action!r} is not an action (f, cc, cbr N, sm CARDS)")

    def _deal_action(self, a: Action) -> None:
        K = _K()
        S = self._S
        action = a.text
        if not self.manual:
            raise IllegalAction(f"{action!r}: deals are actions only with deal='manual'")
        if a.kind == "dh":
            s = a.target
            assert s is not None
            cards = self._parse_deal(a.arg or "", action)
            h = self.rules.n_hole
            if int(S[K.NBOARD]) or int(S[K.NACTIONS]) > 0 or S[K.HOLEN + s] != 0:
                raise IllegalAction(f"{action!r}: hole cards are dealt once per player, "
                                    "before the betting")
            if len(cards) != h:
                raise IllegalAction(f"{action!r}: {self.rules.game.name} deals {h} hole cards, "
                                    f"got {len(cards)}")
            self._mark(cards)
            self._hole[s, :h] = cards
            S[K.HOLEN + s] = h
            self.actions.append(f"d dh p{s + 1} {cards_text(cards)}")
            return
        cards = self._parse_deal(a.arg or "", action)
        if self._holes_pending():
            raise IllegalAction(f"{action!r}: the hole cards are not all dealt yet")
        need = int(S[K.NEED])
        if need == 0:
            raise IllegalAction(f"{action!r}: no board cards are due now"
                                + (" (the betting is not over)" if not self.done else ""))
        if len(cards) != need:
            raise IllegalAction(f"{action!r}: the {STREETS[int(S[K.STREET])]} is {need} "
                                f"card{'s' if need > 1 else ''}, got {len(cards)}")
        arr = np.asarray(cards, np.uint8)
        if K.deal_board(S, self._board, arr):  # pragma: no cover - checked above
            raise IllegalAction(f"{action!r}: no board cards are due now")
        self._mark(cards)
        self._result = None
        self.actions.append(f"d db {cards_text(cards)}")

    def _parse_deal(self, text: str, action: str) -> list[int]:
        try:
            cards = parse_cards(text, what="the deal", allow_unknown=True)
        except CardError as e:
            raise IllegalAction(f"{action!r}: {e}") from None
        try:
            check_in_deck(cards, self.rules)
        except CardError as e:
            raise IllegalAction(f"{action!r}: {e}") from None
        return cards

    def check_dealt(self) -> None:
        """:func:`check_in_deck` over every card dealt so far (hole cards and board): for
        deals the engine did not read itself (the fast replay kernel writes them into the
        state); an :class:`IllegalAction` naming the first card the game does not deal."""
        K = _K()
        S = self._S
        try:
            for s in range(self.n):
                check_in_deck(self._hole[s, :int(S[K.HOLEN + s])].tolist(), self.rules,
                              f"p{s + 1}'s hole cards")
            check_in_deck(self._board[:int(S[K.NBOARD])].tolist(), self.rules, "the board")
        except CardError as e:
            raise IllegalAction(str(e)) from None

    def _mark(self, cards: Sequence[int]) -> None:
        known = [c for c in cards if c != _UNKNOWN_CARD]
        for c in known:
            if c in self._dealt:
                raise IllegalAction(f"card {card_str(c)} is dealt twice")
        self._dealt.update(known)

    def _show(self, s: int, text: str, action: str) -> None:
        K = _K()
        h = int(self._S[K.HOLEN + s])
        if not self.manual:
            raise IllegalAction(f"{action!r}: the showdown is automatic unless deal='manual'")
        if not self._S[K.STAT + s]:
            raise IllegalAction(f"{action!r}: seat {s} has folded")
        cards = self._parse_deal(text, action) if text.strip() else []
        if not cards or all(c == _UNKNOWN_CARD for c in cards):
            self.actions.append(f"p{s + 1} sm {cards_text(cards) or '????'}")
            return
        if len(cards) != h:
            raise IllegalAction(f"{action!r}: a shown hand is {h} cards, got {len(cards)}")
        cur = [int(c) for c in self._hole[s, :h]]
        new_known = []
        for c in cards:
            if c == _UNKNOWN_CARD:
                continue
            if c in cur:
                continue
            new_known.append(c)
        known_cur = [c for c in cur if c != _UNKNOWN_CARD]
        if any(c not in cards for c in known_cur) or len(new_known) > cur.count(_UNKNOWN_CARD):
            raise IllegalAction(f"{action!r}: seat {s} was dealt {cards_text(cur)}, "
                                f"not {cards_text(cards)}")
        self._mark(new_known)
        it = iter(new_known)
        for r in range(h):
            if cur[r] == _UNKNOWN_CARD:
                nxt = next(it, None)
                if nxt is not None:
                    self._hole[s, r] = nxt
        self._result = None
        self.actions.append(f"p{s + 1} sm {cards_text(cards)}")
