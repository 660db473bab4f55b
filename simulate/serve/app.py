"""The Starlette application of ``pokerjit serve``: the JSON API, its OpenAPI page and the
workbench page.

Every ``POST /api/v1/KIND`` body goes to a worker process (:mod:`simulate.serve.workers`), which
answers it with the document the command prints with ``--json``
(:mod:`simulate.serve.handlers`). Refusals, checked in this order before any work:

* 403 ``{"error"}`` for a ``Host`` header that is not an address this server serves, or an
  ``Origin`` header (when present) that is not this server's own page, ``http://HOST:PORT``
  exactly: another site in the user's browser (another port or https included), or a
  DNS-rebinding page, cannot use the API;
* 401 without the bearer token, when the server was started with one (``--token``);
* 413 for a body over :data:`MAX_BODY` bytes (``Content-Length`` or the bytes read);
* 400 ``{"error": "<one line>"}`` for a body that is not JSON, a bad request (the command
  line's message), or a request stopped at the time limit (``--max-seconds``);
* 503 ``{"error"}`` when no worker came free within the time limit (the server is busy:
  every request is answered or refused within about ``--max-seconds`` of its arrival), or
  when the server is stopping.

No endpoint reads or writes a server path: hand histories come as text in the body, and the
page's files are served from the package by name.
"""

from __future__ import annotations

import hmac
import math
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from simulate.batch.requests import BadRequest, decode_json
from simulate.documents import json_text
from simulate.serve.handlers import KINDS
from simulate.serve.workers import Pool, Stopped

MAX_BODY = 1 << 20  # bytes of one request body
STATIC = {"index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
          "style.css": "text/css; charset=utf-8", "stats.html": "text/html; charset=utf-8",
          "stats.js": "text/javascript; charset=utf-8"}
#: Under /api/v1/; ``stats`` and ``graph`` read the hand database (``--db``,
#: :mod:`simulate.serve.stats_page`).
GET_ENDPOINTS = ("health", "games", "classes", "openapi.json", "stats", "graph")
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]", "::1")


def _static(name: str) -> bytes:
    return resources.files("simulate.serve").joinpath("static", name).read_bytes()


def host_names(host: str) -> set[str] | None:
    """The names (without port) this server answers for when bound to ``host`` (None: any,
    for a wildcard bind, which needs a token). A loopback bind answers its loopback names."""
    if host in ("0.0.0.0", "::", ""):
        return None
    names = {host if ":" not in host or host.startswith("[") else f"[{host}]"}
    if host in LOOPBACK_NAMES or host.startswith("127."):
        names |= {"127.0.0.1", "localhost", "[::1]"}
    return names


def allowed_hosts(host: str, port: int) -> set[str] | None:
    """The ``Host`` header values this server answers: its names, with and without port."""
    names = host_names(host)
    if names is None:
        return None
    return names | {f"{n}:{port}" for n in names}


class Settings:
    """What the app enforces: the allowed hosts, the token, the time limit, the body limit;
    and the hand database the statistics page reads (``db``: None for none)."""

    def __init__(self, host: str = "127.0.0.1", port: int = 8765, *, token: str | None = None,
                 max_seconds: float = 30.0, max_body: int = MAX_BODY,
                 db: str | None = None) -> None:
        self.host = host
        self.db = db
        self.listening_on(port)
        self.token = token
        self.max_seconds = float(max_seconds)
        self.max_body = int(max_body)

    def listening_on(self, port: int) -> None:
        """Set the port the server listens on (the real one, when it was asked for 0)."""
        self.port = port
        self.hosts = allowed_hosts(self.host, port)

    def host_ok(self, host: str | None) -> bool:
        return self.hosts is None or (host or "").lower() in self.hosts

    def origin_ok(self, origin: str | None, host: str | None = None) -> bool:
        """Whether an ``Origin`` header is this server's own page: ``http://NAME:PORT`` with
        a name this server answers for and its port (without the port only on port 80), not
        https nor another port. A wildcard bind's page is the one at the request's ``Host``."""
        if origin is None:
            return True
        names = host_names(self.host)
        if names is None:
            h = (host or "").lower()
            names = {h[: -len(f":{self.port}")] if h.endswith(f":{self.port}") else h}
        own = {f"http://{n}:{self.port}" for n in names}
        if self.port == 80:
            own |= {f"http://{n}" for n in names}
        return origin.lower() in own


def _error(status: int, message: str) -> JSONResponse:
    # a message may quote the request's text: a lone surrogate in it is written escaped
    message = message.encode("utf-8", "backslashreplace").decode("utf-8")
    return JSONResponse({"error": message}, status_code=status)


def _stopped(e: Stopped, max_seconds: float) -> JSONResponse:
    """The answer to a request the pool did not answer (:class:`Stopped`)."""
    if e.reason == "time":
        waited = (f" ({e.waited:.1f} s of it waiting for a free worker)" if e.waited >= 0.5
                  else "")
        return _error(400, f"stopped at this server's time limit of {max_seconds:g} s "
                           f"(--max-seconds){waited}: ask for fewer samples or a larger "
                           "standard error")
    if e.reason == "busy":
        resp = _error(503, f"the server is busy: no worker came free within its time limit of "
                           f"{max_seconds:g} s (--max-seconds); try again later")
        resp.headers["Retry-After"] = str(max(1, math.ceil(max_seconds)))
        return resp
    if e.reason == "stopping":
        return _error(503, "server stopping: the request was not answered")
    return _error(499, "the client went away")


def _json(doc: Any) -> Response:
    return Response(json_text(doc), media_type="application/json")  # as the command prints it


