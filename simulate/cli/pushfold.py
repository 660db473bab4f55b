"""``pokerjit pushfold``: jam-or-fold equilibria, heads-up (chip EV) and 3-10 handed (ICM)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from simulate.cli._util import (
    UsageError,
    add_json,
    check_outputs,
    emit_json,
    image_format,
    pyplot,
    table,
    write_output,
)

NAME = "pushfold"
HELP = "push/fold equilibrium: heads-up jam and call ranges, the 1-25 bb chart, ICM 3-10 handed"
EXAMPLES = """Heads-up: the small blind (0.5) jams or folds, the big blind (1) calls or folds;
--stack is each player's stack in big blinds before the blinds (and --ante each) are posted.
--chart solves every stack from 1 to 25 big blinds in tenths and gives, per hand, the
largest stack at which it is jammed, and called, at least half the time. With --players
N (3..10) --stacks --payouts: the ICM push/fold game, positions from the button (the
first to act jams or folds, each later player calls or folds, over-calls allowed).

examples:
  pokerjit pushfold --stack 10
  pokerjit pushfold --stack 8 --ante 0.125 --json
  pokerjit pushfold --chart --png chart.png
  pokerjit pushfold --players 3 --stacks 10 15 20 --payouts 50 30 20
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--stack", default=None, metavar="S",
                   help="heads-up: each stack in big blinds before the blinds are posted")
    p.add_argument("--ante", default="0", metavar="A", help="each player's ante in big blinds")
    p.add_argument("--chart", action="store_true",
                   help="heads-up: the chart of every stack from 1 to 25 big blinds")
    p.add_argument("--players", default=None, metavar="N", help="3..10: the ICM game")
    p.add_argument("--stacks", nargs="+", default=None, metavar="S",
                   help="with --players: each stack in big blinds, from the button")
    p.add_argument("--payouts", nargs="+", default=None, metavar="P",
                   help="with --players: the prizes of places 1, 2, ...")
    p.add_argument("--png", metavar="FILE", default=None,
                   help="draw the ranges (heads-up) or the chart (--chart)")
    add_json(p)


def _number(text: str, option: str) -> float:
    from simulate.cli.icm import numbers

    vals = numbers([text], option)
    if len(vals) != 1:
        raise UsageError(f"{option}: one number, got '{text}'")
    return vals[0]


def run(args: argparse.Namespace) -> int:
    ante = _number(args.ante, "--ante")
    if args.players is not None or args.stacks is not None or args.payouts is not None:
        return _run_icm(args, ante)
    if args.chart == (args.stack is not None):
        raise UsageError("give --stack S (one stack) or --chart (every stack from 1 to 25)")
    fmt = None
    if args.png:
        check_outputs([("--png", args.png)])
        fmt = image_format(args.png, "--png")
    if args.chart:
        from simulate.pushfold import pushfold_chart

        return _show(args, pushfold_chart(ante=ante).to_dict(), fmt, chart_png, chart_text)
    from simulate.pushfold import pushfold

    doc = pushfold(_number(args.stack, "--stack"), ante=ante).to_dict()
    return _show(args, doc, fmt, ranges_png, format_text)


def _show(args: argparse.Namespace, doc: dict[str, Any], fmt: str | None,
          png: Callable[[dict[str, Any], str], bytes],
          text: Callable[[dict[str, Any]], str]) -> int:
    """Write ``doc``'s picture (``--png``) and print it as JSON or as text: one chart or one
    stack's ranges alike."""
    if args.png:
        write_output(args.png, png(doc, fmt or "png"), "--png")
    if args.json:
        emit_json(doc)
    else:
        print(text(doc))
    return 0


def _run_icm(args: argparse.Namespace, ante: float) -> int:
    from simulate.cli.icm import numbers

    if args.players is None or args.stacks is None or args.payouts is None:
        raise UsageError("the ICM game needs --players N, --stacks and --payouts")
    if args.stack is not None or args.chart or args.png:
        raise UsageError("--stack, --chart and --png are for the heads-up game, not --players")
    players = args.players.strip()
    if not (players.isascii() and players.isdigit()):
        raise UsageError(f"--players must be a whole number, got '{args.players}'")
    from simulate.pushfold_icm import pushfold_icm

    r = pushfold_icm(numbers(args.stacks, "--stacks"), numbers(args.payouts, "--payouts"),
                     players=int(players), ante=ante)
    doc = r.to_dict()
    if args.json:
        emit_json(doc)
    else:
        print(icm_text(doc))
    return 0


def _grid_text(grid: list[list[float]]) -> str:
    from evaluator.cards import RANKS

    lines = ["      " + "".join(f"{RANKS[12 - j]:>5}" for j in range(13))]
    for i in range(13):
        cells = "".join("    -" if v == 0 else ("  all" if v >= 0.9995 else f"{v:5.2f}")
                        for v in grid[i])
        lines.append(f"{RANKS[12 - i]:>6}" + cells)
    return "\n".join(lines)


