"""Ingest jobs: each item (a document body, or a file) read, split, embedded with a job's
patience, and stored in the transaction that marks it done. An item that fails (a file
that cannot be parsed, an embedder still failing after its retries) fails alone, with
its reason; the others go on."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import AsyncConnection
from psycopg.rows import dict_row

from app.db.sqlfiles import queries
from app.embed.base import JOB
from app.errors import BadRequest, RagError, dropped_while_running
from app.ingest.embed import EmbedCounts, fill_vectors
from app.ingest.files import FileDefaults, file_document
from app.ingest.prepare import PreparedDocument, parse_document, prepare_document
from app.ingest.rules import rules_for
from app.ingest.store import load_spaces, store_documents
from app.jobs.store import JSON_DOCUMENT, item_bytes
from app.jobs.worker import JobPassed, JobStopped, RunningJob, failure_message
from app.spaces import SpaceInfo

log = logging.getLogger("ragsearch")


@dataclass(frozen=True)
class Item:
    ordinal: int
    name: str
    content_type: str
    size: int


async def _item_data(job: RunningJob, item: Item) -> bytes:
    async with job.connect() as conn:
        return await item_bytes(conn, job.id, item.ordinal)


async def _prepared(job: RunningJob, item: Item, spaces: dict[str, SpaceInfo]) -> PreparedDocument:
    settings = job.settings
    rules = rules_for(settings, spaces)
    if item.content_type == JSON_DOCUMENT:
        data = await _item_data(job, item)
        return await asyncio.to_thread(
            lambda: prepare_document(parse_document(data), spaces, rules)
        )
    defaults = FileDefaults.model_validate(job.params.get("defaults") or {})
    limit = 4 * settings.max_document_chars
    if item.content_type != "application/pdf" and item.size > limit:
        raise BadRequest(
            f"{item.name}: {item.size:,} bytes; the text of a document is at most "
            f"{settings.max_document_chars:,} characters (RAG_MAX_DOCUMENT_CHARS)"
        )
    data = await _item_data(job, item)
    return await asyncio.to_thread(
        file_document, data, item.name, item.content_type, defaults, spaces, rules, settings
    )


async def _finish_item(conn: AsyncConnection, job: RunningJob, item: Item, **fields: Any) -> None:
    values = {"job": job.id, "ordinal": item.ordinal, "status": "done", "error": None,
              "doc_id": None, "chunks": None, **fields}  # fmt: skip
    await conn.execute(queries("jobs").item_done, values)


async def _run_item(job: RunningJob, item: Item) -> None:
    """Read, split and embed with a connection taken only for each step that needs one
    (none held while the file is parsed or the embedder works), then store. An item cut
    by its job passing its turn takes back what it counted: it is counted again when the
    job takes it up again. One whose space was dropped under it is run once more, with
    the spaces left (its vectors for them are cached)."""
    try:
        await _counted_attempt(job, item)
    except Exception as failure:
        if not dropped_while_running(failure):
            raise
        log.warning("job %s: item %s met a space dropped while it ran: once more with the "
                    "spaces left", job.id, item.ordinal)  # fmt: skip
        await _counted_attempt(job, item)


async def _counted_attempt(job: RunningJob, item: Item) -> None:
    """The item embedded and stored once; what it counted taken back if it is to run again
    (its job passed its turn, or a space went under it)."""
    counted = {"total": 0, "embedded": 0, "cached": 0}

    def count(**deltas: int) -> None:
        for name, value in deltas.items():
            counted[name] += value
        job.count(**deltas)

    try:
        await _embed_and_store(job, item, count)
    except Exception as failure:
        if isinstance(failure, JobPassed) or dropped_while_running(failure):
            job.count(**{name: -value for name, value in counted.items()})
        raise


async def _embed_and_store(job: RunningJob, item: Item, count: Callable[..., None]) -> None:
    async with job.connect() as conn:
        spaces = await load_spaces(conn)
    prepared = await _prepared(job, item, spaces)
    count(total=len(prepared.chunks))

    def progress(counts: EmbedCounts) -> None:  # counted first: the vectors were made
        count(embedded=counts.embedded, cached=counts.cached)
        job.check()

    await fill_vectors(job.connect, [prepared], spaces, job.settings, JOB, progress)
    job.check()
    async with job.connect() as conn:
        async with conn.transaction():
            await job.hold(conn)
            result = await store_documents(conn, [prepared], spaces)
            await _finish_item(conn, job, item, doc_id=prepared.doc_id, chunks=result.chunks)
        await job.flush(conn)


async def _fail_item(job: RunningJob, item: Item, failure: Exception) -> None:
    if not isinstance(failure, RagError | psycopg.Error):
        log.exception("job %s: item %s failed", job.id, item.ordinal)
    async with job.connect() as conn:
        await _finish_item(conn, job, item, status="failed", error=failure_message(failure))
        await job.flush(conn)


async def run_ingest(job: RunningJob) -> None:
    async with job.connect() as conn, conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(queries("jobs").pending_items, {"job": job.id})
        items = [Item(**row) for row in await cursor.fetchall()]
    for done, item in enumerate(items):
        job.check()
        if done:  # at least one item a turn
            await job.take_turns()
        try:
            await _run_item(job, item)
        except Exception as failure:
            if isinstance(failure, JobStopped | JobPassed) or job.will_resume(failure):
                raise
            await _fail_item(job, item, failure)
