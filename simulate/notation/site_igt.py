"""IGT JSON hand histories (``site="igt"``: IGT's poker network, Boss Media's successor).

A document is ``{"history": [hand, ...]}``; a hand has ``handId``, ``table``,
``game`` (``GAME_THM``, ``GAME_OMA``, ``GAME_OMAHL``), ``limit`` (``No Limit``...),
``stake`` (``"0.25/0.5"``), ``tableCurrency``, ``gameKind``, ``date`` (Unix
milliseconds), ``player`` (``name``, ``seat``, ``amount``: the starting stack, ``dealer``),
``action`` (``type``: ``HAND_BLINDS`` with ``kind`` ``HAND_SB``/``HAND_BB``/``HAND_DSB``
(a dead small blind), ``HAND_ANTE``, ``HAND_DEAL`` and ``HAND_BOARD`` with ``card``
lists, ``ACTION_FOLD/CHECK/CALL/BET/RAISE/ALLIN/ADJUSTEMENT``; ``value`` and
``bankRoll``, the stack after the action) and ``showDown`` (``pot`` after the rake,
``rake``, and per player ``win``, ``folded`` and the shown ``card`` list).

Amounts, as the chip check proves them for every sample hand (and the ``bankRoll`` after
each call): ``ACTION_CALL``, ``ACTION_RAISE`` and ``ACTION_ALLIN`` give the player's street
total after it, ``ACTION_BET`` what it adds (the same: no one has bet on the street).
An all-in is read as Boss Media's is (the street total): the samples cannot tell, as
every all-in in them is the player's first money on its street. ``ACTION_ADJUSTEMENT``
gives back the uncalled part of a bet (``value``: the bet as it stands): the reader works
the uncalled bets out itself.
Starting stacks printed as ``0.00`` (the anonymised samples) are worked out from the
stack after the hand (the showdown's ``bankRoll``).

Cards are numbers: ``link`` 0-51 (``b``: not seen; ``100``: none) is rank ``link % 13``
from the deuce (0: deuce ... 12: ace), as the hand names at the showdowns prove, and suit
``link // 13`` taken in the order clubs, diamonds, hearts, spades: the samples cannot
prove the suit order (no outcome depends on it), only that it is consistent.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import datetime, timezone
from decimal import Decimal
from typing import Any

from simulate.notation.site_bossmedia import card_of_link
from simulate.notation.site_hand import Event, Seat, SiteHand, Stakes
from simulate.notation.site_text import SiteError, SiteInfo, Tournament
from simulate.notation.site_xml import ZERO, ActionBets, Lines, amount_or_zero

__all__ = ["detect", "read"]

_DETECT = re.compile(r"^\s*\{\s*\"history\"\s*:\s*\[")
_GAMES = {"GAME_THM": "holdem", "GAME_OMA": "omaha", "GAME_OMAHL": "omaha_hilo",
          "GAME_OMA5": "omaha5"}
_BETTING = {"no limit": "no-limit", "pot limit": "pot-limit", "fixed limit": "fixed-limit",
            "limit": "fixed-limit"}
_RANKS = "23456789TJQKA"
_SUITS = "cdhs"
#: The largest IGT document (characters) the reader parses.
MAX_JSON_CHARS = 64 * 1024 * 1024


def detect(head: str) -> bool:
    """An IGT export: a JSON object opening with its ``"history"`` list, or one whose
    start names IGT's hand fields (``"history"`` and ``"handId"`` or ``"tableCurrency"``)."""
    return bool(_DETECT.match(head)) or (
        head.startswith("{") and '"history"' in head
        and ('"handId"' in head or '"tableCurrency"' in head))


