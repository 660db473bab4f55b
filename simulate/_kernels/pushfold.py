"""Push/fold equilibrium kernels (private; the public layer is :mod:`simulate.pushfold`).

A two-player zero-sum game over boxes: the first player picks ``x`` in [0, 1]^n (how often
each hand class jams), the second ``y`` in [0, 1]^m (how often each class calls); the first
player's payoff is ``a . x + b . y + x^T G y`` (an expected amount per hand dealt), which
the second player pays. Each class is a two-action decision point (jam or fold, call or
fold), so regret matching+ runs per class: :func:`rm_plus` (alternating updates, averages
weighted by the iteration number, the CFR+ scheme).
"""

from __future__ import annotations

import numpy as np

from evaluator._jit import serial


@serial
def rm_plus(G, GT, a, b, iters, x_avg, y_avg):
    """``iters`` rounds of regret matching+ on the bilinear game ``(G, a, b)`` (module
    docstring; ``G`` float64[n, m] and its transpose ``GT`` float64[m, n], both contiguous,
    so both products run along rows; ``a`` float64[n], ``b`` float64[m]); writes the
    iteration-weighted average strategies to ``x_avg`` float64[n] and ``y_avg`` float64[m]."""
    n, m = G.shape
    x = np.full(n, 0.5)
    y = np.full(m, 0.5)
    rx1 = np.zeros(n)
    rx0 = np.zeros(n)
    ry1 = np.zeros(m)
    ry0 = np.zeros(m)
    sx = np.zeros(n)
    sy = np.zeros(m)
    gx = np.zeros(n)
    hy = np.zeros(m)
    wsum = 0.0
    for t in range(1, iters + 1):
        _gains(GT, a, y, gx)
        _regret_step(gx, 1.0, t, x, rx1, rx0, sx)
        _gains(G, b, x, hy)
        _regret_step(hy, -1.0, t, y, ry1, ry0, sy)  # the second player gains -hy
        wsum += t
    for i in range(n):
        x_avg[i] = sx[i] / wsum
    for j in range(m):
        y_avg[j] = sy[j] / wsum


@serial
def _gains(M, base, other, out):
    """``out[i] = base[i] + sum_j M[j, i] * other[j]`` (summed in ``j`` order): one player's
    gain from action 1 in each class, against the other's strategy ``other``."""
    for i in range(out.shape[0]):
        out[i] = base[i]
    for j in range(other.shape[0]):
        oj = other[j]
        for i in range(out.shape[0]):
            out[i] += M[j, i] * oj


@serial
def _regret_step(gain, sign, t, strat, r1, r0, total):
    """One regret matching+ update of one player in iteration ``t``: class ``i`` gains
    ``sign * gain[i]`` from action 1; updates the regrets ``r1``/``r0``, the strategy
    ``strat`` and its iteration-weighted sum ``total`` (all float64[n])."""
    for i in range(strat.shape[0]):
        g = sign * gain[i]
        u = strat[i] * g
        r1[i] = max(r1[i] + g - u, 0.0)
        r0[i] = max(r0[i] - u, 0.0)
        d = r1[i] + r0[i]
        strat[i] = r1[i] / d if d > 0 else 0.5
        total[i] += t * strat[i]


@serial
def tree_values(cls, strength, actor, ctx, act, fold, term, members, n_members, payoff, win,
                tie, strat, qa, qf, root):
    """One pass of the multi-way push/fold tree over every sampled deal.

    Deals: ``cls`` int64[M, N] (each player's hand class), ``strength`` int64[M, N] (its
    hand's strength on the deal's board, higher better). Tree (nodes in order, parents
    before children, node 0 the root): ``actor`` int64[K] (the player acting, -1 at a
    terminal), ``ctx`` int64[K] (the strategy row of the decision), ``act`` / ``fold``
    int64[K] (the children), ``term`` int64[K] (a terminal's index). Terminals: ``members``
    int64[T, 4] and ``n_members`` int64[T] (the players all in), ``payoff`` float64[T, 256,
    N] (each player's prize by the outcome code: sum over members ``i`` of (members ranked
    strictly above ``i``) x 4**i). ``strat`` float64[C, 169]: how often each decision acts.
    A terminal of two players all in takes its outcome from the classes, exactly: ``win``
    and ``tie`` float64[169, 169] (the heads-up table's chance that the first class wins,
    and that they tie), not from the deal's board.

    Adds, per decision row and class, the reach-weighted value to the actor of acting
    (``qa`` float64[C, 169]) and of folding (``qf``), and each player's value at the root to
    ``root`` float64[N]."""
    n_deals, n = cls.shape
    k = actor.shape[0]
    reach = np.zeros(k)
    sig = np.zeros(k)
    val = np.zeros((k, n))
    for d in range(n_deals):
        reach[0] = 1.0
        for v in range(k):
            p = actor[v]
            if p < 0:
                continue
            s = strat[ctx[v], cls[d, p]]
            sig[v] = s
            reach[act[v]] = reach[v] * s
            reach[fold[v]] = reach[v] * (1.0 - s)
        for v in range(k - 1, -1, -1):
            p = actor[v]
            if p < 0:
                t = term[v]
                if n_members[t] == 2:  # heads-up: the class table's exact outcome
                    ca = cls[d, members[t, 0]]
                    cb = cls[d, members[t, 1]]
                    pw = win[ca, cb]
                    pt = tie[ca, cb]
                    pl = 1.0 - pw - pt
                    for q in range(n):
                        val[v, q] = pw * payoff[t, 4, q] + pl * payoff[t, 1, q] + \
                            pt * payoff[t, 0, q]
                    continue
                code = 0
                mult = 1
                for i in range(n_members[t]):
                    si = strength[d, members[t, i]]
                    above = 0
                    for j in range(n_members[t]):
                        if strength[d, members[t, j]] > si:
                            above += 1
                    code += above * mult
                    mult *= 4
                for q in range(n):
                    val[v, q] = payoff[t, code, q]
                continue
            s = sig[v]
            a = act[v]
            f = fold[v]
            for q in range(n):
                val[v, q] = s * val[a, q] + (1.0 - s) * val[f, q]
            c = cls[d, p]
            qa[ctx[v], c] += reach[v] * val[a, p]
            qf[ctx[v], c] += reach[v] * val[f, p]
        for q in range(n):
            root[q] += val[0, q]
