"""Winning Poker Network (Americas Cardroom, Ya Poker, Black Chip...) hand histories, in
the network's three text formats.

**2014** (``Game started at: ...``): ``Game ID: N SB/BB TABLE (GAME)``, ``Seat N is the
button``, seats ``Seat N: NAME (STACK).``, then ``Player NAME has small blind (X)`` /
``has big blind (X)`` / ``straddle (X)`` / ``posts (X)`` (a live post) / ``posts (X) as a
dead bet``, ``Player NAME received a card.`` (``received card: [Ah]`` for the hero),
``folds``, ``checks``, ``calls (X)``, ``bets (X)``, ``raises (X)``, ``allin (X)`` — each
amount is what the action ADDS (a raise of ``(10)`` by the small blind of 2 makes 12) —
boards ``*** FLOP ***: [..]``, ``Uncalled bet (X) returned to NAME``, and the summary
``Pot: X. Rake Y[ JP fee Z]`` with one line per player ending ``Bets: X. Collects: Y.
Wins/Loses: Z.`` (``Collects``: what the player took from the pot); ``Game ended at:``
closes the hand (a hand without it was cut short).

**2019+** (``Hand #N - Holdem(No Limit) - $SB/$BB - DATE UTC``) and the sit & go /
tournament form (``Game Hand #N - Tournament #T - Holdem(No Limit) - Level 5
(1000.00/2000.00)- DATE UTC``): PokerStars-like lines — ``TABLE 6-max Seat #N is the
button`` (the name quoted or not), ``Seat N: NAME ($X)``, ``NAME posts the small blind $X``,
``posts the big blind``, ``posts ante X``, ``posts dead $X`` (a dead small blind with the
big blind: its part above the big blind is dead), ``posts $X`` (a live post), ``Dealt to
NAME [..]``, ``folds``, ``checks``, ``calls $X``, ``bets $X``, ``raises $X to $Y`` (Y: the
street total), ``and is all-in``, ``Uncalled bet ($X) returned to NAME``, ``NAME collected $X
from main pot`` / ``side pot-1``, ``shows [..]``, ``Main pot $X | Rake $Y`` progress lines,
and the summary ``Total pot $X | Rake $Y | JP Fee $Z``. Seven-card stud (ACR's
``7Stud H/L(Fixed Limit)``) deals street by street (``*** 3rd STREET ***``, ``Dealt to NAME
[up]``, later ``[old] [new]``; only the hero's last card is printed) with ``brings in $X``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

from simulate.notation.site_body import read_body
from simulate.notation.site_hand import Seat, SiteHand, Stakes
from simulate.notation.site_ledger import Ledger, Wording, pot_summary
from simulate.notation.site_read import at_line, body_lines, read_hands, site_line, table_line
from simulate.notation.site_stars import BRACKETS
from simulate.notation.site_text import SiteError, SiteInfo, Tournament, cards_of, parse_amount
from simulate.notation.site_zones import checked_time

__all__ = ["detect", "read"]

# ----------------------------------------------------------------------------- shared
_MONEY = r"\$?-?[0-9][0-9,.]*"
_WORDS = Wording(_MONEY)
_amount = _WORDS.first  # the first amount of a line
_STUD_STREETS = {"3rd": 3, "4th": 4, "5th": 5, "6th": 6, "7th": 7}


def detect(head: str) -> bool:
    """Whether ``head`` starts a Winning Poker export in any of its three formats."""
    return bool(_START_2014.match(head) or _HEAD_V2.match(head))


def read(text: str, source: str) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each hand of a Winning Poker document (see the module docstring)."""
    old = _START_2014.match(text.lstrip("\ufeff \n")) is not None
    hand = _hand_2014 if old else _hand_v2
    return read_hands(text, _SPLIT_2014 if old else _SPLIT_V2,
                      lambda chunk, line: hand(chunk.lstrip("\ufeff"), line))


def _date(text: str) -> str:
    """``2014/3/8 22:0:24`` as ISO 8601 (``2014-03-08T22:00:24``)."""
    m = re.fullmatch(r"\s*(\d{4})/(\d\d?)/(\d\d?) (\d\d?):(\d\d?):(\d\d?)\s*", text)
    if m is None:
        raise SiteError(f"not a date: {text.strip()!r}")
    y, mo, da, h, mi, s = (int(x) for x in m.groups())
    return f"{y}-{mo:02d}-{da:02d}T{h:02d}:{mi:02d}:{s:02d}"


