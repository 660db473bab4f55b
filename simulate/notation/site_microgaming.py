"""MicroGaming (MPN) XML hand histories (``site="microgaming"``).

A document is one or more ``<Game hhversion= id= date= tablename= stakes="0.50|1"
betlimit="NL|PL|FL" gametype= istournament= playerseat= currencysymbol= rake=>``
elements, one per hand: ``<Seats>`` (``<Seat num= alias= balance= endbalance=
dealer=>``: the stacks before and after the hand) and ``<Gameplay>``, a list of ``<Action
seq= type= seat= value=>`` (``<Card value= suit=>`` children for dealt, shown and board
cards) ending with ``<Action type="Win">`` and one ``<Seat num= amount= lowhandwin=>`` per
pot share.

Amounts, as the stacks before and after prove them for every sample hand: ``Call``,
``Bet`` and ``Raise`` give what they add (a raise is not its total), ``AllIn`` what it
adds (a blind, bet, call or raise by where it comes and what it does),
``BadBeatContribution`` money taken for the bad-beat jackpot (a fee), ``MoneyReturned``
an uncalled bet given back. A win holds the uncalled bet where no ``MoneyReturned`` is
printed; the reader works the uncalled bets out and takes them off the wins. The
``rake`` attribute is in cents. ``currencysymbol`` (and the ``unicode...`` attributes)
are base64 UTF-16 text. A cancelled hand (nothing but a deal and a fold) is its error.
"""

from __future__ import annotations

import base64
import binascii
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from decimal import Decimal

from simulate.notation.site_hand import Event, Seat, SiteHand, Stakes
from simulate.notation.site_read import hands_of
from simulate.notation.site_text import SiteError, SiteInfo, Tournament, card_text
from simulate.notation.site_xml import ZERO, ActionBets, acting, amount_or_zero, returned, xml_units

__all__ = ["detect", "read"]

_DETECT = re.compile(r"<Game\s+hhversion=\"\d+\"")
_GAMES = {"hold'em": "holdem", "holdem": "holdem", "omaha": "omaha", "omaha h/l": "omaha_hilo",
          "omaha hi/lo": "omaha_hilo", "5 card omaha": "omaha5"}
_BETTING = {"nl": "no-limit", "pl": "pot-limit", "fl": "fixed-limit"}
_SYMBOLS = {"€": "EUR", "$": "USD", "£": "GBP"}
_TOURNAMENT_ID = re.compile(r"\[(\d+)\]")
_BOARD = {"DealFlop", "DealTurn", "DealRiver"}
_PLAIN = {"Call": "call", "Bet": "bet"}
CENT = Decimal("0.01")


def detect(head: str) -> bool:
    """A MicroGaming export: a ``<Game hhversion="N" ...>`` element."""
    return bool(_DETECT.search(head))


