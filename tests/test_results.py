"""simulate.results: the standard error of a mean from sums, JSON numbers, and the result
types' ``to_dict`` (the contract's keys, in order; ``extra`` merged last)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from simulate import equity
from simulate.results import EquityResult, PlayerResult, json_number, std_error_of_mean


@pytest.mark.parametrize("n", [2, 3, 17, 1000])
def test_std_error_equals_the_sample_formula(n):
    rng = np.random.default_rng(n)
    x = rng.random((n, 3)) * np.array([1.0, 10.0, 0.01])
    got = std_error_of_mean(x.sum(axis=0), (x * x).sum(axis=0), n)
    want = x.std(axis=0, ddof=1) / math.sqrt(n)
    np.testing.assert_allclose(got, want, rtol=1e-9)
    assert got.shape == (3,)


def test_std_error_of_constant_draws_is_zero_not_nan():
    # the sums of squares can round below total**2 / n (0.7 x 10 does): the variance is
    # clamped at 0, so the error is 0 and never nan
    x = np.full(10, 0.7)
    total, total_sq = np.array([x.sum()]), np.array([(x * x).sum()])
    assert total_sq[0] - total[0] ** 2 / 10 < 0
    assert std_error_of_mean(total, total_sq, 10).tolist() == [0.0]


@pytest.mark.parametrize("n", [0, 1])
def test_std_error_of_fewer_than_two_draws_is_unknown(n):
    got = std_error_of_mean(np.array([0.5, 0.25]), np.array([0.25, 0.0625]), n)
    assert got.shape == (2,) and np.isinf(got).all()


def test_json_number():
    assert json_number(0.25) == 0.25 and json_number(0.0) == 0.0
    assert json_number(math.inf) is None and json_number(-math.inf) is None
    assert json_number(math.nan) is None


def test_player_to_dict_keys_and_unknown_error():
    p = PlayerResult(hand="AhKh", equity=0.5, win=0.4, tie=0.2, std_error=math.inf,
                     categories={"One Pair": 0.5})
    d = p.to_dict()
    assert list(d) == ["hand", "equity", "win", "tie", "std_error", "categories"]
    assert d["std_error"] is None
    d["categories"]["One Pair"] = 0.0  # a copy: the result is not changed through it
    assert p.categories == {"One Pair": 0.5}
    json.dumps(d, allow_nan=False)


def test_equity_result_to_dict_merges_extra_last():
    r = EquityResult(players=[PlayerResult("AhKh", 0.5, 0.5, 0.0)], exact=True, samples=3,
                     elapsed_s=0.1, board="Ks8h2c", extra={"counts": {"runouts": 3}})
    d = r.to_dict()
    assert list(d) == ["game", "board", "dead", "exact", "samples", "elapsed_s", "players",
                       "counts"]
    assert (d["game"], d["board"], d["dead"]) == ("holdem", "Ks8h2c", "")
    assert d["players"] == [r.players[0].to_dict()]


def test_a_sampled_result_reports_the_std_error_of_its_draws():
    # one engine's result end to end: the reported error is the formula's on its own draws
    # (pot share per deal, ties split), within what two runs of the same size vary by
    r = equity(["AhKh", "QsQd"], "Ks8h2c", samples=200_000, seed=3, threads=1)
    e = r.players[0].equity
    assert 0 < r.players[0].std_error < 2 * math.sqrt(e * (1 - e) / r.samples)
    assert r.players[0].std_error > 0.5 * math.sqrt(e * (1 - e) / r.samples)
    assert r.players[0].std_error == pytest.approx(r.players[1].std_error, rel=0.05)
