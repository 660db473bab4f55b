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
        for i in range(n):
            gx[i] = a[i]
        for j in range(m):
            yj = y[j]
            for i in range(n):
                gx[i] += GT[j, i] * yj
        for i in range(n):
            u = x[i] * gx[i]
            rx1[i] = max(rx1[i] + gx[i] - u, 0.0)
            rx0[i] = max(rx0[i] - u, 0.0)
            d = rx1[i] + rx0[i]
            x[i] = rx1[i] / d if d > 0 else 0.5
            sx[i] += t * x[i]
        for j in range(m):
            hy[j] = b[j]
        for i in range(n):
            xi = x[i]
            for j in range(m):
                hy[j] += G[i, j] * xi
        for j in range(m):
            val = -hy[j]  # the second player's gain from action 1
            u = y[j] * val
            ry1[j] = max(ry1[j] + val - u, 0.0)
            ry0[j] = max(ry0[j] - u, 0.0)
            d = ry1[j] + ry0[j]
            y[j] = ry1[j] / d if d > 0 else 0.5
            sy[j] += t * y[j]
        wsum += t
    for i in range(n):
        x_avg[i] = sx[i] / wsum
    for j in range(m):
        y_avg[j] = sy[j] / wsum
