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


class _StopAt:
    """A connection whose ``n``-th COPY is stopped as DuckDB stops a query on Ctrl-C."""

    def __init__(self, con, n: int) -> None:
        self.con, self.n = con, n

    def execute(self, sql: str, *a):  # type: ignore[no-untyped-def]
        if sql.startswith("COPY"):
            self.n -= 1
            if self.n == 0:
                raise RuntimeError("Query interrupted")
        return self.con.execute(sql, *a)


def _tree(where: Path) -> dict[Path, int | None]:
    return {p.relative_to(where): hash(p.read_bytes()) if p.is_file() else None
            for p in where.rglob("*")}


def test_a_stopped_export_leaves_the_previous_one_whole(db, tmp_path, capsys, monkeypatch):
    from simulate.store.export import export_parquet

    out = tmp_path / "pq"
    assert main(["export", "--parquet", str(out), "--db", str(db)]) == 0
    before = _tree(out)
    con = duckdb.connect(str(db), read_only=True)
    con.execute("CREATE TEMP TABLE hands AS SELECT * FROM hands LIMIT 3")  # another export
    with pytest.raises(RuntimeError, match="interrupted"):
        export_parquet(_StopAt(con, 3), out)  # stopped at the third table
    con.close()
    assert _tree(out) == before  # no table of the stopped export, no partial folder
    # the command line: Ctrl-C in a query is one line, as anywhere else
    import simulate.store.export as export_module

    monkeypatch.setattr(export_module, "export_parquet",
                        lambda con, where: export_parquet(_StopAt(con, 1), where))
    capsys.readouterr()
    assert main(["export", "--parquet", str(tmp_path / "o2"), "--db", str(db)]) == 130
    assert capsys.readouterr().err == "error: interrupted\n"
    assert list((tmp_path / "o2").iterdir()) == []


def test_parquet_path_that_is_a_file(db, tmp_path, capsys):
    f = tmp_path / "hands.phhs"
    f.write_text("mine")
    assert main(["export", "--parquet", str(f), "--db", str(db)]) == 2
    assert capsys.readouterr().err == f"error: --parquet {f} is a file, not a folder\n"
    assert f.read_text() == "mine"
