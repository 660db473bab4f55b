"""``pokerjit batch``: many requests from a file, one result line each (resumable)."""

from __future__ import annotations

import argparse

NAME = "batch"
HELP = "answer many equity, range and all-in requests from a file (resumable)"
EXAMPLES = """examples:
  pokerjit batch requests.jsonl -o results.jsonl
  pokerjit batch requests.jsonl -o results.jsonl --workers 2
  pokerjit batch spots.csv -o equities.csv --samples 100000 --seed 1
  pokerjit batch requests.jsonl -o results.jsonl --scheduler local:4
  pokerjit batch requests.jsonl -o results.jsonl --scheduler tcp://10.0.0.5:8786

each input line (JSON; null or missing fields take the defaults below):
  {"id": "a1", "hands": ["AhKh", "QsQd"], "board": "Ks8h2c", "dead": "",
   "game": "holdem", "exact": null, "samples": null, "seed": 1, "std_error": null}
  {"id": "r1", "kind": "range", "hands": ["QQ+,AKs", "random"], "board": "Td9d2c"}
  {"id": "x1", "kind": "allin", "players": ["AhAs:100", "KdKc:60", "fold:10"],
   "button": 0, "board": ""}
each output line: {"id", "line", "digest", "result": {...}} or {"id", "line", "digest",
  "error"}; result is the --json document of the equity, range or allin command.
A CSV input (*.csv) has a header naming the fields (hands space-separated); a CSV
output (*.csv) has one row per spot: id, line, digest, error, refused, game, board, dead,
exact, samples, seed, then hand_k, equity_k, win_k, tie_k, std_error_k for k = 1..10.
Every line needs an id: a rerun matches lines by it. Run it again after a stop: finished
lines are kept and not redone; a line answered with an error is answered again (a new line
is written unless it is the same error); a request whose id was answered with different
contents is refused with an error line naming the id; new requests go at the end (a line
inserted above answered ones stops the run, whose line numbers would clash).
The defaults are checked before any work. Ctrl-C, SIGTERM or SIGHUP stops inside a line
(exit 130, 143, 129), keeping the lines finished before it, whole, with one line saying
how many.
The output file is locked while a run writes it.
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    from simulate.batch.requests import KINDS
    from simulate.cli._util import add_game, add_quiet

    p.add_argument("input", metavar="IN", help="requests: JSON lines, or CSV (*.csv)")
    p.add_argument("-o", "--output", metavar="OUT", required=True,
                   help="results file, appended to (JSON lines, or CSV for *.csv)")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="worker processes (default 1: this process, all threads)")
    p.add_argument("--scheduler", metavar="ADDR", default=None,
                   help="run on Dask: local, local:N (a local cluster of N worker "
                        "processes) or tcp://HOST:PORT (needs pokerjit[distributed])")
    d = p.add_argument_group("defaults for lines that leave a field out")
    d.add_argument("--kind", choices=KINDS, default=None)
    add_game(d, default=None, note="A line's own game wins")
    d.add_argument("--board", default=None, help="board cards")
    d.add_argument("--dead", default=None, help="dead cards")
    g = d.add_mutually_exclusive_group()
    g.add_argument("--exact", action="store_true", default=None, help="walk every runout")
    g.add_argument("--samples", type=int, metavar="N", help="Monte Carlo with N deals")
    g.add_argument("--std-error", type=float, metavar="E", dest="std_error",
                   help="Monte Carlo until every standard error is at most E (a fraction of "
                        "the pot for equity and range, chips for allin)")
    d.add_argument("--seed", type=int, default=None,
                   help="random seed, 0 <= seed < 2**64 (same seed, same answer)")
    d.add_argument("--threads", type=int, default=None,
                   help="Numba threads with one worker (default: all)")
    p.add_argument("--chunk-lines", type=int, default=None, metavar="N",
                   help="lines per chunk of work (one task; default: automatic)")
    add_quiet(p)
    p.add_argument("--json", action="store_true",
                   help="print a JSON summary {total, skipped, done, errors, elapsed_s}")


def run(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from simulate.batch import run_batch
    from simulate.cli._util import UsageError, check_output_path, emit_json

    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    if args.threads is not None and args.threads < 1:
        raise UsageError(f"--threads must be at least 1, got {args.threads}")
    if args.chunk_lines is not None and args.chunk_lines < 1:
        raise UsageError(f"--chunk-lines must be at least 1, got {args.chunk_lines}")
    check_output_path(args.output, "-o", inputs=[args.input])
    defaults = {"kind": args.kind, "game": args.game, "board": args.board, "dead": args.dead,
                "exact": args.exact, "samples": args.samples, "std_error": args.std_error,
                "seed": args.seed}
    from simulate.cli.equity import skip_blas_probe
    from simulate.run.stop import stop_on_signals

    try:
        with skip_blas_probe(), stop_on_signals():
            summary = run_batch(args.input, args.output, workers=args.workers,
                                scheduler=args.scheduler, defaults=defaults,
                                threads=args.threads, quiet=args.quiet,
                                chunk_lines=args.chunk_lines)
    except FileNotFoundError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        emit_json(asdict(summary))
    return 0
