"""``pokerjit batch``: equity requests from a JSON-lines file, one result line each."""

from __future__ import annotations

import argparse

NAME = "batch"
HELP = "run many equity requests from a JSON-lines file (resumable)"
EXAMPLES = """examples:
  pokerjit batch requests.jsonl -o results.jsonl
  pokerjit batch requests.jsonl -o results.jsonl --workers 2

each input line: {"id": "a1", "hands": ["AhKh", "QsQd"], "board": "", "dead": "",
                  "game": "holdem", "exact": null, "samples": null, "seed": 1}
each output line: {"id": "a1", "line": 1, "result": {...}} or {"id", "line", "error"}
Run it again after a stop: finished lines are kept and not redone.
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", metavar="IN.jsonl", help="requests, one JSON object per line")
    p.add_argument("-o", "--output", metavar="OUT.jsonl", required=True,
                   help="results file (appended to; finished requests are skipped)")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="worker processes (default 1: this process, all threads)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.add_argument("--json", action="store_true",
                   help="print a JSON summary {total, skipped, done, errors, elapsed_s}")


def run(args: argparse.Namespace) -> int:
    import sys
    from dataclasses import asdict

    from simulate.batch import run_batch
    from simulate.cli._util import UsageError, emit_json

    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    try:
        summary = run_batch(args.input, args.output, workers=args.workers,
                            progress=None if args.quiet else sys.stderr)
    except FileNotFoundError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        emit_json(asdict(summary))
    return 0
