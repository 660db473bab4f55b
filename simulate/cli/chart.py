"""``pokerjit chart``: every starting hand's equity against 1..9 random hands."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from simulate.cli._util import (
    UsageError,
    add_json,
    add_quiet,
    check_output_path,
    emit_json,
    json_text,
    sampling_kwargs,
    write_output,
)
from simulate.documents import chart_document as document  # noqa: F401 - the command's document

NAME = "chart"
HELP = "equity of all 169 starting hands against N random hands (exact for one opponent)"
EXAMPLES = """examples:
  pokerjit chart -o chart.csv
  pokerjit chart --opponents 1 2 3 --samples 50000 --json
  pokerjit chart --opponents 2 --std-error 0.002 --seed 7 -o - | head
  pokerjit chart --vs-all -o preflop_hu.csv

One opponent is exact and instant: the shipped heads-up preflop table (169 x 169 class
matchups, exact, card removal included) weighted by card-disjoint combo pairs. --vs-all
computes that table itself instead (about 13 s on two threads; the shipped one is read
by simulate.preflop_equity("AKs", "QQ")).

--std-error is a fraction of the pot (0.002 = 0.2 percentage points of equity).
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    from simulate.chart import DEFAULT_SAMPLES

    p.add_argument("--opponents", type=int, nargs="+", default=[1], metavar="N",
                   help="numbers of random opponents, 1..9 (default 1)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the chart to FILE (CSV, or JSON with --json; - for stdout)")
    p.add_argument("--samples", type=int, default=None, metavar="N",
                   help=f"Monte Carlo deals per hand for 2+ opponents (default {DEFAULT_SAMPLES})")
    p.add_argument("--std-error", type=float, default=None, dest="std_error", metavar="E",
                   help="Monte Carlo until each hand's standard error is at most E "
                        "(a fraction of the pot); with --samples, whichever comes first")
    p.add_argument("--seed", type=int, default=None, help="random seed (2+ opponents)")
    p.add_argument("--threads", type=int, default=None, help="threads to use (default: all)")
    p.add_argument("--vs-all", action="store_true", dest="vs_all",
                   help="the 169 x 169 heads-up table, exact: each class's equity against "
                        "each class (CSV: one row per class; JSON: classes, equity, tie)")
    add_quiet(p)
    add_json(p)


def _check_opponents(args: argparse.Namespace) -> None:
    from simulate.chart import MAX_OPPONENTS
    from simulate.games import number_text

    for n in args.opponents:
        if not 1 <= n <= MAX_OPPONENTS:
            raise UsageError(f"--opponents must be 1..{MAX_OPPONENTS}, got {number_text(n)}")


def _checked(args: argparse.Namespace) -> dict[str, Any]:
    """The checked sampling options of the command line (messages name the options)."""
    _check_opponents(args)
    args.exact = None  # one opponent is exact, more are sampled: the options apply to those
    return sampling_kwargs(args)  # samples, std error, seed, threads: the one check


def request(args: argparse.Namespace) -> dict[str, Any] | None:
    """The ``POST /api/v1/chart`` body of these arguments, or None when they write a file
    (which only the local command does) or ask for the --vs-all table."""
    if args.vs_all:
        return None
    kw = _checked(args)
    if args.output not in (None, "-"):
        return None
    return {"opponents": list(args.opponents), "samples": kw["samples"],
            "std_error": kw["target_std_error"], "seed": kw["seed"]}


def print_document(args: argparse.Namespace, doc: dict[str, Any]) -> None:
    """Print the chart to standard output: the JSON document, or its CSV text."""
    from simulate.chart import chart_csv

    if args.json:
        emit_json(doc)
    else:
        write_output("-", chart_csv(doc["rows"]), "-o")


def run(args: argparse.Namespace) -> int:
    if args.vs_all:
        _check_opponents(args)
        return _vs_all(args)
    kw = _checked(args)
    out = args.output or "-"
    check_output_path(out, "-o", stdout_ok=True)
    doc = document(args.opponents, samples=kw["samples"],
                   target_std_error=kw["target_std_error"], seed=kw["seed"],
                   threads=kw["threads"], quiet=args.quiet)
    if out == "-":
        print_document(args, doc)
        return 0
    if args.json:
        write_output(out, json_text(doc), "-o")
        return 0
    from simulate.chart import chart_csv

    write_output(out, chart_csv(doc["rows"]), "-o")
    print(f"wrote {out} ({len(doc['rows'])} rows)", file=sys.stderr)
    return 0


def _vs_all(args: argparse.Namespace) -> int:
    from simulate.preflop_table import compute_table
    from simulate.progress import progress

    if args.opponents != [1] or args.samples is not None or args.std_error is not None \
            or args.seed is not None:
        raise UsageError("--vs-all is exact heads-up: it takes no --opponents, --samples, "
                         "--std-error or --seed")
    out = args.output or "-"
    check_output_path(out, "-o", stdout_ok=True)
    args.exact = None
    kw = sampling_kwargs(args)  # the one check of --threads
    with progress(None, "169 x 169 matchups (exact)", "matchups", quiet=args.quiet) as bar:
        table = compute_table(threads=kw["threads"], progress=bar.update,
                              total=lambda n: bar.callback()(0, n))
    if args.json:
        doc = {"game": "holdem", "board": "", "dead": "", "exact": True, **table.to_dict()}
        if out == "-":
            emit_json(doc)
        else:
            write_output(out, json_text(doc), "-o")
        return 0
    write_output(out, table.csv_text(), "-o")
    if out != "-":
        print(f"wrote {out} (169 x 169 matchups)", file=sys.stderr)
    return 0
