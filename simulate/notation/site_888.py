"""888poker / Pacific Poker hand histories (and the Cassava and LuckyAce skins).

The grammar (one hand; ``#Game No : N`` may come before the first line)::

    ***** 888poker Hand History for Game 349736402 *****     (Cassava, LuckyAcePoker.com, ...)
    $0.05/$0.10 Blinds No Limit Holdem - *** 06 01 2014 22:40:28
    Table Abbotsford 6 Max (Real Money)                       (Play Money: chips)
    Tournament #83728678 $18.30 + $1.70 - Table #1 9 Max (Real Money)
    Seat 9 is the button
    Total number of players : 2
    Seat 4: silas_tomkyn ( $10.98 )                           (1 192,48 $ in some clients)
    X posts ante [$20] | posts small blind [$0.05] | posts big blind [$0.10]
    X posts dead blind [$1 + $2]                              (dead small + live big blind)
    ** Dealing down cards **
    Dealt to X [ 8c, Qs ]
    X folds | checks | calls [$0.05] | bets [$0.10] | raises [$3]
    ** Dealing flop ** [ Jc, Kc, 3c ]                          (turn, river: one card)
    ** Summary **
    X shows [ 5c, 7s ] | X mucks [ 6s, 6h, Kc, 7h ] | X did not show his hand
    (Hi: ...) (Lo: ...)
    X collected [ $5.70 ]

Meanings (proved by :class:`~simulate.notation.site_ledger.Ledger`'s checks on the
samples): ``calls``, ``bets`` and ``raises`` print what the player ADDS; an uncalled bet is
returned silently; ``collected`` is paid after the rake, which is not printed (the ledger
derives it, at most 10% of the pot, none in tournaments); a lone blind nobody answers is
"collected" back. Times carry no zone. Card ranks may be Scandinavian (``Ec``, ``Knc``).

Tournament summaries (``***** Cassava Tournament Summary *****``) hold no hand: each is
one record with ``summary_only`` set.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from decimal import Decimal

from simulate.notation.site_hand import Seat, SiteHand, Stakes
from simulate.notation.site_ledger import Ledger
from simulate.notation.site_read import body_lines, read_hands, site_line
from simulate.notation.site_text import SiteError, SiteInfo, Tournament, cards_of, parse_amount
from simulate.notation.site_zones import iso_time

__all__ = ["detect", "read"]

#: The network's skins, and a product name after the skin ("888poker Snap Poker").
_SKINS = r"(?:888\S*|Pacific(?: Poker)?|Cassava|LuckyAce\S*)(?: [A-Z]\w+(?: Poker)?)?"
_HEAD = re.compile(rf"^\*\*\*\*\* {_SKINS} Hand History for Game (\d+) \*\*\*\*\*", re.M)
_SUMMARY = re.compile(rf"^\*\*\*\*\* {_SKINS} Tournament Summary \*\*\*\*\*", re.M)
_START = re.compile(rf"^(?:#Game No : \d+\s*\n)?\*\*\*\*\* {_SKINS} "
                    r"(?:Hand History for Game \d+|Tournament Summary) \*\*\*\*\*", re.M)
_STAKES = re.compile(r"^(?P<sb>[^/]+)/(?P<bb>.+?) Blinds (?P<limit>No Limit|Pot Limit|"
                     r"Fix(?:ed)? Limit) (?P<game>.+?)(?: Jackpot table)? - \*\*\* "
                     r"(?P<d>\d\d) (?P<m>\d\d) (?P<y>\d{4}) (?P<t>\d\d:\d\d:\d\d)$")
_TABLE = re.compile(r"^Table (?P<name>.+?)(?: (?P<max>\d+) Max)? \((?P<money>Real|Play) Money\)$")
_TOURNEY = re.compile(r"^Tournament #(?P<id>\d+) (?P<buyin>.+?) - Table (?P<name>.+?)"
                      r"(?: (?P<max>\d+) Max)? \((?P<money>Real|Play) Money\)$")
_SEAT = re.compile(r"^Seat (\d+): (.*) \( (.+) \)$")
_ACTION = re.compile(r"^(?P<p>.+?) (?P<v>folds|checks|calls|bets|raises|posts ante|"
                     r"posts small blind|posts big blind|posts dead blind|shows|mucks|"
                     r"collected|did not show his hand|is all-in|goes all-in|all-in)"
                     r"(?: \[ ?(?P<a>[^\]]*?) ?\])?$")
_DEALT = re.compile(r"^Dealt to (?P<p>.+?) \[ ?(?P<c>[^\]]*?) ?\]$")
_BOARD = re.compile(r"^\*\* Dealing (flop|turn|river) \*\* \[ ?([^\]]*?) ?\]$")
_GAMES = {"holdem": "holdem", "omaha": "omaha", "omahahl": "omaha_hilo",
          "omaha hi-lo": "omaha_hilo", "omaha hi/lo": "omaha_hilo", "omaha hl": "omaha_hilo",
          "5 card omaha": "omaha5", "5 card omaha hi-lo": "omaha5_hilo",
          "short deck holdem": "short_deck", "6+ holdem": "short_deck"}
_BETTING = {"no limit": "no-limit", "pot limit": "pot-limit", "fix limit": "fixed-limit",
            "fixed limit": "fixed-limit"}
_CURRENCY = (("$", "USD"), ("€", "EUR"), ("£", "GBP"))


def detect(head: str) -> bool:
    """An 888/Pacific hand history or tournament summary."""
    return bool(_HEAD.search(head) or _SUMMARY.search(head)) and "History for hand " not in head


def _amount(text: str) -> Decimal:
    return parse_amount(text.replace("Â\xa0", " ").replace("Â ", " "))


def read(text: str, source: str) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each hand of an 888 document (see the module docstring)."""
    return read_hands(text, _START, _hand)


