"""One batch of hands as table columns, ready for one bulk insert each.

:class:`Batch` takes each hand (its :class:`~simulate.notation.phh_read.HandHistory` and
its replay document, :meth:`simulate.replay.hand_replay.HandReplay.to_dict`) and appends
its rows to the columns of ``hands``, ``hand_players`` and ``actions``
(:data:`simulate.store.schema.TABLES`), each row tagged with the hand's place in the batch
(``ord``) so that the rows of hands already stored can be left out together;
:meth:`Batch.arrays` gives a table's columns as numpy arrays (missing values masked), the
form DuckDB scans in bulk.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from decimal import Decimal
from typing import Any

import numpy as np

from simulate.notation.phh_read import HandHistory
from simulate.store.counts import COUNT_FIELDS, walk_hand
from simulate.store.schema import TABLES

__all__ = ["Batch", "hand_key", "utc_time"]

_NUMERIC = {"DOUBLE": np.float64, "BIGINT": np.int64, "SMALLINT": np.int32,
            "BOOLEAN": np.bool_}


def hand_key(hand: HandHistory, doc: dict[str, Any]) -> tuple[str, str]:
    """``(site, hand_id)``: the site's; where the file gives no id (PHH), a digest of the
    hand's fields (the same hand read from two files is one hand)."""
    site = str(doc.get("site") or "phh")
    if doc.get("hand_id"):
        return site, str(doc["hand_id"])
    text = json.dumps(hand.fields, sort_keys=True, default=str)
    return site, hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def utc_time(text: Any) -> str | None:
    """An ISO 8601 time as ``YYYY-MM-DD HH:MM:SS`` in UTC when it has an offset (as
    written when it has none); None when it does not read."""
    if not text:
        return None
    try:
        t = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        return None
    if t.tzinfo is not None:
        t = t.astimezone(timezone.utc).replace(tzinfo=None)
    return t.isoformat(sep=" ")


def _phh_time(fields: dict[str, Any]) -> str | None:
    """A PHH hand's ``year``/``month``/``day``/``time`` fields as ISO text, or None."""
    try:
        y, m, d = int(fields["year"]), int(fields["month"]), int(fields["day"])
    except (KeyError, TypeError, ValueError):
        return None
    t = fields.get("time")
    return f"{y:04d}-{m:02d}-{d:02d}T{t if t is not None else '00:00:00'}"


def _num(x: Any) -> float | None:
    if x is None:
        return None
    if isinstance(x, Decimal) and not x.is_finite():
        return None
    return float(x)


def _text(x: Decimal) -> str:
    return format(x.normalize(), "f")


