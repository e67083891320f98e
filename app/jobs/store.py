"""The job queue's tables: a job, its items (a document or a file each) and their input
in parts of at most ``PART_BYTES``, written as it is read (never held whole)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection
from dataclasses import dataclass
from typing import Any

from psycopg import AsyncConnection
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from app.db.sqlfiles import queries
from app.errors import NotFound, Throttled

PART_BYTES = 1 << 20
JSON_DOCUMENT = "application/json"  # an item that is a document body
ITEMS_SHOWN = 1000


@dataclass
class NewItem:
    """One input of a job: its name (a doc_id or file name), type, size and bytes."""

    name: str
    content_type: str
    size: int
    data: AsyncIterator[bytes]


async def single(data: bytes) -> AsyncIterator[bytes]:
    yield data


async def create_job(
    conn: AsyncConnection, kind: str, collection: int | None, items: list[NewItem],
    params: dict[str, Any] | None = None, space: int | None = None,
    most_waiting: int | None = None,
) -> int:  # fmt: skip
    """The job, its items and their input, in one transaction (queued when it commits).
    A collection's job is refused (429) while ``most_waiting`` of its jobs are queued or
    running: a tenant's queue is bounded, whatever it sends."""
    q = queries("jobs")
    bound = None if collection is None or most_waiting is None else (collection, most_waiting)
    if bound:
        await _check_room(conn, *bound, queued=False)
    async with conn.transaction():
        cursor = await conn.execute(q.create_job, {
            "kind": kind, "collection": collection, "space": space,
            "params": Jsonb(params or {}), "items": len(items)})  # fmt: skip
        row = await cursor.fetchone()
        assert row is not None
        job = int(row[0])
        for ordinal, item in enumerate(items):
            await conn.execute(q.create_item, {
                "job": job, "ordinal": ordinal, "name": item.name,
                "content_type": item.content_type, "size": item.size})  # fmt: skip
        async with conn.cursor() as cursor, cursor.copy(q.copy_parts) as copy:
            copy.set_types(["int8", "int4", "int4", "bytea"])
            for ordinal, item in enumerate(items):
                seq = 0
                async for piece in _pieces(item.data):
                    await copy.write_row((job, ordinal, seq, piece))
                    seq += 1
        if bound:
            await _check_room(conn, *bound, queued=True)
    return job


async def _check_room(conn: AsyncConnection, collection: int, most: int, *, queued: bool) -> None:
    """Refused (429) if the collection has ``most`` jobs waiting: checked before the
    input is read (cheap, early) and last in the job's transaction (``queued``: the job
    counts itself), where the queue's lock, held until commit, makes it exact."""
    q = queries("jobs")
    if queued:
        await conn.execute(q.hold_queue, {"collection": collection})
    cursor = await conn.execute(q.jobs_waiting, {"collection": collection})
    row = await cursor.fetchone()
    if row is not None and row[0] - int(queued) >= most:
        raise Throttled(
            f"this collection has {most} jobs queued or running already "
            "(RAG_MAX_JOBS_PER_COLLECTION); retry when one has finished",
            limit=most, setting="RAG_MAX_JOBS_PER_COLLECTION", retry_after=5,
        )  # fmt: skip


async def _pieces(data: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """The input in pieces of at most PART_BYTES."""
    buffer = bytearray()
    async for chunk in data:
        buffer += chunk
        while len(buffer) >= PART_BYTES:
            yield bytes(buffer[:PART_BYTES])
            del buffer[:PART_BYTES]
    if buffer:
        yield bytes(buffer)


async def item_bytes(conn: AsyncConnection, job: int, ordinal: int) -> bytes:
    cursor = await conn.execute(queries("jobs").item_parts, {"job": job, "ordinal": ordinal})
    return b"".join(bytes(row[0]) for row in await cursor.fetchall())


def _iso(value: Any) -> Any:
    return value.isoformat() if hasattr(value, "isoformat") else value


async def job_view(conn: AsyncConnection, job: int, with_items: bool = True) -> dict[str, Any]:
    """A job as answered: its state, progress and (first ITEMS_SHOWN) items."""
    q = queries("jobs")
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(q.get_job, {"job": job})
        row = await cursor.fetchone()
        if row is None:
            raise NotFound(f"no job {job}", job=job)
        items = []
        if with_items:
            await cursor.execute(q.job_items, {"job": job, "limit": ITEMS_SHOWN})
            items = [{k: _iso(v) for k, v in item.items()} for item in await cursor.fetchall()]
    view = {k: _iso(v) for k, v in row.items()}
    progress = {
        "items": {"total": view.pop("items_total"), "done": view.pop("items_done"),
                  "failed": view.pop("items_failed")},
        "chunks": {"total": view.pop("chunks_total"), "embedded": view.pop("chunks_embedded"),
                   "cached": view.pop("chunks_cached"), "stored": view.pop("chunks_stored")},
    }  # fmt: skip
    return {**view, "progress": progress, **({"items": items} if with_items else {})}


async def cancel_job(conn: AsyncConnection, job: int) -> None:
    cursor = await conn.execute(queries("jobs").cancel_job, {"job": job})
    await cursor.fetchone()


async def list_jobs(
    conn: AsyncConnection,
    collection: str | None,
    status: str | None,
    limit: int,
    allowed: Collection[str] | None = None,
) -> list[dict[str, Any]]:
    """The newest jobs, of the ``allowed`` collections only when given (no re-embed)."""
    visible = None if allowed is None else sorted(allowed)
    wanted = {"collection": collection, "status": status, "limit": limit, "allowed": visible}
    cursor = await conn.execute(queries("jobs").list_jobs, wanted)
    return [await job_view(conn, row[0], with_items=False) for row in await cursor.fetchall()]
