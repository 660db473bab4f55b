"""Each player's position and the counts every tracker statistic is built from, for one hand.

:func:`hand_counts` walks one hand's actions once (a :class:`HandHistory`, as read from PHH
or a site export) and gives, per seat, a :class:`SeatCounts`: the position, whether the
player went to showdown, and for each statistic a *done* count and an *opportunity* count
(0 or 1 a hand, the postflop action counts excepted). A statistic over many hands is the
sum of its done counts over the sum of its opportunity counts; with no opportunity it has
no value. :func:`hand_actions` gives the same walk's actions as rows (street, player,
readable kind, chips added, street total, all-in). The hands the compiled replay settles
are walked together by this walk's compiled twin (:mod:`simulate.store.plain_walk`, tested
equal to it); this one walks every other hand.

The definitions are PokerTracker 4's (where Hold'em Manager 3 or others differ, it says):

- **VPIP** (voluntarily put money in pot): done when the player called or raised preflop
  (posting a blind or straddle, and checking the big blind's option, are not voluntary);
  opportunity: every hand in which the player had a preflop action of their own, which
  leaves out the big blind's walks (everyone folds to them) and a blind all-in on its
  post, as PokerTracker 4 leaves out walks.
- **PFR** (preflop raise): done when the player raised preflop (any raise: open, 3-bet,
  4-bet, limp-raise); opportunity as VPIP.
- **3-bet** (preflop): opportunity when the player acts facing exactly one raise (the
  blinds are the first bet, the first raise the second: a straddle counts as a blind), once
  a hand; done when that action is a raise. A squeeze (a raise after a raise and a call)
  is a 3-bet.
- **Fold to 3-bet** (preflop): opportunity when the player made the hand's first raise
  and acts facing the re-raise (the 3-bet) with no further raise; done when they fold.
  PokerTracker 4 and Hold'em Manager 3 count only the original raiser, as here.
- **C-bet** (flop continuation bet): opportunity when the player made the last preflop
  raise, sees the flop with chips to bet, and nobody has bet the flop when they first act
  on it; done when they bet. A flop bet by another player (a donk bet) takes the
  opportunity away; a limped pot has no c-bet.
- **Fold to c-bet** (flop): opportunity when the player acts facing the flop c-bet with no
  raise after it (a check-fold counts), once a hand; done when they fold.
- **Aggression** (postflop, every street after the flop is dealt): ``aggressive`` counts
  bets and raises, ``calls`` the calls (not the checks), ``folds`` the folds. **AF** =
  aggressive / calls; **AFq** = aggressive / (aggressive + calls + folds). Hold'em
  Manager 3's AF is the same; its AFq (``Agg%``) also counts checks in the denominator.
- **Saw flop**: the player had not folded when the flop was dealt (an all-in player sees
  it). **WTSD** (went to showdown): done when the player saw the flop and was still in
  at the showdown (two or more players left when the hand ended; a player who mucks at
  the showdown went to it); opportunity: saw flop. **W$SD** (won at showdown): done when
  the player won any chips from the pots at a showdown (a split pot counts); opportunity:
  went to showdown. **W$WSF** (won when saw flop): done when the player saw the flop and
  won any chips from the pots; opportunity: saw flop.

Positions (from the button :func:`simulate.replay.accounting.button_seat`): ``BTN``,
``SB``, ``BB``, then counted back from the button ``CO`` and ``HJ``, and the seats before
those ``UTG``, ``UTG+1``, ... Heads-up the button (who posts the small blind) is ``BTN``
and the other ``BB`` (PokerTracker 4 calls the heads-up button ``SB``). Games without
blinds (stud) have no position. Only games with a board (Hold'em, Omaha, short deck,
Pineapple) have preflop and flop statistics; in other games their counts are 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:  # the database's readers (stats) need only the names below, not the reader
    from simulate.notation.phh_read import HandHistory

__all__ = ["COUNT_FIELDS", "ActionRow", "Move", "Row", "SeatCounts", "WalkStart", "hand_actions",
           "hand_counts", "hand_moves", "hand_start", "plain_start", "positions",
           "seat_positions", "text_moves", "walk", "walk_hand"]

STREETS = ("preflop", "flop", "turn", "river")


@dataclass
class SeatCounts:
    """One seat's counts in one hand (see the module docstring); ints 0 or 1 unless said."""

    position: str | None = None
    vpip_opp: int = 0
    vpip: int = 0
    pfr: int = 0
    three_bet_opp: int = 0
    three_bet: int = 0
    fold_to_three_bet_opp: int = 0
    fold_to_three_bet: int = 0
    cbet_opp: int = 0
    cbet: int = 0
    fold_to_cbet_opp: int = 0
    fold_to_cbet: int = 0
    #: Postflop bets and raises, calls and folds (counts, any number a hand).
    aggressive: int = 0
    calls: int = 0
    folds: int = 0
    saw_flop: int = 0
    showdown: int = 0
    wtsd: int = 0
    won_showdown: int = 0
    won_saw_flop: int = 0


