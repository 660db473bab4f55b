"""Range equity against an independent brute-force enumeration, Monte Carlo against exact on
card-removal spots, OMPEval, the breakdowns, the shipped 169-hand order and the CLI."""

from __future__ import annotations

import csv
import hashlib
import json
import math
from pathlib import Path

import numpy as np
import pytest
from helpers import peer_or_skip
from reference import range_equity_walk

from evaluator.cards import CardError
from simulate.cli import main
from simulate.range_equity import analyze_ranges, hand_categories, range_equity

# ----------------------------------------------------------------------------- brute force
SPOTS = [
    # heavy card removal: AA vs AK vs AhKh, river
    (["AA", "AK", "AhKh"], "Kd8s5c2h3d", ""),
    (["AA:0.5,KK", "AK,K8s", "AhKh"], "Kd8s5c2h3d", "Qc"),
    # heads-up turn, weights and dead cards (pairwise and sorted paths)
    (["QQ,AKs:0.5,JTs", "AK,JJ:0.3,AhQh"], "Ts9s2c4d", "3h"),
    (["AK,KK,QQ,JJ,TT,98s", "AQ,AJ,KQ,QJ:0.25,99,88,77"], "Kc7d2h5s", "As"),
    # four players on the river with exact hands mixed in
    (["AhKh", "QQ,JJ", "AKo:0.5,AQs", "Tc9c"], "Ks8h2c5h3d", ""),
    # three players on the turn
    (["AK,AhKh", "AA:0.5,AQs", "KK"], "Ac7c2d9s", "Kd"),
]


@pytest.mark.parametrize("specs,board,dead", SPOTS)
def test_exact_equals_brute_force(specs, board, dead):
    got = range_equity(specs, board, dead, exact=True)
    want = range_equity_walk(specs, board, dead)
    assert got.exact
    assert [p.equity for p in got.players] == pytest.approx(want, abs=1e-12)
    assert sum(p.equity for p in got.players) == pytest.approx(1.0, abs=1e-12)
    for p in got.players:
        assert p.win + p.tie <= 1 + 1e-12
        assert sum(p.categories.values()) == pytest.approx(1.0)


MC_SPOTS = [
    (["AA", "AK", "AhKh"], "Ks7d2c", ""),
    (["AA:0.5,KK,AKs", "AK,KQs", "random"], "Qd7d2c", "Ac"),
    (["AKs,AA:0.3", "random"], "Ah9h2c", "Kh"),
    (["KK+,AK", "AhAd,AK:0.5,KQ"], "Jc7d2h", "Ks"),
]


@pytest.mark.parametrize("specs,board,dead", MC_SPOTS)
def test_monte_carlo_within_4_std_errors(specs, board, dead):
    ex = range_equity(specs, board, dead, exact=True)
    mc = range_equity(specs, board, dead, exact=False, samples=300_000, seed=7)
    assert not mc.exact and mc.samples >= 300_000
    for e, m in zip(ex.players, mc.players, strict=True):
        assert m.std_error > 0
        assert abs(e.equity - m.equity) <= 4 * m.std_error


def test_naive_sequential_sampling_would_be_biased():
    """The spot is chosen so per-player rejection would give a visibly different answer:
    exact and Monte Carlo agree; the brute force confirms the exact value."""
    specs = ["AhKh,AsAd,AA:0.2", "AK", "AhQh,KK"]
    board = "2c7d9s4h"
    ex = range_equity(specs, board, exact=True)
    want = range_equity_walk(specs, board)
    assert [p.equity for p in ex.players] == pytest.approx(want, abs=1e-12)
    mc = range_equity(specs, board, samples=300_000, seed=11)
    for e, m in zip(ex.players, mc.players, strict=True):
        assert abs(e.equity - m.equity) <= 4 * m.std_error


def test_against_ompeval():
    peers = peer_or_skip("ompeval")
    for specs, board in [(["QQ+,AKs", "random"], "Td9d2c"), (["AA,KK", "AK", "QQ"], "Ks7d2c4h"),
                         (["TT+,AQs+", "random", "55,44,33,22"], "Ah8d3c2s")]:
        # (OMPEval reads pair spans like 22-55 differently, so the test spells them out)
        ours = range_equity(specs, board, exact=True)
        theirs = peers.ompeval_equity(specs, board, exact=True, threads=1)
        assert [p.equity for p in ours.players] == pytest.approx(theirs.equities, abs=1e-9)
        assert ours.samples == theirs.samples


