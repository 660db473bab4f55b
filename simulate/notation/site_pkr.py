"""PKR hand histories, transcribed into :class:`SiteHand` records.

The grammar, line by line (a hand runs from ``Table #N - NAME`` to ``End of Hand #ID``):

- header lines ``Starting Hand #ID``, ``Start time of hand: 05 Oct 2013 01:15:45`` (no
  zone printed), ``Last Hand #ID``, ``Game Type: HOLD'EM|OMAHA|...``, ``Limit Type: NO
  LIMIT|POT LIMIT|FIXED LIMIT``, ``Table Type: RING|TOURNAMENT``, ``Money Type: REAL
  MONEY|PLAY MONEY``, ``Blinds are now $SB / $BB``, ``Button is at seat N``;
- ``Seat N: NAME - $STACK[ (away from table)]`` (listed again at the end with the final
  stacks: those are not read), ``Moving Button to seat N`` (the hand's button);
- ``NAME posts small blind ($X)|big blind ($X)``, ``Dealing [R s][R s] to NAME``,
  ``NAME folds|checks|calls $X|bets $X|raises to $X[ (all-in)]``: PKR prints a call as
  the player's street total, like a raise (``calls $1.25`` after the big blind's $0.50
  adds $0.75), so a call's amount here is that total less what the player had in;
- ``Dealing Flop|Turn|River [R s]...``, ``Pot sizes: $X``, ``Taking Rake of $X from pot
  N``, ``NAME shows [..]``, ``NAME mucks``, ``NAME wins $X[ with: ...]``.

PKR prints no returned uncalled bet: :meth:`SiteHand.return_uncalled` returns the part of
a street's largest bet that no one matched (the pot it wins excludes it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from decimal import Decimal

from simulate.notation.site_hand import Event, Seat, SiteHand, Stakes, StreetBets
from simulate.notation.site_read import READ_FAULTS, read_hands, seated_name
from simulate.notation.site_text import CURRENCY_SIGNS, SiteError, SiteInfo, amount_at, card_text

__all__ = ["detect", "read"]

_START = re.compile(r"^[ \t\ufeff]*Table #\d+[^\n]*\n[ \t]*Starting Hand #\d+", re.M)
_DETECT = re.compile(r"^[ \t\ufeff]*Starting Hand #\d+\s*\n[ \t]*Start time of hand:", re.M)
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) - (?P<stack>[$€£]?[\d.,]+)"
                   r"(?P<rest>.*)$")
_CARD = re.compile(r"\[\s*(\w{1,2})\s*(\w)\s*\]")
_GAMES = {"HOLD'EM": "holdem", "HOLDEM": "holdem", "OMAHA": "omaha",
          "OMAHA HI-LO": "omaha_hilo", "OMAHA HI/LO": "omaha_hilo", "7 CARD STUD": "stud",
          "RAZZ": "razz"}
_LIMITS = {"NO LIMIT": "no-limit", "POT LIMIT": "pot-limit", "FIXED LIMIT": "fixed-limit",
           "LIMIT": "fixed-limit"}
_MONTHS = {m: i for i, m in enumerate(
    ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1)}
_POST = re.compile(r"^posts (?P<what>.*?)\s*\((?P<amount>[^)]*)\)")


def detect(head: str) -> bool:
    """Whether ``head`` starts a PKR export."""
    return _DETECT.search(head) is not None


def read(text: str, source: str) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each hand of a PKR document (see the module docstring)."""
    return read_hands(text, _START, _read_hand, name_line=True, faults=READ_FAULTS,
                    what="PKR")


def _cards(text: str) -> tuple[str, ...]:
    return tuple(card_text(r + s) for r, s in _CARD.findall(text))


