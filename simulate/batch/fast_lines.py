"""The common batch line read without decoding it: ``{"id": ID, "hands": [...], "board":
"..."}`` written as JSON lines, matched by one regular expression over a whole chunk
(:class:`FastLines`), its cards read a group at a time (:func:`card_ids`). Any line that does
not match goes the general way (:func:`simulate.batch.requests.effective`); the two give the
same bytes (``tests/test_batch_fast_lines.py``).

Fields after the board. A line may go on with any field an equity line has (``exact``,
``samples``, ``seed``, ``game``, ``dead``, ``kind``, ``std_error``: :data:`FIELDS`), as
the contract lists them: the fast path cuts them off (:func:`split_fields`; a chunk whose
lines all carry the same ones, at once: :func:`split_block_fields`) and reads the line
under the run's defaults with those fields put in (:func:`with_fields`), which is the
line's own request, digest and answer. So ``"exact": true`` on a heads-up flop (exact
anyway), ``"game": "holdem"``, ``"dead": []``, ``"kind": "equity"``, a ``"seed"``, a
``"samples"`` of at most :data:`simulate.many.ROUND_WORK`, nulls, and ``"board": ""`` (a
preflop spot: grouped, its answers written line by line, as their tables are too big for
the block's) all stay fast. A line leaves the fast path only when the general one is what
it needs:

* another kind (``range``, ``allin``) or game (Omaha, Pineapple, short deck), or a hand
  that is not two cards written end to end (a range, ``10h``, spaces in it);
* sampling the general path chooses or runs in rounds: ``"exact": false`` without
  ``samples`` (the default size, chosen and reported there), ``samples`` over
  :data:`~simulate.many.ROUND_WORK`, a ``std_error`` target;
* a fault (an unknown field, a bad value, an id that is not a plain string or whole number,
  JSON escapes or fractions in a field's value, fields before the board, a missing
  ``board``), which the general path names.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import numpy as np

from evaluator.cards import CARD_IDS, CARD_TEXT, CardError, ids_of_text, parse_cards
from simulate._kernels.batch_lines import (
    BLAKE2B_IV,
    BLAKE2B_SIGMA,
    MAX_BOARD,
    MAX_HANDS,
    MAX_ID,
    blake2b_8,
    read_lines,
)
from simulate.games import GAMES
from simulate.many import ROUND_WORK
from simulate.request import BOARD_SIZES, MAX_PLAYERS, MIN_PLAYERS

from .requests import BadRequest, effective


@lru_cache(maxsize=1 << 17)
def card_tuple(text: str) -> tuple[int, ...]:
    """Card ids of ``text`` (a tuple, cached per text): two-character cards written end to
    end (``AhKh``) by the codec's fast path (:func:`evaluator.cards.ids_of_text`; repeats
    left to :func:`simulate.many.bad_rows`), anything else (spaces, ``10h``, suit symbols) by
    :func:`evaluator.cards.parse_cards`, which also gives the errors."""
    ids = ids_of_text(text)
    return tuple(parse_cards(text) if ids is None else ids)


#: The one game the grouped path answers (:func:`~simulate.many.equity_many` is 52-card
#: Hold'em), and its hand size: card text naming exactly that many cards is an exact hand,
#: :func:`simulate.request.parse_hand`'s rule (anything else goes the one-spot way, which
#: reads ranges).
_GAME, _HOLE = GAMES["holdem"].name, GAMES["holdem"].hole_cards


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
            c = card_tuple(h)
            if len(c) != _HOLE:
                return None
            cards += c
        board, dead = card_tuple(eff["board"]), card_tuple(eff["dead"])
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

#: The fields a fast line may carry after its three (:func:`split_fields`): every field an
#: equity line may have, each with a value JSON holds as it is written (no escapes, no
#: fractions: a ``std_error`` can only be ``null`` here; one with a value is a run in
#: rounds, on the one-spot path).
FIELDS = ("exact", "samples", "seed", "game", "dead", "kind", "std_error")
_S = rb"[ \t\r]*"
_STRING = rb'"[^"\\\x00-\x1f]{0,64}"'
_VALUE = (rb"(?:true|false|null|-?(?:0|[1-9][0-9]{0,19})|" + _STRING + rb"|\[" + _S
          + rb"(?:" + _STRING + rb"(?:" + _S + rb"," + _S + _STRING + rb"){0,24}" + _S
          + rb")?\])")
_FIELDS = (rb"((?:" + _S + rb"," + _S + rb'"(?:' + "|".join(FIELDS).encode() + rb')"' + _S
           + rb":" + _S + _VALUE + rb")+)")
#: A line's board and the fields after it, to its end: ``\1`` board, ``\2`` the fields,
#: ``\3`` the closing brace (:func:`split_fields`, :func:`split_block_fields`)
_TAIL = re.compile(rb'("board"' + _S + rb":" + _S + rb'"[^"\\\n]{0,16}")' + _FIELDS
                   + rb"(" + _S + rb"\}" + _S + rb")$", re.M)
_B, _H = "\x01B", "\x01H"  # markers in the digest's template


def split_fields(payload: bytes) -> tuple[bytes, bytes] | None:
    """``(the line without them, their text)`` for a line that carries fields of
    :data:`FIELDS` after its ``board`` (the last thing in it, as the contract lists them),
    else None. The line without them may be a fast line (:data:`_FAST_LINE`): its request
    is then the fast line's under the run's defaults with these fields put in
    (:func:`with_fields`)."""
    at = payload.rfind(b'"board"')
    if at < 0:
        return None
    m = _TAIL.match(payload, at)
    if m is None or m.end() != len(payload):
        return None
    return payload[:m.end(1)] + m[3], m[2]


def split_block_fields(payloads: list[bytes]) -> tuple[list[bytes], bytes] | None:
    """``(the lines without them, their text)`` when every line carries the same fields of
    :data:`FIELDS` after its ``board`` (written alike: the usual file, each line saying
    ``"exact": true``), else None; two passes of one expression over the whole chunk."""
    joined = b"\n".join(payloads)
    found = _TAIL.findall(joined)
    if len(found) != len(payloads) or found[0][1] != found[-1][1] or len(
            {f[1] for f in found}) != 1:
        return None
    lines = _TAIL.sub(rb"\1\3", joined).split(b"\n")
    return (lines, found[0][1]) if len(lines) == len(payloads) else None


def with_fields(defaults: dict[str, Any] | None, fields: bytes) -> dict[str, Any] | None:
    """The defaults under which a fast line stands for the line that carried ``fields``
    (the text :func:`split_fields` cut off): its fields as defaults, and when it sets one of
    ``exact``, ``samples``, ``std_error``, none of the run's (as
    :func:`~simulate.batch.requests.effective` takes them from a line); a ``null`` is no
    value. So the effective request, the digest and the answer are the line's. None when the
    text does not read (the line goes the general way, which says why)."""
    import json

    try:
        got = json.loads(b"{" + fields.lstrip(b" \t\r")[1:] + b"}")
    except ValueError:
        return None
    d = dict(defaults or {})
    if any(got.get(k) is not None for k in ("exact", "samples", "std_error")):
        for k in ("exact", "samples", "std_error"):
            d.pop(k, None)
    d.update({k: v for k, v in got.items() if v is not None})
    return d


class FastLines:
    """What every fast line (:data:`_FAST_LINE`) of a run shares: the effective request
    of a line is the run's template (:func:`~simulate.batch.requests.effective` of a probe
    line with the same three keys: every other field comes from the defaults, checked
    once) with the line's ``board`` and ``hands`` put in, so its digest is the template's
    text with them put in too. None from :meth:`of` when the defaults leave no such line
    on the grouped path (another kind, another game, a sample size the one-spot path
    chooses, dead cards that do not read): every line then goes the general way."""

    __slots__ = ("board_sizes", "dead", "digest_parts", "digest_text", "exact", "samples",
                 "seed", "template")

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
        whole = self.digest_text.format("\0", "\1")
        self.digest_parts = None  # the digest text around the board and the hands
        if whole.count("\0") == 1 and whole.count("\1") == 1 and whole.index("\0") < whole.index(
                "\1") and whole.isascii():
            pre, rest = whole.split("\0")
            mid, post = rest.split("\1")
            self.digest_parts = tuple(np.frombuffer(t.encode(), np.uint8)
                                      for t in (pre, mid, "', '", post))
        return self

    @classmethod
    def with_fields(cls, defaults: dict[str, Any] | None, fields: bytes,
                    cache: dict[bytes, FastLines | None]) -> FastLines | None:
        """:meth:`of` the defaults of a line that carried ``fields``
        (:func:`with_fields`), remembered in ``cache`` (a chunk's) by their text."""
        if fields not in cache:
            d = with_fields(defaults, fields)
            cache[fields] = None if d is None else cls.of(d)
        return cache[fields]

    @staticmethod
    def parse(items: list[tuple[int, Any]]) -> list[tuple[str, str, str] | None]:
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


def parse_lines(items: list[tuple[int, Any]], fast: FastLines | None,
                defaults: dict[str, Any] | None
                ) -> tuple[list[tuple[str, str, str] | None], list[FastLines | None]]:
    """For each of ``items``: its fast reading (id, hands and board text, as
    :meth:`FastLines.parse` gives it) and the :class:`FastLines` it goes with, or ``(None,
    None)`` for a line that goes the general way. A line carrying fields after its board
    (:func:`~simulate.batch.fast_lines.split_fields`) is read without them and goes with the
    FastLines of the run's defaults with its fields in."""
    parsed = FastLines.parse(items)
    fasts: list[FastLines | None] = [fast] * len(items)
    cache: dict[bytes, FastLines | None] = {}
    for i, (_, p) in enumerate(items):
        if parsed[i] is None and type(p) is bytes and (cut := split_fields(p)) is not None:
            m = _FAST_LINE.fullmatch(cut[0])
            fasts[i] = None if m is None else FastLines.with_fields(defaults, cut[1], cache)
            if fasts[i] is not None:
                parsed[i] = (m[1].decode(), m[2].decode(), m[3].decode())
        if fasts[i] is None:
            parsed[i] = None
    return parsed, fasts


#: Card id -> its text (``"Ah"``), as an object array to index with arrays of ids.
CARD_TEXTS = np.array(CARD_TEXT, dtype=object)
#: ASCII byte -> rank (or suit) of a card letter, for card text read by the million
_RANK_OF = np.full(256, -1, np.int64)
_SUIT_OF = np.full(256, -1, np.int64)
for _text, _id in CARD_IDS.items():
    _RANK_OF[ord(_text[0])], _SUIT_OF[ord(_text[1])] = _id >> 2, _id & 3


def card_ids(text: str, n: int, width: int) -> np.ndarray:
    """int64[n, width]: the card ids of ``n`` rows of ``width`` two-character cards each,
    written end to end in ``text`` (only card letters :data:`_CARD` allows)."""
    a = np.frombuffer(text.encode("ascii"), np.uint8).reshape(n, width, 2)
    ids = 4 * _RANK_OF[a[:, :, 0]] + _SUIT_OF[a[:, :, 1]]
    assert (ids >= 0).all()
    return ids


class Block:
    """A chunk's lines read at once by :func:`simulate._kernels.batch_lines.read_lines`
    (see :func:`read_block`): ``text`` the lines joined by newlines; per line ``cards``
    uint8[N, 25] (hands' cards, then the board's), ``shape`` int64[N, 2] (hands, board
    cards), ``id_at`` int64[N, 2] (the id's JSON text in ``text``), ``keys`` (id keys, as
    :func:`simulate.batch.requests.id_key` gives them) and ``digests`` (bytes: 16 hex
    digits a line, :func:`simulate.batch.requests.digest`'s)."""

    __slots__ = ("cards", "digests", "id_at", "keys", "shape", "text")


def read_block(payloads: list[bytes], fast: FastLines) -> Block | None:
    """Every line of ``payloads`` read as a line of the common shape (the same reading as
    :data:`_FAST_LINE` and :meth:`FastLines.parse`, and the same digests as the general
    path), or None if any line is not of that shape or has a board of a size no request
    may have (the chunk then goes line by line)."""
    if fast.digest_parts is None or not payloads:
        return None
    n = len(payloads)
    text = b"\n".join(payloads)
    lengths = np.fromiter(map(len, payloads), np.int64, n)
    ends = np.cumsum(lengths + 1) - 1
    starts = ends - lengths
    pre, mid, sep, post = fast.digest_parts
    per_line = pre.size + mid.size + post.size + 2 * MAX_BOARD + (4 + sep.size) * MAX_HANDS + 1
    cards = np.zeros((n, 2 * MAX_HANDS + MAX_BOARD), np.uint8)
    shape = np.empty((n, 2), np.int64)
    id_at = np.empty((n, 2), np.int64)
    keys = np.empty((MAX_ID + 2) * n, np.uint8)
    digest_text = np.empty(per_line * n, np.uint8)
    key_end, digest_end = np.empty(n, np.int64), np.empty(n, np.int64)
    read_lines(np.frombuffer(text, np.uint8), starts, ends, _RANK_OF, _SUIT_OF, pre, mid, sep,
               post, cards, shape, id_at, keys, key_end, digest_text, digest_end)
    if not shape[:, 0].all() or not np.isin(shape[:, 1], BOARD_SIZES).all():
        return None
    b = Block()
    b.text, b.cards, b.shape, b.id_at = text, cards, shape, id_at
    b.keys = keys[:key_end[-1]].tobytes().decode("ascii").split("\n")[:-1]
    hex_digests = np.empty(16 * n, np.uint8)
    blake2b_8(digest_text, digest_end - 1, _BLAKE2B[0], _BLAKE2B[1], _BLAKE2B[2], hex_digests)
    b.digests = hex_digests.tobytes()
    return b


#: :func:`simulate._kernels.batch_lines.blake2b_8`'s tables
_BLAKE2B = (np.array(BLAKE2B_IV, np.uint64), np.array(BLAKE2B_SIGMA, np.int64),
            np.frombuffer(b"0123456789abcdef", np.uint8))
