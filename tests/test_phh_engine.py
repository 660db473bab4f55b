"""PHH histories through the rules engine: every Hold'em/Omaha sample is validated and
reproduces its record; deliberately broken histories fail naming the action; gaps of real
exports (inf stacks, hidden cards, decimal amounts, wrong recorded winnings) are handled."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import stud_hand

from simulate.notation.phh_read import HandHistory, iter_hands, parse_text
from simulate.replay.hand_replay import ENGINE_VARIANTS, replay

DATA = Path(__file__).resolve().parent / "data" / "phh"

BASE = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
starting_stacks = [{s1}, {s2}, {s3}]
actions = [{actions}]
"""
DEAL = "'d dh p1 AcAd', 'd dh p2 KcKd', 'd dh p3 7h2s'"


def run(actions: str, s1: str = "1000", s2: str = "1000", s3: str = "1000", **extra: str):
    text = BASE.format(actions=actions, s1=s1, s2=s2, s3=s3)
    text += "".join(f"{k} = {v}\n" for k, v in extra.items())
    [(src, h)] = parse_text(text, "t.phh")
    assert isinstance(h, HandHistory), h
    return replay(h, src)


def test_every_engine_sample_is_validated_and_matches_its_record() -> None:
    seen = {"NT": 0, "FT": 0, "PO": 0, "NS": 0, "FO/8": 0}
    validated = {"NS": 0}
    unpostable = 0
    for src, h in iter_hands(DATA):
        if not isinstance(h, HandHistory) or h.variant not in ENGINE_VARIANTS:
            continue
        r = replay(h, src)
        assert r.error is None, (src, r.error)
        assert r.matches_record in (True, None), (src, r.finishing_stacks)
        if not r.validated:  # one WSOP FO/8 hand has a single blind: the accounting alone
            assert h.variant == "FO/8" and "no big blind" in r.not_validated, src
            unpostable += 1
            continue
        seen[h.variant] += r.matches_record is True
        validated[h.variant] = validated.get(h.variant, 0) + 1
    assert seen["NT"] >= 120 and seen["FT"] >= 5 and seen["PO"] >= 5 and seen["FO/8"] >= 10
    assert unpostable <= 1
    assert validated["NS"] >= 1  # short deck (Triton London 2019: a button blind)


def test_a_good_hand_is_validated() -> None:
    r = run(f"{DEAL}, 'p3 f', 'p1 cbr 30', 'p2 cc', 'd db 2d3d4h', 'p1 cbr 50', 'p2 f'")
    assert r.error is None and r.validated and r.outcome_known
    assert r.finishing_stacks == [1030, 970, 1000] and r.net == [30, -30, 0]


@pytest.mark.parametrize("actions, message", [
    (f"{DEAL}, 'p3 f', 'p1 cbr 2000'", "action 5 'p1 cbr 2000': p1 cannot raise to 2000: "
                                         "the stack allows at most 1000"),
    (f"{DEAL}, 'p3 f', 'p1 cbr 12'", "action 5 'p1 cbr 12': p1 cannot raise to 12: "
                                       "the minimum is 20"),
    (f"{DEAL}, 'p3 cc', 'p1 f', 'p2 cc', 'd db 2d3d4h', 'p1 cc'", "action 8 'p1 cc'"),
    (f"{DEAL}, 'p3 f', 'p1 cc', 'p2 cc', 'd db 2d3dAc'", "card Ac is dealt twice"),
    ("'d dh p1 AcAd', 'd dh p2 AcKd', 'd dh p3 7h2s'", "card Ac is dealt twice"),
    (f"{DEAL}, 'p3 f', 'p1 cc', 'p2 cc', 'd db 2d3d4h', 'p1 cc', 'p2 cc', 'd db 5s', "
     "'p1 cc', 'p2 cc', 'd db 9c', 'p1 cc', 'p2 cc', 'p1 sm AcAh', 'p2 sm KcKd'",
     "action 16 'p1 sm AcAh': p1 was dealt AcAd, not AcAh"),
    (f"{DEAL}, 'p3 f', 'p1 cc', 'p2 cc', 'd db 2d3d'", "the flop is 3 cards, got 2"),
    (f"{DEAL}, 'p3 f', 'p1 cc', 'p2 cc', 'd db 2d3d4h', 'p2 cc'",
     "action 8 'p2 cc': player p2 is not to act; p1 is"),
    (f"{DEAL}, 'p3 f', 'p1 cbr 30', 'd db 2d3d4h'", "action 6 'd db 2d3d4h': no board cards"),
    (f"{DEAL}, 'p3 f', 'p1 cbr 30'", "the history stops before the hand is over (p2 is to act)"),
])
def test_broken_histories_fail_naming_the_action(actions: str, message: str) -> None:
    r = run(actions)
    assert r.error is not None and message in r.error, r.error
    assert "\n" not in r.error and r.finishing_stacks is None


