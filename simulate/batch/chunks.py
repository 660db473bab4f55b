"""Answering a chunk of batch lines: the unit of work of every backend.

:func:`answer_chunk` takes consecutive input lines and returns their output lines. Lines
that are exact-hand Hold'em ``equity`` requests are grouped by shape (players, board
cards, dead cards, exact or the number of samples) and each group is answered by one
:func:`simulate.many.equity_many` call, so the per-line Python cost is a parse and a
dictionary, not a whole request; every other line (ranges, Omaha, ``range``, ``allin``,
a target standard error, a line with a fault) is answered on its own by
:func:`simulate.batch.requests.answer`, exactly as the single command answers it.
Both give the same document for the same request (tested).

The common line, ``{"id": ID, "hands": [...], "board": "..."}`` written to JSON lines,
is not decoded at all, nor is one going on with fields whose values allow it (``"exact":
true``, ``"game": "holdem"``, ...: :mod:`simulate.batch.fast_lines` says which), read as
the common line under the run's defaults with those fields put in. A chunk made only of
such lines (the usual file; when they carry fields, the same ones) is read by one
kernel (:func:`simulate.batch.fast_lines.read_block`: the grammar checked, the cards,
ids and digests read), answered by one :func:`~simulate.many.equity_many` call per shape
and written by another kernel as one text (:func:`_answer_block`,
:func:`simulate.batch.answer_text.lay_out`): no Python object per line but its id key.
Any other chunk goes line by line: a common line is read by one regular expression over
the chunk (:class:`simulate.batch.fast_lines.FastLines`), its group's output laid out the
same way; any other line, or a group those tables do not fit, goes the general way. Same
bytes every way (tested).

Where the time of one heads-up flop line goes (200,000 exact spots, one worker, one
thread, 2-core VM, microseconds per line): read the file 0.3; read the lines (grammar,
cards, keys) 0.1 and their digests (BLAKE2b) 0.2, with the arrays around them 0.5 in all;
compute (:func:`~simulate.many.equity_many`, its kernel 3.6) 3.8; lay out the output 0.5
(share counts, equity texts) and copy it 0.65 (about 1 KB a line); the ids' bookkeeping
0.35; the rest of the chunk's handling 0.6; the write (``os.write`` of 190 MB, about 2 a
line) runs on its own thread while the next chunk is answered. In all about 6.8 a line, plus
the process's start (imports, kernels from the cache) of about 0.47 s, 2.4 a line over
200,000 lines.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np

from evaluator._jit import work_clock
from simulate.run import ChunkInterrupted, stopped

from .answer_text import Rows, json_records, lay_out, split_rows
from .fast_lines import (  # noqa: F401
    FastLines,
    card_ids,
    fast_spot,
    parse_lines,
    read_block,
    split_block_fields,
    split_fields,
)
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


def answer_chunk(items: list[Item], defaults: dict[str, Any] | None = None, fmt: str = "jsonl",
                 header: list[str] | None = None, threads: int | None = None
                 ) -> list[Answer]:
    """Answer ``items``: one :data:`Answer` per item, in order. ``fmt``: ``"jsonl"`` or
    ``"csv"`` output lines (ending in a newline), or ``"dict"`` records; ``header``: the
    CSV input's header (None for JSON lines).

    Grouped lines are answered before each line answered on its own, so the lines before
    the one being answered are always finished: Ctrl-C, SIGTERM or SIGHUP under
    :func:`simulate.run.stop_on_signals` (which long lines notice between rounds of work)
    raises :class:`simulate.run.ChunkInterrupted` with their answers.

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
    jsonl = fmt == "jsonl" and header is None
    fast = FastLines.of(defaults) if jsonl else None
    if jsonl and items and all(type(p) is bytes for _, p in items):
        block = _block_of(items, fast, defaults)
        if block is not None:
            try:
                whole = _answer_block(*block, threads)
            except KeyboardInterrupt as stop:
                raise ChunkInterrupted([], stopped(stop).signum) from None
            if whole is not None:
                return whole  # type: ignore[return-value]
    parsed, fasts = parse_lines(items, fast, defaults) if jsonl else (None, [])

    def flush() -> None:
        for key, members in groups.items():
            _answer_group(key, members, effs, answers, threads, fmt, items, rids, digests,
                          id_texts)
        groups.clear()

    try:
        blake2b = hashlib.blake2b
        for i, (line, payload) in enumerate(items):
            if parsed is not None and (f := parsed[i]) is not None and len(
                    f[2]) in (fl := fasts[i]).board_sizes:
                it, hands_t, board = f
                hands = hands_t.split('"')[1::2]
                id_texts[i] = it
                if it[0] == '"':
                    rids[i] = rid = it[1:-1]
                    keys[i] = "s" + rid
                else:
                    rids[i] = int(it)
                    keys[i] = "n" + it
                digests[i] = blake2b(fl.digest_text.format(board, "', '".join(hands)).encode(),
                                     digest_size=8).hexdigest()
                effs[i] = (board, hands)  # the effective request, made when needed
                groups.setdefault((len(hands), len(board) >> 1, fl), []).append(
                    (i, "".join(hands) + board, fl.seed))
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
    except KeyboardInterrupt as stop:  # Ctrl-C, SIGTERM, SIGHUP (simulate.run.stop)
        done = next((i for i, (_, p) in enumerate(items)
                     if answers[i] is None and not isinstance(p, Resumed)), n)
        raise ChunkInterrupted(_answers(items[:done], answers, rids, keys, digests, fmt),
                               stopped(stop).signum) from None
    return _answers(items, answers, rids, keys, digests, fmt)


