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

This module only reads and checks the text; :mod:`simulate.phh.replay` plays the
hand. Amounts are :class:`decimal.Decimal` so that ``1720.35`` stays exact.
Players are numbered from 1 in the file (``p1``); here seats are 0-based.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from evaluator.cards import RANKS, SUITS

__all__ = [
    "Action",
    "HandHistory",
    "PHHError",
    "iter_hand_files",
    "load_hands",
    "parse_action",
    "parse_card_text",
    "parse_hand",
    "parse_text",
]


class PHHError(ValueError):
    """A hand history that cannot be read; the message is one line."""


#: Card slots: a card id 0..51, or ``None`` for an unknown card (``??``).
CardSlots = list[int | None]


@dataclass(frozen=True)
class Action:
    """One parsed action.

    ``actor``: 0-based seat, or ``None`` for the dealer. ``kind``: ``dh``, ``db``,
    ``f``, ``cc``, ``cbr``, ``pb``, ``sd`` or ``sm``. ``target``: for ``dh``
    the seat dealt to. ``cards``: card slots (``None`` = unknown) or ``None``
    when the action names no cards. ``amount``: the ``cbr`` street total.
    """

    text: str
    actor: int | None
    kind: str
    target: int | None = None
    cards: CardSlots | None = None
    amount: Decimal | None = None


@dataclass
class HandHistory:
    """One hand as written in the file; amounts are Decimals, seats 0-based."""

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

    @property
    def n_players(self) -> int:
        return len(self.starting_stacks)


_CARD_RE = re.compile(r"[2-9TJQKA][cdhs]|\?\?", re.IGNORECASE)
_SECTION_RE = re.compile(r"^\s*\[([^\]\n]*)\]\s*(?:#.*)?$", re.MULTILINE)
_PLAYER_RE = re.compile(r"^p([1-9][0-9]*)$")


def parse_card_text(text: str, what: str = "cards") -> CardSlots:
    """``"AcKd"`` -> ``[48, 45]``; ``"????"`` -> ``[None, None]``; ``"-"`` -> ``[]``."""
    s = text.strip()
    if s in ("", "-"):
        return []
    out: CardSlots = []
    pos = 0
    s = s.replace(" ", "")
    while pos < len(s):
        m = _CARD_RE.match(s, pos)
        if m is None:
            raise PHHError(f"bad {what} {text!r}: cannot read {s[pos:pos + 2]!r}")
        tok = m.group(0)
        if tok == "??":
            out.append(None)
        else:
            out.append(4 * RANKS.index(tok[0].upper()) + SUITS.index(tok[1].lower()))
        pos = m.end()
    return out


def _seat(tok: str, n: int, text: str) -> int:
    m = _PLAYER_RE.match(tok)
    if m is None:
        raise PHHError(f"bad action {text!r}: {tok!r} is not a player (p1, p2, ...)")
    seat = int(m.group(1)) - 1
    if seat >= n:
        raise PHHError(f"bad action {text!r}: there are only {n} players")
    return seat


def _decimal(tok: str, text: str) -> Decimal:
    try:
        value = Decimal(tok)
    except ArithmeticError:
        raise PHHError(f"bad action {text!r}: {tok!r} is not an amount") from None
    if not value.is_finite() or value < 0:
        raise PHHError(f"bad action {text!r}: {tok!r} is not an amount")
    return value


def parse_action(text: str, n_players: int) -> Action:
    """Parse one action string (see the module docstring); raises :class:`PHHError`."""
    if not isinstance(text, str):
        raise PHHError(f"action {text!r} is not a string")
    body = text.split("#", 1)[0].strip()
    toks = body.split()
    if not toks:
        raise PHHError(f"empty action {text!r}")
    if toks[0] == "d":
        if len(toks) >= 2 and toks[1] == "dh":
            if len(toks) not in (3, 4):
                raise PHHError(f"bad action {text!r}: want 'd dh pN CARDS'")
            cards = parse_card_text(toks[3] if len(toks) == 4 else "", "cards")
            return Action(text, None, "dh", _seat(toks[2], n_players, text), cards)
        if len(toks) >= 2 and toks[1] == "db":
            if len(toks) != 3:
                raise PHHError(f"bad action {text!r}: want 'd db CARDS'")
            return Action(text, None, "db", None, parse_card_text(toks[2], "board"))
        raise PHHError(f"unknown dealer action {text!r}")
    seat = _seat(toks[0], n_players, text)
    if len(toks) < 2:
        raise PHHError(f"bad action {text!r}: no action after {toks[0]}")
    kind = toks[1]
    rest = toks[2:]
    if kind in ("f", "cc", "pb"):
        if rest:
            raise PHHError(f"bad action {text!r}: {kind!r} takes nothing after it")
        return Action(text, seat, kind)
    if kind == "cbr":
        if len(rest) != 1:
            raise PHHError(f"bad action {text!r}: want 'pN cbr AMOUNT'")
        return Action(text, seat, "cbr", amount=_decimal(rest[0], text))
    if kind in ("sd", "sm"):
        if len(rest) > 1:
            raise PHHError(f"bad action {text!r}: cards must be written without spaces")
        cards = parse_card_text(rest[0]) if rest else None
        if cards == []:
            cards = None
        return Action(text, seat, kind, cards=cards)
    raise PHHError(f"unknown action {kind!r} in {text!r}")


