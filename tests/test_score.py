"""simulate._kernels.score, the one showdown scorer, against the chip-by-chip dealer of
``tests/reference.py`` (:func:`reference.ref_score_rows`).

Rows of strengths with weights go through :func:`score_row` (called row by row) into
each kind of scorer -- all-in pots (nested side pots, and any eligibility with pots of 0
chips), equity (one pot of ``SHARE_UNIT``, with wins, ties and categories), per-block
scorers -- and every total must equal the reference's to the chip. ``settle_kernel`` is
tested in ``test_pots.py``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import SHARE_UNIT, category_of_strength, ref_pots, ref_score_rows

import simulate._kernels.score as S
from evaluator._jit import serial


def _score_all(rows, weights, sc, entry=None):
    """Each row through the compiled :func:`score_row` (or ``entry``: :func:`score_row_any`,
    the entry of kernels that also score hi/lo rows), called from Python, one row a call."""
    for r in range(rows.shape[0]):
        (entry or S.score_row)(rows[r], weights[r], sc)


def _score_blocks(rows, weights, bsc, block_of):
    for r in range(rows.shape[0]):
        S.score_row(rows[r], weights[r], S.scorer_row(bsc, int(block_of[r])))


def _rows(rng: random.Random, n_rows: int, n: int, top: int) -> tuple[np.ndarray, np.ndarray]:
    """Strengths int32[R, n] in 1..top (a small top makes ties common), weights int64[R]."""
    rows = np.array([[rng.randint(1, top) for _ in range(n)] for _ in range(n_rows)], np.int32)
    return rows, np.array([rng.randint(1, 6) for _ in range(n_rows)], np.int64)


@st.composite
def pot_spots(draw):
    """(amounts int64[P], eligible bool[P, L], order int64[L], rng): side pots from random
    commitments (nested, as the engines build them) or any eligibility and amounts
    (zero-chip pots, non-nested sets: the scorer must not assume nesting)."""
    n = draw(st.integers(2, 8))
    rng = random.Random(draw(st.integers(0, 2**32)))
    if draw(st.booleans()):
        committed = [rng.randint(1, draw(st.sampled_from([3, 10, 200]))) for _ in range(n)]
        live = [rng.random() < 0.8 for _ in range(n)]
        live[rng.randrange(n)] = True
        top_live = max(c for c, a in zip(committed, live, strict=True) if a)
        committed = [c if a else min(c, top_live) for c, a in zip(committed, live, strict=True)]
        pots, _ = ref_pots(committed, live)
        amounts = [a for a, _ in pots]
        eligible = [[s in e for s in range(n)] for _, e in pots]
    else:
        n_pots = rng.randint(1, 5)
        amounts = [rng.choice([0, 1, 2, 3, 7, 2520, 10**6 + 1]) for _ in range(n_pots)]
        eligible = [[rng.random() < 0.6 for _ in range(n)] for _ in range(n_pots)]
        for e in eligible:
            e[rng.randrange(n)] = True
    order = list(range(n))
    rng.shuffle(order)
    return (np.array(amounts, np.int64), np.array(eligible, np.bool_),
            np.array(order, np.int64), rng)


@pytest.mark.slow
@given(pot_spots())
def test_pots_scorer_deals_every_chip_as_the_reference(spot):
    amounts, eligible, order, rng = spot
    rows, weights = _rows(rng, 40, eligible.shape[1], rng.choice([2, 4, 7462]))
    sc = S.pots_scorer(amounts, eligible, order, category_of_strength())
    _score_all(rows, weights, sc)
    win, pay, _, _ = ref_score_rows(rows.tolist(), weights.tolist(), amounts.tolist(),
                                    eligible.tolist(), order.tolist())
    assert sc[5].tolist() == win
    assert sc[6].tolist() == pay
    assert sc[6].sum() == int(weights.sum()) * int(amounts[eligible.any(axis=1)].sum())


@given(st.integers(2, 10), st.integers(0, 2**32), st.sampled_from([3, 40, 7462]))
def test_equity_scorer_keeps_shares_wins_ties_and_categories(n, seed, top):
    rng = random.Random(seed)
    rows, weights = _rows(rng, 60, n, top)
    cat_of = category_of_strength()
    sc = S.equity_scorer(n, cat_of)
    _score_all(rows, weights, sc)
    win, pay, stats, cats = ref_score_rows(rows.tolist(), weights.tolist(), [SHARE_UNIT],
                                           [[True] * n], list(range(n)), cat_of.tolist())
    assert sc[5].tolist() == win and sc[6].tolist() == pay
    assert sc[7].tolist() == stats and sc[8].tolist() == cats
    # a k-way split of the equity pot never leaves an odd chip
    assert sum(win[0]) == SHARE_UNIT * int(weights.sum())
    res = np.zeros((n, 3), np.int64)
    cts = np.zeros((n, 9), np.int64)
    S.equity_counts(sc, res, cts)
    assert res.tolist() == [[s[0], s[1], w] for s, w in zip(stats, win[0], strict=True)]
    assert cts.tolist() == cats
    # the entry that also takes hi/lo rows scores a high row as score_row does
    sc_any = S.equity_scorer(n, cat_of)
    _score_all(rows, weights, sc_any, S.score_row_any)
    assert all(np.array_equal(a, b) for a, b in zip(sc, sc_any, strict=True))


def test_equity_share_unit_is_the_reference_unit():
    assert S.SHARE_UNIT == SHARE_UNIT
    split, odd = S.split_tables(np.array([SHARE_UNIT], np.int64), np.ones((1, 10), np.bool_))
    assert odd[0, 1:].tolist() == [0] * 10
    assert split[0, 1:].tolist() == [SHARE_UNIT // k for k in range(1, 11)]


@given(pot_spots())
def test_split_tables_are_quotients_remainders_and_the_subset_flag(spot):
    amounts, eligible, _order, _rng = spot
    split, odd = S.split_tables(amounts, eligible)
    n_pots, n = eligible.shape
    for p in range(n_pots):
        for k in range(1, n + 1):
            assert (split[p, k], odd[p, k]) == divmod(int(amounts[p]), k)
        subset = p > 0 and all(eligible[p - 1, i] for i in range(n) if eligible[p, i])
        assert split[p, 0] == int(subset)


@given(pot_spots(), st.booleans())
def test_scorer_tables_built_in_python_are_the_compiled_tables(spot, hilo):
    amounts, eligible, _order, _rng = spot
    want = (S.split_tables_hilo if hilo else S.split_tables)(amounts, eligible)
    got = S.scorer_tables(amounts, eligible, hilo)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape and np.array_equal(g, w)


def test_block_scorer_rows_are_independent_accumulators():
    rng = random.Random(4)
    n = 5
    amounts = np.array([30, 17, 4], np.int64)
    eligible = np.array([[1, 1, 1, 1, 1], [0, 1, 1, 1, 0], [0, 0, 1, 1, 0]], np.bool_)
    order = np.array([2, 3, 4, 0, 1], np.int64)
    rows, weights = _rows(rng, 90, n, 3)
    block_of = np.array([rng.randrange(3) for _ in range(len(rows))], np.int64)
    bsc = S.block_scorer(amounts, eligible, order, category_of_strength(), 3)
    _score_blocks(rows, weights, bsc, block_of)
    for b in range(3):
        mine = block_of == b
        win, pay, _, _ = ref_score_rows(rows[mine].tolist(), weights[mine].tolist(),
                                        amounts.tolist(), eligible.tolist(), order.tolist())
        assert bsc[5][b].tolist() == win and bsc[6][b].tolist() == pay
    assert bsc[7].shape == (3, 0, 2)  # no statistics unless asked


def test_equity_block_scorer_sums_to_one_scorer():
    rng = random.Random(9)
    n = 4
    rows, weights = _rows(rng, 50, n, 5)
    cat_of = category_of_strength()
    one = S.equity_scorer(n, cat_of)
    _score_all(rows, weights, one)
    bsc = S.equity_block_scorer(n, cat_of, 4)
    _score_blocks(rows, weights, bsc, np.arange(len(rows)) % 4)
    for k in (5, 6, 7, 8):
        assert np.array_equal(bsc[k].sum(axis=0), one[k])


def test_float_weights_accumulate_in_float():
    amounts = np.array([3], np.int64)
    eligible = np.ones((1, 2), np.bool_)
    sc = S.pots_scorer(amounts, eligible, np.array([1, 0], np.int64), category_of_strength(),
                       dtype=np.float64)
    rows = np.array([[5, 5], [9, 1]], np.int32)
    _score_all(rows, np.array([0.5, 0.25]), sc)
    # tie: 1 chip each and the odd chip to seat 1 (first in order); then seat 0 takes 3
    assert sc[5].tolist() == [[0.5 * 1 + 0.25 * 3, 0.5 * 2]]


@pytest.mark.parametrize("st_,elig,want", [
    ([3, 7, 7, 1], [1, 1, 1, 1], (7, 2, 1)),
    ([3, 7, 7, 1], [1, 0, 1, 1], (7, 1, 2)),
    ([3, 7, 7, 9], [1, 0, 0, 0], (3, 1, 0)),
    ([3, 7, 7, 9], [0, 0, 0, 0], (-1, 0, -1)),
])
def test_best_and_ties(st_, elig, want):
    got = S.best_and_ties(np.array(st_, np.int32), np.array(elig, np.bool_))
    assert tuple(int(x) for x in got) == want


@given(st.integers(2, 6), st.integers(0, 2**32), st.integers(0, 60))
def test_score_rows_is_score_row_row_by_row(n, seed, n_rows):
    """The batch entry the Hold'em walk uses scores the first ``n_rows`` rows exactly as
    :func:`score_row` one at a time, and nothing past them."""
    rng = random.Random(seed)
    rows, weights = _rows(rng, 60, n, 40)
    rows = rows.astype(np.int64)  # the walk's rows (one compiled signature)
    cat_of = category_of_strength()
    one, batch = S.equity_scorer(n, cat_of), S.equity_scorer(n, cat_of)
    _score_all(rows[:n_rows], weights[:n_rows], one)
    S.score_rows(rows, weights, np.int64(n_rows), batch)
    assert all(np.array_equal(a, b) for a, b in zip(one, batch, strict=True))


@given(st.integers(2, 6), st.integers(0, 2**32), st.sampled_from([2520, 2521, 7, 1]))
def test_score_rows_equity_roads_pay_odd_chips_as_the_pot_rule(n, seed, chips):
    """The equity roads of :func:`score_rows` (heads-up table, one pass a row) on a pot
    that leaves odd chips, with the odd-chip order shuffled: the same sums as
    :func:`score_row` row by row, and as the reference dealer."""
    rng = random.Random(seed)
    rows, weights = _rows(rng, 60, n, 5)
    rows = rows.astype(np.int64)
    order = list(range(n))
    rng.shuffle(order)
    cat_of = category_of_strength()

    def scorer():
        amounts = np.array([chips], np.int64)
        eligible = np.ones((1, n), np.bool_)
        split, odd = S.split_tables(amounts, eligible)
        return (amounts, eligible, np.array(order, np.int64), split, odd,
                np.zeros((1, n), np.int64), np.zeros(n, np.int64), np.zeros((n, 2), np.int64),
                np.zeros((n, 9), np.int64), cat_of)

    one, batch = scorer(), scorer()
    _score_all(rows, weights, one)
    S.score_rows(rows, weights, np.int64(rows.shape[0]), batch)
    assert all(np.array_equal(a, b) for a, b in zip(one, batch, strict=True))
    win, pay, stats, cats = ref_score_rows(rows.tolist(), weights.tolist(), [chips],
                                           [[True] * n], order, cat_of.tolist())
    assert batch[5].tolist() == win and batch[6].tolist() == pay
    assert batch[7].tolist() == stats and batch[8].tolist() == cats


@serial
def _rows_on(rows, wts, n, sc, road):
    """:func:`S.score_rows_on` compiled for the road tag's type, as the walk compiles it."""
    S.score_rows_on(rows, wts, n, sc, road)


