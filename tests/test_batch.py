"""``pokerjit batch``: every kind of line, bad lines, resume after SIGKILL, the lock, changed
requests, regular files only, workers and Dask giving the same output, CSV."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import default_ctrl_c, quick_first
from helpers import strip_timings as _strip

from simulate.batch import run, run_batch
from simulate.cli import main

ROOT = Path(__file__).resolve().parents[1]

GOOD = [  # (request, the single command's arguments)
    ({"id": "e1", "hands": ["AhKh", "QsQd"], "board": "2c7d9h", "exact": True},
     ["equity", "AhKh", "QsQd", "--board", "2c7d9h", "--exact"]),
    ({"id": 2, "hands": "AhAs KdKc", "samples": 20000, "seed": 7},
     ["equity", "AhAs", "KdKc", "--samples", "20000", "--seed", "7"]),
    ({"id": "e3", "hands": ["AhKh", "QsQd", "JcJd"], "board": "2c7d9hTs", "dead": "3c"},
     ["equity", "AhKh", "QsQd", "JcJd", "--board", "2c7d9hTs", "--dead", "3c"]),
    ({"id": "e4", "hands": ["AK", "QQ+"], "board": "2c7d9hTs5s"},
     ["equity", "AK", "QQ+", "--board", "2c7d9hTs5s"]),
    ({"id": "e5", "hands": ["AhKh", "QsQd"], "board": "2c7d9h", "std_error": 0.01, "seed": 3},
     ["equity", "AhKh", "QsQd", "--board", "2c7d9h", "--std-error", "0.01", "--seed", "3"]),
    ({"id": "o1", "hands": ["AhAsKhKs", "QdJdTc9c"], "game": "omaha", "board": "2c7d9h"},
     ["equity", "AhAsKhKs", "QdJdTc9c", "--game", "omaha", "--board", "2c7d9h"]),
    ({"id": "r1", "kind": "range", "hands": ["QQ+,AKs", "random"], "board": "Td9d2c7h"},
     ["range", "QQ+,AKs", "--vs", "random", "--board", "Td9d2c7h"]),
    ({"id": "a1", "kind": "allin", "players": ["AhAs:100", "KdKc:60", "QhQs:30"],
      "board": "2c7d9h", "button": 1},
     ["allin", "AhAs:100", "KdKc:60", "QhQs:30", "--board", "2c7d9h", "--button", "1"]),
    ({"id": "a2", "kind": "allin", "players": ["AhAs:100", "KdKc:60", "fold:10"],
      "samples": 5000, "seed": 1},
     ["allin", "AhAs:100", "KdKc:60", "fold:10", "--samples", "5000", "--seed", "1"]),
]

DEEP = '{"id": "n1", "hands": ' + "[" * 100_000 + "]" * 100_000 + "}"
BAD: list[tuple[bytes, str]] = [  # (line, a piece of its error)
    (b"this is not json", "bad JSON"),
    (b'{"hands": ["AhKh", "QsQd"]}', "missing field 'id'"),
    (b'{"id": "b1", "hands": ["AhKh", "AhQd"]}', "duplicate card Ah in hand 1 and hand 2"),
    (b'{"id": "b2"}', "missing field 'hands'"),
    (b'{"id": "b3", "hands": ["AhKh", "QsQd"], "sample": 5}', "unknown field 'sample'"),
    (b'{"id": "b4", "kind": "range", "hands": ["AKx", "QQ"]}', "AKx"),
    (b'{"id": "b5", "kind": "allin", "hands": ["AhKh", "QsQd"]}', "unknown field 'hands'"),
    (b'{"id": "b6", "kind": "poker", "hands": ["AhKh", "QsQd"]}', "unknown kind"),
    (b'{"id": "b7", "hands": ["AhAsKhKs", "QdJdTc9c"], "game": "omaha", "board": "2c"}',
     "board"),
    (b'{"id": "b8", "hands": ["AhKh", "QsQd"], "samples": 10, "seed": 18446744073709551616}',
     "seed"),
    (b'{"id": "b9", "hands": ["AhKh", "QsQd"], "std_error": 1e999}', "too large"),
    (b'{"id": "b10", "hands": ["AhKh", "QsQd"], "std_error": NaN}', "NaN"),
    (b'{"id": "b11", "hands": ["AhKh", "QsQd"], "samples": 1' + b"0" * 5000 + b"}", "bad JSON"),
    (DEEP.encode(), "nested too deeply"),
    (b'{"id": "b12", "hands": ["AhKh", "Q\xffQd"]}', "not UTF-8"),
    (b'\xef\xbb\xbf{"id": "b13", "hands": ["AhKh", "QsQd"]}', "byte-order mark"),
    (b'{"id": "e1", "hands": ["AhKh", "QsQd"]}', "duplicate id 'e1' (first on line 1)"),
    (b"[1, 2]", "must be a JSON object"),
    (b'{"id": "b14", "kind": "allin", "players": ["AhAs:100", "KdKc:-5"]}', "-5"),
    (b'{"id": "b15", "hands": ["AhKh", "QsQd"], "board": "2c7d9h", "exact": true, '
     b'"samples": 5}', "cannot be combined"),
]


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _single(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_every_kind_and_every_bad_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    lines = [b"\xef\xbb\xbf" + json.dumps(GOOD[0][0]).encode(), b"", b"# a comment"]
    lines += [json.dumps(r).encode() for r, _ in GOOD[1:]] + [b for b, _ in BAD]
    src.write_bytes(b"\n".join(lines) + b"\n")
    assert main(["batch", str(src), "-o", str(out), "--json", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    recs = _read(out)
    n = len(GOOD) + len(BAD)
    assert (summary["total"], summary["done"], summary["skipped"]) == (n, n, 0)
    assert summary["errors"] == len(BAD) == sum("error" in r for r in recs)
    assert [r["line"] for r in recs] == [1] + list(range(4, 3 + n))
    for (req, argv), rec in zip(GOOD, recs, strict=False):
        assert rec["id"] == req["id"] and "error" not in rec, rec
        assert _strip(rec["result"]) == _strip(_single(capsys, argv)), req["id"]
    for (raw, piece), rec in zip(BAD, recs[len(GOOD):], strict=True):
        assert "result" not in rec and piece in rec["error"], (raw[:60], rec["error"])
        assert "\n" not in rec["error"] and len(rec["error"]) < 400
    assert recs[len(GOOD)]["id"] is None  # a line that could not be read has no id


def test_resume_cut_line_and_changed_requests(tmp_path: Path) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    reqs = [{"id": f"r{i}", "hands": ["AhKh", "QsQd"], "board": b, "samples": 2000, "seed": i}
            for i, b in enumerate(["2c7d9h", "2c7d9s", "2c7d8h", "3c7d9h", "2c6d9h"])]
    src.write_text("".join(json.dumps(r) + "\n" for r in reqs) + "not json\n")
    run_batch(src, out, quiet=True, chunk_lines=2)
    full = _read(out)
    text = out.read_text()
    cut = text.index("\n", len(text) // 2) - 40  # three whole lines and a torn one
    out.write_text(text[:cut])
    s = run_batch(src, out, quiet=True)
    assert (s.skipped, s.done) == (sum(1 for c in text[:cut] if c == "\n"),
                                   6 - sum(1 for c in text[:cut] if c == "\n"))
    assert _strip(_read(out)) == _strip(full)  # same lines, same order, nothing doubled
    s = run_batch(src, out, quiet=True)
    assert (s.skipped, s.done) == (6, 0)
    # the same id with other contents is refused, once, naming the id
    reqs[2]["board"] = "2c7d8s"
    src.write_text("".join(json.dumps(r) + "\n" for r in reqs) + "not json\n")
    s = run_batch(src, out, quiet=True)
    assert (s.done, s.errors) == (1, 1)
    last = _read(out)[-1]
    assert last["id"] == "r2" and last["refused"] == "changed" and "'r2' changed" in last["error"]
    assert run_batch(src, out, quiet=True).done == 0
    # new defaults change every request they fill in
    s = run_batch(src, out, quiet=True, defaults={"dead": "As"})
    assert (s.done, s.errors) == (5, 5)


def test_a_second_run_on_the_same_output_is_refused(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text(json.dumps(GOOD[0][0]) + "\n")
    out.write_text("")
    with open(out, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        with pytest.raises(ValueError, match="another pokerjit batch run"):
            run_batch(src, out, quiet=True)
        assert main(["batch", str(src), "-o", str(out), "--quiet"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("error: ") and str(out) in err
    assert out.read_text() == ""
    run_batch(src, out, quiet=True)  # released: runs
    assert len(_read(out)) == 1


def test_only_regular_files_are_read_for_resume(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps(GOOD[0][0]) + "\n")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for target in (fifo, Path("/dev/zero"), Path("/dev/null"), tmp_path):
        t0 = time.monotonic()
        assert main(["batch", str(src), "-o", str(target), "--quiet"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and err.count("\n") == 1 and str(target) in err
        assert time.monotonic() - t0 < 5
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\nmore notes\n")
    assert main(["batch", str(src), "-o", str(notes), "--quiet"]) == 2
    assert "not a batch result" in capsys.readouterr().err
    assert notes.read_text() == "my notes\nmore notes\n"
    notes.write_text("one line, no newline")  # not a cut-short record either
    assert main(["batch", str(src), "-o", str(notes), "--quiet"]) == 2
    assert "not a batch result" in capsys.readouterr().err
    assert notes.read_text() == "one line, no newline"
    assert main(["batch", str(src), "-o", str(src), "--quiet"]) == 2
    assert "input file" in capsys.readouterr().err


# ----------------------------------------------------------------------------- backends
MC_LINES = 48


def _mc_input(path: Path) -> None:
    rng = np.random.default_rng(1)
    reqs = []
    for i in range(MC_LINES):
        c = rng.permutation(52)[:7]
        from evaluator.cards import cards_str
        r: dict[str, Any] = {"id": i, "hands": [cards_str(c[:2]), cards_str(c[2:4])],
                             "board": cards_str(c[4:7]), "samples": 150_000, "seed": i}
        if i % 12 == 5:  # lines answered one at a time, too
            r = {"id": i, "kind": "range", "hands": ["TT+", "AKs"], "board": cards_str(c[:4])}
        reqs.append(json.dumps(r))
    reqs.insert(7, "oops")
    path.write_text("\n".join(reqs) + "\n")


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """The Monte Carlo input and its output from one uninterrupted in-process run."""
    d = tmp_path_factory.mktemp("ref")
    _mc_input(d / "in.jsonl")
    s = run_batch(d / "in.jsonl", d / "out.jsonl", quiet=True)
    assert s.done == MC_LINES + 1 and s.errors == 1
    return d / "in.jsonl", _strip(_read(d / "out.jsonl"))


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "simulate", "batch", *args, "--quiet"]


@pytest.mark.parametrize("backend", [
    ["--workers", "1", "--chunk-lines", "4"],
    pytest.param(["--workers", "2", "--chunk-lines", "4"], marks=pytest.mark.slow),
    pytest.param(["--scheduler", "local:2", "--chunk-lines", "4"], marks=pytest.mark.slow),
], ids=["1-worker", "2-workers", "dask"])
def test_sigkill_and_resume(tmp_path: Path, reference: tuple[Path, list[dict[str, Any]]],
                            backend: list[str]) -> None:
    src, want = reference
    out = tmp_path / "out.jsonl"
    proc = subprocess.Popen(_cli(str(src), "-o", str(out), *backend), cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= 6:
            break
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    partial = out.read_bytes()
    assert 0 < partial.count(b"\n") < MC_LINES + 1, "the kill came too late to test anything"
    if partial.endswith(b"\n"):  # the kill fell between writes: tear the last line ourselves
        out.write_bytes(partial + b'{"id": 40, "line": 4')
    done = subprocess.run(_cli(str(src), "-o", str(out), *backend), cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    got = _read(out)
    assert len({r["line"] for r in got}) == len(got)  # no line twice, none torn
    assert sorted(_strip(got), key=lambda r: r["line"]) == want


@pytest.mark.slow
def test_dask_and_workers_write_the_same_file(
        tmp_path: Path, reference: tuple[Path, list[dict[str, Any]]]) -> None:
    src, want = reference
    s = run_batch(src, tmp_path / "dask.jsonl", scheduler="local:2", quiet=True, chunk_lines=6)
    assert s.done == MC_LINES + 1
    assert _strip(_read(tmp_path / "dask.jsonl")) == want


def test_python_api(reference: tuple[Path, list[dict[str, Any]]]) -> None:
    src, want = reference
    reqs = []
    for line in src.read_text().splitlines():
        try:
            reqs.append(json.loads(line))
        except ValueError:
            reqs.append(line)
    got = _strip(list(run(reqs)))
    assert got[7]["error"] == "a request must be a JSON object"  # "oops", not a dict
    assert got[:7] + got[8:] == want[:7] + want[8:]
    with pytest.raises(ValueError, match="workers"):
        list(run(reqs, workers=0))


# ----------------------------------------------------------------------------- CSV, CLI
def _csv_and_json(tmp_path: Path,
                  text: bytes) -> tuple[Path, Path, list[dict[str, str]], list[dict[str, Any]]]:
    """``text`` as ``in.csv``, run to ``out.csv`` and to ``out.jsonl``: (the input, the CSV
    output, its rows, the JSON lines)."""
    import csv

    src, out, js = tmp_path / "in.csv", tmp_path / "out.csv", tmp_path / "out.jsonl"
    src.write_bytes(text)
    run_batch(src, out, quiet=True)
    run_batch(src, js, quiet=True)
    with out.open() as f:
        rows = list(csv.DictReader(f))
    return src, out, rows, _read(js)


def test_csv_in_and_out(tmp_path: Path) -> None:
    src, out, rows, recs = _csv_and_json(tmp_path,
                                         b"\xef\xbb\xbfid,hands,board,dead,samples,seed,kind\n"
                                         b"a,AhKh QsQd,2c7d9h,,,,\n"
                                         b"b,AhKh QsQd JcJd,,,3000,5,\n"
                                         b"c,AhKh AhQd,,,,,\n"
                                         b"d,QQ+ AK,2c7d9hTs,,,,range\n"
                                         b"e,AhKh QsQd,2c7d9h,,many,,\n")
    assert [r["id"] for r in rows] == ["a", "b", "c", "d", "e"]
    a, b = recs[0]["result"], recs[1]["result"]
    assert float(rows[0]["equity_1"]) == a["players"][0]["equity"]
    assert rows[0]["exact"] == "true" and rows[0]["hand_3"] == ""
    assert float(rows[1]["std_error_3"]) == b["players"][2]["std_error"]
    assert rows[1]["seed"] == "5" and rows[1]["samples"] == "3000"
    assert "duplicate card Ah" in rows[2]["error"]
    assert "does not fit a CSV row" in rows[3]["error"] and "result" in recs[3]
    assert "samples must be a whole number" in rows[4]["error"]
    s = run_batch(src, out, quiet=True)
    assert (s.skipped, s.done) == (5, 0)


def test_csv_hilo_columns(tmp_path: Path) -> None:
    """A hi/lo line fills high_k, low_k, scoop_k as its JSON line has them; others leave
    them empty."""
    src, _, rows, recs = _csv_and_json(tmp_path,
                                       b"id,hands,board,game,exact\n"
                                       b"h,AhAs2c3d KdKcQhJh,4s5h9c,omaha_hilo,true\n"
                                       b"o,AhAs2c3d KdKcQhJh,4s5h9c,omaha,true\n")
    assert [r["id"] for r in rows] == ["h", "o"] and rows[0]["game"] == "omaha_hilo"
    for p, pl in enumerate(recs[0]["result"]["players"], 1):
        for f in ("high", "low", "scoop", "equity"):
            assert float(rows[0][f"{f}_{p}"]) == pl[f], (p, f)
    assert float(rows[0]["low_1"]) > 0 and rows[0]["high_3"] == ""
    assert [rows[1][f"{f}_1"] for f in ("high", "low", "scoop")] == ["", "", ""]
    # an output written before these columns is refused with a message that says so
    from simulate.batch.files import _CSV_COLUMNS_BEFORE_HILO
    old = tmp_path / "old.csv"
    old.write_text(",".join(_CSV_COLUMNS_BEFORE_HILO) + "\n")
    with pytest.raises(ValueError, match="before the hi/lo columns"):
        run_batch(src, old, quiet=True)


def test_cli_defaults_and_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text(json.dumps({"id": 1, "hands": ["AhKh", "QsQd"]}) + "\n"
                   + json.dumps({"id": 2, "hands": ["AhKh", "QsQd"], "exact": True}) + "\n")
    assert main(["batch", str(src), "-o", str(out), "--samples", "1000", "--seed", "3",
                 "--board", "2c7d9h", "--quiet"]) == 0
    one, two = (r["result"] for r in _read(out))
    assert (one["exact"], one["samples"], one["seed"], one["board"]) == (False, 1000, 3, "2c7d9h")
    assert two["exact"] is True and two["board"] == "2c7d9h"
    for bad, piece in ((["--workers", "0"], "--workers"), (["--scheduler", "udp"], "scheduler"),
                       (["--seed", "-1"], "seed"), (["--chunk-lines", "0"], "chunk")):
        assert main(["batch", str(src), "-o", str(tmp_path / "x.jsonl"), *bad]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and piece in err and err.count("\n") == 1
    assert not (tmp_path / "x.jsonl").exists()
    assert main(["batch", str(tmp_path / "none.jsonl"), "-o", str(out)]) == 2
    assert "no such input file" in capsys.readouterr().err


def test_grouped_lines_match_one_at_a_time() -> None:
    """The grouped path's JSON text is what json.dumps writes for the one-spot document,
    and exact-hand lines it walks exactly are the lines ``equity`` walks exactly."""
    from evaluator.cards import cards_str
    from simulate.batch.answer_text import json_docs
    from simulate.holdem import EXACT_BUDGET, exact_work
    from simulate.many import equity_many
    from simulate.request import parse_spot

    rng = np.random.default_rng(4)
    c = np.argsort(rng.random((30, 52)), axis=1)[:, :8].astype(np.uint8)
    for r in (equity_many(c[:, :4].reshape(30, 2, 2), c[:, 4:7]),
              equity_many(c[:, :4].reshape(30, 2, 2), c[:, 4:7], dead=c[:, 7:], exact=False,
                          samples=1, seed=2)):
        docs = r.to_dicts(elapsed_s=0.5)
        texts = json_docs(r, 0.5)
        assert texts == [json.dumps(d, separators=(",", ":"), allow_nan=False) for d in docs]
    from evaluator.cards import parse_cards
    from simulate.batch.fast_lines import card_tuple

    for text in ["AhKh", "ahkH", "2c3d4h5s6c", "10h Jd", "Ah,Kh", "♠A", "", "AhAh", "Xx"]:
        try:
            want: Any = tuple(parse_cards(text))
        except ValueError:
            want = ValueError
        try:
            got: Any = card_tuple(text)
        except ValueError:
            got = ValueError
        assert got == want or (text == "AhAh" and got == (50, 50)), text  # repeats: bad_rows
    for players in range(2, 11):  # preflop, no dead cards: the largest walks
        for _ in range(10):
            deal = rng.permutation(52)[:2 * players]
            req = parse_spot([cards_str(deal[2 * p:2 * p + 2]) for p in range(players)])
            assert exact_work(req) <= EXACT_BUDGET, players


# ----------------------------------------------------------------------------- backends
def test_warm_up_kinds_guessed_from_bytes() -> None:
    """The kernels a chunk needs are guessed from its bytes: a JSON key's colon is no sign
    of a range (every line once asked for the one-spot kernels), and a chunk of exact-hand
    lines needs only the grouped kernels."""
    from simulate.batch.runner import _kinds_of

    def kinds(*payloads: Any, **defaults: Any) -> set[str]:
        return _kinds_of(list(enumerate(payloads, 1)), defaults)

    spot = b'{"id": 0, "hands": ["4dJc", "Js9s"], "board": "6c2hAc"}'
    assert kinds(spot, b'{"id":1,"hands":["AhKh","QsQd"]}', "bad line") == {"fast"}
    assert kinds(spot, b'{"id": 1, "hands": ["QQ+", "AK"]}') == {"fast", "equity"}
    assert kinds(b'{"id": 1, "hands": ["AhKh", "QsQd"], "std_error": 0.01}') == {"equity"}
    assert kinds(spot, b'{"id": 1, "kind": "allin", "players": ["AhAs:100", "KK:50"]}'
                 ) == {"fast", "allin"}
    assert kinds(b'{"id": 1, "kind": "range", "hands": ["AK", "QQ"]}') == {"range"}
    assert kinds(b'{"id": 1, "hands": ["AhKhQhJh", "2c2d3c3d"], "game": "Omaha"}'
                 ) == {"omaha"}
    assert kinds(spot, game="omaha") == {"omaha"}
    assert kinds(b'{"id": 1, "players": ["AhAs:100", "KdKc:50"]}', kind="allin") == {"allin"}
    assert kinds({"id": 1, "hands": ["AhKh", "QsQd"]},
                 {"id": 2, "kind": "allin", "players": ["AhAs:9", "KdKc:9"]}) == {"fast", "allin"}


def test_dask_chunks_travel_as_one_frame() -> None:
    """A chunk's answers go to the client as one pickle: Dask sends a bare list element by
    element (a frame and a header each), which cost as much CPU as answering the lines."""
    pytest.importorskip("distributed")
    from distributed.protocol import dumps, to_serialize

    from simulate.batch.chunks import answer_chunk
    from simulate.run.executor import _dask_task, _Whole

    # lines answered one by one (a dead field on every other line: not one block)
    items = [(n, json.dumps({"id": n, "hands": ["AhKh", "QsQd"], "board": "2c7d9h",
                             **({"dead": ""} if n % 2 else {})}).encode())
             for n in range(1, 301)]
    answers = _dask_task(answer_chunk, _Whole(items), ({}, "jsonl", None), 1)
    assert isinstance(answers, _Whole)
    assert [a[:4] for a in answers.value] == [a[:4] for a in answer_chunk(items, threads=1)]
    bare = dumps({"op": "task-finished", "data": to_serialize(answers.value)})
    whole = dumps({"op": "task-finished", "data": to_serialize(answers)})
    assert len(bare) > 300 and len(whole) <= 4
    # a chunk read as one block gives its answers as one text: a few frames either way
    block = [(n, json.dumps({"id": n, "hands": ["AhKh", "QsQd"], "board": "2c7d9h"}).encode())
             for n in range(1, 301)]
    answers = _dask_task(answer_chunk, _Whole(block), ({}, "jsonl", None), 1)
    assert len(dumps({"op": "task-finished", "data": to_serialize(answers)})) <= 8


@pytest.mark.parametrize("workers", quick_first([1, 2]))
def test_runs_leave_the_collector_as_they_found_it(tmp_path: Path, workers: int) -> None:
    """A run keeps the cyclic collector off the warmed heap (gc.freeze) and gives it back
    at the end, also when a Python API caller stops early."""
    import gc

    before = gc.get_freeze_count()
    reqs = [{"id": n, "hands": ["AhKh", "QsQd"], "board": "2c7d9h"} for n in range(20)]
    if workers == 1:  # (the same close thaws it after 2 workers, below)
        src = tmp_path / "in.jsonl"
        src.write_text("".join(json.dumps(r) + "\n" for r in reqs))
        s = run_batch(src, tmp_path / "out.jsonl", quiet=True, chunk_lines=4)
        assert s.done == 20 and gc.get_freeze_count() == before
    gen = run(reqs, workers=workers, chunk_lines=4)
    next(gen)
    next(gen)  # the first chunk answered: the heap is frozen now
    assert gc.get_freeze_count() > before
    gen.close()
    assert gc.get_freeze_count() == before


# ----------------------------------------------------------------------------- issue 23
@pytest.mark.parametrize("flag,piece", [
    (["--game", "foo"], "unknown game 'foo'"),
    (["--board", "Zz9h"], "board"),
    (["--dead", "2c2c"], "2c"),
    (["--board", "2c7d"], "board"),
    (["--samples", "0"], "samples must be positive"),
    (["--std-error", "5"], "below 0.5"),
    (["--std-error", "-1"], "positive"),
    (["--seed", str(2**64)], "seed"),
    (["--kind", "poker"], "--kind"),
], ids=lambda x: " ".join(x) if isinstance(x, list) else None)
def test_a_bad_default_is_refused_before_any_work(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: list[str], piece: str) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text(json.dumps({"id": 1, "hands": ["AhKh", "QsQd"]}) + "\n")
    assert main(["batch", str(src), "-o", str(out), "--quiet", *flag]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and piece in err, err
    assert not out.exists()  # nothing written, not even an empty file


@pytest.mark.parametrize("defaults,piece", [
    ({"game": "foo"}, "default unknown game 'foo'"), ({"board": "2c2c2c"}, "board"),
    ({"dead": "Xx"}, "dead"), ({"std_error": 0.5}, "below 0.5"),
], ids=["game", "board", "dead", "std_error"])
def test_a_bad_default_is_refused_by_the_api(tmp_path: Path, defaults: dict[str, Any],
                                             piece: str) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text(json.dumps({"id": 1, "hands": ["AhKh", "QsQd"]}) + "\n")
    with pytest.raises(ValueError, match=piece):
        run_batch(src, out, quiet=True, defaults=defaults)
    with pytest.raises(ValueError, match=piece):
        next(run([{"id": 1, "hands": ["AhKh", "QsQd"]}], defaults=defaults))
    assert not out.exists()


def test_allin_std_error_default_is_in_chips(tmp_path: Path) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text(json.dumps({"id": 1, "players": ["AhAs:100", "KdKc:100"], "seed": 1}) + "\n")
    s = run_batch(src, out, quiet=True, defaults={"kind": "allin", "std_error": 5.0})
    assert (s.done, s.errors) == (1, 0)
    assert _read(out)[0]["result"]["players"][0]["std_error"] <= 5.0


def test_error_lines_are_answered_again_by_a_rerun(tmp_path: Path) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    good = {"id": "g", "hands": ["AhKh", "QsQd"], "board": "2c7d9h"}
    bad = {"id": "b", "hands": ["AhKh", "QsQd"], "board": "2c7d9h", "game": "foo"}
    src.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\nnot json\n")
    s = run_batch(src, out, quiet=True)
    assert (s.done, s.errors) == (3, 2)
    # unchanged: the same errors again are not written twice
    s = run_batch(src, out, quiet=True)
    assert (s.skipped, s.done) == (3, 0) and len(_read(out)) == 3
    # corrected: the line that was an error is answered, not refused as changed
    bad["game"] = "holdem"
    src.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\nnot json\n")
    s = run_batch(src, out, quiet=True)
    assert (s.skipped, s.done, s.errors) == (2, 1, 0)
    last = _read(out)[-1]
    assert last["id"] == "b" and "result" in last and "refused" not in last
    assert run_batch(src, out, quiet=True).done == 0
    # a CSV output reads its error rows back the same way
    csv_out = tmp_path / "out.csv"
    bad["game"] = "foo"
    src.write_text(json.dumps(bad) + "\n")
    assert run_batch(src, csv_out, quiet=True).errors == 1
    assert run_batch(src, csv_out, quiet=True).done == 0
    bad["game"] = "holdem"
    src.write_text(json.dumps(bad) + "\n")
    s = run_batch(src, csv_out, quiet=True)
    assert (s.done, s.errors) == (1, 0)


def test_a_csv_input_naming_a_column_twice_is_refused(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    src, out = tmp_path / "in.csv", tmp_path / "out.jsonl"
    src.write_text("id,hands,hands\n1,AhKh QsQd,7c7d 2s2h\n")
    assert main(["batch", str(src), "-o", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'hands' twice" in err and str(src) in err
    assert not out.exists()


def test_an_unreadable_input_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A read error (EIO here, from a regular file that cannot be read; EACCES for a user)
    carries no file name of its own: the message names the input."""
    src, out = Path("/proc/self/mem"), tmp_path / "out.jsonl"
    if os.geteuid() != 0:
        src = tmp_path / "in.jsonl"
        src.write_text(json.dumps({"id": 1, "hands": ["AhKh", "QsQd"]}) + "\n")
        src.chmod(0)
    elif not src.is_file():
        pytest.skip("no /proc/self/mem here")
    assert main(["batch", str(src), "-o", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"error: {src}: " in err, err
    assert not out.exists()


def test_an_input_that_cannot_be_read_is_named(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.jsonl"
    for src in (tmp_path, Path("/dev/null")):  # a folder, a device
        assert main(["batch", str(src), "-o", str(out), "--quiet"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and str(src) in err, err
    assert not out.exists()


def test_grouped_lines_time_the_work_without_the_compile(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A compile during the first group (here: half a second of it, as the compile clock
    records it) is not the lines' elapsed_s."""
    import evaluator._jit as J
    import simulate.many as M

    real = M.equity_many

    def compiling_first(*a: Any, **k: Any) -> Any:
        time.sleep(0.5)
        J._clock.total += 0.5  # what Numba's compile events add while compiling
        return real(*a, **k)

    monkeypatch.setattr(M, "equity_many", compiling_first)
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text(json.dumps({"id": 1, "hands": ["AhKh", "QsQd"], "board": "2c7d9h"}) + "\n")
    run_batch(src, out, quiet=True)
    assert _read(out)[0]["result"]["elapsed_s"] < 0.25


@pytest.mark.slow
def test_ctrl_c_inside_a_long_line_with_one_worker(tmp_path: Path) -> None:
    """SIGINT while a 10^10-deal line runs: the run stops within ~2 s, exit 130, the line
    before it kept (it shares the chunk), the interrupted line not written; a rerun
    answers only what is left."""
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text(json.dumps({"id": "quick", "hands": ["AhKh", "QsQd"], "board": "2c7d9h"})
                   + "\n" + json.dumps({"id": "huge", "hands": ["AhKh", "QsQd"],
                                        "samples": 10**10, "seed": 1}) + "\n")
    proc = subprocess.Popen([sys.executable, "-m", "simulate", "batch", str(src), "-o",
                             str(out)], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, preexec_fn=default_ctrl_c)
    assert proc.stderr is not None
    for line in proc.stderr:  # plain progress lines: the huge line is running
        if line.startswith("Monte Carlo"):
            break
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    rest = proc.stderr.read()
    rc = proc.wait(timeout=30)
    assert time.monotonic() - t0 < 2.5 and rc == 130, rest
    assert "interrupted" in rest
    recs = _read(out)
    assert [r["id"] for r in recs] == ["quick"] and "result" in recs[0]


# ----------------------------------------------------------------------------- executor
def _square_all(chunk: list[int], scale: int, threads: int | None = None) -> list[int]:
    if 13 in chunk:
        raise ArithmeticError(f"no 13 in {chunk}")
    return [scale * x * x for x in chunk]


@pytest.mark.parametrize("workers", [1, 2])
def test_the_executor_keeps_order_and_says_what_failed(workers: int) -> None:
    """simulate.run.executor, the one pool (batch and ``pokerjit hand`` run on it):
    results in input order whatever finishes first, the chunks read lazily (at most
    3 * workers in flight), a failing chunk raised where its result would come or, with
    ``on_error``, replaced by what it returns."""
    from simulate.run import chunked, executor

    taken = []

    def chunks():
        for c in chunked(range(40), 3):
            taken.append(c[0])
            yield c

    ex = executor(workers)
    try:
        got = ex.map_ordered(chunks(), (2,), _square_all,
                             on_error=lambda c, exc: [f"{type(exc).__name__}: {exc}"])
        first = next(got)
        assert len(taken) <= 3 * workers  # read as results are taken, not all at once
        rest = list(got)
    finally:
        ex.close()
    results = [first, *rest]
    assert [c for c, _ in results] == list(chunked(range(40), 3))
    assert results[4][1] == ["ArithmeticError: no 13 in [12, 13, 14]"]
    assert [v for c, r in results for v in r if c[0] != 12] == [
        2 * x * x for x in range(40) if x not in (12, 13, 14)]
    ex = executor(workers)
    with pytest.raises(ArithmeticError, match="no 13"):
        try:
            list(ex.map_ordered(chunked(range(40), 3), (2,), _square_all))
        except BaseException:
            ex.close(abort=True)
            raise


def test_a_caller_may_keep_more_chunks_in_flight() -> None:
    """``ahead``: chunks in flight per worker (``pokerjit import`` keeps more, so that the
    workers go on while it stores a batch); the window is filled before the first wait."""
    from simulate.run import chunked, executor

    taken = []

    def chunks():
        for c in chunked(range(60), 3):
            taken.append(c[0])
            yield c

    ex = executor(2, ahead=5)
    try:
        got = ex.map_ordered(chunks(), (2,), _square_all,
                             on_error=lambda c, exc: [f"{type(exc).__name__}: {exc}"])
        next(got)
        assert len(taken) == 10
        rest = list(got)
    finally:
        ex.close()
    assert len(rest) == 19


def test_pool_workers_leave_ctrl_c_to_the_main_process_and_die_on_sigterm():
    """A forked worker must not keep the main process's SIGTERM handler (``pokerjit hand``
    turns SIGTERM into an exception): ``close(abort=True)`` terminates the workers, and a
    worker that only had its chunk interrupted kept the interpreter's exit waiting."""
    import signal

    from helpers import worker_signal_handlers

    from simulate.run import executor

    def raise_exit(signum, frame):  # a handler that turns SIGTERM into an exception
        raise SystemExit(143)

    old = signal.signal(signal.SIGTERM, raise_exit)
    try:
        ex = executor(2)
        try:
            got = [r for _, r in ex.map_ordered([[1], [2]], (), worker_signal_handlers)]
        finally:
            ex.close(abort=True)
    finally:
        signal.signal(signal.SIGTERM, old)
    assert got == [(True, True), (True, True)]


@pytest.mark.parametrize("name", ["in.jsonl", "in.csv"])
def test_input_chunks_are_the_lines_read_a_block_at_a_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """:meth:`Input.chunks` (blocks cut into lines at once) gives what the reference
    reads a line at a time, for every block size: comments, blank lines, carriage
    returns, a byte-order mark, lines too long to read (here over 20 bytes) and a last
    line without a newline."""
    import random

    from reference import batch_input_lines

    import simulate.batch.files as F

    monkeypatch.setattr(F, "MAX_LINE_BYTES", 20)
    rnd = random.Random(7)
    pieces = [b"{", b"}", b"a", b" ", b"\t", b"\r", b"\n", b"#", b"\xef\xbb\xbf", b"x" * 7,
              b"\n\n", b"y" * 25, b"\r\n"]
    src = tmp_path / name
    for _ in range(300):
        body = b"".join(rnd.choice(pieces) for _ in range(rnd.randrange(40)))
        src.write_bytes((b"id,hands\n" if name.endswith(".csv") else b"") + body)
        inp = F.Input(src)
        want = batch_input_lines(str(src), 20, inp._header_line)
        for block in (1, 3, 8, 1 << 20):
            for size in (1, 3, 1000):
                got = list(inp.chunks(size, block))
                assert [x for c in got for x in c] == want, (body, block, size)
                assert all(len(c) == size for c in got[:-1]) and all(got)


def test_a_failed_write_stops_the_run_and_keeps_what_was_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer thread's error (here the disk filling up on the second chunk) is the
    run's error; the first chunk's lines stay written, whole."""
    import errno

    import simulate.batch.files as F

    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text("".join(json.dumps({"id": n, "hands": ["AhKh", "QsQd"], "board": "2c7d9h"})
                           + "\n" for n in range(12)))
    real, calls = F.Output.write, []

    def full_after_one(self: Any, lines: list[Any]) -> None:
        calls.append(len(lines))
        if len(calls) > 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(self, lines)

    monkeypatch.setattr(F.Output, "write", full_after_one)
    with pytest.raises(OSError, match="No space"):
        run_batch(src, out, quiet=True, threads=1, chunk_lines=4)
    assert [r["id"] for r in _read(out)] == [0, 1, 2, 3]
    monkeypatch.setattr(F.Output, "write", real)
    assert run_batch(src, out, quiet=True, threads=1, chunk_lines=4).skipped == 4
    assert [r["id"] for r in _read(out)] == list(range(12))
