"""Replay many hands at once: the plain hands of a collection settled in one compiled call.

:func:`replay_items` takes hands as :func:`simulate.notation.phh_read.iter_sections` cuts them
(``(source, first_line, text bytes or an error)``) and returns each hand's document, the
same dict :func:`simulate.replay.hand_files.replay_item` returns (equal, key order included:
both are built by :func:`simulate.replay.hand_replay.replay_document`).
Most hands of a large collection are plain: every line ``key = value`` in the form this
project writes, no-limit, pot-limit or fixed-limit Hold'em with whole-number amounts,
every action one the engine plays, no all-in, no muck, no rake. For those, Python reads
only the few header lines (:func:`_quick`) and the rules once per distinct header
(:func:`_header_of`); the action lists go as text to
:func:`simulate._kernels.replay.replay_many`, which parses, plays every action through the
engine's kernels and settles all of the chunk's hands in one call. Any other hand, and
any hand the kernel does not settle, is replayed by :func:`replay_item` (the per-hand
path: same result, and the error messages, repairs, all-in EV, hidden showdowns and
other variants are all its own), so this module adds no rule of its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any, NamedTuple

import numpy as np

from evaluator.cards import CARD_PAIRS, cards_text
from simulate.games import GAMES, MAX_PLAYERS, MIN_PLAYERS
from simulate.notation.phh_read import MAX_AMOUNT, HandHistory, comment_ok, toml_line
from simulate.notation.site_text import PlainSiteHand
from simulate.replay.hand_replay import HandReplay, replay_document

__all__ = ["Item", "iter_replay_read", "replay_item", "replay_items"]

#: One hand as read: ``(source, first line, its text, or an error message found while
#: reading it, or the hand a site reader made, or a site hand its plain-hand lane read)``
#: (:func:`simulate.notation.phh_read.iter_sections`, errors as text;
#: :func:`simulate.notation.sites.read_site`).
Item = tuple[str, int, "bytes | str | HandHistory | PlainSiteHand"]


def replay_item(src: str, line: int, data: bytes | str | HandHistory | PlainSiteHand,
                ) -> dict[str, Any]:
    """Parse and replay one hand's text (``str`` = an error already found while reading; a
    :class:`HandHistory` = a hand a site reader already read; a :class:`PlainSiteHand` is
    read again by the full reader first: :func:`simulate.notation.sites.read_again`);
    returns the hand's JSON document. Never raises for a bad hand."""
    from simulate.notation.phh_read import PHHError, hand_from_bytes
    from simulate.replay.hand_replay import replay

    if isinstance(data, PlainSiteHand):
        from simulate.notation.sites import read_again

        got = read_again(data)
        data = str(got) if isinstance(got, PHHError) else got

    hand = (data if isinstance(data, HandHistory)
            else hand_from_bytes(src, line, PHHError(data) if isinstance(data, str) else data))
    d = replay(hand, src).to_dict()
    d["readable"] = not isinstance(hand, PHHError)
    return d


_INT_LISTS = frozenset({"antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks",
                        "winnings"})
_INT_SCALARS = frozenset({"min_bet", "small_bet", "big_bet", "bring_in", "rake"})
_MAX = int(MAX_AMOUNT)
#: Variants :func:`simulate._kernels.replay.replay_many` settles (Hold'em's, every betting
#: structure: its strengths).
FAST_VARIANTS = frozenset(GAMES["holdem"].phh.values())


