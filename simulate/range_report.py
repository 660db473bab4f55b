"""The range report: what one range-equity run found, per combo and per hand class
(:class:`RangeAnalysis`), and what a range holds on a board (:func:`hand_categories`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from evaluator.cards import CardError, cards_str, check_disjoint
from evaluator.tablegen import CATEGORIES

from .ranges import Range, combo_class, grid_cell, grid_names, parse_range
from .request import parse_board, parse_dead
from .results import EquityResult

__all__ = ["DRAWS", "RangeAnalysis", "hand_categories"]


class RangeAnalysis:
    """Everything one range-equity run found.

    ``result``: the :class:`EquityResult`. ``ranges``: each player's live range.
    ``combo_equity[p]``: float64[n_p], the equity of each of player p's combos (NaN where a
    Monte Carlo run never dealt it); ``combo_share[p]``: float64[n_p], the share of player p's
    deals holding each combo (weights and card removal included). (The fast exact walk of a
    range against ``random`` does not keep the random player's per-combo sums; they are worked
    out by the generic exact walk the first time ``combo_equity`` or ``combo_share`` is read.)
    """

    def __init__(self, result: EquityResult, ranges: list[Range],
                 combo_equity: list[np.ndarray | None], combo_share: list[np.ndarray | None],
                 board: list[int] | None = None, dead: list[int] | None = None,
                 fill: Callable[[], tuple[list[np.ndarray], list[np.ndarray]]] | None = None
                 ) -> None:
        self.result = result
        self.ranges = ranges
        self._combo_equity = combo_equity
        self._combo_share = combo_share
        self.board = list(board or [])
        self.dead = list(dead or [])
        self._fill = fill

    def _complete(self) -> None:
        if self._fill is not None and (any(x is None for x in self._combo_equity)
                                       or any(x is None for x in self._combo_share)):
            eq, share = self._fill()
            self._combo_equity = [a if a is not None else b
                                  for a, b in zip(self._combo_equity, eq, strict=True)]
            self._combo_share = [a if a is not None else b
                                 for a, b in zip(self._combo_share, share, strict=True)]
            self._fill = None

    @property
    def combo_equity(self) -> list[np.ndarray]:
        self._complete()
        return self._combo_equity  # type: ignore[return-value]

    @property
    def combo_share(self) -> list[np.ndarray]:
        self._complete()
        return self._combo_share  # type: ignore[return-value]

    def _player_combos(self, player: int) -> tuple[np.ndarray, np.ndarray]:
        if self._combo_equity[player] is None or self._combo_share[player] is None:
            self._complete()
        return self._combo_equity[player], self._combo_share[player]  # type: ignore[return-value]

    def combos(self, player: int = 0) -> list[dict[str, object]]:
        """Per-combo rows of one player, best equity first: ``combo``, ``hand`` (class),
        ``weight``, ``share``, ``equity``."""
        r = self.ranges[player]
        ceq, cshare = self._player_combos(player)
        rows = []
        for k, (a, b) in enumerate(r.combos.tolist()):
            eq = float(ceq[k])
            rows.append({"combo": cards_str([b, a]), "hand": combo_class(a, b),
                         "weight": float(r.weights[k]),
                         "share": float(cshare[k]),
                         "equity": None if math.isnan(eq) else eq})
        rows.sort(key=lambda x: -1.0 if x["equity"] is None else x["equity"], reverse=True)
        return rows

    def grid(self, player: int = 0) -> list[list[dict[str, object] | None]]:
        """The 13x13 grid of hand classes for one player (``grid[row][col]``, AA top left,
        suited above the diagonal): ``{"hand", "combos", "share", "equity"}`` per class
        present (``combos`` = summed weights of its live combos), else None."""
        r = self.ranges[player]
        ceq, cshare = self._player_combos(player)
        wsum = np.zeros((13, 13))
        eq = np.zeros((13, 13))
        share = np.zeros((13, 13))
        seen = np.zeros((13, 13), dtype=bool)
        for k, (a, b) in enumerate(r.combos.tolist()):
            i, j = grid_cell(a, b)
            seen[i, j] = True
            wsum[i, j] += r.weights[k]
            s = cshare[k]
            e = ceq[k]
            if s > 0 and not math.isnan(e):
                share[i, j] += s
                eq[i, j] += s * e
        names = grid_names()
        out: list[list[dict[str, object] | None]] = []
        for i in range(13):
            row: list[dict[str, object] | None] = []
            for j in range(13):
                if not seen[i, j]:
                    row.append(None)
                    continue
                row.append({"hand": names[i][j], "combos": float(wsum[i, j]),
                            "share": float(share[i, j]),
                            "equity": float(eq[i, j] / share[i, j]) if share[i, j] > 0
                            else None})
            out.append(row)
        return out

    def categories(self, player: int = 0) -> dict[str, object] | None:
        """:func:`hand_categories` of one player's live range on this board (None before
        the flop)."""
        if len(self.board) < 3:
            return None
        return hand_categories(self.ranges[player], self.board, self.dead)

    def to_dict(self) -> dict[str, object]:
        """The ``pokerjit range --json`` document: the :class:`EquityResult` keys plus
        ``"ranges"``, per player ``{"range", "combos", "grid", "hand_categories"}``."""
        d = self.result.to_dict()
        d["ranges"] = [{"range": pr.hand, "combos": self.combos(p), "grid": self.grid(p),
                        "hand_categories": self.categories(p)}
                       for p, pr in enumerate(self.result.players)]
        return d


# ----------------------------------------------------------------------------- categories
DRAWS = ("flush draw", "open-ended straight draw", "gutshot", "combo draw",
         "backdoor flush draw")


def _straight_ranks(rank_mask: int) -> bool:
    m = (rank_mask << 1) | ((rank_mask >> 12) & 1)
    for lo in range(10):
        if (m >> lo) & 0x1F == 0x1F:
            return True
    return False


def hand_categories(range_text: str, board: str | Sequence[int], dead: str | Sequence[int] = ""
                    ) -> dict[str, object]:
    """What a range holds on a board of 3..5 cards: each made-hand category's share of the
    range's live combos (weighted), and the draws (flop and turn only; shares overlap):

    * ``flush draw``: four cards of a suit, at least one of them in the hand, no flush yet;
    * ``open-ended straight draw``: no straight yet, and cards of two or more ranks would each
      make one using the hand (so double gutshots count here, as 8-out draws);
    * ``gutshot``: exactly one such rank;
    * ``combo draw``: a flush draw together with either straight draw;
    * ``backdoor flush draw`` (flop): three of a suit, at least one in the hand.

    Returns ``{"board", "combos", "made": {category: {"combos", "share"}}, "draws": {...}}``.
    """
    from evaluator.hands import category_index, evaluate_batch

    b = parse_board(board)
    if len(b) < 3:
        raise CardError("hand categories need a board of 3, 4 or 5 cards")
    d = parse_dead(dead)
    check_disjoint([("board", b), ("dead cards", d)])
    r = range_text if isinstance(range_text, Range) else parse_range(range_text)
    r = r.without(set(b) | set(d))
    if len(r) == 0:
        raise CardError(f"range '{r.text}' has no combos left after removing the board and "
                        "dead cards")
    cards = np.concatenate([r.combos, np.tile(np.array(b, np.uint8), (len(r), 1))], axis=1)
    cat = category_index(evaluate_batch(cards, threads=1))
    w = r.weights
    total = float(w.sum())
    made = {}
    for i, name in enumerate(CATEGORIES):
        s = float(w[cat == i].sum())
        if s > 0:
            made[name] = {"combos": s, "share": s / total}
    draws = {name: 0.0 for name in DRAWS}
    if len(b) < 5:
        board_suits = np.bincount(np.array(b) & 3, minlength=4)
        board_ranks = 0
        for c in b:
            board_ranks |= 1 << (c >> 2)
        for k, (x, y) in enumerate(r.combos.tolist()):
            suits = board_suits.copy()
            suits[x & 3] += 1
            suits[y & 3] += 1
            hole_suits = {x & 3, y & 3}
            fd = cat[k] < 5 and any(suits[s] == 4 for s in hole_suits)
            bd = len(b) == 3 and cat[k] < 5 and any(suits[s] == 3 for s in hole_suits)
            ranks = board_ranks | (1 << (x >> 2)) | (1 << (y >> 2))
            outs = 0
            if cat[k] < 4:
                for rr in range(13):
                    if (ranks >> rr) & 1:
                        continue
                    if _straight_ranks(ranks | (1 << rr)) and \
                            not _straight_ranks(board_ranks | (1 << rr)):
                        outs += 1
            if fd:
                draws["flush draw"] += w[k]
            if bd:
                draws["backdoor flush draw"] += w[k]
            if outs >= 2:
                draws["open-ended straight draw"] += w[k]
            elif outs == 1:
                draws["gutshot"] += w[k]
            if fd and outs >= 1:
                draws["combo draw"] += w[k]
    return {"board": cards_str(b), "combos": total, "made": made,
            "draws": {k: {"combos": float(v), "share": float(v) / total}
                      for k, v in draws.items() if len(b) < 5}}