def _amounts(fields: dict[str, Any], key: str, n: int | None, default: Any = None,
             ) -> list[Decimal] | None:
    if key not in fields:
        if default is None:
            return None
        return [Decimal(default)] * (n or 0)
    raw = fields[key]
    if not isinstance(raw, list):
        raise PHHError(f"{key} must be a list of amounts, got {raw!r}")
    out = []
    for v in raw:
        if isinstance(v, bool) or not isinstance(v, (int, Decimal)):
            raise PHHError(f"{key} must be a list of amounts, got {v!r}")
        out.append(Decimal(v))
    if n is not None and len(out) != n:
        raise PHHError(f"{key} has {len(out)} entries for {n} players")
    return out


def _scalar(fields: dict[str, Any], key: str) -> Decimal | None:
    if key not in fields:
        return None
    v = fields[key]
    if isinstance(v, bool) or not isinstance(v, (int, Decimal)):
        raise PHHError(f"{key} must be an amount, got {v!r}")
    return Decimal(v)


def parse_hand(fields: dict[str, Any], source: str = "<hand>") -> HandHistory:
    """Build a :class:`HandHistory` from decoded TOML ``fields``; raises :class:`PHHError`."""
    if "variant" not in fields:
        raise PHHError("missing field 'variant'")
    variant = fields["variant"]
    if not isinstance(variant, str):
        raise PHHError(f"variant must be a string, got {variant!r}")
    stacks = _amounts(fields, "starting_stacks", None)
    if stacks is None:
        raise PHHError("missing field 'starting_stacks'")
    n = len(stacks)
    if n < 2:
        raise PHHError(f"a hand needs at least 2 players, got {n}")
    if "actions" not in fields or not isinstance(fields["actions"], list):
        raise PHHError("missing field 'actions' (a list of strings)")
    antes = _amounts(fields, "antes", n, default=0)
    blinds = _amounts(fields, "blinds_or_straddles", n, default=0)
    assert antes is not None and blinds is not None
    players = fields.get("players")
    if players is None:
        players = [f"p{i + 1}" for i in range(n)]
    elif not isinstance(players, list) or len(players) != n:
        raise PHHError(f"players must be a list of {n} names")
    trim = fields.get("ante_trimming_status", False)
    if not isinstance(trim, bool):
        raise PHHError(f"ante_trimming_status must be true or false, got {trim!r}")
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
        finishing_stacks=_amounts(fields, "finishing_stacks", n),
        winnings=_amounts(fields, "winnings", n),
        rake=_scalar(fields, "rake"),
        fields=dict(fields),
    )


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_SCALAR = re.compile(r"[A-Za-z0-9_.:+-]+")
_INT = re.compile(r"[+-]?[0-9](?:_?[0-9])*")
_DEC = re.compile(r"[+-]?[0-9](?:_?[0-9])*(?:\.[0-9](?:_?[0-9])*)?(?:[eE][+-]?[0-9]+)?")
_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}


