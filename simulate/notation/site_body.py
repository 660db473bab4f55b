"""The one loop over a PokerStars-like text hand's body (Bovada, Winamax, Winning Poker's
2019+ format): the lines after the header in the order these exports print them (the
table and seat lines, the betting with its ``*** FLOP *** [..]`` board lines, the
``*** SUMMARY ***``), each kind to the reader's own part (:func:`read_body`), so that a
reader holds only its wording.
"""

from __future__ import annotations

from collections.abc import Callable

from simulate.notation.site_hand import SiteHand
from simulate.notation.site_ledger import STREET_LINE, Ledger
from simulate.notation.site_read import at_line, body_lines
from simulate.notation.site_text import SiteError

__all__ = ["read_body"]


def _none(_: str) -> bool:
    return False


def read_body(hand: SiteHand, lines: list[str], first: int, *,
              seat: Callable[[str], bool],
              line: Callable[[Ledger, str, int], None],
              summary: Callable[[str, int], None],
              head: Callable[[str], bool] = _none,
              street: Callable[[Ledger, str, int], None] | None = None,
              skip: tuple[str, ...] = ()) -> tuple[Ledger | None, bool]:
    """Read the body of one PokerStars-like text hand: ``lines`` is the hand's text split
    at ``\\n`` (its header first, the document's line ``first``), ``hand`` the record its
    header made (no seats yet). Each line after the header, stripped, goes to one part:

    - before the betting, a line starting ``Seat `` to ``seat(text)`` (which appends the
      seat to ``hand.seats``; False where the line is not one it takes), then any line to
      ``head(text)`` (the table line; True where taken);
    - lines starting with one of ``skip`` are passed over;
    - the first other line starts the betting: a :class:`Ledger` of the seats (a hand
      without seats is a :class:`SiteError`);
    - ``*** FLOP *** [..]``, ``*** TURN *** [..] [..]``... deal the board (the ledger's
      :meth:`~Ledger.board_line`); other ``*** ... ***`` lines go to ``street(ledger,
      text, line)`` (stud streets), or are passed over;
    - every other betting line to ``line(ledger, text, line)``;
    - from ``*** SUMMARY ***`` on, every line to ``summary(text, line)``.

    Gives the ledger (None where no betting line came) and whether the summary came; an
    error names the line it was read at."""
    ledger: Ledger | None = None
    in_summary = False
    ln = first
    try:
        for ln, s in body_lines(lines, first):
            if in_summary:
                summary(s, ln)
                continue
            if s.startswith("*** SUMMARY"):
                in_summary = True
                continue
            if ledger is None and (s.startswith("Seat ") and seat(s) or head(s)):
                continue
            if s.startswith(skip):
                continue
            if ledger is None:
                ledger = Ledger.seated(hand)
            if STREET_LINE.match(s):
                ledger.board_line(s, ln)
            elif s.startswith("***"):
                if street is not None:
                    street(ledger, s, ln)
            else:
                line(ledger, s, ln)
    except SiteError as exc:
        raise at_line(exc, ln) from None
    return ledger, in_summary
