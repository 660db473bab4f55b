"""Heads-up push/fold equilibrium (:func:`pushfold`) and the push/fold chart
(:func:`pushfold_chart`), from the shipped 169 x 169 preflop table.

The game: stacks of ``stack_bb`` big blinds each before the blinds (and ``ante`` each, if
any) are posted; the small blind (0.5) jams or folds, the big blind (1) calls or folds. The
strategies are frequencies per hand class; the deal is every ordered pair of card-disjoint
combos, equally likely (card removal between classes: :func:`simulate.preflop_table.
pair_counts`), and an all-in pays each player its exact equity of the pot of ``2 x stack``
(the table's class-against-class equity, ties split). The small blind's expected result per
hand, in big blinds, is bilinear in the two strategies::

    U(x, y) = -(0.5 + ante) + a . x + x^T G y,   a_i = (1.5 + 2 ante) P(i),
    G_ij = P(i, j) (2 S E_ij - S - 1 - ante)

(``P(i, j)`` the chance of the deal ``i`` against ``j``, ``E_ij`` the table's equity), so the
equilibrium is a saddle point: regret matching+ (:mod:`simulate._kernels.pushfold`) finds it
approximately, then the mixed classes are solved exactly: the classes each player is close
to indifferent with are mixed so as to make the other player indifferent (two small linear
systems), the rest played purely; the better of the candidates is kept. The
``exploitability`` reported is the larger of the two players' gains from their best
responses, in milli-big-blinds per hand.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simulate.ranges import HAND_CLASSES, class_combo_count, range_text

__all__ = ["CHART_STACKS", "MAX_STACK_BB", "PushFoldResult", "grid_of", "pushfold",
           "pushfold_chart", "saddle_point", "share_of"]

#: The deepest stack, in big blinds, either push/fold game takes.
MAX_STACK_BB = 1e6

#: Stacks of the chart: 1 to 25 big blinds in tenths.
CHART_STACKS = tuple(round(1 + 0.1 * k, 1) for k in range(241))
RM_ITERATIONS = 600
#: Most classes :func:`_polish` mixes for each player, out of how many candidates.
MAX_MIXED = 3
CANDIDATES = 4
_N = len(HAND_CLASSES)
_COMBOS = np.array([class_combo_count(c) for c in HAND_CLASSES], np.float64)


@dataclass
class PushFoldResult:
    """:func:`pushfold`'s answer: ``jam`` and ``call`` float64[169] (each class's frequency,
    :data:`simulate.ranges.HAND_CLASSES` order), ``ev_bb`` (each player's expected result
    per hand in big blinds: small blind, big blind), ``exploitability_mbb``."""

    stack_bb: float
    ante: float
    jam: np.ndarray
    call: np.ndarray
    ev_bb: list[float]
    exploitability_mbb: float
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The ``pokerjit pushfold --json`` document."""
        return {"stack_bb": self.stack_bb, "ante": self.ante,
                "jam": strategy_dict(self.jam), "call": strategy_dict(self.call),
                "ev_bb": {"sb": self.ev_bb[0], "bb": self.ev_bb[1]},
                "exploitability_mbb": self.exploitability_mbb}


def strategy_dict(freq: np.ndarray) -> dict[str, Any]:
    """``{"range", "share", "grid"}`` of per-class frequencies."""
    return {"range": range_text(freq), "share": share_of(freq), "grid": grid_of(freq)}


def share_of(freq: np.ndarray) -> float:
    """The fraction of the 1,326 combos a per-class frequency vector plays."""
    return float((_COMBOS * freq).sum() / 1326.0)


def grid_of(freq: np.ndarray) -> list[list[float]]:
    """13 x 13 frequencies (rows and columns A..2, suited above the diagonal), rounded."""
    return [[round(float(v), 4) for v in row] for row in np.asarray(freq).reshape(13, 13)]


@functools.lru_cache(maxsize=1)
def _tables() -> tuple[np.ndarray, np.ndarray]:
    """``(P, E)`` float64[169, 169]: the chance of each deal of classes (card-disjoint combo
    pairs over 1,326 x 1,225) and the first class's equity against the second."""
    from simulate.preflop_table import pair_counts, preflop_table

    return pair_counts() / (1326.0 * 1225.0), preflop_table().equity


