"""simulate.store.counts: each statistic's done and opportunity counts (PokerTracker 4's
definitions, see the module docstring) on hands written by hand here, the counts worked
out by hand: a walk, a limped pot, a squeeze, a c-bet and its fold, a donk bet (not a
c-bet), a preflop all-in heads-up, a straddle, a 4-bet; positions at every table size."""

from __future__ import annotations

import pytest

from simulate.notation import parse_text
from simulate.replay.hand_replay import replay
from simulate.store.counts import COUNT_FIELDS, hand_actions, hand_counts, positions

HOLES = ["AsAh", "KsKh", "QsQh", "JsJh", "TsTh", "9s9h"]
SIX = ["SB", "BB", "UTG", "HJ", "CO", "BTN"]


def phh(actions: str, n: int = 6, blinds: list[int] | None = None, stacks: int = 200) -> str:
    """A no-limit hand, 1/2 blinds, every seat dealt ``HOLES``; ``/`` deals the next
    street's board (2c3d4c, 7d, 8c)."""
    blinds = blinds or [1, 2] + [0] * (n - 2)
    acts = [f"d dh p{i + 1} {HOLES[i]}" for i in range(n)]
    boards = iter(["2c3d4c", "7d", "8c"])
    for a in actions.split(","):
        a = a.strip()
        acts.append(f"d db {next(boards)}" if a == "/" else a)
    return (f"variant = 'NT'\nantes = {[0] * n}\nblinds_or_straddles = {blinds}\n"
            f"min_bet = 2\nstarting_stacks = {[stacks] * n}\nactions = {acts}\n")


def counts_of(text: str):
    [(_, hand)] = parse_text(text)
    doc = replay(hand).to_dict()
    assert doc["error"] is None, doc["error"]
    return hand, hand_counts(hand, doc["winnings"])


def check(text: str, want: dict[int, dict[str, int]]) -> list:
    """Every count of every seat: those named in ``want`` (seat 1-based), the rest 0."""
    _, got = counts_of(text)
    for s, c in enumerate(got):
        expect = {f: 0 for f in COUNT_FIELDS} | want.get(s + 1, {})
        have = {f: getattr(c, f) for f in COUNT_FIELDS}
        assert have == expect, f"p{s + 1}"
    return got


OPP = {"vpip_opp": 1}


def test_walk_leaves_the_big_blind_without_an_opportunity():
    got = check(phh("p3 f, p4 f, p5 f, p6 f, p1 f"), {1: OPP, 3: OPP, 4: OPP, 5: OPP, 6: OPP})
    assert [c.position for c in got] == SIX


def test_limped_pot_has_no_raise_no_cbet_and_a_checked_option_is_not_vpip():
    text = phh("p3 cc, p4 f, p5 f, p6 cc, p1 cc, p2 cc, /, p1 cc, p2 cbr 4, p3 f, p6 cc, "
               "p1 f, /, p2 cc, p6 cc, /, p2 cc, p6 cc")
    flop = {"saw_flop": 1}
    check(text, {
        1: OPP | {"vpip": 1, "folds": 1} | flop,
        2: OPP | {"aggressive": 1, "showdown": 1, "wtsd": 1, "won_showdown": 1,
                  "won_saw_flop": 1} | flop,  # the flop bet of a non-raiser: no c-bet
        3: OPP | {"vpip": 1, "folds": 1} | flop,
        4: OPP, 5: OPP,
        6: OPP | {"vpip": 1, "calls": 1, "showdown": 1, "wtsd": 1} | flop,
    })


def test_squeeze_is_a_three_bet_and_the_opener_folds_to_it():
    text = phh("p3 cbr 6, p4 f, p5 cc, p6 cbr 24, p1 f, p2 f, p3 f, p5 f")
    check(text, {
        1: OPP, 2: OPP,  # they face two raises: no 3-bet opportunity
        3: OPP | {"vpip": 1, "pfr": 1, "fold_to_three_bet_opp": 1, "fold_to_three_bet": 1},
        4: OPP | {"three_bet_opp": 1},
        5: OPP | {"vpip": 1, "three_bet_opp": 1},  # a cold caller facing the 3-bet: not counted
        6: OPP | {"vpip": 1, "pfr": 1, "three_bet_opp": 1, "three_bet": 1},
    })


