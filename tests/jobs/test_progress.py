"""A job's progress counts are written by its worker as it goes; counts whose write failed
are kept for the next write, not lost."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import psycopg
import pytest
from psycopg import AsyncConnection

from app.jobs.worker import RunningJob
from app.settings import Settings


def _job(url: str, job_id: int) -> RunningJob:
    @asynccontextmanager
    async def connect() -> AsyncIterator[AsyncConnection]:
        async with await AsyncConnection.connect(url, autocommit=True) as conn:
            yield conn

    return RunningJob(job_id, "ingest", None, None, {}, Settings(), connect)


def _progress(url: str, job_id: int) -> tuple[int, int, int]:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT chunks_total, chunks_embedded, chunks_cached FROM rag.jobs "
                           "WHERE id = %s", (job_id,)).fetchone()  # fmt: skip
    assert row is not None
    return row


def test_counts_whose_write_failed_are_written_by_the_next_flush(db_url):
    with psycopg.connect(db_url, autocommit=True) as conn:
        job_id = conn.execute("INSERT INTO rag.jobs (kind, params) VALUES ('ingest', '{}') "
                              "RETURNING id").fetchone()[0]  # fmt: skip
    job = _job(db_url, job_id)

    async def run() -> None:
        job.count(total=10, embedded=4, cached=1)
        async with job.connect() as conn:
            await conn.close()
            with pytest.raises(psycopg.OperationalError):
                await job.flush(conn)
        assert _progress(db_url, job_id) == (0, 0, 0)
        job.count(embedded=3)
        async with job.connect() as conn:
            await job.flush(conn)

    asyncio.run(run())
    assert _progress(db_url, job_id) == (10, 7, 1)
