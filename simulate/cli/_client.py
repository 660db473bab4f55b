"""The command line's client path: ``--server URL`` or ``POKERJIT_SERVER=URL``.

``equity``, ``range``, ``allin``, ``eval`` and ``chart`` then send their request to a running
``pokerjit serve`` and print its answer exactly as the local command prints its own: each
command module gives ``request(args)`` (the API body of its arguments, checked here with the
command line's own messages, or None when the arguments need the local run: files to write,
the pineapple discard options) and ``print_document(args, doc)`` (its ``--json`` document as
JSON or as its text), and the local ``run`` prints through the same ``print_document``.

This path imports no Numba and no kernels (the argument parsing, the checks and the text
printing need none), so a command through a warm server answers in a fraction of a local
run's start-up. A server that cannot be reached (or does not answer ``/api/v1/health``
within :data:`HEALTH_S` seconds), or that answers something that is not HTTP, not JSON or
not the command's document, is one ``error:`` line naming the URL (exit status 2); a
request the server refuses is its one-line message, as the local command would print it.
``POKERJIT_TOKEN`` is sent as the bearer token where the server requires one.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from simulate.cli._util import UsageError

REMOTE = ("equity", "range", "allin", "eval", "chart")
SERVER_ENV = "POKERJIT_SERVER"
TOKEN_ENV = "POKERJIT_TOKEN"
HEALTH_S = 5.0  # seconds a server has to answer /api/v1/health before the client gives up


def add_server_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--server", metavar="URL", default=None,
                   help=f"ask a running 'pokerjit serve' at URL (default: ${SERVER_ENV} if set)")


def server_url(args: argparse.Namespace) -> str | None:
    """The server to ask: ``--server``, else ``$POKERJIT_SERVER``, else None (run here)."""
    url = getattr(args, "server", None) or os.environ.get(SERVER_ENV, "").strip()
    return url or None


def _fetch(url: str, path: str, body: dict[str, Any] | None, timeout: float | None) -> Any:
    """The JSON value a server answers to ``GET path`` (``body`` None) or ``POST path``.

    Every way it can go wrong is one :class:`UsageError` naming the server: the server's own
    one-line message for a refused request (400 alone, bare: the command's own error), no
    connection or no answer in ``timeout`` seconds, an answer that is not HTTP, cut short,
    or not JSON."""
    import http.client  # here: urllib.request (ssl, http.client) is 15 ms of every start
    import urllib.error
    import urllib.request

    headers = {"Accept": "application/json"}
    token = os.environ.get(TOKEN_ENV, "").strip()
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    try:
        req = urllib.request.Request(url.rstrip("/") + path, data=data, headers=headers,
                                     method="GET" if body is None else "POST")
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw = r.read()
    except urllib.error.HTTPError as e:
        try:
            msg = json.loads(e.read())["error"]
        except (ValueError, KeyError, TypeError, OSError, http.client.HTTPException):
            msg = None
        if e.code == 400 and isinstance(msg, str):
            raise UsageError(msg) from None
        raise UsageError(f"server {url}: HTTP {e.code} {msg or e.reason}") from None
    except http.client.RemoteDisconnected:
        raise UsageError(f"server {url}: the connection closed without an answer") from None
    except http.client.IncompleteRead:
        raise UsageError(f"server {url}: the answer was cut short") from None
    except http.client.HTTPException as e:
        raise UsageError(f"server {url}: the answer is not HTTP ({type(e).__name__})") from None
    except TimeoutError:
        waited = f"no answer in {timeout:g} s" if timeout else "timed out"
        raise UsageError(f"cannot reach a pokerjit server at {url}: {waited}") from None
    except (urllib.error.URLError, OSError, ValueError) as e:
        reason = getattr(e, "reason", None) or e
        raise UsageError(f"cannot reach a pokerjit server at {url}: {reason}") from None
    try:
        return json.loads(raw)
    except ValueError:
        raise UsageError(f"server {url}: the answer is not JSON") from None


def ask(url: str, kind: str, body: dict[str, Any], timeout: float | None = None
        ) -> dict[str, Any]:
    """POST ``body`` to ``URL/api/v1/KIND`` and return the answer's document.

    ``GET /api/v1/health`` first, bounded by :data:`HEALTH_S` seconds, so a port that never
    answers (or is no pokerjit server) is one line at once; the request itself then may
    take its time (``timeout``; the server bounds it by its ``--max-seconds``). Raises
    :class:`UsageError` with the server's one-line message for a refused request, or
    naming the URL for anything else."""
    if not url.startswith(("http://", "https://")):
        raise UsageError(f"--server {url}: not an http:// or https:// URL")
    health = _fetch(url, "/api/v1/health", None, HEALTH_S)
    if not (isinstance(health, dict) and health.get("status") == "ok"):
        raise UsageError(f"server {url}: not a pokerjit server (/api/v1/health answers "
                         f"{json.dumps(health)[:60]})")
    doc = _fetch(url, f"/api/v1/{kind}", body, timeout)
    if not isinstance(doc, dict):
        raise UsageError(f"server {url}: the answer is not the {kind} document asked for")
    return doc


def remote_or_local(mod: ModuleType) -> Callable[[argparse.Namespace], int]:
    """The ``run`` of a command that may go through a server: through it when one is named
    and the arguments fit a request, else the module's local ``run``."""

    def run(args: argparse.Namespace) -> int:
        url = server_url(args)
        if url is not None:
            body = mod.request(args)
            if body is not None:
                doc = ask(url, mod.NAME, body)
                out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="\n")
                try:  # printed whole or not at all: a document of another shape is one line
                    with contextlib.redirect_stdout(out):
                        mod.print_document(args, doc)
                    out.flush()
                except (KeyError, IndexError, TypeError, ValueError, AttributeError):
                    raise UsageError(f"server {url}: the answer is not the {mod.NAME} "
                                     "document asked for") from None
                sys.stdout.flush()
                sys.stdout.buffer.write(out.buffer.getvalue())  # type: ignore[attr-defined]
                sys.stdout.buffer.flush()
                return 0
        return int(mod.run(args) or 0)

    return run
