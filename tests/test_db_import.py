"""simulate.store.importer and ``pokerjit import``: hands stored once, files read on from
where the last import stopped, one writer at a time, an interrupted import resumed to the
same database, bad hands into ``errors``, and a hand's counts the same from PHH, from
site text (Open Hand History) and from the database."""

from __future__ import annotations

import json
import re
import threading
import time
from decimal import Decimal
from pathlib import Path

import pytest

duckdb = pytest.importorskip("duckdb")

from test_db_counts import phh  # noqa: E402

from simulate.cli import main  # noqa: E402
from simulate.notation import parse_text, write  # noqa: E402
from simulate.replay.hand_replay import replay  # noqa: E402
from simulate.store.counts import COUNT_FIELDS, hand_counts  # noqa: E402
from simulate.store.importer import DatabaseBusy, import_hands, writer_lock  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PHH = ROOT / "tests" / "data" / "phh"
TABLES = ("hands", "hand_players", "actions", "files", "errors")

#: Hands that differ (each a different stack), for collections of any length.
ACTIONS = [
    "p3 f, p4 f, p5 f, p6 f, p1 f",
    "p3 cbr 6, p4 f, p5 f, p6 f, p1 f, p2 cc, /, p2 cc, p3 cbr 8, p2 f",
    "p3 cbr 6, p4 f, p5 cc, p6 cbr 24, p1 f, p2 f, p3 f, p5 f",
    "p3 f, p4 f, p5 f, p6 cbr 6, p1 f, p2 cc, /, p2 cbr 4, p6 cc, /, p2 cc, p6 cc, /, "
    "p2 cc, p6 cc",
]


#: A PHH hand that deals the ace of spades twice: an import's error.
CARD_TWICE = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 AsKs', 'd dh p2 AsQd', 'p2 cc', 'p1 cc']
"""


def section(i: int) -> str:
    return f"[{i + 1}]\n" + phh(ACTIONS[i % len(ACTIONS)], stacks=200 + i) + "\n"


def collection(path: Path, first: int, count: int, mode: str = "w") -> None:
    with open(path, mode) as fh:
        fh.write("".join(section(i) for i in range(first, first + count)))


def rows(db: Path, table: str) -> list[tuple]:
    """A table's rows in a fixed order, times of import left out."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        cols = [c[0] for c in con.execute(f"DESCRIBE {table}").fetchall()
                if c[0] != "imported_at"]
        return con.execute(f"SELECT {', '.join(cols)} FROM {table} ORDER BY ALL").fetchall()
    finally:
        con.close()


def count(db: Path, table: str) -> int:
    return len(rows(db, table))


def test_import_twice_adds_nothing(tmp_path):
    db = tmp_path / "h.duckdb"
    first = import_hands([PHH / "derived", PHH / "vendor" / "phh-curated" / "pluribus_ai"], db)
    assert first.hands_added > 100 and first.duplicates == 0
    before = {t: rows(db, t) for t in ("hands", "hand_players", "actions")}
    again = import_hands([PHH / "derived", PHH / "vendor" / "phh-curated" / "pluribus_ai"], db)
    assert (again.hands_read, again.hands_added) == (0, 0)  # unchanged files are not read
    assert {t: rows(db, t) for t in before} == before
    # the same hands under another name: read, every one a duplicate
    copy = tmp_path / "copy.phhs"
    copy.write_bytes((PHH / "derived" / "highstakes_1000nl_sidepot_hands.phhs").read_bytes())
    third = import_hands([copy], db)
    assert third.hands_read > 0 and third.hands_added == 0
    assert third.duplicates == third.hands_read
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) - count(DISTINCT (site, hand_id)) FROM hands"
                       ).fetchall() == [(0,)]
    n_players = con.execute("SELECT sum(players) FROM hands").fetchall()[0][0]
    assert n_players == count(db, "hand_players")
    con.close()


