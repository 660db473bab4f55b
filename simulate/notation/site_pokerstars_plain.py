"""The plain-hand lane of the PokerStars format: a Hold'em hand in whole chips, every line
of a kind the lane knows, read in one pass straight into the fields the compiled replay
takes (:class:`~simulate.notation.site_text.PlainSiteHand`), without the
:class:`~simulate.notation.site_hand.Event` records, the builder's passes and the PHH
reader's parse of each action that the full road
(:mod:`simulate.notation.site_pokerstars`, then :func:`simulate.notation.site_build.build`)
spends on every hand.

It adds no rule: it takes only hands on which the full road makes no choice, and gives
exactly what that road gives (``tests/test_site_plain.py`` compares both on every
PokerStars sample and on ``play`` -> ``convert`` files, field for field). Anything else,
and anything it is unsure of, it declines (None), and the full road reads the hand:

- the header (:func:`~simulate.notation.site_pokerstars_header.read_header`, the full
  road's own) must name Hold'em without a cap; the ``Table`` line must give the button;
- ``Seat N: NAME (STACK in chips)`` read by the full reader's own pattern (no bounty;
  sitting out or not is the same to the builder);
- ``posts small blind``, ``posts big blind`` (one of each, not all in, not short of the
  stakes), ``posts the ante``/``posts ante``; ``folds``, ``checks``, ``calls X``,
  ``bets X``, ``raises X to Y`` (all in or not); ``shows [..]``, ``mucks hand``, and
  whatever else a seated player says that moves nothing (``doesn't show hand``, ``sits
  out``); ``Dealt to NAME [..]``; ``*** HOLE CARDS|FLOP|TURN|RIVER|SHOW DOWN|SUMMARY ***``
  (one board); ``Uncalled bet (X) returned to NAME`` (no larger than the bet); ``NAME
  collected X from pot``; lines of no seated name that the full reader passes over too
  (chat, joins);
- the summary's ``Total pot X | Rake Y`` with nothing else in it and the chips adding up
  (committed = pot = collected + rake), its ``Seat`` lines showing only what the body
  showed and their cards and amounts readable; every amount whole.

The seat order, the heads-up order of the forced bets and the rule for hole cards are the
builder's own functions (:func:`~simulate.notation.site_build.from_the_button`,
:func:`~simulate.notation.site_build.phh_forced_order`,
:func:`~simulate.notation.site_build.keep_known`).
"""

from __future__ import annotations

import re
from decimal import Decimal

from simulate.games import GAMES
from simulate.notation.phh_read import MAX_AMOUNT
from simulate.notation.site_build import from_the_button, keep_known, phh_forced_order
from simulate.notation.site_hand import Stakes
from simulate.notation.site_pokerstars import (
    BRACKETS,
    COLLECT,
    SEAT,
    SUMMARY_COLLECT,
    TABLE,
    bracket_cards,
)
from simulate.notation.site_pokerstars_header import read_header
from simulate.notation.site_read import READ_FAULTS
from simulate.notation.site_stars import SUMMARY_SHOW
from simulate.notation.site_text import PlainSiteHand, SiteError, SiteInfo, amount_at

__all__ = ["plain_hand"]

_HOLDEM = GAMES["holdem"]
_HOLE = _HOLDEM.hole_cards
_UNKNOWN = ("??",) * _HOLE
#: PHH's seat words and a space, by seat index.
_TAGS = tuple(f"p{i + 1} " for i in range(64))

#: Amounts as printed -> whole chips (None: not a whole, non-negative amount).
_WHOLE: dict[str, int | None] = {}


def _whole_of(d: Decimal) -> int | None:
    """``d`` as whole chips the compiled replay takes, or None."""
    return int(d) if d == d.to_integral_value() and 0 <= d <= MAX_AMOUNT else None


def _amount(text: str) -> int:
    """An amount as printed, in whole chips (remembered); declines anything else."""
    got = _WHOLE.get(text, -1)
    if got == -1:
        try:
            got = _whole_of(amount_at(text, 0))
        except SiteError:
            got = None
        if len(_WHOLE) > 100_000:
            _WHOLE.clear()
        _WHOLE[text] = got
    if got is None:
        raise _Decline
    return got


def _int_of(d: Decimal | None) -> int | None:
    """A stake as whole chips (None for None); declines a fraction."""
    if d is None:
        return None
    got = _whole_of(d)
    if got is None:
        raise _Decline
    return got


