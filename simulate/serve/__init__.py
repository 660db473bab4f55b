"""``pokerjit serve``: the workbench page and the JSON API (the ``serve`` extra: Starlette and
uvicorn).

* :mod:`simulate.serve.app` -- the Starlette application (routes, Host/Origin/token checks,
  body limit);
* :mod:`simulate.serve.workers` -- the worker processes that answer requests, each bounded in
  time and stopped at the next round of work when its client goes away;
* :mod:`simulate.serve.handlers` -- one request's answer, the command's ``--json`` document;
* :mod:`simulate.serve.connection` -- one HTTP connection (uvicorn's h11 protocol): a client
  silent mid-request for ``--max-seconds`` is disconnected, one that half-closes after a
  whole request is answered;
* :mod:`simulate.serve.openapi` -- the OpenAPI document and the ``/docs`` page;
* :mod:`simulate.serve.stats_page` -- the statistics page's API (``--db``: the hand database);
* ``static/`` -- the workbench page (plain HTML, CSS and JavaScript, nothing from elsewhere).

:func:`serve` runs it all under uvicorn until SIGINT or SIGTERM.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from typing import Any

STOP_S = 0.5  # seconds in-flight requests get once a stop is asked for


def serve(host: str = "127.0.0.1", port: int = 8765, *, workers: int = 2,
          max_seconds: float = 30.0, token: str | None = None, quiet: bool = False,
          warm: bool = True, on_ready: Any = None, db: str | None = None) -> int:
    """Warm ``workers`` worker processes, then serve on ``host:port`` until SIGINT/SIGTERM;
    returns 0 after a clean stop. ``on_ready(url)`` is called once the server listens.
    ``db``: the hand database the statistics page reads (read only)."""
    import uvicorn

    from simulate.serve.app import Settings, create_app
    from simulate.serve.connection import connection_class
    from simulate.serve.workers import Pool

    pool = Pool(workers, warm=warm, report=not quiet)
    settings = Settings(host, port, token=token, max_seconds=max_seconds, db=db)
    app = create_app(pool, settings)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on",
                            timeout_graceful_shutdown=STOP_S, access_log=False,
                            http=connection_class(max_seconds))

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            pool.stop_requests()  # requests in flight answer 503 "server stopping" at once
            await super().shutdown(sockets=sockets)

    server = Server(config)

    async def main() -> None:
        if not quiet:
            print(f"pokerjit serve: starting {pool.size} worker"
                  f"{'s' if pool.size != 1 else ''}"
                  + (" (loading compiled kernels) ..." if warm else " ..."),
                  file=sys.stderr, flush=True)
        await pool.start()
        task = asyncio.ensure_future(server.serve())
        while not server.started and not task.done():
            await asyncio.sleep(0.02)
        if server.started:
            settings.listening_on(server_port(server, port))
            if on_ready is not None:
                on_ready(url_of(host, settings.port))
        await task

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    # SIGTERM stops like Ctrl-C, also while the workers warm up. While serving, uvicorn
    # catches both and shuts down: the pool answers the requests in flight or waiting with
    # 503 "server stopping" at their next poll (their workers are killed with the pool),
    # uvicorn lets those answers go out (at most STOP_S seconds; then they are cancelled),
    # closes the pool, and raises the signal again once it is done: that KeyboardInterrupt
    # ends here, a clean stop.
    old = signal.signal(signal.SIGTERM, stop)
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    finally:
        pool.close()
        signal.signal(signal.SIGTERM, old)
    return 0


def server_port(server: Any, default: int) -> int:
    """The port the uvicorn server listens on (the real one when asked for port 0)."""
    for s in getattr(server, "servers", []) or []:
        for sock in s.sockets:
            return int(sock.getsockname()[1])
    return default


def url_of(host: str, port: int) -> str:
    h = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{h}:{port}/"

