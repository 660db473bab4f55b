"""A site hand as its file tells it: the one record every site reader makes.

A site reader (``simulate/notation/site_<family>.py``) only transcribes: it turns each
hand of a file into a :class:`SiteHand` — the seats, the stakes, and the hand's
:class:`Event` s in the order the file prints them, amounts with the meanings fixed below
(whatever the site's own wording) — and :func:`simulate.notation.site_build.build` turns
that into the :class:`~simulate.notation.phh_read.HandHistory` the replay plays. So the
seat order, the PHH action text, the chip check and the document's site keys are written
once for every site.

Event kinds (``player`` is the name as in :attr:`Seat.name`; amounts are
:class:`~decimal.Decimal` in the table's units, as printed):

==============  ==========================================================================
``ante``        a dead ante (``amount``)
``small_blind`` the small blind, live (``amount``)
``big_blind``   the big blind, live (``amount``)
``straddle``    a live straddle (``amount``: what the straddle puts in)
``post``        a live blind posted to come in or out of position (``amount``: its live
                part; the dead part of "posts small & big blinds" is a ``dead`` event)
``dead``        dead money posted (not part of the player's bet on the street)
``bring_in``    stud's bring-in (``amount``)
``hole``        cards dealt to ``player`` (``cards``; ``??`` for a card not seen; in
                stud one event per street with that street's cards, down cards ``??``)
``street``      a new betting round where no board is dealt (stud's 4th street, a draw:
                ``amount`` None); a ``board`` event starts one by itself
``board``       community cards (``cards``: the new cards only; ``run`` 2 for the second
                board of a hand run twice, and so on: its cards are the ones that differ)
``fold``        folds
``check``       checks
``call``        calls (``amount``: what the call adds, as printed; may be less than the
                bet when all-in)
``bet``         bets (``amount``: what the bet adds)
``raise``       raises (``amount``: the player's TOTAL on this street after the raise,
                whatever the site prints: a reader of "raises X to Y" gives Y, a reader of
                a site that prints only the increment adds what the player had in)
``complete``    stud: completes the bring-in (``amount``: the street total)
``discard``     draw games: discards ``cards`` (``??`` for each unseen card)
``stand``       draw games: stands pat
``show``        shows ``cards`` at the showdown
``muck``        mucks (``cards`` when the file still prints them)
``uncalled``    the uncalled part of a bet returned to ``player`` (``amount``)
``collect``     ``player`` takes ``amount`` from a pot (``pot``: its name as printed, such
                as ``main pot`` or ``side pot-1``; ``run``: the board it was won on)
``cashout``     money paid to ``player`` outside the pots (cash-out, insurance: ``amount``)
==============  ==========================================================================

``allin`` marks a betting event that puts the player all in (as printed; the builder does
not need it). ``line`` is the event's line in the document (1-based).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from simulate.notation.site_text import SiteError, SiteInfo, amount_at

__all__ = ["ADDS_TO_BET", "BETTING_KINDS", "EVENT_KINDS", "FORCED_KINDS", "SETS_BET", "Event",
           "Seat", "call_total", "SiteHand", "Stakes", "StreetBets", "starts_street"]

#: Forced bets, paid before the first decision.
FORCED_KINDS = frozenset({"ante", "small_blind", "big_blind", "straddle", "post", "dead",
                          "bring_in"})
#: Decisions that move chips or the turn.
BETTING_KINDS = frozenset({"fold", "check", "call", "bet", "raise", "complete"})
#: Every event kind (see the module docstring).
EVENT_KINDS = FORCED_KINDS | BETTING_KINDS | frozenset(
    {"street", "hole", "board", "discard", "stand", "show", "muck", "uncalled", "collect",
     "cashout"})


_ZERO = Decimal(0)
#: Events whose amount adds to the player's bet on the street.
ADDS_TO_BET = frozenset({"small_blind", "big_blind", "straddle", "post", "bring_in", "call",
                         "bet"})
#: Events whose amount is the player's bet on the street after it.
SETS_BET = frozenset({"raise", "complete"})


def starts_street(e: Event) -> bool:
    """Whether ``e`` starts a betting round (a ``street`` event, a first-run board)."""
    return e.kind == "street" or (e.kind == "board" and e.run == 1)


@dataclass
class StreetBets:
    """Each player's bet on the current street, as the events go by (the one reading of
    the amounts' meanings: every reader, the builder and the writers follow the betting
    through it). ``top``: the largest bet of the street."""

    bets: dict[str, Decimal] = field(default_factory=dict)
    top: Decimal = Decimal(0)

    def see(self, e: Event) -> Decimal:
        """Take ``e`` into account; returns the chips it puts in on this street (negative
        for an uncalled bet returned; 0 for events that bet nothing). A new street clears
        the bets first."""
        # (called for every event of every pass over a hand: kept to a few lookups)
        kind = e.kind
        if kind == "street" or (kind == "board" and e.run == 1):
            self.bets, self.top = {}, _ZERO
            return _ZERO
        player, amount = e.player, e.amount
        if player is None or amount is None:
            return _ZERO
        bets = self.bets
        had = bets.get(player, _ZERO)
        if kind in ADDS_TO_BET:
            new = had + amount
        elif kind in SETS_BET:
            new = amount
        elif kind == "uncalled":
            new = had - amount
        else:
            return _ZERO
        bets[player] = new
        if new > self.top:
            self.top = new
        return new - had

    def bet(self, player: str | None) -> Decimal:
        """``player``'s bet on this street."""
        return self.bets.get(player or "", Decimal(0))