def test_exact_hands_through_range_engine():
    r = range_equity(["AhKh", "QsQd"], "Td9d2c", exact=True)
    assert [p.equity for p in r.players] == pytest.approx(
        range_equity_walk(["AhKh", "QsQd"], "Td9d2c"), abs=1e-12)


def test_preflop_symmetry_reduction():
    """Preflop X vs random walks only canonical boards; check against OMPEval's figure. An
    exact hand is walked as its suit orbit, so AhKh gives AKs's equity over a quarter of the
    deals."""
    r = range_equity(["AKs", "random"], exact=True)
    assert r.samples == 8_390_289_600
    assert r.players[0].equity == pytest.approx(0.6704463230923519, abs=1e-12)
    r2 = range_equity(["random", "AhKh"], exact=True)
    assert r2.samples == 8_390_289_600 // 4
    assert r2.players[1].equity == pytest.approx(0.6704463230923519, abs=1e-12)
    assert r2.players[0].tie == pytest.approx(r.players[1].tie, abs=1e-12)
    assert r2.players[0].categories == pytest.approx(r.players[1].categories, abs=1e-12)


# ----------------------------------------------------------------------------- vs random
VS_RANDOM_SPOTS = [
    (["AKs,QQ:0.3,72o", "random"], "Td9d2c", "As"),   # flop, weights, dead card
    (["random:0.5", "AhKh"], "Ks8h2h", ""),           # exact hand second, flush board
    (["JJ+,AQs", "random"], "Kh8h2h5h", "3c"),        # four of a suit on the board
    (["AhQd,98s,Th9h", "random"], "Kh8h2h5h3h", ""),  # five of a suit
    (["AhKh", "random"], "Td9d2c7s", "Kd"),           # exact hand, turn, dead card
]


@pytest.mark.parametrize("specs,board,dead", VS_RANDOM_SPOTS)
def test_vs_random_fast_path_equals_generic_walk(specs, board, dead):
    from simulate.range_equity import _run_exact_generic, _vs_random_plan
    from simulate.request import parse_spot

    spot = parse_spot(specs, board, dead)
    assert _vs_random_plan(spot) is not None
    fast = analyze_ranges(specs, board, dead, exact=True)
    slow = _run_exact_generic(spot, 1, 0.0)
    assert fast.result.samples == slow.result.samples
    for a, b in zip(fast.result.players, slow.result.players, strict=True):
        assert (a.equity, a.win, a.tie) == pytest.approx((b.equity, b.win, b.tie), abs=1e-12)
        assert a.categories == pytest.approx(b.categories, abs=1e-12)
    for p in range(2):  # per combo, the random player's filled in by the generic walk
        assert fast.combo_share[p] == pytest.approx(slow.combo_share[p], abs=1e-12)
        assert fast.combo_equity[p] == pytest.approx(slow.combo_equity[p], abs=1e-12,
                                                     nan_ok=True)


def test_vs_random_small_first_run_walks_on_one_thread(monkeypatch):
    """In a one-answer program, a small walk against random whose parallel kernel is neither
    compiled nor cached runs the serial one (no parallel loop to compile): the same blocks,
    the same bits."""
    import evaluator._first_run as jit
    from simulate._kernels import ranges as K
    from simulate.range_equity import SERIAL_BELOW_S, estimate_exact_seconds
    from simulate.request import parse_spot

    specs, board = ["QQ+,AKs", "random"], "Td9d2c"
    assert estimate_exact_seconds(parse_spot(specs, board, "")) < SERIAL_BELOW_S
    want = analyze_ranges(specs, board, exact=True, threads=2)
    monkeypatch.setattr(jit, "ready", lambda kernel: kernel is not K.hu_random_walk
                        and bool(kernel.overloads))
    monkeypatch.setattr(jit, "SERIAL_FIRST_RUNS", True)  # a one-answer program
    got = analyze_ranges(specs, board, exact=True, threads=2)
    assert K.hu_random_serial.overloads
    assert got.result.to_dict()["players"] == want.result.to_dict()["players"]
    for p in range(2):
        assert np.array_equal(got.combo_equity[p], want.combo_equity[p], equal_nan=True)
        assert np.array_equal(got.combo_share[p], want.combo_share[p])


@pytest.mark.parametrize("specs,board,dead", [
    (["AhKh", "random"], "Qh8h2h5c3d", ""),
    (["AKs,QQ:0.5,Th9h", "random:0.5"], "Kh8h2h5h3c", "4d"),
])
def test_vs_random_equals_brute_force(specs, board, dead):
    got = range_equity(specs, board, dead, exact=True)
    assert [p.equity for p in got.players] == pytest.approx(range_equity_walk(specs, board, dead),
                                                            abs=1e-12)