def _block_of(items: list[Item], fast: FastLines | None, defaults: dict[str, Any] | None
              ) -> tuple[list[Item], FastLines] | None:
    """The chunk as one block of common lines for :func:`_answer_block`: ``(items, the
    FastLines they share)``, the items without the fields every line carries after its
    board when they all carry the same (:func:`~simulate.batch.fast_lines.
    split_block_fields`: ``"exact": true`` on every line, say); None when the lines'
    answers are not exact (the block's text tables are for exact answers), or they carry
    different fields (the chunk goes line by line)."""
    first = items[0][1]
    if b'"board"' in first and split_fields(first) is not None:  # fields after the board
        split = split_block_fields([p for _, p in items])
        if split is None:
            return None
        lines, fields = split
        fast = FastLines.with_fields(defaults, fields, {})
        items = [(n, p) for (n, _), p in zip(items, lines, strict=True)]
    return (items, fast) if fast is not None and fast.exact else None


class BlockAnswers:
    """The :data:`Answer` of each line of a chunk read as one block (:func:`_answer_block`):
    the output lines end to end (``text`` uint8, ``ends`` int64[N] where each ends) and each
    line's number, id key and digest (``digests``: 16 hex digits a line); every line is a
    result. Indexing and iterating make
    the :data:`Answer` tuples on demand; :class:`simulate.batch.runner._Settler` writes
    ``text`` whole when no id needs a closer look."""

    __slots__ = ("digests", "ends", "keys", "lines", "text")

    def __len__(self) -> int:
        return len(self.lines)

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        key = self.keys[i]
        rid = int(key[1:]) if key[0] == "n" else key[1:]
        start = int(self.ends[i - 1]) if i else 0
        return (self.lines[i], rid, key, self.digests[16 * i:16 * i + 16].decode(),
                self.text[start:int(self.ends[i])].tobytes(), False)

    def __iter__(self) -> Any:
        return (self[i] for i in range(len(self)))

    def to_spool(self, spool: Any) -> None:
        """In a worker process: move ``text`` to ``spool`` (:mod:`simulate.run.spool`);
        ``text`` is then a :class:`~simulate.run.spool.SpoolRef` to it."""
        self.text = spool.put(self.text)

    def fetch(self) -> None:
        """Bring a spooled ``text`` back (see :meth:`to_spool`), for indexing."""
        from simulate.run.spool import SpoolRef

        if isinstance(self.text, SpoolRef):
            self.text = np.frombuffer(self.text.read(), np.uint8)


def _answer_block(items: list[Item], fast: FastLines, threads: int | None
                  ) -> BlockAnswers | None:
    """Answer a chunk whose every line is of the common shape (:func:`read_block`) with
    one :func:`equity_many` call per shape (hands, board cards) and the output lines laid
    out by :func:`~simulate.batch.answer_text.lay_out`; None (nothing done) when a line is
    not of the shape, repeats a card, or has answers the text tables do not fit: the chunk
    then goes the line-by-line way, which says what is wrong with such a line."""
    from simulate.many import equity_many

    block = read_block([p for _, p in items], fast)
    if block is None:
        return None
    n = len(items)
    lines = [line for line, _ in items]
    data = block.text + block.digests
    dg_at = len(block.text) + 16 * np.arange(n)
    code = block.shape[:, 0] * 8 + block.shape[:, 1]
    shapes = np.unique(code)
    dead = np.array(fast.dead, np.int64)
    parts = []
    for c in shapes.tolist():
        rows = np.flatnonzero(code == c) if len(shapes) > 1 else np.arange(n)
        n_players, n_board = divmod(c, 8)
        if 2 * n_players + dead.size > 47:
            return None
        t0 = work_clock()
        cards = block.cards[rows, :2 * n_players + n_board]
        if dead.size:
            cards = np.concatenate([cards, np.broadcast_to(dead, (len(rows), dead.size))],
                                   axis=1).astype(np.uint8)
        w = 2 * n_players
        try:  # its check of the cards is the one: a repeated card is a ValueError
            res = equity_many(cards[:, :w].reshape(-1, n_players, 2), cards[:, w:w + n_board],
                              dead=cards[:, w + n_board:], threads=threads)
        except ValueError:
            return None
        el = (work_clock() - t0) / len(rows)
        out = Rows(len(rows), data)
        ids = out.ranges(block.id_at[rows, 0], block.id_at[rows, 1])
        line_pieces = out.each([str(lines[r]) for r in rows.tolist()])
        dg_pieces = out.ranges(dg_at[rows], dg_at[rows] + 16)
        if not lay_out(out, res, el, ids, line_pieces, dg_pieces):
            return None
        parts.append((rows, *out.text()))
    ans = BlockAnswers()
    ans.lines, ans.keys, ans.digests = lines, block.keys, block.digests
    if len(parts) == 1:
        ans.text, ans.ends = parts[0][1], parts[0][2]
    else:
        texts: list[bytes] = [b""] * n
        for rows, text, ends in parts:
            for r, t in zip(rows.tolist(), split_rows(text, ends), strict=True):
                texts[r] = t
        ans.text = np.frombuffer(b"".join(texts), np.uint8)
        ans.ends = np.cumsum(np.fromiter(map(len, texts), np.int64, n))
    return ans


