"""simulate._kernels.rng: the wyrand streams, the exactly uniform deals and the weighted
combo-tuple draw.

* The generator is wyrand, checked against a pure-Python version; the 128-bit multiply it
  and the draws use against Python's integers; the streams' first states are SplitMix64's
  scramble (its published first outputs, and a pure-Python version on random values).
* Five draws from one output: the kernel's draws are the mixed-radix digits of one
  multiply-shift draw below the product of the bounds, with Lemire's rejection (a
  pure-Python model of that on Python integers gives the same draws and states).
* Streams: a seed and a block give one stream, the same on every call; different blocks and
  seeds give different streams whose first outputs look independent (bit balance), so a
  block's numbers do not depend on which thread runs it (a seeded equity is the same on 1
  and 2 threads).
* The deal: every ordered deal of ``k`` from ``m`` equally likely (chi-square against the
  uniform), with a bound that a classic biased shuffle fails on the same number of deals,
  so the test can fail; :func:`pick5` reads the same cards :func:`deal` swaps in place.
* The unordered deal (Floyd's sampling): every set of ``k`` from ``m`` equally likely, for
  every ``k`` from 0 to 5, never a repeated position.
* The tuple draw: the joint frequencies of two players' combos equal the product of their
  weights over the card-disjoint pairs only (exact card removal).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import simulate._kernels.rng as R
from evaluator._jit import serial

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
#: Chi-square tail probability below which a deal is called biased: a correct deal fails
#: one such test in a million runs (the seeds are fixed, so in practice never).
ALPHA = 1e-6


def py_mix64(z: int) -> int:
    """SplitMix64's finaliser in plain Python integers."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


W0 = 0xA0761D6478BD642F
W1 = 0xE7037ED1A0B428DB


def py_wyrand(state: int) -> tuple[int, int]:
    """One step of wyrand in plain Python integers: (new state, output)."""
    state = (state + W0) & MASK
    t = state * (state ^ W1)
    return state, (t >> 64) ^ (t & MASK)


def test_splitmix64_published_outputs():
    # SplitMix64 seeded with 0: the reference implementation's first three outputs, from the
    # scramble the streams' first states use
    want = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    got = [int(R.mix64(np.uint64((GOLDEN * i) & MASK))) for i in (1, 2, 3)]
    assert got == want


def test_wyrand_matches_plain_python():
    for start in (0, 1, GOLDEN, MASK):
        state, py = np.uint64(start), start
        for _ in range(200):
            state, v = R.next_u64(np.uint64(state))
            py, want = py_wyrand(py)
            assert (int(state), int(v)) == (py, want)


def test_mul128_is_the_full_product():
    @serial(cache=False)
    def halves(a, b):
        return R.mul128(a, b)

    rng = np.random.default_rng(4)
    pairs = [(0, 0), (MASK, MASK), (MASK, 2), (1 << 63, 3)]
    pairs += [tuple(x) for x in rng.integers(0, 2**64, size=(300, 2), dtype=np.uint64).tolist()]
    for a, b in pairs:
        hi, lo = halves(np.uint64(a), np.uint64(b))
        assert (int(hi), int(lo)) == divmod(a * b, 1 << 64)


def py_draw5(state: int, bounds: list[int]) -> tuple[int, list[int]]:
    """The five draws as one multiply-shift draw of a number below the product of the bounds
    (Lemire's rejection of the low part), split into its mixed-radix digits (the first bound
    most significant)."""
    p = math.prod(bounds)
    while True:
        state, u = py_wyrand(state)
        big, low = divmod(u * p, 1 << 64)
        if low >= (1 << 64) % p:
            digits = []
            for b in reversed(bounds):
                big, r = divmod(big, b)
                digits.append(r)
            return state, digits[::-1]


@pytest.mark.parametrize("m,k", [(48, 5), (45, 2), (52, 1), (4096, 5), (9, 3)])
def test_draw5_is_one_multiply_shift_draw_split_into_digits(m, k):
    mul = np.empty(5, np.uint64)
    thr = np.empty(5, np.uint64)
    R.deal_setup(m, k, mul, thr)
    bounds = [int(x) for x in mul]
    assert int(thr[0]) == (1 << 64) % math.prod(bounds) and thr[1:].sum() == 0
    rng = np.random.default_rng(m + k)
    for start in rng.integers(0, 2**64, size=300, dtype=np.uint64).tolist():
        got = R.draw5(np.uint64(start), mul, thr, 0)
        st, want = py_draw5(start, bounds)
        assert [int(x) for x in got] == [st] + want