def format_text(doc: dict[str, Any]) -> str:
    """The text of a heads-up answer."""
    out = [f"heads-up push/fold at {doc['stack_bb']:g} bb (ante {doc['ante']:g}): "
           f"exploitability {doc['exploitability_mbb']:.6f} mbb/hand",
           f"EV per hand: small blind {doc['ev_bb']['sb']:+.4f} bb, big blind "
           f"{doc['ev_bb']['bb']:+.4f} bb", ""]
    for key, who in (("jam", "small blind jams"), ("call", "big blind calls")):
        d = doc[key]
        out.append(f"{who} {100 * d['share']:.1f}% of hands: {d['range'] or '(nothing)'}")
        out.append(_grid_text(d["grid"]))
        out.append("")
    return "\n".join(out).rstrip()


def chart_text(doc: dict[str, Any]) -> str:
    """The text of the chart: two 13 x 13 grids of the largest stack (bb) each hand is
    jammed, and called, at (``-``: at none), then the gaps."""
    from evaluator.cards import RANKS
    from simulate.ranges import HAND_CLASSES

    out = []
    for key, who in (("jam", "small blind jams up to (bb)"),
                     ("call", "big blind calls up to (bb)")):
        vals = [doc[key][c] for c in HAND_CLASSES]
        out.append(who)
        out.append("    " + "".join(f"{RANKS[12 - j]:>5}" for j in range(13)))
        for i in range(13):
            out.append(f"{RANKS[12 - i]:>4}" + "".join(
                "    -" if v == 0 else f"{v:5.1f}" for v in vals[13 * i: 13 * i + 13]))
        out.append("")
    for key, word in (("jam_gaps", "jammed"), ("call_gaps", "called")):
        for c, g in doc[key].items():
            out.append(f"{c}: not {word} at {', '.join(f'{a:g}-{b:g}' for a, b in g)} bb")
    out.append(f"worst exploitability: {doc['exploitability_mbb']:.6f} mbb/hand")
    return "\n".join(out)


def icm_text(doc: dict[str, Any]) -> str:
    """The text of an ICM push/fold answer."""
    out = [f"ICM push/fold, {len(doc['stacks'])} players (stacks in bb from the button: "
           f"{' '.join(f'{s:g}' for s in doc['stacks'])}; payouts "
           f"{' '.join(f'{p:g}' for p in doc['payouts'])})",
           f"largest gain from deviating: {doc['exploitability']:.2e} of the prize pool "
           f"({doc['iterations']} iterations; multi-way equities: {doc['equities']})", ""]
    for pos in doc["positions"]:
        out.append(f"{pos['name']} jams {100 * pos['jam']['share']:.1f}%: "
                   f"{pos['jam']['range'] or '(nothing)'}")
        for c in pos["calls"]:
            after = f" after {', '.join(c['callers'])} called" if c["callers"] else ""
            out.append(f"  calls {c['jammer']}'s jam{after} {100 * c['share']:.1f}%: "
                       f"{c['range'] or '(nothing)'}")
    out.append("")
    out.append(table([[p["name"], f"{p['stack']:g}", f"{p['icm_equity']:.4f}"]
                      for p in doc["positions"]], ["position", "stack", "ICM equity"]))
    return "\n".join(out)


def _draw(panels: list[tuple[str, list[list[float]], float, str]], title: str,
          fmt: str) -> bytes:
    """13 x 13 grids side by side: ``(title, values, top of the colour scale, label
    format)`` each; the bytes of a ``fmt`` file."""
    import io

    import numpy as np

    from simulate.ranges import grid_names

    plt = pyplot()
    names = grid_names()
    fig, axes = plt.subplots(1, len(panels), figsize=(8 * len(panels), 7.5))
    for ax, (sub, values, top, label) in zip(np.atleast_1d(axes), panels, strict=True):
        data = np.array(values, float)
        im = ax.imshow(data, cmap="YlOrRd", vmin=0, vmax=top)
        for i in range(13):
            for j in range(13):
                v = data[i, j]
                ax.text(j, i, names[i][j] + ("" if v == 0 else "\n" + label.format(v)),
                        ha="center", va="center", fontsize=6.5)
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_title(sub)
        fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    fig.suptitle(title)
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def chart_png(doc: dict[str, Any], fmt: str) -> bytes:
    """The chart drawn: the largest stack each hand is jammed at, and called at."""
    from simulate.ranges import HAND_CLASSES

    def grid(key: str) -> list[list[float]]:
        vals = [doc[key][c] for c in HAND_CLASSES]
        return [vals[13 * i: 13 * i + 13] for i in range(13)]

    return _draw([("small blind: jam up to (bb)", grid("jam"), 25.0, "{:g}"),
                  ("big blind: call up to (bb)", grid("call"), 25.0, "{:g}")],
                 "heads-up push/fold Nash equilibrium (chip EV)"
                 + (f", ante {doc['ante']:g}" if doc["ante"] else ""), fmt)


def ranges_png(doc: dict[str, Any], fmt: str) -> bytes:
    """One stack's jam and call frequencies drawn."""
    return _draw([(f"small blind jams {100 * doc['jam']['share']:.1f}%", doc["jam"]["grid"],
                   1.0, "{:.2f}"),
                  (f"big blind calls {100 * doc['call']['share']:.1f}%", doc["call"]["grid"],
                   1.0, "{:.2f}")],
                 f"heads-up push/fold at {doc['stack_bb']:g} bb", fmt)
