"""``pokerjit batch``: requests per line, bad lines, resume, duplicate ids, workers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from simulate.batch import read_finished, run_batch

REQUESTS = [
    {"id": "a", "hands": ["AhKh", "QsQd"], "board": "2c7d9h", "exact": True},
    {"id": 2, "hands": ["AhAs", "KdKc"], "board": "", "dead": "", "game": "holdem",
     "exact": False, "samples": 20000, "seed": 7},
    {"id": "c", "hands": "AhKh QsQd JcJd", "board": "2c7d9hTs", "seed": 1},
]
BAD_LINES = [
    "this is not json",
    json.dumps({"hands": ["AhKh", "QsQd"]}),                         # no id
    json.dumps({"id": "x1", "hands": ["AhKh", "AhQd"]}),             # repeated card
    json.dumps({"id": "x2"}),                                        # no hands
    json.dumps({"id": "x3", "hands": ["AhKh", "QsQd"], "sample": 5}),  # typo field
    json.dumps({"id": "a", "hands": ["AhKh", "QsQd"]}),              # duplicate id
    json.dumps([1, 2]),
]


def _write(path: Path, lines: list[str]) -> None:
    path.write_text("".join(line + "\n" for line in lines))


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _fake(req: dict[str, Any], threads: int | None) -> dict[str, Any]:
    """A stand-in for the equity engine: echoes the hands (tests the file handling only)."""
    if req.get("hands") == "boom":
        return {"error": "boom"}
    return {"result": {"hands": req.get("hands")}}


def test_bad_lines_and_duplicates(tmp_path: Path) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _write(src, [json.dumps(REQUESTS[0]), "", "# a comment", *BAD_LINES])
    s = run_batch(src, out, progress=None, runner=_fake)
    recs = _read(out)
    assert (s.total, s.done, s.skipped) == (8, 8, 0)
    assert [r["line"] for r in recs] == [1, 4, 5, 6, 7, 8, 9, 10]
    assert recs[0] == {"id": "a", "line": 1, "result": {"hands": ["AhKh", "QsQd"]}}
    assert recs[3] == {"id": "x1", "line": 6, "result": {"hands": ["AhKh", "AhQd"]}}
    errors = {r["line"]: (r["id"], r["error"]) for r in recs if "error" in r}
    assert sorted(errors) == [4, 5, 7, 8, 9, 10]
    assert errors[7] == ("x2", "missing field 'hands'")
    assert errors[4][0] is None and errors[4][1].startswith("bad JSON")
    assert errors[5] == (None, "missing field 'id'")
    assert errors[8][1].startswith("unknown field 'sample'")
    assert errors[9] == ("a", "duplicate id 'a' (first on line 1)")
    assert errors[10][1] == "a request must be a JSON object"


def test_resume_skips_finished_and_drops_cut_line(tmp_path: Path) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    lines = [json.dumps({"id": f"r{i}", "hands": [f"h{i}"]}) for i in range(6)]
    _write(src, [*lines, "not json"])
    run_batch(src, out, progress=None, runner=_fake)
    full = out.read_text()
    # Simulate a crash: keep 3 whole lines and half of the 4th.
    kept = full.splitlines(keepends=True)
    out.write_text("".join(kept[:3]) + kept[3][: len(kept[3]) // 2])
    calls: list[str] = []

    def counting(req: dict[str, Any], threads: int | None) -> dict[str, Any]:
        calls.append(req["id"])
        return _fake(req, threads)

    s = run_batch(src, out, progress=None, runner=counting)
    assert calls == ["r3", "r4", "r5"]
    assert (s.skipped, s.done) == (3, 4)
    assert out.read_text() == full        # same lines, same order, nothing doubled
    # A third run has nothing left to do, the bad-JSON line included.
    s = run_batch(src, out, progress=None, runner=counting)
    assert (s.skipped, s.done) == (7, 0) and len(calls) == 3
    assert read_finished(out)[0] == {json.dumps(f"r{i}") for i in range(6)}


def test_real_equity_results(tmp_path: Path) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _write(src, [json.dumps(r) for r in REQUESTS] + BAD_LINES[2:3])
    s = run_batch(src, out, progress=None)
    recs = _read(out)
    assert s.errors == 1 and [r["id"] for r in recs] == ["a", 2, "c", "x1"]
    from simulate.equity import equity

    want = equity(["AhKh", "QsQd"], board="2c7d9h", exact=True).to_dict()
    got = recs[0]["result"]
    assert got["exact"] is True
    for a, b in zip(got["players"], want["players"], strict=True):
        assert a["equity"] == pytest.approx(b["equity"], abs=1e-12)
    assert recs[1]["result"]["samples"] == 20000
    assert len(recs[2]["result"]["players"]) == 3
    assert "duplicate card Ah" in recs[3]["error"]


def _strip(recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for r in recs:
        if "result" in r:
            r["result"].pop("elapsed_s", None)
    return recs


def test_two_workers_same_results(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    reqs = [dict(REQUESTS[1], id=i, seed=100 + i, samples=5000) for i in range(4)]
    _write(src, [json.dumps(r) for r in reqs] + ["bad"])
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    run_batch(src, one, workers=1, progress=None)
    run_batch(src, two, workers=2, progress=None)
    assert _strip(_read(one)) == _strip(_read(two))


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from simulate.cli import main

    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _write(src, ["{bad"])
    assert main(["batch", str(src), "-o", str(out), "--json"]) == 0
    cap = capsys.readouterr()
    assert json.loads(cap.out)["errors"] == 1 and "batch:" in cap.err
    assert _read(out)[0]["error"].startswith("bad JSON")
    assert main(["batch", str(tmp_path / "none.jsonl"), "-o", str(out)]) == 2
    assert "no such input file" in capsys.readouterr().err
    assert main(["batch", str(src), "-o", str(out), "--workers", "0"]) == 2
