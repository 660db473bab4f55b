"""A PHH hand played through the rules engine (:class:`simulate.engine.Hand`, manual
deals), action by action: an illegal action, a bet beyond the stack, a card dealt twice, a
shown hand that differs from the dealt one, or a history that stops before the hand is over
is that hand's error, naming the action. :func:`engine_replay` first tries the compiled
fast path (:func:`simulate._kernels.replay.replay_actions`, the rows of :func:`_encode`)
and plays the hand again one action at a time through :meth:`simulate.engine.Hand.apply`
(each parsed :class:`~simulate.notation.actions.Action` put in the engine's units by
:func:`_engine_action`, not written out and read again) on the first action it does not
take. :func:`engine_rules` maps the hand's forced bets onto
:class:`simulate.engine.rules.Rules` (or raises :class:`EngineCannotPost` saying why the
engine cannot post them), and
:func:`cross_check` holds the engine's commitments and finishing stacks against the chip
accounting of :mod:`simulate.replay.accounting`.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import numpy as np

from evaluator.cards import UNKNOWN
from simulate.games import DISCARD_AFTER, GAMES, MAX_PLAYERS
from simulate.notation.phh_read import Action, HandHistory, parse_action
from simulate.replay.accounting import (
    ENGINE_VARIANTS,
    PINEAPPLE_VARIANTS,
    SHORT_DECK_VARIANTS,
    ChipState,
    ReplayError,
    Units,
    posted_order,
)

if TYPE_CHECKING:
    from simulate.engine import Hand
    from simulate.engine.rules import Rules

__all__ = ["BettingRefused", "EngineCannotPost", "IncompleteHistory", "cross_check",
           "engine_replay", "engine_rules"]

#: The Omaha game of each hole-card count (PHH's Omaha variants deal 4, 5 or 6 cards).
_OMAHA_GAMES = {g.hole_cards: name for name, g in GAMES.items() if g.is_omaha and not g.hilo}
_OMAHA_SIZES = sorted(_OMAHA_GAMES)
#: Pineapple: the betting round of a discard, by the board cards dealt before it.
_DISCARD_AT = {cards: after for after, cards in DISCARD_AFTER.items()}
# Action codes of simulate._kernels.replay (kept here so that the encoder needs no import).
_FK_FOLD, _FK_CC, _FK_RAISE, _FK_HOLE, _FK_BOARD, _FK_SHOW, _FK_SHOW_NOTHING, _FK_SKIP = range(8)
_FAST_KINDS = {"f": _FK_FOLD, "cc": _FK_CC, "cbr": _FK_RAISE}
_PAD = (UNKNOWN,) * 6


class IncompleteHistory(ReplayError):
    """A history that stops before the hand is over; carries the engine's hand so far
    (``hand``) and the hand's units (``units``)."""

    def __init__(self, msg: str, hand: Any, units: Any) -> None:
        super().__init__(msg)
        self.hand = hand
        self.units = units


class BettingRefused(ReplayError):
    """The rules refuse a betting action of the history (a fold, check, call, bet, raise or
    bring-in), as opposed to a card fault: the hand's site may play by other house rules."""


class EngineCannotPost(Exception):
    """The engine cannot seat ``hand`` or post its forced bets (too many seats, straddles out
    of order, antes that differ by seat, ...); the message says why. Not a
    :class:`ReplayError`: the hand is still replayed by its chip accounting."""