def _summary(chunk: str, line: int) -> SiteHand:
    m = re.search(r"^Tournament ID: (\S+)", chunk, re.M)
    b = re.search(r"^Buy-In: (.+)$", chunk, re.M)
    tid = m.group(1) if m else "?"
    info = SiteInfo("888", f"summary {tid}", game="", betting="", currency="chips",
                    tournament=Tournament(tid, b.group(1).strip() if b else None), line=line)
    return SiteHand(info, [], Stakes(), summary_only=True)


def _hand(chunk: str, first: int) -> SiteHand:
    lines = chunk.split("\n")
    if lines[0].startswith("#Game No"):
        lines, first = lines[1:], first + 1
    if _SUMMARY.match(lines[0]):
        return _summary(chunk, first)
    m = _HEAD.match(lines[0])
    if m is None:
        raise SiteError(f"line {first}: not an 888 hand header")
    hand_id = m.group(1)
    st = _STAKES.match(lines[1].strip()) if len(lines) > 1 else None
    if st is None:
        raise SiteError(f"line {first + 1}: not an 888 stakes line")
    game = _GAMES.get(st["game"].strip().lower())
    if game is None:
        raise SiteError(f"line {first + 1}: unknown game {st['game']!r}")
    betting = _BETTING[st["limit"].lower()]
    try:
        when = datetime.strptime(f"{st['y']}-{st['m']}-{st['d']} {st['t']}",
                                 "%Y-%m-%d %H:%M:%S")
    except ValueError:
        raise SiteError(f"line {first + 1}: not a date: "
                        f"{st['d']} {st['m']} {st['y']} {st['t']}") from None
    sb, bb = _amount(st["sb"]), _amount(st["bb"])
    currency = next((c for sym, c in _CURRENCY if sym in st["sb"]), None)
    tour = _TOURNEY.match(lines[2].strip()) if len(lines) > 2 else None
    tab = None if tour else _TABLE.match(lines[2].strip()) if len(lines) > 2 else None
    if tour is None and tab is None:
        raise SiteError(f"line {first + 2}: not an 888 table line")
    t = tour or tab
    assert t is not None
    info = SiteInfo("888", hand_id, game, betting, table=t["name"], time=iso_time(when),
                    currency="chips" if tour or t["money"] == "Play" else currency, line=first,
                    tournament=Tournament(tour["id"], tour["buyin"]) if tour else None)
    stakes = Stakes(small_blind=sb, big_blind=bb)
    if betting == "fixed-limit":
        stakes.small_bet = bb
    hand = SiteHand(info, [], stakes, max_seats=int(t["max"]) if t["max"] else None)
    body = list(body_lines(lines[2:], first + 2))
    for no, s in body:
        if (b := re.match(r"^Seat (\d+) is the button$", s)):
            hand.button = int(b.group(1))
        elif (seat := _SEAT.match(s)):
            if not seat.group(2).strip():
                raise SiteError(f"line {no}: seat {seat.group(1)} has no player name")
            hand.seats.append(Seat(int(seat.group(1)), seat.group(2).strip(),
                                   _amount(seat.group(3))))
    hand.seats.sort(key=lambda x: x.seat)
    led = Ledger(hand)
    payouts: list[tuple[str, Decimal, str | None, int]] = []
    last = first
    for no, s in body:
        last = no
        if (s.startswith(("Seat ", "Total number of players", "#Game No"))
                or s in ("** Dealing down cards **", "** Summary **")
                or s.startswith(("(Hi:", "(Lo:"))):
            continue
        if led.cards_line(s, no, _DEALT, _BOARD):
            continue
        a = site_line(_ACTION, s, no, "an 888 line")
        p, v, amt = a["p"], a["v"], a["a"]
        if v == "posts dead blind":
            parts = [_amount(x) for x in (amt or "").split("+")]
            live = max(parts)
            led.forced("post", p, live, no)
            if sum(parts) - live:
                led.forced("dead", p, sum(parts) - live, no)
        elif v.startswith("posts "):
            kind = {"posts ante": "ante", "posts small blind": "small_blind",
                    "posts big blind": "big_blind"}[v]
            led.forced(kind, p, _amount(amt or ""), no)
        elif v in ("folds", "checks"):
            led.event("fold" if v == "folds" else "check", p, no)
        elif v in ("calls", "bets", "raises"):
            led.added(v[:-1], p, _amount(amt or ""), no)
        elif v in ("is all-in", "goes all-in", "all-in"):
            led.added("allin", p, _amount(amt or ""), no)
        elif v in ("shows", "mucks"):  # "mucks [cards]": mucked, the cards still printed
            led.event("show" if v == "shows" else "muck", p, no, cards_of(amt or ""))
        elif v == "collected":
            payouts.append((p, _amount(amt or ""), None, no))
        # "did not show his hand": nothing to record
    if not payouts:
        raise SiteError(f"line {last}: the hand ends before anyone collects (truncated)")
    if betting == "fixed-limit":
        stakes.big_bet = _big_bet(hand, bb)
    led.settle(payouts, None, last)
    return hand


def _big_bet(hand: SiteHand, small: Decimal) -> Decimal:
    """Fixed limit's big bet: the header gives only the blinds (the small bet is the big
    blind); a bet on the turn or river shows it (888 rounds: $0.12/$0.25)."""
    boards = 0
    for e in hand.events:
        if e.kind == "board":
            boards += 1
        elif boards >= 2 and e.kind == "bet" and e.amount is not None and not e.allin:
            return e.amount
    return 2 * small
