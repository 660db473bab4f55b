"""Boss Media XML hand histories (``site="bossmedia"``: the Boss Media network, later IGT).

A document is one or more ``<HISTORY ID= TABLE= GAME="GAME_THM|GAME_OMA|GAME_OMAHL"
GAMEKIND="GAMEKIND_CASH|GAMEKIND_TOURNAMENT|GAMEKIND_SITGO" TABLECURRENCY= LIMIT=
STAKES="sb/bb" DATE=(Unix seconds)>`` elements (several are wrapped in a ``<ROOT>``), one
per hand: ``<PLAYER NAME= SEAT= AMOUNT= STATE= DEALER=>`` seats, then ``<ACTION TYPE=
PLAYER= VALUE=>`` (``HAND_ANTE``, ``HAND_BLINDS`` with ``KIND="HAND_SB|HAND_BB"``,
``HAND_DEAL`` with ``<CARD LINK=>`` children, ``ACTION_FOLD/CHECK/CALL/BET/RAISE/ALLIN``,
``HAND_BOARD`` with the whole board so far and the ``POT`` and ``RAKE`` so far), and a
``<SHOWDOWN POT= RAKE=>`` of ``<RESULT PLAYER= WIN= WINTYPE=>`` (shown cards as children).

Amounts, as the chip check proves them for every sample hand: ``ACTION_CALL`` and
``ACTION_BET`` give what they add, ``ACTION_RAISE`` and ``ACTION_ALLIN`` the player's
street total. No uncalled bet is printed: the reader works it out; ``WIN`` is what the
player takes from the pots (``POT`` is after the rake, uncalled bets excluded) and
``RAKE`` the house's cut.

Cards are numbers: ``LINK`` 0-51 (``b``: not seen) is rank ``LINK % 13`` from the ace
(0: ace, 1: deuce, ... 12: king), as the hand names at the showdowns prove, and suit
``LINK // 13`` in the order spades, clubs, diamonds, hearts — the order MicroGaming's XML,
which prints both a card's letters and its number, uses; the samples cannot prove the suit
order (no hand's outcome depends on which suit is which), only that it is consistent.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from datetime import datetime, timezone

from simulate.notation.site_hand import Event, Seat, SiteHand, Stakes
from simulate.notation.site_read import hands_of
from simulate.notation.site_text import SiteError, SiteInfo, Tournament
from simulate.notation.site_xml import ActionBets, amount_or_zero, xml_units

__all__ = ["card_of_link", "detect", "read"]

_DETECT = re.compile(r"<HISTORY\s+ID=\"[^\"]*\"[^>]*\bGAME=\"GAME_")
_GAMES = {"GAME_THM": "holdem", "GAME_OMA": "omaha", "GAME_OMAHL": "omaha_hilo",
          "GAME_OMA5": "omaha5"}
_BETTING = {"NL": "no-limit", "PL": "pot-limit", "FL": "fixed-limit", "L": "fixed-limit"}
_RANKS = "A23456789TJQK"
_SUITS = "scdh"
_OUT = ("STATE_EMPTY", "STATE_RESERVED", "STATE_SITOUT")


def card_of_link(link: str, ranks: str = _RANKS, suits: str = _SUITS) -> str:
    """A ``LINK`` card number as our card text (``??`` for ``b`` or a number out of the
    deck, such as the ``100`` of a mucked hand)."""
    if not link.isdigit() or int(link) > 51:
        return "??"
    n = int(link)
    return ranks[n % 13] + suits[n // 13]


def detect(head: str) -> bool:
    """A Boss Media export: a ``<HISTORY ID=... GAME="GAME_...">`` element."""
    return bool(_DETECT.search(head))


def read(text: str, source: str) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each ``<HISTORY>`` of the document as a :class:`SiteHand` (or its error), with the
    line it starts on."""
    return hands_of(xml_units(text, "HISTORY"), _hand, faults=(ValueError, ArithmeticError))


def _cards(el: ET.Element) -> tuple[str, ...]:
    return tuple(card_of_link(c.get("LINK", "")) for c in el.findall("CARD"))


