"""The asynchronous connection pool every request goes through."""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
import psycopg
from pgvector.psycopg import register_vector_async
from psycopg import AsyncConnection
from psycopg.types.json import set_json_dumps, set_json_loads
from psycopg_pool import AsyncConnectionPool

from app.db.sqlfiles import queries
from app.search.sqlplan import register_plan_types
from app.settings import Settings

log = logging.getLogger("ragsearch")

CONNECT_TIMEOUT_S = 5


def _dumps(obj: object) -> str:
    return orjson.dumps(obj).decode()


async def configure_connection(conn: AsyncConnection) -> None:
    """Per-connection set-up: binary pgvector adapters, orjson for json/jsonb, the search
    plan's types."""
    await register_vector_async(conn)
    set_json_loads(orjson.loads, conn)
    set_json_dumps(_dumps, conn)
    await register_plan_types(conn)


# How long a new connection's warm-up may take: on a cold cache a first search can be
# slow, and a pool that opens or replaces connections waits for them.
WARM_UP_TIMEOUT_MS = 2_000
POOL_WORKERS = 3  # the pool's connection-opening tasks (psycopg_pool's default)


async def configure_pooled_connection(conn: AsyncConnection) -> None:
    """configure_connection, then the search functions' statements planned on the
    connection before it is lent (api.warm_plans), so that no request pays for them.
    Whatever the warm-up did not reach in WARM_UP_TIMEOUT_MS, or could not search (an
    older schema, a search that fails), is left to the first search, as before."""
    await configure_connection(conn)
    q = queries("meta")
    try:
        async with conn.transaction():
            await conn.execute(q.local_statement_timeout, (str(WARM_UP_TIMEOUT_MS),))
            await conn.execute(q.warm_plans)
    except (psycopg.errors.UndefinedFunction, psycopg.errors.QueryCanceled) as error:
        # an older schema; a warm-up past its time (a cold cache)
        log.info("a new connection's search plans were left to its first search: %s", error)
    except psycopg.Error as error:
        log.warning("a new connection's search plans were left to its first search: %s", error)


def warms_plans(settings: Settings) -> bool:
    """Whether the pool warms its connections: not behind a transaction pooler, where the
    plans would be made on whichever server connection the pooler picks."""
    return not settings.db_transaction_pooler


def warm_up_allowance_s(settings: Settings) -> float:
    """The most a pool's opening can spend warming its connections (POOL_WORKERS at a
    time, each within WARM_UP_TIMEOUT_MS): what a caller waiting for the pool adds to
    its own timeout."""
    if not warms_plans(settings):
        return 0.0
    return math.ceil(settings.pool_size / POOL_WORKERS) * WARM_UP_TIMEOUT_MS / 1000


def pooled_configure(settings: Settings) -> Callable[[AsyncConnection], Awaitable[None]]:
    """What a pool runs on each connection it opens: the set-up, and the warm-up where
    the pool warms its connections."""
    return configure_pooled_connection if warms_plans(settings) else configure_connection


# TCP keepalives on a pooled connection (libpq's; ignored on a Unix socket): one whose
# server vanished without closing it (a host lost, a moved address, an idle flow dropped
# by a firewall) turns readable with an error within about a minute, where the system's
# default waits two hours, so that it is found dead before it is lent.
KEEPALIVES = {"keepalives_idle": 30, "keepalives_interval": 10, "keepalives_count": 3}


def connection_kwargs(settings: Settings) -> dict[str, Any]:
    """How every pooled connection is opened: autocommit, with the statement timeout and
    jit off as startup options. Behind a transaction pooler (RAG_DB_TRANSACTION_POOLER)
    neither startup options nor server-side prepared statements survive from one
    transaction to the next: both are left out (set the timeout on the database role)."""
    timeout = {"connect_timeout": CONNECT_TIMEOUT_S,  # a hung server: give up, retry later
               **KEEPALIVES}  # fmt: skip
    if settings.db_transaction_pooler:
        return {"autocommit": True, "prepare_threshold": None, **timeout}
    options = f"-c statement_timeout={settings.statement_timeout_ms} -c jit=off"
    return {"autocommit": True, "options": options, **timeout}


def create_pool(url: str, settings: Settings) -> AsyncConnectionPool:
    """A fixed-size pool, opened by the caller (``await pool.open(wait=True)``); the
    supervisor asks a connection it lends only when the server has written to it
    (app/db/supervisor.py)."""
    return AsyncConnectionPool(
        conninfo=url,
        min_size=settings.pool_size,
        max_size=settings.pool_size,
        open=False,
        timeout=settings.pool_timeout,
        max_waiting=settings.pool_size * 50,
        configure=pooled_configure(settings),
        kwargs=connection_kwargs(settings),
        name="ragsearch",
        num_workers=POOL_WORKERS,
    )
