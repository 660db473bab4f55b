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
from hypothesis import given
from hypothesis import strategies as st

from evaluator.cards import CARD_IDS
from simulate.batch import answer_text, chunks, fast_lines

_FAST_LINE, FastLines, card_ids = fast_lines._FAST_LINE, fast_lines.FastLines, fast_lines.card_ids
json_records, share_texts = answer_text.json_records, answer_text.share_texts
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
    return [(*a[:4], a[4] if a[4] is None else _ELAPSED.sub("", a[4]), *a[5:])
            for a in answers]


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


def test_share_texts_only_for_table_shares() -> None:
    v = np.arange(991) / np.float64(990)
    assert share_texts(v, 990).tolist() == [repr(x) for x in v.tolist()]
    assert share_texts(np.array([0.123]), 990) is None
    assert share_texts(np.array([np.nan]), 990) is None
    assert share_texts(np.array([-0.0]), 990) is None


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
        assert json_records(r, 0.25, heads) == want


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
    assert answer_text.unique_texts(v, repr).tolist() == [[repr(x) for x in r] for r in v.tolist()]
    i = np.array([[3, 2520], [0, 3]], np.int64)
    assert answer_text.unique_texts(i, str).tolist() == [["3", "2520"], ["0", "3"]]


def test_category_texts_are_the_joined_shares() -> None:
    cats = np.array([[[0, 1, 2, 3, 4, 5, 6, 7, 962], [990, 0, 0, 0, 0, 0, 0, 0, 0]]] * 3
                    ) / np.float64(990)
    got = answer_text.category_texts(cats, 990)
    from simulate.many import CATEGORY_NAMES

    want = [[",".join(f"{json.dumps(k)}:{v!r}" for k, v in zip(CATEGORY_NAMES, p, strict=True))
             for p in row] for row in cats.tolist()]
    assert got is not None and got.tolist() == want
    assert answer_text.category_texts(cats + 1e-9, 990) is None
