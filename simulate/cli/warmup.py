"""``pokerjit warmup``: compile every kernel once (after an install), so no command pauses."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from simulate.cli._util import add_json, add_quiet, emit_json, table

NAME = "warmup"
MAX_JOBS = 4
HELP = "compile every kernel once and keep it in Numba's disk cache (run after installing)"
EXAMPLES = """examples:
  pokerjit warmup
  pokerjit warmup --jobs 1
  NUMBA_CACHE_DIR=~/.cache/pokerjit pokerjit warmup --json

Compiled kernels go to Numba's disk cache: NUMBA_CACHE_DIR when it is set, else the
__pycache__ folders beside pokerjit's sources when it runs from a checkout (an editable
install), else a folder in your home (~/.cache/numba). When no such
place can be written every command still works, compiling in memory on every run (one
warning line says so); set NUMBA_CACHE_DIR to a writable folder to keep them.
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="compile in N processes at once (default: one per core, at most "
                        f"{MAX_JOBS}; Numba compiles a kernel on one core)")
    add_quiet(p)
    add_json(p)


def _cache_place() -> str | None:
    """The folder Numba caches pokerjit's kernels in (None when nothing can be written)."""
    import numba

    from evaluator._jit import cache_works
    from simulate._kernels.holdem_exact import exact_walk

    if not cache_works():
        return None
    if numba.config.CACHE_DIR:
        return str(numba.config.CACHE_DIR)
    return getattr(getattr(exact_walk, "_cache", None), "_cache_path", None)


def _on_workers(jobs: int, report: Any) -> list[dict[str, object]]:
    """The warm-up's steps on ``jobs`` worker processes of the one pool
    (:func:`simulate.run.executor`), one step a chunk: Numba compiles a kernel on one
    core, so an empty cache fills about ``jobs`` times faster on as many cores (the
    processes share the disk cache). Results come back in step order."""
    from evaluator._jit import compiled_elsewhere
    from simulate.run import executor
    from simulate.warmup import run_steps, step_names

    names = step_names()
    ex = executor(workers=min(jobs, len(names)))
    done: list[dict[str, object]] = []
    try:
        for _, results in ex.map_ordered(([n] for n in names), (), run_steps):
            for r in results:
                if r["compiled"]:
                    compiled_elsewhere()
                done.append(r)
                report(str(r["name"]), float(r["seconds"]))  # type: ignore[arg-type]
    except BaseException:
        ex.close(abort=True)
        raise
    ex.close()
    return done


def run(args: argparse.Namespace) -> int:
    import os
    import time

    from simulate.cli._util import UsageError
    from simulate.warmup import warmup

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    jobs = args.jobs if args.jobs is not None else max(1, min(MAX_JOBS, cores or 1))
    if jobs < 1:
        raise UsageError(f"--jobs {jobs}: at least 1")

    def report(name: str, seconds: float) -> None:
        if not args.quiet and not args.json:
            print(f"  {name}: {seconds:.2f} s", file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    steps = warmup(report) if jobs == 1 else _on_workers(jobs, report)
    steps = [{k: v for k, v in s.items() if k != "compiled"} for s in steps]
    wall = time.perf_counter() - t0
    total = sum(float(s["seconds"]) for s in steps)  # type: ignore[arg-type]
    compiled = sum(float(s["compile_s"]) for s in steps)  # type: ignore[arg-type]
    place = _cache_place()
    if args.json:
        emit_json({"steps": steps, "seconds": total, "compile_s": compiled, "wall_s": wall,
                   "jobs": jobs, "cache": place})
        return 0
    print(table([[s["name"], f"{s['seconds']:.2f} s", f"{s['compile_s']:.2f} s"]
                 for s in steps], ["step", "time", "compiling or loading"], align="lrr"))
    both = f"{wall:.1f} s in all" + (f" ({total:.1f} s of work in {jobs} processes)"
                                      if jobs > 1 else "")
    print(f"\n{both}; kernels cached under {place}" if place else
          f"\n{both}; Numba's cache cannot be written, so every run compiles "
          "(set NUMBA_CACHE_DIR to a writable folder)")
    return 0
