"""The betting ledger of a site reader: a file's betting lines, in the site's own meaning
of their amounts, to :class:`~simulate.notation.site_hand.Event` s with the fixed
meanings of :mod:`simulate.notation.site_hand`, and the hand's end (the uncalled bet, the
pots' payouts, the rake) where the file does not print it.

Several sites (888/Pacific, PartyPoker, Entraction, OnGame in part) print what a bet,
call or raise ADDS (``raises [$3]`` after a $1 blind: the player now has $4 in), print
no uncalled bet returned, or print no rake. A reader feeds its lines to a
:class:`Ledger`, which keeps each player's street total (a
:class:`~simulate.notation.site_hand.StreetBets`, the one reading of the amounts) and
stack, and

- turns an amount added into a ``call``, ``bet`` or ``raise`` (a raise's amount being the
  street total) and an "all-in for X" into whichever of the three it is;
- checks every amount against the betting (a call adds exactly what is to be called, or
  the player's last chips; a raise goes above the bet; nobody puts in more than the stack
  they sat down with) and raises :class:`SiteError` naming the line where it does not:
  this is what proves which meaning a site's amounts have;
- at each street's end, returns the part of the top street total that nobody matched,
  unless the file prints its own returns (:meth:`SiteHand.return_uncalled`, at the
  hand's end);
- at the hand's end (:meth:`Ledger.settle`) takes the payouts as printed, takes out of
  them a returned bet the site counts as "won" (PartyPoker's "wins" and a lone blind's
  "collected" do), and gives the rake as what was committed less what was paid where the
  file prints none; a rake that is negative, or above :data:`MAX_RAKE` of the pot, or any
  rake in a tournament, is the hand's :class:`SiteError`.
"""

from __future__ import annotations

import re
from decimal import Decimal

from simulate.notation.site_hand import Event, SiteHand, StreetBets
from simulate.notation.site_read import first_amount
from simulate.notation.site_stars import BRACKETS
from simulate.notation.site_text import SiteError, cards_of, parse_amount

__all__ = ["MAX_RAKE", "STREET_LINE", "Ledger", "Wording", "pot_summary"]

#: The largest share of a pot a derived rake may be (sites take 3-6% with a cap).
MAX_RAKE = Decimal("0.10")
#: A PokerStars-like street line that deals a board (``*** TURN *** [Ah Kd 2c] [7s]``),
#: for :meth:`Ledger.board_line`.
STREET_LINE = re.compile(r"^\*\*\* (?P<street>FLOP|TURN|RIVER) \*\*\*")
_ZERO = Decimal(0)
_FEE = re.compile(r"^(?P<what>[A-Za-z][A-Za-z ]*?)\s+(?P<a>\S+)$")


class Wording:
    """How a PokerStars-like text export words the amounts of its plain betting lines,
    built from the reader's pattern of its site's money (``[$€]?[0-9][0-9,.]*``):
    ``calls $2``, ``bets $2``, ``raises $2 to $4``, ``collected $9 from pot``,
    ``shows [Ah Kd]`` (the words of :data:`WORDS`, read by :meth:`Ledger.said`).

    ``amount``: a line's amount (group ``a``; :meth:`first` reads it); ``raise_to``: a
    raise's increment and total (groups ``inc``, ``to``); ``collect``: a collection's
    amount and pot (``a``, ``pot``); ``uncalled``: an ``Uncalled bet ($X) returned to NAME``
    line (``a``, ``name``; ``of`` and the parentheses optional, as Winamax prints it).
    """

    #: The verbs :meth:`Ledger.said` reads.
    WORDS = frozenset({"folds", "checks", "calls", "bets", "raises", "shows", "mucks",
                       "collected"})

    def __init__(self, money: str) -> None:
        self.amount = re.compile(rf"(?P<a>{money})")
        self.raise_to = re.compile(rf"^\s*(?P<inc>{money}) to (?P<to>{money})")
        self.collect = re.compile(rf"^\s*(?P<a>{money}) from (?P<pot>.*?)\s*$")
        self.uncalled = re.compile(rf"^Uncalled bet (?:of )?\(?(?P<a>{money})\)? returned to "
                                   r"(?P<name>.+?)\s*$")

    def first(self, text: str) -> Decimal:
        """The first amount of ``text`` (a line's ``calls $2``, ``posts small blind €0.05``),
        by :func:`~simulate.notation.site_read.first_amount`."""
        return first_amount(self.amount, text)