# ----------------------------------------------------------------------------- 2014
_START_2014 = re.compile(r"^\ufeff?Game started at: ")
_SPLIT_2014 = re.compile(r"\ufeff?Game started at: ")
_GAME_ID = re.compile(r"^Game ID: (?P<id>\d+) (?P<sb>[0-9.,]+)/(?P<bb>[0-9.,]+) (?P<table>.*?)\s*"
                      r"\((?P<game>[^()]*)\)\s*$")
_SEAT_2014 = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.*) \((?P<stack>[0-9.,]+)\)\.?\s*$")
_PLAYER = re.compile(r"^\*?Player (?P<name>.+?) (?P<verb>has small blind|has big blind|straddle|"
                     r"posts|received a card|received card|folds|checks|calls|bets|raises|"
                     r"allin|mucks|shows|does not show|sitting out|wait BB|is timed out)"
                     r"(?P<rest>.*)$")
_SUMMARY_2014 = re.compile(r"Bets: (?P<bets>[0-9][0-9,]*(?:\.[0-9]+)?)\. "
                           r"Collects: (?P<got>[0-9][0-9,]*(?:\.[0-9]+)?)\.")
_BOARD_2014 = re.compile(r"^\*\*\* (?P<street>FLOP|TURN|RIVER) \*\*\*:?")
_NUM = r"[0-9][0-9,]*(?:\.[0-9]+)?"
_POT_2014 = re.compile(rf"^Pot: (?P<pot>{_NUM})\.? Rake (?P<rake>{_NUM})"
                       rf"(?:\.? JP fee (?P<jp>{_NUM}))?")
#: The jackpot drop the 2014 format takes without printing it: on a jackpot table
#: (``(JP)``, ``( Beast )`` in its name), from a pot that sees a flop with four or more
#: players dealt in. Every such hand of the samples is short by exactly this, and no other.
_JP_DROP = Decimal("0.25")


def _game_2014(text: str) -> tuple[str, str]:
    t = text.lower()
    if "omaha" in t:
        return ("omaha_hilo" if "hi" in t and "lo" in t else "omaha"), "pot-limit"
    if "hold" in t:
        return "holdem", "no-limit"
    raise SiteError(f"unknown Winning Poker game {text!r}")


def _hand_2014(chunk: str, first: int) -> SiteHand:
    lines = chunk.split("\n")
    head = lines[0]
    ended = "Game ended at:" in chunk
    when = re.match(r"^Game started at: (\S+ \S+)", head)
    gid = _GAME_ID.match(lines[1]) if len(lines) > 1 else None
    if when is None or gid is None:
        raise SiteError(f"line {first}: not a Winning Poker hand header")
    game, betting = _game_2014(gid["game"])
    stakes = Stakes(parse_amount(gid["sb"]), parse_amount(gid["bb"]))
    info = SiteInfo(site="winning", hand_id=gid["id"], game=game, betting=betting,
                    table=gid["table"], time=checked_time(_date(when.group(1)), first),
                    currency="USD", line=first)
    hand = SiteHand(info=info, seats=[], stakes=stakes)
    ev = hand.events
    ledger: Ledger | None = None
    payouts: list[tuple[str, Decimal, str | None, int]] = []
    dealt: set[str] = set()
    ln = first
    try:
        for ln, s in body_lines(lines, first):
            if s.startswith("Seat ") and " is the button" in s:
                b = re.match(r"^Seat (\d+) is the button", s)
                if b is None:
                    raise SiteError(f"not a button line: {s!r}")
                hand.button = int(b.group(1))
                continue
            if s.startswith("Seat "):
                m = _SEAT_2014.match(s)
                if m and ledger is None:
                    hand.seats.append(Seat(int(m["seat"]), m["name"], parse_amount(m["stack"])))
                continue
            if s.startswith("Game "):  # "Game ID: ..." and "Game ended at: ..."
                continue
            if ledger is None:
                ledger = Ledger(hand, returns_printed=True)
            if _BOARD_2014.match(s):
                ledger.board_line(s, ln)
                continue
            m = _WORDS.uncalled.match(s)
            if m:
                ledger.uncalled(m["name"], parse_amount(m["a"]), ln)
                continue
            m = _POT_2014.match(s)
            if m:
                hand.total_pot = parse_amount(m["pot"])
                hand.rake = parse_amount(m["rake"])
                if m["jp"] and parse_amount(m["jp"]):
                    info.fees["jackpot"] = parse_amount(m["jp"])
                continue
            m = _PLAYER.match(s)
            if m is None:
                continue
            name, verb, rest = m["name"], m["verb"], m["rest"]
            summary = _SUMMARY_2014.search(s)
            if summary:  # a summary line: what the player took from the pot
                got = parse_amount(summary["got"])
                name = re.split(r" (?:does not show|mucks|shows)", name)[0]
                if got:
                    payouts.append((name, got, "pot", ln))
                if verb == "shows" and (g := BRACKETS.search(rest)):
                    ledger.event("show", name, ln, cards_of(g.group(1)))
                continue
            if _action_2014(ledger, name, verb, rest, ln):
                dealt.add(name)
    except SiteError as exc:
        raise at_line(exc, ln) from None
    if not ended:
        raise SiteError(f"line {first}: the hand is cut short (no 'Game ended at' line)")
    if not dealt or ledger is None:
        raise SiteError(f"line {first}: the hand was cancelled (no cards dealt)")
    if (re.search(r"\(JP\)|\bJP\b|Beast", gid["table"]) and "jackpot" not in info.fees
            and any(e.kind == "board" for e in ev) and len(dealt) >= 4):
        info.fees["jackpot"] = _JP_DROP
    ledger.settle(payouts, hand.rake or Decimal(0), first, paid_back=False)
    return hand


