"""The rows of a few hands, as table columns ready for one bulk insert each.

:class:`Batch` takes each hand (its :class:`~simulate.notation.phh_read.HandHistory` and
its replay document, :meth:`simulate.replay.hand_replay.HandReplay.to_dict`) and appends
one tuple per row of ``hands``, ``hand_players`` and ``actions``
(:data:`simulate.store.schema.TABLES`, in :data:`COLUMNS` order), each tagged with the
hand's place (``ord``) so that the rows of hands already stored can be left out together;
:meth:`Batch.arrays` gives a table's columns as numpy arrays (:func:`columns`: missing
values masked), the form DuckDB scans in bulk.
"""

from __future__ import annotations

import functools
import operator
from decimal import Decimal
from typing import Any, NamedTuple

import numpy as np

from simulate.notation.hand_facts import fields_digest, hand_time, in_utc
from simulate.notation.phh_read import HandHistory
from simulate.store.counts import (
    COUNT_FIELDS,
    Row,
    SeatCounts,
    hand_moves,
    hand_start,
    plain_start,
    text_moves,
    walk,
)
from simulate.store.plain_walk import PlainWalk
from simulate.store.schema import TABLES

__all__ = ["COLUMNS", "Batch", "Facts", "columns", "fields_key", "hand_key", "stakes_text",
           "utc_time"]

_NUMERIC = {"DOUBLE": np.float64, "BIGINT": np.int64, "SMALLINT": np.int32,
            "BOOLEAN": np.bool_}


def hand_key(hand: HandHistory, doc: dict[str, Any]) -> tuple[str, str]:
    """``(site, hand_id)``: the site's; where the file gives no id (PHH), a digest of the
    hand's fields (the same hand read from two files is one hand)."""
    return fields_key(hand.fields, doc)


def fields_key(fields: dict[str, Any], doc: dict[str, Any]) -> tuple[str, str]:
    """:func:`hand_key` of a hand whose decoded PHH fields are ``fields`` (lists may be
    tuples: the digest is the same)."""
    site = str(doc.get("site") or "phh")
    if doc.get("hand_id"):
        return site, str(doc["hand_id"])
    return site, fields_digest(fields)


def utc_time(text: Any) -> str | None:
    """An ISO 8601 time as ``YYYY-MM-DD HH:MM:SS`` in UTC when it has an offset (as
    written when it has none); None when it does not read."""
    got = in_utc(text)
    return None if got is None else got[0].isoformat(sep=" ")


class Facts(NamedTuple):
    """What a hand's ``hands`` row takes from its record besides its document: the site's
    facts (:class:`simulate.notation.site_text.SiteInfo`; None for PHH), the PHH
    variant, the blinds and antes as the file lists them, and the decoded PHH fields."""

    site: Any
    variant: str
    blinds: Any
    antes: Any
    fields: dict[str, Any]


def _text(x: Any) -> str:
    return format(Decimal(x).normalize(), "f")


@functools.lru_cache(maxsize=1024)
def stakes_text(sb: Any, bb: Any) -> str | None:
    """``SB/BB`` as text (``BB`` alone without a small blind; None without a big blind)."""
    if not bb:
        return None
    big = _text(Decimal(str(bb)))
    return big if sb is None else f"{_text(sb)}/{big}"


_COUNTS = operator.attrgetter(*COUNT_FIELDS)
_SHOWDOWN = COUNT_FIELDS.index("showdown")
#: Each table's columns in row order (``ord`` last where a row carries it).
COLUMNS = {t: [name for name, _, _ in cols] for t, cols in TABLES.items()}
for _t in ("hands", "hand_players", "actions"):
    COLUMNS[_t].append("ord")


