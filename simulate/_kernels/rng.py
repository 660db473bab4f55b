"""Random streams and the draws every Monte Carlo kernel shares (wyrand).

A Monte Carlo run is cut into fixed-size *blocks* (:mod:`simulate.sampling`); block ``b``
of a run with seed ``s`` draws from its own stream ``stream_state(s, b)``, so the numbers a
block sees do not depend on which thread runs it, and a seed gives the same answer on any
thread count. States are ``uint64`` scalars; ``next_u64`` returns the new state and a
64-bit output.

The generator is wyrand (Wang Yi's: the state steps by an odd constant, the output is the
xor of the two halves of the 128-bit product ``state * (state ^ c)``), one multiply per
output; a stream's first state is SplitMix64's finaliser (:func:`mix64`) of the seed and the
block. It replaced SplitMix64's output function (two multiplies and three shifts) in the
heads-up Monte Carlo loop: 8.8 -> 7.7 ns a deal, measured side by side (the seeded answers
changed with it; every draw below is still exactly uniform).

The draws, one of each for every engine:

* **Five bounded draws from one output.** :func:`draw5` multiplies the 64-bit output by
  the five bounds in turn, each 128-bit product's high half a draw and its low half the
  fraction for the next (Brackett-Rozinsky and Lemire's batched ranged draws): together
  this is one multiply-shift draw of a number below the product of the bounds, whose
  mixed-radix digits are the five draws, so rejecting the output when the last low half
  falls below ``2**64 mod product`` (odds below 1 in 10**10 for a 52-card deck) makes the
  five exactly uniform and independent. The bounds and thresholds come from
  :func:`deal_setup` (arrays, for :func:`draw5`) or :func:`subset_params` (scalars, for
  :func:`draw5_of`).
* **The ordered deal.** Dealing ``k`` cards from ``m`` in order is a partial Fisher-Yates
  shuffle: card ``i`` swaps position ``i`` with ``i + r_i``, ``r_i`` uniform in
  ``0..m-i-1`` (:func:`deal_setup`). :func:`pick5` reads the five dealt cards of a deck
  without writing it (the swaps tracked in registers: writing the deck made each deal wait
  on the previous deal's stores), :func:`deal` does the same swaps in place for any ``k``
  (groups of five). Both give the same cards from the same draws. Every ordered sequence of
  ``k`` cards is equally likely: use it where the order means something (hole cards then
  board, the flop before the turn).
* **The unordered deal.** :func:`draw_set5` is Floyd's subset sampling (:func:`pick_set5`)
  on the draws of :func:`subset_params`: every set of ``k`` positions equally likely, in
  fewer steps than the ordered deal (a bit set instead of tracked swaps), but the order of
  the ``k`` is not uniform. Use it for a runout scored as a set (a board's strength does
  not depend on which card came first).
* **The weighted combo-tuple draw** (ranges): :func:`draw_tuple` draws every player's combo
  by weight, all together, and draws the whole tuple again when two combos share a card, so
  card removal is exact (no bias towards combos that conflict less).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from evaluator._jit import inline, serial

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_W0 = np.uint64(0xA0761D6478BD642F)  # wyrand's step
_W1 = np.uint64(0xE7037ED1A0B428DB)  # and the constant its output mixes in
_U0, _U1, _U2, _U3, _U4 = (np.uint64(i) for i in range(5))
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@intrinsic
def mul128(typingctx, a, b):
    """``(high, low)``: the two uint64 halves of the 128-bit product of two uint64s (one
    machine multiply)."""
    sig = types.UniTuple(types.uint64, 2)(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        wide = ir.IntType(128)
        p = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        hi = builder.trunc(builder.lshr(p, ir.Constant(wide, 64)), ir.IntType(64))
        lo = builder.trunc(p, ir.IntType(64))
        return context.make_tuple(builder, signature.return_type, [hi, lo])

    return sig, codegen


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
    """``(new_state, value)``: one step of wyrand (both uint64)."""
    state = np.uint64(state) + _W0
    hi, lo = mul128(state, state ^ _W1)
    return state, hi ^ lo


@serial
def deal_setup(m, k, mul, thr):
    """Fill ``mul``, ``thr`` (uint64[>= k rounded up to a multiple of 5]) for the ordered
    deal of ``k`` cards from ``m`` (``k <= m <= 4096``): draw ``i`` is uniform in
    ``0..m-i-1`` (``mul[i] = m - i``); past ``k`` the draws are 0 (``mul = 1``). ``thr``:
    :func:`_thresholds`."""
    for i in range(mul.shape[0]):
        mul[i] = np.uint64(m - i) if i < k else _U1
    _thresholds(mul, thr)


@serial
def subset_params(m, k):
    """The unordered deal of ``k`` (0..5) cards from ``m`` (``k <= m <= 59``), as the tuple
    of seven uint64 that :func:`draw_set5` takes: ``j0 = m - k``, the five bounds (draw
    ``i`` uniform in ``0..m-k+i``, Floyd's step ``i``; 0 past ``k``) and the threshold."""
    mul = np.empty(5, np.uint64)
    thr = np.empty(5, np.uint64)
    for i in range(5):
        mul[i] = np.uint64(m - k + 1 + i) if i < k else _U1
    _thresholds(mul, thr)
    return np.uint64(m - k), mul[0], mul[1], mul[2], mul[3], mul[4], thr[0]


@serial
def _thresholds(mul, thr):
    """``thr[g] = 2**64 mod (mul[g] * .. * mul[g + 4])`` for each group of five draws
    (``g`` a multiple of 5; the other entries 0): :func:`draw5` throws away an output whose
    last low half is below it."""
    for g in range(0, mul.shape[0], 5):
        p = _U1
        for i in range(g, g + 5):
            p *= mul[i]
            thr[i] = _U0
        thr[g] = (_ALL % p + _U1) % p


@inline
def draw5(state, mul, thr, o):
    """``(state, r0, .., r4)``: five independent exactly uniform draws, ``r_i`` (uint64) in
    ``0..mul[o + i] - 1`` (``mul``, ``thr`` from :func:`deal_setup`), from one output of the
    stream (another when it is rejected; see the module docstring). Inlined into its
    callers: compiled as a function of its own and called, it cost the heads-up Monte Carlo
    loop 3.7 ns a deal (of 11)."""
    return draw5_of(state, mul[o], mul[o + 1], mul[o + 2], mul[o + 3], mul[o + 4], thr[o])


@inline
def draw5_of(state, m0, m1, m2, m3, m4, t):
    """:func:`draw5` with the five bounds and the threshold as scalars (uint64), for a loop
    that keeps them in registers (read from arrays, they are loaded again on every deal:
    the compiler cannot tell the loop's stores do not change them)."""
    while True:
        state, z = next_u64(state)
        r0, z = mul128(z, m0)
        r1, z = mul128(z, m1)
        r2, z = mul128(z, m2)
        r3, z = mul128(z, m3)
        r4, z = mul128(z, m4)
        if z >= t:
            return state, r0, r1, r2, r3, r4


@inline
def draw_set5(state, sp):
    """``(state, q0, .., q4)``: the unordered deal of :func:`subset_params` ``sp``, as deck
    positions (uint64): the first ``k`` are a uniformly random set of ``k`` distinct
    positions in ``0..m-1``; the others are not to be used."""
    u = np.uint64  # no-ops in a kernel; from the interpreter the tuple holds Python ints
    state, r0, r1, r2, r3, r4 = draw5_of(u(state), u(sp[1]), u(sp[2]), u(sp[3]), u(sp[4]),
                                         u(sp[5]), u(sp[6]))
    q0, q1, q2, q3, q4 = pick_set5(u(sp[0]), r0, r1, r2, r3, r4)
    return state, q0, q1, q2, q3, q4


@inline
def pick_set5(j0, r0, r1, r2, r3, r4):
    """Floyd's sampling: positions ``(q0, .., q4)`` (uint64) from the draws of
    :func:`subset_params` with ``j0 = m - k``. Step ``i`` has drawn ``r_i`` in ``0..j0+i``
    and takes it, or ``j0 + i`` when ``r_i`` is already taken (a 64-bit set); after ``k``
    steps every set of ``k`` positions in ``0..m-1`` is equally likely. The steps past
    ``k`` give positions the caller does not use.
    """
    s = _U1 << r0
    q1 = r1 if (s >> r1) & _U1 == _U0 else j0 + _U1
    s |= _U1 << q1
    q2 = r2 if (s >> r2) & _U1 == _U0 else j0 + _U2
    s |= _U1 << q2
    q3 = r3 if (s >> r3) & _U1 == _U0 else j0 + _U3
    s |= _U1 << q3
    q4 = r4 if (s >> r4) & _U1 == _U0 else j0 + _U4
    return r0, q1, q2, q3, q4


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
    j1 = _U1 + r1
    c1 = d[j1]
    c1 = v0 if j1 == j0 else c1
    v1 = v0 if j0 == _U1 else d1
    j2 = _U2 + r2
    c2 = d[j2]
    c2 = v0 if j2 == j0 else c2
    c2 = v1 if j2 == j1 else c2
    v2 = v0 if j0 == _U2 else d2
    v2 = v1 if j1 == _U2 else v2
    j3 = _U3 + r3
    c3 = d[j3]
    c3 = v0 if j3 == j0 else c3
    c3 = v1 if j3 == j1 else c3
    c3 = v2 if j3 == j2 else c3
    v3 = v0 if j0 == _U3 else d3
    v3 = v1 if j1 == _U3 else v3
    v3 = v2 if j2 == _U3 else v3
    j4 = _U4 + r4
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
        _swap(d, a, a + np.int64(r0))
        if g + 1 < k:
            _swap(d, a + 1, a + 1 + np.int64(r1))
        if g + 2 < k:
            _swap(d, a + 2, a + 2 + np.int64(r2))
        if g + 3 < k:
            _swap(d, a + 3, a + 3 + np.int64(r3))
        if g + 4 < k:
            _swap(d, a + 4, a + 4 + np.int64(r4))
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
