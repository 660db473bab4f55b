"""PokerStars hand histories (and the skins and apps that export its format: PPPoker,
Upoker, PokerStars Home Games, Zoom), transcribed into :class:`SiteHand` records.

The grammar, line by line (every hand starts with its header line; an export may put a
``*********** # N **************`` line before it, or blank lines between every line):

- header: ``PokerStars [Zoom |Home Game ]Hand|Game #ID: [{club}] `` then either a cash
  game ``GAME LIMIT (SB/BB[ - $CAP Cap - ][ CUR])`` or a tournament ``Tournament #T,
  BUYIN[ CUR] GAME LIMIT - [Match Round R, ]Level L (SB/BB)``, a mixed game as
  ``MIX (GAME LIMIT[, SB/BB CUR])``, then `` - DATE TIME ZONE[ [DATE TIME ZONE]]``;
- ``Table 'NAME' N-max[ (Play Money)] Seat #B is the button``;
- ``Seat N: NAME (STACK in chips[, BOUNTY bounty])[ is sitting out| out of hand ...]``;
- ``NAME: posts small blind X`` / ``big blind`` / ``small & big blinds X`` (the big blind
  live, the rest dead) / ``the ante X`` / ``straddle X``, ``NAME: folds|checks|calls X|
  bets X|raises X to Y|brings in for X|completes it to X|discards N cards [..]|stands pat
  |shows [..]|mucks hand|doesn't show hand`` (`` and is all-in``, `` and has reached the
  $X cap``);
- ``*** HOLE CARDS|FLOP|TURN|RIVER|SHOW DOWN|SUMMARY ***``, run twice ``*** FIRST|SECOND
  FLOP|TURN|RIVER|SHOW DOWN ***``, stud ``*** 3rd STREET ***`` ..., draw ``*** FIRST
  DRAW ***`` ...; ``Dealt to NAME [..][ [..]]``;
- ``Uncalled bet (X) returned to NAME``, ``NAME collected X from pot|main pot|side
  pot[-N]``, ``NAME cashed out the hand for X | Cash Out Fee Y``;
- summary: ``Total pot X[ Main pot X. Side pot[-N] X. ...] | Rake Y[ | Jackpot Z ...]``,
  ``Board [..]``, ``Seat N: NAME [(button)] [(small blind)] showed [..] and won (X) ...
  |mucked [..]|collected (X)|folded ...``.

Everything else (chat, joins, time-outs, tournament placings, bounties) is skipped.
Amounts mean what :mod:`simulate.notation.site_hand` says: ``raises X to Y`` is a raise
to Y; a cash-out pays the player outside the pot and its fee is paid back outside it (a
negative ``cashout``); the pot the player would have won is the house's, kept as the fee
``cashout``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

from simulate.notation.site_hand import Event, Seat, SiteHand, Stakes
from simulate.notation.site_pokerstars_header import GAME_NAMES, LIMITS, read_header
from simulate.notation.site_read import READ_FAULTS, read_hands
from simulate.notation.site_stars import BRACKETS, SUMMARY_SEAT, SUMMARY_SHOW, TOTAL_POT
from simulate.notation.site_text import SiteError, SiteInfo, amount_at, card_text

__all__ = ["COLLECT", "GAME_NAMES", "HAND_START", "LIMITS", "SEAT", "SUMMARY_COLLECT", "TABLE",
           "bracket_cards", "detect", "read", "seated_prefix"]

_ROOMS = r"(?:PokerStars|PPPoker|POKERSTARS|Upoker|PokerStars\.\w+)"
_START = re.compile(rf"^[ \t\ufeff]*{_ROOMS}\b[^\n]*?(?:Hand|Game) #\w+:", re.M)
#: Where each hand starts (a large file is cut there into parts read apart: ``sites``).
HAND_START = _START
_DETECT = re.compile(rf"^[ \t\ufeff]*{_ROOMS}(?: Zoom| Rush| Home| Fast)* (?:Hand|Game) "
                     r"#\w+:", re.M)

TABLE = re.compile(r"^Table '(?P<table>.*)'(?:\s+(?P<max>\d+)-max)?.*?"
                    r"(?:Seat #(?P<button>\d+) is the button)?\s*$")
SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.*?) \((?P<stack>[^()]*?) in chips"
                   r"(?:,\s*(?P<bounty>[^()]*?) bounty)?\)(?P<rest>.*)$")
_UNCALLED = re.compile(r"^Uncalled bet \((?P<amount>[^)]*)\) returned to (?P<name>.*)$")
COLLECT = re.compile(r"^(?P<name>.*) collected (?P<amount>\S+) from (?P<pot>(?:(?:main|side|"
                      r"high|low) )*pot(?:[- ]?#?\d+)?)\s*$")
_CASHOUT = re.compile(r"^(?P<name>.*) cashed out the hand for (?P<amount>\S+)"
                      r"(?:\s*\|\s*Cash Out Fee (?P<fee>\S+))?")
_RAISE = re.compile(r"raises (?P<by>\S+) to (?P<to>\S+)")
SUMMARY_COLLECT = re.compile(r" (?:collected|won) \((?P<amount>[^)]*)\)")
_STREETS = {"FLOP", "TURN", "RIVER"}
_RUN_WORDS = {"FIRST": 1, "SECOND": 2, "THIRD": 3, "FOURTH": 4}  # a board run more than once
#: The stud games (no board: each street deals each player a card).
STUD = frozenset({"stud", "stud_hilo", "razz"})
_STUD_STREETS = {"3rd STREET", "4th STREET", "5th STREET", "6th STREET", "7th STREET"}
_DRAWS = {"FIRST DRAW", "SECOND DRAW", "THIRD DRAW", "DRAW"}


def detect(head: str) -> bool:
    """Whether ``head`` starts a PokerStars-format export."""
    return _DETECT.search(head) is not None


def read(text: str, source: str) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each hand of a PokerStars-format document (see the module docstring)."""
    return read_hands(text, _START, _read_hand, name_line=True, faults=READ_FAULTS,
                    what="PokerStars")