def engine_rules(hand: HandHistory, u: Units) -> Rules:
    """The :class:`simulate.engine.Rules` of ``hand`` (seats in file order, button the last
    seat, amounts in ``u``). Raises :class:`EngineCannotPost` saying why the engine cannot
    play it."""
    from simulate.engine import Rules

    game, betting = ENGINE_VARIANTS[hand.variant]
    n = hand.n_players
    if n > MAX_PLAYERS:
        raise EngineCannotPost(f"{n} seats (the engine seats at most {MAX_PLAYERS})")
    if game == "omaha":
        sizes = {len(a.cards or []) for a in hand.actions if a.kind == "dh"}
        if len(sizes) != 1 or next(iter(sizes)) not in _OMAHA_GAMES:
            raise EngineCannotPost("Omaha hole cards of no single size "
                                   f"{', '.join(map(str, _OMAHA_SIZES[:-1]))} or "
                                   f"{_OMAHA_SIZES[-1]}")
        game = _OMAHA_GAMES[sizes.pop()]
    discard_after = None
    if hand.variant in PINEAPPLE_VARIANTS:  # timing: the board cards before the first discard
        nb = 0
        for a in hand.actions:
            if a.kind == "sd":
                discard_after = _DISCARD_AT.get(nb)
                if discard_after is None:
                    raise EngineCannotPost(f"a discard after {nb} board cards")
                break
            if a.kind == "db":
                nb += len(a.cards or [])
    blinds = [u.to_int(b) for b in hand.blinds_or_straddles]
    posts: tuple[int, ...] = ()
    button_blind = (hand.variant in SHORT_DECK_VARIANTS and n > 2 and blinds[-1] > 0
                    and not any(blinds[:-1]))
    if button_blind:  # short deck's button blind: the last seat's entry (pokerkit's {-1: B})
        sb, bb, straddles = 0, blinds[-1], []
    elif n == 2:
        sb, bb, straddles = blinds[0], blinds[1], []
    else:
        sb, bb = blinds[0], blinds[1]
        rest = blinds[2:]
        k = next((i for i, x in enumerate(rest) if x <= 0), len(rest))
        straddles = rest[:k]
        if any(x > 0 for x in rest[k:]):
            raise EngineCannotPost("blinds or straddles out of seat order")
        posts = tuple(max(0, -x) for x in blinds)  # a negative entry: a post
    if sb < 0 or bb < 0:
        raise EngineCannotPost("a post in a blind's place")
    if bb <= 0 or sb > bb:
        raise EngineCannotPost("no big blind")
    antes = [u.to_int(a) for a in posted_order(hand.antes, n)]
    bb_seat = n - 1 if button_blind else 0 if n == 2 else 1
    if all(a == antes[0] for a in antes):
        ante, bb_ante = antes[0], False
    elif all(a == 0 for s, a in enumerate(antes) if s != bb_seat):
        ante, bb_ante = antes[bb_seat], True
    else:
        raise EngineCannotPost("antes that differ by seat")
    kw: dict[str, Any] = {}
    if betting == "fixed-limit":
        if hand.small_bet is None or hand.big_bet is None:
            raise EngineCannotPost("a fixed-limit hand without small_bet and big_bet")
        kw = {"small_bet": u.to_int(hand.small_bet), "big_bet": u.to_int(hand.big_bet)}
    elif hand.min_bet is not None and u.to_int(hand.min_bet) != bb:
        raise EngineCannotPost("a min_bet other than the big blind")
    if discard_after is not None:
        kw["discard_after"] = discard_after
    if any(posts):
        kw["posts"] = posts
    if button_blind:
        kw["button_blind"] = True
    key = (game, betting, sb, bb, ante, bb_ante, tuple(straddles), tuple(kw.items()))
    got = _RULES_CACHE.get(key)
    if got is None:
        try:
            got = Rules(game=game, betting=betting, blinds=(sb, bb), ante=ante,
                        bb_ante=bb_ante, straddles=tuple(straddles), **kw)
        except ValueError as exc:
            got = str(exc)
        if len(_RULES_CACHE) >= 4096:
            _RULES_CACHE.clear()
        _RULES_CACHE[key] = got
    if isinstance(got, str):
        raise EngineCannotPost(got)
    return got


#: Rules (immutable) or the reason there are none, by their fields: hands share them.
_RULES_CACHE: dict[tuple[Any, ...], Rules | str] = {}


def _engine_action(a: Action, u: Units) -> Action | str:
    """``a`` (read in the hand history's dialect) as :meth:`simulate.engine.Hand.apply`
    takes it, in the engine's dialect (:func:`simulate.notation.actions.parse_action`): a ``cbr``
    amount in the hand's integer units (with units of 1 the token as the engine reads it: an
    integer, or ``arg`` for the hand to refuse), card text as written in ``arg``, and as its
    ``text`` (which the engine's messages quote) the action without its comment, a scaled
    ``cbr`` written in the hand's units. What the engine's dialect does not read (``pb``, a
    hole deal naming no cards) comes back as that text, for :meth:`~simulate.engine.Hand.act`
    to refuse in its own words."""
    body = a.text.split("#", 1)[0].strip()
    k = a.kind
    if k == "f" or k == "cc":
        return Action(body, a.actor, k)
    if k == "cbr":
        assert a.actor is not None and isinstance(a.amount, Decimal)
        if u.scale == 1:
            try:
                return Action(body, a.actor, k, amount=int(a.arg or ""))
            except ValueError:
                return Action(body, a.actor, k, arg=a.arg)
        amount = u.to_int(a.amount)
        return Action(f"p{a.actor + 1} cbr {amount}", a.actor, k, amount=amount)
    toks = body.split()
    if k == "dh" and len(toks) == 4:
        return Action(body, None, k, a.target, arg=toks[3])
    if k == "db":
        return Action(body, None, k, arg=toks[2])
    if k == "sd" or k == "sm":
        return Action(body, a.actor, k, arg=toks[2] if len(toks) > 2 else None)
    return body


