"""One batch request: reading a line, its fields and defaults, its digest, its answer.

A request is a JSON object (or a CSV row, see :mod:`simulate.batch.files`) with an
``id`` and the fields of its ``kind``:

* ``equity`` (the default): ``hands`` (a list of hands or ranges, or one string split
  on spaces), ``board``, ``dead``, ``game``;
* ``range``: ``hands`` (the players' ranges), ``board``, ``dead``, ``game`` (a game that
  takes ranges: Hold'em or short deck; a run's default game that takes none is left out): the
  ``pokerjit range --json`` document;
* ``allin``: ``players`` (``["AhAs:100", "fold:20", ...]``), ``button``,
  ``dead_money``, ``board``, ``dead``, ``game``: the ``pokerjit allin --json`` document;

and for every kind the sampling fields ``exact``, ``samples``, ``std_error``, ``seed``.
A missing (or ``null``) field takes the run's default (command-line flags), then the
engine's. Every check here raises :class:`BadRequest` with a one-line message, which
becomes that line's error.
"""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

from simulate.sampling import BATCH_NAMES, CHIPS, POT_FRACTION, Sampling

KINDS = ("equity", "range", "allin")
SAMPLING_FIELDS = ("exact", "samples", "std_error", "seed")
COMMON_FIELDS = ("id", "kind", "board", "dead", *SAMPLING_FIELDS)
FIELDS = {
    "equity": (*COMMON_FIELDS, "hands", "game"),
    "range": (*COMMON_FIELDS, "hands", "game"),
    "allin": (*COMMON_FIELDS, "players", "button", "dead_money", "game"),
}
#: Fields a run may give defaults for (``pokerjit batch --game omaha --samples 100000``).
DEFAULTABLE = ("kind", "game", "board", "dead", *SAMPLING_FIELDS, "button", "dead_money")
_FIELD_SETS = {k: frozenset(v) for k, v in FIELDS.items()}
_PLAN = {k: [(f, f in DEFAULTABLE, f in ("exact", "samples", "std_error")) for f in v
             if f not in ("id", "kind")] for k, v in FIELDS.items()}
MAX_LINE_BYTES = 16 << 20  # a longer input line is that line's error (read in bounded memory)
_BOM = "\ufeff"


class BadRequest(ValueError):
    """A request that cannot be answered; the message is the line's one-line error."""


# ----------------------------------------------------------------------------- decoding
def _no_constant(name: str) -> Any:
    raise BadRequest(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    x = float(text)
    if not math.isfinite(x):
        raise BadRequest(f"number {text[:20]}{'...' if len(text) > 20 else ''} is too large")
    return x


_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite)


