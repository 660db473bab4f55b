"""simulate.games: the one table of games, and the lists derived from it."""

import pytest

from simulate import engine, request
from simulate.games import GAMES, check_game, game_names, games_help
from simulate.notation import phh_write as write
from simulate.replay import hand_replay as replay


def test_every_game_has_a_family_and_hole_cards():
    for name, g in GAMES.items():
        assert g.name == name
        assert g.family in ("holdem", "omaha", "pineapple")
        assert g.kept == (2 if g.is_pineapple else g.hole_cards)
        assert (g.discard_after is not None) == g.is_pineapple


def test_derived_lists_follow_the_table():
    assert request.GAMES is GAMES and not hasattr(engine, "GAMES")  # the one table
    assert set(engine.HOLDEM_LIKE) == set(GAMES) - set(game_names("omaha"))
    codes = {**replay.ENGINE_VARIANTS}
    assert codes == {code: (n, b) for (n, b), code in write._VARIANTS.items()}
    assert replay.ENGINE_VARIANTS["NT"] == ("holdem", "no-limit")
    assert replay.ENGINE_VARIANTS["FCP"] == ("crazy_pineapple", "fixed-limit")


def test_check_game_is_case_blind_and_names_the_games():
    assert check_game(" Omaha5 ").hole_cards == 5
    with pytest.raises(ValueError, match="unknown game 'stud'.*holdem"):
        check_game("stud")
    assert all(n in games_help() for n in GAMES)
