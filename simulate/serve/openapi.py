"""The OpenAPI description of the JSON API (``GET /api/v1/openapi.json``) and the ``/docs``
page drawn from it (plain HTML, no script from elsewhere)."""

from __future__ import annotations

import html
import json
from typing import Any

_SAMPLING = {
    "exact": {"type": ["boolean", "null"], "description": "true: walk every deal; false: "
              "sample; null: exact when quick"},
    "samples": {"type": ["integer", "null"], "description": "Monte Carlo deals"},
    "std_error": {"type": ["number", "null"], "description": "sample until every standard "
                  "error is at most this"},
    "seed": {"type": ["integer", "null"], "description": "0 <= seed < 2**64"},
}
_CARDS = {"type": "string", "description": "cards, e.g. Ks8h2c"}
_ENDPOINTS: dict[str, dict[str, Any]] = {
    "equity": {
        "summary": "Equity of 2 to 10 hands (or Hold'em ranges): `pokerjit equity --json`",
        "properties": {"hands": {"type": "array", "items": {"type": "string"}},
                       "board": _CARDS, "dead": _CARDS, "game": {"type": "string"},
                       **_SAMPLING},
        "required": ["hands"],
        "example": {"hands": ["AhKh", "QsQd"], "board": "", "exact": True},
    },
    "range": {
        "summary": "Range against ranges, with per-combo and 13x13 breakdowns: "
                   "`pokerjit range --json`",
        "properties": {"hands": {"type": "array", "items": {"type": "string"}},
                       "board": _CARDS, "dead": _CARDS, **_SAMPLING},
        "required": ["hands"],
        "example": {"hands": ["QQ+,AKs", "random"], "board": "Td9d2c"},
    },
    "allin": {
        "summary": "All-in expected value with side pots: `pokerjit allin --json`",
        "properties": {"players": {"type": "array", "items": {"type": "string"},
                                   "description": "CARDS:CHIPS, RANGE:CHIPS or fold:CHIPS"},
                       "button": {"type": "integer"}, "dead_money": {"type": "integer"},
                       "board": _CARDS, "dead": _CARDS, "game": {"type": "string"},
                       **_SAMPLING},
        "required": ["players"],
        "example": {"players": ["AhAs:100", "KdKc:60", "QhQs:30"], "button": 0},
    },
    "eval": {
        "summary": "Strength, category, best five and text of one hand: `pokerjit eval --json`",
        "properties": {"cards": _CARDS, "board": _CARDS, "game": {"type": "string"}},
        "required": ["cards"],
        "example": {"cards": "AsKsQsJsTs"},
    },
    "chart": {
        "summary": "Each of the 169 starting hands against N random hands: "
                   "`pokerjit chart --json`",
        "properties": {"opponents": {"type": "array", "items": {"type": "integer"}},
                       "samples": _SAMPLING["samples"], "std_error": _SAMPLING["std_error"],
                       "seed": _SAMPLING["seed"]},
        "required": [],
        "example": {"opponents": [1]},
    },
    "hand": {
        "summary": "Replay PHH hand histories given as text: `pokerjit hand --json`",
        "properties": {"phh": {"type": "string", "description": "the PHH text (never a path)"}},
        "required": ["phh"],
        "example": {"phh": "variant = 'NT'\n..."},
    },
}
_ERROR = {"type": "object", "properties": {"error": {"type": "string"}}}


def schema() -> dict[str, Any]:
    """The OpenAPI 3.1 document of every endpoint."""
    from simulate import __version__

    paths: dict[str, Any] = {
        "/api/v1/health": {"get": {
            "summary": "Liveness and version: {\"status\": \"ok\", \"version\"}",
            "responses": {"200": {"description": "the server is up"}}}},
        "/api/v1/games": {"get": {
            "summary": "The games, for the workbench's game list",
            "responses": {"200": {"description": "{\"games\": [{name, label, hole, ranges}]}"}}}},
        "/api/v1/classes": {"get": {
            "summary": "The hand classes: the 13x13 grid and the order behind 'top N%' of "
                       "?game= (default holdem; short deck: its 81 classes of 630 combos)",
            "responses": {"200": {"description": "{\"game\", \"grid\": [[...]], "
                                                 "\"order\": [...], \"combos\"}"},
                          "400": {"description": "a game without ranges"}}}},
        "/api/v1/stats": {"get": {
            "summary": "The hand database's statistics (serve --db): `pokerjit stats --json` "
                       "with ?player= (repeated), site, game, stakes, currency, position, "
                       "since, until, min_hands",
            "responses": {"200": {"description": "{\"players\": [...]}"},
                          "400": {"description": "a bad filter"},
                          "404": {"description": "the server has no database"},
                          "503": {"description": "an import is writing the database"}}}},
        "/api/v1/graph": {"get": {
            "summary": "One player's running net, all-in EV adjusted, showdown and "
                       "non-showdown winnings (?player=NAME and the filters of stats)",
            "responses": {"200": {"description": "{\"player\", \"hands\", \"x\", "
                                                 "\"net\", \"allin_adjusted\", "
                                                 "\"showdown\", \"non_showdown\"}"},
                          "404": {"description": "no such player, or no database"}}}},
    }
    for kind, e in _ENDPOINTS.items():
        paths[f"/api/v1/{kind}"] = {"post": {
            "summary": e["summary"],
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"type": "object", "properties": e["properties"],
                           "required": e["required"], "additionalProperties": False},
                "example": e["example"]}}},
            "responses": {
                "200": {"description": f"the `{kind} --json` document"},
                "400": {"description": "a bad request (one line, as the command line's "
                                       "error), or stopped at the time limit",
                        "content": {"application/json": {"schema": _ERROR}}},
                "403": {"description": "a foreign Host or Origin"},
                "413": {"description": "the body is over the limit"},
                "503": {"description": "no worker came free within the time limit (busy; "
                                       "Retry-After), or the server is stopping",
                        "content": {"application/json": {"schema": _ERROR}}},
            }}}
    return {"openapi": "3.1.0",
            "info": {"title": "pokerjit", "version": __version__,
                     "description": "Every answer is the document the command prints with "
                                    "--json for the same request."},
            "paths": paths}


def docs_html() -> str:
    """A small page listing every endpoint of :func:`schema` with its fields and example."""
    s = schema()
    parts = ["<!doctype html><html><head><meta charset='utf-8'><title>pokerjit API</title>",
             "<link rel='stylesheet' href='/static/style.css'></head><body class='docs'>",
             f"<h1>pokerjit API {html.escape(s['info']['version'])}</h1>",
             f"<p>{html.escape(s['info']['description'])} "
             "<a href='/api/v1/openapi.json'>openapi.json</a> · <a href='/'>workbench</a></p>"]
    for path, ops in s["paths"].items():
        for method, op in ops.items():
            parts.append(f"<h2 id='{html.escape(path)}'><code>{method.upper()} "
                         f"{html.escape(path)}</code></h2><p>{html.escape(op['summary'])}</p>")
            body = op.get("requestBody")
            if body:
                c = body["content"]["application/json"]
                rows = "".join(
                    f"<tr><td><code>{html.escape(k)}</code></td>"
                    f"<td>{html.escape(json.dumps(v.get('type')))}</td>"
                    f"<td>{html.escape(v.get('description', ''))}</td></tr>"
                    for k, v in c["schema"]["properties"].items())
                parts.append(f"<table><tr><th>field</th><th>type</th><th></th></tr>{rows}"
                             f"</table><pre>{html.escape(json.dumps(c['example']))}</pre>")
    parts.append("</body></html>")
    return "\n".join(parts)
