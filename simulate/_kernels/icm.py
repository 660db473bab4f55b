"""Malmuth-Harville ICM kernels (private; the public layer is :mod:`simulate.icm`).

The model: the first place goes to player ``i`` with probability ``s_i / S`` (its share of
the chips), the next place among the players left the same way, and so on. Two exact
methods, both taking only players with chips (``stacks`` float64[n], every entry > 0) and
the paid places (``payouts`` float64[m], 1 <= m <= n):

* :func:`icm_subsets` walks the sets of players that have taken the first places
  (``prob[T]`` = the chance that exactly the players in ``T`` took places ``1..|T|``), every
  set once: ``O(2**n * n)`` time and ``2**n`` floats of memory, for small fields.
* :func:`icm_integral` uses the equivalent race: each player finishes at an independent
  exponential time of rate ``s_i`` (so the first to finish is ``i`` with probability
  ``s_i / S``, and by memorylessness the rest follow the same rule), places counted from the
  first to finish. Player ``i`` takes place ``k`` when exactly ``k - 1`` others finished
  before it::

      E_i = integral over t of  s_i e^(-s_i t) sum_k pay_k [z^(k-1)] prod_(j != i) (a_j + b_j z)

  with ``a_j = e^(-s_j t)``, ``b_j = 1 - a_j``. At each quadrature node the product over all
  players is formed once (truncated to the paid places) and player ``i``'s own factor divided
  out: from the low end when ``b_i <= a_i``, from the high end when ``a_i < b_i`` and every
  place is paid (the whole product is then kept), and otherwise (a player likely to have
  finished, few places paid) by multiplying the prefix and suffix products of the others;
  each division is the stable direction. ``O(nodes * n * m)``. The nodes: Gauss-Legendre on
  ``[0, 1/4]`` and on intervals growing by ``ratio`` (stacks scaled to sum to 1) until nobody
  can still take a paid place.
"""

from __future__ import annotations

import numpy as np

from evaluator._jit import serial


@serial
def icm_subsets(stacks, payouts, out):
    """Exact ICM by the subset walk: adds each player's expected prize to ``out``
    (float64[n]). ``stacks`` float64[n] (> 0, n <= 25), ``payouts`` float64[m], m <= n."""
    n = stacks.shape[0]
    m = payouts.shape[0]
    total = 0.0
    for i in range(n):
        total += stacks[i]
    size = np.int64(1) << n
    prob = np.zeros(size, np.float64)
    taken = np.zeros(size, np.float64)  # chips of the players in the set
    count = np.zeros(size, np.int8)
    prob[0] = 1.0
    for mask in range(size):
        p = prob[mask]
        if p == 0.0:
            continue
        k = count[mask]
        rest = total - taken[mask]
        if rest < total * (1.0 / 1024):
            # Little left in play: the difference keeps only rest / total of the digits
            # (2e6 + 0.01 - 2e6 is 0.01 only to 1e-7), so sum what is left afresh.
            rest = 0.0
            for j in range(n):
                if not mask & (np.int64(1) << j):
                    rest += stacks[j]
        for j in range(n):
            bit = np.int64(1) << j
            if mask & bit:
                continue
            q = p * stacks[j] / rest
            out[j] += q * payouts[k]
            if k + 1 < m:
                nxt = mask | bit
                if prob[nxt] == 0.0:
                    taken[nxt] = taken[mask] + stacks[j]
                    count[nxt] = k + 1
                prob[nxt] += q


@serial
def _divide_out(idx, n_idx, div, mul, p, payouts, k0, step, n_k, pay_at, wt, s, a, ga, gb,
                prev, val, acc):
    """Divide the factor ``a[j] + b[j] z`` of players ``idx[:n_idx]`` out of the place
    polynomial ``p`` by the recurrence ``q = (p_k - mul q) / div`` over ``k = k0 + step * t``,
    ``t < n_k`` (``div``/``mul``: ``a``/``b`` from the low end, ``b``/``a`` from the high
    end), each term paying ``payouts[k + pay_at]``; adds ``wt * s[j] * a[j]`` times the sum
    to ``acc[j]``. ``ga``, ``gb``, ``prev``, ``val``: float64 scratch of ``n_idx`` or more."""
    for r in range(n_idx):
        j = idx[r]
        ga[r] = 1.0 / div[j]
        gb[r] = mul[j]
        prev[r] = 0.0
        val[r] = 0.0
    for t in range(n_k):
        k = k0 + step * t
        pk = p[k]
        pay = payouts[k + pay_at]
        for r in range(n_idx):
            cur = (pk - gb[r] * prev[r]) * ga[r]
            val[r] += pay * cur
            prev[r] = cur
    for r in range(n_idx):
        j = idx[r]
        acc[j] += wt * s[j] * a[j] * val[r]

