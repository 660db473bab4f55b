"""PartyPoker hand histories (the client's text export, 2012-2018 versions).

The grammar (one hand; ``#Game No : N`` may come first, ``Game #N starts.`` last)::

    ***** Hand History for Game 13550319286 *****
    $0.05/$0.10 USD NL Texas Hold'em - Monday, January 06, 04:15:12 EST 2014
    $200 USD PL Omaha - Monday, October 12, 01:01:01 CEST 2015        (the table's size only)
    $0.05/$0.10 USD FL Texas Hold'em - ...                             (fixed limit: the BETS)
    NL Texas Hold'em $22 USD Buy-in Trny:125049467 Level:12  Blinds-Antes(1.200/2.400 -400) - ...
    NL Texas Hold'em $1 USD Buy-in  - Sunday, July 24, 19:32:00 CEST 2016     (then, later:)
    Trny: 128487129 Level: 1
    Blinds(10/20)
    Table Cádiz (Real Money)
    Seat 3 is the button
    Total number of players : 9/9
    Seat 2: Bavariared ( $12.22 USD )                                 (seats in any order)
    X posts small blind [$0.05 USD].   X posts big blind [$0.10 USD].   X posts ante [400]
    X posts big blind + dead [$3].                                     (live big blind + dead)
    ** Dealing down cards **
    Dealt to X [  Th Kh ]
    X folds | checks | calls [$0.10 USD] | bets [$0.10 USD] | raises [$2 USD]
    X is all-In  [$4.90 USD]
    ** Dealing Flop ** [ Qs, 7h, 2s ]                                  (Turn, River)
    X shows [ 8c, 8d ]three of a kind, Eights.   X doesn't show [ Jc, Jd ]a pair of Jacks.
    X does not show cards.
    X wins $0.53 USD   X wins $1.87 USD from the side pot 1 with ...   X wins 6,000 chips

Meanings, proved on the samples by :class:`~simulate.notation.site_ledger.Ledger`'s
checks: ``calls``, ``bets``, ``raises`` and ``is all-In`` print what the player ADDS (after
a $1 big blind, ``raises [$2 USD]`` makes $3, and the next caller ``calls [$2 USD]``); a
reader that took the raise as a total would find those calls wrong, and the ledger says
so, naming the line. No uncalled bet is printed: the bet nobody called comes back in the
"wins" (as a "side pot" where there are pots), so the ledger takes it out of the winner's
payout. "wins" is after the rake, which is not printed (derived). The time has a zone
(``EST``, ``CEST``, ``MSK``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from decimal import Decimal

from simulate.notation.site_hand import Seat, SiteHand, Stakes
from simulate.notation.site_ledger import Ledger
from simulate.notation.site_read import body_lines, read_hands
from simulate.notation.site_text import SiteError, SiteInfo, Tournament, cards_of, parse_amount
from simulate.notation.site_zones import iso_time

__all__ = ["detect", "read"]

_HEAD = re.compile(r"^\*\*\*\*\* Hand History [Ff]or Game (\d+) \*\*\*\*\*", re.M)
_START = re.compile(r"^(?:#Game No : \d+ *\n)?\*\*\*\*\* Hand History [Ff]or Game \d+ \*+",
                    re.M)
_GAME = r"(?P<limit>NL|PL|FL) (?P<game>Texas Hold'em|Omaha Hi-Lo|Omaha|[^-$]+?)"
_WHEN = (r" - \w+, (?P<mon>\w+) (?P<day>\d+), (?P<t>\d\d:\d\d:\d\d) (?P<zone>\S+) "
         r"(?P<y>\d{4})$")
_CASH = re.compile(r"^(?P<stakes>\S.*?) (?P<cur>USD|EUR|GBP|CAD)? ?" + _GAME + _WHEN)
_TOURNEY = re.compile(r"^" + _GAME + r" (?P<buyin>.+?) Buy-in(?: Trny: ?(?P<id>\d+) "
                      r"Level: ?(?P<level>\d+)\s+Blinds(?:-Antes)?\((?P<blinds>[^)]*)\))?"
                      r"\s*" + _WHEN)
#: A tournament's id and level on a line of their own (when the header leaves them out).
_TRNY = re.compile(r"^Trny: ?(?P<id>\d+) Level: ?(?P<level>\d+)$")
_TABLE = re.compile(r"^Table (?P<name>.+?) \((?:Real|Play) Money\)$")
_SEAT = re.compile(r"^Seat (\d+): (.+?) \( ?(.+?) ?\)$")
_PLAYERS = re.compile(r"^Total number of players : (\d+)(?:/(\d+))?$")
_ACTION = re.compile(
    r"^(?P<p>.+?) (?P<v>folds|checks|calls|bets|raises|is all-In|posts ante|"
    r"posts small blind|posts big blind \+ dead|posts big blind|posts dead small blind|"
    r"shows|doesn't show|does not show cards\.|wins)"
    r"(?: +\[ *(?P<a>[^\]]*?) *\])?\.?(?P<rest>.*)$")
_WINS = re.compile(r"^(?P<a>.+?)(?: chips)?(?: from the (?P<pot>main pot|side pot ?\d*))?"
                   r"(?: with .*)?\.?$")
_DEALT = re.compile(r"^Dealt to (?P<p>.+?) \[ *(?P<c>[^\]]*?) *\]$")
_BOARD = re.compile(r"^\*\* Dealing (Flop|Turn|River) \*\* \[ *([^\]]*?) *\]$")
#: Lines that say nothing about the chips or the cards.
_NOISE = re.compile(
    r"^(?:Game #\d+ starts\.|#Game No : \d+|Trny: ?\d+ Level: ?\d+|Blinds(?:-Antes)?\(.*\)|"
    r"Your time bank .*|Due to .*|Player .+ finished in \d+\.?|"
    r".+ (?:has left the table\.|has joined the table\.|will be using (?:their|his|her) "
    r"time bank for this hand\.|did not respond in time\.?|could not respond in time\..*|"
    r"is sitting out\.?|is disconnected\..*|has been reconnected.*|"
    r"shows[\dA,]+ +for low\.|has returned\.?|is sitting in\.?))$")
_GAMES = {"texas hold'em": "holdem", "omaha": "omaha", "omaha hi-lo": "omaha_hilo"}
_BETTING = {"NL": "no-limit", "PL": "pot-limit", "FL": "fixed-limit"}
_MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"], 1)}


def detect(head: str) -> bool:
    """A PartyPoker hand history (its header names no site: the grammar decides)."""
    m = _HEAD.search(head)
    if m is None:
        return False
    nxt = head[m.end():].lstrip("\n").split("\n", 1)[0]
    return bool(_CASH.match(nxt) or _TOURNEY.match(nxt))


def read(text: str, source: str) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each hand of a PartyPoker document (see the module docstring)."""
    return read_hands(text, _START, _hand)