def test_a_file_that_grows_is_read_from_where_the_last_import_stopped(tmp_path):
    db, f = tmp_path / "h.duckdb", tmp_path / "live.phhs"
    collection(f, 0, 3)
    assert import_hands([f], db).hands_added == 3
    collection(f, 3, 2, "a")
    res = import_hands([f], db)
    # the last hand read before is read again (it might have been cut short then)
    assert (res.hands_read, res.hands_added, res.duplicates) == (3, 2, 1)
    # a hand half written: an error now, stored once the site finishes writing it
    text = section(5)
    with open(f, "a") as fh:
        fh.write(text[: len(text) // 2])
    res = import_hands([f], db)
    assert res.errors == 1 and count(db, "errors") == 1
    with open(f, "a") as fh:
        fh.write(text[len(text) // 2:])
    res = import_hands([f], db)
    assert (res.hands_added, res.errors) == (1, 0)
    assert count(db, "errors") == 0 and count(db, "hands") == 6
    # a file written anew (its first bytes changed) is read whole
    collection(f, 10, 2)
    res = import_hands([f], db)
    assert (res.hands_read, res.hands_added) == (2, 2)


def test_interrupted_import_resumes_to_the_same_database(tmp_path):
    f = tmp_path / "many.phhs"
    collection(f, 0, 11)
    whole = tmp_path / "whole.duckdb"
    import_hands([f, PHH / "derived"], whole, batch=3)
    db = tmp_path / "cut.duckdb"
    seen = [0]

    def stop(n: int) -> None:
        seen[0] += 1
        if seen[0] == 6:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        import_hands([f, PHH / "derived"], db, batch=3, chunk=2, on_bytes=stop)
    kept = count(db, "hands")
    assert 0 < kept < 11  # the batches committed before Ctrl-C are kept
    res = import_hands([f, PHH / "derived"], db, batch=3, chunk=2)
    assert res.hands_added == count(whole, "hands") - kept
    for t in TABLES:
        assert rows(db, t) == rows(whole, t), t


def test_a_stop_while_a_batch_is_stored_waits_for_its_commit(tmp_path, monkeypatch):
    """SIGTERM or Ctrl-C while a batch is being stored is held until its transaction ends
    (DuckDB turned one that came during a query into its own error: a traceback, the
    stop lost): the batch is stored whole, then the import stops as asked."""
    import os
    import signal

    import simulate.store.importer as importer
    from simulate.run.stop import Stopped, stop_on_signals

    real, sent = importer._insert, []

    def insert(con, table, cols):  # type: ignore[no-untyped-def]
        if table == "actions" and not sent:
            sent.append(table)
            os.kill(os.getpid(), signal.SIGTERM)
        return real(con, table, cols)

    monkeypatch.setattr(importer, "_insert", insert)
    f, db = tmp_path / "h.phhs", tmp_path / "h.duckdb"
    collection(f, 0, 8)
    with stop_on_signals(), pytest.raises(Stopped) as stop:
        import_hands([f], db, batch=3, chunk=3)
    assert stop.value.signum == signal.SIGTERM
    assert (count(db, "hands"), count(db, "hand_players")) == (3, 18)
    assert import_hands([f], db).hands_added == 5


def test_another_program_s_database_is_refused_untouched(tmp_path, capsys):
    db = tmp_path / "mine.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE prices (day DATE, price DOUBLE)")
    con.close()
    f = PHH / "derived" / "highstakes_1000nl_sidepot_hands.phhs"
    assert main(["import", str(f), "--db", str(db), "-q"]) == 2
    assert capsys.readouterr().err == f"error: {db} is not a pokerjit hand database\n"
    con = duckdb.connect(str(db), read_only=True)
    assert [t for (t,) in con.execute("SHOW TABLES").fetchall()] == ["prices"]
    con.close()
    # nothing left beside it either (the writer's lock file is made only for a database
    # that is written), and an existing lock file stays
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.duckdb"]
    (tmp_path / "mine.duckdb.lock").write_text("")
    assert main(["import", str(f), "--db", str(db), "-q"]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.duckdb", "mine.duckdb.lock"]


def test_reading_while_an_import_writes_says_so(tmp_path, capsys):
    """stats and export on a database another process writes: one line saying so (it was
    DuckDB's lock message, with its link)."""
    import subprocess
    import sys

    db = tmp_path / "h.duckdb"
    f = PHH / "derived" / "highstakes_1000nl_sidepot_hands.phhs"
    assert main(["import", str(f), "--db", str(db), "-q"]) == 0
    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); "
         "print('held', flush=True); time.sleep(60)", str(db)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        capsys.readouterr()
        for cmd in (["stats"], ["export", "--parquet", str(tmp_path / "x")]):
            assert main([*cmd, "--db", str(db)]) == 2
            assert capsys.readouterr().err == (f"error: {db} is being written (an import "
                                               "holds it): read it once the import ends\n")
    finally:
        holder.kill()
        holder.wait()


def test_one_writer_at_a_time(tmp_path, capsys):
    db = tmp_path / "h.duckdb"
    f = PHH / "derived" / "highstakes_1000nl_sidepot_hands.phhs"
    with writer_lock(db):
        with pytest.raises(DatabaseBusy):
            import_hands([f], db)
        assert main(["import", str(f), "--db", str(db)]) == 2
        err = capsys.readouterr().err
        assert "another import" in err and "--wait" in err and len(err.splitlines()) == 1
    # --wait: the second import goes on once the first lets go
    done: list[int] = []
    with writer_lock(db):
        t = threading.Thread(target=lambda: done.append(
            main(["import", str(f), "--db", str(db), "--wait", "-q"])))
        t.start()
        time.sleep(0.5)
        assert not done
    t.join(60)
    assert done == [0] and count(db, "hands") == 1


def test_bad_hands_go_to_errors(tmp_path, capsys):
    f = tmp_path / "mixed.phhs"
    collection(f, 0, 2)
    with open(f, "a") as fh:
        fh.write("[9]\nvariant = 'NT'\nactions = ['p1 zz']\n\n")
        fh.write(section(3))
    db = tmp_path / "h.duckdb"
    assert main(["import", str(f), "--db", str(db), "--json", "-q"]) == 1
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert {"files", "hands_read", "hands_added", "duplicates", "errors", "elapsed_s",
            "db"} <= set(doc)
    assert (doc["files"], doc["hands_read"], doc["hands_added"], doc["errors"]) == (1, 4, 3, 1)
    assert [ln for ln in err.splitlines() if ln.startswith("error:")] == err.splitlines()
    assert len(err.splitlines()) == 1 and "#9" in err
    [(file, source, line, message)] = [r[:3] + r[4:5] for r in rows(db, "errors")]
    assert file == str(f) and source == f"{f}#9" and line == 8 * 2 + 2 and message
    # a file that does not exist: exit 2, one line, nothing written
    assert main(["import", str(tmp_path / "nope"), "--db", str(db)]) == 2
    assert "no such file" in capsys.readouterr().err
    # a database where none can be written: exit 2, one line
    (tmp_path / "a_file").write_text("")
    assert main(["import", str(f), "--db", str(tmp_path / "a_file" / "h.duckdb")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: cannot write the database's lock file") and err.count("\n") == 1


def test_a_hand_counts_the_same_from_phh_site_text_and_the_database(tmp_path):
    text = phh(ACTIONS[1])
    [(_, hand)] = parse_text(text)
    doc = replay(hand).to_dict()
    want = [{f: getattr(c, f) for f in COUNT_FIELDS} for c in hand_counts(hand, doc["winnings"])]
    hand.winnings = [Decimal(str(w)) for w in doc["winnings"]]
    ohh = re.sub(r'"game_number":"\d*"', '"game_number":"77"', write([hand], "ohh"))
    (tmp_path / "site.ohh").write_text(ohh)
    (tmp_path / "hand.phh").write_text(text)
    db = tmp_path / "h.duckdb"
    res = import_hands([tmp_path], db)
    assert res.hands_added == 2 and res.errors == 0
    con = duckdb.connect(str(db), read_only=True)
    cols = ", ".join(COUNT_FIELDS)
    got = {}
    for hid in [r[0] for r in con.execute("SELECT hand_id FROM hands").fetchall()]:
        got[hid] = [dict(zip(COUNT_FIELDS, r, strict=True)) for r in con.execute(
            f"SELECT {cols} FROM hand_players WHERE hand_id = ? ORDER BY seat", [hid]
        ).fetchall()]
    assert "77" in got
    for hid, players in got.items():
        assert [{k: int(v) for k, v in p.items()} for p in players] == want, hid
    net = con.execute("SELECT player, net, position FROM hand_players WHERE hand_id = '77' "
                      "ORDER BY seat").fetchall()
    assert net == [("p1", -1, "SB"), ("p2", -6, "BB"), ("p3", 7, "UTG"), ("p4", 0, "HJ"),
                   ("p5", 0, "CO"), ("p6", 0, "BTN")]
    con.close()


def test_a_site_file_that_grows_is_read_on_from_its_last_hand(tmp_path):
    def ohh(i: int) -> str:
        [(_, hand)] = parse_text(phh(ACTIONS[i % len(ACTIONS)], stacks=300 + i))
        hand.winnings = [Decimal(str(w)) for w in replay(hand).to_dict()["winnings"]]
        return re.sub(r'"game_number":"\d*"', f'"game_number":"g{i}"', write([hand], "ohh"))

    for bom, end in ((b"", "\n"), (b"\xef\xbb\xbf", "\r\n")):  # as Windows writes it
        f, db = tmp_path / f"site{len(bom)}.ohh", tmp_path / f"h{len(bom)}.duckdb"
        f.write_bytes(bom + "".join(ohh(i) for i in range(3)).replace("\n", end).encode())
        assert import_hands([f], db).hands_added == 3
        with open(f, "ab") as fh:
            fh.write(ohh(3).replace("\n", end).encode())
        res = import_hands([f], db)
        assert (res.hands_read, res.hands_added, res.duplicates) == (2, 1, 1)
        assert [r[1] for r in rows(db, "hands")] == ["g0", "g1", "g2", "g3"]
        assert rows(db, "files")[0][4:6] == (f.stat().st_size - len(ohh(3).replace(
            "\n", end).encode()), 4)  # read_to: the last hand's first byte, line 4


@pytest.mark.parametrize("how", [
    {"workers": 2},
    pytest.param({"scheduler": "local:1"}, marks=pytest.mark.slow),  # a Dask cluster
])
def test_workers_give_the_same_database(tmp_path, how, monkeypatch):
    """The same database from this process and from workers: these PHH files of over
    1,000 bytes (the collection and the derived one) go to the workers as byte ranges they
    cut themselves, the rest as hands read here."""
    import simulate.replay.hand_files as A

    if "scheduler" in how:
        pytest.importorskip("distributed")
    monkeypatch.setattr(A, "RANGE_MIN_BYTES", 1000)
    f = tmp_path / "many.phhs"
    collection(f, 0, 9)
    bad = tmp_path / "bad.phh"
    bad.write_text(CARD_TWICE)
    inputs = [f, bad, PHH / "derived", PHH / "vendor" / "phh-curated" / "wsop"]
    one, two = tmp_path / "one.duckdb", tmp_path / "two.duckdb"
    a = import_hands(inputs, one, chunk=2, batch=5)
    b = import_hands(inputs, two, chunk=2, batch=5, **how)
    assert (a.hands_read, a.hands_added, a.errors) == (b.hands_read, b.hands_added, b.errors)
    assert a.errors == 1  # the hand that deals a card twice
    for t in TABLES:
        assert rows(one, t) == rows(two, t), t


@pytest.mark.slow  # workers and growth each have a quick test of their own
def test_a_grown_file_read_on_by_workers_in_byte_ranges(tmp_path, monkeypatch):
    """A file that grew is read on from where the last import stopped, by workers that cut
    their byte ranges themselves: the same database as one import of the whole file."""
    import simulate.replay.hand_files as A

    monkeypatch.setattr(A, "RANGE_MIN_BYTES", 100)
    f, whole = tmp_path / "grows.phhs", tmp_path / "whole" / "grows.phhs"
    whole.parent.mkdir()
    collection(f, 0, 5)
    collection(whole, 0, 12)
    db, ref = tmp_path / "h.duckdb", tmp_path / "ref.duckdb"
    assert import_hands([f], db, chunk=2).hands_added == 5
    collection(f, 5, 7, mode="a")
    res = import_hands([f], db, chunk=2, workers=2)
    assert (res.hands_read, res.hands_added, res.duplicates) == (8, 7, 1)
    import_hands([whole], ref)
    for t in ("hands", "hand_players", "actions"):
        assert rows(db, t) == [tuple(v.replace("/whole/", "/") if isinstance(v, str) else v
                                     for v in r) for r in rows(ref, t)], t
    [st] = rows(db, "files")
    at = f.read_bytes().rindex(b"[12]")  # the last hand's header: where a next import starts
    assert st[4:6] == (at, f.read_bytes()[:at].count(b"\n") + 1)


@pytest.mark.slow
def test_a_killed_import_resumed_gives_the_same_database(tmp_path):
    import os
    import signal
    import subprocess
    import sys

    from simulate.notation.phh_synth import write_synthetic_phhs

    f = tmp_path / "big.phhs"
    write_synthetic_phhs(str(f), 10000, seed=5)
    whole = tmp_path / "whole.duckdb"
    import_hands([f], whole)
    db = tmp_path / "killed.duckdb"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-m", "simulate", "import", str(f), "--db", str(db),
                          "-q"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(3)  # about halfway (whatever the moment, the result must be the same)
    p.send_signal(signal.SIGKILL)
    p.wait()
    res = import_hands([f], db)  # goes on from the last batch stored
    print(f"\nkilled after {10000 - res.hands_added} hands stored")
    assert res.errors == 0
    for t in TABLES:
        assert rows(db, t) == rows(whole, t), t


def test_a_hand_that_breaks_the_importer_is_an_error_not_a_lost_chunk(tmp_path, monkeypatch):
    import simulate.store.rows as rows_module

    real = rows_module.Batch._players  # every hand's player rows, whichever its road

    def players(self, phh, doc, *a):  # type: ignore[no-untyped-def]
        if doc["starting_stacks"][0] == 201:
            raise ZeroDivisionError("a bug")
        return real(self, phh, doc, *a)

    monkeypatch.setattr(rows_module.Batch, "_players", players)
    f, db = tmp_path / "h.phhs", tmp_path / "h.duckdb"
    collection(f, 0, 4)
    res = import_hands([f], db)
    assert (res.hands_added, res.errors) == (3, 1)
    [err] = rows(db, "errors")
    assert err[1] == f"{f}#2" and "internal error: ZeroDivisionError: a bug" in err[4]
    assert count(db, "hand_players") == 18 and count(db, "hands") == 3


@pytest.mark.parametrize("head", [b"", b"\xef\xbb\xbf", b"# hands\n\n", b"\xef\xbb\xbf# a\r\n"])
def test_each_phh_hand_starts_at_its_header(tmp_path, head):
    """simulate.store.reading.file_hands: a PHH section's offset is its ``[N]`` line's first
    byte and line (where a later import reads on from), after a byte-order mark or a
    preamble, and from a start inside the file."""
    from simulate.store.reading import file_hands

    f = tmp_path / "c.phhs"
    f.write_bytes(head + "".join(section(i) for i in range(5)).encode())
    data = f.read_bytes()
    want = [(data.index(f"[{i + 1}]".encode()), data[:data.index(f"[{i + 1}]".encode())]
             .count(b"\n") + 1) for i in range(5)]
    got = [(h.offset, h.offset_line) for h in file_hands(f, parse=False)]
    assert got == want
    start, line = want[2]
    assert [(h.offset, h.offset_line) for h in file_hands(f, start, None, line)] == want[2:]


def test_a_hand_past_the_size_bound_leaves_the_next_ones_their_offsets(tmp_path):
    from simulate.store.reading import file_hands

    f = tmp_path / "big.phhs"
    big = "[2]\n" + ("# " + "x" * 99 + "\n") * 12_000  # 1.2 MB: one error, not held
    f.write_bytes((section(0) + big + section(2) + section(3)).encode())
    data = f.read_bytes()
    got = [(h.offset, isinstance(h.hand, Exception)) for h in file_hands(f, parse=False)]
    assert got == [(data.index(f"[{i}]".encode()), i == 2) for i in (1, 2, 3, 4)]
