"""Entraction network hand histories (column-aligned text, 2012).

The grammar (one hand)::

    Game # 2645975604 - Texas Hold'em No Limit EUR 0.50/1.00 - Table "Aguilas"

    Players(max 6):
    GrossoGatto                 (EUR 100.00 in seat 4)

    Dealer:                     GrossoGatto
    Small Blind:                ORFEO       (0.50)
    Big Blind:                  GrossoGatto (1.00)

    ORFEO                       Raise       (2.50)           (Check, Fold, Call, Bet, All-In)
    GrossoGatto                 Payback     (10.50)          (the uncalled bet returned)

    Flop                        6d - 8d - 9h                 (Turn, River: the whole board)

    X shows:                    7d - 8s - 9d - Th
    X didn't show hand (Jd - Qh - 9s - Ac)
    X wins:                     EUR 13.30
    Rake:                       EUR 0.70

    Game ended 2012-05-30 15:49:35 GMT+01:00

Meanings (the chip check proves them: every amount is printed, the rake and the
returns included): ``Call``, ``Bet``, ``Raise`` and ``All-In`` give what the player ADDS
(after a 0.50 small blind, ``Raise (2.50)`` makes 3.00, and the big blind's ``Call (2.00)``
matches it); ``wins`` is after the rake. Fixed-limit headers give the bets (``1.00/2.00``:
blinds 0.50/1.00). The time is the hand's end, with its offset (some files stop after
the rake line: no time then).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from decimal import Decimal

from simulate.notation.site_hand import Seat, SiteHand, Stakes
from simulate.notation.site_ledger import Ledger
from simulate.notation.site_read import body_lines, read_hands, site_line
from simulate.notation.site_text import SiteError, SiteInfo, card_text, parse_amount
from simulate.notation.site_zones import iso_time

__all__ = ["detect", "read"]

_HEAD = re.compile(r"^Game # (?P<id>\d+) - (?P<game>.+?) (?P<limit>No Limit|Pot Limit|"
                   r"Fixed Limit) (?P<cur>[A-Z]{3}) (?P<lo>[\d.,]+)/(?P<hi>[\d.,]+) - "
                   r"Table \"(?P<table>.*)\"$", re.M)
_START = re.compile(r"^Game # \d+ - ", re.M)
_MAX = re.compile(r"^Players\(max (\d+)\):$")
_SEAT = re.compile(r"^(?P<p>.+?)\s+\((?P<cur>[A-Z]{3}) (?P<a>[\d,.]+) in seat (?P<s>\d+)\)$")
_ROLE = re.compile(r"^(?P<r>Dealer|Small Blind|Big Blind|Ante|Dead Blind|Posted):\s+"
                   r"(?P<p>.+?)(?:\s+\((?P<a>[\d,.]+)\))?$")
_ACTION = re.compile(r"^(?P<p>.+?)\s+(?P<v>Check|Fold|Call|Bet|Raise|All-In|Payback)"
                     r"(?:\s+\((?P<a>[\d,.]+)\))?$")
_BOARD = re.compile(r"^(?P<s>Flop|Turn|River)\s+(?P<c>\S.*)$")
_SHOW = re.compile(r"^(?P<p>.+?) shows:\s+(?P<c>.+)$")
_MUCK = re.compile(r"^(?P<p>.+?) didn't show hand(?: \((?P<c>[^)]*)\))?$")
_WINS = re.compile(r"^(?P<p>.+?) wins:\s+(?P<a>.+)$")
_RAKE = re.compile(r"^Rake:\s+(?P<a>.+)$")
_END = re.compile(r"^Game ended (?P<t>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(?: (?P<z>\S+))?$")
_GAMES = {"texas hold'em": "holdem", "omaha high": "omaha", "omaha": "omaha",
          "omaha hi/lo": "omaha_hilo", "5-card omaha high": "omaha5",
          "5-card omaha hi/lo": "omaha5_hilo", "6-card omaha high": "omaha6"}
_BETTING = {"No Limit": "no-limit", "Pot Limit": "pot-limit", "Fixed Limit": "fixed-limit"}


def detect(head: str) -> bool:
    """An Entraction hand history."""
    return bool(_HEAD.search(head))


def _cards(text: str) -> tuple[str, ...]:
    return tuple(card_text(c) for c in text.split(" - ") if c.strip())


def read(text: str, source: str) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each hand of an Entraction document (see the module docstring)."""
    return read_hands(text, _START, _hand)


