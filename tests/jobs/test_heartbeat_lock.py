"""A job's heartbeat never waits on its job's row: while an item is being stored (its
transaction holds the row and renews the lease itself) the heartbeat skips its beat and
gives its connection back at once. (It waited for the row holding a pool connection: two
jobs storing large items took a pool of two, and another tenant's search got 503.)"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import psycopg
import pytest

from app.jobs.worker import JobStopped, JobWorkers
from conftest import PgServer, ServiceProcess, settings_for_tests
from helpers import until
from remote_space import remote_space_service

COLLECTIONS = ("a", "b")


@pytest.fixture(scope="module")
def service(
    pg: PgServer, template_db: str, hash_endpoint: str
) -> Iterator[tuple[ServiceProcess, str]]:
    env = {"RAG_POOL_SIZE": "2", "RAG_POOL_TIMEOUT": "1", "RAG_COLLECTION_CONCURRENCY": "2",
           "RAG_JOB_WORKERS": "2"}  # fmt: skip
    with remote_space_service(pg, hash_endpoint, env, (*COLLECTIONS, "reader")) as held:
        doc = _document("reader", "r-1")
        assert httpx.post(f"{held[0].base_url}/api/rag/documents", json=doc).status_code == 200
        yield held


def _document(collection: str, doc_id: str) -> dict[str, Any]:
    return {"doc_id": doc_id, "collection": collection, "text": f"The text of {doc_id}."}


def _running(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT count(*) FROM rag.jobs WHERE status = 'running'").fetchone()
    return int(row[0]) if row else 0


def test_a_search_answers_while_the_jobs_rows_are_held(service, endpoint_control):
    (process, url), control = service, endpoint_control
    control.post("/faults", json=["hold", "hold"])
    client = httpx.Client(base_url=process.base_url, timeout=30)
    jobs = []
    for name in COLLECTIONS:
        r = client.post("/api/rag/documents?async=true", json=_document(name, f"{name}-1"))
        assert r.status_code == 202, r.text
        jobs.append(r.headers["location"])
    until(lambda: control.get("/stats").json()["held"] == 2, 30, "both jobs wait to embed")
    assert _running(url) == 2

    with psycopg.connect(url) as holder:  # as two items being stored hold them
        holder.execute("SELECT id FROM rag.jobs WHERE status = 'running' FOR UPDATE")
        for _ in range(3):
            time.sleep(1.5)  # each heartbeat beats every second
            search = {"query_embedding": [0.5] * 8, "collection": "reader", "top_k": 3}
            found = client.post("/api/rag/search/space/remote", json=search)
            assert found.status_code == 200, found.text
            assert [row["doc_id"] for row in found.json()["results"]] == ["r-1"]
        holder.rollback()
    said = process.log()
    assert "cannot renew" not in said and "database unavailable" not in said  # a skip, no error

    control.post("/release")
    for location in jobs:
        until(lambda at=location: client.get(at).json()["job"]["status"] == "done", 30, "done")
        assert client.get(location).json()["job"]["attempts"] == 1


async def _held_by_an_item(url: str) -> tuple[object, ...] | None:
    @asynccontextmanager
    async def connect() -> AsyncIterator[psycopg.AsyncConnection]:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            yield conn

    workers = JobWorkers(settings_for_tests(job_lease_seconds=600), connect, {})
    async with connect() as conn:
        await conn.execute("DELETE FROM rag.jobs")
        await conn.execute("INSERT INTO rag.jobs (kind) VALUES ('reembed')")
    job = await workers._claim(workers.name)
    assert job is not None
    async with connect() as conn, conn.transaction():
        await conn.execute("UPDATE rag.jobs SET lease_until = now() WHERE id = %s", (job.id,))
        await job.hold(conn)  # as an item being stored does: the lease runs on
        cursor = await conn.execute(LEASE, (job.id,))
        renewed = await cursor.fetchone()
    job.worker = "another"
    async with connect() as conn, conn.transaction():
        with pytest.raises(JobStopped):  # a worker that lost the job stores nothing
            await job.hold(conn)
    return renewed


LEASE = "SELECT lease_until > now() + interval '500 seconds' FROM rag.jobs WHERE id = %s"


def test_an_item_being_stored_renews_its_jobs_lease(db_url):
    assert asyncio.run(_held_by_an_item(db_url)) == (True,)
