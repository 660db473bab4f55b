"""A group's output lines as text: :func:`json_text_columns` lays out a group of exact
answers column by column (shares from a table of ``k/total`` texts, each distinct equity
written once, the rows copied end to end by a kernel), :func:`json_docs` the general way;
:func:`json_records` picks. The same bytes as ``json.dumps`` of the record
(``tests/test_batch_fast_lines.py``)."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from simulate.results import SHARE_UNIT

from .fast_lines import CARD_TEXTS


def json_records(res: Any, elapsed_s: float, heads: list[tuple[str, int, str | None]]
                 ) -> list[bytes]:
    """The output lines (``{"id", "line", "digest", "result"}`` and a newline) of the rows
    of an :class:`~simulate.many.EquityArrays`, ``heads`` giving each row's id (as JSON
    text), line number and digest: :func:`json_text_columns` where it applies, else
    :func:`json_docs`; both write what ``json.dumps`` writes with compact separators
    (tested), as UTF-8 bytes (ASCII: the ids are JSON text)."""
    out = json_text_columns(res, elapsed_s, heads)
    if out is not None:
        return out
    return [f'{{"id":{it},"line":{line},"digest":"{dg}","result":{doc}}}\n'.encode()
            for (it, line, dg), doc in zip(heads, json_docs(res, elapsed_s), strict=True)]


#: total -> (float64 bits of k / total for k = 0..total, their texts): the texts of the
#: win, tie and category shares of exact rows, looked up instead of written
_SHARE_TEXTS: dict[int, tuple[np.ndarray, np.ndarray]] = {}
MAX_TABLE_TOTAL = 1 << 16  # runouts per row at most for a table of share texts


def share_counts(values: np.ndarray, total: int) -> np.ndarray | None:
    """int64 ``k`` of each of ``values`` where it is bit for bit ``k / total`` (numpy's
    division), else None; the table of texts of ``total`` made the first time."""
    tab = _SHARE_TEXTS.get(total)
    if tab is None:
        f = np.arange(total + 1, dtype=np.int64) / np.float64(total)
        tab = _SHARE_TEXTS[total] = (f.view(np.int64),
                                     np.array([repr(x) for x in f.tolist()], dtype=object))
    v = np.ascontiguousarray(values, np.float64)
    with np.errstate(invalid="ignore"):
        k = np.rint(v * total)
    k = np.clip(np.nan_to_num(k), 0, total).astype(np.int64)
    if not np.array_equal(tab[0][k], v.view(np.int64)):
        return None
    return k


def unique_texts(values: np.ndarray, text: Any) -> tuple[list[str], np.ndarray]:
    """``(texts, index)``: ``text(v)`` of each distinct value of ``values`` (float64 or
    int64; floats told apart by their bits, so ``-0.0`` is not ``0.0``) and intp of
    ``values``' shape giving each value's place in ``texts``: the equities of a chunk of
    spots take a few thousand values, not one per number."""
    a = np.ascontiguousarray(values)
    is_float = a.dtype == np.float64
    u, inv = np.unique((a.view(np.int64) if is_float else a).ravel(), return_inverse=True)
    texts = list(map(text, (u.view(np.float64) if is_float else u).tolist()))
    return texts, inv.reshape(a.shape)


_FLOAT_TEXTS: dict[float, str] = {}  # repr of equities seen: a file's spots share many


def _float_text(v: float) -> str:
    """``repr(v)``, remembered (up to a million values; not zeros or NaN, which a float
    key would confuse)."""
    if v == 0.0 or v != v:
        return repr(v)
    t = _FLOAT_TEXTS.get(v)
    if t is None:
        if len(_FLOAT_TEXTS) >= 1 << 20:
            _FLOAT_TEXTS.clear()
        t = _FLOAT_TEXTS[v] = repr(v)
    return t


class Rows:
    """A group's output lines as rows of pieces (:mod:`simulate._kernels.text`): a piece is
    a range of one text (``data``, given, then the texts added); constant texts run
    together into one piece; a column is one piece per row."""

    def __init__(self, n: int, data: bytes = b"") -> None:
        self.n = n
        self.data = [data]
        self.size = len(data)
        self.starts: list[np.ndarray] = []
        self.lengths: list[np.ndarray] = []
        self.count = 0  # pieces so far
        self.cols: list[Any] = []  # a constant text, or intp[n] piece numbers

    def ranges(self, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """Pieces ``data[starts[k]:ends[k]]`` (int64 arrays); their numbers."""
        self.starts.append(np.asarray(starts, np.int64))
        self.lengths.append(np.asarray(ends, np.int64) - starts)
        self.count += len(starts)
        return np.arange(self.count - len(starts), self.count)

    def pieces(self, texts: list[str]) -> int:
        """Add ``texts`` (ASCII: UnicodeEncodeError otherwise) as pieces; the number of
        the first."""
        raw = "".join(texts).encode("ascii")
        lengths = np.fromiter(map(len, texts), np.int64, len(texts))
        starts = np.empty(len(texts), np.int64)
        starts[0:1] = self.size
        np.cumsum(lengths[:-1], out=starts[1:])
        starts[1:] += self.size
        self.data.append(raw)
        self.size += len(raw)
        return int(self.ranges(starts, starts + lengths)[0]) if texts else self.count

    def const(self, text: str) -> None:
        if self.cols and isinstance(self.cols[-1], str):
            self.cols[-1] += text
        else:
            self.cols.append(text)

    def column(self, numbers: np.ndarray) -> None:
        self.cols.append(numbers)

    def each(self, texts: list[str]) -> np.ndarray:
        """The numbers of new pieces ``texts``, one per row (a column to be)."""
        return self.pieces(texts) + np.arange(self.n)

    def text(self) -> tuple[np.ndarray, np.ndarray]:
        """``(text, ends)``: the rows end to end (uint8) and int64[n] where each ends."""
        from simulate._kernels.text import gather_rows

        by_col = np.empty((len(self.cols), self.n), np.int32)  # filled a column at a time
        for j, c in enumerate(self.cols):
            by_col[j] = self.pieces([c]) if isinstance(c, str) else c
        start, length = np.concatenate(self.starts), np.concatenate(self.lengths)
        idx = by_col.T
        out = np.empty(int(np.bincount(by_col.ravel(), minlength=self.count) @ length),
                       np.uint8)
        ends = np.empty(self.n, np.int64)
        gather_rows(np.frombuffer(b"".join(self.data), np.uint8), start, length, idx, out,
                    ends)
        return out, ends


def split_rows(text: np.ndarray, ends: np.ndarray) -> list[bytes]:
    """Each row of :meth:`Rows.text`'s ``(text, ends)``."""
    e, raw = ends.tolist(), text.tobytes()
    return [raw[a:b] for a, b in zip([0, *e[:-1]], e, strict=True)]


