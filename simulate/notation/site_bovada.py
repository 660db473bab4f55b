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

The export prints no rake: it is what the pot held beyond the collections (``Total Pot``
less what was collected; a hand whose summary is missing, as some Zone hands are: what was
committed less what was collected).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

from simulate.notation.site_hand import Event, Seat, SiteHand, Stakes
from simulate.notation.site_text import (
    SiteError,
    SiteInfo,
    Tournament,
    card_text,
    parse_amount,
    split_hands,
)

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
_AMOUNT = re.compile(rf"(?P<a>{_MONEY})")
_TO = re.compile(rf"(?P<inc>{_MONEY}) to (?P<to>{_MONEY})")
_CARDS = re.compile(r"\[([^\]]*)\]")
_BOARD = re.compile(r"^\*\*\* (?P<street>FLOP|TURN|RIVER) \*\*\*")
_TOTAL = re.compile(rf"^Total Pot\s*\((?P<a>{_MONEY})\)")
_ME = re.compile(r"\s*\[ME\]\s*")


def detect(head: str) -> bool:
    """Whether ``head`` starts a Bovada / Ignition / Bodog export."""
    return _HEAD.match(head) is not None


def read(text: str, source: str) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each hand of a Bovada-network document (see the module docstring)."""
    for line, chunk in split_hands(text, _START):
        try:
            yield line, _hand(chunk, line)
        except SiteError as exc:
            yield line, exc


def _game(text: str) -> tuple[str, str]:
    t = text.lower()
    if "omaha" in t:
        game = "omaha_hilo" if "hilo" in t or "hi/lo" in t or "hi-lo" in t else "omaha"
    elif "holdem" in t or "hold'em" in t:
        game = "holdem"
    else:
        raise SiteError(f"unknown Bovada game {text!r}")
    if "pot limit" in t:
        betting = "pot-limit"
    elif "no limit" in t:
        betting = "no-limit"
    elif "limit" in t:
        betting = "fixed-limit"
    else:  # tournaments print no limit: Hold'em is no-limit, Omaha pot-limit
        betting = "no-limit" if game == "holdem" else "pot-limit"
    return game, betting


def _amount(rest: str) -> Decimal:
    m = _AMOUNT.search(rest)
    if m is None:
        raise SiteError(f"no amount in {rest.strip()!r}")
    return parse_amount(m["a"])


def _name(text: str) -> str:
    return " ".join(_ME.sub(" ", text).split())


def _hand(chunk: str, first: int) -> SiteHand:
    lines = chunk.split("\n")
    m = _HEAD.match(lines[0])
    if m is None:
        raise SiteError(f"line {first}: not a Bovada hand header")
    game, betting = _game(m["tgame"] or m["game"])
    stakes = Stakes()
    if m["lstakes"]:
        sb, _, bb = m["lstakes"].partition("/")
        stakes.small_blind, stakes.big_blind = parse_amount(sb), parse_amount(bb)
    tour = Tournament(m["tid"], None, m["level"]) if m["tid"] else None
    d, t = m["date"].split()
    info = SiteInfo(site=m["skin"].lower(), hand_id=m["id"], game=game, betting=betting,
                    table=m["ttable"] or m["table"] or m["zone"], time=f"{d}T{t}",
                    currency="chips" if tour else "USD", tournament=tour, line=first)
    hand = SiteHand(info=info, seats=[], stakes=stakes)
    ev = hand.events
    street: dict[str, Decimal] = {}
    summary = False
    for i, raw in enumerate(lines[1:], start=1):
        ln = first + i
        s = raw.strip()
        if not s:
            continue
        try:
            if summary:
                tm = _TOTAL.match(s)
                if tm:
                    hand.total_pot = parse_amount(tm["a"])
                continue
            if s.startswith("*** SUMMARY"):
                summary = True
                continue
            if s.startswith("Seat ") and not ev:
                tm = _SEAT.match(s)
                if tm:
                    name = _name(tm["name"])
                    if "[ME]" in tm["name"]:
                        info.hero = name
                    hand.seats.append(Seat(int(tm["seat"]), name, parse_amount(tm["stack"])))
                    if name == "Dealer":
                        hand.button = int(tm["seat"])
                    continue
            b = _BOARD.match(s)
            if b:
                groups = _CARDS.findall(s)
                if not groups:
                    raise SiteError("a board without cards")
                ev.append(Event("board", cards=tuple(card_text(c) for c in groups[-1].split()),
                                line=ln))
                street = {}
                continue
            if s.startswith("***"):
                continue
            tm = _LINE.match(s)
            if tm:
                _action(ev, street, _name(tm["name"]), tm["what"], ln)
        except SiteError as exc:
            msg = str(exc)
            raise SiteError(msg if msg.startswith("line ") else f"line {ln}: {msg}") from None
    if not hand.seats:
        raise SiteError(f"line {first}: a hand without seats")
    numbers = [seat.seat for seat in hand.seats]
    if numbers != sorted(numbers):
        # tournament seats carry ids, not places: the listing is the table's order
        for k, seat in enumerate(hand.seats, start=1):
            seat.seat = k
            if seat.name == "Dealer":
                hand.button = k
    names = {seat.name for seat in hand.seats}
    for e in ev:
        if e.player is not None and e.player not in names:
            raise SiteError(f"line {e.line}: {e.player!r} acts but has no seat")
    took = sum(hand.collected().values(), Decimal(0))
    pot = hand.total_pot
    if pot is None:
        pot = sum(hand.committed().values(), Decimal(0))
    hand.rake = max(pot - took, Decimal(0))
    hand.return_uncalled_collected()  # a blind nobody called comes back inside "Hand result"
    if stakes.big_blind is None:
        blinds = {e.kind: e.amount for e in ev if e.kind in ("small_blind", "big_blind")}
        stakes.small_blind, stakes.big_blind = blinds.get("small_blind"), blinds.get("big_blind")
    return hand


def _action(ev: list[Event], street: dict[str, Decimal], name: str, what: str, ln: int) -> None:
    """One ``NAME : VERB ...`` line (see the module docstring)."""
    verb = what.lower()

    def put(kind: str, x: Decimal, total: Decimal | None = None, allin: bool = False) -> None:
        street[name] = total if total is not None else street.get(name, Decimal(0)) + x
        ev.append(Event(kind, name, total if total is not None else x, line=ln, allin=allin))

    if verb.startswith("small blind"):
        put("small_blind", _amount(what[11:]))
    elif verb.startswith("big blind"):
        put("big_blind", _amount(what[9:]))
    elif verb.startswith("ante chip"):
        ev.append(Event("ante", name, _amount(what[9:]), line=ln))
    elif verb.startswith("posts dead chip"):
        ev.append(Event("dead", name, _amount(what[15:]), line=ln))
    elif verb.startswith("posts chip"):
        put("post", _amount(what[10:]))
    elif verb.startswith("card dealt to a spot"):
        g = _CARDS.search(what)
        if g:
            ev.append(Event("hole", name, cards=tuple(card_text(c) for c in g.group(1).split()),
                            line=ln))
    elif verb.startswith("fold"):
        ev.append(Event("fold", name, line=ln))
    elif verb.startswith("check"):
        ev.append(Event("check", name, line=ln))
    elif verb.startswith("call"):
        put("call", _amount(re.sub(r"^\w+(\([^)]*\))?", "", what)))
    elif verb.startswith("bets"):
        put("bet", _amount(what[4:]))
    elif verb.startswith("raises") or verb.startswith("all-in(raise)"):
        r = _TO.search(what)
        if r is None:
            raise SiteError(f"a raise without its total: {what!r}")
        put("raise", Decimal(0), parse_amount(r["to"]), allin=verb.startswith("all-in"))
    elif verb.startswith("all-in"):
        a = _amount(what[6:])
        top = max(street.values(), default=Decimal(0))
        total = street.get(name, Decimal(0)) + a
        if total <= top:
            put("call", a, allin=True)
        elif top == 0:
            put("bet", a, allin=True)
        else:
            put("raise", Decimal(0), total, allin=True)
    elif verb.startswith("return uncalled portion of bet"):
        a = _amount(what[30:])
        street[name] = street.get(name, Decimal(0)) - a
        ev.append(Event("uncalled", name, a, line=ln))
    elif verb.startswith(("showdown", "does not show", "mucks")):
        # the last player in "shows" or "does not show" too (wins uncontested): no showdown
        folded = {e.player for e in ev if e.kind == "fold"}
        if len({e.player for e in ev if e.kind == "hole"} - folded) > 1:
            ev.append(Event("show" if verb.startswith("showdown") else "muck", name, line=ln))
    elif verb.startswith("hand result"):
        side = "side pot" in verb
        ev.append(Event("collect", name, _amount(re.sub(r"(?i)^hand result(-side pot)?", "",
                                                         what)),
                        line=ln, pot="side pot" if side else "main pot"))
