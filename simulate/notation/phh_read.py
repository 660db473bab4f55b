"""Reader for PHH poker hand histories (``.phh`` single hands, ``.phhs`` collections).

PHH is a TOML document of ``key = value`` lines: game parameters (``variant``,
``antes``, ``blinds_or_straddles``, ``bring_in``, ``min_bet``, ``small_bet``,
``big_bet``, ``starting_stacks``, ``ante_trimming_status``), the ``actions``
list, and optional facts (``players``, ``finishing_stacks``, ``winnings``,
``rake``, ``venue``, ...). A ``.phhs`` file holds several hands, each under a
``[N]`` section header.

Actions are strings, one per event (a ``#`` starts a comment):

- ``d dh pN CARDS``: deal hole cards to player N (``??`` is an unknown card);
- ``d db CARDS``: deal board cards;
- ``pN f`` fold, ``pN cc`` check or call, ``pN cbr X`` complete, bet or raise
  to a street total of X, ``pN pb`` post the bring-in;
- ``pN sd [CARDS]``: stand pat or discard (draw games);
- ``pN sm [CARDS]``: show cards at showdown (no cards: muck).

The TOML itself is decoded by the standard library (:mod:`tomllib`; ``tomli`` on
Python 3.10) with ``parse_float=Decimal``, so ``1720.35`` stays exact and a stack
written ``inf`` (unknown) is ``Decimal('Infinity')``. This module only reads and
checks the text; :mod:`simulate.replay.hand_replay` plays the hand. Players are numbered
from 1 in the file (``p1``); here seats are 0-based.

Streaming: :func:`iter_hands` reads a file or a folder one hand at a time (a
``.phhs`` collection is cut at its ``[N]`` headers a block at a time, never held whole:
:mod:`simulate.notation.phh_sections`),
so memory stays bounded whatever the size of the input. Every problem is that
hand's :class:`PHHError` (a UTF-8 byte-order mark is skipped at the start of a
file and is an error anywhere else; bytes that are not UTF-8, arrays nested too
deeply, numbers too large, hands over :data:`MAX_HAND_BYTES`), and reading goes on
with the next hand.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import IO, Any

from simulate.games import MAX_CHIPS
from simulate.notation.actions import (
    MAX_AMOUNT,
    Action,
    CardSlots,  # noqa: F401 - re-exported
    PHHError,
    check_amount,
    parse_card_text,
)
from simulate.notation.actions import parse_action as _parse_action
from simulate.notation.phh_sections import MAX_HAND_BYTES, iter_sections
from simulate.notation.site_text import SiteInfo

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = [
    "MAX_AMOUNT",
    "MAX_HAND_BYTES",
    "Action",
    "HandHistory",
    "PHHError",
    "decode_toml",
    "iter_hand_files",
    "iter_hands",
    "iter_sections",
    "load_hands",
    "parse_action",
    "parse_card_text",
    "parse_hand",
    "parse_text",
]


@dataclass
class HandHistory:
    """One hand as written in the file; amounts are Decimals, seats 0-based.

    ``starting_stacks`` entries may be ``Decimal('Infinity')`` (unknown stack,
    ``inf`` in the file). A negative ``blinds_or_straddles`` entry is a post: that seat
    pays the amount as a live bet to play at once (it does not move the first actor).
    ``fields`` is the whole decoded TOML table, unknown keys included (the writer keeps
    them). ``site``: the site's facts when a site reader made the record.
    """

    source: str
    variant: str
    starting_stacks: list[Decimal]
    antes: list[Decimal]
    blinds_or_straddles: list[Decimal]
    actions: list[Action]
    players: list[str]
    ante_trimming_status: bool = False
    bring_in: Decimal | None = None
    min_bet: Decimal | None = None
    small_bet: Decimal | None = None
    big_bet: Decimal | None = None
    finishing_stacks: list[Decimal] | None = None
    winnings: list[Decimal] | None = None
    rake: Decimal | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    #: A site hand's facts beyond PHH (None for PHH): see :mod:`simulate.notation.site_text`.
    site: SiteInfo | None = None

    @property
    def n_players(self) -> int:
        return len(self.starting_stacks)

    @property
    def unknown_stacks(self) -> bool:
        """True when some starting stack is ``inf`` (unknown)."""
        return any(v.is_infinite() for v in self.starting_stacks)


#: Parsed actions that name no cards (``p3 cc``, ``p1 cbr 40``: most actions of a large
#: collection repeat) by ``(text, players)``; an :class:`Action` is immutable, so hands
#: share them. Emptied when it reaches :data:`_ACTION_CACHE_SIZE` entries (memory stays
#: bounded; deals, which seldom repeat, are not kept).
_ACTION_CACHE: dict[tuple[str, int], Action] = {}
_ACTION_CACHE_SIZE = 4096


def parse_action(text: str, n_players: int) -> Action:
    """Parse one action string (:func:`simulate.notation.actions.parse_action`, the hand
    history's dialect), remembered; raises :class:`PHHError`."""
    key = (text, n_players)
    try:
        return _ACTION_CACHE[key]
    except (KeyError, TypeError):  # TypeError: not a string (unhashable): the check below
        pass
    act = _parse_action(text, n_players)
    if act.cards is None:
        if len(_ACTION_CACHE) >= _ACTION_CACHE_SIZE:
            _ACTION_CACHE.clear()
        _ACTION_CACHE[key] = act
    return act


def _number(v: Any, key: str, allow_inf: bool = False, allow_post: bool = False) -> Decimal:
    if type(v) is int and 0 <= v <= MAX_CHIPS:
        return Decimal(v)
    if isinstance(v, bool) or not isinstance(v, (int, Decimal)):
        raise PHHError(f"{key} must hold amounts, got {str(v)[:40]!r}")
    d = Decimal(v)
    if d.is_infinite() and not allow_inf:
        raise PHHError(f"{key}: {v} is not an amount")
    if allow_post and d.is_finite() and d < 0:  # a post (blinds_or_straddles)
        return -check_amount(-d, key)
    return check_amount(d, key)


def _amounts(fields: dict[str, Any], key: str, n: int | None, default: Any = None,
             allow_inf: bool = False, allow_post: bool = False) -> list[Decimal] | None:
    if key not in fields:
        if default is None:
            return None
        return [Decimal(default)] * (n or 0)
    raw = fields[key]
    if not isinstance(raw, list):
        raise PHHError(f"{key} must be a list of amounts, got {str(raw)[:40]!r}")
    out = [_number(v, key, allow_inf, allow_post) for v in raw]
    if n is not None and len(out) != n:
        raise PHHError(f"{key} has {len(out)} entries for {n} players")
    return out


def _scalar(fields: dict[str, Any], key: str) -> Decimal | None:
    if key not in fields:
        return None
    return _number(fields[key], key)


#: The most players one hand may seat.
MAX_PLAYERS = 23


def parse_hand(fields: dict[str, Any], source: str = "<hand>") -> HandHistory:
    """Build a :class:`HandHistory` from decoded TOML ``fields``; raises :class:`PHHError`."""
    if not fields:
        raise PHHError("not a PHH hand: no fields")
    if "variant" not in fields:
        raise PHHError("not a PHH hand: missing field 'variant'")
    variant = fields["variant"]
    if not isinstance(variant, str):
        raise PHHError(f"variant must be a string, got {str(variant)[:40]!r}")
    stacks = _amounts(fields, "starting_stacks", None, allow_inf=True)
    if stacks is None:
        raise PHHError("missing field 'starting_stacks'")
    n = len(stacks)
    if not 2 <= n <= MAX_PLAYERS:
        raise PHHError(f"a hand needs 2 to {MAX_PLAYERS} players, got {n}")
    if "actions" not in fields or not isinstance(fields["actions"], list):
        raise PHHError("missing field 'actions' (a list of strings)")
    antes = _amounts(fields, "antes", n, default=0)
    blinds = _amounts(fields, "blinds_or_straddles", n, default=0, allow_post=True)
    assert antes is not None and blinds is not None
    players = fields.get("players")
    if players is None:
        players = [f"p{i + 1}" for i in range(n)]
    elif not isinstance(players, list) or len(players) != n:
        raise PHHError(f"players must be a list of {n} names")
    trim = fields.get("ante_trimming_status", False)
    if not isinstance(trim, bool):
        raise PHHError(f"ante_trimming_status must be true or false, got {str(trim)[:20]!r}")
    actions = [parse_action(a, n) for a in fields["actions"]]
    return HandHistory(
        source=source,
        variant=variant,
        starting_stacks=stacks,
        antes=antes,
        blinds_or_straddles=blinds,
        actions=actions,
        players=[str(p) for p in players],
        ante_trimming_status=trim,
        bring_in=_scalar(fields, "bring_in"),
        min_bet=_scalar(fields, "min_bet"),
        small_bet=_scalar(fields, "small_bet"),
        big_bet=_scalar(fields, "big_bet"),
        finishing_stacks=_amounts(fields, "finishing_stacks", n, allow_inf=True),
        winnings=_amounts(fields, "winnings", n),
        rake=_scalar(fields, "rake"),
        fields=fields,
    )


_AT_LINE = re.compile(r"at line (\d+)")

# The fast TOML reader (see _fast_toml): one line per field, a subset of TOML whose meaning
# is plain. Control characters (tab apart) are never inside a string here.
_FT_STR1 = r"'[^'\x00-\x08\x0a-\x1f\x7f]*'"
_FT_STR2 = r'"[^"\\\x00-\x08\x0a-\x1f\x7f]*"'
_FT_NUM = r"-?(?:0|[1-9][0-9]{0,17})(?:\.[0-9]{1,30})?"
_FT_LINE = re.compile(r"([A-Za-z0-9_-]+)[ \t]*=[ \t]*(.*?)[ \t]*")
_FT_SCALAR = re.compile(rf"{_FT_STR1}|{_FT_STR2}|{_FT_NUM}|true|false")
_FT_ARRAYS = (
    (re.compile(rf"\[(?:{_FT_STR1}(?:, {_FT_STR1})*)?\]"), "', '"),
    (re.compile(rf"\[(?:{_FT_STR2}(?:, {_FT_STR2})*)?\]"), '", "'),
    (re.compile(rf"\[(?:{_FT_NUM}(?:, {_FT_NUM})*)?\]"), ", "),
)


def _ft_number(tok: str) -> int | Decimal:
    return Decimal(tok) if "." in tok else int(tok)


def toml_line(line: str) -> tuple[str, Any] | None:
    """``(key, value)`` of one ``key = value`` line (no indent, no line break) as
    :func:`tomllib.loads` (``parse_float=Decimal``) reads it, when the key is bare and the
    value is one of the fast form's (see :func:`_fast_toml`); None for any other line."""
    m = _FT_LINE.fullmatch(line)
    if m is None:
        return None
    key, v = m.group(1), m.group(2)
    c = v[:1]
    if c == "[":
        for pat, sep in _FT_ARRAYS:
            if pat.fullmatch(v):
                inner = v[1:-1]
                if not inner:
                    return key, []
                if sep == ", ":
                    return key, [_ft_number(t) for t in inner.split(sep)]
                return key, inner[1:-1].split(sep)
        return None
    if _FT_SCALAR.fullmatch(v) is None:
        return None
    if c == "'" or c == '"':
        return key, v[1:-1]
    if v == "true" or v == "false":
        return key, v == "true"
    return key, _ft_number(v)


def comment_ok(st: str) -> bool:
    """A whole-line comment tomllib accepts (no control characters but tab)."""
    return not ("\r" in st or any(c < " " and c != "\t" or c == "\x7f" for c in st))


def _fast_toml(text: str) -> dict[str, Any] | None:
    """``text`` decoded as :func:`tomllib.loads` (``parse_float=Decimal``) decodes it, when
    every line is blank, a whole-line comment or ``key = value`` with a bare key and a
    one-line value: a string without escapes, a plain integer or decimal, ``true``/``false``,
    or an array of strings (one quote style, ``", "`` between) or of numbers
    (:func:`toml_line`, the project's one TOML fast path). Anything else (and a repeated
    key) returns None: tomllib reads the text then, and reports its errors. The hand
    histories this project writes, and most exports, are of this form; about ten times
    faster than tomllib on them."""
    out: dict[str, Any] = {}
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return None  # a carriage return that does not end a line
    for line in text.split("\n"):
        if line.endswith("\r"):
            line = line[:-1]
        st = line.lstrip(" \t")
        if not st or st[0] == "#":
            if not comment_ok(st):
                return None  # tomllib refuses control characters in comments
            continue
        got = toml_line(st)
        if got is None or got[0] in out:
            return None
        out[got[0]] = got[1]
    return out


def decode_toml(text: str, first_line: int = 1) -> dict[str, Any]:
    """Decode one hand's TOML text (``tomllib``, decimals as :class:`Decimal`); every
    failure is a one-line :class:`PHHError` whose line numbers count from ``first_line``."""
    if "\ufeff" in text:
        line = text.count("\n", 0, text.index("\ufeff")) + first_line
        raise PHHError(f"byte-order mark inside the file (line {line})")
    fast = _fast_toml(text)
    if fast is not None:
        return fast
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        msg = _AT_LINE.sub(lambda m: f"at line {int(m.group(1)) + first_line - 1}", str(exc))
        raise PHHError(f"not valid PHH/TOML: {msg}") from None
    except RecursionError:
        raise PHHError(f"not valid PHH/TOML: arrays nested too deeply "
                       f"(hand at line {first_line})") from None
    except (ValueError, InvalidOperation, OverflowError) as exc:  # e.g. a 5,000-digit integer
        raise PHHError(f"not valid PHH/TOML: {str(exc).splitlines()[0][:80]} "
                       f"(hand at line {first_line})") from None


def hand_from_bytes(src: str, line: int, data: bytes | PHHError) -> HandHistory | PHHError:
    if isinstance(data, PHHError):
        return data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = line + data.count(b"\n", 0, exc.start)
        return PHHError(f"not UTF-8 text (byte 0x{data[exc.start]:02x} at line {bad})")
    if "\x00" in text:
        return PHHError("binary data, not PHH text")
    try:
        return parse_hand(decode_toml(text, line), src)
    except PHHError as exc:
        return exc


def _iter_stream(stream: IO[bytes], source: str) -> Iterator[tuple[str, HandHistory | PHHError]]:
    for src, line, data in iter_sections(stream, source):
        yield src, hand_from_bytes(src, line, data)


def parse_text(text: str | bytes, source: str = "<text>",
               ) -> list[tuple[str, HandHistory | PHHError]]:
    """Every hand in one document: ``[(source, hand or error)]``, in file order.

    A document with ``[N]`` section headers is a collection (``.phhs``): each
    section is read on its own, so one bad hand does not hide the others, and
    its source is ``source#N``. Otherwise the document is one hand. (For files of
    any size use :func:`iter_hands`, which streams.)
    """
    import io

    data = text.encode("utf-8") if isinstance(text, str) else text
    return list(_iter_stream(io.BytesIO(data), source))


#: The names a folder's hand histories have.
SUFFIXES = (".phh", ".phhs")


def _walk(folder: Path, seen: set[tuple[int, int]], skip: Callable[[str], None],
          every_file: bool = False) -> Iterator[Path]:
    """The regular ``.phh``/``.phhs`` files below ``folder`` (every regular file with
    ``every_file``), sorted, one directory at a time, each real file and folder once
    (``seen``: their ``(device, inode)``)."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        skip(f"skipped {folder}: cannot read the folder ({exc.strerror or exc})")
        return
    for e in entries:
        p = Path(e.path)
        named = every_file or e.name.endswith(SUFFIXES)
        try:
            st = e.stat()  # (follows a link)
        except OSError:
            if named and e.is_symlink():
                skip(f"skipped {p}: a link to nothing ({os.readlink(p)})")
            continue
        key = (st.st_dev, st.st_ino)
        if stat.S_ISDIR(st.st_mode):
            if key in seen:
                skip(f"skipped {p}: a link to a folder already read ({os.path.realpath(p)})")
                continue
            seen.add(key)
            yield from _walk(p, seen, skip, every_file)
        elif named:
            if not stat.S_ISREG(st.st_mode):
                skip(f"skipped {p}: not a regular file (a device or pipe?)")
            elif key in seen:
                skip(f"skipped {p}: the same file as one already read")
            else:
                seen.add(key)
                yield p


def iter_hand_files(path: str | Path, *, seen: set[tuple[int, int]] | None = None,
                    on_skip: Callable[[str], None] | None = None,
                    every_file: bool = False) -> Iterator[Path]:
    """``path`` itself if it is a regular file, else every regular ``.phh``/``.phhs`` below
    it (every regular file with ``every_file``: site exports have any name) (sorted,
    streamed), each real file and each real folder once: a link to a folder
    already visited (``self -> .``, ``up -> ..``: no endless walk), a second name of a file
    already read (a hard or soft link, the same file given twice or with its folder),
    a link that leads nowhere and a ``.phh`` that is a device or pipe are skipped, each
    told to ``on_skip(message)``. ``seen`` (the ``(device, inode)`` of what was read)
    carries this across calls. Nothing is opened here (a pipe is never waited on).
    Raises FileNotFoundError when ``path`` does not exist, ValueError when it is neither
    a folder nor a regular file."""
    p = Path(path)
    seen = set() if seen is None else seen
    skip = on_skip or (lambda msg: None)
    try:
        st = os.stat(p)
    except OSError:
        raise FileNotFoundError(f"no such file or folder: {path}") from None
    key = (st.st_dev, st.st_ino)
    if stat.S_ISDIR(st.st_mode):
        if key in seen:
            skip(f"skipped {path}: a folder already read")
            return iter(())
        seen.add(key)
        return _walk(p, seen, skip, every_file)
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"{path}: not a regular file (a device or pipe?); hand histories "
                         "are read from files, folders or - (standard input)")
    if key in seen:
        skip(f"skipped {path}: the same file as one already read")
        return iter(())
    seen.add(key)
    return iter([p])


def iter_hands(path: str | Path | Iterable[str | Path],
               ) -> Iterator[tuple[str, HandHistory | PHHError]]:
    """Stream ``(source, hand or error)`` from a ``.phh``, a ``.phhs``, a folder of them
    (recursively, sorted) or a list of such paths; one hand in memory at a time, each
    real file read once (:func:`iter_hand_files`)."""
    paths = [path] if isinstance(path, (str, Path)) else list(path)
    seen: set[tuple[int, int]] = set()
    for top in paths:
        for f in iter_hand_files(top, seen=seen):
            try:
                fh = open(f, "rb")
            except OSError as exc:
                yield str(f), PHHError(f"cannot read file: {exc.strerror or exc}")
                continue
            with fh:
                try:
                    yield from _iter_stream(fh, str(f))
                except OSError as exc:
                    yield str(f), PHHError(f"cannot read file: {exc.strerror or exc}")


def load_hands(path: str | Path) -> list[tuple[str, HandHistory | PHHError]]:
    """Every hand of a ``.phh``, a ``.phhs`` or a folder of them, as a list (small inputs;
    :func:`iter_hands` streams)."""
    return list(iter_hands(path))
