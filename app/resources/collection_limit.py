"""How many collections a database may hold.

Every collection is a partition of each per-chunk table, and a statement over every
collection locks each of those partitions with its indexes: measured with 400
collections, a read of every chunk takes 13 locks a collection, dropping a space 10,
registering one 7. PostgreSQL keeps all locks in one table shared by every connection,
sized for about max_locks_per_transaction x (max_connections +
max_prepared_transactions) of them; a statement that finds it full fails ("out of shared
memory"), and so do the searches that need a lock at that moment. Past what the table
holds, registering or dropping a space fails, with the searches beside it. A collection
counts for 16 locks, so that the widest of those statements leaves room for the rest.
"""

from __future__ import annotations

import logging

from psycopg import AsyncConnection
from psycopg.errors import LockNotAvailable

from app.db import locks
from app.db.sqlfiles import queries
from app.errors import Conflict, Unavailable
from app.settings import Settings

log = logging.getLogger("ragsearch")

LOCKS_PER_COLLECTION = 16
PARTITIONS_WAIT_MS = 10_000


def collection_limit(settings: Settings, lock_slots: int, shards: int = 1) -> int:
    """RAG_MAX_COLLECTIONS, or what a lock table of ``lock_slots`` locks allows when each
    partition is split into ``shards`` shards (on Citus: each on its worker, whose lock
    table is taken to be the coordinator's size; all of them may be on one)."""
    per_collection = LOCKS_PER_COLLECTION * max(1, shards)
    return settings.max_collections or max(1, lock_slots // per_collection)


def partitions_needed(parts: int) -> int:
    """Partition sets a new collection takes: its own, and one per part of a split one."""
    return 1 + (parts if parts > 1 else 0)


async def change_partitions(conn: AsyncConnection, wait_ms: int = PARTITIONS_WAIT_MS) -> None:
    """Wait for any other change to which partitions exist (up to ``wait_ms``, 0: within
    the statement timeout; registering a space over thousands of collections takes a
    minute), and hold off the next ones until this transaction ends (app/db/locks.py
    PARTITIONS)."""
    q = queries("collections")
    row = await (await conn.execute(q.partitions_wait, (str(wait_ms),))).fetchone()
    assert row is not None
    try:
        await conn.execute(q.partitions_change, (locks.PARTITIONS,))
    except LockNotAvailable:
        raise Unavailable("another change to the collections or spaces is under way; retry "
                          "shortly", retry_after=5) from None  # fmt: skip
    await conn.execute(q.partitions_wait, (row[0],))  # the change's own statements as before


async def ensure_room(conn: AsyncConnection, settings: Settings, name: str, parts: int) -> None:
    """Raise 409 unless the database may hold a new collection of ``parts`` parts (a taken
    name is left to the insert's own 409). Call it inside the creating transaction."""
    await change_partitions(conn)
    cursor = await conn.execute(queries("collections").collection_room, (name,))
    row = await cursor.fetchone()
    assert row is not None
    held, taken, shards, lock_slots = row
    limit = collection_limit(settings, lock_slots, shards)
    needed = partitions_needed(parts)
    if taken or held + needed <= limit:
        return
    log.warning("collection limit reached: %s of %s (%s); raise max_locks_per_transaction "
                "with it", held, limit, "RAG_MAX_COLLECTIONS" if settings.max_collections
                else "RAG_MAX_COLLECTIONS unset: the lock table / 16")  # fmt: skip
    raise Conflict(
        f"the database holds as many collections as it may: {held} of {limit}, each part of "
        f"a split collection counting (this one needs {needed}); delete one, or have the "
        "service's limit raised",
        collections=held, limit=limit,
    )  # fmt: skip