def _hand(chunk: str, first: int) -> SiteHand:
    lines = chunk.rstrip("\n").split("\n")
    h = _HEAD.match(lines[0].strip())
    if h is None:
        raise SiteError(f"line {first}: not an Entraction hand header")
    game = _GAMES.get(h["game"].lower())
    if game is None:
        raise SiteError(f"line {first}: unknown game {h['game']!r}")
    betting = _BETTING[h["limit"]]
    stakes = Stakes.of_two(parse_amount(h["lo"]), parse_amount(h["hi"]), betting,
                           bet_blinds=False)
    info = SiteInfo("entraction", h["id"], game, betting, table=h["table"],
                    currency=h["cur"], line=first)
    hand = SiteHand(info, [], stakes)
    body = list(body_lines(lines, first))
    dealer = None
    for _no, s in body:
        if (m := _MAX.match(s)):
            hand.max_seats = int(m.group(1))
        elif (seat := _SEAT.match(s)):
            hand.seats.append(Seat(int(seat["s"]), seat["p"], parse_amount(seat["a"])))
        elif (r := _ROLE.match(s)) and r["r"] == "Dealer":
            dealer = r["p"]
    hand.seats.sort(key=lambda x: x.seat)
    if dealer is not None:
        hand.button = next((x.seat for x in hand.seats if x.name == dealer), None)
    led = Ledger(hand, returns_printed=True)
    payouts: list[tuple[str, Decimal, str | None, int]] = []
    rake = None
    shown = 0
    last = first
    for no, s in body:
        last = no
        if _MAX.match(s) or _SEAT.match(s):
            continue
        if (r := _ROLE.match(s)):
            if r["r"] in ("Small Blind", "Big Blind", "Ante", "Dead Blind", "Posted"):
                kind = {"Small Blind": "small_blind", "Big Blind": "big_blind",
                        "Ante": "ante", "Dead Blind": "dead", "Posted": "post"}[r["r"]]
                led.forced(kind, r["p"], parse_amount(r["a"] or "0"), no)
            continue
        if (b := _BOARD.match(s)):
            cards = _cards(b["c"])
            led.board(cards[shown:], no)
            shown = len(cards)
            continue
        if (m := _SHOW.match(s)):
            led.event("show", m["p"], no, _cards(m["c"]))
            continue
        if (m := _MUCK.match(s)):
            if m["c"]:  # a hand lost at the showdown, its cards printed
                led.event("muck", m["p"], no, _cards(m["c"]))
            continue  # without cards: a pot won uncontested, nothing shown
        if (m := _WINS.match(s)):
            payouts.append((m["p"], parse_amount(m["a"]), None, no))
            continue
        if (m := _RAKE.match(s)):
            rake = parse_amount(m["a"])
            continue
        if (m := _END.match(s)):
            try:
                when = datetime.strptime(m["t"], "%Y-%m-%d %H:%M:%S")
                info.time = iso_time(when, m["z"])
            except ValueError as exc:
                raise SiteError(f"line {no}: {exc}") from None
            continue
        a = site_line(_ACTION, s, no, "an Entraction line")
        p, v = a["p"], a["v"]
        amt = parse_amount(a["a"]) if a["a"] else None
        if v in ("Check", "Fold"):
            led.event(v.lower(), p, no)
        elif amt is None:
            raise SiteError(f"line {no}: {v} without an amount")
        elif v == "Payback":
            led.uncalled(p, amt, no)
        else:
            led.added({"All-In": "allin"}.get(v, v.lower()), p, amt, no)
    if not payouts or rake is None:
        raise SiteError(f"line {last}: the hand is cut short (no payout or no rake line)")
    led.settle(payouts, rake, last, paid_back=False)
    return hand
