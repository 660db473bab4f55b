"""simulate.symmetry: the 24 suit permutations and their action on cards and combos, the
group that fixes a spot (checked against a brute-force search), the canonical boards (one
per orbit, weighted by its size, checked by sorting every completion into orbits) and the
averaging of per-combo sums over the group."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evaluator.cards import parse_cards
from simulate import symmetry as S
from simulate.ranges import ALL_COMBOS, N_COMBOS, parse_range

SUIT_PERMS = list(itertools.permutations(range(4)))  # the order perms() promises: row 0 = id


def relabel(card: int, perm: tuple[int, ...]) -> int:
    """``card`` with its suit ``s`` replaced by ``perm[s]`` (rank kept)."""
    return (card >> 2) * 4 + perm[card & 3]


COMBO_OF = {(int(a), int(b)): k for k, (a, b) in enumerate(ALL_COMBOS.tolist())}


def combo_image(k: int, perm: tuple[int, ...]) -> int:
    a, b = (relabel(int(c), perm) for c in ALL_COMBOS[k])
    return COMBO_OF[(min(a, b), max(a, b))]


#: IMAGE[j][k]: the combo index of combo k relabelled by SUIT_PERMS[j] (worked out here)
IMAGE = np.array([[combo_image(k, perm) for k in range(N_COMBOS)] for perm in SUIT_PERMS])


def brute_group(board: list[int], dead: list[int], dense: list[np.ndarray]) -> list[int]:
    """Every suit permutation (by its index in ``SUIT_PERMS``) that maps the board set onto
    itself, the dead set onto itself and every weight vector onto itself."""
    keep = []
    for j, perm in enumerate(SUIT_PERMS):
        if {relabel(c, perm) for c in board} != set(board):
            continue
        if {relabel(c, perm) for c in dead} != set(dead):
            continue
        # w is fixed when the weight of every combo's image is the combo's own weight
        if all((w[IMAGE[j]] == w).all() for w in dense):
            keep.append(j)
    return keep


def test_perms_are_the_24_suit_relabellings_acting_on_cards_and_combos():
    p, card_map, combo_map = S.perms()
    assert p.shape == (24, 4) and card_map.shape == (24, 52) and combo_map.shape == (24, 1326)
    assert p.dtype == card_map.dtype == combo_map.dtype == np.int64
    assert [tuple(r) for r in p.tolist()] == SUIT_PERMS  # row 0 is the identity
    assert (card_map[0] == np.arange(52)).all() and (combo_map[0] == np.arange(1326)).all()
    for j, perm in enumerate(SUIT_PERMS):
        assert card_map[j].tolist() == [relabel(c, perm) for c in range(52)]
        assert sorted(combo_map[j].tolist()) == list(range(N_COMBOS))  # a permutation
        assert (card_map[j] >> 2 == np.arange(52) >> 2).all()  # ranks never move
    assert (combo_map == IMAGE).all()
    # a group: closed under composition
    maps = {tuple(r) for r in card_map.tolist()}
    assert len(maps) == 24
    assert all(tuple(card_map[i][card_map[j]].tolist()) in maps
               for i in range(24) for j in range(24))
    assert S.perms() is S.perms()  # computed once


@pytest.mark.parametrize("board,dead,ranges,size", [
    ("", "", [], 24),                        # nothing fixes a suit
    ("Ah", "", [], 6),                       # hearts fixed, the other three permuted
    ("AhKh2h", "", [], 6),                   # monotone flop
    ("AhKh2c", "", [], 2),                   # two-tone flop: diamonds <-> spades
    ("AhKd2c", "", [], 1),                   # rainbow flop: three suits fixed, so the fourth
    ("AhKh2c", "3d3s", [], 2),               # a dead pair of the free suits keeps the swap
    ("AhKh2c", "3d", [], 1),                 # one dead diamond breaks it
    ("", "", ["AKs", "QQ", "random"], 24),   # suit-blind ranges keep every permutation
    ("", "", ["AhKh"], 6),                   # an exact hand fixes its suit
    ("", "", ["AhKd"], 2),                   # ... or its two suits
    ("", "", ["AhKh,AsKs"], 4),              # {h, s} kept as a set (with {c, d})
    ("", "", ["AKs:1,AhKh:2"], 6),           # a weight singles out hearts
    ("Td9d2c", "", ["QQ+,AKs", "random"], 2),
])
def test_symmetry_known_groups(board, dead, ranges, size):
    b, d = parse_cards(board), parse_cards(dead)
    dense = [parse_range(r).dense() for r in ranges]
    got = S.symmetry(b, d, dense)
    assert got.dtype == np.int64 and got.tolist() == brute_group(b, d, dense)
    assert len(got) == size and got[0] == 0  # the identity always fixes the spot
    assert 24 % size == 0  # a subgroup (Lagrange)


cards = st.integers(0, 51)


@given(st.lists(cards, max_size=5, unique=True), st.lists(cards, max_size=3, unique=True),
       st.lists(st.sampled_from(["AKs", "QQ", "T9o", "AhKh", "7c7d", "random", "Ks2s:0.5",
                                 "JTs,JhTh:3", "A2s-A5s"]), max_size=2))
def test_symmetry_equals_brute_force(board, dead, ranges):
    dead = [c for c in dead if c not in board]
    dense = [parse_range(r).dense() for r in ranges]
    got = S.symmetry(board, dead, dense).tolist()
    assert got == brute_group(board, dead, dense)
    _, card_map, _ = S.perms()
    composed = {tuple(card_map[i][card_map[j]].tolist()) for i in got for j in got}
    assert composed == {tuple(card_map[i].tolist()) for i in got}  # closed: a subgroup


def orbits(board: list[int], dead: list[int], group: np.ndarray) -> list[frozenset]:
    """Every completion of ``board`` to five cards (as a set of the cards added), sorted into
    orbits under the suit permutations ``group``."""
    _, card_map, _ = S.perms()
    avail = [c for c in range(52) if c not in set(board) | set(dead)]
    seen: dict[frozenset, int] = {}
    out: list[frozenset] = []
    for add in itertools.combinations(avail, 5 - len(board)):
        key = frozenset(add)
        if key in seen:
            continue
        orbit = frozenset(frozenset(int(card_map[j, c]) for c in add) for j in group)
        for member in orbit:
            seen[member] = len(out)
        out.append(orbit)
    return out


@pytest.mark.parametrize("board,dead", [
    ("AhKh2c", ""),        # two-tone flop: a group of 2
    ("AhKh2h", "3c"),      # monotone flop, a dead club
    ("AhKd2c", ""),        # rainbow: the identity only
    ("AhKh2c7d", ""),      # turn
    ("AhKh2c7d5s", ""),    # river: the board itself
    ("Ah7h", "Kc"),        # two cards to come... and three more
])
def test_boards_are_one_per_orbit_weighted_by_its_size(board, dead):
    b, d = parse_cards(board), parse_cards(dead)
    group = S.symmetry(b, d, [])
    got, weight = S.boards(b, d, group)
    n_add = 5 - len(b)
    avail = 52 - len(b) - len(d)
    assert got.dtype == np.uint8 and got.shape[1] == 5 and weight.dtype == np.int64
    assert int(weight.sum()) == math.comb(avail, n_add)  # every completion counted once
    assert (got[:, :len(b)] == np.array(b, np.uint8)).all()  # the board kept, in order
    expected = orbits(b, d, group)
    where = {m: i for i, o in enumerate(expected) for m in o}
    hit = [where[frozenset(row[len(b):].tolist())] for row in got]
    assert sorted(hit) == list(range(len(expected)))  # one board from each orbit
    assert [len(expected[i]) for i in hit] == weight.tolist()  # weighted by the orbit's size
    assert not set(got[:, len(b):].ravel().tolist()) & (set(b) | set(d))


def test_boards_with_the_identity_only_are_every_completion():
    b = parse_cards("Td9d2c")
    got, weight = S.boards(b, [], np.array([0]))
    assert len(got) == math.comb(49, 2) and (weight == 1).all()
    assert len({tuple(r) for r in got.tolist()}) == len(got)
    # a full board has one completion: itself
    full = parse_cards("Td9d2c7h3s")
    got, weight = S.boards(full, [], S.symmetry(full, [], []))
    assert got.tolist() == [full] and weight.tolist() == [1]


def test_boards_remember_recent_spots():
    b = parse_cards("AhKh2c")
    group = S.symmetry(b, [], [])
    first = S.boards(b, [], group)
    assert S.boards(b, [], group) is first
    # the dead cards are a set: their order does not make another spot
    d = parse_cards("3d3s")
    assert S.boards(b, d, group) is S.boards(b, d[::-1], group)


def test_symmetrise_averages_each_combo_over_its_orbit():
    """``acc[i]`` becomes the mean of ``acc`` at the images of combo ``cid[i]`` under the
    group: constant on every orbit, and the total unchanged."""
    r = parse_range("AKs,QQ,T9o")  # a set of combos every suit permutation maps onto itself
    cid = r.indices
    pos = np.full(N_COMBOS, -1, np.int64)
    pos[cid] = np.arange(len(cid))
    rng = np.random.default_rng(7)
    acc = rng.random((len(cid), 4))
    group = S.symmetry(parse_cards("AhKh2c"), [], [r.dense()])
    assert len(group) == 2
    _, _, combo_map = S.perms()
    expected = np.array([acc[[pos[combo_map[j, c]] for j in group]].mean(axis=0) for c in cid])
    total = acc.sum(axis=0)
    S.symmetrise(acc, group, cid, pos)
    assert acc == pytest.approx(expected, abs=1e-15)
    assert acc.sum(axis=0) == pytest.approx(total, abs=1e-12)
    for i, c in enumerate(cid):  # constant on orbits
        for j in group:
            assert acc[pos[combo_map[j, c]]] == pytest.approx(acc[i], abs=1e-15)


def test_symmetrise_with_the_full_group_and_with_the_identity():
    r = parse_range("AKs")
    cid = r.indices
    pos = np.full(N_COMBOS, -1, np.int64)
    pos[cid] = np.arange(4)
    acc = np.array([[1.0, 0.0], [2.0, 0.0], [3.0, 0.0], [6.0, 4.0]])
    S.symmetrise(acc, np.arange(24), cid, pos)  # every suited AK is one orbit
    assert acc.tolist() == [[3.0, 1.0]] * 4
    before = np.array([[1.0], [2.0], [3.0], [6.0]])
    acc = before.copy()
    S.symmetrise(acc, np.array([0]), cid, pos)  # the identity: nothing to average
    assert (acc == before).all()


def test_exact_range_walks_weight_each_board_by_its_orbit():
    """What the range engine relies on: summing a suit-blind quantity over the canonical
    boards, each times its weight, equals summing it over every completion."""
    b = parse_cards("Kh8h2c")
    got, weight = S.boards(b, [], S.symmetry(b, [], []))
    suit_counts = Counter()
    for row, w in zip(got.tolist(), weight.tolist(), strict=True):
        flush_possible = max(Counter(c & 3 for c in row).values()) >= 3
        suit_counts[flush_possible] += w
    every = Counter(max(Counter(c & 3 for c in b + list(add)).values()) >= 3
                    for add in itertools.combinations([c for c in range(52) if c not in b], 2))
    assert suit_counts == every