def _action_2014(ledger: Ledger, name: str, verb: str, rest: str, ln: int) -> bool:
    """One ``Player NAME ...`` line of the 2014 format (its amounts are what the action
    adds); True when it deals a card."""
    ev = ledger.hand.events
    if verb in ("received a card", "received card"):
        g = BRACKETS.search(rest)
        if g:  # one card a line: the hero's cards gather in one event
            ledger.hand.info.hero = name
            mine = next((e for e in ev if e.kind == "hole" and e.player == name), None)
            if mine is None:
                ledger.event("hole", name, ln, cards_of(g.group(1)))
            else:
                mine.cards = mine.cards + cards_of(g.group(1))
        return True
    if verb in ("has small blind", "has big blind", "straddle"):
        kind = {"has small blind": "small_blind", "has big blind": "big_blind"}.get(verb,
                                                                                    "straddle")
        ledger.forced(kind, name, _amount(rest), ln)
    elif verb == "posts":
        ledger.forced("dead" if "dead" in rest else "post", name, _amount(rest), ln)
    elif verb == "folds":
        ledger.event("fold", name, ln)
    elif verb == "checks":
        ledger.event("check", name, ln)
    elif verb == "allin" and not any(e.kind in ("big_blind", "fold", "check", "call", "bet",
                                                 "raise") for e in ev):
        # the big blind posted all in for less ("allin (0.24)" in place of "has big blind")
        ledger.forced("big_blind", name, _amount(rest), ln)
    elif verb in ("calls", "bets", "raises", "allin"):
        word = {"calls": "call", "bets": "bet", "raises": "raise", "allin": "allin"}[verb]
        ledger.added(word, name, _amount(rest), ln)
    elif verb == "mucks":
        # the last player in "mucks" too (shows nothing, wins uncontested): no showdown
        live = {e.player for e in ev if e.player is not None and e.kind != "hole"}
        if len(live - ledger.folded) > 1:
            ledger.event("muck", name, ln)
    elif verb == "shows":
        g = BRACKETS.search(rest)
        ledger.event("show", name, ln, cards_of(g.group(1)) if g else ())
    return False


# ----------------------------------------------------------------------------- 2019+
_SPLIT_V2 = re.compile(r"^\ufeff?(?:Game )?Hand #\d+ - ", re.M)
_HEAD_V2 = re.compile(
    r"^\ufeff?(?:Game )?Hand #(?P<id>\d+) - (?:Tournament #(?P<tid>\d+) - )?"
    r"(?P<game>[^-]*?)\((?P<limit>[^()]*)\)\s*-\s*"
    r"(?:Level (?P<level>\S+) \((?P<lstakes>[^()]*)\)\s*-\s*|(?P<stakes>[^ ]+) - )"
    r"(?P<date>\d{4}/\d\d?/\d\d? \d\d?:\d\d?:\d\d?)(?: (?P<zone>\w+))?")