def json_text_columns(res: Any, elapsed_s: float, heads: list[tuple[str, int, str | None]]
                      ) -> list[bytes] | None:
    """:func:`json_records` by :func:`lay_out` (None where it does not apply)."""
    n = len(res)
    if len(heads) != n or n == 0:
        return None
    rows = Rows(n)
    id_t, line_t, dg_t = zip(*heads, strict=True)
    try:
        cols = [rows.each(list(t)) for t in (id_t, map(str, line_t), dg_t)]
    except UnicodeEncodeError:
        return None
    if not lay_out(rows, res, elapsed_s, *cols):
        return None
    return split_rows(*rows.text())


def lay_out(rows: Rows, res: Any, elapsed_s: float, ids: np.ndarray, lines: np.ndarray,
            digests: np.ndarray) -> bool:
    """Lay out the output lines of ``res`` (:func:`json_records`) in ``rows``, given the
    pieces of each row's id (JSON text), line number and digest, if ``res`` holds exact
    rows of one number of runouts (at most :data:`MAX_TABLE_TOTAL`) whose shares are all
    table shares (:func:`share_counts`): the keys as constants, the cards and shares looked
    up, each other number written once per value. False (``rows`` untouched) for any
    other rows."""
    from simulate.many import CATEGORY_NAMES

    if not res.exact or len(res) != rows.n or rows.n == 0:
        return False
    totals = res.samples
    t = int(totals[0])
    if not 0 < t <= MAX_TABLE_TOTAL or not (totals == t).all():
        return False
    n_players = res.equity.shape[1]
    win, tie = share_counts(res.win, t), share_counts(res.tie, t)
    cats = share_counts(res.categories, t)
    if win is None or tie is None or cats is None:
        return False
    card = rows.pieces(list(CARD_TEXTS))
    share = rows.pieces(_SHARE_TEXTS[t][1].tolist())
    rows.const('{"id":')
    rows.column(ids)
    rows.const(',"line":')
    rows.column(lines)
    rows.const(',"digest":"')
    rows.column(digests)
    rows.const('","result":{"game":"holdem","board":"')
    for j in range(res.board.shape[1]):
        rows.column(card + res.board[:, j].astype(np.intp))
    rows.const('","dead":"')
    for j in range(res.dead.shape[1]):
        rows.column(card + res.dead[:, j].astype(np.intp))
    rows.const(f'","exact":true,"samples":{t},"elapsed_s":{float(elapsed_s)!r},"players":[')
    hand = card + res.hands.astype(np.intp)
    eq_texts, eq = unique_texts(res.equity, _float_text)
    eq += rows.pieces(eq_texts)
    names = [json.dumps(c) + ":" for c in CATEGORY_NAMES]
    for p in range(n_players):
        rows.const(',{"hand":"' if p else '{"hand":"')
        rows.column(hand[:, p, 0])
        rows.column(hand[:, p, 1])
        rows.const('","equity":')
        rows.column(eq[:, p])
        rows.const(',"win":')
        rows.column(share + win[:, p])
        rows.const(',"tie":')
        rows.column(share + tie[:, p])
        rows.const(',"std_error":0.0,"categories":{')
        for c, name in enumerate(names):
            rows.const("," + name if c else name)
            rows.column(share + cats[:, p, c])
        rows.const("}}")
    rows.const(f'],"counts":{{"runouts":{t},"share_unit":{SHARE_UNIT},"shares":[')
    sh_texts, sh = unique_texts(res.shares, str)
    sh += rows.pieces(sh_texts)
    for p in range(n_players):
        if p:
            rows.const(",")
        rows.column(sh[:, p])
    rows.const("]}}}\n")
    return True


