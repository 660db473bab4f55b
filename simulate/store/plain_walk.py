"""The counting walk of a chunk's plain hands in one compiled call, as arrays.

The hands the compiled replay settled (:func:`simulate.replay.fast_replay.iter_replay_read`
gives their fields: whole-number amounts, the actions as the text of a one-line TOML array)
are walked by :func:`simulate._kernels.walk.walk_many`, the compiled twin of
:func:`simulate.store.counts.walk` (each hand's :class:`~simulate.store.counts.SeatCounts`
and action rows, tested equal). :func:`walk_plain` gives a :class:`PlainWalk`: the counts
of every seat as one array, and the action rows as columns that
:meth:`PlainWalk.action_columns` cuts per hand, so the database's rows of such a hand take
no Python loop over its actions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from evaluator.cards import CARD_PAIRS
from simulate.store.counts import COUNT_FIELDS, WalkStart, plain_start

__all__ = ["PlainWalk", "walk_plain"]


@dataclass
class PlainWalk:
    """:func:`walk_plain`'s result for ``H`` hands: ``starts`` (each hand's
    :class:`~simulate.store.counts.WalkStart`: its positions), ``counts``
    (``int32[H, MAXS, len(COUNT_FIELDS)]``, W$SD and W$WSF filled from the winnings),
    ``nact`` (``int64[H]``: the hand's action rows, -1 where the kernel left the hand to the
    Python walk) from ``aoff`` (``int64[H]``) in the row columns ``street``, ``seat``
    (-1: the board), ``kind`` (``int8``), ``amount``, ``total`` (``int64``, -1: none),
    ``allin`` (``bool``), and the cards, ``text[cards0:cards1]``."""

    starts: list[WalkStart]
    counts: np.ndarray
    nact: np.ndarray
    aoff: np.ndarray
    street: np.ndarray
    seat: np.ndarray
    kind: np.ndarray
    amount: np.ndarray
    total: np.ndarray
    allin: np.ndarray
    cards0: np.ndarray
    cards1: np.ndarray
    text: str

    def walked(self, j: int) -> bool:
        """Whether the kernel walked hand ``j``."""
        return bool(self.nact[j] >= 0)

    def seat_counts(self, j: int) -> list[list[int]]:
        """Hand ``j``'s counts, a list per seat in :data:`COUNT_FIELDS` order."""
        return self.counts[j, :len(self.starts[j].positions)].tolist()

    def action_columns(self, hands: list[int]) -> dict[str, Any]:
        """The action rows of ``hands`` (indices, each walked), hand after hand: ``hand``
        (the position in ``hands`` of each row's hand), ``seq``, ``street`` and ``action``
        (text), ``seat`` (``int64``, -1: the board), ``amount`` and ``total`` (``float64``,
        NaN: none), ``allin`` and ``cards`` (text or None)."""
        from simulate._kernels.walk import ACTION_NAMES, STREET_NAMES

        js = np.asarray(hands, dtype=np.int64)
        lengths = self.nact[js]
        total = int(lengths.sum())
        first = np.repeat(self.aoff[js], lengths)
        before = np.repeat(np.cumsum(lengths) - lengths, lengths)
        seq = np.arange(total, dtype=np.int64) - before
        idx = first + seq
        amount = self.amount[idx].astype(np.float64)
        amount[amount < 0] = np.nan
        tot = self.total[idx].astype(np.float64)
        tot[tot < 0] = np.nan
        tx = self.text
        cards = [tx[a:b] if b > a else None
                 for a, b in zip(self.cards0[idx].tolist(), self.cards1[idx].tolist(),
                                 strict=True)]
        return {"hand": np.repeat(np.arange(len(js), dtype=np.int64), lengths), "seq": seq,
                "street": np.array(STREET_NAMES, dtype=object)[self.street[idx]],
                "action": np.array(ACTION_NAMES, dtype=object)[self.kind[idx]],
                "seat": self.seat[idx].astype(np.int64), "amount": amount, "total": tot,
                "allin": self.allin[idx], "cards": cards}


def walk_plain(fields: list[dict[str, Any]], winnings: list[list[Any]]) -> PlainWalk:
    """Walk the hands whose fields (as :func:`simulate.replay.fast_replay.iter_replay_read`
    gives them) are ``fields``, with what each seat won (the documents' ``winnings``)."""
    from simulate._kernels import engine as K
    from simulate._kernels.walk import SAW_FLOP, SHOWDOWN, WON_SD, WON_SF, walk_many

    H = len(fields)
    S = K.MAXS
    starts = []
    texts = []
    nseat = np.zeros(H, np.int64)
    blinds = np.zeros((H, S), np.int64)
    antes = np.zeros((H, S), np.int64)
    stacks = np.zeros((H, S), np.int64)
    board = np.zeros(H, np.int64)
    won = np.zeros((H, S), np.bool_)
    for i, f in enumerate(fields):
        st = f["starting_stacks"]
        n = len(st)
        start = plain_start(f["variant"], tuple(f.get("blinds_or_straddles") or (0,) * n),
                            tuple(f.get("antes") or (0,) * n), st, n - 1)
        starts.append(start)
        texts.append(f["actions"])
        nseat[i] = n
        blinds[i, :n] = start.blinds
        antes[i, :n] = start.antes
        stacks[i, :n] = st
        board[i] = start.board
        for s, w in enumerate(winnings[i][:n]):
            won[i, s] = w is not None and w > 0
    text = "".join(texts)
    raw = np.frombuffer(text.encode("ascii"), np.uint8)
    toff = np.zeros(H + 1, np.int64)
    np.cumsum([len(t) for t in texts], out=toff[1:])
    aoff = np.zeros(H + 1, np.int64)
    np.cumsum(np.diff(toff) // 6 + 1, out=aoff[1:])
    rows = int(aoff[-1])
    counts = np.zeros((H, S, len(COUNT_FIELDS)), np.int32)  # COUNTS, tested equal
    nact = np.zeros(H, np.int64)
    cols = (np.zeros(rows, np.int8), np.zeros(rows, np.int64), np.zeros(rows, np.int8),
            np.zeros(rows, np.int64), np.zeros(rows, np.int64), np.zeros(rows, np.bool_),
            np.zeros(rows, np.int64), np.zeros(rows, np.int64))
    walk_many(raw, toff, CARD_PAIRS, nseat, blinds, antes, stacks, board, counts, aoff, nact,
              *cols)
    counts[:, :, WON_SD] = counts[:, :, SHOWDOWN] * won
    counts[:, :, WON_SF] = counts[:, :, SAW_FLOP] * won
    street, seat, kind, amount, total, allin, c0, c1 = cols
    return PlainWalk(starts, counts, nact, aoff[:-1], street, seat, kind, amount, total,
                     allin, c0, c1, text)