def read(text: str, source: str) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each hand of the ``history`` list of each JSON document in ``text`` (an export is
    one; several written one after the other are read in turn) as a :class:`SiteHand` (or
    its error), with the line its ``handId`` is on (line 1 of a one-line file)."""
    if len(text) > MAX_JSON_CHARS:
        yield 1, SiteError(f"line 1: an IGT document of {len(text)} characters: refused")
        return
    decoder = json.JSONDecoder(parse_float=Decimal)
    text = text.lstrip("\ufeff")
    pos, n = 0, len(text)
    lines = Lines(text)
    while True:
        while pos < n and text[pos].isspace():
            pos += 1
        if pos >= n:
            return
        line = lines.at(pos)
        try:
            doc, end = decoder.raw_decode(text, pos)
        except (json.JSONDecodeError, RecursionError) as exc:
            row = getattr(exc, "lineno", line)
            yield row, SiteError(f"line {row}: not an IGT JSON document ({exc})")
            nxt = text.find('{"history"', pos + 1)
            if nxt < 0:
                return
            pos = nxt
            continue
        yield from _document(doc, text, pos, end, line, lines)
        pos = end


def _document(doc: Any, text: str, start: int, end: int, line: int, lines: Lines,
              ) -> Iterator[tuple[int, SiteHand | SiteError]]:
    hands = doc.get("history") if isinstance(doc, dict) else None
    if not isinstance(hands, list):
        yield line, SiteError(f"line {line}: an IGT document without its \"history\" list")
        return
    for h in hands:
        hid = str(h.get("handId", "")) if isinstance(h, dict) else ""
        pos = text.find(f'"{hid}"', start, end) if hid else -1
        at = lines.at(pos) if pos >= 0 else line
        try:
            if not isinstance(h, dict):
                raise SiteError(f"line {at}: a hand that is not a JSON object")
            yield at, _hand(h, at)
        except SiteError as exc:
            yield at, exc
        except (ValueError, ArithmeticError, TypeError, AttributeError, KeyError) as exc:
            yield at, SiteError(f"line {at}: a malformed IGT hand ({exc})")


def _cards(cards: Any) -> tuple[str, ...]:
    return tuple(card_of_link(str(c.get("link", "")), _RANKS, _SUITS)
                 for c in cards or [] if isinstance(c, dict))


def _hand(h: dict[str, Any], at: int) -> SiteHand:
    game_name = _GAMES.get(str(h.get("game", "")))
    if game_name is None:
        raise SiteError(f"line {at}: unknown IGT game {h.get('game')!r}")
    betting = _BETTING.get(str(h.get("limit", "")).strip().lower())
    if betting is None:
        raise SiteError(f"line {at}: unknown IGT limit {h.get('limit')!r}")
    stake = str(h.get("stake") or "")
    parts = stake.split("/") if stake else [h.get("small"), h.get("large")]
    stakes = Stakes()
    if len(parts) == 2 and all(parts):
        sb, bb = amount_or_zero(parts[0], at), amount_or_zero(parts[1], at)
        stakes = Stakes(small_blind=sb, big_blind=bb)
        if betting == "fixed-limit":    # the stake is the blinds (the samples post them)
            stakes = Stakes(small_blind=sb, big_blind=bb, small_bet=bb, big_bet=2 * bb)
    tournament = None
    currency = h.get("tableCurrency") or None
    if h.get("tournamentTable") is True or h.get("gameKind") in ("GAMEKIND_TOURNAMENT",
                                                                  "GAMEKIND_SITGO"):
        tournament = Tournament(id=str(h.get("tableTourneyId") or h.get("table") or ""))
        currency = "chips"
    date = str(h.get("date") or "")
    if len(date) != 13:     # a hand date cut short (the samples): the first action's
        date = next((str(a.get("date")) for a in h.get("action") or []
                     if len(str(a.get("date"))) == 13), "")
    time = (datetime.fromtimestamp(int(date) // 1000, timezone.utc).isoformat()
            if date.isdigit() else None)
    info = SiteInfo(site="igt", hand_id=str(h.get("handId") or h.get("id") or ""),
                    game=game_name, betting=betting, table=h.get("table") or None, time=time,
                    currency=currency, tournament=tournament, line=at)

    seats: list[Seat] = []
    by_name: dict[str, Seat] = {}
    button = None
    for p in h.get("player") or []:
        if p.get("state") in ("STATE_EMPTY", "STATE_RESERVED"):
            continue
        s = Seat(int(p.get("seat")), str(p.get("name", "")), amount_or_zero(p.get("amount"), at),
                 in_hand=p.get("state") != "STATE_SITOUT")
        seats.append(s)
        by_name[s.name] = s
        if p.get("dealer") == "Y":
            button = s.seat
    seats.sort(key=lambda s: s.seat)
    hand = SiteHand(info=info, seats=seats, stakes=stakes, button=button)

    def seat_of(name: Any) -> Seat:
        s = by_name.get(str(name))
        if s is None:
            raise SiteError(f"line {at}: {name!r} acts but has no seat")
        s.in_hand = True
        return s

    bets = ActionBets()
    actions: list[Event] = []
    holes: list[Event] = []
    board: tuple[str, ...] = ()
    for a in h.get("action") or []:
        t = a.get("type", "")
        if t == "HAND_BOARD":
            cards = _cards(a.get("card"))
            if cards[:len(board)] != board or len(cards) <= len(board):
                raise SiteError(f"line {at}: the board does not follow {' '.join(board)!r}")
            actions.append(bets.add(Event("board", cards=cards[len(board):], line=at)))
            board = cards
            continue
        name = seat_of(a.get("player")).name
        value = amount_or_zero(a.get("value"), at)
        if t == "HAND_DEAL":
            cards = _cards(a.get("card"))
            if any(c != "??" for c in cards):
                holes.append(Event("hole", name, cards=cards, line=at))
                info.hero = name
        elif t in ("ACTION_FOLD", "ACTION_CHECK"):
            actions.append(bets.event(t[7:].lower(), name, line=at))
        elif t == "ACTION_ADJUSTEMENT":
            continue
        elif t == "HAND_BLINDS":
            kind = {"HAND_SB": "small_blind", "HAND_BB": "big_blind",
                    "HAND_DSB": "dead"}.get(a.get("kind", ""))
            if kind is None:
                raise SiteError(f"line {at}: unknown IGT blind {a.get('kind')!r}")
            if any(e.kind == kind for e in actions) and kind != "dead":
                kind = "post" if kind == "big_blind" else "dead"    # posted to come in
            actions.append(bets.event(kind, name, value, at))
        elif t == "HAND_ANTE":
            actions.append(bets.event("ante", name, value, at))
        elif t == "ACTION_CALL":
            actions.append(bets.event("call", name, value - bets.bet(name), at))
        elif t == "ACTION_BET":
            actions.append(bets.event("bet", name, value, at))
        elif t == "ACTION_RAISE":
            actions.append(bets.event("raise", name, value, at))
        elif t == "ACTION_ALLIN":
            actions.append(bets.to_total(name, value, at, allin=True))
        elif value:
            raise SiteError(f"line {at}: unknown IGT action {t!r}")
    hand.events = holes + actions
    hand.return_uncalled()
    events = hand.events
    show = h.get("showDown") or {}
    results = [r for r in show.get("result") or [] if isinstance(r, dict)]
    live = [r for r in results if not r.get("folded")]
    for r in live if len(live) > 1 else []:     # a showdown: shown hands and mucks
        cards = _cards(r.get("card"))
        if any(c != "??" for c in cards):
            events.append(Event("show", seat_of(r.get("player")).name, cards=cards, line=at))
        elif "MUCK" in str(r.get("hand") or ""):
            events.append(Event("muck", seat_of(r.get("player")).name, line=at))
    for r in results:
        won = amount_or_zero(r.get("win"), at)
        if won:
            pot = "main pot (low)" if r.get("winType") == "WINTYPE_LO" else "main pot"
            events.append(Event("collect", seat_of(r.get("player")).name, won, line=at,
                                pot=pot))
    hand.events = events
    unknown = [s for s in seats if not s.stack]
    if unknown:     # stacks printed as 0.00: the stack after the hand, less its result
        put, took = hand.committed(), hand.collected()
        final = {str(r.get("player")): r.get("bankRoll") for r in results}
        for s in unknown:
            if final.get(s.name) is not None:
                s.stack = (amount_or_zero(final[s.name], at) + put.get(s.name, ZERO)
                           - took.get(s.name, ZERO))
    hand.rake = amount_or_zero(show.get("rake"), at) if show.get("rake") is not None else None
    if show.get("pot") is not None:
        hand.total_pot = amount_or_zero(show.get("pot"), at) + (hand.rake or ZERO)
    return hand