def _check(stack_bb: float, ante: float) -> tuple[float, float]:
    for name, v in (("stack", stack_bb), ("ante", ante)):
        if isinstance(v, bool) or not isinstance(v, (int, float, np.floating, np.integer)) \
                or not np.isfinite(v):
            raise ValueError(f"{name} must be a finite number of big blinds, got {v!r}")
    if ante < 0:
        raise ValueError(f"ante must be >= 0, got {ante:g}")
    if stack_bb < 1 + ante:
        raise ValueError(f"stack must be at least the big blind and the ante ({1 + ante:g} "
                         f"big blinds), got {stack_bb:g}")
    if stack_bb > MAX_STACK_BB:
        raise ValueError(f"stack must be at most {MAX_STACK_BB:g} big blinds, got {stack_bb:g}")
    return float(stack_bb), float(ante)


def game_of(stack_bb: float, ante: float = 0.0) -> tuple[np.ndarray, np.ndarray, float]:
    """``(G, a, const)`` of the heads-up game at this stack (module docstring)."""
    P, E = _tables()
    S = stack_bb
    G = P * (2 * S * E - S - 1 - ante)
    a = (1.5 + 2 * ante) * P.sum(axis=1)
    return G, a, -(0.5 + ante)


def gains(G: np.ndarray, a: np.ndarray, b: np.ndarray, x: np.ndarray,
          y: np.ndarray) -> tuple[float, float]:
    """What each player of the bilinear game gains from its best response to the other's
    strategy: ``(first, second)``, in the payoff's units."""
    return _gains_given(a + G @ y, x, b + G.T @ x, y)


def _gains_given(gx: np.ndarray, x: np.ndarray, hy: np.ndarray,
                 y: np.ndarray) -> tuple[float, float]:
    """:func:`gains` from the two players' payoff vectors against each other, ``gx = a + G y``
    and ``hy = b + G^T x`` (float64[169] each), so a caller that updates them keeps them."""
    return (float(np.maximum(gx, 0).sum() - x @ gx),
            float(y @ hy - np.minimum(hy, 0).sum()))


def _polish(G: np.ndarray, a: np.ndarray, b: np.ndarray, x: np.ndarray, y: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, float]:
    """The exact mixing of an approximate saddle point ``(x, y)``: for every ``k`` of 0 to
    :data:`MAX_MIXED` classes of each player among its :data:`CANDIDATES` nearest to
    indifferent, those are mixed so as to make the other player's ``k`` indifferent (two
    ``k x k`` linear systems, frequencies in [0, 1]), the rest are best responses; the best
    candidate (least of the larger gain, ``(x, y)`` itself among them) is returned with that
    gain, at once when it is exact (below 1e-12)."""
    best = (x, y, max(gains(G, a, b, x, y)))
    gx = a + G @ y
    hy = b + G.T @ x
    near_x = np.argsort(np.abs(gx), kind="stable")[:CANDIDATES]
    near_y = np.argsort(np.abs(hy), kind="stable")[:CANDIDATES]
    pure_x = (gx > 0).astype(np.float64)
    pure_y = (hy < 0).astype(np.float64)
    base_g = a + G @ pure_y  # each candidate changes a few entries: rank-k updates
    base_h = b + G.T @ pure_x
    g = max(_gains_given(base_g, pure_x, base_h, pure_y))
    if g < best[2]:
        best = (pure_x, pure_y, g)
        if g < 1e-12:
            return best
    for k in range(1, MAX_MIXED + 1):
        for ms in map(list, itertools.combinations(near_x.tolist(), k)):
            for mb in map(list, itertools.combinations(near_y.tolist(), k)):
                sub = G[np.ix_(ms, mb)]
                try:  # the mixed classes' frequencies that make the other's indifferent
                    ym = np.linalg.solve(sub, -(base_g[ms] - sub @ pure_y[mb]))
                    xm = np.linalg.solve(sub.T, -(base_h[mb] - sub.T @ pure_x[ms]))
                except np.linalg.LinAlgError:
                    continue
                if min(ym.min(), xm.min()) < -1e-9 or max(ym.max(), xm.max()) > 1 + 1e-9:
                    continue
                xs, ys = pure_x.copy(), pure_y.copy()
                ys[mb] = np.clip(ym, 0, 1)
                xs[ms] = np.clip(xm, 0, 1)
                gxc = base_g + G[:, mb] @ (ys[mb] - pure_y[mb])
                hyc = base_h + G[ms].T @ (xs[ms] - pure_x[ms])
                g = max(_gains_given(gxc, xs, hyc, ys))
                if g < best[2]:
                    best = (xs, ys, g)
                if g < 1e-12:
                    return best
    return best


