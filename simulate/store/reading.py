"""The hands of one file with the byte each starts at, so that an import can stop anywhere
and a later one go on from there.

:func:`file_hands` reads a file as :func:`simulate.replay.hand_files.read_hands` reads it
(PHH cut by :func:`simulate.notation.phh_read.iter_sections` a block at a time, a site
export read whole by :func:`simulate.notation.sites.read_site`; the format told from the
content by :func:`simulate.replay.hand_files.file_kind`), from byte ``start`` to byte
``end``, and yields one :class:`FileHand` per hand: its source, first line, the byte its
text starts at (a PHH section's ``[N]`` header line, a site hand's first line) and the
record or the hand's error.

A site export is read from ``start`` only when its reader recognises the text that starts
there (a PokerStars or OHH file does; an XML export, whose header is at the top, does not):
otherwise from the top, and the hands already stored are dropped as duplicates. Where
bytes and lines cannot be matched one to one (UTF-16 text), every hand's ``offset`` is 0:
the file is always read again from the top.

:func:`file_digest` hashes a file's first bytes, to tell a file that grew (the bytes read
before are unchanged) from one written anew.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulate.notation.phh_read import (
    SUFFIXES,
    HandHistory,
    PHHError,
    hand_from_bytes,
    iter_sections,
)

__all__ = ["FileHand", "file_digest", "file_format", "file_hands"]

#: How much of a file its format is told from (as :mod:`simulate.replay.hand_files` does).
_HEAD = 8192
_BLOCK = 1 << 20


@dataclass(frozen=True)
class FileHand:
    """One hand of a file: ``source`` (``path#N`` for a PHH section, ``path:LINE`` for a
    site hand, ``path`` for a one-hand file), ``line`` (1-based, the hand's first line),
    ``offset`` (the byte of the file its text starts at; reading again from there reads
    this hand first), ``offset_line`` (the line number at ``offset``), ``hand`` (the
    record, or the hand's error) and ``data`` (a PHH hand's text, for the compiled replay
    of :func:`simulate.replay.fast_replay.replay_items`; None for a site hand)."""

    source: str
    line: int
    offset: int
    offset_line: int
    hand: HandHistory | PHHError | None
    data: bytes | None = None


def file_digest(path: str | Path, prefix: int, size: int) -> tuple[str, str]:
    """SHA-256 (hex) of the first ``prefix`` bytes of ``path`` and of its first ``size``
    bytes (``prefix <= size``), in one reading."""
    h = hashlib.sha256()
    first = None
    done = 0
    with open(path, "rb") as fh:
        while done < size:
            want = min(_BLOCK, size - done)
            if first is None and done + want > prefix:
                want = prefix - done
            if want > 0:
                block = fh.read(want)
                if not block:
                    break
                h.update(block)
                done += len(block)
            if first is None and done >= prefix:
                first = h.copy().hexdigest()
    full = h.hexdigest()
    return (full if first is None else first), full


def file_hands(path: str | Path, start: int = 0, end: int | None = None,
               first_line: int = 1, *, parse: bool = True) -> Iterator[FileHand]:
    """The hands of ``path`` between bytes ``start`` and ``end`` (default: the end), in
    file order; ``first_line``: the line number of byte ``start``. ``parse=False`` leaves a
    PHH hand unread (``hand`` None, its text in ``data``; an error found while cutting it
    is its ``hand``), for a worker process to read. Raises OSError when the file cannot be
    read."""
    from simulate.replay.hand_files import FileSlice

    name = str(path)
    with open(path, "rb") as fh:
        if _format(name, fh.read(_HEAD)) == "site":
            fh.seek(0)
            data = fh.read() if end is None else fh.read(end)
            yield from _site_hands(data, name, start, first_line)
            return
        stop = end if end is not None else fh.seek(0, 2)
        yield from _phh_hands(FileSlice(fh, start, stop), start, name, first_line, parse)


def file_format(path: str | Path) -> str | None:
    """``"phh"``, ``"site"`` or None: the format :func:`file_hands` reads ``path`` as (a
    ``.phh``/``.phhs`` name is PHH; otherwise told from the first bytes). Raises OSError
    when the file cannot be read."""
    with open(path, "rb") as fh:
        return _format(str(path), fh.read(_HEAD))


def _format(name: str, head: bytes) -> str | None:
    from simulate.replay.hand_files import file_kind

    return "phh" if name.endswith(SUFFIXES) else file_kind(head)


def _phh_hands(stream: Any, base: int, name: str, first_line: int, parse: bool = True,
               ) -> Iterator[FileHand]:
    """The hands of a PHH ``stream`` that starts at byte ``base`` of the file ``name``."""
    heads: dict[int, int] = {}  # a section's first line -> its header's byte in the stream
    for src, line, data in iter_sections(stream, name, first_line, heads):
        offset, at = base, first_line
        head = heads.pop(line, None)
        if head is not None:  # a [N] section: from its header
            offset, at = base + head, line - 1
        if isinstance(data, bytes):
            yield FileHand(src, line, offset, at,
                           hand_from_bytes(src, line, data) if parse else None, data)
        else:
            yield FileHand(src, line, offset, at, data)


_BREAK = re.compile(rb"\r\n|\r|\n")


def _site_hands(data: bytes, name: str, start: int, first_line: int) -> Iterator[FileHand]:
    from simulate.notation.site_text import decode
    from simulate.notation.sites import detect_site, read_site

    bytewise = not (data[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in data[:_HEAD])
    if start and (not bytewise or detect_site(decode(data[start:start + _HEAD])) is None):
        start, first_line = 0, 1
    part = data[start:]
    breaks: list[int] | None = None
    for line, got in read_site(part, name):
        n = line + first_line - 1
        if bytewise:
            if breaks is None:
                breaks = [m.end() for m in _BREAK.finditer(part)]
            offset, at = start + (0 if line <= 1 else breaks[line - 2]), n
        else:
            offset, at = 0, 1
        yield FileHand(f"{name}:{n}", n, offset, at, got)
