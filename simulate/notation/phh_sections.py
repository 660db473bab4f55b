"""Cutting a PHH byte stream into hands: the ``[N]`` header lines of a ``.phhs`` collection
and the text between them, found a block at a time (never line by line, never the whole
stream held).

:func:`scan` is the one mechanism: it yields the stream's text and a :class:`Header` record
where each header line stands, in order. :func:`iter_sections` gathers each section's
text, bounded by :data:`MAX_HAND_BYTES` (what the PHH reader and ``pokerjit hand`` read);
:func:`simulate.replay.hand_files.phh_ranges` keeps only the headers, to cut a large file
into byte ranges that worker processes read with :func:`iter_sections` again, so a range
starts where a reading of the whole file starts a section.

A header is a line whose first :data:`PIECE` bytes :data:`HEADER_RE` matches (a longer
line is looked at in pieces, as ``readline(PIECE)`` would give it; only its first piece can
be a header). A UTF-8 byte-order mark at the very start of the stream is skipped.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO

from simulate.notation.actions import PHHError

__all__ = ["HEADER_RE", "MAX_HAND_BYTES", "PIECE", "READ_BLOCK", "Header", "iter_sections",
           "scan"]

#: The largest text one hand may take; a longer hand is an error (and skipped, in bounded
#: memory, up to the next ``[N]`` header).
MAX_HAND_BYTES = 1 << 20
_BOM = b"\xef\xbb\xbf"
#: A section header: a line holding only ``[key]`` (bare or quoted key, no dots).
HEADER_RE = re.compile(rb"^[ \t]*\[[ \t]*([A-Za-z0-9_-]+|\"[^\"\r\n]*\"|'[^'\r\n]*')[ \t]*\]"
                       rb"[ \t]*(?:#[^\r\n]*)?\r?\n?$")
#: Where a header may start: a line whose first byte after blanks is ``[`` (found after the
#: newline before it: a pattern that starts with a literal is searched for quickly, ``^``
#: with ``re.M`` is tried at every byte, four times slower).
_AFTER_NEWLINE = re.compile(rb"\n[ \t]*\[")
#: Bytes read from a stream at a time.
READ_BLOCK = 1 << 16
#: A line is looked at in pieces of at most this many bytes.
PIECE = 1 << 16


@dataclass(frozen=True)
class Header:
    """A ``[N]`` header line: ``at``, its first byte (from the stream's first, the mark
    included); ``line``, its line number; ``name``, the section's name (``N``, unquoted)."""

    at: int
    line: int
    name: str


def scan(stream: IO[bytes], first_line: int = 1, text: bool = True,
         ) -> Iterator[bytes | Header]:
    """The text of ``stream`` (``read(n)`` only; ``first_line``: the number of its first
    line) in order, as pieces of bytes, with a :class:`Header` in place of each header
    line: the bytes yielded between two headers are the first one's section, those before
    the first header the preamble (the byte-order mark left out). Bytes yielded are at
    most a few blocks each; memory stays bounded whatever the lines' length. ``text``:
    False yields the headers alone (a caller that only cuts)."""
    read = stream.read
    header = HEADER_RE.match
    buf = read(READ_BLOCK)
    while buf and len(buf) < len(_BOM) and _BOM.startswith(buf):
        more = read(READ_BLOCK)
        if not more:
            break
        buf += more
    skip = len(_BOM) if buf.startswith(_BOM) else 0
    base = 0  # the stream's byte at buf[0]
    lines = first_line  # the line number at buf[0]
    at = skip  # buf[at:] is not yet yielded
    mid = False  # buf[at] is inside a line (not a line's start)
    eof = not buf
    while True:
        # read until buf holds a whole line past ``at``, a piece of one, or the end
        while not eof and buf.find(b"\n", at) < 0 and len(buf) - at < PIECE:
            more = read(READ_BLOCK)
            if more:
                buf += more
            else:
                eof = True
        if eof:
            tail = stop = len(buf)
        else:  # the last line, unfinished: looked at only once a whole piece of it is here
            tail = max(at, buf.rfind(b"\n", at) + 1)
            stop = tail + 1 if len(buf) - tail >= PIECE else tail
        counted = at  # the newlines of buf[:counted] are counted into ``lines``
        cands = (m.start() + 1 for m in _AFTER_NEWLINE.finditer(buf, at))
        if not mid:  # ``at`` starts a line: the stream's first, or one after a cut or header
            cands = itertools.chain([at], cands)
        for p in cands:
            if p >= stop:
                break
            limit = PIECE - skip if base + p == skip else PIECE  # the first piece holds the mark
            e = buf.find(b"\n", p, p + limit)
            piece = buf[p:e + 1] if e >= 0 else buf[p:p + limit]
            m = header(piece)
            if m is None:
                continue
            lines += buf.count(b"\n", counted, p)
            counted = p
            if p > at and text:
                yield buf[at:p]
            yield Header(base + p, lines, m.group(1).decode("utf-8", "replace").strip("'\""))
            at = p + len(piece)
            mid = not piece.endswith(b"\n")
        if eof:
            if len(buf) > at and text:
                yield buf[at:]
            return
        # keep the unfinished last line, unless a whole piece of it was looked at
        cut, mid_next = (len(buf), True) if stop > tail else (tail, False)
        if cut > at and text:
            yield buf[at:cut]
        lines += buf.count(b"\n", counted, cut)
        base += cut
        buf = buf[cut:]
        at, skip, mid = 0, 0, mid_next


