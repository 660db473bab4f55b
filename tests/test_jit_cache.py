"""evaluator/_jit.py and Numba's disk cache: nowhere to write it is a warning, not a crash;
compile and cache-load time is measured apart from the work.

* A process that can write no cache folder (read-only install and home) used to die with
  Numba's ``RuntimeError: cannot cache function ...`` at the first kernel import; now it
  prints one warning line and compiles in memory. Simulated for real with Numba's own
  settings: only the user-provided locator (``NUMBA_CACHE_LOCATOR_CLASSES``), pointed under a
  regular file (``NUMBA_CACHE_DIR``), which no one, root included, can create folders in.
* A ``NUMBA_CACHE_DIR`` that cannot be written is named in one warning line.
* The compile clock (Numba's event hooks) counts compiling and loading; ``work_clock``
  stands still meanwhile; the first compile calls the CLI's one-line notice.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import on_a_terminal

ROOT = Path(__file__).resolve().parent.parent
KERNELS = ("import evaluator._kernels.holdem, simulate._kernels.holdem_exact, "
           "simulate._kernels.score, simulate._kernels.ranges, simulate._kernels.omaha")


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CACHE")}
    env.update(extra)
    return env


def _python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.fixture
def nowhere(tmp_path: Path) -> dict[str, str]:
    """An environment in which Numba finds no writable cache folder."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    return _env(NUMBA_CACHE_LOCATOR_CLASSES="UserProvidedCacheLocator",
                NUMBA_CACHE_DIR=str(blocker / "cache"))


def test_no_writable_cache_is_one_warning_not_a_crash(nowhere):
    p = _python(f"{KERNELS}; print('imported')", nowhere)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "imported\n"
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("warning: "), p.stderr
    assert "NUMBA_CACHE_DIR" in lines[0]


@pytest.mark.slow
def test_no_cache_anywhere_still_answers(tmp_path: Path):
    """A kernel compiled and run with no cache at all, through the places Numba tries for a
    read-only install with a read-only home (the home here is a regular file)."""
    home = tmp_path / "home"
    home.write_text("not a folder")
    env = _env(NUMBA_CACHE_LOCATOR_CLASSES="UserWideCacheLocator", HOME=str(home),
               XDG_CACHE_HOME=str(home / "cache"))
    p = _python("import numpy as np, evaluator as E\n"
                "print(int(E.evaluate_batch(np.array([[48, 44, 40, 36, 32]], np.uint8), "
                "threads=1, check=False)[0]))", env)
    assert p.returncode == 0 and p.stdout == "7462\n", p.stderr
    [line] = p.stderr.splitlines()
    assert line.startswith("warning: cannot write Numba's cache") and "NUMBA_CACHE_DIR" in line


