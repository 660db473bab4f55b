"""Tests for simulate.pots (pot building, settlement) and the jitted settle kernel."""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import ref_pots, ref_settle

from simulate._kernels.award import settle_kernel
from simulate.pots import (
    Pot,
    PotStructure,
    build_pots,
    odd_chip_order,
    pots_to_arrays,
    settle,
)

# ---------------------------------------------------------------------------
# The slow reference (tests/reference.py): pots by peeling one chip at a time,
# each pot dealt out one chip at a time round its winners left of the button.
# ---------------------------------------------------------------------------


def as_tuples(structure: PotStructure):
    return [(p.amount, p.eligible) for p in structure.pots], structure.returned


# ---------------------------------------------------------------------------
# Random valid tables
# ---------------------------------------------------------------------------


@st.composite
def tables(draw, max_seats=10, max_chips=60):
    n = draw(st.integers(1, max_seats))
    # A small chip range makes equal commitments (shared levels) common.
    top = draw(st.sampled_from([3, 8, max_chips]))
    committed = draw(st.lists(st.integers(1, top), min_size=n, max_size=n))
    live = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    live[draw(st.integers(0, n - 1))] = True
    max_live = max(c for c, a in zip(committed, live, strict=True) if a)
    committed = [c if a else min(c, max_live) for c, a in zip(committed, live, strict=True)]
    strengths = draw(st.lists(st.integers(1, 4), min_size=n, max_size=n))  # many ties
    button = draw(st.integers(0, n - 1))
    return committed, live, strengths, button