_TABLE_V2 = re.compile(r"^(?:Table )?'?(?P<table>.*?)'? (?P<max>\d+)-max(?: Seat #(?P<button>\d+)"
                       r" is the button)?\s*$")
_SEAT_V2 = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.*) \((?P<stack>\$?[0-9][0-9.,]*)\)"
                      r"(?P<rest>.*)$")
_ACT_V2 = re.compile(r"^(?P<name>.+?) (?P<verb>posts the small blind|posts the big blind|"
                     r"posts ante|posts the ante|posts dead|posts straddle|posts|straddles?|"
                     r"brings in|folds|"
                     r"checks|calls|bets|raises|shows|mucks|collected|does not show|"
                     r"waits for big blind|sits out)\b(?P<rest>.*)$")
_DEALT = re.compile(r"^Dealt to (?P<name>.+?) (?P<cards>\[.*\])\s*$")
_STUD = re.compile(r"^\*\*\* (?P<n>3rd|4th|5th|6th|7th) STREET \*\*\*")
_WON = re.compile(rf"^Seat (?P<seat>\d+): .*? won (?:\()?(?P<a>{_MONEY})")


def _game_v2(game: str, limit: str) -> tuple[str, str]:
    g, lim = game.lower().replace(" ", ""), limit.lower()
    betting = ("pot-limit" if "pot" in lim else "fixed-limit" if "fixed" in lim or
               lim == "limit" else "no-limit")
    hilo = "h/l" in g or "hi/lo" in g or "hilo" in g or "8" in g
    if "stud" in g:
        return ("stud_hilo" if hilo else "stud"), betting
    if "razz" in g:
        return "razz", betting
    if "omaha" in g:
        five = "5" in g
        if hilo:
            return ("omaha5_hilo" if five else "omaha_hilo"), betting
        return ("omaha5" if five else "omaha6" if "6" in g else "omaha"), betting
    if "hold" in g:
        return "holdem", betting
    raise SiteError(f"unknown Winning Poker game {game!r}")