def test_road_of_names_the_loop_score_rows_takes():
    cat_of = category_of_strength()
    assert S.road_of(S.equity_scorer(2, cat_of)) is S.ROAD_HU
    assert S.road_of(S.equity_scorer(5, cat_of)) is S.ROAD_MULTI
    amounts = np.array([30, 10], np.int64)
    eligible = np.array([[1, 1, 1], [0, 1, 1]], np.bool_)
    assert S.road_of(S.pots_scorer(amounts, eligible, np.arange(3), cat_of)) is S.ROAD_POTS
    # one pot that not everyone may win, or no statistics: row by row
    one = S.pots_scorer(amounts[:1], np.array([[1, 0, 1]], np.bool_), np.arange(3), cat_of)
    assert S.road_of(one) is S.ROAD_POTS


@given(pot_spots(), st.integers(0, 60))
def test_score_rows_on_each_road_scores_as_score_rows(spot, n_rows):
    """Every road tag, compiled, gives the sums :func:`score_rows` gives (which decides the
    road on each call): pots scorers through :data:`ROAD_POTS`, equity scorers of two and
    of more players through :data:`ROAD_HU` / :data:`ROAD_MULTI`, and any of them through
    :data:`ROAD_ANY`."""
    amounts, eligible, order, rng = spot
    n = eligible.shape[1]
    rows, weights = _rows(rng, 60, n, 6)
    rows = rows.astype(np.int64)
    cat_of = category_of_strength()
    for build in (lambda: S.pots_scorer(amounts, eligible, order, cat_of),
                  lambda: S.equity_scorer(n, cat_of)):
        want = build()
        S.score_rows(rows, weights, np.int64(n_rows), want)
        for road in (S.road_of(want), S.ROAD_ANY):
            got = build()
            _rows_on(rows, weights, np.int64(n_rows), got, road)
            assert all(np.array_equal(a, b) for a, b in zip(want, got, strict=True))


def test_score_rows_on_refuses_a_tag_of_another_scorer():
    """In the interpreter the tag is checked against the scorer (compiled, a wrong tag
    would take the wrong loop, so callers take it from :func:`road_of`)."""
    cat_of = category_of_strength()
    rows = np.ones((1, 3), np.int64)
    wts = np.ones(1, np.int64)
    sc = S.equity_scorer(3, cat_of)
    with pytest.raises(ValueError, match="road tag"):
        S.score_rows_on(rows, wts, np.int64(1), sc, S.ROAD_HU)
    S.score_rows_on(rows, wts, np.int64(1), sc, S.ROAD_MULTI)
    S.score_rows_on(rows, wts, np.int64(1), sc, S.ROAD_ANY)
    assert sc[7][:, 1].tolist() == [2, 2, 2]  # two rows of a three-way tie
