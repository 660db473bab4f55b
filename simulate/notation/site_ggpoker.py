"""GGPoker (PokerCraft) hand histories: the ``Poker Hand #...`` text exports.

The grammar, line by line (amounts with or without a currency sign; ``#RC``, ``#HD``,
``#OM``... cash, ``#TM`` tournament hands):

- header ``Poker Hand #ID: [Tournament #N, NAME ]GAME (SB/BB[/STRADDLE]) - DATE`` or, in a
  tournament, ``... GAME - Level12(500/1,000(125)) - DATE``; the table line
  ``Table 'NAME' 6-max Seat #N is the button``; seats ``Seat N: NAME ($X in chips)``;
- forced bets ``NAME: posts small blind $X`` / ``big blind`` / ``the ante X`` /
  ``missed blind $X`` (dead) / ``straddle $X``; a second ``big blind`` is a post; short
  deck (``ShortDeck No Limit ($ANTE)``, played with GG's ranking: trips above a straight)
  has antes and the button's live ``posts button blind $X``;
- ``Dealt to NAME [cards]`` (cards only for the hero), actions ``folds``, ``checks``,
  ``calls X``, ``bets X``, ``raises X to Y`` (Y: the street total), ``... and is all-in``;
- boards ``*** FLOP *** [..]``, and for a hand run more than once ``*** FIRST FLOP ***``,
  ``*** SECOND TURN *** [..] [4d]`` (each run's own cards), ``*** FIRST SHOWDOWN ***``;
- ``Uncalled bet ($X) returned to NAME``, ``NAME collected $X from pot`` (one line per
  pot and run), ``NAME: shows [..]``, ``NAME: mucks``; the EV cash-out
  (``Receives Cashout ($X)``: paid to the player outside the pot; ``Pays Cashout Risk
  ($X)``: what a player who cashed out and then won pays back) and all-in insurance lines;
- the summary ``Total pot $X | Rake $Y | Jackpot $Z | Bingo $0 | Fortune $0 | Tax $0``:
  the rake, and each other item a fee taken from the pot.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

from simulate.notation.site_hand import Event, Seat, SiteHand, Stakes
from simulate.notation.site_ledger import Wording, pot_summary
from simulate.notation.site_read import at_line, betting_of, body_lines, read_headed, table_line
from simulate.notation.site_stars import BRACKETS
from simulate.notation.site_text import SiteError, SiteInfo, Tournament, cards_of, parse_amount
from simulate.notation.site_zones import checked_time

__all__ = ["detect", "read"]

_START = re.compile(r"^Poker Hand #[A-Z]{0,3}\d+: ", re.M)
_HEAD = re.compile(
    r"^Poker Hand #(?P<id>[A-Z]{0,3}\d+): (?:Tournament #(?P<tid>\d+), (?P<tname>.*?) )?"
    r"(?P<game>(?:Hold'em|PLO|Omaha|Short ?Deck|6\+|Pot Limit|No Limit|Fixed Limit|Limit)"
    r".*?)\s*(?:\((?P<stakes>[^()]*)\)\s*)?"
    r"(?:- Level\s*(?P<level>\d+)\s*\((?P<lstakes>[^()]*(?:\([^()]*\))?)\)\s*)?"
    r"- (?P<date>\d{4}/\d\d?/\d\d? \d\d?:\d\d:\d\d)(?: (?P<zone>[A-Z]{2,5}))?")
_TABLE = re.compile(r"^Table '(?P<table>.*)' (?P<max>\d+)-max(?: Seat #(?P<button>\d+) is the "
                    r"button)?")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.*) \((?P<stack>[^()]*?) in chips"
                   r"(?P<rest>.*)\)(?P<out>.*)$")
_ACT = re.compile(r"^(?P<name>.+?): (?P<verb>posts small blind|posts big blind|posts the ante|"
                  r"posts ante|posts missed blind|posts dead blind|posts straddle|straddle|"
                  r"posts button blind|"
                  r"posts|Bet & Muck|folds|checks|calls|bets|raises|shows|mucks|"
                  r"Chooses to EV Cashout|Receives Cashout|Pays Cashout Risk|"
                  r"Pays Insurance Premium|"
                  r"Receives Insurance|doesn't show|sits out|is sitting out)\b(?P<rest>.*)$")
_MONEY = r"[$€£¥₹]?[0-9][0-9,.]*[kKmM]?"
_WORDS = Wording(_MONEY)
_amount = _WORDS.first  # the first amount of a line
_BOARD = re.compile(r"^\*\*\* (?:(?P<run>FIRST|SECOND|THIRD|FOURTH) )?(?P<street>FLOP|TURN|RIVER)"
                    r" \*\*\*")
_RUNS = {None: 1, "FIRST": 1, "SECOND": 2, "THIRD": 3, "FOURTH": 4}
_SHOWDOWN = re.compile(r"^\*\*\* (?:(?P<run>FIRST|SECOND|THIRD|FOURTH) )?SHOWDOWN \*\*\*")
_COLLECT = re.compile(rf"^(?P<name>.+?) collected \(?(?P<a>{_MONEY})\)? from (?P<pot>.*?)\s*$")
_DEALT = re.compile(r"^Dealt to (?P<name>.+?)\s*(?:\[(?P<cards>[^\]]*)\])?\s*$")
_DROP = re.compile(rf"^Cash Drop to Pot\s*:?\s*total\s+(?P<a>{_MONEY})")
_CURRENCY = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "CNY", "₹": "INR"}


def detect(head: str) -> bool:
    """Whether ``head`` starts a GGPoker export (``Poker Hand #XX123: ``)."""
    return _HEAD.match(head) is not None


def read(text: str, source: str) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each hand of a GGPoker document (see the module docstring)."""
    return read_headed(text, _START, _HEAD, "a GGPoker hand header", _hand)


def _game(text: str) -> tuple[str, str]:
    t = text.lower()
    betting = "pot-limit" if "plo" in t else betting_of(t) or "no-limit"
    if "short deck" in t or "shortdeck" in t or t.startswith("6+"):
        game = "short_deck_triton"  # GG's short deck: trips above a straight
    elif "plo" in t or "omaha" in t:
        n = re.search(r"(?:plo|omaha)[- ]?([56])|([56])[- ]card", t)
        k = (n.group(1) or n.group(2)) if n else None
        game = {"5": "omaha5", "6": "omaha6"}.get(k or "", "omaha")
        if "hi/lo" in t or "hi-lo" in t or "hilo" in t or " 8" in t:
            game = "omaha5_hilo" if game == "omaha5" else "omaha_hilo"
    elif "hold'em" in t or "holdem" in t:
        game = "holdem"
    else:
        raise SiteError(f"unknown GGPoker game {text!r}")
    return game, betting


def _hand(m: re.Match[str], lines: list[str], first: int) -> SiteHand:
    game, betting = _game(m["game"])
    stakes = Stakes()
    parts = [p for p in re.split(r"[/()]", m["lstakes"] or m["stakes"] or "") if p.strip()]
    try:
        amounts = [parse_amount(p) for p in parts]
    except SiteError as exc:
        raise SiteError(f"line {first}: {exc}") from None
    if len(amounts) >= 2:
        stakes.small_blind, stakes.big_blind = amounts[0], amounts[1]
        if m["lstakes"] and len(amounts) >= 3:
            stakes.ante = amounts[2]
    elif len(amounts) == 1:  # short deck: the ante alone (the button blind is one ante)
        stakes.ante = amounts[0]
    sign = next((c for c in (m["stakes"] or "") if c in _CURRENCY), None)
    tour = None
    if m["tid"]:
        tour = Tournament(m["tid"], _buy_in(m["tname"]), m["level"])
    date = m["date"].replace("/", "-")
    y, mo, d = date.split(" ")[0].split("-")
    info = SiteInfo(site="ggpoker", hand_id=m["id"], game=game, betting=betting,
                    time=checked_time(f"{y}-{int(mo):02d}-{int(d):02d}T{_hms(date.split(' ')[1])}",
                                      first),
                    currency="chips" if tour else _CURRENCY.get(sign or "$", "USD"),
                    tournament=tour, line=first)
    hand = SiteHand(info=info, seats=[], stakes=stakes)
    ev = hand.events
    run = 1
    drop = Decimal(0)
    big_posted = False
    summary = False
    ln = first
    try:
        for ln, s in body_lines(lines, first):
            if summary:
                pot_summary(hand, s, _WORDS.amount)
                continue
            if s.startswith("*** SUMMARY"):
                summary = True
                continue
            if s.startswith("Table '"):
                table_line(hand, _TABLE, s)
                continue
            if s.startswith("Seat ") and not ev:
                t = _SEAT.match(s)
                if t:
                    hand.seats.append(Seat(int(t["seat"]), t["name"], parse_amount(t["stack"]),
                                           "sitting out" not in t["out"]))
                    continue
            b = _BOARD.match(s)
            if b:
                run = _RUNS[b["run"]]
                groups = BRACKETS.findall(s)
                if not groups:
                    raise SiteError(f"line {ln}: a board without cards")
                cards = cards_of(groups[-1])
                ev.append(Event("board", cards=cards, line=ln, run=run))
                continue
            sd = _SHOWDOWN.match(s)
            if sd:
                run = _RUNS[sd["run"]]
                continue
            if s.startswith("***"):
                continue
            t = _DROP.match(s)
            if t:
                drop += parse_amount(t["a"])
                continue
            t = _DEALT.match(s)
            if t:
                cards = cards_of(t["cards"]) if t["cards"] else ()
                if cards:  # the hero's ("Hero" where several are printed)
                    if info.hero is None or t["name"] == "Hero":
                        info.hero = t["name"]
                    ev.append(Event("hole", t["name"], cards=cards, line=ln))
                continue
            t = _WORDS.uncalled.match(s)
            if t:
                ev.append(Event("uncalled", t["name"], parse_amount(t["a"]), line=ln))
                continue
            t = _COLLECT.match(s)
            if t and ": " not in s.split(" collected ")[0][-2:]:
                ev.append(Event("collect", t["name"], parse_amount(t["a"]), line=ln,
                                pot=t["pot"], run=run))
                continue
            t = _ACT.match(s)
            if t:
                big_posted = _action(ev, t["name"], t["verb"], t["rest"], ln, big_posted)
    except SiteError as exc:
        raise at_line(exc, ln) from None
    if not hand.seats:
        raise SiteError(f"line {first}: a hand without seats")
    if drop:
        _cash_drop(ev, drop)
    return hand


def _hms(t: str) -> str:
    h, mi, se = t.split(":")
    return f"{int(h):02d}:{mi}:{se}"


def _buy_in(name: str | None) -> str | None:
    if not name:
        return None
    m = re.search(r"[$€£¥₹][0-9][0-9,.]*(?:\s*\+\s*[$€£¥₹]?[0-9][0-9,.]*)*", name)
    return m.group(0) if m else None


def _action(ev: list[Event], name: str, verb: str, rest: str, ln: int, big: bool) -> bool:
    allin = "all-in" in rest
    if verb == "posts small blind":
        # a small blind posted after the big blind (a returning player): dead money
        ev.append(Event("dead" if big else "small_blind", name, _amount(rest), line=ln))
    elif verb == "posts big blind":
        ev.append(Event("post" if big else "big_blind", name, _amount(rest), line=ln))
        return True
    elif verb in ("posts the ante", "posts ante"):
        ev.append(Event("ante", name, _amount(rest), line=ln))
    elif verb in ("posts missed blind", "posts dead blind"):
        ev.append(Event("dead", name, _amount(rest), line=ln))
    elif verb == "posts button blind":  # short deck: the button's live blind
        ev.append(Event("big_blind", name, _amount(rest), line=ln))
        return True
    elif verb in ("straddle", "posts straddle"):
        ev.append(Event("straddle", name, _amount(rest), line=ln))
    elif verb == "posts":
        ev.append(Event("post", name, _amount(rest), line=ln))
    elif verb == "Bet & Muck":  # the "bet and muck" button: a bet, then a muck when called
        if "fold" in rest:
            ev.append(Event("muck", name, line=ln))
        else:
            ev.append(Event("bet", name, _amount(rest), line=ln, allin=allin))
    elif verb == "folds":
        ev.append(Event("fold", name, line=ln))
    elif verb == "checks":
        ev.append(Event("check", name, line=ln))
    elif verb in ("calls", "bets"):
        ev.append(Event("call" if verb == "calls" else "bet", name, _amount(rest),
                        line=ln, allin=allin))
    elif verb == "raises":
        m = _WORDS.raise_to.match(rest)
        if m is None:
            raise SiteError(f"a raise without its total: {rest.strip()!r}")
        ev.append(Event("raise", name, parse_amount(m["to"]), line=ln, allin=allin))
    elif verb == "shows":
        g = BRACKETS.search(rest)
        ev.append(Event("show", name, cards=cards_of(g.group(1)) if g else (), line=ln))
    elif verb == "mucks":
        g = BRACKETS.search(rest)
        ev.append(Event("muck", name, cards=cards_of(g.group(1)) if g else (), line=ln))
    elif verb in ("Receives Cashout", "Receives Insurance"):
        ev.append(Event("cashout", name, _amount(rest), line=ln))
    elif verb in ("Pays Cashout Risk", "Pays Insurance Premium"):
        ev.append(Event("cashout", name, -_amount(rest), line=ln))
    return big


def _cash_drop(ev: list[Event], drop: Decimal) -> None:
    """The house's "Cash Drop to Pot": money added to the pot, not put in by a player. The
    winner's collection holds it; it is taken out of the collections (first pot first) and
    paid to the same players as a ``cashout`` event (pot ``cash drop``), so the pots hold
    only what the players put in."""
    left = drop
    for e in list(ev):
        if e.kind == "collect" and e.amount and left:
            cut = min(left, e.amount)
            e.amount -= cut
            left -= cut
            ev.append(Event("cashout", e.player, cut, line=e.line, pot="cash drop"))
    if left:
        raise SiteError(f"a cash drop of {drop} but only {drop - left} collected")
