"""The chip accounting of a PHH hand, for every variant: who put what in, the pots, who
takes them.

Nothing here needs to know whose turn it is: each action names its player, so the
accounting only tracks the chips each seat has put in on the current street and in total,
who folded, who mucked, the hole cards and the board (:func:`play_hand`). That is enough for
every variant's chip accounting (no-limit, pot-limit and fixed-limit alike: the file
states every ``cbr`` total). The rules it follows are listed in :mod:`simulate.replay.hand_replay`
(heads-up order, antes, blinds, posts, trimming, rake, mucks, the button, the showdown
per variant). Amounts are integer units of the smallest decimal place the hand uses
(:class:`Units`). The engine replay (:mod:`simulate.replay.engine_check`) checks the same
hand action by action by the rules; :mod:`simulate.replay.hand_replay` puts both together.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from evaluator.cards import card_str
from evaluator.tablegen import LOWEST_RANK
from simulate.games import GAMES
from simulate.notation.phh_read import HandHistory
from simulate.notation.site_hand import call_total
from simulate.pots import MAX_CHIPS, Pot, PotStructure, add_dead_money, build_pots

__all__ = ["ENGINE_VARIANTS", "HILO_VARIANTS", "HOLDEM_VARIANTS", "LOWBALL_VARIANTS", "MAX_UNITS",
           "OMAHA_VARIANTS",
           "PINEAPPLE_VARIANTS", "SHORT_DECK_VARIANTS", "STUD_HIGH_VARIANTS", "STUD_HILO_VARIANTS",
           "UNKNOWN_STACK", "VARIANT_NAMES", "ChipState", "ReplayError", "Units",
           "antes_trimmed", "big_blind_of", "button_seat", "has_lows", "play_hand",
           "posted_order", "pot_structure", "scale_of", "showdown_low", "showdown_strength",
           "take_rake"]

#: Hold'em's and Omaha's variant codes, every betting structure (``NT``, ``PO``, ...).
HOLDEM_VARIANTS = frozenset(GAMES["holdem"].phh.values())
OMAHA_VARIANTS = frozenset(code for g in GAMES.values() if g.is_omaha and not g.hilo
                           for code in g.phh.values())
#: High/low split variants (Omaha eight or better, ``FO/8``; ``PO/8`` is the project's own
#: code for the pot-limit game, which PHH does not name): each pot is split high/low.
HILO_VARIANTS = frozenset(code for g in GAMES.values() if g.hilo for code in g.phh.values())
STUD_HIGH_VARIANTS = frozenset({"F7S"})
#: Seven card stud eight or better: the high of the best five of seven, and each pot split
#: with the best eight-or-better low of any five (chip accounting; the engine plays no stud).
STUD_HILO_VARIANTS = frozenset({"F7S/8"})
#: Lowball games (chip accounting): variant -> (the hand's value, larger better, from
#: :mod:`evaluator.lowball`; the number of cards a showdown hand holds).
LOWBALL_VARIANTS: dict[str, tuple[str, int]] = {
    "FR": ("ace_to_five_value", 7), "F2L3D": ("deuce_to_seven_value", 5),
    "N2L1D": ("deuce_to_seven_value", 5), "FB": ("badugi_value", 4)}
VARIANT_NAMES = {
    "NT": "no-limit Texas hold'em", "FT": "fixed-limit Texas hold'em",
    "PT": "pot-limit Texas hold'em", "NS": "no-limit short-deck hold'em",
    "NO": "no-limit Omaha", "PO": "pot-limit Omaha", "FO": "fixed-limit Omaha",
    "FO/8": "fixed-limit Omaha hi-lo", "PO/8": "pot-limit Omaha hi-lo", "F7S": "seven card stud",
    "F7S/8": "seven card stud hi-lo", "FR": "razz", "F2L3D": "2-7 triple draw",
    "N2L1D": "no-limit 2-7 single draw", "FB": "badugi",
}
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
#: Short deck (36 cards, 6 to A): pokerkit's ``NS`` (no-limit short-deck hold'em, trips below
#: a straight) and the project's own ``NST`` (Triton rules: trips above a straight), each
#: with the evaluator scale its showdowns are read on. The button blind is the last seat's
#: entry of ``blinds_or_straddles`` (pokerkit's ``{-1: B}``), so that seat is the button.
SHORT_DECK_VARIANTS = {code: g.scale for g in GAMES.values() if g.low_rank
                       for code in g.phh.values()}
VARIANT_NAMES.update({"NP": "no-limit pineapple", "PP": "pot-limit pineapple",
                      "FP": "fixed-limit pineapple", "NCP": "no-limit crazy pineapple",
                      "PCP": "pot-limit crazy pineapple", "FCP": "fixed-limit crazy pineapple",
                      "NST": "no-limit short-deck hold'em, Triton rules"})
VARIANT_NAMES.update({code: f"{betting} {g.label}" for g in GAMES.values()
                      for betting, code in g.phh.items() if code not in VARIANT_NAMES})


class ReplayError(ValueError):
    """A hand that cannot be played through; the message is one line."""


def scale_of(hand: HandHistory) -> int:
    """Smallest power of ten that makes every amount in ``hand`` an integer (the
    ``scale`` of its :class:`Units`); raises :class:`ReplayError` past 6 decimal places."""
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


class Units:
    """A hand's amounts as integers: ``Units(scale)`` (from :func:`scale_of`) turns a file
    amount into integer units (:meth:`to_int`) and back into the file's units (:meth:`out`)."""

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
        """``n`` integer units in the file's units: an int where whole, else a float."""
        if self.scale == 1:
            if type(n) is int:
                return n
            return int(n) if float(n).is_integer() else float(n)
        return round(n / self.scale, 6 + len(str(self.scale)))