def _hand(h: ET.Element, at: int) -> SiteHand:
    game_name = _GAMES.get(h.get("GAME", ""))
    if game_name is None:
        raise SiteError(f"line {at}: unknown Boss Media game {h.get('GAME')!r}")
    betting = _BETTING.get(h.get("LIMIT", ""))
    if betting is None:
        raise SiteError(f"line {at}: unknown Boss Media limit {h.get('LIMIT')!r}")
    stakes = Stakes.of_pair(h.get("STAKES"), "/", betting, at)
    kind = h.get("GAMEKIND", "")
    tournament = None
    currency = h.get("TABLECURRENCY") or None
    if kind in ("GAMEKIND_TOURNAMENT", "GAMEKIND_SITGO"):
        tournament = Tournament(id=h.get("TABLETOURNEYID") or h.get("TABLE") or "")
        currency = "chips"
    elif h.get("GAMETYPE") not in (None, "GAMETYPE_REAL"):
        currency = "chips"
    date = h.get("DATE") or ""
    time = (datetime.fromtimestamp(int(date), timezone.utc).isoformat()
            if date.isdigit() else None)

    seats: list[Seat] = []
    by_name: dict[str, Seat] = {}
    button = None
    for p in h.findall("PLAYER"):
        if p.get("STATE") == "STATE_EMPTY":
            continue
        s = Seat(int(p.get("SEAT", "")), p.get("NAME", ""), amount_or_zero(p.get("AMOUNT"), at),
                 in_hand=p.get("STATE") not in _OUT)
        seats.append(s)
        by_name[s.name] = s
        if p.get("DEALER") == "Y":
            button = s.seat
    seats.sort(key=lambda s: s.seat)

    def who(el: ET.Element) -> str:
        name = el.get("PLAYER", "")
        s = by_name.get(name)
        if s is None:
            raise SiteError(f"line {at}: {name!r} acts but has no seat")
        s.in_hand = True
        return name

    info = SiteInfo(site="bossmedia", hand_id=h.get("ID", ""), game=game_name,
                    betting=betting, table=h.get("TABLE") or None, time=time,
                    currency=currency, tournament=tournament, line=at)
    hand = SiteHand(info=info, seats=seats, stakes=stakes, button=button)
    bets = ActionBets()
    actions: list[Event] = []
    holes: list[Event] = []
    board: tuple[str, ...] = ()
    for a in h.findall("ACTION"):
        t = a.get("TYPE", "")
        if t == "HAND_BOARD":
            cards = _cards(a)
            if cards[:len(board)] != board or len(cards) <= len(board):
                raise SiteError(f"line {at}: the board does not follow {' '.join(board)!r}")
            actions.append(bets.add(Event("board", cards=cards[len(board):], line=at)))
            board = cards
            continue
        name = who(a)
        value = amount_or_zero(a.get("VALUE"), at)
        if t == "HAND_DEAL":
            cards = _cards(a)
            if any(c != "??" for c in cards):
                holes.append(Event("hole", name, cards=cards, line=at))
                info.hero = name
        elif t == "HAND_ANTE":
            actions.append(bets.event("ante", name, value, at))
        elif t == "HAND_BLINDS":
            k = a.get("KIND", "")
            kind = {"HAND_SB": "small_blind", "HAND_BB": "big_blind",
                    "HAND_DSB": "dead"}.get(k)
            if kind in ("small_blind", "big_blind") and any(e.kind == kind for e in actions):
                kind = "post" if kind == "big_blind" else "dead"    # posted to come in
            if kind is not None:
                actions.append(bets.event(kind, name, value, at))
            else:
                raise SiteError(f"line {at}: unknown Boss Media blind {k!r}")
        elif t in ("ACTION_CALL", "ACTION_BET"):
            actions.append(bets.event(t[7:].lower(), name, value, at))
        elif t == "ACTION_RAISE":
            actions.append(bets.event("raise", name, value, at))
        elif t == "ACTION_ALLIN":
            actions.append(bets.to_total(name, value, at, allin=True))
        elif t == "ACTION_CHECK":
            actions.append(bets.event("check", name, line=at))
        elif t == "ACTION_FOLD":
            actions.append(bets.event("fold", name, line=at))
        elif value:
            raise SiteError(f"line {at}: unknown Boss Media action {t!r}")
    hand.events = holes + actions
    hand.return_uncalled()
    events = hand.events
    show = h.find("SHOWDOWN")
    if show is None:
        raise SiteError(f"line {at}: hand {info.hand_id} has no result (<SHOWDOWN>)")
    results = show.findall("RESULT")
    folded = {e.player for e in actions if e.kind == "fold"}
    live = [r for r in results if r.get("PLAYER") not in folded]
    for r in live if len(live) > 1 else []:     # a showdown: shown hands and mucks
        cards = _cards(r)
        if any(c != "??" for c in cards):
            events.append(Event("show", who(r), cards=cards, line=at))
        elif "MUCK" in (r.get("HAND") or ""):
            events.append(Event("muck", who(r), line=at))
    for r in results:
        won = amount_or_zero(r.get("WIN"), at)
        if won:
            pot = "main pot (low)" if r.get("WINTYPE") == "WINTYPE_LO" else "main pot"
            events.append(Event("collect", who(r), won, line=at, pot=pot))
    hand.events = events
    hand.rake = amount_or_zero(show.get("RAKE"), at)
    pot = show.get("POT")
    if pot:
        hand.total_pot = amount_or_zero(pot, at) + hand.rake
    return hand