class _Decline(Exception):
    """The hand is not one the lane takes: the full road reads it."""


def plain_hand(chunk: str, first: int) -> PlainSiteHand | None:
    """The :class:`PlainSiteHand` of one hand's text (``first``: the document's line of its
    header), or None where the lane declines it (see the module docstring)."""
    try:
        return _read(chunk, first)
    except (_Decline, SiteError, *READ_FAULTS):
        return None


# What a line is, by :func:`_classify` (the first item of its tuple).
_DECLINE, _BLANK, _STREET, _SEAT, _TABLE, _TOTAL, _ACT, _DEALT, _UNCALLED, _COLLECT = range(10)
# What an action line does (``_ACT``'s third item).
_FOLD, _CHECK, _CALL, _BET, _RAISE, _SB, _BB, _ANTE, _SHOW, _MUCK, _NOTHING = range(11)
#: Each section's lines as classified (seats, body, summary), the line as printed the key:
#: most lines repeat from hand to hand (a play-written file's 20,000 hands hold about 32,000
#: distinct body lines: dealt and shown cards). Each is cleared when it reaches 50,000.
_LINES: tuple[dict[str, tuple], ...] = ({}, {}, {})  # type: ignore[type-arg]
_BOARD_STREETS = frozenset({"FLOP", "TURN", "RIVER"})
#: The summary's lines the full road reads, in a summary's text with a newline put before
#: it (lines are read stripped; a ``*`` line changes the section). Each pattern starts with
#: its newline: searched for far faster than ``^`` under ``re.M``.
_SUMMARY_STAR = re.compile(r"\n[ \t]*\*")
_SUMMARY_TOTAL = re.compile(r"\n[ \t]*(Total pot[^\n]*)")
_SUMMARY_SHOWS = re.compile(r"\n[ \t]*(Seat (\d+): [^\n]*)")
#: The starts of what the full road reads after "NAME: " (anything else moves nothing).
_MOVES = ("folds", "checks", "calls ", "bets ", "raises ", "posts ", "brings in for ",
          "completes it to ", "shows ", "mucks", "discards", "stands pat")
_POSTS = (("posts small blind ", _SB), ("posts big blind ", _BB), ("posts the ante ", _ANTE),
          ("posts ante ", _ANTE))


def _classify(line: str, section: int) -> tuple:  # type: ignore[type-arg]
    """What the stripped ``line`` is in ``section`` (0 seats, 1 body, 2 summary), as far as
    the line alone tells: a tuple whose first item is one of the ``_DECLINE`` ... codes.
    A name it gives must still be checked against the hand's seats."""
    if not line:
        return (_BLANK,)
    try:
        return _kind_of(line, section)
    except (_Decline, SiteError, *READ_FAULTS):
        return (_DECLINE,)


def _kind_of(line: str, section: int) -> tuple:  # type: ignore[type-arg]  # noqa: C901
    if line[0] == "*":
        if not line.startswith("*** "):
            return (_DECLINE,)
        end = line.find(" ***", 4)
        name = line[4:end].strip() if end != -1 else line.strip("* ")
        if name == "SUMMARY":
            return (_STREET, 2, None)
        if name in ("HOLE CARDS", "DEALING HANDS", "SHOW DOWN"):
            return (_STREET, 1, None)
        if name in _BOARD_STREETS:
            groups = BRACKETS.findall(line)
            return (_STREET, 1, bracket_cards(groups[-1])) if groups else (_DECLINE,)
        return (_DECLINE,)
    if section == 2:
        if line.startswith("Total pot"):  # (:func:`_summary` reads the summary's lines)
            parts = [p.strip() for p in line.split("|")]
            head = parts[0].split(" ")
            if len(parts) != 2 or len(head) != 3 or not parts[1].startswith("Rake "):
                return (_DECLINE,)
            return (_TOTAL, _amount(head[2].rstrip(".")), _amount(parts[1][5:]))
        return (_DECLINE,)
    if section == 0 and line.startswith("Seat "):
        m = SEAT.match(line)  # (whatever follows: sitting out or not, the same to the builder)
        if m is None or m["bounty"]:
            return (_DECLINE,)
        return (_SEAT, m["name"], int(m["seat"]), _amount(m["stack"]))
    if section == 0 and line.startswith("Table "):
        m = TABLE.match(line)
        if m is None or not m["button"]:
            return (_DECLINE,)
        return (_TABLE, m["table"], int(m["button"]))
    pos = line.find(": ")
    if pos != -1:
        if line.find(": ", pos + 1) != -1:
            return (_DECLINE,)  # which ": " ends the name depends on the names
        return _action(line[:pos], line[pos + 2:].strip())
    if line.startswith("Dealt to "):
        pos = line.find(" [", 9)
        if pos == -1 or line.find(" [", pos + 1) != -1:
            return (_DECLINE,)  # no cards, or which " [" ends the name depends on the names
        groups = BRACKETS.findall(line[pos:])
        return (_DEALT, line[9:pos], bracket_cards(groups[-1])) if groups else (_DECLINE,)
    if line.startswith("Uncalled bet ("):
        close = line.find(") returned to ", 14)
        if close == -1:
            return (_DECLINE,)
        return (_UNCALLED, line[close + 14:].strip(), _amount(line[14:close]))
    if " collected " in line:
        m = COLLECT.match(line)
        return (_DECLINE,) if m is None else (_COLLECT, m["name"], _amount(m["amount"]))
    if " cashed out the hand for " in line or line == "Hand cancelled":
        return (_DECLINE,)
    return (_BLANK,)  # a line of no seated name the full road passes over (chat, joins, ...)


