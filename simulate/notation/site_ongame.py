"""OnGame network hand histories (2012-2015 text export).

The grammar (one hand)::

    ***** History for hand R5-361850810-476 *****
    ***** History for hand T5-556000000-1 (TOURNAMENT: "name", R-10093-864, buy-in: €5) *****
    Start hand: Mon Jan 06 01:08:00 CET 2014
    Table: Bonn [361850810] (NO_LIMIT TEXAS_HOLDEM $0.50/$1, Real money)     (or Chips)
    User: Player1
    Button: seat 8
    Players in round: 6
    Seat 1: BlackH0L3 ($113.97)
    X posts small blind ($0.50)      X posts big blind ($1)      X posts ante ($0.10)
    ---
    Dealing pocket cards
    Dealing to X: [Ah, Kd]
    X folds | checks | calls $3.00 | bets $18.00 | raises $10.00 to $10.50 [all in]
    --- Dealing flop [6d, Kd, 8c]                      (turn, river: one card)
    ---
    Summary:
    Main pot: $229.82 won by fyabcf ($226.82)          (Side pot N: ... ; several winners)
    Rake taken: $3
    Seat 8: fyabcf ($350.06), net: +$113.91, [Kc, Kh] (TWO_PAIR ...)
    ***** End of hand R5-361850810-476 *****

Meanings: ``raises X to Y`` gives the street total Y; ``calls`` and ``bets`` what is added;
an uncalled bet is returned silently (derived); each pot is printed before the rake and
each winner's share after it; ``Rake taken`` is printed. The summary's final stacks and
nets are checked against the hand: start - committed + collected = final. Limit tables
print the bets (``$0.50/$1``), the blinds come from the posts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from decimal import Decimal

from simulate.notation.site_hand import Seat, SiteHand, Stakes
from simulate.notation.site_ledger import Ledger
from simulate.notation.site_read import read_hands, site_line
from simulate.notation.site_text import SiteError, SiteInfo, Tournament, cards_of, parse_amount
from simulate.notation.site_zones import iso_time

__all__ = ["detect", "read"]

_HEAD = re.compile(r"^\*\*\*\*\* History for hand (?P<id>[A-Z]?\d+-\d+-\d+)(?: \(TOURNAMENT: "
                   r"\"(?P<tname>.*?)\", (?P<tid>[^,]+), buy-in: (?P<buyin>[^)]*)\))? \*\*\*\*\*",
                   re.M)
_START = re.compile(r"^\*\*\*\*\* History for hand ", re.M)
_WHEN = re.compile(r"^Start hand: \w+ (?P<mon>\w+) (?P<d>\d+) (?P<t>[\d:]+) (?P<zone>\S+) "
                   r"(?P<y>\d{4})$")
_TABLE = re.compile(r"^Table: (?P<name>.+?) \((?P<limit>NO_LIMIT|POT_LIMIT|LIMIT) "
                    r"(?P<game>\w+) (?P<lo>[^/ ]+)/(?P<hi>[^, ]+), (?P<money>[^)]+)\)$")
_SEAT = re.compile(r"^Seat (\d+): (.+?) \((\S+?)\)$")
_ACTION = re.compile(r"^(?P<p>.+?) (?P<v>folds|checks|calls|bets|raises|posts small blind|"
                     r"posts big blind|posts ante|posts)(?: \(?(?P<a>[^\s)]+)\)?)?"
                     r"(?: to (?P<to>\S+))?(?P<allin> \[all in\])?$")
_BOARD = re.compile(r"^--- Dealing (flop|turn|river) \[([^\]]*)\]$")
_DEALT = re.compile(r"^Dealing to (?P<p>.+?): \[(?P<c>[^\]]*)\]$")
_POT = re.compile(r"^(?P<pot>Main pot|Side pot(?: ?\d+)?): (?P<a>\S+) won by (?P<w>.+)$")
_SHARE = re.compile(r"(?P<p>.+?) \((?P<a>[^)]+)\)(?:, |$)")
_FINAL = re.compile(r"^Seat (\d+): (.+?) \((\S+?)\)(?:, net: (?P<net>[-+]?\S+?))?"
                    r"(?:, \[(?P<c>[^\]]*)\])?(?: \(.*\))?$")
_GAMES = {"TEXAS_HOLDEM": "holdem", "OMAHA_HI": "omaha", "OMAHA_HI_LO": "omaha_hilo",
          "OMAHA": "omaha", "OMAHA_5_CARDS": "omaha5"}
_BETTING = {"NO_LIMIT": "no-limit", "POT_LIMIT": "pot-limit", "LIMIT": "fixed-limit"}
_MONTHS = {m: i for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1)}
_CURRENCY = (("$", "USD"), ("€", "EUR"), ("£", "GBP"))


def detect(head: str) -> bool:
    """An OnGame hand history."""
    return bool(_HEAD.search(head)) and "Start hand: " in head


def read(text: str, source: str) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each hand of an OnGame document (see the module docstring)."""
    return read_hands(text, _START, _hand)