#: The count fields of :class:`SeatCounts`, in order (the ``hand_players`` columns).
COUNT_FIELDS = tuple(f for f in SeatCounts.__dataclass_fields__ if f != "position")


class ActionRow(NamedTuple):
    """One action: ``seq`` (0-based, in the hand's order), ``street`` (``preflop`` ...
    ``river``), ``seat`` (None for the dealer), ``action`` (``deal_hole``, ``deal_board``,
    ``fold``, ``check``, ``call``, ``bet``, ``raise``, ``bring_in``, ``draw``, ``show``,
    ``muck``), ``amount`` (chips the action added), ``total`` (the seat's street total
    after it), ``allin`` (the seat has no chips left after it), ``cards`` (dealt or shown)."""

    seq: int
    street: str
    seat: int | None
    action: str
    amount: Decimal | None = None
    total: Decimal | None = None
    allin: bool = False
    cards: str | None = None


_BOARD_GAMES: frozenset[str] | None = None


def _board_games() -> frozenset[str]:
    global _BOARD_GAMES
    if _BOARD_GAMES is None:
        from simulate.replay.accounting import (
            HILO_VARIANTS,
            HOLDEM_VARIANTS,
            OMAHA_VARIANTS,
            PINEAPPLE_VARIANTS,
            SHORT_DECK_VARIANTS,
        )

        _BOARD_GAMES = frozenset(HOLDEM_VARIANTS | OMAHA_VARIANTS | HILO_VARIANTS
                                 | set(PINEAPPLE_VARIANTS) | set(SHORT_DECK_VARIANTS))
    return _BOARD_GAMES


def positions(hand: HandHistory) -> list[str | None]:
    """Each seat's position (see the module docstring)."""
    from simulate.replay.accounting import button_seat

    n = hand.n_players
    if not any(b != 0 for b in hand.blinds_or_straddles):
        return [None] * n
    return seat_positions(n, button_seat(hand))


def seat_positions(n: int, btn: int) -> list[str | None]:
    """The positions of an ``n``-seat hand with blinds whose button is seat ``btn``."""
    if n == 2:
        return ["BTN" if s == btn else "BB" for s in range(n)]
    out: list[str | None] = [None] * n
    order = [(btn + k) % n for k in range(1, n + 1)]  # SB, BB, ..., BTN
    out[order[0]], out[order[1]], out[btn] = "SB", "BB", "BTN"
    rest = order[2:-1]  # after the big blind, before the button
    back = ["CO", "HJ"]
    for i, s in enumerate(reversed(rest)):
        if i < len(back):
            out[s] = back[i]
    front = rest[:max(0, len(rest) - len(back))]
    for i, s in enumerate(front):
        out[s] = "UTG" if i == 0 else f"UTG+{i}"
    return out


#: One action as :func:`_walk` takes it: ``(kind, seat, amount, cards)``: the
#: :class:`~simulate.notation.actions.Action` kind (``dh``, ``db``, ``f``, ``cc``, ``cbr``,
#: ``pb``, ``sd``, ``sm``), the seat that acts (for ``dh`` the seat dealt to; None for the
#: dealer), the ``cbr`` street total (Decimal or int) and the cards as written (None: no
#: cards named; for ``sm``, a muck).
Move = tuple[str, "int | None", Any, "str | None"]


def hand_moves(hand: HandHistory) -> list[Move]:
    """The :data:`Move` s of a read hand."""
    return [(a.kind, a.target if a.kind == "dh" else a.actor, a.amount, _cards(a))
            for a in hand.actions]


def text_moves(actions: list[str], n: int) -> list[Move] | None:
    """The :data:`Move` s of PHH action strings the compiled replay has already played
    (:func:`simulate.replay.fast_replay.iter_replay_read`: Hold'em's dealing, folds, calls,
    bets and shows of an ``n``-seat hand), read by splitting them (those that name no
    cards remembered, as :func:`simulate.notation.phh_read.parse_action` does); None when
    one is not of that plain form (the hand is then read in full, :func:`hand_moves`)."""
    out: list[Move] = []
    cache = _MOVES
    for t in actions:
        m = cache.get(t)
        if m is None:
            m = _text_move(t, n)
            if m is None:
                return None
            if m[3] is None:
                if len(cache) >= 4096:
                    cache.clear()
                cache[t] = m
        elif m[1] is not None and m[1] >= n:
            return None
        out.append(m)
    return out


#: :func:`_text_move` of the action strings that name no cards (most repeat).
_MOVES: dict[str, Move] = {}