def _quick(data: bytes) -> dict[str, Any] | None:
    """The fields of a plain hand (see the module docstring), ``actions`` left as the text
    of a one-line TOML array; None for anything else. Every line must be ``key = value``
    with one space each side, a bare key used once and a one-line value of
    :func:`decode_toml`'s fast form, except ``actions``, which may also be written as
    :func:`simulate.notation.phh_write.dumps_fields` writes it (``actions = [``, one ``  "ACTION",``
    per line, ``]``); the kernel reads every item or refuses the hand. So the hand is valid
    TOML and these are the values ``tomllib`` reads (lists as tuples, shared between
    hands)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "\r" in text or "\x00" in text or "\ufeff" in text or "\t" in text:
        return None
    out: dict[str, Any] = {}
    lines = iter(text.split("\n"))
    cache = _LINES
    for line in lines:
        if not line:
            continue
        if line[0] == "#":
            if not comment_ok(line):
                return None
            continue
        got = cache.get(line)
        if got is None:
            if line[:10] == "actions = ":
                v = line[10:]
                if v == "[":  # the writer's form: one '  "ACTION",' per line
                    items = []
                    for item in lines:
                        if item == "]":
                            break
                        if item[:2] != "  " or item[-1:] != ",":
                            return None
                        items.append(item[2:-1])
                    else:
                        return None
                    v = "[" + ", ".join(items) + "]"
                if v[:1] != "[" or v[-1:] != "]" or not v.isascii():
                    return None
                got = ("actions", v)
            else:
                got = _line(line)
                if got is None:
                    return None
                if got[0] in _KNOWN and len(line) < 1000:  # header lines repeat
                    if len(cache) >= 4096:
                        cache.clear()
                    cache[line] = got
        k = got[0]
        if k in out:
            return None
        out[k] = got[1]
    return out


def _site_quick(hh: HandHistory) -> dict[str, Any] | None:
    """The fields of a site reader's hand in :func:`_quick`'s form (whole amounts as ints,
    lists as tuples, ``actions`` as the text of a TOML array), taken from the PHH fields the
    builder made (:func:`simulate.notation.site_build.build`), so the hand is not written
    and read again; None for a hand with an amount that is not a whole number (the
    per-hand path scales those) or an action the array form cannot carry, and for a capped
    game's hand (the engine plays no cap: the per-hand path keeps its chip accounting)."""
    if hh.site is not None and hh.site.cap is not None:
        return None
    src = hh.fields
    out: dict[str, Any] = {}
    for k, v in src.items():
        if k in _INT_LISTS:
            if type(v) is not list or not all(type(x) is int and 0 <= x <= _MAX for x in v):
                return None
            out[k] = tuple(v)
        elif k in _INT_SCALARS:
            if type(v) is not int or not 0 <= v <= _MAX:
                return None
            out[k] = v
        elif k == "players":
            out[k] = tuple(v)
        elif k in ("variant", "ante_trimming_status"):
            out[k] = v
    acts = src.get("actions")
    if type(acts) is not list:
        return None
    text = '["' + '", "'.join(acts) + '"]' if acts else "[]"
    if not text.isascii() or text.count('"') != 2 * len(acts):
        return None
    out["actions"] = text
    return out


#: :func:`_line` of the header lines seen (most repeat from hand to hand).
_LINES: dict[str, tuple[str, Any]] = {}
_KNOWN = _INT_LISTS | _INT_SCALARS | {"variant", "ante_trimming_status", "players"}


def _line(line: str) -> tuple[str, Any] | None:
    """``(key, value)`` of one ``key = value`` line of :func:`_quick`'s form
    (:func:`simulate.notation.phh_read.toml_line`, the one TOML fast path, with the types the
    compiled path takes: whole amounts up to :data:`MAX_AMOUNT`, lists as tuples; other
    keys' values as read), None for any other line."""
    got = toml_line(line)
    if got is None:
        return None
    k, v = got
    if k in _INT_LISTS:  # (amounts above MAX_AMOUNT are the per-hand path's error)
        if type(v) is not list or not v or not all(type(x) is int and 0 <= x <= _MAX
                                                   for x in v):
            return None
        return k, tuple(v)
    if k in _INT_SCALARS:
        return (k, v) if type(v) is int and 0 <= v <= _MAX else None
    if k == "variant":
        return (k, v) if type(v) is str else None
    if k == "ante_trimming_status":
        return (k, v) if type(v) is bool else None
    if k == "players":
        return (k, tuple(v)) if type(v) is list and all(type(x) is str for x in v) else None
    if k == "actions":
        return None
    return k, v


