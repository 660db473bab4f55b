"""simulate.engine for short deck: the button blind, the 36-card deck, the showdown on the
game's scale, ``play``, and PHH (pokerkit's ``NS``, the project's ``NST`` for Triton).

Whole hands against pokerkit's ``NoLimitShortDeckHoldem`` are in
``tests/test_engine_pokerkit.py`` (its ``short-deck`` structure)."""

from __future__ import annotations

import json

import pytest
from pokerkit import HandHistory as PokerkitHistory

from evaluator import evaluate
from evaluator.cards import CardError, parse_cards
from simulate.cli import main
from simulate.engine import Hand, IllegalAction, Rules, play
from simulate.engine.self_play import replay_hands
from simulate.notation.phh_read import parse_text
from simulate.replay.hand_replay import replay

TRITON = Rules(game="short_deck_triton", blinds=(0, 2), ante=1, button_blind=True)
BUTTON_BLIND = Rules(game="short_deck", blinds=(0, 2), ante=1, button_blind=True)


def test_the_button_posts_the_blind_and_the_next_seat_acts_first():
    h = Hand(BUTTON_BLIND, [100] * 4, button=2, seed=1)
    assert h.bets == [0, 0, 2, 0] and h.stacks == [99, 99, 97, 99]
    assert h.actor == 3  # the seat after the button
    assert h.legal.call == 2 and h.legal.min_raise_to == 4
    for _ in range(3):
        h.call()
    assert h.actor == 2 and h.legal.check and h.legal.min_raise_to == 4  # the option
    h.check()
    assert h.street == "flop" and h.actor == 3  # after the flop, the button's left first


def test_heads_up_the_other_seat_posts_it_and_the_button_acts_first():
    """pokerkit's heads-up reading of ``{-1: B}`` (its heads-up blinds swap)."""
    h = Hand(BUTTON_BLIND, [100, 100], button=0, seed=1)
    assert h.bets == [0, 2] and h.actor == 0


def test_a_button_blind_is_the_only_blind():
    with pytest.raises(ValueError, match="a button blind is the only blind"):
        Rules(game="short_deck", blinds=(1, 2), button_blind=True)
    with pytest.raises(ValueError, match="a button blind is the only blind"):
        Rules(game="short_deck", blinds=(0, 2), straddles=(4,), button_blind=True)


def test_seeded_hands_deal_only_the_36_cards():
    seen = set()
    for i in range(200):
        h = Hand(TRITON, [50] * 9, seed=11, hand_index=i)
        while not h.done:
            h.act("cc")
        cards = parse_cards("".join(h.hole) + h.board)
        assert len(set(cards)) == 23
        seen.update(cards)
    assert min(seen) == 16 and len(seen) == 36  # 6c .. As, every one of them


def test_the_showdown_is_read_on_the_games_scale():
    # trips of sixes against a straight: the rule sets disagree
    hole, board = ["6h6d", "KhQd"], "6c9sJcTs7s"
    for rules, winner in ((BUTTON_BLIND, 1), (TRITON, 0)):
        h = Hand(rules, [50, 50], hole=hole, board=board)
        while not h.done:
            h.act("cc")
        assert h.finishing_stacks[winner] == 53  # antes 1 + 1, the blind 2 and the call
    hole, board = ["AhKh", "QsQd"], "QhJh6h9c7d"  # a flush against trips
    h = Hand(BUTTON_BLIND, [50, 50], hole=hole, board=board)
    while not h.done:
        h.act("cc")
    a = evaluate("AhKh" + board, game="short_deck")
    b = evaluate("QsQd" + board, game="short_deck")
    assert (h.finishing_stacks[0] > 50) == (a > b)


def test_cards_below_the_six_are_refused():
    with pytest.raises(CardError, match="2c in seat 1's hole cards is not in the short deck"):
        Hand(BUTTON_BLIND, [50, 50], hole=["AhKh", "2cQd"], board="6c9sJcTs7s")
    with pytest.raises(CardError, match="5s in board is not in the short deck"):
        Hand(BUTTON_BLIND, [50, 50], hole=["AhKh", "QcQd"], board="6c9sJcTs5s")
    h = Hand(BUTTON_BLIND, [50, 50], deal="manual")
    with pytest.raises(IllegalAction, match="4h is not in the short deck"):
        h.act("d dh p1 Ah4h")


def test_play_call_is_fair_and_the_same_on_any_thread_count():
    a = play(BUTTON_BLIND, [200] * 3, 30_000, policy="random", seed=2, threads=1)
    b = play(BUTTON_BLIND, [200] * 3, 30_000, policy="random", seed=2, threads=2)
    assert a.net == b.net and sum(a.net) == 0
    c = play(TRITON, [200] * 2, 20_000, policy="call", seed=4)
    assert all(abs(x) <= 4 * se for x, se in zip(c.bb_per_100, c.std_error, strict=True))
    # the compiled loop and the Hand replay deal and play the same hands
    hands = list(replay_hands(BUTTON_BLIND, [200] * 3, 300, policy="random", seed=2))
    small = play(BUTTON_BLIND, [200] * 3, 300, policy="random", seed=2)
    assert [sum(h.net[s] for h in hands) for s in range(3)] == list(small.net)


