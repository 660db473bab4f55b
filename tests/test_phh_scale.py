"""Hand histories at scale: streamed in bounded memory, the same answers on worker processes,
per-player totals, and the ``pokerjit hand`` exit statuses, CSV and PNG outputs."""

from __future__ import annotations

import csv
import gc
import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from simulate.notation.phh_synth import synthetic_hands, write_synthetic_phhs
from simulate.replay.hand_files import LOCAL_CHUNK, analyze
from simulate.replay.totals import Totals

DATA = Path(__file__).resolve().parent / "data" / "phh"


def peak_bytes(path: Path) -> tuple[int, Totals]:
    """Peak traced memory while analysing every hand of ``path``."""
    totals = Totals()
    tracemalloc.start()
    try:
        for d in analyze(path):
            totals.add(d)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak, totals


def test_memory_does_not_grow_with_the_number_of_hands(tmp_path: Path) -> None:
    small, big = tmp_path / "small.phhs", tmp_path / "big.phhs"
    # Both larger than the block replayed together (LOCAL_CHUNK), which bounds the memory.
    n_small, n_big = 2 * LOCAL_CHUNK, 10 * LOCAL_CHUNK
    write_synthetic_phhs(str(small), n_small, seed=1)
    write_synthetic_phhs(str(big), n_big, seed=2)
    for path in (small, big):   # warm up on both: imports, compiled kernels, per-game caches
        for _ in analyze(path):
            pass
    gc.collect()
    p_small, t_small = peak_bytes(small)
    p_big, t_big = peak_bytes(big)
    assert t_small.hands == n_small and t_big.hands == n_big and t_big.errors == 0
    assert p_big < p_small + 256 * 1024, (p_small, p_big)   # not 5x the small run


@pytest.mark.slow
def test_a_100000_hand_collection_in_bounded_memory(tmp_path: Path) -> None:
    """The CLI on 100,000 hands: its peak RSS stays within a few MB of a 1,000-hand run."""
    def rss_of_run(path: Path) -> tuple[int, dict]:
        code = ("import resource, sys; from simulate.cli import main; "
                "rc = main(['hand', sys.argv[1], '--json', '--totals-only', '-q']); "
                "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr); "
                "sys.exit(rc)")
        p = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                           text=True, timeout=3600)
        assert p.returncode == 0, p.stderr[-2000:]
        return int(p.stderr.strip().splitlines()[-1]), json.loads(p.stdout)

    small, big = tmp_path / "s.phhs", tmp_path / "b.phhs"
    write_synthetic_phhs(str(small), 1_000, seed=3)
    write_synthetic_phhs(str(big), 100_000, seed=4)
    assert big.stat().st_size > 50_000_000
    rss_small, _ = rss_of_run(small)
    rss_big, doc = rss_of_run(big)
    assert doc["summary"]["hands"] == 100_000 and doc["summary"]["errors"] == 0
    assert sum(t["hands"] for t in doc["totals"]) == 600_000
    assert rss_big - rss_small < 20 * 1024, (rss_small, rss_big)   # ru_maxrss is in KiB


