"""The play loops: what one loop for every game costs, against loops compiled per game.

``simulate.engine.play`` reads the game, the betting and the seats from the rules header at
run time, and the kernels leave the Omaha evaluator or the discard code out when their
tables are None (:func:`simulate.engine.self_play.variant_args`). Three ways to use that:

* **shipped**: a Hold'em loop, and one general loop for every other game;
* **one loop**: the general loop for every game, Hold'em included;
* **per family**: a loop per game family (Hold'em, Omaha, Pineapple).

This script measures

* **speed**: hands per second on one thread, the three alternating round by round, for
  Hold'em heads-up and 6-max, fixed-limit Omaha three-handed and ten-handed Pineapple;
* **compile time** (not with ``--quick``): a fresh process with an empty Numba cache plays
  its first hand of each of those games in turn, once per way; the seconds each first
  ``play`` takes are what a new user waits.

``python benchmarks/bench_play_loop.py [--json] [--quick]`` prints the side-by-side table.
``pytest benchmarks/bench_play_loop.py --benchmark-enable`` times Hold'em heads-up
through its own loop and through the general one; in the normal run each runs once, small.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from simulate.bench import Comparison, Side, script_main
from simulate.engine import Rules, play

# (simulate.engine.self_play is the function)
play_module = importlib.import_module("simulate.engine.self_play")

#: name: (rules, seats, stack, policy)
WORKLOADS: dict[str, tuple[Rules, int, int, str]] = {
    "holdem-hu-call": (Rules(blinds=(50, 100)), 2, 20_000, "call"),
    "holdem-6max-random": (Rules(blinds=(50, 100)), 6, 20_000, "random"),
    "omaha-fl-3-random": (Rules(game="omaha", betting="fixed-limit", blinds=(1, 2)), 3, 400,
                          "random"),
    "pineapple-10-random": (Rules(game="pineapple", blinds=(1, 2)), 10, 200, "random"),
}


WAYS = ("shipped", "one loop", "per family")


def _args(way: str, rules: Rules) -> tuple[Any, Any]:
    if way == "shipped":
        return SHIPPED(rules)
    otables, ptab = play_module.loop_tables(rules)
    if way == "one loop":
        return otables, ptab
    return (otables if rules.game.name.startswith("omaha") else None,
            ptab if rules.discard_after is not None else None)


SHIPPED = play_module.variant_args


@contextlib.contextmanager
def using(way: str) -> Iterator[None]:
    """``play`` with the loops of ``way`` (one of :data:`WAYS`)."""
    play_module.variant_args = functools.partial(_args, way)  # type: ignore[assignment]
    try:
        yield
    finally:
        play_module.variant_args = SHIPPED  # type: ignore[assignment]


def run(workload: str, hands: int, way: str = "shipped") -> Any:
    rules, n, stack, policy = WORKLOADS[workload]
    with using(way):
        return play(rules, [stack] * n, hands, policy=policy, seed=1, threads=1)


def first_runs(way: str) -> dict[str, float]:
    """Seconds of the first ``play`` of each workload in a fresh process whose Numba cache
    is an empty folder."""
    here = str(Path(__file__).parent)
    code = (f"import json, sys, time; sys.path.insert(0, {here!r}); "
            "import bench_play_loop as b; out = {}\nfor w in b.WORKLOADS:\n"
            "    t = time.perf_counter(); "
            f"b.run(w, 100, {way!r}); out[w] = time.perf_counter() - t\n"
            "print(json.dumps(out))")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        res = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                             capture_output=True, text=True, timeout=1800)
    return json.loads(res.stdout.strip().splitlines()[-1])


def _elapsed(r: Any) -> float:
    return r.elapsed_s


def comparisons(args: argparse.Namespace, _tmp: Path) -> list[Comparison]:
    out = []
    for w, (_, n, _, _) in WORKLOADS.items():
        hands = (100_000 if n == 2 else 20_000) * (1 if args.quick else 5)
        for way in WAYS:
            run(w, 10, way)  # compile every loop before timing
        out.append(Comparison(f"play {w}, 1 thread: the shipped loops, one loop, per family", [
            Side(way, functools.partial(run, w, hands, way), work=hands, seconds=_elapsed)
            for way in WAYS], unit="hands"))
    return out


def compile_report() -> str:
    lines = ["first play of each game, fresh process, empty Numba cache (seconds):"]
    for way in WAYS:
        t0 = time.perf_counter()
        firsts = first_runs(way)
        total = time.perf_counter() - t0
        lines.append(f"  {way:10s} " + "  ".join(f"{w} {s:.1f}" for w, s in firsts.items())
                     + f"  (process {total:.1f})")
    return "\n".join(lines)


@pytest.mark.parametrize("way", WAYS[:2])
def test_play_loop(benchmark, way):
    benchmark.group = "play-loop-holdem-hu"
    r = benchmark(run, "holdem-hu-call", 2_000, way)
    assert r.hands == 2_000


def test_the_general_loop_plays_hold_em_as_its_own_loop():
    """Hold'em through the general loop (``one loop``) plays the same hands as through its
    own. (The per-family loops are compiled only by this script: seconds of compiling the
    normal run need not pay.)"""
    for w in ("holdem-hu-call", "holdem-6max-random"):
        assert run(w, 300, "shipped").net == run(w, 300, "one loop").net


if __name__ == "__main__":
    status = script_main(__doc__, comparisons)
    if "--quick" not in sys.argv and "--json" not in sys.argv:
        print(compile_report())
    raise SystemExit(status)