def _text_move(t: str, n: int) -> Move | None:
    """One action string's :data:`Move` (see :func:`text_moves`), or None."""
    p = t.split()
    if len(p) < 2 or "#" in t:
        return None
    a, k = p[0], p[1]
    if k == "dh" and len(p) == 4 and a == "d":  # the most frequent (a deal is seldom repeated)
        a = p[2]
        if a[:1] == "p" and a[1:].isdigit() and 0 < int(a[1:]) <= n:
            return ("dh", int(a[1:]) - 1, None, p[3])
        return None
    if a == "d":
        if k == "db" and len(p) == 3:
            return ("db", None, None, p[2])
        if k != "dh" or len(p) != 4:
            return None
        a = p[2]
    if a[:1] != "p" or not a[1:].isdigit() or not 0 < int(a[1:]) <= n:
        return None
    s = int(a[1:]) - 1
    if k == "dh":
        return ("dh", s, None, p[3])
    if (k == "f" or k == "cc") and len(p) == 2:
        return (k, s, None, None)
    if k == "cbr" and len(p) == 3 and p[2].isdigit():
        return ("cbr", s, int(p[2]), None)
    if k == "sm" and len(p) <= 3:
        return ("sm", s, None, p[2] if len(p) == 3 and p[2] != "-" else None)
    return None


@dataclass
class _Walk:
    """What :func:`_count` keeps of one hand's walk (:func:`_walk`)."""

    n: int
    street: int = 0
    raises: int = 0  # preflop raises so far
    first_raiser: int | None = None
    last_raiser: int | None = None
    flop_bets: int = 0
    cbet_live: bool = False  # the flop's first bet was the c-bet and nobody raised it yet
    acted_flop: set[int] = field(default_factory=set)


#: One action's row as :func:`_walk` makes it (:class:`ActionRow`'s fields, in order).
Row = tuple[int, str, "int | None", str, Any, Any, bool, "str | None"]


def _walk(start: WalkStart, moves: list[Move], counts: list[SeatCounts] | None) -> list[Row]:
    """One pass over the actions: fills ``counts`` (when given) and returns the rows
    (amounts in the hand's own type: Decimals as read, or ints)."""
    n = start.n
    totals = list(start.blinds)
    left = [s - a - b for s, a, b in zip(start.stacks, start.antes, totals, strict=True)]
    folded = [False] * n
    top = max(totals, default=0)
    w = _Walk(n)  # what the counts need (street, raisers, flop bets)
    board = start.board
    counting = counts is not None and board
    street = STREETS[0]
    rows: list[Row] = []
    add_row = rows.append
    for seq, (kind, s, amount, cards) in enumerate(moves):
        if kind == "db":
            if w.street == 0 and counts is not None:
                for p in range(n):
                    counts[p].saw_flop = int(board and not folded[p])
            w.street += 1
            street = STREETS[min(w.street, 3)]
            totals, top = [0] * n, 0
            add_row((seq, street, None, "deal_board", None, None, False, cards))
            continue
        if kind == "dh":
            add_row((seq, street, s, "deal_hole", None, None, False, cards))
            continue
        if s is None:
            continue
        if kind == "sm" or kind == "sd":
            name = "draw" if kind == "sd" else ("show" if cards else "muck")
            add_row((seq, street, s, name, None, None, False, cards))
            if kind == "sd" and not board:
                w.street += 1
                totals, top = [0] * n, 0
                street = STREETS[min(w.street, 3)]
            continue
        had = totals[s]
        facing = top > had
        if counting:
            _count(w, counts[s], s, kind, facing)  # type: ignore[index]
        if kind == "f":
            folded[s] = True
            add_row((seq, street, s, "fold", None, None, False, None))
            continue
        new = amount if kind == "cbr" else top
        if kind == "pb":
            new = start.bring_in or 0
        put = min(max(0, new - had), left[s])
        left[s] -= put
        totals[s] = had = had + put
        if kind == "cc":
            name = "call" if facing else "check"
        elif kind == "cbr":
            name = "raise" if top > 0 else "bet"
            if w.street == 0 and board:
                w.raises += 1
                if w.raises == 1:
                    w.first_raiser = s
                w.last_raiser = s
        else:
            name = "bring_in"
        if had > top:
            top = had
        add_row((seq, street, s, name, put, had, left[s] <= 0, None))
    if counts is not None:
        live = [p for p in range(n) if not folded[p]]
        for p in live:
            if len(live) >= 2:
                counts[p].showdown = 1
                counts[p].wtsd = counts[p].saw_flop
    return rows


