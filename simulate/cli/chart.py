"""``pokerjit chart``: every starting hand's equity against 1..9 random hands."""

from __future__ import annotations

import argparse
import sys

from simulate.cli._util import (
    UsageError,
    add_json,
    check_output_path,
    check_samples,
    check_std_error,
    emit_json,
    write_text_atomic,
)

NAME = "chart"
HELP = "equity of all 169 starting hands against N random hands (exact for one opponent)"
EXAMPLES = """examples:
  pokerjit chart -o chart.csv
  pokerjit chart --opponents 1 2 3 --samples 50000 --json
"""
DEFAULT_SAMPLES = 100_000


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--opponents", type=int, nargs="+", default=[1], metavar="N",
                   help="numbers of random opponents, 1..9 (default 1)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the chart to FILE (CSV, or JSON with --json)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--samples", type=int, default=None, metavar="N",
                   help=f"Monte Carlo deals per hand for 2+ opponents (default {DEFAULT_SAMPLES})")
    g.add_argument("--std-error", type=float, default=None, dest="std_error", metavar="E",
                   help="Monte Carlo until each hand's standard error is at most E")
    p.add_argument("--seed", type=int, default=None, help="random seed (2+ opponents)")
    p.add_argument("--threads", type=int, default=None, help="threads to use (default: all)")
    add_json(p)


def _bar(done: int, total: int, label: str) -> None:
    from simulate.preflop_order import progress_bar
    progress_bar(done, total, label)


def chart_rows(opponents: list[int], *, samples: int | None = None,
               std_error: float | None = None, seed: int | None = None,
               threads: int | None = None, progress: bool = True) -> list[dict[str, object]]:
    """Rows ``{"hand", "opponents", "equity", "std_error", "exact"}`` in grid order."""
    from simulate.range_equity import preflop_vs_random, range_equity
    from simulate.ranges import HAND_CLASSES, class_combos

    rows = []
    for n in opponents:
        if n == 1:
            eq = preflop_vs_random(threads=threads,
                                   progress=(lambda d, t: _bar(d, t, "parts (1 opponent)"))
                                   if progress else None)
            rows += [{"hand": h, "opponents": 1, "equity": eq[h], "std_error": 0.0,
                      "exact": True} for h in HAND_CLASSES]
            continue
        for k, h in enumerate(HAND_CLASSES):
            lo, hi = class_combos(h)[0]
            from evaluator.cards import cards_str
            r = range_equity([cards_str([hi, lo])] + ["random"] * n, exact=False,
                             samples=None if std_error else (samples or DEFAULT_SAMPLES),
                             target_std_error=std_error,
                             seed=None if seed is None else seed + 1000 * n + k,
                             threads=threads)
            rows.append({"hand": h, "opponents": n, "equity": r.players[0].equity,
                         "std_error": r.players[0].std_error, "exact": False})
            if progress:
                _bar(k + 1, len(HAND_CLASSES), f"hands ({n} opponents)")
    return rows


def run(args: argparse.Namespace) -> int:
    for n in args.opponents:
        if not 1 <= n <= 9:
            raise UsageError(f"--opponents must be 1..9, got {n}")
    check_samples(args.samples)
    check_std_error(args.std_error)
    if args.threads is not None and args.threads < 1:
        raise UsageError(f"--threads must be at least 1, got {args.threads}")
    if args.output:
        check_output_path(args.output, "-o")
    rows = chart_rows(args.opponents, samples=args.samples, std_error=args.std_error,
                      seed=args.seed, threads=args.threads, progress=True)
    if args.json:
        if args.output:
            import json
            write_text_atomic(args.output, json.dumps({"rows": rows}, indent=2) + "\n")
        else:
            emit_json({"rows": rows})
        return 0
    lines = ["hand,opponents,equity,std_error,exact"]
    lines += [f"{r['hand']},{r['opponents']},{r['equity']:.6f},{r['std_error']:.6f},"
              f"{str(r['exact']).lower()}" for r in rows]
    text = "\n".join(lines) + "\n"
    if args.output:
        write_text_atomic(args.output, text)
        print(f"wrote {args.output} ({len(rows)} rows)", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