def test_cbet_and_fold_to_cbet():
    text = phh("p3 cbr 6, p4 f, p5 f, p6 f, p1 f, p2 cc, /, p2 cc, p3 cbr 8, p2 f")
    check(text, {
        1: OPP | {"three_bet_opp": 1},
        2: OPP | {"vpip": 1, "three_bet_opp": 1, "saw_flop": 1, "fold_to_cbet_opp": 1,
                  "fold_to_cbet": 1, "folds": 1},
        3: OPP | {"vpip": 1, "pfr": 1, "saw_flop": 1, "cbet_opp": 1, "cbet": 1,
                  "aggressive": 1, "won_saw_flop": 1},
        4: OPP | {"three_bet_opp": 1}, 5: OPP | {"three_bet_opp": 1},
        6: OPP | {"three_bet_opp": 1},
    })


def test_checked_cbet_and_a_raised_cbet():
    # the raiser checks the flop: an opportunity not taken
    text = phh("p3 f, p4 f, p5 f, p6 cbr 6, p1 f, p2 cc, /, p2 cc, p6 cc, /, p2 cc, p6 cc, "
               "/, p2 cc, p6 cc")
    check(text, {
        1: OPP | {"three_bet_opp": 1},
        2: OPP | {"vpip": 1, "three_bet_opp": 1, "saw_flop": 1, "showdown": 1, "wtsd": 1,
                  "won_showdown": 1, "won_saw_flop": 1},
        3: OPP, 4: OPP, 5: OPP,
        6: OPP | {"vpip": 1, "pfr": 1, "saw_flop": 1, "cbet_opp": 1, "showdown": 1,
                  "wtsd": 1},
    })
    # three see the flop; the c-bet is raised: the player after the raise faces a raise,
    # not the c-bet
    text = phh("p3 cbr 6, p4 f, p5 f, p6 cc, p1 f, p2 cc, /, p2 cc, p3 cbr 10, p6 cbr 30, "
               "p2 f, p3 f")
    check(text, {
        1: OPP | {"three_bet_opp": 1},
        2: OPP | {"vpip": 1, "three_bet_opp": 1, "saw_flop": 1, "folds": 1},
        3: OPP | {"vpip": 1, "pfr": 1, "saw_flop": 1, "cbet_opp": 1, "cbet": 1,
                  "aggressive": 1, "folds": 1},
        4: OPP | {"three_bet_opp": 1}, 5: OPP | {"three_bet_opp": 1},
        6: OPP | {"vpip": 1, "three_bet_opp": 1, "saw_flop": 1, "fold_to_cbet_opp": 1,
                  "aggressive": 1, "won_saw_flop": 1},
    })


def test_donk_bet_takes_the_cbet_away():
    text = phh("p3 f, p4 f, p5 f, p6 cbr 6, p1 f, p2 cc, /, p2 cbr 4, p6 cc, /, p2 cc, "
               "p6 cc, /, p2 cc, p6 cc")
    check(text, {
        1: OPP | {"three_bet_opp": 1},
        2: OPP | {"vpip": 1, "three_bet_opp": 1, "saw_flop": 1, "aggressive": 1,
                  "showdown": 1, "wtsd": 1, "won_showdown": 1, "won_saw_flop": 1},
        3: OPP, 4: OPP, 5: OPP,
        6: OPP | {"vpip": 1, "pfr": 1, "saw_flop": 1, "calls": 1, "showdown": 1, "wtsd": 1},
    })


def test_heads_up_all_in_preflop():
    # PHH heads-up: p1 the big blind, p2 the button who posts the small blind
    text = phh("p2 cbr 200, p1 cc, /, /, /", n=2, blinds=[1, 2])
    hand, got = counts_of(text)
    assert [c.position for c in got] == ["BB", "BTN"]
    check(text, {
        1: OPP | {"vpip": 1, "three_bet_opp": 1, "saw_flop": 1, "showdown": 1, "wtsd": 1,
                  "won_showdown": 1, "won_saw_flop": 1},  # KK... p1 holds AsAh
        2: OPP | {"vpip": 1, "pfr": 1, "saw_flop": 1, "showdown": 1, "wtsd": 1},
    })
    rows = [r for r in hand_actions(hand) if r.seat is not None and r.action != "deal_hole"]
    assert [(r.action, r.amount, r.allin) for r in rows] == [
        ("raise", 199, True), ("call", 198, True)]


