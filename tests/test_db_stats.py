"""simulate.store.stats and ``pokerjit stats``: the rates over the database are the sums of
each hand's counts (hands written by hand, counts worked out by hand for one player), the
contract's JSON keys with null where there was no opportunity, the filters, CSV and the
graph."""

from __future__ import annotations

import csv
import json
from fractions import Fraction

import pytest

duckdb = pytest.importorskip("duckdb")

from test_db_counts import phh  # noqa: E402
from test_db_import import ACTIONS  # noqa: E402

from simulate.cli import main  # noqa: E402
from simulate.notation import parse_text  # noqa: E402
from simulate.replay.hand_replay import replay  # noqa: E402
from simulate.store.counts import hand_counts  # noqa: E402
from simulate.store.importer import import_hands  # noqa: E402
from simulate.store.schema import connect  # noqa: E402
from simulate.store.stats import STATS_KEYS, StatsFilter, player_graph, player_stats  # noqa: E402


def dated(i: int) -> str:
    """Hand ``i`` of :data:`ACTIONS`, played on 2024-01-(i+1)."""
    return (phh(ACTIONS[i % len(ACTIONS)], stacks=200 + i)
            + f"year = 2024\nmonth = 1\nday = {i + 1}\n")


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    where = tmp_path_factory.mktemp("stats")
    f = where / "hands.phhs"
    f.write_text("".join(f"[{i + 1}]\n{dated(i)}\n" for i in range(8)))
    path = where / "h.duckdb"
    assert import_hands([f], path).hands_added == 8
    return path


def test_utg_over_the_four_hands_by_hand(db):
    # p3 (UTG): folds (the walk); opens and c-bets; opens and folds to the squeeze; folds
    con = connect(db, read_only=True)
    [row] = player_stats(con, StatsFilter(players=["p3"], until="2024-01-04"))
    con.close()
    assert list(row) == list(STATS_KEYS)
    assert row["hands"] == 4
    assert (row["vpip"], row["pfr"]) == (0.5, 0.5)
    assert row["three_bet"] is None  # p3 never faced a single raise
    assert (row["fold_to_three_bet"], row["cbet"], row["fold_to_cbet"]) == (1.0, 1.0, None)
    assert (row["af"], row["afq"]) == (None, 1.0)  # a bet, no call
    assert (row["wtsd"], row["wsd"], row["wwsf"]) == (0.0, None, 1.0)
    # won 1 + 6 in the c-bet hand; lost 6 to the squeeze; nothing reached a showdown
    assert (row["net"], row["showdown_net"], row["non_showdown_net"]) == (1, 0, 1)
    assert row["bb_per_100"] == pytest.approx(100 * (1 / 2) / 4)


def test_every_rate_is_the_sum_of_the_hands_counts(db):
    sums: dict[str, dict[str, int]] = {}
    for i in range(8):
        [(_, hand)] = parse_text(dated(i))
        doc = replay(hand).to_dict()
        for s, c in enumerate(hand_counts(hand, doc["winnings"])):
            d = sums.setdefault(f"p{s + 1}", {})
            for k, v in c.__dict__.items():
                if k != "position":
                    d[k] = d.get(k, 0) + v
    con = connect(db, read_only=True)
    rows = {r["player"]: r for r in player_stats(con)}
    con.close()
    assert set(rows) == set(sums)

    def rate(done: int, opp: int) -> float | None:
        return None if not opp else float(Fraction(done, opp))

    for p, s in sums.items():
        r = rows[p]
        assert r["hands"] == 8
        want = {"vpip": rate(s["vpip"], s["vpip_opp"]), "pfr": rate(s["pfr"], s["vpip_opp"]),
                "three_bet": rate(s["three_bet"], s["three_bet_opp"]),
                "fold_to_three_bet": rate(s["fold_to_three_bet"], s["fold_to_three_bet_opp"]),
                "cbet": rate(s["cbet"], s["cbet_opp"]),
                "fold_to_cbet": rate(s["fold_to_cbet"], s["fold_to_cbet_opp"]),
                "af": rate(s["aggressive"], s["calls"]),
                "afq": rate(s["aggressive"], s["aggressive"] + s["calls"] + s["folds"]),
                "wtsd": rate(s["wtsd"], s["saw_flop"]),
                "wsd": rate(s["won_showdown"], s["showdown"]),
                "wwsf": rate(s["won_saw_flop"], s["saw_flop"])}
        assert {k: r[k] for k in want} == want, p


