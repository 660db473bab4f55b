"""``pokerjit batch`` input oddities: UTF-16 and binary files refused at once with one line,
CR-only line ends, a stray NUL byte, and resuming after the input's lines moved."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from simulate.batch import run_batch
from simulate.cli import main

LINES = [{"id": n, "hands": ["AhKh", "QsQd"], "board": b}
         for n, b in enumerate(["2c7d9h", "2c7d8h", "3c7d9h", "2c6d9h", "2c7d9s"])]


def _text(lines: list[dict[str, Any]], end: str = "\n") -> str:
    return "".join(json.dumps(r) + end for r in lines)


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], src: Path) -> str:
    out = tmp_path / "out.jsonl"
    assert main(["batch", str(src), "-o", str(out), "-q"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: {src}: "), err
    assert not out.exists()  # refused before the output is touched
    return err


@pytest.mark.parametrize(("name", "encoding"), [("in.jsonl", "utf-16"),
                                                ("in.jsonl", "utf-16-le"),
                                                ("in.jsonl", "utf-16-be"),
                                                ("in.csv", "utf-16")])
def test_utf16_input_is_refused_with_one_line(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              name: str, encoding: str) -> None:
    """Not five error lines (one per line read as UTF-8): one refusal naming UTF-16 and how
    to convert it, for JSON lines as for CSV, with or without a byte-order mark."""
    src = tmp_path / name
    text = "id,hands\n1,AhKh QsQd\n" if name.endswith(".csv") else _text(LINES)
    src.write_bytes(text.encode(encoding))
    err = _refused(tmp_path, capsys, src)
    assert "UTF-16 text" in err and "iconv -f UTF-16" in err
    assert ("byte-order mark" in err) == (encoding == "utf-16")


def test_a_mostly_nul_file_is_refused_before_it_is_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A 1 GiB file of NUL bytes (sparse: nothing is written) is refused from its first
    8 KiB, before the lines are counted or read."""
    import simulate.batch.runner as R

    def never(*args: Any) -> None:
        raise AssertionError("the whole file was read")

    monkeypatch.setattr(R, "count_lines", never)
    src = tmp_path / "in.jsonl"
    with open(src, "wb") as f:
        f.truncate(1 << 30)
    err = _refused(tmp_path, capsys, src)
    assert "not a text file (8,192 of its first 8,192 bytes are NUL)" in err


def test_a_stray_nul_is_that_lines_error(tmp_path: Path) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    bad = json.dumps({"id": "z", "hands": ["AhKh", "Qs\x00Qd"]}).replace("\\u0000", "\x00")
    src.write_text(_text(LINES[:2]) + bad + "\n" + _text(LINES[2:]))
    s = run_batch(src, out, quiet=True, threads=1)
    assert (s.done, s.errors) == (6, 1)
    recs = _read(out)
    assert recs[2]["line"] == 3 and recs[2]["error"].startswith("a NUL byte at column ")
    assert [r["id"] for r in recs if "result" in r] == [r["id"] for r in LINES]


@pytest.mark.parametrize("end", ["\r", "\r\n", "\n"])
def test_every_line_end_is_a_line_end(tmp_path: Path, end: str) -> None:
    """CR-only line ends (old Mac files) are lines too, numbered as such, like CRLF."""
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_bytes(_text(LINES, end).encode())
    s = run_batch(src, out, quiet=True, threads=1)
    assert (s.done, s.errors) == (5, 0)
    assert [(r["id"], r["line"]) for r in _read(out)] == [(n, n + 1) for n in range(5)]


def test_resume_matches_lines_by_id_and_stops_where_lines_moved(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A line inserted at the top, once OUT holds answers: the run stops with one line
    naming the clash before answering it (OUT's ``line`` numbers would otherwise name two
    requests), leaving OUT as it was; new lines at the end are answered; an answered line
    replaced by one that cannot be read is answered (its error)."""
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text(_text(LINES[:3]))
    assert run_batch(src, out, quiet=True, threads=1).done == 3
    before = out.read_bytes()
    new = {"id": "new", "hands": ["AhKh", "JsJd"], "board": "2c7d9h"}
    src.write_text(_text([new, *LINES[:3]]))
    assert main(["batch", str(src), "-o", str(out), "-q"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 1 is request 'new'" in err, err
    assert "answered line 1 as request 0" in err
    assert out.read_bytes() == before
    src.write_text(_text([*LINES[:3], new]))  # at the end: answered, the rest resumed
    s = run_batch(src, out, quiet=True, threads=1)
    assert (s.skipped, s.done) == (3, 1)
    src.write_text(_text(LINES[:1]) + "not json\n" + _text([LINES[2], new]))
    s = run_batch(src, out, quiet=True, threads=1)
    assert (s.skipped, s.done, s.errors) == (3, 1, 1)
    recs = _read(out)
    assert [(r["id"], r["line"]) for r in recs] == [(0, 1), (1, 2), (2, 3), ("new", 4),
                                                    (None, 2)]
