"""The PHH writer: read -> write -> read is the identity on every sample history, and pokerkit
0.7.7 replays what we write to the same finishing stacks; ``.phhs`` collections."""

from __future__ import annotations

import dataclasses
import io
import warnings
from decimal import Decimal
from pathlib import Path

import pytest

from simulate.notation.phh_read import HandHistory, iter_hands, parse_text
from simulate.notation.phh_write import (
    PHHSWriter,
    dumps_fields,
    hand_to_phh,
    history_to_phh,
    write_phhs,
)

DATA = Path(__file__).resolve().parent / "data" / "phh"


def samples() -> list[tuple[str, HandHistory]]:
    return [(s, h) for s, h in iter_hands(DATA) if isinstance(h, HandHistory)]


def same(a: HandHistory, b: HandHistory) -> bool:
    return a.fields == b.fields and a.actions == b.actions and a.players == b.players


def test_read_write_read_is_the_identity() -> None:
    hands = samples()
    assert len(hands) >= 200
    for src, h in hands:
        [(_, again)] = parse_text(history_to_phh(h), src)
        assert isinstance(again, HandHistory), (src, again)
        assert same(h, again), src
        assert history_to_phh(again) == history_to_phh(h)


def test_values_that_need_care() -> None:
    fields = {"variant": "NT", "starting_stacks": [Decimal("Infinity"), Decimal("12.50"), 7],
              "actions": ["p1 cc # a \"quoted\" comment"], "note": "tab\there\nnewline \\ é",
              "weird key": [Decimal("1E+5"), Decimal("5")], "flag": True, "nested": {"a": [1]}}
    text = dumps_fields(fields)
    [(_, h)] = parse_text(text)
    assert isinstance(h, HandHistory) and h.fields == fields
    assert text.startswith("variant = ")


def pokerkit_stacks(text: str) -> list[Decimal]:
    pokerkit = pytest.importorskip("pokerkit")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hh = pokerkit.HandHistory.loads(text)
        *_, state = iter(hh)
    return [Decimal(str(x)) for x in state.stacks]


def test_pokerkit_replays_what_we_write() -> None:
    """Every Hold'em/Omaha sample file: pokerkit replays our text to the same finishing stacks
    as the original text."""
    checked = 0
    for src, h in samples():
        if h.variant not in ("NT", "FT", "PT", "PO", "NO", "FO") or h.unknown_stacks:
            continue
        ours = history_to_phh(h)
        original = Path(src.split("#")[0])
        if "#" in src:
            continue  # collections: covered below
        theirs = pokerkit_stacks(original.read_text(encoding="utf-8"))
        assert pokerkit_stacks(ours) == theirs, src
        checked += 1
    assert checked >= 135


def test_phhs_collection_round_trip(tmp_path: Path) -> None:
    hands = samples()[:25]
    out = tmp_path / "c.phhs"
    assert write_phhs((h for _, h in hands), out) == 25
    again = list(iter_hands(out))
    assert [s.rsplit("#", 1)[1] for s, _ in again] == [str(i) for i in range(1, 26)]
    for (_, a), (_, b) in zip(hands, again, strict=True):
        assert isinstance(b, HandHistory) and same(a, b)
    buf = io.StringIO()
    with PHHSWriter(buf) as w:
        w.add(hands[0][1], venue="test")
        w.add(history_to_phh(hands[1][1]))
    [(_, h0), (_, h1)] = parse_text(buf.getvalue(), "x.phhs")
    assert h0.fields["venue"] == "test" and same(h1, hands[1][1])
    pokerkit = pytest.importorskip("pokerkit")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert len(list(pokerkit.HandHistory.loads_all(out.read_text()))) == 25


