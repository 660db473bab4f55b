"""The hand engine: :class:`Rules`, :class:`Hand`, :func:`play` (the public names, gathered).

Seats are numbered ``0..N-1`` clockwise. The small blind is the seat after the button and
the big blind the next; heads-up the button posts the small blind, acts first before the
flop and last after it. Every rule lives once, in the Numba kernels of
:mod:`simulate._kernels.engine`. The parts: :mod:`simulate.engine.rules` (:class:`Rules`,
:class:`Legal`, :class:`IllegalAction`), :mod:`simulate.engine.hand_state` (:class:`Hand`,
one kernel call per action; its PHH text side in :mod:`simulate.engine.hand_text`) and
:mod:`simulate.engine.self_play`
(:func:`play`, the same kernels in a compiled loop over many hands, and
:class:`PlayResult`).

PHH action strings (``.actions``, ``.act(...)``) name seat ``s`` as player ``p{s + 1}``.

Example::

    from simulate.engine import Rules, Hand
    h = Hand(Rules(blinds=(1, 2)), [200] * 6, seed=7)
    h.actor, h.legal          # 3, Legal(fold=True, check=False, call=2, min_raise_to=4, ...)
    h.raise_to(6); h.call(); h.fold()
    h.act("cc")               # PHH-style: "f", "cc", "cbr 300"
"""

from __future__ import annotations

from simulate.engine.hand_state import Hand
from simulate.engine.rules import (
    BETTINGS,
    DEFAULT_DISCARD_AFTER,
    DISCARD_STREETS,
    HOLDEM_LIKE,
    STREETS,
    IllegalAction,
    Legal,
    Rules,
)
from simulate.engine.self_play import PlayResult, play

__all__ = ["BETTINGS", "DEFAULT_DISCARD_AFTER", "DISCARD_STREETS", "HOLDEM_LIKE",
           "STREETS", "Hand", "IllegalAction", "Legal", "PlayResult", "Rules", "play"]
