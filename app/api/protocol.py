"""The HTTP protocol the service runs: uvicorn's httptools parser, with TCP_NODELAY.

With several workers uvicorn hands each worker an already-bound socket, and the
connections it accepts there do not get TCP_NODELAY: every small response then waits
for the peer's delayed ACK (~40 ms). Setting it on each connection fixes that for any
number of workers.
"""

from __future__ import annotations

import asyncio
import socket

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class NoDelayHttpToolsProtocol(HttpToolsProtocol):
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)
