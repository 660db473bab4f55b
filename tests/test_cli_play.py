"""simulate.cli.play: its options' one-line errors, the footer's counts and its note on the
time spent compiling (left out of the rates it prints)."""

from __future__ import annotations

import json

import pytest

from simulate.cli import main


@pytest.mark.parametrize("argv,message", [
    (["--blinds", "-1/2"], "error: --blinds needs a value (one that starts with '-' is written "
                           "--blinds=VALUE, e.g. --blinds=-1)\n"),
    (["--blinds=-1/2"], "error: --blinds must be SB/BB in chips, e.g. 1/2, got '-1/2'\n"),
    (["--bb-ante"], "error: --bb-ante needs --ante A: the ante the big blind posts for the "
                    "table\n"),
    (["--ante", "0", "--bb-ante"], "--bb-ante needs --ante"),
    # a trailing comma is a slip, not one stack; digits of other scripts are not chips
    (["--stacks", "100,"], "error: --stacks must be whole numbers of chips separated by "
                           "commas, got '100,'\n"),
    (["--stacks", "100,,200"], "got '100,,200'"),
    (["--stacks", "\u0661\u0660\u0660"], "--stacks must be whole numbers of chips"),
    (["--straddle", "4,"], "--straddle must be whole numbers of chips"),
    (["--blinds", "\u0661/\u0662"], "--blinds must be SB/BB in chips"),
    # an option that sizes a file no option asks for is a mistake, not ignored
    (["--phh-hands", "5"], "error: --phh-hands needs --phh FILE (the collection it sizes)\n"),
])
def test_play_option_errors_are_one_line(capsys, argv, message):
    assert main(["play", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message in err, err


def test_stacks_may_be_separated_by_commas_or_blanks(capsys):
    for stacks in ("100,200", "100, 200", "100 200"):
        assert main(["play", "--stacks", stacks, "--hands", "2", "--seed", "1", "-q",
                     "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["stacks"] == [100, 200]


def test_one_hand_is_one_hand(capsys):
    assert main(["play", "--hands", "1", "--seed", "1", "--quiet"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert ", 1 hand, " in head and ", 1 hands" not in head  # (a rate may end in "1 hands/s")
    assert main(["play", "--hands", "3", "--seed", "1", "--quiet"]) == 0
    assert ", 3 hands, " in capsys.readouterr().out


def test_the_footer_says_what_compiling_took(capsys, monkeypatch):
    """A first run's compile (here: as the compile clock would record it during play) is
    said in the footer, apart from the work's time and rate."""
    import evaluator._jit as J
    import simulate.engine as E

    real = E.play

    def compiling(*a, **k):
        J._clock.total += 40.0
        J._clock.compiling += 40.0
        return real(*a, **k)

    monkeypatch.setattr(E, "play", compiling)
    assert main(["play", "--hands", "100", "--seed", "1", "--quiet"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "hands/s) (+ 40.0 s compiling kernels, first run)" in head, head


@pytest.mark.parametrize("blinds", ["1/2", "1/3"])
def test_button_blind_and_blinds_together_are_refused(capsys, blinds):
    """--button-blind replaces --blinds: giving both is a contradiction, whatever the blinds
    (1/2, the default's value, too: it used to be ignored silently)."""
    assert main(["play", "--button-blind", "2", "--blinds", blinds, "--hands", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == "error: --button-blind replaces --blinds: give one of them\n"


def test_a_phh_file_phh_cannot_write_is_refused_before_the_work(capsys, monkeypatch, tmp_path):
    """short deck under pot-limit has no PHH variant code: --phh says so at once (it said so
    after the whole simulation had run, its results never printed)."""
    import simulate.engine as S

    def never(*a, **k):  # type: ignore[no-untyped-def]
        raise AssertionError("played before the options were checked")

    monkeypatch.setattr(S, "play", never)
    out = tmp_path / "x.phhs"
    assert main(["play", "--game", "short_deck", "--betting", "pot-limit", "--button-blind",
                 "2", "--ante", "1", "--players", "3", "--hands", "1000",
                 "--phh", str(out)]) == 2
    assert capsys.readouterr().err == ("error: --phh: PHH has no variant code for short_deck "
                                       "pot-limit\n")
    assert not out.exists()


def test_phh_is_streamed_to_its_file_as_the_collection_would_be_written(tmp_path):
    """``--phh``: the hands go to a temporary file beside the target a hand at a time
    (renamed into place at the end; never the whole collection held in memory), the same
    text as the collection written in one piece."""
    import io

    from simulate.engine import Rules
    from simulate.engine.self_play import replay_hands
    from simulate.notation.phh_write import write_phhs

    out = tmp_path / "h.phhs"
    assert main(["play", "--players", "3", "--hands", "40", "--seed", "7", "--policy",
                 "random", "--phh", str(out), "--phh-hands", "25", "-q"]) == 0
    want = io.StringIO()
    write_phhs(replay_hands(Rules(blinds=(1, 2)), [400] * 3, 25, policy=["random"] * 3,
                            seed=7), want)
    assert out.read_text() == want.getvalue()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.phhs"]  # no temporary left
