"""``pokerjit hand`` throughput: synthetic no-limit hold'em hands without all-ins (6-max,
every action validated by the engine), streamed from one ``.phhs`` collection.

Target (issue 13): at least 5,000 hands/s per worker on 100,000 hands. ``pytest
benchmarks/bench_phh.py --benchmark-enable`` times 100,000 hands on one worker (in the
normal test run, with timing disabled, 300 hands as a smoke test);
``python benchmarks/bench_phh.py [--hands N] [--workers 1 2] [--json] [--repeat N]`` runs
the command end to end in a fresh process per worker count (start-up included) and prints
hands/s, with the CPU seconds the command's processes used (on a shared machine the wall
clock depends on the load, printed too) (:func:`simulate.bench.script_main`).
"""

from __future__ import annotations

import argparse
import functools
import json
import subprocess
import sys
import time
from pathlib import Path

from simulate.bench import Comparison, Side, script_main
from simulate.notation.phh_synth import write_synthetic_phhs
from simulate.replay.hand_files import analyze
from simulate.replay.totals import Totals


def replay_all(path: Path, workers: int = 1) -> Totals:
    t = Totals()
    for d in analyze(path, workers=workers):
        t.add(d)
    return t


#: Hands the timed run replays (the ``hands_file`` fixture of conftest.py).
TIMED_HANDS = 100_000


def test_hand_replay_one_worker(benchmark, hands_file: Path) -> None:  # type: ignore[no-untyped-def]
    warm = hands_file.with_name("warm.phhs")
    write_synthetic_phhs(str(warm), 20, seed=2)
    replay_all(warm)  # imports and compiled kernels, outside the timing
    t = benchmark.pedantic(replay_all, args=(hands_file,), rounds=1, iterations=1)
    assert t.errors == 0 and t.validated == t.hands


def run_cli(path: Path, workers: int) -> tuple[float, float, dict]:
    """``(wall seconds, CPU seconds of the command and its workers, JSON output)``."""
    import resource

    def cpu() -> float:
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    c0, t0 = cpu(), time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "simulate", "hand", str(path), "--json",
                        "--totals-only", "-q", "--workers", str(workers)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"pokerjit hand exited {p.returncode}: {p.stderr[:500]}")
    return time.perf_counter() - t0, cpu() - c0, json.loads(p.stdout)


def _options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])


def comparisons(args: argparse.Namespace, tmp: Path) -> list[Comparison]:
    """One fresh ``pokerjit hand`` process per worker count on one collection (the first
    count is the reference); each run's CPU seconds and the load average before it kept."""
    import os

    n = 5_000 if args.quick else args.hands
    f = tmp / "hands.phhs"
    write_synthetic_phhs(str(f), n, seed=1)

    def run(workers: int) -> tuple[float, float, dict, float]:
        load = os.getloadavg()[0]
        wall, cpu, doc = run_cli(f, workers)
        if doc["summary"]["errors"]:
            raise AssertionError(f"{doc['summary']['errors']} hands with errors")
        return wall, cpu, doc, load

    sides = [Side(f"{w} worker(s)", functools.partial(run, w), work=n,
                  seconds=lambda r: r[0],
                  info=lambda r: {"cpu_seconds": round(r[1], 2), "load_before": round(r[3], 2)})
             for w in args.workers]
    return [Comparison(f"pokerjit hand, {n:,} synthetic 6-max hands (target >= 5,000 "
                       "hands/s per worker)", sides, unit="hands", warm=False)]


if __name__ == "__main__":
    raise SystemExit(script_main(__doc__, comparisons, add_arguments=_options, repeat=1))
