"""Smoke tests of ``pokerjit bench``: every case runs and checks its answer (tiny sizes)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from simulate import bench
from simulate.cli import main


@pytest.fixture(scope="module")
def tiny_report() -> dict:
    return bench.run_bench(mode="tiny", repeat=1)


def test_every_case_runs_and_passes_its_check(tiny_report):
    rep = tiny_report
    assert rep["ok"], [c for c in rep["cases"] if c["status"] == "FAILED"]
    assert [c["name"] for c in rep["cases"]] == list(bench.CASE_NAMES)
    for c in rep["cases"]:
        # every module a case needs is part of the project: "unavailable" would hide a break
        assert c["status"] == "ok", c
        assert c["check"]["ok"] and c["check"]["runs_checked"] >= 2
        assert c["seconds"]["min"] <= c["seconds"]["median"] <= c["seconds"]["max"]
        assert c["rate"]["median"] > 0 and c["compile_s"] >= 0
        assert c["memory"]["tracemalloc_peak_bytes"] >= 0
    # the cases built on the evaluator alone are always there
    core = {c["name"]: c["status"] for c in rep["cases"]}
    assert core["batch"] == core["batch-mt"] == core["walk"] == core["walk-mt"] == "ok"


def test_report_metadata(tiny_report):
    rep = tiny_report
    assert rep["tables_bytes"] > 0
    m = rep["machine"]
    assert m["cores"] >= 1 and m["numba"] and m["cpu"]
    json.dumps(rep)  # JSON-ready
    text = bench.format_report(rep)
    assert "walk" in text and "all checks passed" in text
    assert "| case |" in bench.markdown_table(rep)


def test_wrong_answer_fails_the_case(monkeypatch):
    hands, want, runouts = bench.EXACT["hu"]
    wrong = [want[0] + Fraction(1, 10**6), want[1] - Fraction(1, 10**6)]
    monkeypatch.setitem(bench.EXACT, "hu", (hands, wrong, runouts))
    rep = bench.run_bench(["exact-hu"], mode="tiny", repeat=1)
    (case,) = rep["cases"]
    assert case["status"] == "FAILED" and not case["check"]["ok"] and not rep["ok"]


def test_wrong_walk_counts_fail_and_exit_nonzero(monkeypatch, capsys):
    counts = dict(bench.WALK_COUNTS[5], Flush=5_107)
    monkeypatch.setitem(bench.WALK_COUNTS, 5, counts)
    assert main(["bench", "--tiny", "--case", "walk"]) == 1
    assert "FAILED" in capsys.readouterr().out


def test_cli_json_case_selection(capsys):
    assert main(["bench", "--tiny", "--json", "--repeat", "2", "--case", "batch",
                 "allin-exact"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert [c["name"] for c in rep["cases"]] == ["batch", "allin-exact"]
    assert rep["cases"][0]["seconds"]["runs"] == 2 and rep["repeat"] == 2


@pytest.mark.parametrize("args", [["--case", "nope"], ["--repeat", "0"], ["--threads", "0"],
                                  ["--quick", "--tiny"]])
def test_cli_bad_input(capsys, args):
    assert main(["bench", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1


def test_peers_side_by_side():
    peers = bench.load_peers()
    if peers is None or not {"ompeval", "phevaluator"} & set(peers.available_peers()):
        pytest.skip("peer libraries not installed")
    rep = bench.run_bench(["batch", "exact-hu"], mode="tiny", repeat=2, peers=True)
    assert rep["ok"]
    batch = rep["cases"][0]
    assert {p["peer"] for p in batch["peers"]} == set(peers.available_peers())
    for c in rep["cases"]:
        for p in c["peers"]:
            assert p["status"] == "ok", p
            assert p["speedup"]["median"] > 0 and p["check"]["ok"], p
