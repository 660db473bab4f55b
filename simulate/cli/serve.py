"""``pokerjit serve``: the workbench page and the JSON API on this machine."""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys

from simulate.cli._util import UsageError

NAME = "serve"
HELP = "the workbench page and the JSON API (needs pokerjit[serve])"
EXAMPLES = """examples:
  pokerjit serve
  pokerjit serve --open --workers 4
  pokerjit serve --host 0.0.0.0 --port 8080 --token s3cret-token --max-seconds 60
  pokerjit serve --db hands.duckdb --open

The first serves http://127.0.0.1:8765/: the workbench page, the JSON API under /api/v1/
(documented at /docs and /api/v1/openapi.json), for example
curl -s 127.0.0.1:8765/api/v1/equity -d '{"hands": ["AhKh", "QsQd"]}'
and the command line through it (the same output, without the start-up):
POKERJIT_SERVER=http://127.0.0.1:8765 pokerjit equity AhKh QsQd

At start every worker loads (or, the first time, compiles) the kernels it uses, with
progress on stderr; then the URL is printed. Each request runs in a worker process, stops
at --max-seconds after its arrival (an error; a 503 when it is still waiting for a free
worker then), and stops at the next round of work when its client goes away. A client
silent mid-request for --max-seconds is disconnected. The page and the API answer only for
the address served (Host and Origin checked); binding anything but a loopback address needs
--token (clients send 'Authorization: Bearer TOKEN'; the command line reads
POKERJIT_TOKEN). Ctrl-C or SIGTERM stops it (exit 0; requests in flight get a 503).

With --db FILE (a database 'pokerjit import' wrote) the page /stats shows the statistics
of 'pokerjit stats' (sortable, filtered) and the graph of a chosen player, read only; the
API gains GET /api/v1/stats and /api/v1/graph (no request names a file).
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765; 0: any free)")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="worker processes answering requests (default: min(4, CPUs))")
    p.add_argument("--max-seconds", type=float, default=30.0, metavar="S", dest="max_seconds",
                   help="the longest one request may run (default 30)")
    p.add_argument("--token", default=None, metavar="TOKEN",
                   help="require 'Authorization: Bearer TOKEN' on the API (needed to listen "
                        "on anything but a loopback address)")
    p.add_argument("--no-warm", action="store_false", dest="warm",
                   help="start at once; each worker loads its kernels on its first requests")
    p.add_argument("--open", action="store_true", help="open the page in a web browser")
    p.add_argument("--db", metavar="FILE", default=None,
                   help="the hand database the statistics page (/stats) reads, read only")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument("--json", action="store_true",
                   help="once listening, print one JSON document on stdout: {url, api, docs, "
                        "workers, max_seconds}")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or address) means this machine only."""
    h = host.strip("[]")
    if h == "localhost":
        return True
    try:
        import ipaddress

        return ipaddress.ip_address(h).is_loopback
    except ValueError:
        return False


def check(args: argparse.Namespace) -> int:
    """Check the options (one-line UsageError); returns the worker count."""
    if not is_loopback(args.host) and not args.token:
        raise UsageError(f"--host {args.host} is not a loopback address: other machines could "
                         "reach the server, so give --token TOKEN (a secret clients send as "
                         "'Authorization: Bearer TOKEN')")
    if args.token is not None and (len(args.token) < 8 or not args.token.isprintable()
                                   or " " in args.token):
        raise UsageError("--token must be at least 8 printable characters without spaces")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0..65535, got {args.port}")
    if not (args.max_seconds > 0 and args.max_seconds <= 24 * 3600):
        raise UsageError(f"--max-seconds must be above 0 and at most a day, got "
                         f"{args.max_seconds:g}")
    if args.db is not None and not os.path.isfile(args.db):
        raise UsageError(f"--db {args.db}: no such file (pokerjit import PATH --db "
                         f"{args.db} makes it)")
    workers = args.workers if args.workers is not None else min(4, os.cpu_count() or 1)
    if not 1 <= workers <= 64:
        raise UsageError(f"--workers must be 1..64, got {workers}")
    return workers


def _check_port(host: str, port: int) -> None:
    """Fail at once, before the workers warm up, when the address cannot be listened on."""
    if port == 0:
        return
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host.strip("[]"), port))
        except OSError as e:
            raise UsageError(f"cannot listen on {host}:{port}: "
                             f"{(e.strerror or str(e)).lower()}") from None


def run(args: argparse.Namespace) -> int:
    workers = check(args)
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise UsageError("serve needs Starlette and uvicorn: pip install 'pokerjit[serve]'"
                         ) from None
    _check_port(args.host, args.port)
    from simulate.serve import serve

    def ready(url: str) -> None:
        shown = url + (f"#token={args.token}" if args.token else "")
        if args.json:
            print(json.dumps({"url": url, "api": f"{url}api/v1/", "docs": f"{url}docs",
                              "workers": workers, "max_seconds": args.max_seconds}),
                  flush=True)
        else:
            print(f"pokerjit serve: {shown}  (API: {url}api/v1/, docs: {url}docs; "
                  "Ctrl-C stops)", flush=True)
        if args.open:
            import webbrowser

            webbrowser.open(shown)

    try:
        return serve(args.host, args.port, workers=workers, max_seconds=args.max_seconds,
                     token=args.token, quiet=args.quiet, warm=args.warm, on_ready=ready,
                     db=os.path.abspath(args.db) if args.db else None)
    finally:
        sys.stdout.flush()
