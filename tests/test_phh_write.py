"""The PHH writer: read -> write -> read is the identity on every sample history, and pokerkit
0.7.7 replays what we write to the same finishing stacks; ``.phhs`` collections."""

from __future__ import annotations

import io
import warnings
from decimal import Decimal
from pathlib import Path

import pytest

from simulate.phh.parse import HandHistory, iter_hands, parse_text
from simulate.phh.write import PHHSWriter, dumps_fields, history_to_phh, write_phhs

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
