"""Card encoding, parsing and formatting: the project's one card codec.

A card id is ``4 * rank + suit`` with rank 0..12 for 2..A and suit 0..3 for
clubs, diamonds, hearts, spades. Arrays of cards are ``numpy.uint8``. A card not known
(``??`` in a hand history) is :data:`UNKNOWN` (255) where a reader allows it.

Text -> id: :func:`parse_cards` (any text: spaces, commas, ``10``, suit symbols, either
case; ``allow_unknown`` reads ``??``), and for the readers that see card text by the
million the tables it agrees with: :data:`CARD_IDS` (every two-character ASCII spelling),
:data:`CARD_SLOTS` (the same plus ``??``) and :data:`CARD_PAIRS` (the same over bytes, for
compiled readers), and :func:`ids_of_text`, the one fast path over :data:`CARD_IDS` for
cards written back to back (``AhKh``), None for any other text. Id -> text:
:func:`card_str`, :func:`cards_str`, :data:`CARD_TEXT` and :func:`cards_text` (``??`` for
:data:`UNKNOWN`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np

RANKS = "23456789TJQKA"
SUITS = "cdhs"
_SUIT_SYMBOLS = {"♣": 0, "♦": 1, "♥": 2, "♠": 3}
RANK_NAMES = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
              "Jack", "Queen", "King", "Ace")
RANK_PLURALS = ("Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines",
                "Tens", "Jacks", "Queens", "Kings", "Aces")

_TOKEN = re.compile(r"(10|[2-9tjqka])([cdhs♣♦♥♠])", re.IGNORECASE)
_TOKEN_OR_UNKNOWN = re.compile(r"(10|[2-9tjqka])([cdhs♣♦♥♠])|\?\?", re.IGNORECASE)

#: The id of a card not known (``??``).
UNKNOWN = 255
#: The text of each card id 0..51.
CARD_TEXT: tuple[str, ...] = tuple(RANKS[c >> 2] + SUITS[c & 3] for c in range(52))
#: Every two-character ASCII spelling of a card (rank and suit in either case) -> its id.
CARD_IDS: dict[str, int] = {
    r + s: 4 * i + j for i, rank in enumerate(RANKS) for r in {rank, rank.lower()}
    for j, suit in enumerate(SUITS) for s in (suit, suit.upper())}
#: :data:`CARD_IDS` and ``??`` -> :data:`UNKNOWN`.
CARD_SLOTS: dict[str, int] = {**CARD_IDS, "??": UNKNOWN}
#: :data:`CARD_SLOTS` over bytes, for compiled readers: ``CARD_PAIRS[128 * b0 + b1]`` is the
#: id of the two ASCII characters ``b0 b1`` (:data:`UNKNOWN` for ``??``), -1 for any other
#: pair (``int16[16384]``, read-only).
CARD_PAIRS = np.full(128 * 128, -1, np.int16)
for _t, _c in CARD_SLOTS.items():
    CARD_PAIRS[128 * ord(_t[0]) + ord(_t[1])] = _c
CARD_PAIRS.flags.writeable = False
_SLOT_TEXT = {**dict(enumerate(CARD_TEXT)), UNKNOWN: "??"}


class CardError(ValueError):
    """Raised for text that is not a card, a wrong card count, or a repeated card."""


def card_id(rank: int, suit: int) -> int:
    """Card id of ``rank`` (0..12) and ``suit`` (0..3)."""
    return 4 * rank + suit


def card_str(card: int) -> str:
    """Canonical text of one card id, e.g. ``Ah``."""
    card = int(card)
    if not 0 <= card < 52:
        raise CardError(f"card id {card} is out of range 0..51")
    return RANKS[card >> 2] + SUITS[card & 3]


def cards_str(cards: Iterable[int], sep: str = "") -> str:
    """Canonical text of several card ids joined by ``sep``."""
    return sep.join(card_str(c) for c in cards)


def cards_text(cards: Iterable[int]) -> str:
    """The text of card ids written back to back, ``??`` for :data:`UNKNOWN`; raises
    :class:`CardError` for any other id out of range."""
    try:
        return "".join([_SLOT_TEXT[c] for c in cards])
    except (KeyError, TypeError):
        return "".join("??" if c == UNKNOWN else card_str(c) for c in cards)


#: ``_PAIR_SLICES[k]``: the slices of ``k`` two-character cards written back to back
#: (:func:`ids_of_text`; precomputed, as they cost more to build than the lookups).
_PAIR_SLICES = tuple(tuple(slice(i, i + 2) for i in range(0, 2 * k, 2)) for k in range(65))


def ids_of_text(text: object) -> list[int] | None:
    """The card ids of ``text`` when it is two-character ASCII cards written back to back
    (``AhKh``, rank and suit in either case; ``""`` gives ``[]``), by :data:`CARD_IDS`
    lookup: the fast path of readers that see card text by the million. None for any other
    text (spaces, commas, ``10``, suit symbols, ``??``, an odd length, a token that is not
    a card) and for anything not a string: the caller then reads it with
    :func:`parse_cards`, which agrees on every card and names the fault. Repeats are not
    checked here (``AhAh`` gives ``[50, 50]``): they are the caller's to judge."""
    if not isinstance(text, str) or len(text) & 1:
        return None
    k = len(text) >> 1
    try:
        if k < len(_PAIR_SLICES):
            return [CARD_IDS[text[s]] for s in _PAIR_SLICES[k]]
        return [CARD_IDS[text[i:i + 2]] for i in range(0, len(text), 2)]
    except KeyError:
        return None


