"""simulate.cli.play: its options' one-line errors, the footer's counts and its note on the
time spent compiling (left out of the rates it prints)."""

from __future__ import annotations

import pytest

from simulate.cli import main


@pytest.mark.parametrize("argv,message", [
    (["--blinds", "-1/2"], "error: --blinds needs a value (one that starts with '-' is written "
                           "--blinds=VALUE, e.g. --blinds=-1)\n"),
    (["--blinds=-1/2"], "error: --blinds must be SB/BB in chips, e.g. 1/2, got '-1/2'\n"),
    (["--bb-ante"], "error: --bb-ante needs --ante A: the ante the big blind posts for the "
                    "table\n"),
    (["--ante", "0", "--bb-ante"], "--bb-ante needs --ante"),
])
def test_play_option_errors_are_one_line(capsys, argv, message):
    assert main(["play", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message in err, err


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
