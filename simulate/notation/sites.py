"""The site hand-history readers, one row each, and the one door through them.

Each site family's reader is a module ``simulate/notation/site_<family>.py`` with two
functions, registered as a :class:`SiteFormat` row of :data:`SITE_FORMATS`:

- ``detect(head: str) -> bool``: whether ``head`` (the first :data:`DETECT_CHARS`
  characters of a decoded document) is this family's export;
- ``read(text: str, source: str) -> Iterator[tuple[int, SiteHand | SiteError]]``: each
  hand of the decoded document as ``(first line, record)``, a hand that does not read as
  its :class:`~simulate.notation.site_text.SiteError` (one hand's fault never stops the
  file).

:func:`read_site` decodes the bytes (:func:`~simulate.notation.site_text.decode`), finds
the family, and builds each record into a :class:`~simulate.notation.phh_read.HandHistory`
(:func:`simulate.notation.site_build.build`: the chip check, the seat order, the actions).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from simulate.notation import (
    site_888,
    site_bossmedia,
    site_bovada,
    site_entraction,
    site_fulltilt,
    site_ggpoker,
    site_igt,
    site_ipoker,
    site_merge,
    site_microgaming,
    site_ohh,
    site_ongame,
    site_partypoker,
    site_pkr,
    site_pokerstars,
    site_pokerstars_plain,
    site_winamax,
    site_winning,
)
from simulate.notation.phh_read import HandHistory
from simulate.notation.site_hand import SiteHand
from simulate.notation.site_text import PlainSiteHand, SiteError, TextPart, decode, split_hands

__all__ = ["DETECT_CHARS", "SITE_FORMATS", "SiteFormat", "SitePart", "detect_site",
           "read_again", "read_site", "read_site_part", "read_site_records", "site_parts"]

#: How much of a decoded document a detector sees.
DETECT_CHARS = 8192


@dataclass(frozen=True)
class SiteFormat:
    """One site family's reader (see the module docstring)."""

    name: str
    detect: Callable[[str], bool]
    read: Callable[[str, str], Iterator[tuple[int, SiteHand | SiteError]]]
    #: Where each hand starts, for a reader that cuts its document with
    #: :func:`~simulate.notation.site_text.split_hands` and nothing else (the module's
    #: ``HAND_START``): a large file of this family is cut into parts read apart
    #: (:func:`site_parts`). None: read whole.
    start: re.Pattern[str] | None = None
    #: The family's plain-hand lane, for a reader cut by :attr:`start`: ``plain(text,
    #: first line)`` of one hand gives its :class:`PlainSiteHand` or None (the full reader
    #: reads it); see :func:`read_site`'s ``plain``.
    plain: Callable[[str, int], PlainSiteHand | None] | None = None


#: The plain-hand lanes, by family.
_PLAIN = {"pokerstars": site_pokerstars_plain.plain_hand}

#: The site families, in the order :func:`detect_site` tries them (a more specific
#: detector before a looser one).
SITE_FORMATS: tuple[SiteFormat, ...] = tuple(
    SiteFormat(name, module.detect, module.read, getattr(module, "HAND_START", None),
               _PLAIN.get(name))
    for name, module in (
        ("ohh", site_ohh),
        ("pokerstars", site_pokerstars),
        ("fulltilt", site_fulltilt),
        ("pkr", site_pkr),
        ("888", site_888),
        ("partypoker", site_partypoker),
        ("ongame", site_ongame),
        ("entraction", site_entraction),
        ("ipoker", site_ipoker),
        ("merge", site_merge),
        ("microgaming", site_microgaming),
        ("bossmedia", site_bossmedia),
        ("igt", site_igt),
        ("ggpoker", site_ggpoker),
        ("winamax", site_winamax),
        ("winning", site_winning),
        ("bovada", site_bovada),
    ))


def detect_site(text: str) -> SiteFormat | None:
    """The family whose detector accepts the start of ``text`` (decoded), or None."""
    head = text[:DETECT_CHARS].lstrip("\ufeff \n\t")
    for fmt in SITE_FORMATS:
        if fmt.detect(head):
            return fmt
    return None