def _read_hand(chunk: str, first: int) -> SiteHand:
    lines = chunk.split("\n")
    table = lines[0].strip()[len("Table "):]
    info = SiteInfo(site="pkr", hand_id="", game="holdem", betting="no-limit", table=table,
                    line=first)
    stakes = Stakes()
    seats: list[Seat] = []
    names: set[str] = set()
    events: list[Event] = []
    bets = StreetBets()  # each player's bet on the street, for PKR's calls "to" a total
    button = None
    rake = Decimal(0)
    total = None
    seen_blinds: set[str] = set()
    dealing = False  # seats are read until the cards are dealt
    ended = False

    def add(e: Event) -> None:
        bets.see(e)
        events.append(e)

    n = first
    for n, raw in enumerate(lines[1:], start=first + 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("Starting Hand #"):
            info.hand_id = line[len("Starting Hand #"):].strip()
        elif line.startswith("Start time of hand:"):
            info.time = _time(line[len("Start time of hand:"):].strip())
        elif line.startswith("Game Type:"):
            g = line[10:].strip().upper()
            if g not in _GAMES:
                raise SiteError(f"line {n}: unknown game {g!r}")
            info.game = _GAMES[g]
        elif line.startswith("Limit Type:"):
            info.betting = _LIMITS.get(line[11:].strip().upper(), "no-limit")
        elif line.startswith("Money Type:"):
            if "PLAY" in line.upper():
                info.currency = "chips"
        elif line.startswith("Blinds are now "):
            sb, _, bb = line[len("Blinds are now "):].partition("/")
            stakes.small_blind, stakes.big_blind = amount_at(sb, n), amount_at(bb, n)
            if info.currency is None:
                info.currency = CURRENCY_SIGNS.get(sb.strip()[:1], "chips")
        elif line.startswith("Button is at seat ") or line.startswith("Moving Button to seat "):
            button = int(line.rsplit(" ", 1)[-1])
        elif line.startswith("Seat "):
            if dealing:
                continue  # the final stacks
            m = _SEAT.match(line)
            if m is None:
                raise SiteError(f"line {n}: {line!r}")
            seats.append(Seat(int(m["seat"]), m["name"], amount_at(m["stack"], n),
                              in_hand="away" not in m["rest"]))
            names.add(m["name"])
        elif line.startswith("Dealing Cards"):
            dealing = True
        elif line.startswith("Dealing [") and " to " in line:
            who = line[line.rfind("] to ") + 5:].strip()
            if who in names:
                info.hero = info.hero or who
                events.append(Event("hole", who, None, _cards(line), n))
        elif line.startswith(("Dealing Flop", "Dealing Turn", "Dealing River")):
            add(Event("board", None, None, _cards(line), n))
        elif line.startswith("Taking Rake of "):
            rake += amount_at(line[len("Taking Rake of "):].split(" from ")[0], n)
        elif line.startswith("End of Hand"):
            ended = True
            break
        elif line.startswith("Pot sizes:"):
            total = amount_at(line[len("Pot sizes:"):], n)
        elif line.startswith(("Shuffling", "Last Hand")):
            continue
        else:
            got = seated_name(names, line)
            if got is None:
                continue
            who, rest = got
            allin = "(all-in)" in rest
            rest = rest.replace("(all-in)", "").strip()
            if rest.startswith("posts "):
                m = _POST.match(rest)
                if m is None:
                    raise SiteError(f"line {n}: {line!r}")
                a = amount_at(m["amount"], n)
                add(Event(_post_kind(m["what"], seen_blinds), who, a, (), n, allin))
            elif rest == "folds":
                events.append(Event("fold", who, None, (), n))
            elif rest == "checks":
                events.append(Event("check", who, None, (), n))
            elif rest.startswith("calls "):  # "calls $1.25": to $1.25 on the street
                add(Event("call", who, amount_at(rest[6:], n) - bets.bet(who), (), n, allin))
            elif rest.startswith("bets "):
                add(Event("bet", who, amount_at(rest[5:], n), (), n, allin))
            elif rest.startswith("raises to "):
                add(Event("raise", who, amount_at(rest[10:], n), (), n, allin))
            elif rest.startswith("shows "):
                events.append(Event("show", who, None, _cards(rest), n))
            elif rest == "mucks":
                if any(e.kind == "show" for e in events):
                    events.append(Event("muck", who, None, (), n))
            elif rest.startswith("wins "):
                won = rest[5:].split(" with")[0].split(" from")[0]
                events.append(Event("collect", who, amount_at(won, n), (), n, pot="pot"))
    if not ended:
        raise SiteError(f"line {first}: the hand stops before 'End of Hand' (truncated)")
    if not seats:
        raise SiteError(f"line {first}: the hand lists no seats")
    hand = SiteHand(info=info, seats=seats, stakes=stakes, events=events, button=button,
                    rake=rake, total_pot=total)
    hand.return_uncalled()  # PKR prints no returned bet: the unmatched part goes back
    return hand


def _post_kind(what: str, seen: set[str]) -> str:
    what = what.lower()
    if "ante" in what:
        return "ante"
    if "dead" in what:
        return "dead"
    if "small" in what:
        if "sb" in seen:
            return "dead"
        seen.add("sb")
        return "small_blind"
    if "big" in what:
        if "bb" in seen:
            return "post"
        seen.add("bb")
        return "big_blind"
    return "post"


def _time(text: str) -> str | None:
    """``05 Oct 2013 01:15:45`` as ISO 8601 (PKR prints no zone)."""
    m = re.match(r"(\d{1,2}) (\w{3}) (\d{4}) (\d{1,2}):(\d{2}):(\d{2})", text)
    if m is None or m[2] not in _MONTHS:
        return None
    return datetime(int(m[3]), _MONTHS[m[2]], int(m[1]), int(m[4]), int(m[5]),
                    int(m[6])).isoformat()
