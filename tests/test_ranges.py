"""Range syntax: expansion counts, every construct, weights, errors, the 13x13 grid and the
shipped 169-hand order."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from evaluator.cards import CardError, parse_cards
from simulate import ranges as R


def combos_of(text: str) -> set[tuple[int, int]]:
    return {tuple(c) for c in R.parse_range(text).combos.tolist()}


@pytest.mark.parametrize("text,count", [
    ("random", 1326), ("AK", 16), ("TT+", 30), ("A2s+", 48), ("KTs-K7s", 16), ("99-66", 24),
    ("AKs", 4), ("AKo", 12), ("AA", 6), ("22+", 78), ("KTo+", 36), ("QT+", 32),
    ("66-99", 24), ("K7s-KTs", 16), ("J9-J6", 64), ("AhKh", 1), ("AhKx", 4), ("AxKh", 4),
    ("AxKx", 16), ("AxAx", 6), ("QQ+,AKs", 22), ("any", 1326), ("akS", 4), ("10h9h", 1),
])
def test_counts(text, count):
    assert len(R.parse_range(text)) == count


def test_constructs_expand_to_the_right_cards():
    def cls(name):
        return set(R.class_combos(name))

    assert combos_of("TT+") == cls("TT") | cls("JJ") | cls("QQ") | cls("KK") | cls("AA")
    assert combos_of("A2s+") == set().union(*(cls(f"A{r}s") for r in "23456789TJQK"))
    assert combos_of("KTs-K7s") == cls("KTs") | cls("K9s") | cls("K8s") | cls("K7s")
    assert combos_of("99-66") == cls("99") | cls("88") | cls("77") | cls("66")
    assert combos_of("AK") == cls("AKs") | cls("AKo")
    ah, kh = parse_cards("AhKh")
    assert combos_of("AhKh") == {(kh, ah)}
    assert combos_of("AhKx") == {tuple(sorted((ah, k))) for k in parse_cards("KcKdKhKs")}
    for a, b in combos_of("AKs"):
        assert a & 3 == b & 3 and {a >> 2, b >> 2} == {11, 12}
    for a, b in combos_of("AKo"):
        assert a & 3 != b & 3
    assert combos_of("random") == set(itertools.combinations(range(52), 2))


def test_weights_and_groups():
    r = R.parse_range("(QQ+,AKs):0.5,AA:0.25")
    d = dict(zip(map(tuple, r.combos.tolist()), r.weights.tolist(), strict=True))
    assert len(r) == 22
    aa = set(R.class_combos("AA"))
    for c, w in d.items():
        assert w == (0.25 if c in aa else 0.5)
    r = R.parse_range("random,AA:0")
    assert len(r) == 1320
    r = R.parse_range("QQ+:0.5,AKs")
    assert sorted(set(r.weights.tolist())) == [0.5, 1.0]
    assert R.parse_range("AKs:2").weights.tolist() == [2.0] * 4


def test_an_unweighted_group_may_weight_its_items():
    r = R.parse_range("(QQ+:0.5,AKs)")
    d = dict(zip(map(tuple, r.combos.tolist()), r.weights.tolist(), strict=True))
    assert len(d) == 22 and sorted(set(d.values())) == [0.5, 1.0]
    assert all(d[c] == 1.0 for c in R.class_combos("AKs"))


@pytest.mark.parametrize("text,message", [
    # one weight per item: these used to multiply (AK:2:3 was AK at weight 6)
    ("AK:2:3", r"^'AK:2:3' has more than one weight"),
    ("QQ+,AK:0.5:0.5", r"^'AK:0.5:0.5' has more than one weight"),
    ("(QQ+,AKs):2:3", r"^'\(QQ\+,AKs\):2:3' has more than one weight"),
    ("(QQ+:0.5,AKs):0.5", r"^'QQ\+:0.5' has a weight inside the weighted group"),
    # weights the engines cannot carry through ten players' products: refused by name
    ("AK:1e300", r"^weight 1e300 for 'AK' is too large \(at most 1e\+06\)$"),
    ("(QQ+,AKs):5e6", r"^weight 5e6 for '\(QQ\+,AKs\)' is too large"),
    ("AK:1e-320", r"^weight 1e-320 for 'AK' is too small \(at least 1e-06, or 0"),
    ("AK:inf", r"^weight inf for 'AK' must be a finite number"),
])
def test_weights_out_of_reach_or_repeated_are_errors(text, message):
    with pytest.raises(CardError, match=message):
        R.parse_range(text)


def test_weight_limits_are_inclusive():
    assert R.parse_range(f"AK:{R.MAX_WEIGHT:g}").weights.max() == R.MAX_WEIGHT
    assert R.parse_range(f"AK:{R.MIN_WEIGHT:g}").weights.min() == R.MIN_WEIGHT


def test_weight_errors_reach_every_command_as_one_line(capsys):
    from simulate.cli import main

    for argv, needle in [
        (["range", "AK:1e300", "--vs", "QQ"], "weight 1e300 for 'AK' is too large"),
        (["equity", "AK:2:3", "QQ"], "'AK:2:3' has more than one weight"),
        (["allin", "AK:2:3:100", "random:30"], "seat 0: 'AK:2:3' has more than one weight"),
        (["allin", "QQ+,AKs:1e300:100", "random:30"], "seat 0: weight 1e300 for 'AKs'"),
        (["allin", "AhAs:100", "KdKc:100", "--dead-money", "9" * 25],
         "dead money must be at most"),
    ]:
        rc = main(argv)
        out, err = capsys.readouterr()
        assert rc == 2 and out == "" and len(err.splitlines()) == 1, (argv, err)
        assert err.startswith("error: ") and needle in err, (argv, err)


def test_chip_amounts_have_one_limit():
    import simulate
    from simulate.pots import MAX_CHIPS, add_dead_money, build_pots, check_chips

    assert check_chips(MAX_CHIPS, "x") == MAX_CHIPS
    for value, needle in [(MAX_CHIPS + 1, "at most"), (0, "positive"), (-1, "positive"),
                          (2.5, "integer"), (True, "integer")]:
        with pytest.raises(ValueError, match=f"^stack {needle}|^stack must be .*{needle}"):
            check_chips(value, "stack")
    with pytest.raises(ValueError, match="dead money must be at most"):
        add_dead_money(build_pots([10, 10], [True, True]), 10**30)
    with pytest.raises(ValueError, match="seat 1: chips must be at most"):
        simulate.allin_ev([("AhAs", 100), ("KdKc", 10**30)])


def test_top_percent():
    order = R.preflop_order()
    assert order[0][0] == "AA" and len(order) == 169
    top = R.parse_range("top 15%")
    n = len(top)
    assert n >= 0.15 * 1326
    # taking one class fewer would fall short of 15%
    classes = R.top_classes(15)
    assert n - R.class_combo_count(classes[-1]) < 0.15 * 1326
    assert len(R.parse_range("top 100%")) == 1326
    assert len(R.parse_range("top0.4%")) == 6  # AA alone is 0.45%
    assert len(R.parse_range("top 0.5%")) == 12  # 0.5% needs KK too
    assert {R.combo_class(a, b) for a, b in top.combos.tolist()} == set(classes)


@pytest.mark.parametrize("text", ["AKx", "AAs", "KAs", "AK-QJ", "AhAh", "x", "AK+-", "Q",
                                  "AKs-AQo", "top 150%", "top x%", "(AK", "AK)", "AKs:-1",
                                  "AKs:foo", "", "(,)", "AKs,,(QQ,JJ):y"])
def test_errors(text):
    with pytest.raises(CardError) as e:
        R.parse_range(text)
    assert "\n" not in str(e.value)


def test_error_message_style():
    with pytest.raises(CardError, match=r"^'AKx' is not a hand or range$"):
        R.parse_range("AKx")


def test_without_and_dense():
    r = R.parse_range("AK").without(set(parse_cards("Ah")))
    assert len(r) == 12
    assert r.dense().sum() == 12
    assert R.parse_range("random").without(set(parse_cards("AhKd2c"))).is_uniform_full(49)


def test_grid():
    names = R.grid_names()
    assert names[0][0] == "AA" and names[0][1] == "AKs" and names[1][0] == "AKo"
    assert names[12][12] == "22" and names[11][12] == "32s" and names[12][11] == "32o"
    assert sorted(R.HAND_CLASSES) == sorted(set(R.HAND_CLASSES)) and len(R.HAND_CLASSES) == 169
    assert sum(R.class_combo_count(n) for n in R.HAND_CLASSES) == 1326
    for a, b in R.ALL_COMBOS.tolist():
        i, j = R.grid_cell(a, b)
        assert names[i][j] == R.combo_class(a, b)
    idx = R.combo_class_index()
    assert np.bincount(idx, minlength=169).sum() == 1326


def test_combo_index_roundtrip():
    for i, (a, b) in enumerate(R.ALL_COMBOS.tolist()):
        assert a < b and R.combo_index(a, b) == i == R.combo_index(b, a)


def test_parse_range_keeps_expansions_but_hands_out_own_arrays():
    from simulate.ranges import parse_range

    a = parse_range("QQ+,AKs")
    a.combos[:] = 0
    a.weights[:] = 9.0
    b = parse_range("QQ+,AKs")
    assert b.combos.min() > 0 and set(b.weights.tolist()) == {1.0} and len(b) == 22
    assert b.combos.flags.writeable and b.weights.flags.writeable
    assert parse_range(" QQ+,AKs ").text == "QQ+,AKs"
    for _ in range(2):  # a bad text fails every time, not only the first
        with pytest.raises(ValueError, match="'AKx' is not a hand or range"):
            parse_range("AKx")