def saddle_point(G: np.ndarray, a: np.ndarray, b: np.ndarray, *, iterations: int = RM_ITERATIONS,
                 start: tuple[np.ndarray, np.ndarray] | None = None,
                 target: float = 0.0) -> tuple[np.ndarray, np.ndarray, float]:
    """An equilibrium ``(x, y, gain)`` of the bilinear zero-sum game (``G`` float64[n, m],
    ``a`` [n], ``b`` [m]; the first player maximizes ``a.x + b.y + x^T G y`` over [0, 1]^n):
    from ``start`` when its polished form gains less than ``target``, else regret matching+
    then the exact mixing (:func:`_polish`). ``gain``: the larger best-response gain."""
    from simulate._kernels.pushfold import rm_plus

    G = np.ascontiguousarray(G, np.float64)
    warm = None
    if start is not None:
        warm = _polish(G, a, b, *start)
        if warm[2] <= target:
            return warm
    x = np.zeros(G.shape[0])
    y = np.zeros(G.shape[1])
    rm_plus(G, np.ascontiguousarray(G.T), np.ascontiguousarray(a, np.float64),
            np.ascontiguousarray(b, np.float64), iterations, x, y)
    res = _polish(G, a, b, x, y)
    return warm if warm is not None and warm[2] < res[2] else res


def pushfold(stack_bb: float, *, ante: float = 0.0, iterations: int = RM_ITERATIONS,
             start: tuple[np.ndarray, np.ndarray] | None = None) -> PushFoldResult:
    """The heads-up jam-or-fold equilibrium at ``stack_bb`` big blinds (each stack before
    the blinds are posted; small blind 0.5, big blind 1, ``ante`` each). ``start``: a
    nearby solution's ``(jam, call)`` to try first (the chart passes the last stack's).
    ValueError for a stack below 1 + ante, a negative ante or a non-number."""
    S, A = _check(stack_bb, ante)
    G, a, const = game_of(S, A)
    b = np.zeros(_N)
    x, y, g = saddle_point(G, a, b, iterations=iterations, start=start, target=5e-7)
    ev = const + float(a @ x + x @ G @ y)
    return PushFoldResult(S, A, x, y, [ev, -ev], 1000.0 * g)


@dataclass
class PushFoldChart:
    """:func:`pushfold_chart`'s answer: per class, the largest stack (of
    :data:`CHART_STACKS`; 25 meaning 25 or more) at which it is jammed, and called, at least
    half the time (0: at none), and the intervals below that where it is not (gaps); the
    worst ``exploitability_mbb`` of the stacks solved."""

    ante: float
    jam: dict[str, float]
    call: dict[str, float]
    jam_gaps: dict[str, list[list[float]]]
    call_gaps: dict[str, list[list[float]]]
    exploitability_mbb: float

    def to_dict(self) -> dict[str, Any]:
        """The ``pokerjit pushfold --chart --json`` document."""
        return {"ante": self.ante, "jam": self.jam, "call": self.call,
                "jam_gaps": self.jam_gaps, "call_gaps": self.call_gaps,
                "exploitability_mbb": self.exploitability_mbb}


def pushfold_chart(*, ante: float = 0.0) -> PushFoldChart:
    """The classic chart over :data:`CHART_STACKS` (module docstring), each stack solved by
    :func:`pushfold` from the one before."""
    stacks = [s for s in CHART_STACKS if s >= 1 + ante]
    if not stacks:
        raise ValueError(f"ante {ante:g}: no stack of the chart (1..25 big blinds) covers it")
    jams = np.zeros((len(stacks), _N))
    calls = np.zeros((len(stacks), _N))
    worst = 0.0
    start = None
    for k, s in enumerate(stacks):
        r = pushfold(s, ante=ante, start=start)
        jams[k], calls[k] = r.jam, r.call
        start = (r.jam, r.call)
        worst = max(worst, r.exploitability_mbb)
    jam, jam_gaps = _largest(stacks, jams >= 0.5)
    call, call_gaps = _largest(stacks, calls >= 0.5)
    return PushFoldChart(ante, jam, call, jam_gaps, call_gaps, worst)


def _largest(stacks: list[float], on: np.ndarray
             ) -> tuple[dict[str, float], dict[str, list[list[float]]]]:
    top: dict[str, float] = {}
    gaps: dict[str, list[list[float]]] = {}
    for i, name in enumerate(HAND_CLASSES):
        col = on[:, i]
        idx = np.flatnonzero(col)
        if idx.size == 0:
            top[name] = 0.0
            continue
        last = int(idx[-1])
        top[name] = stacks[last]
        holes = []
        k = 0
        while k < last:
            if not col[k]:
                j = k
                while j + 1 < last and not col[j + 1]:
                    j += 1
                holes.append([stacks[k], stacks[j]])
                k = j + 1
            else:
                k += 1
        if holes:
            gaps[name] = holes
    return top, gaps
