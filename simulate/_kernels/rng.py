"""Random streams and the draws every Monte Carlo kernel shares (SplitMix64).

A Monte Carlo run is cut into fixed-size *blocks* (:mod:`simulate.sampling`); block ``b``
of a run with seed ``s`` draws from its own stream ``stream_state(s, b)``, so the numbers a
block sees do not depend on which thread runs it, and a seed gives the same answer on any
thread count. States are ``uint64`` scalars; ``next_u64`` returns the new state and a
64-bit output.

The draws, one of each for every engine:

* **The exactly uniform deal.** Dealing ``k`` cards from ``m`` is a partial Fisher-Yates
  shuffle: card ``i`` swaps position ``i`` with ``i + r_i``, ``r_i`` uniform in
  ``0..m-i-1``. :func:`draw5` takes five such ``r_i`` from one 64-bit output (12 bits each,
  Lemire's multiply-shift with rejection, so each is exactly uniform); ``mul``/``thr`` come
  from :func:`deal_setup`. :func:`pick5` reads the five dealt cards of a deck without
  writing it (the swaps tracked in registers: writing the deck made each deal wait on the
  previous deal's stores), :func:`deal` does the same swaps in place for any ``k``
  (groups of five). Both give the same cards from the same draws.
* **The weighted combo-tuple draw** (ranges): :func:`draw_tuple` draws every player's combo
  by weight, all together, and draws the whole tuple again when two combos share a card, so
  card removal is exact (no bias towards combos that conflict less).
"""

from __future__ import annotations

import numpy as np

from evaluator._jit import inline, serial

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)


@serial
def mix64(z):
    """SplitMix64's finaliser: a bijective scramble of a uint64."""
    z = np.uint64(z)
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@serial
def stream_state(seed, block):
    """Initial state (uint64) of stream ``block`` (int >= 0) under ``seed`` (uint64)."""
    return mix64(mix64(np.uint64(seed)) ^ mix64(np.uint64(block) * _GOLDEN + _GOLDEN))


@serial
def next_u64(state):
    """``(new_state, value)``: one step of SplitMix64 (both uint64)."""
    state = state + _GOLDEN
    return state, mix64(state)


_BITS = 12  # bits per draw of draw5: five draws from one 64-bit output
_CHUNK = np.uint64((1 << _BITS) - 1)
_SH1 = np.uint64(_BITS)
_SH2 = np.uint64(2 * _BITS)
_SH3 = np.uint64(3 * _BITS)
_SH4 = np.uint64(4 * _BITS)


@serial
def deal_setup(m, k, mul, thr):
    """Fill ``mul``, ``thr`` (uint64[>= k rounded up to a multiple of 5]) for dealing ``k``
    cards from ``m`` (``k <= m <= 4096``): draw ``i`` is uniform in ``0..m-i-1``, with
    ``thr[i] = 4096 % (m - i)``; past ``k`` the draws are 0 (``mul = 1``, ``thr = 0``)."""
    for i in range(mul.shape[0]):
        if i < k:
            mul[i] = np.uint64(m - i)
            thr[i] = np.uint64((1 << _BITS) % (m - i))
        else:
            mul[i] = np.uint64(1)
            thr[i] = np.uint64(0)


@serial
def draw5(state, mul, thr, o):
    """``(state, r0, .., r4)``: five independent exact uniform draws, ``r_i`` in
    ``0..mul[o + i] - 1`` (``mul``, ``thr`` from :func:`deal_setup`).

    Draw i is multiply-shift on 12-bit chunk i of one SplitMix64 output, rejected (Lemire)
    where the low 12 bits of the product fall below ``thr[o + i]``; then the whole output is
    thrown away and the next one tried, so each accepted ``r_i`` is exactly uniform.
    Rejection odds are below ``sum(thr) / 4096``, about 1% for a 48-card deck.
    """
    m0, m1, m2, m3, m4 = mul[o], mul[o + 1], mul[o + 2], mul[o + 3], mul[o + 4]
    t0, t1, t2, t3, t4 = thr[o], thr[o + 1], thr[o + 2], thr[o + 3], thr[o + 4]
    while True:
        state = state + _GOLDEN
        z = mix64(state)
        p0 = (z & _CHUNK) * m0
        p1 = ((z >> _SH1) & _CHUNK) * m1
        p2 = ((z >> _SH2) & _CHUNK) * m2
        p3 = ((z >> _SH3) & _CHUNK) * m3
        p4 = ((z >> _SH4) & _CHUNK) * m4
        bad = (((p0 & _CHUNK) < t0) | ((p1 & _CHUNK) < t1) | ((p2 & _CHUNK) < t2)
               | ((p3 & _CHUNK) < t3) | ((p4 & _CHUNK) < t4))
        if not bad:
            return (state, np.int64(p0 >> _SH1), np.int64(p1 >> _SH1), np.int64(p2 >> _SH1),
                    np.int64(p3 >> _SH1), np.int64(p4 >> _SH1))


