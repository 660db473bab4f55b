"""simulate/cli/hand.py and the reading of simulate/replay/hand_files.py: ``pokerjit hand`` with
hostile inputs and outputs.

* An output that is an input (or a history an input folder would read), two outputs to
  one place, an image name that is no image, a name ending in ``/``: refused before any
  work, the input untouched.
* Each real file read once, each real folder visited once (links to a folder already
  read, a second name of a file, dangling links: skipped, each said on stderr).
* Only regular files are read (``/dev/zero``, a pipe with no writer: refused at once),
  ``-`` reads standard input, and one hand's text is bounded (1 MiB) on every path,
  the byte ranges of worker processes included.
* SIGTERM and SIGINT leave no temporary file, and the JSON is printed whole or not at
  all; the CSV gets an ordinary file's mode; the summary's wording.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import pytest
from helpers import default_ctrl_c

from simulate.cli import main
from simulate.notation.phh_synth import synthetic_hands, write_synthetic_phhs
from simulate.replay.hand_files import analyze

DATA = Path(__file__).resolve().parent / "data" / "phh"
DWAN = DATA / "vendor/phh-curated/dwan-ivey-2009.phh"
ROOT = Path(__file__).resolve().parents[1]


def hand(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(["hand", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def one_error(rc: int, out: str, err: str) -> str:
    assert rc == 2 and out == "", (rc, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """``h/x.phh`` (a vendored history) and ``h/sub/y.phhs`` (three synthetic hands)."""
    d = tmp_path / "h"
    (d / "sub").mkdir(parents=True)
    shutil.copy(DWAN, d / "x.phh")
    write_synthetic_phhs(str(d / "sub" / "y.phhs"), 3, seed=1)
    return d


def summary(out: str) -> dict:
    return json.loads(out)["summary"]


# ----------------------------------------------------------------------------- outputs
def test_an_output_that_is_an_input_is_refused(capsys, folder: Path, tmp_path: Path):
    x = folder / "x.phh"
    before = x.read_bytes()
    cases = [
        (["--csv", str(x)], f"error: --csv {x}: is the input file '{x}'; writing it "
                            "would overwrite the input"),
        (["--csv", str(folder / "sub" / ".." / "x.phh")], "is the input"),
        (["--csv", str(folder / "new.phhs")], f"is inside the input folder '{folder}', "
                                               "where it would be read as input"),
    ]
    if shutil.which("ln"):
        (tmp_path / "link.csv").symlink_to(x)
        cases.append((["--csv", str(tmp_path / "link.csv")], "is the input"))
    for extra, want in cases:
        msg = one_error(*hand(capsys, str(folder), str(x), *extra))
        assert want in msg, (extra, msg)
    assert x.read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["sub", "x.phh"]
    # a file in an input folder that is not a history is no input: written
    rc, _, err = hand(capsys, str(folder), "--csv", str(folder / "hands.csv"), "-q")
    assert rc == 0 and (folder / "hands.csv").read_text().startswith("hand,source,seat,")


def test_png_and_two_outputs_to_one_place(capsys, folder: Path, tmp_path: Path):
    pytest.importorskip("matplotlib")
    x = folder / "x.phh"
    before = x.read_bytes()
    msg = one_error(*hand(capsys, str(x), "--png", str(x)))
    assert "is the input" in msg
    msg = one_error(*hand(capsys, str(x), "--png", str(tmp_path / "won.phh")))
    assert msg == f"error: --png {tmp_path / 'won.phh'}: matplotlib cannot write .phh files"
    same = str(tmp_path / "same.png")
    msg = one_error(*hand(capsys, str(x), "--csv", same, "--png", same))
    assert msg == (f"error: --csv and --png would both write to the same file ({same}); "
                   "name another file for one of them")
    msg = one_error(*hand(capsys, str(x), "--csv", "-", "--json"))
    assert "would both write to standard output" in msg
    assert x.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h"]


def test_a_trailing_slash_names_a_folder(capsys, folder: Path, tmp_path: Path):
    for opt in ("--csv", "--png"):
        if opt == "--png":
            pytest.importorskip("matplotlib")
        out = str(tmp_path / "out") + "/"
        msg = one_error(*hand(capsys, str(folder), opt, out))
        assert msg == (f"error: {opt} {out}: names a folder (the trailing '/'), and there is "
                       f"no folder '{tmp_path / 'out'}'")
        msg = one_error(*hand(capsys, str(folder), opt, str(tmp_path) + "/"))
        assert msg.endswith("is a folder, not a file")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h"]  # no file, no temporary


def test_csv_to_dev_stdout_and_an_ordinary_mode(capfd, folder: Path, tmp_path: Path):
    assert main(["hand", str(folder / "x.phh"), "--csv", "/dev/stdout", "-q"]) == 0
    out, err = capfd.readouterr()
    assert err == ""
    assert "hand,source,seat,player,net,allin_adjusted_net,big_blind,validated," \
           "outcome_known,error" in out.splitlines()
    assert "totals per player" in out
    old = os.umask(0o022)
    try:
        assert main(["hand", str(folder / "x.phh"), "--csv", str(tmp_path / "h.csv"),
                     "-q"]) == 0
    finally:
        os.umask(old)
    assert (tmp_path / "h.csv").stat().st_mode & 0o777 == 0o644  # was 0600


def test_csv_to_standard_output_is_the_csv_alone(capfd, folder: Path):
    """``--csv -``: standard output holds the CSV and nothing else (a pipe into another
    program reads rows only); the totals and the summary line go to standard error, and
    -q leaves them out."""
    import csv

    assert main(["hand", str(folder / "x.phh"), "--csv", "-"]) == 0
    out, err = capfd.readouterr()
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][:3] == ["hand", "source", "seat"] and len(rows) > 1
    assert all(len(r) == len(rows[0]) for r in rows)
    assert "totals per player" in err and "1 hand: 1 replayed" in err
    assert main(["hand", str(folder / "x.phh"), "--csv", "-", "-q"]) == 0
    out2, err2 = capfd.readouterr()
    assert out2 == out and err2 == ""


# ----------------------------------------------------------------------------- inputs
def test_each_real_file_is_read_once(capsys, folder: Path, tmp_path: Path):
    x = folder / "x.phh"
    (folder / "self").symlink_to(".")
    (folder / "sub" / "up").symlink_to("..")
    os.link(x, folder / "hard.phh")
    (folder / "again.phh").symlink_to("x.phh")
    (folder / "gone.phh").symlink_to("nowhere.phh")
    rc, out, err = hand(capsys, str(x), str(x), str(folder), str(folder / "sub"), "--json",
                        "--totals-only", "-q")
    assert rc == 0, err
    assert summary(out)["hands"] == 1 + 3
    assert {t["player"]: t["hands"] for t in json.loads(out)["totals"]}["Tom Dwan"] == 1
    warned = sorted(err.splitlines())
    assert warned == sorted([
        f"warning: skipped {x}: the same file as one already read",  # the second argument
        f"warning: skipped {x}: the same file as one already read",  # in the folder
        f"warning: skipped {folder / 'again.phh'}: the same file as one already read",
        f"warning: skipped {folder / 'hard.phh'}: the same file as one already read",
        f"warning: skipped {folder / 'gone.phh'}: a link to nothing (nowhere.phh)",
        f"warning: skipped {folder / 'self'}: a link to a folder already read ({folder})",
        f"warning: skipped {folder / 'sub' / 'up'}: a link to a folder already read "
        f"({folder})",
        f"warning: skipped {folder / 'sub'}: a folder already read",
    ]), err


def test_a_link_to_a_parent_ends(capsys, folder: Path):
    """Walking ``sub/up -> ..`` from ``sub`` reads the parent once and stops (it walked
    up/sub/up/... forever)."""
    (folder / "sub" / "up").symlink_to("..")
    rc, out, err = hand(capsys, str(folder / "sub"), "--json", "--totals-only", "-q")
    assert rc == 0 and summary(out)["hands"] == 3 + 1
    assert err == f"warning: skipped {folder / 'sub' / 'up' / 'sub'}: a link to a folder " \
                  f"already read ({folder / 'sub'})\n"


def _in_a_thread(argv: list[str], seconds: float = 120) -> int:
    got: list[int] = []
    t = threading.Thread(target=lambda: got.append(main(argv)), daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"{argv} did not end"
    return got[0]


def test_only_regular_files_are_read(capsys, tmp_path: Path):
    fifo = tmp_path / "pipe.phh"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo)):
        assert _in_a_thread(["hand", path]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err == (f"error: {path}: not a regular file (a device or pipe?); "
                                     "hand histories are read from files, folders or - "
                                     "(standard input)\n")
    d = tmp_path / "d"
    d.mkdir()
    shutil.copy(DWAN, d / "x.phh")
    os.mkfifo(d / "p.phh")
    assert _in_a_thread(["hand", str(d), "-q", "--totals-only"]) == 0
    out, err = capsys.readouterr()
    assert err == f"warning: skipped {d / 'p.phh'}: not a regular file (a device or pipe?)\n"
    assert out.splitlines()[-1].startswith("1 hand: 1 replayed")


def test_standard_input(capsys, monkeypatch):
    data = "".join(f"[{i}]\n{t}\n" for i, t in enumerate(synthetic_hands(4, seed=2), 1))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data.encode())))
    rc, out, err = hand(capsys, "-", "--json", "-q")
    assert rc == 0, err
    doc = json.loads(out)
    assert [h["source"] for h in doc["hands"]] == [f"<stdin>#{i}" for i in range(1, 5)]


def test_an_unreadable_input_is_named(capsys, tmp_path: Path):
    if os.geteuid() == 0:
        path = "/proc/self/mem"  # a regular file every read of which fails (EIO)
        if not Path(path).is_file():
            pytest.skip("no /proc/self/mem")
    else:
        f = tmp_path / "locked.phh"
        shutil.copy(DWAN, f)
        f.chmod(0)
        path = str(f)
    msg = one_error(*hand(capsys, path))
    assert msg.startswith(f"error: {path}: no hand could be read (cannot read file: ")


def _with_a_big_hand(path: Path) -> list[str]:
    hands = list(synthetic_hands(3, seed=4))
    big = hands[1].replace("\nactions", "\ncomment = '" + "q" * (1 << 20) + "'\nactions", 1)
    path.write_text(f"[1]\n{hands[0]}\n[2]\n{big}\n[3]\n{hands[2]}\n")
    return hands


def test_one_hand_is_bounded_and_the_rest_goes_on(capsys, tmp_path: Path):
    f = tmp_path / "c.phhs"
    _with_a_big_hand(f)
    line = f.read_text().splitlines().index("[2]") + 2
    rc, out, err = hand(capsys, str(f), "--json", "-q")
    assert rc == 1
    doc = json.loads(out)
    assert [h["error"] is None for h in doc["hands"]] == [True, False, True]
    assert err == f"error: {f}#2: the hand from line {line} is larger than 1 MiB\n"


@pytest.mark.slow  # worker processes (about 1.5 s)
def test_one_hand_is_bounded_on_workers_reading_byte_ranges(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch):
    """The same on worker processes, which read large files as byte ranges."""
    import simulate.replay.hand_files as A

    f = tmp_path / "c.phhs"
    _with_a_big_hand(f)
    line = f.read_text().splitlines().index("[2]") + 2
    monkeypatch.setattr(A, "RANGE_MIN_BYTES", 100)
    one = list(analyze(f))
    assert list(analyze(f, workers=2, chunk=1)) == one
    assert one[1]["error"] == f"the hand from line {line} is larger than 1 MiB"


def test_a_byte_range_is_read_in_bounded_memory(tmp_path: Path):
    """A worker reads its byte range a block at a time: a 24 MiB hand in it costs
    no more than the bound (it read the whole range into memory)."""
    import simulate.replay.hand_files as A

    f = tmp_path / "c.phhs"
    hands = list(synthetic_hands(2, seed=5))
    f.write_text(f"[1]\n{hands[0]}\n[2]\n# " + "x" * (24 << 20) + f"\n{hands[1]}\n")
    line = hands[0].count("\n") + 4
    r = A.PhhRange(str(f), 0, f.stat().st_size, 1)
    tracemalloc.start()
    try:
        items = A._range_items(r)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [it[0] for it in items] == [f"{f}#1", f"{f}#2"]
    assert items[1][2] == f"the hand from line {line} is larger than 1 MiB"
    assert peak < 4 << 20, peak


# ----------------------------------------------------------------------------- wording
def test_summary_wording(capsys, tmp_path: Path):
    rc, out, _ = hand(capsys, str(DWAN), "-q")
    assert rc == 0
    assert out.splitlines()[-1] == (
        "1 hand: 1 replayed (1 validated by the engine, 0 with an unknown showdown), "
        "0 with errors; no recorded finishing stacks to compare")
    f = tmp_path / "played.phhs"
    assert main(["play", "--players", "3", "--hands", "2", "--seed", "1", "--stacks", "100",
                 "--blinds", "1/2", "--phh", str(f), "--phh-hands", "2", "-q", "--json"]) == 0
    capsys.readouterr()
    rc, out, _ = hand(capsys, str(f), "-q", "--totals-only")
    assert rc == 0 and out.splitlines()[-1].endswith(
        "0 with errors; 2 of 2 match the recorded finishing stacks")


# ----------------------------------------------------------------------------- signals
def _big_folder(tmp_path: Path, copies: int = 8, hands: int = 4000) -> Path:
    d = tmp_path / "big"
    d.mkdir()
    write_synthetic_phhs(str(d / "0.phhs"), hands, seed=9)
    for i in range(1, copies):
        shutil.copy(d / "0.phhs", d / f"{i}.phhs")
    return d


@pytest.mark.slow
@pytest.mark.parametrize(("sig", "rc", "workers"), [(signal.SIGTERM, 143, 1),
                                                     (signal.SIGINT, 130, 1),
                                                     (signal.SIGINT, 130, 2)])
def test_signals_leave_no_temporary_file_and_no_half_json(tmp_path: Path, sig: int, rc: int,
                                                          workers: int):
    d = _big_folder(tmp_path)
    out = tmp_path / "out.csv"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-m", "simulate", "hand", str(d), "--csv", str(out),
                          "--json", "--workers", str(workers)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env, start_new_session=True,
                         preexec_fn=default_ctrl_c)
    try:
        t0 = time.monotonic()
        while not list(tmp_path.glob(".out.csv.*.tmp")):  # the work has started
            assert p.poll() is None and time.monotonic() - t0 < 300, p.stderr.read()
            time.sleep(0.01)
        time.sleep(0.3)
        os.killpg(p.pid, sig) if sig == signal.SIGINT else p.send_signal(sig)
        stdout, stderr = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == rc, stderr
    assert stdout == b""  # the JSON is written whole at the end, or not at all
    assert sorted(x.name for x in tmp_path.iterdir()) == ["big"]  # no CSV, no temporary
    assert b"Traceback" not in stderr
