"""simulate/warmup.py and ``pokerjit warmup``: every step runs and is reported; after a
warm-up no command compiles (slow: from an empty cache)."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest
from helpers import on_a_terminal

from simulate.cli import main


def test_warmup_runs_every_step(capsys):
    from simulate.warmup import STEPS

    t0 = time.perf_counter()
    assert main(["warmup", "--json", "--jobs", "1"]) == 0
    wall = time.perf_counter() - t0
    out, err = capsys.readouterr()
    d = json.loads(out)
    assert [s["name"] for s in d["steps"]] == [s.name for s in STEPS]
    for s in d["steps"]:  # compiling or loading is a part of each step's time
        assert type(s["seconds"]) is float and type(s["compile_s"]) is float, s
        assert 0.0 <= s["compile_s"] <= s["seconds"], s
    assert d["seconds"] == pytest.approx(sum(s["seconds"] for s in d["steps"]))
    assert d["compile_s"] == pytest.approx(sum(s["compile_s"] for s in d["steps"]))
    # one job: the steps run one after another inside the command's wall time
    assert 0.0 < d["seconds"] <= d["wall_s"] <= wall
    assert d["cache"] is None or isinstance(d["cache"], str)
    assert d["jobs"] == 1
    assert "error" not in err and "Traceback" not in err


@pytest.mark.slow
def test_warmup_in_two_processes_reports_every_step_in_order(capsys):
    from simulate.warmup import STEPS

    assert main(["warmup", "--json", "--jobs", "2"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["jobs"] == 2 and [s["name"] for s in d["steps"]] == [s.name for s in STEPS]


def test_warmup_jobs_must_be_positive(capsys):
    assert main(["warmup", "--jobs", "0"]) == 2
    assert capsys.readouterr().err.strip() == "error: --jobs 0: at least 1"


def test_warmup_text(capsys, monkeypatch):
    import simulate.warmup as W

    monkeypatch.setattr(W, "STEPS", W.STEPS[:2])
    assert main(["warmup", "--jobs", "1"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0].split() == ["step", "time", "compiling", "or", "loading"]
    assert [ln.split()[0] for ln in out.splitlines()[2:4]] == ["evaluator", "omaha"]
    assert "s in all" in out and "evaluator:" in err


@pytest.mark.slow
def test_after_warmup_no_command_compiles(tmp_path: Path):
    """From an empty cache, ``pokerjit warmup``; then no command compiles. Where
    ``POKERJIT_WARMED_CACHE`` names a copy of a cache that ``pokerjit warmup`` filled from
    empty and nothing used since (``.ci/run`` makes one), the test starts from a copy of
    that instead of compiling everything a second time (~10 minutes on 2 cores)."""
    import shutil

    env = {k: v for k, v in os.environ.items()
           if not k.startswith("NUMBA_CACHE") and k != "POKERJIT_WARMED_CACHE"}
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "cache")
    warmed = os.environ.get("POKERJIT_WARMED_CACHE")
    if warmed:
        shutil.copytree(warmed, tmp_path / "cache")
    else:  # stderr on a terminal shows the compile notice
        rc, _, err = on_a_terminal([sys.executable, "-m", "simulate", "warmup", "-q"], env)
        assert rc == 0 and err.startswith("compiling pokerjit's kernels"), err
    for argv in (["equity", "AhKh", "QsQd"], ["equity", "AhKh", "QsQd", "--samples", "1000"],
                 ["equity", "AhKh", "QsQd", "7c7d", "--samples", "100000"],
                 ["equity", "AhKhQd", "7c7d2s", "--game", "crazy_pineapple", "--samples",
                  "20000"],
                 ["allin", "AhKh2c:100", "7s7d8c:50", "QcJc3d:100", "--game",
                  "crazy_pineapple", "--samples", "40000"],
                 ["equity", "AhAsKhKs", "QdJdTc9c", "--game", "omaha", "--board", "2c7d8h"],
                 ["range", "QQ+,AKs", "--vs", "random", "--board", "Td9d2c"],
                 ["allin", "AhAs:100", "KdKc:60", "QhQs:30"],
                 ["allin", "AhAs:100", "KdKc:60", "QhQs:30", "--samples", "200000"],
                 ["play", "--players", "2", "--stacks", "200", "--blinds", "1/2", "--hands",
                  "100"],
                 # the tournament step: both ICM roads, push/fold heads-up and 3-handed,
                 # all-in EV's ICM equities
                 ["icm", "5000", "3000", "2000", "--payouts", "50", "30", "20"],
                 ["icm", *map(str, range(100, 121)), "--payouts", "50", "30", "20"],
                 ["pushfold", "--stack", "10"],
                 ["pushfold", "--players", "3", "--stacks", "10", "8", "6", "--payouts", "50",
                  "30", "20"],
                 ["allin", "AhAs:100", "KdKc:60", "QhQs:30", "--stacks", "0", "40", "70",
                  "--payouts", "50", "30", "20", "--posted", "0", "0", "10"]):
        rc, out, err = on_a_terminal([sys.executable, "-m", "simulate", *argv, "--json"], env)
        assert rc == 0 and err == "", (argv, err)  # on a terminal a compile says so
        assert json.loads(out).get("load_s", 0) < 5
    # a file of more plain hands than fast_replay.FAST_MIN takes the batch replay kernel,
    # which the warm-up compiles although its sample is two hands
    from simulate.notation.phh_synth import write_synthetic_phhs

    hands = tmp_path / "hands.phhs"
    write_synthetic_phhs(str(hands), 300, seed=1)
    for argv in (["hand", str(hands), "--totals-only"], ["hand", str(hands), "--workers", "2",
                                                         "--totals-only"]):
        rc, out, err = on_a_terminal([sys.executable, "-m", "simulate", *argv, "--json", "-q"],
                                     env)
        assert rc == 0 and err == "", (argv, err)
        assert json.loads(out)["summary"]["hands"] == 300
    # one hand at a time: an Omaha showdown, and one whose winner hangs on hidden cards
    omaha = tmp_path / "omaha.phh"
    omaha.write_text(
        "variant = 'PO'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
        "starting_stacks = [200, 200]\nactions = ['d dh p1 AhKhQdJd', 'd dh p2 7c7d6s5s', "
        "'p2 cbr 6', 'p1 cc', 'd db Ks8h2c', 'p1 cc', 'p2 cc', 'd db 4d', 'p1 cc', 'p2 cc', "
        "'d db 9s', 'p1 cc', 'p2 cc', 'p1 sm AhKhQdJd', 'p2 sm 7c7d6s5s']\n")
    hidden = tmp_path / "hidden.phh"
    hidden.write_text(
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
        "starting_stacks = [200, 200]\nactions = ['d dh p1 AhKh', 'd dh p2 ????', 'p2 cc', "
        "'p1 cc', 'd db Ks8h2c', 'p1 cc', 'p2 cc', 'd db 4d', 'p1 cc', 'p2 cc', 'd db 9s', "
        "'p1 cc', 'p2 cc', 'p1 sm AhKh']\n")
    for f, won in ((omaha, [12, 0]), (hidden, [None, None])):
        rc, out, err = on_a_terminal([sys.executable, "-m", "simulate", "hand", str(f),
                                      "--json", "-q"], env)
        assert rc == 0 and err == "", (f.name, err)
        assert json.loads(out)["hands"][0]["winnings"] == won


def test_one_registry_of_warm_ups(monkeypatch):
    """simulate.warmup is the one list of what to compile per kind of work: the serial part
    of a worker kind's step is the warm-up that kind's workers run (batch's
    ``warm_lines``, the hand replay's ``warm_hands``), which the executor is handed."""
    import simulate.batch.chunks as C
    import simulate.replay.hand_files
    import simulate.replay.worker_warmup as H
    import simulate.warmup as W

    assert set(W.KINDS) >= {"evaluator", "equity", "range", "omaha", "allin", "pineapple",
                            "batch", "play", "hand", "import"}
    with pytest.raises(ValueError, match="no warm-up for 'nope'"):
        W.warm("nope")
    calls = []
    monkeypatch.setattr(C, "warm_lines", lambda kinds: calls.append(("lines", kinds)))
    monkeypatch.setattr(H, "warm_hands", lambda kinds=(): calls.append(("hands", kinds)))
    W.warm(["allin", "batch", "hand"], serial=True)  # in STEPS order: hand histories first
    assert calls == [("hands", ()), ("lines", ("allin",)), ("lines", ("fast",))]
    assert set(C.SAMPLE_LINES) == {"fast", "equity", "omaha", "range", "allin"}
    calls.clear()
    monkeypatch.setattr(W, "STEPS", tuple(
        W.Step(s.name, lambda n=s.name: calls.append(("run", n)), s.kind,
               None if s.serial is None else (lambda n=s.name: calls.append(("serial", n))),
               s.needs) for s in W.STEPS))
    W.warm("hand", serial=True)
    W.warm(["omaha"])
    assert calls == [("serial", "hand histories"), ("run", "omaha evaluator"),
                     ("run", "omaha equity")]
    assert not hasattr(simulate.replay.hand_files, "warm")


def test_the_pool_and_the_warm_up_registry_import_light():
    """simulate.run imports none of batch, warmup, replay or notation; importing
    simulate.warmup loads neither batch nor replay; replaying a file (``pokerjit hand``)
    never imports simulate.batch (nor simulate.warmup)."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    hand = root / "tests" / "data" / "phh" / "vendor" / "phh-curated" / "dwan-ivey-2009.phh"
    code = (
        "import sys\n"
        "import simulate.run, simulate.warmup\n"
        "print(sorted(m for m in sys.modules if m.split('.')[:2] in (\n"
        "    ['simulate', 'batch'], ['simulate', 'replay'], ['simulate', 'notation'])))\n"
        "from simulate.cli import main\n"
        "sys.stdout = open('/dev/null', 'w')\n"
        f"rc = main(['hand', {str(hand)!r}, '--json'])\n"
        "sys.stdout = sys.__stdout__\n"
        "print(rc, 'simulate.batch' in sys.modules, 'simulate.replay' in sys.modules)\n")
    env = {**os.environ, "PYTHONPATH": str(root)}
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=300)
    assert got.stdout.splitlines() == ["[]", "0 False True"], got.stderr


@pytest.mark.slow
def test_worker_warm_ups_start_no_thread_pool():
    """What a worker kind warms runs on one thread: a process may fork after it."""
    import subprocess

    code = ("import sys; from simulate.warmup import warm; warm(['batch', 'hand'], "
            "serial=True); par = sys.modules.get('numba.np.ufunc.parallel'); "
            "print('simulate.replay.fast_replay' in sys.modules, "
            "bool(getattr(par, '_is_initialized', False)))")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=600)
    assert got.stdout.split() == ["True", "False"], got.stderr
