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
        # every case runs and passes (a case that raises is FAILED with the error)
        assert c["status"] == "ok", c
        assert c["check"]["ok"] and c["check"]["runs_checked"] >= 2
        assert c["seconds"]["min"] <= c["seconds"]["median"] <= c["seconds"]["max"]
        assert c["rate"]["median"] > 0 and c["compile_s"] > 0
        # the warm-up run's own allocations (its answer at least) are traced, and the
        # process peak since the reset is at least where the run started
        mem = c["memory"]
        assert mem["tracemalloc_peak_bytes"] > 0, c["name"]
        if mem["rss_peak_bytes"] is not None and mem["rss_start_bytes"] is not None:
            assert mem["rss_peak_bytes"] >= mem["rss_start_bytes"] > 0, c["name"]
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


def _shifted(values, by):
    """The pinned answers with the first two moved by +by / -by (sums kept)."""
    return [values[0] + by, values[1] - by, *values[2:]]


#: Every case with the pinned answer it is checked against.
PINNED = {"exact-hu": ("EXACT", "hu"), "exact-3way": ("EXACT", "3way"),
          "exact-hu-short-deck": ("EXACT", "short-deck-hu"),
          "exact-hu-omaha-hilo": ("EXACT", "omaha-hilo-hu"),
          "exact-hu-omaha-hilo-pre": ("EXACT", "omaha-hilo-pre"),
          "mc-hu": ("EXACT", "hu"), "mc-6way": ("EXACT", "6way"),
          "mc-6way-mt": ("EXACT", "6way"), "range-pre": ("EXACT", "range-pre"),
          "range-flop": ("EXACT", "range-flop"), "omaha-exact": ("EXACT", "omaha"),
          "omaha-mc": ("EXACT", "omaha"), "mc-hu-omaha-hilo-pre": ("EXACT", "omaha-hilo-pre"),
          "allin-mc": ("ALLIN", "pre"),
          "allin-exact": ("ALLIN", "flop"), "walk": ("WALK", 5), "walk-mt": ("WALK", 5),
          "batch": ("REF", "evaluator.hands.strength_of_ids"),
          "batch-mt": ("REF", "evaluator.hands.strength_of_ids"),
          "batch-checked": ("REF", "evaluator.hands.strength_of_ids"),
          "omaha-eval": ("REF", "evaluator.omaha.omaha_best")}


def test_every_case_has_a_pinned_answer():
    assert sorted(PINNED) == sorted(bench.CASE_NAMES)


@pytest.mark.parametrize("name", list(PINNED))
def test_a_wrong_answer_fails_every_case(monkeypatch, name):
    """Move the answer a case is checked against: the case must fail its check."""
    kind, key = PINNED[name]
    if kind == "EXACT":
        hands, want, runouts = bench.EXACT[key]
        by = Fraction(1, 10**6) if name.startswith(("exact", "range", "omaha-exact")) \
            else Fraction(1, 20)
        monkeypatch.setitem(bench.EXACT, key, (hands, _shifted(want, by), runouts))
    elif kind == "ALLIN":
        specs, board, want, runouts = bench.ALLIN[key]
        monkeypatch.setitem(bench.ALLIN, key, (specs, board, _shifted(want, 20), runouts))
    elif kind == "WALK":
        monkeypatch.setitem(bench.WALK_COUNTS, key, dict(bench.WALK_COUNTS[key], Flush=5_107))
    else:  # the pure-Python reference the sampled rows are compared with
        module, fn = key.rsplit(".", 1)
        real = getattr(__import__(module, fromlist=[fn]), fn)
        if fn == "omaha_best":
            monkeypatch.setattr(f"{module}.{fn}", lambda h, b: (real(h, b)[0] + 1, None))
        else:
            monkeypatch.setattr(f"{module}.{fn}", lambda ids: real(ids) % 7462 + 1)
    rep = bench.run_bench([name], mode="tiny", repeat=1)
    (case,) = rep["cases"]
    assert case["status"] == "FAILED" and not case["check"]["ok"] and not rep["ok"], case


def test_wrong_hilo_halves_fail_with_the_right_equity(monkeypatch):
    """The hi/lo case checks the high and low halves too, not just their sum."""
    from simulate.bench import answers

    highs, lows = answers.HILO_HALVES["omaha-hilo-hu"]
    by = Fraction(1, 10**6)
    monkeypatch.setitem(answers.HILO_HALVES, "omaha-hilo-hu",
                        ([highs[0] + by, *highs[1:]], [lows[0] - by, *lows[1:]]))
    (case,) = bench.run_bench(["exact-hu-omaha-hilo"], mode="tiny", repeat=1)["cases"]
    assert case["status"] == "FAILED" and "high/low halves" in case["check"]["detail"], case


def test_hilo_case_times_omaha_high_beside_it(monkeypatch):
    """The preflop hi/lo case times Omaha high on the same hands in turn (its "speedup" is
    high's time over hi/lo's), and that side is checked against its own pinned equity."""
    (case,) = bench.run_bench(["exact-hu-omaha-hilo-pre"], mode="tiny", repeat=1)["cases"]
    (side,) = case["peers"]
    assert case["status"] == "ok" and side["peer"] == "omaha (high)", case
    assert side["status"] == "ok" and side["check"]["ok"] and side["speedup"]["median"] > 0
    hands, want, runouts = bench.EXACT["omaha-hilo-pre-high"]
    monkeypatch.setitem(bench.EXACT, "omaha-hilo-pre-high",
                        (hands, _shifted(want, Fraction(1, 10**6)), runouts))
    (case,) = bench.run_bench(["exact-hu-omaha-hilo-pre"], mode="tiny", repeat=1)["cases"]
    assert not case["peers"][0]["check"]["ok"], case


def test_a_case_that_raises_fails_alone(monkeypatch):
    import dataclasses

    from simulate.bench import runner

    def broken(cfg):
        raise RuntimeError("kernel exploded")

    cases = tuple(dataclasses.replace(c, make=broken) if c.name == "exact-hu" else c
                  for c in runner.CASES)
    monkeypatch.setattr(runner, "CASES", cases)
    rep = bench.run_bench(["walk", "exact-hu"], mode="tiny", repeat=1)
    walk, hu = rep["cases"]
    assert walk["status"] == "ok" and hu["status"] == "FAILED" and not rep["ok"]
    assert hu["check"]["detail"] == "error: RuntimeError: kernel exploded"
    assert "FAILED" in bench.format_report(rep)


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
    peers = bench.load_peers()  # the benchmarks/peers package of this checkout
    assert peers is not None and peers.__name__ == "pokerjit_bench_peers"
    assert set(peers.available_peers()) == set(peers.PEERS)  # all in the dev extra
    rep = bench.run_bench(["batch", "exact-hu"], mode="tiny", repeat=2, peers=True)
    assert rep["ok"]
    batch = rep["cases"][0]
    assert {p["peer"] for p in batch["peers"]} == set(peers.available_peers())
    for c in rep["cases"]:
        for p in c["peers"]:
            assert p["status"] == "ok", p
            assert p["speedup"]["median"] > 0 and p["check"]["ok"], p