def test_workers_give_the_same_answers_in_the_same_order(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Small files' hands are read by the main process, large ones (here: over 1000 bytes)
    sent as byte ranges; the same documents, in order, either way."""
    import simulate.replay.hand_files as A

    monkeypatch.setattr(A, "RANGE_MIN_BYTES", 1000)
    f = tmp_path / "c.phhs"
    write_synthetic_phhs(str(f), 60, seed=5)
    assert f.stat().st_size > 1000
    paths = [f, DATA / "vendor/phh-curated/wsop"]
    one = list(analyze(paths, workers=1))
    two = list(analyze(paths, workers=2, chunk=7))
    assert len(one) == 60 + 83 and one == two


def test_totals_add_up() -> None:
    texts = list(synthetic_hands(40, seed=6))
    t = Totals()
    nets = [0] * 6
    from simulate.notation.phh_read import parse_text
    from simulate.replay.hand_replay import replay

    for text in texts:
        [(_, h)] = parse_text(text)
        d = replay(h).to_dict()
        t.add(d)
        nets = [a + b for a, b in zip(nets, d["net"], strict=True)]
    rows = {r["player"]: r for r in t.to_list()}
    assert [rows[f"player{s + 1}"]["net"] for s in range(6)] == nets
    assert sum(nets) == 0
    for s in range(6):
        r = rows[f"player{s + 1}"]
        assert r["hands"] == 40
        assert r["bb_per_100"] == pytest.approx(100 * nets[s] / 2 / 40)
        assert r["allin_adjusted_net"] == r["net"]        # nobody is ever all in


def test_allin_adjusted_totals_use_the_expected_value() -> None:
    t = Totals()
    for src, h in [(s, h) for s, h in __import__("simulate.notation.phh_read", fromlist=["x"])
                   .iter_hands(DATA / "vendor/phh-curated/dwan-ivey-2009.phh")]:
        from simulate.replay.hand_replay import replay

        d = replay(h, src).to_dict()
        t.add(d)
    rows = {r["player"]: r for r in t.to_list()}
    dwan = rows["Tom Dwan"]
    assert dwan["net"] == 556_000                      # a lock on the turn: EV = result
    assert dwan["allin_adjusted_net"] == pytest.approx(556_000)


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from simulate.cli import main

    rc = main(["hand", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_cli_exit_statuses_csv_and_png(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.phhs"
    write_synthetic_phhs(str(good), 5, seed=7)
    bad = tmp_path / "mixed.phhs"
    text = good.read_text()
    bad.write_text(text.replace("'p3 cc'", "'p3 cbr 999'", 1))
    empty = tmp_path / "empty.phh"
    empty.write_text("")
    garbage = tmp_path / "garbage.phh"
    garbage.write_bytes(bytes(range(256)) * 8)

    rc, out, err = run_cli(capsys, str(good), "--csv", str(tmp_path / "h.csv"),
                           "--png", str(tmp_path / "h.png"))
    assert rc == 0, err
    assert "5 hands: 5 replayed (5 validated by the engine" in out
    rows = list(csv.DictReader((tmp_path / "h.csv").open()))
    assert len(rows) == 30 and rows[0]["player"] == "player1"
    assert sum(int(r["net"]) for r in rows) == 0
    assert (tmp_path / "h.png").read_bytes()[:4] == b"\x89PNG"

    rc, out, err = run_cli(capsys, str(bad), "--json")
    assert rc == 1
    doc = json.loads(out)
    errs = [h for h in doc["hands"] if h["error"]]
    assert len(errs) == 1 and doc["summary"]["errors"] == 1
    assert err.count("error: ") == 1 and "cbr 999" in err
    assert "cannot raise to 999" in errs[0]["error"]

    for f in (empty, garbage):
        rc, out, err = run_cli(capsys, str(f), "--json")
        assert rc == 2 and out == ""
        assert err.startswith("error: ") and err.count("\n") == 1
    rc, out, err = run_cli(capsys, str(tmp_path / "missing.phhs"))
    assert rc == 2 and "no such file" in err
    rc, out, err = run_cli(capsys, str(good), "--workers", "0")
    assert rc == 2 and "--workers" in err


@pytest.mark.slow
def test_dask_local_cluster_gives_the_same_answers(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    f = tmp_path / "c.phhs"
    write_synthetic_phhs(str(f), 40, seed=8)
    one = list(analyze(f))
    assert list(analyze(f, scheduler="local:2", chunk=9)) == one
    with pytest.raises(ValueError, match="--scheduler"):
        analyze(f, scheduler="bogus")


def test_played_hands_replay_to_the_players_totals(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """``pokerjit play --phh`` then ``pokerjit hand``: every hand validated, matching its
    recorded stacks, and the per-seat totals equal ``play``'s net per seat."""
    from simulate.cli import main

    f = tmp_path / "played.phhs"
    assert main(["play", "--players", "6", "--hands", "120", "--policy", "random",
                 "--seed", "3", "--stacks", "100", "--blinds", "1/2", "--phh", str(f),
                 "--phh-hands", "120", "-q", "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    rc, out, err = run_cli(capsys, str(f), "--json", "--totals-only", "-q")
    assert rc == 0, err
    doc = json.loads(out)
    s = doc["summary"]
    assert s["hands"] == s["validated"] == s["recorded_matched"] == 120
    totals = {t["player"]: t["net"] for t in doc["totals"]}
    assert [totals[f"seat {i}"] for i in range(6)] == [p["net"] for p in played["players"]]


def test_byte_ranges_hold_the_hands_a_whole_reading_gives(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers read large files as byte ranges cut at section headers
    (simulate.replay.hand_files.phh_ranges): together the ranges give exactly the hands, sources
    and line numbers of one reading of the file, whatever the headers, comments, BOM, long
    lines and block edges."""
    import random

    import simulate.replay.hand_files as A
    from simulate.notation import phh_sections

    monkeypatch.setattr(phh_sections, "READ_BLOCK", 1000)  # many block edges
    rng = random.Random(1)
    hands = list(synthetic_hands(50, seed=3))
    for trial in range(40):
        parts = []
        if rng.random() < 0.3:
            parts.append(b"\xef\xbb\xbf")
        if rng.random() < 0.3:
            parts.append(b"# preamble\n\n")
        if rng.random() < 0.1:
            parts.append(b"x = 1\n")
        for i in range(rng.randint(0, 30)):
            head = rng.choice([f"[{i}]\n", f"  [{i}]  # c\n", f"['{i}']\n", f"[{i}]\r\n",
                               "[a.b]\n", f"[{i}]"])
            body = rng.choice(hands).encode()
            r = rng.random()
            if r < 0.1:
                body = b"[x] " + b"y" * rng.choice([10, 70000, 140000]) + b"\n"
            elif r < 0.15:
                body = b"# " + b"[" * 150000 + b"\n"
            elif r < 0.18:
                body = b"z = '" + b"q" * (1 << 20) + b"'\n"
            parts.append(head.encode() + body + rng.choice([b"\n", b"", b"\r\n"]))
        f = tmp_path / f"t{trial}.phhs"
        f.write_bytes(b"".join(parts))
        want = list(A._file_items(f))
        got: list = []
        for r in A.phh_ranges(f, rng.choice([1, 2, 5, 500])):
            got += r if isinstance(r, list) else A._range_items(r)
        assert got == want, trial