FAST = settings(max_examples=examples(400), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(tables())
def test_build_matches_reference(table):
    committed, live, _, _ = table
    assert as_tuples(build_pots(committed, live)) == ref_pots(committed, live)


@FAST
@given(tables())
def test_settle_matches_reference(table):
    committed, live, strengths, button = table
    structure = build_pots(committed, live)
    assert settle(structure, strengths, button) == ref_settle(committed, live, strengths, button)


@FAST
@given(tables())
def test_chips_are_conserved(table):
    committed, live, strengths, button = table
    structure = build_pots(committed, live)
    total = sum(committed)
    assert structure.total == total
    assert sum(p.amount for p in structure.pots) + sum(structure.returned) == total
    payout = settle(structure, strengths, button)
    assert sum(payout) == total
    assert all(x >= 0 for x in payout)
    # folded seats win nothing back; at most one seat gets an uncalled bet back
    assert all(payout[s] == 0 for s in range(len(live)) if not live[s])
    assert sum(1 for r in structure.returned if r) <= 1
    # structure invariants: eligible seats are live and sorted, pots positive,
    # neighbours never share an eligible set, eligible sets shrink upwards
    for pot in structure.pots:
        assert pot.amount > 0
        assert pot.eligible == tuple(sorted(pot.eligible))
        assert all(live[s] for s in pot.eligible)
    for lower, upper in zip(structure.pots, structure.pots[1:], strict=False):
        assert lower.eligible != upper.eligible
        assert set(upper.eligible) < set(lower.eligible)


@FAST
@given(tables(), st.data())
def test_kernel_accumulates_and_conserves(table, data):
    committed, live, strengths, button = table
    structure = build_pots(committed, live)
    n = len(committed)
    amounts, eligible = pots_to_arrays(structure, n)
    order = odd_chip_order(n, button)
    start = np.array(data.draw(st.lists(st.integers(0, 99), min_size=n, max_size=n)), np.int64)
    expected = [
        a + b
        for a, b in zip(start.tolist(), ref_settle(committed, live, strengths, button), strict=True)
    ]
    expected = [e - r for e, r in zip(expected, structure.returned, strict=True)]
    for dtype in (np.int32, np.uint16, np.int64):
        out = start.copy()
        settle_kernel(np.array(strengths, dtype=dtype), amounts, eligible, order, out)
        assert out.tolist() == expected
        assert int(out.sum() - start.sum()) == int(amounts.sum())


# ---------------------------------------------------------------------------
# Worked cases
# ---------------------------------------------------------------------------


def test_eleven_chips_three_ways_pays_4_4_3_from_the_button():
    # Three live seats call 3 each and a folded seat left 2 dead chips: pot 11.
    structure = build_pots([3, 3, 3, 2], [True, True, True, False])
    assert structure.pots == [Pot(11, (0, 1, 2))]
    tie = [7000, 7000, 7000, None]
    assert settle(structure, tie, button=3) == [4, 4, 3, 0]  # order 0, 1, 2
    assert settle(structure, tie, button=0) == [3, 4, 4, 0]  # order 1, 2, 3, 0
    assert settle(structure, tie, button=1) == [4, 3, 4, 0]  # order 2, 3, 0, 1
    assert settle(structure, tie, button=2) == [4, 4, 3, 0]  # order 3, 0, 1, 2


def test_kernel_eleven_chips_three_ways():
    amounts = np.array([11], np.int64)
    eligible = np.ones((1, 3), np.bool_)
    strengths = np.array([9, 9, 9], np.int32)
    for button, want in [(2, [4, 4, 3]), (0, [3, 4, 4]), (1, [4, 3, 4])]:
        out = np.zeros(3, np.int64)
        settle_kernel(strengths, amounts, eligible, odd_chip_order(3, button), out)
        assert out.tolist() == want


def test_odd_chip_skips_non_winners_and_goes_per_pot():
    # Seats 0 and 2 tie, seat 1 loses; 5 chips: the odd chip goes to the first
    # tied winner left of the button.
    structure = build_pots([2, 2, 1], [True, False, True])
    assert structure.pots == [Pot(3, (0, 2)), Pot(2, (0,))]
    assert settle(structure, [5, None, 5], button=0) == [1 + 2, 0, 2]
    assert settle(structure, [5, None, 5], button=2) == [2 + 2, 0, 1]
    # each pot splits on its own: 7 (main, 3-way) and 4 (side, 2-way)
    structure = build_pots([3, 5, 5, 1], [True, True, True, False])
    assert structure.pots == [Pot(10, (0, 1, 2)), Pot(4, (1, 2))]
    assert settle(structure, [1, 1, 1, None], button=0) == [3, 4 + 2, 3 + 2, 0]
    assert settle(structure, [1, 1, 1, None], button=1) == [3, 3 + 2, 4 + 2, 0]


def test_odd_chip_order():
    assert odd_chip_order(4, 0).tolist() == [1, 2, 3, 0]
    assert odd_chip_order(4, 3).tolist() == [0, 1, 2, 3]
    assert odd_chip_order(1, 0).tolist() == [0]
    assert odd_chip_order(3, 1).dtype == np.int64


def test_uncalled_top_layer_is_returned():
    structure = build_pots([100, 50], [True, True])
    assert structure.pots == [Pot(100, (0, 1))]
    assert structure.returned == [50, 0]
    assert settle(structure, [1, 2], 0) == [50, 100]
    assert settle(structure, [2, 1], 0) == [150, 0]


def test_three_way_side_pots():
    structure = build_pots([50, 100, 200], [True, True, True])
    assert structure.pots == [Pot(150, (0, 1, 2)), Pot(100, (1, 2))]
    assert structure.returned == [0, 0, 100]
    assert settle(structure, [3, 2, 1], 0) == [150, 100, 100]
    assert settle(structure, [1, 2, 3], 0) == [0, 0, 350]
    assert settle(structure, [3, 1, 2], 0) == [150, 0, 200]


def test_dead_money_layers():
    # dead chips inside the main pot
    structure = build_pots([50, 50, 20], [True, True, False])
    assert structure.pots == [Pot(120, (0, 1))]
    assert structure.returned == [0, 0, 0]
    # dead chips above the short stack but below the big stack: a real pot
    # seat 0 wins uncontested (only its own chips above 80 come back)
    structure = build_pots([100, 50, 80], [True, True, False])
    assert structure.pots == [Pot(150, (0, 1)), Pot(60, (0,))]
    assert structure.returned == [20, 0, 0]
    assert settle(structure, [1, 2, None], 0) == [80, 150, 0]
    # dead money level with the top live commitment is fine
    structure = build_pots([40, 40, 40], [True, False, True])
    assert structure.pots == [Pot(120, (0, 2))]
    # everyone else folded: one live seat takes it all
    structure = build_pots([10, 30, 5], [False, True, False])
    assert structure.pots == [Pot(25, (1,))]
    assert structure.returned == [0, 20, 0]
    assert settle(structure, [None, 1, None], 2) == [0, 45, 0]


def test_adjacent_layers_with_same_eligible_merge():
    # folds at 30 and 60 cut three layers that the same two live seats can win
    structure = build_pots([100, 100, 30, 60], [True, True, False, False])
    assert structure.pots == [Pot(290, (0, 1))]
    assert structure.returned == [0, 0, 0, 0]
    # a single live winner with dead money below: one merged pot
    structure = build_pots([10, 30, 5], [False, True, False])
    assert structure.pots == [Pot(25, (1,))]
    # different eligible sets stay apart
    structure = build_pots([30, 60, 60, 45], [True, True, True, False])
    assert structure.pots == [Pot(120, (0, 1, 2)), Pot(75, (1, 2))]


def test_single_seat_and_numpy_inputs():
    structure = build_pots([7], [True])
    assert structure.pots == []
    assert structure.returned == [7]
    assert settle(structure, [1], 0) == [7]
    structure = build_pots(np.array([5, 9, 9], np.int64), np.array([True, True, False]))
    assert structure.pots == [Pot(15, (0, 1)), Pot(8, (1,))]
    assert structure.committed == (5, 9, 9) and type(structure.committed[0]) is int


def test_allow_zero_for_seats_that_never_put_chips_in():
    with pytest.raises(ValueError, match="must be positive"):
        build_pots([0, 10, 10], [False, True, True])
    structure = build_pots([0, 10, 10], [False, True, True], allow_zero=True)
    assert structure.pots == [Pot(20, (1, 2))]
    structure = build_pots([0, 0], [True, True], allow_zero=True)
    assert structure.pots == [] and settle(structure, [1, 1], 0) == [0, 0]


def test_pots_to_arrays_shapes_and_padding():
    structure = build_pots([50, 100, 200], [True, True, True])
    amounts, eligible = pots_to_arrays(structure, 3)
    assert amounts.dtype == np.int64 and amounts.tolist() == [150, 100]
    assert eligible.dtype == np.bool_ and eligible.shape == (2, 3)
    assert eligible.tolist() == [[True, True, True], [False, True, True]]
    amounts, eligible = pots_to_arrays(structure, 6)
    assert eligible.shape == (2, 6) and not eligible[:, 3:].any()
    amounts, eligible = pots_to_arrays(build_pots([4], [True]))
    assert amounts.shape == (0,) and eligible.shape == (0, 1)
    with pytest.raises(ValueError, match="fewer than"):
        pots_to_arrays(structure, 2)


@pytest.mark.parametrize(
    ("committed", "live", "message"),
    [
        ([100, 50, 120], [True, True, False], r"^dead money above every live commitment"),
        ([10, 10], [False, False], r"^no live player"),
        ([], [], r"^no seats"),
        ([10, 10], [True], r"^committed has 2 seats but live has 1$"),
        ([10, 0], [True, True], r"^seat 1: committed chips must be positive, got 0$"),
        ([10, -5], [True, True], r"^seat 1: committed chips must be positive, got -5$"),
        ([10.0, 5], [True, True], r"^seat 0: committed chips must be an integer, got 10.0$"),
        ([10, 2.5], [True, True], r"^seat 1: committed chips must be an integer"),
        (["10", 5], [True, True], r"^seat 0: committed chips must be an integer"),
        ([True, 5], [True, True], r"^seat 0: committed chips must be an integer"),
        ([10, None], [True, True], r"^seat 1: committed chips must be an integer"),
        ([10, 5], [True, 1], r"^seat 1: live must be True or False"),
        ("10", [True, True], r"must be sequences"),
    ],
)
def test_bad_input_raises_one_line_value_error(committed, live, message):
    with pytest.raises(ValueError, match=message) as info:
        build_pots(committed, live)
    assert "\n" not in str(info.value)


def test_dead_money_message_names_the_seat():
    with pytest.raises(ValueError) as info:
        build_pots([30, 80, 50], [True, False, True])
    assert str(info.value) == (
        "dead money above every live commitment: folded seat 1 committed 80 "
        "but no live seat committed more than 50"
    )


def test_settle_bad_input():
    structure = build_pots([10, 10], [True, True])
    with pytest.raises(ValueError, match="strengths has 1 entries for 2 seats"):
        settle(structure, [1], 0)
    with pytest.raises(ValueError, match="button 2 is not a seat"):
        settle(structure, [1, 1], 2)
    with pytest.raises(ValueError, match="button -1 is not a seat"):
        settle(structure, [1, 1], -1)
    with pytest.raises(ValueError, match="seat 1: live seat needs an integer strength"):
        settle(structure, [1, None], 0)
    with pytest.raises(ValueError, match="seat 0: live seat needs an integer strength"):
        settle(structure, [1.5, 2], 0)


def test_kernel_rejects_pot_without_winner():
    out = np.zeros(2, np.int64)
    with pytest.raises(ValueError, match="no eligible seat"):
        settle_kernel(
            np.array([1, 1], np.int32),
            np.array([5], np.int64),
            np.zeros((1, 2), np.bool_),
            odd_chip_order(2, 0),
            out,
        )


# ---------------------------------------------------------------------------
# Differential test against pokerkit: random preflop all-in-or-fold hands.
# ---------------------------------------------------------------------------

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]
ROYAL = ["As", "Ks", "Qs", "Js", "Ts"]


