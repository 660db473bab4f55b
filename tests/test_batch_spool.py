"""``simulate.run.spool``: the file forked workers write their chunks' output to, and
``pokerjit batch --workers 2`` through it: the same file as one worker, resumed runs and
repeated ids (which read a chunk back line by line), no spool left behind."""

from __future__ import annotations

import errno
import json
import os
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import strip_timings

from simulate.batch import run_batch
from simulate.run import spool
from simulate.run.spool import Spool


def test_pieces_put_by_forked_processes_come_back_in_any_order(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with Spool(tmp_path) as sp:
        pieces = [bytes([65 + i]) * (1000 * i + 7) for i in range(6)]
        refs: list[Any] = [None] * len(pieces)
        r, w = os.pipe()
        pids = []
        for i, data in enumerate(pieces):
            pid = os.fork()
            if pid == 0:  # a worker: put its piece, send the reference back
                code = 1
                try:
                    os.write(w, pickle.dumps((i, sp.put(np.frombuffer(data, np.uint8)))))
                    code = 0
                finally:
                    os._exit(code)
            pids.append(pid)
            os.waitpid(pid, 0)
        os.close(w)
        with os.fdopen(r, "rb") as f:
            while True:
                try:
                    i, ref = pickle.load(f)
                except EOFError:
                    break
                refs[i] = ref
        assert [ref.length for ref in refs] == [len(p) for p in pieces]
        assert len({ref.offset for ref in refs}) == len(pieces)  # each its own place
        assert len(pickle.dumps(refs[5])) < 120  # what travels: three numbers
        fd = os.open(out, os.O_WRONLY | os.O_CREAT)
        try:
            for i in (1, 0, 2):
                refs[i].copy_to(fd)
        finally:
            os.close(fd)
        assert out.read_bytes() == pieces[1] + pieces[0] + pieces[2]
        assert refs[4].read() == pieces[4]
        assert sp.read(refs[3]) == pieces[3]
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".pokerjit-spool")]
    with pytest.raises(ValueError, match="closed"):
        refs[5].read()


def test_copies_by_reading_and_writing_where_the_kernel_cannot(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any) -> int:
        raise OSError(errno.EXDEV, "cross-device link")

    monkeypatch.setattr(os, "copy_file_range", refuse)
    monkeypatch.setattr(spool, "_PIECE", 100)  # several reads a piece
    data = bytes(range(256)) * 9
    with Spool(tmp_path) as sp:
        ref = sp.put(data)
        fd = os.open(tmp_path / "out", os.O_WRONLY | os.O_CREAT)
        try:
            os.write(fd, b"head\n")
            ref.copy_to(fd)
        finally:
            os.close(fd)
    assert (tmp_path / "out").read_bytes() == b"head\n" + data


def test_a_piece_copied_out_leaves_the_spool(tmp_path: Path) -> None:
    """The spool frees what was copied out (a hole, where the file system makes them), so
    it holds only the chunks in flight, not a second copy of the output."""
    with Spool(tmp_path) as sp:
        if sp._punch is None:
            pytest.skip("no fallocate here")
        ref = sp.put(b"x" * (1 << 20))
        before = os.fstat(sp.fd).st_blocks
        fd = os.open(tmp_path / "out", os.O_WRONLY | os.O_CREAT)
        try:
            ref.copy_to(fd)
        finally:
            os.close(fd)
        if sp._punch is None:
            pytest.skip("this file system keeps the blocks")
        assert os.fstat(sp.fd).st_blocks < before
    assert (tmp_path / "out").read_bytes() == b"x" * (1 << 20)


def _spots(path: Path, n: int, ids: list[Any] | None = None) -> None:
    """``n`` heads-up flop spots, exact, as the usual batch line."""
    from evaluator.cards import cards_str

    rng = np.random.default_rng(5)
    with open(path, "w") as f:
        for i in range(n):
            c = rng.permutation(52)[:7].astype(np.uint8)
            rid = ids[i] if ids else i
            f.write(json.dumps({"id": rid, "hands": [cards_str(c[:2]), cards_str(c[2:4])],
                                "board": cards_str(c[4:])}) + "\n")