def call_total(bets: Sequence[Any], seat: int, forced: Any, alone: bool) -> Any:
    """The street total a call (PHH ``cc``) by ``seat`` goes to, ``bets`` each seat's bet on
    the street: the largest bet, or ``forced`` when that is larger (before the flop the full
    big blind or straddle, however short a seat all in on it posted it: Robert's Rules, as
    the engine plays it), but no more than another seat's largest bet when ``seat`` is the
    only live seat left with chips (``alone``: the rest could only come back)."""
    level = max(max(bets), forced)
    if alone:
        level = min(level, max((b for i, b in enumerate(bets) if i != seat), default=level))
    return level


@dataclass
class Seat:
    """One seat as the file lists it: the site's seat number, the player's name (as
    printed, a hero marker such as ``[ME]`` removed), the starting stack, and whether the
    player is dealt in (False: sitting out, waiting, or listed without cards)."""

    seat: int
    name: str
    stack: Decimal
    in_hand: bool = True


@dataclass
class Stakes:
    """The table's stakes as the header prints them (None where it does not): blinds,
    the ante, fixed-limit's small and big bet, stud's bring-in."""

    small_blind: Decimal | None = None
    big_blind: Decimal | None = None
    ante: Decimal | None = None
    small_bet: Decimal | None = None
    big_bet: Decimal | None = None
    bring_in: Decimal | None = None

    @classmethod
    def of_two(cls, small: Decimal, big: Decimal, betting: str, *,
               bet_blinds: bool = True) -> Stakes:
        """The stakes a file gives as two amounts (``0.5/1``): the blinds, or in fixed
        limit the small and big bet (with ``bet_blinds`` the blinds then half the small
        bet and the small bet; without, none: the file's posts say them)."""
        if betting != "fixed-limit":
            return cls(small_blind=small, big_blind=big)
        if not bet_blinds:
            return cls(small_bet=small, big_bet=big)
        return cls(small_blind=small / 2, big_blind=small, small_bet=small, big_bet=big)

    @classmethod
    def of_pair(cls, text: str | None, sep: str, betting: str, line: int) -> Stakes:
        """The stakes a file gives as one text of two amounts joined by ``sep`` (``0.5/1``,
        ``0.5|1``; a blank one is 0), by :meth:`of_two`, the hand starting at ``line``
        (an amount's error names it); none where the text is not two parts."""
        parts = (text or "").split(sep)
        if len(parts) != 2:
            return cls()
        small, big = (amount_at(p, line) if p.strip() else Decimal(0) for p in parts)
        return cls.of_two(small, big, betting)


@dataclass
class Event:
    """One thing that happened in the hand (see the module docstring for the kinds)."""

    kind: str
    player: str | None = None
    amount: Decimal | None = None
    cards: tuple[str, ...] = ()
    line: int = 0
    allin: bool = False
    pot: str | None = None
    run: int = 1

    def __post_init__(self) -> None:
        if self.kind not in EVENT_KINDS:
            raise ValueError(f"unknown site event kind {self.kind!r}")