def test_straddle_is_a_blind():
    text = phh("p4 f, p5 cc, p6 f, p1 f, p2 f, p3 cc, /, p3 cc, p5 cc, /, p3 cc, p5 cc, /, "
               "p3 cc, p5 cc", blinds=[1, 2, 4, 0, 0, 0])
    check(text, {
        1: OPP, 2: OPP,
        3: OPP | {"saw_flop": 1, "showdown": 1, "wtsd": 1, "won_showdown": 1,
                  "won_saw_flop": 1},  # checking the straddle's option: not VPIP
        4: OPP, 5: OPP | {"vpip": 1, "saw_flop": 1, "showdown": 1, "wtsd": 1}, 6: OPP,
    })


def test_four_bet_is_not_a_fold_to_three_bet():
    text = phh("p3 cbr 6, p4 f, p5 f, p6 cbr 18, p1 f, p2 f, p3 cbr 50, p6 f")
    check(text, {
        1: OPP, 2: OPP,
        3: OPP | {"vpip": 1, "pfr": 1, "fold_to_three_bet_opp": 1},
        4: OPP | {"three_bet_opp": 1}, 5: OPP | {"three_bet_opp": 1},
        6: OPP | {"vpip": 1, "pfr": 1, "three_bet_opp": 1, "three_bet": 1},
    })


@pytest.mark.parametrize("n,want", [
    (2, ["BB", "BTN"]), (3, ["SB", "BB", "BTN"]), (4, ["SB", "BB", "CO", "BTN"]),
    (5, ["SB", "BB", "HJ", "CO", "BTN"]), (6, SIX),
    (9, ["SB", "BB", "UTG", "UTG+1", "UTG+2", "UTG+3", "HJ", "CO", "BTN"]),
])
def test_positions(n, want):
    acts = [f"p{s} f" for s in [*range(3, n + 1), 1]] if n > 2 else ["p2 f"]
    text = (f"variant = 'NT'\nantes = {[0] * n}\nblinds_or_straddles = "
            f"{[1, 2] + [0] * (n - 2)}\nmin_bet = 2\nstarting_stacks = {[200] * n}\n"
            f"actions = {acts}\n")
    [(_, hand)] = parse_text(text)
    assert positions(hand) == want


def test_no_blinds_no_position():
    text = ("variant = 'F7S'\nantes = [1, 1]\nbring_in = 1\nsmall_bet = 2\nbig_bet = 4\n"
            "starting_stacks = [50, 50]\nactions = ['d dh p1 AsAh7c', 'd dh p2 KsKh7d', "
            "'p2 pb', 'p1 f']\n")
    [(_, hand)] = parse_text(text)
    assert positions(hand) == [None, None]


def test_times_are_stored_in_utc_where_the_file_gives_a_zone():
    from simulate.store.rows import utc_time

    assert utc_time("2024-03-01T10:00:00+01:00") == "2024-03-01 09:00:00"
    assert utc_time("2024-03-01T23:30:00-05:00") == "2024-03-02 04:30:00"
    assert utc_time("2024-03-01T10:00:00Z") == "2024-03-01 10:00:00"
    assert utc_time("2024-03-01T10:00:00") == "2024-03-01 10:00:00"  # no zone: as printed
    assert utc_time("yesterday") is None and utc_time(None) is None


def test_a_phh_hand_s_key_is_its_content():
    from simulate.store.rows import hand_key

    [(_, a)] = parse_text(phh("p3 f, p4 f, p5 f, p6 f, p1 f"))
    [(_, b)] = parse_text(phh("p3 f, p4 f, p5 f, p6 f, p1 f"))
    [(_, c)] = parse_text(phh("p3 f, p4 f, p5 f, p6 f, p1 cc, p2 cc, /, p1 cc, p2 cc, /, "
                              "p1 cc, p2 cc, /, p1 cc, p2 cc"))
    doc = {"site": "phh", "hand_id": None}
    assert hand_key(a, doc) == hand_key(b, doc) != hand_key(c, doc)
    assert hand_key(a, {"site": "pokerstars", "hand_id": "123"}) == ("pokerstars", "123")


def test_the_readme_names_every_column():
    from pathlib import Path

    from simulate.store.schema import TABLES

    text = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = text[text.index("## Your statistics"):text.index("### The statistics, as")]
    for table, cols in TABLES.items():
        assert f"`{table}`" in section, table
        for name, _, _ in cols:
            assert f"`{name}`" in section, (table, name)