_CARDS: dict[str, tuple[str, ...]] = {}


def bracket_cards(text: str) -> tuple[str, ...]:
    """The cards of a ``[..]`` group (``??`` for an unknown one), remembered."""
    got = _CARDS.get(text)
    if got is None:
        got = tuple(card_text(t) if t not in ("??", "X", "x") else "??" for t in text.split())
        if len(_CARDS) > 100_000:
            _CARDS.clear()
        _CARDS[text] = got
    return got


def seated_prefix(names: set[str] | dict[str, object], line: str) -> tuple[str, str] | None:
    """``(name, rest)`` of an action line ``NAME: rest`` whose name is one of the seated
    ``names`` (the first ``": "`` that ends one: names may hold ``": "``), ``rest``
    stripped; None where no seated name starts the line."""
    pos = line.find(": ")
    while pos != -1:
        name = line[:pos]
        if name in names:
            return name, line[pos + 2:].strip()
        pos = line.find(": ", pos + 1)
    return None


class _Hand:
    """The state of one hand being read (one pass over its lines)."""

    def __init__(self, info: SiteInfo, stakes: Stakes) -> None:
        self.info = info
        self.stakes = stakes
        self.seats: list[Seat] = []
        self.names: set[str] = set()
        self.events: list[Event] = []
        self.button: int | None = None
        self.max_seats: int | None = None
        self.rake: Decimal | None = None
        self.total: Decimal | None = None
        self.blinds_seen: set[str] = set()
        self.shown: set[str] = set()
        self.run = 1
        self.summary_shows: list[Event] = []
        self.summary_collects: list[Event] = []
        self.stud_street = 0  # stud: 3 on third street, ..., 7 on the river
        self.dealt: set[str] = set()  # stud: who was dealt a card on this street
        self.folded: set[str] = set()


    def add(self, kind: str, player: str | None = None, amount: Decimal | None = None,
            cards: tuple[str, ...] = (), line: int = 0, allin: bool = False,
            pot: str | None = None) -> None:
        self.events.append(Event(kind, player, amount, cards, line, allin, pot, self.run))


def _read_hand(chunk: str, first: int) -> SiteHand:
    lines = chunk.split("\n")
    info, stakes = read_header(lines[0], first)
    h = _Hand(info, stakes)
    section = "seats"
    for n, raw in enumerate(lines[1:], start=first + 1):
        line = raw.strip()
        if not line:
            continue
        if line == "Hand cancelled":
            raise SiteError(f"line {n}: hand cancelled (the site returned the blinds)")
        if line.startswith("*** "):
            section = _street(h, line, n, section)
            continue
        if line.startswith("*") and "#" in line and line.endswith("*"):
            continue  # the 2023 export's "*** # N ***" separator
        if section == "summary":
            _summary_line(h, line, n)
            continue
        if section == "seats":
            if line.startswith("Seat "):
                m = SEAT.match(line)
                if m is not None:
                    name = m["name"]
                    rest = m["rest"].lower()
                    out = "sitting out" in rest or "out of hand" in rest
                    h.seats.append(Seat(int(m["seat"]), name, amount_at(m["stack"], n),
                                        in_hand=not out))
                    h.names.add(name)
                    continue
            elif line.startswith("Table "):
                m = TABLE.match(line)
                if m is not None:
                    info.table = m["table"]
                    if m["max"]:
                        h.max_seats = int(m["max"])
                    if m["button"]:
                        h.button = int(m["button"])
                    if info.table.startswith("UPOK"):
                        info.site = "upoker"  # Upoker's PokerStars-format export
                    continue
        _action_line(h, line, n)
    if section != "summary":
        raise SiteError(f"line {first}: the hand stops before its summary (truncated)")
    if not h.seats:
        raise SiteError(f"line {first}: the hand lists no seats (cut short)")
    hand = SiteHand(info=info, seats=h.seats, stakes=stakes, events=h.events,
                    button=h.button, rake=h.rake, total_pot=h.total, max_seats=h.max_seats)
    _finish(h, hand)
    return hand