def _action(p: str, rest: str) -> tuple:  # type: ignore[type-arg]
    """An action line ``p: rest`` (``rest`` stripped)."""
    allin = rest.endswith("and is all-in")
    if allin:
        rest = rest[:-len("and is all-in")].strip()
    if rest.endswith(" cap"):
        return (_DECLINE,)
    if rest == "folds":
        return (_ACT, p, _FOLD, 0, "f")
    if rest == "checks":
        return (_ACT, p, _CHECK, 0, "cc")
    if rest.startswith("calls "):
        return (_ACT, p, _CALL, _amount(rest[6:]), "cc")
    if rest.startswith("bets "):
        return (_ACT, p, _BET, _amount(rest[5:]), "")
    if rest.startswith("raises "):
        w = rest.split(" ")
        if len(w) != 4 or w[2] != "to":
            return (_DECLINE,)
        to = _amount(w[3])
        return (_ACT, p, _RAISE, to, f"cbr {to}")
    if rest.startswith("posts "):
        if allin:
            return (_DECLINE,)  # a blind all in: the full road may write it at its full size
        for text, what in _POSTS:
            if rest.startswith(text):
                return (_ACT, p, what, _amount(rest[len(text):]), "")
        return (_DECLINE,)
    if rest.startswith("shows ["):
        cards = bracket_cards(BRACKETS.findall(rest)[0])
        if len(cards) < _HOLE:
            cards = cards + ("??",) * (_HOLE - len(cards))
        return (_ACT, p, _SHOW, cards, "sm " + "".join(cards))
    if rest == "mucks hand":
        return (_ACT, p, _MUCK, 0, "sm")
    if rest.startswith(_MOVES):
        return (_DECLINE,)
    return (_ACT, p, _NOTHING, 0, "")  # said after "NAME: " and moving nothing (sits out, ...)


