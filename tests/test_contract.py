"""The public contract (the names, commands and JSON documents the README promises), checked
quickly from the outside.

* Every command's ``--json`` document has the contract's keys (extra keys are allowed).
* Every command's ``-h`` shows examples.
* Bad input on the command line: exactly one ``error: ...`` line on stderr, exit status 2,
  nothing on stdout, and no output file left behind or clobbered -- including the regressions
  found in review (unwritable ``--csv``/``--png``/``-o`` paths used to end in a traceback after
  the whole computation; ``batch IN -o IN`` used to wipe the input file).
* Python API errors are ``ValueError`` subclasses with a clear message.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

import evaluator
import simulate
from simulate.cli import COMMANDS, main

EQUITY_KEYS = {"game", "board", "dead", "exact", "samples", "elapsed_s", "players"}
PLAYER_KEYS = {"hand", "equity", "win", "tie", "std_error"}

ALLIN_HAND = """
variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 AcAd', 'd dh p2 KcKd', 'p2 cbr 100', 'p1 cc', 'd db 2d3d4h', 'd db 5s',
  'd db 9c', 'p1 sm AcAd', 'p2 sm KcKd']
players = ['a', 'b']
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    rc, out, _ = run(capsys, *argv, "--json")
    assert rc == 0
    return json.loads(out)


def assert_one_line_error(rc: int, out: str, err: str, *needles: str) -> None:
    assert rc == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
    for n in needles:
        assert n in lines[0], (n, lines[0])


# ----------------------------------------------------------------------------- JSON shapes
def test_equity_json_keys(capsys):
    d = run_json(capsys, "equity", "AhKh", "QsQd", "--board", "Ks8h2c7d", "--dead", "2d")
    assert EQUITY_KEYS <= set(d) and d["exact"] is True and d["samples"] == 43
    assert [p["hand"] for p in d["players"]] == ["AhKh", "QsQd"]
    assert all(PLAYER_KEYS <= set(p) for p in d["players"])
    # every category is reported, zeros included (the exact-hand path used to drop zeros)
    assert all(len(p["categories"]) == 9 for p in d["players"])
    d = run_json(capsys, "equity", "AhAsKhKs", "QdJdTc9c", "--game", "omaha",
                 "--board", "2c7d8h3s", "--samples", "500", "--seed", "1")
    assert d["game"] == "omaha" and d["exact"] is False and d["samples"] == 500


def test_eval_json_keys(capsys):
    d = run_json(capsys, "eval", "Ah Ad 4c 4s Kh 2d 3c")
    assert {"strength", "category", "best_five", "text"} <= set(d)
    assert d["text"] == "Two Pair, Aces and Fours, King kicker"


def test_range_json_keys(capsys):
    d = run_json(capsys, "range", "QQ+,AKs", "--vs", "random", "--board", "Td9d2c4s")
    assert EQUITY_KEYS <= set(d) and all(PLAYER_KEYS <= set(p) for p in d["players"])
    r = d["ranges"][0]
    assert len(r["grid"]) == 13 and all(len(row) == 13 for row in r["grid"])
    assert {"combo", "equity"} <= set(r["combos"][0])


def test_allin_json_keys(capsys):
    d = run_json(capsys, "allin", "AhAs:100", "KdKc:60", "QhQs:30", "fold:5",
                 "--board", "2c7d8h")
    assert {"pots", "players", "exact", "samples"} <= set(d)
    assert all({"amount", "eligible"} <= set(p) for p in d["pots"])
    assert all({"hand", "committed", "expected_payout", "ev"} <= set(p) for p in d["players"])
    # every chip comes back: the expected payouts include the uncalled 40 returned to seat 0
    assert sum(p["expected_payout"] for p in d["players"]) == pytest.approx(195)


def test_hand_json_keys(capsys, tmp_path: Path):
    f = tmp_path / "ai.phh"
    f.write_text(ALLIN_HAND)
    [h] = run_json(capsys, "hand", str(f))["hands"]
    assert {"source", "finishing_stacks", "pots", "winnings", "allin_ev", "error"} <= set(h)
    assert h["error"] is None and h["finishing_stacks"] == [200, 0]
    assert len(h["allin_ev"]) == 2


