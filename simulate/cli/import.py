"""``pokerjit import``: hand histories (PHH, site exports, folders) into the hand database
(DuckDB, the ``db`` extra). The module is named for the command (``importlib`` loads it)."""

from __future__ import annotations

import argparse
import sys

NAME = "import"
HELP = "store hand histories (PHH, site exports, folders) in the hand database (DuckDB)"
EXAMPLES = """Reads what 'pokerjit hand' reads (PHH and every site export pokerjit knows, told from
the content; folders recursively), replays each hand (validation, results, all-in EV),
counts its statistics and stores it in one DuckDB file: --db FILE, else $POKERJIT_DB,
else ~/.local/share/pokerjit/hands.duckdb ($XDG_DATA_HOME/pokerjit/ where it is set).

A hand already stored (same site and hand id) is not stored again; a file read before is
read again only from where the last import stopped (a file the site is still writing),
or not at all when unchanged. Hands are stored 10,000 at a time, each batch in one
transaction: Ctrl-C or a killed import loses only the batch in progress, and the next
import goes on from there. One import writes at a time (FILE.lock): a second one says so
and stops with status 2, or waits with --wait. A hand that cannot be read or replayed is
stored in the 'errors' table and printed as one 'error: SOURCE: ...' line on stderr; the
import goes on. Progress (bytes read) is shown on stderr.

--json prints {"files", "hands_read", "hands_added", "duplicates", "errors", "elapsed_s",
"db"}.

exit status: 0 every hand read was stored or already there; 1 some hands went to
'errors'; 2 no such input, the database is busy or cannot be opened, or bad options.

examples:
  pokerjit import tests/data/phh/derived/highstakes_1000nl_sidepot_hands.phhs --db hands.duckdb
  pokerjit import ~/PokerStars/HandHistory --json
  pokerjit import tests/data/phh --db hands.duckdb --wait -q
  pokerjit import big_collection.phhs --workers 2
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="PATH", nargs="+",
                   help="a hand-history file or a folder (read recursively)")
    from simulate.cli._util import add_db

    add_db(p)
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="processes that read, replay and count the hands (default 1; this "
                        "process stores them)")
    p.add_argument("--scheduler", metavar="ADDR", default=None,
                   help="read, replay and count on a Dask cluster: local[:N] or "
                        "tcp://HOST:PORT (pip install 'pokerjit[distributed]')")
    p.add_argument("--wait", action="store_true",
                   help="wait for another import to finish instead of stopping")
    p.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress and no skipped-file warnings on stderr (errors are "
                        "still printed)")


def run(args: argparse.Namespace) -> int:
    from simulate.cli._util import UsageError, emit_json
    from simulate.progress import progress
    from simulate.run.stop import stop_on_signals
    from simulate.store.importer import DatabaseBusy, import_hands

    if not 1 <= args.workers <= 256:
        raise UsageError(f"--workers must be 1..256, got {args.workers}")
    total = [0]
    # SIGTERM and SIGHUP stop as Ctrl-C does: the batch in progress is rolled back
    with stop_on_signals(), progress(None, "import", "B", quiet=args.quiet) as bar:
        report = bar.callback()
        done = [0]

        def on_bytes(n: int) -> None:
            done[0] += n
            report(done[0], total[0])

        def on_total(n: int) -> None:
            total[0] = n
            report(0, n)

        try:
            res = import_hands(args.file, args.db, wait=args.wait, workers=args.workers,
                               scheduler=args.scheduler,
                               on_error=_error,
                               on_skip=None if args.quiet else _warn, on_bytes=on_bytes,
                               on_total=on_total)
        except (FileNotFoundError, DatabaseBusy) as exc:
            raise UsageError(str(exc)) from None
    if args.json:
        emit_json(res.to_dict())
    else:
        print(f"{res.hands_added:,} hands added to {res.db} ({res.hands_read:,} read, "
              f"{res.duplicates:,} already there, {res.errors:,} errors) in "
              f"{res.elapsed_s:.1f} s")
    return 1 if res.errors else 0


def _error(line: str) -> None:
    sys.stderr.write(f"error: {line}\n")


def _warn(line: str) -> None:
    sys.stderr.write(f"warning: {line}\n")