class Batch:
    """The rows of the hands added so far (see the module docstring): one tuple per row of
    ``hands`` and ``hand_players``, in :data:`COLUMNS` order, and the walk's rows
    (:data:`simulate.store.counts.Row`) of ``actions``, their hand's key and player's name
    put in by :meth:`arrays`; amounts as read (Decimals or ints), made numbers there."""

    def __init__(self) -> None:
        self.rows: dict[str, list[tuple[Any, ...]]] = {t: [] for t in
                                                       ("hands", "hand_players", "actions")}
        self.keys: set[tuple[str, str]] = set()
        self.hands = 0
        self.names: list[str] = []  # every hand's players, in order
        self.seats: list[int] = []  # per hand: players
        self.actions: list[int] = []  # per hand: action rows (in ``rows``)
        self.walked: list[tuple[int, PlainWalk, int]] = []  # (place, walk, index in it)

    def __len__(self) -> int:
        return self.hands

    def add_hand(self, hand: HandHistory, doc: dict[str, Any], key: tuple[str, str],
                 source: str, file: str, byte: int) -> None:
        """Append one read hand's rows (``doc`` without an error); nothing is appended
        when it raises."""
        counts, actions = walk(hand_start(hand), hand_moves(hand), doc.get("winnings"))
        self.add(Facts(hand.site, hand.variant, hand.blinds_or_straddles, hand.antes,
                       hand.fields), doc, key, source, file, byte, *_seat_counts(counts),
                 actions)

    def add_plain(self, fields: dict[str, Any], doc: dict[str, Any], source: str, file: str,
                  byte: int) -> tuple[str, str] | None:
        """Append the rows of a PHH hand the compiled replay settled, from the fields it
        read (:func:`simulate.replay.fast_replay.iter_replay_read`: whole-number amounts,
        the button on the last seat) without reading the hand again; returns its key, or
        None (nothing appended) when its actions are not of the plain form
        :func:`simulate.store.counts.text_moves` takes."""
        from simulate.notation.phh_read import toml_line

        got = toml_line("actions = " + fields["actions"])
        stacks = fields["starting_stacks"]
        n = len(stacks)
        moves = None if got is None else text_moves(got[1], n)
        if moves is None:
            return None
        fields = {**fields, "actions": got[1]}
        variant = fields["variant"]
        blinds = tuple(fields.get("blinds_or_straddles") or (0,) * n)
        antes = tuple(fields.get("antes") or (0,) * n)
        counts, actions = walk(plain_start(variant, blinds, antes, stacks, n - 1), moves,
                               doc["winnings"])
        key = fields_key(fields, doc)
        self.add(Facts(None, variant, blinds, antes, fields), doc, key, source, file, byte,
                 *_seat_counts(counts), actions)
        return key

    def add_walked(self, fields: dict[str, Any], doc: dict[str, Any], source: str, file: str,
                   byte: int, walked: PlainWalk, j: int) -> tuple[str, str]:
        """:meth:`add_plain` of a hand the compiled walk walked (hand ``j`` of ``walked``,
        :func:`simulate.store.plain_walk.walk_plain`): its counts and action rows are taken
        from the walk's arrays (the action rows when :meth:`arrays` makes the columns)."""
        text = fields["actions"]  # ['...', '...']: the one form the walk reads (one quote
        q = text[1:2]  # style, ", " between, no quote or escape inside an action)
        fields = {**fields, "actions": text[2:-2].split(q + ", " + q) if len(text) > 2 else []}
        n = len(fields["starting_stacks"])
        key = fields_key(fields, doc)
        self.walked.append((self.hands, walked, j))
        self.add(Facts(None, fields["variant"],
                       tuple(fields.get("blinds_or_straddles") or (0,) * n),
                       tuple(fields.get("antes") or (0,) * n), fields), doc, key, source, file,
                 byte, walked.starts[j].positions, walked.seat_counts(j), [])
        return key

    def add(self, facts: Facts, doc: dict[str, Any], key: tuple[str, str], source: str,
            file: str, byte: int, positions: list[str | None], counts: list[list[int]],
            actions: list[Row]) -> None:
        """Append one hand's rows from its :class:`Facts`, its document, each seat's
        position and counts (in :data:`~simulate.store.counts.COUNT_FIELDS` order) and the
        action rows (:func:`simulate.store.counts.walk`; none for a hand of
        :meth:`add_walked`)."""
        ord_ = self.hands
        site, hid = key
        info = facts.site
        bb = doc.get("big_blind")
        blinds = [abs(b) for b in facts.blinds if b]
        sb = min(blinds) if len(blinds) >= 2 else None
        if info is not None:
            game, betting = info.game, info.betting
        else:
            from simulate.replay.accounting import ENGINE_VARIANTS

            game, betting = ENGINE_VARIANTS.get(facts.variant, (None, None))
        tour = info.tournament if info is not None else None
        boards = doc.get("boards") or ([doc["board"]] if doc.get("board") else [])
        rake = doc.get("rake") or 0
        fields = facts.fields
        row = {
            "site": site, "hand_id": hid, "hand_no": 0, "game": game,
            "variant": facts.variant, "betting": betting,
            "currency": info.currency if info is not None else fields.get("currency"),
            "small_blind": sb, "big_blind": bb,
            "ante": max(facts.antes, default=0),
            "stakes": stakes_text(sb, bb),
            "time": utc_time(info.time if info is not None else hand_time(fields)),
            "table_name": (info.table if info is not None else
                           (str(fields["table"]) if "table" in fields else None)),
            "tournament_id": tour.id if tour else None,
            "buy_in": tour.buy_in if tour else None, "level": tour.level if tour else None,
            "board": boards[0] if boards else None,
            "boards": " | ".join(boards) if boards else None,
            "pot": sum(p["amount"] for p in doc["pots"]) + rake, "rake": rake,
            "fees": sum((doc.get("fees") or {}).values()), "players": len(doc["players"]),
            "hero": doc.get("hero"), "validated": bool(doc.get("validated")),
            "allin_board": doc.get("allin_board") or None, "source": source, "file": file,
            "byte": byte, "ord": ord_,
        }
        players = self._players(info is None, doc, key, positions, counts, ord_)
        names = doc["players"]
        self.rows["hands"].append(tuple([row[k] for k in COLUMNS["hands"]]))
        self.rows["hand_players"] += players
        self.rows["actions"] += actions
        self.names += names
        self.seats.append(len(names))
        self.actions.append(len(actions))
        self.hands += 1
        self.keys.add(key)

    def _players(self, phh: bool, doc: dict[str, Any], key: tuple[str, str],
                 positions: list[str | None], counts: list[list[int]], ord_: int,
                 ) -> list[tuple[Any, ...]]:
        site, hid = key
        bb = doc.get("big_blind")
        bbf = float(bb) if bb else None
        names = doc["players"]
        seats = doc.get("seats") or range(1, len(names) + 1)
        evs = doc.get("allin_ev")
        hero = doc.get("hero")
        holes = doc.get("hole_cards") or []
        committed_all = doc["committed"] or [None] * len(names)
        out = []
        for s, name in enumerate(names):
            won, net = doc["winnings"][s], doc["net"][s]
            committed = committed_all[s]
            if phh and won is not None and net is not None:
                # uncalled bets returned left out (exact for decimal amounts)
                committed = (won - net if type(won) is int and type(net) is int
                             else Decimal(str(won)) - Decimal(str(net)))
            ev = evs[s]["ev"] if evs else None
            adjusted = None if net is None else ev if ev is not None else net
            cards = holes[s] if s < len(holes) else ""
            got = counts[s]
            got[_SHOWDOWN] = bool(got[_SHOWDOWN])
            out.append((
                site, hid, seats[s], name, positions[s], hero is not None and name == hero,
                cards if cards and cards.strip("?") else None, doc["starting_stacks"][s],
                committed, won, net,
                None if net is None or bbf is None else float(net) / bbf, ev, adjusted,
                None if adjusted is None or bbf is None else float(adjusted) / bbf,
                *got, ord_))
        return out

    def arrays(self, table: str) -> dict[str, np.ndarray]:
        """A table's rows as columns (:func:`columns`)."""
        names = COLUMNS[table]
        rows = self.rows[table]
        if table != "actions":
            return columns(table, _transpose(rows, names))
        got = _transpose(rows, ("seq", "street", "seat", "action", "amount", "total", "allin",
                                "cards"))
        ords = [np.repeat(np.arange(self.hands, dtype=np.int64), self.actions)]
        seats = [np.array([-1 if s is None else s for s in got.pop("seat")], dtype=np.int64)]
        for walked, hands_, js in _groups(self.walked):
            cols = walked.action_columns(js)
            ords.append(np.asarray(hands_, dtype=np.int64)[cols.pop("hand")])
            seats.append(cols.pop("seat"))
            for k, v in cols.items():
                got[k] += v if isinstance(v, list) else v.tolist()
        ord_all = np.concatenate(ords)
        seat = np.concatenate(seats)
        hands = self.rows["hands"]
        site, hid = (np.array([h[i] for h in hands] or [""], dtype=object)[ord_all]
                     for i in (0, 1))
        dealer = seat < 0
        first = np.zeros(self.hands + 1, np.int64)
        np.cumsum(self.seats, out=first[1:])
        player = np.array(self.names + [None], dtype=object)[
            np.where(dealer, len(self.names), first[ord_all] + np.where(dealer, 0, seat))]
        out = columns(table, {"site": site, "hand_id": hid, **got, "player": player,
                              "ord": ord_all})
        if len(ords) == 1:
            return out
        order = np.argsort(ord_all, kind="stable")  # each hand's rows together, in order
        return {k: v[order] for k, v in out.items()}


