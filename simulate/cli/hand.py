"""``pokerjit hand``: replay hand histories, PHH and the sites' exports (pots, winners,
finishing stacks, all-in EV), streamed, on one or more worker processes, with per-player
totals."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, NamedTuple

from simulate.documents import hand_document as document  # noqa: F401 - the command's document

if TYPE_CHECKING:
    from simulate.replay.totals import TotalsInput

NAME = "hand"
HELP = ("replay hand histories (PHH, site exports, folders): pots, winners, stacks, "
        "all-in EV")
EXAMPLES = """examples:
  pokerjit hand tests/data/phh/vendor/phh-curated/dwan-ivey-2009.phh
  pokerjit hand tests/data/phh/derived/highstakes_1000nl_sidepot_hands.phhs --json
  pokerjit hand tests/data/phh/vendor/phh-curated --workers 2 --totals-only --csv hands.csv
  pokerjit hand big.phhs --scheduler local:4 --json > out.json
  cat hands.phhs | pokerjit hand - --totals-only
  pokerjit hand ~/PokerStars/HandHistory --totals-only

Site exports are read as well as PHH: PokerStars, GGPoker, Winamax, iPoker, 888,
PartyPoker, Winning/ACR, Bovada/Ignition, Full Tilt, OnGame, Merge, MicroGaming, Boss Media,
Entraction, PKR, IGT and Open Hand History, told from the content (in a folder every file
is tried, whatever its name; files that hold no hand history are skipped and counted).
A site hand's chips must add up (committed = collected + rake + fees), else it is that
hand's error naming the line; its document gains the site's keys (site, hand_id, table,
time, currency, tournament, seats, hero, boards, fees, cashout; winnings as the site paid).

Hold'em and Omaha hands are replayed through the rules engine: an illegal action, a bet
beyond the stack, a card dealt twice or a shown hand that differs from the dealt one is
that hand's error. Other variants are replayed by their chip accounting only
("validated": false). Stacks written 'inf' (unknown): finishing stack null, net given.
Hole cards '????' that decide a showdown: outcome unknown (not an error). Recorded
winnings are shown, never trusted.

Input is streamed hand by hand (a folder or .phhs of any size runs in bounded memory);
'-' reads standard input. Only regular files are read; each real file is read once and
each real folder visited once (a second name for a file, a link to a folder already read,
a dangling link: skipped, with a 'warning: skipped ...' line on stderr). A hand over
1 MiB of text is that hand's error. Each hand's error is also printed on stderr as
'error: SOURCE: ...'. An output (--csv, --png) may not be an input, nor a .phh/.phhs in
an input folder; --json is printed whole at the end (or not at all, on Ctrl-C).

exit status: 0 every hand was replayed; 1 some hands had errors; 2 the input could not be
read at all (no such file, empty, binary, not PHH) or bad options.
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", nargs="+",
                   help="a .phh file, a .phhs collection, a site's export, a folder (read "
                        "recursively) or - (standard input)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON document on stdout: {hands, totals, summary}")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="replay on N worker processes (chunks of hands; default 1)")
    p.add_argument("--scheduler", metavar="SPEC",
                   help="replay on a Dask cluster instead: local, local:N or tcp://HOST:PORT "
                        "(needs pokerjit[distributed])")
    p.add_argument("--totals-only", action="store_true",
                   help="print only the per-player totals and the summary (JSON: no hands)")
    p.add_argument("--csv", metavar="FILE",
                   help="write one row per hand and player (net, all-in adjusted net, ...)")
    p.add_argument("--png", metavar="FILE",
                   help="draw each player's cumulative won vs all-in EV (needs pokerjit[plot])")
    p.add_argument("--players", type=int, default=6, metavar="K",
                   help="--png draws the K players with the most hands (default 6)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")


def _num(x: Any) -> str:
    if x is None:
        return "?"
    if isinstance(x, float):
        return f"{x:,.2f}"
    return f"{x:,}"