def test_draw5_rejects_exactly_the_biased_outputs():
    # bounds whose product is a large share of 2**64, so rejections are common enough to
    # see: the kernel throws away exactly the outputs whose low part is below 2**64 mod p
    mul = np.array([4093, 4091, 4079, 4073, 4057], np.uint64)
    thr = np.zeros(5, np.uint64)
    R._thresholds(mul, thr)
    bounds = [int(x) for x in mul]
    rejected = 0
    state = 12345
    for _ in range(2000):
        got = R.draw5(np.uint64(state), mul, thr, 0)
        st, want = py_draw5(state, bounds)
        assert [int(x) for x in got] == [st] + want
        rejected += st != py_wyrand(state)[0]
        state = st
    assert rejected > 0


def test_mix64_matches_plain_python():
    rng = np.random.default_rng(1)
    for z in rng.integers(0, 2**63, size=200, dtype=np.uint64).tolist() + [0, 1, MASK]:
        assert int(R.mix64(np.uint64(z))) == py_mix64(z)


def test_stream_state_is_a_function_of_seed_and_block():
    for seed, block in [(0, 0), (1, 0), (0, 1), (2**64 - 1, 12345)]:
        a = int(R.stream_state(np.uint64(seed), block))
        assert a == int(R.stream_state(np.uint64(seed), block))
        g = GOLDEN
        assert a == py_mix64(py_mix64(seed) ^ py_mix64((block * g + g) & MASK))


def test_streams_of_blocks_and_seeds_differ_and_look_independent():
    n = 4096
    firsts = []
    for seed in (0, 1):
        for b in range(n):
            _, v = R.next_u64(np.uint64(R.stream_state(np.uint64(seed), b)))
            firsts.append(int(v))
    assert len(set(firsts)) == len(firsts)  # no two streams start alike
    bits = np.array([[(v >> k) & 1 for k in range(64)] for v in firsts])
    # every bit of the first output is 1 in half the streams: 5 sigma of a fair coin
    m = len(firsts)
    assert np.all(np.abs(bits.sum(axis=0) - m / 2) < 5 * math.sqrt(m) / 2)
    # neighbouring blocks are not correlated bit by bit
    same = (bits[:n - 1] == bits[1:n]).mean(axis=0)
    assert np.all(np.abs(same - 0.5) < 5 * 0.5 / math.sqrt(n - 1))


