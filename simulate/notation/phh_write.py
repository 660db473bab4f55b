"""Writing PHH: one hand (:func:`hand_to_phh`, :func:`history_to_phh`) and ``.phhs``
collections (:class:`PHHSWriter`, :func:`write_phhs`).

The text is TOML that the standard library reads back (``tomllib``, so
:func:`simulate.notation.phh_read.parse_text` gives the same hand: read -> write -> read
is the identity) and that pokerkit 0.7.7's ``HandHistory.loads`` replays: the
game fields first in the order PHH documents them (``variant``,
``ante_trimming_status``, ``antes``, ``blinds_or_straddles``, ``bring_in``,
``small_bet``, ``big_bet``, ``min_bet``, ``starting_stacks``, ``actions``), then
the facts and any other fields. Integers are written as integers, decimals
exactly as :class:`~decimal.Decimal` holds them (``1720.35``), an unknown stack
as ``inf``.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterable, Mapping
from decimal import Decimal
from pathlib import Path
from typing import IO, Any

from simulate.games import GAMES

__all__ = ["PHHSWriter", "dumps_fields", "hand_to_phh", "history_to_phh", "variant_code",
           "write_phhs"]

#: The order of the fields that come first; every other field follows in its given order.
FIELD_ORDER = ("variant", "ante_trimming_status", "antes", "blinds_or_straddles", "bring_in",
               "small_bet", "big_bet", "min_bet", "starting_stacks", "actions")
_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _key(k: str) -> str:
    return k if _BARE.fullmatch(k) else _string(k)


def _string(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, Decimal):
        if v.is_nan():
            raise ValueError("NaN cannot be written to PHH")
        if v.is_infinite():
            return "inf" if v > 0 else "-inf"
        text = str(v)
        # keep it a TOML float (so it reads back as a Decimal), e.g. Decimal('5') -> 5.0
        return text if any(c in text for c in ".Ee") else text + ".0"
    if isinstance(v, float):
        return _value(Decimal(repr(v))) if v == v else "nan"
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, (_dt.datetime, _dt.date, _dt.time)):
        return v.isoformat()
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} to PHH")


def dumps_fields(fields: Mapping[str, Any]) -> str:
    """One hand's fields as PHH text (``key = value`` lines, game fields first)."""
    keys = [k for k in FIELD_ORDER if k in fields and fields[k] is not None]
    keys += [k for k in fields if k not in FIELD_ORDER and fields[k] is not None]
    lines = []
    for k in keys:
        v = fields[k]
        if k == "actions" and v:
            lines.append("actions = [\n" + "".join(f"  {_value(a)},\n" for a in v) + "]")
        else:
            lines.append(f"{_key(k)} = {_value(v)}")
    return "\n".join(lines) + "\n"


def history_to_phh(hand: Any) -> str:
    """A :class:`simulate.notation.phh_read.HandHistory` back to PHH text: every field it was read
    with (unknown ones included), so reading the text again gives the same hand."""
    return dumps_fields(hand.fields)


#: (game, betting) -> PHH variant code (Pineapple's are the project's own; see
#: :mod:`simulate.games`).
_VARIANTS = {(name, betting): code for name, g in GAMES.items()
             for betting, code in g.phh.items()}


def _amount(x: Any, scale: int) -> int | Decimal:
    if x is None:
        return Decimal("Infinity")
    if scale == 1:
        return int(x)
    return Decimal(int(x)) / scale


def variant_code(game: str, betting: str) -> str:
    """PHH's variant code of ``game`` under ``betting`` (``NT``, ``PO``, ...); ValueError
    (one line) where PHH has none."""
    variant = _VARIANTS.get((game, betting))
    if variant is None:
        raise ValueError(f"PHH has no variant code for {game} {betting}")
    return variant