@dataclass
class ChipState:
    """The chips of a hand as :func:`play_hand` leaves them, per seat (``n`` seats): the
    ``stack`` behind, the ``ante`` paid, the ``street`` bet and the ``total`` of earlier
    streets, ``folded``, ``mucked``, the ``holes`` (``None``: an unknown card) and the
    ``board``; ``allin_board``: the board when the betting ended all-in (else None)."""

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
    forced: int = 0  # the full big blind or straddle: a call's floor until the street ends

    def end_street(self) -> None:
        """Move each seat's street bet into its total."""
        for s in range(self.n):
            self.total[s] += self.street[s]
            self.street[s] = 0
        self.forced = 0

    def put(self, seat: int, chips: int) -> None:
        """``seat`` bets ``chips`` more on this street, capped at its stack."""
        chips = max(0, min(chips, self.stack[seat]))
        self.stack[seat] -= chips
        self.street[seat] += chips

    def all_in_spot(self) -> bool:
        """True when no more betting can happen: two or more seats live and at most one
        with chips behind, having matched the largest bet."""
        live = [s for s in range(self.n) if not self.folded[s]]
        behind = [s for s in live if self.stack[s] > 0]
        if len(live) < 2 or len(behind) > 1:
            return False
        if behind:  # the one seat with chips must have matched the largest bet
            top = max(self.street[s] for s in live)
            return self.street[behind[0]] >= top
        return True


def posted_order(values: list[Decimal], n: int) -> list[Decimal]:
    """The file's per-seat forced bets (``antes`` or ``blinds_or_straddles``) of an ``n``-seat
    hand in seat order (heads-up the file lists the big blind's entry first: swapped)."""
    if n == 2:
        return [values[1], values[0]]
    return list(values)


def play_hand(hand: HandHistory, u: Units) -> ChipState:
    """Play every action of ``hand`` through the chip accounting (amounts in ``u``);
    returns the final :class:`ChipState` (every street closed). Raises
    :class:`ReplayError` for an action the accounting refuses."""
    n = hand.n_players
    st = ChipState(n=n, stack=[u.to_int(v) for v in hand.starting_stacks], ante=[0] * n,
                street=[0] * n, total=[0] * n, folded=[False] * n, mucked=[False] * n,
                holes=[[] for _ in range(n)], board=[])
    for s, a in enumerate(posted_order(hand.antes, n)):
        st.ante[s] = min(u.to_int(abs(a)), st.stack[s])
        st.stack[s] -= st.ante[s]
    for s, b in enumerate(posted_order(hand.blinds_or_straddles, n)):
        st.put(s, u.to_int(abs(b)))
        if b > 0:  # a blind or straddle (not a post): called in full however short it went in
            st.forced = max(st.forced, u.to_int(b))
    board_game = (hand.variant in HOLDEM_VARIANTS or hand.variant in OMAHA_VARIANTS
                  or hand.variant in SHORT_DECK_VARIANTS or hand.variant in HILO_VARIANTS)
    for act in hand.actions:
        k = act.kind
        if k == "db":
            if board_game and st.allin_board is None and len(st.board) < 5 and st.all_in_spot():
                st.allin_board = list(st.board)
            if st.betting_started:
                st.end_street()
            st.forced = 0
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
            alone = all(st.folded[s] or not st.stack[s] for s in range(n) if s != seat)
            st.put(seat, call_total(st.street, seat, st.forced, alone) - st.street[seat])
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


def antes_trimmed(hand: HandHistory) -> bool:
    """True when ``hand``'s antes are trimmed: ``ante_trimming_status`` set and every seat
    posting the same nonzero ante (the antes then go into the pots like bets)."""
    nonzero = {a for a in hand.antes if a != 0}
    return hand.ante_trimming_status and len(nonzero) == 1 and all(a != 0 for a in hand.antes)


def pot_structure(st: ChipState, live: list[bool], trim: bool) -> PotStructure:
    """The :class:`PotStructure` of the chips in ``st`` given which seats are ``live``
    (``trim``: :func:`antes_trimmed`, else the antes are dead money). Raises
    :class:`ReplayError` when no seat is live or the pots cannot be built."""
    contrib = [st.total[s] + (st.ante[s] if trim else 0) for s in range(st.n)]
    if not any(live):
        raise ReplayError("every seat folded or mucked: nobody can win the pot")
    # What one seat put in beyond every other seat was never called: it went back to that
    # seat when the betting closed, before anyone showed or mucked (a player all in for
    # more than the caller who then mucks gets the excess back, as at the table).
    uncalled = [0] * st.n
    if st.n > 1:
        top = max(range(st.n), key=contrib.__getitem__)
        second = max(c for s, c in enumerate(contrib) if s != top)
        if contrib[top] > second:
            uncalled[top] = contrib[top] - second
            contrib[top] = second
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
    returned = [r + u for r, u in zip(base.returned, uncalled, strict=True)]
    return PotStructure(pots=pots, returned=returned, committed=committed, live=tuple(live))


