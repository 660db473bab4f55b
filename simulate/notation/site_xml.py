"""What the structured-format site readers share (iPoker, Merge, MicroGaming and Boss Media
XML, IGT JSON): a guarded XML parse, the naming of an action by what it does, and the
uncalled bets a file leaves to be worked out.

The XML exports are parsed with the standard library's :mod:`xml.etree.ElementTree` only
after a check: a document type declaration (the only way to declare entities) is refused,
and so is a document whose size or nesting is absurd for a hand history, so no input can
make the parser expand entities or recurse without bound.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from decimal import Decimal
from html.entities import name2codepoint
from typing import Any

from simulate.notation.site_hand import Event, Seat, SiteHand, StreetBets
from simulate.notation.site_text import SiteError, amount_at

__all__ = ["MAX_DEPTH", "MAX_XML_CHARS", "ZERO", "ActionBets", "Lines", "acting", "amount_or_zero",
           "line_at", "parse_xml", "pay_wins", "refuse_declarations", "returned",
           "xml_units"]

#: Nothing: the amount of a missing or blank attribute.
ZERO = Decimal(0)

#: The largest XML chunk (one session or hand, in characters) the readers parse.
MAX_XML_CHARS = 64 * 1024 * 1024
#: The deepest element nesting a hand history may have.
MAX_DEPTH = 32

_DECL = re.compile(r"<\?xml[^>]*\?>")
_DOCTYPE = re.compile(r"<!(?:DOCTYPE|ENTITY)", re.IGNORECASE)
_NAMED = re.compile(r"&([A-Za-z][A-Za-z0-9]{1,31});")
_XML_NAMED = frozenset({"amp", "lt", "gt", "quot", "apos"})


def _html_entity(m: re.Match[str]) -> str:
    name = m.group(1)
    if name in _XML_NAMED or name not in name2codepoint:
        return m.group(0)
    return chr(name2codepoint[name])


def line_at(text: str, pos: int) -> int:
    """The 1-based line of character ``pos`` of ``text``."""
    return text.count("\n", 0, pos) + 1


class Lines:
    """The lines of positions in ``text`` asked for in increasing order, counted once
    (one pass over a file of many hands, not one per hand)."""

    def __init__(self, text: str) -> None:
        self.text, self.pos, self.line = text, 0, 1

    def at(self, pos: int) -> int:
        if pos < self.pos:
            return line_at(self.text, pos)
        self.line += self.text.count("\n", self.pos, pos)
        self.pos = pos
        return self.line


def refuse_declarations(text: str, line: int = 1) -> None:
    """Raise :class:`SiteError` when ``text`` declares a document type or entities (the
    only way XML can make a parser expand text: no site export needs one)."""
    m = _DOCTYPE.search(text)
    if m is not None:
        raise SiteError(f"line {line + text.count(chr(10), 0, m.start())}: an XML document "
                        f"type or entity declaration: refused")


def parse_xml(chunk: str, line: int) -> ET.Element:
    """``chunk`` (one or several XML elements, declarations allowed) parsed under a synthetic
    root element (HTML's named characters such as ``&pound;``, which some exports write in
    player names, read as the characters they name: a fixed table, nothing expands);
    raises :class:`SiteError` naming ``line`` when it is not well-formed XML, declares a
    document type or entities, or is absurdly large or deep."""
    if len(chunk) > MAX_XML_CHARS:
        raise SiteError(f"line {line}: an XML hand of {len(chunk)} characters: refused")
    refuse_declarations(chunk, line)
    body = _DECL.sub("", chunk).lstrip("\ufeff")
    if "&" in body:     # HTML's named characters (``&pound;``) in names: the characters
        body = _NAMED.sub(_html_entity, body)
    try:
        root = ET.fromstring(f"<sitexml>{body}</sitexml>")
    except ET.ParseError as exc:
        row = getattr(exc, "position", (1, 0))[0]
        raise SiteError(f"line {line + row - 1}: not well-formed XML ({exc})") from None
    stack = [(root, 0)]
    while stack:
        el, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise SiteError(f"line {line}: XML nested deeper than {MAX_DEPTH}: refused")
        stack.extend((child, depth + 1) for child in el)
    return root


def xml_units(text: str, tag: str) -> Iterator[tuple[int, ET.Element | SiteError]]:
    """Each ``<tag>`` element of a document (one or several top-level elements) with the
    line it starts on. The document is parsed as a whole; where the whole is not
    well-formed (an export cut short, a stray tag), each ``<tag ...>...</tag>`` span is
    parsed alone, so one fault costs one hand at most; the document's fault where no span
    is found."""
    try:
        refuse_declarations(text)
    except SiteError as exc:
        yield 1, exc
        return
    where = Lines(text)
    lines = [where.at(m.start()) for m in re.finditer(rf"<{tag}\b", text)]
    try:
        root = parse_xml(text, 1)
    except SiteError as exc:
        found = False
        where = Lines(text)
        for m in re.finditer(rf"<{tag}\b.*?</{tag}>", text, re.S):
            found = True
            at = where.at(m.start())
            try:
                el = parse_xml(m.group(0), at).find(tag)
            except SiteError as fault:
                yield at, fault
                continue
            if el is not None:
                yield at, el
        if not found:
            yield 1, exc
        return
    for k, el in enumerate(root.iter(tag)):
        yield (lines[k] if k < len(lines) else 1), el


def amount_or_zero(value: Any, at: int) -> Decimal:
    """An amount attribute (or JSON value) of the hand at line ``at``: :data:`ZERO` where
    it is missing or blank, else :func:`~simulate.notation.site_text.amount_at` of its
    text (the error names the line)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return ZERO
    return amount_at(str(value), at)


