"""Play a PHH hand history through: pots, winners, finishing stacks, all-in EV.

:func:`replay` takes a :class:`simulate.phh.parse.HandHistory` and returns a
:class:`HandReplay`. Nothing here needs to know whose turn it is: each action
names its player, so the replay only tracks the chips each seat has put in on
the current street and in total, who folded, who mucked, the hole cards and
the board. That is enough for every variant's chip accounting (no-limit,
pot-limit and fixed-limit alike: the file states every ``cbr`` total).

Rules, as in the PHH convention:

- Heads-up (two players), the first seat posts the *second* entry of
  ``antes`` and ``blinds_or_straddles`` and vice versa (seat 2 is the button
  and small blind).
- Antes are posted first, capped at the stack; blinds and straddles next,
  capped at what is left. ``cbr X`` brings the seat's street total to ``X``;
  ``cc`` matches the largest street total (or all-in for less); ``pb`` posts
  the bring-in. A street ends at a board deal (``d db``), a later hole-card
  deal (stud) or a draw (``sd``).
- Antes are dead money in the main pot that nobody has to match. When
  ``ante_trimming_status`` is true *and* every seat posts the same ante,
  antes count as part of each seat's contribution instead (so a short-stacked
  seat's ante forms its own level). A big-blind ante (only one seat antes) is
  never trimmed: read as trimmed, that seat would get its ante back as an
  uncalled bet, which is not how the game is played and not what the recorded
  finishing stacks say (see ``data/phh/README.md``).
- Pots come from :func:`simulate.pots.build_pots` (uncalled chips go back);
  ``rake`` (if the file has it) comes out of the main pot first. A seat that
  shows no cards (``pN sm`` alone) mucks and gives up its claim.
- Each contested pot goes to the best eligible hand: Hold'em (``NT``, ``FT``,
  ``PT``) best five of hole + board; Omaha high (``NO``, ``FO``, ``PO``)
  exactly two hole and three board cards; seven-card stud high (``F7S``) best
  five of the seat's seven cards. Other variants (razz, stud or Omaha
  hi-lo, draw, short deck, ...) replay fine while at most one seat contests
  each pot; a real showdown in them is reported as not supported. Odd chips go
  one at a time to the tied winners in seat order starting left of the button
  (:func:`simulate.pots.settle`).
- The button: PHH lists the seats in order from the small blind round to the
  button, and the blinds say who the small blind is. With three or more
  players the button is the seat before the first seat that posts a blind
  (the small blind): the last seat when, as usual, the first seat posts the
  small blind. Heads-up the button *is* the small blind: the second seat
  (which posts the first entry of ``blinds_or_straddles``). With no blinds
  (stud) the last seat is used.

All-in EV: when at most one live seat still has chips behind before the board
is complete (Hold'em and Omaha), the board at that moment is recorded and
each seat's expected payout over every runout of the rest of the deck is
computed by :func:`simulate.allin.allin_ev` with the same pots: the seats'
contributions (seats that put nothing in included, ``allow_zero``), antes
that are not part of the contributions as ``dead_money`` in the main pot,
the button above for odd chips, and the hole cards of folded seats known
anywhere in the file as dead cards (they are out of the deck). Rake is not
taken from the expected payouts. A runout walk larger than the engine's
exact rule (:func:`simulate.allin.walks_exactly`: the spots ``equity`` walks exactly)
is sampled instead
(:data:`EV_SAMPLES` runouts, seed 0) and marked ``exact: false``.

Amounts in the file may be decimal (``1720.35``); the replay works in integer
units of the smallest decimal place used and converts back for output.

Through the engine: Hold'em and Omaha high (:data:`ENGINE_VARIANTS`) are also
played action by action through :class:`simulate.engine.Hand` (manual deals), so
an illegal action, a bet beyond the stack, a card dealt twice, a shown hand that
differs from the dealt one, or a history that stops before the hand is over is
that hand's ``error``, naming the action; the engine's commitments and (when it
can settle) finishing stacks must agree with the accounting below, and the hand
is marked ``validated``. Other variants, and hands whose forced bets the engine
cannot post (antes that are neither uniform nor a big-blind ante, blinds that are
not small/big/straddles, a ``min_bet`` other than the big blind, more than 10
seats), are replayed by the chip accounting only (``validated`` False).

Gaps in real exports: a starting stack written ``inf`` (unknown) is played as
:data:`UNKNOWN_STACK` chips, its finishing stack is ``None`` and its ``net`` is
still given. A contested pot where an eligible seat's cards were never shown
(``????``) cannot be settled: that is not an error, ``outcome_known`` is False and
the pot's ``winners`` and the payouts, winnings, net and finishing stacks of the
seats eligible for it are ``None``. Recorded ``winnings`` are kept as information
and never checked against.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import numpy as np

from evaluator.cards import UNKNOWN, cards_str, cards_text
from simulate.games import GAMES
from simulate.phh.parse import Action, HandHistory, PHHError, parse_action
from simulate.pots import MAX_CHIPS, Pot, PotStructure, add_dead_money, build_pots, settle

__all__ = [
    "EV_SAMPLES",
    "HOLDEM_VARIANTS",
    "OMAHA_VARIANTS",
    "STUD_HIGH_VARIANTS",
    "HandReplay",
    "ReplayError",
    "replay",
]

HOLDEM_VARIANTS = frozenset({"NT", "FT", "PT"})
OMAHA_VARIANTS = frozenset({"NO", "FO", "PO"})
STUD_HIGH_VARIANTS = frozenset({"F7S"})
VARIANT_NAMES = {
    "NT": "no-limit Texas hold'em", "FT": "fixed-limit Texas hold'em",
    "PT": "pot-limit Texas hold'em", "NS": "no-limit short-deck hold'em",
    "NO": "no-limit Omaha", "PO": "pot-limit Omaha", "FO": "fixed-limit Omaha",
    "FO/8": "fixed-limit Omaha hi-lo", "F7S": "seven card stud",
    "F7S/8": "seven card stud hi-lo", "FR": "razz", "F2L3D": "2-7 triple draw",
    "N2L1D": "no-limit 2-7 single draw", "FB": "badugi",
}
#: Runouts drawn when the all-in EV walk is larger than the engine's exact limit.
EV_SAMPLES = 200_000
#: Chips (in the hand's integer units) a seat whose stack is ``inf`` is played with (the
#: engine's largest stack, ``simulate.pots.MAX_CHIPS``).
UNKNOWN_STACK = MAX_CHIPS
#: The largest amount (in the hand's integer units) a hand may use.
MAX_UNITS = MAX_CHIPS
#: Variants replayed through :mod:`simulate.engine` (every action validated).
ENGINE_VARIANTS = {code: (name, betting) for name, g in GAMES.items()
                   for betting, code in g.phh.items() if not g.is_pineapple}
#: Pineapple (three hole cards, one discarded with ``pN sd CARD``): the project's own variant
#: codes (PHH has none; pokerkit cannot read them). The discard timing is read from the
#: actions (the board cards dealt before the first ``sd``). No all-in EV is computed.
PINEAPPLE_VARIANTS = {code: (name, betting) for name, g in GAMES.items()
                      for betting, code in g.phh.items() if g.is_pineapple}
ENGINE_VARIANTS.update(PINEAPPLE_VARIANTS)
VARIANT_NAMES.update({"NP": "no-limit pineapple", "PP": "pot-limit pineapple",
                      "FP": "fixed-limit pineapple", "NCP": "no-limit crazy pineapple",
                      "PCP": "pot-limit crazy pineapple", "FCP": "fixed-limit crazy pineapple"})
_OMAHA_GAMES = {4: "omaha", 5: "omaha5", 6: "omaha6"}
# Action codes of simulate._kernels.replay (kept here so that the encoder needs no import).
_FK_FOLD, _FK_CC, _FK_RAISE, _FK_HOLE, _FK_BOARD, _FK_SHOW, _FK_SHOW_NOTHING, _FK_SKIP = range(8)
_FAST_KINDS = {"f": _FK_FOLD, "cc": _FK_CC, "cbr": _FK_RAISE}
_PAD = (UNKNOWN,) * 6


class ReplayError(ValueError):
    """A hand that cannot be played through; the message is one line."""


@dataclass
class HandReplay:
    """Outcome of one hand. Amounts are in the file's units (int or float).

    ``pots``: ``[{"amount", "eligible", "winners"}]`` (seats 0-based);
    ``payouts``: chips each seat takes from the table (pot winnings plus its
    returned uncalled chips); ``winnings``: pot winnings only (the PHH
    ``winnings`` field's meaning); ``net``: finishing minus starting stack;
    ``allin_ev``: per seat ``{"committed", "expected_payout", "ev"}`` or None.
    """

    source: str
    variant: str = ""
    players: list[str] = field(default_factory=list)
    starting_stacks: list[Any] = field(default_factory=list)
    finishing_stacks: list[Any] | None = None
    pots: list[dict[str, Any]] = field(default_factory=list)
    payouts: list[Any] = field(default_factory=list)
    winnings: list[Any] = field(default_factory=list)
    net: list[Any] = field(default_factory=list)
    board: str = ""
    hole_cards: list[str] = field(default_factory=list)
    rake: Any = 0
    allin_ev: list[dict[str, Any]] | None = None
    allin_board: str | None = None
    allin_exact: bool | None = None
    allin_error: str | None = None
    recorded_finishing_stacks: list[Any] | None = None
    recorded_winnings: list[Any] | None = None
    validated: bool = False
    not_validated: str | None = None
    outcome_known: bool = True
    repairs: list[str] = field(default_factory=list)
    big_blind: Any = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON form for ``pokerjit hand --json``."""
        return {
            "source": self.source, "variant": self.variant, "players": self.players,
            "starting_stacks": self.starting_stacks,
            "finishing_stacks": self.finishing_stacks, "net": self.net, "pots": self.pots,
            "winnings": self.winnings, "allin_ev": self.allin_ev,
            "validated": self.validated, "not_validated": self.not_validated,
            "outcome_known": self.outcome_known,
            "error": self.error,
            "board": self.board, "hole_cards": self.hole_cards, "rake": self.rake,
            "big_blind": self.big_blind, "allin_board": self.allin_board,
            "allin_exact": self.allin_exact, "allin_error": self.allin_error,
            "recorded_finishing_stacks": self.recorded_finishing_stacks,
            "recorded_winnings": self.recorded_winnings, "repairs": self.repairs,
        }

    @property
    def matches_record(self) -> bool | None:
        """True/False when the file records finishing stacks, else None."""
        if self.recorded_finishing_stacks is None or self.finishing_stacks is None:
            return None
        pairs = [(a, b) for a, b in zip(self.finishing_stacks, self.recorded_finishing_stacks,
                                        strict=True) if a is not None and b is not None]
        if not pairs:
            return None
        return all(Decimal(str(a)) == Decimal(str(b)) for a, b in pairs)


def _scale_of(hand: HandHistory) -> int:
    """Smallest power of ten that makes every amount in the hand an integer."""
    values = [*hand.starting_stacks, *hand.antes, *hand.blinds_or_straddles]
    values += [v for v in (hand.bring_in, hand.rake) if v is not None]
    values += [a.amount for a in hand.actions if a.amount is not None]
    places = 0
    for v in values:
        exp = v.as_tuple().exponent
        if not isinstance(exp, int) or exp >= 0:
            continue  # an integer (normalizing keeps the exponent >= 0), or inf
        exp = v.normalize().as_tuple().exponent
        if isinstance(exp, int) and exp < 0:
            places = max(places, -exp)
    if places > 6:
        raise ReplayError("amounts with more than 6 decimal places are not supported")
    return 10 ** places


class _Units:
    def __init__(self, scale: int) -> None:
        self.scale = scale
        self._seen: dict[Decimal, int] = {}

    def to_int(self, v: Decimal) -> int:
        """``v`` in integer units (an unknown stack: :data:`UNKNOWN_STACK`)."""
        got = self._seen.get(v)
        if got is not None:
            return got
        if v.is_infinite():
            return UNKNOWN_STACK
        x = v * self.scale
        if x != x.to_integral_value():
            raise ReplayError(f"amount {v} has too many decimal places")
        if abs(x) > MAX_UNITS:
            raise ReplayError(f"amount {v} is too large")
        self._seen[v] = out = int(x)
        return out

    def out(self, n: int | float) -> Any:
        if self.scale == 1:
            if type(n) is int:
                return n
            return int(n) if float(n).is_integer() else float(n)
        return round(n / self.scale, 6 + len(str(self.scale)))


@dataclass
class _State:
    n: int
    stack: list[int]
    ante: list[int]
    street: list[int]
    total: list[int]
    folded: list[bool]
    mucked: list[bool]
    holes: list[list[int | None]]
    board: list[int]
    betting_started: bool = False
    allin_board: list[int] | None = None

    def end_street(self) -> None:
        for s in range(self.n):
            self.total[s] += self.street[s]
            self.street[s] = 0

    def put(self, seat: int, chips: int) -> None:
        chips = max(0, min(chips, self.stack[seat]))
        self.stack[seat] -= chips
        self.street[seat] += chips

    def all_in_spot(self) -> bool:
        live = [s for s in range(self.n) if not self.folded[s]]
        behind = [s for s in live if self.stack[s] > 0]
        if len(live) < 2 or len(behind) > 1:
            return False
        if behind:  # the one seat with chips must have matched the largest bet
            top = max(self.street[s] for s in live)
            return self.street[behind[0]] >= top
        return True


def _posted(values: list[Decimal], n: int) -> list[Decimal]:
    if n == 2:
        return [values[1], values[0]]
    return list(values)


def _play(hand: HandHistory, u: _Units) -> _State:
    n = hand.n_players
    st = _State(n=n, stack=[u.to_int(v) for v in hand.starting_stacks], ante=[0] * n,
                street=[0] * n, total=[0] * n, folded=[False] * n, mucked=[False] * n,
                holes=[[] for _ in range(n)], board=[])
    for s, a in enumerate(_posted(hand.antes, n)):
        st.ante[s] = min(u.to_int(abs(a)), st.stack[s])
        st.stack[s] -= st.ante[s]
    for s, b in enumerate(_posted(hand.blinds_or_straddles, n)):
        st.put(s, u.to_int(abs(b)))
    board_game = hand.variant in HOLDEM_VARIANTS or hand.variant in OMAHA_VARIANTS
    for act in hand.actions:
        k = act.kind
        if k == "db":
            if board_game and st.allin_board is None and len(st.board) < 5 and st.all_in_spot():
                st.allin_board = list(st.board)
            if st.betting_started:
                st.end_street()
            st.board.extend(c for c in (act.cards or []) if c is not None)
            if any(c is None for c in (act.cards or [])):
                raise ReplayError(f"board card unknown in {act.text!r}")
            continue
        if k == "dh":
            assert act.target is not None
            if st.betting_started:
                st.end_street()
            st.holes[act.target].extend(act.cards or [])
            continue
        seat = act.actor
        assert seat is not None
        if k == "sd":
            if st.betting_started:
                st.end_street()
            drop = act.cards or []
            hole = st.holes[seat]
            for c in drop:
                if c is not None and c in hole:
                    hole.remove(c)
                elif None in hole:
                    hole.remove(None)
                elif hole:
                    hole.pop(0)
            continue
        if k == "sm":
            if act.cards is None:
                st.mucked[seat] = True
            else:
                st.mucked[seat] = False
                old = st.holes[seat]
                shown = list(act.cards)
                if all(c is None for c in shown) and len(old) >= len(shown):
                    continue  # "????": nothing new learned
                if len(shown) >= len(old):
                    st.holes[seat] = shown
                else:  # showed part of the hand: fill the unknown slots in order
                    known = [c for c in old if c is not None]
                    extra = [c for c in shown if c is not None and c not in known]
                    st.holes[seat] = known + extra + [None] * (len(old) - len(known) - len(extra))
            continue
        if st.folded[seat]:
            raise ReplayError(f"{act.text!r}: p{seat + 1} has already folded")
        st.betting_started = True
        if k == "f":
            st.folded[seat] = True
        elif k == "cc":
            st.put(seat, max(st.street) - st.street[seat])
        elif k == "pb":
            if hand.bring_in is None:
                raise ReplayError(f"{act.text!r}: the hand has no bring_in")
            st.put(seat, u.to_int(hand.bring_in) - st.street[seat])
        elif k == "cbr":
            assert act.amount is not None
            target = u.to_int(act.amount)
            if target < st.street[seat]:
                raise ReplayError(f"{act.text!r}: below the {st.street[seat]} already bet")
            st.put(seat, target - st.street[seat])
    if board_game and st.allin_board is None and len(st.board) < 5 and st.all_in_spot():
        st.allin_board = list(st.board)
    st.end_street()
    return st


def _trimmed(hand: HandHistory) -> bool:
    nonzero = {a for a in hand.antes if a != 0}
    return hand.ante_trimming_status and len(nonzero) == 1 and all(a != 0 for a in hand.antes)


def _structure(st: _State, live: list[bool], trim: bool) -> PotStructure:
    """Pots of the hand given which seats are ``live``; antes per the trimming rule."""
    contrib = [st.total[s] + (st.ante[s] if trim else 0) for s in range(st.n)]
    if not any(live):
        raise ReplayError("every seat folded or mucked: nobody can win the pot")
    if sum(contrib) == 0:
        base = PotStructure(pots=[], returned=[0] * st.n, committed=tuple(contrib),
                            live=tuple(live))
    else:
        try:
            base = build_pots(contrib, live, allow_zero=True)
        except ValueError as exc:
            raise ReplayError(f"cannot build the pots: {exc}") from None
    pots = add_dead_money(base, 0 if trim else sum(st.ante)).pots
    committed = tuple(st.total[s] + st.ante[s] for s in range(st.n))
    return PotStructure(pots=pots, returned=list(base.returned), committed=committed,
                        live=tuple(live))


def _take_rake(structure: PotStructure, rake: int) -> PotStructure:
    if rake <= 0:
        return structure
    if rake > sum(p.amount for p in structure.pots):
        raise ReplayError("rake is larger than the pots")
    pots = []
    for p in structure.pots:
        cut = min(rake, p.amount)
        rake -= cut
        pots.append(Pot(p.amount - cut, p.eligible))
    return PotStructure(pots=pots, returned=structure.returned, committed=structure.committed,
                        live=structure.live)


def _button(hand: HandHistory) -> int:
    """The button's seat (see the module docstring): the seat before the small blind;
    heads-up the small blind itself."""
    n = hand.n_players
    posted = _posted(hand.blinds_or_straddles, n)
    if n == 2:
        return 0 if 0 < posted[0] < posted[1] else 1
    first = next((s for s in range(n) if posted[s] != 0), None)
    return n - 1 if first is None else (first - 1) % n


def _big_blind(hand: HandHistory, u: _Units) -> Any:
    """The hand's big blind in the file's units (the second blind; the only blind when
    there is one; else the small bet of a fixed-limit game), or None (for bb/100)."""
    blinds = [b for b in hand.blinds_or_straddles[:2] if b > 0]
    if blinds:
        return u.out(u.to_int(max(blinds)))
    for v in (hand.small_bet, hand.min_bet, hand.bring_in):
        if v is not None and v > 0:
            return u.out(u.to_int(v))
    return None


def _strength(variant: str, hole: list[int | None], board: list[int], who: str) -> int:
    if any(c is None for c in hole) or not hole:
        raise ReplayError(f"{who}'s hole cards are unknown at the showdown")
    cards = [int(c) for c in hole if c is not None]
    if variant in HOLDEM_VARIANTS or variant in PINEAPPLE_VARIANTS:
        from evaluator.hands import strength_of_ids

        if len(board) != 5 or len(cards) != 2:
            raise ReplayError(f"showdown needs 2 hole cards and 5 board cards ({who})")
        return strength_of_ids(cards + board)
    if variant in OMAHA_VARIANTS:
        from evaluator.omaha import evaluate_omaha

        if len(board) != 5:
            raise ReplayError(f"showdown needs 5 board cards ({who})")
        return int(evaluate_omaha(cards, board))
    if variant in STUD_HIGH_VARIANTS:
        from evaluator.hands import strength_of_ids

        if len(cards) != 7:
            raise ReplayError(f"stud showdown needs 7 cards, {who} has {len(cards)}")
        return strength_of_ids(cards)
    name = VARIANT_NAMES.get(variant)
    label = f"variant {variant}" + (f" ({name})" if name else "")
    raise ReplayError(f"{label} is not supported at a contested showdown")


def replay(hand: HandHistory | PHHError, source: str | None = None, *,
           fast: bool = True) -> HandReplay:
    """Play ``hand`` through; never raises for a bad hand: ``.error`` says what went wrong.
    ``fast=False`` plays every action through the engine one call at a time (the reference
    the compiled fast path is tested against; same results, slower)."""
    if isinstance(hand, PHHError):
        return HandReplay(source=source or "<hand>", error=str(hand))
    out = HandReplay(source=source or hand.source, variant=hand.variant,
                     players=list(hand.players))
    try:
        _replay(hand, out, fast)
    except (ReplayError, PHHError) as exc:
        out.error = str(exc)
        out.finishing_stacks = None
        out.allin_ev = None
    except Exception as exc:  # noqa: BLE001 - one broken hand must not stop a folder
        out.error = f"internal error: {type(exc).__name__}: {exc}".split("\n")[0]
        out.finishing_stacks = None
        out.allin_ev = None
    return out


def _engine_rules(hand: HandHistory, u: _Units) -> Any:
    """The :class:`simulate.engine.Rules` of ``hand`` (seats in file order, button the last
    seat), or a string saying why the engine cannot play it."""
    from simulate.engine import Rules

    game, betting = ENGINE_VARIANTS[hand.variant]
    n = hand.n_players
    if n > 10:
        return f"{n} seats (the engine seats at most 10)"
    if game == "omaha":
        sizes = {len(a.cards or []) for a in hand.actions if a.kind == "dh"}
        if len(sizes) != 1 or next(iter(sizes)) not in _OMAHA_GAMES:
            return "Omaha hole cards of no single size 4, 5 or 6"
        game = _OMAHA_GAMES[sizes.pop()]
    discard_after = None
    if hand.variant in PINEAPPLE_VARIANTS:  # timing: the board cards before the first discard
        nb = 0
        for a in hand.actions:
            if a.kind == "sd":
                discard_after = {0: "preflop", 3: "flop", 4: "turn"}.get(nb)
                if discard_after is None:
                    return f"a discard after {nb} board cards"
                break
            if a.kind == "db":
                nb += len(a.cards or [])
    blinds = [u.to_int(b) for b in hand.blinds_or_straddles]
    if n == 2:
        sb, bb, straddles = blinds[0], blinds[1], []
    else:
        sb, bb = blinds[0], blinds[1]
        rest = blinds[2:]
        k = next((i for i, x in enumerate(rest) if x == 0), len(rest))
        straddles = rest[:k]
        if any(rest[k:]):
            return "blinds or straddles out of seat order"
    if bb <= 0 or sb > bb:
        return "no big blind"
    antes = [u.to_int(a) for a in _posted(hand.antes, n)]
    bb_seat = 0 if n == 2 else 1
    if all(a == antes[0] for a in antes):
        ante, bb_ante = antes[0], False
    elif all(a == 0 for s, a in enumerate(antes) if s != bb_seat):
        ante, bb_ante = antes[bb_seat], True
    else:
        return "antes that differ by seat"
    kw: dict[str, Any] = {}
    if betting == "fixed-limit":
        if hand.small_bet is None or hand.big_bet is None:
            return "a fixed-limit hand without small_bet and big_bet"
        kw = {"small_bet": u.to_int(hand.small_bet), "big_bet": u.to_int(hand.big_bet)}
    elif hand.min_bet is not None and u.to_int(hand.min_bet) != bb:
        return "a min_bet other than the big blind"
    if discard_after is not None:
        kw["discard_after"] = discard_after
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
    return got


#: Rules (immutable) or the reason there are none, by their fields: hands share them.
_RULES_CACHE: dict[tuple[Any, ...], Any] = {}


def _engine_action(text: str, u: _Units) -> str:
    """A PHH action in the engine's units (``cbr`` amounts scaled to integers)."""
    body = text.split("#", 1)[0].strip()
    toks = body.split()
    if len(toks) == 3 and toks[1] == "cbr" and u.scale != 1:
        return f"{toks[0]} cbr {u.to_int(Decimal(toks[2]))}"
    return body


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


def _encode(hand: HandHistory, u: _Units) -> np.ndarray | None:
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


def _encode_one(a: Action, u: _Units) -> tuple[int, ...] | None:
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


def _engine_replay(hand: HandHistory, u: _Units, out: HandReplay, fast: bool = True) -> Any:
    """Play ``hand`` through :class:`simulate.engine.Hand`; returns the finished Hand, or a
    string when the engine cannot play this hand. Raises ReplayError naming the action the
    rules refuse. A betting action by a seat whose turn comes later in the round is taken
    as the history having skipped the seats between, when each of them faces a bet: they
    fold (pokerkit repairs such histories too). The inserted actions are
    listed in ``out.repairs`` and ``hand.actions`` gets them too.

    ``fast``: first apply every action in one compiled call
    (:func:`simulate._kernels.replay.replay_actions`, the engine's own kernels); on the
    first action it does not take (an illegal one, an unusual card or show), the hand is
    played again from the start one action at a time, which gives the message or repair."""
    from simulate.engine import Hand, IllegalAction

    rules = _engine_rules(hand, u)
    if isinstance(rules, str):
        return rules
    n = hand.n_players
    stacks = [u.to_int(v) for v in hand.starting_stacks]
    try:
        h = Hand(rules, stacks, button=n - 1, deal="manual")
    except ValueError as exc:
        return str(exc)
    if fast:
        from simulate._kernels.replay import DONE, replay_actions

        enc = _encode(hand, u)
        if enc is not None and replay_actions(h._S, h._hole, h._board, h._deck, enc) == DONE:
            h._result = None
            return h
        h = Hand(rules, stacks, button=n - 1, deal="manual")
    repaired: list[Action] = []
    for i, act in enumerate(hand.actions, 1):
        if act.kind == "sm" and act.cards is None:
            repaired.append(act)
            continue  # a muck: gives up the pot (settled by the accounting below)
        try:
            h.act(_engine_action(act.text, u))
        except IllegalAction as exc:
            fixes = _skipped_seats(h, act)
            if not fixes:
                raise ReplayError(_engine_message(i, act.text, str(exc))) from None
            for fix in fixes:
                h.act(fix)
                repaired.append(parse_action(fix, n))
                out.repairs.append(f"{fix!r} inserted before action {i}")
            try:
                h.act(_engine_action(act.text, u))
            except IllegalAction:
                raise ReplayError(_engine_message(i, act.text, str(exc))) from None
        repaired.append(act)
    if out.repairs:
        hand.actions = repaired
    if not h.done:
        if h.actor is not None:
            why = f"p{h.actor + 1} is to act"
        else:
            why = "board cards are due" if h._holes_pending() is False else "hole cards are due"
        raise ReplayError(f"the history stops before the hand is over ({why})")
    return h


def _replay(hand: HandHistory, out: HandReplay, fast: bool = True) -> None:
    u = _Units(_scale_of(hand))
    if hand.variant in ENGINE_VARIANTS:
        engine = _engine_replay(hand, u, out, fast)
        if isinstance(engine, str):
            out.not_validated = f"the engine cannot post this hand's forced bets: {engine}"
    else:
        engine = None
        name = VARIANT_NAMES.get(hand.variant)
        out.not_validated = (f"variant {hand.variant}" + (f" ({name})" if name else "")
                             + " is not played by the engine")
    out.starting_stacks = [None if v.is_infinite() else u.out(u.to_int(v))
                           for v in hand.starting_stacks]
    out.big_blind = _big_blind(hand, u)
    if hand.finishing_stacks is not None:
        out.recorded_finishing_stacks = [
            None if v.is_infinite() else u.out(u.to_int(v)) if (v * u.scale) % 1 == 0
            else float(v) for v in hand.finishing_stacks]
    if hand.winnings is not None:
        out.recorded_winnings = [float(v) for v in hand.winnings]
    st = _play(hand, u)
    n = st.n
    out.board = cards_text(st.board)
    out.hole_cards = [cards_text([UNKNOWN if c is None else c for c in h]) for h in st.holes]
    trim = _trimmed(hand)
    live = [not (st.folded[s] or st.mucked[s]) for s in range(n)]
    if not any(live) and any(not f for f in st.folded):
        # Everyone still in mucked: the last one to muck is the only claimant left.
        raise ReplayError("every remaining seat mucked: nobody showed a hand")
    structure = _structure(st, live, trim)
    rake = u.to_int(hand.rake) if hand.rake is not None else 0
    structure = _take_rake(structure, rake)
    contested = [p for p in structure.pots if len(p.eligible) > 1 and p.amount > 0]
    strengths: list[int | None] = [None] * n
    hidden: set[int] = set()
    for s in sorted({s for p in contested for s in p.eligible}):
        if not st.holes[s] or any(c is None for c in st.holes[s]):
            hidden.add(s)  # never shown: the pots it contests cannot be settled
            continue
        strengths[s] = _strength(hand.variant, st.holes[s], st.board,
                                 f"p{s + 1} ({hand.players[s]})")
    unknown_pots = [p for p in contested if hidden.intersection(p.eligible)]
    unknown_seats = {s for p in unknown_pots for s in p.eligible}
    known = PotStructure(pots=[p for p in structure.pots if p not in unknown_pots],
                         returned=structure.returned, committed=structure.committed,
                         live=structure.live)
    button = _button(hand)
    payouts = settle(known, [0 if v is None else v for v in strengths], button)
    pots_out = []
    for p in structure.pots:
        winners: list[int] | None
        if p in unknown_pots:
            winners = None
        elif len(p.eligible) > 1:
            best = max(strengths[s] or 0 for s in p.eligible)
            winners = [s for s in p.eligible if strengths[s] == best]
        else:
            winners = list(p.eligible)
        pots_out.append({"amount": u.out(p.amount), "eligible": list(p.eligible),
                         "winners": winners})
    finishing = [st.stack[s] + payouts[s] for s in range(n)]
    start = [u.to_int(v) for v in hand.starting_stacks]
    if not unknown_pots and sum(finishing) + rake != sum(start):
        raise ReplayError("internal error: chips not conserved")
    inf_stack = [v.is_infinite() for v in hand.starting_stacks]

    def seat_value(s: int, x: int, null_if_inf: bool = False) -> Any:
        if s in unknown_seats or (null_if_inf and inf_stack[s]):
            return None
        return u.out(x)

    out.outcome_known = not unknown_pots
    out.pots = pots_out
    out.rake = u.out(rake)
    out.payouts = [seat_value(s, payouts[s]) for s in range(n)]
    out.winnings = [seat_value(s, payouts[s] - structure.returned[s]) for s in range(n)]
    out.finishing_stacks = [seat_value(s, finishing[s], True) for s in range(n)]
    out.net = [seat_value(s, finishing[s] - start[s]) for s in range(n)]
    if engine is not None and not isinstance(engine, str):
        _cross_check(engine, st, finishing, rake or trim, unknown_seats)
        out.validated = True
    if st.allin_board is not None:
        try:
            _allin(hand, st, trim, u, out)
        except Exception as exc:  # noqa: BLE001 - the stacks stand without the EV
            out.allin_ev = None
            out.allin_error = f"{type(exc).__name__}: {exc}".split("\n")[0]


def _cross_check(engine: Any, st: _State, finishing: list[int], skip_settle: Any,
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


def _allin(hand: HandHistory, st: _State, trim: bool, u: _Units, out: HandReplay) -> None:
    """Expected payouts over the runouts from the board at the moment of the all-in."""
    n = st.n
    board = st.allin_board or []
    live = [not st.folded[s] for s in range(n)]
    for s in range(n):
        if live[s] and (not st.holes[s] or any(c is None for c in st.holes[s])):
            return  # a live hand is unknown: no EV
    from simulate.allin import allin_ev, walks_exactly

    omaha = hand.variant in OMAHA_VARIANTS
    contrib = [st.total[s] + (st.ante[s] if trim else 0) for s in range(n)]
    dead_cards = [c for s in range(n) if not live[s] for c in st.holes[s] if c is not None]
    seats = [(st.holes[s] if live[s] else None, contrib[s]) for s in range(n)]
    kw: dict[str, Any] = {"game": "omaha" if omaha else "holdem",
                          "dead_money": 0 if trim else sum(st.ante), "allow_zero": True}
    # Hold'em seats here are exact hands, which allin_ev always walks (its exact=None rule;
    # tests/test_phh_fast.py checks the largest spot): only Omaha needs the walk-size test.
    walk = True if not omaha else walks_exactly(seats, board, dead_cards, **kw)
    res = allin_ev(seats, board, dead_cards, button=_button(hand), exact=walk,
                   samples=None if walk else EV_SAMPLES, seed=None if walk else 0, **kw)
    committed = [st.total[s] + st.ante[s] for s in range(n)]
    out.allin_board = cards_str(board)
    out.allin_exact = res.exact
    out.allin_ev = [{"committed": u.out(committed[s]),
                     "expected_payout": p.expected_payout / u.scale,
                     "ev": (p.expected_payout - committed[s]) / u.scale}
                    for s, p in enumerate(res.players)]
