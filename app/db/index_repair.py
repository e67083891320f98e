"""Rebuilding the HNSW indexes an interrupted bulk load left missing.

Whoever notices first rebuilds them: the service's supervisor while it runs, and every
start that prepares the database (``serve``, ``migrate``, ``ingest``). They take one
lock for it, the one a bulk load holds on its collection (app/db/locks.py, BULK), with
``pg_try_advisory_lock``: a collection whose lock is taken is being loaded or repaired by
someone else, and is left to them. Without it two of them built the same index at once,
and one failed on the index name (UniqueViolation).
"""

from __future__ import annotations

import logging

import psycopg

from app.db.locks import BULK
from app.db.sqlfiles import queries

log = logging.getLogger("ragsearch")


def repair_missing_indexes(url: str) -> list[str]:
    """Build each missing HNSW index whose collection no one holds; "space/collection"
    of each one built."""
    q = queries("meta")
    rebuilt = []
    with psycopg.connect(url, autocommit=True) as conn:
        missing = conn.execute(q.missing_indexes, (BULK,)).fetchall()
        for space_id, space, collection_id, collection, loading in missing:
            if loading or not _try_lock(conn, collection_id):
                continue
            name = f"{space}/{collection}"
            try:
                log.warning("HNSW index %s is missing (an interrupted bulk load): rebuilding", name)
                conn.execute(queries("spaces").create_space_index, (space_id, collection_id))
                rebuilt.append(name)
                log.warning("HNSW index %s rebuilt", name)
            finally:
                conn.execute(q.unlock_bulk_load, (BULK, collection_id))
    return rebuilt


def _try_lock(conn: psycopg.Connection, collection_id: int) -> bool:
    row = conn.execute(queries("meta").lock_bulk_load, (BULK, collection_id)).fetchone()
    return bool(row and row[0])
