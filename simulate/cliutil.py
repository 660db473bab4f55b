"""Helpers shared by the command modules in :mod:`simulate.commands`."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


class UsageError(Exception):
    """Bad input on the command line: printed as one ``error: ...`` line, exit status 2."""


def emit_json(obj: Any) -> None:
    """Write one JSON document to stdout."""
    sys.stdout.write(json.dumps(obj, indent=2) + "\n")


def add_json(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON document on stdout")


def add_sampling_options(p: argparse.ArgumentParser) -> None:
    """``--exact | --samples N | --std-error E``, ``--seed``, ``--threads``."""
    g = p.add_mutually_exclusive_group()
    g.add_argument("--exact", action="store_true", default=None,
                   help="walk every runout (exact answer)")
    g.add_argument("--samples", type=int, metavar="N", help="Monte Carlo with N samples")
    g.add_argument("--std-error", type=float, metavar="E", dest="std_error",
                   help="Monte Carlo until every player's standard error is at most E")
    p.add_argument("--seed", type=int, default=None, help="random seed (same seed, same answer)")
    p.add_argument("--threads", type=int, default=None, help="threads to use (default: all)")


def sampling_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """The ``exact``/``samples``/``target_std_error``/``seed``/``threads`` keyword arguments."""
    if args.samples is not None and args.samples <= 0:
        raise UsageError(f"--samples must be positive, got {args.samples}")
    if args.std_error is not None and not args.std_error > 0:
        raise UsageError(f"--std-error must be positive, got {args.std_error}")
    if args.threads is not None and args.threads < 1:
        raise UsageError(f"--threads must be at least 1, got {args.threads}")
    exact = True if args.exact else (False if args.samples or args.std_error else None)
    return {"exact": exact, "samples": args.samples, "target_std_error": args.std_error,
            "seed": args.seed, "threads": args.threads}


def pct(x: float) -> str:
    return f"{100.0 * x:6.2f}%"


def table(rows: list[list[str]], header: list[str]) -> str:
    """A plain left/right aligned text table (numbers right-aligned)."""
    cols = list(zip(header, *rows, strict=False)) if rows else [(h,) for h in header]
    widths = [max(len(str(x)) for x in col) for col in cols]

    def fmt(row: list[str]) -> str:
        out = []
        for i, x in enumerate(row):
            x = str(x)
            num = x.replace(".", "").replace("%", "").replace("-", "").replace("±", "").strip()
            right = num.isdigit() or x.strip() in ("-", "–")
            out.append(x.rjust(widths[i]) if right else x.ljust(widths[i]))
        return "  ".join(out).rstrip()

    lines = [fmt(header), "  ".join("-" * w for w in widths)]
    lines += [fmt(r) for r in rows]
    return "\n".join(lines)
