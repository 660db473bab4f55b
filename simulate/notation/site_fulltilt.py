"""Full Tilt Poker hand histories, transcribed into :class:`SiteHand` records.

The grammar, line by line:

- header: ``Full Tilt Poker Game #ID: `` then a cash table ``Table NAME[ (6 max|heads up|
  9 max, shallow|...)]`` or a tournament ``EVENT (TID), Table N``, then `` - `` parts: the
  game (``NL|PL|FL|CAP NL|$X Cap No Limit`` and ``Hold'em|Omaha Hi|Omaha H/L|7 Card Stud
  |Razz|...``), the stakes (``$5/$10``, ``15/30``, ``300/600 Ante 75``; fixed limit: the
  small and big bet), ``TIME ZONE - DATE`` and maybe ``[TIME ET - DATE]``; a
  ``(partial)`` tag is allowed;
- ``Seat N: NAME (STACK)[, is sitting out]``; ``The button is in seat #N``;
- ``NAME posts the small blind of X|the big blind of X|a dead small blind of X|X``,
  ``NAME antes X``, ``NAME folds|checks|calls X|bets X|raises to X|brings in for X|
  completes it to X|discards N cards|stands pat|shows [..] ...|mucks`` (``, and is all
  in``, ``, and is capped``), ``Dealt to NAME [..]``;
- ``*** HOLE CARDS|FLOP|TURN|RIVER|SHOW DOWN|SUMMARY ***``, a board run twice as
  ``*** FLOP|TURN|RIVER 1|2 ***``, stud ``*** 3RD STREET ***``..., draw ``*** DRAW ***``;
- ``Uncalled bet of X returned to NAME``, ``NAME wins|ties for the [high |low |main ]pot
  (X)|pot N (X)|side pot #N (X)``;
- summary: ``Total pot X[ Main pot X. Side pot N X.] | Rake Y``.

Cards shown before the board is out (all in) are kept until the showdown. Chat, time
warnings, chips added between hands and seat changes move no chips and are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

from simulate.notation.site_hand import Event, Seat, SiteHand, Stakes
from simulate.notation.site_read import READ_FAULTS, read_hands, seated_name, site_line
from simulate.notation.site_stars import BRACKETS, SUMMARY_SEAT, SUMMARY_SHOW, TOTAL_POT
from simulate.notation.site_text import (
    CURRENCY_SIGNS,
    SiteError,
    SiteInfo,
    Tournament,
    amount_at,
    cards_of,
)
from simulate.notation.site_zones import local_time

__all__ = ["detect", "read"]

_START = re.compile(r"^[ \t\ufeff]*Full ?Tilt Poker(?: Game)? #\d+:", re.M)
_HEADER = re.compile(r"^Full ?Tilt Poker(?: Game)? #(?P<id>\d+):\s*(?P<rest>.*)$")
GAME_NAMES = {
    "Hold'em": "holdem", "Omaha Hi": "omaha", "Omaha": "omaha", "Omaha H/L": "omaha_hilo",
    "Omaha Hi/Lo": "omaha_hilo", "5 Card Omaha": "omaha5", "5 Card Omaha H/L": "omaha5_hilo",
    "7 Card Stud": "stud", "7 Card Stud H/L": "stud_hilo", "Stud H/L": "stud_hilo",
    "Razz": "razz", "2-7 Triple Draw": "2-7_triple_draw", "2-7 Single Draw": "2-7_single_draw",
    "Triple Draw 2-7 Lowball": "2-7_triple_draw", "Badugi": "badugi",
    "5 Card Draw": "5_card_draw", "A-5 Triple Draw": "a-5_triple_draw",
}
_GAME_RE = "|".join(re.escape(g) for g in sorted(GAME_NAMES, key=len, reverse=True))
_GAME = re.compile(r"(?:(?P<cap>[$€£]?[\d.,]+ Cap|CAP) )?(?P<limit>NL|PL|FL|No Limit|Pot Limit"
                   rf"|Fixed Limit|Limit)? ?(?P<game>{_GAME_RE})(?![\w/])")
_LIMITS = {"NL": "no-limit", "No Limit": "no-limit", "PL": "pot-limit",
           "Pot Limit": "pot-limit", "FL": "fixed-limit", "Fixed Limit": "fixed-limit",
           "Limit": "fixed-limit"}
_STAKES = re.compile(r"(?:^| - )(?P<sb>[$€£]?[\d.,]+)/(?P<bb>[$€£]?[\d.,]+)"
                     r"(?: Ante (?P<ante>[$€£]?[\d.,]+))?(?= - |$)")
_WHEN = re.compile(r"(?P<t>\d{1,2}:\d{2}:\d{2}) (?P<z>[A-Z]+) - (?P<d>\d{4}/\d{1,2}/\d{1,2})")
_CASH_TABLE = re.compile(r"^Table (?P<table>.+?)(?: \((?P<opts>[^)]*)\))?(?: - |$)")
_TOURNEY = re.compile(r"^(?P<event>.*?)\s*\((?P<tid>\d+)\),\s*Table (?P<table>[^\s-]+)")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>[$€£]?[\d.,]+)\)"
                   r"(?P<rest>.*)$")
_UNCALLED = re.compile(r"^Uncalled bet of (?P<amount>\S+) returned to (?P<name>.*)$")
_WINS = re.compile(r"^(?:wins|ties for) (?:the )?(?P<pot>(?P<kind>(?:(?:high|low|main|side) )*)"
                   r"pot(?: (?P<hash>#)?(?P<no>\d+))?) \((?P<amount>[^)]*)\)")
_TAIL = re.compile(r",? and is (?:all in|capped)\s*$")


def detect(head: str) -> bool:
    """Whether ``head`` starts a Full Tilt Poker export."""
    return _START.search(head) is not None


def read(text: str, source: str) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each hand of a Full Tilt document (see the module docstring)."""
    return read_hands(text, _START, _read_hand, name_line=True, faults=READ_FAULTS,
                    what="Full Tilt")


