"""Deleting a collection while a search reads it: when the two lock its partitions in
opposite orders and PostgreSQL undoes the drop (a deadlock), the drop is done again
once the reader is through, and the request succeeds."""

from __future__ import annotations

import threading
import time

import httpx
import psycopg

from helpers import until

NAME = "dropped-under-a-reader"


def _partitions(conn: psycopg.Connection) -> tuple[str, str]:
    """The collection's chunk partition and its default-space vector partition."""
    row = conn.execute(
        "SELECT 'rag.chunks_' || c.id, 'rag.' || api.vector_partition(s.id, c.id) "
        "FROM rag.collections c, rag.spaces s WHERE c.name = %s AND s.name = 'default'",
        (NAME,),
    ).fetchone()
    assert row is not None
    return row[0], row[1]


def _drop_waiting(conn: psycopg.Connection) -> bool:
    row = conn.execute(
        "SELECT count(*) FROM pg_stat_activity "
        "WHERE wait_event_type = 'Lock' AND query LIKE '%%drop_collection%%'"
    ).fetchone()
    return bool(row and row[0])


def test_a_drop_undone_by_a_deadlock_is_done_again(client: httpx.Client, db_url: str) -> None:
    assert client.post("/api/rag/collections", json={"name": NAME}).status_code == 201
    with psycopg.connect(db_url) as reader, psycopg.connect(db_url, autocommit=True) as watch:
        chunks, vectors = _partitions(watch)
        reader.execute(f"SELECT count(*) FROM {chunks}")  # holds the chunks partition
        answer: list[httpx.Response] = []
        dropping = threading.Thread(
            target=lambda: answer.append(client.delete(f"/api/rag/collections/{NAME}"))
        )
        dropping.start()
        until(lambda: _drop_waiting(watch), 10, "the drop waiting for the chunks")
        started = time.monotonic()
        reader.execute(f"SELECT count(*) FROM {vectors}")  # the cycle: the drop is undone
        assert time.monotonic() - started < 10
        reader.commit()
        dropping.join(timeout=30)
    assert answer and answer[0].status_code == 200, answer and answer[0].text
    assert client.get(f"/api/rag/collections/{NAME}").status_code == 404
