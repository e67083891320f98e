"""The database as the service sees it: a pool that heals itself.

The supervisor asks the database ``SELECT 1`` every ``RAG_DB_CHECK_INTERVAL`` seconds (at
once after a request saw the connection fail). When it does not answer, the
database is down: every request gets 503 with Retry-After and a message saying so (no
waiting for a pool timeout), the embedded server is started again (PostgreSQL's crash
recovery replays its log; attempts back off up to ``RAG_DB_RESTART_MAX_DELAY``), and
with ``DATABASE_URL`` the watcher keeps trying. Once the database answers, a fresh pool
replaces the one whose connections died with it, and requests are served again.

While up, it holds the service lock (app/db/locks.py) on a connection of its own, and
rebuilds any HNSW index an interrupted bulk load left missing (REPAIR_EVERY checks).
"""

from __future__ import annotations

import asyncio
import logging
import select
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from enum import Enum

import psycopg
from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool, PoolTimeout, TooManyRequests

from app.db.index_repair import repair_missing_indexes
from app.db.locks import SERVICE
from app.db.pool import CONNECT_TIMEOUT_S, create_pool, warm_up_allowance_s
from app.db.runtime import DatabaseRuntime
from app.db.sqlfiles import queries
from app.errors import (
    ConnectionLost,
    connection_lost,
    from_database_error,
)
from app.settings import Settings

log = logging.getLogger("ragsearch")

REPAIR_EVERY = 10  # checks between looks for missing HNSW indexes


class State(Enum):
    UP = "up"
    DOWN = "down"