def _header(line: str, where: int) -> tuple[SiteInfo, Stakes, int | None]:
    m = site_line(_HEADER, line.strip().lstrip("\ufeff"), where, "a Full Tilt hand header")
    rest = m["rest"].replace(" (partial)", "")
    g = _GAME.search(rest)
    if g is None:
        raise SiteError(f"line {where}: unknown game in {rest[:80]!r}")
    game = GAME_NAMES[g["game"]]
    limit = g["limit"] or ("no-limit" if g["cap"] else None)
    betting = _LIMITS.get(limit, limit) if limit else (
        "fixed-limit" if game in ("stud", "stud_hilo", "razz", "badugi", "2-7_triple_draw")
        else "no-limit")
    stakes = Stakes()
    s = _STAKES.search(rest)
    currency = None
    if s is not None:
        a, b = amount_at(s["sb"], where), amount_at(s["bb"], where)
        if betting == "fixed-limit":
            stakes.small_bet, stakes.big_bet = a, b
        else:
            stakes.small_blind, stakes.big_blind = a, b
        if s["ante"]:
            stakes.ante = amount_at(s["ante"], where)
        currency = CURRENCY_SIGNS.get(s["sb"][0], "chips")
    info = SiteInfo(site="fulltilt", hand_id=m["id"], game=game, betting=betting,
                    currency=currency, line=where)
    max_seats = None
    t = _TOURNEY.match(rest)
    c = _CASH_TABLE.match(rest)
    if t is not None and not rest.startswith("Table "):
        buy = re.match(r"[$€£]?\d[\d.,]*(?:\s*\+\s*[$€£]?\d[\d.,]*)?", t["event"])
        info.tournament = Tournament(id=t["tid"], buy_in=buy[0] if buy else None)
        info.table = t["table"]
        info.currency = "chips"
    elif c is not None:
        info.table = c["table"]
        opts = (c["opts"] or "").lower()
        mx = re.search(r"(\d+) max", opts)
        max_seats = int(mx[1]) if mx else (2 if "heads up" in opts else None)
        if "play money" in opts:
            info.currency = "chips"
    w = _WHEN.search(rest)
    if w is not None:
        info.time = local_time(w["d"], w["t"], w["z"])
    return info, stakes, max_seats