def _street(h: _Hand, line: str, n: int, section: str) -> str:
    """A ``*** NAME *** [cards]`` line: the section it opens."""
    end = line.find(" ***", 4)
    name = line[4:end].strip() if end != -1 else line.strip("* ")
    if name == "SUMMARY":
        return "summary"
    if name == "HOLE CARDS" or name == "DEALING HANDS":
        return "body"
    word, _, street = name.partition(" ")
    run = 1
    if word in _RUN_WORDS and street in _STREETS | {"SHOW DOWN"}:
        run = _RUN_WORDS[word]
        name = street
    if name == "SHOW DOWN":
        h.run = run
        if h.info.game in STUD:
            _stud_fill(h, n)
        return "body"
    if h.info.game in STUD and (name in _STREETS or name in _STUD_STREETS):
        _stud_fill(h, n)
        h.add("street", line=n)
        h.stud_street = int(name[0]) if name[0].isdigit() else 7
        h.dealt.clear()
        return "body"
    if name in _STREETS:
        groups = BRACKETS.findall(line)
        if not groups:
            raise SiteError(f"line {n}: a board without cards: {line!r}")
        cards = bracket_cards(groups[-1])
        h.run = run
        h.add("board", cards=cards, line=n)
        return "body"
    if name in _STUD_STREETS or name in _DRAWS or name.endswith("DRAW") or (
            name.endswith("STREET")):
        h.add("street", line=n)
        return "body"
    return "body"


_POSTS = (("posts small & big blinds ", "sbb"), ("posts small blind ", "sb"),
          ("posts big blind ", "bb"), ("posts the ante ", "ante"), ("posts ante ", "ante"),
          ("posts straddle ", "straddle"), ("posts button blind ", "post"),
          ("posts a dead small blind ", "dead"), ("posts dead blind ", "dead"))
_CAP_TAIL = re.compile(r"\s+and has reached the \S+ cap\s*$")


def _action_line(h: _Hand, line: str, n: int) -> None:
    got = seated_prefix(h.names, line)
    if got is None:
        _other_line(h, line, n)
        return
    name, rest = got
    if h.stud_street:
        _stud_fill(h, n)
    allin = rest.endswith("and is all-in")
    if allin:
        rest = rest[:-len("and is all-in")].strip()
    if rest.endswith(" cap"):
        rest = _CAP_TAIL.sub("", rest)
    if rest.startswith("folds"):
        groups = BRACKETS.findall(rest)
        if groups and h.info.game not in STUD:  # a fold that shows its cards: known
            h.add("hole", name, cards=bracket_cards(groups[0]), line=n)
        h.add("fold", name, line=n)
        h.folded.add(name)
    elif rest.startswith("checks"):
        h.add("check", name, line=n)
    elif rest.startswith("calls "):
        h.add("call", name, amount_at(rest[6:], n), line=n, allin=allin)
    elif rest.startswith("bets "):
        h.add("bet", name, amount_at(rest[5:], n), line=n, allin=allin)
    elif rest.startswith("raises "):
        m = _RAISE.match(rest)
        if m is None:
            raise SiteError(f"line {n}: a raise without its total: {line!r}")
        h.add("raise", name, amount_at(m["to"], n), line=n, allin=allin)
    elif rest.startswith("posts "):
        _post(h, name, rest, n, allin)
    elif rest.startswith("brings in for "):
        h.add("bring_in", name, amount_at(rest[len("brings in for "):], n), line=n, allin=allin)
    elif rest.startswith("completes it to "):
        h.add("complete", name, amount_at(rest[len("completes it to "):], n), line=n,
              allin=allin)
    elif rest.startswith("shows "):
        groups = BRACKETS.findall(rest)
        if groups and name not in h.shown:
            h.shown.add(name)
            h.add("show", name, cards=_pad(h, bracket_cards(groups[0])), line=n)
    elif rest.startswith("mucks"):
        if name not in h.shown:
            h.shown.add(name)
            groups = BRACKETS.findall(rest)
            h.add("muck", name, cards=_pad(h, bracket_cards(groups[0])) if groups else (),
                  line=n)
    elif rest.startswith("discards"):
        groups = BRACKETS.findall(rest)
        if groups:
            cards = bracket_cards(groups[0])
        else:
            m = re.match(r"discards (\d+)", rest)
            cards = ("??",) * (int(m[1]) if m else 0)
        h.add("discard", name, cards=cards, line=n)
    elif rest.startswith("stands pat"):
        h.add("stand", name, line=n)
    # anything else said after "NAME: " (sits out, is sitting out, doesn't show hand,
    # shows nothing, chat) moves no chips


