"""Helpers shared by the command modules in :mod:`simulate.cli`."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any


class UsageError(Exception):
    """Bad input on the command line: printed as one ``error: ...`` line, exit status 2."""


MAX_SAMPLES = 10**15  # far beyond any useful run; larger numbers overflow the kernels' int64


def check_samples(n: int | None, option: str = "--samples") -> None:
    """Raise :class:`UsageError` unless ``n`` is None or 1..MAX_SAMPLES."""
    if n is not None and n <= 0:
        raise UsageError(f"{option} must be positive, got {n}")
    if n is not None and n > MAX_SAMPLES:
        raise UsageError(f"{option} must be at most {MAX_SAMPLES:.0e}, got {n}")


MIN_STD_ERROR = 1e-9  # smaller targets are out of reach and overflow the sample planning


def check_std_error(e: float | None, option: str = "--std-error") -> None:
    """Raise :class:`UsageError` unless ``e`` is None or a number >= MIN_STD_ERROR."""
    if e is not None and not e > 0:
        raise UsageError(f"{option} must be positive, got {e}")
    if e is not None and e < MIN_STD_ERROR:
        raise UsageError(f"{option} must be at least {MIN_STD_ERROR:g}, got {e:g}")


def emit_json(obj: Any) -> None:
    """Write one JSON document to stdout."""
    sys.stdout.write(json.dumps(obj, indent=2) + "\n")


def check_output_path(path: str, option: str) -> None:
    """Fail early, before any long computation, if ``path`` cannot be written as a file:
    a missing or unwritable folder, or a folder in its place (raises :class:`UsageError`)."""
    p = Path(path)
    if p.is_dir():
        raise UsageError(f"{option} {path}: is a folder, not a file")
    parent = p.parent
    if not parent.is_dir():
        raise UsageError(f"{option} {path}: no such folder {str(parent)!r}")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise UsageError(f"{option} {path}: permission denied")


def write_text_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, so that a
    failure never leaves a half-written file behind."""
    p = Path(path)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, p)
    finally:
        if tmp.exists():
            tmp.unlink()


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
    check_samples(args.samples)
    check_std_error(args.std_error)
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
