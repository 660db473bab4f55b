"""Bad site input through ``pokerjit hand``: a folder of a good PokerStars hand beside a
truncated one, one whose chips do not add up, one where a folded player acts, one played out
of turn, a 50 MB line, a binary file and a text in no format. Each bad hand is one
``error:`` line naming its file and hand, each non-hand file one ``warning:`` line, the
good hands are all replayed, and the exit status is the contract's 1 (some hands had
errors); nothing else is lost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from site_samples import sample

BASIC = ("PokerHandHistoryParser/HandHistories.Parser.UnitTests/SampleHandHistories/"
         "PokerStars/CashGame/HandActionTests/BasicHand.txt")
FLOP = "*** FLOP *** [Th Kh Ac]\n"


def _folder(tmp_path: Path) -> Path:
    good = sample(BASIC).read_text(encoding="utf-8-sig")
    assert FLOP + "H6U5r: checks \nNightfox82: checks " in good
    files = {
        "good.txt": good,
        # a hand cut before its summary, then a whole one
        "cut.txt": good[:good.index("*** SUMMARY ***")] + "\n\n" + good,
        # the winner's collection a dollar more than the pot holds
        "sums.txt": good.replace("collected $1.81", "collected $2.81", 1),
        # a player who folded before the flop checks on the river
        "folded.txt": good.replace("[8h]\n", "[8h]\nLovID: checks \n", 1),
        # the flop's two checks in the wrong order: the chips add up, the rules refuse it
        "turn.txt": good.replace(FLOP + "H6U5r: checks \nNightfox82: checks ",
                                 FLOP + "Nightfox82: checks \nH6U5r: checks ", 1),
        "notes.txt": "hello world\nnot a hand history\n",
    }
    d = tmp_path / "hands"
    d.mkdir()
    for name, text in files.items():
        (d / name).write_text(text, encoding="utf-8")
    (d / "long.txt").write_bytes(b"x" * (50 << 20))  # one 50 MB line
    # binary, though its first line reads as a PHH section header (random bytes do, about
    # once in 300 files): a control character TOML forbids says it is not PHH
    (d / "blob.bin").write_bytes(b"[1]\nx = " + os.urandom(1 << 16))
    return d


def test_each_bad_hand_and_file_is_one_line_and_the_rest_is_replayed(tmp_path: Path) -> None:
    d = _folder(tmp_path)
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(root), *filter(None, [os.environ.get("PYTHONPATH")])]))
    r = subprocess.run([sys.executable, "-m", "simulate", "hand", ".", "--json"], cwd=d,
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stderr
    lines = r.stderr.strip().splitlines()
    assert "Traceback" not in r.stderr
    errors = sorted(x for x in lines if x.startswith("error: "))
    assert [e.split(": ")[1] for e in errors] == ["cut.txt:1", "folded.txt:1", "sums.txt:1"]
    assert "truncated" in errors[0] and "do not add up" in errors[2]
    assert "folded" in errors[1] and "= LovID]" in errors[1]  # the seat named as printed
    skipped = sorted(x for x in lines if x.startswith("warning: skipped"))
    assert [s.split()[2].rstrip(":") for s in skipped] == ["blob.bin", "long.txt", "notes.txt"]
    assert len(lines) == len(errors) + len(skipped)
    doc = json.loads(r.stdout)
    by_file = {}
    for h in doc["hands"]:
        by_file.setdefault(h["source"].split(":")[0], []).append(h)
    # the good hands: good.txt's and the whole hand after cut.txt's truncated one
    good = [h for h in by_file["good.txt"] + by_file["cut.txt"] if h["error"] is None]
    assert len(good) == 2 and all(h["validated"] for h in good)
    assert all(h["winnings"] == good[0]["winnings"] for h in good)
    # out of turn: the site's record stands on its chips, not validated, saying why
    (turn,) = by_file["turn.txt"]
    assert turn["error"] is None and turn["validated"] is False
    assert "not to act" in turn["not_validated"] and "Nightfox82" in turn["not_validated"]