def test_batch_json_lines(capsys, tmp_path: Path):
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text(json.dumps({"id": "a", "hands": ["AhKh", "QsQd"], "board": "Ks8h2c7d",
                               "dead": "", "game": "holdem", "exact": None, "samples": None,
                               "seed": 1}) + "\nnot json\n")
    rc, _, _ = run(capsys, "batch", str(src), "-o", str(out), "--quiet")
    assert rc == 0
    good, bad = (json.loads(x) for x in out.read_text().splitlines())
    assert good["id"] == "a" and EQUITY_KEYS <= set(good["result"])
    assert "error" in bad and "result" not in bad


def test_chart_json_keys(capsys, monkeypatch):
    import simulate.ranges

    monkeypatch.setattr(simulate.ranges, "HAND_CLASSES", ["AA", "72o"])
    d = run_json(capsys, "chart", "--opponents", "2", "--samples", "1000", "--seed", "1")
    assert [r["hand"] for r in d["rows"]] == ["AA", "72o"]
    assert all(set(r) >= {"hand", "opponents", "equity", "std_error", "exact"}
               for r in d["rows"])


def test_bench_json(capsys):
    d = run_json(capsys, "bench", "--tiny", "--case", "batch")
    assert d["ok"] is True and d["cases"][0]["name"] == "batch"


def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out == f"pokerjit {simulate.__version__}\n"


def test_the_same_key_for_the_same_thing(capsys, monkeypatch):
    """``game``, ``board`` and ``dead`` (canonical compact card text) in every document that
    has them; ``seed`` exactly where something was sampled; ``samples`` the deals covered;
    ``elapsed_s`` the work and ``load_s`` the compile or cache load, side by side."""
    import simulate.ranges

    monkeypatch.setattr(simulate.ranges, "HAND_CLASSES", ["AA", "72o"])
    board, dead = "Ks 8h 2c", "2d"
    sampled = ["--samples", "2000", "--seed", "5"]
    walls: list[float] = []  # each command's wall time, measured around it

    def timed_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
        t0 = time.perf_counter()
        d = run_json(capsys, *argv)
        walls.append(time.perf_counter() - t0)
        return d

    docs = {
        "equity": timed_json(capsys, "equity", "AhKh", "QsQd", "--board", board, "--dead",
                             dead),
        "equity mc": timed_json(capsys, "equity", "AhKh", "QsQd", "--board", board, "--dead",
                                dead, *sampled),
        "omaha": timed_json(capsys, "equity", "AhAsKhKd", "QdJdTc9c", "--game", "omaha",
                            "--board", board, "--dead", dead),
        "range": timed_json(capsys, "range", "AKs", "--vs", "QQ", "--board", board, "--dead",
                            dead),
        "range mc": timed_json(capsys, "range", "AKs", "--vs", "QQ", "--board", board,
                               "--dead", dead, *sampled),
        "allin": timed_json(capsys, "allin", "AhKh:100", "QsQd:60", "--board", board,
                            "--dead", dead),
        "allin mc": timed_json(capsys, "allin", "AhKh:100", "QsQd:60", "--board", board,
                               "--dead", dead, *sampled),
    }
    for (name, d), wall in zip(docs.items(), walls, strict=True):
        assert d["board"] == "Ks8h2c" and d["dead"] == "2d", name
        assert d["game"] == ("omaha" if name == "omaha" else "holdem"), name
        assert ("seed" in d) == name.endswith(" mc"), name
        assert d.get("seed", 5) == 5 and isinstance(d["samples"], int), name
        # the work and the kernel loading are disjoint parts of the command's wall time
        assert type(d["elapsed_s"]) is float and type(d["load_s"]) is float, name
        assert d["elapsed_s"] > 0 and d["load_s"] >= 0, name
        assert d["elapsed_s"] + d["load_s"] <= wall, (name, d["elapsed_s"], d["load_s"], wall)
        assert d["samples"] == (2000 if name.endswith(" mc") else d["samples"]), name
    assert docs["equity"]["samples"] == 946  # C(44, 2) runouts
    assert docs["range"]["samples"] == 3 * 6 * 946  # live AKs x QQ combos x runouts
    ev = run_json(capsys, "eval", "AsKsQs", "--board", "Js Ts")
    assert ev["game"] == "holdem" and ev["board"] == "JsTs"
    om = run_json(capsys, "eval", "--game", "omaha", "AhKhQd2c", "--board", "Jh 9h 3h")
    assert om["game"] == "omaha" and om["board"] == "Jh9h3h" and om["hole"] == "AhKhQd2c"
    chart = run_json(capsys, "chart", "--opponents", "2", "--samples", "100", "--seed", "9",
                     "-q")
    assert (chart["game"], chart["board"], chart["dead"]) == ("holdem", "", "")
    assert [(r["exact"], r["samples"], r["seed"]) for r in chart["rows"]] == [
        (False, 100, 9 + 2000), (False, 100, 9 + 2001)]  # each hand reproducible on its own


