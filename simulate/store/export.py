"""The hand database as a Parquet dataset (``pokerjit export --parquet DIR``).

:func:`export_parquet` writes ``DIR/hands``, ``DIR/hand_players`` and ``DIR/actions`` as
Hive-partitioned datasets (``site=pokerstars/month=2024-03/data_0.parquet``; ``month`` from
the hand's time, ``unknown`` without one), and ``DIR/files.parquet`` and
``DIR/errors.parquet``, with DuckDB's own writer (``COPY ... (FORMAT PARQUET, PARTITION_BY
...)``). DuckDB, Polars, pandas (pyarrow), Dask and Spark read the folders as they are,
``site`` and ``month`` coming back from the folder names. Each table is written beside its
old copy, and the tables are put in their places once every one is written: a stopped
export leaves the previous one whole and nothing of its own.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

__all__ = ["PARTITIONED", "export_parquet"]

#: The tables written as partitioned datasets (the others as one file each).
PARTITIONED = ("hands", "hand_players", "actions")

_MONTH = "coalesce(strftime(h.time, '%Y-%m'), 'unknown') AS month"


def _query(table: str) -> str:
    if table == "hands":
        return f"SELECT h.*, {_MONTH} FROM hands h"
    if table in PARTITIONED:
        return (f"SELECT t.*, {_MONTH} FROM {table} t JOIN hands h "
                "ON h.site = t.site AND h.hand_id = t.hand_id")
    return f"SELECT * FROM {table}"


def _literal(path: Path) -> str:
    return "'" + str(path).replace("'", "''") + "'"


def export_parquet(con: Any, out: str | Path) -> dict[str, int]:
    """Write every table under the folder ``out`` (made if missing); returns each table's
    row count."""
    from simulate.store.schema import TABLES

    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    counts = {}
    done: list[tuple[Path, Path]] = []  # (written, its place): put there once all are written
    try:
        for table in TABLES:
            counts[table] = con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]
            final = root / (table if table in PARTITIONED else f"{table}.parquet")
            tmp = root / f".{final.name}.partial"
            _remove(tmp)
            done.append((tmp, final))
            if table in PARTITIONED:
                tmp.mkdir()
                opts = "FORMAT PARQUET, PARTITION_BY (site, month), OVERWRITE true"
            else:
                opts = "FORMAT PARQUET"
            con.execute(f"COPY ({_query(table)}) TO {_literal(tmp)} ({opts})")
    except BaseException:
        for tmp, _ in done:
            _remove(tmp)
        raise
    for tmp, final in done:
        _remove(final)
        tmp.rename(final)
    return counts


def _remove(p: Path) -> None:
    if p.is_dir() and not p.is_symlink():
        shutil.rmtree(p)
    elif p.exists() or p.is_symlink():
        p.unlink()