def _count(w: _Walk, c: SeatCounts, s: int, kind: str, facing: bool) -> None:
    """Count one player action (``f``, ``cc``, ``cbr``) of seat ``s`` in a board game
    (``facing``: a bet larger than the seat's is to be matched)."""
    if w.street == 0:
        c.vpip_opp = 1
        if kind == "cbr" or (kind == "cc" and facing):
            c.vpip = 1
        if kind == "cbr":
            c.pfr = 1
        if w.raises == 1 and s != w.first_raiser and not c.three_bet_opp:
            c.three_bet_opp = 1
            c.three_bet = int(kind == "cbr")
        if w.raises == 2 and s == w.first_raiser and not c.fold_to_three_bet_opp:
            c.fold_to_three_bet_opp = 1
            c.fold_to_three_bet = int(kind == "f")
        return
    if kind == "cbr":
        c.aggressive += 1
    elif kind == "cc" and facing:
        c.calls += 1
    elif kind == "f":
        c.folds += 1
    if w.street != 1:
        return
    first = s not in w.acted_flop
    w.acted_flop.add(s)
    if first and s == w.last_raiser and w.flop_bets == 0:
        c.cbet_opp = 1
        if kind == "cbr":
            c.cbet = 1
            w.cbet_live = True
    elif w.cbet_live and s != w.last_raiser and not c.fold_to_cbet_opp:
        c.fold_to_cbet_opp = 1
        c.fold_to_cbet = int(kind == "f")
    if kind == "cbr":
        w.flop_bets += 1
        if not (c.cbet and w.flop_bets == 1):
            w.cbet_live = False


def _cards(a: Any) -> str | None:
    """The cards an action names, as written (``??`` for an unknown card)."""
    if not a.cards:
        return None
    return a.text.split("#", 1)[0].split()[-1]


class WalkStart(NamedTuple):
    """What a hand starts from, for :func:`_walk`: seats, the forced bets in seat order
    (blinds as posted, antes), starting stacks, the bring-in, whether the game has a board
    (:func:`_board_games`) and each seat's position."""

    n: int
    blinds: list[Any]
    antes: list[Any]
    stacks: list[Any]
    bring_in: Any
    board: bool
    positions: list[str | None]


def hand_start(hand: HandHistory) -> WalkStart:
    """What a read hand starts from, for :func:`walk`."""
    from simulate.replay.accounting import posted_order

    n = hand.n_players
    return WalkStart(n, [abs(b) for b in posted_order(hand.blinds_or_straddles, n)],
                  posted_order(hand.antes, n) if hand.antes else [0] * n,
                  hand.starting_stacks, hand.bring_in, hand.variant in _board_games(),
                  positions(hand))


def plain_start(variant: str, blinds: tuple[int, ...], antes: tuple[int, ...],
                stacks: list[int], button: int) -> WalkStart:
    """What a hand of whole-number amounts starts from (``blinds``, ``antes``: as the file
    lists them; ``button``: the button's seat), for :func:`walk` (what the forced bets
    decide remembered: most hands of a collection share them)."""
    key = (variant, blinds, antes, button)
    got = _STARTS.get(key)
    if got is None:
        from simulate.replay.accounting import posted_order

        n = len(blinds)
        got = WalkStart(n, [abs(b) for b in posted_order(list(blinds), n)],
                        posted_order(list(antes), n), [], None, variant in _board_games(),
                        seat_positions(n, button) if any(blinds) else [None] * n)
        if len(_STARTS) >= 256:
            _STARTS.clear()
        _STARTS[key] = got
    return got._replace(stacks=stacks)


_STARTS: dict[tuple[Any, ...], WalkStart] = {}


def walk(start: WalkStart, moves: list[Move], winnings: list[Any] | None = None,
         ) -> tuple[list[SeatCounts], list[Row]]:
    """Each seat's :class:`SeatCounts` (seats in the record's order) and the hand's action
    rows (:data:`Row`, :class:`ActionRow`'s fields), from one pass over ``moves``.
    ``winnings``: what each seat won from the pots (the hand's document's ``winnings``;
    None entries unknown), for W$SD and W$WSF."""
    counts = [SeatCounts(position=p) for p in start.positions]
    rows = _walk(start, moves, counts)
    for c, won in zip(counts, winnings or [None] * len(counts), strict=True):
        if won is not None and won > 0:
            c.won_showdown = c.showdown
            c.won_saw_flop = c.saw_flop
    return counts, rows


def walk_hand(hand: HandHistory, winnings: list[Any] | None = None,
              ) -> tuple[list[SeatCounts], list[Row]]:
    """:func:`walk` of a read hand."""
    return walk(hand_start(hand), hand_moves(hand), winnings)


def hand_counts(hand: HandHistory, winnings: list[Any] | None = None) -> list[SeatCounts]:
    """:func:`walk_hand`'s counts."""
    return walk_hand(hand, winnings)[0]


def hand_actions(hand: HandHistory) -> list[ActionRow]:
    """:func:`walk_hand`'s actions."""
    return [ActionRow(*r) for r in _walk(hand_start(hand), hand_moves(hand), None)]