def test_an_unwritable_numba_cache_dir_is_named(tmp_path: Path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    p = _python(f"{KERNELS}; print('imported')",
                _env(NUMBA_CACHE_DIR=str(blocker / "cache")))
    assert p.returncode == 0 and p.stdout == "imported\n", p.stderr
    [line] = p.stderr.splitlines()
    assert line.startswith(f"warning: NUMBA_CACHE_DIR={blocker / 'cache'} cannot be written")


def test_compile_clock_and_work_clock():
    import time

    import numba

    from evaluator import _jit

    clock = _jit._CompileClock()
    clock.install(numba)
    calls = []
    clock.on_first_compile.append(lambda: calls.append(1))

    @_jit.serial(cache=False)
    def fresh(n):  # a kernel no other test compiles
        s = 0.0
        for i in range(n):
            s += (i * 0.5) % 3.0
        return s

    t0, w0 = time.perf_counter(), _jit.work_clock()
    fresh(10)
    wall, work = time.perf_counter() - t0, _jit.work_clock() - w0
    assert calls == [1] and clock.compiling > 0 and clock.total >= clock.compiling
    assert work < 0.5 * wall  # the compile is not the work
    before = clock.total
    fresh(20)
    assert calls == [1] and clock.total == before  # compiled once, nothing more to do


def test_the_compile_notice_is_for_a_terminal(monkeypatch, capsys):
    import io

    from simulate.cli import _announce_compiling

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty = Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    _announce_compiling()
    assert tty.getvalue().startswith("compiling pokerjit's kernels (")
    assert tty.getvalue().count("\n") == 1
    monkeypatch.undo()
    _announce_compiling()  # stderr is not a terminal here: scripts and logs stay quiet
    assert capsys.readouterr().err == ""


@pytest.mark.slow
def test_first_run_says_it_compiles_and_times_the_work_apart(tmp_path: Path):
    env = _env(NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    argv = [sys.executable, "-m", "simulate", "equity", "AhKh", "QsQd", "--json"]
    rc1, out1, err1 = on_a_terminal(argv, env)
    rc2, out2, err2 = on_a_terminal(argv, env)
    assert rc1 == 0 and rc2 == 0, err1 + err2
    assert err1.startswith("compiling pokerjit's kernels (first run only")
    assert len(err1.splitlines()) == 1 and err2 == ""
    a, b = json.loads(out1), json.loads(out2)
    assert a["players"] == b["players"]
    assert a["load_s"] > 1.0 and a["elapsed_s"] < a["load_s"] / 10
    assert b["load_s"] < a["load_s"] / 3


def test_cached_kernels_are_keyed_on_every_kernel_source(tmp_path: Path):
    # Numba checks a cached kernel against its own file only: play.py's cached loop would
    # keep the rules of an engine.py since edited. pokerjit's locators stamp every kernel
    # with one hash of all kernel sources instead.
    from evaluator import _jit
    from evaluator._kernels import holdem
    from simulate._kernels import play

    if not _jit.CACHE:
        pytest.skip("this run compiles without the disk cache (POKERJIT_CACHE=0)")
    files = _jit.kernel_sources()
    names = {Path(f).name for f in files}
    assert {"_jit.py", "tablegen.py", "holdem.py", "engine.py", "play.py", "rng.py"} <= names
    for k in (holdem.eval_batch_serial, play.play_block):
        loc = k._cache._impl.locator
        assert type(loc).__name__.startswith("Pokerjit")
        assert loc.get_source_stamp() == _jit.tree_stamp()
    copies = []
    for f in files:
        c = tmp_path / Path(f).parent.name / Path(f).name
        c.parent.mkdir(exist_ok=True)
        c.write_bytes(Path(f).read_bytes())
        copies.append(str(c))
    before = _jit.tree_stamp(copies)
    assert before == _jit.tree_stamp(copies)
    engine = next(c for c in copies if c.endswith("engine.py"))
    Path(engine).write_bytes(Path(engine).read_bytes() + b"\n# an edit\n")
    assert _jit.tree_stamp(copies) != before


def test_code_outside_the_project_keeps_numbas_own_keying(tmp_path: Path):
    mod = tmp_path / "outside_mod.py"
    mod.write_text("from evaluator._jit import serial\n\n@serial\ndef f(x):\n    return x + 1\n")
    code = (f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import outside_mod as m; "
            "m.f(1); print(type(m.f._cache._impl.locator).__name__)")
    r = _python(code, _env(NUMBA_CACHE_DIR=str(tmp_path / "cache")))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "UserProvidedCacheLocator"


BESIDE = """
import os, sys
sys.path.insert(0, {tmp!r})
from evaluator import _first_run, _jit
import beside_mod as m

_first_run.compile_beside(m.g, (1,))()  # not allowed (a library user's process): nothing forks
m.g(1)
_first_run.allow_compile_beside()
wait = _first_run.compile_beside(m.f, (1,), (m.h, (1,)))  # two kernels, one after the other
wait()
compiling = _jit.compile_seconds()[1]
print(m.f(1), sum(m.f.stats.cache_misses.values()), sum(m.f.stats.cache_hits.values()),
      sum(m.g.stats.cache_misses.values()), compiling > 0)
print(m.h(1), sum(m.h.stats.cache_misses.values()), sum(m.h.stats.cache_hits.values()))
_first_run.compile_beside(m.f, (1,))()  # compiled here now: nothing forks
print(os.getpid() == {{pid}})
"""


def _beside_module(tmp_path: Path) -> None:
    """Write ``beside_mod.py`` (serial kernels f, g, h: x + 1, x + 2, x + 3; k: f + h) into
    ``tmp_path``; skip where a copy cannot compile beside (no disk cache, one CPU)."""
    from evaluator import _jit

    if not _jit.CACHE or len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs the disk cache and two CPUs")
    (tmp_path / "beside_mod.py").write_text(
        "from evaluator._jit import serial\n\n@serial\ndef f(x):\n    return x + 1\n\n\n"
        "@serial\ndef g(x):\n    return x + 2\n\n\n@serial\ndef h(x):\n    return x + 3\n\n\n"
        "@serial\ndef k(x):\n    return f(x) + h(x)\n")


def test_a_kernel_compiled_beside_is_loaded_from_the_cache(tmp_path: Path):
    # The first run of `pokerjit equity` compiles the walk's second half in a forked copy
    # of the process (simulate.holdem.run_walk): that copy writes the disk cache, and this
    # process loads the kernel from it instead of compiling (a cache hit, no miss).
    _beside_module(tmp_path)
    code = BESIDE.format(tmp=str(tmp_path)).replace("{pid}", "os.getpid()")
    r = _python(code, _env(NUMBA_CACHE_DIR=str(tmp_path / "cache")))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["2", "0", "1", "1", "True", "4", "0", "1", "True"], (
        r.stdout + r.stderr)
    assert r.stderr == ""


AWAIT_ONE = """
import os, sys
sys.path.insert(0, {tmp!r})
from evaluator import _first_run
import beside_mod as m

_first_run.allow_compile_beside()
_first_run.compile_beside(m.f, (1,), (m.g, (1,)), (m.h, (1,)))  # three, one after the other
_first_run.await_beside(m.g)  # the second alone
print(m.g(1), sum(m.g.stats.cache_misses.values()), sum(m.g.stats.cache_hits.values()))
_first_run.await_beside(m.h)  # the last: and the copy's end
try:
    os.waitpid(-1, os.WNOHANG)
    print("a child is left")
except ChildProcessError:
    print("reaped")
_first_run.await_beside(m.f)  # saved before g: no wait
_first_run.await_beside(m.f)  # no copy compiles it now: returns at once
print(m.f(1), m.h(1), sum(m.f.stats.cache_misses.values()) + sum(m.h.stats.cache_misses.values()))
"""


def test_await_beside_waits_for_one_kernel_of_the_copy(tmp_path: Path):
    # The first replay of `pokerjit hand` forks a copy compiling the engine's act, the
    # settle, the pot builder and the small all-in walk; each caller waits for its own
    # kernel alone (simulate.replay.hand_replay), then loads it from the cache.
    _beside_module(tmp_path)
    r = _python(AWAIT_ONE.format(tmp=str(tmp_path)), _env(NUMBA_CACHE_DIR=str(tmp_path / "c")))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["3", "0", "1", "reaped", "2", "4", "0"], r.stdout + r.stderr


CALLEES = """
import sys
sys.path.insert(0, {tmp!r})
from evaluator import _first_run
import beside_mod as m

_first_run.allow_compile_beside()
_first_run.compile_beside(m.f, (1,), (m.h, (1,)), (m.g, (1,)))
print(m.k(1))  # k compiles here; typing it needs f and h, which wait for the copy
print(sum(m.f.stats.cache_misses.values()), sum(m.f.stats.cache_hits.values()),
      sum(m.h.stats.cache_misses.values()), sum(m.h.stats.cache_hits.values()))
print(m.g(1), sum(m.g.stats.cache_misses.values()), sum(m.g.stats.cache_hits.values()))
print("compile" in vars(m.f), "compile" in vars(m.g), _first_run.await_beside(m.h))
"""


def test_callees_compiled_beside_are_loaded_when_the_caller_compiles(tmp_path: Path):
    # The first `pokerjit play` compiles the play loop here while a copy compiles the
    # kernels the loop calls (simulate.engine.self_play): typing the loop compiles each
    # callee, which then waits for the copy and loads it (a hit, no miss), with no
    # await_beside before the call; so does a kernel called from Python (the replay's act,
    # settle, pot builder). The wait is removed once used.
    _beside_module(tmp_path)
    r = _python(CALLEES.format(tmp=str(tmp_path)), _env(NUMBA_CACHE_DIR=str(tmp_path / "c")))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["6", "0", "1", "0", "1", "3", "0", "1", "False", "False",
                                "None"], (
        r.stdout + r.stderr)


def test_the_walk_halves_add_up_to_the_walk():
    # run_walk calls the two halves from Python; kernels call walk, their sum
    import numpy as np

    from evaluator._tables import get_tables
    from evaluator.cards import parse_cards
    from evaluator.hands import category_table
    from simulate._kernels import holdem_exact as ek
    from simulate._kernels.score import ROAD_ANY, equity_scorer
    from simulate.holdem import run_walk

    tables, cat_of = get_tables().kernel_args, category_table()
    for hands, board in ((["AhKh", "QsQd"], ""), (["AhKh", "QsQd", "7c7d"], "Ts9h2h"),
                         (["AsKs", "QsJs"], "2s3s4d")):
        hole = np.array([parse_cards(h) for h in hands], np.uint8)
        b = np.array(parse_cards(board), np.uint8)
        avail = np.ones(52, np.uint8)
        avail[hole.ravel()] = 0
        avail[b] = 0
        one, two = equity_scorer(len(hands), cat_of), equity_scorer(len(hands), cat_of)
        n1 = ek.walk(hole, b, avail, tables, one, ROAD_ANY)
        n2 = run_walk(hole, b, avail, tables, two)
        assert n1 == n2 > 0
        for x, y in zip(one, two, strict=True):
            assert np.array_equal(x, y)


@pytest.mark.slow
def test_a_one_answer_commands_first_run_compiles_the_serial_walk(tmp_path: Path):
    """`pokerjit range` as the program, on a small spot with an empty cache, compiles the
    serial twin of the walk and not the parallel loop (``_first_run.serial_first_runs``); a
    caller's argument list (this process) leaves the library's choice alone."""
    from evaluator import _first_run
    from simulate.cli import main

    cache = tmp_path / "cache"
    env = _env(NUMBA_CACHE_DIR=str(cache))
    argv = ["range", "QQ+,AKs", "--vs", "random", "--board", "Td9d2c", "--json"]
    done = subprocess.run([sys.executable, "-m", "simulate", *argv], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert list(cache.rglob("*hu_random_serial*.nbi"))
    assert not list(cache.rglob("*hu_random_walk*.nbi"))
    assert main([*argv[:-1], "--json"]) == 0 and not _first_run.SERIAL_FIRST_RUNS
