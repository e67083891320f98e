"""Collections take turns at the job workers, and each has a bounded queue: one tenant's
long queue neither holds every worker while another's job waits behind it nor grows
without end."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager

import psycopg
import pytest

from app.api.shares import Shares
from app.db.sqlfiles import apply_schema_file, queries
from app.errors import Throttled
from app.jobs.store import NewItem, create_job
from app.jobs.worker import JobPassed, JobStopped, JobWorkers, RunningJob
from conftest import settings_for_tests

SERVICE_ENV = {"RAG_EMBEDDER": "none", "RAG_JOB_WORKERS": "0",
               "RAG_MAX_JOBS_PER_COLLECTION": "2"}  # fmt: skip
LEASE = 30


@pytest.fixture
def queue(db_url: str) -> Iterator[psycopg.Connection]:
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("DELETE FROM rag.jobs")
        yield conn
        conn.execute("DELETE FROM rag.jobs")


def _collection(conn: psycopg.Connection, name: str) -> int:
    row = conn.execute("SELECT id FROM rag.collections WHERE name = %s", (name,)).fetchone()
    if row is None:
        row = conn.execute("SELECT (api.create_collection(%s)).id", (name,)).fetchone()
    assert row is not None
    return int(row[0])


def _queued(conn: psycopg.Connection, collection: int | None, kind: str = "ingest") -> int:
    row = conn.execute(
        "INSERT INTO rag.jobs (kind, collection_id) VALUES (%s, %s) RETURNING id",
        (kind, collection),
    ).fetchone()
    assert row is not None
    return int(row[0])


def _claim(conn: psycopg.Connection, worker: str) -> int | None:
    params = {"worker": worker, "lease": LEASE, "passing": None}
    row = conn.execute(queries("jobs").claim_job, params).fetchone()
    return None if row is None else int(row[0])


def _finish(conn: psycopg.Connection, job: int) -> None:
    conn.execute("UPDATE rag.jobs SET status = 'done', lease_until = NULL WHERE id = %s", (job,))


def test_a_job_of_another_collection_runs_before_a_long_queue_goes_on(queue):
    """Before, the oldest job went first: b's one job waited for all of a's."""
    a, b = _collection(queue, "turns_a"), _collection(queue, "turns_b")
    a_jobs = [_queued(queue, a) for _ in range(4)]
    b_job = _queued(queue, b)
    assert _claim(queue, "w1") == a_jobs[0]
    assert _claim(queue, "w2") == b_job  # a has one running: b's goes first
    _finish(queue, b_job)
    assert _claim(queue, "w2") == a_jobs[1]  # b has none waiting: a's next, in order
    _finish(queue, a_jobs[0])
    assert _claim(queue, "w1") == a_jobs[2]


def test_collections_alternate_while_both_have_jobs_waiting(queue):
    a, b, c = (_collection(queue, f"turns_{n}") for n in "abc")
    jobs = {n: [_queued(queue, collection) for _ in range(3)]
            for n, collection in (("a", a), ("b", b))}  # fmt: skip
    reembed = _queued(queue, None, "reembed")
    c_job = _queued(queue, c)
    taken = []
    while (job := _claim(queue, "w")) is not None:
        taken.append(job)
        _finish(queue, job)
    assert taken == [jobs["a"][0], jobs["b"][0], reembed, c_job, jobs["a"][1], jobs["b"][1],
                     jobs["a"][2], jobs["b"][2]]  # fmt: skip


def test_a_job_whose_worker_died_is_taken_again_in_its_turn(queue):
    a, b = _collection(queue, "turns_a"), _collection(queue, "turns_b")
    dead = _queued(queue, a)
    assert _claim(queue, "w1") == dead
    queue.execute("UPDATE rag.jobs SET lease_until = now() - interval '1 s' WHERE id = %s",
                  (dead,))  # fmt: skip
    b_job = _queued(queue, b)
    assert _claim(queue, "w2") == b_job  # none running in either: b was never served
    assert _claim(queue, "w3") == dead
    assert _claim(queue, "w4") is None


def _document(collection: str, doc_id: str) -> dict:
    return {"collection": collection, "doc_id": doc_id, "text": "Some words to keep."}


def test_a_collection_has_a_bounded_queue(client, run_id):
    mine, theirs = f"q{run_id}", f"r{run_id}"
    for name in (mine, theirs):
        assert client.post("/api/rag/collections", json={"name": name}).status_code == 201
    post = lambda doc: client.post("/api/rag/documents", params={"async": "true"}, json=doc)  # noqa: E731
    first = [post(_document(mine, f"d{n}")) for n in range(2)]
    assert [r.status_code for r in first] == [202, 202]
    refused = post(_document(mine, "d2"))
    assert refused.status_code == 429, refused.text
    body = refused.json()
    assert "2 jobs queued or running" in body["error"]
    assert "RAG_MAX_JOBS_PER_COLLECTION" in body["error"]
    assert refused.headers["retry-after"] == "5"
    assert post(_document(theirs, "d0")).status_code == 202  # another's queue is its own
    upload = client.post("/api/rag/documents/upload", files=[("files", ("a.txt", b"words"))],
                         params={"collection": mine, "async": "true"})  # fmt: skip
    assert upload.status_code == 429, upload.text
    client.post(first[0].headers["location"] + "/cancel")
    assert post(_document(mine, "d2")).status_code == 202  # a place is free again
    listed = client.get("/api/rag/jobs", params={"collection": mine}).json()["jobs"]
    assert sorted(job["status"] for job in listed) == ["cancelled", "queued", "queued"]


async def _slow(data: bytes) -> AsyncIterator[bytes]:
    await asyncio.sleep(0.3)  # every request's job is queued but not committed yet
    yield data


async def _queue_at_once(url: str, collection: int, requests: int, most: int) -> list[bool]:
    async def one() -> bool:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            item = NewItem("d", "application/json", 2, _slow(b"{}"))
            try:
                await create_job(conn, "ingest", collection, [item], most_waiting=most)
            except Throttled:
                return False
            return True

    return list(await asyncio.gather(*(one() for _ in range(requests))))


def test_concurrent_requests_cannot_pass_the_queue_bound_together(db_url, queue):
    collection = _collection(queue, "turns_race")
    queued = asyncio.run(_queue_at_once(db_url, collection, requests=8, most=3))
    assert queued.count(True) == 3
    waiting = "SELECT count(*) FROM rag.jobs WHERE collection_id = %s"
    assert queue.execute(waiting, (collection,)).fetchone() == (3,)


async def _a_jobs_connection_waits_for_its_collections_share(url: str, collection: int) -> None:
    shares = Shares(per_key=4, per_collection=1, wait=0.2)

    @asynccontextmanager
    async def connect() -> AsyncIterator[psycopg.AsyncConnection]:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            yield conn

    workers = JobWorkers(settings_for_tests(), connect, {}, shares.for_job)
    job = RunningJob(0, "ingest", collection, None, {}, workers.settings, connect)
    job_connect = await workers._connect_for(job)
    got = asyncio.Event()

    async def job_item() -> None:
        async with job_connect():
            got.set()

    async with shares.hold("tenant-key", "turns_share"):  # a request holds the one slot
        item = asyncio.create_task(job_item())
        await asyncio.sleep(0.5)  # past the requests' wait: the job's waits on
        assert not got.is_set()
        with pytest.raises(Throttled):  # and another request is refused, as before
            async with shares.hold("other-key", "turns_share"):
                pass
    await asyncio.wait_for(item, 5)
    assert got.is_set()
    with pytest.raises(Throttled):  # while the job holds it, a request cannot have it
        async with job_connect(), shares.hold("tenant-key", "turns_share"):
            pass


def test_a_jobs_connections_count_in_its_collections_share(db_url, queue):
    """Before, a job's connection came on top of its collection's share: one job and the
    tenant's own searches held the whole pool, and other tenants got 503."""
    collection = _collection(queue, "turns_share")
    asyncio.run(_a_jobs_connection_waits_for_its_collections_share(db_url, collection))