def _records(path: Path) -> list[dict[str, Any]]:
    return strip_timings([json.loads(x) for x in path.read_text().splitlines()])


_RUN = """
import json, sys
from simulate.batch import run_batch
from simulate.run.spool import Spool
copies, reads = [], []
copy, read = Spool.copy_to, Spool.read
def counted_copy(self, ref, fd):
    copies.append(ref.length)
    copy(self, ref, fd)
def counted_read(self, ref):
    reads.append(ref.length)
    return read(self, ref)
Spool.copy_to, Spool.read = counted_copy, counted_read
for src, out in json.loads(sys.argv[1]):
    copies.clear()
    reads.clear()
    s = run_batch(src, out, workers=2, quiet=True, chunk_lines=int(sys.argv[2]))
print(json.dumps([s.done, s.skipped, s.errors, copies, reads]))
"""


def _two_workers(runs: list[tuple[Path, Path]], chunk_lines: int) -> tuple[Any, ...]:
    """``run_batch(src, out, workers=2)`` of each run in turn, in a fresh process (this one
    may have started Numba's thread pool, after which workers are spawned, without the
    spool): the last run's done, skipped, errors and the lengths of the pieces it copied
    from the spool whole and read back from it."""
    import subprocess
    import sys

    runs_text = json.dumps([[str(a), str(b)] for a, b in runs])
    p = subprocess.run([sys.executable, "-c", _RUN, runs_text, str(chunk_lines)],
                       capture_output=True, text=True, timeout=300,
                       cwd=Path(__file__).resolve().parents[1])
    assert p.returncode == 0, p.stderr
    return tuple(json.loads(p.stdout.splitlines()[-1]))


def test_two_workers_write_through_the_spool_what_one_worker_writes(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    _spots(src, 120)
    run_batch(src, tmp_path / "one.jsonl", quiet=True, chunk_lines=16)
    done, _, errors, copies, reads = _two_workers([(src, tmp_path / "two.jsonl")], 16)
    assert done == 120 and errors == 0
    assert len(copies) == 8 and not reads  # every chunk's text came through the spool
    assert sum(copies) == (tmp_path / "two.jsonl").stat().st_size
    assert _records(tmp_path / "two.jsonl") == _records(tmp_path / "one.jsonl")
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".pokerjit-spool")]


def test_spooled_chunks_read_back_line_by_line(tmp_path: Path) -> None:
    """A resumed run and a file with a repeated id settle their chunks line by line: the
    text is read back from the spool, and the file is the one a single run writes."""
    src = tmp_path / "in.jsonl"
    ids = list(range(60))
    ids[45] = 3  # a repeated id: refused on its line
    _spots(src, 60, ids)
    run_batch(src, tmp_path / "one.jsonl", quiet=True, chunk_lines=8)
    head = tmp_path / "head.jsonl"
    head.write_text("".join(src.read_text().splitlines(keepends=True)[:20]))
    out = tmp_path / "two.jsonl"
    done, skipped, errors, copies, reads = _two_workers([(head, out), (src, out)], 8)
    assert skipped == 20 and done == 40 and errors == 1
    assert not copies and len(reads) == 5  # the 5 chunks of new lines read back
    got, want = _records(out), _records(tmp_path / "one.jsonl")
    assert "duplicate id 3" in got[45]["error"]
    assert got == want


def test_no_spool_for_one_worker_dask_or_a_folder_it_cannot_write(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from simulate.batch import runner

    out = tmp_path / "out.jsonl"
    with runner._spool_for(2, None, out) as sp:
        assert isinstance(sp, Spool) and sp.fd >= 0
    assert sp.fd == -1  # closed with the run
    for workers, scheduler in ((1, None), (2, "local:2")):
        with runner._spool_for(workers, scheduler, out) as sp:
            assert sp is None

    def refuse(self: Spool, directory: Any) -> None:
        raise PermissionError(13, "Permission denied", str(directory))

    monkeypatch.setattr(Spool, "__init__", refuse)
    with runner._spool_for(2, None, out) as sp:
        assert sp is None  # the text then travels back to the main process
