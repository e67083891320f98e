"""How work that takes connections as it goes is handed them: a ``Connect`` opens one for
a block. Work that waits on something other than the database between its statements (an
embedder's answer, a file parsed) takes a connection for each step rather than holding one
through the wait, so the pool serves others meanwhile."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from psycopg import AsyncConnection

Connect = Callable[[], AbstractAsyncContextManager[AsyncConnection]]


def reusing(conn: AsyncConnection) -> Connect:
    """A Connect that hands out ``conn`` each time (a caller with a connection of its own,
    outside the pool: the command-line loads)."""

    @asynccontextmanager
    async def connect() -> AsyncIterator[AsyncConnection]:
        yield conn

    return connect
