"""``pokerjit range``: range-vs-range equity with per-combo and 13x13 breakdowns."""

from __future__ import annotations

import argparse
import csv
import math
import sys
from typing import Any

from simulate.cli._util import (
    UsageError,
    add_game,
    add_json,
    add_sampling_options,
    check_outputs,
    choice_line,
    emit_json,
    image_format,
    load_note,
    pct,
    plural,
    pyplot,
    sampling_kwargs,
    table,
    with_choice,
    write_output,
)

NAME = "range"
HELP = "equity of a range against other ranges or hands, with per-combo and 13x13 breakdowns"
EXAMPLES = """examples:
  pokerjit range 'QQ+,AKs' --vs random --board Td9d2c
  pokerjit range 'TT+,AQs+:0.5' --vs 'top 20%' AhKh --board Ks8h2c7d
  pokerjit range 'top 10%' --vs random --samples 200000 --seed 1 --json
  pokerjit range AKs --vs QQ --csv combos.csv --png grid.png
  pokerjit range 'A6s+,99+' --vs 'top 30%' --game short_deck

range syntax: AKs AKo AK QQ TT+ A2s+ KTs-K7s 99-66 AhKh AhKx random 'top 15%',
  weights AKs:0.5 or (QQ+,AKs):0.5, items joined by commas (quote the range in a shell)
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("range", help="the first player's range or hand, e.g. 'QQ+,AKs'")
    p.add_argument("--vs", nargs="+", required=True, metavar="RANGE",
                   help="the other players' ranges or hands (1 to 9)")
    p.add_argument("--board", default="", help="board cards (0, 3, 4 or 5)")
    p.add_argument("--dead", default="", help="dead cards")
    add_game(p, note="Ranges are for holdem and the short-deck games (6 to A: no rank below "
                     "6, top N%% by the game's own order)")
    add_sampling_options(p)
    add_json(p)
    p.add_argument("--csv", metavar="FILE",
                   help="write the per-combo table of every player (- for stdout)")
    p.add_argument("--png", metavar="FILE", help="draw the first player's 13x13 grid; the "
                   "format follows the extension (- writes PNG to stdout; needs matplotlib: "
                   "pip install 'pokerjit[plot]')")


def _grid_size(game: str) -> int:
    """Rows (and columns) of ``game``'s grid that the text and the picture show: the ranks
    of its deck, A down (13; short deck's 36 cards, A to 6: 9). The JSON keeps 13 x 13."""
    from simulate.games import check_game

    return 13 - check_game(game).low_rank


def _grid_text(grid: list[list[dict | None]], size: int = 13) -> str:
    from evaluator.cards import RANKS

    head = "      " + "".join(f"{r:>6}" for r in RANKS[::-1][:size])
    lines = [head]
    for i, row in enumerate(grid[:size]):
        cells = []
        for c in row[:size]:
            if c is None or c["equity"] is None:
                cells.append(f"{'.':>6}")
            else:
                cells.append(f"{100 * c['equity']:6.1f}")
        lines.append(f"{RANKS[12 - i]:>6}" + "".join(cells))
    return "\n".join(lines)


def _png_bytes(grid: list[list[dict | None]], title: str, fmt: str, size: int = 13) -> bytes:
    """The first player's grid drawn by matplotlib, as the bytes of a ``fmt`` file: its
    first ``size`` rows and columns (:func:`_grid_size`)."""
    import io

    import numpy as np

    from simulate.ranges import grid_names

    plt = pyplot()
    data = np.full((size, size), np.nan)
    for i in range(size):
        for j in range(size):
            c = grid[i][j]
            if c is not None and c["equity"] is not None:
                data[i, j] = 100 * c["equity"]
    names = grid_names()
    fig, ax = plt.subplots(figsize=(9, 8))
    im = ax.imshow(data, cmap="RdYlGn", vmin=0, vmax=100)
    for i in range(size):
        for j in range(size):
            txt = names[i][j] + ("" if np.isnan(data[i, j]) else f"\n{data[i, j]:.0f}")
            ax.text(j, i, txt, ha="center", va="center", fontsize=6)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(title)
    fig.colorbar(im, ax=ax, label="equity %")
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def _csv_text(an: object) -> str:
    import io

    with io.StringIO(newline="") as f:
        w = csv.writer(f)
        w.writerow(["player", "range", "combo", "hand", "weight", "share", "equity"])
        for p, pr in enumerate(an.result.players):  # type: ignore[attr-defined]
            for row in an.combos(p):  # type: ignore[attr-defined]
                w.writerow([p + 1, pr.hand, row["combo"], row["hand"], row["weight"],
                            f"{row['share']:.8f}",
                            "" if row["equity"] is None else f"{row['equity']:.8f}"])
        return f.getvalue()


def run(args: argparse.Namespace) -> int:
    from simulate.range_equity import analyze_ranges

    kw = sampling_kwargs(args)
    # Check the output files before the (possibly long) computation. "-" sends that output
    # to stdout instead of the table (so at most one output may be "-", and not with --json).
    to_stdout = [opt for opt, path in (("--csv", args.csv), ("--png", args.png)) if path == "-"]
    if len(to_stdout) > 1 or (to_stdout and args.json):
        raise UsageError(f"{to_stdout[0]} - and {'--json' if args.json else to_stdout[1]} "
                         "would both write to standard output; name a file for one of them")
    check_outputs([("--csv", args.csv), ("--png", args.png)], stdout_ok=True)
    fmt = None
    if args.png:
        fmt = image_format(args.png, "--png")
    from simulate.sampling import default_choices

    with default_choices() as chosen:
        an = analyze_ranges([args.range, *args.vs], args.board, args.dead, game=args.game,
                            **kw)
    res = an.result
    if args.csv:
        write_output(args.csv, _csv_text(an), "--csv")
    if args.png:
        title = (f"{res.players[0].hand} vs {', '.join(p.hand for p in res.players[1:])}"
                 + (f" on {res.board}" if res.board else ""))
        write_output(args.png, _png_bytes(an.grid(0), title, fmt or "png",
                                                 _grid_size(args.game)), "--png")
    if to_stdout:
        return 0
    if args.json:
        emit_json(with_choice(an.to_dict(), chosen))
        return 0
    print(format_text(with_choice(res.to_dict(), chosen), [len(r) for r in an.ranges],
                      an.grid(0), an.categories(0)))
    sys.stdout.flush()
    return 0


def request(args: argparse.Namespace) -> dict[str, Any] | None:
    """The ``POST /api/v1/range`` body of these arguments (``pokerjit serve``), or None when
    they write files (which only the local command does)."""
    kw = sampling_kwargs(args)
    if args.csv or args.png:
        return None
    return {"hands": [args.range, *args.vs], "board": args.board, "dead": args.dead,
            "exact": kw["exact"], "samples": kw["samples"], "std_error": kw["target_std_error"],
            "seed": kw["seed"], "game": args.game}


def print_document(args: argparse.Namespace, doc: dict[str, Any]) -> None:
    """Print a ``range --json`` document as JSON or as the text the local command prints."""
    if args.json:
        emit_json(doc)
        return
    ranges = doc["ranges"]
    print(format_text(doc, [len(r["combos"]) for r in ranges], ranges[0]["grid"],
                      ranges[0]["hand_categories"]))
    sys.stdout.flush()


def format_text(res: dict[str, Any], n_combos: list[int], grid: list[list[dict | None]],
                cats: dict[str, Any] | None) -> str:
    """The text of ``pokerjit range``: ``res`` the equity keys of the ``--json`` document,
    ``n_combos`` each player's live combos, ``grid`` and ``cats`` player 1's 13x13 grid and
    hand categories (None before the flop)."""
    from simulate.sampling import switched_note

    rows = []
    for p, pr in enumerate(res["players"]):
        se = math.inf if pr["std_error"] is None else pr["std_error"]  # null: unknown
        rows.append([str(p + 1), pr["hand"], str(n_combos[p]), pct(pr["equity"]).strip(),
                     pct(pr["win"]).strip(), pct(pr["tie"]).strip(),
                     "" if res["exact"] else f"±{100 * se:.2f}%"])
    out = [table(rows, ["#", "range", "combos", "equity", "win", "tie", "std err"],
                 align="rlrrrrr")]
    how = "exact" if res["exact"] else f"Monte Carlo, {plural(res['samples'], 'deal')}"
    how += switched_note(res)  # the result's extra keys are top-level keys of the document
    extra = f"board {res['board']}" if res["board"] else "preflop"
    if res["dead"]:
        extra += f", dead {res['dead']}"
    out.append(f"({how}; {extra}; {res['elapsed_s']:.2f} s{load_note()})")
    if "default_samples" in res:
        out.append(choice_line([res["default_samples"]]))
    out.append(f"\nequity % of player 1 ({res['players'][0]['hand']}) by hand class:")
    out.append(_grid_text(grid, _grid_size(str(res.get("game", "holdem")))))
    if cats:
        out.append(f"\nplayer 1 on {cats['board']} ({cats['combos']:g} combos):")
        crow = [[k, f"{v['combos']:g}", pct(v["share"]).strip()] for k, v in cats["made"].items()]
        crow += [[k, f"{v['combos']:g}", pct(v["share"]).strip()]
                 for k, v in cats["draws"].items() if v["combos"] > 0]
        out.append(table(crow, ["holding", "combos", "share"], align="lrr"))
    return "\n".join(out)
