"""``pokerjit export``: the hand database as a Parquet dataset."""

from __future__ import annotations

import argparse

NAME = "export"
HELP = "write the hand database's tables as a Parquet dataset (partitioned by site and month)"
EXAMPLES = """Writes DIR/hands, DIR/hand_players and DIR/actions as Parquet datasets partitioned by
site and month (site=pokerstars/month=2024-03/data_0.parquet; month 'unknown' for hands
without a time), and DIR/files.parquet and DIR/errors.parquet. DuckDB, Polars, pandas,
Dask and Spark read the folders as they are (hive partitioning gives back 'site' and
'month'). The tables written before are replaced once every new one is whole: a stopped
export leaves them as they were.

--json prints {"dir", "tables": {"hands": ROWS, ...}, "elapsed_s"}.

exit status: 0; 2 no database, DIR cannot be written, or bad options.

examples:
  pokerjit export --parquet hands_parquet --db hands.duckdb
  pokerjit export --parquet /data/poker --json
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    from simulate.cli._util import add_db

    p.add_argument("--parquet", metavar="DIR", required=True,
                   help="the folder to write (made if missing)")
    add_db(p)
    p.add_argument("--json", action="store_true", help="print one JSON document on stdout")


def run(args: argparse.Namespace) -> int:
    import os
    import time

    from simulate.cli._util import UsageError, emit_json
    from simulate.store.export import export_parquet
    from simulate.store.schema import connect, resolve_db

    if os.path.exists(args.parquet) and not os.path.isdir(args.parquet):
        raise UsageError(f"--parquet {args.parquet} is a file, not a folder")
    t0 = time.perf_counter()
    con = connect(resolve_db(args.db), read_only=True)
    try:
        counts = export_parquet(con, args.parquet)
    finally:
        con.close()
    doc = {"dir": args.parquet, "tables": counts,
           "elapsed_s": round(time.perf_counter() - t0, 3)}
    if args.json:
        emit_json(doc)
    else:
        print(f"{counts['hands']:,} hands ({', '.join(f'{t} {n:,}' for t, n in counts.items())}"
              f" rows) written to {args.parquet}/ in {doc['elapsed_s']:.1f} s")
    return 0