@serial
def pick5(d, d0, d1, d2, d3, r0, r1, r2, r3, r4):
    """Cards 0..4 of a partial Fisher-Yates shuffle of ``d`` swapping i and i + r_i.

    ``d`` (any integer dtype, >= 5 entries) is only read: the card at a position is the
    last one swapped into it, tracked in registers (``v_i``: the card position i held
    before its swap, now at ``j_i``). ``d0..d3`` are ``d[0..3]``, hoisted by the caller.
    """
    j0 = r0
    c0 = d[j0]
    v0 = d0
    j1 = 1 + r1
    c1 = d[j1]
    c1 = v0 if j1 == j0 else c1
    v1 = v0 if j0 == 1 else d1
    j2 = 2 + r2
    c2 = d[j2]
    c2 = v0 if j2 == j0 else c2
    c2 = v1 if j2 == j1 else c2
    v2 = v0 if j0 == 2 else d2
    v2 = v1 if j1 == 2 else v2
    j3 = 3 + r3
    c3 = d[j3]
    c3 = v0 if j3 == j0 else c3
    c3 = v1 if j3 == j1 else c3
    c3 = v2 if j3 == j2 else c3
    v3 = v0 if j0 == 3 else d3
    v3 = v1 if j1 == 3 else v3
    v3 = v2 if j2 == 3 else v3
    j4 = 4 + r4
    c4 = d[j4]
    c4 = v0 if j4 == j0 else c4
    c4 = v1 if j4 == j1 else c4
    c4 = v2 if j4 == j2 else c4
    c4 = v3 if j4 == j3 else c4
    return c0, c1, c2, c3, c4


@inline
def put_drawn(board, at, k, c0, c1, c2, c3, c4):
    """Write the first ``k`` (0..5, ``at + k <= 5``) of the drawn cards ``c0..c4`` (from
    :func:`pick5`) into ``board[at:at + k]``."""
    if k >= 1:
        board[at] = c0
    if k >= 2:
        board[at + 1] = c1
    if k >= 3:
        board[at + 2] = c2
    if k >= 4:
        board[at + 3] = c3
    if k >= 5:
        board[at + 4] = c4


@inline
def deal(state, d, lo, k, mul, thr):
    """Deal ``k`` cards uniformly from ``d[lo:]`` into ``d[lo:lo + k]`` (partial Fisher-Yates
    in place, draws from :func:`draw5`); returns the new state. ``mul``, ``thr``:
    :func:`deal_setup` of ``(d.shape[0] - lo, k)``."""
    for g in range(0, k, 5):
        state, r0, r1, r2, r3, r4 = draw5(state, mul, thr, g)
        a = lo + g
        _swap(d, a, a + r0)
        if g + 1 < k:
            _swap(d, a + 1, a + 1 + r1)
        if g + 2 < k:
            _swap(d, a + 2, a + 2 + r2)
        if g + 3 < k:
            _swap(d, a + 3, a + 3 + r3)
        if g + 4 < k:
            _swap(d, a + 4, a + 4 + r4)
    return state


@inline
def _swap(d, a, b):
    c = d[b]
    d[b] = d[a]
    d[a] = c


@inline
def draw_combo(state, cdf, n):
    """``(state, j)``: ``j`` in ``0..n-1`` with probability proportional to
    ``cdf[j] - cdf[j - 1]`` (``cdf`` float64, cumulative weights); no draw when ``n == 1``."""
    if n == 1:
        return state, 0
    state, u = next_u64(state)
    x = np.float64(u >> np.uint64(11)) * (1.0 / 9007199254740992.0) * cdf[n - 1]
    lo = 0
    hi = n - 1
    while lo < hi:
        mid = (lo + hi) >> 1
        if cdf[mid] > x:
            hi = mid
        else:
            lo = mid + 1
    return state, lo


@inline
def draw_tuple(state, cdf, ncombo, cards, skip, used0, idx, max_tries):
    """Draw one combo per player (``idx`` int64[P] <- indices into ``cards[p]``) by weight,
    all together, again from the start whenever two combos (or a combo and ``used0``, an
    int64 bit set of cards out of the deck) share a card.

    ``cdf`` float64[P, M] cumulative weights, ``ncombo`` int64[P], ``cards`` uint8[P, M, 2],
    ``skip`` bool[P] (players drawn elsewhere, e.g. dealt from the deck). Returns
    ``(state, used, rejected)``: the bit set of used cards and the tuples thrown away, or
    ``rejected = -1`` when ``max_tries`` tuples in a row all conflicted.
    """
    one = np.int64(1)
    rejected = 0
    while True:
        used = used0
        ok = True
        for p in range(ncombo.shape[0]):
            if skip[p]:
                continue
            state, j = draw_combo(state, cdf[p], ncombo[p])
            bits = (one << np.int64(cards[p, j, 0])) | (one << np.int64(cards[p, j, 1]))
            if bits & used:
                ok = False
                break
            used |= bits
            idx[p] = j
        if ok:
            return state, used, rejected
        rejected += 1
        if rejected >= max_tries:
            return state, used, -1


@inline
def to_front(d, pos, c, top):
    """Swap card ``c`` of the deck ``d`` to position ``top`` (``pos``: int64[52], where each
    card of ``d`` is; kept up to date). Dealing known cards this way leaves the cards left in
    ``d[top + 1:]``, ready for :func:`pick5` or :func:`deal`."""
    p = pos[c]
    other = d[top]
    d[p] = other
    pos[other] = p
    d[top] = c
    pos[c] = top


@inline
def cards_left(used, out):
    """Write the cards (0..51, ascending) not in the bit set ``used`` to ``out``
    (uint8[>= 52]); returns how many."""
    n = 0
    for c in range(52):
        if not (used >> c) & 1:
            out[n] = c
            n += 1
    return n
