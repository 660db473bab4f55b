"""Bovada, Ignition and Bodog (one network, one export) hand histories.

The grammar, line by line:

- header ``Bovada Hand #ID TBL#N GAME LIMIT - DATE`` (cash), ``Ignition Hand #ID  Zone Poker
  ID#N HOLDEMZonePoker No Limit - DATE`` (Zone fast-fold), ``Bovada Hand #ID: HOLDEM
  Tournament #T TBL#N, Turbo- Level 4 (50/100) - DATE`` (tournaments, no limit printed);
  the skin is the header's first word;
- seats ``Seat N: NAME [ME] ($X in chips)``: players are named by their position at the
  table (``Dealer``, ``Small Blind``, ``Big Blind``, ``UTG``, ``UTG+1``...), the hero
  marked ``[ME]`` (kept out of the name); the button is the seat named ``Dealer``. In
  tournaments ``N`` is an id, not a place (``Seat 240``, ``Seat 38``...): the seats are
  listed in the table's order, so they are numbered 1, 2, ... in that order;
- then ``NAME : VERB ...`` lines (``NAME  [ME] :`` for the hero): ``Small blind X`` /
  ``Small Blind $X``, ``Big blind X``, ``Ante chip X``, ``Posts chip X`` (a live post),
  ``Posts dead chip X``, ``Card dealt to a spot [..]`` (every player's cards),
  ``Folds`` / ``Checks`` (``(timeout)``, ``(disconnect)`` kept as the action),
  ``Call X`` / ``Calls X`` (what it adds), ``Bets X``, ``Raises X to Y`` and
  ``All-in(raise) X to Y`` (Y: the street total), ``All-in X`` (what it adds: a bet, a
  raise or a call by the street's totals), ``Return uncalled portion of bet X``,
  ``Showdown [best five] (...)`` (shows: the cards printed are the best five, not the hole
  cards), ``Does not show`` / ``Mucks`` (mucks), ``Hand result X`` / ``Hand Result-Side Pot
  X`` (collects); table housekeeping (``Set dealer``, ``Draw for dealer``, ``Seat sit
  out``, ``Leave(Auto)``, ``Table deposit``, ``Ranking``, ``BOUNTY PRIZE``, ``Prize Cash``,
  ``Prize Tournament Ticket``...) moves no chips in the hand;
- boards ``*** FLOP *** [..]``, ``*** TURN *** [..] [..]``; summary ``Total Pot($X)``.

The amounts go through the betting ledger (:class:`~simulate.notation.site_ledger.Ledger`:
calls and ``All-in X`` add, raises set the street total, each checked against the betting
and the stacks). The export prints no rake: the ledger derives it, what was committed less
what was paid (``Total Pot`` must be what was paid as printed and that rake, where the
summary prints it; some Zone hands have none); a blind nobody called comes back inside ``Hand
result``: the ledger returns it and takes it out of the payout.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

from simulate.notation.site_body import read_body
from simulate.notation.site_hand import Seat, SiteHand, Stakes
from simulate.notation.site_ledger import Ledger, Wording
from simulate.notation.site_read import betting_of, read_headed
from simulate.notation.site_stars import BRACKETS
from simulate.notation.site_text import SiteError, SiteInfo, Tournament, cards_of, parse_amount
from simulate.notation.site_zones import checked_time

__all__ = ["detect", "read"]

_START = re.compile(r"^\ufeff?(?:Bovada|Ignition|Bodog) Hand #\d+", re.M)
_HEAD = re.compile(
    r"^\ufeff?(?P<skin>Bovada|Ignition|Bodog) Hand #(?P<id>\d+):?\s+"
    r"(?:(?P<tgame>[A-Z][A-Za-z ]*?) Tournament #(?P<tid>\d+) TBL#(?P<ttable>\d+),?\s*"
    r"(?P<speed>[^-]*?)-\s*Level (?P<level>\d+) \((?P<lstakes>[^()]*)\)"
    r"|(?:TBL#(?P<table>\d+)|Zone Poker ID#(?P<zone>\d+))\s+(?P<game>.*?))"
    r"\s+-\s+(?P<date>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.*?)\s*\((?P<stack>[$€]?[0-9][0-9,.]*) in "
                   r"chips\)")
_LINE = re.compile(r"^(?P<name>[^:]+?)\s+:\s+(?P<what>.*?)\s*$")
_MONEY = r"[$€]?[0-9][0-9,]*(?:\.[0-9]+)?"
_amount = Wording(_MONEY).first  # the first amount of a line
_TO = re.compile(rf"(?P<inc>{_MONEY}) to (?P<to>{_MONEY})")
_TOTAL = re.compile(rf"^Total Pot\s*\((?P<a>{_MONEY})\)")
_ME = re.compile(r"\s*\[ME\]\s*")


def detect(head: str) -> bool:
    """Whether ``head`` starts a Bovada / Ignition / Bodog export."""
    return _HEAD.match(head) is not None


def read(text: str, source: str) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each hand of a Bovada-network document (see the module docstring)."""
    return read_headed(text, _START, _HEAD, "a Bovada hand header", _hand)


def _game(text: str) -> tuple[str, str]:
    t = text.lower()
    if "omaha" in t:
        game = "omaha_hilo" if "hilo" in t or "hi/lo" in t or "hi-lo" in t else "omaha"
    elif "holdem" in t or "hold'em" in t:
        game = "holdem"
    else:
        raise SiteError(f"unknown Bovada game {text!r}")
    # tournaments print no limit: Hold'em is no-limit, Omaha pot-limit
    return game, betting_of(t) or ("no-limit" if game == "holdem" else "pot-limit")