def _play_pokerkit_hand(pk, rng: random.Random, board_plays: bool):
    """Play one all-in-or-fold hand; return (committed, live, holes, board, payoffs)."""
    n = rng.randint(2, 9)
    stacks = [rng.choice([rng.randint(1, 12), rng.randint(1, 400)]) for _ in range(n)]
    deck = DECK[:]
    rng.shuffle(deck)
    board = ROYAL[:] if board_plays else None
    if board_plays:
        deck = [c for c in deck if c not in ROYAL]
    else:
        board = deck[-5:]
        del deck[-5:]
    holes = [deck[2 * i : 2 * i + 2] for i in range(n)]

    state = pk.NoLimitTexasHoldem.create_state(
        (
            pk.Automation.ANTE_POSTING,
            pk.Automation.BLIND_OR_STRADDLE_POSTING,
            pk.Automation.RUNOUT_COUNT_SELECTION,
            pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
            pk.Automation.HAND_KILLING,
            pk.Automation.CHIPS_PUSHING,
            pk.Automation.CHIPS_PULLING,
        ),
        True,
        0,
        (1, 2),
        2,
        tuple(stacks),
        n,
    )
    committed = [0] * n
    live = None
    board_left = list(board)
    fold_p = rng.choice([0.0, 0.3, 0.6])
    while state.status:
        if state.can_deal_hole():
            state.deal_hole("".join(holes[state.hole_dealee_index]))
        elif state.can_collect_bets():
            for i, b in enumerate(state.bets):
                committed[i] += b
            live = list(state.statuses)
            state.collect_bets()
        elif state.actor_index is not None:
            if state.can_fold() and rng.random() < fold_p:
                state.fold()
            elif state.can_complete_bet_or_raise_to():
                state.complete_bet_or_raise_to(state.max_completion_betting_or_raising_to_amount)
            else:
                state.check_or_call()
        elif state.can_burn_card():
            state.burn_card("??")
        elif state.can_deal_board():
            k = state.board_dealing_count
            state.deal_board("".join(board_left[:k]))
            del board_left[:k]
        else:  # pragma: no cover - pokerkit asked for something unexpected
            raise AssertionError(f"stuck pokerkit state: {state}")
    assert live is not None
    return committed, live, holes, board, list(state.payoffs), n