class _Header:
    """What a hand's header lines decide, shared by every hand with the same ones: the
    engine state to start from (``None``: not one for the compiled path), the odd-chip
    order and the big blind."""

    __slots__ = ("state", "order", "big_blind")

    def __init__(self, state: np.ndarray | None, order: np.ndarray | None,
                 big_blind: Any) -> None:
        self.state = state
        self.order = order
        self.big_blind = big_blind


_HEADERS: dict[tuple[Any, ...], _Header] = {}
_NO = _Header(None, None, None)


def _header_of(f: dict[str, Any], n: int) -> _Header:
    """The :class:`_Header` of fields ``f`` (a hand of ``n`` seats), by the per-hand path's
    own functions (:func:`simulate.replay.engine_check.engine_rules`,
    :func:`simulate.replay.accounting.button_seat` and
    :func:`~simulate.replay.accounting.big_blind_of`)."""
    key = (f["variant"], n, tuple(f.get("antes") or ()), tuple(f.get("blinds_or_straddles") or ()),
           f.get("min_bet"), f.get("small_bet"), f.get("big_bet"), f.get("bring_in"),
           f.get("ante_trimming_status", False))
    got = _HEADERS.get(key)
    if got is not None:
        return got
    from simulate._kernels import engine as K
    from simulate.replay import accounting as R
    from simulate.replay.engine_check import EngineCannotPost, engine_rules

    zeros = [Decimal(0)] * n

    def dec(name: str) -> Decimal | None:
        v = f.get(name)
        return None if v is None else Decimal(v)

    hand = HandHistory(
        source="", variant=f["variant"], starting_stacks=[Decimal(1)] * n,
        antes=[Decimal(x) for x in f["antes"]] if "antes" in f else zeros,
        blinds_or_straddles=([Decimal(x) for x in f["blinds_or_straddles"]]
                             if "blinds_or_straddles" in f else zeros),
        actions=[], players=[], ante_trimming_status=f.get("ante_trimming_status", False),
        bring_in=dec("bring_in"), min_bet=dec("min_bet"), small_bet=dec("small_bet"),
        big_bet=dec("big_bet"))
    u = R.Units(1)
    got = _NO
    try:
        rules = engine_rules(hand, u)
        # the engine seats the button last; a hand whose blinds put it elsewhere (a zero
        # small blind) pays odd chips in another order than the engine: the per-hand path
        # cross-checks those
        if not R.antes_trimmed(hand) \
                and len(rules.straddles) <= (0 if n == 2 else n - 2) \
                and R.button_seat(hand) == n - 1:
            state = rules.header()
            state[K.N] = n
            state[K.BUTTON] = n - 1
            state[K.MODE] = 1
            order = np.zeros(K.MAXS, np.int64)
            order[:n] = (np.arange(1, n + 1) + n - 1) % n
            got = _Header(state, order, R.big_blind_of(hand, u))
    except (EngineCannotPost, ValueError, ArithmeticError):
        got = _NO
    if len(_HEADERS) >= 4096:
        _HEADERS.clear()
    _HEADERS[key] = got
    return got


def _plain(f: dict[str, Any]) -> tuple[int, _Header] | None:
    """``(seats, header)`` when the fields ``f`` are a hand the compiled path may settle."""
    if f.get("variant") not in FAST_VARIANTS or "actions" not in f:
        return None
    stacks = f.get("starting_stacks")
    if not stacks:
        return None
    n = len(stacks)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS or min(stacks) < 1 or f.get("rake"):
        return None
    for k in ("antes", "blinds_or_straddles", "finishing_stacks", "winnings", "players"):
        v = f.get(k, stacks)
        if len(v) != n:
            return None
    if max(stacks) > _MAX:
        return None
    head = _header_of(f, n)
    if head.state is None:
        return None
    return n, head


def replay_items(items: list[Item], *, compiled: bool = False) -> list[dict[str, Any]]:
    """Each hand's document (:func:`replay_item`), in order; the
    plain ones settled together by :func:`simulate._kernels.replay.replay_many`.
    ``compiled``: the plain hands take the batch kernel however few they are (the warm-up,
    which must compile it; otherwise :data:`FAST_MIN` decides on a cold cache)."""
    return list(iter_replay_items(items, compiled=compiled))


