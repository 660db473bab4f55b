"""``pokerjit serve``: what a warm server saves, side by side.

* **API latency**: ``equity AhKh QsQd`` exact, ``POST /api/v1/equity`` over HTTP on loopback
  with one kept-alive connection (the median of 200 requests a run), beside the same
  request answered in this process (``simulate.serve.handlers.document``, the median of
  200 calls): the difference is what HTTP, the event loop and the worker pipe add
  (target: p50 <= 10 ms).
* **A fresh command**: ``pokerjit equity AhKh QsQd`` through the server (``--server URL``)
  beside the same command run locally, each a fresh process start to exit, alternating
  (target: <= 0.2x the local wall time).

``python benchmarks/bench_serve.py [--json] [--quick]`` starts a server on a free loopback
port (its kernels from Numba's cache), prints the table and stops it.
``pytest benchmarks/bench_serve.py -m slow`` runs each piece once against a server.
"""

from __future__ import annotations

import argparse
import atexit
import functools
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from simulate.bench import Comparison, Side, script_main

ROOT = Path(__file__).resolve().parents[1]
BODY = {"hands": ["AhKh", "QsQd"], "exact": True}
ARGV = ["equity", "AhKh", "QsQd"]
_SERVER: dict[str, Any] = {}


def server_url() -> str:
    """The URL of this process's server, started on first use (stopped at exit)."""
    if "url" not in _SERVER:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        proc = subprocess.Popen([sys.executable, "-m", "simulate", "serve", "--port",
                                 str(port), "--workers", "1", "--json"], cwd=ROOT, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        atexit.register(lambda: (proc.send_signal(signal.SIGTERM), proc.wait(10)))
        line = proc.stdout.readline()  # type: ignore[union-attr]  # once warm: {"url": ...}
        if not line:
            raise RuntimeError(f"the server exited (status {proc.wait()})")
        _SERVER["url"] = json.loads(line)["url"].rstrip("/")
    return _SERVER["url"]


def api_p50(n: int) -> float:
    """The median seconds of ``n`` requests on one kept-alive connection."""
    host, port = server_url().removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port))
    body = json.dumps(BODY)
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        conn.request("POST", "/api/v1/equity", body, {"Content-Type": "application/json"})
        r = conn.getresponse()
        doc = json.loads(r.read())
        times.append(time.perf_counter() - t0)
        assert r.status == 200 and doc["players"][0]["hand"] == "AhKh", doc
    conn.close()
    return statistics.median(times)


def in_process_p50(n: int) -> float:
    from simulate.serve.handlers import document

    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        document("equity", BODY)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def command(through_server: bool) -> None:
    argv = [sys.executable, "-m", "simulate", *ARGV]
    if through_server:
        argv += ["--server", server_url()]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("POKERJIT_SERVER", None)
    subprocess.run(argv, check=True, capture_output=True, env=env, cwd=ROOT, timeout=600)


def comparisons(args: argparse.Namespace, _tmp: Path) -> list[Comparison]:
    n = 50 if args.quick else 200
    return [
        Comparison("equity AhKh QsQd exact: median latency of one request", [
            Side("HTTP API, warm server", functools.partial(api_p50, n), seconds=float),
            Side("in this process", functools.partial(in_process_p50, n), seconds=float)]),
        Comparison("pokerjit equity AhKh QsQd, a fresh process start to exit", [
            Side("through the server", functools.partial(command, True)),
            Side("local", functools.partial(command, False))]),
    ]


@pytest.mark.slow
def test_the_api_and_the_client_answer():
    assert api_p50(5) > 0 and in_process_p50(5) > 0
    command(True)


if __name__ == "__main__":
    raise SystemExit(script_main(__doc__, comparisons, repeat=5))