@pytest.mark.slow
def test_payoffs_match_pokerkit():
    pk = pytest.importorskip("pokerkit")
    from pokerkit import StandardHighHand

    rng = random.Random(20240611)
    compared = even_ties = odd_ties = 0
    for _ in range(600):
        board_plays = rng.random() < 0.25
        committed, live, holes, board, payoffs, n = _play_pokerkit_hand(pk, rng, board_plays)
        assert sum(payoffs) == 0
        hands = {
            s: StandardHighHand.from_game("".join(holes[s]), "".join(board))
            for s in range(n)
            if live[s]
        }
        ranking = sorted(set(hands.values()))
        strengths = [ranking.index(hands[s]) + 1 if live[s] else None for s in range(n)]
        # pokerkit seats run from the small blind round to the button, so the
        # button is the last seat and the odd-chip order is 0, 1, ..., n-1.
        structure = build_pots(committed, live, allow_zero=True)
        ours = [p - c for p, c in zip(settle(structure, strengths, n - 1), committed, strict=True)]

        contested = any(len(p.eligible) > 1 for p in structure.pots)
        odd_chips = False
        tied_winners: set[int] = set()
        for pot in structure.pots:
            best = max(strengths[s] for s in pot.eligible)
            winners = [s for s in pot.eligible if strengths[s] == best]
            if len(winners) > 1:
                tied_winners.update(winners)
                odd_chips |= pot.amount % len(winners) != 0
        if not odd_chips:
            # Every split divides evenly: both must agree to the chip.
            assert ours == payoffs, (committed, live, strengths, board)
            if tied_winners:
                even_ties += 1
            elif contested:
                compared += 1
        else:
            # Odd chips: pokerkit kills the losing hands first and so re-merges
            # the pots those winners share before splitting, and it piles every
            # odd chip of a pot on the first tied winner; we split each pot on
            # its own and deal odd chips one each from the button. Only tied
            # winners' odd chips may differ.
            odd_ties += 1
            assert sum(ours) == sum(payoffs) == 0
            for s in range(n):
                if s not in tied_winners:
                    assert ours[s] == payoffs[s], (committed, live, strengths, board)
                else:
                    assert abs(ours[s] - payoffs[s]) < len(structure.pots) * n
    assert compared >= 150
    assert even_ties >= 20
    assert odd_ties >= 20


