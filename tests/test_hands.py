"""The evaluator against exhaustive counts, an independent reference and peer libraries."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import examples, kernel_first_bad, quick_first
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import best_tuple, first_bad_row, five_card_tuple

import evaluator as E
from evaluator.cards import CardError
from evaluator.hands import category_index
from simulate.bench import random_cards as random_hands

SEVEN_CARD_COUNTS = {
    "High Card": 23_294_460, "One Pair": 58_627_800, "Two Pair": 31_433_400,
    "Three of a Kind": 6_461_620, "Straight": 6_180_020, "Flush": 4_047_644,
    "Full House": 3_473_184, "Four of a Kind": 224_848, "Straight Flush": 41_584,
}
SIX_CARD_COUNTS = {
    "High Card": 6_612_900, "One Pair": 9_730_740, "Two Pair": 2_532_816,
    "Three of a Kind": 732_160, "Straight": 361_620, "Flush": 205_792,
    "Full House": 165_984, "Four of a Kind": 14_664, "Straight Flush": 1_844,
}
FIVE_CARD_COUNTS = {
    "High Card": 1_302_540, "One Pair": 1_098_240, "Two Pair": 123_552,
    "Three of a Kind": 54_912, "Straight": 10_200, "Flush": 5_108,
    "Full House": 3_744, "Four of a Kind": 624, "Straight Flush": 40,
}
# distinct strengths per category among five-card hands
FIVE_CARD_CLASSES = [1277, 2860, 858, 858, 10, 1277, 156, 156, 10]


@pytest.fixture(scope="module")
def all_five() -> np.ndarray:
    # every 5-subset in order, built with numpy (itertools' tuples took 1 s; the builder is
    # checked against itertools in test_short_deck.py)
    from evaluator.hands import combinations

    return combinations(52, 5)


def test_all_five_card_hands(all_five):
    s = E.evaluate_batch(all_five, threads=1)
    assert len(s) == 2_598_960
    values, counts = np.unique(s, return_counts=True)
    assert values.tolist() == list(range(1, 7463))  # 7,462 classes, all of 1..7462
    cats = np.bincount(category_index(s), minlength=9)
    assert dict(zip(E.CATEGORIES, cats.tolist(), strict=True)) == FIVE_CARD_COUNTS
    assert np.bincount(category_index(values), minlength=9).tolist() == FIVE_CARD_CLASSES
    assert E.count_categories(5) == FIVE_CARD_COUNTS
    # 4 royal flushes, the top class
    assert int((s == 7462).sum()) == 4


@pytest.mark.slow
def test_all_five_card_hands_match_phevaluator(all_five):
    peers = pytest.importorskip("peers")
    assert peers.available("phevaluator"), "phevaluator not installed (pip install -e '.[dev]')"
    ours = E.evaluate_batch(all_five)
    theirs = peers.peer_contract_strengths("phevaluator", all_five)
    assert np.array_equal(ours, theirs)


@pytest.mark.slow
def test_all_seven_card_hands():
    hist = E.strength_histogram(7)
    assert int(hist.sum()) == 133_784_560
    assert int((hist > 0).sum()) == 4_824
    assert E.count_categories(7) == SEVEN_CARD_COUNTS


@pytest.mark.slow
def test_all_six_card_hands():
    assert E.count_categories(6, threads=1) == SIX_CARD_COUNTS


def test_walk_threads_agree():
    assert np.array_equal(E.strength_histogram(6, threads=1), E.strength_histogram(6, threads=2))


@pytest.mark.parametrize("k", [5, 6, 7])
def test_matches_slow_reference(k):
    """Same order and same ties as the max-over-subsets reference, on random hands."""
    cards = random_hands(6000, k, seed=k)
    ours = E.evaluate_batch(cards)
    ref = [best_tuple(row.tolist()) for row in cards]
    pairs = sorted(set(zip(ours.tolist(), ref, strict=True)))
    # each strength maps to one class and strength order is class order
    assert len({s for s, _ in pairs}) == len(pairs) == len({t for _, t in pairs})
    tuples = [t for _, t in pairs]
    assert tuples == sorted(tuples)


def test_five_card_order_matches_reference_exhaustively(all_five):
    """Every one of the 7,462 classes, in the reference's order."""
    ours = E.evaluate_batch(all_five)
    first = {}
    for idx in np.unique(ours, return_index=True)[1]:
        first[int(ours[idx])] = five_card_tuple(all_five[idx].tolist())
    tuples = [first[s] for s in range(1, 7463)]
    assert tuples == sorted(tuples) and len(set(tuples)) == 7462


@pytest.mark.parametrize("k,n", [*quick_first([(7, 100_000), (5, 100_000), (6, 100_000)]),
                                 *(pytest.param(k, 1_000_000, marks=pytest.mark.soak)
                                   for k in (7, 5, 6))])
