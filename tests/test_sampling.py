"""The cross-engine sampling contract (Hold'em, Omaha, ranges, all-ins).

* Standard errors are checked against the per-deal variance worked out from the exact
  answer (heads-up, a deal's pot share is 0, 1/2 or 1, so ``E[X^2] = win + tie / 4``),
  not only by "the estimate lands within 4 of its own standard errors" -- a test that an
  inflated standard error would pass.
* z-scores of Monte Carlo against exact over many seeds: mean near 0, spread near 1.
* Omaha: ``samples`` with ``target_std_error`` stops at whichever comes first (it used to
  ignore ``samples`` and draw up to 500,000,000 deals); ``exact=True`` with a sample
  size is refused as it is for Hold'em.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simulate import allin_ev, equity
from simulate.omaha import omaha_equity


def _heads_up_se(exact, n: int, scale: float = 1.0) -> list[float]:
    """Standard error of the mean pot share over ``n`` deals, from exact win/tie/equity."""
    out = []
    for p in exact.players:
        var = p.win + p.tie / 4 - p.equity**2
        out.append(scale * math.sqrt(var / n))
    return out


@pytest.mark.parametrize("hands,board", [(["AhKh", "QsQd"], ""), (["AcKd", "AdKc"], "Qh7s2d"),
                                         (["7c7d", "AsKd"], "Td9d2c")])
def test_holdem_std_error_is_the_per_deal_standard_error(hands, board):
    n = 100_000
    ex = equity(hands, board, exact=True)
    mc = equity(hands, board, samples=n, seed=3, threads=1)
    for want, p in zip(_heads_up_se(ex, n), mc.players, strict=True):
        assert p.std_error == pytest.approx(want, rel=0.03)


def test_omaha_std_error_is_the_per_deal_standard_error():
    n = 100_000
    hands, board = ["AhKh2c3d", "AdKd2h3s"], "QcJs9h"  # many split pots
    ex = omaha_equity(hands, board, exact=True)
    mc = omaha_equity(hands, board, exact=False, samples=n, seed=3, threads=1)
    assert ex.players[0].tie > 0.2
    for want, p in zip(_heads_up_se(ex, n), mc.players, strict=True):
        assert p.std_error == pytest.approx(want, rel=0.03)


def test_allin_std_error_is_the_per_runout_standard_error():
    # equal stacks, one pot of 300 chips (even: no odd chip): payout = 300 x pot share
    n = 5 * 16_384
    ex = equity(["AhKh", "QsQd"], "Ks8h2c", exact=True)
    mc = allin_ev(["AhKh:150", "QsQd:150"], "Ks8h2c", samples=n, seed=3, threads=1)
    for want, p in zip(_heads_up_se(ex, n, scale=300.0), mc.players, strict=True):
        assert p.std_error == pytest.approx(want, rel=0.03)


def _z_scores(exact: list[float], runs) -> np.ndarray:
    """``ndarray[seeds, players]`` of (estimate - exact) / std_error."""
    return np.array([[(v - e) / s for e, (v, s) in zip(exact, run, strict=True)]
                     for run in runs])


def _check_z(z: np.ndarray) -> None:
    n_seeds = z.shape[0]
    # per player: the mean of n_seeds z-scores has standard error 1/sqrt(n_seeds)
    assert np.all(np.abs(z.mean(axis=0)) < 4 / math.sqrt(n_seeds)), z.mean(axis=0)
    assert 0.7 < z.std() < 1.3, z.std()


def test_holdem_monte_carlo_z_scores_over_seeds():
    hands, board = ["AhAs", "KdKc", "7c2d", "JhTh"], "9h8c2s"
    exact = [p.equity for p in equity(hands, board, exact=True).players]
    runs = [[(p.equity, p.std_error) for p in
             equity(hands, board, samples=4_000, seed=s, threads=1).players]
            for s in range(40)]
    _check_z(_z_scores(exact, runs))


def test_omaha_and_allin_monte_carlo_z_scores_over_seeds():
    hands, board = ["AhAsKhKs", "QdJdTc9c", "8c8d7h6s"], "2c5h9s"
    exact = [p.equity for p in omaha_equity(hands, board, exact=True).players]
    runs = [[(p.equity, p.std_error) for p in
             omaha_equity(hands, board, exact=False, samples=4_000, seed=s, threads=1).players]
            for s in range(40)]
    _check_z(_z_scores(exact, runs))
    spec = ["AhAs:100", "KdKc:60", "QhQs:30", "JcJd:130", "fold:25"]
    exact = [p.expected_payout for p in allin_ev(spec, "Ks8h2c").players if p.live]
    runs = [[(p.expected_payout, p.std_error) for p in
             allin_ev(spec, "Ks8h2c", samples=4_000, seed=s, threads=1).players if p.live]
            for s in range(40)]
    _check_z(_z_scores(exact, runs))


def test_omaha_samples_and_target_whichever_comes_first():
    hands = ["AhAsKhKs", "QdJdTc9c"]
    r = omaha_equity(hands, exact=False, samples=20_000, target_std_error=1e-5, seed=1)
    assert r.samples == 20_000 and not r.exact
    via = equity(hands, game="omaha", samples=20_000, target_std_error=1e-5, seed=1)
    assert via.samples == 20_000
    # the target reached first: stops before the sample cap (as Hold'em does)
    r = omaha_equity(hands, exact=False, samples=10_000_000, target_std_error=0.004, seed=1)
    assert r.samples < 100_000 and max(p.std_error for p in r.players) <= 0.004


@pytest.mark.parametrize("kw", [{"samples": 10}, {"target_std_error": 0.01}])
def test_omaha_exact_with_sampling_options_is_refused(kw):
    with pytest.raises(ValueError, match="exact=True cannot be combined"):
        omaha_equity(["AhAsKhKs", "QdJdTc9c"], "2c5h9s", exact=True, **kw)
    with pytest.raises(ValueError, match="exact=True cannot be combined"):
        equity(["AhKh", "QsQd"], "2c5h9s", exact=True, **kw)


def test_omaha_samples_must_not_be_a_bool():
    with pytest.raises(ValueError, match="samples"):
        omaha_equity(["AhAsKhKs", "QdJdTc9c"], exact=False, samples=True)


def test_every_engine_deals_exactly_the_samples_asked_for_and_nulls_unknown_errors():
    import json

    from simulate import allin_ev, equity

    for hands, game in ((["AKs", "random"], "holdem"), (["AhKh", "QsQd"], "holdem"),
                        (["AhAsKhKs", "QdJdTc9c"], "omaha")):
        for n in (1, 10_001):
            r = equity(hands, game=game, samples=n, seed=5)
            assert r.samples == n
            d = json.loads(json.dumps(r.to_dict(), allow_nan=False))
            if n == 1:
                assert all(p["std_error"] is None for p in d["players"])
            else:
                assert all(p["std_error"] > 0 for p in d["players"])
    a = allin_ev(["AhAs:10", "KdKc:10"], samples=1, seed=5)
    d = json.loads(json.dumps(a.to_dict(), allow_nan=False))
    assert all(p["std_error"] is None for p in d["players"])