def test_errors():
    with pytest.raises(CardError, match="player 2's range 'AA' has no combos left"):
        range_equity(["KK", "AA"], "AcAdAh", "As")
    with pytest.raises(CardError, match="is not a hand or range"):
        range_equity(["AKx", "random"])
    with pytest.raises(CardError, match="duplicate card Ah"):
        range_equity(["AhKh", "random"], "Ah7c2d")
    with pytest.raises(CardError, match="no deal is possible"):
        range_equity(["AhAs,KhKs", "AhKh,AsKs", "random"], "Td9d2c", exact=True)
    with pytest.raises(CardError, match="no deal is possible"):
        range_equity(["AhAs,KhKs", "AhKh,AsKs", "random"], "", samples=1000)
    with pytest.raises(CardError, match="need 2 to 10 players"):
        range_equity(["AA"])
    with pytest.raises(CardError, match="a board has 0, 3, 4 or 5 cards"):
        range_equity(["AA", "KK"], "Ah")


def test_breakdowns():
    an = analyze_ranges(["QQ+,AKs", "random"], "Td9d2c", exact=True)
    rows = an.combos(0)
    assert len(rows) == 22
    w = np.array([r["share"] for r in rows])
    e = np.array([r["equity"] for r in rows])
    assert w.sum() == pytest.approx(1.0)
    assert (w * e).sum() == pytest.approx(an.result.players[0].equity)
    grid = an.grid(0)
    assert grid[0][0]["hand"] == "AA" and grid[0][0]["combos"] == 6
    assert grid[0][1]["hand"] == "AKs" and grid[0][1]["combos"] == 4
    assert grid[5][5] is None
    # per-combo equity of a single combo equals that combo alone against the others
    one = rows[-1]["combo"]
    r1 = range_equity([one, "random"], "Td9d2c", exact=True)
    assert r1.players[0].equity == pytest.approx(rows[-1]["equity"], abs=1e-12)
    # symmetric spot: every combo of a class has the same equity
    an = analyze_ranges(["AKs", "random"], "", exact=True)
    eqs = [r["equity"] for r in an.combos(0)]
    assert max(eqs) - min(eqs) < 1e-12


def test_hand_categories():
    c = hand_categories("AKs,QQ,76s", "Kh7h2c")
    assert c["combos"] == 4 + 6 + 4 - 1 - 1  # Kh and 7h gone
    made = c["made"]
    assert made["One Pair"]["combos"] == 3 + 3 + 6  # AKs (3 live), 76s (3 live), QQ under
    draws = c["draws"]
    assert draws["flush draw"]["combos"] == 0  # AhKh/7h6h gone; no suited-heart left
    c = hand_categories("AhQh,98s,JTo,54", "Kh7h6c")
    d = c["draws"]
    assert d["flush draw"]["combos"] == 3  # AhQh, 9h8h, 5h4h
    assert d["open-ended straight draw"]["combos"] == 4 + 16  # 98s (4), 54 (16)
    assert d["gutshot"]["combos"] == 0
    assert d["combo draw"]["combos"] == 2  # 9h8h, 5h4h
    c = hand_categories("9h8h", "Kh7h6c")
    assert c["draws"]["combo draw"]["combos"] == 1
    assert hand_categories("AA", "Kh7h6c2d3d")["draws"] == {}


# ----------------------------------------------------------------------------- 169 order
DATA = Path(__file__).resolve().parents[1] / "data" / "preflop_169.csv"


@pytest.mark.slow
def test_shipped_order_is_consistent_and_reproduces_a_few_rows():
    rows = list(csv.DictReader(DATA.open()))
    assert len(rows) == 169
    eq = [float(r["equity"]) for r in rows]
    assert [int(r["rank"]) for r in rows] == list(range(1, 170))
    assert eq == sorted(eq, reverse=True)
    by = {r["hand"]: float(r["equity"]) for r in rows}
    assert by["AA"] == pytest.approx(0.8520, abs=1e-4) and rows[-1]["hand"] == "32o"
    r = range_equity(["T9s", "random"], exact=True)
    assert r.players[0].equity == pytest.approx(by["T9s"], abs=1e-9)
    peers = pytest.importorskip("peers")
    if peers.available("ompeval"):
        got, _ = peers.ompeval_equity_vs_random([("AhAs", ""), ("7h2c", ""), ("Qd5d", "")])
        assert got == pytest.approx([by["AA"], by["72o"], by["Q5s"]], abs=1e-9)