def _post(h: _Hand, name: str, rest: str, n: int, allin: bool) -> None:
    hit = next(((p, w) for p, w in _POSTS if rest.startswith(p)), None)
    if hit is None:
        raise SiteError(f"line {n}: an unknown post: {rest!r}")
    amount, what = amount_at(rest[len(hit[0]):], n), hit[1]
    if what == "ante":
        h.add("ante", name, amount, line=n, allin=allin)
    elif what == "sbb":
        # the big blind is live, the small blind's part dead
        bb = h.stakes.big_blind if h.stakes.big_blind is not None else h.stakes.small_bet
        if bb is None or bb > amount:
            bb = amount
        h.add("post", name, bb, line=n, allin=allin)
        if amount > bb:
            h.add("dead", name, amount - bb, line=n)
    elif what == "sb":
        if "sb" in h.blinds_seen:  # a second small blind: a missed blind, posted dead
            h.add("dead", name, amount, line=n, allin=allin)
        else:
            h.blinds_seen.add("sb")
            h.add("small_blind", name, amount, line=n, allin=allin)
    elif what == "bb":
        if "bb" in h.blinds_seen:  # another big blind: a live post to come in
            h.add("post", name, amount, line=n, allin=allin)
        else:
            h.blinds_seen.add("bb")
            h.add("big_blind", name, amount, line=n, allin=allin)
    else:
        h.add(what, name, amount, line=n, allin=allin)


def _pad(h: _Hand, cards: tuple[str, ...]) -> tuple[str, ...]:
    """Shown cards padded with ``??`` to the game's hole cards (a one-card show)."""
    from simulate.games import GAMES
    g = GAMES.get(h.info.game)
    if g is None or len(cards) >= g.hole_cards:
        return cards
    return cards + ("??",) * (g.hole_cards - len(cards))


_UNSEATED = re.compile(r"^(?P<name>.+?): (?:posts|folds|checks|calls|bets|raises|brings in|"
                       r"completes|discards|stands pat)\b")


def _other_line(h: _Hand, line: str, n: int) -> None:
    m = _UNSEATED.match(line)
    if m is not None:
        raise SiteError(f"line {n}: {m['name']!r} acts but has no seat")
    if line.startswith("Dealt to "):
        pos = line.find(" [", 9)
        while pos != -1 and line[9:pos] not in h.names:
            pos = line.find(" [", pos + 1)
        name = line[9:pos]
        groups = BRACKETS.findall(line[pos:]) if pos != -1 else []
        if groups:
            cards = bracket_cards(groups[-1])
            if h.info.game in STUD:
                if h.stud_street <= 3 and len(cards) == 1:  # the door card; two down
                    cards = ("??", "??", *cards)
                elif "??" not in cards and len(cards) > 1 and h.stud_street <= 3 and (
                        h.info.hero is None):
                    h.info.hero = name
                h.dealt.add(name)
            elif h.info.hero is None:
                h.info.hero = name
            h.add("hole", name, cards=cards, line=n)
        return
    if line.startswith("Uncalled bet"):
        m = _UNCALLED.match(line)
        if m is None:
            raise SiteError(f"line {n}: {line!r}")
        if m["name"].strip() not in h.names:
            raise SiteError(f"line {n}: {m['name'].strip()!r} is returned a bet but has no seat")
        h.add("uncalled", m["name"].strip(), amount_at(m["amount"], n), line=n)
        return
    if " collected " in line:
        m = COLLECT.match(line)
        if m is not None:
            if m["name"] not in h.names:
                raise SiteError(f"line {n}: {m['name']!r} collects but has no seat")
            h.add("collect", m["name"], amount_at(m["amount"], n), line=n, pot=m["pot"])
            return
    if " cashed out the hand for " in line:
        m = _CASHOUT.match(line)
        if m is not None and m["name"] in h.names:
            # paid the cash-out outside the pot; its fee paid back outside the pot too
            if amount_at(m["amount"], n):  # (one for $0 pays only its fee)
                h.add("cashout", m["name"], amount_at(m["amount"], n), line=n)
            if m["fee"] and amount_at(m["fee"], n):
                h.add("cashout", m["name"], -amount_at(m["fee"], n), line=n)
            return


