"""Tracker statistics over the hand database: one row per player, and a player's graph.

:func:`player_stats` sums each player's counts (:mod:`simulate.store.counts`) over the hands
a :class:`StatsFilter` selects, in one SQL query, and divides them here: a rate is a
fraction (``0.231``), ``af`` a ratio, None where there was no opportunity (AF: no call).
The keys are the contract's (``pokerjit stats --json``): ``player``, ``hands``, ``vpip``,
``pfr``, ``three_bet``, ``fold_to_three_bet``, ``cbet``, ``fold_to_cbet``, ``af``, ``afq``,
``wtsd``, ``wsd``, ``wwsf``, ``net``, ``bb_per_100``, ``allin_adjusted_net``,
``allin_adjusted_bb_per_100``, ``showdown_net``, ``non_showdown_net``. Amounts are summed
in the hands' own units: filter by site, game, stakes or currency to keep one currency.

:func:`player_graph` gives one player's cumulative net, all-in adjusted net, showdown and
non-showdown winnings, hand by hand (in time order, then import order).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal, InvalidOperation
from typing import Any

__all__ = ["STATS_KEYS", "RATES", "StatsFilter", "player_graph", "player_stats"]

#: ``(key, done column, opportunity column)`` of each rate.
RATES = (
    ("vpip", "vpip", "vpip_opp"), ("pfr", "pfr", "vpip_opp"),
    ("three_bet", "three_bet", "three_bet_opp"),
    ("fold_to_three_bet", "fold_to_three_bet", "fold_to_three_bet_opp"),
    ("cbet", "cbet", "cbet_opp"), ("fold_to_cbet", "fold_to_cbet", "fold_to_cbet_opp"),
    ("wtsd", "wtsd", "saw_flop"), ("wsd", "won_showdown", "showdown_hands"),
    ("wwsf", "won_saw_flop", "saw_flop"),
)
#: The keys of a player's row, in order.
STATS_KEYS = ("player", "hands", "vpip", "pfr", "three_bet", "fold_to_three_bet", "cbet",
              "fold_to_cbet", "af", "afq", "wtsd", "wsd", "wwsf", "net", "bb_per_100",
              "allin_adjusted_net", "allin_adjusted_bb_per_100", "showdown_net",
              "non_showdown_net")

_SUMS = ("vpip", "vpip_opp", "pfr", "three_bet", "three_bet_opp", "fold_to_three_bet",
         "fold_to_three_bet_opp", "cbet", "cbet_opp", "fold_to_cbet", "fold_to_cbet_opp",
         "aggressive", "calls", "folds", "saw_flop", "wtsd", "won_showdown", "won_saw_flop")


@dataclass
class StatsFilter:
    """Which hands and players: ``players`` (names; empty: everyone), ``site``, ``game``,
    ``stakes`` (``0.5/1``), ``currency``, ``position``, ``since``/``until`` (ISO dates or
    times, both included: a date alone means the whole day), ``min_hands`` (players with
    fewer hands are left out)."""

    players: list[str] = field(default_factory=list)
    site: str | None = None
    game: str | None = None
    stakes: str | None = None
    currency: str | None = None
    position: str | None = None
    since: str | None = None
    until: str | None = None
    min_hands: int = 0

    def where(self) -> tuple[str, list[Any]]:
        """The SQL condition on ``hand_players p JOIN hands h`` and its parameters;
        ValueError for a date, stakes or position that does not read."""
        conds, params = ["TRUE"], []
        if self.players:
            conds.append(f"p.player IN ({', '.join('?' * len(self.players))})")
            params += list(self.players)
        for col, value in (("h.site", self.site), ("h.game", self.game),
                           ("h.stakes", _stakes(self.stakes)), ("h.currency", self.currency),
                           ("p.position", _position(self.position))):
            if value is not None:
                conds.append(f"{col} = ?")
                params.append(value)
        if self.since:
            conds.append("h.time >= CAST(? AS TIMESTAMP)")
            params.append(_when(self.since, "--since").isoformat(sep=" "))
        if self.until:
            end = _when(self.until, "--until")
            if len(self.until.strip()) <= 10:  # a date: the whole day
                conds.append("h.time < CAST(? AS TIMESTAMP)")
                params.append((end + timedelta(days=1)).isoformat(sep=" "))
            else:
                conds.append("h.time <= CAST(? AS TIMESTAMP)")
                params.append(end.isoformat(sep=" "))
        return " AND ".join(conds), params


def _stakes(text: str | None) -> str | None:
    """``stakes`` as the hands store it (:func:`simulate.store.rows.stakes_text`: ``0.50/1.00``
    is ``0.5/1``; a big blind alone where there is no small blind)."""
    if text is None:
        return None
    from simulate.store.rows import stakes_text

    try:
        blinds = [Decimal(x) for x in text.strip().split("/")]
    except InvalidOperation:
        blinds = []
    if not 1 <= len(blinds) <= 2 or not all(b.is_finite() and b > 0 for b in blinds):
        raise ValueError(f"--stakes {text!r} is not SB/BB (e.g. 0.5/1) or a big blind alone")
    return stakes_text(blinds[0] if len(blinds) == 2 else None, blinds[-1])


def _position(text: str | None) -> str | None:
    """``position`` as the hands store it (any case)."""
    if text is None:
        return None
    p = text.strip().upper()
    if not re.fullmatch(r"BTN|SB|BB|UTG(\+[1-9][0-9]?)?|HJ|CO", p):
        raise ValueError(f"--position {text!r} is not BTN, SB, BB, UTG, UTG+1, ..., HJ or CO")
    return p


def _when(text: str, option: str) -> datetime:
    """A date or time; one with a zone as the same moment in UTC (the hands' times are)."""
    t = text.strip()
    try:
        if len(t) <= 10:
            d = date.fromisoformat(t)
            return datetime(d.year, d.month, d.day)
        when = datetime.fromisoformat(t.replace("Z", "+00:00"))
        if when.tzinfo is not None:
            when = when.astimezone(timezone.utc)
        return when.replace(tzinfo=None)
    except ValueError:
        raise ValueError(f"{option} {text!r} is not a date (YYYY-MM-DD) or time "
                         "(YYYY-MM-DDTHH:MM)") from None


def _amount(x: Any) -> int | float | None:
    if x is None:
        return None
    r = round(float(x), 6)
    return int(r) if r == int(r) else r


def _ratio(done: Any, opp: Any) -> float | None:
    return None if not opp else float(done) / float(opp)


def player_stats(con: Any, filt: StatsFilter | None = None) -> list[dict[str, Any]]:
    """One row per player (keys :data:`STATS_KEYS`), most hands first."""
    filt = filt or StatsFilter()
    cond, params = filt.where()
    sums = ", ".join(f"sum(p.{c})" for c in _SUMS)
    sql = (f"SELECT p.player, count(*), {sums}, sum(CAST(p.showdown AS INTEGER)), "
           "sum(p.net), 100 * sum(p.net_bb) / nullif(count(p.net_bb), 0), "
           "sum(p.allin_adjusted_net), "
           "100 * sum(p.allin_adjusted_bb) / nullif(count(p.allin_adjusted_bb), 0), "
           "sum(p.net) FILTER (WHERE p.showdown), sum(p.net) FILTER (WHERE NOT p.showdown) "
           "FROM hand_players p JOIN hands h ON h.site = p.site AND h.hand_id = p.hand_id "
           f"WHERE {cond} GROUP BY p.player HAVING count(*) >= ? "
           "ORDER BY count(*) DESC, p.player")
    out = []
    for r in con.execute(sql, [*params, max(0, int(filt.min_hands))]).fetchall():
        s = dict(zip(_SUMS, r[2:2 + len(_SUMS)], strict=True))
        rest = r[2 + len(_SUMS):]
        s["showdown_hands"] = rest[0]
        row: dict[str, Any] = {"player": r[0], "hands": int(r[1])}
        for key, done, opp in RATES[:6]:
            row[key] = _ratio(s[done], s[opp])
        agg, calls, folds = s["aggressive"], s["calls"], s["folds"]
        row["af"] = _ratio(agg, calls)
        row["afq"] = _ratio(agg, (agg or 0) + (calls or 0) + (folds or 0))
        for key, done, opp in RATES[6:]:
            row[key] = _ratio(s[done], s[opp])
        net, bb100, adj, adj100, sd, nsd = rest[1:]
        row.update(net=_amount(net), bb_per_100=None if bb100 is None else float(bb100),
                   allin_adjusted_net=_amount(adj),
                   allin_adjusted_bb_per_100=None if adj100 is None else float(adj100),
                   showdown_net=_amount(sd or 0), non_showdown_net=_amount(nsd or 0))
        out.append({k: row[k] for k in STATS_KEYS})
    return out


def player_graph(con: Any, player: str, filt: StatsFilter | None = None,
                 ) -> dict[str, Any]:
    """One player's running totals, hand by hand: ``{"net", "allin_adjusted",
    "showdown", "non_showdown"}`` (float64 arrays of the cumulative sums; a hand whose
    result is unknown adds 0)."""
    import numpy as np

    filt = filt or StatsFilter()
    cond, params = StatsFilter(**{**filt.__dict__, "players": [player]}).where()
    got = con.execute(
        "SELECT coalesce(p.net, 0) AS net, coalesce(p.allin_adjusted_net, 0) AS adj, "
        "p.showdown AS sd FROM hand_players p JOIN hands h ON h.site = p.site AND "
        f"h.hand_id = p.hand_id WHERE {cond} ORDER BY h.time NULLS LAST, h.hand_no",
        params).fetchnumpy()
    net = np.asarray(got["net"], dtype=np.float64)
    sd = np.asarray(got["sd"], dtype=bool)
    return {"net": np.cumsum(net), "allin_adjusted": np.cumsum(np.asarray(got["adj"],
                                                                          dtype=np.float64)),
            "showdown": np.cumsum(np.where(sd, net, 0.0)),
            "non_showdown": np.cumsum(np.where(sd, 0.0, net))}
