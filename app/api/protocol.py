"""The HTTP protocol the service runs: uvicorn's httptools parser, with TCP_NODELAY and
read timeouts.

With several workers uvicorn hands each worker an already-bound socket, and the
connections it accepts there do not get TCP_NODELAY: every small response then waits
for the peer's delayed ACK (~40 ms). Setting it on each connection fixes that for any
number of workers.

uvicorn waits for a request's head and body as long as the client likes, so a few
hundred clients that stall mid-request hold as many connections forever. Here a request
head must arrive within RAG_HEADER_TIMEOUT seconds of its first byte (or of the
connection, for the first request), and a body may pause at most RAG_BODY_TIMEOUT
seconds between two parts; past either the connection is closed (a request whose body
was being read then ends as a 499, app/api/deps.py). A pause the service causes itself
(it has not read the body yet, and reading is paused) does not count.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.settings import get_settings


class NoDelayHttpToolsProtocol(HttpToolsProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = get_settings()  # uvicorn builds the protocol: the environment's settings
        self.header_timeout = settings.header_timeout
        self.body_timeout = settings.body_timeout
        self._read_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)
        self._expect_data(self.header_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._expect_data(self.header_timeout)

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._expect_data(self.body_timeout)  # until on_message_complete

    def on_body(self, body: bytes) -> None:
        super().on_body(body)
        if not self.cycle.response_complete:  # else the rest is unwanted: keep the clock
            self._expect_data(self.body_timeout)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._stop_timer()

    def _expect_data(self, seconds: float) -> None:
        self._stop_timer()
        self._read_timer = self.loop.call_later(seconds, self._timed_out, seconds)

    def _stop_timer(self) -> None:
        if self._read_timer is not None:
            self._read_timer.cancel()
            self._read_timer = None

    def _timed_out(self, seconds: float) -> None:
        self._read_timer = None
        if self.transport.is_closing():
            return
        if self.flow.read_paused:  # the service is not reading yet: the client waits on it
            self._expect_data(seconds)
            return
        self.transport.close()