def _fields_of_hand(hand: Any) -> dict[str, Any]:
    """The PHH fields of a :class:`simulate.engine.Hand` (duck-typed: ``rules``,
    ``starting_stacks``, ``actions``, ``finishing_stacks`` when done, optional
    ``scale`` for decimal amounts, ``players`` names (default ``seat 0``, ``seat 1``, ...
    by engine seat, so totals over many hands follow the seats as the button moves),
    ``unknown_stacks``)."""
    rules = hand.rules
    betting = rules.betting
    variant = variant_code(rules.game.name, betting)
    scale = int(getattr(hand, "scale", 1) or 1)
    n = len(hand.starting_stacks)
    button = int(getattr(hand, "button", n - 1))
    # PHH lists the seats from the small blind round to the button; heads-up the button is
    # the second seat. The engine numbers seats from 0 with its own button, so rotate.
    order = [(button + 1 + i) % n for i in range(n)]
    pos = {seat: i for i, seat in enumerate(order)}

    def per_seat(values: list[Any]) -> list[Any]:
        return [values[s] for s in order]

    blinds = [0] * n
    sb, bb = rules.blinds
    if getattr(rules, "button_blind", False):
        # the button's blind: the last entry (PHH's last seat is the button; heads-up the
        # first seat posts it, which PHH writes as the second entry: the last again)
        blinds[-1] = bb
        if n == 2:
            order = [(button + 1) % n, button]
            pos = {seat: i for i, seat in enumerate(order)}
    elif n == 2:
        blinds[pos[button]] = sb
        blinds[pos[(button + 1) % n]] = bb
        # PHH heads-up: the first entry is posted by the second seat
        blinds = [blinds[1], blinds[0]]
        order = [(button + 1) % n, button]
        pos = {seat: i for i, seat in enumerate(order)}
    else:
        blinds[0], blinds[1] = sb, bb
        for i, s in enumerate(getattr(rules, "straddles", ()) or ()):
            blinds[2 + i] = s
        for i, p in enumerate(getattr(rules, "posts", ()) or ()):
            if p:
                blinds[i] = -p  # PHH: a negative entry is a post
    antes = [0] * n
    if rules.ante:
        if getattr(rules, "bb_ante", False):
            # the big blind's entry (heads-up too: PHH swaps both lists); a button blind's
            # poster is the last entry
            antes[-1 if getattr(rules, "button_blind", False) else 1] = rules.ante
        else:
            antes = [rules.ante] * n
    fields: dict[str, Any] = {
        "variant": variant,
        "ante_trimming_status": False,
        "antes": [_amount(a, scale) for a in antes],
        "blinds_or_straddles": [_amount(b, scale) for b in blinds],
    }
    if betting == "fixed-limit":
        fields["small_bet"] = _amount(rules.small_bet or bb, scale)
        fields["big_bet"] = _amount(rules.big_bet or 2 * bb, scale)
    else:
        fields["min_bet"] = _amount(bb, scale)
    unknown = getattr(hand, "unknown_stacks", None) or [False] * n
    stacks = per_seat(list(hand.starting_stacks))
    fields["starting_stacks"] = [Decimal("Infinity") if unknown[s] else _amount(x, scale)
                                 for s, x in zip(order, stacks, strict=True)]
    fields["actions"] = [_renumber(a, pos, scale) for a in hand.actions]
    if getattr(hand, "done", False) and not any(unknown):
        fields["finishing_stacks"] = [_amount(x, scale)
                                      for x in per_seat(list(hand.finishing_stacks))]
    names = getattr(hand, "players", None) or [f"seat {s}" for s in range(n)]
    fields["players"] = per_seat(list(names))
    return fields


_SEAT = re.compile(r"\bp([0-9]+)\b")
_CBR = re.compile(r"^(\s*p[0-9]+\s+cbr\s+)([0-9]+)")


def _renumber(action: str, pos: dict[int, int], scale: int) -> str:
    """An engine action (``p1`` = seat 0) in PHH seat numbers, amounts in the file's units."""
    text = _SEAT.sub(lambda m: f"p{pos[int(m.group(1)) - 1] + 1}", action)
    if scale != 1:
        text = _CBR.sub(lambda m: m.group(1) + str(Decimal(int(m.group(2))) / scale), text)
    return text


def hand_to_phh(hand: Any, **extra: Any) -> str:
    """PHH text for a hand: a :class:`simulate.notation.phh_read.HandHistory` (written back as
    read) or a :class:`simulate.engine.Hand` (its rules, stacks and every action, deals
    included; finishing stacks once the hand is over). ``extra`` fields (``venue``,
    ``hand``, ...) are added after the others."""
    if hasattr(hand, "fields") and hasattr(hand, "variant"):
        fields = dict(hand.fields)
    else:
        fields = _fields_of_hand(hand)
    fields.update(extra)
    return dumps_fields(fields)


class PHHSWriter:
    """Write a ``.phhs`` collection hand by hand (constant memory)::

        with PHHSWriter("hands.phhs") as w:
            for hand in hands:
                w.add(hand)              # a Hand, a HandHistory or PHH text

    Sections are numbered ``[1]``, ``[2]``, ... in the order added; ``path`` ``-``
    (or a text stream) writes there instead of a file.
    """

    def __init__(self, path: str | Path | IO[str]) -> None:
        self._own = not hasattr(path, "write")
        if self._own:
            import sys

            self._fh: IO[str] = (sys.stdout if str(path) == "-"
                                 else open(path, "w", encoding="utf-8", newline="\n"))
            self._own = str(path) != "-"
        else:
            self._fh = path  # type: ignore[assignment]
        self.count = 0

    def add(self, hand: Any, **extra: Any) -> None:
        text = hand if isinstance(hand, str) else hand_to_phh(hand, **extra)
        self.count += 1
        self._fh.write(("\n" if self.count > 1 else "") + f"[{self.count}]\n" + text)

    def close(self) -> None:
        if self._own:
            self._fh.close()
        else:
            self._fh.flush()

    def __enter__(self) -> PHHSWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_phhs(hands: Iterable[Any], path: str | Path | IO[str]) -> int:
    """Write ``hands`` (Hands, HandHistories or PHH texts) as one ``.phhs``; returns the
    number written."""
    with PHHSWriter(path) as w:
        for h in hands:
            w.add(h)
        return w.count