# ---------------------------------------------------------------------------
# The scorer on pots that are not nested (any eligibility), as the hand engine may pass
# ---------------------------------------------------------------------------


@FAST
@given(st.integers(2, 7).flatmap(lambda n: st.tuples(
    st.lists(st.tuples(st.integers(0, 50), st.lists(st.booleans(), min_size=n, max_size=n)),
             min_size=1, max_size=5),
    st.lists(st.integers(1, 4), min_size=n, max_size=n),
    st.integers(0, n - 1))))
def test_kernel_any_eligibility_matches_chip_by_chip(spot):
    """Pots with any eligible sets (a later pot's players need not be a subset of the last
    one's): each pot dealt chip by chip round its winners from the button."""
    pots, strengths, button = spot
    pots = [(a, e) for a, e in pots if any(e)]
    n = len(strengths)
    order = odd_chip_order(n, button)
    want = [0] * n
    for amount, elig in pots:
        best = max(strengths[s] for s in range(n) if elig[s])
        winners = [s for s in order.tolist() if elig[s] and strengths[s] == best]
        for chip in range(amount):
            want[winners[chip % len(winners)]] += 1
    out = np.zeros(n, np.int64)
    amounts = np.array([a for a, _ in pots], np.int64)
    eligible = np.array([e for _, e in pots], np.bool_).reshape(len(pots), n)
    settle_kernel(np.array(strengths, np.int32), amounts, eligible, order, out)
    assert out.tolist() == want