@dataclass
class _Section:
    name: str | None
    line: int
    parts: list[bytes] = field(default_factory=list)
    size: int = 0
    too_big: bool = False

    def add(self, piece: bytes) -> None:
        if self.too_big:
            return
        self.size += len(piece)
        if self.size > MAX_HAND_BYTES:
            self.too_big, self.parts = True, []
        else:
            self.parts.append(piece)


def iter_sections(stream: IO[bytes], source: str, first_line: int = 1,
                  offsets: dict[int, int] | None = None,
                  ) -> Iterator[tuple[str, int, bytes | PHHError]]:
    """Cut a PHH byte stream (``read(n)`` only) into hands with :func:`scan`
    (``first_line``: the number of the stream's first line, for a stream that starts
    inside a file; ``offsets``: when given, the byte (from the stream's first) of each
    ``[N]`` header line is put there under its section's first line number, for a caller
    that reads on from a hand later; the caller takes them out).

    Yields ``(source, first_line, text_bytes or PHHError)``: the whole stream as one
    hand when it has no ``[N]`` header, else one item per section (source
    ``source#N``) and an error item for fields before the first header; a section over
    :data:`MAX_HAND_BYTES` is an error item, its text never held.
    """
    cur = _Section(None, first_line)
    seen_header = False
    for x in scan(stream, first_line):
        if type(x) is bytes:
            cur.add(x)
            continue
        assert isinstance(x, Header)
        item = _finish(cur, source, True)
        if offsets is not None:
            offsets[x.line + 1] = x.at
        if item is not None:
            yield item
        seen_header = True
        cur = _Section(x.name, x.line + 1)
    item = _finish(cur, source, seen_header)
    if item is not None:
        yield item


def _finish(sec: _Section, source: str, seen_header: bool,
            ) -> tuple[str, int, bytes | PHHError] | None:
    if sec.name is None:  # text before the first header (or the whole single-hand file)
        if not seen_header:
            if sec.too_big:
                return source, sec.line, PHHError(
                    f"the hand from line {sec.line} is larger than {MAX_HAND_BYTES >> 20} MiB")
            return source, sec.line, b"".join(sec.parts)
        # a preamble before the first header: comments and blank lines only
        text = b"".join(sec.parts)
        if sec.too_big or any(ln.strip() and not ln.lstrip().startswith(b"#")
                              for ln in text.splitlines()):
            return source, sec.line, PHHError("fields outside any [N] section")
        return None
    src = f"{source}#{sec.name}"
    if sec.too_big:
        return src, sec.line, PHHError(
            f"the hand from line {sec.line} is larger than {MAX_HAND_BYTES >> 20} MiB")
    return src, sec.line, b"".join(sec.parts)