def iter_replay_items(items: list[Item], *, compiled: bool = False) -> Iterator[dict[str, Any]]:
    """:func:`replay_items`, each document built only when it is yielded (a chunk's
    settled hands are held as arrays and a few lists, not as documents)."""
    for d, _ in iter_replay_read(items, compiled=compiled, fields=False):
        yield d


def iter_replay_read(items: list[Item], *, compiled: bool = False, fields: bool = True
                     ) -> Iterator[tuple[dict[str, Any], dict[str, Any] | None]]:
    """:func:`iter_replay_items` with, for each hand the compiled path settled, the fields
    :func:`_quick` read (``actions`` as the text of a one-line TOML array, lists as tuples;
    None for a hand replayed per hand): what a caller needs to use the hand without
    reading it again. ``compiled`` as in :func:`replay_items`. ``fields`` False: None for
    every hand (a chunk's fields are then not held until its documents are built: about
    ten objects a hand that the garbage collector would walk again and again: twice the
    collections, measured in benchmarks/README.md)."""
    picked: list[_Picked] = []
    texts: list[bytes] = []
    for idx, (_, _, data) in enumerate(items):
        f = (_quick(data) if isinstance(data, bytes)
             else data.fields if isinstance(data, PlainSiteHand)
             else _site_quick(data) if isinstance(data, HandHistory) and data.site is not None
             else None)
        got = None if f is None else _plain(f)
        if got is not None:
            assert f is not None
            picked.append(_Picked(idx, got[0], got[1], f["variant"], f.get("players"),
                                  f["starting_stacks"], f.get("finishing_stacks"),
                                  f.get("winnings"), f if fields else None))
            texts.append(f["actions"].encode("ascii"))
    _plain_seen[0] += len(picked)
    if picked and not compiled and _plain_seen[0] < FAST_MIN and not _fast_ready():
        picked = []  # a first run on a few hands: the per-hand road alone is compiled
    docs = _Settled(items, picked, texts) if picked else None
    del texts
    k = 0
    for idx, it in enumerate(items):
        if k < len(picked) and picked[k].position == idx:
            assert docs is not None
            d = docs.doc(k)
            k += 1
            if d is not None:
                yield d, picked[k - 1].fields
                continue
        yield replay_item(*it), None


#: Plain hands a process meets before it compiles the batch kernel (when its disk cache
#: lacks it): below that, each is replayed on its own (:func:`replay_item`, whose kernels a
#: hand needs anyway), so ``pokerjit hand`` on a few hands compiles one road, not two (the
#: batch kernel is about 10 s of a first run's compile on the 2-core VM). The answers are
#: the same either way.
FAST_MIN = 256
_plain_seen = [0]


def _fast_ready() -> bool:
    from evaluator._first_run import ready
    from simulate._kernels.replay import replay_many

    return ready(replay_many)


class _Picked(NamedTuple):
    """A hand for the kernel: its index in the chunk, seats, header, the fields its
    document repeats and all of its fields (as :func:`_quick` read them)."""

    position: int
    seats: int
    header: _Header
    variant: str
    players: tuple[str, ...] | None
    starting_stacks: tuple[int, ...]
    recorded_finishing_stacks: tuple[int, ...] | None
    recorded_winnings: tuple[int, ...] | None
    fields: dict[str, Any] | None


#: Zero stacks after ``n`` seats, by ``n`` (an engine state holds 10 seats).
_PAD = tuple((0,) * (10 - n) for n in range(11))
#: The seats of each bit mask of up to 10 seats (bit ``s`` for seat ``s``), in order.
_SEATS = tuple(tuple(s for s in range(10) if m >> s & 1) for m in range(1 << 10))


