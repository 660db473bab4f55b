"""Helpers shared by several test modules (no test module imports another)."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def examples(n: int) -> int:
    """``max_examples`` (or a count of random trials) for a test that asks for ``n``: ``n``
    scaled by the loaded hypothesis profile's share of Hypothesis's default 100 examples
    (``conftest.py``: all ``n`` under ``ci``, which CI's slow set uses; 30 % in the default
    ``dev`` profile, the quick run's in CI as anywhere), at least 10 and at most ``n``."""
    from hypothesis import settings

    return min(n, max(10, round(n * settings.default.max_examples / 100)))


def quick_first(values: list[Any], quick: int = 1) -> list[Any]:
    """A ``parametrize`` list whose first ``quick`` cases run in the quick run and the rest
    only in the slow set (``pytest -m slow``, which CI runs too): for a family of cases that
    take one road, where one case proves the road quickly and the others widen the net.
    ``values`` may hold ``pytest.param`` entries (their ids and marks are kept); a tuple is
    one case's values for several argument names, as ``parametrize`` reads it."""
    import pytest
    from _pytest.mark import ParameterSet

    out = []
    for i, v in enumerate(values):
        if i < quick:
            out.append(v)
        elif isinstance(v, ParameterSet):
            out.append(pytest.param(*v.values, marks=(*v.marks, pytest.mark.slow), id=v.id))
        else:
            out.append(pytest.param(*(v if isinstance(v, tuple) else (v,)),
                                    marks=pytest.mark.slow))
    return out


def kernel_first_bad(cards: np.ndarray, n_blocks: int = 0) -> int:
    """The evaluation kernels' answer for ``cards`` (``uint8[N, k]``): the first bad row, else
    -1; ``n_blocks`` > 0 runs the parallel kernel in that many blocks."""
    from evaluator._kernels import holdem as K
    from evaluator._tables import get_tables

    out = np.zeros(len(cards), np.int32)
    tables = get_tables().kernel_args
    if n_blocks:
        return int(K.eval_batch_parallel(cards, out, tables, True, n_blocks))
    return int(K.eval_batch_serial(cards, out, tables, True))


class FakeClock:
    """A stand-in for ``time.perf_counter`` that moves only when told (``clock.now += s``)."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def patch_clock(monkeypatch: Any, module: Any, clock: FakeClock) -> FakeClock:
    """Make ``module.time.perf_counter`` read ``clock`` for the test; returns ``clock``."""
    monkeypatch.setattr(module.time, "perf_counter", clock)
    return clock


def peer_or_skip(name: str) -> Any:
    """The ``benchmarks/peers`` package, skipping the test when it or the peer ``name`` is
    not installed."""
    import pytest

    peers = pytest.importorskip("peers")
    if not peers.available(name):
        pytest.skip(f"{name} not installed")
    return peers


def default_ctrl_c() -> None:
    """``preexec_fn`` for a command a test sends SIGINT: Python's usual Ctrl-C, as a terminal
    gives it. A test run started in the background (``cmd &`` in a script) has SIGINT
    ignored, children inherit that, and Python then installs no KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def on_a_terminal(argv: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    """Run ``argv`` with stderr on a pseudo-terminal: (exit status, stdout, stderr)."""
    import pty

    master, slave = pty.openpty()
    p = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=slave,
                         text=True)
    os.close(slave)
    out, _ = p.communicate(timeout=900)
    err = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        err += chunk
    os.close(master)
    return p.returncode, out, err.decode().replace("\r\n", "\n")


def mutate_actions(rng: random.Random, acts: list[str], n: int) -> list[str]:
    """A copy of the PHH action list ``acts`` (``n`` players) with one random edit: an action
    dropped, swapped, repeated or cut off, an amount or a card made wrong or odd, a seat
    changed, an action inserted, a comment added or the list shuffled."""
    acts = list(acts)
    i = rng.randrange(len(acts))
    op = rng.randrange(13)
    toks = acts[i].split()
    card = rng.choice(["Ac", "2d", "??", "Kh", "7s", "9c", "Td"])
    seat = f"p{rng.randrange(1, n + 1)}"
    if op == 0:
        del acts[i]
    elif op == 1 and i + 1 < len(acts):
        acts[i], acts[i + 1] = acts[i + 1], acts[i]
    elif op == 2:
        acts.insert(i, acts[i])
    elif op == 3 and len(toks) == 3 and toks[1] == "cbr":
        v = int(float(toks[2]))
        toks[2] = rng.choice([str(v + 1), str(max(v - 1, 0)), str(3 * v), "1", f"{v}.0",
                              f"{v}e0", f"+{v}", "10000000"])
        acts[i] = " ".join(toks)
    elif op == 4 and toks[0] == "d":
        cards = toks[-1]
        j = 2 * rng.randrange(len(cards) // 2)
        acts[i] = " ".join(toks[:-1] + [cards[:j] + card + cards[j + 2:]])
    elif op == 5 and len(toks) == 3 and toks[1] == "sm":
        cards = toks[2]
        j = 2 * rng.randrange(len(cards) // 2)
        acts[i] = " ".join(toks[:2] + [rng.choice([cards[:j] + card + cards[j + 2:],
                                                   cards[2:] + cards[:2], "????", cards[:2]])])
    elif op == 6:
        del acts[i:]
        if not acts:
            acts = ["p1 f"]
    elif op == 7 and toks[0] != "d":
        acts[i] = " ".join([seat] + toks[1:])
    elif op == 8:
        acts.insert(i, rng.choice([f"{seat} sm ????", f"{seat} sm", f"{seat} pb", f"{seat} sd",
                                   f"{seat} cc", f"{seat} f", f"{seat} cbr 50", "d db 2c"]))
    elif op == 9 and len(toks) == 4 and toks[1] == "dh":
        acts[i] = " ".join(toks[:3] + [rng.choice(["????", "??" + toks[3][2:], toks[3].lower(),
                                                   toks[3][:2] * 2])])
    elif op == 10:
        acts[i] = acts[i] + " # a comment"
    elif op == 11 and len(toks) == 3 and toks[1] == "db":
        acts[i] = " ".join(toks[:2] + [toks[2][:2]])
    elif op == 12:
        rng.shuffle(acts)
    return acts


def mutated_hand(rng: random.Random, bases: list[dict]) -> dict:
    """A copy of a random hand of ``bases`` (PHH fields) with one or two
    :func:`mutate_actions` edits to its actions."""
    f = dict(rng.choice(bases))
    n = len(f["starting_stacks"])
    for _ in range(rng.randrange(1, 3)):
        f["actions"] = mutate_actions(rng, f["actions"], n)
    return f


def stud_hand(variant: str, ante: int, bring_in: int, bets: tuple[int, int],
              stacks: list[int], actions: list[str]) -> str:
    """PHH text of a heads-up stud-family hand (``variant`` ``'F7S'``, ``'FR'``, ...): both
    seats ante ``ante``; ``bets`` are the small and the big bet."""
    return (f"variant = {variant!r}\nantes = {[ante, ante]}\nbring_in = {bring_in}\n"
            f"small_bet = {bets[0]}\nbig_bet = {bets[1]}\nstarting_stacks = {stacks}\n"
            f"actions = {actions}\n")


def strip_timings(x: Any) -> Any:
    """Drop timings (``elapsed_s``, ``load_s``) anywhere in a document."""
    if isinstance(x, dict):
        return {k: strip_timings(v) for k, v in x.items() if k not in ("elapsed_s", "load_s")}
    if isinstance(x, list):
        return [strip_timings(v) for v in x]
    return x


class Server:
    """``python -m simulate serve`` on 127.0.0.1 (a free port) in a subprocess."""

    def __init__(self, *args: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "simulate", "serve", "--port", "0", "-q", *args],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()  # type: ignore[union-attr]
        m = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
        assert m, (line, self.proc.stderr.read())  # type: ignore[union-attr]
        self.url = m.group(1).rstrip("/")

    def post(self, kind: str, body: Any, timeout: float = 60) -> tuple[int, Any]:
        req = urllib.request.Request(f"{self.url}/api/v1/{kind}", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def worker_pids(self) -> list[int]:
        """The process ids of the server's worker processes (its spawned children that are
        not multiprocessing's resource tracker)."""
        out = []
        for pid in subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True,
                                  text=True).stdout.split():
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if "spawn_main" in cmd and "resource_tracker" not in cmd:
                out.append(int(pid))
        return out

    def stop(self) -> tuple[int, float]:
        t0 = time.perf_counter()
        self.proc.send_signal(signal.SIGTERM)
        rc = self.proc.wait(10)
        return rc, time.perf_counter() - t0


def serving(*args: str) -> Iterator[Server]:
    """A module fixture's body: a :class:`Server` with ``args``, stopped afterwards."""
    s = Server(*args)
    yield s
    if s.proc.poll() is None:
        s.stop()


def worker_signal_handlers(items: Any, threads: int = 1) -> tuple[bool, bool]:
    """A chunk function for :func:`simulate.batch.executor`'s workers: whether this
    process ignores SIGINT and has SIGTERM's default action."""
    return (signal.getsignal(signal.SIGINT) is signal.SIG_IGN,
            signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)


# ----------------------------------------------------------------------------- browser pages
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


def chromium() -> Any:
    """A headless Chromium under Selenium (Debian's chromium and chromedriver), 1400x1300,
    its console kept for ``get_log("browser")``; skips the test where either is missing.
    The caller quits it."""
    import shutil

    import pytest

    webdriver = pytest.importorskip("selenium.webdriver")
    driver_path = CHROMEDRIVER if Path(CHROMEDRIVER).exists() else shutil.which("chromedriver")
    if not (Path(CHROMIUM).exists() and driver_path):
        pytest.skip("no chromium/chromedriver (apt-get install chromium chromium-driver)")
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
              "--window-size=1400,1300"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver_path), options=opts)


def wait_for(cond: Any, timeout: float = 60, what: str = "") -> Any:
    """Poll ``cond()`` every 50 ms until it is true (returns it), failing after ``timeout``
    seconds with ``what`` named."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        v = cond()
        if v:
            return v
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")