@pytest.mark.parametrize("peer", ["phevaluator", "eval7"])
def test_differential_against_peers(k, peer, n):
    """Random hands per size (1,000,000 in the soak run): same ordering, same ties as the
    peer."""
    peers = pytest.importorskip("peers")
    assert peers.available(peer), f"{peer} not installed (pip install -e '.[dev]')"
    cards = random_hands(n, k, seed=100 + k)
    ours = E.evaluate_batch(cards)
    theirs = peers.peer_strengths(peer, cards)
    assert peers.same_order(ours, theirs)
    if peer == "phevaluator":
        assert np.array_equal(ours, peers.peer_contract_strengths(peer, cards))


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_matches_scalar_and_threads(k):
    cards = random_hands(120_000, k, seed=7 + k)
    one = E.evaluate_batch(cards, threads=1)
    two = E.evaluate_batch(cards, threads=2)
    assert np.array_equal(one, two)
    assert [E.evaluate(r) for r in cards[:500]] == one[:500].tolist()
    wide = E.evaluate_batch(cards.astype(np.int64))
    assert np.array_equal(wide, one)


def test_batch_errors():
    with pytest.raises(ValueError, match="shape"):
        E.evaluate_batch(np.zeros((3, 4), np.uint8))
    with pytest.raises(ValueError, match="repeated"):
        E.evaluate_batch(np.array([[0, 1, 2, 3, 3]], np.uint8))
    with pytest.raises(ValueError, match="0..51"):
        E.evaluate_batch(np.array([[0, 1, 2, 3, 60]], np.int64))
    with pytest.raises(ValueError, match="repeated or out-of-range"):
        E.evaluate_batch(np.array([[0, 1, 2, 3, 60]], np.uint8))
    assert E.evaluate_batch(np.zeros((0, 7), np.uint8)).shape == (0,)


def test_scale_endpoints():
    assert E.evaluate("AsKsQsJsTs") == 7462
    assert E.evaluate("7c5d4h3s2c") == 1
    assert E.category(7462) == "Straight Flush"
    assert E.category(1) == "High Card"
    with pytest.raises(ValueError):
        E.category(0)
    with pytest.raises(CardError, match="expected 5, 6 or 7 cards, got 4"):
        E.evaluate("AsKsQsJs")
    with pytest.raises(CardError, match="duplicate card As"):
        E.evaluate("AsKsQsJsAs")


def test_wheel_is_five_high_straight():
    wheel = E.evaluate("Ah2c3d4s5h")
    assert E.category(wheel) == "Straight"
    assert wheel < E.evaluate("2c3d4s5h6h") and wheel > E.evaluate("AhAd2c2d3s")
    assert E.describe("Ah2c3d4s5h").text == "Straight, Five high"
    assert E.describe("Ah2c3d4s5h").best_five == "5h 4s 3d 2c Ah"
    steel = E.evaluate("Ah2h3h4h5h")
    assert E.category(steel) == "Straight Flush"
    assert steel < E.evaluate("2h3h4h5h6h")


def test_no_wraparound_straight():
    assert E.category(E.evaluate("QhKdAc2s3h")) == "High Card"
    assert E.category(E.evaluate("JhQhKhAh2h")) == "Flush"


def test_kickers_break_ties():
    # same pair, better kicker wins; the sixth and seventh cards never play
    assert E.evaluate("AhAd Kc 9s 7h 3c 2d") > E.evaluate("AsAc Qc Jh 9d 3h 2c")
    assert E.evaluate("AhAdKc9s7h") == E.evaluate("AsAcKd9h7c")
    assert E.evaluate("AhAdKc9s7h 2c 3c") == E.evaluate("AsAcKd9h7c 2d 3d")
    # two pair: the fifth card decides
    assert E.evaluate("KhKd5c5s9h") > E.evaluate("KsKc5h5d8h")
    # trips on board: kickers decide, three of a kind equal
    assert E.evaluate("7h7d7c As Kd") > E.evaluate("7h7d7c Qs Jd")
    # full house: trips rank first
    assert E.evaluate("3h3d3cAsAd") > E.evaluate("2h2d2cAhAc")


def test_suits_never_break_ties():
    assert E.evaluate("AhKhQhJh9h") == E.evaluate("AsKsQsJs9s")
    assert E.evaluate("AhKd9c7s2h") == E.evaluate("AsKc9d7h2s")


def test_describe_texts():
    assert E.describe("AsKsQsJsTs").text == "Royal Flush"
    assert E.describe("9s8s7s6s5s").text == "Straight Flush, Nine high"
    assert E.describe("KhKdKs9c9d2h").text == "Full House, Kings full of Nines"
    assert E.describe("Ah9h7h4h2h").text.startswith("Flush, Ace high")
    assert E.describe("Ah Ad 4c 4s Kh 2d 3c").text == "Two Pair, Aces and Fours, King kicker"
    d = E.describe("AhAdAcAs 2c 3c Kd")
    assert d.text == "Four of a Kind, Aces, King kicker"
    assert d.best_five.split()[-1] == "Kd" and d.category == "Four of a Kind"
    assert E.describe("7h7d7c As Kd").text == "Three of a Kind, Sevens, kickers Ace, King"
    assert E.describe("QhQd9c5s3d").text == "One Pair, Queens, kickers Nine, Five, Three"
    assert E.describe("Kh9d7c5s3d").text == "High Card, King high, kickers Nine, Seven, Five, Three"


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True), st.randoms())
def test_card_order_does_not_matter(cards, rnd):
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert E.evaluate(cards) == E.evaluate(shuffled)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True),
       st.permutations(range(4)))
