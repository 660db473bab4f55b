"""The workbench's statistics page: the hand database of ``pokerjit serve --db FILE``, read only.

* ``GET /stats`` -- the page (``static/stats.html``: the table, sortable and filtered, and
  the graph of the player chosen);
* ``GET /api/v1/stats?player=&site=&game=&stakes=&currency=&position=&since=&until=&min_hands=``
  -- ``{"players": [...]}``, the document of ``pokerjit stats --json`` with those options
  (``player`` may be repeated);
* ``GET /api/v1/graph?player=NAME&...`` -- ``{"player", "hands", "x", "net",
  "allin_adjusted", "showdown", "non_showdown"}``: the player's running totals at the
  hands ``x`` (1-based; at most :data:`GRAPH_POINTS` of them, the last hand always).

The database is the one named when the server started: no request names a file. Without
``--db`` the API answers 404; while an import writes the database, 503.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

__all__ = ["GRAPH_POINTS", "graph", "stats"]

#: The most points of a graph sent to the page.
GRAPH_POINTS = 2000
_FILTERS = ("site", "game", "stakes", "currency", "position", "since", "until")


class _Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _filter(request: Request) -> Any:
    from simulate.store.stats import StatsFilter

    q = request.query_params
    raw = q.get("min_hands") or "0"
    if not raw.isdigit():
        raise _Refused(400, f"min_hands must be a whole number, got {raw!r}")
    return StatsFilter(players=[p for p in q.getlist("player") if p],
                       **{k: (q.get(k) or None) for k in _FILTERS}, min_hands=int(raw))


def _query(db: str | None, fn: Any) -> Any:
    """``fn(connection)`` on the database opened read-only (in a worker thread)."""
    if db is None:
        raise _Refused(404, "this server has no hand database (pokerjit serve --db FILE)")
    from simulate.store.schema import connect

    try:
        con = connect(db, read_only=True)
    except ValueError as exc:
        msg = str(exc)
        raise _Refused(503 if "lock" in msg.lower() else 404, msg) from None
    try:
        return fn(con)
    finally:
        con.close()


async def _answer(db: str | None, request: Request, make: Any) -> Response:
    try:
        filt = _filter(request)
        doc = await run_in_threadpool(_query, db, lambda con: make(con, filt))
    except _Refused as exc:
        return JSONResponse({"error": str(exc)}, exc.status)
    except ValueError as exc:  # a date that does not read
        return JSONResponse({"error": str(exc).splitlines()[0]}, 400)
    return JSONResponse(doc)


async def stats(db: str | None, request: Request) -> Response:
    from simulate.store.stats import player_stats

    return await _answer(db, request, lambda con, f: {"players": player_stats(con, f)})


async def graph(db: str | None, request: Request) -> Response:
    import numpy as np

    from simulate.store.stats import player_graph

    def make(con: Any, f: Any) -> dict[str, Any]:
        if len(f.players) != 1:
            raise _Refused(400, "name one player: /api/v1/graph?player=NAME")
        g = player_graph(con, f.players[0], f)
        n = len(g["net"])
        if n == 0:
            raise _Refused(404, f"no hands of {f.players[0]} (with these filters)")
        pick = np.unique(np.linspace(0, n - 1, min(n, GRAPH_POINTS)).round().astype(np.int64))
        out: dict[str, Any] = {"player": f.players[0], "hands": n,
                               "x": (pick + 1).tolist()}
        for k, v in g.items():
            out[k] = [round(float(x), 6) for x in v[pick]]
        return out

    return await _answer(db, request, make)
