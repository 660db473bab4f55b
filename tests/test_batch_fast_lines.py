"""simulate.batch.fast_lines and answer_text: the fast line path (:data:`_FAST_LINE`,
:class:`FastLines`, :func:`json_text_columns`) writes, byte for byte, what the general
path (decode, check, effective request, :func:`fast_spot`, :func:`json_docs`) writes for
the same lines, under any defaults, and a whole run (resume included) writes the same
file either way."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import examples, quick_first
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import gather_rows as reference_gather_rows

from evaluator.cards import CARD_IDS
from simulate.batch import answer_text, chunks, fast_lines

_FAST_LINE, FastLines, card_ids = fast_lines._FAST_LINE, fast_lines.FastLines, fast_lines.card_ids
json_records, share_counts = answer_text.json_records, answer_text.share_counts
answer_chunk = chunks.answer_chunk
#: lines of the fast shape and lines just off it, with every kind of fault
LINES = [
    b'{"id": 0, "hands": ["4dJc", "Js9s"], "board": "6c2hAc"}',
    b'{"id":1,"hands":["AhKh","QsQd"],"board":"Ks8h2c"}',
    b' \t{ "id" :\t-7 , "hands" : [ "ahkh" ,"QSqd" ] , "board" : "ks8H2c7d" } \r',
    b'{"id": 123456789012345678, "hands": ["AhKh", "QsQd"], "board": "Ks8h2c7d3s"}',
    b'{"id": "a-b.c:d_E9", "hands": ["AhKh", "QsQd", "2c3c"], "board": "Ks8h2d"}',
    b'{"id": "", "hands": ["AhKh", "QsQd"], "board": ""}',
    b'{"id": "ten", "hands": ["AhKh", "QsQd", "2c3c", "7d8d", "9s9h", "JcTc", "4h5h", '
    b'"6s6c", "Ad2d", "KcQc"], "board": "2s7h9d"}',
    b'{"id": "eleven", "hands": ["AhKh", "QsQd", "2c3c", "7d8d", "9s9h", "JcTc", "4h5h", '
    b'"6s6c", "Ad2d", "KcQc", "3h3s"], "board": "2s7h9d"}',
    b'{"id": 2, "hands": ["AhKh", "QsQd"], "board": "Ks"}',
    b'{"id": 3, "hands": ["AhKh", "QsQd"], "board": "Ks8h"}',
    b'{"id": 4, "hands": ["AhKh", "AhQd"], "board": "Ks8h2c"}',
    b'{"id": 5, "hands": ["AhKh", "QsQd"], "board": "Ks8hKs"}',
    b'{"id": 6, "hands": ["AhKh", "QsQd"], "board": "Ah8h2c"}',
    b'{"id": 7, "hands": ["AhKh", "QsQd"], "board": "Ks8h2c", "dead": "3d"}',
    b'{"id": 8, "board": "Ks8h2c", "hands": ["AhKh", "QsQd"]}',
    b'{"id": -0, "hands": ["AhKh", "QsQd"], "board": "Ks8h2c"}',
    b'{"id": 1.0, "hands": ["AhKh", "QsQd"], "board": "Ks8h2c"}',
    b'{"id": "q\\"t", "hands": ["AhKh", "QsQd"], "board": "Ks8h2c"}',
    b'{"id": "\\u0041", "hands": ["AhKh", "QsQd"], "board": "Ks8h2c"}',
    b'{"id": "caf\xc3\xa9", "hands": ["AhKh", "QsQd"], "board": "Ks8h2c"}',
    b'{"id": 9, "hands": "AhKh QsQd", "board": "Ks8h2c"}',
    b'{"id": 10, "hands": ["AhKh", "QQ+"], "board": "Ks8h2c"}',
    b'{"id": 11, "hands": ["10hKh", "QsQd"], "board": "Ks8h2c"}',
    b'{"id": 12, "hands": ["AhKh", "QsQd"], "board": "Ks8h2c",}',
    b'{"id": 13, "hands": ["AhKh", "QsQd"], "board": "Ks 8h 2c"}',
    b'{"id": 0, "hands": ["AhKh", "QsQd"], "board": "Ks8h2c"}',
    b'{"id": "x", "hands": ["AhKh"], "board": "Ks8h2c"}',
    b'{"hands": ["AhKh", "QsQd"], "board": "Ks8h2c"}',
    b'{"id": 14, "hands": ["AhKh", "QsQd"], "board": "Ks8h2c", "samples": 300, "seed": 4}',
    b'{"id": 15, "hands": ["AhKh", "QsQd"], "board": null}',
    b'{"id": true, "hands": ["AhKh", "QsQd"], "board": "Ks8h2c"}',
    b'{"id": 16, "hands": ["XhKh", "QsQd"], "board": "Ks8h2c"}',
    b'[1, 2]',
    b'{"id": 17, "hands": ["AhKh", "QsQd"], "board": "Ks8h2c"} x',
    b'{"id": 18, "hands": ["2c2d", "3c3d", "4c4d", "5c5d", "6c6d", "7c7d", "8c8d", "9c9d", '
    b'"TcTd", "JcJd"], "board": "QcQdKc"}',
]
DEFAULTS: list[dict[str, Any]] = [
    {}, {"dead": "2c"}, {"dead": "Ks"}, {"samples": 300, "seed": 5}, {"exact": True},
    {"seed": 9}, {"board": "Ks8h2c"}, {"game": "omaha"}, {"game": " HoldEm "},
    {"kind": "range"}, {"kind": "allin"}, {"std_error": 0.05, "seed": 1},
    {"exact": False, "seed": 2}, {"dead": "10h"}, {"game": "shortdeck"},
]


_ELAPSED = re.compile(r'"elapsed_s":[^,]*,')


def _same(answers: list[Any]) -> list[Any]:
    """``answers`` with every elapsed_s taken out (the one number that depends on the run;
    the range and all-in engines time themselves)."""
    return [(*a[:4], a[4] if a[4] is None else _ELAPSED.sub(
        "", a[4].decode() if isinstance(a[4], bytes) else a[4]), *a[5:]) for a in answers]


def _general(monkeypatch: pytest.MonkeyPatch, fn: Any, *args: Any, **kw: Any) -> Any:
    with monkeypatch.context() as m:
        m.setattr(fast_lines.FastLines, "of", classmethod(lambda cls, d: None))
        return fn(*args, **kw)


def _items(lines: list[bytes]) -> list[tuple[int, bytes]]:
    return list(enumerate(lines, 1))


@pytest.mark.parametrize("defaults", DEFAULTS, ids=[json.dumps(d) for d in DEFAULTS])
def test_fast_lines_write_what_the_general_path_writes(
        defaults: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    items = _items(LINES)
    fast = answer_chunk(items, defaults, threads=1)
    general = _general(monkeypatch, answer_chunk, items, defaults, threads=1)
    assert _same(fast) == _same(general)


def test_which_lines_are_fast() -> None:
    fast = {i for i, x in enumerate(LINES) if _FAST_LINE.fullmatch(x) is not None}
    # boards of one or two cards and repeated cards match, and are then sent on
    assert fast == {0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 25, 34}
    assert FastLines.of({}) is not None and FastLines.of({"dead": "Ks"}) is not None
    for d in ({"game": "omaha"}, {"kind": "range"}, {"kind": "allin"}, {"exact": False},
              {"std_error": 0.01}, {"dead": "Xx"}, {"samples": 1 << 30}):
        assert FastLines.of(d) is None, d


def test_card_ids_agree_with_the_codec() -> None:
    texts = [t for t in CARD_IDS if _FAST_LINE.fullmatch(
        b'{"id":1,"hands":["%s%s","AhKh"],"board":""}' % (t.encode(), t.encode()))]
    assert len(texts) == (8 + 5 * 2) * 4 * 2  # either case of letter and suit
    got = card_ids("".join(texts), len(texts), 1)[:, 0].tolist()
    assert got == [CARD_IDS[t] for t in texts]


def test_share_counts_only_for_table_shares() -> None:
    v = np.arange(991) / np.float64(990)
    assert share_counts(v, 990).tolist() == list(range(991))
    texts = answer_text._SHARE_TEXTS[990][1]
    assert texts.tolist() == [repr(x) for x in v.tolist()]
    assert share_counts(np.array([0.123]), 990) is None
    assert share_counts(np.array([np.nan]), 990) is None
    assert share_counts(np.array([-0.0]), 990) is None


def test_json_records_match_json_dumps() -> None:
    """Both ways of writing a group's lines (the table of texts and, where it does not
    apply, :func:`json_docs`) write what json.dumps writes for the record."""
    from simulate.many import equity_many

    rng = np.random.default_rng(5)
    c = np.argsort(rng.random((40, 52)), axis=1)[:, :9].astype(np.uint8)
    h = c[:, :6].reshape(40, 3, 2)
    for r in (equity_many(h[:, :2], c[:, 6:9]), equity_many(h, c[:, 6:9]),
              equity_many(h[:, :2], c[:, 4:8], dead=c[:, 8:]),
              equity_many(h[:, :2], c[:, 4:9]),
              equity_many(h[:3, :2]),  # preflop: too many runouts for a table
              equity_many(h[:, :2], c[:, 6:9], exact=False, samples=50, seed=1)):
        ids = [i if i % 2 else f"s{i}\0\u2028\n\x85" if i % 4 else f"s{i}" for i in range(len(r))]
        heads = [(json.dumps(rid), i + 1, f"{i:016x}") for i, rid in enumerate(ids)]
        want = [json.dumps({"id": rid, "line": i + 1, "digest": f"{i:016x}", "result": d},
                           separators=(",", ":"), allow_nan=False) + "\n"
                for i, (rid, d) in enumerate(zip(ids, r.to_dicts(elapsed_s=0.25),
                                                 strict=True))]
        assert [x.decode() for x in json_records(r, 0.25, heads)] == want


_ws = st.sampled_from(["", " ", "  ", "\t", "\r", "\n", " \t"])
_card = st.sampled_from([t for t in CARD_IDS if len(t) == 2])
_id = st.one_of(st.integers(-10**18 + 1, 10**18 - 1).map(str),
                st.from_regex(r"[A-Za-z0-9_.:\-]{0,12}", fullmatch=True).map(json.dumps),
                st.sampled_from(["-0", "01", "1.5", "1e3", '"\\n"', '"a b"', "null"]))


@st.composite
def _lines(draw: Any) -> bytes:
    w = [draw(_ws) for _ in range(14)]
    n = draw(st.integers(1, 4))
    hands = [draw(_card) + draw(_card) for _ in range(n)]
    board = "".join(draw(_card) for _ in range(draw(st.sampled_from([0, 3, 3, 3, 4, 5, 2]))))
    sep = f'{w[0]},{w[1]}'
    text = (f'{w[2]}{{{w[3]}"id"{w[4]}:{w[5]}{draw(_id)}{w[6]},{w[7]}"hands"{w[8]}:{w[9]}['
            f'{sep.join(json.dumps(h) for h in hands)}]{w[10]},{w[11]}"board":{w[12]}'
            f'{json.dumps(board)}}}{w[13]}')
    return text.encode()


@given(st.lists(_lines(), min_size=1, max_size=12),
       st.sampled_from([{}, {"dead": "2c"}, {"samples": 200, "seed": 3}]))
def test_random_lines_same_either_way(lines: list[bytes], defaults: dict[str, Any]) -> None:
    items = _items(lines)
    fast = answer_chunk(items, defaults, threads=1)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(fast_lines.FastLines, "of", classmethod(lambda cls, d: None))
        general = answer_chunk(items, defaults, threads=1)
    assert _same(fast) == _same(general)


def test_whole_run_and_resume_same_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    """A run, a stop, a rerun with one line changed and lines repeated: the same output file
    with and without the fast path."""
    from simulate.batch import run_batch

    src = tmp_path / "in.jsonl"
    body = [*LINES[:7], LINES[0], b"# comment", b"", LINES[10], LINES[13], LINES[25]]
    outs = []
    monkeypatch.chdir(tmp_path)
    for use_fast in (True, False):
        out = Path("out.jsonl")
        with monkeypatch.context() as m:
            if not use_fast:
                m.setattr(fast_lines.FastLines, "of", classmethod(lambda cls, d: None))
            src.write_bytes(b"\n".join(body[:5]) + b"\n")
            run_batch(src, out, quiet=True, threads=1, chunk_lines=3)
            changed = [body[0].replace(b"6c2hAc", b"6c2hAd"), *body[1:]]
            src.write_bytes(b"\n".join(changed) + b"\n")
            run_batch(src, out, quiet=True, threads=1, chunk_lines=4)
        outs.append(_ELAPSED.sub("", out.read_text()))
        out.unlink()
    assert outs[0] == outs[1]
    assert '"refused":"changed"' in outs[0] and '"refused":"duplicate"' in outs[0]


def test_chunk_parse_is_line_by_line_parse() -> None:
    """The one-expression read of a chunk gives, line for line, the line-by-line read."""
    def one_by_one(lines: list[Any]) -> list[Any]:
        return [None if not isinstance(p, bytes) or (m := _FAST_LINE.fullmatch(p)) is None
                else tuple(g.decode() for g in m.groups()) for p in lines]

    fast = [x for x in LINES if _FAST_LINE.fullmatch(x)]
    for lines in (fast, fast[::-1], LINES, [fast[0], b"x"], [fast[0] + b"\n" + fast[1]],
                  [fast[0], fast[1].replace(b"}", b"}\n")], [fast[0], "an error"],
                  [fast[2], fast[2].replace(b" ", b"\xa0", 1)]):
        got = FastLines.parse(_items(lines))
        assert got == one_by_one(lines)
        if lines is fast:
            assert all(g is not None for g in got)
    assert _same(answer_chunk(_items(fast), threads=1)) == _same(
        answer_chunk(_items([*fast, b"x"]), threads=1)[:-1])


def test_unique_texts_tell_values_apart_by_bits() -> None:
    v = np.array([[0.0, -0.0], [1 / 3, np.nan], [0.0, 1 / 3]])
    texts, at = answer_text.unique_texts(v, repr)
    assert len(texts) == 4 and np.array(texts, object)[at].tolist() == [
        [repr(x) for x in r] for r in v.tolist()]
    texts, at = answer_text.unique_texts(np.array([[3, 2520], [0, 3]], np.int64), str)
    assert len(texts) == 3 and np.array(texts, object)[at].tolist() == [["3", "2520"],
                                                                         ["0", "3"]]


# ----------------------------------------------------------------------------- blocks
def _one_line(line: bytes) -> bool:
    """Whether ``line`` is of the common shape, by the regular expression (a line never
    holds a newline: the reader cuts lines there)."""
    return b"\n" not in line and _FAST_LINE.fullmatch(line) is not None


def _read(lines: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's ``(shape, cards)`` of each line (read_block's arrays, every line
    kept, shaped or not)."""
    from simulate._kernels.batch_lines import read_lines

    fast = FastLines.of({})
    assert fast is not None and fast.digest_parts is not None
    text = b"\n".join(lines)
    lengths = np.array([len(x) for x in lines], np.int64)
    ends = np.cumsum(lengths + 1) - 1
    n = len(lines)
    shape, id_at = np.empty((n, 2), np.int64), np.empty((n, 2), np.int64)
    cards = np.zeros((n, 25), np.uint8)
    keys, dg = np.empty(130 * n, np.uint8), np.empty(400 * n, np.uint8)
    read_lines(np.frombuffer(text, np.uint8), ends - lengths, ends, fast_lines._RANK_OF,
               fast_lines._SUIT_OF, *fast.digest_parts, cards, shape, id_at, keys,
               np.empty(n, np.int64), dg, np.empty(n, np.int64))
    return shape, cards


