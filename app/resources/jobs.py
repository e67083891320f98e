"""Queuing inputs as jobs (app/jobs/), from the routes that take them."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from psycopg import AsyncConnection

from app.jobs.store import JSON_DOCUMENT, NewItem, create_job, job_view, single
from app.parts import find_collection


async def queue_ingest(
    request: Request, conn: AsyncConnection, collection: str, items: list[NewItem],
    params: dict[str, Any] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """An ingest job of these items, queued and a worker woken; the job as answered."""
    target = await find_collection(conn, collection)
    most = request.app.state.settings.max_jobs_per_collection
    job = await create_job(conn, "ingest", target.id, items, params, most_waiting=most)
    workers = getattr(request.app.state, "jobs", None)
    if workers is not None:
        workers.notify()
    return await job_view(conn, job, with_items=False)


def document_item(doc_id: str, body: bytes) -> NewItem:
    return NewItem(doc_id, JSON_DOCUMENT, len(body), single(body))
