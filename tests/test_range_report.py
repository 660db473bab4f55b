"""simulate.range_report: the per-combo rows, the 13x13 grid and the document of a
:class:`RangeAnalysis` built from known per-combo numbers (sorting, weighted means, cells
with no equity, the lazy fill), and :func:`hand_categories` against a reference written
from its rules (made hands by the rule-based scorer of ``tests/reference.py``, draws by rank
windows and suit counts)."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import best_tuple

from evaluator import CATEGORIES
from evaluator.cards import CardError, card_str, parse_cards
from simulate.range_report import DRAWS, RangeAnalysis, hand_categories
from simulate.ranges import Range, grid_names, parse_range
from simulate.results import EquityResult, PlayerResult


def analysis(texts: list[str], ceq: list[list[float] | None], cshare: list[list[float] | None],
             board: str = "", dead: str = "", fill=None) -> RangeAnalysis:
    """A RangeAnalysis of the ranges ``texts`` (live: less the board and dead cards) with
    the given per-combo numbers (in each range's combo order)."""
    out = set(parse_cards(board)) | set(parse_cards(dead))
    ranges = [parse_range(t).without(out) for t in texts]
    players = [PlayerResult(hand=t, equity=0.5, win=0.4, tie=0.1) for t in texts]
    result = EquityResult(players=players, exact=True, samples=10, elapsed_s=0.25,
                          board=board.replace(" ", ""), dead=dead)
    as_array = [None if x is None else np.array(x, dtype=np.float64) for x in ceq]
    shares = [None if x is None else np.array(x, dtype=np.float64) for x in cshare]
    return RangeAnalysis(result, ranges, as_array, shares, board=parse_cards(board),
                         dead=parse_cards(dead), fill=fill)


# ----------------------------------------------------------------------------- combos
def test_combo_rows_best_equity_first_unknown_last():
    r = parse_range("AKs")  # AcKc, AdKd, AhKh, AsKs in combo-index order
    texts = [card_str(int(b)) + card_str(int(a)) for a, b in r.combos.tolist()]
    an = analysis(["AKs"], [[0.2, math.nan, 0.9, 0.5]], [[0.1, 0.0, 0.6, 0.3]])
    rows = an.combos(0)
    assert [row["combo"] for row in rows] == [texts[2], texts[3], texts[0], texts[1]]
    assert all(row["combo"][0] == "A" for row in rows)  # the high card first
    assert [row["equity"] for row in rows] == [0.9, 0.5, 0.2, None]  # NaN: never dealt
    assert [row["share"] for row in rows] == [0.6, 0.3, 0.1, 0.0]
    assert {row["hand"] for row in rows} == {"AKs"} and {row["weight"] for row in rows} == {1.0}
    assert all(type(row["share"]) is float and type(row["weight"]) is float for row in rows)


def test_combo_rows_carry_each_combos_weight_and_class():
    an = analysis(["AA:0.25,72o"], [[0.5] * 18], [[1 / 18] * 18])
    rows = an.combos(0)
    assert Counter(row["hand"] for row in rows) == {"AA": 6, "72o": 12}
    assert {row["hand"]: row["weight"] for row in rows} == {"AA": 0.25, "72o": 1.0}
    assert sorted(row["combo"] for row in rows if row["hand"] == "72o") == sorted(
        f"7{s}2{t}" for s in "cdhs" for t in "cdhs" if s != t)


# ----------------------------------------------------------------------------- grid
def test_grid_cells_are_share_weighted_means_in_their_places():
    # AKs (4 combos), AKo (12), AA (6)
    text = "AKs,AKo,AA:0.5"
    r = parse_range(text)
    classes = [("AA" if a >> 2 == b >> 2 else "AKs" if a & 3 == b & 3 else "AKo")
               for a, b in r.combos.tolist()]
    rng = np.random.default_rng(3)
    ceq = rng.random(len(r))
    share = rng.random(len(r))
    share /= share.sum()
    ceq[classes.index("AKo")] = math.nan  # one AKo combo never dealt: left out of the mean
    an = analysis([text], [ceq.tolist()], [share.tolist()])
    grid = an.grid(0)
    names = grid_names()
    for i, j, name in [(0, 0, "AA"), (0, 1, "AKs"), (1, 0, "AKo")]:  # suited above
        cell = grid[i][j]
        assert cell["hand"] == names[i][j] == name
        mine = [k for k, c in enumerate(classes) if c == name]
        counted = [k for k in mine if not math.isnan(ceq[k])]
        assert cell["combos"] == pytest.approx(float(r.weights[mine].sum()))
        assert cell["share"] == pytest.approx(float(share[counted].sum()))
        assert cell["equity"] == pytest.approx(
            float((share[counted] * ceq[counted]).sum() / share[counted].sum()))
    assert grid[0][0]["combos"] == 3.0  # six aces at weight 0.5
    assert sum(cell is not None for row in grid for cell in row) == 3


def test_a_cell_with_no_share_has_no_equity():
    # JJ's combos come first (combo-index order); QQ's were never dealt
    an = analysis(["QQ,JJ"], [[0.3] * 6 + [math.nan] * 6], [[1 / 6] * 6 + [0.0] * 6])
    grid = an.grid(0)
    assert grid[2][2] == {"hand": "QQ", "combos": 6.0, "share": 0.0, "equity": None}
    assert grid[3][3] == pytest.approx({"hand": "JJ", "combos": 6.0, "share": 1.0,
                                        "equity": 0.3})


# ----------------------------------------------------------------------------- lazy fill
def test_missing_per_combo_numbers_are_filled_once_when_first_read():
    calls = []

    def fill():
        calls.append(1)
        return ([np.array([9.0] * 4), np.array([0.7] * 6)],
                [np.array([9.0] * 4), np.array([1 / 6] * 6)])

    an = analysis(["AKs", "QQ"], [[0.1, 0.2, 0.3, 0.4], None], [[0.25] * 4, None], fill=fill)
    assert [row["equity"] for row in an.combos(0)] == [0.4, 0.3, 0.2, 0.1]
    assert calls == []  # player 0's numbers are there: nothing worked out
    assert [row["equity"] for row in an.combos(1)] == [0.7] * 6
    assert calls == [1]
    assert an.combo_equity[0].tolist() == [0.1, 0.2, 0.3, 0.4]  # kept, not overwritten
    assert an.combo_share[1].tolist() == [1 / 6] * 6
    an.grid(1)
    an.to_dict()
    assert calls == [1]  # once only


def test_nothing_missing_means_no_fill():
    def fill():
        raise AssertionError("not needed")

    an = analysis(["AKs"], [[0.5] * 4], [[0.25] * 4], fill=fill)
    assert an.combo_equity[0].tolist() == [0.5] * 4 and an.combos(0)[0]["equity"] == 0.5


# ----------------------------------------------------------------------------- document
def test_categories_only_from_the_flop_on():
    assert analysis(["AKs"], [[0.5] * 4], [[0.25] * 4]).categories(0) is None
    an = analysis(["AKs", "QQ"], [[0.5] * 3, [0.5] * 3], [[1 / 3] * 3, [1 / 3] * 3],
                  board="Ah 7c 2d", dead="Qs")
    assert an.categories(0) == hand_categories("AKs", "Ah7c2d", "Qs")
    assert an.categories(1)["combos"] == 3  # QQ less the dead queen


def test_to_dict_is_the_result_plus_one_report_per_player():
    an = analysis(["AKs", "QQ"], [[0.5] * 4, [0.5] * 6], [[0.25] * 4, [1 / 6] * 6],
                  board="2c 7d 9h Ts")
    d = an.to_dict()
    base = an.result.to_dict()
    assert {k: d[k] for k in base} == base and set(d) == {*base, "ranges"}
    assert [x["range"] for x in d["ranges"]] == ["AKs", "QQ"]
    for p, x in enumerate(d["ranges"]):
        assert set(x) == {"range", "combos", "grid", "hand_categories"}
        assert x["combos"] == an.combos(p) and x["grid"] == an.grid(p)
        assert x["hand_categories"] == an.categories(p)
    assert analysis(["AKs"], [[0.5] * 4], [[0.25] * 4]).to_dict()["ranges"][0][
        "hand_categories"] is None


# ----------------------------------------------------------------------------- categories
WINDOWS = [frozenset({12, 0, 1, 2, 3})] + [frozenset(range(lo, lo + 5)) for lo in range(9)]


def has_straight(ranks: set[int]) -> bool:
    return any(w <= ranks for w in WINDOWS)


def ref_hand_categories(text: str, board: list[int], dead: list[int]) -> dict:
    """The rules of :func:`hand_categories`, one combo at a time: the made category is the
    reference scorer's; a flush draw is four of a suit with a hole card in it when the hand
    is below a flush; a straight-draw out is a rank that is not yet in the hand and gives a
    straight with the hole cards while board and that rank alone do not, counted when the
    hand is below a straight (two or more outs: open-ended, one: a gutshot); a backdoor
    flush draw is three of a suit with a hole card in it (the flop only)."""
    used = set(board) | set(dead)
    weights: dict[tuple[int, int], float] = {}
    r = parse_range(text)
    for (a, b), w in zip(r.combos.tolist(), r.weights.tolist(), strict=True):
        if a not in used and b not in used:
            weights[(a, b)] = w
    total = sum(weights.values())
    made: Counter = Counter()
    draws: Counter = Counter({name: 0.0 for name in DRAWS})
    board_ranks = {c >> 2 for c in board}
    for (a, b), w in weights.items():
        cat = best_tuple([a, b, *board])[0]
        made[CATEGORIES[cat]] += w
        if len(board) == 5:
            continue
        suits = Counter(c & 3 for c in (a, b, *board))
        flush_draw = cat < 5 and any(suits[s] == 4 for s in {a & 3, b & 3})
        backdoor = (len(board) == 3 and cat < 5
                    and any(suits[s] == 3 for s in {a & 3, b & 3}))
        ranks = board_ranks | {a >> 2, b >> 2}
        outs = [x for x in range(13) if cat < 4 and x not in ranks
                and has_straight(ranks | {x}) and not has_straight(board_ranks | {x})]
        draws["flush draw"] += w * flush_draw
        draws["backdoor flush draw"] += w * backdoor
        draws["open-ended straight draw"] += w * (len(outs) >= 2)
        draws["gutshot"] += w * (len(outs) == 1)
        draws["combo draw"] += w * (flush_draw and len(outs) >= 1)
    return {"combos": total,
            "made": {k: {"combos": v, "share": v / total} for k, v in made.items() if v > 0},
            "draws": {} if len(board) == 5 else
            {k: {"combos": v, "share": v / total} for k, v in draws.items()}}


def flat(part: dict) -> dict:
    return {(k, f): v for k, d in part.items() for f, v in d.items()}


def same_report(got: dict, want: dict) -> None:
    assert got["combos"] == pytest.approx(want["combos"])
    assert list(got["made"]) == [c for c in CATEGORIES if c in want["made"]]  # scale order
    assert flat(got["made"]) == pytest.approx(flat(want["made"]))
    assert list(got["draws"]) == list(want["draws"])
    assert flat(got["draws"]) == pytest.approx(flat(want["draws"]))


RANGES = ["AKs", "QQ+", "T9s,87s,65s", "AJo:0.5,KQ", "22-55", "A5s-A2s", "JTs,T8s:0.3,97s",
          "KhQh,Ad5d,6c5c", "98,76:0.25", "AcKd,7h7s,3h2h"]


@given(st.lists(st.integers(0, 51), min_size=3, max_size=5, unique=True),
       st.sampled_from(RANGES))
def test_hand_categories_equal_the_reference(board, text):
    r = parse_range(text)
    if len(r.without(set(board))) == 0:
        return
    got = hand_categories(text, board)
    same_report(got, ref_hand_categories(text, board, []))
    assert got["board"] == "".join(card_str(c) for c in board)
    assert sum(v["share"] for v in got["made"].values()) == pytest.approx(1.0)


@pytest.mark.parametrize("text,board,dead", [
    ("random", "Kh8h2c", ""),       # every combo, a two-tone flop
    ("random", "9d8d7c6s", "Ad"),   # a turn with four to a straight on board, a dead card
    ("AA:0.5,KK,QJs", "QhJh2c", "Ks"),
    ("random", "AhKhQhJh2c", ""),   # river: no draws
])
def test_hand_categories_equal_the_reference_on_whole_ranges(text, board, dead):
    same_report(hand_categories(text, board, dead),
                ref_hand_categories(text, parse_cards(board), parse_cards(dead)))


@pytest.mark.parametrize("hand,board,draw", [
    ("Ah2d", "3c4sKd", "gutshot"),                    # the wheel needs a five: one rank
    ("9c7d", "Jh8s5c", "open-ended straight draw"),  # a double gutshot (6 or T): 8 outs
    ("KcQd", "JhTs2c", "open-ended straight draw"),  # A or 9
    ("AcKd", "QhJs2c", "gutshot"),                    # only a ten: A-high, one end
    ("5h4h", "Kh7h6c", "combo draw"),                 # four hearts and 3 or 8
    ("Ah3c", "Kh7h2d", "backdoor flush draw"),
])
def test_hand_categories_known_draws(hand, board, draw):
    d = hand_categories(hand, board)["draws"]
    assert d[draw] == {"combos": 1.0, "share": 1.0}


@pytest.mark.parametrize("hand,board", [
    ("8c7d", "9hTsJc"),           # a made straight draws nothing to a straight
    ("AhKh", "QhJh2h"),           # a made flush: no flush draw
    ("QcQd", "Qh2h3h5h"),         # a set with four hearts on board, none in the hand
    ("2c2d", "2h2sKh"),           # quads: nothing to draw to
])
def test_hand_categories_made_hands_draw_nothing(hand, board):
    d = hand_categories(hand, board)["draws"]
    assert all(v["combos"] == 0.0 for v in d.values()), d


def test_hand_categories_on_the_turn_have_no_backdoor_draws():
    got = hand_categories("random", "Kh8h2c5d")
    assert got["draws"]["backdoor flush draw"]["combos"] == 0.0
    assert got["combos"] == math.comb(48, 2)


def test_hand_categories_weights_and_card_removal():
    got = hand_categories("AA:0.5,KK", "QhJh2c", "Kd")
    assert got["combos"] == 0.5 * 6 + 3  # KK less the dead king
    assert got["made"] == {"One Pair": {"combos": 6.0, "share": 1.0}}
    # a Range object is taken as it is (its text only names it)
    assert hand_categories(parse_range("AA:0.5,KK"), parse_cards("QhJh2c"), "Kd") == got


@pytest.mark.parametrize("args,message", [
    (("AA", ""), "hand categories need a board of 3, 4 or 5 cards"),
    (("AA", "AhKd"), "a board has 0, 3, 4 or 5 cards, got 2"),
    (("AA", "AhKd2c2s3s4s"), "a board has 0, 3, 4 or 5 cards, got 6"),
    (("AA", "AhKd2c", "Ah"), "duplicate card Ah in board and dead cards"),
    (("AA", "AhAdAc", "As"), "range 'AA' has no combos left after removing the board and "
                             "dead cards"),
    (("AKx", "AhKd2c"), "'AKx' is not a hand or range"),
    (("AA", "AhKd2c", "Xx"), "'Xx' in dead cards is not a card"),
])
def test_hand_categories_bad_input(args, message):
    with pytest.raises(CardError) as e:
        hand_categories(*args)
    assert str(e.value) == message


def test_range_objects_round_trip_through_the_report():
    """Range combos are (lo, hi) by combo index: the report names them high card first and
    every live combo of the range appears exactly once."""
    r = parse_range("AKo:0.5")
    an = RangeAnalysis(EquityResult([PlayerResult("AKo:0.5", 0.5, 0.5, 0.0)], True, 1, 0.0),
                       [Range(r.text, r.combos, r.weights)], [np.full(12, 0.5)],
                       [np.full(12, 1 / 12)])
    combos = {row["combo"] for row in an.combos(0)}
    assert combos == {f"A{s}K{t}" for s, t in itertools.product("cdhs", repeat=2) if s != t}
