"""simulate.store.export and ``pokerjit export``: every table written as Parquet
(partitioned by site and month) and read back by DuckDB row for row; the README's query."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

duckdb = pytest.importorskip("duckdb")

from test_db_import import CARD_TWICE  # noqa: E402

from simulate.cli import main  # noqa: E402
from simulate.store.importer import import_hands  # noqa: E402
from simulate.store.schema import TABLES  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PHH = ROOT / "tests" / "data" / "phh"


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("export") / "h.duckdb"
    bad = path.parent / "bad.phh"
    bad.write_text(CARD_TWICE)
    import_hands([bad, PHH / "derived", PHH / "vendor" / "phh-curated" / "pluribus_ai",
                  PHH / "vendor" / "phh-curated" / "wsop"], path)
    return path


def _table(con, table: str, where: Path) -> str:
    if (where / table).is_dir():
        return (f"read_parquet('{where / table}/**/*.parquet', hive_partitioning = true, "
                "union_by_name = true)")
    return f"read_parquet('{where / table}.parquet')"


def test_export_reads_back_row_for_row(db, tmp_path, capsys):
    out = tmp_path / "pq"
    assert main(["export", "--parquet", str(out), "--db", str(db), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc["tables"]) == set(TABLES) and doc["tables"]["hands"] > 100
    assert doc["tables"]["errors"] == 1  # the hand that deals a card twice
    assert sorted(p.name for p in out.iterdir()) == [
        "actions", "errors.parquet", "files.parquet", "hand_players", "hands"]
    assert any(p.name.startswith("month=") for p in (out / "hands" / "site=phh").iterdir())
    con = duckdb.connect(str(db), read_only=True)
    for table, cols in TABLES.items():
        names = ", ".join(c[0] for c in cols)
        mine = con.execute(f"SELECT {names} FROM {table} ORDER BY ALL").fetchall()
        back = con.execute(f"SELECT {names} FROM {_table(con, table, out)} ORDER BY ALL"
                           ).fetchall()
        assert back == mine, table
        assert len(mine) == doc["tables"][table]
    con.close()
    # again: each table replaced, nothing left over
    assert main(["export", "--parquet", str(out), "--db", str(db)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "actions", "errors.parquet", "files.parquet", "hand_players", "hands"]


def test_readme_query(db):
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute(
        "SELECT player, count(*) AS hands, round(100.0 * sum(vpip) / sum(vpip_opp), 1) AS vpip, "
        "round(sum(net_bb), 1) AS won_bb FROM hand_players GROUP BY player "
        "ORDER BY hands DESC LIMIT 3").fetchall()
    con.close()
    assert rows[0][:2] == ("Pluribus", 110)


def test_no_database(tmp_path, capsys):
    assert main(["export", "--parquet", str(tmp_path / "o"), "--db",
                 str(tmp_path / "none.duckdb")]) == 2
    assert "no hand database" in capsys.readouterr().err
