"""What every site hand-history reader shares: the site facts of a hand, the text decoder,
the amount and card readers, and the cutting of a file into hands.

A site reader (one module per site family, ``simulate/notation/site_<family>.py``) turns a
document into :class:`~simulate.notation.phh_read.HandHistory` records, the same records the
PHH reader makes, with :attr:`HandHistory.site` set to a :class:`SiteInfo`: the replay above
the engine plays them as it plays PHH, and the PHH writer writes them.

Amounts stay :class:`~decimal.Decimal` in the table's own units (dollars, euros, chips), as
printed; a reader never rounds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from evaluator.cards import ids_of_text
from simulate.notation.actions import PHHError
from simulate.text_encoding import sniff

__all__ = ["CURRENCY_SIGNS", "PlainSiteHand", "SiteInfo", "SiteError", "TextPart", "Tournament",
           "amount_at", "card_text", "cards_of", "decode", "parse_amount", "split_hands"]


class SiteError(PHHError):
    """A site hand that cannot be read, or whose chips do not add up; one line, naming the
    line of the file where it can."""


@dataclass(frozen=True)
class Tournament:
    """A tournament hand's event: the site's id (as printed), the buy-in as printed
    (``$4.60+$0.40``, None where the file gives none) and the blind level (as printed)."""

    id: str
    buy_in: str | None = None
    level: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        return {"id": self.id, "buy_in": self.buy_in, "level": self.level}


@dataclass
class SiteInfo:
    """The facts a site prints about a hand beyond what PHH plays.

    ``site``: lower-case family name (``pokerstars``, ``ggpoker``, ...). ``hand_id``: the
    site's id, as text. ``time``: ISO 8601, with the offset where the file gives a zone.
    ``currency``: ISO code (``USD``) or ``chips``. ``game``: an ``equity`` game name, or
    ``stud``, ``razz``, ``stud_hilo``, ``2-7_triple_draw``, ... ``betting``: ``no-limit``,
    ``pot-limit`` or ``fixed-limit``. ``seats``: the site's seat numbers, one per player of
    the record, in the record's order. ``boards``: one board text per run. ``fees``: money
    other than rake taken from the pots (jackpot, bad beat, ...), by name. ``cashout``:
    money paid outside the pots (cash-out, insurance) by player name. ``line``: the line of
    the document where the hand starts (1-based). ``repairs``: what the builder mended
    (an uncalled bet printed larger than the bet).
    """

    site: str
    hand_id: str
    game: str
    betting: str
    table: str | None = None
    time: str | None = None
    currency: str | None = None
    tournament: Tournament | None = None
    seats: list[int] = field(default_factory=list)
    hero: str | None = None
    boards: list[str] = field(default_factory=list)
    fees: dict[str, Decimal] = field(default_factory=dict)
    cashout: dict[str, Decimal] = field(default_factory=dict)
    line: int = 1
    repairs: list[str] = field(default_factory=list)
    #: What each player paid outside the pots (a cash-out fee, an insurance premium), by
    #: name, as a positive amount: it comes off the net, not the winnings.
    cashout_paid: dict[str, Decimal] = field(default_factory=dict)
    #: A capped game's cap (PokerStars' ``$80 Cap``: no player puts more into the hand,
    #: whatever the stack), None elsewhere: the rules engine plays no cap, so such a hand
    #: stands on its chip accounting.
    cap: Decimal | None = None


@dataclass
class PlainSiteHand:
    """A site hand read by its family's plain-hand lane (a PokerStars-format Hold'em hand
    in whole chips, every line one the lane knows:
    :mod:`simulate.notation.site_pokerstars_plain`), held as the fields the compiled replay
    takes rather than as a :class:`~simulate.notation.phh_read.HandHistory`.

    ``fields``: the hand's PHH fields in the form of
    :func:`simulate.replay.fast_replay.replay_items`' plain hands (whole amounts as ints,
    lists as tuples, ``actions`` as the text of a one-line TOML array), equal to what the
    full reader and :func:`simulate.notation.site_build.build` make of the same text;
    ``site``: its :class:`SiteInfo`, equal to theirs. ``text`` (the hand's text), ``line``
    (its first line in the document), ``source`` and ``family``: what
    :func:`simulate.notation.sites.read_again` reads when the compiled replay does not
    settle the hand."""

    fields: dict[str, object]
    site: SiteInfo
    text: str
    line: int
    source: str = ""
    family: str = ""


# ----------------------------------------------------------------------------- text
def decode(data: bytes) -> str:
    """A file's bytes as text with ``\\n`` line ends: a byte-order mark decides (UTF-8,
    UTF-16 LE/BE); without one, UTF-16 is recognised by its NUL bytes
    (:func:`simulate.text_encoding.sniff`), then UTF-8 is tried, then cp1252 (the Windows
    exports). Stray NUL characters are dropped; CRLF and lone CR become LF."""
    enc, bom = sniff(data)
    data = data[bom:]
    if enc is None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")
    else:
        text = data.decode(enc, errors="replace")
    return text.replace("\x00", "").replace("\r\n", "\n").replace("\r", "\n")


# ----------------------------------------------------------------------------- amounts
#: The currency a sign before an amount names (the readers of sites that print no code,
#: and the PokerStars writer, which prints the sign of the hand's currency).
CURRENCY_SIGNS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "CNY", "₹": "INR"}
_CURRENCY = re.compile(r"(?:US\$|C\$|A\$|[$€£¥₹]|USD|EUR|GBP|CAD|INR|CNY|RMB|T\$|FPP|SC|GC)",
                       re.IGNORECASE)
_SUFFIX = {"k": Decimal(1000), "m": Decimal(1000000), "b": Decimal(1000000000)}


def parse_amount(text: str) -> Decimal:
    """An amount as a site prints it, exactly: ``$1,234.50``, ``1 234,50 €``, ``€0,05``,
    ``1.234,5``, ``2.5k``, ``(1500)``, ``1'000``. A separator followed by exactly three
    digits, with another separator or none after, is a thousands separator unless it is
    the only separator and a comma/point convention says otherwise: ``1,234`` is 1234,
    ``0,05`` is 0.05, ``1.5`` is 1.5. Raises :class:`SiteError` naming the text."""
    s = _CURRENCY.sub("", text.strip().strip("()")).replace("\u00a0", " ").replace(
        "\u202f", " ").strip()
    mult = Decimal(1)
    if s and s[-1].lower() in _SUFFIX:
        mult, s = _SUFFIX[s[-1].lower()], s[:-1].strip()
    s = s.replace(" ", "").replace("'", "")
    if not s or not re.fullmatch(r"-?[0-9][0-9.,]*", s):
        raise SiteError(f"not an amount: {text.strip()!r}")
    seps = [c for c in s if c in ".,"]
    if seps:
        last = max(s.rfind("."), s.rfind(","))
        tail = s[last + 1:]
        if len(set(seps)) == 2:          # 1,234.50 or 1.234,50: the last one is decimal
            dec = s[last]
        elif len(seps) > 1:              # 1,234,567 (one kind, several times): thousands
            dec = None
        elif len(tail) == 3 and s[last] == "," and s[:last].lstrip("-") not in ("0", ""):
            dec = None                   # 1,234: thousands (a site writes cents with 2)
        else:
            dec = s[last]
        whole = s if dec is None else s[:last]
        whole = whole.replace(".", "").replace(",", "")
        s = whole if dec is None else f"{whole}.{tail}"
    try:
        return Decimal(s) * mult
    except InvalidOperation:
        raise SiteError(f"not an amount: {text.strip()!r}") from None


_AMOUNTS: dict[str, Decimal] = {}


def amount_at(text: str, line: int) -> Decimal:
    """:func:`parse_amount` for a reader at ``line`` of its document (the error names the
    line), remembered: a file repeats its stakes' few amounts on every hand."""
    got = _AMOUNTS.get(text)
    if got is None:
        try:
            got = parse_amount(text)
        except SiteError as exc:
            raise SiteError(f"line {line}: {exc}") from None
        if len(_AMOUNTS) > 100_000:
            _AMOUNTS.clear()
        _AMOUNTS[text] = got
    return got