def acting(seats: dict[str, Seat], ref: str | None, at: int) -> str:
    """The name of the player a file's action names by a seat reference ``ref`` (its key
    in ``seats``), marked as in the hand; :class:`SiteError` where that seat holds nobody."""
    seat = seats.get(ref or "")
    if seat is None:
        raise SiteError(f"line {at}: seat {ref!r} acts but holds no player")
    seat.in_hand = True
    return seat.name


class ActionBets(StreetBets):
    """:class:`~simulate.notation.site_hand.StreetBets` for the readers that make their
    events as they go, and must name an action by what it does: the formats that print an
    all-in without saying whether it bets, calls or raises, or a raise by what it adds."""

    def add(self, e: Event) -> Event:
        """``e``, taken into account (a first-run board starts a new street)."""
        self.see(e)
        return e

    def event(self, kind: str, who: str, amount: Decimal | None = None, line: int = 0,
              allin: bool = False) -> Event:
        """The event ``kind`` (its amount with the meaning the kind fixes), taken into
        account."""
        return self.add(Event(kind, who, amount, line=line, allin=allin))

    def to_total(self, who: str, total: Decimal, line: int = 0,
                 allin: bool = False) -> Event:
        """A bet, call or raise that brings ``who``'s street bet to ``total``, named by
        what it does (a call when it does not go beyond the largest bet)."""
        top, have = self.top, self.bet(who)
        if total > top and top > 0:
            return self.event("raise", who, total, line, allin)
        if total > top:
            return self.event("bet", who, total - have, line, allin)
        return self.event("call", who, total - have, line, allin)

    def adding(self, who: str, amount: Decimal, line: int = 0,
               allin: bool = False) -> Event:
        """As :meth:`to_total`, for an action printed by what it adds."""
        return self.to_total(who, self.bet(who) + amount, line, allin)


def returned(hand: SiteHand) -> dict[str, Decimal]:
    """The uncalled bets of ``hand`` (its betting events so far: no show or collect yet),
    added to its events by :meth:`SiteHand.return_uncalled`, by player."""
    hand.return_uncalled()
    out: dict[str, Decimal] = {}
    for e in hand.events:
        if e.kind == "uncalled" and e.player is not None and e.amount is not None:
            out[e.player] = out.get(e.player, Decimal(0)) + e.amount
    return out


def pay_wins(hand: SiteHand, wins: dict[str, Decimal], back: dict[str, Decimal], at: int, *,
             uncalled_apart: bool = False) -> None:
    """The hand's end from what each player won, as a structured file gives it: a
    ``collect`` (pot ``pot``) of each win, less the uncalled bet ``back`` returned to that
    player (:func:`returned`) unless ``uncalled_apart`` (the file's wins leave it out), and
    ``hand.rake`` as what was committed less what was won. :class:`SiteError` where a win
    is smaller than the bet it should hold, or more is won than committed."""
    for who, won in wins.items():
        take = won if uncalled_apart else won - back.get(who, ZERO)
        if take < 0:
            raise SiteError(f"line {at}: {who!r} won {won}, less than the uncalled bet "
                            f"{back[who]} returned")
        if take > 0:
            hand.events.append(Event("collect", who, take, line=at, pot="pot"))
    put = sum(hand.committed().values(), ZERO)
    took = sum(hand.collected().values(), ZERO)
    if took > put:
        raise SiteError(f"line {at}: the chips do not add up: {put} committed, {took} won")
    hand.rake = put - took

