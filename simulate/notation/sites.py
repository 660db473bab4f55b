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

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from simulate.notation import (
    site_888,
    site_bossmedia,
    site_bovada,
    site_entraction,
    site_ggpoker,
    site_igt,
    site_ipoker,
    site_merge,
    site_microgaming,
    site_ohh,
    site_ongame,
    site_partypoker,
    site_winamax,
    site_winning,
)
from simulate.notation.phh_read import HandHistory
from simulate.notation.site_hand import SiteHand
from simulate.notation.site_text import SiteError, decode

__all__ = ["DETECT_CHARS", "SITE_FORMATS", "SiteFormat", "detect_site", "read_site",
           "read_site_records"]

#: How much of a decoded document a detector sees.
DETECT_CHARS = 8192


@dataclass(frozen=True)
class SiteFormat:
    """One site family's reader (see the module docstring)."""

    name: str
    detect: Callable[[str], bool]
    read: Callable[[str, str], Iterator[tuple[int, SiteHand | SiteError]]]


#: The site families, in the order :func:`detect_site` tries them (a more specific
#: detector before a looser one).
SITE_FORMATS: tuple[SiteFormat, ...] = tuple(
    SiteFormat(name, module.detect, module.read) for name, module in (
        ("ohh", site_ohh),
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


def read_site(data: bytes | str, source: str,
              ) -> Iterator[tuple[int, HandHistory | SiteError]]:
    """Each hand of a site document as a :class:`HandHistory` ready to replay (its
    :attr:`~HandHistory.site` set), or the hand's :class:`SiteError`, with its first
    line. Summary-only hands are skipped (the caller counts them from
    :func:`read_site_records` when it needs to)."""
    from simulate.notation.site_build import build

    for line, rec in read_site_records(data, source):
        if isinstance(rec, SiteError):
            yield line, rec
        elif rec.summary_only:
            continue
        else:
            try:
                yield line, build(rec, source)
            except SiteError as exc:
                yield line, exc
