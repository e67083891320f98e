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

from psycopg import AsyncConnection

from app.db import locks
from app.db.sqlfiles import queries
from app.errors import Conflict
from app.settings import Settings

LOCKS_PER_COLLECTION = 16


def collection_limit(settings: Settings, lock_slots: int) -> int:
    """RAG_MAX_COLLECTIONS, or what a lock table of ``lock_slots`` locks allows."""
    return settings.max_collections or max(1, lock_slots // LOCKS_PER_COLLECTION)


def partitions_needed(parts: int) -> int:
    """Partition sets a new collection takes: its own, and one per part of a split one."""
    return 1 + (parts if parts > 1 else 0)


async def ensure_room(conn: AsyncConnection, settings: Settings, parts: int) -> None:
    """Raise 409 unless the database may hold a new collection of ``parts`` parts. Call it
    inside the creating transaction: creations then count one after the other."""
    await conn.execute(queries("collections").serialize_creations, (locks.COLLECTIONS,))
    cursor = await conn.execute(queries("collections").collection_room)
    row = await cursor.fetchone()
    assert row is not None
    held, lock_slots = row
    limit = collection_limit(settings, lock_slots)
    needed = partitions_needed(parts)
    if held + needed > limit:
        raise Conflict(
            f"the database holds {held} collections of the {limit} it may hold (each part of a "
            f"split collection counts; this one needs {needed}): delete one, or raise "
            "RAG_MAX_COLLECTIONS (unset, PostgreSQL's max_locks_per_transaction decides)",
            collections=held, limit=limit,
        )  # fmt: skip