class _Settled:
    """The ``picked`` hands of ``items`` played and settled in one kernel call; ``doc(i)``
    builds the document of the ``i``-th picked hand (None where the kernel fell back)."""

    def __init__(self, items: list[Item], picked: list[_Picked], texts: list[bytes]) -> None:
        from evaluator._tables import get_tables
        from simulate._kernels import engine as K
        from simulate._kernels.replay import SETTLED, replay_many

        H = len(picked)
        S = K.MAXS
        hdr = np.array([p.header.state for p in picked])
        pad = _PAD
        hdr[:, K.STACK:K.STACK + S] = [p.starting_stacks + pad[p.seats] for p in picked]
        order = np.array([p.header.order for p in picked])
        toff = np.zeros(H + 1, np.int64)
        np.cumsum([len(b) for b in texts], out=toff[1:])
        text = np.frombuffer(b"".join(texts), np.uint8)
        status = np.empty(H, np.int64)
        nboard = np.zeros(H, np.int64)
        holen = np.zeros((H, S), np.int64)
        fin = np.zeros((H, S), np.int64)
        pay = np.zeros((H, S), np.int64)
        ret = np.zeros((H, S), np.int64)
        npots = np.zeros(H, np.int64)
        pamt = np.zeros((H, S + 1), np.int64)
        pelig = np.zeros((H, S + 1), np.int64)
        pwin = np.zeros((H, S + 1), np.int64)
        board = np.zeros((H, 5), np.uint8)
        hole = np.zeros((H, S, K.MAXH), np.uint8)
        replay_many(hdr, order, text, toff, CARD_PAIRS, get_tables().kernel_args, status,
                    nboard, board, holen, hole, fin, pay, ret, npots, pamt, pelig, pwin)
        self.items, self.picked = items, picked
        self.ok = (status == SETTLED).tolist()
        self.comm = (hdr[:, K.COMM:K.COMM + S] + hdr[:, K.ANTEP:K.ANTEP + S]).tolist()
        self.fin, self.pay, self.ret = fin.tolist(), pay.tolist(), ret.tolist()
        self.nboard, self.npots, self.holen = nboard.tolist(), npots.tolist(), holen.tolist()
        self.pamt, self.pelig, self.pwin = pamt.tolist(), pelig.tolist(), pwin.tolist()
        self.board, self.hole = board.tolist(), hole.tolist()

    def doc(self, i: int) -> dict[str, Any] | None:
        """The document of the ``i``-th picked hand (:func:`replay_document`), None where the
        kernel did not settle it."""
        if not self.ok[i]:
            return None
        p = self.picked[i]
        n, players, stacks = p.seats, p.players, p.starting_stacks
        rec_fin, rec_win = p.recorded_finishing_stacks, p.recorded_winnings
        fi = self.fin[i][:n]
        pa = self.pay[i][:n]
        re_ = self.ret[i][:n]
        amounts, pe, pw = self.pamt[i], self.pelig[i], self.pwin[i]
        pots = [{"amount": amounts[k], "eligible": list(_SEATS[pe[k]]),
                 "winners": list(_SEATS[pw[k]])} for k in range(self.npots[i])]
        hole = self.hole[i]
        hl = self.holen[i]
        kept = dict(
            source=self.items[p.position][0], variant=p.variant,
            players=[f"p{s + 1}" for s in range(n)] if players is None else list(players),
            starting_stacks=list(stacks), finishing_stacks=fi,
            net=[fi[s] - stacks[s] for s in range(n)], pots=pots,
            committed=self.comm[i][:n],
            winnings=[pa[s] - re_[s] for s in range(n)], allin_ev=None,
            validated=True, not_validated=None, outcome_known=True, complete=True, error=None,
            board=cards_text(self.board[i][:self.nboard[i]]),
            hole_cards=[cards_text(hole[s][:hl[s]]) for s in range(n)],
            rake=0, big_blind=p.header.big_blind, allin_board=None, allin_exact=None,
            allin_error=None,
            recorded_finishing_stacks=None if rec_fin is None else list(rec_fin),
            recorded_winnings=None if rec_win is None else [float(v) for v in rec_win],
            repairs=[])
        hand = self.items[p.position][2]
        if isinstance(hand, (HandHistory, PlainSiteHand)):  # a site hand: the site's keys
            d = HandReplay(payouts=pa, site=hand.site, **kept).to_dict()
        else:
            d = replay_document(**kept)
        d["readable"] = True
        return d