def test_written_hands_replay_in_pokerkit_and_here():
    for rules in (BUTTON_BLIND, Rules(game="short_deck", blinds=(1, 2), ante=1)):
        for n in (2, 6):
            for h in replay_hands(rules, [80] * n, 25, policy="random", seed=8):
                text = h.to_phh()
                assert 'variant = "NS"' in text
                state = list(PokerkitHistory.loads(text))[-1]  # played to the end
                order = ([(h.button + 1) % n, h.button] if n == 2
                         else [(h.button + 1 + i) % n for i in range(n)])
                assert list(state.stacks) == [h.finishing_stacks[s] for s in order]
                ((_, hist),) = parse_text(text)
                r = replay(hist)
                assert r.error is None and r.validated and r.matches_record is True


def test_triton_hands_use_the_projects_code_and_scale():
    # the straight beats the trips in NS, the trips beat the straight in NST
    h = Hand(TRITON, [50, 50, 50], button=2, hole=["6h6d", "KhQd", "AcAd"],
             board="6c9sJcTs7s")
    h.act("cc")
    h.act("cc")
    h.act("cc")  # the button's option
    while not h.done:
        h.act("cc")
    text = h.to_phh()
    assert 'variant = "NST"' in text
    ((_, hist),) = parse_text(text)
    r = replay(hist)
    assert r.validated and r.matches_record is True
    assert max(h.finishing_stacks) == h.finishing_stacks[0]  # the sixes' trips
    ((_, hist_ns),) = parse_text(text.replace('"NST"', '"NS"'))
    r_ns = replay(hist_ns)
    assert r_ns.finishing_stacks != r.finishing_stacks  # the straight wins there


def test_a_real_short_deck_hand_is_validated_with_its_all_in_ev():
    from pathlib import Path

    path = Path(__file__).parent / "data" / "phh" / "vendor" / "phh-curated" / \
        "phua-xuan-2019.phh"
    ((_, hist),) = parse_text(path.read_text())
    r = replay(hist, str(path))
    assert r.error is None and r.validated
    assert r.finishing_stacks == [489000, 226000, 684000, 400000, 0, 198000]
    ev = [x["expected_payout"] for x in r.allin_ev]
    assert ev[2] + ev[4] == pytest.approx(623000) and 0.1 < ev[2] / 623000 < 0.25


def test_cli_play_takes_the_button_blind(capsys):
    assert main(["play", "--players", "4", "--game", "short_deck", "--ante", "1",
                 "--button-blind", "2", "--hands", "2000", "--seed", "1", "--policy",
                 "random", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["hands"] == 2000 and sum(p["net"] for p in doc["players"]) == 0
    assert main(["play", "--game", "short_deck", "--button-blind", "2",
                 "--blinds", "1/4"]) == 2
    assert "replaces --blinds" in capsys.readouterr().err


# A short-deck hand history that deals a card below the six is refused at the deal, even when
# nobody shows down (the fast replay kernel deals the cards; the engine checks them after).
_LOW_DEAL = ('variant = "NS"\nantes = [1, 1]\nblinds_or_straddles = [0, 2]\nmin_bet = 2\n'
             'starting_stacks = [100, 100]\nactions = [{}]\n')
_HOLE_LOW = '"d dh p1 2c3c", "d dh p2 AhAd", "p2 f"'
_BOARD_LOW = ('"d dh p1 KcKd", "d dh p2 AhAd", "p2 cc", "p1 cc", "d db 2c3c4c", "p1 cbr 10", '
              '"p2 f"')


def test_every_dealt_card_is_checked_against_the_deck():
    h = Hand(BUTTON_BLIND, [50, 50], deal="manual")
    with pytest.raises(IllegalAction, match=r"'d dh p1 2c3c': short_deck: 2c is not in the short"):
        h.act("d dh p1 2c3c")
    h.act("d dh p1 KcKd")
    h.act("d dh p2 AhAd")
    h.act("cc")
    h.act("cc")
    with pytest.raises(IllegalAction, match=r"short_deck: 2c is not in the short deck \(6 to A\)"):
        h.act("d db 2c3c4c")
    h.act("d db 6c7c8c")
    h.check_dealt()  # every card dealt is in the deck


@pytest.mark.parametrize("actions,message", [
    (_HOLE_LOW, "action 1 'd dh p1 2c3c': short_deck: 2c is not in the short deck (6 to A)"),
    (_BOARD_LOW, "action 5 'd db 2c3c4c': short_deck: 2c is not in the short deck (6 to A)"),
])
def test_a_low_card_dealt_in_a_hand_history_is_refused(actions, message, tmp_path, capsys):
    (hand,) = [x for _, x in parse_text(_LOW_DEAL.format(actions))]
    r = replay(hand)
    assert r.error == message and not r.validated
    path = tmp_path / "low.phh"
    path.write_text(_LOW_DEAL.format(actions))
    assert main(["hand", str(path)]) != 0
    out = capsys.readouterr()
    assert message in out.out + out.err and "(validated by the engine)" not in out.out
    assert "0 replayed (0 validated by the engine" in out.out
