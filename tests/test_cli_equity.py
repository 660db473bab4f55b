"""``pokerjit equity`` on the command line: table, JSON, and one-line errors."""

from __future__ import annotations

import json

import pytest

from simulate.cli import main


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_table(capsys):
    rc, out, err = run(capsys, "equity", "AhKh", "QsQd")
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split()[:4] == ["hand", "equity", "win", "tie"]
    assert lines[2].startswith("AhKh") and "46.21%" in lines[2] and "exact" in lines[2]
    assert lines[3].startswith("QsQd") and "53.79%" in lines[3]
    assert "1,712,304 runouts" in out


def test_table_monte_carlo_shows_error_and_seed(capsys):
    rc, out, _ = run(capsys, "equity", "AhKh", "QsQd", "7c7d", "--board", "Ks8h2c",
                     "--samples", "50000", "--seed", "3", "--threads", "1")
    assert rc == 0
    assert "±" in out and "seed 3" in out and "50,000 deals" in out and "board Ks8h2c" in out


def test_json(capsys):
    rc, out, _ = run(capsys, "equity", "AhKh", "QsQd", "7c7d", "--board", "Ks 8h 2c",
                     "--dead", "2d", "--json")
    assert rc == 0
    d = json.loads(out)
    assert d["game"] == "holdem" and d["board"] == "Ks8h2c" and d["dead"] == "2d"
    assert d["exact"] is True and d["samples"] == 861  # C(42, 2)
    assert [p["hand"] for p in d["players"]] == ["AhKh", "QsQd", "7c7d"]
    assert abs(sum(p["equity"] for p in d["players"]) - 1) < 1e-12
    for p in d["players"]:
        assert set(p) >= {"hand", "equity", "win", "tie", "std_error"}
        assert p["std_error"] == 0.0


def test_json_sampling_reproducible(capsys):
    argv = ["equity", "AhKh", "QsQd", "--std-error", "0.002", "--seed", "11", "--json"]
    _, a, _ = run(capsys, *argv, "--threads", "1")
    _, b, _ = run(capsys, *argv, "--threads", "2")
    da, db = json.loads(a), json.loads(b)
    assert da["exact"] is False and da["seed"] == 11
    assert da["players"] == db["players"] and da["samples"] == db["samples"]
    assert max(p["std_error"] for p in da["players"]) <= 0.002


@pytest.mark.parametrize("argv,needle", [
    (["AhKz", "QsQd"], "AhKz"),  # unknown card
    (["AhKh", "QsAh"], "duplicate card Ah"),  # repeated card
    (["AhKh", "QsQd", "--board", "Ah8h2c"], "duplicate card Ah"),
    (["AhKh"], "2 to 10 players"),
    (["2c2d", "2h2s", "3c3d", "3h3s", "4c4d", "4h4s", "5c5d", "5h5s", "6c6d", "6h6s", "7c7d"],
     "2 to 10 players"),
    (["AhKh", "QsQd", "--board", "2c"], "0, 3, 4 or 5"),
    (["AhKh", "QsQd", "--board", "2c3c"], "0, 3, 4 or 5"),
    (["AhKhQd", "QsJs"], "3 cards"),
    (["2c2d", "2h2s", "3c3d", "3h3s", "4c4d", "4h4s", "5c5d", "5h5s", "6c6d", "6h6s",
      "--dead", "7c7d7h7s8c8d8h8s9c9d9h9sTcTdThTsJcJdJhJsQcQdQhQsKcKdKhKs"], "not enough"),
    (["AhKh", "QsQd", "--samples", "0"], "samples"),
    (["AhKh", "QsQd", "--exact", "--samples", "10"], "--exact cannot be combined with --samples"),
])
def test_bad_input_one_line_exit_2(capsys, argv, needle):
    rc, out, err = run(capsys, "equity", *argv)
    assert rc == 2
    assert out == ""
    assert err.startswith("error: ") and err.count("\n") == 1
    assert needle in err