def _read(chunk: str, first: int) -> PlainSiteHand | None:  # noqa: C901 (one pass, one place)
    lines = chunk.split("\n")
    info, stakes = read_header(lines[0], first)
    if info.game != "holdem" or info.cap is not None:
        return None
    seat_no: dict[str, int] = {}  # name -> the site's seat number, in seat order
    stack: dict[str, int] = {}
    button = None
    named: set[str] = set()
    ante: dict[str, int] = {}
    blind: dict[str, int] = {}
    blind_kind: dict[str, int] = {}
    bets: dict[str, int] = {}  # this street's bets
    put: dict[str, int] = {}  # committed
    took: dict[str, int] = {}  # collected
    known: dict[str, tuple[str, ...]] = {}  # hole cards as known
    shown: set[str] = set()
    bare: set[str] = set()  # "mucks hand" without cards
    board: list[str] = []
    # the actions, in order: (name, the PHH action after its seat word; "" for the board's)
    acts: list[tuple[str, str]] = []
    seen_sb = seen_bb = False
    returned = False
    section = 0  # 0 seats, 1 body, 2 summary
    cache = _LINES[0]
    at = 0
    for raw in lines[1:]:
        at += 1
        got = cache.get(raw)
        if got is None:
            got = _classify(raw.strip(), section)
            if got[0] != _STREET or got[2] is None:  # (a board seldom repeats: not kept)
                if len(cache) >= 50_000:  # (about 20 MB at most: see _LINES)
                    cache.clear()
                cache[raw] = got
        code = got[0]
        if code == _ACT:
            p = got[1]
            if p not in seat_no:
                return None  # (the full road would read the line otherwise)
            what = got[2]
            if what == _NOTHING:
                continue
            named.add(p)
            if what <= _CHECK:
                acts.append((p, got[4]))
            elif what == _CALL:
                x = got[3]
                bets[p] = bets.get(p, 0) + x
                put[p] = put.get(p, 0) + x
                acts.append((p, "cc"))
            elif what == _RAISE:
                to = got[3]
                put[p] = put.get(p, 0) + to - bets.get(p, 0)
                bets[p] = to
                acts.append((p, got[4]))
            elif what == _BET:
                x = got[3]
                bets[p] = now = bets.get(p, 0) + x
                put[p] = put.get(p, 0) + x
                acts.append((p, f"cbr {now}"))
            elif what == _SHOW:
                if p not in shown:  # (a second one makes no event; the name is named)
                    shown.add(p)
                    keep_known(known, p, got[3])
                    acts.append((p, got[4]))
            elif what == _MUCK:
                if p not in shown:
                    shown.add(p)
                    bare.add(p)
                    acts.append((p, "sm"))
            else:  # a post
                x = got[3]
                if what == _ANTE:
                    ante[p] = ante.get(p, 0) + x
                else:
                    if (seen_sb if what == _SB else seen_bb):
                        return None  # a second one: dead or a live post
                    if what == _SB:
                        seen_sb = True
                    else:
                        seen_bb = True
                    blind[p] = blind.get(p, 0) + x
                    blind_kind[p] = what
                    bets[p] = bets.get(p, 0) + x
                put[p] = put.get(p, 0) + x
        elif code == _BLANK:
            continue
        elif code == _STREET:
            section = got[1]
            if section == 2:
                break
            cache = _LINES[section]
            cards = got[2]
            if cards is not None:
                board.extend(cards)
                acts.append(("", "".join(cards)))
                bets = {}
        elif code == _DEALT:
            p = got[1]
            if p not in seat_no:
                return None
            if info.hero is None:
                info.hero = p
            named.add(p)
            keep_known(known, p, got[2])
        elif code == _SEAT:
            p = got[1]
            if p in seat_no:
                return None
            seat_no[p] = got[2]
            stack[p] = got[3]
        elif code == _TABLE:
            info.table, button = got[1], got[2]
            if info.table.startswith("UPOK"):
                info.site = "upoker"
        elif code == _UNCALLED:
            p, x = got[1], got[2]
            if p not in seat_no:
                return None
            mine = bets.get(p, 0)
            others = max((v for q, v in bets.items() if q != p), default=0)
            if x > max(mine - others, 0):
                return None  # the full road caps it and says so
            bets[p] = mine - x
            put[p] = put.get(p, 0) - x
            named.add(p)
            returned = True
        elif code == _COLLECT:
            p = got[1]
            if p not in seat_no:
                return None
            took[p] = took.get(p, 0) + got[2]
            named.add(p)
        else:
            return None
    if section != 2 or not seat_no or button is None or not took:
        return None
    got = _summary("\n" + "\n".join(lines[at + 1:]), seat_no, shown, bare)
    if got is None:
        return None
    total, rake = got
    committed = sum(put.values())
    if committed != total and not returned:
        return None  # the full road looks for an unprinted uncalled bet
    if committed != sum(took.values()) + rake:
        return None  # the full road's error
    return _fields(info, stakes, first, chunk, seat_no, stack, button, named, ante, blind,
                   blind_kind, took, known, board, acts, rake)


