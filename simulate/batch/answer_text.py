"""A group's output lines as text: :func:`json_text_columns` lays out a group of exact
heads-up answers column by column (shares from a table of ``k/total`` texts, each distinct
equity and categories row written once, one join per group), :func:`json_docs` and
:func:`json_records` the general way; the same bytes as ``json.dumps`` of the record
(``tests/test_batch_fast_lines.py``)."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from simulate.results import SHARE_UNIT

from .fast_lines import _CARD_TEXTS


def json_records(res: Any, elapsed_s: float, heads: list[tuple[str, int, str | None]]
                 ) -> list[str]:
    """The output lines (``{"id", "line", "digest", "result"}`` and a newline) of the rows
    of an :class:`~simulate.many.EquityArrays`, ``heads`` giving each row's id (as JSON
    text), line number and digest: :func:`json_text_columns` where it applies, else
    :func:`json_docs`; both write what ``json.dumps`` writes with compact separators
    (tested)."""
    out = json_text_columns(res, elapsed_s, heads)
    if out is not None:
        return out
    return [f'{{"id":{it},"line":{line},"digest":"{dg}","result":{doc}}}\n'
            for (it, line, dg), doc in zip(heads, json_docs(res, elapsed_s), strict=True)]


#: total -> (float64 bits of k / total for k = 0..total, their texts): the texts of the
#: win, tie and category shares of exact rows, looked up instead of written
_SHARE_TEXTS: dict[int, tuple[np.ndarray, np.ndarray]] = {}
MAX_TABLE_TOTAL = 1 << 16  # runouts per row at most for a table of share texts


def share_texts(values: np.ndarray, total: int) -> np.ndarray | None:
    """object array of ``repr`` of each of ``values`` (float64, each ``k / total`` as
    numpy divides it), looked up in a table of the ``total + 1`` possible shares; None if
    any value is not bit for bit such a share (the caller then writes each one)."""
    k = share_counts(values, total)
    return None if k is None else _SHARE_TEXTS[total][1][k]


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


#: odd multipliers mixing a row of category counts into one number (checked, never trusted)
_MIX = np.array([0x9E3779B97F4A7C15 >> s | 1 for s in range(0, 18, 2)], np.uint64)


def category_texts(values: np.ndarray, total: int) -> np.ndarray | None:
    """object[N, P]: the text of each player's ``categories`` object body
    (``"High Card":0.1,...``) for category shares float64[N, P, 9] of ``total`` runouts,
    written once per distinct row of counts (a chunk of flop spots has ~1,000 distinct
    rows in 8,000); None where :func:`share_counts` finds a value that is no share."""
    from simulate.many import CATEGORY_NAMES

    k = share_counts(values, total)
    if k is None:
        return None
    rows = k.reshape(-1, k.shape[-1])
    with np.errstate(over="ignore"):
        mixed = (rows.astype(np.uint64) * _MIX[:rows.shape[1]]).sum(axis=1, dtype=np.uint64)
    _, first, inv = np.unique(mixed, return_index=True, return_inverse=True)
    inv = inv.reshape(-1)
    if not np.array_equal(rows[first][inv], rows):  # two rows mixed to one number
        return None  # pragma: no cover - checked, not expected
    tab = _SHARE_TEXTS[total][1]
    names = [json.dumps(c) + ":" for c in CATEGORY_NAMES]
    texts = np.empty(len(first), object)
    texts[:] = [",".join([a + b for a, b in zip(names, tab[r].tolist(), strict=True)])
                for r in rows[first]]
    return texts[inv].reshape(k.shape[:-1])


def unique_texts(values: np.ndarray, text: Any) -> np.ndarray:
    """object array of ``text(v)`` for each of ``values`` (float64 or int64), written once
    per distinct value (floats told apart by their bits, so ``-0.0`` is not ``0.0``):
    the equities of a chunk of spots take a few thousand values, not one per number."""
    a = np.ascontiguousarray(values)
    is_float = a.dtype == np.float64
    u, inv = np.unique((a.view(np.int64) if is_float else a).ravel(), return_inverse=True)
    texts = np.empty(len(u), object)
    texts[:] = list(map(text, (u.view(np.float64) if is_float else u).tolist()))
    return texts[inv.reshape(-1)].reshape(a.shape)


def json_text_columns(res: Any, elapsed_s: float, heads: list[tuple[str, int, str | None]]
                      ) -> list[str] | None:
    """:func:`json_records` for exact rows of one number of runouts (at most
    :data:`MAX_TABLE_TOTAL`) whose shares are all table shares (:func:`share_texts`):
    the texts are laid out column by column (the keys as constants, the numbers' texts
    looked up or written once per value) and joined in one go; None for any other rows."""
    from simulate.many import card_texts

    n = len(res)
    if not res.exact or n == 0 or len(heads) != n:
        return None
    totals = res.samples
    t = int(totals[0])
    if not 0 < t <= MAX_TABLE_TOTAL or not (totals == t).all():
        return None
    n_players = res.equity.shape[1]
    win, tie = share_texts(res.win, t), share_texts(res.tie, t)
    cats = category_texts(res.categories, t)
    if win is None or tie is None or cats is None:
        return None
    cols: list[Any] = []  # a constant text, or one text per row

    def const(text: str) -> None:
        if cols and isinstance(cols[-1], str):
            cols[-1] += text
        else:
            cols.append(text)

    def column(texts: Any) -> None:
        cols.append(texts)

    def objects(texts: list[str]) -> np.ndarray:
        a = np.empty(len(texts), object)
        a[:] = texts
        return a

    id_t, line_t, dg_t = zip(*heads, strict=True)
    const('{"id":')
    column(objects(list(id_t)))
    const(',"line":')
    column(objects(list(map(str, line_t))))
    const(',"digest":"')
    column(objects(list(dg_t)))
    const('","result":{"game":"holdem","board":"')
    column(objects(card_texts(res.board)))
    const('","dead":"')
    column(objects(card_texts(res.dead)))
    const(f'","exact":true,"samples":{t},"elapsed_s":{float(elapsed_s)!r},"players":[')
    hand = _CARD_TEXTS[res.hands.astype(np.intp)]
    eq = unique_texts(res.equity, repr)
    for p in range(n_players):
        const(',{"hand":"' if p else '{"hand":"')
        column(hand[:, p, 0])
        column(hand[:, p, 1])
        const('","equity":')
        column(eq[:, p])
        const(',"win":')
        column(win[:, p])
        const(',"tie":')
        column(tie[:, p])
        const(',"std_error":0.0,"categories":{')
        column(cats[:, p])
        const("}}")
    const(f'],"counts":{{"runouts":{t},"share_unit":{SHARE_UNIT},"shares":[')
    shares = unique_texts(res.shares, str)
    for p in range(n_players):
        if p:
            const(",")
        column(shares[:, p])
    const("]}}}\n\0")  # NUL: the end of a row (JSON text holds none: it writes \u0000)
    table = np.empty((n, len(cols)), object)
    for j, c in enumerate(cols):
        table[:, j] = c
    out = "".join(table.ravel().tolist()).split("\0")
    if len(out) != n + 1:  # pragma: no cover - no text of a row holds a NUL
        return None
    out.pop()
    return out


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
