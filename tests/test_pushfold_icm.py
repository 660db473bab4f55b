"""ICM push/fold for 3 to 10 players (:func:`simulate.pushfold_icm.pushfold_icm` and
``pokerjit pushfold --players``), on small samples of deals so that it stays quick."""

from __future__ import annotations

import json

import numpy as np
import pytest

from simulate.cli import main
from simulate.pushfold_icm import position_names, pushfold_icm
from simulate.ranges import HAND_CLASSES

AA, SEVEN_TWO = HAND_CLASSES.index("AA"), HAND_CLASSES.index("72o")


def test_three_handed_equilibrium():
    r = pushfold_icm([10, 15, 20], [50, 30, 20], deals=6000, iterations=60)
    assert sum(r.icm_equity) == pytest.approx(100)
    assert r.exploitability < 2e-3
    assert r.jam[0][AA] > 0.99 and r.jam[1][AA] > 0.99 and r.jam[2].sum() == 0
    assert all(f[AA] > 0.95 for *_, f in r.calls)  # everyone calls with aces
    # the big blind's three decisions: against BTN, against SB, against BTN and SB's call
    assert sorted((j, before) for q, j, before, _ in r.calls if q == 2) == [
        (0, ()), (0, (1,)), (1, ())]
    again = pushfold_icm([10, 15, 20], [50, 30, 20], deals=6000, iterations=60)
    assert np.array_equal(again.jam[0], r.jam[0])  # seeded


def test_more_iterations_less_exploitable():
    a = pushfold_icm([10, 15, 20], [50, 30, 20], deals=3000, iterations=20)
    b = pushfold_icm([10, 15, 20], [50, 30, 20], deals=3000, iterations=120)
    assert b.exploitability < a.exploitability


def test_short_stacks_jam_wide():
    r = pushfold_icm([2, 30, 30, 30], [60, 40], deals=4000, iterations=40)
    assert r.jam[3][SEVEN_TWO] < 0.5  # UTG at 30 bb does not jam 72o
    shares = [(np.array([6 if len(c) == 2 else 4 if c[2] == "s" else 12 for c in HAND_CLASSES])
               * j).sum() / 1326 for j in r.jam]
    assert shares[0] > shares[3]  # the 2 bb button jams more than the 30 bb UTG


def test_position_names():
    assert position_names(3) == ["BTN", "SB", "BB"]
    assert position_names(6) == ["BTN", "SB", "BB", "UTG", "HJ", "CO"]
    assert position_names(10)[3:] == ["UTG", "UTG+1", "UTG+2", "UTG+3", "UTG+4", "HJ", "CO"]


@pytest.mark.parametrize("kw,needle", [
    ({"stacks": [10, 10], "payouts": [1]}, "3 to 10 players"),
    ({"stacks": [10, 10, 0.5], "payouts": [1]}, "less than the big blind"),
    ({"stacks": [10, 10, 10], "payouts": [1, 1, 1, 1]}, "4 places paid"),
    ({"stacks": [10, 10, 10], "payouts": [0]}, "prize pool is empty"),
    ({"stacks": [10, 10, 10], "payouts": [1], "players": 4}, "--players 4"),
    ({"stacks": [10, 10, 1e300], "payouts": [1]}, "player 3 has 1e\\+300 bb, more than 1e\\+06"),
    ({"stacks": [10, 10, 10], "payouts": [1e308, 1e308]}, "payouts: the total is too large"),
])
def test_bad_input(kw, needle):
    with pytest.raises(ValueError, match=needle):
        pushfold_icm(**kw)


def test_cli(capsys, monkeypatch):
    import importlib

    mod = importlib.import_module("simulate.pushfold_icm")  # the module, not the function
    monkeypatch.setattr(mod, "DEALS", 3000)
    assert main(["pushfold", "--players", "3", "--stacks", "10", "15", "20", "--payouts", "50",
                 "30", "20", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in d["positions"]] == ["BTN", "SB", "BB"]
    assert {"range", "share", "grid"} <= set(d["positions"][0]["jam"])
    assert d["positions"][2]["calls"][0]["jammer"] == "BTN"
    assert "Monte Carlo" in d["equities"] and d["exploitability"] >= 0
    assert main(["pushfold", "--players", "4", "--stacks", "10", "15", "20", "--payouts",
                 "1"]) == 2
    assert "--players 4" in capsys.readouterr().err
    assert main(["pushfold", "--players", "\u00b2", "--stacks", "10", "15", "20", "--payouts",
                 "1"]) == 2
    assert "--players must be a whole number" in capsys.readouterr().err
