"""The PHH reader under hostile input: every problem is that hand's error and the rest of the
file (or folder) is still read; collections are streamed."""

from __future__ import annotations

import io
from decimal import Decimal
from pathlib import Path
from unittest import mock

import pytest

from simulate.notation import phh_sections
from simulate.notation.phh_read import (
    MAX_HAND_BYTES,
    HandHistory,
    PHHError,
    iter_hands,
    iter_sections,
    parse_action,
    parse_card_text,
    parse_text,
)

GOOD = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 AcAd', 'd dh p2 KcKd', 'p2 f']
"""


def collection(*bodies: str | bytes) -> bytes:
    out = b""
    for i, body in enumerate(bodies, 1):
        out += f"[{i}]\n".encode() + (body.encode() if isinstance(body, str) else body) + b"\n"
    return out


def kinds(items: list) -> list[str]:
    return ["ok" if isinstance(h, HandHistory) else str(h) for _, h in items]


@pytest.mark.parametrize("bad, message", [
    ("actions = " + "[" * 5000 + "]" * 5000, "nested too deeply"),
    ("starting_stacks = [" + "9" * 5000 + ", 1]", "not valid PHH/TOML"),
    ("starting_stacks = [1e999999, 1]", "too large"),
    ("starting_stacks = [nan, 1]", "not an amount"),
    ("antes = [inf, 0]", "not an amount"),
    ("x = 'a\ufeffb'", "byte-order mark inside the file"),
    ("variant = ", "not valid PHH/TOML"),
])
def test_hostile_hand_is_its_own_error(bad: str, message: str) -> None:
    body = GOOD.replace("variant = 'NT'\n", "") if bad.startswith("variant") else GOOD
    key = bad.split("=")[0].strip()
    body = "\n".join(ln for ln in body.splitlines() if not ln.startswith(key + " ")) + "\n" + bad
    items = parse_text(collection(GOOD, body, GOOD), "c.phhs")
    assert [s for s, _ in items] == ["c.phhs#1", "c.phhs#2", "c.phhs#3"]
    got = kinds(items)
    assert got[0] == "ok" and got[2] == "ok"
    assert message in got[1] and "\n" not in got[1]


def test_enormous_bet_is_named() -> None:
    body = GOOD.replace("'p2 f'", "'p2 cbr 1e30'")
    [(_, err)] = parse_text(body)
    assert isinstance(err, PHHError) and "too large" in str(err) and "p2 cbr 1e30" in str(err)


def test_non_utf8_bytes_spoil_only_their_hand() -> None:
    body = GOOD.encode().replace(b"actions", b"# caf\xe9\nactions")
    items = parse_text(collection(GOOD, body, GOOD), "c.phhs")
    got = kinds(items)
    assert got[0] == got[2] == "ok"
    assert got[1].startswith("not UTF-8 text (byte 0xe9 at line ")


def test_bom_skipped_at_start_only() -> None:
    [(_, h)] = parse_text(b"\xef\xbb\xbf" + GOOD.encode())
    assert isinstance(h, HandHistory)
    items = parse_text(b"\xef\xbb\xbf" + collection(GOOD, b"\xef\xbb\xbf" + GOOD.encode()))
    got = kinds(items)
    assert got[0] == "ok" and "byte-order mark inside the file (line 10)" in got[1]


def test_binary_garbage_and_empty() -> None:
    [(_, h)] = parse_text(bytes(range(256)) * 4)
    assert isinstance(h, PHHError)
    [(_, h)] = parse_text(b"")
    assert isinstance(h, PHHError) and "not a PHH hand" in str(h)
    [(_, h)] = parse_text(b"title = 'a poem'\n")
    assert isinstance(h, PHHError) and "missing field 'variant'" in str(h)


def test_preamble_and_line_numbers() -> None:
    items = parse_text(b"# comment\n\n" + collection(GOOD, "variant = 'NT'\nx = ]"))
    assert kinds(items)[0] == "ok"
    assert "line 13" in kinds(items)[1]          # the file's line, not the section's
    items = parse_text(b"variant = 'NT'\n" + collection(GOOD))
    assert kinds(items) == ["fields outside any [N] section", "ok"]


def test_oversized_hand_is_skipped_in_bounded_memory() -> None:
    big = GOOD + "note = '" + "x" * (MAX_HAND_BYTES + 10) + "'\n"
    items = list(iter_sections(io.BytesIO(collection(GOOD, big, GOOD)), "c"))
    assert [d if isinstance(d, PHHError) else "ok" for _, _, d in items][::2] == ["ok", "ok"]
    assert "larger than 1 MiB" in str(items[1][2])


def test_decimal_amounts_and_unknown_stacks() -> None:
    [(_, h)] = parse_text(GOOD.replace("[100, 100]", "[inf, 12.75]"))
    assert isinstance(h, HandHistory)
    assert h.starting_stacks == [Decimal("Infinity"), Decimal("12.75")] and h.unknown_stacks


def test_a_bad_file_does_not_stop_a_folder(tmp_path: Path) -> None:
    (tmp_path / "a.phh").write_text(GOOD)
    (tmp_path / "b.phh").write_bytes(b"\x00\x01\x02garbage")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "c.phhs").write_bytes(collection(GOOD, GOOD))
    (sub / "ignored.txt").write_text("not a hand")
    items = list(iter_hands(tmp_path))
    names = [Path(s).name for s, _ in items]
    assert names == ["a.phh", "b.phh", "c.phhs#1", "c.phhs#2"]
    assert kinds(items)[1] != "ok" and kinds(items).count("ok") == 3
    with pytest.raises(FileNotFoundError):
        list(iter_hands(tmp_path / "missing"))


def _sections_reference(stream, source, first_line=1):  # type: ignore[no-untyped-def]
    """iter_sections as first written (a generator of line pieces, one add per piece): the
    reference for the written-out loop."""
    from simulate.notation.phh_sections import _BOM, HEADER_RE, _finish, _Section

    def pieces():  # type: ignore[no-untyped-def]
        at_start = True
        while True:
            piece = stream.readline(1 << 16)
            if not piece:
                return
            yield piece, at_start
            at_start = piece.endswith(b"\n")

    cur = _Section(None, first_line)
    seen_header, lineno, first = False, first_line - 1, True
    for piece, line_start in pieces():
        if first:
            first = False
            if piece.startswith(_BOM):
                piece = piece[len(_BOM):]
        if line_start:
            lineno += 1
            m = HEADER_RE.match(piece) if piece[:1] in b"[ \t" else None
            if m is not None:
                item = _finish(cur, source, True)
                if item is not None:
                    yield item
                seen_header = True
                cur = _Section(m.group(1).decode("utf-8", "replace").strip("'\""), lineno + 1)
                continue
        cur.add(piece)
    item = _finish(cur, source, seen_header)
    if item is not None:
        yield item


def test_iter_sections_matches_its_reference() -> None:
    import random

    from simulate.notation.phh_synth import synthetic_hands

    rng = random.Random(5)
    hands = [h.encode() for h in synthetic_hands(20, seed=1)]
    bits = [b"\xef\xbb\xbf", b"# c\n", b"\n", b"x = 1\n", b"[1]\n", b"  [ 'a b' ] # c\r\n",
            b'["q"]', b"[a.b]\n", b"[2]", b"[" * 70000 + b"\n", b"y" * 70000, b"\xff\n",
            b"z = '" + b"q" * (1 << 20) + b"'\n", b"\r\n", b"[3]\n[4]\n"]
    for i in range(300):
        parts = [rng.choice(bits + hands) for _ in range(rng.randint(0, 12))]
        data = b"".join(parts)
        first = rng.choice([1, 1, 40])
        want = [(s, ln, str(d) if isinstance(d, PHHError) else d)
                for s, ln, d in _sections_reference(io.BytesIO(data), "f", first)]
        # blocks of any size (a block boundary anywhere in a line, a header, the mark);
        # the tiniest on the smaller inputs only (a byte a read over a megabyte is a minute)
        block = rng.choice([1, 2, 5, 4096, 70000, 1 << 20] if len(data) <= 20_000
                           else [61, 4096, 70000, 1 << 20] if len(data) <= 300_000
                           else [4096, 70000, 1 << 20])
        offsets: dict[int, int] = {}
        with mock.patch.object(phh_sections, "READ_BLOCK", block):
            got = [(s, ln, str(d) if isinstance(d, PHHError) else d)
                   for s, ln, d in iter_sections(io.BytesIO(data), "f", first, offsets)]
        assert got == want, (i, block, data[:200])
        # each section's header: where ``offsets`` says, on the line before its first
        for s, ln, _ in got:
            if "#" in s:
                at = offsets.pop(ln)
                assert data.count(b"\n", 0, at) == ln - first - 1, (i, s)
                assert at in (0, len(phh_sections._BOM)) or data[at - 1:at] == b"\n"
        assert not offsets
    for data in (b"", b"\xef\xbb\xbf", b"\xef\xbb\xbf[1]\na = 1\n"):
        assert list(iter_sections(io.BytesIO(data), "f")) == list(
            _sections_reference(io.BytesIO(data), "f"))


# ---------------------------------------------------------------- cards and actions
def test_card_text() -> None:
    assert parse_card_text("AcKd") == [48, 45]
    assert parse_card_text("????") == [None, None]
    assert parse_card_text("????Ac") == [None, None, 48]
    assert parse_card_text("2c") == [0]
    with pytest.raises(PHHError, match="bad cards"):
        parse_card_text("AcX")


def test_actions() -> None:
    a = parse_action("d dh p3 7sAd", 6)
    assert (a.actor, a.kind, a.target, a.cards) == (None, "dh", 2, [23, 49])
    a = parse_action("d db AhKh2c", 6)
    assert (a.kind, a.cards) == ("db", [50, 46, 0])
    a = parse_action("p2 cbr 1720.35  # shove", 6)
    assert (a.actor, a.kind, a.amount) == (1, "cbr", Decimal("1720.35"))
    assert parse_action("p1 f", 2).kind == "f"
    assert parse_action("p1 cc", 2).kind == "cc"
    assert parse_action("p5 pb", 6).kind == "pb"
    assert parse_action("p1 sm", 2).cards is None          # muck
    assert parse_action("p1 sm AcKd", 2).cards == [48, 45]
    assert parse_action("p1 sd", 2).cards is None          # stand pat
    for bad, msg in [("p7 f", "only 6 players"), ("p1 xx", "unknown action"),
                     ("p1 cbr", "want 'pN cbr AMOUNT'"), ("p1 cbr -5", "not an amount"),
                     ("q1 f", "not a player"), ("d zz", "unknown dealer action"),
                     ("p1 f extra", "takes nothing")]:
        with pytest.raises(PHHError, match=msg):
            parse_action(bad, 6)
