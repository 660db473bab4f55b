"""simulate.chart: the preflop chart's rows against the range engine (a few hands: walking
each of the 169 is slow), the documented per-hand seeds, the opponent counts it accepts
and its CSV."""

from __future__ import annotations

import math

import pytest

import simulate.preflop_table  # noqa: F401 - imported before few_hands patches the classes
import simulate.ranges
from evaluator.cards import cards_str
from simulate.chart import (
    MAX_OPPONENTS,
    SEED_STRIDE,
    chart_csv,
    chart_rows,
    check_opponents,
)
from simulate.range_equity import range_equity
from simulate.ranges import HAND_CLASSES, class_combos

FEW = ("AA", "72o", "AKs", "T9s")


@pytest.fixture
def few_hands(monkeypatch: pytest.MonkeyPatch) -> tuple[str, ...]:
    monkeypatch.setattr(simulate.ranges, "HAND_CLASSES", FEW)
    return FEW


def _combo(hand: str) -> str:
    lo, hi = class_combos(hand)[0]
    return cards_str([hi, lo])


def test_sampled_rows_are_the_range_engine_with_the_documented_seeds(few_hands):
    rows = chart_rows((2, 3), samples=4_000, seed=11, threads=1)
    assert [(r["hand"], r["opponents"]) for r in rows] == \
        [(h, n) for n in (2, 3) for h in few_hands]
    for r in rows:
        n, k = r["opponents"], few_hands.index(r["hand"])
        seed = 11 + SEED_STRIDE * n + k
        want = range_equity([_combo(r["hand"])] + ["random"] * n, exact=False, samples=4_000,
                            seed=seed, threads=1)
        assert r["seed"] == seed and r["samples"] == want.samples == 4_000
        assert r["equity"] == want.players[0].equity
        assert r["std_error"] == want.players[0].std_error
        assert r["exact"] is False


def test_sampled_rows_do_not_depend_on_threads_and_agree_with_another_run(few_hands):
    one = chart_rows((2,), samples=20_000, seed=5, threads=1)
    two = chart_rows((2,), samples=20_000, seed=5, threads=2)
    assert one == two
    for r in one:  # the whole class as a range, sampled apart: within 5 standard errors
        other = range_equity([r["hand"], "random", "random"], samples=20_000, seed=99,
                             threads=1).players[0]
        assert abs(r["equity"] - other.equity) < 5 * math.hypot(r["std_error"],
                                                                other.std_error)


def test_aces_are_best_and_seven_deuce_worst(few_hands):
    rows = {r["hand"]: r["equity"] for r in chart_rows((3,), samples=20_000, seed=1)}
    assert max(rows, key=rows.get) == "AA" and min(rows, key=rows.get) == "72o"


def test_opponent_counts():
    assert check_opponents([1, 2, MAX_OPPONENTS]) == [1, 2, MAX_OPPONENTS]
    for bad in ([0], [MAX_OPPONENTS + 1], [True], [2.0], []):
        with pytest.raises(ValueError) as e:
            check_opponents(bad)  # type: ignore[arg-type]
        assert "\n" not in str(e.value)


def test_csv():
    rows = [{"hand": "AA", "opponents": 1, "equity": 0.852037, "std_error": 0.0,
             "exact": True, "samples": None},
            {"hand": "72o", "opponents": 2, "equity": 0.2, "std_error": None, "exact": False,
             "samples": 1}]
    assert chart_csv(rows) == ("hand,opponents,equity,std_error,exact\n"
                               "AA,1,0.852037,0.000000,true\n72o,2,0.200000,,false\n")


@pytest.mark.slow  # exact walks per hand
def test_exact_column_against_the_range_engine():
    rows = chart_rows((1,))
    assert [r["hand"] for r in rows] == list(HAND_CLASSES) and len(rows) == 169
    eq = {r["hand"]: r["equity"] for r in rows}
    assert all(r["exact"] and r["std_error"] == 0.0 for r in rows)
    # hero and villain are both random over all 1326 combos: the average is one half
    total = sum(len(class_combos(h)) * e for h, e in eq.items())
    assert total / 1326 == pytest.approx(0.5, abs=1e-12)
    for hand in ("AA", "72o", "AKs"):
        want = range_equity([_combo(hand), "random"], exact=True).players[0].equity
        assert eq[hand] == pytest.approx(want, abs=1e-12)


def test_exact_column_is_the_table_weighted_by_disjoint_pairs():
    """The one-opponent column (read from the shipped 169 x 169 table) is each class's exact
    equity against a random hand: the range engine's walk for a few classes, and the pair
    weights count every card-disjoint ordered pair of combos once."""
    from simulate.preflop_table import pair_counts

    counts = pair_counts()
    assert counts.sum() == 1326 * 1225  # ordered pairs of disjoint combos
    assert counts[HAND_CLASSES.index("AKs"), HAND_CLASSES.index("AA")] == 4 * 3
    eq = {r["hand"]: r["equity"] for r in chart_rows((1,))}
    for hand in ("AA", "T9s", "72o"):
        want = range_equity([_combo(hand), "random"], exact=True).players[0].equity
        assert eq[hand] == pytest.approx(want, abs=1e-12)


def test_a_repeated_opponent_count_is_one_chart(capsys):
    """``--opponents 1 1 1`` is the chart once; the API merges repeats the same way, so a
    huge list of them costs no more than one."""
    from simulate.cli import main

    assert main(["chart", "--opponents", "1", "1", "1"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1 + 169
    assert check_opponents([1, 1, 1]) == [1]
    assert check_opponents([3, 1, 3, 1]) == [3, 1]
    assert len(chart_rows([1] * 100_000)) == 169