def _stud_fill(h: _Hand, n: int) -> None:
    """Stud: the card each player still in was dealt on the street just ended where the
    file prints none (the river's down card: ``??``)."""
    if h.stud_street < 3:
        return
    dealt_before = {e.player for e in h.events if e.kind == "hole"}
    for s in h.seats:
        p = s.name
        if p in dealt_before and p not in h.folded and p not in h.dealt:
            h.add("hole", p, cards=("??",) * (3 if h.stud_street == 3 else 1), line=n)
            h.dealt.add(p)


def _summary_line(h: _Hand, line: str, n: int) -> None:
    if line.startswith("Total pot"):
        parts = [p.strip() for p in line.split("|")]
        m = TOTAL_POT.match(parts[0])
        if m is not None:
            h.total = amount_at(m["total"].rstrip("."), n)
        for p in parts[1:]:
            label, _, amount = p.rpartition(" ")
            if not label:
                continue
            value = amount_at(amount, n)
            if label.lower() == "rake":
                h.rake = value
            elif value:
                h.info.fees[label.lower()] = h.info.fees.get(label.lower(), 0) + value
        return
    if line.startswith("Seat ") and ("showed [" in line or "mucked" in line
                                     or "collected (" in line or "won (" in line):
        m = SUMMARY_SEAT.match(line)
        if m is None:
            return
        seat = int(m["seat"])
        who = next((s for s in h.seats if s.seat == seat), None)
        if who is None:
            return
        rest = m["rest"][len(who.name):] if m["rest"].startswith(who.name) else m["rest"]
        s = SUMMARY_SHOW.search(rest)
        if s is not None:
            kind = "show" if s["kind"] == "showed" else "muck"
            h.summary_shows.append(Event(kind, who.name, None,
                                         _pad(h, bracket_cards(s["cards"])), n))
        elif rest.strip().endswith("mucked"):
            h.summary_shows.append(Event("muck", who.name, None, (), n))
        for c in SUMMARY_COLLECT.finditer(rest):
            if "pot not awarded" in rest:
                break
            h.summary_collects.append(Event("collect", who.name, amount_at(c["amount"], n),
                                            (), n, pot="pot"))


def _finish(h: _Hand, hand: SiteHand) -> None:
    """What the summary adds: shown cards the body did not print (before the pots are
    paid), the pots where the body printed no collection, the cash-outs."""
    events = hand.events
    if h.summary_shows:
        bare = {e.player: e for e in events if e.kind == "muck" and not e.cards}
        for e in h.summary_shows:  # "mucks hand", and the summary names the cards
            if e.cards and e.player in bare:
                bare[e.player].cards = e.cards
                bare[e.player].kind = e.kind  # PPPoker: "mucks hand", then "showed [..]"
        extra = [e for e in h.summary_shows if e.player not in h.shown]
        if extra:
            at = next((i for i, e in enumerate(events) if e.kind in ("collect", "cashout")),
                      len(events))
            events[at:at] = extra
    has_collect = any(e.kind == "collect" for e in events)
    cashed = {e.player: e.amount for e in events if e.kind == "cashout"}
    if not has_collect:
        events.extend(e for e in h.summary_collects if e.amount)
    if cashed and hand.total_pot is not None:
        # the pot a cashed-out player would have won stays with the house
        took = sum((e.amount for e in events if e.kind == "collect" and e.amount), Decimal(0))
        kept = hand.total_pot - (hand.rake or Decimal(0)) - took - sum(
            h.info.fees.values(), Decimal(0))
        if kept > 0:
            h.info.fees["cashout"] = kept
    if not any(e.kind == "uncalled" for e in events) and hand.total_pot is not None:
        _unprinted_uncalled(hand)


def _unprinted_uncalled(hand: SiteHand) -> None:
    """An export that leaves out the "Uncalled bet" line (two edited samples do): the
    unmatched part of a street's largest bet goes back to its player, where (and only
    where) that makes the printed pot add up and the hand did not already."""
    put = sum(hand.committed().values(), Decimal(0))
    if put == hand.total_pot:
        return
    events = list(hand.events)
    hand.return_uncalled()
    if sum(hand.committed().values(), Decimal(0)) != hand.total_pot:
        hand.events = events
