"""The command line's client path: ``--server URL`` or ``POKERJIT_SERVER=URL``.

``equity``, ``range``, ``allin``, ``eval`` and ``chart`` then send their request to a running
``pokerjit serve`` and print its answer exactly as the local command prints its own: each
command module gives ``request(args)`` (the API body of its arguments, checked here with the
command line's own messages, or None when the arguments need the local run: files to write,
the pineapple discard options) and ``print_document(args, doc)`` (its ``--json`` document as
JSON or as its text), and the local ``run`` prints through the same ``print_document``.

This path imports no Numba and no kernels (the argument parsing, the checks and the text
printing need none), so a command through a warm server answers in a fraction of a local
run's start-up. A server that cannot be reached is one ``error:`` line naming the URL (exit
status 2); a request the server refuses is its one-line message, as the local command would
print it. ``POKERJIT_TOKEN`` is sent as the bearer token where the server requires one.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from types import ModuleType
from typing import Any

from simulate.cli._util import UsageError

REMOTE = ("equity", "range", "allin", "eval", "chart")
SERVER_ENV = "POKERJIT_SERVER"
TOKEN_ENV = "POKERJIT_TOKEN"


def add_server_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--server", metavar="URL", default=None,
                   help=f"ask a running 'pokerjit serve' at URL (default: ${SERVER_ENV} if set)")


def server_url(args: argparse.Namespace) -> str | None:
    """The server to ask: ``--server``, else ``$POKERJIT_SERVER``, else None (run here)."""
    url = getattr(args, "server", None) or os.environ.get(SERVER_ENV, "").strip()
    return url or None


def ask(url: str, kind: str, body: dict[str, Any], timeout: float | None = None
        ) -> dict[str, Any]:
    """POST ``body`` to ``URL/api/v1/KIND`` and return the answer's document.

    Raises :class:`UsageError` with the server's one-line message for a refused request
    (HTTP 4xx/5xx with ``{"error"}``), or naming the URL when the server cannot be reached.
    """
    base = url.rstrip("/")
    if not base.startswith(("http://", "https://")):
        raise UsageError(f"--server {url}: not an http:// or https:// URL")
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    token = os.environ.get(TOKEN_ENV, "").strip()
    if token:
        headers["Authorization"] = f"Bearer {token}"
    import urllib.error  # here: urllib.request (ssl, http.client) is 15 ms of every start
    import urllib.request

    req = urllib.request.Request(f"{base}/api/v1/{kind}", data=json.dumps(body).encode(),
                                 headers=headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        try:
            msg = json.loads(e.read())["error"]
        except (ValueError, KeyError, TypeError):
            msg = None
        if e.code == 400 and isinstance(msg, str):
            raise UsageError(msg) from None
        raise UsageError(f"server {url}: HTTP {e.code} {msg or e.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as e:
        reason = getattr(e, "reason", None) or e
        raise UsageError(f"cannot reach a pokerjit server at {url}: {reason}") from None


def remote_or_local(mod: ModuleType) -> Callable[[argparse.Namespace], int]:
    """The ``run`` of a command that may go through a server: through it when one is named
    and the arguments fit a request, else the module's local ``run``."""

    def run(args: argparse.Namespace) -> int:
        url = server_url(args)
        if url is not None:
            body = mod.request(args)
            if body is not None:
                mod.print_document(args, ask(url, mod.NAME, body))
                return 0
        return int(mod.run(args) or 0)

    return run
