"""Every command that takes a game takes the one list (simulate.games.GAMES) with its help
from games_help(); what a command does with a game it cannot play is said in one line."""

from __future__ import annotations

import json

import pytest

from simulate.cli import build_parser, main
from simulate.games import GAMES, games_help

GAME_COMMANDS = ("equity", "allin", "eval", "play", "batch", "range")


def _game_action(command: str):
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    return next(a for a in sub.choices[command]._actions if a.dest == "game")


@pytest.mark.parametrize("command", GAME_COMMANDS)
def test_every_game_command_takes_the_one_list(command):
    action = _game_action(command)
    assert tuple(action.choices) == tuple(GAMES)
    assert games_help() in action.help


def test_the_commands_without_a_game_are_hold_em_only():
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    for command in ("chart",):  # the preflop chart: Hold'em's 169 classes
        assert not any(a.dest == "game" for a in sub.choices[command]._actions)


def test_range_takes_the_games_with_ranges_and_refuses_the_others(capsys):
    assert main(["range", "AA", "--vs", "KK", "--game", "omaha"]) == 2
    assert capsys.readouterr().err == "error: ranges are for Hold'em games, not omaha\n"


def test_equity_help_names_every_family(capsys):
    with pytest.raises(SystemExit):
        main(["equity", "-h"])
    text = " ".join(capsys.readouterr().out.split())
    assert "Hold'em or Omaha" not in text and "Pineapple" in text and "omaha6" in text


def test_allin_plays_omaha5_and_omaha6(capsys):
    assert main(["allin", "AhAsKhKsQd:100", "2c2d3c3d4h:60", "--game", "omaha5",
                 "--samples", "2000", "--seed", "1", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["game"] == "omaha5" and d["samples"] == 2000
    assert main(["allin", "AhAsKhKs:100", "2c2d3c3d4h:60", "--game", "omaha5"]) == 2
    err = capsys.readouterr().err
    assert err == "error: seat 0 has 4 cards; omaha5 hands have 5\n"


def test_eval_scores_a_pineapple_hand_as_holdem_and_says_so(capsys):
    assert main(["eval", "AhKh", "--board", "QhJhTh", "--game", "pineapple"]) == 0
    out = capsys.readouterr().out
    assert "Royal Flush" in out or "Straight Flush" in out
    assert "scored as Hold'em" in out
    assert main(["eval", "AhKh2c", "--game", "crazy_pineapple"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "kept after the discard" in err


def test_batch_game_default_takes_the_pineapple_games(tmp_path):
    from simulate.batch import run_batch

    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text(json.dumps({"id": 1, "hands": ["AhKh2c", "7s7d8c"], "board": "Ks8h3c",
                               "samples": 2000, "seed": 1}) + "\n")
    s = run_batch(src, out, quiet=True, defaults={"game": "crazy_pineapple"})
    rec = json.loads(out.read_text())
    assert (s.done, s.errors) == (1, 0) and rec["result"]["game"] == "crazy_pineapple"


def test_a_game_name_in_any_case_is_one_rule_everywhere(capsys):
    """The CLI reads ``--game`` by the rule the API, batch, all-in and the engine's Rules
    use (:func:`simulate.games.check_game`: any case, spaces ignored)."""
    import simulate
    from simulate.engine import Rules

    assert main(["equity", "AhKh", "QsQd", "--game", "SHORT_DECK", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == "short_deck"
    assert main(["allin", "AhKh:10", "QsQd:10", "--game", " Short_Deck", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == "short_deck"
    assert simulate.equity(["AhKh", "QsQd"], game="SHORT_DECK").game == "short_deck"
    assert simulate.allin_ev(["AhKh:10", "QsQd:10"], game="SHORT_DECK").game == "short_deck"
    assert Rules(game="SHORT_DECK").game is GAMES["short_deck"]
    assert main(["equity", "AhKh", "QsQd", "--game", "razz"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown game 'razz' (expected one of: holdem" in err


def test_the_short_deck_grid_shows_its_nine_ranks(capsys):
    """``range`` prints a 9 x 9 grid for short deck (A to 6: no rows or columns of 5 to 2);
    Hold'em keeps 13 x 13."""
    assert main(["range", "AA,KK", "--vs", "random", "--game", "short_deck"]) == 0
    grid = capsys.readouterr().out.split("by hand class:\n")[1].splitlines()
    assert grid[0].split() == list("AKQJT9876") and len(grid) == 10
    assert [line.split()[0] for line in grid[1:]] == list("AKQJT9876")
    assert main(["range", "AA,KK", "--vs", "QQ"]) == 0
    grid = capsys.readouterr().out.split("by hand class:\n")[1].splitlines()
    assert grid[0].split() == list("AKQJT98765432") and len(grid) == 14