@dataclass
class SiteHand:
    """One hand of a site file, transcribed (see the module docstring).

    ``seats``: every seat the file lists, in seat order. ``button``: the button's seat
    number (None where the file does not say). ``rake``: the house's cut as printed (None:
    not printed; the reader of a site that prints the pot before rake gives it here
    all the same). ``total_pot``: the pot as printed, for the check. ``summary_only``: the
    file holds only a summary of this hand (no actions): it is skipped, and said so.
    """

    info: SiteInfo
    seats: list[Seat]
    stakes: Stakes
    events: list[Event] = field(default_factory=list)
    button: int | None = None
    rake: Decimal | None = None
    total_pot: Decimal | None = None
    max_seats: int | None = None
    summary_only: bool = False

    def seat_of(self, name: str) -> Seat:
        for s in self.seats:
            if s.name == name:
                return s
        raise SiteError(f"line {self.info.line}: {name!r} acts but has no seat")

    def committed(self) -> dict[str, Decimal]:
        """What each player put into the pots (forced bets, bets and calls, less the
        uncalled part returned), by name: the sums the chip check adds up. A ``raise``
        or ``complete`` sets the player's street total; ``street`` and a first-run
        ``board`` start a new street."""
        total: dict[str, Decimal] = {}
        see = StreetBets().see
        for e in self.events:
            put = see(e)
            if e.kind in ("ante", "dead") and e.player is not None and e.amount is not None:
                put = e.amount
            if put and e.player is not None:
                total[e.player] = total.get(e.player, _ZERO) + put
        return total

    def return_uncalled(self) -> None:
        """Add the ``uncalled`` events of a file that does not print them (OHH, and sites
        that fold the return into what is collected): when a street's betting ends, the
        excess of its largest bet over the next largest goes back to its player. The
        betting of a street ends at the next street, at the first show, muck or collect,
        or at the end of the events."""
        out: list[Event] = []
        bets = StreetBets()
        open_ = False

        def close() -> None:
            ranked = sorted(bets.bets.values(), reverse=True) + [Decimal(0)]
            if ranked[0] > ranked[1]:
                who = next(p for p, v in bets.bets.items() if v == ranked[0])
                out.append(Event("uncalled", who, ranked[0] - ranked[1]))

        for e in self.events:
            ends = starts_street(e) or e.kind in ("show", "muck", "collect", "cashout")
            if ends and open_:
                close()
                open_ = False
            if bets.see(e) or e.kind in SETS_BET:
                open_ = True
            out.append(e)
        if open_:
            close()
        self.events = out

    def board_runs(self) -> dict[int, tuple[list[str], list[str]]]:
        """Each run's board, in run order: ``run -> (shared, own)``, the cards it shares
        with the first run and its own cards. A later run's board events hold only the
        cards that differ, dealt at once (``SECOND BOARD [Td 6c]``) or street by street
        (``SECOND FLOP``, ``SECOND TURN``, ...); a board is five cards, so a run shares the
        first run's first ``5 - own`` cards."""
        own: dict[int, list[str]] = {}
        for e in self.events:
            if e.kind == "board":
                own.setdefault(e.run, []).extend(e.cards)
        first = own.get(1, [])
        return {r: ([] if r == 1 else first[:max(0, 5 - len(own[r]))], own[r])
                for r in sorted(own)}

    def collected(self) -> dict[str, Decimal]:
        """What each player took from the pots (``collect`` events), by name."""
        out: dict[str, Decimal] = {}
        for e in self.events:
            if e.kind == "collect" and e.player is not None and e.amount is not None:
                out[e.player] = out.get(e.player, Decimal(0)) + e.amount
        return out

    def check_chips(self) -> None:
        """Raise :class:`SiteError` unless what was committed equals what was collected
        plus the rake and the fees; the message gives both sums and the hand's line."""
        put = sum(self.committed().values(), Decimal(0))
        took = sum(self.collected().values(), Decimal(0))
        rake = self.rake or Decimal(0)
        fees = sum(self.info.fees.values(), Decimal(0))
        if put != took + rake + fees:
            raise SiteError(
                f"line {self.info.line}: the chips do not add up: {put} committed, "
                f"{took} collected + {rake} rake" + (f" + {fees} fees" if fees else ""))
