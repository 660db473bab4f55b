"""Answering a chunk of batch lines: the unit of work of every backend.

:func:`answer_chunk` takes consecutive input lines and returns their output lines. Lines
that are exact-hand Hold'em ``equity`` requests are grouped by shape (players, board
cards, dead cards, exact or the number of samples) and each group is answered by one
:func:`simulate.many.equity_many` call, so the per-line Python cost is a parse and a
dictionary, not a whole request; every other line (ranges, Omaha, ``range``, ``allin``,
a target standard error, a line with a fault) is answered on its own by
:func:`simulate.batch.requests.answer`, exactly as the single command answers it.
Both give the same document for the same request (tested).
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any

import numpy as np

from evaluator._jit import work_clock
from evaluator.cards import CardError, ids_of_text, parse_cards
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


def answer_chunk(items: list[Item], defaults: dict[str, Any] | None = None, fmt: str = "jsonl",
                 header: list[str] | None = None, threads: int | None = None
                 ) -> list[Answer]:
    """Answer ``items``: one :data:`Answer` per item, in order. ``fmt``: ``"jsonl"`` or
    ``"csv"`` output lines (ending in a newline), or ``"dict"`` records; ``header``: the
    CSV input's header (None for JSON lines).

    Grouped lines are answered before each line answered on its own, so the lines before
    the one being answered are always finished: Ctrl-C (which long lines notice between
    rounds of work) raises :class:`ChunkInterrupted` with their answers."""
    n = len(items)
    answers: list[Any] = [None] * n  # an answer dict, or a result's JSON text
    rids: list[Any] = [None] * n
    keys: list[str | None] = [None] * n
    digests: list[str | None] = [None] * n
    groups: dict[tuple, list[tuple[int, tuple, int | None]]] = {}
    effs: dict[int, dict[str, Any]] = {}

    def flush() -> None:
        for key, members in groups.items():
            _answer_group(key, members, effs, answers, threads, fmt)
        groups.clear()

    try:
        for i, (line, payload) in enumerate(items):
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
        elif isinstance(ans, str):  # a result already written as JSON text (fast path)
            out.append((line, rid, keys[i], dg, f'{{"id":{json.dumps(rid)},"line":{line},'
                        f'"digest":"{dg}","result":{ans}}}\n', False))
        else:
            out.append((line, rid, keys[i], dg, format_record(rid, line, dg, ans, fmt),
                        "error" in ans))
    return out


def _answer_group(key: tuple, members: list[tuple[int, tuple, int | None]],
                  effs: dict[int, dict[str, Any]], answers: list[Any], threads: int | None,
                  fmt: str) -> None:
    from simulate.many import bad_rows, equity_many
    from simulate.sampling import resolve_seed

    t0 = work_clock()  # compiling or loading the kernels is not the lines' time
    n_players, n_board, n_dead, exact, samples = key
    n = len(members)
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
        answers[i] = answer(effs[i], threads)
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
    docs = json_docs(res, el) if fmt == "jsonl" else res.to_dicts(elapsed_s=el)
    for j, doc in zip(good.tolist(), docs, strict=True):
        answers[members[j][0]] = doc if isinstance(doc, str) else {"result": doc}


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
