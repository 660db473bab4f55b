"""Winamax hand histories (cash games, sit & go and tournaments).

The grammar, line by line (amounts in euros ``0.50€`` at cash tables, chips in
tournaments):

- header ``Winamax Poker - CashGame - HandId: #A-B-C - Holdem no limit (SB€/BB€) - DATE UTC``
  or ``Winamax Poker - Tournament "NAME" buyIn: €4.50 + €0.50 level: 4 - HandId: #... -
  Holdem no limit (ANTE/SB/BB) - DATE UTC`` (``(SB/BB)`` without antes; other kinds of
  event, such as ``Go Fast`` or ``Expresso``, the same); the table line ``Table: 'NAME'
  6-max (real money) Seat #N is the button``; seats ``Seat N: NAME (X€)``;
- ``*** ANTE/BLINDS ***`` then ``NAME posts ante X``, ``posts small blind X``,
  ``posts big blind X``; ``... out of position``: a small blind posted out of position is
  dead money, a big blind a live post;
- ``Dealt to NAME [cards]`` (the hero), actions ``folds``, ``checks``, ``calls X`` (what
  it adds), ``bets X``, ``raises X to Y`` (Y: the street total), ``and is all-in``;
- boards ``*** FLOP *** [..]``, ``*** TURN *** [..][Qs]``; ``*** SHOW DOWN ***``;
  ``NAME shows [..] (...)``, ``NAME collected X from pot`` (or ``main pot``, ``side pot N``);
- summary ``Total pot X | Rake Y`` or ``| No rake``.

The amounts go through the betting ledger (:class:`~simulate.notation.site_ledger.Ledger`:
calls and bets add, raises set the street total, each checked against the betting and the
stacks). The exports print no line for an uncalled bet: the bet comes back inside the
winner's ``collected`` amount. The ledger returns the unmatched part of each street's
largest bet itself and takes it out of the winner's collection where the printed amounts
hold it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

from simulate.notation.site_body import read_body
from simulate.notation.site_hand import Seat, SiteHand, Stakes
from simulate.notation.site_ledger import Ledger, Wording
from simulate.notation.site_read import betting_of, read_headed, table_line
from simulate.notation.site_text import SiteError, SiteInfo, Tournament, cards_of, parse_amount
from simulate.notation.site_zones import checked_time

__all__ = ["detect", "read"]

_START = re.compile(r"^\ufeff?\w+ Poker - .*HandId: #", re.M)
_HEAD = re.compile(
    r"^\ufeff?Winamax Poker - (?P<kind>CashGame|Tournament|[^-]*?)"
    r"(?: \"(?P<tname>[^\"]*)\")?(?: buyIn: (?P<buyin>.*?))?(?: level: (?P<level>\S+))?"
    r" - HandId: #(?P<id>[0-9-]+) - (?P<game>.*?) \((?P<stakes>[^()]*)\) - "
    r"(?P<date>\d{4}/\d\d/\d\d \d\d:\d\d:\d\d)(?: (?P<zone>\w+))?")
_TABLE = re.compile(r"^Table: '(?P<table>.*)' (?P<max>\d+)-max(?P<rest>.*?)"
                    r"(?: Seat #(?P<button>\d+) is the button)?$")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.*) \((?P<stack>[^()]*?)(?:, [^()]*)?\)$")
_ACT = re.compile(r"^(?P<name>.+?) (?P<verb>posts small blind|posts big blind|posts ante|"
                  r"folds|checks|calls|bets|raises|shows|mucks|collected)\b(?P<rest>.*)$")
_MONEY = r"[€$£]?[0-9](?:[0-9,.]|[ \u00a0\u202f](?=[0-9]{3}\b))*[€$£]?"
_WORDS = Wording(_MONEY)
_amount = _WORDS.first  # the first amount of a line
_DEALT = re.compile(r"^Dealt to (?P<name>.+?) \[(?P<cards>[^\]]*)\]")
_TOTAL = re.compile(rf"^Total pot (?P<pot>{_MONEY})(?: \| (?:Rake (?P<rake>{_MONEY})|No rake))?")


def detect(head: str) -> bool:
    """Whether ``head`` starts a Winamax export (``Winamax Poker - ... HandId: #...``; a
    damaged first word is still taken, so that the hand is reported, not skipped)."""
    first = head.split("\n", 1)[0]
    return bool(re.match(r"^\w+ Poker - (?:CashGame|Tournament|Go Fast|Expresso|Sit)", first)
                and "HandId: #" in first)


def read(text: str, source: str) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each hand of a Winamax document (see the module docstring)."""
    return read_headed(text, _START, _HEAD, "a Winamax hand header", _hand)


