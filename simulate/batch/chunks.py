"""Answering a chunk of batch lines: the unit of work of every backend.

:func:`answer_chunk` takes consecutive input lines and returns their output lines. Lines
that are exact-hand Hold'em ``equity`` requests are grouped by shape (players, board
cards, dead cards, exact or the number of samples) and each group is answered by one
:func:`simulate.many.equity_many` call, so the per-line Python cost is a parse and a
dictionary, not a whole request; every other line (ranges, Omaha, ``range``, ``allin``,
a target standard error, a line with a fault) is answered on its own by
:func:`simulate.batch.requests.answer`, exactly as the single command answers it.
Both give the same document for the same request (tested).

The common line, ``{"id": ID, "hands": [...], "board": "..."}`` written to JSON lines, is
not decoded at all (:class:`FastLines`): one regular expression reads a whole chunk, the
id, its key and the digest come from the text and the run's template request, the cards
of a group are read at once (:func:`card_ids`), and a group's output lines are laid out
column by column (:func:`json_text_columns`: shares looked up in a table of ``k/total``
texts, each distinct equity and categories row written once, one join per group); any
other line, or a group those tables do not fit, goes the general way. Same bytes (tested).

Where the time of one heads-up flop line goes (200,000 exact spots, one worker, 2-core
VM, microseconds per line; before the fast lines in brackets): read 0.6 [0.6], parse
(regular expression) 0.9 [JSON decode 3.0, id 0.7, fields 3.1, card text 2.4], digest,
key and grouping 1.7 [digest 1.4], cards to arrays and repeats 0.8 [0.2], compute
(:func:`~simulate.many.equity_many`'s kernel) 3.8 to 5.6 [4.1 to 4.4], output text 3.1
[12.9 and the record 1.7], answers and the ids' bookkeeping 0.8, write (1.4 KB a line:
join, encode, ``os.write``, ``fsync``) 1.5 to 2.2; plus the process's start (imports,
kernels from the cache) of about 0.5 s, 2.5 a line over 200,000 lines.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from functools import lru_cache
from typing import Any

import numpy as np

from evaluator._jit import work_clock
from evaluator.cards import CARD_IDS, CARD_TEXT, CardError, ids_of_text, parse_cards
from simulate.games import GAMES
from simulate.many import ROUND_WORK
from simulate.request import BOARD_SIZES, MAX_PLAYERS, MIN_PLAYERS
from simulate.results import SHARE_UNIT

from .files import Input, format_record, key_of
from .requests import BadRequest, answer, check_id, digest, effective

#: One input line of a chunk: ``(line number, payload)``, the payload being the line's
#: bytes, a request dict (the Python API), an error message (a line that could not be
#: read), or ``Resumed(...)`` (a line an earlier run answered: passed through).
Item = tuple[int, Any]
#: What a chunk gives back for each line: ``(line, id, id key, digest, output line,
#: is error)``; the output line is None for a resumed line (nothing to write).
Answer = tuple[int, Any, "str | None", "str | None", Any, bool]


class Resumed(tuple):
    """The payload of a line answered by an earlier run: ``(id, id key, digest)``."""


class ChunkInterrupted(KeyboardInterrupt):
    """Ctrl-C inside :func:`answer_chunk`: ``answers`` holds the :data:`Answer` of every
    line of the chunk's finished prefix (the line being answered, and any line after it,
    left out), for the run to write before it stops."""

    def __init__(self, answers: list[Answer]) -> None:
        super().__init__(answers)
        self.answers = answers


@lru_cache(maxsize=1 << 17)
def _cards(text: str) -> tuple[int, ...]:
    """Card ids of ``text``: two-character cards written end to end (``AhKh``) by the
    codec's fast path (:func:`evaluator.cards.ids_of_text`; repeats left to
    :func:`simulate.many.bad_rows`), anything else (spaces, ``10h``, suit symbols) by
    :func:`evaluator.cards.parse_cards`, which also gives the errors."""
    ids = ids_of_text(text)
    return tuple(parse_cards(text) if ids is None else ids)


#: The one game the grouped path answers (:func:`~simulate.many.equity_many` is 52-card
#: Hold'em), and its hand size: card text naming exactly that many cards is an exact hand,
#: :func:`simulate.request.parse_hand`'s rule (anything else goes the one-spot way, which
#: reads ranges).
_GAME, _HOLE = GAMES["holdem"].name, GAMES["holdem"].hole


def fast_spot(eff: dict[str, Any]) -> tuple[tuple, tuple, int | None] | None:
    """``(group key, every card of the spot, seed)`` if ``eff`` can go through
    :func:`~simulate.many.equity_many`, else None. The key is ``(players, board cards,
    dead cards, exact, samples)``; the cards are the hands', then the board's, then the
    dead cards' ids. Only the plain case is taken here (a Hold'em request of
    :data:`~simulate.request.MIN_PLAYERS` to :data:`~simulate.request.MAX_PLAYERS` exact
    hands, a board of one of :data:`~simulate.request.BOARD_SIZES`); anything else, and any
    fault, is left to :func:`simulate.request.parse_spot` on the one-spot path."""
    if eff["kind"] != "equity" or eff["std_error"] is not None:
        return None
    if eff["samples"] is not None and eff["samples"] > ROUND_WORK:
        return None  # one row of equity_many is one kernel call: run it in rounds instead
    if eff["exact"] is False and eff["samples"] is None:
        return None  # the default sample size: chosen and reported by the one-spot path
    game = eff["game"]
    if game != _GAME and game.strip().lower() != _GAME:
        return None
    hands = eff["hands"]
    if not MIN_PLAYERS <= len(hands) <= MAX_PLAYERS:
        return None
    try:
        cards = ()
        for h in hands:
            c = _cards(h)
            if len(c) != _HOLE:
                return None
            cards += c
        board, dead = _cards(eff["board"]), _cards(eff["dead"])
    except CardError:
        return None
    if len(board) not in BOARD_SIZES:
        return None
    exact = eff["exact"] is True or (eff["exact"] is None and eff["samples"] is None)
    key = (len(hands), len(board), len(dead), exact, None if exact else eff["samples"])
    return key, cards + board + dead, eff["seed"]


# ----------------------------------------------------------------------------- fast lines
_WS = rb"[ \t\r\n]*"  # JSON's whitespace
_CARD = rb"[2-9TJQKAtjqka][cdhsCDHS]"
_HAND = rb'"' + _CARD + _CARD + rb'"'
#: The common line, read without building a Python object for it:
#: ``{"id": ID, "hands": ["AhKh", "QsQd", ...], "board": "Ks8h2c"}`` (JSON whitespace
#: anywhere between tokens; those three keys in that order; ID a whole number written as
#: JSON writes it, or a string of ``[A-Za-z0-9_.:-]``, which JSON holds as it is;
#: MIN_PLAYERS to MAX_PLAYERS hands of two cards written end to end; a board of 0 to 5
#: such cards). Every such line is valid JSON whose decoded request is exactly what the
#: groups below hold, so the general path would answer it the same (tested).
_FAST_LINE = re.compile(
    _WS + rb"\{" + _WS + rb'"id"' + _WS + rb":" + _WS
    + rb'(-?[1-9][0-9]{0,17}|0|"[A-Za-z0-9_.:\-]{0,128}")' + _WS + rb"," + _WS
    + rb'"hands"' + _WS + rb":" + _WS + rb"\[" + _WS
    + rb"(" + _HAND + rb"(?:" + _WS + rb"," + _WS + _HAND + rb"){%d,%d})"
    % (MIN_PLAYERS - 1, MAX_PLAYERS - 1)
    + _WS + rb"\]" + _WS + rb"," + _WS + rb'"board"' + _WS + rb":" + _WS
    + rb'"((?:' + _CARD + rb'){0,5})"' + _WS + rb"\}" + _WS)
#: :data:`_FAST_LINE` over a whole chunk's lines joined by newlines (as text, each byte one
#: character): each line is one match or none (no token of it crosses a newline)
_FAST_LINES = re.compile("^" + _FAST_LINE.pattern.decode().replace(r"[ \t\r\n]*", r"[ \t\r]*")
                         + "$", re.M)
_PROBE = {"id": 0, "hands": ["AhKh", "QsQd"], "board": "Ks8h2c"}
_B, _H = "\x01B", "\x01H"  # markers in the digest's template


class FastLines:
    """What every fast line (:data:`_FAST_LINE`) of a run shares: the effective request
    of a line is the run's template (:func:`~simulate.batch.requests.effective` of a probe
    line with the same three keys: every other field comes from the defaults, checked
    once) with the line's ``board`` and ``hands`` put in, so its digest is the template's
    text with them put in too. None from :meth:`of` when the defaults leave no such line
    on the grouped path (another kind, another game, a sample size the one-spot path
    chooses, dead cards that do not read): every line then goes the general way."""

    __slots__ = ("board_sizes", "dead", "digest_text", "exact", "samples", "seed",
                 "template")

    @classmethod
    def of(cls, defaults: dict[str, Any] | None) -> FastLines | None:
        try:
            eff = effective(dict(_PROBE), defaults)
        except BadRequest:
            return None
        spot = fast_spot(eff)
        if spot is None:
            return None
        marked = {**eff, "board": _B, "hands": [_H]}
        text = repr(tuple(marked.values()))
        b, h = repr(_B), repr([_H])
        if text.count(b) != 1 or text.count(h) != 1:
            return None  # pragma: no cover - a default holding a marker
        text = text.replace("{", "{{").replace("}", "}}")
        self = cls()
        self.digest_text = text.replace(b, "'{0}'").replace(h, "['{1}']")
        self.template = eff
        _, _, n_dead, self.exact, self.samples = spot[0]
        self.dead = spot[1][len(spot[1]) - n_dead:]
        self.seed = eff["seed"]
        self.board_sizes = frozenset(2 * k for k in BOARD_SIZES)
        return self

    @staticmethod
    def parse(items: list[Item]) -> list[tuple[str, str, str] | None]:
        """``(id text, hands text, board text)`` of each of ``items`` that is a fast line
        (:data:`_FAST_LINE`), None for the others: one regular expression over the whole
        chunk when every line is one, else line by line."""
        payloads = [p for _, p in items]
        if all(type(p) is bytes for p in payloads):
            joined = b"\n".join(payloads)
            if joined.count(b"\n") == len(payloads) - 1:  # no line holds a newline
                found = _FAST_LINES.findall(joined.decode("latin-1"))
                if len(found) == len(payloads):  # every line matched, in order
                    return found
        match = _FAST_LINE.fullmatch
        return [None if type(p) is not bytes or (m := match(p)) is None
                else (m[1].decode(), m[2].decode(), m[3].decode()) for p in payloads]

    def effective(self, board: str, hands: list[str]) -> dict[str, Any]:
        """A fast line's effective request (as :func:`effective` gives it)."""
        return {**self.template, "board": board, "hands": hands}