async def _two_jobs_leave_a_slot_for_searches() -> None:
    shares = Shares(per_key=4, per_collection=2, wait=0.2)
    first_in, release = asyncio.Event(), asyncio.Event()

    async def job(started: asyncio.Event) -> None:
        async with shares.for_job("busy"):
            started.set()
            await release.wait()

    second_in = asyncio.Event()
    first = asyncio.create_task(job(first_in))
    await first_in.wait()
    second = asyncio.create_task(job(second_in))
    await asyncio.sleep(0.3)
    assert not second_in.is_set()  # the collection's jobs have one slot fewer than it
    async with shares.hold("tenant-key", "busy"):  # so a search still has one
        pass
    release.set()
    await asyncio.wait_for(asyncio.gather(first, second), 5)
    assert second_in.is_set()


def test_a_collections_jobs_leave_its_searches_a_slot():
    """With workers as many as a collection's slots, its jobs took them all and its own
    searches got 429 for the whole ingest."""
    asyncio.run(_two_jobs_leave_a_slot_for_searches())


async def _passes(url: str, a: int, b: int) -> None:
    @asynccontextmanager
    async def connect() -> AsyncIterator[psycopg.AsyncConnection]:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            yield conn

    async def run(sql: str, *args: object) -> tuple[object, ...] | None:
        async with connect() as conn:
            cursor = await conn.execute(sql, args)
            return await cursor.fetchone() if cursor.description else None

    workers = JobWorkers(settings_for_tests(), connect, {})
    await run(QUEUE, a)
    job = await workers._claim(workers.name)
    assert job is not None and job.passing is not None
    assert await job.passing() is None  # no other collection's job waits: it keeps its worker
    await run(QUEUE, a)
    assert await job.passing() is None  # nor does its own collection's next job take it
    assert await run(STATE, job.id) == ("running", workers.name, 1)
    await run(QUEUE, b)
    await run("UPDATE rag.jobs SET cancel_requested = true WHERE id = %s", job.id)
    assert await job.passing() is None  # a job whose cancel was asked is not put back
    await run("UPDATE rag.jobs SET cancel_requested = false WHERE id = %s", job.id)
    successor = await job.passing()
    assert successor is not None and successor.collection_id == b
    assert await run(STATE, job.id) == ("queued", None, 1)  # back in the queue
    taken = await workers._claim(workers.name)  # first in its queue again, no new attempt
    assert taken is not None and taken.id == job.id and taken.attempts == 1
    await run(QUEUE, b)  # a and b run one job each; b's second waits
    assert await taken.passing() is None  # b would hold both workers: a keeps its own