def test_suit_relabelling_does_not_matter(cards, perm):
    relabelled = [4 * (c // 4) + perm[c % 4] for c in cards]
    assert E.evaluate(cards) == E.evaluate(relabelled)
    assert E.evaluate(cards) == E.evaluate_batch(np.array([relabelled], np.uint8))[0]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True))
def test_more_cards_never_hurt(cards):
    assert E.evaluate(cards[:5]) <= E.evaluate(cards[:6]) <= E.evaluate(cards)
    # describe's best five is a subset that makes the same strength
    d = E.describe(cards)
    assert E.evaluate(d.best_five) == d.strength


@pytest.mark.parametrize("k", [5, 6, 7])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("bad_value", ["repeat", 52, 255])
def test_batch_check_finds_the_first_bad_row(k, threads, bad_value):
    cards = random_hands(120_000, k, seed=k)
    ok = E.evaluate_batch(cards, threads=threads)
    assert np.array_equal(ok, E.evaluate_batch(cards, threads=threads, check=False))
    for row in (0, 77_777, 119_999):
        bad = cards.copy()
        bad[row, k - 1] = bad[row, 0] if bad_value == "repeat" else bad_value
        bad[row + 1:row + 3, 1] = bad[row + 1:row + 3, 0]  # later bad rows are not reported
        with pytest.raises(ValueError, match=f"^row {row} of cards has a repeated"):
            E.evaluate_batch(bad, threads=threads)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_check_catches_every_position_and_group_edge(k):
    # The check looks at groups of 8 rows (cardcheck.GROUP) just before they are evaluated,
    # in place while its 64-byte load fits in the array, through a padded copy for the last
    # rows: a bad card in any column, in the first or last row of a group, in the rows of
    # the padded copy, in arrays shorter than a group, is reported by its own row, also
    # when a later row of the same group is bad in the other way.
    from evaluator._kernels.cardcheck import GROUP as G

    for n in (1, 5, G, G + 1, 3 * G - 1, 9 * G + 3, 100):
        cards = random_hands(n, k, seed=10 * k + n)
        assert kernel_first_bad(cards) == -1
        for row in sorted({0, G - 1, G, n - G - 1, n - 2, n - 1} & set(range(n))):
            for p in range(k):
                for q in range(k):
                    bad = cards.copy()
                    if p == q:
                        bad[row, p] = (52, 63, 64, 200, 255)[(row + p) % 5]
                    else:
                        bad[row, q] = bad[row, p]
                    if row + 1 < n:
                        bad[row + 1, 0] = 255 if p != q else bad[row + 1, 1]
                    assert kernel_first_bad(bad) == row, (n, row, p, q)


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(5, 7), st.integers(1, 300), st.integers(0, 2**32 - 1),
       st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(0, 6),
                          st.integers(0, 6), st.integers(0, 255)), max_size=4),
       st.integers(0, 7))
def test_batch_check_matches_the_reference(k, n, seed, faults, n_blocks):
    # random faults (a repeat of another column, or any id 52..255) anywhere, serial and in
    # blocks: the kernels report the reference's first bad row
    cards = random_hands(n, k, seed=seed)
    for where, p, q, value in faults:
        row = int(where * n)
        cards[row, q % k] = cards[row, p % k] if value < 52 else value
    assert kernel_first_bad(cards, n_blocks) == first_bad_row(cards)


@pytest.mark.slow
@pytest.mark.parametrize("cpu", ["haswell", "x86-64"])
def test_batch_check_on_other_instruction_sets(cpu):
    # The check is generic LLVM vector code. Compiled for an AVX2-only and an SSE2-only CPU
    # (which this machine can run), it must give the same answers.
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = ("import numpy as np\n"
            "from reference import first_bad_row\n"
            "from simulate.bench import random_cards as random_hands\n"
            "from helpers import kernel_first_bad\n"
            "rng = np.random.default_rng(5)\n"
            "for t in range(300):\n"
            "    k = 5 + t % 3\n"
            "    n = int(rng.integers(1, 200))\n"
            "    c = random_hands(n, k, t)\n"
            "    if t % 4:\n"
            "        c[int(rng.integers(n)), int(rng.integers(k))] = int(rng.integers(256))\n"
            "    assert kernel_first_bad(c) == first_bad_row(c), t\n"
            "print('ok')\n")
    env = dict(os.environ, NUMBA_CPU_NAME=cpu, NUMBA_CPU_FEATURES="", POKERJIT_CACHE="0")
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=600, cwd=Path(__file__).parent)
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stderr[-2000:]
