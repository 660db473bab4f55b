"""ICM (:func:`simulate.icm`) against every finishing order, its invariants, a closed form
for 1,000 players, the race integral against the subset walk, and ``pokerjit icm``."""

from __future__ import annotations

import json

import numpy as np
import pytest
from helpers import examples
from hypothesis import example, given, settings
from hypothesis import strategies as st

from simulate import icm
from simulate.cli import main
from simulate.icm import icm_monte_carlo
from tests.reference import icm_by_orders


def test_against_every_finishing_order_on_random_small_fields():
    rng = np.random.default_rng(40)
    for _ in range(40):
        n = int(rng.integers(1, 8))
        stacks = rng.integers(0, 50, n).astype(float)
        if stacks.max() == 0:
            stacks[0] = 1
        m = int(rng.integers(1, n + 1))
        payouts = rng.uniform(0, 100, m)
        np.testing.assert_allclose(icm(stacks, payouts), icm_by_orders(stacks, payouts),
                                   rtol=1e-12, atol=1e-12)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.floats(0.01, 1e6), min_size=2, max_size=24),
       st.lists(st.floats(0, 1e4), min_size=1, max_size=24))
# A small stack beside big ones: the chips left in play once the big stacks have placed
# must be summed, not found as the total less the chips taken (that loses 0.01's digits).
@example([97152.0, 1000000.0, 1000000.0, 0.01], [1.0, 1.0, 1.0, 1.0])
def test_invariants(stacks, payouts):
    payouts = sorted(payouts[: len(stacks)], reverse=True)
    e = icm(stacks, payouts)
    assert e.shape == (len(stacks),)
    assert e.sum() == pytest.approx(sum(payouts), rel=1e-9, abs=1e-9)  # shares add up
    s = np.array(stacks)
    order = np.argsort(s, kind="stable")
    for lo, hi in zip(order[:-1], order[1:], strict=True):  # larger stack, no smaller share
        if s[hi] > s[lo]:
            assert e[hi] >= e[lo] - 1e-9 * max(1.0, sum(payouts))
    one = icm(stacks, payouts[:1])  # one payout: stack / total
    np.testing.assert_allclose(one, payouts[0] * s / s.sum(), rtol=1e-9, atol=1e-12)
    equal = icm([stacks[0]] * len(stacks), payouts)  # equal stacks, equal shares
    np.testing.assert_allclose(equal, sum(payouts) / len(stacks), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("n,m", [(15, 15), (18, 6), pytest.param(20, 20, marks=pytest.mark.soak),
                                 (17, 1), (19, 3)])
def test_the_integral_agrees_with_the_orders_walk(n, m):
    """Fields above the subset walk's limit integrate; 15-20 players can still be walked by
    the reference's subset form (every set of players who took the top places)."""
    rng = np.random.default_rng(n * 100 + m)
    s = rng.lognormal(0, 1.5, n)
    s[0] = s.sum() * 2  # a big chip leader: likely finished early in the race
    s[1] = s.sum() * 1e-5  # and a tiny stack
    pay = np.sort(rng.uniform(1, 100, m))[::-1]
    # the subset walk over every set, in plain numpy (place k+1 from the sets of size k)
    prob = {0: 1.0}
    want = np.zeros(n)
    total = s.sum()
    for k in range(m):
        nxt: dict[int, float] = {}
        for mask, p in prob.items():
            rest = total - sum(s[j] for j in range(n) if mask >> j & 1)
            for j in range(n):
                if not mask >> j & 1:
                    q = p * s[j] / rest
                    want[j] += q * pay[k]
                    nxt[mask | 1 << j] = nxt.get(mask | 1 << j, 0.0) + q
        prob = nxt
        if len(prob) > 200_000:
            pytest.skip("too many sets for the plain walk")
    np.testing.assert_allclose(icm(s, pay), want, rtol=1e-9)


def test_closed_form_for_a_thousand_players():
    """Place k of n paying n - k + 1: player i's equity is 1 + sum_(j != i) s_i / (s_i + s_j)
    (each other player finishes below i with probability s_i / (s_i + s_j))."""
    rng = np.random.default_rng(1000)
    s = rng.uniform(1, 1000, 1000)
    e = icm(s, np.arange(1000, 0, -1.0))
    ratio = s[:, None] / (s[:, None] + s[None, :])
    want = 1 + ratio.sum(axis=1) - 0.5
    np.testing.assert_allclose(e, want, rtol=1e-9)


def test_a_thousand_players_with_steps_in_the_payouts():
    rng = np.random.default_rng(7)
    pay = np.sort(rng.uniform(0, 100, 1000))[::-1]
    e = icm(np.full(1000, 30.0), pay)  # equal stacks: everyone the mean prize
    np.testing.assert_allclose(e, pay.mean(), rtol=1e-9)
    s = rng.uniform(1, 1000, 1000)
    top = rng.uniform(1, 100, 10)
    e = icm(s, top)
    assert e.sum() == pytest.approx(top.sum(), rel=1e-12)
    assert np.all(np.diff(e[np.argsort(s)]) >= -1e-12)


def test_busted_players_take_the_lowest_places_in_order():
    e = icm([0, 50, 0, 50], [40, 30, 20, 10])
    assert e.tolist() == pytest.approx([20, 35, 10, 35])
    assert icm([0, 10], [7]).tolist() == [0.0, 7.0]


@pytest.mark.parametrize("stacks,payouts,needle", [
    ([10, -1], [1], "negative stack"),
    ([10, float("nan")], [1], "not a finite number"),
    ([0, 0], [1], "nobody has any chips"),
    ([10, 20], [3, 2, 1], "3 places paid but only 2 players"),
    ([10, 20], [], "no places paid"),
    ([10, 20], [1, -1], "negative amount"),
    ([1e308, 1e308], [1], "stacks: the total is too large"),
    ([10, 20], [1e308, 1e308], "payouts: the total is too large"),
    ([10**400, 1], [1], "stacks: entry 1 is too large"),
    ([1, 1], [1, 10**400], "payouts: entry 2 is too large"),
])
def test_bad_input_is_one_clear_error(stacks, payouts, needle):
    with pytest.raises(ValueError, match=needle):
        icm(stacks, payouts)
    with pytest.raises(ValueError, match="model"):
        icm([1, 2], [1], model="nope")


def test_tiny_and_huge_stacks_are_only_a_scale():
    # subnormal stacks lose precision in the kernels' divisions unless scaled first
    assert icm([1e-320] * 3, [3, 2, 1]).tolist() == pytest.approx([2, 2, 2], rel=1e-12)
    assert icm([1e-320, 2e-320, 0], [3, 2, 1]).tolist() == \
        pytest.approx(icm([1, 2, 0], [3, 2, 1]).tolist(), rel=1e-12)
    assert icm([1e300] * 20, [1]).tolist() == pytest.approx([0.05] * 20, rel=1e-12)
    mc = icm_monte_carlo([1e-320] * 3, [3, 2, 1], samples=20_000, seed=1)
    assert np.all(np.abs(mc.equity - 2) < 5 * mc.std_error)


def test_monte_carlo_is_seeded_and_within_its_errors():
    s, pay = [50, 30, 20, 10], [60, 40]
    a = icm_monte_carlo(s, pay, samples=200_000, seed=3)
    b = icm_monte_carlo(s, pay, samples=200_000, seed=3)
    assert np.array_equal(a.equity, b.equity)
    assert np.all(np.abs(a.equity - icm(s, pay)) < 5 * a.std_error + 1e-12)


def test_cli_json_and_text(capsys):
    assert main(["icm", "5000", "3000", "2000", "--payouts", "50", "30", "20", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["model"] == "malmuth-harville" and d["payouts"] == [50, 30, 20]
    assert [set(p) for p in d["players"]] == [{"stack", "chip_share", "equity",
                                               "equity_share"}] * 3
    assert sum(p["equity"] for p in d["players"]) == pytest.approx(100)
    assert d["players"][0]["chip_share"] == 0.5
    assert main(["icm", "5000", "3000", "2000", "--payouts", "50", "30", "20"]) == 0
    assert "38.39" in capsys.readouterr().out


@pytest.mark.parametrize("argv,needle", [
    (["icm", "100", "-5", "--payouts", "10"], "negative stack"),
    (["icm", "100", "x", "--payouts", "10"], "'x' is not a number"),
    (["icm", "100", "50", "--payouts", "10", "5", "1"], "3 places paid"),
    (["icm", "100", "50"], "--payouts"),
    (["icm", "100", "50", "--payouts", "1e308", "1e308"], "payouts: the total is too large"),
    (["icm", "9" * 5000, "50", "--payouts", "1"], "STACK: '99999999999999999999...' (5000 "
                                                   "characters) is too large"),
])
def test_cli_errors_are_one_line_exit_2(capsys, argv, needle):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and needle in err
    assert len(err) < 200


def test_cli_huge_stacks_stay_numbers_as_given(capsys):
    assert main(["icm", "1e300", "1e300", "--payouts", "1", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert [p["stack"] for p in d["players"]] == [1e300, 1e300]
    assert [p["equity"] for p in d["players"]] == [0.5, 0.5]
    assert main(["icm", "1e300", "1e300", "--payouts", "1"]) == 0
    out = capsys.readouterr().out
    assert "1e+300" in out and max(map(len, out.splitlines())) < 100


def test_the_package_names_are_the_functions_whatever_was_imported_first():
    import simulate
    import simulate.icm  # noqa: F401 - binds the submodule on the package, which keeps
    import simulate.pushfold  # noqa: F401 - the functions
    import simulate.pushfold_icm  # noqa: F401

    assert callable(simulate.icm) and callable(simulate.pushfold)
    assert callable(simulate.pushfold_icm)