def _hand(chunk: str, first: int) -> SiteHand:
    lines = chunk.split("\n")
    if lines[0].startswith("#Game No"):
        lines, first = lines[1:], first + 1
    m = _HEAD.match(lines[0])
    if m is None or len(lines) < 3:
        raise SiteError(f"line {first}: not a PartyPoker hand header")
    head = lines[1].strip()
    cash, tour = _CASH.match(head), _TOURNEY.match(head)
    h = cash or tour
    if h is None:
        raise SiteError(f"line {first + 1}: not a PartyPoker game line: {head[:80]!r}")
    game = _GAMES.get(h["game"].strip().lower())
    if game is None:
        raise SiteError(f"line {first + 1}: unknown game {h['game']!r}")
    betting = _BETTING[h["limit"]]
    month = _MONTHS.get(h["mon"].lower())
    if month is None:
        raise SiteError(f"line {first + 1}: unknown month {h['mon']!r}")
    try:
        when = datetime(int(h["y"]), month, int(h["day"]),
                        *(int(x) for x in h["t"].split(":")))
        stamp = iso_time(when, h["zone"])
    except ValueError as exc:
        raise SiteError(f"line {first + 1}: {exc}") from None
    stakes = Stakes()
    currency = "chips"
    tournament = None
    if cash:
        currency = cash["cur"] or ("EUR" if "€" in cash["stakes"] else "USD")
        parts = cash["stakes"].split("/")
        if len(parts) == 2:
            lo, hi = parse_amount(parts[0]), parse_amount(parts[1])
            if betting == "fixed-limit":
                stakes.small_bet, stakes.big_bet = lo, hi
            else:
                stakes.small_blind, stakes.big_blind = lo, hi
    else:
        assert tour is not None
        tid, level = tour["id"], tour["level"]
        if tid is None:  # "... $1 USD Buy-in  - Sunday, ...": the id on a later line
            trny = next((m for ln in lines[2:] if (m := _TRNY.match(ln.strip()))), None)
            if trny is None:
                raise SiteError(f"line {first + 1}: a tournament hand without its id")
            tid, level = trny["id"], trny["level"]
        tournament = Tournament(tid, tour["buyin"].strip(), level)
    t = _TABLE.match(lines[2].strip())
    if t is None:
        raise SiteError(f"line {first + 2}: not a PartyPoker table line")
    info = SiteInfo("partypoker", m.group(1), game, betting, table=t["name"], time=stamp,
                    currency=currency, tournament=tournament, line=first)
    hand = SiteHand(info, [], stakes)
    body = list(body_lines(lines[2:], first + 2))
    for _no, s in body:
        if (b := re.match(r"^Seat (\d+) is the button$", s)):
            hand.button = int(b.group(1))
        elif (n := _PLAYERS.match(s)):
            hand.max_seats = int(n.group(2)) if n.group(2) else None
        elif (seat := _SEAT.match(s)):
            hand.seats.append(Seat(int(seat.group(1)), seat.group(2),
                                   parse_amount(seat.group(3))))
    hand.seats.sort(key=lambda x: x.seat)
    names = sorted((x.name for x in hand.seats), key=len, reverse=True)
    led = Ledger(hand)
    payouts: list[tuple[str, Decimal, str | None, int]] = []
    last = first
    for no, s in body:
        last = no
        if (s.startswith(("Seat ", "Total number of players"))
                or s == "** Dealing down cards **" or _NOISE.match(s)):
            continue
        if led.cards_line(s, no, _DEALT, _BOARD):
            continue
        a = _ACTION.match(s)
        if a is None:
            if any(s.startswith(f"{x}: ") for x in names):
                continue  # a chat line
            raise SiteError(f"line {no}: not a PartyPoker line: {s[:80]!r}")
        p, v, amt = a["p"], a["v"], a["a"]
        if v == "posts big blind + dead":
            total = parse_amount(amt or "")
            big = stakes.big_blind or next(
                (e.amount for e in hand.events if e.kind == "big_blind"), None)
            if big is None or big > total:
                raise SiteError(f"line {no}: a big blind + dead post with no big blind known")
            led.forced("post", p, big, no)
            if total - big:
                led.forced("dead", p, total - big, no)
        elif v == "posts dead small blind":
            led.forced("dead", p, parse_amount(amt or ""), no)
        elif v.startswith("posts "):
            kind = {"posts ante": "ante", "posts small blind": "small_blind",
                    "posts big blind": "big_blind"}[v]
            x = parse_amount(amt or "")
            led.forced(kind, p, x, no)
            if kind == "small_blind" and stakes.small_blind is None:
                stakes.small_blind = x
            elif kind == "big_blind" and stakes.big_blind is None:
                stakes.big_blind = x
            elif kind == "ante" and stakes.ante is None:
                stakes.ante = x
        elif v in ("folds", "checks"):
            led.event("fold" if v == "folds" else "check", p, no)
        elif v in ("calls", "bets", "raises"):
            led.added(v[:-1], p, parse_amount(amt or ""), no)
        elif v == "is all-In":
            led.added("allin", p, parse_amount(amt or ""), no)
        elif v == "shows":
            led.event("show", p, no, cards_of(amt or ""))
        elif v == "doesn't show":
            led.event("muck", p, no, cards_of(amt or ""))
        elif v == "wins":
            w = _WINS.match(re.sub(r"^(?:Hi|Lo) \((.*?)\)", r"\1", a["rest"].strip()))
            if w is None:
                raise SiteError(f"line {no}: not a PartyPoker payout: {s[:80]!r}")
            payouts.append((p, parse_amount(w["a"]), w["pot"], no))
        # "does not show cards.": nothing to record
    if not payouts:
        raise SiteError(f"line {last}: the hand ends before anyone wins (truncated)")
    if betting == "fixed-limit" and stakes.small_bet is None:
        stakes.small_bet = stakes.big_blind
    led.settle(payouts, None, last, paid_back=True)
    return hand