def _hand(chunk: str, first: int) -> SiteHand:
    lines = chunk.rstrip("\n").split("\n")
    m = _HEAD.match(lines[0])
    if m is None:
        raise SiteError(f"line {first}: not an OnGame hand header")
    if not any(ln.startswith("***** End of hand ") for ln in lines):
        raise SiteError(f"line {first + len(lines) - 1}: the hand is cut short "
                        "(no 'End of hand' line)")
    w = _WHEN.match(lines[1].strip()) if len(lines) > 1 else None
    t = _TABLE.match(lines[2].strip()) if len(lines) > 2 else None
    if w is None or t is None:
        raise SiteError(f"line {first + 1}: not an OnGame start and table line")
    try:
        when = datetime(int(w["y"]), _MONTHS.get(w["mon"].lower()[:3], 0), int(w["d"]),
                        *(int(x) for x in w["t"].split(":")))
        stamp = iso_time(when, w["zone"])
    except ValueError as exc:
        raise SiteError(f"line {first + 1}: {exc}") from None
    game = _GAMES.get(t["game"])
    if game is None:
        raise SiteError(f"line {first + 2}: unknown game {t['game']!r}")
    betting = _BETTING[t["limit"]]
    stakes = Stakes.of_two(parse_amount(t["lo"]), parse_amount(t["hi"]), betting,
                           bet_blinds=False)
    tour = (Tournament(m["tid"], m["buyin"]) if m["tid"] else None)
    currency = ("chips" if tour or t["money"].lower().startswith("chips") else
                next((c for sym, c in _CURRENCY if sym in t["lo"]), None))
    info = SiteInfo("ongame", m["id"], game, betting, table=t["name"], time=stamp,
                    currency=currency, tournament=tour, line=first)
    hand = SiteHand(info, [], stakes)
    body = list(enumerate(lines[3:], first + 3))
    summary = next((i for i, (_, ln) in enumerate(body) if ln.strip() == "Summary:"), None)
    if summary is None:
        raise SiteError(f"line {first}: the hand has no summary")
    for _no, ln in body[:summary]:
        s = ln.strip()
        if (b := re.match(r"^Button: seat (\d+)$", s)):
            hand.button = int(b.group(1))
        elif (u := re.match(r"^User: (.+)$", s)):
            info.hero = u.group(1)
        elif (seat := _SEAT.match(s)):
            hand.seats.append(Seat(int(seat.group(1)), seat.group(2),
                                   parse_amount(seat.group(3))))
    hand.seats.sort(key=lambda x: x.seat)
    led = Ledger(hand)
    for no, ln in body[:summary]:
        s = ln.strip()
        if (not s or s in ("---", "Dealing pocket cards") or s.startswith(
                ("Button: ", "User: ", "Players in round: ")) or _SEAT.match(s)):
            continue
        if led.cards_line(s, no, _DEALT, _BOARD, hero=False):
            continue
        a = site_line(_ACTION, s, no, "an OnGame line")
        p, v = a["p"], a["v"]
        amt = parse_amount(a["a"]) if a["a"] else None
        if v.startswith("posts"):
            kind = {"posts small blind": "small_blind", "posts big blind": "big_blind",
                    "posts ante": "ante", "posts": "post"}[v]
            led.forced(kind, p, amt or Decimal(0), no)
        elif v in ("folds", "checks"):
            led.event("fold" if v == "folds" else "check", p, no)
        elif v == "raises":
            if a["to"] is None:
                raise SiteError(f"line {no}: a raise without its total")
            led.raise_to(p, parse_amount(a["to"]), no)
        else:
            if amt is None:
                raise SiteError(f"line {no}: {v} without an amount")
            led.added(v[:-1], p, amt, no)
    payouts: list[tuple[str, Decimal, str | None, int]] = []
    rake = None
    finals: dict[str, tuple[Decimal, Decimal | None, int]] = {}
    pots = Decimal(0)
    for no, ln in body[summary + 1:]:
        s = ln.strip()
        if not s or s.startswith("***** End of hand"):
            continue
        if (pm := _POT.match(s)):
            pots += parse_amount(pm["a"])
            for share in _SHARE.finditer(pm["w"]):
                payouts.append((share["p"], parse_amount(share["a"]), pm["pot"].lower(), no))
        elif (r := re.match(r"^Rake taken: (.+)$", s)):
            rake = parse_amount(r.group(1))
        elif (f := _FINAL.match(s)):
            net = parse_amount(f["net"].lstrip("+")) if f["net"] else None
            finals[f.group(2)] = (parse_amount(f.group(3)), net, no)
            if f["c"]:
                led.event("show", f.group(2), no, cards_of(f["c"]))
        else:
            raise SiteError(f"line {no}: not an OnGame summary line: {s[:80]!r}")
    if not payouts:
        raise SiteError(f"line {body[-1][0]}: no pot is won")
    last = body[-1][0]
    led.settle(payouts, rake, last)
    hand.total_pot = pots
    _check_summary(hand, finals, pots, last)
    return hand


def _check_summary(hand: SiteHand, finals: dict[str, tuple[Decimal, Decimal | None, int]],
                   pots: Decimal, line: int) -> None:
    """The summary's own sums: the pots printed hold what was committed; each seat's
    final stack and net are its start less what it put in plus what it took."""
    put, took = hand.committed(), hand.collected()
    total = sum(put.values(), Decimal(0))
    if total != pots:
        raise SiteError(f"line {line}: the pots printed hold {pots}, the hand commits {total}")
    for s in hand.seats:
        if s.name not in finals:
            continue
        final, net, at = finals[s.name]
        mine = took.get(s.name, Decimal(0)) - put.get(s.name, Decimal(0))
        if s.stack + mine != final or (net is not None and net != mine):
            raise SiteError(f"line {at}: {s.name} ends with {final} (net {net}), the hand "
                            f"gives {s.stack + mine} (net {mine})")
