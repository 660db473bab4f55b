"""iPoker XML hand histories (``site="ipoker"``).

A document is one or more ``<session>`` elements (each may carry its own ``<?xml?>``
declaration: the "miner" exports concatenate one per hand); a session's ``<general>``
gives the game (``<gametype>Holdem NL €0.05/€0.10</gametype>``: game, betting, stakes),
the table, the currency, the hero (``<nickname>``; without one, the one player whose
cards the file knows without a showdown) and, in tournaments, the tournament;
each ``<game gamecode=...>`` is one hand: ``<general>`` with the ``<player>`` seats
(``chips``: starting stack; ``dealer``; ``win``: what the player took), then
``<round no=...>`` elements (0: forced bets, 1: preflop, 2-4: flop, turn, river) holding
``<cards>`` (``Pocket`` for a player, ``Flop``/``Turn``/``River`` for the board; a card is
suit letter then rank, ``D10``, ``SA``; ``X`` unseen) and ``<action no= type= sum=>``.

The action codes, as the samples prove them (every sample hand's chips add up with these
meanings and no other): 0 fold, 1 small blind, 2 big blind (a second one, or one larger
than the big blind, is a player's post: the excess is dead), 3 call (``sum``: what it
adds), 4 check, 5 bet (adds), 7 all in (``sum``: what it adds; a bet, a call or a raise
by what it does), 8 sits out (no chips), 15 ante, 23 raise (``sum``: the player's street
total). Actions are printed grouped by player within a round: they are replayed in ``no``
order.

No uncalled bet is printed: the reader works it out (the street's excess over the second
largest contribution). ``win`` holds the uncalled bet as well, except in the exports that
say ``<uncalled_bet_enabled>true</uncalled_bet_enabled>`` (unless a hand's own numbers
contradict the flag: a win smaller than the uncalled bet it would hold, or wins beyond the
pot). No rake is printed either: it
is what was committed less what was won, which must not be negative (and is zero in a
tournament); the ``bet`` attribute is not used (older exports give the player's total,
newer ones the plain sum of the ``sum`` values).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from decimal import Decimal

from simulate.notation.site_hand import Event, Seat, SiteHand, Stakes
from simulate.notation.site_read import hands_of
from simulate.notation.site_text import SiteError, SiteInfo, Tournament, card_text
from simulate.notation.site_xml import (
    ZERO,
    ActionBets,
    Lines,
    amount_or_zero,
    parse_xml,
    pay_wins,
    refuse_declarations,
    returned,
)

__all__ = ["detect", "read"]

_SESSION = re.compile(r"<session\b")
_GAME = re.compile(r"<game\b")
_GAME_SPAN = re.compile(r"<game\b.*?</game>", re.S)
_GENERAL = re.compile(r"<general>.*?</general>", re.S)
_DETECT = re.compile(r"<session\b[^>]*>\s*<general>", re.S)
_GAMETYPE = re.compile(
    r"^\s*(?P<game>.*?)\s+(?P<limit>NL|PL|FL|L|SL)\b\s*(?P<stakes>.*)$", re.IGNORECASE)
_STAKES = re.compile(r"([^\s/()]*\d[^\s/()]*)\s*/\s*([^\s/()]*\d[^\s/()]*)")
_GAMES = {"holdem": "holdem", "hold'em": "holdem", "texas holdem": "holdem",
          "omaha": "omaha", "omaha hi-lo": "omaha_hilo", "omaha hilo": "omaha_hilo",
          "omaha hi/lo": "omaha_hilo", "5 card omaha": "omaha5", "omaha 5": "omaha5"}
_BETTING = {"nl": "no-limit", "pl": "pot-limit", "fl": "fixed-limit", "l": "fixed-limit",
            "sl": "fixed-limit"}
_SYMBOLS = {"€": "EUR", "£": "GBP", "$": "USD"}
_SUITS = {"D": "d", "C": "c", "H": "h", "S": "s"}
_STREETS = {"flop": 2, "turn": 3, "river": 4}
#: The codes whose ``sum`` is the event's amount as it is (see the module docstring).
_PLAIN = {"3": "call", "5": "bet", "15": "ante", "23": "raise"}


def _int(text: str | None) -> int:
    try:
        return int(text or 0)
    except ValueError:
        return 0


def detect(head: str) -> bool:
    """An iPoker export: a ``<session>`` element opening with its ``<general>`` part and
    an iPoker field (``<gametype>`` or a ``<game gamecode=...>``)."""
    return bool(_DETECT.search(head)) and ("<gametype>" in head or "<game gamecode" in head)


def read(text: str, source: str) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each ``<game>`` of the document as a :class:`SiteHand` (or its error), with the
    line it starts on."""
    try:
        refuse_declarations(text)
    except SiteError as exc:
        yield 1, exc
        return
    starts = [m.start() for m in _SESSION.finditer(text)] or [0]
    lines = Lines(text)
    for i, pos in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        chunk = text[pos:end]
        line = lines.at(pos)
        game_lines = [lines.at(pos + m.start()) for m in _GAME.finditer(chunk)]
        try:
            root = parse_xml(chunk, line)
        except SiteError as exc:
            # a session that is not well-formed as a whole (an export cut short, a stray
            # tag): each of its games on its own, so one fault costs one hand at most
            yield from _games_apart(chunk, line, game_lines, exc)
            continue
        for session in root.iter("session"):
            yield from _session(session, game_lines, line)