class Batch:
    """The rows of the hands added so far (see the module docstring)."""

    def __init__(self) -> None:
        self.cols = {t: {name: [] for name, _, _ in cols} for t, cols in TABLES.items()}
        for t in ("hands", "hand_players", "actions"):
            self.cols[t]["ord"] = []
        self.keys: set[tuple[str, str]] = set()
        self.hands = 0

    def __len__(self) -> int:
        return self.hands

    def add_hand(self, hand: HandHistory, doc: dict[str, Any], key: tuple[str, str],
                 source: str, file: str, byte: int) -> None:
        """Append one hand's rows (``doc`` without an error)."""
        ord_ = self.hands
        self.hands += 1
        self.keys.add(key)
        site, hid = key
        info = hand.site
        n = len(doc["players"])
        bb = doc.get("big_blind")
        blinds = [abs(b) for b in hand.blinds_or_straddles if b]
        sb = min(blinds) if len(blinds) >= 2 else None
        if info is not None:
            game, betting = info.game, info.betting
        else:
            from simulate.replay.accounting import ENGINE_VARIANTS

            game, betting = ENGINE_VARIANTS.get(hand.variant, (None, None))
        tour = info.tournament if info is not None else None
        boards = doc.get("boards") or ([doc["board"]] if doc.get("board") else [])
        rake = doc.get("rake") or 0
        h = self.cols["hands"]
        row = {
            "site": site, "hand_id": hid, "hand_no": 0, "game": game,
            "variant": hand.variant, "betting": betting,
            "currency": info.currency if info is not None else hand.fields.get("currency"),
            "small_blind": _num(sb), "big_blind": _num(bb),
            "ante": _num(max(hand.antes, default=Decimal(0))),
            "stakes": (f"{_text(sb)}/{_text(Decimal(str(bb)))}" if sb is not None and bb
                       else None if not bb else _text(Decimal(str(bb)))),
            "time": utc_time(info.time if info is not None else _phh_time(hand.fields)),
            "table_name": (info.table if info is not None else
                           (str(hand.fields["table"]) if "table" in hand.fields else None)),
            "tournament_id": tour.id if tour else None,
            "buy_in": tour.buy_in if tour else None, "level": tour.level if tour else None,
            "board": boards[0] if boards else None,
            "boards": " | ".join(boards) if boards else None,
            "pot": float(sum(p["amount"] for p in doc["pots"]) + rake), "rake": float(rake),
            "fees": float(sum((doc.get("fees") or {}).values())), "players": n,
            "hero": doc.get("hero"), "validated": bool(doc.get("validated")),
            "allin_board": doc.get("allin_board"), "source": source, "file": file,
            "byte": byte, "ord": ord_,
        }
        for k, v in row.items():
            h[k].append(v)
        counts, actions = walk_hand(hand, doc.get("winnings"))
        self._players(hand, doc, key, counts, ord_)
        a = self.cols["actions"]
        names = doc["players"]
        for r in actions:
            for k, v in (("site", site), ("hand_id", hid), ("seq", r.seq),
                         ("street", r.street),
                         ("player", None if r.seat is None else names[r.seat]),
                         ("action", r.action), ("amount", _num(r.amount)),
                         ("total", _num(r.total)), ("allin", r.allin), ("cards", r.cards),
                         ("ord", ord_)):
                a[k].append(v)

    def _players(self, hand: HandHistory, doc: dict[str, Any], key: tuple[str, str],
                 counts: list[Any], ord_: int) -> None:
        p = self.cols["hand_players"]
        site, hid = key
        bb = doc.get("big_blind")
        seats = doc.get("seats") or list(range(1, len(doc["players"]) + 1))
        evs = doc.get("allin_ev")
        hero = doc.get("hero")
        phh = hand.site is None
        for s, name in enumerate(doc["players"]):
            won, net = doc["winnings"][s], doc["net"][s]
            committed = (doc["committed"] or [None] * len(seats))[s]
            if phh and won is not None and net is not None:
                committed = float(Decimal(str(won)) - Decimal(str(net)))  # returned bets out
            ev = evs[s]["ev"] if evs else None
            adjusted = None if net is None else ev if ev is not None else net
            cards = doc["hole_cards"][s] if s < len(doc.get("hole_cards") or []) else ""
            c = counts[s]
            row = {
                "site": site, "hand_id": hid, "seat": seats[s], "player": name,
                "position": c.position, "hero": hero is not None and name == hero,
                "cards": cards if cards and cards.strip("?") else None,
                "starting_stack": _num(doc["starting_stacks"][s]),
                "committed": _num(committed), "winnings": _num(won), "net": _num(net),
                "net_bb": None if net is None or not bb else float(net) / float(bb),
                "allin_ev": _num(ev), "allin_adjusted_net": _num(adjusted),
                "allin_adjusted_bb": (None if adjusted is None or not bb
                                      else float(adjusted) / float(bb)),
                "ord": ord_,
            }
            for f in COUNT_FIELDS:
                row[f] = getattr(c, f)
            row["showdown"] = bool(c.showdown)
            for k, v in row.items():
                p[k].append(v)

    def add_error(self, file: str, source: str, line: int, byte: int, message: str) -> None:
        e = self.cols["errors"]
        for k, v in (("file", file), ("source", source), ("line", line), ("byte", byte),
                     ("message", message), ("imported_at", None)):
            e[k].append(v)

    def arrays(self, table: str, rows: dict[str, list[Any]] | None = None,
               ) -> dict[str, np.ndarray]:
        """A table's columns (``rows``: other columns of that table) as numpy arrays: numbers
        and booleans typed, a missing value masked; text as object arrays."""
        types = {name: sql for name, sql, _ in TABLES[table]}
        types["ord"] = "BIGINT"
        out = {}
        for name, values in (rows if rows is not None else self.cols[table]).items():
            kind = _NUMERIC.get(types[name])
            if kind is None:
                out[name] = np.array(values, dtype=object)
                continue
            mask = np.fromiter((v is None for v in values), bool, len(values))
            if mask.any():
                filled = [0 if v is None else v for v in values]
                out[name] = np.ma.masked_array(np.array(filled, dtype=kind), mask=mask)
            else:
                out[name] = np.array(values, dtype=kind)
        return out