def test_filters_and_min_hands(db):
    con = connect(db, read_only=True)
    try:
        assert [r["hands"] for r in player_stats(con, StatsFilter(since="2024-01-05"))] \
            == [4] * 6
        assert [r["hands"] for r in player_stats(
            con, StatsFilter(since="2024-01-02", until="2024-01-02"))] == [1] * 6
        assert player_stats(con, StatsFilter(min_hands=9)) == []
        assert player_stats(con, StatsFilter(site="pokerstars")) == []
        [bb] = player_stats(con, StatsFilter(players=["p2"], position="BB"))
        assert bb["hands"] == 8
        assert player_stats(con, StatsFilter(players=["p2"], position="BTN")) == []
        g = player_graph(con, "p3")
        assert len(g["net"]) == 8 and g["net"][-1] == 2
        assert (g["showdown"] + g["non_showdown"] == g["net"]).all()
        with pytest.raises(ValueError, match="--since"):
            player_stats(con, StatsFilter(since="yesterday"))
    finally:
        con.close()


def test_cli_json_csv_png(db, tmp_path, capsys):
    assert main(["stats", "--db", str(db), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [list(r)[:len(STATS_KEYS)] for r in doc["players"]] == [list(STATS_KEYS)] * 6
    out = tmp_path / "s.csv"
    png = tmp_path / "g.png"
    assert main(["stats", "--db", str(db), "--player", "p3", "--csv", str(out),
                 "--png", str(png)]) == 0
    [row] = list(csv.DictReader(out.open()))
    assert row["player"] == "p3" and row["three_bet"] == "" and float(row["vpip"]) == 0.5
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert main(["stats", "--db", str(db)]) == 0
    text = capsys.readouterr().out
    assert "VPIP" in text and "p3" in text
    assert main(["stats", "--db", str(tmp_path / "none.duckdb")]) == 2
    assert "no hand database" in capsys.readouterr().err
    assert main(["stats", "--db", str(db), "--player", "nobody"]) == 2
    assert "no hands of nobody" in capsys.readouterr().err
    for cmd in (["stats"], ["export", "--parquet", str(tmp_path / "x")],
                ["import", str(tmp_path)]):  # --db "" meant some file, not the default one
        assert main([*cmd, "--db", " "]) == 2
        assert "file name is empty" in capsys.readouterr().err


def test_every_named_player_must_have_hands(db, tmp_path, capsys):
    # an unknown name among known ones was left out without a word, and --png drew an
    # empty graph of it
    png = tmp_path / "g.png"
    assert main(["stats", "--db", str(db), "--player", "nobody", "p3", "--png", str(png)]) == 2
    assert capsys.readouterr().err == f"error: no hands of nobody in {db} (with these filters)\n"
    assert not png.exists()
    # a player left out by --min-hands alone is not an error
    assert main(["stats", "--db", str(db), "--player", "p3", "p4", "--min-hands", "9",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == []


def test_stakes_position_and_time_zones_read_as_the_hands_store_them(db):
    con = connect(db, read_only=True)
    try:
        for stakes in ("1/2", "1.00/2.00", " 1/2.0 "):
            assert [r["hands"] for r in player_stats(con, StatsFilter(stakes=stakes))] \
                == [8] * 6, stakes
        assert [r["hands"] for r in player_stats(con, StatsFilter(position="btn"))] == [8]
        for bad, option in (("1-2", "--stakes"), ("button", "--position"),
                            ("UTG+x", "--position")):
            with pytest.raises(ValueError, match=option):
                player_stats(con, StatsFilter(**{option[2:]: bad}))
        # a time with a zone is the same moment in UTC (the hands' times are UTC)
        assert [r["hands"] for r in player_stats(
            con, StatsFilter(since="2024-01-02T02:00+03:00", until="2024-01-02"))] == [1] * 6
        assert player_stats(con, StatsFilter(until="2024-01-01T01:00+02:00")) == []
    finally:
        con.close()
