"""``pokerjit stats``: tracker statistics from the hand database (``pokerjit import``)."""

from __future__ import annotations

import argparse
from typing import Any

NAME = "stats"
HELP = "tracker statistics per player from the hand database (VPIP, PFR, 3-bet, ..., bb/100)"
EXAMPLES = """One row per player over the hands stored by 'pokerjit import': hands, VPIP, PFR,
3-bet, fold to 3-bet, flop c-bet, fold to c-bet, AF, AFq, WTSD, W$SD, W$WSF, net, bb/100, the
all-in EV adjusted net and bb/100, showdown and non-showdown winnings. Each statistic is
PokerTracker 4's (the README gives the definitions): a sum of done counts over a sum of
opportunities, '-' (JSON null) where there was none. Amounts are summed in the hands' own
units (dollars, euros, chips): pick one currency with --site, --game, --stakes or
--currency. --since and --until take dates (YYYY-MM-DD, the whole day) or times.

--json prints {"players": [{"player", "hands", "vpip", "pfr", "three_bet",
"fold_to_three_bet", "cbet", "fold_to_cbet", "af", "afq", "wtsd", "wsd", "wwsf", "net",
"bb_per_100", "allin_adjusted_net", "allin_adjusted_bb_per_100", "showdown_net",
"non_showdown_net"}...]} (rates as fractions); --csv FILE writes the same rows. --png FILE
draws the graph of one player (the first --player, else the one with the most hands):
cumulative net, all-in EV adjusted, showdown and non-showdown winnings against hands.

exit status: 0; 2 no database, a --player without hands (with the filters), or bad options.

examples:
  pokerjit stats --db hands.duckdb
  pokerjit stats --db hands.duckdb --min-hands 100 --game holdem --json
  pokerjit stats --db hands.duckdb --player Hero --since 2024-01-01 --png hero.png
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    from simulate.cli._util import add_db

    add_db(p)
    p.add_argument("--player", nargs="+", default=[], metavar="NAME",
                   help="only these players (names as printed)")
    p.add_argument("--site", help="only hands of this site (pokerstars, ..., phh)")
    p.add_argument("--game", help="only hands of this game (holdem, omaha, ...)")
    p.add_argument("--stakes", help="only hands at these stakes, e.g. 0.5/1")
    p.add_argument("--currency", help="only hands in this currency (USD, EUR, chips)")
    p.add_argument("--position", help="only the hands played from this position "
                                      "(BTN, SB, BB, UTG, HJ, CO, ...)")
    p.add_argument("--since", metavar="DATE", help="hands from this date or time on")
    p.add_argument("--until", metavar="DATE", help="hands up to this date or time")
    p.add_argument("--min-hands", type=int, default=0, metavar="N",
                   help="leave out players with fewer hands")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    out.add_argument("--csv", metavar="FILE", help="write the rows as CSV (- for stdout)")
    p.add_argument("--png", metavar="FILE", help="draw one player's graph")


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from simulate.cli._util import UsageError, check_outputs, emit_json, image_format
    from simulate.store.schema import connect, resolve_db
    from simulate.store.stats import StatsFilter, player_graph, player_stats

    if args.min_hands < 0:
        raise UsageError(f"--min-hands must be 0 or more, got {args.min_hands}")
    check_outputs([("--csv", args.csv), ("--png", args.png)], stdout_ok={"--csv"})
    fmt = image_format(args.png, "--png") if args.png else None
    filt = StatsFilter(players=args.player, site=args.site, game=args.game,
                       stakes=args.stakes, currency=args.currency, position=args.position,
                       since=args.since, until=args.until, min_hands=args.min_hands)
    con = connect(resolve_db(args.db), read_only=True)
    try:
        rows = player_stats(con, filt)
        missing = set(args.player) - {r["player"] for r in rows}
        if missing and filt.min_hands:  # those --min-hands left out have hands
            missing -= {r["player"] for r in player_stats(con, replace(filt, min_hands=0))}
        if missing:
            raise UsageError(f"no hands of {', '.join(sorted(missing))} in "
                             f"{resolve_db(args.db)} (with these filters)")
        graph = None
        if args.png:
            who = args.player[0] if args.player else rows[0]["player"] if rows else None
            if who is None:
                raise UsageError("--png: no hands to draw (with these filters)")
            graph = (who, player_graph(con, who, filt))
    finally:
        con.close()
    if args.json:
        emit_json({"players": rows})
    elif args.csv:
        _write_csv(args.csv, rows)
    else:
        print(_text(rows))
    if graph is not None:
        _draw(args.png, fmt or "png", *graph)
    return 0


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}"


def _num(x: Any, digits: int = 2) -> str:
    return "-" if x is None else f"{x:,.{digits}f}"


def _text(rows: list[dict[str, Any]]) -> str:
    from simulate.texttable import table

    if not rows:
        return "no hands (with these filters)"
    header = ["player", "hands", "VPIP", "PFR", "3B", "F3B", "CB", "FCB", "AF", "AFq",
              "WTSD", "W$SD", "WWSF", "net", "bb/100", "EV net", "EV bb/100", "SD net",
              "non-SD net"]
    body = [[r["player"], f"{r['hands']:,}", *(_pct(r[k]) for k in (
        "vpip", "pfr", "three_bet", "fold_to_three_bet", "cbet", "fold_to_cbet")),
        _num(r["af"]), _pct(r["afq"]), _pct(r["wtsd"]), _pct(r["wsd"]), _pct(r["wwsf"]),
        _num(r["net"]), _num(r["bb_per_100"]), _num(r["allin_adjusted_net"]),
        _num(r["allin_adjusted_bb_per_100"]), _num(r["showdown_net"]),
        _num(r["non_showdown_net"])] for r in rows]
    return table(body, header) + "\n(rates in %; AF a ratio; '-': no opportunity)"


def _write_csv(path: str, rows: list[dict[str, Any]]) -> None:
    import csv

    from simulate.cli._util import open_output
    from simulate.store.stats import STATS_KEYS

    with open_output(path, "--csv", text=True) as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(STATS_KEYS)
        for r in rows:
            w.writerow(["" if r[k] is None else r[k] for k in STATS_KEYS])


def _draw(path: str, fmt: str, player: str, g: dict[str, Any]) -> None:
    import io

    from simulate.cli._util import pyplot, write_output

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(9, 5))
    x = range(1, len(g["net"]) + 1)
    for key, label, color, style in (("net", "net won", "C2", "-"),
                                     ("allin_adjusted", "all-in EV adjusted", "C1", "--"),
                                     ("showdown", "showdown winnings", "C0", "-"),
                                     ("non_showdown", "non-showdown winnings", "C3", "-")):
        ax.plot(x, g[key], color=color, label=label, linewidth=1.2, linestyle=style)
    ax.axhline(0, color="0.6", linewidth=0.8)
    ax.set_xlabel("hands")
    ax.set_ylabel("cumulative winnings (table units)")
    ax.set_title(f"{player}: {len(g['net']):,} hands")
    ax.legend(fontsize=8)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=110)
    plt.close(fig)
    write_output(path, buf.getvalue(), "--png")
