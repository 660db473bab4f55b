"""simulate/cli/_util.py: the one table formatter and the one way every command writes a file.

* Tables: a label column stays left-aligned whatever its labels start with (``99``, ``2c2d``);
  number columns are right-aligned, decided per column (the old formatter decided per cell,
  so a range named ``99`` jumped to the right).
* Output files (``range --csv/--png``, ``chart -o``): one wording for a missing folder, a
  folder given as the file, a read-only place and a special file, always naming the user's
  path (never an internal temporary file), checked before the work, nothing half-written;
  ``-`` writes to standard output.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simulate.cli import main
from simulate.cli._util import is_number_text, table


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def one_error(rc: int, out: str, err: str) -> str:
    assert rc == 2 and out == "", (rc, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in err, err
    return lines[0]


# ----------------------------------------------------------------------------- tables
def _cols(text: str, row: int) -> list[str]:
    return text.splitlines()[row].split("  ")


def test_labels_stay_left_whatever_they_start_with():
    t = table([["99", "6", "81.5%"], ["2c2d", "1", "51.2%"], ["AKs", "4", "46.0%"]],
              ["range", "combos", "equity"])
    lines = t.splitlines()
    assert [ln[:4] for ln in lines[2:]] == ["99  ", "2c2d", "AKs "]  # labels: left
    end = lines[0].index("combos") + len("combos") - 1  # numbers: right-aligned
    assert lines[2][end] == "6" and lines[3][end] == "1" and lines[4][end] == "4"
    assert all(ln.endswith("%") and len(ln) == len(lines[0]) for ln in lines[2:])
    assert lines[0].startswith("range ") and lines[0].endswith("equity")


def test_a_column_of_number_like_labels_is_left_when_told():
    t = table([["99", "81.5%"], ["88", "1.5%"]], ["range", "equity"], align="lr")
    assert [ln.split()[0] for ln in t.splitlines()[2:]] == ["99", "88"]
    assert t.splitlines()[2:] == ["99      81.5%", "88       1.5%"]
    with pytest.raises(ValueError, match="align"):
        table([["a"]], ["x"], align="lr")


@pytest.mark.parametrize("text,number", [
    ("12", True), ("-3.5", True), ("46.21%", True), ("±0.41%", True), ("1,712,304", True),
    ("2.56x", True), ("39.5 ms", True), ("253M hands/s", True), ("1e-05", True),
    ("2c2d", False), ("AKs", False), ("top 20%", False), ("K-high", False), ("QQ+", False),
])
def test_number_cells(text, number):
    assert is_number_text(text) is number


def test_cli_tables_keep_their_columns(capsys):
    rc, out, _ = run(capsys, "range", "99", "--vs", "3c3d", "--board", "Ks8h2c7d")
    assert rc == 0
    rows = out.splitlines()
    head = rows[0]
    assert head.index("range") == rows[2].index("99") == rows[3].index("3c3d")


# ----------------------------------------------------------------------------- output places
@pytest.fixture
def read_only(tmp_path: Path):
    """A folder nothing can be created in, even by root (modes, else the immutable bit,
    else /sys, which refuses new files on Linux)."""
    d = tmp_path / "ro"
    d.mkdir()
    d.chmod(0o555)
    immutable = False
    if _writable(d) and shutil.which("chattr"):
        immutable = subprocess.run(["chattr", "+i", str(d)], capture_output=True).returncode == 0
    place = d if not _writable(d) else Path("/sys")
    assert not _writable(place), "no read-only place on this machine"
    yield place
    if immutable:
        subprocess.run(["chattr", "-i", str(d)], check=True)
    d.chmod(0o755)


def _writable(d: Path) -> bool:
    try:
        (d / ".probe").write_text("x")
    except OSError:
        return False
    (d / ".probe").unlink()
    return True


def _commands(path: str) -> list[tuple[list[str], str]]:
    return [
        (["range", "AKs", "--vs", "QQ", "--board", "Ks8h2c7d", "--csv", path], "--csv"),
        (["range", "AKs", "--vs", "QQ", "--board", "Ks8h2c7d", "--png", path], "--png"),
        (["chart", "--opponents", "2", "--samples", "10", "-q", "-o", path], "-o"),
        (["chart", "--opponents", "2", "--samples", "10", "-q", "--json", "-o", path], "-o"),
    ]


def test_one_wording_for_every_bad_place(capsys, tmp_path: Path, read_only: Path):
    pytest.importorskip("matplotlib")
    (tmp_path / "file").write_text("x")
    cases = {
        "missing folder": (tmp_path / "no" / "out.csv", "no such folder '{}'".format(
            tmp_path / "no")),
        "folder as file": (tmp_path, "is a folder, not a file"),
        "parent is a file": (tmp_path / "file" / "out.csv", "is not a folder"),
        "read-only place": (read_only / "out.csv", "cannot write there ("),
        "trailing slash, no folder": (str(tmp_path / "out") + "/", "names a folder"),
        "trailing slash, a folder": (str(tmp_path) + "/", "is a folder, not a file"),
        "trailing slash, a file": (str(tmp_path / "file") + "/", "names a folder"),
    }
    for what, (path, reason) in cases.items():
        for argv, option in _commands(str(path)):
            msg = one_error(*run(capsys, *argv))
            assert msg.startswith(f"error: {option} {path}: "), (what, msg)
            assert reason in msg, (what, msg)
            assert ".tmp" not in msg
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "ro"]


@pytest.mark.slow
def test_devices_and_standard_output_are_written_in_place(capsys, tmp_path: Path):
    """A device (``/dev/null``) or ``/dev/stdout`` is opened and written, not replaced
    through a temporary file (which failed: 'cannot write there (no such file...)')."""
    pytest.importorskip("matplotlib")
    assert Path(os.devnull).is_char_device()
    for argv, _ in _commands(os.devnull):
        rc, _, err = run(capsys, *argv)
        assert rc == 0 and "error" not in err, (argv, err)
    assert Path(os.devnull).is_char_device()
    argv = ["range", "AKs", "--vs", "QQ", "--board", "Ks8h2c7d", "--csv", "/dev/stdout"]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    got = subprocess.run([sys.executable, "-m", "simulate", *argv], capture_output=True,
                         text=True, env=env, timeout=300)
    assert got.returncode == 0, got.stderr
    assert "player,range,combo,hand,weight,share,equity" in got.stdout.splitlines()
    with open(tmp_path / "out.txt", "w") as fh:  # stdout redirected to a file
        got = subprocess.run([sys.executable, "-m", "simulate", *argv], stdout=fh,
                             stderr=subprocess.PIPE, text=True, env=env, timeout=300)
    assert got.returncode == 0, got.stderr
    lines = (tmp_path / "out.txt").read_text().splitlines()
    assert lines.count("player,range,combo,hand,weight,share,equity") == 1
    assert any(ln.startswith("#  range") for ln in lines)  # the table, kept beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_two_outputs_to_one_place_are_refused(capsys, tmp_path: Path):
    pytest.importorskip("matplotlib")
    same = str(tmp_path / "same.png")
    msg = one_error(*run(capsys, "range", "AKs", "--vs", "QQ", "--csv", same, "--png", same))
    assert msg == (f"error: --csv and --png would both write to the same file ({same}); "
                   "name another file for one of them")
    msg = one_error(*run(capsys, "range", "AKs", "--vs", "QQ", "--png",
                         str(tmp_path / "grid.phh")))
    assert msg.endswith("matplotlib cannot write .phh files")
    assert list(tmp_path.iterdir()) == []


def test_output_files_get_the_mode_of_an_ordinary_file(capsys, tmp_path: Path, two_hands):
    old = os.umask(0o022)
    try:
        out = tmp_path / "chart.csv"
        assert run(capsys, "chart", "--opponents", "2", "--samples", "10", "-q", "-o",
                   str(out))[0] == 0
        assert out.stat().st_mode & 0o777 == 0o644
        out.chmod(0o600)  # an existing file keeps its mode, as open() keeps it
        assert run(capsys, "chart", "--opponents", "2", "--samples", "10", "-q", "-o",
                   str(out))[0] == 0
        assert out.stat().st_mode & 0o777 == 0o600
    finally:
        os.umask(old)


def test_errors_name_the_users_path_not_a_temporary_file(capsys):
    # /proc takes no new files: the write used to fail on '/proc/.x.csv.<pid>.tmp'
    msg = one_error(*run(capsys, "range", "AKs", "--vs", "QQ", "--board", "Ks8h2c7d",
                         "--csv", "/proc/x.csv"))
    assert msg.startswith("error: --csv /proc/x.csv: cannot write there") and ".tmp" not in msg


@pytest.fixture
def two_hands(monkeypatch):
    """The chart over two hands instead of 169 (each sampled hand is one run)."""
    import simulate.ranges

    monkeypatch.setattr(simulate.ranges, "HAND_CLASSES", ("AA", "72o"))


def test_dash_writes_to_standard_output(capsys, two_hands):
    rc, out, err = run(capsys, "chart", "--opponents", "2", "--samples", "10", "--seed", "1",
                       "-q", "-o", "-")
    assert rc == 0 and err == ""
    assert out.startswith("hand,opponents,equity,std_error,exact\nAA,2,")
    rc, out, _ = run(capsys, "range", "AKs", "--vs", "QQ", "--board", "Ks8h2c7d", "--csv", "-")
    assert rc == 0
    assert out.splitlines()[0] == "player,range,combo,hand,weight,share,equity"
    assert len(out.splitlines()) == 1 + 3 + 6  # the live combos only, no table
    msg = one_error(*run(capsys, "range", "AKs", "--vs", "QQ", "--csv", "-", "--json"))
    assert "standard output" in msg


def test_files_are_written_whole(capsys, tmp_path: Path, two_hands):
    out = tmp_path / "chart.csv"
    out.write_text("old contents\n")
    rc, _, err = run(capsys, "chart", "--opponents", "2", "--samples", "10", "--seed", "1",
                     "-q", "-o", str(out))
    assert rc == 0 and f"wrote {out}" in err
    assert out.read_text().splitlines()[0] == "hand,opponents,equity,std_error,exact"
    assert [ln.split(",")[0] for ln in out.read_text().splitlines()[1:]] == ["AA", "72o"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chart.csv"]  # no temporary left


def test_a_link_is_written_through(capsys, tmp_path: Path, two_hands):
    target = tmp_path / "real.csv"
    target.write_text("old\n")
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    rc, _, _ = run(capsys, "chart", "--opponents", "2", "--samples", "10", "-q", "-o", str(link))
    assert rc == 0 and link.is_symlink()
    assert target.read_text().startswith("hand,opponents,")


def test_plural():
    from simulate.cli._util import plural

    assert [plural(n, "hand") for n in (0, 1, 2, 1000)] == [
        "0 hands", "1 hand", "2 hands", "1,000 hands"]
    assert plural(1, "runout") == "1 runout" and plural(2, "box", "boxes") == "2 boxes"


def test_the_compile_notice_shows_when_pokerjit_runs_as_a_program(monkeypatch):
    """Run as the program (a log or a pipe on stderr too), a first run says it compiles;
    main() called with an argument list by another program says it on a terminal only."""
    import io
    import sys

    import simulate.cli as C

    log = io.StringIO()
    monkeypatch.setattr(sys, "stderr", log)
    monkeypatch.setattr(C, "_AS_PROGRAM", [True])
    C._announce_compiling()
    assert log.getvalue().startswith("compiling pokerjit's kernels (")
    assert "pokerjit warmup" in log.getvalue() and log.getvalue().count("\n") == 1
    monkeypatch.setattr(C, "_AS_PROGRAM", [False])
    C._announce_compiling()
    assert log.getvalue().count("\n") == 1


def test_a_trailing_slash_names_a_folder_for_every_command(capsys, tmp_path: Path):
    """``-o out/``, ``--phh out/``...: refused before any work (a file named ``out`` was
    written), and so is a folder given as the file."""
    src = tmp_path / "in.jsonl"
    src.write_text('{"id": 1, "hands": ["AhKh", "QsQd"]}\n')
    out = str(tmp_path / "out") + "/"
    for argv, option in [
            (["play", "--players", "2", "--hands", "5", "-q", "--phh", out], "--phh"),
            (["batch", str(src), "-o", out, "--quiet"], "-o"),
            *_commands(out)]:
        if option == "--png" and not _has_matplotlib():
            continue
        msg = one_error(*run(capsys, *argv))
        assert msg == (f"error: {option} {out}: names a folder (the trailing '/'), and there "
                       f"is no folder '{tmp_path / 'out'}'"), (argv, msg)
        folder = str(tmp_path) + "/"
        msg = one_error(*run(capsys, *[folder if a == out else a for a in argv]))
        assert msg.endswith("is a folder, not a file"), (argv, msg)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl"]


def _has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def test_batch_refuses_its_input_as_output_through_a_link(capsys, tmp_path: Path):
    src = tmp_path / "in.jsonl"
    src.write_text('{"id": 1, "hands": ["AhKh", "QsQd"]}\n')
    (tmp_path / "alias.jsonl").symlink_to(src)
    msg = one_error(*run(capsys, "batch", str(src), "-o", str(tmp_path / "alias.jsonl")))
    assert msg == (f"error: -o {tmp_path / 'alias.jsonl'}: is the input file '{src}'; "
                   "writing it would overwrite the input")
    assert src.read_text() == '{"id": 1, "hands": ["AhKh", "QsQd"]}\n'


HUGE = "9" * 5000  # past Python's 4,300-digit limit on int(text)


@pytest.mark.parametrize("argv,message", [
    (["allin", f"AhKh:{HUGE}", "QsQd:10"], "seat 0: chips is too large: a number of 5,000 digits"),
    (["allin", "AhKh:10", "QsQd:10", "--dead-money", HUGE],
     "--dead-money is too large: a number of 5,000 digits"),
    (["allin", "AhKh:10", "QsQd:10", "--button", HUGE], "--button is too large"),
    (["play", "--blinds", f"1/{HUGE}"], "--blinds is too large: a number of 5,000 digits"),
    (["play", "--stacks", HUGE], "--stacks is too large: a number of 5,000 digits"),
    (["equity", "AhKh", "QsQd", "--seed", HUGE],
     "argument --seed: invalid int value: '" + "9" * 40 + "...' (5,000 characters)"),
])
def test_a_number_of_thousands_of_digits_is_one_short_line(capsys, argv, message):
    """A 5,000-digit number is named as too large in a line of its own, not Python's advice
    on ``sys.set_int_max_str_digits`` nor the number echoed whole."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message in err and len(err) < 200, err
    assert "set_int_max_str_digits" not in err


def test_the_api_names_a_huge_number_without_writing_it():
    import simulate
    from simulate.documents import error_line

    for call in (lambda: simulate.equity(["AhKh", "QsQd"], samples=10**5000),
                 lambda: simulate.allin_ev([("AhKh", 10**5000), ("QsQd", 5)]),
                 lambda: simulate.allin_ev([f"AhKh:{HUGE}", "QsQd:5"])):
        with pytest.raises(ValueError, match="digits") as e:
            call()
        assert "set_int_max_str_digits" not in str(e.value) and len(str(e.value)) < 200
    limit = ValueError("Exceeds the limit (4300 digits) for integer string conversion: value "
                       "has 5000 digits; use sys.set_int_max_str_digits() to increase the limit")
    assert error_line(limit) == "a number is too large (thousands of digits)"
