"""The interactive Hand's fast paths give what the long ways give.

:class:`simulate.engine.Hand` reads plain betting actions (``p3 cc``, ``f``, ``p3 cbr 300``)
without its general reader and remembers them, reads scripted cards written back to back
by table, and keeps its arrays as views of one buffer (so a copy must make new views).
Each shortcut is checked here against the long way: the general reader, a deck built the
obvious way, a hand played without copying.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest

import simulate.engine.hand_text as hand_text
from evaluator.cards import CardError, card_str, parse_cards
from simulate.engine import Hand, IllegalAction, Legal, Rules
from simulate.engine.rules import kernels

HOLE6 = ["AhKh", "QsQd", "2c3c", "7d8d", "9s9h", "JcTc"]
BOARD = "Ks8h2d4d5s"


def _texts(h: Hand, rng: random.Random) -> str:
    """One action text: mostly a legal one in some spelling, often a faulty one."""
    s = h.actor
    seat = s if s is not None else rng.randrange(h.n)
    lg = h.legal
    ops = ["f", "cc"]
    if lg.min_raise_to is not None:
        ops += [f"cbr {lg.min_raise_to}", f"cbr {lg.max_raise_to}",
                f"cbr {rng.randint(lg.min_raise_to, lg.max_raise_to)}"]
    faulty = ["cbr x", "cbr", "cbr 1", "cbr 10000000", "ff", "f x", "cc 3", "cbr 1_0",
              "cbr -4", "cbr +6", "cbr 0x10"]
    op = rng.choice(ops) if rng.random() < 0.75 else rng.choice(faulty)
    who = rng.choice([f"p{seat + 1}", f"p{seat + 1}", "", f"p{(seat + 1) % h.n + 1}",
                      f"p0{seat + 1}", "p0", f"p{h.n + 1}", f"P{seat + 1}",
                      "p\u0661" if seat == 0 else f"p{seat + 1}"])
    text = f"{who} {op}".strip()
    return rng.choice([text, text, f"  {text}  ", text.replace(" ", "\t"), f"{text} # note"])


def _play(script: list[tuple], texts: list[str]) -> list[tuple]:
    """Apply ``texts`` to hands built from ``script``; what happened at each step."""
    out = []
    k = 0
    for rules, stacks, button, hole, board, n_texts in script:
        h = Hand(rules, stacks, button=button, hole=hole, board=board)
        for _ in range(n_texts):
            t = texts[k]
            k += 1
            try:
                h.act(t)
                got = "ok"
            except IllegalAction as e:
                got = str(e)
            out.append((t, got, h.actor, h.street, tuple(h.stacks), tuple(h.bets),
                        tuple(h.actions)))
        out.append(("end", h.done, h.finishing_stacks if h.done else None))
    return out


def test_fast_action_reader_matches_the_general_reader(monkeypatch):
    rng = random.Random(11)
    script, texts = [], []
    for _ in range(60):
        n = rng.randint(2, 9)
        rules = Rules(betting=rng.choice(["no-limit", "pot-limit", "fixed-limit"]),
                      blinds=(1, 2), ante=rng.choice([0, 0, 1]))
        cards = rng.sample(range(52), 2 * n + 5)
        hole = ["".join(card_str(c) for c in cards[2 * s:2 * s + 2]) for s in range(n)]
        board = "".join(card_str(c) for c in cards[2 * n:])
        stacks = [rng.randint(1, 300) for _ in range(n)]
        button = rng.randrange(n)
        h = Hand(rules, stacks, button=button, hole=hole, board=board)
        mine = []
        while not h.done and len(mine) < 80:
            t = _texts(h, rng)
            mine.append(t)
            try:
                h.act(t)
            except IllegalAction:
                pass
        script.append((rules, stacks, button, hole, board, len(mine)))
        texts += mine
    fast = _play(script, texts)
    assert hand_text._BETTING_ACTIONS  # the fast reader took some
    with monkeypatch.context() as m:
        m.setattr(hand_text, "_BETTING_ACTIONS", {})
        m.setattr(hand_text, "_read_betting_action", lambda action: None)
        slow = _play(script, texts)
    assert fast == slow
    assert sum(1 for x in fast if x[1] == "ok") > 500  # the hands really were played
    assert sum(1 for x in fast if x[0] != "end" and x[1] != "ok") > 200


def test_fast_reader_faults_name_the_same_thing():
    h = Hand(Rules(), [200] * 6, button=0, hole=HOLE6, board=BOARD)
    with pytest.raises(IllegalAction, match=r"'p07 cc': there is no player p07"):
        h.act("p07 cc")
    with pytest.raises(IllegalAction, match=r"'p0 cc': there is no player p0"):
        h.act("p0 cc")
    with pytest.raises(IllegalAction, match=r"player p5 \(seat 4\) is not to act; seat 3 is"):
        h.act("p5 cc")
    with pytest.raises(IllegalAction, match="cbr needs an integer amount"):
        h.act("p4 cbr 6.5")
    with pytest.raises(IllegalAction, match="the minimum is 4"):
        h.act("cbr 3")
    h.act("p04 cbr 6")  # the seat written with a leading zero is still seat 3
    assert h.actions[-1] == "p4 cbr 6" and h.actor == 4


def _deck_the_long_way(hole: list[str], board: str, n: int, h: int, button: int) -> list[int]:
    """The scripted deck by the dealing procedure, one card at a time."""
    hands = [parse_cards(x) for x in hole]
    b = parse_cards(board)
    spare = [c for c in range(52) if c not in {c for x in hands for c in x} | set(b)]
    deck = [hands[(button + 1 + k) % n][r] for r in range(h) for k in range(n)]
    for c in [None, b[0], b[1], b[2], None, b[3], None, b[4]]:
        deck.append(spare.pop(0) if c is None else c)
    return deck + spare


def test_scripted_deck_is_the_dealing_procedure():
    rng = random.Random(5)
    holes = {"holdem": 2, "omaha": 4, "omaha5": 5, "omaha6": 6, "pineapple": 3}
    for _ in range(400):
        game = rng.choice(list(holes))
        h = holes[game]
        n = rng.randint(2, min(10, 44 // h))
        cards = rng.sample(range(52), n * h + 5)
        sep = rng.choice(["", "", " ", ","])
        hole = [sep.join(card_str(c) for c in cards[s * h:(s + 1) * h]) for s in range(n)]
        if rng.random() < 0.3:
            hole = [x.lower() if rng.random() < 0.5 else x.upper() for x in hole]
        board = sep.join(card_str(c) for c in cards[n * h:])
        button = rng.randrange(n)
        hand = Hand(Rules(game=game), [100] * n, button=button, hole=hole, board=board)
        assert hand._deck.tolist() == _deck_the_long_way(hole, board, n, h, button)
        assert hand.hole == ["".join(card_str(c) for c in cards[s * h:(s + 1) * h])
                             for s in range(n)]


@pytest.mark.parametrize("hole, board, msg", [
    (["AhKh", "AhQd", "2c3c"], "Ks8h2d4d5s", "duplicate card Ah in seat 0's hole cards and "
                                             "seat 1's hole cards"),
    (["AhKh", "QsQd", "2c3c"], "Ks8h2d4dKh", "duplicate card Kh in seat 0's hole cards and "
                                             "board"),
    (["AhAh", "QsQd", "2c3c"], "Ks8h2d4d5s", "duplicate card Ah in seat 0's hole cards"),
    (["AhKh", "QsQx", "2c3c"], "Ks8h2d4d5s", "'Qx' in seat 1's hole cards is not a card"),
    (["AhKhQh", "QsQd", "2c3c"], "Ks8h2d4d5s", "seat 0's hole cards: holdem needs 2 cards, "
                                               "got 3"),
    (["AhKh", "QsQd", "2c3c"], "Ks8h2d4d", "board needs the five cards in order, got 4"),
])
def test_scripted_card_faults_are_named(hole, board, msg):
    with pytest.raises(CardError, match=msg):
        Hand(Rules(), [100] * 3, hole=hole, board=board)


def test_scripted_cards_in_other_spellings():
    h = Hand(Rules(), [100] * 3, hole=["10hAs", "2c, 3c", [8, 13]], board="Ks 8h 2d 4d 5s")
    assert h.hole == ["ThAs", "2c3c", "4c5d"]
    assert h.actions == ["d dh p1 ThAs", "d dh p2 2c3c", "d dh p3 4c5d"]


def test_copies_and_pickles_play_on_their_own():
    h = Hand(Rules(), [200] * 6, button=0, hole=HOLE6, board=BOARD)
    for a in ["p4 cbr 6", "p5 cc", "p6 f"]:
        h.act(a)
    for clone in (copy.deepcopy(h), pickle.loads(pickle.dumps(h))):
        assert clone.actions == h.actions and clone.stacks == h.stacks
        while not clone.done:
            clone.check_or_call()
        assert not h.done and h.actor == 0 and len(h.actions) == 9  # the original waits
        ref = Hand(Rules(), [200] * 6, button=0, hole=HOLE6, board=BOARD)
        for a in clone.actions[6:]:
            if not a.startswith("d ") and " sm " not in a:  # the betting; deals follow
                ref.act(a)
        assert ref.done and ref.finishing_stacks == clone.finishing_stacks
        assert ref.actions == clone.actions
    h.fold()  # the original still plays
    assert h.actor == 1


def test_state_arrays_are_one_buffer():
    h = Hand(Rules(), [200] * 3, button=0, hole=HOLE6[:3], board=BOARD)
    base = h._W
    for a in (h._S, h._legal_buf, h._hole, h._board, h._deck):
        assert a.base is not None and a.flags.c_contiguous and a.flags.writeable
        assert (a.base is base or a.base.base is base or a.base.base.base is base)
    assert h._S.shape == (kernels().STATE_SIZE,) and h._hole.shape == (10, 6)
    before = h._S.copy()
    h.call()
    assert (h._S != before).any() and h.stacks == [198, 199, 198]


def test_raise_amounts_beyond_int64_are_refused_in_one_line():
    h = Hand(Rules(), [400] * 6, button=0, hole=HOLE6, board=BOARD)
    top = "the stack allows at most 400"
    for amount, why in [(10**30, top), (2**63, top), (-(10**30), "the minimum is 4"),
                        (-5, "the minimum is 4")]:
        with pytest.raises(IllegalAction, match=f"seat 3 cannot raise to {amount}: {why}"):
            h.raise_to(amount)
        with pytest.raises(IllegalAction, match=f"cannot raise to {amount}: {why}"):
            h.act(f"p4 cbr {amount}")
    assert h.actions == [f"d dh p{s + 1} {x}" for s, x in enumerate(HOLE6)]  # unchanged


def test_legal_is_an_ordinary_frozen_legal():
    h = Hand(Rules(), [400] * 6, button=0, hole=HOLE6, board=BOARD)
    lg = h.legal
    assert lg == Legal(True, False, 2, 4, 400) and hash(lg) == hash(Legal(True, False, 2, 4, 400))
    assert repr(lg) == repr(Legal(True, False, 2, 4, 400))
    with pytest.raises(dataclasses.FrozenInstanceError):
        lg.fold = False  # type: ignore[misc]


def test_back_to_back_cards_are_the_codecs_fast_path():
    """Scripted cards written back to back are read by the card codec's fast path (the ids
    parse_cards gives); any other spelling, width, repeat or non-text is left to the general
    reader (None)."""
    rng = random.Random(8)
    for _ in range(200):
        h = rng.choice([2, 3, 4, 5, 6])
        n = rng.randint(2, min(10, 47 // h))
        cards = rng.sample(range(52), n * h + 5)
        hole = ["".join(card_str(c) for c in cards[s * h:(s + 1) * h]) for s in range(n)]
        board = "".join(card_str(c) for c in cards[n * h:])
        if rng.random() < 0.3:
            hole, board = [x.lower() for x in hole], board.upper()
        got = hand_text._back_to_back(hole, board, 2 * h)
        assert got == cards == parse_cards("".join(hole) + board)
    hole, board = ["AhKh", "QsQd"], "Ks8h2d4d5s"
    assert hand_text._back_to_back(hole, board, 4) == parse_cards("AhKhQsQdKs8h2d4d5s")
    for bad_hole, bad_board, width in [
        (["AhKh", "QsAh"], board, 4),  # a repeat: the general reader names it
        (["AhKh", "QsQx"], board, 4),  # not a card
        (["AhKh", "Qs Q"], board, 4),  # a space
        (["10hKh", "QsQd"], board, 4),  # another spelling, another width
        (hole, "Ks8h2d4d", 4),  # four board cards
        (hole, "Ks 8h2d4d5", 4),
        (hole, board, 6),
        (["AhKh", [8, 13]], board, 4),  # not text
        (hole, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 4),
    ]:
        assert hand_text._back_to_back(bad_hole, bad_board, width) is None
