"""Heads-up push/fold (:func:`simulate.pushfold`, the chart, ``pokerjit pushfold``): best
responses gain less than the reported exploitability, nested ranges, 1 big blind, the
range text read back, and the command line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from simulate import pushfold
from simulate.cli import main
from simulate.preflop_table import pair_counts, preflop_table
from simulate.ranges import HAND_CLASSES, combo_class_index, parse_range, range_text


def _best_response_gains(r):
    """What each player gains by its best response, straight from the deals: every
    ordered pair of card-disjoint combos (by class, with their counts), in big blinds."""
    S, A = r.stack_bb, r.ante
    W = pair_counts()
    E = preflop_table().equity
    x, y = r.jam, r.call
    total = W.sum()
    called = (2 * S * E - S)  # the small blind's result when called
    jam_value = ((W * (y[None, :] * called + (1 - y[None, :]) * (1 + A))).sum(axis=1))
    fold_value = -(0.5 + A) * W.sum(axis=1)
    sb_now = (x * jam_value + (1 - x) * fold_value).sum() / total
    sb_best = np.maximum(jam_value, fold_value).sum() / total
    call_value = (W.T * x[:, None] * -called).sum(axis=0)  # the big blind's, facing a jam
    fold_bb = (W.T * x[:, None]).sum(axis=0) * -(1 + A)
    bb_now = (y * call_value + (1 - y) * fold_bb).sum()
    bb_best = np.maximum(call_value, fold_bb).sum()
    return sb_best - sb_now, (bb_best - bb_now) / total


@pytest.mark.parametrize("stack,ante", [(1, 0), (4.5, 0), (10, 0), (17.5, 0), (25, 0),
                                         (8, 0.125)])
def test_best_responses_gain_less_than_the_exploitability(stack, ante):
    r = pushfold(stack, ante=ante)
    assert r.exploitability_mbb < 0.01
    sb, bb = _best_response_gains(r)
    assert max(sb, bb) * 1000 <= r.exploitability_mbb + 1e-9
    assert r.ev_bb[0] == pytest.approx(-r.ev_bb[1])


def test_ranges_are_nested():
    """What is jammed (called) at 20 big blinds is jammed (called) at 10 and at 5."""
    r5, r10, r20 = pushfold(5), pushfold(10), pushfold(20)
    for lo, hi in ((r10, r20), (r5, r10)):
        assert np.all(lo.jam >= hi.jam - 1e-9)
        assert np.all(lo.call >= hi.call - 1e-9)
    assert r20.jam[HAND_CLASSES.index("AA")] == 1 and r20.jam[HAND_CLASSES.index("72o")] == 0


def test_at_one_big_blind_nearly_everything_is_jammed_and_called():
    d = pushfold(1).to_dict()
    assert d["jam"]["share"] > 0.95 and d["call"]["share"] > 0.95


def test_the_range_text_reads_back_as_the_grid():
    r = pushfold(12)
    for freq in (r.jam, r.call):
        rng = parse_range(range_text(freq))
        got = np.zeros(169)
        cls = combo_class_index()[rng.indices]
        np.maximum.at(got, cls, rng.weights)
        want = np.where(freq >= 0.995, 1.0, np.where(freq > 0.005, np.round(freq, 2), 0))
        np.testing.assert_allclose(got, want, atol=1e-12)


@pytest.mark.slow  # solves 241 stacks (about 2.5 s); single solves are quick above
def test_chart_matches_the_solves(capsys):
    from simulate.pushfold import pushfold_chart

    c = pushfold_chart()
    assert c.exploitability_mbb < 0.01
    assert c.jam["AA"] == 25 and c.call["AA"] == 25 and c.jam["32o"] < 2
    r = pushfold(c.jam["K2o"])
    assert r.jam[HAND_CLASSES.index("K2o")] >= 0.5
    assert pushfold(c.jam["K2o"] + 0.1).jam[HAND_CLASSES.index("K2o")] < 0.5
    for name, gaps in c.jam_gaps.items():
        for lo, _ in gaps:
            assert pushfold(lo).jam[HAND_CLASSES.index(name)] < 0.5


def test_cli_json(capsys):
    assert main(["pushfold", "--stack", "10", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert {"stack_bb", "ante", "jam", "call", "ev_bb", "exploitability_mbb"} <= set(d)
    assert set(d["jam"]) == {"range", "share", "grid"}
    assert len(d["call"]["grid"]) == 13 and len(d["call"]["grid"][0]) == 13
    assert d["jam"]["grid"][0][0] == 1.0  # AA


@pytest.mark.parametrize("argv,needle", [
    (["pushfold", "--stack", "0.5"], "at least"),
    (["pushfold", "--stack", "x"], "not a number"),
    (["pushfold"], "--stack"),
    (["pushfold", "--stack", "10", "--ante", "-1"], "ante"),
    (["pushfold", "--players", "3", "--stacks", "10", "10"], "--payouts"),
])
def test_cli_errors(capsys, argv, needle):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and needle in err
