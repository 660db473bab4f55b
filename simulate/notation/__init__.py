"""Hand-history notation: text to typed hand records and back, below the engine.

Two doors: :func:`read` (the format is found from the text itself) and :func:`write` (by
format name). Each format is one row of :data:`FORMATS` (its name, a detector, a reader and
a writer, None where pokerjit does not write it). PHH (``.phh`` single hands, ``.phhs``
collections): :mod:`simulate.notation.phh_read` reads it (its public names are re-exported
here), :mod:`simulate.notation.phh_write` writes it. The sites' exports: one row per site
family of :data:`simulate.notation.sites.SITE_FORMATS` (each read by its
``site_<family>`` module into a :class:`~simulate.notation.site_hand.SiteHand`, built into
a :class:`HandHistory` by :mod:`simulate.notation.site_build`); Open Hand History is
written by :mod:`simulate.notation.site_write`. Replaying hands is
:mod:`simulate.replay`'s, above the engine.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from simulate.notation.phh_read import *  # noqa: F401,F403
from simulate.notation.phh_read import HandHistory, PHHError, parse_text
from simulate.notation.phh_read import __all__ as _parse_all
from simulate.notation.phh_write import hand_to_phh, write_phhs

__all__ = [*_parse_all, "FORMATS", "HandFormat", "read", "write"]


@dataclass(frozen=True)
class HandFormat:
    """One hand-history format: ``detect(text) -> bool`` (whether ``text``, the start of a
    document, is in this format), ``read(text, source) -> list[HandHistory]`` and
    ``write(records) -> str``."""

    name: str
    detect: Callable[[str], bool]
    read: Callable[[str | bytes, str], list[HandHistory]]
    write: Callable[[list[Any]], str] | None = None


# PHH is TOML: its first line that is not blank or a comment is a ``key = value`` line or
# a ``[N]`` section header (a .phhs collection).
_PHH_START = re.compile(r"\A(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]*"
                        r"(?:\[[^\]\n]*\]|[A-Za-z0-9_\"'.-]+[ \t]*=)")


def _phh_detect(text: str) -> bool:
    return _PHH_START.match(text.lstrip("\ufeff")) is not None


def _every_hand(got: Iterable[tuple[str, HandHistory | PHHError]]) -> list[HandHistory]:
    """The hands of ``(where, hand or error)`` pairs; the first error raised, naming where."""
    hands = []
    for where, h in got:
        if isinstance(h, PHHError):
            raise PHHError(f"{where}: {h}")
        hands.append(h)
    return hands


def _phh_read(text: str | bytes, source: str) -> list[HandHistory]:
    return _every_hand(parse_text(text, source))


def _phh_write(records: list[Any]) -> str:
    import io

    if len(records) == 1:
        return records[0] if isinstance(records[0], str) else hand_to_phh(records[0])
    out = io.StringIO()
    write_phhs(records, out)
    return out.getvalue()


def _site_reader(name: str) -> Callable[[str | bytes, str], list[HandHistory]]:
    def read_hands(text: str | bytes, source: str) -> list[HandHistory]:
        from simulate.notation.sites import read_site

        return _every_hand((f"{source}:{line}", h) for line, h in read_site(text, source))

    read_hands.__name__ = f"read_{name}"
    return read_hands


def _site_writer(name: str) -> Callable[[list[Any]], str]:
    """A writer of :mod:`simulate.notation.site_write` (``write_<name>``) taking
    :class:`HandHistory` records (each told as a SiteHand first)."""
    def write_hands(records: list[Any]) -> str:
        from simulate.notation import site_write
        from simulate.notation.site_build import transcribe

        return getattr(site_write, f"write_{name}")([transcribe(r) for r in records])

    return write_hands


def _site_formats() -> tuple[HandFormat, ...]:
    from simulate.notation.sites import SITE_FORMATS

    writers = {"ohh": _site_writer("ohh"), "pokerstars": _site_writer("pokerstars")}
    return tuple(HandFormat(f.name, f.detect, _site_reader(f.name), writers.get(f.name))
                 for f in SITE_FORMATS)


#: The known formats, in the order :func:`read` tries them (the sites' after PHH).
FORMATS: tuple[HandFormat, ...] = (
    HandFormat("phh", _phh_detect, _phh_read, _phh_write),
    *_site_formats(),
)

#: How much of a document the detectors see.
_DETECT_CHARS = 8192


def read(text: str | bytes, *, source: str | None = None) -> list[HandHistory]:
    """Every hand of one document, as :class:`HandHistory` records in document order; the
    format is found from the content (see :data:`FORMATS`). ``source`` names the document
    in messages (default ``<text>``). A hand that does not read is a :class:`PHHError`
    naming it; text in no known format is a ValueError naming the known ones."""
    from simulate.notation.site_text import decode

    head = text[:_DETECT_CHARS]
    head = decode(head) if isinstance(head, bytes) else head
    for fmt in FORMATS:
        if fmt.detect(head):
            return fmt.read(text, source or "<text>")
    raise ValueError(f"{source or 'the text'} is not a known hand-history format "
                     f"(known: {', '.join(f.name for f in FORMATS)})")


def write(records: Iterable[Any], format: str = "phh") -> str:
    """``records`` (:class:`HandHistory` records, :class:`simulate.engine.Hand` hands or
    texts already in the format) as one document of ``format``: PHH writes one record as
    a single hand (``.phh``) and several as a collection (``.phhs``, sections ``[1]``,
    ``[2]``, ...), so :func:`read` gives the records back. An unknown format is a
    ValueError naming the known ones."""
    for fmt in FORMATS:
        if fmt.name == format and fmt.write is not None:
            return fmt.write(list(records))
    raise ValueError(f"unknown hand-history format {format!r} to write "
                     f"(known: {', '.join(f.name for f in FORMATS if f.write)})")