def _summary(text: str, seat_no: dict[str, int], shown: set[str], bare: set[str],
             ) -> tuple[int, int] | None:
    """``(total pot, rake)`` of a summary's ``text`` (a newline, then the lines after
    ``*** SUMMARY ***``), None where the full road would read more in it than the body
    said, or fail on it: a ``*`` line (a new section), ``Hand cancelled``, no or several
    ``Total pot`` lines, a seat line that shows or mucks what the body did not show, a
    bad card or amount on a seat line."""
    if _SUMMARY_STAR.search(text) is not None or "Hand cancelled" in text:
        return None
    totals = _SUMMARY_TOTAL.findall(text)
    if len(totals) != 1:
        return None
    got = _LINES[2].get(totals[0])
    if got is None:
        got = _LINES[2][totals[0]] = _classify(totals[0].strip(), 2)
    if got[0] != _TOTAL:
        return None
    if "showed [" in text or "mucked" in text or "collected (" in text or "won (" in text:
        by_no: dict[int, str] = {}
        for p, n in seat_no.items():
            by_no.setdefault(n, p)
        for m in _SUMMARY_SHOWS.finditer(text):
            line = m[1]
            if "collected (" in line or "won (" in line:
                for c in SUMMARY_COLLECT.finditer(line):  # (read by the full road: a bad
                    amount_at(c["amount"], 0)  # amount there is its error)
            if "showed [" not in line and "mucked" not in line:
                continue
            who = by_no.get(int(m[2]))
            if who is not None and (who not in shown or (who in bare and "[" in line)):
                return None  # the summary would add to what the body showed
            for cards in SUMMARY_SHOW.finditer(line):
                bracket_cards(cards["cards"])  # (the full road reads them: a bad card is its error)
    return got[1], got[2]


def _fields(info: SiteInfo, stakes: Stakes, first: int, chunk: str, seat_no: dict[str, int],
            stack: dict[str, int], button: int, named: set[str], ante: dict[str, int],
            blind: dict[str, int], blind_kind: dict[str, int], took: dict[str, int],
            known: dict[str, tuple[str, ...]], board: list[str],
            acts: list[tuple[str, str]], rake: int) -> PlainSiteHand | None:
    """The fields and site facts :func:`simulate.notation.site_build.build` makes of the
    hand (its seat order, forced bets, hole cards and action text)."""
    names = [p for p in seat_no if p in named]
    if len(names) < 2:
        return None
    names = from_the_button(names, seat_no, button)
    idx = {p: i for i, p in enumerate(names)}
    nominal = {_SB: _int_of(stakes.small_blind), _BB: _int_of(stakes.big_blind)}
    for p, kind in blind_kind.items():
        full = nominal[kind]
        if full is not None and 0 < blind[p] < full:
            return None  # short of the stakes: the full road's rule for a blind all in
    antes = phh_forced_order([ante.get(p, 0) for p in names])
    blinds = phh_forced_order([blind.get(p, 0) for p in names])
    tag = {p: _TAGS[i] for p, i in idx.items()}
    tag[""] = "d db "
    out = []
    dealt = list(board)
    for p in names:
        cards = known.get(p, ())
        if len(cards) < _HOLE:
            cards = (*cards, *_UNKNOWN)[:_HOLE]
        else:
            cards = cards[:_HOLE]
        dealt += cards
        out.append("d dh " + tag[p] + "".join(cards))
    dealt = [c for c in dealt if c != "??"]
    if len(set(dealt)) != len(dealt):
        return None  # a card dealt twice: the full road's error
    out += [tag[p] + v for p, v in acts]
    betting = info.betting
    fields: dict[str, object] = {
        "variant": _HOLDEM.phh[betting], "ante_trimming_status": False,
        "antes": tuple(antes), "blinds_or_straddles": tuple(blinds)}
    if betting == "fixed-limit":
        small = _int_of(stakes.small_bet or stakes.big_blind)
        if not small:
            return None
        fields["small_bet"] = small
        fields["big_bet"] = _int_of(stakes.big_bet) or 2 * small
        if stakes.bring_in is not None:
            return None
    else:
        bb = _int_of(stakes.big_blind) or max(blinds, default=0)
        if not bb:
            return None
        fields["min_bet"] = bb
    fields["starting_stacks"] = tuple(stack[p] for p in names)
    fields["players"] = tuple(names)
    fields["winnings"] = tuple(took.get(p, 0) for p in names)
    fields["rake"] = rake
    text = '["' + '", "'.join(out) + '"]'
    if not text.isascii():
        return None
    fields["actions"] = text
    info.seats = [seat_no[p] for p in names]
    info.boards = ["".join(board)] if board else []
    return PlainSiteHand(fields, info, chunk, first)
