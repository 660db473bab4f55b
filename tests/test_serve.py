"""``pokerjit serve``: the JSON API answers what the CLI prints with ``--json``, its
refusals (400, 403, 401, 413, the time limit), the client path (``--server`` /
``POKERJIT_SERVER``: the same output and exit codes, no Numba), and a real uvicorn server
on 127.0.0.1 under load, with a disconnecting client and SIGTERM."""

from __future__ import annotations

import json
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("httpx")

from helpers import Server, serving  # noqa: E402
from helpers import strip_timings as _strip  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from simulate.cli import build_parser, main  # noqa: E402
from simulate.serve.app import Settings, create_app  # noqa: E402
from simulate.serve.workers import Pool  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BASE = "http://127.0.0.1:8765"
DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


@pytest.fixture(scope="module")
def client() -> Any:
    app = create_app(Pool(1, warm=False), Settings("127.0.0.1", 8765, max_seconds=600))
    with TestClient(app, base_url=BASE) as c:
        yield c


def _body(argv: list[str]) -> tuple[str, dict[str, Any]]:
    """The API kind and body of a command line, as the client path builds it."""
    import importlib

    args = build_parser().parse_args(argv)
    body = importlib.import_module(f"simulate.cli.{argv[0]}").request(args)
    assert body is not None
    return argv[0], body


def _cli_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


# ----------------------------------------------------------------------------- requests
def equity_argv(rng: random.Random, i: int) -> list[str]:
    c = rng.sample(DECK, 14)
    players = 2 + i % 3
    argv = ["equity", *(c[2 * k] + c[2 * k + 1] for k in range(players)),
            "--board", "".join(c[8:8 + (3, 4, 5)[i % 3]])]
    if i % 5 == 0:
        argv += ["--samples", "3000", "--seed", str(i)]
    elif i % 7 == 0:
        argv += ["--dead", c[13]]
    return argv


RANGES = ["QQ+", "AKs", "JJ-99", "AhKx", "T9s,98s", "AK,AQs", "22", "KQ:0.5,JJ"]
VILLAINS = ["KK", "AQ", "TT+", "7h7d", "random", "QJs"]