@serial
def icm_integral(stacks, payouts, gl_x, gl_w, width, out):
    """Exact ICM by the race integral (module docstring): adds each player's expected prize
    to ``out`` (float64[n]). ``stacks`` float64[n] (> 0), ``payouts`` float64[m] (m <= n);
    ``gl_x``, ``gl_w`` float64[K]: Gauss-Legendre nodes and weights on [-1, 1]; ``width``:
    the most standard deviations of the number of finished players an interval may span
    (intervals of ``t`` also grow at most twofold). Returns the number of nodes used."""
    n = stacks.shape[0]
    m = payouts.shape[0]
    total = 0.0
    for i in range(n):
        total += stacks[i]
    s = np.zeros(n, np.float64)
    s_min = 1.0
    for i in range(n):
        s[i] = stacks[i] / total
        if s[i] < s_min:
            s_min = s[i]
    full = m == n  # every place paid: keep the whole product (degree n)
    ln = n + 1 if full else m
    p = np.zeros(ln, np.float64)
    p2 = np.zeros(ln, np.float64)
    a = np.zeros(n, np.float64)
    b = np.zeros(n, np.float64)
    # the players split by the direction their factor is divided out: gathered copies
    lo_i = np.zeros(n, np.int64)
    hi_i = np.zeros(n, np.int64)
    ga = np.zeros(n, np.float64)  # 1 / a (low end) or 1 / b (high end)
    gb = np.zeros(n, np.float64)  # b (low end) or a (high end)
    prev = np.zeros(n, np.float64)
    val = np.zeros(n, np.float64)
    pre = np.zeros(ln, np.float64)
    suf = np.zeros((n + 1, ln), np.float64)
    acc = np.zeros(n, np.float64)
    t_end = 45.0 / s_min  # e^-45: nobody is still in the race
    lo = 0.0
    hi = 0.25
    nodes = 0
    while lo < t_end:
        # the interval [lo, hi] spans at most `width` standard deviations of the number
        # of finished players (the integrand's finest detail) and at most doubles t
        rate = 0.0
        var = 0.0
        for j in range(n):
            e = np.exp(-s[j] * lo)
            rate += s[j] * e
            var += e * (1.0 - e)
        step = width * np.sqrt(var + 1.0) / rate
        if lo > 0.0 and lo + step < hi:
            hi = lo + step
        half = 0.5 * (hi - lo)
        mid = 0.5 * (hi + lo)
        alive = 0.0  # chance that fewer than m players have finished, at the last node
        for g in range(gl_x.shape[0]):
            t = mid + half * gl_x[g]
            wt = half * gl_w[g]
            nodes += 1
            for k in range(ln):
                p[k] = 0.0
            p[0] = 1.0
            deg = 0
            unstable = False
            n_lo = 0
            n_hi = 0
            for j in range(n):
                x = s[j] * t
                if x < 0.5:
                    b[j] = -np.expm1(-x)
                    a[j] = 1.0 - b[j]
                else:
                    a[j] = np.exp(-x)
                    b[j] = 1.0 - a[j]
                if b[j] <= a[j]:
                    lo_i[n_lo] = j
                    n_lo += 1
                else:
                    hi_i[n_hi] = j
                    n_hi += 1
                    unstable = unstable or not full
                top = deg + 1 if deg + 1 < ln else ln - 1
                aj = a[j]
                bj = b[j]
                p2[0] = p[0] * aj
                for k in range(1, top + 1):
                    p2[k] = p[k] * aj + p[k - 1] * bj
                for k in range(top + 1):
                    p[k] = p2[k]
                deg = top
            if g == gl_x.shape[0] - 1:
                alive = 0.0
                for k in range(m if m < ln else ln):
                    alive += p[k]
            # low end: q_k = (p_k - b q_(k-1)) / a, all such players at once
            _divide_out(lo_i, n_lo, a, b, p, payouts, 0, 1, m, 0, wt, s, a, ga, gb, prev, val,
                        acc)
            if full:  # high end: q_(k-1) = (p_k - a q_k) / b, from q_(n-1) = p_n / b
                _divide_out(hi_i, n_hi, b, a, p, payouts, n, -1, n, -1, wt, s, a, ga, gb, prev,
                            val, acc)
            elif unstable:  # the others' prefix product times their suffix product
                for k in range(ln):
                    suf[n, k] = 0.0
                    pre[k] = 0.0
                suf[n, 0] = 1.0
                pre[0] = 1.0
                for j in range(n - 1, -1, -1):
                    suf[j, 0] = suf[j + 1, 0] * a[j]
                    for k in range(1, ln):
                        suf[j, k] = suf[j + 1, k] * a[j] + suf[j + 1, k - 1] * b[j]
                for j in range(n):
                    if b[j] > a[j]:
                        v = 0.0
                        for k in range(m):
                            c = 0.0
                            for r in range(k + 1):
                                c += pre[r] * suf[j + 1, k - r]
                            v += payouts[k] * c
                        acc[j] += wt * s[j] * a[j] * v
                    for k in range(ln - 1, 0, -1):
                        pre[k] = pre[k] * a[j] + pre[k - 1] * b[j]
                    pre[0] *= a[j]
        lo = hi
        hi = 2.0 * hi
        if not full and alive < 1e-18 and lo > 1.0:
            break
    for i in range(n):
        out[i] += acc[i]
    return nodes