class DatabaseSupervisor:
    """Owns the runtime (embedded server or DATABASE_URL) and the pool."""

    def __init__(self, settings: Settings, runtime: DatabaseRuntime) -> None:
        self.settings = settings
        self.runtime = runtime
        self.url = ""
        self.pool: AsyncConnectionPool | None = None
        self.state = State.UP
        self.down_since: float | None = None
        self.last_error = ""
        self.outages = 0
        self.alarms = 0  # failures requests reported (each wakes the watcher)
        self._lost = False  # a request lost its connection since the watcher last ran
        self._outage: asyncio.Future[None] | None = None  # done once the database is down
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing: set[asyncio.Task[None]] = set()  # old pools being closed
        self._presence: AsyncConnection | None = None  # holds the service lock
        self._repair: asyncio.Task[None] | None = None
        self.repairs: list[str] = []  # indexes rebuilt, "space/collection"

    async def start(self) -> None:
        self.url = await asyncio.to_thread(self.runtime.start)
        self.pool = create_pool(self.url, self.settings)
        await self.pool.open(wait=True, timeout=30 + warm_up_allowance_s(self.settings))
        await self._announce()
        self._task = asyncio.create_task(self._watch(), name="database-supervisor")

    async def stop(self) -> None:
        for task in (self._task, self._repair):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        if self._presence is not None:
            await self._presence.close()
        if self.pool is not None:
            await self.pool.close()
        await asyncio.to_thread(self.runtime.stop)

    def retry_after(self) -> int:
        return max(1, round(self.settings.db_check_interval * 2))

    def check_up(self) -> None:
        """503 at once while the database is down."""
        if self.state is State.DOWN:
            waited = time.monotonic() - (self.down_since or time.monotonic())
            raise ConnectionLost(
                f"the database is unavailable ({self.last_error}) for {waited:.0f} s; "
                + ("restarting it" if self.runtime.embedded else "reconnecting"),
                retry_after=self.retry_after(),
            )

    def outage(self) -> asyncio.Future[None]:
        """Done as soon as the database is found down (at once while it is): requests that
        wait on a hung database are answered then (app/api/deadline.py)."""
        if self._outage is None:
            self._outage = asyncio.get_running_loop().create_future()
            if self.state is State.DOWN:
                self._outage.set_result(None)
        return self._outage

    def notice_failure(self, lost_connection: bool = False) -> None:
        """A request saw the database fail it (a lost connection, or no connection in
        time): check the database now, and the pool's idle connections after a lost one
        (a busy pool is not a reason to ask each idle connection)."""
        self.alarms += 1
        self._lost = self._lost or lost_connection
        self._wake.set()

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[AsyncConnection]:
        """A pooled connection; driver and pool failures come out as ``RagError``s (a lost
        connection as 503, and the watcher is told)."""
        self.check_up()
        try:
            async with self._lend() as conn:
                yield conn
        except (PoolTimeout, TooManyRequests) as error:
            self.notice_failure()
            raise from_database_error(error) from error
        except psycopg.OperationalError as error:
            if not connection_lost(error):
                raise from_database_error(error) from error
            self.notice_failure(lost_connection=True)
            raise ConnectionLost(
                "the database connection was lost; retry shortly", retry_after=self.retry_after()
            ) from error
        except psycopg.Error as error:
            raise from_database_error(error) from error

    @asynccontextmanager
    async def _lend(self) -> AsyncIterator[AsyncConnection]:
        """A pooled connection that answers. After a restart quicker than the watcher's
        check every connection in the pool is dead: the first dead one found has the pool
        checked and refilled, and the request gets a fresh one. A connection the server
        closed has input waiting (its goodbye, or EOF; one that died silently shows an
        error once TCP keepalives give up on it); only then is it asked (one empty query),
        so a healthy lend costs no round trip. A request whose connection is lost anyway
        has the watcher check the pool."""
        assert self.pool is not None
        for attempt in range(2):
            async with self.pool.connection() as conn:
                if attempt == 1 or not _has_input(conn) or await _answers(conn):
                    yield conn
                    return
            log.warning(
                "a pooled connection was dead (the database restarted): refreshing the pool"
            )
            await self.pool.check()

    async def _alive(self) -> bool:
        try:
            async with await AsyncConnection.connect(
                self.url, autocommit=True, connect_timeout=2
            ) as conn:
                await conn.execute("SELECT 1")
            return True
        except (psycopg.Error, OSError) as error:
            self.last_error = type(error).__name__
            return False

    async def _announce(self) -> None:
        """Hold the service lock on a connection of its own (again, after an outage).
        Not behind a transaction pooler: a session lock would stay on a shared server
        connection (the same goes for the index repair, which locks the collection)."""
        if self.settings.db_transaction_pooler:
            return
        if self._presence is not None:
            await self._presence.close()
        self._presence = await AsyncConnection.connect(
            self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S
        )
        await self._presence.execute(queries("meta").hold_service_lock, (SERVICE,))

    async def _keep_presence(self) -> None:
        """Hold the service lock again if its connection died with a restart too quick
        for the check to see. An idle connection the server has not written to is taken
        for alive without a query, which a hung server would never answer."""
        if self._presence is None or not _has_input(self._presence):
            return
        try:
            await self._presence.execute("SELECT 1")  # an error or EOF, or a notice
        except psycopg.Error:
            log.warning("the database restarted: holding the service lock again")
            with suppress(psycopg.Error):  # else at the next check
                await self._announce()

    async def _watch(self) -> None:
        checks = 0
        while True:
            if (
                checks % REPAIR_EVERY == 0
                and not self.settings.db_transaction_pooler
                and (self._repair is None or self._repair.done())
            ):
                self._repair = asyncio.create_task(self._repair_indexes(), name="index-repair")
            checks += 1
            # asyncio.timeout, not wait_for: Python 3.11's wait_for swallows a cancellation
            # that arrives as the wait ends, and stop() would then wait forever.
            with suppress(TimeoutError):
                async with asyncio.timeout(self.settings.db_check_interval):
                    await self._wake.wait()
            lost, self._lost = self._lost, False
            self._wake.clear()
            if not await self._alive():
                await self._recover()
                checks = 0
            else:
                await self._keep_presence()
                if lost and self.pool is not None:
                    # a request lost its connection while the server answers: others in
                    # the pool may have died the same way (silently, with nothing to read)
                    await self.pool.check()

    async def _repair_indexes(self) -> None:
        """Rebuild the HNSW indexes that are missing and that no one else is building."""
        try:
            self.repairs += await asyncio.to_thread(repair_missing_indexes, self.url)
        except psycopg.Error as error:
            log.warning("could not repair HNSW indexes: %s", type(error).__name__)

    async def _recover(self) -> None:
        self.state = State.DOWN
        if self._outage is not None and not self._outage.done():
            self._outage.set_result(None)
        self.down_since = time.monotonic()
        self.outages += 1
        log.error("database unavailable (%s): recovering", self.last_error)
        delay = self.settings.db_check_interval
        while True:
            if self.runtime.embedded is not None:
                try:
                    self.url = await asyncio.to_thread(self.runtime.restart_embedded)
                except Exception as error:  # the old server may still be shutting down
                    log.warning("embedded PostgreSQL did not start yet: %s", error)
            if await self._alive() and await self._replace_pool():
                await self._announce()
                break
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.settings.db_restart_max_delay)
        log.warning(
            "database available again after %.1f s", time.monotonic() - (self.down_since or 0)
        )
        self.state = State.UP
        self._outage = None
        self.down_since = None

    async def _replace_pool(self) -> bool:
        """A fresh pool (the old one's connections died with the server)."""
        fresh = create_pool(self.url, self.settings)
        try:
            await fresh.open(wait=True, timeout=10 + warm_up_allowance_s(self.settings))
        except PoolTimeout:
            await fresh.close()
            return False
        old, self.pool = self.pool, fresh
        if old is not None:
            closing = asyncio.create_task(old.close(timeout=1))
            self._closing.add(closing)
            closing.add_done_callback(self._closing.discard)
        return True


async def _answers(conn: AsyncConnection) -> bool:
    try:
        await conn.execute("")
    except psycopg.OperationalError:
        return False
    return True


def _has_input(conn: AsyncConnection) -> bool:
    """The server wrote to this idle connection (a closed connection reads as EOF)."""
    return conn.closed or readable(conn.pgconn.socket)


def readable(fd: int) -> bool:
    """Something to read, an error or a hang-up on ``fd``, without waiting (poll, not
    select: a descriptor's number may pass 1,024)."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(0))