def _print_hand(r: dict[str, Any], out: Any) -> None:
    w = out.write
    w(f"== {r['source']}\n")
    if r["error"]:
        w(f"   error: {r['error']}\n")
        return
    from simulate.cli._util import table

    recorded = r["recorded_finishing_stacks"]
    ev = r["allin_ev"]
    rows = []
    for s, name in enumerate(r["players"]):
        row = [f"p{s + 1}", name[:22], r["hole_cards"][s] or "-",
               "inf" if r["starting_stacks"][s] is None else _num(r["starting_stacks"][s]),
               _num(r["winnings"][s]), _num(r["finishing_stacks"][s]), _num(r["net"][s])]
        if recorded is not None:
            fin, rec = r["finishing_stacks"][s], recorded[s]
            row.append("-" if fin is None or rec is None else "ok" if rec == fin
                       else f"recorded {_num(rec)}")
        if ev is not None:
            row.append(f"{ev[s]['ev']:+,.2f}")
        rows.append(row)
    header = ["seat", "player", "cards", "start", "won", "finish", "net"]
    if recorded is not None:
        header.append("record")
    if ev is not None:
        header.append("all-in EV")
    how = ("validated by the engine" if r["validated"]
           else f"chip accounting only: {r['not_validated'] or 'not validated'}")
    w(f"   {r['variant']}  board {r['board'] or '-'}  ({how})\n")
    for i, p in enumerate(r["pots"]):
        kind = "main pot" if i == 0 else f"side pot {i}"
        elig = ", ".join(f"p{s + 1}" for s in p["eligible"])
        won = ("unknown (hidden cards)" if p["winners"] is None
               else ", ".join(f"p{s + 1}" for s in p["winners"]))
        w(f"   {kind}: {_num(p['amount'])} (eligible {elig}; won by {won})\n")
    if r["rake"]:
        w(f"   rake: {_num(r['rake'])}\n")
    if ev is not None:
        kind = "exact" if r["allin_exact"] else "sampled"
        w(f"   all-in with board {r['allin_board'] or '(none)'}: EV over the runouts ({kind})\n")
    w("\n".join("   " + line for line in table(rows, header).splitlines()) + "\n")


CSV_COLUMNS = ["hand", "source", "seat", "player", "net", "allin_adjusted_net", "big_blind",
               "validated", "outcome_known", "error"]


def _csv_rows(i: int, d: dict[str, Any]) -> list[list[Any]]:
    if d["error"]:
        return [[i, d["source"], "", "", "", "", "", "", "", d["error"]]]
    ev = d["allin_ev"]
    rows = []
    for s, name in enumerate(d["players"]):
        net = d["net"][s]
        adj = None if net is None else (ev[s]["ev"] if ev is not None else net)
        rows.append([i, d["source"], s + 1, name, "" if net is None else net,
                     "" if adj is None else adj, d["big_blind"] if d["big_blind"] else "",
                     d["validated"], d["outcome_known"], ""])
    return rows


class _Series:
    """Cumulative won and all-in-adjusted won per player, for ``--png``."""

    def __init__(self) -> None:
        from array import array

        self._array = array
        self.won: dict[str, Any] = {}
        self.adj: dict[str, Any] = {}

    def add(self, seats: list[tuple[str, Any, Any]]) -> None:
        for name, net, adj in seats:
            if name not in self.won:
                self.won[name], self.adj[name] = self._array("d"), self._array("d")
            w, a = self.won[name], self.adj[name]
            w.append((w[-1] if w else 0.0) + float(net))
            a.append((a[-1] if a else 0.0) + float(adj))

    def draw(self, path: str, k: int, fmt: str = "png") -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        names = sorted(self.won, key=lambda n: -len(self.won[n]))[:k]
        fig, ax = plt.subplots(figsize=(9, 5))
        for i, n in enumerate(names):
            color = f"C{i % 10}"
            ax.plot(range(1, len(self.won[n]) + 1), self.won[n], color=color, label=f"{n} won")
            ax.plot(range(1, len(self.adj[n]) + 1), self.adj[n], color=color, linestyle="--",
                    label=f"{n} all-in EV")
        ax.axhline(0, color="0.6", linewidth=0.8)
        ax.set_xlabel("hands played")
        ax.set_ylabel("cumulative chips")
        ax.set_title("won (solid) vs all-in adjusted (dashed)")
        if names:
            ax.legend(fontsize=7, ncol=2)
        fig.tight_layout()
        import io

        buf = io.BytesIO()
        fig.savefig(buf, format=fmt, dpi=110)
        plt.close(fig)
        from simulate.cli._util import write_output

        write_output(path, buf.getvalue(), "--png")


class Record(NamedTuple):
    """What :func:`_render` makes of a hand (on a worker), for the main process."""

    #: False: the hand's text could not be read as PHH.
    readable: bool
    source: str
    error: str | None
    #: What the totals need (:func:`simulate.replay.totals.totals_input`).
    totals: TotalsInput
    #: The hand's JSON or text block (None: neither is written).
    text: str | None
    #: The hand's CSV rows, hand number left for the main process (None: no CSV).
    csv_rows: list[list[Any]] | None