def read(text: str, source: str) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each ``<Game>`` of the document as a :class:`SiteHand` (or its error), with the
    line it starts on."""
    return hands_of(xml_units(text, "Game"), _hand, faults=(ValueError, ArithmeticError))


def _b64(text: str | None) -> str:
    """A base64 UTF-16 attribute as text ('' where it is not one)."""
    try:
        return base64.b64decode(text or "", validate=True).decode("utf-16-le")
    except (binascii.Error, ValueError):
        return ""


def _cards(el: ET.Element) -> tuple[str, ...]:
    return tuple(card_text((c.get("value") or "") + (c.get("suit") or ""))
                 for c in el.findall("Card"))


def _hand(game: ET.Element, at: int) -> SiteHand:
    gtype = (game.get("gametype") or "").strip().lower()
    gtype = re.sub(r"^(multi table|single table|sit ?(?:&|and|n) ?go)\s+", "", gtype)
    game_name = _GAMES.get(gtype)
    if game_name is None:
        raise SiteError(f"line {at}: unknown MicroGaming game {game.get('gametype')!r}")
    betting = _BETTING.get((game.get("betlimit") or "").lower())
    if betting is None:
        raise SiteError(f"line {at}: unknown MicroGaming limit {game.get('betlimit')!r}")
    stakes = Stakes.of_pair(game.get("stakes"), "|", betting, at)
    table = game.get("tablename") or _b64(game.get("unicodetablename")) or None
    tournament = None
    if game.get("istournament") == "1":
        m = _TOURNAMENT_ID.search(table or "")
        tournament = Tournament(id=m.group(1) if m else (table or ""))
        currency: str | None = "chips"
    else:
        currency = _SYMBOLS.get(_b64(game.get("currencysymbol")).strip())
        if game.get("realmoney") == "false":
            currency = "chips"
    date = game.get("date") or ""
    time = date.replace(" ", "T") if re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", date) \
        else None

    seats: list[Seat] = []
    by_num: dict[str, Seat] = {}
    button = None
    holder = game.find("Seats")
    for s in holder.findall("Seat") if holder is not None else []:
        name = s.get("alias") or _b64(s.get("unicodealias"))
        seat = Seat(int(s.get("num", "")), name, amount_or_zero(s.get("balance"), at),
                    in_hand=False)
        seats.append(seat)
        by_num[s.get("num", "")] = seat
        if s.get("dealer") == "true":
            button = seat.seat
    seats.sort(key=lambda s: s.seat)
    hero_seat = by_num.get(game.get("playerseat") or "")
    size = game.get("tablesize") or ""
    info = SiteInfo(site="microgaming", hand_id=game.get("id", ""), game=game_name,
                    betting=betting, table=table, time=time, currency=currency,
                    tournament=tournament, hero=hero_seat.name if hero_seat else None, line=at)
    hand = SiteHand(info=info, seats=seats, stakes=stakes, button=button,
                    max_seats=int(size) if size.isdigit() else None)

    def name_of(num: str | None) -> str:
        return acting(by_num, num, at)

    play = game.find("Gameplay")
    acts = play.findall("Action") if play is not None else []
    bets = ActionBets()
    actions: list[Event] = []
    holes: list[Event] = []
    shows: dict[str, Event] = {}
    printed_back: dict[str, Decimal] = {}
    wins: list[tuple[str, str, Decimal]] = []     # (player, pot, amount) as printed
    fee = ZERO
    blinds = 0
    voluntary = False
    for a in acts:
        kind = a.get("type", "")
        if kind == "Win":
            for s in a.findall("Seat"):
                pot = s.get("pot") or "0"
                pot = "main pot" if pot == "0" else f"side pot-{pot}"
                if s.get("lowhandwin") == "1":
                    pot += " (low)"
                wins.append((name_of(s.get("num")), pot, amount_or_zero(s.get("amount"), at)))
            continue
        if kind in _BOARD:
            actions.append(bets.add(Event("board", cards=_cards(a), line=at)))
            continue
        if kind == "Disconnect":
            continue
        who = name_of(a.get("seat"))
        value = amount_or_zero(a.get("value"), at)
        if kind == "DealCards":
            holes.append(Event("hole", who, cards=_cards(a), line=at))
        elif kind in ("ShowCards", "MuckCards"):
            cards = _cards(a)
            if cards or kind == "MuckCards":
                shows[who] = Event("show" if kind == "ShowCards" else "muck", who,
                                   cards=cards, line=at)
        elif kind == "SmallBlind":
            blinds += 1
            actions.append(bets.event("small_blind" if blinds == 1 else "post", who, value, at))
        elif kind == "BigBlind":
            blinds = max(blinds, 1) + 1
            actions.append(bets.event("big_blind" if blinds == 2 else "post", who, value, at))
        elif kind == "AllIn" and not voluntary and blinds < 2:
            blinds += 1     # a blind that puts the player all in
            forced = "small_blind" if blinds == 1 else "big_blind"
            actions.append(bets.event(forced, who, value, at, allin=True))
        elif kind == "AllIn":
            voluntary = True
            actions.append(bets.adding(who, value, at, allin=True))
        elif kind == "Raise":
            voluntary = True
            actions.append(bets.adding(who, value, at))
        elif kind in _PLAIN:
            voluntary = True
            actions.append(bets.event(_PLAIN[kind], who, value, at))
        elif kind == "Check":
            actions.append(bets.event("check", who, line=at))
        elif kind == "Fold":
            actions.append(bets.event("fold", who, line=at))
        elif kind == "MoneyReturned":
            printed_back[who] = printed_back.get(who, ZERO) + value
        elif kind == "BadBeatContribution":
            actions.append(Event("dead", who, value, line=at))
            fee += value
        elif value:
            raise SiteError(f"line {at}: unknown MicroGaming action {kind!r}")
    if not any(e.kind in ("small_blind", "big_blind", "post") for e in actions):
        raise SiteError(f"line {at}: hand {info.hand_id} was cancelled (no blinds posted)")

    hand.events = holes + actions
    back = returned(hand)
    events = hand.events
    folded = {e.player for e in actions if e.kind == "fold"}
    if len([s for s in seats if s.in_hand and s.name not in folded]) > 1:
        events.extend(shows.values())   # a showdown (a lone winner's muck shows nothing)
    # a win holds the uncalled bet the betting leaves, less what MoneyReturned gave back
    extra = {who: back.get(who, ZERO) - printed_back.get(who, ZERO)
             for who in set(back) | set(printed_back)}
    for who, pot, won in wins:
        take = won
        if extra.get(who, ZERO) > 0:
            cut = min(take, extra[who])
            take, extra[who] = take - cut, extra[who] - cut
        if take > 0:
            events.append(Event("collect", who, take, line=at, pot=pot))
    for who, left in extra.items():
        if left > 0:
            raise SiteError(f"line {at}: the chips do not add up: the betting leaves "
                            f"{back[who]} of {who!r} uncalled, the file gives back "
                            f"{printed_back.get(who, ZERO)} and pays "
                            f"{sum((w for p, _, w in wins if p == who), ZERO)}")
        if left < 0:
            raise SiteError(f"line {at}: the chips do not add up: the file gives back "
                            f"{printed_back[who]} to {who!r}, more than the "
                            f"{back.get(who, ZERO)} its betting leaves uncalled")
    hand.events = events
    if fee:
        info.fees["bad beat jackpot"] = fee
    rake_attr = (game.get("rake") or "").strip()
    hand.rake = Decimal(rake_attr) * CENT if rake_attr.isdigit() else None
    return hand
