"""Merge Gaming Network XML hand histories (``site="merge"``: Carbon Poker and its skins).

A document is a ``<description type="Holdem" stakes="No Limit ($1/$2)"/>`` element (the
game and the stakes, once for the file) followed by one ``<game id=... starttime=...
seats=... data="date|table|...">`` element per hand: ``<players dealer=...>`` (each
``<player seat= nickname= balance= dealtin=>``; seats count from 0) and ``<round id=...>``
elements (``BLINDS``, ``PREFLOP``, ``POSTFLOP``, ``POSTTURN``, ``POSTRIVER``,
``SHOWDOWN``, ``END_OF_FOLDED_GAME``, ``END_OF_GAME``, ``GAME_CANCELLED``) of
``<event type= player=(seat) amount=>``, ``<cards type="COMMUNITY" cards=...>`` (the
whole board so far, printed after the round's betting) and ``SHOWN``/``MUCKED`` cards.

Newer exports (``version="2.1"``, 2015) drop the ``<description>``: the ``<game>`` carries
its own ``stakes`` and the game is its ``gametype`` code (2: Hold'em, 9: Omaha; the stud
and draw codes are not read), ``ANTE`` events post antes and ``HOLE`` cards are the hero's
(``null`` for a card not shown).

Amounts: ``CALL`` and ``BET`` what they add, ``RAISE`` the street total, ``ALL_IN`` what
it adds (a bet, call or raise by what it does). ``<winner amount= uncalled= potnumber=>``
is what a player takes; an uncalled bet is sometimes a winner line of its own
(``uncalled="true"``) and sometimes inside the pot's winner line, so the reader works the
uncalled bet out from the betting and takes it off the player's winnings. No rake is
printed: it is what was committed less what was won (never negative; zero in every
sample hand without a flop).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from decimal import Decimal

from simulate.notation.site_hand import Event, Seat, SiteHand, Stakes
from simulate.notation.site_read import hands_of
from simulate.notation.site_text import SiteError, SiteInfo, card_text
from simulate.notation.site_xml import (
    ZERO,
    ActionBets,
    acting,
    amount_or_zero,
    pay_wins,
    returned,
    xml_units,
)

__all__ = ["detect", "read"]

_DETECT = re.compile(r"<game\s+id=\"[^\"]*\"[^>]*\bnumholecards=|<description\s+type=\"[^\"]*\""
                     r"\s+stakes=")
_DESCRIPTION = re.compile(r"<description\b[^>]*>")
_STAKES = re.compile(r"^\s*(?P<limit>No Limit|Pot Limit|Limit|Fixed Limit)\s*\(?\s*"
                     r"(?P<sb>[^/()]+)/(?P<bb>[^/()]+)\)?", re.IGNORECASE)
_GAMES = {"holdem": "holdem", "hold'em": "holdem", "omaha": "omaha",
          "omaha hi/lo": "omaha_hilo", "omaha hi-lo": "omaha_hilo", "omahahilo": "omaha_hilo",
          "omaha8": "omaha_hilo"}
_BETTING = {"no limit": "no-limit", "pot limit": "pot-limit", "limit": "fixed-limit",
            "fixed limit": "fixed-limit"}
#: (gametype, numholecards) of the games the samples show, for exports without a
#: ``<description>`` (the game's own ``stakes`` attribute gives the limit).
_GAME_CODES = {("2", "2"): "holdem", ("9", "4"): "omaha"}
_STREETS = ("POSTFLOP", "POSTTURN", "POSTRIVER")


def detect(head: str) -> bool:
    """A Merge export: its ``<description type= stakes=>`` element or a ``<game id=...
    numholecards=...>`` element."""
    return bool(_DETECT.search(head))


def read(text: str, source: str) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each ``<game>`` of the document as a :class:`SiteHand` (or its error), with the
    line it starts on."""
    m = _DESCRIPTION.search(text)
    description: dict[str, str] = {}
    if m is not None:
        try:
            description = dict(ET.fromstring(m.group(0).rstrip("/>") + "/>").attrib)
        except ET.ParseError:
            description = {}
    yield from hands_of(xml_units(text, "game"), lambda g, at: _hand(g, description, at),
                        faults=(ValueError, ArithmeticError))


def _cards(text: str | None) -> tuple[str, ...]:
    """``Kc,Kh`` as cards (``null``, a card the file does not show, as ``??``)."""
    return tuple("??" if t.lower() == "null" else card_text(t)
                 for t in (text or "").replace(" ", ",").split(",") if t)