def _render(d: dict[str, Any], out: str, csv: bool) -> Record:
    """One hand's share of the output, made where the hand was replayed (on a worker):
    its JSON (``out="json"``) or text block (``"text"``), its CSV rows (hand number left
    for the main process to fill in) and what the totals need
    (:func:`simulate.replay.totals.totals_input`)."""
    from simulate.replay.totals import totals_input

    readable = d.pop("readable", True)
    text = None
    if out == "json":
        text = json.dumps(d, allow_nan=False, separators=(",", ":"))
    elif out == "text":
        import io

        buf = io.StringIO()
        _print_hand(d, buf)
        text = buf.getvalue()
    return Record(bool(readable), d["source"], d["error"], totals_input(d), text,
                  _csv_rows(0, d) if csv else None)


def run(args: argparse.Namespace) -> int:
    from simulate.cli._util import UsageError, check_outputs, image_format, plural
    from simulate.notation.phh_read import SUFFIXES
    from simulate.replay.hand_files import analyze
    from simulate.run.stop import stop_on_signals

    if args.workers < 1 or args.workers > 256:
        raise UsageError(f"--workers must be 1..256, got {args.workers}")
    if args.players < 1:
        raise UsageError(f"--players must be at least 1, got {args.players}")
    # every output checked before any work: a place that can be written, not an input
    # (nor a history an input folder would read), no two the same
    check_outputs([("--json", "-" if args.json else None), ("--csv", args.csv),
                   ("--png", args.png)], stdout_ok={"--csv"}, inputs=args.file,
                  reads=SUFFIXES)
    fmt = image_format(args.png, "--png") if args.png else None
    import contextlib
    import functools

    # --csv -: standard output is the CSV alone; the report (totals, the summary line) goes
    # to standard error, and each hand's text is left out
    out = "" if args.totals_only or args.csv == "-" else "json" if args.json else "text"
    render = functools.partial(_render, out=out, csv=bool(args.csv))
    with stop_on_signals():  # SIGTERM, SIGHUP clean up as Ctrl-C does (temporary files)
        try:
            skipped = _Skipped()
            docs = analyze(args.file, workers=args.workers, scheduler=args.scheduler,
                           render=render, on_skip=skipped)
            first = next(docs, None)
        except FileNotFoundError as exc:
            raise UsageError(str(exc)) from None
        # closed on the way out, whatever ends the run: a Ctrl-C that lands while the
        # hands are written (not inside the generator) would otherwise leave the worker
        # pool to the interpreter's exit, which waits for the chunks still in flight
        with contextlib.closing(docs):
            if first is None:
                raise UsageError(f"no hands in {' '.join(args.file)}"
                                 + (f" ({plural(skipped.not_hands, 'file')} hold no hand "
                                    "history)" if skipped.not_hands else ""))
            try:
                return _Run(args, fmt).go(first, docs)
            finally:
                skipped.close()


class _Skipped:
    """Told of each input skipped (a link to a folder already read, a dangling link, a
    file in a folder that holds no hand history): one warning line each on stderr, except
    that files holding no hand history are named only up to :attr:`NAMED` times and then
    counted (the count is printed by :meth:`close`)."""

    NAMED = 3

    def __init__(self) -> None:
        self.not_hands = 0

    def __call__(self, line: str) -> None:
        from simulate.replay.hand_files import NOT_HANDS

        if NOT_HANDS in line:
            self.not_hands += 1
            if self.not_hands > self.NAMED:
                return
        sys.stderr.write(f"warning: {line}\n")

    def close(self) -> None:
        if self.not_hands > self.NAMED:
            sys.stderr.write(f"warning: skipped {self.not_hands:,} files in all that hold no "
                             "hand history\n")