def _game(text: str) -> tuple[str, str]:
    t = text.lower()
    betting = betting_of(t) or "no-limit"
    hilo = "hi/lo" in t or "hi-lo" in t
    if "omaha" in t:
        five = re.search(r"\b5[- ]card", t) is not None
        six = re.search(r"\b6[- ]card", t) is not None
        game = "omaha5" if five else "omaha6" if six else "omaha"
        if hilo:
            game = "omaha5_hilo" if five else "omaha_hilo"
    elif "holdem" in t or "hold'em" in t:
        game = "short_deck" if "short" in t or "6+" in t else "holdem"
    else:
        raise SiteError(f"unknown Winamax game {text!r}")
    return game, betting


def _hand(m: re.Match[str], lines: list[str], first: int) -> SiteHand:
    game, betting = _game(m["game"])
    cash = m["kind"] == "CashGame"
    amounts = [parse_amount(p) for p in m["stakes"].split("/") if p.strip()]
    stakes = Stakes()
    if len(amounts) >= 3:
        stakes.ante, stakes.small_blind, stakes.big_blind = amounts[-3:]
    elif len(amounts) == 2:
        stakes.small_blind, stakes.big_blind = amounts
    tour = None
    if not cash:
        tour = Tournament(m["tname"] or m["kind"].strip(), m["buyin"], m["level"])
    d, t = m["date"].split(" ")
    zone = "+00:00" if (m["zone"] or "UTC") in ("UTC", "GMT") else ""
    info = SiteInfo(site="winamax", hand_id=m["id"], game=game, betting=betting,
                    time=checked_time(f"{d.replace('/', '-')}T{t}{zone}", first),
                    currency="EUR" if cash and "€" in m["stakes"] else
                    ("chips" if not cash else "EUR"), tournament=tour, line=first)
    hand = SiteHand(info=info, seats=[], stakes=stakes)
    payouts: list[tuple[str, Decimal, str | None, int]] = []

    def table(s: str) -> bool:
        if not s.startswith("Table: "):
            return False
        tm = table_line(hand, _TABLE, s)
        if tm:
            if "play money" in tm["rest"]:
                info.currency = "chips"
            tid = re.search(r"\((\d+)\)#", tm["table"])
            if info.tournament is not None and tid:  # the event's id, in the table
                info.tournament = Tournament(tid.group(1), info.tournament.buy_in,
                                             info.tournament.level)
        return True

    def seat(s: str) -> bool:
        tm = _SEAT.match(s)
        if tm is None:
            return False
        st = tm["stack"].strip()  # ``()``: a seat sitting out
        hand.seats.append(Seat(int(tm["seat"]), tm["name"],
                               parse_amount(st) if st else Decimal(0), bool(st)))
        return True

    def line(ledger: Ledger, s: str, ln: int) -> None:
        tm = _DEALT.match(s)
        if tm:
            info.hero = tm["name"]
            ledger.event("hole", tm["name"], ln, cards_of(tm["cards"]))
        elif tm := _WORDS.uncalled.match(s):
            ledger.uncalled(tm["name"], parse_amount(tm["a"]), ln)
        elif tm := _ACT.match(s):
            _action(ledger, payouts, tm["name"], tm["verb"], tm["rest"], ln)

    def total(s: str, _: int) -> None:
        tm = _TOTAL.match(s)
        if tm:
            hand.total_pot = parse_amount(tm["pot"])
            hand.rake = parse_amount(tm["rake"]) if tm["rake"] else Decimal(0)

    ledger, summary = read_body(hand, lines, first, head=table, seat=seat, line=line,
                                summary=total, skip=("*** ANTE", "*** PRE-FLOP"))
    if not summary:
        raise SiteError(f"line {first}: the hand has no summary (cut short?)")
    if ledger is None:
        raise SiteError(f"line {first}: a hand without actions")
    # no line for an uncalled bet: the ledger returns it, and takes it out of the winner's
    # "collected" where that holds it (module docstring)
    ledger.settle(payouts, hand.rake or Decimal(0), first)
    return hand


def _action(ledger: Ledger, payouts: list[tuple[str, Decimal, str | None, int]], name: str,
            verb: str, rest: str, ln: int) -> None:
    oop = "out of position" in rest
    if verb == "posts small blind":
        ledger.forced("dead" if oop else "small_blind", name, _amount(rest), ln)
    elif verb == "posts big blind":
        ledger.forced("post" if oop else "big_blind", name, _amount(rest), ln)
    elif verb == "posts ante":
        ledger.forced("ante", name, _amount(rest), ln)
    else:
        ledger.said(_WORDS, verb, name, rest, ln, payouts)