def _parse_token(tok: str) -> int:
    rank_txt, suit_txt = tok[:-1], tok[-1]
    rank = 8 if rank_txt == "10" else RANKS.index(rank_txt.upper())
    suit = _SUIT_SYMBOLS[suit_txt] if suit_txt in _SUIT_SYMBOLS else SUITS.index(suit_txt.lower())
    return card_id(rank, suit)


def parse_cards(text: str | Sequence[int] | np.ndarray | None, *, what: str = "cards",
                allow_repeats: bool = False, allow_unknown: bool = False) -> list[int]:
    """Parse card text (``"AhKh"``, ``"Ah Kh"``, ``"10♠,j♥"``) or a sequence of ids.

    Returns a list of card ids. Raises :class:`CardError` naming the offending
    token, or a repeated card, in ``what`` (e.g. ``"hand 2"``). ``allow_unknown``: text
    only, ``??`` is a card not known (:data:`UNKNOWN`, never a repeat), and spaces and
    commas may fall anywhere (``"A h,??"``); repeats are then the caller's to judge.
    """
    if text is None:
        return []
    if allow_unknown and isinstance(text, str):
        return _parse_slots(text, what)
    if not isinstance(text, str):
        out = []
        for c in np.asarray(text).reshape(-1).tolist():
            if isinstance(c, str):
                out.extend(parse_cards(c, what=what, allow_repeats=True))
                continue
            if not isinstance(c, int) or not 0 <= c < 52:
                raise CardError(f"{c!r} in {what} is not a card id (0..51)")
            out.append(int(c))
    elif (fast := ids_of_text(text)) is not None:
        out = fast
    else:
        out = []
        for chunk in re.split(r"[\s,]+", text.strip()):
            if not chunk:
                continue
            pos = 0
            while pos < len(chunk):
                m = _TOKEN.match(chunk, pos)
                if m is None:
                    bad = chunk[pos:pos + 2] if len(chunk) - pos >= 2 else chunk[pos:]
                    if chunk[pos:pos + 2] == "10":
                        bad = chunk[pos:pos + 3]
                    raise CardError(f"'{bad}' in {what} is not a card")
                out.append(_parse_token(m.group(0)))
                pos = m.end()
    if not allow_repeats:
        seen: set[int] = set()
        for c in out:
            if c in seen:
                raise CardError(f"duplicate card {card_str(c)} in {what}")
            seen.add(c)
    return out


def _parse_slots(text: str, what: str) -> list[int]:
    """Card text where ``??`` is a card not known (see :func:`parse_cards`)."""
    t = re.sub(r"[\s,]+", "", text)
    out: list[int] = []
    pos = 0
    while pos < len(t):
        m = _TOKEN_OR_UNKNOWN.match(t, pos)
        if m is None:
            bad = t[pos:pos + 3] if t[pos:pos + 2] == "10" else t[pos:pos + 2]
            raise CardError(f"'{bad}' in {what} is not a card")
        out.append(UNKNOWN if m.group(0) == "??" else _parse_token(m.group(0)))
        pos = m.end()
    return out


def check_disjoint(groups: Sequence[tuple[str, Sequence[int]]]) -> None:
    """Raise :class:`CardError` if any card appears twice across named groups.

    ``groups`` is a sequence of ``(name, cards)``; the message names both places,
    e.g. ``duplicate card Ah in hand 2 and board``.
    """
    where: dict[int, str] = {}
    for name, cards in groups:
        for c in cards:
            if c in where:
                first = where[c]
                place = f"in {first}" if first == name else f"in {first} and {name}"
                raise CardError(f"duplicate card {card_str(c)} {place}")
            where[c] = name