async def _gives_way_waiting_for_a_slot(url: str, a: int, b: int) -> None:
    @asynccontextmanager
    async def connect() -> AsyncIterator[psycopg.AsyncConnection]:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            yield conn

    shares = Shares(per_key=4, per_collection=2, wait=0.2)
    settings = settings_for_tests(job_turn_seconds=0.3)
    workers = JobWorkers(settings, connect, {}, shares.for_job)
    async with connect() as conn:
        await conn.execute(QUEUE, (a,))
    job = await workers._claim(workers.name)
    assert job is not None and job.collection_id == a
    async with shares.hold("a-key", "turns_slot_a"), shares.hold("a-key", "turns_slot_a"):
        async with connect() as conn:  # the tenant's writes hold every slot of its collection
            other = await (await conn.execute(QUEUE, (b,))).fetchone()
        with pytest.raises(JobPassed):  # its item waits for a slot: it gives its worker away
            async with asyncio.timeout(10), job.connect():
                pass
    assert job.successor is not None and other is not None and job.successor.id == other[0]
    async with connect() as conn:
        assert await (await conn.execute(STATE, (job.id,))).fetchone() == ("queued", None, 1)


async def _cancelled_waiting_for_a_slot(url: str, a: int) -> None:
    @asynccontextmanager
    async def connect() -> AsyncIterator[psycopg.AsyncConnection]:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            yield conn

    shares = Shares(per_key=4, per_collection=1, wait=0.2)
    workers = JobWorkers(settings_for_tests(job_turn_seconds=0.3), connect, {}, shares.for_job)
    async with connect() as conn:
        await conn.execute(QUEUE, (a,))
    job = await workers._claim(workers.name)
    assert job is not None
    async with shares.hold("a-key", "turns_slot_a"):  # no slot, and no other job waits
        job.cancelled = True  # as its heartbeat reads a cancel
        with pytest.raises(JobStopped):  # it stops there, rather than wait for a slot
            async with asyncio.timeout(10), job.connect():
                pass


