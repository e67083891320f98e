"""Read replicas (``DATABASE_READ_URLS``): PostgreSQL streaming standbys that serve the
searches and reads, so that adding one adds read capacity.

Reads go round robin to the replicas in rotation; writes, migrations, the MCP server and
any request sent with ``X-Consistency: primary`` (read-your-writes) use the primary.
Every ``RAG_DB_CHECK_INTERVAL`` seconds each replica is asked how far its replay is
behind; one that does not answer, or lags more than ``RAG_MAX_REPLICA_LAG_MS``, leaves the
rotation and comes back once it answers within the limit. With no replica in rotation
reads use the primary. A replica connection is checked as it is lent, so a replica that
went away between checks sends that read to the primary instead of failing it.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import AsyncConnection
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from app.db.pool import configure_connection, connection_kwargs
from app.db.sqlfiles import queries
from app.errors import connection_lost
from app.settings import Settings

log = logging.getLogger("ragsearch")

PRIMARY = "primary"
LEND_TIMEOUT = 1.0  # seconds to get a replica connection before using the primary


def describe(url: str) -> str:
    """Where a database is (host, port, database), never its user or password, whether
    the connection string is a URL or ``key=value`` words, with one host or several."""
    try:
        info = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "a connection string that cannot be read"
    host = info.get("host") or info.get("hostaddr") or "local socket"
    return f"{host}:{info.get('port') or 5432}/{info.get('dbname') or ''}"


@dataclass
class Replica:
    name: str
    url: str
    pool: AsyncConnectionPool
    healthy: bool = False
    lag_ms: float | None = None
    error: str = ""
    stale_pool: bool = False  # its connections died: a new pool when it is back

    def status(self) -> dict[str, Any]:
        return {"name": self.name, "role": "replica", "at": describe(self.url),
                "in_rotation": self.healthy, "lag_ms": self.lag_ms,
                **({"error": self.error} if self.error else {})}  # fmt: skip


class ReplicaSet:
    """The replicas, their health, and which database serves the next read."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.replicas = [
            Replica(f"replica-{n}", url, self._pool(url, f"replica-{n}"))
            for n, url in enumerate(settings.database_read_urls, start=1)
        ]
        self._turn = itertools.count()
        self._task: asyncio.Task[None] | None = None
        self.reads: dict[str, int] = {PRIMARY: 0, **{r.name: 0 for r in self.replicas}}

    def _pool(self, url: str, name: str) -> AsyncConnectionPool:
        return AsyncConnectionPool(
            conninfo=url,
            min_size=1,
            max_size=self.settings.pool_size,
            open=False,
            timeout=LEND_TIMEOUT,
            check=AsyncConnectionPool.check_connection,
            # no warm-up (app/db/pool.py): this pool grows on demand, and a read waiting
            # for its new connection would wait for the warm-up too
            configure=configure_connection,
            kwargs=connection_kwargs(self.settings),
            name=f"ragsearch-{name}",
        )

    async def start(self) -> None:
        for replica in self.replicas:
            await replica.pool.open(wait=False)
        await self.check_all()
        if self.replicas:
            self._task = asyncio.create_task(self._watch(), name="replica-watch")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        for replica in self.replicas:
            await replica.pool.close()

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.settings.db_check_interval)
            await self.check_all()

    async def check_all(self) -> None:
        await asyncio.gather(*(self._check(replica) for replica in self.replicas))

    async def _check(self, replica: Replica) -> None:
        try:
            async with await AsyncConnection.connect(
                replica.url, autocommit=True, connect_timeout=2
            ) as conn:
                cursor = await conn.execute(queries("meta").replica_lag)
                row = await cursor.fetchone()
            replica.lag_ms = float(row[0]) if row and row[0] is not None else 0.0
            replica.error = ""
            if replica.lag_ms > self.settings.max_replica_lag_ms:
                replica.error = f"lags {replica.lag_ms:.0f} ms (RAG_MAX_REPLICA_LAG_MS)"
        except (psycopg.Error, OSError) as error:
            replica.lag_ms, replica.error = None, f"unreachable ({type(error).__name__})"
            replica.stale_pool = True
        if not replica.error and replica.stale_pool:
            await self._renew_pool(replica)
        self._set(replica, not replica.error)

    async def _renew_pool(self, replica: Replica) -> None:
        """A fresh pool for a replica that came back (the old one holds dead connections
        and backs off reconnecting)."""
        old, replica.pool = replica.pool, self._pool(replica.url, replica.name)
        replica.stale_pool = False
        await replica.pool.open(wait=False)
        await old.close(timeout=1)

    def _set(self, replica: Replica, healthy: bool) -> None:
        if healthy != replica.healthy:
            replica.healthy = healthy
            if healthy:
                log.info("%s (%s) is back in rotation", replica.name, describe(replica.url))
            else:
                log.warning("%s (%s) left the rotation: %s", replica.name,
                            describe(replica.url), replica.error)  # fmt: skip

    def _next(self) -> Replica | None:
        healthy = [r for r in self.replicas if r.healthy]
        return healthy[next(self._turn) % len(healthy)] if healthy else None

    @asynccontextmanager
    async def lend(self) -> AsyncIterator[tuple[str, AsyncConnection] | None]:
        """A connection of the next replica in rotation, with its name; None when there
        is none (or it could not lend one: it leaves the rotation, the caller uses the
        primary)."""
        replica = self._next()
        if replica is None:
            yield None
            return
        pool = replica.pool  # the one to give the connection back to, if it is renewed
        try:
            conn = await pool.getconn()
        except (PoolTimeout, psycopg.Error) as error:
            replica.error, replica.stale_pool = f"unreachable ({type(error).__name__})", True
            self._set(replica, False)
            yield None
            return
        try:
            self.reads[replica.name] += 1
            yield replica.name, conn
        except psycopg.OperationalError as error:
            if connection_lost(error):  # the replica failed, not the statement
                replica.error = f"failed during a read ({type(error).__name__})"
                replica.stale_pool = True
                self._set(replica, False)
            raise
        finally:
            await pool.putconn(conn)

    def status(self) -> list[dict[str, Any]]:
        return [replica.status() for replica in self.replicas]