class Ledger:
    """A hand's betting as the reader reads it (see the module docstring).

    ``hand``: the record being built (its seats set; events are appended to
    ``hand.events``). ``returns_printed``: the file prints its uncalled bets (the
    reader adds them with :meth:`uncalled`); otherwise the ledger derives them.
    """

    def __init__(self, hand: SiteHand, *, returns_printed: bool = False) -> None:
        self.hand = hand
        self.returns_printed = returns_printed
        self.left = {s.name: s.stack for s in hand.seats}
        self.bets = StreetBets()  # each player's bet on the street (the one reading)
        self.level = _ZERO  # preflop: the big blind to call, even where it was posted short
        self.folded: set[str] = set()
        self.refunds: dict[str, Decimal] = {}  # raised past everyone all in: given back

    @classmethod
    def seated(cls, hand: SiteHand, *, returns_printed: bool = False) -> Ledger:
        """The ledger of a hand whose seat lines are read (the first betting line ends
        them); :class:`SiteError` where the hand has no seat."""
        if not hand.seats:
            raise SiteError("a hand without seats")
        return cls(hand, returns_printed=returns_printed)

    # ------------------------------------------------------------------ helpers
    def _seat(self, player: str, line: int) -> None:
        if player not in self.left:
            raise SiteError(f"line {line}: {player!r} acts but has no seat")

    def _pay(self, player: str, amount: Decimal, line: int) -> None:
        if amount < 0:
            raise SiteError(f"line {line}: a negative amount for {player}")
        self._seat(player, line)
        if amount > self.left[player]:
            raise SiteError(f"line {line}: {player} puts in {amount} with only "
                            f"{self.left[player]} behind")
        self.left[player] -= amount

    def _add(self, e: Event) -> Event:
        self.bets.see(e)
        self.hand.events.append(e)
        return e

    def top(self) -> Decimal:
        """The bet to match: the largest street total so far (preflop at least the big
        blind, even where the big blind was posted all in for less)."""
        return max(self.bets.top, self.level)

    def mine(self, player: str) -> Decimal:
        """``player``'s street total so far."""
        return self.bets.bet(player)

    # ------------------------------------------------------------------ events
    def event(self, kind: str, player: str | None = None, line: int = 0,
              cards: tuple[str, ...] = ()) -> Event:
        """An event that moves no chips (fold, check, hole, show, muck)."""
        if player is not None:
            self._seat(player, line)
            if kind == "fold":
                self.folded.add(player)
        return self._add(Event(kind, player, cards=cards, line=line))

    def forced(self, kind: str, player: str, amount: Decimal, line: int) -> Event:
        """A forced bet (``ante``, ``dead``, ``small_blind``, ``big_blind``, ``post``,
        ``straddle``, ``bring_in``) of ``amount``."""
        if kind in ("small_blind", "big_blind") and any(
                e.kind == kind for e in self.hand.events):
            kind = "post"  # a second one: posted live, to play at once
        self._pay(player, amount, line)
        if kind == "big_blind":  # all in for less, the blind to call is still the full one
            full = self.hand.stakes.big_blind if self.left[player] == 0 else None
            self.level = max(self.level, full or amount)
        return self._add(Event(kind, player, amount, line=line,
                               allin=self.left[player] == 0))

    def added(self, word: str, player: str, amount: Decimal, line: int) -> Event:
        """A betting line that prints what the player ADDS: ``word`` is ``call``,
        ``bet``, ``raise`` or ``allin`` (the line says only "all-in for X")."""
        self._seat(player, line)
        mine, top = self.mine(player), self.top()
        new = mine + amount
        self._pay(player, amount, line)
        allin = self.left[player] == 0
        if word == "allin":
            word = "call" if new <= top else ("bet" if top == 0 else "raise")
        if word == "call":
            if new > top or (new < top and not allin) or amount == 0:
                raise SiteError(f"line {line}: {player} calls {amount}, but "
                                f"{top - mine} is to be called")
            e = Event("call", player, amount, line=line, allin=allin)
        elif word == "bet":
            if top == 0:
                e = Event("bet", player, amount, line=line, allin=allin)
            elif new > top:  # a "bet" over the blinds: some sites' word for a raise
                e = Event("raise", player, new, line=line, allin=allin)
            else:
                raise SiteError(f"line {line}: {player} bets {amount} into a bet of {top}")
        elif word == "raise":
            if new <= top:
                raise SiteError(f"line {line}: {player} raises by {amount} to {new}, not "
                                f"above the bet of {top}")
            e = Event("raise", player, new, line=line, allin=allin)
        else:
            raise ValueError(f"unknown betting word {word!r}")
        if e.kind in ("bet", "raise") and not any(
                s.in_hand and s.name != player and s.name not in self.folded
                and self.mine(s.name) + self.left[s.name] > top for s in self.hand.seats):
            # nobody can answer (the others have no chips beyond the bet): only the call is
            # a bet; the rest, which the site prints as a raise, goes back (some sites pay
            # it back as won)
            call = max(top - mine, _ZERO)
            back = amount - call
            self.left[player] += back
            self.refunds[player] = self.refunds.get(player, _ZERO) + back
            e = Event("call" if call else "check", player, call or None, line=line,
                      allin=self.left[player] == 0)
        return self._add(e)

    def raise_to(self, player: str, total: Decimal, line: int) -> Event:
        """A raise that prints the player's street total after it."""
        return self.added("raise", player, total - self.mine(player), line)

    def uncalled(self, player: str, amount: Decimal, line: int) -> Event | None:
        """A return the file prints (Entraction's "Payback"); the part of it the ledger
        already gave back (a raise past players all in, read as a call) is not repeated
        (None: nothing is left to return)."""
        self._seat(player, line)
        given = min(amount, self.refunds.get(player, _ZERO))
        if given:
            self.refunds[player] -= given
            amount -= given
            if not amount:
                return None
        self.left[player] += amount
        return self._add(Event("uncalled", player, amount, line=line))

    def board(self, cards: tuple[str, ...], line: int, run: int = 1) -> Event:
        """Community cards (``cards``: the new ones only): a first-run board starts a
        new betting round."""
        if run == 1:
            self.level = _ZERO
        return self._add(Event("board", cards=cards, line=line, run=run))

    def board_line(self, text: str, line: int) -> Event:
        """A board line that prints the cards in brackets, the new ones last
        (``*** TURN *** [Ah Kd 2c] [7s]``): :meth:`board` of the last group."""
        groups = BRACKETS.findall(text)
        if not groups:
            raise SiteError(f"a board without cards: {text!r}")
        return self.board(cards_of(groups[-1]), line)

    def cards_line(self, text: str, line: int, dealt: re.Pattern[str],
                   board: re.Pattern[str], *, hero: bool = True) -> bool:
        """A line that deals cards, by the reader's patterns: ``dealt`` (groups ``p``, the
        player, and ``c``, the cards) a player's hole cards (that player is the hero where
        ``hero``), ``board`` (its group 2) the new community cards. True where ``text``
        is one (its event added)."""
        if (d := dealt.match(text)):
            if hero:
                self.hand.info.hero = d["p"]
            self.event("hole", d["p"], line, cards_of(d["c"]))
            return True
        if (b := board.match(text)):
            self.board(cards_of(b.group(2)), line)
            return True
        return False

    def said(self, wording: Wording, verb: str, player: str, rest: str, line: int,
             payouts: list[tuple[str, Decimal, str | None, int]]) -> Event | None:
        """A plain betting line, ``player verb rest`` with ``verb`` one of
        :data:`Wording.WORDS`, in ``wording``: its event (a ``collected`` appends
        ``(player, amount, pot, line)`` to ``payouts`` for :meth:`settle`, and gives
        None)."""
        if verb in ("folds", "checks"):
            return self.event("fold" if verb == "folds" else "check", player, line)
        if verb in ("calls", "bets"):
            return self.added("call" if verb == "calls" else "bet", player,
                              wording.first(rest), line)
        if verb == "raises":
            r = wording.raise_to.match(rest)
            if r is None:
                raise SiteError(f"a raise without its total: {rest.strip()!r}")
            return self.raise_to(player, parse_amount(r["to"]), line)
        if verb in ("shows", "mucks"):
            g = BRACKETS.search(rest)
            return self.event("show" if verb == "shows" else "muck", player, line,
                              cards_of(g.group(1)) if g else ())
        if verb == "collected":
            c = wording.collect.match(rest)
            if c is None:
                raise SiteError(f"a collection without its amount: {rest.strip()!r}")
            payouts.append((player, parse_amount(c["a"]), c["pot"], line))
            return None
        raise ValueError(f"not a plain betting word: {verb!r}")

    # ------------------------------------------------------------------ the end
    def settle(self, payouts: list[tuple[str, Decimal, str | None, int]],
               rake: Decimal | None, line: int, *, paid_back: bool | None = None) -> None:
        """The hand's end: ``payouts`` are ``(player, amount, pot name, line)`` as the
        file prints them; ``rake`` as printed (None: the file prints none, it is
        derived); ``paid_back``: the site's payouts include the bets returned (True),
        never do (False), or do where they exceed what the pots hold (None). Appends the
        ``collect`` events and sets ``hand.rake``. Where the file prints no returns, each
        street's unmatched bet goes back first (:meth:`SiteHand.return_uncalled`)."""
        hand = self.hand
        if not self.returns_printed:
            hand.return_uncalled()
        returned: dict[str, Decimal] = dict(self.refunds)
        for e in hand.events:
            if e.kind == "uncalled" and e.player is not None and e.amount is not None:
                returned[e.player] = returned.get(e.player, _ZERO) + e.amount
        put = sum(hand.committed().values(), _ZERO)
        paid = sum((a for _, a, _, _ in payouts), _ZERO)
        pays = [list(p) for p in payouts]
        if returned and (paid_back or (paid_back is None and paid > put)):
            # the site counts the returned bet as won: take it out of that player's payouts
            for who, back in returned.items():
                for p in sorted((p for p in pays if p[0] == who),
                                key=lambda p: p[1] != back):
                    take = min(back, p[1])
                    p[1] -= take
                    back -= take
                if back:
                    raise SiteError(f"line {line}: {who} is paid less than the "
                                    f"{returned[who]} returned to them")
            paid = sum((p[1] for p in pays), _ZERO)
        for who, amount, pot, at in pays:
            self._seat(who, at)
            if amount:
                hand.events.append(Event("collect", who, amount, line=at, pot=pot))
        if rake is None:
            rake = put - paid - sum(hand.info.fees.values(), _ZERO)
            if rake < 0 or rake > put * MAX_RAKE or (rake and hand.info.tournament):
                raise SiteError(f"line {line}: the chips do not add up: {put} committed, "
                                f"{paid} paid (a rake of {rake})")
        hand.rake = rake


def pot_summary(hand: SiteHand, line: str, money: re.Pattern[str]) -> bool:
    """A summary's ``Total pot $X | Rake $Y | Jackpot $Z | ...`` line, ``money`` being the
    reader's pattern of an amount (group ``a``; the pot is the first amount before the
    first ``|``). Sets ``hand.total_pot`` and ``hand.rake`` (0 where none is printed) and
    puts each other amount into ``hand.info.fees`` by its lower-case name (a ``JP ...`` fee
    is the ``jackpot``). False (nothing set) where ``line`` is not one."""
    if not line.startswith("Total pot "):
        return False
    rest = line[len("Total pot "):]
    parts = rest.split("|")
    hand.total_pot = first_amount(money, parts[0])
    for part in parts[1:]:
        m = _FEE.match(part.strip())
        if m is None:
            continue
        a = parse_amount(m["a"])
        what = m["what"].lower()
        if what == "rake":
            hand.rake = a
        elif a:
            hand.info.fees["jackpot" if what.startswith("jp") else what] = a
    if hand.rake is None:
        hand.rake = _ZERO
    return True