def _hand_v2(chunk: str, first: int) -> SiteHand:
    lines = chunk.split("\n")
    m = site_line(_HEAD_V2, lines[0], first, "a Winning Poker hand header")
    game, betting = _game_v2(m["game"], m["limit"])
    parts = [parse_amount(p) for p in (m["lstakes"] or m["stakes"] or "").split("/") if p]
    stakes = Stakes()
    if len(parts) == 2:
        if betting == "fixed-limit":
            stakes.small_bet, stakes.big_bet = parts
        else:
            stakes.small_blind, stakes.big_blind = parts
    zone = "+00:00" if (m["zone"] or "") in ("UTC", "GMT") else ""
    tour = Tournament(m["tid"], None, m["level"]) if m["tid"] else None
    info = SiteInfo(site="winning", hand_id=m["id"], game=game, betting=betting,
                    time=checked_time(_date(m["date"]) + zone, first), tournament=tour, line=first,
                    currency="chips" if tour else "USD")
    hand = SiteHand(info=info, seats=[], stakes=stakes)
    ev = hand.events
    stud = game in ("stud", "stud_hilo", "razz")
    payouts: list[tuple[str, Decimal, str | None, int]] = []
    won: list[tuple[int, Decimal, int]] = []
    printed: list[tuple[str, Decimal, int]] = []
    third = False

    def seat(s: str) -> bool:
        t = _SEAT_V2.match(s)
        if t:
            hand.seats.append(Seat(int(t["seat"]), t["name"], parse_amount(t["stack"]),
                                   "sitting out" not in t["rest"]))
        return True

    def table(s: str) -> bool:
        return (info.table is None and "-max" in s
                and table_line(hand, _TABLE_V2, s) is not None)

    def street(ledger: Ledger, s: str, ln: int) -> None:
        nonlocal third
        st = _STUD.match(s)
        if st is None:
            return
        n = _STUD_STREETS[st["n"]]
        third = n == 3
        if n > 3:
            ledger.event("street", None, ln)
        if n == 7:  # only the hero's down card is printed
            for p in (sitter.name for sitter in hand.seats):
                if p != info.hero and p not in ledger.folded and any(
                        e.kind == "hole" and e.player == p for e in ev):
                    ledger.event("hole", p, ln, ("??",))

    def line(ledger: Ledger, s: str, ln: int) -> None:
        t = _DEALT.match(s)
        if t:
            groups = BRACKETS.findall(t["cards"])
            new = cards_of(groups[-1])
            if not stud or (len(groups) == 1 and len(new) == 3):
                info.hero = t["name"]
            elif len(groups) == 1 and len(new) == 1:  # 3rd street, another player
                new = ("??", "??", *new)
            ledger.event("hole", t["name"], ln, new)
        elif t := _WORDS.uncalled.match(s):  # the ledger finds it (it may come after the runout)
            printed.append((t["name"], parse_amount(t["a"]), ln))
        elif t := _ACT_V2.match(s):
            _action_v2(ledger, payouts, t["name"], t["verb"], t["rest"], ln, third)

    def summary_line(s: str, ln: int) -> None:
        pot_summary(hand, s, _WORDS.amount)
        t = _WON.match(s)
        if t:
            won.append((int(t["seat"]), parse_amount(t["a"]), ln))

    ledger, summary = read_body(hand, lines, first, seat=seat, head=table, street=street,
                                line=line, summary=summary_line,
                                skip=("Main pot", "Side pot"))
    if not summary:
        raise SiteError(f"line {first}: the hand has no summary (cut short?)")
    if ledger is None:
        raise SiteError(f"line {first}: a hand without actions")
    if not payouts:  # nobody showed: the summary says who won
        names = {seat.seat: seat.name for seat in hand.seats}
        payouts = [(names[n], a, "pot", ln) for n, a, ln in won if n in names]
    # the sit & go format prints no return of a blind nobody called and counts it as won:
    # the ledger returns every unmatched bet, and takes those out of the payouts
    ledger.settle(payouts, hand.rake or Decimal(0), first)
    _check_returns(hand, ledger, printed)
    return hand


def _check_returns(hand: SiteHand, ledger: Ledger,
                   printed: list[tuple[str, Decimal, int]]) -> None:
    """Each uncalled bet the file prints must be one the ledger returned."""
    found: dict[str, Decimal] = dict(ledger.refunds)
    for e in hand.events:
        if e.kind == "uncalled" and e.player is not None and e.amount is not None:
            found[e.player] = found.get(e.player, Decimal(0)) + e.amount
    for who, amount, ln in printed:
        if found.get(who, Decimal(0)) < amount:
            raise SiteError(f"line {ln}: {amount} returned to {who}, but "
                            f"{found.get(who, Decimal(0))} was not called")
        found[who] -= amount


def _action_v2(ledger: Ledger, payouts: list[tuple[str, Decimal, str | None, int]], name: str,
               verb: str, rest: str, ln: int, third: bool) -> None:
    hand = ledger.hand
    if verb == "posts the small blind":
        ledger.forced("small_blind", name, _amount(rest), ln)
    elif verb == "posts the big blind":
        ledger.forced("big_blind", name, _amount(rest), ln)
    elif verb in ("posts ante", "posts the ante"):
        ledger.forced("ante", name, _amount(rest), ln)
    elif verb == "posts dead":
        # a missed small and big blind together: the big blind's part is live
        a = _amount(rest)
        live = min(a, hand.stakes.big_blind or Decimal(0))
        if live:
            ledger.forced("post", name, live, ln)
        if a - live:
            ledger.forced("dead", name, a - live, ln)
    elif verb == "posts":
        ledger.forced("post", name, _amount(rest), ln)
    elif verb in ("straddle", "straddles", "posts straddle"):
        ledger.forced("straddle", name, _amount(rest), ln)
    elif verb == "brings in":
        ledger.forced("bring_in", name, _amount(rest), ln)
    elif verb in Wording.WORDS:
        completes = (verb == "raises" and third
                     and any(e.kind == "bring_in" for e in hand.events)
                     and not any(e.kind in ("raise", "complete") for e in hand.events))
        e = ledger.said(_WORDS, verb, name, rest, ln, payouts)
        if completes and e is not None and e.kind == "raise":
            e.kind = "complete"  # stud: the first raise completes the bring-in