@given(st.lists(_lines(), min_size=1, max_size=12))
def test_the_line_kernel_reads_what_the_expression_reads(lines: list[bytes]) -> None:
    """:func:`read_lines` takes a line exactly when :data:`_FAST_LINE` matches it, with
    the cards the expression's groups name."""
    lines = [x for x in lines if b"\n" not in x] or [LINES[0]]
    shape, cards = _read(lines)
    for i, line in enumerate(lines):
        m = _FAST_LINE.fullmatch(line)
        assert (shape[i, 0] > 0) == (m is not None), line
        if m is not None:
            hands = re.findall(r'"(\w{4})"', m[2].decode())
            want = card_ids("".join(hands) + m[3].decode(), 1, 2 * len(hands) + len(m[3]) // 2)
            assert shape[i].tolist() == [len(hands), len(m[3]) // 2]
            assert cards[i, :want.shape[1]].tolist() == want[0].tolist()


def test_the_line_kernel_on_every_listed_line_and_its_edges() -> None:
    ten = b'"2c2d", "3c3d", "4c4d", "5c5d", "6c6d", "7c7d", "8c8d", "9c9d", "TcTd", "JcJd"'
    odd = [b'{"id": %s, "hands": ["AhKh", "QsQd"], "board": "Ks8h2c"}' % i for i in (
        b'"' + b"a" * 128 + b'"', b'"' + b"a" * 129 + b'"', b"1" * 18, b"1" * 19, b"-1",
        b'"a b"', b'"\xc3\xa9"', b"0", b"00", b"-", b'"x', b'""')]
    odd += [b'{"id": 1, "hands": [%s], "board": "%s"}' % (ten, b) for b in (
        b"", b"Ks", b"Ks8h2c7d3s", b"Ks8h2c7d3s4s", b"Ks8h2", b"Ks8h2c7d3s4")]
    odd += [b'{"id": 1, "hands": [%s, "KcKd"], "board": ""}' % ten,
            b'{"id": 1, "hands": ["AhKh" "QsQd"], "board": ""}',
            b'{"id": 1, "hands": ["AhKh",], "board": ""}',
            b'{"id": 1, "hands": ["AhK", "QsQd"], "board": ""}',
            b'{"id": 1, "hands": ["AhKhQ", "QsQd"], "board": ""}',
            b'{"id" : 1 ,"hands":["AhKh","QsQd"],"board" :"" }\t\r ',
            b'{"id": 1, "hands": ["AhKh", "QsQd"], "board": ""}}',
            b'{"id": 1, "hands": ["AhKh", "QsQd"], "board": "" ',
            b'{"ID": 1, "hands": ["AhKh", "QsQd"], "board": ""}', b"", b" ", b"{"]
    lines = [x for x in LINES + odd if b"\n" not in x]
    shape, _ = _read(lines)
    assert [bool(s) for s in shape[:, 0]] == [_one_line(x) for x in lines]
    assert sum(_one_line(x) for x in odd) >= 8  # both sides of each edge are tried


_good_id = st.one_of(st.integers(-10**17, 10**17).map(str),
                     st.from_regex(r"[A-Za-z0-9_.:\-]{0,12}", fullmatch=True).map(json.dumps))


@st.composite
def _block_lines(draw: Any) -> list[bytes]:
    """Lines of the common shape only: 2 or 3 hands, a board of 3, 4 or 5 cards, no
    card twice, ids that may repeat."""
    out = []
    for _ in range(draw(st.integers(1, 10))):
        cards = draw(st.permutations(sorted(t for t in CARD_IDS if t[0].isupper()
                                            and t[1].islower())))
        seen, picked = set(), []
        for t in cards:
            if CARD_IDS[t] not in seen:
                seen.add(CARD_IDS[t])
                picked.append(t)
            if len(picked) == 11:
                break
        n, b = draw(st.sampled_from([2, 3])), draw(st.sampled_from([3, 4, 5, 3]))
        hands = ["".join(picked[2 * k:2 * k + 2]) for k in range(n)]
        w = draw(st.sampled_from(["", " "]))
        out.append(f'{{"id":{w}{draw(_good_id)}, "hands": {json.dumps(hands)},{w}"board": '
                   f'"{"".join(picked[6:6 + b])}"}}'.encode())
    return out


@given(_block_lines())
def test_a_block_of_common_lines_is_answered_as_one(lines: list[bytes]) -> None:
    """A chunk of common lines (shapes mixed) is read and answered as one block
    (:class:`chunks.BlockAnswers`), with the bytes the line-by-line way writes."""
    items = _items(lines)
    got = answer_chunk(items, threads=1)
    assert isinstance(got, chunks.BlockAnswers)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(chunks, "_answer_block", lambda *a: None)
        by_line = answer_chunk(items, threads=1)
    assert not isinstance(by_line, chunks.BlockAnswers)
    assert _same(list(got)) == _same(by_line)
    assert _same(got[-1:]) == _same(by_line[-1:]) and got[0][:4] == by_line[0][:4]
    text = b"".join(a[4] for a in got)
    assert text == got.text.tobytes() and len(got) == len(lines)
    dead = answer_chunk(items, {"dead": "2c"}, threads=1)  # a block unless a line holds 2c
    holds_2c = any("2c" in "".join(json.loads(x)["hands"]) + json.loads(x)["board"]
                   for x in lines)  # a card, not an id that reads "2c"
    assert isinstance(dead, chunks.BlockAnswers) == (not holds_2c)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(chunks, "_answer_block", lambda *a: None)
        assert _same(list(dead)) == _same(answer_chunk(items, {"dead": "2c"}, threads=1))


def test_a_block_with_a_repeated_card_goes_line_by_line() -> None:
    lines = [LINES[0], LINES[1], LINES[10]]  # LINES[10] holds Ah twice
    got = answer_chunk(_items(lines), threads=1)
    assert not isinstance(got, chunks.BlockAnswers)
    assert "error" in json.loads(got[2][4]) and "error" not in json.loads(got[0][4])


def test_whole_runs_of_common_lines_with_repeated_ids(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks write whole when their ids are new; an id seen before (in the block or an
    earlier one) or a rerun sends the block through the line-by-line bookkeeping: the
    same file either way."""
    from simulate.batch import run_batch

    body = [LINES[0], LINES[1], LINES[3], LINES[0].replace(b"6c2hAc", b"6c2hAd"), LINES[4],
            LINES[1], LINES[5], LINES[6]]
    src = tmp_path / "in.jsonl"
    outs = []
    for block in (True, False):
        out = tmp_path / "out.jsonl"
        with monkeypatch.context() as m:
            if not block:
                m.setattr(chunks, "_answer_block", lambda *a: None)
            for size in (2, 3):
                src.write_bytes(b"\n".join(body[:2 * size]) + b"\n")
                run_batch(src, out, quiet=True, threads=1, chunk_lines=size)
                changed = [body[0].replace(b"4dJc", b"4dJd"), *body[1:]]
                src.write_bytes(b"\n".join(changed) + b"\n")
                run_batch(src, out, quiet=True, threads=1, chunk_lines=size)
        outs.append(_ELAPSED.sub("", out.read_text()))
        out.unlink()
    assert outs[0] == outs[1]
    assert '"refused":"duplicate"' in outs[0] and '"refused":"changed"' in outs[0]


@given(st.binary(min_size=1, max_size=64), st.data())
def test_gather_rows_is_the_join_of_the_pieces(text: bytes, data: Any) -> None:
    from simulate._kernels.text import gather_rows

    k = data.draw(st.integers(1, 6))
    start = [data.draw(st.integers(0, len(text) - 1)) for _ in range(k)]
    length = [data.draw(st.integers(0, len(text) - s)) for s in start]
    width = data.draw(st.integers(1, 5))
    idx = data.draw(st.lists(st.lists(st.integers(0, k - 1), min_size=width, max_size=width),
                             min_size=1, max_size=4))
    want = reference_gather_rows(text, start, length, idx)
    out = np.empty(sum(map(len, want)), np.uint8)
    ends = np.empty(len(idx), np.int64)
    gather_rows(np.frombuffer(text, np.uint8), np.array(start, np.int64),
                np.array(length, np.int64), np.array(idx, np.int32), out, ends)
    assert answer_text.split_rows(out, ends) == want


@given(st.lists(st.binary(max_size=400), min_size=1, max_size=8))
def test_the_digest_kernel_is_blake2b(pieces: list[bytes]) -> None:
    """:func:`blake2b_8` is ``hashlib.blake2b(digest_size=8)`` on each piece (every length
    around the 128-byte blocks included, the empty piece too)."""
    import hashlib

    from simulate._kernels.batch_lines import blake2b_8

    pieces = [p.replace(b"\n", b"") for p in pieces] + [b"", b"x" * 128, b"y" * 129, b"z" * 256]
    text = b"\n".join(pieces)
    ends = np.cumsum([len(p) + 1 for p in pieces]) - 1
    out = np.empty(16 * len(pieces), np.uint8)
    blake2b_8(np.frombuffer(text, np.uint8), ends, *fast_lines._BLAKE2B, out)
    assert out.tobytes().decode() == "".join(hashlib.blake2b(p, digest_size=8).hexdigest()
                                             for p in pieces)


# ----------------------------------------------------------------------------- fields
#: fields the contract allows on an equity line, with values that keep a line fast or not
FIELD_SETS: list[dict[str, Any]] = [
    {"exact": True}, {"exact": None}, {"samples": 300, "seed": 4}, {"seed": 9},
    {"game": "holdem"}, {"game": " HoldEm "}, {"dead": []}, {"dead": ""}, {"dead": "2c"},
    {"dead": ["2c", "3d"]}, {"kind": "equity"}, {"kind": None}, {"samples": None},
    {"exact": True, "game": "holdem", "dead": [], "kind": "equity", "seed": 3},
    {"exact": True, "std_error": None}, {"dead": "Ks"},
    # these need the general path (or are faults it names)
    {"exact": False, "seed": 2}, {"game": "omaha"}, {"game": "shortdeck"}, {"kind": "range"},
    {"kind": "allin"}, {"std_error": 0.05, "seed": 1}, {"samples": (1 << 22) + 1, "seed": 1},
    {"samples": 0},
    {"dead": "Xx"}, {"samples": 300, "exact": True}, {"seed": -1},
    {"exact": "yes"}, {"game": 7}, {"dead": [1]},
]
FIELD_DEFAULTS: list[dict[str, Any]] = [{}, {"exact": True}, {"samples": 300, "seed": 5},
                                        {"dead": "4h"}, {"kind": "allin"}, {"game": "omaha"},
                                        {"std_error": 0.05, "seed": 1}]


def _field_lines(fields: dict[str, Any]) -> list[bytes]:
    """Heads-up lines (flop, turn, preflop) carrying ``fields`` after their board."""
    return [json.dumps({"id": n, "hands": hands, "board": board, **fields}).encode()
            for n, (hands, board) in enumerate([(["AhKh", "QsQd"], "2c7d9h"),
                                                (["Jc9c", "8d8s"], "2c7d9hTs"),
                                                (["AhKh", "QsQd"], ""),
                                                (["6h6s", "Ad5d"], "TdJdQd")])]


def _needs_general(line: bytes, defaults: dict[str, Any]) -> bool:
    """What the general path itself does with the line: anything but grouping it for
    equity_many (a fault, another kind, game or sampling) is the general path's to do."""
    from simulate.batch.requests import BadRequest, effective

    try:
        return chunks.fast_spot(effective(json.loads(line), defaults)) is None
    except BadRequest:
        return True


@pytest.mark.parametrize("defaults", quick_first(FIELD_DEFAULTS),
                         ids=[json.dumps(d) for d in FIELD_DEFAULTS])
def test_fields_keep_a_line_fast_when_their_values_allow(
        defaults: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Every field the contract allows on an equity line keeps the line on the fast path
    (not decoded as JSON; a chunk of exact lines carrying the same fields is one block)
    unless the general path is what it needs; the bytes are the general path's."""
    from simulate.batch import files

    decoded: list[bytes] = []
    real = files.Input.decode

    def counting(raw: bytes, n: int, header: Any) -> Any:
        decoded.append(raw)
        return real(raw, n, header)

    for fields in FIELD_SETS:
        lines = _field_lines(fields)
        items = _items(lines)
        decoded.clear()
        with monkeypatch.context() as m:
            m.setattr(files.Input, "decode", staticmethod(counting))
            fast = answer_chunk(items, defaults, threads=1)
        general = _general(monkeypatch, answer_chunk, items, defaults, threads=1)
        assert _same(list(fast)) == _same(general), fields
        want = [x for x in lines if _needs_general(x, defaults)]
        assert decoded == want, fields
        flop = _items(lines[:2] + lines[3:])  # exact tables: one block when fast and exact
        got = answer_chunk(flop, defaults, threads=1)
        assert _same(list(got)) == _same(_general(monkeypatch, answer_chunk, flop, defaults,
                                                  threads=1))
        if not want and isinstance(general[0][4], bytes) and '"exact":true' in (
                general[0][4].decode()):
            assert isinstance(got, chunks.BlockAnswers), fields


def test_lines_carrying_different_fields_go_line_by_line_and_stay_fast() -> None:
    lines = [*_field_lines({"exact": True})[:2], *_field_lines({"seed": 3})[:2],
             *_field_lines({})[:2]]
    items = _items(lines)
    got = answer_chunk(items, threads=1)
    assert not isinstance(got, chunks.BlockAnswers)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(fast_lines.FastLines, "of", classmethod(lambda cls, d: None))
        assert _same(got) == _same(answer_chunk(items, threads=1))
    parsed, fasts = fast_lines.parse_lines(items, FastLines.of({}), {})
    assert all(p is not None for p in parsed) and len({id(f) for f in fasts}) == 3


_field = st.sampled_from([
    '"exact": true', '"exact": null', '"exact": false, "seed": 5', '"seed": 7',
    '"samples": 200, "seed": 1', '"game": "holdem"', '"game": "omaha"', '"dead": []',
    '"dead": ["3s"]', '"dead": "3s 4s"', '"kind": "equity"', '"kind": "range"',
    '"std_error": 0.1, "seed": 2', '"std_error": null', '"seed": 18446744073709551616',
    '"samples": 1e3', '"dead": "\\u0033s"', '"hands": ["AhKh", "QsQd"]'])


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.tuples(_lines(), st.lists(st.tuples(_ws, _field, _ws), max_size=3)),
                min_size=1, max_size=8),
       st.sampled_from([{}, {"dead": "2c"}, {"samples": 200, "seed": 3}, {"exact": True}]))
def test_random_lines_with_fields_same_either_way(lines: list[tuple[bytes, list[Any]]],
                                                  defaults: dict[str, Any]) -> None:
    payloads = []
    for line, fields in lines:
        tail = "".join(f"{a},{b}{f}" for a, f, b in fields).encode()
        end = line.rindex(b"}")
        payloads.append(line[:end] + tail + line[end:])
    for chunk in (payloads, [payloads[0]] * 3):
        items = _items(chunk)
        fast = answer_chunk(items, defaults, threads=1)
        with pytest.MonkeyPatch.context() as m:
            m.setattr(fast_lines.FastLines, "of", classmethod(lambda cls, d: None))
            general = answer_chunk(items, defaults, threads=1)
        assert _same(list(fast)) == _same(general)