#: ASCII byte -> rank (or suit) of a card letter, for card text read by the million
_RANK_OF = np.full(256, -1, np.int64)
_SUIT_OF = np.full(256, -1, np.int64)
_CARD_TEXTS = np.array(CARD_TEXT, dtype=object)  # id -> text
for _text, _id in CARD_IDS.items():
    _RANK_OF[ord(_text[0])], _SUIT_OF[ord(_text[1])] = _id >> 2, _id & 3


def card_ids(text: str, n: int, width: int) -> np.ndarray:
    """int64[n, width]: the card ids of ``n`` rows of ``width`` two-character cards each,
    written end to end in ``text`` (only card letters :data:`_CARD` allows)."""
    a = np.frombuffer(text.encode("ascii"), np.uint8).reshape(n, width, 2)
    ids = 4 * _RANK_OF[a[:, :, 0]] + _SUIT_OF[a[:, :, 1]]
    assert (ids >= 0).all()
    return ids


def answer_chunk(items: list[Item], defaults: dict[str, Any] | None = None, fmt: str = "jsonl",
                 header: list[str] | None = None, threads: int | None = None
                 ) -> list[Answer]:
    """Answer ``items``: one :data:`Answer` per item, in order. ``fmt``: ``"jsonl"`` or
    ``"csv"`` output lines (ending in a newline), or ``"dict"`` records; ``header``: the
    CSV input's header (None for JSON lines).

    Grouped lines are answered before each line answered on its own, so the lines before
    the one being answered are always finished: Ctrl-C (which long lines notice between
    rounds of work) raises :class:`ChunkInterrupted` with their answers.

    A JSON line of the common shape (:data:`_FAST_LINE`) written to JSON lines is read
    without decoding it into objects (:class:`FastLines`: its id, key and digest straight
    from its text, its cards read for the whole group at once); every other line is
    decoded, checked and grouped (or answered) one by one."""
    n = len(items)
    answers: list[Any] = [None] * n  # an answer dict, or the output line (grouped lines)
    rids: list[Any] = [None] * n
    keys: list[str | None] = [None] * n
    digests: list[str | None] = [None] * n
    id_texts: list[str | None] = [None] * n  # the id as JSON text, where read from the line
    groups: dict[tuple, list[tuple[int, Any, int | None]]] = {}
    effs: dict[int, Any] = {}
    fast = FastLines.of(defaults) if fmt == "jsonl" and header is None else None
    parsed = FastLines.parse(items) if fast is not None else None

    def flush() -> None:
        for key, members in groups.items():
            _answer_group(key, members, effs, answers, threads, fmt, items, rids, digests,
                          id_texts, fast)
        groups.clear()

    try:
        if fast is not None:
            sizes, text, seed = fast.board_sizes, fast.digest_text.format, fast.seed
            blake2b = hashlib.blake2b
        for i, (line, payload) in enumerate(items):
            if parsed is not None and (f := parsed[i]) is not None and len(f[2]) in sizes:
                it, hands_t, board = f
                hands = hands_t.split('"')[1::2]
                id_texts[i] = it
                if it[0] == '"':
                    rids[i] = rid = it[1:-1]
                    keys[i] = "s" + rid
                else:
                    rids[i] = int(it)
                    keys[i] = "n" + it
                digests[i] = blake2b(text(board, "', '".join(hands)).encode(),
                                     digest_size=8).hexdigest()
                effs[i] = (board, hands)  # the effective request, made when needed
                groups.setdefault((len(hands), len(board) >> 1, True), []).append(
                    (i, "".join(hands) + board, seed))
                continue
            if isinstance(payload, Resumed):
                rids[i], keys[i], digests[i] = payload
                continue
            if isinstance(payload, str):
                answers[i] = {"error": payload}
                continue
            try:
                req = (payload if isinstance(payload, dict)
                       else Input.decode(payload, line, header))
                rids[i], _ = check_id(req)
                keys[i] = key_of(rids[i], fmt)
                eff = effective(req, defaults)
            except BadRequest as e:
                answers[i] = {"error": str(e)}
                continue
            digests[i] = digest(eff)
            effs[i] = eff
            spot = fast_spot(eff)
            if spot is None:
                flush()
                answers[i] = answer(eff, threads)
            else:
                groups.setdefault(spot[0], []).append((i, *spot[1:]))
        flush()
    except KeyboardInterrupt:
        done = next((i for i, (_, p) in enumerate(items)
                     if answers[i] is None and not isinstance(p, Resumed)), n)
        raise ChunkInterrupted(_answers(items[:done], answers, rids, keys, digests, fmt)
                               ) from None
    return _answers(items, answers, rids, keys, digests, fmt)