def test_a_fold_facing_a_check_is_binding() -> None:
    """TDA "Non-Standard Folds": folding in turn facing a check is a binding fold, so a
    record that has one is replayed (the engine never offers it, see test_engine_rules)."""
    r = run(f"{DEAL}, 'p3 cc', 'p1 cc', 'p2 cc', 'd db 2d3d4h', 'p1 cc', 'p2 cc', 'p3 f', "
            "'d db 5s', 'p1 cc', 'p2 cc', 'd db 9c', 'p1 cc', 'p2 cc', 'p1 sm AcAd', "
            "'p2 sm KcKd'")
    assert r.error is None and r.validated, (r.error, r.not_validated)
    assert r.finishing_stacks == [1020, 990, 990]


def test_one_broken_hand_does_not_stop_the_others() -> None:
    good = BASE.format(actions=f"{DEAL}, 'p3 f', 'p1 f'", s1=100, s2=100, s3=100)
    bad = BASE.format(actions=f"{DEAL}, 'p3 f', 'p1 cbr 500'", s1=100, s2=100, s3=100)
    items = parse_text(f"[1]\n{good}\n[2]\n{bad}\n[3]\n{good}\n", "c.phhs")
    out = [replay(h, s) for s, h in items]
    assert [r.error is None for r in out] == [True, False, True]
    assert out[2].finishing_stacks == [95, 105, 100]


def test_a_skipped_fold_is_repaired_but_a_skipped_check_is_not() -> None:
    r = run(f"{DEAL}, 'p1 cbr 30', 'p2 f'")          # p3 (first to act) never acted
    assert r.error is None and r.repairs == ["'p3 f' inserted before action 4"]
    assert r.finishing_stacks == [1010, 990, 1000]
    r = run(f"{DEAL}, 'p3 cc', 'p1 cc', 'p2 cc', 'd db 2d3d4h', 'p2 cc'")
    assert "not to act" in (r.error or "")


def test_unknown_stacks_are_validated_with_null_finishing_stacks() -> None:
    r = run(f"{DEAL}, 'p3 f', 'p1 cbr 30', 'p2 cbr 90', 'p1 cc', 'd db 2d3d4h', 'p1 cbr 900', "
            "'p2 f'", s1="inf", s3="inf")
    assert r.error is None and r.validated
    assert r.finishing_stacks == [None, 910, None] and r.net == [90, -90, 0]
    assert r.starting_stacks == [None, 1000, None]
    r = run(f"{DEAL}, 'p3 f', 'p1 cbr 30', 'p2 cbr 2000'", s1="inf")
    assert "the stack allows at most 1000" in (r.error or "")


def test_hidden_cards_at_showdown_leave_the_outcome_unknown() -> None:
    deal = "'d dh p1 ????', 'd dh p2 KcKd', 'd dh p3 ????'"
    play = (f"{deal}, 'p3 cc', 'p1 cc', 'p2 cc', 'd db 2d3d4h', 'p1 cbr 10', 'p2 cc', 'p3 f', "
            "'d db 5s', 'p1 cc', 'p2 cc', 'd db 9c', 'p1 cc', 'p2 cc', ")
    r = run(play + "'p1 sm ????', 'p2 sm KcKd'")
    assert r.error is None and r.validated and r.outcome_known is False
    assert r.finishing_stacks == [None, None, 990] and r.net == [None, None, -10]
    assert r.pots == [{"amount": 50, "eligible": [0, 1], "winners": None}]
    r = run(play + "'p1 sm 6h7h', 'p2 sm KcKd'")      # a straight: now the outcome is known
    assert r.outcome_known and r.finishing_stacks == [1030, 980, 990]


def test_decimal_amounts_and_untrusted_winnings() -> None:
    r = run(f"{DEAL}, 'p3 f', 'p1 cbr 30.25', 'p2 f'", s1="1000.50",
            winnings="[999, 0, 0]", finishing_stacks="[1, 2, 3]")
    assert r.error is None and r.validated
    assert r.finishing_stacks == [1010.5, 990, 1000] and r.net == [10, -10, 0]
    assert r.matches_record is False          # reported, never an error


def test_variants_the_engine_does_not_play_are_not_validated() -> None:
    text = BASE.format(actions=f"{DEAL}, 'p3 f', 'p1 f'", s1=100, s2=100, s3=100)
    [(_, h)] = parse_text(text.replace("'NT'", "'F2L3D'"))
    r = replay(h)
    assert r.error is None and r.validated is False and r.finishing_stacks == [95, 105, 100]
    assert r.not_validated == "variant F2L3D (2-7 triple draw) is not played by the engine"
    [(_, h)] = parse_text(text.replace("antes = [0, 0, 0]", "antes = [1, 2, 3]"))
    r = replay(h)
    assert r.error is None and not r.validated and "antes that differ by seat" in r.not_validated