def _num(x: float) -> str:
    return repr(x) if x == x and x not in (math.inf, -math.inf) else "null"


def json_docs(res: Any, elapsed_s: float) -> list[str]:
    """Each row of an :class:`~simulate.many.EquityArrays` as the JSON text of its
    ``to_dicts()`` document, written directly (the same text ``json.dumps`` writes with
    compact separators: tested), about five times faster than building and dumping dicts."""
    from simulate.many import CATEGORY_NAMES, card_texts, hand_texts

    hand_txt = hand_texts(res.hands)
    board_txt, dead_txt = card_texts(res.board), card_texts(res.dead)
    eq, win, tie = res.equity.tolist(), res.win.tolist(), res.tie.tolist()
    cats = res.categories.tolist()
    samples = res.samples.tolist()
    se = None if res.exact else res.std_error.tolist()
    shares = res.shares.tolist()
    seeds = None if res.exact else res.seeds.tolist()
    cat_keys = [json.dumps(c) + ":" for c in CATEGORY_NAMES]
    el = repr(float(elapsed_s))
    exact = "true" if res.exact else "false"
    texts: dict[float, str] = {}  # category shares repeat a lot (counts over one total)

    def text(v: float) -> str:
        t = texts.get(v)
        if t is None:
            t = texts[v] = repr(v)
        return t

    out = []
    for i in range(len(samples)):
        players = []
        for p, hand in enumerate(hand_txt[i]):
            c = cats[i][p]
            cat = ",".join([k + text(v) for k, v in zip(cat_keys, c, strict=True)])
            players.append(f'{{"hand":"{hand}","equity":{eq[i][p]!r},"win":{win[i][p]!r},'
                           f'"tie":{tie[i][p]!r},"std_error":'
                           f'{"0.0" if se is None else _num(se[i][p])},"categories":{{{cat}}}}}')
        tail = (f'"counts":{{"runouts":{samples[i]},"share_unit":{SHARE_UNIT},"shares":'
                f'[{",".join(map(str, shares[i]))}]}}' if seeds is None
                else f'"seed":{seeds[i]}')
        out.append(f'{{"game":"holdem","board":"{board_txt[i]}","dead":"{dead_txt[i]}",'
                   f'"exact":{exact},"samples":{samples[i]},"elapsed_s":{el},'
                   f'"players":[{",".join(players)}],{tail}}}')
    return out
