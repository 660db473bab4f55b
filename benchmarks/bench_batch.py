"""Batch speed: ``pokerjit batch`` end to end against ``equity_many`` on the same spots.

* ``equity_many`` in process and ``pokerjit batch`` (one worker, ``--threads 1``) timed
  as a whole process from its start to its exit, on the same heads-up flop spots (exact),
  alternating round by round: the batch's rate over ``equity_many``'s is the ``x first``
  column's inverse (target: batch >= 0.40x ``equity_many``);
* ``--workers 2`` (target >= 1.8x one worker) and ``--scheduler local:2`` (Dask; target:
  within 1.5x of ``--workers 2`` plus the cluster's start-up, measured as what Dask adds
  to a run of 100 spots) against one worker.

``pytest benchmarks/bench_batch.py --benchmark-enable`` times small versions with
pytest-benchmark (in the normal run each runs once as a smoke test);
``python benchmarks/bench_batch.py [--spots N] [--json] [--quick]`` runs the full sizes
and prints spots/s and the ratios (:func:`simulate.bench.script_main`; Dask's start-up is
the difference of the two 100-spot medians).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from simulate.bench import Comparison, Side, script_main

ROOT = Path(__file__).resolve().parents[1]


def flop_spots(n: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """``n`` random heads-up flop spots: hands uint8[n, 2, 2], board uint8[n, 3]."""
    rng = np.random.default_rng(seed)
    c = np.argsort(rng.random((n, 52)), axis=1)[:, :7].astype(np.uint8)
    return c[:, :4].reshape(n, 2, 2), c[:, 4:]


def write_spots(path: Path, n: int) -> None:
    """A batch input of ``n`` heads-up flop spots, one JSON line each."""
    from evaluator.cards import cards_str

    h, b = flop_spots(n)
    with open(path, "w") as f:
        for i in range(n):
            f.write(f'{{"id": {i}, "hands": ["{cards_str(h[i, 0])}", "{cards_str(h[i, 1])}"], '
                    f'"board": "{cards_str(b[i])}"}}\n')


def time_cli(src: Path, *args: str) -> float:
    """Seconds of one ``pokerjit batch`` process (start to exit) on ``src``."""
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "out.jsonl"
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "simulate", "batch", str(src), "-o", str(out),
                        "--quiet", *args], check=True, cwd=ROOT)
        return time.perf_counter() - t0


# ----------------------------------------------------------------------------- pytest
def test_equity_many_flop_exact(benchmark) -> None:  # noqa: ANN001 - pytest-benchmark
    from simulate import equity_many

    h, b = flop_spots(2000)
    r = benchmark(lambda: equity_many(h, b, threads=1))
    assert r.equity.shape == (2000, 2)


def test_batch_cli_one_worker(benchmark, tmp_path: Path) -> None:  # noqa: ANN001
    src = tmp_path / "spots.jsonl"
    write_spots(src, 500)
    assert benchmark.pedantic(time_cli, args=(src, "--threads", "1"), rounds=1) > 0


# ----------------------------------------------------------------------------- script
def _options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--spots", type=int, default=200_000, help="spots in the batch file")
    ap.add_argument("--no-dask", action="store_true", help="skip the Dask backend")


def comparisons(args: argparse.Namespace, tmp: Path) -> list[Comparison]:
    """``equity_many`` and one ``pokerjit batch`` worker on the same spots; two workers and
    Dask against one worker; what Dask's start-up adds on 100 spots."""
    from simulate import equity_many

    n = 20_000 if args.quick else args.spots
    h, b = flop_spots(n)
    src = tmp / "spots.jsonl"
    write_spots(src, n)
    tiny = tmp / "tiny.jsonl"
    write_spots(tiny, 100)
    dask = not args.no_dask

    def cli(name: str, path: Path, *opts: str, work: int | None = None,
            available: bool = True) -> Side:
        return Side(name, lambda: time_cli(path, *opts), work=work, seconds=float,
                    available=available)

    return [
        Comparison(f"{n:,} heads-up flop spots, exact, one thread: equity_many in process, "
                   "pokerjit batch from a file (whole process)",
                   [Side("equity_many", lambda: equity_many(h, b, threads=1), work=n),
                    cli("batch, 1 worker", src, "--threads", "1", work=n)],
                   unit="spots"),
        Comparison(f"pokerjit batch, {n:,} heads-up flop spots, whole process",
                   [cli("1 worker", src, "--threads", "1", work=n),
                    cli("--workers 2", src, "--workers", "2", work=n),
                    cli("--scheduler local:2", src, "--scheduler", "local:2", work=n,
                        available=dask)],
                   unit="spots"),
        Comparison("start-up: 100 spots (process start, imports and kernels in both)",
                   [cli("--workers 2", tiny, "--workers", "2"),
                    cli("--scheduler local:2", tiny, "--scheduler", "local:2",
                        available=dask)]),
    ]


def extra(_args: argparse.Namespace, _tmp: Path) -> dict[str, float]:
    return {"cpus": float(os.cpu_count() or 0)}


if __name__ == "__main__":
    raise SystemExit(script_main(__doc__, comparisons, add_arguments=_options, extra=extra))