def test_omaha_through_the_engine() -> None:
    text = BASE.replace("'NT'", "'PO'").format(
        actions="'d dh p1 AcAdKcKd', 'd dh p2 QcQdJcJd', 'd dh p3 7h2s3s4s', 'p3 f', "
                "'p1 cbr 30', 'p2 cbr 100'", s1=1000, s2=1000, s3=1000)
    [(_, h)] = parse_text(text)
    r = replay(h)
    # pot-limit: facing 30, the pot after calling is 30 + 30 = 60, so at most 30 + 60 = 90
    assert "p2 cannot raise to 100: the maximum is 90" in (r.error or "")
    ok = text.replace("'p2 cbr 100'",
                      "'p2 cbr 90', 'p1 cc', 'd db 2d3d4h', 'p1 cc', 'p2 cbr 60', 'p1 f'")
    [(_, h)] = parse_text(ok)
    r = replay(h)
    assert r.error is None and r.validated and r.finishing_stacks == [910, 1090, 1000]


POSTS = """variant = 'NT'
antes = [0, 0, 0, 0, 0]
blinds_or_straddles = [5, 10, 0, -10, 0]
min_bet = 10
starting_stacks = [1000, 1000, 1000, 1000, {s5}]
actions = ['d dh p1 AcAd', 'd dh p2 KcKd', 'd dh p3 7h2s', 'd dh p4 QhQs', 'd dh p5 9c8c',
           {actions}]
"""


def run_posts(actions: str, s5: str = "1000"):
    [(src, h)] = parse_text(POSTS.format(actions=actions, s5=s5), "t.phh")
    assert isinstance(h, HandHistory), h
    return replay(h, src)


def test_a_post_is_a_live_bet_that_does_not_move_the_first_actor() -> None:
    """``[5, 10, 0, -10, 0]``: p4 posts 10 to play at once. p3 is still first to act; p4's
    post is a live bet (p4 checks when nobody raises), not a straddle."""
    r = run_posts("'p3 f', 'p4 cc', 'p5 cc', 'p1 cc', 'p2 cc', 'd db 2h3d4c', 'p1 cc', "
                  "'p2 cc', 'p4 cc', 'p5 cc', 'd db Js', 'p1 cc', 'p2 cc', 'p4 cc', 'p5 cc', "
                  "'d db Th', 'p1 cc', 'p2 cc', 'p4 cc', 'p5 cc', 'p1 sm AcAd', 'p2 sm KcKd', "
                  "'p4 sm QhQs', 'p5 sm 9c8c'")
    assert r.error is None and r.validated, r.error
    assert r.committed == [10, 10, 0, 10, 10]
    assert r.finishing_stacks == [1030, 990, 1000, 990, 990]
    # p3 is first to act, not the poster: a history where p4 acts first skipped p3, who
    # faces the big blind, so p3 is folded for it (the replay's repair); then p5 is to act
    early = run_posts("'p4 cc'")
    assert early.repairs == ["'p3 f' inserted before action 6"]
    assert early.error == "the history stops before the hand is over (p5 is to act)"


def test_a_post_raised_reopens_nothing_it_should_not() -> None:
    """A raise over the post: the poster may re-raise (it has not acted), as pokerkit
    allows."""
    r = run_posts("'p3 cbr 30', 'p4 cbr 90', 'p5 f', 'p1 f', 'p2 f', 'p3 f'")
    assert r.error is None and r.validated, r.error
    assert r.finishing_stacks == [995, 990, 970, 1045, 1000]


def test_a_zero_starting_stack_is_the_hands_error_in_every_variant() -> None:
    """The engine refuses a seat with no chips; the chip accounting accepts nothing the
    engine refuses (so the hand is an error, not nonsense pots with ``error: null``)."""
    r = run_posts("'p3 cbr 30'", s5="0")
    assert r.error is not None and "p5's starting stack is 0" in r.error
    assert not r.validated and r.finishing_stacks is None
    stud = stud_hand("F7S", 1, 2, (5, 10), [100, 0],
                     ["d dh p1 AcAd2c", "d dh p2 KcKd3c", "p2 pb", "p1 cc"])
    [(src, h)] = parse_text(stud, "s.phh")
    r = replay(h, src)
    assert r.error is not None and "p2's starting stack is 0" in r.error


def test_a_history_that_stops_with_a_player_to_act_is_marked_incomplete() -> None:
    """The river dealt, then nothing: the message stays the error, and the document says
    what is known: ``complete`` and ``outcome_known`` False, the pots and chips so far."""
    r = run("'d dh p1 AcAd', 'd dh p2 KcKd', 'd dh p3 7h2s', 'p3 cbr 30', 'p1 cc', 'p2 cc', "
            "'d db 2h3d4c', 'p1 cc', 'p2 cc', 'p3 cc', 'd db Js', 'p1 cc', 'p2 cc', 'p3 cc', "
            "'d db Th'")
    assert r.error == "the history stops before the hand is over (p1 is to act)"
    d = r.to_dict()
    assert d["complete"] is False and d["outcome_known"] is False
    assert d["committed"] == [30, 30, 30]
    assert d["pots"] == [{"amount": 90, "eligible": [0, 1, 2], "winners": None}]
    assert d["finishing_stacks"] is None
    done = run(f"{DEAL}, 'p3 f', 'p1 f'")
    assert done.error is None and done.complete and done.to_dict()["complete"] is True