def _read_hand(chunk: str, first: int) -> SiteHand:
    lines = chunk.split("\n")
    info, stakes, max_seats = _header(lines[0], first)
    seats: list[Seat] = []
    names: set[str] = set()
    events: list[Event] = []
    pending: list[Event] = []  # cards shown before the showdown
    shown: set[str] = set()
    folded: set[str] = set()
    runs: set[int] = set()
    seen_blinds: set[str] = set()
    button = None
    rake = total = None
    section = "seats"
    run = 1

    def add(kind: str, player: str | None = None, amount: Decimal | None = None,
            cards: tuple[str, ...] = (), n: int = 0, allin: bool = False,
            pot: str | None = None, on: int | None = None) -> None:
        events.append(Event(kind, player, amount, cards, n, allin, pot, on or run))

    def flush() -> None:
        events.extend(pending)
        pending.clear()

    for n, raw in enumerate(lines[1:], start=first + 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("*** "):
            name = line[4:line.find(" ***", 4)] if " ***" in line[4:] else line.strip("* ")
            word, _, num = name.rpartition(" ")
            if num.isdigit() and word in ("FLOP", "TURN", "RIVER", "SHOW DOWN", "SUMMARY"):
                name, run = word, int(num)
            if name == "SUMMARY":
                flush()
                section = "summary"
                continue
            if section == "summary":
                continue
            if name in ("FLOP", "TURN", "RIVER"):
                groups = BRACKETS.findall(line)
                if not groups:
                    raise SiteError(f"line {n}: a board without cards")
                runs.add(run)
                add("board", cards=cards_of(groups[-1]), n=n)
            elif name == "SHOW DOWN":
                flush()
            elif "STREET" in name or "DRAW" in name:
                add("street", n=n)
            section = "body"
            continue
        if section == "summary":
            if line.startswith("Total pot"):
                parts = [p.strip() for p in line.split("|")]
                mt = TOTAL_POT.match(parts[0])
                if mt is not None:
                    total = amount_at(mt["total"].rstrip("."), n)
                for p in parts[1:]:
                    label, _, amount = p.rpartition(" ")
                    if label.lower() == "rake":
                        rake = amount_at(amount, n)
                    elif label and amount_at(amount, n):
                        info.fees[label.lower()] = amount_at(amount, n)
            elif line.startswith("Seat "):
                ms = SUMMARY_SEAT.match(line)
                who = next((s for s in seats if ms and s.seat == int(ms["seat"])), None)
                sh = SUMMARY_SHOW.search(ms["rest"]) if ms and who else None
                if who is not None and sh is not None and who.name not in shown:
                    shown.add(who.name)
                    kind = "show" if sh["kind"] == "showed" else "muck"
                    at = next((i for i, e in enumerate(events) if e.kind == "collect"),
                              len(events))
                    events.insert(at, Event(kind, who.name, None, cards_of(sh["cards"]), n))
            continue
        if section == "seats":
            if line.startswith("Seat "):
                m = _SEAT.match(line)
                if m is not None:
                    out = "sitting out" in m["rest"]
                    seats.append(Seat(int(m["seat"]), m["name"], amount_at(m["stack"], n),
                                      in_hand=not out))
                    names.add(m["name"])
                    continue
        if line.startswith("The button is in seat #"):
            button = int(line[len("The button is in seat #"):].strip())
            continue
        if line.startswith("Dealt to "):
            pos = line.find(" [", 9)
            while pos != -1 and line[9:pos] not in names:
                pos = line.find(" [", pos + 1)
            if pos != -1:
                groups = BRACKETS.findall(line[pos:])
                if info.hero is None:
                    info.hero = line[9:pos]
                add("hole", line[9:pos], cards=cards_of(groups[-1]), n=n)
            continue
        if line.startswith("Uncalled bet of "):
            mu = _UNCALLED.match(line)
            if mu is None or mu["name"].strip() not in names:
                raise SiteError(f"line {n}: an uncalled bet returned to no seat: {line!r}")
            add("uncalled", mu["name"].strip(), amount_at(mu["amount"], n), n=n)
            continue
        got = seated_name(names, line)
        if got is None:
            continue
        who, rest = got
        allin = "all in" in rest[-14:]
        rest = _TAIL.sub("", rest)
        if rest == "folds" or rest.startswith("folds "):
            folded.add(who)
            add("fold", who, n=n)
        elif rest == "checks":
            add("check", who, n=n)
        elif rest.startswith("calls "):
            add("call", who, amount_at(rest[6:], n), n=n, allin=allin)
        elif rest.startswith("bets "):
            add("bet", who, amount_at(rest[5:], n), n=n, allin=allin)
        elif rest.startswith("raises to "):
            add("raise", who, amount_at(rest[10:], n), n=n, allin=allin)
        elif rest.startswith("posts ") or rest.startswith("antes "):
            _post(add, seen_blinds, who, rest, n, allin)
        elif rest.startswith("brings in for "):
            add("bring_in", who, amount_at(rest[14:], n), n=n, allin=allin)
        elif rest.startswith("completes it to "):
            add("complete", who, amount_at(rest[16:], n), n=n, allin=allin)
        elif rest.startswith("discards"):
            groups = BRACKETS.findall(rest)
            md = re.match(r"discards (\d+)", rest)
            cards = cards_of(groups[0]) if groups else ("??",) * (int(md[1]) if md else 0)
            add("discard", who, cards=cards, n=n)
        elif rest.startswith("stands pat"):
            add("stand", who, n=n)
        elif rest.startswith("shows ["):
            if who not in shown:
                shown.add(who)
                pending.append(Event("show", who, None,
                                     cards_of(BRACKETS.findall(rest)[0]), n, run=run))
        elif rest == "mucks" or rest.startswith("mucks "):
            # a muck counts at a showdown (someone showed), not from a winner unopposed
            if who not in shown and any(e.kind == "show" for e in events + pending):
                shown.add(who)
                pending.append(Event("muck", who, None, (), n, run=run))
        elif rest.startswith(("wins ", "ties for ")):
            mw = _WINS.match(rest)
            if mw is None:
                raise SiteError(f"line {n}: {line!r}")
            flush()
            # "wins pot 2" of a hand run twice: the second board's pot (not "side pot #2")
            on = (int(mw["no"]) if mw["no"] and not mw["hash"] and not mw["kind"]
                  and len(runs) > 1 else None)
            add("collect", who, amount_at(mw["amount"], n), n=n, pot=mw["pot"], on=on)
    if section != "summary":
        raise SiteError(f"line {first}: the hand stops before its summary (truncated)")
    if not seats:
        raise SiteError(f"line {first}: the hand lists no seats (cut short)")
    return SiteHand(info=info, seats=seats, stakes=stakes, events=events, button=button,
                    rake=rake, total_pot=total, max_seats=max_seats)


def _post(add, seen: set[str], who: str, rest: str, n: int, allin: bool) -> None:  # noqa: ANN001
    amount_text = rest.rsplit(" ", 1)[-1]
    amount = amount_at(amount_text, n)
    if rest.startswith("antes ") or "the ante" in rest:
        add("ante", who, amount, n=n, allin=allin)
    elif "dead" in rest:
        add("dead", who, amount, n=n, allin=allin)
    elif "small blind" in rest or "big blind" in rest:
        # a second blind of a kind: a small one is dead money, a big one a live post
        blind, again = (("small_blind", "dead") if "small blind" in rest else
                        ("big_blind", "post"))
        add(again if blind in seen else blind, who, amount, n=n, allin=allin)
        seen.add(blind)
    else:  # "posts $X": a new player's live post
        add("post", who, amount, n=n, allin=allin)