def _groups(walked: list[tuple[int, PlainWalk, int]],
            ) -> list[tuple[PlainWalk, list[int], list[int]]]:
    """The walked hands by their walk: ``(walk, the hands' places, their indices in it)``."""
    out: dict[int, tuple[PlainWalk, list[int], list[int]]] = {}
    for ord_, w, j in walked:
        got = out.setdefault(id(w), (w, [], []))
        got[1].append(ord_)
        got[2].append(j)
    return list(out.values())


def _seat_counts(counts: list[SeatCounts]) -> tuple[list[str | None], list[list[int]]]:
    """Each seat's position, and its counts as a list in ``COUNT_FIELDS`` order."""
    return [c.position for c in counts], [list(_COUNTS(c)) for c in counts]


def _transpose(rows: list[tuple[Any, ...]], names: Any) -> dict[str, list[Any]]:
    """Rows (tuples, in ``names`` order) as columns: name -> list."""
    return {name: list(map(operator.itemgetter(i), rows)) for i, name in enumerate(names)}


def columns(table: str, values: dict[str, Any]) -> dict[str, np.ndarray]:
    """A table's columns (``values``: name -> a sequence) as numpy arrays: numbers and
    booleans typed (Decimals converted; a missing value, or an infinite amount, masked),
    text as object arrays."""
    types = {name: sql for name, sql, _ in TABLES[table]}
    types["ord"] = "BIGINT"
    out = {}
    for name, col in values.items():
        kind = _NUMERIC.get(types[name])
        if kind is None:
            arr = np.empty(len(col), dtype=object)
            arr[:] = col
            out[name] = arr
            continue
        if kind is np.float64:  # None reads as NaN: masked with the infinite amounts
            num = np.array(col, dtype=kind)
            bad = ~np.isfinite(num)
            mask = bad if bad.any() else None
        elif None in col:
            mask = np.fromiter((v is None for v in col), bool, len(col))
            num = np.array([0 if v is None else v for v in col], dtype=kind)
        else:
            mask = None
            num = np.array(col, dtype=kind)
        out[name] = num if mask is None or not mask.any() else np.ma.masked_array(num,
                                                                                  mask=mask)
    return out