def _games_apart(chunk: str, line: int, game_lines: list[int], fault: SiteError,
                 ) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """The games of a session that does not parse as a whole, each parsed alone (the
    session's ``<general>`` part too); the session's fault where a game starts but none
    ends, nothing where the session holds no game (a fragment with the table only)."""
    games = list(_GAME_SPAN.finditer(chunk))
    if not games:
        if _GAME.search(chunk):
            yield line, fault
        return      # a session's table information without a hand: no hand
    head = _GENERAL.search(chunk, 0, games[0].start())
    general = None
    if head is not None:
        try:
            general = parse_xml(head.group(0), line).find("general")
        except SiteError:
            general = None
    for k, m in enumerate(games):
        at = game_lines[k] if k < len(game_lines) else line
        try:
            game = parse_xml(m.group(0), at).find("game")
        except SiteError as exc:
            yield at, exc
            continue
        if game is not None:
            yield from _session_games([game], general, [at], at)


def _text(el: ET.Element | None, tag: str) -> str:
    """The stripped text of ``el``'s child ``tag`` ('' where absent, or ``N/A``)."""
    if el is None:
        return ""
    child = el.find(tag)
    value = (child.text or "").strip() if child is not None else ""
    return "" if value.upper() == "N/A" else value


def _session(session: ET.Element, game_lines: list[int], line: int,
             ) -> Iterator[tuple[int, SiteHand | SiteError]]:
    yield from _session_games(session.findall("game"), session.find("general"), game_lines,
                              line)


def _session_games(games: list[ET.Element], general: ET.Element | None,
                   game_lines: list[int], line: int,
                   ) -> Iterator[tuple[int, SiteHand | SiteError]]:
    units = ((game_lines[k] if k < len(game_lines) else line, game)
             for k, game in enumerate(games))
    yield from hands_of(units, lambda g, at: _hand(g, general, at),
                        faults=(ValueError, ArithmeticError))


def _card(token: str, at: int) -> str:
    t = token.strip()
    if t.upper() in ("X", "XX", ""):
        return "??"
    suit, rank = t[0].upper(), t[1:]
    if suit not in _SUITS:
        raise SiteError(f"line {at}: not a card: {token!r}")
    return card_text(rank + _SUITS[suit])


def _cards(el: ET.Element, at: int) -> tuple[str, ...]:
    return tuple(_card(t, at) for t in (el.text or "").split())


