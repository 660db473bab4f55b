"""``pokerjit batch`` stopped: SIGTERM, SIGHUP (and Ctrl-C) keep every answered line whole
and say so in one line; a full disk names the file and leaves no torn line; ``-q`` prints
nothing while it runs."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import default_ctrl_c

from simulate.batch import run_batch
from simulate.cli import main

ROOT = Path(__file__).resolve().parents[1]
QUICK = 60  # quick lines before the long one


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _long_input(path: Path) -> None:
    """QUICK heads-up flop lines, one line of 10^10 deals, a few quick lines after it."""
    lines = [{"id": n, "hands": ["AhKh", "QsQd"], "board": "2c7d9h"} for n in range(QUICK)]
    lines.append({"id": "huge", "hands": ["AhKh", "QsQd"], "samples": 10**10, "seed": 1})
    lines += [{"id": n, "hands": ["AhKh", "QsQd"], "board": "2c7d9h"}
              for n in range(QUICK, QUICK + 5)]
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))


#: ``pokerjit`` as the program (``main()`` reading ``sys.argv``), its long runs printing a
#: plain progress line after 0.2 s instead of 2 + 5 s (the test waits for the first one).
_PROGRAM = ("import simulate.progress as p, simulate.sampling as s; "
            "p.PLAIN_EVERY_S = s.PROGRESS_AFTER_S = 0.2; "
            "from simulate.cli import main; main()")


@pytest.mark.parametrize(("sig", "workers"), [
    (signal.SIGTERM, 1),
    pytest.param(signal.SIGHUP, 1, marks=pytest.mark.slow),
    pytest.param(signal.SIGINT, 1, marks=pytest.mark.slow),
    pytest.param(signal.SIGTERM, 2, marks=pytest.mark.slow),
], ids=["term-1", "hup-1", "int-1", "term-2"])
def test_a_stopping_signal_keeps_the_answered_lines(tmp_path: Path, sig: int,
                                                    workers: int) -> None:
    """The signal comes while the long line runs (one worker: in the chunk that holds
    every line, so nothing is written yet; two workers: after the lines before it are
    written): every line before it is written whole, one ``error:`` line says so, the exit
    status is 128 + the signal; a rerun answers only what is left."""
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _long_input(src)
    argv = [sys.executable, "-c", _PROGRAM, "batch", str(src), "-o", str(out),
            "--workers", str(workers)]
    if workers > 1:
        argv += ["--chunk-lines", "4"]
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, preexec_fn=default_ctrl_c)
    assert proc.stderr is not None
    try:
        if workers == 1:
            for line in proc.stderr:  # plain progress lines: the huge line is running
                if line.startswith("Monte Carlo"):
                    break
        else:  # the workers print no progress: wait for the lines before the long one
            deadline = time.monotonic() + 120
            while not (out.exists() and out.read_bytes().count(b"\n") >= QUICK):
                assert proc.poll() is None and time.monotonic() < deadline
                time.sleep(0.05)
            time.sleep(0.3)
        proc.send_signal(sig)
        rest = proc.stderr.read()
        rc = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    errors = [x for x in rest.splitlines() if x.startswith("error:")]
    assert rc == 128 + sig, rest
    assert len(errors) == 1 and "Traceback" not in rest, rest
    assert f"the {QUICK} lines answered by this run are kept in {out}" in errors[0]
    data = out.read_bytes()
    assert data.endswith(b"\n")
    recs = _read(out)
    assert [r["id"] for r in recs] == list(range(QUICK)) and all("result" in r for r in recs)


def test_stop_on_signals_is_ctrl_c_for_every_stopping_signal() -> None:
    """SIGTERM and SIGHUP raise :class:`Stopped` (a KeyboardInterrupt) inside the block, once
    (a second one while the first stop is handled is ignored); the old handlers come back."""
    from simulate.run import Stopped, stop_on_signals

    before = signal.getsignal(signal.SIGTERM)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        with pytest.raises(KeyboardInterrupt) as info, stop_on_signals():
            try:
                os.kill(os.getpid(), sig)
                time.sleep(5)
            finally:
                os.kill(os.getpid(), sig)  # during the cleanup: ignored
        assert isinstance(info.value, Stopped) and info.value.signum == sig
        assert info.value.status == 128 + sig
        assert info.value.line == f"stopped by {signal.Signals(sig).name}"
    assert signal.getsignal(signal.SIGTERM) == before


def test_a_full_disk_names_the_file_and_keeps_whole_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The disk fills up in the middle of the second chunk's write: what that write put
    down is cut off (no torn line), the error names the output and the lines kept, exit 2;
    a rerun after room is made answers the rest."""
    import simulate.batch.files as F

    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text("".join(json.dumps({"id": n, "hands": ["AhKh", "QsQd"], "board": "2c7d9h"})
                           + "\n" for n in range(12)))
    real, calls = F.write_all, []

    def full_in_the_second(fd: int, data: Any) -> None:
        calls.append(fd)
        if len(calls) == 1:
            return real(fd, data)
        if len(calls) == 2:
            os.write(fd, bytes(memoryview(data).cast("B")[:100]))  # part of it fits
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(F, "write_all", full_in_the_second)
    rc = main(["batch", str(src), "-o", str(out), "-q", "--threads", "1",
               "--chunk-lines", "4"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1, err
    assert err.startswith(f"error: {out}: No space left on device") and "the 4 lines" in err
    assert out.read_bytes().endswith(b"\n") and [r["id"] for r in _read(out)] == [0, 1, 2, 3]
    monkeypatch.setattr(F, "write_all", real)
    assert run_batch(src, out, quiet=True, threads=1, chunk_lines=4).skipped == 4
    assert [r["id"] for r in _read(out)] == list(range(12))


def test_dev_full_as_output_is_refused_before_any_work(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": 1, "hands": ["AhKh", "QsQd"]}) + "\n")
    assert main(["batch", str(src), "-o", "/dev/full", "-q"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "/dev/full" in err and "regular file" in err, err


def test_quiet_prints_nothing_even_for_a_long_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``-q``: no progress of the batch, nor of a long line's Monte Carlo run or exact walk
    (here every run counts as long); without it, both show theirs."""
    import simulate.progress as P
    import simulate.sampling as SM

    monkeypatch.setattr(SM, "PROGRESS_AFTER_S", 0.0)
    monkeypatch.setattr(SM, "ROUND_S", 1e-4)
    monkeypatch.setattr(P, "PLAIN_EVERY_S", 0.0)
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "mc", "hands": ["AhKh", "QsQd"], "std_error": 0.002,
                               "seed": 1}) + "\n"
                   + json.dumps({"id": "walk", "hands": ["AK", "QQ"], "board": "2c7d9h",
                                 "exact": True}) + "\n")
    for quiet in (True, False):
        out = tmp_path / f"out-{quiet}.jsonl"
        assert main(["batch", str(src), "-o", str(out), "--threads", "1",
                     *(["-q"] if quiet else [])]) == 0
        err = capsys.readouterr().err
        if quiet:
            assert err == ""
        else:
            assert all(f"\n{what}: " in f"\n{err}" for what in ("Monte Carlo", "exact walk",
                                                                  "batch")), err
        assert [r["id"] for r in _read(out)] == ["mc", "walk"]
