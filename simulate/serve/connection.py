"""One HTTP connection of ``pokerjit serve``: uvicorn's h11 protocol with two changes.

* **Silence.** A client that owes the server bytes (a request's headers or body begun, or a
  connection opened and nothing sent) and sends nothing for :attr:`Connection.silence_s`
  seconds (the server's ``--max-seconds``) is disconnected: it would otherwise hold its
  connection forever (uvicorn times out only idle kept-alive connections). This happens
  before any check of the request (Host, Origin, token), which needs the headers whole. A
  request that is whole and being worked on owes nothing; nor does a body the server has
  paused reading.
* **Half-close.** A client that sends a whole request and then closes its sending side
  (``shutdown(SHUT_WR)``, ``nc -N``) is answered (uvicorn closes the connection at the
  end of input, as if the client had gone). The server cannot tell that from a client that
  closed the connection altogether, whose work should stop: so it writes one interim
  ``100 Continue`` (which HTTP clients skip), and a socket closed altogether answers it
  with a reset, seen here within :data:`PROBE_S` seconds; the connection is then dropped,
  and the request's work stopped as for any client that goes away.
"""

from __future__ import annotations

import socket
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

PROBE_S = 0.05  # seconds between checks of a half-closed connection's socket


class Connection(H11Protocol):
    """uvicorn's h11 protocol with the silence limit and half-close answering (above)."""

    silence_s = 30.0

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._heard = self.loop.time()
        self._silence = self.loop.call_later(self.silence_s, self._check_silence)

    def data_received(self, data: bytes) -> None:
        self._heard = self.loop.time()
        super().data_received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._silence is not None:
            self._silence.cancel()
            self._silence = None
        super().connection_lost(exc)

    def _owes_bytes(self) -> bool:
        """Whether the client is in the middle of sending (or has not begun) a request."""
        if self.flow.read_paused:
            return False  # the server stopped reading, not the client sending
        return self.conn.their_state in (h11.IDLE, h11.SEND_BODY)

    def _check_silence(self) -> None:
        self._silence = None
        if self.transport.is_closing():
            return
        left = self._heard + self.silence_s - self.loop.time()
        if left <= 0 and self._owes_bytes():
            self.transport.close()  # the request's handler, if any, sees a disconnect
            return
        self._silence = self.loop.call_later(left if left > 0 else self.silence_s,
                                             self._check_silence)

    def eof_received(self) -> bool | None:
        cycle = self.cycle
        if (cycle is None or cycle.response_complete or cycle.response_started
                or self.conn.their_state is not h11.DONE
                or self.conn.our_state is not h11.SEND_RESPONSE):
            return None  # nothing to answer: the transport closes
        cycle.keep_alive = False  # answer this request, then close
        try:
            self.transport.write(self.conn.send(h11.InformationalResponse(
                status_code=100, headers=[], reason=b"Continue")) or b"")
        except h11.LocalProtocolError:
            return None
        self.loop.call_later(PROBE_S, self._probe)
        return True  # keep the sending side open

    def _probe(self) -> None:
        """Drop a half-closed connection whose socket was reset (closed altogether)."""
        cycle = self.cycle
        if self.transport.is_closing() or cycle is None or cycle.response_complete:
            return
        sock = self.transport.get_extra_info("socket")
        try:
            err = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) if sock else 0
        except OSError:
            err = 1
        if err:
            self.transport.abort()
            return
        self.loop.call_later(PROBE_S, self._probe)


def connection_class(silence_s: float) -> type[Connection]:
    """The :class:`Connection` protocol class with ``silence_s`` (uvicorn's ``http=``)."""
    return type("Connection", (Connection,), {"silence_s": float(silence_s)})