def _answers(items: list[Item], answers: list[Any], rids: list[Any], keys: list[str | None],
             digests: list[str | None], fmt: str) -> list[Answer]:
    """The :data:`Answer` of each of ``items`` (the first ``len(items)`` of a chunk)."""
    out: list[Answer] = []
    for i, (line, _payload) in enumerate(items):
        ans, rid, dg = answers[i], rids[i], digests[i]
        if ans is None:  # resumed
            out.append((line, rid, keys[i], dg, None, False))
        elif isinstance(ans, bytes):  # the output line, written whole (grouped lines)
            out.append((line, rid, keys[i], dg, ans, False))
        else:
            out.append((line, rid, keys[i], dg, format_record(rid, line, dg, ans, fmt),
                        "error" in ans))
    return out


def _answer_group(key: tuple, members: list[tuple[int, Any, int | None]],
                  effs: dict[int, Any], answers: list[Any], threads: int | None,
                  fmt: str, items: list[Item], rids: list[Any], digests: list[str | None],
                  id_texts: list[str | None]) -> None:
    """Answer a group of lines of one shape by one :func:`equity_many` call. ``key``:
    :func:`fast_spot`'s ``(players, board cards, dead cards, exact, samples)``, or
    ``(players, board cards, FastLines)`` for fast lines (members holding their card text,
    the rest from that :class:`FastLines`)."""
    from simulate.many import bad_rows, equity_many
    from simulate.sampling import resolve_seed

    t0 = work_clock()  # compiling or loading the kernels is not the lines' time
    n = len(members)
    fast: FastLines | None = key[2] if len(key) == 3 else None
    if fast is not None:  # fast lines: card text, the run's dead cards, exactness, samples
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


#: A few lines of each kind of batch line (``"fast"``: exact-hand Hold'em lines answered in
#: groups; ``"equity"``: one-spot exact hands and ranges; ``"omaha"``, ``"range"``,
#: ``"allin"``), whose answers need the kernels a worker answering such lines needs.
SAMPLE_LINES: dict[str, list[dict[str, Any]]] = {
    "fast": [{"hands": ["AhKh", "QsQd"], "board": "2c7d9h"},
             {"hands": ["AhKh", "QsQd"], "board": "2c7d9h", "samples": 2, "seed": 1}],
    "equity": [{"hands": ["AhKh", "QsQd"], "board": "2c7d9h", "std_error": 0.4, "seed": 1},
               {"hands": ["AK", "QQ"], "board": "2c7d9h4s"},
               {"hands": ["AK", "QQ"], "board": "2c7d9h", "samples": 2, "seed": 1}],
    "omaha": [{"hands": ["AhKhQhJh", "2c2d3c3d"], "board": "2s7d9h4s", "game": "omaha"},
              {"hands": ["AhKhQhJh", "2c2d3c3d"], "game": "omaha", "samples": 2, "seed": 1}],
    "range": [{"kind": "range", "hands": ["AK", "QQ"], "board": "2c7d9h4s"},
              {"kind": "range", "hands": ["AK", "random"], "board": "2c7d9h"}],
    "allin": [{"kind": "allin", "players": ["AhAs:100", "KdKc:60", "QhQs:30"],
               "board": "2c7d9h"},
              {"kind": "allin", "players": ["AK:100", "QhQs:30"], "board": "2c7d9h4s"},
              {"kind": "allin", "players": ["AhAs:100", "KdKc:60"], "samples": 2, "seed": 1}],
}


def warm_lines(kinds: tuple[str, ...] = ("fast",)) -> None:
    """Compile (or load from Numba's cache) the kernels of some kinds of batch line
    (:data:`SAMPLE_LINES`' keys) by answering their sample lines, on one thread (a process
    may fork after it): the warm-up batch's executor runs before it starts its workers
    (:func:`simulate.run.executor`), and the batch steps of :mod:`simulate.warmup`."""
    for kind in kinds:
        # as a file's lines (bytes, the id first): the common line is read as a block
        lines = [(n + 1, json.dumps({"id": n, **r}).encode())
                 for n, r in enumerate(SAMPLE_LINES[kind])]
        answer_chunk(lines[:1], threads=1)
        answer_chunk(lines[1:], threads=1)
