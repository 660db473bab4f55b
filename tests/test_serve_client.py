"""The command line's client path (``--server URL``) against servers that answer wrongly or
not at all: each is one ``error:`` line naming the server, exit status 2, no traceback, and
nothing on stdout. The servers are small fakes on 127.0.0.1 in a thread of this process."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from simulate.cli import _client, main

HEALTH = b'{"status": "ok", "version": "0", "workers": 1}'


def _http(status: str, body: bytes, length: int | None = None,
          ctype: bytes = b"application/json") -> bytes:
    n = len(body) if length is None else length
    return (f"HTTP/1.1 {status}\r\nContent-Length: {n}\r\nConnection: close\r\n".encode()
            + b"Content-Type: " + ctype + b"\r\n\r\n" + body)


class FakeServer:
    """Answers ``GET /api/v1/health`` with ``health`` and every other request with ``answer``
    (raw bytes, then the connection is closed); None: read the request and never answer."""

    def __init__(self, answer: bytes | None, health: bytes | None = _http("200 OK", HEALTH)
                 ) -> None:
        self.answer, self.health = answer, health
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.05)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.stopped = False
        self.held: list[socket.socket] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stopped:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            conn.settimeout(5)
            data = b""
            try:
                while b"\r\n\r\n" not in data:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                head, _, rest = data.partition(b"\r\n\r\n")
                for line in head.lower().split(b"\r\n"):
                    if line.startswith(b"content-length:"):
                        while len(rest) < int(line.split(b":")[1]):  # the whole body read:
                            rest += conn.recv(65536)  # closing on unread bytes resets
            except OSError:
                pass
            out = self.health if data.startswith(b"GET /api/v1/health ") else self.answer
            if out is None:
                self.held.append(conn)  # never answered
                continue
            try:
                conn.sendall(out)
            except OSError:
                pass
            conn.close()

    def close(self) -> None:
        self.stopped = True
        self.thread.join(2)
        self.sock.close()
        for c in self.held:
            c.close()


def fake(answer: bytes | None, **kw: Any) -> Iterator[FakeServer]:
    s = FakeServer(answer, **kw)
    try:
        yield s
    finally:
        s.close()


def _one_error_line(capsys: pytest.CaptureFixture[str], argv: list[str], url: str) -> str:
    assert main([*argv, "--server", url]) == 2
    out, err = capsys.readouterr()
    assert out == "", out
    assert err.startswith("error: ") and err.count("\n") == 1 and url in err, err
    assert "Traceback" not in err
    return err


BAD_ANSWERS = [
    ("an empty document", _http("200 OK", b"{}"), "not the equity document asked for"),
    ("a JSON list", _http("200 OK", b"[1, 2]"), "not the equity document asked for"),
    ("a truncated body", _http("200 OK", b'{"players": [', length=4000), "cut short"),
    ("a non-HTTP banner", b"SSH-2.0-OpenSSH_9.2\r\n", "not HTTP"),
    ("a non-JSON 200", _http("200 OK", b"<html>hello</html>", ctype=b"text/html"),
     "the answer is not JSON"),
    ("a 500 in text", _http("500 Internal Server Error", b"oops", ctype=b"text/plain"),
     "HTTP 500"),
    ("nothing at all", b"", "closed without an answer"),
]


@pytest.mark.parametrize("what,answer,says", BAD_ANSWERS, ids=[b[0] for b in BAD_ANSWERS])
def test_a_bad_answer_is_one_error_line_naming_the_server(
        capsys: pytest.CaptureFixture[str], what: str, answer: bytes, says: str) -> None:
    for s in fake(answer):
        err = _one_error_line(capsys, ["equity", "AhKh", "QsQd"], s.url)
        assert says in err, (what, err)


@pytest.mark.parametrize("argv", [["eval", "AsKsQsJsTs"], ["chart", "--opponents", "1"],
                                  ["range", "QQ+", "--vs", "AKs"],
                                  ["allin", "AhAs:100", "KdKc:60"]])
def test_a_document_of_the_wrong_shape_is_one_error_line(
        capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    for answer in (b"{}", b'{"players": 3, "hands": "x", "chart": 1, "category": []}'):
        for s in fake(_http("200 OK", answer)):
            err = _one_error_line(capsys, argv, s.url)
            assert f"not the {argv[0]} document asked for" in err, err


def test_not_a_pokerjit_server(capsys: pytest.CaptureFixture[str]) -> None:
    for health in (_http("200 OK", b'{"hello": 1}'), _http("404 Not Found", b"no",
                                                          ctype=b"text/plain")):
        for s in fake(_http("200 OK", b"{}"), health=health):
            _one_error_line(capsys, ["eval", "AsKsQsJsTs"], s.url)


def test_a_silent_port_gives_up_at_the_health_check(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that takes the connection and never answers: the client's health check gives
    up within HEALTH_S (about 5 s; 0.5 s here), with one line (it used to wait forever)."""
    assert _client.HEALTH_S <= 5
    monkeypatch.setattr(_client, "HEALTH_S", 0.5)
    for s in fake(None, health=None):
        t0 = time.perf_counter()
        err = _one_error_line(capsys, ["equity", "AhKh", "QsQd"], s.url)
        assert time.perf_counter() - t0 < 2.0
        assert "no answer in 0.5 s" in err, err