def _play(h: Any, eng: Action | str) -> None:
    """Apply one action of :func:`_engine_action` to the engine's hand ``h``."""
    if isinstance(eng, str):
        h.act(eng)
    else:
        h.apply(eng)


_SEAT_NO = re.compile(r"\bseat (\d+)")


def _engine_message(i: int, text: str, msg: str) -> str:
    """The engine's one-line refusal, in PHH terms: ``action 7 'p2 cbr 500': ...`` with
    seats named ``p1``, ``p2``, ... like the file."""
    body = text.split("#", 1)[0].strip()
    for prefix in (f"{text!r}: ", f"{body!r}: "):
        if msg.startswith(prefix):
            msg = msg[len(prefix):]
    msg = re.sub(r" \(seat \d+\)", "", msg)
    msg = _SEAT_NO.sub(lambda m: f"p{int(m.group(1)) + 1}", msg)
    return f"action {i} {body!r}: {msg}"


def _skipped_seats(h: Any, act: Action) -> list[str]:
    """Folds for seats a history skipped: when ``act`` names a live seat whose turn comes
    later in this betting round and every seat before it faces a bet, those seats fold
    (as a dealer mucks the hand of a player who does not act); [] otherwise (a skipped
    seat that could check is not guessed at)."""
    if act.actor is None or act.kind not in ("f", "cc", "cbr") or h.actor is None:
        return []
    if h.actor == act.actor or not h.live[act.actor]:
        return []
    fixes: list[str] = []
    seat, n = h.actor, h.n
    bet = max(h.bets)
    for _ in range(n):
        if seat == act.actor:
            return fixes
        if h.live[seat] and not h.all_in[seat]:
            if h.bets[seat] >= bet:
                return []
            fixes.append(f"p{seat + 1} f")
        seat = (seat + 1) % n
    return []


def _check_only_turn(h: Any, act: Action) -> bool:
    """Whether ``act`` is pokerkit's check-only turn, which the engine does not give (the
    cardroom runs the board out): a check (``cc``) while nobody is to act, by a live seat
    that is not all in and owes nothing, every other live seat all in. No chips move:
    a history pokerkit wrote with one is replayed without it."""
    s = act.actor
    if act.kind != "cc" or s is None or h.actor is not None or not 0 <= s < h.n:
        return False
    live, all_in, bets = h.live, h.all_in, h.bets
    return (live[s] and not all_in[s] and bets[s] >= max(bets)
            and all(all_in[j] for j in range(h.n) if live[j] and j != s))


def _encode(hand: HandHistory, u: Units) -> np.ndarray | None:
    """``hand.actions`` as the rows (``int64[m, 10]``) of
    :func:`simulate._kernels.replay.replay_actions`, or None when some action is one the
    fast path never takes (the per-action path plays the hand then)."""
    acts = hand.actions
    m = len(acts)
    if m == 0:
        return None
    rows = []
    cache = _ENCODED
    scale = u.scale
    for a in acts:
        key = (a.text, scale)
        row = cache.get(key)
        if row is None:
            try:
                row = _encode_one(a, u)
            except ReplayError:
                return None  # e.g. an amount too large: the per-action path says where
            if row is None:
                return None
            if a.cards is None:  # deals seldom repeat: not kept (bounded memory)
                if len(cache) >= 4096:
                    cache.clear()
                cache[key] = row
        rows.append(row)
    return np.array(rows, np.int64)


#: The row of :func:`_encode` of an action naming no cards, by ``(text, scale)``.
_ENCODED: dict[tuple[str, int], tuple[int, ...]] = {}


def _encode_one(a: Action, u: Units) -> tuple[int, ...] | None:
    """``(kind, seat, amount, ncards, card * 6)`` of one action (cards padded), or None."""
    k = a.kind
    cs = a.cards
    amount = 0
    if k == "dh" or k == "db":
        if not cs or len(cs) > 6:
            return None
        kind = _FK_HOLE if k == "dh" else _FK_BOARD
        seat = -1 if a.target is None else a.target
    elif k == "sm":
        seat = a.actor  # type: ignore[assignment]
        if cs is None:
            kind = _FK_SKIP
        elif len(cs) > 6:
            return None
        elif None not in cs:
            kind = _FK_SHOW
        elif all(c is None for c in cs):
            kind, cs = _FK_SHOW_NOTHING, None
        else:
            return None
    else:
        kind = _FAST_KINDS.get(k, -1)
        if kind < 0:
            return None
        seat = a.actor  # type: ignore[assignment]
        if kind == _FK_RAISE:
            assert a.amount is not None
            if u.scale == 1:
                tok = a.arg or ""
                if not (tok.isascii() and tok.isdigit()):
                    return None  # the engine reads the token itself: let it judge
            amount = u.to_int(a.amount)
    if cs:
        return (kind, seat, amount, len(cs),
                *[UNKNOWN if c is None else c for c in cs], *_PAD[len(cs):])
    return (kind, seat, amount, 0, *_PAD)