def test_a_job_cancelled_while_it_waits_for_a_slot_stops(db_url, queue):
    a = _collection(queue, "turns_slot_a")
    asyncio.run(_cancelled_waiting_for_a_slot(db_url, a))


def test_a_job_waiting_for_its_collections_slot_gives_its_worker_away(db_url, queue):
    """Before, it waited holding its worker as long as the tenant's own requests held every
    slot of its collection: one tenant's writes stalled every worker, and another tenant's
    jobs waited (45 s in a hostile neighbour's run)."""
    a, b = _collection(queue, "turns_slot_a"), _collection(queue, "turns_slot_b")
    asyncio.run(_gives_way_waiting_for_a_slot(db_url, a, b))


QUEUE = "INSERT INTO rag.jobs (kind, collection_id) VALUES ('ingest', %s) RETURNING id"
STATE = "SELECT status, worker, attempts FROM rag.jobs WHERE id = %s"


def test_a_job_passes_its_worker_only_to_another_collections_job_in_turn(db_url, queue):
    a, b = _collection(queue, "turns_a"), _collection(queue, "turns_b")
    asyncio.run(_passes(db_url, a, b))


def test_a_queued_job_cancelled_leaves_no_item_waiting_nor_its_input(client, queue, run_id):
    """As a running job's end does (finish_job); before, a queued job's items stayed queued
    and its uploaded bytes stayed in the database (and a job that passed its turn is a
    queued one)."""
    name = f"c{run_id}"
    assert client.post("/api/rag/collections", json={"name": name}).status_code == 201
    files = [("files", ("a.txt", b"some words")), ("files", ("b.txt", b"more words"))]
    queued = client.post("/api/rag/documents/upload", files=files,
                         params={"collection": name, "async": "true"})  # fmt: skip
    assert queued.status_code == 202, queued.text
    job = int(queued.headers["location"].rsplit("/", 1)[1])
    cancelled = client.post(f"/api/rag/jobs/{job}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["job"]["status"] == "cancelled"
    items = queue.execute("SELECT status FROM rag.job_items WHERE job_id = %s", (job,))
    assert [row[0] for row in items.fetchall()] == ["cancelled", "cancelled"]
    parts = queue.execute("SELECT count(*) FROM rag.job_parts WHERE job_id = %s", (job,))
    assert parts.fetchone() == (0,)


def test_jobs_ended_while_queued_before_lose_their_queued_items_and_input(queue):
    """Migration 0021: a job cancelled while queued before cancel_job ended its items kept
    them queued, and its input, for ever."""
    collection = _collection(queue, "turns_old_cancel")
    ended, waiting = _queued(queue, collection), _queued(queue, collection)
    for job in (ended, waiting):
        queue.execute("INSERT INTO rag.job_items (job_id, ordinal, name, content_type, size)"
                      " VALUES (%s, 0, 'a.txt', 'text/plain', 3)", (job,))  # fmt: skip
        queue.execute("INSERT INTO rag.job_parts (job_id, ordinal, seq, data)"
                      " VALUES (%s, 0, 0, 'abc')", (job,))  # fmt: skip
    queue.execute("UPDATE rag.jobs SET status = 'cancelled' WHERE id = %s", (ended,))
    apply_schema_file(queue, "0021_finished_jobs_input.sql")
    items = "SELECT job_id, status FROM rag.job_items WHERE job_id IN (%s, %s) ORDER BY 1"
    assert queue.execute(items, (ended, waiting)).fetchall() == [
        (ended, "cancelled"), (waiting, "queued")]  # fmt: skip
    parts = "SELECT job_id FROM rag.job_parts WHERE job_id IN (%s, %s)"
    assert queue.execute(parts, (ended, waiting)).fetchall() == [(waiting,)]