def test_public_names_and_a_light_import():
    import subprocess
    import sys

    for name in simulate.__all__:
        assert getattr(simulate, name) is not None, name
    assert simulate.equity.__module__ == "simulate.equity" and callable(simulate.equity)
    assert callable(simulate.allin_ev) and callable(simulate.range_equity)
    p = subprocess.run([sys.executable, "-c", "import sys, simulate; "
                        "print(sorted(m for m in ('numba', 'simulate.allin', 'scipy') "
                        "if m in sys.modules))"], capture_output=True, text=True, check=True,
                       cwd=Path(__file__).resolve().parent.parent)
    assert p.stdout == "[]\n"


@pytest.mark.parametrize("cmd", COMMANDS)
def test_every_command_has_help_with_examples(capsys, cmd):
    with pytest.raises(SystemExit) as e:
        main([cmd, "-h"])
    out = capsys.readouterr().out
    assert e.value.code == 0 and "examples:" in out and "--json" in out
    assert "%%" not in out  # a literal '%%' slipped into the range help once


# ----------------------------------------------------------------------------- CLI errors
@pytest.mark.parametrize("argv,needle", [
    (["equity", "AhKh", "AhQd"], "duplicate card Ah"),
    (["equity", "AhKh", "QsQd", "--board", "2c3c4c", "--dead", "2c"], "duplicate card 2c"),
    (["equity", "AhKh", "QsQd", "--samples", "0"], "--samples"),
    (["equity", "AhKh", "QsQd", "--threads", "0"], "--threads"),
    (["equity", "AKx", "QQ"], "'AKx' is not a hand or range"),
    (["eval", "AsKsQs"], "got 3"),
    (["range", "AKs", "--vs", "QQ", "--board", "2c"], "board"),
    (["allin", "AhAs:100", "KdKc:-5"], "seat 1"),
    (["allin", "fold:10", "fold:20"], "no live player"),
    (["chart", "--opponents", "10"], "--opponents"),
    (["chart", "--opponents", "2", "--seed", "-1"], "--seed"),  # used to be taken mod 2**64
    (["chart", "--opponents", "2", "--threads", "0"], "--threads"),
    (["bench", "--case", "nope"], "nope"),
    (["equity", "AhKh", "QsQd", "--bogus"], "--bogus"),
    # numbers too big for the kernels used to end in an OverflowError/TypeError traceback
    (["equity", "AhKh", "QsQd", "--samples", "99999999999999999999"], "at most"),
    (["range", "AKs", "--vs", "QQ", "--samples", "99999999999999999999"], "at most"),
    (["chart", "--opponents", "2", "--samples", "99999999999999999999"], "at most"),
    (["equity", "AhKh", "QsQd", "--std-error", "1e-300"], "at least"),
    (["equity", "AKs", "QQ", "--std-error", "1e-300"], "at least"),
    (["allin", "AhAs:100", "KdKc:50", "--std-error", "1e-300"], "at least"),
    (["allin", "AhAs:99999999999999999999999", "KdKc:99999999999999999999999"], "at most"),
])
def test_cli_errors_are_one_line(capsys, argv, needle):
    assert_one_line_error(*run(capsys, *argv), needle)


def test_unwritable_output_files_fail_early_and_cleanly(capsys, tmp_path: Path):
    missing = tmp_path / "no" / "such"
    for argv, needle in [
        (["range", "AKs", "--vs", "QQ", "--csv", str(missing / "c.csv")], "no such folder"),
        (["range", "AKs", "--vs", "QQ", "--png", str(missing / "g.png")], "no such folder"),
        (["range", "AKs", "--vs", "QQ", "--csv", str(tmp_path)], "is a folder"),
        (["chart", "-o", str(missing / "chart.csv")], "no such folder"),
        (["chart", "--json", "-o", str(tmp_path)], "is a folder"),
    ]:
        assert_one_line_error(*run(capsys, *argv), needle)
    assert list(tmp_path.iterdir()) == []