def played_hand(seed: int, posts: bool = False):  # type: ignore[no-untyped-def]
    """A hand played by the engine with random legal actions (any button, antes, straddles;
    with ``posts``, three or more seats and one or two posts after the blinds)."""
    import random

    from simulate.engine import Hand, Rules

    rng = random.Random(seed)
    n = rng.randint(3 if posts else 2, 6)
    game, betting = [("holdem", "no-limit"), ("omaha", "pot-limit"), ("holdem", "fixed-limit"),
                     ("holdem", "pot-limit"), ("omaha", "no-limit")][seed % 5]
    rules = Rules(game=game, betting=betting, blinds=(1, 2), ante=rng.choice([0, 1]),
                  bb_ante=rng.random() < 0.3,
                  straddles=(4,) if n > 3 and rng.random() < 0.3 else ())
    if posts:
        free = list(range(2 + len(rules.straddles), n))
        chosen = set(rng.sample(free, min(len(free), rng.randint(1, 2))))
        rules = dataclasses.replace(rules, posts=tuple(2 if i in chosen else 0
                                                       for i in range(n)))
    h = Hand(rules, [rng.randint(5, 300) for _ in range(n)], button=rng.randrange(n), seed=seed)
    while not h.done:
        lg = h.legal
        opts = [h.fold] if lg.fold else []
        opts += [h.check] if lg.check else []
        opts += [h.call] if lg.call is not None else []
        if lg.min_raise_to is not None:
            lo, hi = lg.min_raise_to, lg.max_raise_to
            opts += [lambda lo=lo: h.raise_to(lo), lambda hi=hi: h.raise_to(hi)]
        rng.choice(opts)()
    return h


def written_and_replayed(h, seed: int) -> tuple[HandHistory, list, bool]:  # type: ignore[no-untyped-def]
    """The engine hand ``h`` written as PHH and read back (``hh``): our replay (through the
    engine again) reaches ``h``'s finishing stacks, seats in PHH order (small blind first,
    button last) (``expected``); for the variants pokerkit has (NT, PO), so does pokerkit, but
    for a split pot's odd chips. Returns ``(hh, expected, whether pokerkit checked it)``."""
    from simulate.replay.hand_replay import replay

    text = hand_to_phh(h)
    n = h.n
    order = [(h.button + 1 + i) % n for i in range(n)]
    expected = [h.finishing_stacks[s] for s in order]
    [(_, hh)] = parse_text(text)
    r = replay(hh)
    assert r.error is None and r.validated and r.finishing_stacks == expected, (seed, text)
    if hh.variant not in ("NT", "PO"):
        return hh, expected, False
    theirs = pokerkit_stacks(text)
    assert sum(theirs) == sum(expected)
    assert all(abs(a - b) <= n for a, b in zip(theirs, expected, strict=True)), seed
    return hh, expected, True


def test_engine_hands_written_and_replayed() -> None:
    """A played hand's PHH: our replay (through the engine again) and pokerkit (for the
    variants it has: NT, PO) reach the same finishing stacks, seats in PHH order (small
    blind first, button last). pokerkit may differ by a split pot's odd chips only."""
    pokerkit_checked = 0
    for seed in range(40):
        h = played_hand(seed)
        hh, expected, by_pokerkit = written_and_replayed(h, seed)
        assert [Decimal(x) for x in hh.fields["finishing_stacks"]] == expected
        pokerkit_checked += by_pokerkit
    assert pokerkit_checked >= 15


def test_hands_with_posts_written_and_replayed() -> None:
    """Posts: ``to_phh`` writes them as negative ``blinds_or_straddles`` entries, our replay
    reads them back through the engine, and pokerkit (which reads PHH posts the same way)
    reaches the same finishing stacks."""
    pokerkit_checked = 0
    for seed in range(30):
        h = played_hand(seed, posts=True)
        hh, _expected, by_pokerkit = written_and_replayed(h, seed)
        n = h.n
        want = [-p if p else b for p, b in zip(
            list(h.rules.posts) + [0] * n,
            [1, 2, *h.rules.straddles] + [0] * n, strict=False)][:n]
        assert [int(x) for x in hh.blinds_or_straddles] == want, hand_to_phh(h)
        pokerkit_checked += by_pokerkit
    assert pokerkit_checked >= 10