def _name(text: str) -> str:
    return " ".join(_ME.sub(" ", text).split())


def _hand(m: re.Match[str], lines: list[str], first: int) -> SiteHand:
    game, betting = _game(m["tgame"] or m["game"])
    stakes = Stakes()
    if m["lstakes"]:
        sb, _, bb = m["lstakes"].partition("/")
        stakes.small_blind, stakes.big_blind = parse_amount(sb), parse_amount(bb)
    tour = Tournament(m["tid"], None, m["level"]) if m["tid"] else None
    d, t = m["date"].split()
    info = SiteInfo(site=m["skin"].lower(), hand_id=m["id"], game=game, betting=betting,
                    table=m["ttable"] or m["table"] or m["zone"],
                    time=checked_time(f"{d}T{t}", first),
                    currency="chips" if tour else "USD", tournament=tour, line=first)
    hand = SiteHand(info=info, seats=[], stakes=stakes)
    payouts: list[tuple[str, Decimal, str | None, int]] = []

    def seat(s: str) -> bool:
        tm = _SEAT.match(s)
        if tm is None:
            return False
        name = _name(tm["name"])
        if "[ME]" in tm["name"]:
            info.hero = name
        hand.seats.append(Seat(int(tm["seat"]), name, parse_amount(tm["stack"])))
        return True

    def line(ledger: Ledger, s: str, ln: int) -> None:
        tm = _LINE.match(s)
        if tm:
            _action(ledger, payouts, _name(tm["name"]), tm["what"], ln)

    def summary(s: str, _: int) -> None:
        tm = _TOTAL.match(s)
        if tm:
            hand.total_pot = parse_amount(tm["a"])

    ledger, _ = read_body(hand, lines, first, seat=seat, line=line, summary=summary)
    if ledger is None:
        raise SiteError(f"line {first}: a hand without actions")
    # the export prints no rake and counts a blind nobody called as won: the ledger
    # derives both (module docstring)
    ledger.settle(payouts, None, first)
    printed = sum((a for _, a, _, _ in payouts), Decimal(0))
    if hand.total_pot is not None and hand.total_pot != printed + (hand.rake or 0):
        raise SiteError(f"line {first}: the total pot {hand.total_pot} is not the "
                        f"{printed} paid and the {hand.rake} rake")
    numbers = [seat.seat for seat in hand.seats]
    if numbers != sorted(numbers):
        # tournament seats carry ids, not places: the listing is the table's order
        for k, seat in enumerate(hand.seats, start=1):
            seat.seat = k
    hand.button = next((seat.seat for seat in hand.seats if seat.name == "Dealer"), None)
    return hand


def _action(ledger: Ledger, payouts: list[tuple[str, Decimal, str | None, int]], name: str,
            what: str, ln: int) -> None:
    """One ``NAME : VERB ...`` line (see the module docstring)."""
    verb = what.lower()
    stakes = ledger.hand.stakes
    if verb.startswith("small blind"):
        a = _amount(what[11:])
        stakes.small_blind = stakes.small_blind or a
        ledger.forced("small_blind", name, a, ln)
    elif verb.startswith("big blind"):
        a = _amount(what[9:])
        stakes.big_blind = stakes.big_blind or a
        ledger.forced("big_blind", name, a, ln)
    elif verb.startswith("ante chip"):
        ledger.forced("ante", name, _amount(what[9:]), ln)
    elif verb.startswith("posts dead chip"):
        ledger.forced("dead", name, _amount(what[15:]), ln)
    elif verb.startswith("posts chip"):
        ledger.forced("post", name, _amount(what[10:]), ln)
    elif verb.startswith("card dealt to a spot"):
        g = BRACKETS.search(what)
        if g:
            ledger.event("hole", name, ln, cards_of(g.group(1)))
    elif verb.startswith("fold"):
        ledger.event("fold", name, ln)
    elif verb.startswith("check"):
        ledger.event("check", name, ln)
    elif verb.startswith("call"):
        ledger.added("call", name, _amount(re.sub(r"^\w+(\([^)]*\))?", "", what)), ln)
    elif verb.startswith("bets"):
        ledger.added("bet", name, _amount(what[4:]), ln)
    elif verb.startswith("raises") or verb.startswith("all-in(raise)"):
        r = _TO.search(what)
        if r is None:
            raise SiteError(f"a raise without its total: {what!r}")
        ledger.raise_to(name, parse_amount(r["to"]), ln)
    elif verb.startswith("all-in"):
        ledger.added("allin", name, _amount(what[6:]), ln)
    elif verb.startswith("return uncalled portion of bet"):
        ledger.uncalled(name, _amount(what[30:]), ln)
    elif verb.startswith(("showdown", "does not show", "mucks")):
        # the last player in "shows" or "does not show" too (wins uncontested): no showdown
        dealt = {e.player for e in ledger.hand.events if e.kind == "hole"}
        if len(dealt - ledger.folded) > 1:
            ledger.event("show" if verb.startswith("showdown") else "muck", name, ln)
    elif verb.startswith("hand result"):
        side = "side pot" in verb
        payouts.append((name, _amount(re.sub(r"(?i)^hand result(-side pot)?", "", what)),
                        "side pot" if side else "main pot", ln))
