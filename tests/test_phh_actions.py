"""The one PHH action reader (simulate/notation/actions.py) and the compiled byte reader of plain
hands (simulate/_kernels/replay.parse_actions) that stays beside it: on random action
streams the compiled reader takes nothing the reader refuses, and what it takes it reads
as the reader does (the row the replay's encoder makes of the parsed action)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from evaluator.cards import CARD_PAIRS, CARD_SLOTS, CARD_TEXT, UNKNOWN
from simulate.notation.actions import ActionError, parse_action, parse_card_text

N = 6


def _cards(rng: random.Random, k: int) -> str:
    out = []
    for _ in range(k):
        u = rng.random()
        c = rng.choice(CARD_TEXT)
        out.append("??" if u < 0.15 else c.upper() if u < 0.2 else c.lower() if u < 0.25 else c)
    return "".join(out)


def _plain(rng: random.Random) -> str:
    """An action in the form hand histories are written in (most are ones the fast path
    takes)."""
    p = f"p{rng.randint(1, N)}"
    u = rng.random()
    if u < 0.15:
        return f"d dh {p} {_cards(rng, 2)}"
    if u < 0.25:
        return f"d db {_cards(rng, rng.choice([1, 3]))}"
    if u < 0.45:
        return f"{p} f"
    if u < 0.7:
        return f"{p} cc"
    if u < 0.9:
        return f"{p} cbr {rng.choice([0, 1, 7, 40, 123456, 10**15])}"
    return f"{p} sm {rng.choice([_cards(rng, 2), '????', ''])}".rstrip()


def _mutated(rng: random.Random, text: str) -> str:
    """``text`` with one fault or odd spelling of the kinds real files have."""
    ops = [
        lambda t: t.replace(" ", "  ", 1), lambda t: f" {t}", lambda t: f"{t} ",
        lambda t: t.replace("p", "p0", 1), lambda t: t.replace("p", "P", 1),
        lambda t: t + " # note", lambda t: t.replace("cbr ", "cbr 1e", 1),
        lambda t: t.replace("cbr ", "cbr 0", 1), lambda t: t.replace("cbr ", "cbr -", 1),
        lambda t: t[:-1], lambda t: t + "x", lambda t: t.replace("p", "p9", 1),
        lambda t: t.replace(" ", "\t", 1), lambda t: t.replace("cc", "cc 3"),
        lambda t: t.replace("d ", "d dx ", 1), lambda t: t + "Ah",
        lambda t: t.replace("h", "\u2665", 1), lambda t: t.replace(" f", " pb"),
        lambda t: t.replace("cbr ", "cbr 12.5", 1), lambda t: t.replace("sm ", "sd ", 1),
    ]
    return rng.choice(ops)(text)


def _compiled(texts: list[str]) -> tuple[int, np.ndarray]:
    from simulate._kernels.replay import parse_actions

    body = "[" + ", ".join(f"'{t}'" for t in texts) + "]"
    data = np.frombuffer(body.encode("utf-8"), np.uint8)
    rows = np.zeros((len(texts) + 1, 10), np.int64)
    return parse_actions(data, 0, len(data), N, rows, CARD_PAIRS), rows


def _expected_row(text: str) -> tuple[int, ...] | None:
    """The reader's action as the replay encodes it (None: the reader refuses it or the
    encoder does not take it)."""
    from simulate.replay import engine_check
    from simulate.replay.accounting import Units

    try:
        a = parse_action(text, N)
    except ActionError:
        return None
    return _norm(engine_check._encode_one(a, Units(1)))


def _norm(row) -> tuple[int, ...] | None:  # type: ignore[no-untyped-def]
    """A row with a show of unknown cards reduced to what both readers state (the compiled
    one also keeps how many cards were shown, for the hole-card count it reports)."""
    if row is None:
        return None
    row = tuple(int(x) for x in row)
    return row[:3] if row[0] == 6 else row


@pytest.mark.slow
def test_the_compiled_reader_agrees_with_the_reader_on_random_streams() -> None:
    rng = random.Random(19)
    taken = refused = 0
    for _ in range(3000):
        text = _plain(rng) if rng.random() < 0.6 else _mutated(rng, _plain(rng))
        if "'" in text:
            continue
        m, rows = _compiled([text])
        want = _expected_row(text)
        if m == 1:  # taken: the reader reads it the same
            taken += 1
            assert want is not None, text
            assert _norm(rows[0]) == want, (text, rows[0], want)
        else:
            refused += 1
            assert m == -1
            plain = text == " ".join(text.split()) and text.isascii() \
                and max(map(len, text.split())) <= 16  # (longer amounts: left to Python)
            if want is not None and want[0] != 7 and plain and "#" not in text:
                # a plain action the replay encodes: the compiled reader takes it too
                pytest.fail(f"the compiled reader refuses {text!r}")
    assert taken > 1000 and refused > 300


def test_the_compiled_reader_reads_whole_streams() -> None:
    rng = random.Random(23)
    for _ in range(200):
        texts = [_plain(rng) for _ in range(rng.randint(1, 12))]
        m, rows = _compiled(texts)
        want = [_expected_row(t) for t in texts]
        if m >= 0:
            assert m == len(texts)
            assert [_norm(r) for r in rows[:m]] == want
        else:  # some action is one the fast path leaves to the per-action replay
            assert any(w is None or w[0] == 7 for w in want), texts


def test_card_text_is_read_by_the_codec() -> None:
    assert parse_card_text("AcKd") == [48, 45]
    assert parse_card_text("????") == [None, None]
    assert parse_card_text(" - ") == []
    with pytest.raises(ActionError, match=r"bad cards 'AcK': cannot read 'K'"):
        parse_card_text("AcK")
    for t, c in CARD_SLOTS.items():
        assert parse_card_text(t) == [None if c == UNKNOWN else c]


def test_the_engine_dialect() -> None:
    a = parse_action("p04 cbr 6 # note", 6, engine=True)
    assert (a.actor, a.kind, a.amount) == (3, "cbr", 6)
    assert parse_action("cc", 6, engine=True).actor is None
    assert parse_action("p2 cbr 6.5", 6, engine=True).amount is None  # the hand refuses it
    assert parse_action("d dh p1 Ah Kh", 6, engine=True).arg == "Ah Kh"
    for text, msg in [("f x", "is not an action"), ("p0 cc", "there is no player p0"),
                      ("d x", "is not a deal"), ("d dh p7 AhKh", "names a player p1..p6"),
                      ("sm AhKh", "a show names its player"), ("", "empty action")]:
        with pytest.raises(ActionError, match=msg):
            parse_action(text, 6, engine=True)
    # the hand history's dialect is strict about the same texts
    for text, msg in [("p04 cbr 6", "is not a player"), ("cc", "is not a player"),
                      ("p2 cbr -5", "is not an amount"), ("p7 cc", "only 6 players")]:
        with pytest.raises(ActionError, match=msg):
            parse_action(text, 6)
