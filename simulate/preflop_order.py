"""Regenerate ``data/preflop_169.csv``: every starting hand's exact all-in equity against one
random hand, best first, with its rank (the order behind ``top N%`` ranges). With ``--game
short_deck`` (or ``short_deck_triton``): the 81 classes of the 36-card deck against one
random short-deck hand, on that game's scale, into ``data/preflop_81_<game>.csv``.

Run ``python -m simulate.preflop_order [--game G] [--threads T] [-o FILE]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .games import game_names
from .ranges import preflop_file

DATA = Path(__file__).resolve().parent.parent / "data"


def order_rows(equities: dict[str, float]) -> list[tuple[str, float, int]]:
    """``[(hand, equity, rank)...]`` best first; ties in equity are broken by name."""
    rows = sorted(equities.items(), key=lambda kv: (-round(kv[1], 12), kv[0]))
    return [(h, e, i + 1) for i, (h, e) in enumerate(rows)]


def csv_text(equities: dict[str, float]) -> str:
    lines = ["hand,equity,rank"]
    lines += [f"{h},{e:.10f},{r}" for h, e, r in order_rows(equities)]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    from .progress import progress
    from .range_equity import preflop_vs_random

    ap = argparse.ArgumentParser(prog="python -m simulate.preflop_order", description=__doc__)
    ap.add_argument("-o", "--output", default=None,
                    help="CSV file to write (default: the game's file in data/)")
    ap.add_argument("--game", default="holdem", choices=game_names("holdem"))
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args(argv)
    if args.output is None:
        args.output = str(DATA / preflop_file(args.game))
    t0 = time.perf_counter()
    with progress(None, "starting hands vs random (exact)", "parts") as bar:
        eq = preflop_vs_random(threads=args.threads, progress=bar.callback(), game=args.game)
    Path(args.output).write_text(csv_text(eq))
    print(f"wrote {args.output} ({len(eq)} hands, {time.perf_counter() - t0:.1f} s)",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