def read_site_records(data: bytes | str, source: str,
                      ) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each hand of a site document as its transcribed :class:`SiteHand` (or the
    hand's error), with its first line; a document in no known site format yields
    nothing."""
    text = decode(data) if isinstance(data, bytes) else data
    fmt = detect_site(text)
    if fmt is None:
        return
    yield from fmt.read(text, source)


def read_site(data: bytes | str, source: str, *, plain: bool = False,
              ) -> Iterator[tuple[int, HandHistory | PlainSiteHand | SiteError]]:
    """Each hand of a site document as a :class:`HandHistory` ready to replay (its
    :attr:`~HandHistory.site` set), or the hand's :class:`SiteError`, with its first
    line. Summary-only hands are skipped (the caller counts them from
    :func:`read_site_records` when it needs to). ``plain``: a hand its family's lane
    takes (:attr:`SiteFormat.plain`) comes as a :class:`PlainSiteHand` instead, for the
    compiled replay (:mod:`simulate.replay.fast_replay`; the same document)."""
    text = decode(data) if isinstance(data, bytes) else data
    fmt = detect_site(text)
    if fmt is None:
        return
    yield from _read(text, fmt, source, plain)


def _read(text: str, fmt: SiteFormat, source: str, plain: bool,
          ) -> Iterator[tuple[int, HandHistory | PlainSiteHand | SiteError]]:
    """:func:`read_site` of a decoded document of the family ``fmt``."""
    lane = fmt.plain if plain else None
    if lane is None or fmt.start is None:
        yield from _built(fmt.read(text, source), source)
        return
    for line, chunk in split_hands(text, fmt.start):
        got = lane(chunk, line)
        if got is not None:
            got.source, got.family = source, fmt.name
            yield line, got
            continue
        part = TextPart(chunk)  # the full reader, on this hand alone
        part.first_line = line
        yield from _built(fmt.read(part, source), source)


def _built(records: Iterator[tuple[int, SiteHand | SiteError]], source: str,
           ) -> Iterator[tuple[int, HandHistory | SiteError]]:
    from simulate.notation.site_build import build

    for line, rec in records:
        if isinstance(rec, SiteError):
            yield line, rec
        elif rec.summary_only:
            continue
        else:
            try:
                yield line, build(rec, source)
            except SiteError as exc:
                yield line, exc


@dataclass(frozen=True)
class SitePart:
    """Whole hands of a site document (``text``, from one hand's start to another's or the
    end), the family that reads them and the document's line number of the first line."""

    source: str
    family: str
    line: int
    text: str


def site_parts(data: bytes | str, source: str, hands: int) -> list[SitePart] | None:
    """A site document cut into parts of ``hands`` hands at the hands' starts (the family's
    :attr:`SiteFormat.start`), so that each can be read apart (:func:`read_site_part`) and
    together they read as the whole does; None for a document that cannot be cut so (no
    known family, a family read whole, no hand start)."""
    text = decode(data) if isinstance(data, bytes) else data
    fmt = detect_site(text)
    if fmt is None or fmt.start is None:
        return None
    starts = [m.start() for m in fmt.start.finditer(text)]
    if not starts:
        return None
    cuts = starts[::max(1, hands)] + [len(text)]
    out: list[SitePart] = []
    line, prev = 1, 0
    for a, b in zip(cuts, cuts[1:], strict=False):
        line += text.count("\n", prev, a)
        prev = a
        out.append(SitePart(source, fmt.name, line, text[a:b]))
    return out


def read_site_part(part: SitePart, *, plain: bool = False,
                   ) -> Iterator[tuple[int, HandHistory | PlainSiteHand | SiteError]]:
    """:func:`read_site` of one :class:`SitePart` (line numbers the document's)."""
    fmt = next(f for f in SITE_FORMATS if f.name == part.family)
    text = TextPart(part.text)
    text.first_line = part.line
    yield from _read(text, fmt, part.source, plain)


def read_again(hand: PlainSiteHand) -> HandHistory | SiteError:
    """A hand a plain-hand lane read, as the full reader and the builder make it: a
    :class:`HandHistory`, or the hand's :class:`SiteError` (a lane takes no summary-only
    hand, so there is always one)."""
    for _, got in read_site_part(SitePart(hand.source, hand.family, hand.line, hand.text)):
        assert not isinstance(got, PlainSiteHand)
        return got
    return SiteError(f"line {hand.line}: the hand reads as nothing")
