"""The line patterns the PokerStars-like text exports share (PokerStars, Full Tilt, Bovada,
Winamax, GGPoker, Winning Poker): one pattern per line kind that they print alike.

- :data:`BRACKETS`: a card list in brackets (``[Ah Kd]``);
- :data:`TOTAL_POT`, :data:`SUMMARY_SEAT`, :data:`SUMMARY_SHOW`: the summary lines
  ``Total pot $X ...``, ``Seat N: ...`` and its ``showed [..]`` / ``mucked [..]``.
"""

from __future__ import annotations

import re

__all__ = ["BRACKETS", "SUMMARY_SEAT", "SUMMARY_SHOW", "TOTAL_POT"]

#: A card list in brackets (``[Ah Kd]``, ``*** TURN *** [Ah Kd 2c] [7s]``): group 1, the
#: cards (for :func:`~simulate.notation.site_text.cards_of`).
BRACKETS = re.compile(r"\[([^\]]*)\]")
#: The summary's ``Total pot $X | Rake $Y`` line: group ``total``, the pot as printed.
TOTAL_POT = re.compile(r"^Total pot (?P<total>\S+)")
#: A summary's seat line ``Seat N: NAME (role) showed [..] and won ($X)``: groups ``seat``
#: and ``rest`` (what follows the colon).
SUMMARY_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<rest>.*)$")
#: The cards a summary's seat line shows: groups ``kind`` (``showed`` or ``mucked``) and
#: ``cards``.
SUMMARY_SHOW = re.compile(r" (?P<kind>showed|mucked) \[(?P<cards>[^\]]*)\]")
