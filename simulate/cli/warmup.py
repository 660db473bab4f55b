"""``pokerjit warmup``: compile every kernel once (after an install), so no command pauses."""

from __future__ import annotations

import argparse
import sys

from simulate.cli._util import add_json, add_quiet, emit_json, table

NAME = "warmup"
HELP = "compile every kernel once and keep it in Numba's disk cache (run after installing)"
EXAMPLES = """examples:
  pokerjit warmup
  NUMBA_CACHE_DIR=~/.cache/pokerjit pokerjit warmup --json

Compiled kernels go to Numba's disk cache: NUMBA_CACHE_DIR when it is set, else the
__pycache__ folders beside pokerjit's sources, else a folder in your home. When no such
place can be written every command still works, compiling in memory on every run (one
warning line says so); set NUMBA_CACHE_DIR to a writable folder to keep them.
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
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


def run(args: argparse.Namespace) -> int:
    from simulate.warmup import warmup

    def report(name: str, seconds: float) -> None:
        if not args.quiet and not args.json:
            print(f"  {name}: {seconds:.2f} s", file=sys.stderr, flush=True)

    steps = warmup(report)
    total = sum(float(s["seconds"]) for s in steps)  # type: ignore[arg-type]
    compiled = sum(float(s["compile_s"]) for s in steps)  # type: ignore[arg-type]
    place = _cache_place()
    if args.json:
        emit_json({"steps": steps, "seconds": total, "compile_s": compiled, "cache": place})
        return 0
    print(table([[s["name"], f"{s['seconds']:.2f} s", f"{s['compile_s']:.2f} s"]
                 for s in steps], ["step", "time", "compiling or loading"], align="lrr"))
    print(f"\n{total:.1f} s in all; kernels cached under {place}" if place else
          f"\n{total:.1f} s in all; Numba's cache cannot be written, so every run compiles "
          "(set NUMBA_CACHE_DIR to a writable folder)")
    return 0