def _hand(game: ET.Element, general: ET.Element | None, at: int) -> SiteHand:
    ggen = game.find("general")

    def field(tag: str) -> str:
        return _text(ggen, tag) or _text(general, tag)

    gametype = field("gametype")
    m = _GAMETYPE.match(gametype)
    if not m:
        raise SiteError(f"line {at}: unknown iPoker game {gametype!r}")
    name = m["game"].strip().lower()
    game_name = _GAMES.get(name)
    if game_name is None:
        raise SiteError(f"line {at}: unknown iPoker game {gametype!r}")
    betting = _BETTING[m["limit"].lower()]
    stakes = Stakes()
    pair = _STAKES.search(m["stakes"])
    if pair is not None:
        stakes = Stakes.of_two(amount_or_zero(pair[1], at), amount_or_zero(pair[2], at),
                               betting)
    # the blinds as fields of their own (newer exports), where given, say it exactly
    for tag, attr in (("smallblind", "small_blind"), ("bigblind", "big_blind"),
                      ("ante", "ante")):
        if field(tag):
            setattr(stakes, attr, amount_or_zero(field(tag), at))
    size = field("tablesize") or field("maxplayers")
    tour_code = field("tournamentcode")
    tour_name = field("tournamentname")
    tournament = None
    if tour_code or tour_name:
        tournament = Tournament(id=tour_code or tour_name, buy_in=field("buyin") or None)
        currency = "chips"
    else:
        currency = field("tablecurrency") or field("currency") or next(
            (c for s, c in _SYMBOLS.items() if s in gametype), "")
        currency = currency or None
    hero = field("nickname") or None
    uncalled_apart = field("uncalled_bet_enabled").lower() == "true"
    start = field("startdate")
    time = start.replace(" ", "T") if start else None

    seats: list[Seat] = []
    wins: dict[str, Decimal] = {}
    button = None
    players = ggen.find("players") if ggen is not None else None
    for p in players.findall("player") if players is not None else []:
        name_p = p.get("name", "")
        try:
            seat_no = int(p.get("seat", ""))
        except ValueError:
            raise SiteError(f"line {at}: player {name_p!r} has no seat number") from None
        seats.append(Seat(seat_no, name_p, amount_or_zero(p.get("chips"), at), in_hand=False))
        wins[name_p] = amount_or_zero(p.get("win"), at)
        if p.get("dealer") == "1":
            button = seat_no
    seats.sort(key=lambda s: s.seat)
    by_name = {s.name: s for s in seats}
    if hero not in by_name:
        hero = None

    info = SiteInfo(site="ipoker", hand_id=game.get("gamecode", ""), game=game_name,
                    betting=betting, table=field("tablename") or None, time=time,
                    currency=currency, tournament=tournament, hero=hero, line=at)
    hand = SiteHand(info=info, seats=seats, stakes=stakes, button=button,
                    max_seats=int(size) if size.isdigit() else None)

    def seat(name_p: str) -> Seat:
        s = by_name.get(name_p)
        if s is None:
            raise SiteError(f"line {at}: {name_p!r} acts but has no seat")
        return s

    betting_events: list[Event] = []
    holes: list[Event] = []
    known: dict[str, tuple[str, ...]] = {}
    folded: set[str] = set()
    bets = ActionBets()
    big_blind_posted = small_blind_posted = False
    for rnd in sorted(game.findall("round"), key=lambda r: _int(r.get("no"))):
        for c in rnd.findall("cards"):
            kind = (c.get("type") or "").lower()
            if kind == "pocket":
                who = c.get("player", "")
                seat(who).in_hand = True
                cards = _cards(c, at)
                if cards and any(x != "??" for x in cards):
                    known[who] = cards
                    holes.append(Event("hole", who, cards=cards, line=at))
            elif kind in _STREETS:
                betting_events.append(bets.add(Event("board", cards=_cards(c, at), line=at)))
        for a in sorted(rnd.findall("action"), key=lambda a: _int(a.get("no"))):
            who, code = a.get("player", ""), a.get("type", "")
            amount = amount_or_zero(a.get("sum"), at)
            if code == "8" and amount == 0:
                continue
            seat(who).in_hand = True
            if code == "0":
                folded.add(who)
                betting_events.append(bets.event("fold", who, line=at))
            elif code == "1":
                kind = "dead" if small_blind_posted else "small_blind"
                small_blind_posted = True
                betting_events.append(bets.event(kind, who, amount, at))
            elif code == "2":
                bb = stakes.big_blind or amount
                if big_blind_posted or amount > bb:
                    live = min(amount, bb)
                    betting_events.append(bets.event("post", who, live, at))
                    if amount > live:
                        betting_events.append(bets.event("dead", who, amount - live, at))
                else:
                    big_blind_posted = True
                    betting_events.append(bets.event("big_blind", who, amount, at))
            elif code in _PLAIN:
                betting_events.append(bets.event(_PLAIN[code], who, amount, at))
            elif code == "4":
                betting_events.append(bets.event("check", who, line=at))
            elif code == "7":
                betting_events.append(bets.adding(who, amount, at, allin=True))
            elif amount != 0:
                raise SiteError(f"line {at}: unknown iPoker action type {code!r} "
                                f"of {who!r} ({a.get('sum')})")

    hand.events = holes + betting_events
    back = returned(hand)
    events = hand.events
    live = [s.name for s in seats if s.in_hand and s.name not in folded]
    shown = [who for who in live if who in known] if len(live) > 1 else []
    for who in shown:
        events.append(Event("show", who, cards=known[who], line=at))
    if info.hero is None:   # no nickname: the one seat whose cards are known unshown
        unshown = [who for who in known if who not in shown]
        if len(unshown) == 1:
            info.hero = unshown[0]
    # whether the wins hold the uncalled bets: as the export says, unless its own numbers
    # say otherwise (a win smaller than the bet it would hold; wins beyond the pot)
    pot = sum(hand.committed().values(), ZERO)
    if not uncalled_apart and any(won < back.get(who, ZERO) for who, won in wins.items()):
        uncalled_apart = True
    elif uncalled_apart and back and sum(wins.values(), ZERO) > pot:
        uncalled_apart = False
    pay_wins(hand, wins, back, at, uncalled_apart=uncalled_apart)
    if tournament is not None and hand.rake:
        raise SiteError(f"line {at}: the chips do not add up: {pot} committed, "
                        f"{pot - hand.rake} won in a tournament")
    return hand