async def _read_body(request: Request, limit: int) -> bytes | None:
    """The body, or None once it is over ``limit`` bytes (read no further)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        return None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


class Guard:
    """ASGI middleware: the Host, Origin and token checks of every HTTP request."""

    def __init__(self, app: Any, settings: Settings) -> None:
        self.app, self.cfg = app, settings

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cfg = self.cfg
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        if not cfg.host_ok(headers.get("host")):
            resp = _error(403, "this server does not answer for that Host")
        elif not cfg.origin_ok(headers.get("origin"), headers.get("host")):
            resp = _error(403, "requests from another site's page are refused (Origin)")
        elif (cfg.token is not None and scope["path"].startswith("/api/")
              and not hmac.compare_digest(headers.get("authorization", "").encode(),
                                          f"Bearer {cfg.token}".encode())):
            resp = _error(401, "this server needs its token: Authorization: Bearer TOKEN")
        else:
            await self.app(scope, receive, send)
            return
        await resp(scope, receive, send)


def create_app(pool: Pool, settings: Settings | None = None) -> Starlette:
    """The application serving ``pool`` (started and closed by the app's lifespan)."""
    cfg = settings or Settings()

    async def api(request: Request) -> Response:
        kind = request.path_params["kind"]
        if kind in GET_ENDPOINTS:
            resp = _error(405, f"POST is not allowed on /api/v1/{kind} (allowed: GET)")
            resp.headers["Allow"] = "GET"
            return resp
        if kind not in KINDS:
            return _error(404, f"no such endpoint /api/v1/{kind} (kinds: {', '.join(KINDS)})")
        try:
            raw = await _read_body(request, cfg.max_body)
        except ClientDisconnect:  # gone mid-upload (or silent too long): nobody to answer
            return _error(499, "the client went away")
        if raw is None:
            return _error(413, f"the request body is over {cfg.max_body:,} bytes")
        try:
            body = decode_json(raw, 1) if raw.strip() else {}
        except BadRequest as e:
            return _error(400, str(e))

        async def gone() -> bool:
            return await request.is_disconnected()

        try:
            status, payload = await pool.run(kind, body, timeout=cfg.max_seconds, gone=gone)
        except Stopped as e:
            return _stopped(e, cfg.max_seconds)
        if status == "ok":
            return _json(payload)
        return _error(400 if status == "bad" else 500, payload)

    async def health(request: Request) -> Response:
        from simulate import __version__

        return JSONResponse({"status": "ok", "version": __version__, "workers": pool.size})

    async def game_list(request: Request) -> Response:
        from simulate.games import GAMES

        return JSONResponse({"games": [{"name": g.name, "label": g.label, "hole": g.hole_cards,
                                        "ranges": g.ranges} for g in GAMES.values()]})

    async def classes(request: Request) -> Response:
        from evaluator.cards import CardError
        from simulate.games import GAMES
        from simulate.ranges import grid_names, preflop_order

        game = request.query_params.get("game", "holdem").strip().lower()
        try:
            order = [h for h, _, _ in preflop_order(game)]
        except CardError:
            return _error(400, f"no preflop order for game '{game}' (games with ranges: "
                          + ", ".join(g.name for g in GAMES.values() if g.ranges) + ")")
        n = GAMES[game].deck_size
        return JSONResponse({"game": game, "grid": grid_names(), "order": order,
                             "combos": n * (n - 1) // 2})

    async def openapi(request: Request) -> Response:
        from simulate.serve.openapi import schema

        return JSONResponse(schema())

    async def docs(request: Request) -> Response:
        from simulate.serve.openapi import docs_html

        return HTMLResponse(docs_html())

    async def hand_stats(request: Request) -> Response:
        from simulate.serve.stats_page import stats

        return await stats(cfg.db, request)

    async def hand_graph(request: Request) -> Response:
        from simulate.serve.stats_page import graph

        return await graph(cfg.db, request)

    async def stats_page(request: Request) -> Response:
        return Response(_static("stats.html"), media_type=STATIC["stats.html"],
                        headers={"Cache-Control": "no-cache"})

    async def page(request: Request) -> Response:
        name = request.path_params.get("name", "index.html")
        if name not in STATIC:
            return _error(404, "no such page")
        return Response(_static(name), media_type=STATIC[name],
                        headers={"Cache-Control": "no-cache"})

    @asynccontextmanager
    async def lifespan(app: Starlette):  # noqa: ANN202
        if not pool.started:
            await pool.start()
        try:
            yield
        finally:
            pool.close()

    async def http_error(request: Request, exc: Exception) -> Response:
        """Starlette's own 404 and 405: under ``/api/`` the JSON error every API answer has."""
        assert isinstance(exc, HTTPException)
        headers = dict(exc.headers or {})
        if not request.url.path.startswith("/api/"):
            return PlainTextResponse(exc.detail, exc.status_code, headers=headers)
        if exc.status_code == 405:
            msg = (f"{request.method} is not allowed on {request.url.path} "
                   f"(allowed: {headers.get('Allow', '')})")
        elif exc.status_code == 404:
            msg = f"no such endpoint {request.url.path} (see /api/v1/openapi.json)"
        else:
            msg = str(exc.detail)
        return JSONResponse({"error": msg}, exc.status_code, headers=headers)

    return Starlette(routes=[
        Route("/", page),
        Route("/stats", stats_page),
        Route("/static/{name}", page),
        Route("/docs", docs),
        *(Route(f"/api/v1/{name}", endpoint, methods=["GET"]) for name, endpoint
          in zip(GET_ENDPOINTS, (health, game_list, classes, openapi, hand_stats, hand_graph),
                 strict=True)),
        Route("/api/v1/{kind}", api, methods=["POST"]),
    ], lifespan=lifespan, middleware=[Middleware(Guard, settings=cfg)],
        exception_handlers={HTTPException: http_error})