def take_rake(structure: PotStructure, rake: int) -> PotStructure:
    """``structure`` with ``rake`` units taken from its pots, main pot first. Raises
    :class:`ReplayError` when the rake is larger than the pots."""
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


def button_seat(hand: HandHistory) -> int:
    """The button's seat of ``hand`` (see the module docstring): the seat before the small
    blind; heads-up the small blind itself; a lone blind on the last seat is the button's own
    (a button blind, in any game: pokerkit reads it so, and ``play --button-blind`` writes
    it so)."""
    n = hand.n_players
    posted = posted_order(hand.blinds_or_straddles, n)
    if n == 2:
        return 0 if 0 < posted[0] < posted[1] else 1
    first = next((s for s in range(n) if posted[s] != 0), None)
    if first == n - 1:
        return n - 1  # a button blind: the seat that posts it is the button
    return n - 1 if first is None else (first - 1) % n


def big_blind_of(hand: HandHistory, u: Units) -> Any:
    """The hand's big blind in the file's units (the second blind; the only blind when
    there is one; else the small bet of a fixed-limit game), or None (for bb/100)."""
    blinds = [b for b in hand.blinds_or_straddles[:2] if b > 0]
    if blinds:
        return u.out(u.to_int(max(blinds)))
    for v in (hand.small_bet, hand.min_bet, hand.bring_in):
        if v is not None and v > 0:
            return u.out(u.to_int(v))
    return None


def showdown_strength(variant: str, hole: list[int | None], board: list[int], who: str) -> int:
    """The high strength (larger wins) of ``hole`` with ``board`` in ``variant``. Raises
    :class:`ReplayError` naming ``who`` when the cards cannot be read at a showdown."""
    if any(c is None for c in hole) or not hole:
        raise ReplayError(f"{who}'s hole cards are unknown at the showdown")
    cards = [int(c) for c in hole if c is not None]
    if variant in HOLDEM_VARIANTS or variant in PINEAPPLE_VARIANTS:
        from evaluator.hands import strength_of_ids

        if len(board) != 5 or len(cards) != 2:
            raise ReplayError(f"showdown needs 2 hole cards and 5 board cards ({who})")
        return strength_of_ids(cards + board)
    if variant in SHORT_DECK_VARIANTS:
        from evaluator.hands import strength_of_ids

        if len(board) != 5 or len(cards) != 2:
            raise ReplayError(f"showdown needs 2 hole cards and 5 board cards ({who})")
        scale = SHORT_DECK_VARIANTS[variant]
        low = min(cards + board)
        if low >> 2 < LOWEST_RANK[scale]:
            raise ReplayError(f"{card_str(low)} at {who}'s showdown is not in the short deck")
        return strength_of_ids(cards + board, scale)
    if variant in OMAHA_VARIANTS or variant in HILO_VARIANTS:
        from evaluator.omaha import evaluate_omaha

        if len(board) != 5:
            raise ReplayError(f"showdown needs 5 board cards ({who})")
        return int(evaluate_omaha(cards, board))
    if variant in STUD_HIGH_VARIANTS or variant in STUD_HILO_VARIANTS:
        from evaluator.hands import strength_of_ids

        if len(cards) != 7:
            raise ReplayError(f"stud showdown needs 7 cards, {who} has {len(cards)}")
        return strength_of_ids(cards)
    name = VARIANT_NAMES.get(variant)
    label = f"variant {variant}" + (f" ({name})" if name else "")
    if variant in LOWBALL_VARIANTS:
        from evaluator import lowball

        value, size = LOWBALL_VARIANTS[variant]
        if len(cards) != size:
            raise ReplayError(f"{label} showdown needs {size} cards, {who} has {len(cards)}")
        return getattr(lowball, value)(cards)
    raise ReplayError(f"{label} is not supported at a contested showdown")


def showdown_low(variant: str, hole: list[int | None], board: list[int]) -> int:
    """A hi/lo seat's eight-or-better low (0: none), after :func:`showdown_strength`
    checked the cards: Omaha's two of ``hole`` with three of ``board``, or stud's best
    five of its seven cards."""
    from evaluator.low import best_low, evaluate_low

    cards = [int(c) for c in hole if c is not None]
    if variant in STUD_HILO_VARIANTS:
        return best_low(cards)
    return evaluate_low(cards, board) or 0


def has_lows(variant: str) -> bool:
    """Whether each pot of ``variant`` is split with the best eight-or-better low."""
    return variant in HILO_VARIANTS or variant in STUD_HILO_VARIANTS