def decode_json(raw: bytes, lineno: int) -> Any:
    """The JSON value of one input line (``raw`` without its newline).

    A UTF-8 byte-order mark is skipped at the start of line 1; anywhere else, bytes that
    are not UTF-8, ``NaN``/``Infinity``, numbers beyond a float, JSON nested too deeply
    to read, are all :class:`BadRequest`.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadRequest(f"not UTF-8 text: byte 0x{raw[e.start]:02x} at column "
                         f"{e.start + 1}") from None
    if lineno == 1 and text.startswith(_BOM):
        text = text[1:]
    if _BOM in text:
        raise BadRequest("a byte-order mark (U+FEFF) inside the file (only the very start of "
                         "a file may have one)")
    try:
        return _DECODER.decode(text)
    except BadRequest:
        raise
    except RecursionError:
        raise BadRequest("bad JSON: nested too deeply") from None
    except ValueError as e:  # JSONDecodeError, and ints of more digits than Python reads
        raise BadRequest(f"bad JSON: {' '.join(str(e).split())}") from None


def id_key(value: Any) -> str | None:
    """The identity of a request id (a string or a finite number), None if unusable:
    ``"s" + text`` for a string, ``"n" + JSON text`` for a number (so ``"1"`` and ``1`` are
    different ids, and ``1`` and ``1.0`` too, as in JSON text)."""
    if isinstance(value, str):
        return "s" + value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return "n" + repr(value)


def check_id(req: Any) -> tuple[Any, str]:
    """``(id, id key)`` of a decoded line; BadRequest if it is not an object with a
    usable id."""
    if not isinstance(req, dict):
        raise BadRequest("a request must be a JSON object")
    if "id" not in req:
        raise BadRequest("missing field 'id'")
    key = id_key(req["id"])
    if key is None:
        raise BadRequest(f"id must be a string or a number, got {_short(req['id'])}")
    return req["id"], key


def _short(v: Any) -> str:
    s = repr(v)
    return s if len(s) <= 60 else s[:57] + "..."


# ----------------------------------------------------------------------------- fields
def effective(req: dict[str, Any], defaults: dict[str, Any] | None = None) -> dict[str, Any]:
    """The request as it will be answered: every field of its kind (``id`` left out),
    line values first, then ``defaults``, then None. Checks field names and types and the
    sampling options (:class:`simulate.sampling.Sampling`); raises :class:`BadRequest`."""
    d = defaults or {}
    kind = req.get("kind")
    if kind is None:
        kind = d.get("kind") or "equity"
    if kind not in KINDS:
        raise BadRequest(f"unknown kind {_short(kind)} (kinds: {', '.join(KINDS)})")
    allowed = _FIELD_SETS[kind]
    if not allowed.issuperset(req):
        unknown = sorted(str(k) for k in req if k not in allowed)
        raise BadRequest(f"unknown field {unknown[0]!r} for kind {kind!r} "
                         f"(fields: {', '.join(FIELDS[kind])})")
    out: dict[str, Any] = {"kind": kind}
    get = req.get
    line_sets_mode = (get("exact") is not None or get("samples") is not None
                      or get("std_error") is not None)
    for f, can_default, is_mode in _PLAN[kind]:
        v = get(f)
        if v is None and can_default and not (line_sets_mode and is_mode):
            v = d.get(f)
        out[f] = v
    need = "players" if kind == "allin" else "hands"
    if out[need] is None:
        raise BadRequest(f"missing field {need!r}")
    out[need] = _str_list(out[need], need)
    for f in ("board", "dead"):
        out[f] = _cards_text(out[f], f)
    if "game" in out:
        g = out["game"] if out["game"] is not None else "holdem"
        if not isinstance(g, str):
            raise BadRequest(f"game must be a string, got {_short(g)}")
        if kind == "range" and req.get("game") is None and not _takes_ranges(g):
            g = "holdem"  # a run's default game (say omaha) is for its other lines
        out["game"] = g
    for f in ("button", "dead_money"):
        if f in out and out[f] is not None and (isinstance(out[f], bool)
                                                or not isinstance(out[f], int)):
            raise BadRequest(f"{f} must be a whole number, got {_short(out[f])}")
    opts = sampling_of(out)  # checks the sampling fields
    out["exact"], out["samples"] = opts.exact, opts.samples
    out["std_error"], out["seed"] = opts.target_std_error, opts.seed
    return out


def _takes_ranges(game: str) -> bool:
    from simulate.games import GAMES

    g = GAMES.get(game.strip().lower())
    return g is not None and g.ranges


_NO_OPTIONS = Sampling()


def sampling_of(eff: dict[str, Any], threads: int | None = None) -> Sampling:
    """The checked :class:`Sampling` of an effective request (BadRequest if invalid)."""
    if (threads is None and eff["exact"] is None and eff["samples"] is None
            and eff["std_error"] is None and eff["seed"] is None):
        return _NO_OPTIONS  # nothing to check
    unit = CHIPS if eff["kind"] == "allin" else POT_FRACTION
    try:
        return Sampling(eff.get("exact"), eff.get("samples"), eff.get("std_error"),
                        eff.get("seed"), threads).validate(BATCH_NAMES, unit)
    except ValueError as e:
        raise BadRequest(str(e)) from None


def _str_list(v: Any, name: str) -> list[str]:
    if isinstance(v, str):
        v = v.split()
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise BadRequest(f"{name} must be a list of strings, got {_short(v)}")
    return v


def _cards_text(v: Any, name: str) -> str:
    if v is None:
        return ""
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return " ".join(v)
    if not isinstance(v, str):
        raise BadRequest(f"{name} must be a string of cards, got {_short(v)}")
    return v


def digest(eff: dict[str, Any]) -> str:
    """A short digest of an effective request (16 hex digits): a line whose id was
    answered before with another digest is a changed request."""
    text = repr(tuple(eff.values()))  # kind first, then its fields in a fixed order
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


# ----------------------------------------------------------------------------- answers
def answer(eff: dict[str, Any], threads: int | None = None) -> dict[str, Any]:
    """Answer one effective request as its single command would: ``{"result": {...}}`` or
    ``{"error": "..."}``. Never raises for bad input; an unexpected exception becomes
    ``"internal error: ..."`` (KeyboardInterrupt and MemoryError still propagate)."""
    try:
        return {"result": document(eff, threads)}
    except (ValueError, TypeError) as exc:
        return {"error": one_line(str(exc)) or type(exc).__name__}
    except RecursionError:
        return {"error": "input nested too deeply"}
    except MemoryError:
        raise
    except Exception as exc:  # noqa: BLE001 - one bad request must not stop the run
        return {"error": one_line(f"internal error: {type(exc).__name__}: {exc}")}


def one_line(text: str) -> str:
    return " ".join(text.split())


def document(eff: dict[str, Any], threads: int | None = None) -> dict[str, Any]:
    """The request's ``--json`` document (with ``"default_samples"`` as the command writes it
    when the default sample size was taken; ``load_s`` aside); raises ValueError (or
    CardError) for bad input."""
    from simulate.sampling import default_choices

    with default_choices() as chosen:
        doc = _answer_of(eff, threads)
    return {**doc, "default_samples": chosen[-1]} if chosen else doc


def _answer_of(eff: dict[str, Any], threads: int | None) -> dict[str, Any]:
    """The request parsed once (:mod:`simulate.request`) and run by its engine."""
    from simulate import request

    opts = sampling_of(eff, threads)
    kind = eff["kind"]
    if kind == "equity":
        from simulate.equity import run_equity

        return run_equity(request.parse_spot(eff["hands"], eff["board"], eff["dead"],
                                             game=eff["game"]), opts).to_dict()
    if kind == "range":
        from simulate.range_equity import analyze_spot, range_game

        return analyze_spot(request.parse_spot(eff["hands"], eff["board"], eff["dead"],
                                               game=range_game(eff["game"])), opts).to_dict()
    from simulate.allin import allin_run

    extra = {k: eff[k] for k in ("button", "dead_money") if eff[k] is not None}
    return allin_run(request.parse_allin_spot(eff["players"], eff["board"], eff["dead"],
                                              game=eff["game"], **extra), opts).to_dict()


def allin_game(game: str, specs: list[str]) -> str:
    """The game :func:`simulate.allin.allin_ev` plays for ``game`` (the all-in command and
    batch lines): ``omaha5`` and ``omaha6`` are its ``omaha`` (4 to 6 hole cards) once every
    live seat of ``specs`` (``CARDS:CHIPS``) is checked to hold exactly 5 or 6 cards; the
    hi/lo games are checked the same way and kept; every other game as it is.
    Raises CardError/ValueError with one line."""
    from simulate.games import check_game
    from simulate.request import parse_hand

    g = check_game(game)
    if not g.is_omaha or g.name == "omaha":
        return g.name
    for seat, spec in enumerate(specs):
        cards = str(spec).rsplit(":", 1)[0].strip()
        if cards.lower() == "fold":
            continue
        parse_hand(cards, g, seat, seat=True)  # the one hand rule: its count, a range's why
    return g.name if g.hilo else "omaha"  # the hi/lo games keep their own pot rule
