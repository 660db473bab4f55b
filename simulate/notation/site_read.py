"""A site reader's ``read``: a document's hands, each as its
:class:`~simulate.notation.site_hand.SiteHand` or as the :class:`SiteError` that names its
line, so that one hand's fault never stops the rest (the contract of every
``site_<family>.read``).

- :func:`read_hands`: a text document cut at the lines that start a hand
  (:func:`~simulate.notation.site_text.split_hands`), each piece to the reader's hand
  function;
- :func:`read_headed`: the same for a format whose hand opens with a header line, matched
  for the reader's hand function;
- :func:`hands_of`: the same over any ``(line, unit)`` pairs (an XML document's elements,
  from :func:`~simulate.notation.site_xml.xml_units`);
- :func:`body_lines` and :func:`at_line`: the lines of one hand after its header, and
  the hand's error naming the line it was read at;
- :func:`seated_name`: the seated player a line starts with (names may hold spaces);
- :func:`site_line`: a line that must be of the site's wording, or the hand's error;
- :func:`table_line`: a ``Table 'X' 6-max Seat #3 is the button`` line;
- :func:`betting_of`: the betting a game's printed name says;
- :func:`first_amount`: the amount a text reader's line gives (``calls $2``,
  ``posts small blind €0.05``), by the reader's own pattern of its site's money.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal
from typing import TypeVar

from simulate.notation.site_hand import SiteHand
from simulate.notation.site_text import SiteError, parse_amount, split_hands

__all__ = ["READ_FAULTS", "at_line", "betting_of", "body_lines", "first_amount", "hands_of",
           "read_hands", "read_headed", "seated_name", "site_line", "table_line"]

#: What a text reader's parsing of a damaged hand raises besides :class:`SiteError` (a
#: missing group, a short list, an absent key), for the ``faults`` of :func:`hands_of`.
READ_FAULTS: tuple[type[Exception], ...] = (ValueError, IndexError, KeyError, AttributeError,
                                            TypeError)

_Unit = TypeVar("_Unit")


def hands_of(units: Iterable[tuple[int, _Unit | SiteError]],
             hand: Callable[[_Unit, int], SiteHand], *,
             faults: tuple[type[Exception], ...] = (), what: str | None = None,
             name_line: bool = False) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each ``(line, unit)`` of a document (a hand's text, an XML element, ...) as
    ``(line, hand(unit, line))``, or as ``(line, SiteError)`` where the unit is already
    one or ``hand`` raises one. ``name_line``: a SiteError whose text does not start with
    ``line `` gets ``line N:`` put before it. ``faults``: other exceptions of ``hand``
    that mean a damaged hand, reported as ``line N: <exc>`` or, with ``what``,
    ``line N: not a <what> hand (<exc>)``."""
    for line, unit in units:
        if isinstance(unit, SiteError):
            yield line, unit
            continue
        try:
            yield line, hand(unit, line)
        except SiteError as exc:
            if name_line and not str(exc).startswith("line "):
                exc = SiteError(f"line {line}: {exc}")
            yield line, exc
        except faults as exc:
            text = str(exc) if what is None else f"not a {what} hand ({exc})"
            yield line, SiteError(f"line {line}: {text}")


def read_hands(text: str, start: re.Pattern[str], hand: Callable[[str, int], SiteHand], *,
               faults: tuple[type[Exception], ...] = (), what: str | None = None,
               name_line: bool = False) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """:func:`hands_of` over the hands of a text document: ``start`` matches the line
    that starts a hand (``re.M``; see :func:`~simulate.notation.site_text.split_hands`),
    ``hand(text, line)`` reads one; the options are those of :func:`hands_of`."""
    return hands_of(split_hands(text, start), hand, faults=faults, what=what,
                    name_line=name_line)


def read_headed(text: str, start: re.Pattern[str], head: re.Pattern[str], what: str,
                hand: Callable[[re.Match[str], list[str], int], SiteHand],
                ) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """:func:`read_hands` for a format whose every hand opens with a header line: each
    hand's text split at ``\\n`` (``lines``, the header first, at the document's line
    ``first``), its header matched by ``head`` (the hand's :func:`site_line` error ``not
    <what>`` where it does not match: ``what`` is ``a Bovada hand header``), to
    ``hand(header, lines, first)``."""
    def one(chunk: str, first: int) -> SiteHand:
        lines = chunk.split("\n")
        return hand(site_line(head, lines[0], first, what), lines, first)

    return read_hands(text, start, one)


def betting_of(text: str) -> str | None:
    """The betting a game's printed name says (``No Limit Hold'em``, ``Omaha Hi/Lo Pot
    Limit``), by its words in any case: ``pot limit`` pot-limit, ``no limit`` no-limit,
    another ``limit`` fixed-limit; None where it names none."""
    t = text.lower()
    if "pot limit" in t:
        return "pot-limit"
    if "no limit" in t:
        return "no-limit"
    return "fixed-limit" if "limit" in t else None


def first_amount(pattern: re.Pattern[str], text: str) -> Decimal:
    """The first amount ``pattern`` finds in ``text`` (its group ``a``: a reader's own
    pattern of what its site prints as money), read by :func:`parse_amount`; raises
    :class:`SiteError` where there is none."""
    m = pattern.search(text)
    if m is None:
        raise SiteError(f"no amount in {text.strip()!r}")
    return parse_amount(m["a"])


def body_lines(lines: list[str], first: int) -> Iterator[tuple[int, str]]:
    """The lines of a hand after its first (header) line: ``(line number, text)`` with
    the text stripped (a byte-order mark too) and blank lines left out; ``lines`` is the
    hand's text split at ``\\n``, ``first`` the document line of ``lines[0]``."""
    for i in range(1, len(lines)):
        s = lines[i].strip().lstrip("\ufeff")
        if s:
            yield first + i, s


def at_line(exc: SiteError, line: int) -> SiteError:
    """``exc`` as the error of ``line`` (``line N: ...``), unless it names its line."""
    msg = str(exc)
    return exc if msg.startswith("line ") else SiteError(f"line {line}: {msg}")


def table_line(hand: SiteHand, pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """A ``Table 'X' 6-max Seat #3 is the button`` line, by the reader's ``pattern``
    (groups ``table``, ``max`` and ``button``, the last optional): sets the hand's table,
    seat count and button, and gives the match (None where ``text`` is not one)."""
    m = pattern.match(text)
    if m is not None:
        hand.info.table = m["table"]
        hand.max_seats = int(m["max"])
        hand.button = int(m["button"]) if m["button"] else None
    return m


def seated_name(names: set[str], line: str) -> tuple[str, str] | None:
    """``(name, rest)`` of a line ``NAME verb ...`` whose ``NAME`` (which may hold spaces)
    is one of the seated ``names``: the longest that fits; None where none does."""
    found = None
    pos = line.find(" ")
    while pos != -1:
        if line[:pos] in names:
            found = pos
        pos = line.find(" ", pos + 1)
    return None if found is None else (line[:found], line[found + 1:].strip())


def site_line(pattern: re.Pattern[str], text: str, line: int, what: str) -> re.Match[str]:
    """``pattern``'s match of ``text``, the hand's line ``line``, which must be one:
    :class:`SiteError` ``line N: not <what>: <the text>`` (``what``: ``an OnGame line``)
    where it is not."""
    m = pattern.match(text)
    if m is None:
        raise SiteError(f"line {line}: not {what}: {text[:80]!r}")
    return m