def _hand(game: ET.Element, description: dict[str, str], at: int) -> SiteHand:
    kind = description.get("type", "").strip().lower()
    game_name = _GAMES.get(kind)
    if game_name is None and not kind:  # no description (newer exports): the game's code
        game_name = _GAME_CODES.get((game.get("gametype") or "", game.get("numholecards")))
    if game_name is None:
        raise SiteError(f"line {at}: unknown Merge game {description.get('type') or ''!r} "
                        f"(gametype {game.get('gametype')!r}, {game.get('numholecards')} "
                        f"hole cards)")
    printed = game.get("stakes") or description.get("stakes", "")
    m = _STAKES.match(printed)
    if m is None:
        raise SiteError(f"line {at}: unknown Merge stakes {printed!r}")
    betting = _BETTING[" ".join(m["limit"].lower().split())]
    stakes = Stakes.of_two(amount_or_zero(m["sb"], at), amount_or_zero(m["bb"], at), betting)
    symbol = m["sb"].strip()[:1]
    currency = {"$": "USD", "€": "EUR", "£": "GBP"}.get(symbol)
    if game.get("realmoney") == "false":
        currency = "chips"
    data = (game.get("data") or "").split("|")
    table = data[1] if len(data) > 1 and data[1] else None
    start = game.get("starttime") or ""
    time = None
    if re.fullmatch(r"\d{14}", start):
        time = (f"{start[0:4]}-{start[4:6]}-{start[6:8]}T{start[8:10]}:{start[10:12]}:"
                f"{start[12:14]}")
    info = SiteInfo(site="merge", hand_id=game.get("id", ""), game=game_name,
                    betting=betting, table=table, time=time, currency=currency, line=at)

    players = game.find("players")
    seats: list[Seat] = []
    by_seat: dict[str, Seat] = {}
    button = None
    if players is not None:
        dealer = players.get("dealer")
        if dealer is not None and dealer.isdigit():
            button = int(dealer)    # as printed, even where the seat is empty (a dead button)
        for p in players.findall("player"):
            s = Seat(int(p.get("seat", "")), p.get("nickname", ""),
                     amount_or_zero(p.get("balance"), at), in_hand=p.get("dealtin") != "false")
            seats.append(s)
            by_seat[p.get("seat", "")] = s
    seats.sort(key=lambda s: s.seat)
    seats_n = game.get("seats")
    hand = SiteHand(info=info, seats=seats, stakes=stakes, button=button,
                    max_seats=int(seats_n) if seats_n and seats_n.isdigit() else None)

    def name(seat_ref: str | None) -> str:
        return acting(by_seat, seat_ref, at)

    rounds = game.findall("round")
    if any(r.get("id") == "GAME_CANCELLED" for r in rounds):
        raise SiteError(f"line {at}: hand {info.hand_id} was cancelled by the site")
    bets = ActionBets()
    actions: list[Event] = []
    shows: list[Event] = []
    holes: list[Event] = []
    wins: dict[str, Decimal] = {}
    board: tuple[str, ...] = ()
    folded: set[str] = set()
    for rnd in rounds:
        rid = rnd.get("id", "")
        for c in rnd.findall("cards"):
            ctype = c.get("type", "")
            if ctype == "COMMUNITY":
                cards = _cards(c.get("cards"))
                if cards[:len(board)] != board or len(cards) <= len(board):
                    raise SiteError(f"line {at}: the board {c.get('cards')!r} does not "
                                    f"follow {' '.join(board)!r}")
                if rid not in _STREETS and rnd.find("event[@type='RABBIT']") is not None:
                    continue    # a rabbit hunt: the cards that would have come
                actions.append(bets.add(Event("board", cards=cards[len(board):], line=at)))
                board = cards
            elif ctype in ("SHOWN", "MUCKED"):
                who = name(c.get("player"))
                shows.append(Event("show" if ctype == "SHOWN" else "muck", who,
                                   cards=_cards(c.get("cards")), line=at))
            elif ctype == "HOLE":   # the hero's own cards (newer exports)
                who = name(c.get("player"))
                holes.append(Event("hole", who, cards=_cards(c.get("cards")), line=at))
                info.hero = who
        for e in rnd.findall("event"):
            etype = e.get("type", "")
            if etype in ("CHAT", "SHOW", "MUCK", "RABBIT", "GAME_CANCELLED"):
                continue
            who = name(e.get("player"))
            amount = amount_or_zero(e.get("amount"), at)
            if etype == "ANTE":
                ev = bets.event("ante", who, amount, at)
            elif etype == "SMALL_BLIND":
                ev = bets.event("small_blind", who, amount, at)
            elif etype == "BIG_BLIND":
                ev = bets.event("big_blind", who, amount, at)
            elif etype in ("CALL", "BET"):
                ev = bets.event(etype.lower(), who, amount, at)
            elif etype == "RAISE":
                ev = bets.event("raise", who, amount, at)
            elif etype == "ALL_IN":
                ev = bets.adding(who, amount, at, allin=True)
            elif etype == "CHECK":
                ev = bets.event("check", who, line=at)
            elif etype == "FOLD":
                folded.add(who)
                ev = bets.event("fold", who, line=at)
            elif amount:
                raise SiteError(f"line {at}: unknown Merge event {etype!r}")
            else:
                continue
            actions.append(ev)
        for w in rnd.findall("winner"):
            who = name(w.get("player"))
            wins[who] = wins.get(who, ZERO) + amount_or_zero(w.get("amount"), at)
    # (each round's board is taken before its betting: the file prints it after)
    hand.events = holes + actions
    back = returned(hand)
    events = hand.events
    events.extend(shows)
    pay_wins(hand, wins, back, at)
    return hand

