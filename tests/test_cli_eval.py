import json
import subprocess
import sys

import pytest

from simulate.cli import main


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simulate", *args], capture_output=True,
                          text=True, timeout=120)


def test_eval_text(capsys):
    assert main(["eval", "AsKsQsJsTs"]) == 0
    out = capsys.readouterr().out
    assert "Royal Flush" in out and "7462" in out


def test_eval_json(capsys):
    assert main(["eval", "Ah", "Ad", "4c", "4s", "Kh", "2d", "3c", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["strength"] == 4896 and d["category"] == "Two Pair"
    assert d["text"] == "Two Pair, Aces and Fours, King kicker"
    assert d["best_five"] == "Ah Ad 4s 4c Kh"


def test_eval_with_board(capsys):
    assert main(["eval", "AhKh", "--board", "QhJhTh", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["text"] == "Royal Flush"


@pytest.mark.parametrize(
    "args, message",
    [
        (["eval", "AhAh2c3d4s"], "error: duplicate card Ah in cards"),
        (["eval", "AhKx2c3d4s"], "error: 'Kx' in cards is not a card"),
        (["eval", "AhKh2c3d"], "error: expected 5, 6 or 7 cards, got 4"),
        (["eval", "AhKh", "--board", "Ah2c3d"], "error: duplicate card Ah in cards and board"),
    ],
)
def test_eval_errors(args, message):
    r = run(*args)
    assert r.returncode == 2
    assert r.stderr.strip() == message
    assert r.stdout == ""


def test_no_command_and_unknown_option():
    r = run()
    assert r.returncode == 2
    r = run("eval", "--bogus", "AsKsQsJsTs")
    assert r.returncode == 2 and r.stderr.startswith("error: ")
    assert len(r.stderr.strip().splitlines()) == 1


def test_help_lists_commands():
    r = run("-h")
    assert r.returncode == 0 and "eval" in r.stdout


@pytest.mark.parametrize("game", ["omaha_hilo", "omaha5_hilo", "omaha5"])
def test_eval_json_names_the_game_asked(capsys, game):
    """The JSON's game is the one asked for, not the describer's family (``omaha``)."""
    hole = "Ah2h3c4d" + ("5s" if "5" in game else "")
    assert main(["eval", hole, "--board", "6c7d9sKh", "--game", game, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == game