def _deal_counts(seed: int, m: int, k: int, n: int, biased: bool) -> np.ndarray:
    """Deal ``k`` of ``m`` cards ``n`` times from one stream; count each ordered deal (an
    index in base m). ``biased``: the classic wrong shuffle instead (position i swapped with
    any of the m positions), for the test's power."""
    mul = np.empty(((k + 4) // 5) * 5, np.uint64)
    thr = np.empty_like(mul)
    R.deal_setup(m, k, mul, thr)
    counts = np.zeros(m ** k, np.int64)
    state = np.uint64(R.stream_state(np.uint64(seed), 0))
    start = np.arange(m)
    place = m ** np.arange(k - 1, -1, -1)
    for _ in range(n):
        d = start.copy()
        if biased:
            for i in range(k):
                state, v = R.next_u64(state)
                state = np.uint64(state)
                j = int(v) % m
                d[i], d[j] = d[j], d[i]
        else:
            state = np.uint64(R.deal(state, d, 0, k, mul, thr))
        counts[int(d[:k] @ place)] += 1
    return counts


def _chi2_sf(stat: float, dof: int) -> float:
    """The chi-square survival function (scipy's, imported here: importing scipy.stats takes
    about 1.5 s, which every test process would pay while collecting)."""
    from scipy.stats import chi2

    return float(chi2.sf(stat, dof))


def _chi2_p(counts: np.ndarray, m: int, k: int) -> float:
    """Chi-square p-value of ``counts`` (indexed as in :func:`_deal_counts`) against every
    ordered deal of k distinct cards from m being equally likely (other cells must be 0)."""
    cells = [sum(c * m ** (k - 1 - i) for i, c in enumerate(p))
             for p in itertools.permutations(range(m), k)]
    assert counts.sum() == counts[cells].sum()  # never a repeated card
    obs = counts[cells].astype(np.float64)
    exp = obs.sum() / len(cells)
    return _chi2_sf(((obs - exp) ** 2 / exp).sum(), len(cells) - 1)


@pytest.mark.parametrize("m,k,n", [(4, 4, 24_000), (6, 2, 15_000), (7, 3, 42_000),
                                   (9, 2, 14_400)])
def test_deal_is_uniform_and_a_biased_deal_fails_the_same_test(m, k, n):
    assert _chi2_p(_deal_counts(7, m, k, n, False), m, k) > ALPHA
    if k == m:  # the wrong shuffle is biased on full permutations
        assert _chi2_p(_deal_counts(7, m, k, n, True), m, k) < ALPHA


def test_deal_fills_every_position_of_a_deck_uniformly():
    # 48 cards left, 5 dealt (a flop to river runout): each card lands in each of the five
    # positions equally often
    n, m, k = 24_000, 48, 5
    mul = np.empty(5, np.uint64)
    thr = np.empty(5, np.uint64)
    R.deal_setup(m, k, mul, thr)
    got = np.zeros((k, m), np.int64)
    state = np.uint64(R.stream_state(np.uint64(3), 5))
    for _ in range(n):
        d = np.arange(m)
        state = np.uint64(R.deal(state, d, 0, k, mul, thr))
        got[np.arange(k), d[:k]] += 1
    exp = n / m
    stat = ((got - exp) ** 2 / exp).sum()
    assert _chi2_sf(stat, k * (m - 1)) > ALPHA


def _pick_vs_deal(m: int, n: int) -> int:
    """Deals where :func:`pick5` (reading the deck) and :func:`deal` (swapping it in place)
    disagree, from the same draws."""
    mul = np.empty(5, np.uint64)
    thr = np.empty(5, np.uint64)
    R.deal_setup(m, 5, mul, thr)
    state = np.uint64(R.stream_state(np.uint64(11), 0))
    base = np.arange(m)[::-1].copy()
    bad = 0
    for _ in range(n):
        s2, *r = R.draw5(state, mul, thr, 0)
        c = R.pick5(base, base[0], base[1], base[2], base[3], *r)
        d = base.copy()
        s3 = R.deal(state, d, 0, 5, mul, thr)
        state = np.uint64(s2)
        bad += int(s3) != int(s2) or list(c) != d[:5].tolist()
    return bad


@pytest.mark.parametrize("m", [5, 6, 45, 48])
def test_pick5_reads_the_cards_deal_swaps_in(m):
    assert _pick_vs_deal(m, 3_000) == 0


def _set_counts(seed: int, m: int, k: int, n: int) -> np.ndarray:
    """Deal ``k`` of ``m`` positions ``n`` times by the unordered deal; count each set (a
    bit set), checking the positions past ``k`` are never read."""
    sp = R.subset_params(m, k)
    assert [int(x) for x in sp[1:6]] == [m - k + 1 + i if i < k else 1 for i in range(5)]
    assert int(sp[0]) == m - k
    counts = np.zeros(1 << m, np.int64)
    state = np.uint64(R.stream_state(np.uint64(seed), 0))
    for _ in range(n):
        state, *q = R.draw_set5(np.uint64(state), sp)
        bits = 0
        for x in q[:k]:
            assert 0 <= int(x) < m
            bits |= 1 << int(x)
        counts[bits] += 1
    return counts


@pytest.mark.parametrize("m,k,n", [(9, 5, 25_200), (8, 4, 14_000), (7, 3, 7_000),
                                   (9, 2, 7_200), (6, 1, 3_000), (5, 0, 100)])
def test_unordered_deal_is_uniform_over_sets(m, k, n):
    counts = _set_counts(11, m, k, n)
    sizes = np.array([bin(b).count("1") for b in range(1 << m)])
    assert counts[sizes != k].sum() == 0  # k distinct positions every time
    cells = counts[sizes == k].astype(np.float64)
    assert len(cells) == math.comb(m, k)
    if len(cells) > 1:
        exp = n / len(cells)
        assert _chi2_sf(((cells - exp) ** 2 / exp).sum(), len(cells) - 1) > ALPHA


def test_unordered_deal_order_is_not_uniform():
    # why the ordered deal stays where order means something: Floyd's last step takes the
    # top position whenever its draw is already taken, so 0..m-1's top card comes last far
    # more often than 1 time in k
    sp = R.subset_params(10, 5)
    state = np.uint64(R.stream_state(np.uint64(2), 0))
    last_is_top = 0
    n = 5000
    for _ in range(n):
        state, *q = R.draw_set5(np.uint64(state), sp)
        last_is_top += int(q[4]) == 9
    assert last_is_top / n > 0.4  # a uniform order: 1/10


def test_draw5_draws_stay_in_range_and_use_every_value():
    m = 45
    mul = np.empty(5, np.uint64)
    thr = np.empty(5, np.uint64)
    R.deal_setup(m, 5, mul, thr)
    assert mul.tolist() == [45, 44, 43, 42, 41]
    seen = [set() for _ in range(5)]
    state = np.uint64(99)
    for _ in range(3000):
        state, *r = R.draw5(np.uint64(state), mul, thr, 0)
        for i, v in enumerate(r):
            seen[i].add(int(v))
    assert [sorted(s) for s in seen] == [list(range(m - i)) for i in range(5)]


def _tuple_counts(cdf: np.ndarray, ncombo: np.ndarray, cards: np.ndarray, n: int
                  ) -> tuple[np.ndarray, int]:
    counts = np.zeros((ncombo[0], ncombo[1]), np.int64)
    skip = np.zeros(2, np.bool_)
    idx = np.zeros(2, np.int64)
    state = np.uint64(R.stream_state(np.uint64(5), 0))
    rejected = 0
    for _ in range(n):
        state, _used, rej = R.draw_tuple(state, cdf, ncombo, cards, skip, np.int64(0), idx,
                                         1000)
        state = np.uint64(state)
        rejected += rej
        counts[idx[0], idx[1]] += 1
    return counts, rejected


def test_draw_tuple_is_exact_card_removal():
    # player 0: AhKh (w 1), AhQh (w 2), 2c2d (w 3); player 1: AhAs (w 1), KhKs (w 1), QsJs (w 2)
    from evaluator.cards import parse_cards

    combos = [["AhKh", "AhQh", "2c2d"], ["AhAs", "KhKs", "QsJs"]]
    weights = np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 2.0]])
    cards = np.array([[parse_cards(c) for c in row] for row in combos], np.uint8)
    cdf = np.cumsum(weights, axis=1)
    n = 30_000
    counts, rejected = _tuple_counts(cdf, np.array([3, 3], np.int64), cards, n)
    want = np.zeros((3, 3))
    for i, j in itertools.product(range(3), range(3)):
        if not set(cards[0, i]) & set(cards[1, j]):
            want[i, j] = weights[0, i] * weights[1, j]
    assert np.array_equal(counts == 0, want == 0)  # conflicting pairs never drawn
    assert rejected > 0
    p = want[want > 0] / want.sum()
    obs = counts[want > 0]
    assert _chi2_sf(((obs - n * p) ** 2 / (n * p)).sum(), len(p) - 1) > ALPHA
    # drawing player 0 alone and rejecting would be biased: the marginal of AhKh is not w/6
    assert abs(counts[0].sum() / n - 1 / 6) > 0.02


def test_seeded_monte_carlo_does_not_depend_on_the_thread_count():
    from simulate import equity

    one = equity(["AhKh", "QsQd", "7c7d"], "Ks8h2c", samples=300_000, seed=42, threads=1)
    two = equity(["AhKh", "QsQd", "7c7d"], "Ks8h2c", samples=300_000, seed=42, threads=2)
    assert [p.to_dict() for p in one.players] == [p.to_dict() for p in two.players]
    other = equity(["AhKh", "QsQd", "7c7d"], "Ks8h2c", samples=300_000, seed=43, threads=1)
    assert [p.equity for p in other.players] != [p.equity for p in one.players]