def engine_replay(hand: HandHistory, u: Units, out: Any, fast: bool = True) -> Hand:
    """Play ``hand`` through :class:`simulate.engine.Hand`; returns the finished Hand.
    Raises :class:`EngineCannotPost` when the engine cannot play this hand, ReplayError
    naming the action the rules refuse. A betting action by a seat whose turn comes later
    in the round is taken as the history having skipped the seats between, when each of
    them faces a bet: they fold (pokerkit repairs such histories too). A check where
    pokerkit gives a check-only turn and the engine none (:func:`_check_only_turn`) is left
    out. The inserted and left-out actions are listed in ``out.repairs``, and
    ``hand.actions`` is the history as played.

    ``fast``: first apply every action in one compiled call
    (:func:`simulate._kernels.replay.replay_actions`, the engine's own kernels); on the
    first action it does not take (an illegal one, an unusual card or show), the hand is
    played again from the start one action at a time, which gives the message or repair."""
    from simulate.engine import Hand, IllegalAction

    rules = engine_rules(hand, u)
    n = hand.n_players
    stacks = [u.to_int(v) for v in hand.starting_stacks]
    try:
        h = Hand(rules, stacks, button=n - 1, deal="manual")
    except ValueError as exc:  # the engine refuses the hand itself: that is its error
        raise ReplayError(_SEAT_NO.sub(lambda m: f"p{int(m.group(1)) + 1}", str(exc))) from None
    if fast:
        from simulate._kernels.replay import DONE, replay_actions

        enc = _encode(hand, u)
        if enc is not None and replay_actions(h._S, h._hole, h._board, h._deck, enc) == DONE:
            h._result = None
            try:
                h.check_dealt()  # the kernel dealt the cards: the engine's deck check
                return h
            except IllegalAction:
                pass  # played again action by action below, which names the action
        h = Hand(rules, stacks, button=n - 1, deal="manual")
    repaired: list[Action] = []
    for i, act in enumerate(hand.actions, 1):
        if act.kind == "sm" and act.cards is None:
            repaired.append(act)
            continue  # a muck: gives up the pot (settled by the accounting below)
        eng = _engine_action(act, u)
        betting = act.kind in ("f", "cc", "cbr", "pb")
        refused = BettingRefused if betting else ReplayError
        try:
            _play(h, eng)
        except IllegalAction as exc:
            if _check_only_turn(h, act):
                out.repairs.append(f"{act.text!r} (action {i}) left out: a check with no turn "
                                   "to take, every other live seat all in (pokerkit's "
                                   "check-only turn)")
                continue
            fixes = _skipped_seats(h, act)
            if not fixes:
                raise refused(_engine_message(i, act.text, str(exc))) from None
            for fix in fixes:
                fold = parse_action(fix, n)  # ``pN f``: the same Action in either dialect
                h.apply(fold)
                repaired.append(fold)
                out.repairs.append(f"{fix!r} inserted before action {i}")
            try:
                _play(h, eng)
            except IllegalAction:
                raise refused(_engine_message(i, act.text, str(exc))) from None
        repaired.append(act)
    if out.repairs:
        hand.actions = repaired
    if not h.done:
        if h.actor is not None:
            why = f"p{h.actor + 1} is to act"
        else:
            why = "board cards are due" if h._holes_pending() is False else "hole cards are due"
        raise IncompleteHistory(f"the history stops before the hand is over ({why})", h, u)
    return h


def cross_check(engine: Any, st: ChipState, finishing: list[int], skip_settle: Any,
                 unknown: set[int]) -> None:
    """The engine and the chip accounting must agree on every seat's commitment and, where
    both settle the hand alike (no muck, no rake, no trimmed antes), on the finishing
    stacks."""
    committed = [st.total[s] + st.ante[s] for s in range(st.n)]
    if engine.committed != committed:
        raise ReplayError(f"internal error: the engine commits {engine.committed}, "
                          f"the accounting {committed}")
    if skip_settle or any(st.mucked):
        return
    fin = engine.finishing_stacks
    for s in range(st.n):
        if fin[s] is not None and s not in unknown and fin[s] != finishing[s]:
            raise ReplayError(f"internal error: the engine pays p{s + 1} {fin[s]}, "
                              f"the accounting {finishing[s]}")