def range_argv(rng: random.Random, i: int) -> list[str]:
    villain = VILLAINS[(i // 2) % len(VILLAINS)]
    free = [c for c in DECK if c not in villain]  # an exact villain's cards stay off
    board = "".join(rng.sample(free, (5, 4)[i % 2]))
    argv = ["range", RANGES[i % len(RANGES)], "--vs", villain,
            "--board", board]
    if i % 4 == 3:
        argv += ["--samples", "2000", "--seed", str(i)]
    return argv


def allin_argv(rng: random.Random, i: int) -> list[str]:
    c = rng.sample(DECK, 11)
    players = 2 + i % 2
    specs = [f"{c[2 * k]}{c[2 * k + 1]}:{(100, 60, 30)[k]}" for k in range(players)]
    if i % 6 == 0:
        specs.append("fold:10")
    argv = ["allin", *specs, "--board", "".join(c[6:6 + (4, 5, 3)[i % 3]]),
            "--button", str(i % players)]
    if i % 5 == 0:
        argv += ["--samples", "2000", "--seed", str(i)]
    return argv


def eval_argv(rng: random.Random, i: int) -> list[str]:
    if i % 4 == 3:
        c = rng.sample(DECK, 9)
        return ["eval", "".join(c[:4]), "--game", "omaha", "--board", "".join(c[4:])]
    return ["eval", " ".join(rng.sample(DECK, 5 + i % 3))]


#: Each kind's i-th random command line (drawn from ``rng``), and the kind's default seed.
KINDS = {"equity": (equity_argv, 1), "range": (range_argv, 2), "allin": (allin_argv, 3),
         "eval": (eval_argv, 4)}


def argvs(kind: str, n: int, seed: int | None = None) -> list[list[str]]:
    """``n`` random command lines of ``kind``, the same ones for the same seed."""
    one, default_seed = KINDS[kind]
    rng = random.Random(default_seed if seed is None else seed)
    return [one(rng, i) for i in range(n)]


def _same_as_cli(client: Any, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    kind, body = _body(argv)
    r = client.post(f"/api/v1/{kind}", json=body)
    assert r.status_code == 200, (argv, r.text)
    api = r.json()
    assert "load_s" in api or "elapsed_s" not in api
    assert _strip(api) == _strip(_cli_json(capsys, argv)), argv


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_api_answers_the_cli_json_document(client: Any, capsys: pytest.CaptureFixture[str],
                                           kind: str) -> None:
    for argv in argvs(kind, 6):
        _same_as_cli(client, capsys, argv)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_api_answers_the_cli_json_document_100(client: Any,
                                               capsys: pytest.CaptureFixture[str],
                                               kind: str) -> None:
    for argv in argvs(kind, 100, seed=11):
        _same_as_cli(client, capsys, argv)


@pytest.mark.slow
def test_api_chart_is_the_cli_chart(client: Any, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["chart", "--opponents", "2", "--samples", "300", "--seed", "5"],
                 ["chart", "--opponents", "2", "3", "--samples", "100", "--seed", "9"]):
        _same_as_cli(client, capsys, argv)


PHH = sorted((ROOT / "tests" / "data" / "phh" / "vendor" / "phh-curated").glob("*.phh"))


@pytest.mark.parametrize("count", [3, pytest.param(None, marks=pytest.mark.slow)])
def test_api_hand_is_the_cli_hand_document(client: Any, capsys: pytest.CaptureFixture[str],
                                           count: int | None) -> None:
    assert PHH
    for f in PHH[:count]:
        r = client.post("/api/v1/hand", json={"phh": f.read_text(encoding="utf-8")})
        rc = main(["hand", str(f), "--json", "-q"])
        out = capsys.readouterr().out
        if rc == 2:  # no hand in the file could be read: the same one line
            assert r.status_code == 400, f
            continue
        assert r.status_code == 200, (f, r.text)
        api = json.loads(r.text.replace('"request', json.dumps(str(f))[:-1]))
        assert api == json.loads(out), f


def test_health_games_openapi_docs_and_page(client: Any) -> None:
    from simulate import __version__
    from simulate.games import GAMES

    assert client.get("/api/v1/health").json()["status"] == "ok"
    assert client.get("/api/v1/health").json()["version"] == __version__
    assert [g["name"] for g in client.get("/api/v1/games").json()["games"]] == list(GAMES)
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    assert {f"/api/v1/{k}" for k in ("equity", "range", "allin", "eval", "chart", "hand",
                                     "health")} <= set(paths)
    docs = client.get("/docs").text
    assert "POST /api/v1/allin" in docs and "http" not in docs.split("<body")[0].split("href")[0]
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert client.get("/static/../app.py").status_code == 404


def test_classes_follow_the_game_s_order(client: Any) -> None:
    """``top N%`` on the page reads /api/v1/classes?game=: the game's own order and combo
    count, the same classes the server's range text takes."""
    from simulate.ranges import parse_range, top_classes

    hold = client.get("/api/v1/classes").json()
    assert hold["game"] == "holdem" and len(hold["order"]) == 169 and hold["combos"] == 1326
    for game in ("short_deck", "short_deck_triton"):
        doc = client.get(f"/api/v1/classes?game={game}").json()
        assert doc["game"] == game and len(doc["order"]) == 81 and doc["combos"] == 630
        assert doc["order"] != hold["order"][:81]
        assert doc["grid"] == hold["grid"]
        # the page's rule (classes until their combos reach N% of "combos") is the server's
        top = top_classes(10, game)
        assert top == doc["order"][:len(top)]
        assert len(parse_range("top 10%", game=game)) == sum(
            6 if len(h) == 2 else 4 if h[2] == "s" else 12 for h in top)
    bad = client.get("/api/v1/classes?game=omaha")
    assert bad.status_code == 400 and "omaha" in bad.json()["error"]


BAD = [  # (kind, body, the command line that fails the same way, or None)
    ("equity", {"hands": ["AhKh", "AhQd"]}, ["equity", "AhKh", "AhQd"]),
    ("equity", {"hands": ["AhKh", "QsQd"], "board": "2c7"}, ["equity", "AhKh", "QsQd",
                                                               "--board", "2c7"]),
    ("equity", {"hands": ["AhKh"]}, ["equity", "AhKh"]),
    ("equity", {"hands": ["AhKh", "QsQd"], "sample": 5}, None),
    ("equity", {"hands": ["AhKh", "QsQd"], "kind": "range"}, None),
    ("equity", {"hands": ["AhKh", "QsQd"], "seed": -1}, None),
    ("range", {"hands": ["AKx", "QQ"]}, ["range", "AKx", "--vs", "QQ"]),
    ("allin", {"players": ["AhAs:100", "KdKc:-5"]}, ["allin", "AhAs:100", "KdKc:-5"]),
    ("eval", {"cards": "AhAh"}, ["eval", "AhAh"]),
    ("eval", {"cards": "AhKhQd2c", "game": "omaha"}, ["eval", "AhKhQd2c", "--game", "omaha"]),
    ("eval", {"board": "2c"}, None),
    ("chart", {"opponents": [12]}, None),
    ("hand", {"phh": 5}, None),
    ("hand", {"path": "/etc/passwd"}, None),
    ("equity", [1, 2], None),
]


def test_bad_requests_are_400_with_the_cli_message_and_the_server_goes_on(
        client: Any, capsys: pytest.CaptureFixture[str]) -> None:
    for kind, body, argv in BAD:
        r = client.post(f"/api/v1/{kind}", json=body)
        assert r.status_code == 400, (kind, body, r.text)
        msg = r.json()["error"]
        assert msg and "\n" not in msg
        if argv is not None:
            assert main(argv) == 2
            assert capsys.readouterr().err == f"error: {msg}\n", argv
    for raw in (b"not json", b'{"hands": ["AhKh", "QsQd"]', b'{"hands": NaN}', b"\xff\xfe"):
        r = client.post("/api/v1/equity", content=raw)
        assert r.status_code == 400 and r.json()["error"], raw
    for method, path, status in (("POST", "/api/v1/poker", 404), ("GET", "/api/v1/equity", 405),
                                 ("GET", "/api/v2/equity", 404), ("POST", "/api/v1/health", 405),
                                 ("DELETE", "/api/v1/hand", 405), ("GET", "/api/", 404)):
        r = client.request(method, path)
        assert r.status_code == status, (method, path)
        assert r.headers["content-type"] == "application/json", (method, path)
        msg = r.json()["error"]
        assert path in msg and "\n" not in msg, msg
    assert client.get("/api/v1/equity").headers["allow"] == "POST"
    assert client.get("/nothing-here").status_code == 404  # not under /api: plain text
    ok = client.post("/api/v1/equity", json={"hands": ["AhKh", "QsQd"]}).json()
    assert [p["equity"] for p in ok["players"]] == pytest.approx([0.4621, 0.5379], abs=1e-4)


SURROGATES = [  # JSON text: a lone surrogate in each place text goes
    ("equity", r'{"hands": ["\ud800", "QsQd"]}', "hands[0]"),
    ("equity", r'{"hands": ["AhKh", "QsQd"], "board": "Ks\ud800"}', "board"),
    ("equity", r'{"hands": ["AhKh", "QsQd"], "game": "\udfff"}', "game"),
    ("range", r'{"hands": ["AK\ud800", "QQ"], "dead": "2c"}', "hands[0]"),
    ("allin", r'{"players": ["AhAs:1\ud800", "KdKc:60"]}', "players[0]"),
    ("eval", r'{"cards": "\ud800"}', "cards"),
    ("chart", r'{"opponents": [1], "game": "\udc80"}', "game"),
    ("equity", r'{"\ud800": 1, "hands": ["AhKh", "QsQd"]}', "a field name"),
    ("hand", r'{"phh": "variant = \"NT\"\n\ud800 = 1"}', "line 2"),
]


def test_a_lone_surrogate_is_a_400_naming_the_field(client: Any) -> None:
    for kind, raw, where in SURROGATES:
        r = client.post(f"/api/v1/{kind}", content=raw.encode())
        assert r.status_code == 400, (raw, r.text)
        msg = r.json()["error"]
        assert where in msg and "surrogate" in msg and "codec" not in msg, (raw, msg)
    msg = client.post("/api/v1/hand", content=SURROGATES[-1][1].encode()).json()["error"]
    assert msg.startswith("request: no PHH hand could be read (not UTF-8 text"), msg


def test_foreign_host_and_origin_are_refused(client: Any) -> None:
    body = {"hands": ["AhKh", "QsQd"]}
    for headers in ({"Host": "evil.example:8765"}, {"Host": "127.0.0.1:9999"},
                    {"Origin": "http://evil.example"}, {"Origin": "null"},
                    {"Origin": "http://127.0.0.1:9999"}, {"Origin": "http://localhost"},
                    {"Origin": "http://127.0.0.1"}, {"Origin": "https://127.0.0.1:8765"},
                    {"Origin": "https://localhost:8765"}, {"Origin": "http://[::1]"},
                    {"Origin": "http://localhost:8765/x"}, {"Origin": "http://localhost:87650"}):
        r = client.post("/api/v1/equity", json=body, headers=headers)
        assert r.status_code == 403, headers
        assert "error" in r.json()
        assert client.get("/", headers=headers).status_code == 403
    for headers in ({"Host": "localhost:8765"}, {"Origin": "http://127.0.0.1:8765"},
                    {"Host": "[::1]:8765", "Origin": "http://localhost:8765"},
                    {"Origin": "http://[::1]:8765"}, {"Origin": "HTTP://LOCALHOST:8765"}):
        assert client.post("/api/v1/equity", json=body, headers=headers).status_code == 200


def test_origin_is_this_server_s_page_only() -> None:
    """Only ``http://HOST:PORT`` of this server (without the port on port 80 alone); a
    wildcard bind's page is the one at the request's Host."""
    s = Settings("127.0.0.1", 8765)
    assert s.origin_ok("http://localhost:8765") and s.origin_ok("http://127.0.0.1:8765")
    for o in ("http://localhost", "https://localhost:8765", "http://localhost:8766",
              "http://evil.example:8765", "null", "localhost:8765"):
        assert not s.origin_ok(o), o
    s80 = Settings("127.0.0.1", 80)
    assert s80.origin_ok("http://localhost") and s80.origin_ok("http://localhost:80")
    assert not s80.origin_ok("https://localhost")
    wild = Settings("0.0.0.0", 8080, token="s3cret-token")
    assert wild.origin_ok("http://10.0.0.5:8080", "10.0.0.5:8080")
    assert not wild.origin_ok("http://10.0.0.5", "10.0.0.5:8080")
    assert not wild.origin_ok("http://evil.example:8080", "10.0.0.5:8080")
    assert not wild.origin_ok("https://10.0.0.5:8080", "10.0.0.5:8080")


def test_body_over_the_limit_is_413(client: Any) -> None:
    big = b'{"hands": ["AhKh", "QsQd"], "board": "' + b" " * (1 << 20) + b'"}'
    assert client.post("/api/v1/equity", content=big).status_code == 413
    r = client.post("/api/v1/equity", content=b"{}", headers={"Content-Length": "99999999"})
    assert r.status_code == 413


def test_token_is_required_when_set() -> None:
    app = create_app(Pool(1, warm=False),
                     Settings("127.0.0.1", 8765, token="s3cret-token", max_seconds=10))
    with TestClient(app, base_url=BASE) as c:
        assert c.get("/api/v1/health").status_code == 401
        assert c.get("/api/v1/health", headers={"Authorization": "Bearer wrong"}
                     ).status_code == 401
        assert c.get("/api/v1/health", headers={"Authorization": "Bearer s3cret-token"}
                     ).json()["status"] == "ok"
        assert c.get("/").status_code == 200  # the page itself is public; its API calls are not


@pytest.mark.slow
def test_a_request_past_the_time_limit_is_stopped() -> None:
    settings = Settings("127.0.0.1", 8765, max_seconds=600)
    app = create_app(Pool(1, warm=False), settings)
    with TestClient(app, base_url=BASE) as c:
        three = {"hands": ["AhKh", "QsQd", "7c7d"], "seed": 1}
        assert c.post("/api/v1/equity", json={**three, "samples": 50_000}).status_code == 200
        settings.max_seconds = 1.5  # the kernels are loaded: now a short limit
        t0 = time.perf_counter()
        r = c.post("/api/v1/equity", json={**three, "samples": 10**11})
        took = time.perf_counter() - t0
        assert r.status_code == 400
        assert "time limit of 1.5 s" in r.json()["error"]
        assert took < 1.5 + 1.5, took  # stopped at the next round
        ok = c.post("/api/v1/equity", json={"hands": ["AhKh", "QsQd"]})  # the worker goes on
        assert ok.status_code == 200


def test_serve_refuses_a_public_bind_without_a_token(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    assert main(["serve", "--host", "0.0.0.0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --host 0.0.0.0 is not a loopback address") and "--token" in err
    assert err.count("\n") == 1


def test_client_without_a_server_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    url = "http://127.0.0.1:9"
    assert main(["equity", "AhKh", "QsQd", "--server", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: cannot reach a pokerjit server at {url}") and err.count(
        "\n") == 1
    os.environ["POKERJIT_SERVER"] = url
    try:
        assert main(["eval", "AsKsQsJsTs"]) == 2
    finally:
        del os.environ["POKERJIT_SERVER"]
    assert capsys.readouterr().err.startswith(f"error: cannot reach a pokerjit server at {url}")


# ----------------------------------------------------------------------------- a real server
@pytest.fixture(scope="module")
def server() -> Any:
    yield from serving("--workers", "2", "--max-seconds", "20")


def _run_cli(argv: list[str], server_url: str | None = None) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if k != "POKERJIT_SERVER"}
    env["PYTHONPATH"] = str(ROOT)
    if server_url:
        env["POKERJIT_SERVER"] = server_url
    p = subprocess.run([sys.executable, "-m", "simulate", *argv], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


_SECONDS = re.compile(r"\d+\.\d+ s\b( \(\+ [^)]*\))?")


def _untimed(text: str) -> str:
    text = _SECONDS.sub("T s", text)
    return re.sub(r'"(elapsed_s|load_s)": [0-9.e-]+', r'"\1": T', text)


CLIENT_ARGVS = [
    ["equity", "AhKh", "QsQd"],
    ["equity", "AhKh", "QsQd", "7c7d", "--board", "Ks8h2c", "--json"],
    ["equity", "AhAs", "KdKc", "--samples", "20000", "--seed", "7"],
    ["range", "QQ+,AKs", "--vs", "random", "--board", "Td9d2c7h"],
    ["range", "AKs", "--vs", "QQ", "--board", "Td9d2c", "--json"],
    ["allin", "AhAs:100", "KdKc:60", "QhQs:30", "--board", "2c7d9h"],
    ["allin", "AhAs:100", "KdKc:60", "fold:10", "--samples", "5000", "--seed", "1", "--json"],
    ["eval", "AsKsQsJsTs"],
    ["eval", "--game", "omaha", "AhKhQd2c", "--board", "Jh9h3h5s7c", "--json"],
    ["chart", "--opponents", "2", "--samples", "200", "--seed", "3"],
    ["equity", "AhKh", "AhQd"],                       # bad: a repeated card
    ["equity", "AhKh", "QsQd", "--samples", "0"],     # bad: caught by the local check
    ["range", "AKx", "--vs", "QQ"],
    ["allin", "AhAs:100", "KdKc:x"],
    ["eval", "AhKhQd2c", "--game", "omaha"],
    ["chart", "--opponents", "12"],
]


@pytest.mark.slow
def test_cli_through_the_server_prints_what_the_local_command_prints(server: Server) -> None:
    for argv in CLIENT_ARGVS:
        local = _run_cli(argv)
        remote = _run_cli(argv, server.url)
        assert remote[0] == local[0], (argv, local, remote)
        assert _untimed(remote[1]) == _untimed(local[1]), argv
        errors = [[x for x in out[2].splitlines() if x.startswith("error:")]
                  for out in (local, remote)]
        assert errors[1] == errors[0], argv  # the same error line (or none)


@pytest.mark.slow
def test_the_client_path_imports_no_numba_nor_numpy(server: Server) -> None:
    code = ("import sys; from simulate.cli import main; "
            "rc = main(['equity', 'AhKh', 'QsQd', '--json']); "
            "assert rc == 0, rc; assert 'numba' not in sys.modules, 'numba imported'; "
            "assert 'numpy' not in sys.modules, 'numpy imported'; "
            "print('ok', file=sys.stderr)")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "POKERJIT_SERVER": server.url}
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0 and p.stderr.strip().endswith("ok"), p.stderr
    assert json.loads(p.stdout)["players"][0]["hand"] == "AhKh"


@pytest.mark.slow
def test_load_20_clients_50_requests_each(server: Server) -> None:
    body = {"hands": ["AhKh", "QsQd"], "exact": True}
    assert server.post("equity", body)[0] == 200  # warm
    times: list[float] = []
    errors: list[Any] = []
    lock = threading.Lock()

    def client() -> None:
        for _ in range(50):
            t0 = time.perf_counter()
            status, doc = server.post("equity", body)
            dt = time.perf_counter() - t0
            with lock:
                times.append(dt)
                if status != 200 or abs(doc["players"][0]["equity"] - 0.4621) > 1e-3:
                    errors.append((status, doc))

    threads = [threading.Thread(target=client) for _ in range(20)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    assert not errors, errors[:3]
    assert len(times) == 1000
    q = statistics.quantiles(times, n=100)
    print(f"\nload: 20 clients x 50 requests in {wall:.1f} s, p50 {1000 * q[49]:.1f} ms, "
          f"p99 {1000 * q[98]:.1f} ms")
    one = []
    for _ in range(30):
        t1 = time.perf_counter()
        server.post("equity", body)
        one.append(time.perf_counter() - t1)
    print(f"one client: p50 {1000 * statistics.median(one):.1f} ms")


@pytest.mark.slow
def test_a_disconnecting_client_s_work_is_stopped(server: Server) -> None:
    import http.client

    host, port = server.url.split("//")[1].split(":")
    long = {"hands": ["AhKh", "QsQd", "7c7d", "2s3s"], "samples": 10**11, "seed": 1}
    conns = []
    for _ in range(2):  # both workers busy on work that would run for hours
        c = http.client.HTTPConnection(host, int(port), timeout=30)
        c.request("POST", "/api/v1/equity", json.dumps(long),
                  {"Content-Type": "application/json"})
        conns.append(c)
    time.sleep(1.5)
    for c in conns:
        c.close()  # the clients go away
    t0 = time.perf_counter()
    status, doc = server.post("equity", {"hands": ["AhKh", "QsQd"]}, timeout=15)
    took = time.perf_counter() - t0
    assert status == 200, doc
    assert took < 3.0, f"a worker was still busy {took:.1f} s after its client left"


@pytest.mark.slow
def test_sigterm_mid_load_stops_within_2_s_exit_0() -> None:
    s = Server("--workers", "2", "--no-warm")
    assert s.post("equity", {"hands": ["AhKh", "QsQd"]})[0] == 200
    stop = threading.Event()

    def load() -> None:
        while not stop.is_set():
            try:
                s.post("equity", {"hands": ["AhKh", "QsQd", "7c7d"], "samples": 10**10},
                       timeout=10)
            except (OSError, ValueError):  # refused, cut off, or not JSON while stopping
                return

    threads = [threading.Thread(target=load, daemon=True) for _ in range(4)]
    for t in threads:
        t.start()
    time.sleep(1.0)
    rc, took = s.stop()
    stop.set()
    assert rc == 0, s.proc.stderr.read()  # type: ignore[union-attr]
    assert took < 2.0, took