def _answers(items: list[Item], answers: list[Any], rids: list[Any], keys: list[str | None],
             digests: list[str | None], fmt: str) -> list[Answer]:
    """The :data:`Answer` of each of ``items`` (the first ``len(items)`` of a chunk)."""
    out: list[Answer] = []
    for i, (line, _payload) in enumerate(items):
        ans, rid, dg = answers[i], rids[i], digests[i]
        if ans is None:  # resumed
            out.append((line, rid, keys[i], dg, None, False))
        elif isinstance(ans, str):  # the output line, written whole (grouped lines)
            out.append((line, rid, keys[i], dg, ans, False))
        else:
            out.append((line, rid, keys[i], dg, format_record(rid, line, dg, ans, fmt),
                        "error" in ans))
    return out


def _answer_group(key: tuple, members: list[tuple[int, Any, int | None]],
                  effs: dict[int, Any], answers: list[Any], threads: int | None,
                  fmt: str, items: list[Item], rids: list[Any], digests: list[str | None],
                  id_texts: list[str | None], fast: FastLines | None) -> None:
    """Answer a group of lines of one shape by one :func:`equity_many` call. ``key``:
    :func:`fast_spot`'s ``(players, board cards, dead cards, exact, samples)``, or
    ``(players, board cards, True)`` for fast lines (members holding their card text, the
    rest from ``fast``)."""
    from simulate.many import bad_rows, equity_many
    from simulate.sampling import resolve_seed

    t0 = work_clock()  # compiling or loading the kernels is not the lines' time
    n = len(members)
    if len(key) == 3:  # fast lines: card text, the run's dead cards, exactness, samples
        assert fast is not None
        n_players, n_board, _ = key
        n_dead, exact, samples = len(fast.dead), fast.exact, fast.samples
        cards = card_ids("".join([m[1] for m in members]), n, 2 * n_players + n_board)
        if n_dead:
            cards = np.concatenate([cards, np.tile(np.array(fast.dead, np.int64), (n, 1))],
                                   axis=1)
    else:
        n_players, n_board, n_dead, exact, samples = key
        width = 2 * n_players + n_board + n_dead
        cards = np.fromiter((c for m in members for c in m[1]), np.int64, n * width)
        cards = cards.reshape(n, width)
    h = cards[:, :2 * n_players].reshape(n, n_players, 2)
    b, d = cards[:, 2 * n_players:2 * n_players + n_board], cards[:, 2 * n_players + n_board:]
    bad = bad_rows(cards)
    if 2 * n_players + n_dead > 47:  # too few cards left: let the one-spot path say so
        bad[:] = True
    for j in np.flatnonzero(bad).tolist():  # a repeated card: the one-spot path names it
        i = members[j][0]
        eff = effs[i]
        if isinstance(eff, tuple):
            assert fast is not None
            eff = fast.effective(*eff)
        answers[i] = answer(eff, threads)
    good = np.flatnonzero(~bad)
    if good.size == 0:
        return
    if exact:
        res = equity_many(h[good], b[good], dead=d[good], threads=threads)
    else:
        seeds = np.array([resolve_seed(members[j][2]) for j in good.tolist()], np.uint64)
        res = equity_many(h[good], b[good], dead=d[good], exact=False, samples=samples,
                          seed=seeds, threads=threads)
    el = (work_clock() - t0) / n
    rows = [members[j][0] for j in good.tolist()]
    if fmt != "jsonl":
        for i, doc in zip(rows, res.to_dicts(elapsed_s=el), strict=True):
            answers[i] = {"result": doc}
        return
    heads = [(id_texts[i] if id_texts[i] is not None else json.dumps(rids[i]),
              items[i][0], digests[i]) for i in rows]
    for i, text in zip(rows, json_records(res, el, heads), strict=True):
        answers[i] = text


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