# ----------------------------------------------------------------------------- cards
#: Rank letters other languages print, to ours.
_RANKS = {"10": "T", "1": "T", "B": "J", "V": "J", "D": "Q", "R": "K", "Q": "Q", "K": "K",
          "J": "J", "A": "A", "T": "T",
          "E": "A", "KN": "J"}  # Danish/Swedish/Norwegian: Es/Ess, Knægt/Knekt, Dame, Konge
_SUITS = {"h": "h", "d": "d", "c": "c", "s": "s", "♥": "h", "♦": "d", "♣": "c", "♠": "s"}


def card_text(token: str) -> str:
    """One card as a site prints it (``Ah``, ``10h``, ``AH``, ``A♥``, French ``Rc`` for the
    king) as our two-letter text (``Ah``); raises :class:`SiteError` naming the token.
    (German ``D`` for the queen is our ``Q``; ``D`` is the queen in French as well;
    Scandinavian ``E`` and ``Kn`` are the ace and the jack, as 888's Danish and Swedish
    clients print them: ``Ec``, ``Knc``.)"""
    t = token.strip().strip("[]")
    if len(t) < 2:
        raise SiteError(f"not a card: {token!r}")
    rank, suit = t[:-1].upper(), t[-1]
    rank = _RANKS.get(rank, rank)
    suit = _SUITS.get(suit.lower(), _SUITS.get(suit, ""))
    text = rank + suit
    if ids_of_text(text) is None:
        raise SiteError(f"not a card: {token!r}")
    return text


def cards_of(text: str) -> tuple[str, ...]:
    """The cards of a list (``Ah 10d Kc``, ``Ah, 10d, Kc``), each by :func:`card_text`."""
    return tuple(card_text(t) for t in text.replace(",", " ").split())


# ----------------------------------------------------------------------------- hands
class TextPart(str):
    """A part of a document cut at a hand's start (:func:`simulate.notation.sites.site_parts`):
    the text, and the document's line number of its first line, which
    :func:`split_hands` counts from, so a reader's line numbers are the document's."""

    first_line: int = 1


def split_hands(text: str, start: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    """The hands of a document: ``(first line, text)`` for each run of lines from one line
    matching ``start`` (searched at line starts, ``re.M``) to the next; text before the
    first start is dropped (it holds no hand). Lines count from 1, or from a
    :class:`TextPart`'s ``first_line``."""
    starts = [m.start() for m in start.finditer(text)]
    line, prev = getattr(text, "first_line", 1), 0
    for i, pos in enumerate(starts):
        line += text.count("\n", prev, pos)
        prev = pos
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        yield line, text[pos:end]