class _Run:
    """One ``pokerjit hand`` run: holds hands back until one is readable (so an input that
    is not PHH at all prints nothing but one error line), then streams. The text output
    streams; the JSON document is spooled to an unnamed temporary file and written to
    standard output in one go at the end, with Ctrl-C and SIGTERM held back meanwhile, so
    it is printed whole or not at all. The CSV file is written through
    :func:`simulate.cli._util.open_output` (renamed into place at the end, its temporary
    file removed on any exception)."""

    HOLD = 1000  # unreadable items held back before deciding the input is PHH after all

    def __init__(self, args: argparse.Namespace, fmt: str | None = None) -> None:
        from contextlib import ExitStack

        from simulate.replay.totals import Totals

        self.args, self.fmt = args, fmt
        self.totals = Totals()
        self.series = _Series() if args.png else None
        self.started = False
        self.files = ExitStack()
        self.csv: Any = None
        self.out: Any = sys.stdout
        #: Where the totals and the summary line go (standard error when the CSV is
        #: standard output; nowhere then with -q).
        self.report: Any = sys.stdout if args.csv != "-" else None if args.quiet else sys.stderr

    def go(self, first: Record, docs: Any) -> int:
        import itertools

        from simulate.cli._util import UsageError
        from simulate.progress import progress

        held: list[Record] = []
        try:
            with progress(None, "hands", "hands", quiet=self.args.quiet) as bar:
                for d in itertools.chain([first], docs):
                    bar.update(1)
                    if not self.started:
                        held.append(d)
                        if d.readable or len(held) >= self.HOLD:
                            self._start()
                            for h in held:
                                self._emit(h)
                            held = []
                        continue
                    self._emit(d)
            if not self.started:
                where = " ".join(self.args.file)
                raise UsageError(f"{where}: no hand could be read ({held[0].error})")
            return self._finish()
        except BaseException:
            self.files.__exit__(*sys.exc_info())  # temporary files removed
            raise

    def _start(self) -> None:
        import tempfile

        from simulate.cli._util import open_output

        self.started = True
        a = self.args
        if a.csv:
            import csv

            fh = self.files.enter_context(open_output(a.csv, "--csv", text=True))
            self.csv = csv.writer(fh)
            self.csv.writerow(CSV_COLUMNS)
        if a.json:
            self.out = self.files.enter_context(
                tempfile.TemporaryFile("w+", encoding="utf-8", newline=""))
            self.out.write('{"hands": [' if not a.totals_only else "{")

    def _emit(self, r: Record) -> None:
        i = self.totals.hands + 1
        seats = self.totals.add_input(r.totals)
        if r.error:
            sys.stderr.write(f"error: {r.source}: {r.error}\n")
        if self.series is not None and seats:
            self.series.add(seats)
        if self.csv is not None and r.csv_rows is not None:
            for row in r.csv_rows:
                row[0] = i
            self.csv.writerows(r.csv_rows)
        a = self.args
        if r.text is None:  # --totals-only, --csv -
            return
        if a.json:
            self.out.write(("\n" if i == 1 else ",\n") + (r.text or ""))
        else:
            self.out.write(r.text or "")

    def summary(self) -> dict[str, Any]:
        return self.totals.summary()

    def _finish(self) -> int:
        import shutil

        from simulate.cli._util import plural
        from simulate.run.stop import signals_held

        a, t = self.args, self.totals
        if self.series is not None:
            self.series.draw(a.png, a.players, self.fmt or "png")
        totals = t.to_list()
        if a.json:
            body = json.dumps(totals, allow_nan=False)
            head = "\n], " if not a.totals_only else ""
            self.out.write(f'{head}"totals": {body}, '
                           f'"summary": {json.dumps(self.summary())}}}\n')
            self.out.seek(0)
        elif self.report is not None:
            self._print_totals(totals, self.report)
            s = self.summary()
            match = (f"{s['recorded_matched']:,} of {s['recorded_checked']:,} match the "
                     "recorded finishing stacks" if s["recorded_checked"]
                     else "no recorded finishing stacks to compare")
            self.report.write(
                f"{plural(s['hands'], 'hand')}: {s['replayed']:,} replayed "
                f"({s['validated']:,} validated by the engine, {s['outcome_unknown']:,} with "
                f"an unknown showdown), {s['errors']:,} with errors"
                + (f" ({s['incomplete']:,} stop before the hand is over)"
                   if s["incomplete"] else "") + f"; {match}\n")
        with signals_held():  # the JSON written in one go, the CSV renamed into place
            if a.json:
                sys.stdout.flush()
                shutil.copyfileobj(self.out, sys.stdout)
            sys.stdout.flush()
            self.files.close()
        return 1 if t.errors else 0

    @staticmethod
    def _print_totals(totals: list[dict[str, Any]], to: Any) -> None:
        from simulate.cli._util import table

        if not totals:
            return
        shown = totals[:50]

        def bb(x: Any) -> str:
            return "-" if x is None else f"{x:+,.2f}"

        rows = [[t["player"][:24], f"{t['hands']:,}", _num(t["net"]),
                 _num(t["allin_adjusted_net"]), bb(t["bb_per_100"]),
                 bb(t["allin_adjusted_bb_per_100"])] for t in shown]
        to.write("\ntotals per player" + (f" (50 of {len(totals)} by hands)"
                                          if len(totals) > 50 else "") + "\n")
        to.write(table(rows, ["player", "hands", "net", "all-in adj. net", "bb/100",
                              "adj. bb/100"]) + "\n")
