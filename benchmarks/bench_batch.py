"""Batch speed: ``equity_many`` in process and ``pokerjit batch`` end to end.

* ``equity_many`` on heads-up flop spots, exact, one thread (target: 100,000 spots at
  >= 50,000 spots/s);
* ``pokerjit batch`` on a file of heads-up flop spots (exact), timed as a whole process
  from its start to its exit: one worker (target >= 20,000 spots/s on 200,000 spots),
  ``--workers 2`` (target >= 1.7x one worker) and ``--scheduler local:2`` (Dask; target:
  within 1.5x of ``--workers 2`` plus the cluster's start-up, measured as what Dask adds
  to a run of 100 spots).

``pytest benchmarks/bench_batch.py --benchmark-enable`` times small versions with
pytest-benchmark (in the normal run each runs once as a smoke test);
``python benchmarks/bench_batch.py [--spots N] [--json]`` runs the full sizes and prints
spots/s and the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def flop_spots(n: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """``n`` random heads-up flop spots: hands uint8[n, 2, 2], board uint8[n, 3]."""
    rng = np.random.default_rng(seed)
    c = np.argsort(rng.random((n, 52)), axis=1)[:, :7].astype(np.uint8)
    return c[:, :4].reshape(n, 2, 2), c[:, 4:]


def write_spots(path: Path, n: int) -> None:
    """A batch input of ``n`` heads-up flop spots, one JSON line each."""
    from simulate.many import _joined, _texts

    h, b = flop_spots(n)
    hands, boards = _texts(h), _joined(b)
    with open(path, "w") as f:
        for i in range(n):
            f.write(f'{{"id": {i}, "hands": ["{hands[i][0]}", "{hands[i][1]}"], '
                    f'"board": "{boards[i]}"}}\n')


def time_equity_many(n: int, threads: int = 1) -> float:
    """Spots per second of ``equity_many`` (exact, heads-up flop; best of three)."""
    from simulate import equity_many

    h, b = flop_spots(n)
    equity_many(h[:10], b[:10], threads=threads)  # compile or load the kernels
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        equity_many(h, b, threads=threads)
        best = min(best, time.perf_counter() - t0)
    return n / best


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
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spots", type=int, default=200_000, help="spots in the batch file")
    ap.add_argument("--many", type=int, default=100_000, help="spots for equity_many")
    ap.add_argument("--no-dask", action="store_true", help="skip the Dask backend")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    res: dict[str, float] = {"equity_many_spots_per_s": time_equity_many(args.many)}
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "spots.jsonl"
        write_spots(src, args.spots)
        time_cli(src, "--threads", "1")  # fill the kernel cache
        res["batch_1_worker_s"] = time_cli(src, "--threads", "1")
        res["batch_2_workers_s"] = time_cli(src, "--workers", "2")
        if not args.no_dask:
            res["batch_dask_local2_s"] = time_cli(src, "--scheduler", "local:2")
            # the cluster's start-up: what Dask adds to a run of a few lines (process start,
            # imports and kernel loading are in both)
            tiny = Path(d) / "tiny.jsonl"
            write_spots(tiny, 100)
            res["dask_startup_s"] = (time_cli(tiny, "--scheduler", "local:2")
                                     - time_cli(tiny, "--workers", "2"))
    n = args.spots
    res["batch_1_worker_spots_per_s"] = n / res["batch_1_worker_s"]
    res["batch_2_workers_spots_per_s"] = n / res["batch_2_workers_s"]
    res["speedup_2_workers"] = res["batch_1_worker_s"] / res["batch_2_workers_s"]
    if "batch_dask_local2_s" in res:
        res["dask_over_2_workers"] = res["batch_dask_local2_s"] / res["batch_2_workers_s"]
        # the target: Dask within 1.5x of --workers 2 plus its start-up
        res["dask_less_startup_over_2_workers"] = (
            (res["batch_dask_local2_s"] - res["dask_startup_s"]) / res["batch_2_workers_s"])
    res["cpus"] = float(os.cpu_count() or 0)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        for k, v in res.items():
            print(f"{k:32s} {v:12,.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
