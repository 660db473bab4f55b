"""The hand database: ``pokerjit import`` against ``pokerjit hand`` on the same collection
(storing should cost at most as much as reading: the issue's target is an import at
>= 0.5x the rate of ``hand --totals-only``, and >= 10,000 hands/s on one core), ``pokerjit
stats`` over every player, and the database's bytes per hand.

``pytest benchmarks/bench_db.py --benchmark-enable`` times an import of 20,000 synthetic
6-max hands in process (in the normal run, with timing disabled, 300 hands as a smoke
test); ``python benchmarks/bench_db.py [--hands N] [--json]`` runs both commands end to end
in fresh processes (start-up included), side by side, and prints hands/s and the ratio,
then the stats time and the bytes per hand (:func:`simulate.bench.script_main`).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simulate.bench import Comparison, Side, script_main
from simulate.notation.phh_synth import write_synthetic_phhs

pytest.importorskip("duckdb")


#: Hands the timed run replays (the ``hands_file`` fixture of conftest.py).
TIMED_HANDS = 20_000


def test_import_in_process(benchmark, hands_file: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from simulate.store.importer import import_hands

    warm = hands_file.with_name("warm.phhs")
    write_synthetic_phhs(str(warm), 20, seed=2)
    import_hands([warm], tmp_path / "warm.duckdb")  # imports and kernels, outside the timing
    res = benchmark.pedantic(import_hands, args=([hands_file], tmp_path / "h.duckdb"),
                             rounds=1, iterations=1)
    assert res.errors == 0 and res.hands_added == res.hands_read


def _cli(*argv: str) -> float:
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "simulate", *argv], capture_output=True,
                       text=True)
    if p.returncode != 0:
        raise SystemExit(f"pokerjit {argv[0]} exited {p.returncode}: {p.stderr[:500]}")
    return time.perf_counter() - t0


def _options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--hands", type=int, default=100_000)


def comparisons(args: argparse.Namespace, tmp: Path) -> list[Comparison]:
    n = 5_000 if args.quick else args.hands
    f = tmp / "hands.phhs"
    write_synthetic_phhs(str(f), n, seed=1)
    runs = [0]

    def store(workers: int) -> float:
        runs[0] += 1
        return _cli("import", str(f), "--db", str(tmp / f"h{runs[0]}.duckdb"), "-q",
                    "--workers", str(workers))

    sides = [Side("pokerjit hand --totals-only", lambda: _cli("hand", str(f), "--totals-only",
                                                              "-q"), work=n),
             Side("pokerjit import (a new database)", lambda: store(1), work=n),
             Side("pokerjit import --workers 2", lambda: store(2), work=n)]
    return [Comparison(f"{n:,} synthetic 6-max hands, read vs read and stored (target: import "
                       ">= 0.5x hand, >= 10,000 hands/s)", sides, unit="hands", warm=False)]


def extra(args: argparse.Namespace, tmp: Path) -> dict[str, float]:
    db = next(tmp.glob("h*.duckdb"))
    n = 5_000 if args.quick else args.hands
    t = _cli("stats", "--db", str(db), "--json")
    return {"stats_all_players_s (process included)": round(t, 3),
            "db_bytes_per_hand": round(db.stat().st_size / n, 1)}


if __name__ == "__main__":
    raise SystemExit(script_main(__doc__, comparisons, add_arguments=_options, extra=extra,
                                 repeat=1))