@pytest.mark.soak
def test_shipped_order_regenerates_exactly(tmp_path):
    """The whole 169-hand order, recomputed exactly by its script (about 15-30 s; in the
    soak set: the slow set recomputes a few of its rows)."""
    from simulate.preflop_order import main as regen

    out = tmp_path / "p.csv"
    assert regen(["-o", str(out)]) == 0
    assert hashlib.sha256(out.read_bytes()).hexdigest() == \
        hashlib.sha256(DATA.read_bytes()).hexdigest()


# ----------------------------------------------------------------------------- CLI
def test_cli_range_json_csv(tmp_path, capsys):
    out = tmp_path / "c.csv"
    assert main(["range", "QQ+,AKs", "--vs", "random", "--board", "Td9d2c7h", "--json",
                 "--csv", str(out)]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["exact"] is True and len(d["players"]) == 2
    assert d["ranges"][0]["grid"][0][0]["hand"] == "AA"
    assert len(d["ranges"][0]["combos"]) == 22
    assert d["ranges"][0]["hand_categories"]["made"]
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 22 + 1128  # QQ+,AKs (all live) and random less the board


def test_cli_range_text_and_errors(capsys):
    assert main(["range", "AA", "--vs", "KK", "QQ", "--board", "2c3d4s5h"]) == 0
    out = capsys.readouterr().out
    assert "equity" in out and "AA" in out
    assert main(["range", "AKx", "--vs", "random"]) == 2
    assert capsys.readouterr().err.strip() == "error: 'AKx' is not a hand or range (player 1)"
    assert main(["range", "AA", "--vs", "KK", "--board", "AcAdAh", "--dead", "As"]) == 2
    assert "player 1's range 'AA' has no combos left" in capsys.readouterr().err


def test_cli_range_png(tmp_path, capsys):
    png = tmp_path / "g.png"
    rc = main(["range", "AA,AKs", "--vs", "random", "--board", "Td9d2c7h2s", "--png",
               str(png)])
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert rc == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("error: --png needs matplotlib") and "\n" not in err
        return
    assert rc == 0 and png.stat().st_size > 1000


@pytest.mark.slow
def test_cli_chart_monte_carlo(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("simulate.progress.PLAIN_EVERY_S", 0.0)  # a progress line per hand
    out = tmp_path / "chart.json"
    assert main(["chart", "--opponents", "2", "--samples", "2000", "--seed", "1", "--json",
                 "-o", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert len(rows) == 169 and rows[0]["hand"] == "AA" and rows[0]["opponents"] == 2
    assert all(not r["exact"] and r["std_error"] > 0 for r in rows)
    aa = rows[0]["equity"]
    assert abs(aa - 0.7349) < 4 * rows[0]["std_error"] + 1e-3
    assert "chart, 2 opponents: 169/169 hands (100%)" in capsys.readouterr().err
    assert main(["chart", "--opponents", "10"]) == 2


# ----------------------------------------------------------------------------- samples
# equities of weighted exact walks, as computed before ``samples`` stopped being weighted
WEIGHTED_SPOTS = [
    (["QQ+:0.001", "random"], ["QQ+", "random"], 19_263_420,
     [0.820748184901747, 0.17925181509825408]),
    (["QQ+,AKs:0.5", "KK,AQs+"], ["QQ+,AKs", "KK,AQs+"], None,
     [0.6372869318181819, 0.3627130681818182]),
    (["QQ+:2", "AKs", "JJ:0.25"], ["QQ+", "AKs", "JJ"], None,
     [0.6537929125138427, 0.23660714285714285, 0.1095999446290144]),
]


@pytest.mark.parametrize("weighted,plain,count,want", WEIGHTED_SPOTS)
def test_weights_do_not_change_samples(weighted, plain, count, want):
    """``samples`` of an exact walk counts every runout of every card-disjoint combination
    of the players' combos, unweighted (issue 23: ``QQ+:0.001`` reported 19,263 deals,
    ``QQ+`` 19,263,420); the weighted equities are what they were."""
    w = range_equity(weighted, "Td9d2c", exact=True)
    p = range_equity(plain, "Td9d2c", exact=True)
    assert w.exact and p.exact
    assert w.samples == p.samples
    if count is not None:
        assert p.samples == count
    assert [x.equity for x in w.players] == want
    if len(plain) == 2:  # the count is pairs x runouts: check it by brute force
        from simulate.request import parse_spot

        spot = parse_spot(plain, "Td9d2c")
        r0, r1 = spot.ranges
        pairs = sum(1 for a in r0.combos.tolist() for b in r1.combos.tolist()
                    if not set(a) & set(b))
        assert p.samples == pairs * math.comb(52 - 3 - 4, 2)