class _Reader:
    """A small reader for the TOML subset PHH uses: ``key = value`` lines with strings,
    integers, decimals (kept exact), booleans, times/dates (kept as text), and arrays that
    may span lines and hold comments."""

    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0

    def fail(self, why: str) -> PHHError:
        line = self.s.count("\n", 0, self.i) + 1
        return PHHError(f"not valid PHH/TOML: {why} (line {line})")

    def skip(self, newlines: bool) -> None:
        s = self.s
        while self.i < len(s):
            c = s[self.i]
            if c in " \t\r" or (newlines and c == "\n"):
                self.i += 1
            elif c == "#":
                while self.i < len(s) and s[self.i] != "\n":
                    self.i += 1
            else:
                return

    def document(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        while True:
            self.skip(newlines=True)
            if self.i >= len(self.s):
                return out
            key = self.key()
            self.skip(newlines=False)
            if not self.s.startswith("=", self.i):
                raise self.fail(f"expected '=' after {key!r}")
            self.i += 1
            self.skip(newlines=False)
            if key in out:
                raise self.fail(f"field {key!r} given twice")
            out[key] = self.value()
            self.skip(newlines=False)
            if self.i < len(self.s) and self.s[self.i] != "\n":
                raise self.fail(f"unexpected text after the value of {key!r}")

    def key(self) -> str:
        c = self.s[self.i]
        if c in "\"'":
            return self.string()
        m = _BARE_KEY.match(self.s, self.i)
        if m is None:
            raise self.fail(f"expected a field name, got {self.s[self.i:self.i + 10]!r}")
        self.i = m.end()
        return m.group(0)

    def string(self) -> str:
        q = self.s[self.i]
        self.i += 1
        out = []
        while True:
            if self.i >= len(self.s) or self.s[self.i] == "\n":
                raise self.fail("unterminated string")
            c = self.s[self.i]
            self.i += 1
            if c == q:
                return "".join(out)
            if c == "\\" and q == '"':
                e = self.s[self.i: self.i + 1]
                self.i += 1
                if e in _ESCAPES:
                    out.append(_ESCAPES[e])
                elif e in ("u", "U"):
                    width = 4 if e == "u" else 8
                    hexdigits = self.s[self.i: self.i + width]
                    try:
                        out.append(chr(int(hexdigits, 16)))
                    except ValueError:
                        raise self.fail(f"bad escape \\{e}{hexdigits}") from None
                    self.i += width
                else:
                    raise self.fail(f"bad escape \\{e}")
            else:
                out.append(c)

    def value(self) -> Any:
        if self.i >= len(self.s):
            raise self.fail("missing value")
        c = self.s[self.i]
        if c in "\"'":
            return self.string()
        if c == "[":
            self.i += 1
            items = []
            while True:
                self.skip(newlines=True)
                if self.s.startswith("]", self.i):
                    self.i += 1
                    return items
                items.append(self.value())
                self.skip(newlines=True)
                if self.s.startswith(",", self.i):
                    self.i += 1
                elif not self.s.startswith("]", self.i):
                    raise self.fail("expected ',' or ']' in a list")
        m = _SCALAR.match(self.s, self.i)
        if m is None:
            raise self.fail(f"cannot read a value at {self.s[self.i:self.i + 10]!r}")
        tok = m.group(0)
        self.i = m.end()
        # a local date-time may have one space between date and time
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", tok) and re.match(r" \d{2}:", self.s[self.i:]):
            m2 = _SCALAR.match(self.s, self.i + 1)
            assert m2 is not None
            tok += " " + m2.group(0)
            self.i = m2.end()
        if tok in ("true", "false"):
            return tok == "true"
        if _INT.fullmatch(tok):
            return int(tok.replace("_", ""))
        if _DEC.fullmatch(tok):
            return Decimal(tok.replace("_", ""))
        if re.fullmatch(r"[0-9][0-9:.\-+TZtz ]*", tok):
            return tok  # a TOML date or time: kept as text
        raise self.fail(f"cannot read the value {tok!r}")


def _decode(text: str) -> dict[str, Any]:
    return _Reader(text).document()


def parse_text(text: str, source: str = "<text>") -> list[tuple[str, HandHistory | PHHError]]:
    """Every hand in one document: ``[(source, hand or error)]``, in file order.

    A document with ``[N]`` section headers is a collection (``.phhs``): each
    section is read on its own, so one bad hand does not hide the others, and
    its source is ``source#N``. Otherwise the document is one hand.
    """
    heads = list(_SECTION_RE.finditer(text))
    out: list[tuple[str, HandHistory | PHHError]] = []
    if not heads:
        try:
            out.append((source, parse_hand(_decode(text), source)))
        except PHHError as exc:
            out.append((source, exc))
        return out
    preamble = text[: heads[0].start()]
    if preamble.strip():
        try:
            top = _decode(preamble)
        except PHHError as exc:
            out.append((source, exc))
            top = {}
        if top:
            out.append((source, PHHError("fields outside any [N] section")))
    for i, m in enumerate(heads):
        name = m.group(1).strip().strip("'\"")
        src = f"{source}#{name}"
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        try:
            out.append((src, parse_hand(_decode(text[m.end(): end]), src)))
        except PHHError as exc:
            out.append((src, exc))
    return out


def iter_hand_files(path: str | Path) -> list[Path]:
    """``path`` itself if it is a file, else every ``.phh``/``.phhs`` below it, sorted."""
    p = Path(path)
    if p.is_dir():
        return sorted(f for f in p.rglob("*") if f.is_file() and f.suffix in (".phh", ".phhs"))
    if not p.exists():
        raise FileNotFoundError(f"no such file or folder: {path}")
    return [p]


def load_hands(path: str | Path) -> list[tuple[str, HandHistory | PHHError]]:
    """Read a ``.phh``, a ``.phhs`` or a folder of them: ``[(source, hand or error)]``."""
    out: list[tuple[str, HandHistory | PHHError]] = []
    for f in iter_hand_files(path):
        try:
            text = f.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            out.append((str(f), PHHError(f"cannot read file: {exc}")))
            continue
        out.extend(parse_text(text, str(f)))
    return out
