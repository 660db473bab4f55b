"""The one plain-text table of pokerjit's output (every CLI command, the bench report).

:func:`table` lays out rows of string cells under a header: labels left-aligned, numbers
(with or without a unit, see :func:`is_number_text`) right-aligned, two spaces between
columns, a dashed rule under the header. It lives apart from :mod:`simulate.cli` so that
library code can format a table without importing the command line.
"""

from __future__ import annotations

import re

__all__ = ["is_number_text", "table"]

_NUMBER = re.compile(r"^[±+-]?\$?(\d[\d,]*(\.\d*)?|\.\d+)(e[+-]?\d+)?"
                     r"[kMGT]?(\s*[A-Za-zµ%/ ]*)?$")  # a number, then perhaps a unit
_EMPTY = ("", "-", "–", "—")


def is_number_text(x: str) -> bool:
    """True for a cell that reads as a number, perhaps with a unit (``12``, ``-3.5``,
    ``46.21%``, ``±0.4%``, ``1,712,304``, ``2.56x``, ``39.5 ms``, ``253M hands/s``); not for
    labels such as ``2c2d``, ``K-high`` or ``top 20%``."""
    return bool(_NUMBER.match(x.strip()))


def table(rows: list[list[str]], header: list[str], align: str | None = None) -> str:
    """The one text table of every command: labels left-aligned, numbers right-aligned.

    ``align`` gives each column's alignment, ``"l"`` or ``"r"`` (e.g. ``"llrrr"``); without
    it a column is right-aligned when every non-empty cell in it reads as a number
    (:func:`is_number_text`), decided per column, so a label column stays left-aligned
    whatever its labels start with. Cells are strings; empty cells and ``-`` fit either.
    """
    ncol = len(header)
    rows = [[str(x) for x in r] + [""] * (ncol - len(r)) for r in rows]
    if align is None:
        align = "".join(
            "r" if any(r[i].strip() not in _EMPTY for r in rows)
            and all(r[i].strip() in _EMPTY or is_number_text(r[i]) for r in rows) else "l"
            for i in range(ncol))
    if len(align) != ncol or set(align) - {"l", "r"}:
        raise ValueError(f"align must give 'l' or 'r' for each of {ncol} columns, got {align!r}")
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=False)]

    def fmt(row: list[str]) -> str:
        return "  ".join(x.rjust(w) if a == "r" else x.ljust(w)
                         for x, w, a in zip(row, widths, align, strict=True)).rstrip()

    lines = [fmt([str(h) for h in header]), "  ".join("-" * w for w in widths)]
    lines += [fmt(r) for r in rows]
    return "\n".join(lines)