def test_png_with_an_unknown_format_fails_before_the_work(capsys, tmp_path: Path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "grid.xyz"
    assert_one_line_error(*run(capsys, "range", "AKs", "--vs", "QQ", "--png", str(out)),
                          ".xyz")
    assert not out.exists()


def test_os_errors_are_one_line(capsys, monkeypatch):
    import simulate.cli.eval as ev

    def boom(args):
        raise PermissionError(13, "Permission denied", "/x/y")

    monkeypatch.setattr(ev, "run", boom)
    assert_one_line_error(*run(capsys, "eval", "AsKsQsJsTs"), "/x/y: Permission denied")


def test_batch_never_clobbers_its_input_or_a_foreign_file(capsys, tmp_path: Path):
    src = tmp_path / "in.jsonl"
    text = json.dumps({"id": "a", "hands": ["AhKh", "QsQd"], "board": "Ks8h2c7d"}) + "\n"
    src.write_text(text)
    assert_one_line_error(*run(capsys, "batch", str(src), "-o", str(src)), "input file")
    assert src.read_text() == text
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\nmore notes\n")
    assert_one_line_error(*run(capsys, "batch", str(src), "-o", str(notes)),
                          "not a batch result")
    assert notes.read_text() == "my notes\nmore notes\n"
    assert_one_line_error(*run(capsys, "batch", str(src), "-o", str(tmp_path)), "folder")


# ----------------------------------------------------------------------------- Python API
def test_python_api_errors_are_value_errors():
    bad = [
        lambda: simulate.equity(None),
        lambda: simulate.equity(["AKs", "QQ"], exact=True, samples=10),  # ranges too
        lambda: simulate.equity(["AKs", "QQ"], samples=0),
        lambda: simulate.equity(["AhKh", "QsQd"], board="2c3c"),
        lambda: simulate.equity(["AhKh", "QsQd"], samples=10**20),
        lambda: simulate.equity(["AKs", "QQ"], target_std_error=1e-300),
        lambda: simulate.equity(["AhAsKhKs", "QdJdTc9c"], game="omaha", samples=10**20),
        lambda: simulate.allin_ev([("AhAs", 100), (None, 200)]),
        lambda: simulate.allin_ev([("AhAs", 10**30), ("KdKc", 10**30)]),
        lambda: simulate.allin_ev(["AhAs:100", "KdKc:50"], samples=10**20),
        lambda: simulate.allin_ev(["AhAs:100", "KdKc:50"], target_std_error=1e-300),
        lambda: evaluator.category("x"),
        lambda: evaluator.category(5.5),
        lambda: evaluator.evaluate("AsKsQsJs"),
        lambda: evaluator.evaluate_omaha("AhKhQh", "2c3c4c"),
    ]
    for f in bad:
        with pytest.raises(ValueError) as e:
            f()
        assert str(e.value) and "\n" not in str(e.value)
    with pytest.raises(ValueError, match="strength must be an integer"):
        evaluator.category("x")


def test_card_text_forms_and_unicode_suits_in_ranges():
    assert evaluator.evaluate("10h,jH,q♥ k♥ a♥") == 7462
    from simulate.ranges import parse_range

    assert parse_range("A♥K♥").combo_texts() == ["AhKh"]
    assert len(parse_range("A♥K♥, q♠Q♦, 10♣Tx")) == 5
    r = simulate.equity(["A♥K♥,QQ", "JJ"], "Ks8h2c7d", exact=True)
    assert r.players[0].hand == "A♥K♥,QQ" and r.exact


def test_allin_ev_accepts_specs_and_pairs():
    a = simulate.allin_ev(["AhAs:100", "fold:20", "KdKc:60"], board="2c7d8h")
    b = simulate.allin_ev([("AhAs", 100), (None, 20), ("KdKc", 60)], board="2c7d8h")
    assert a.to_dict()["players"] == b.to_dict()["players"]
    assert [p.amount for p in a.pots] == [140]


def test_same_seed_same_answer_on_any_thread_count():
    def eqs(**kw):
        return [[(p.equity, p.std_error) for p in simulate.equity(
            h, b, game=g, samples=20_000, seed=11, threads=t, **kw).players]
            for h, b, g in [(["AhKh", "QsQd", "7c7d"], "", "holdem"),
                            (["QQ+,AKs", "random", "AhKx"], "Td9d2c", "holdem"),
                            (["AhAsKhKs", "QdJdTc9c"], "", "omaha")]
            for t in (1, 2)]

    got = eqs()
    assert got[0] == got[1] and got[2] == got[3] and got[4] == got[5]
    allin = [simulate.allin_ev(["AhAs:200", "KdKc:120", "QhQs:50"], samples=20_000, seed=3,
                               threads=t).to_dict()["players"] for t in (1, 2)]
    assert allin[0] == allin[1]
