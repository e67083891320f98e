"""A job's texts go to the local model a batch at a time: its progress moves and a cancel
is seen after each batch (before, after ``batch_size`` x ``concurrency`` texts, an
endpoint's setting: 256 texts, 13-34 s on two cores, between a cancel and its effect)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import psycopg
from psycopg import AsyncConnection

from app.db.pool import configure_connection
from app.embed.base import JOB
from app.embed.config import local_default
from app.embed.local import LocalEmbedder
from app.ingest.embed import EmbedCounts, embed_texts


def _default_collection(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT id FROM rag.collections WHERE name = 'default'").fetchone()
    assert row is not None
    return int(row[0])


async def _steps(url: str, texts: int, batch_size: int) -> list[int]:
    @asynccontextmanager
    async def connect() -> AsyncIterator[AsyncConnection]:
        async with await AsyncConnection.connect(url, autocommit=True) as conn:
            await configure_connection(conn)
            yield conn

    config = local_default().model_copy(update={"batch_size": batch_size})
    assert config.concurrency == 4  # the endpoints' default, which the local model ignores
    embedder = LocalEmbedder(config, "minilm", 384)
    await embedder.load()
    collection, run = _default_collection(url), uuid.uuid4().hex
    steps: list[int] = []

    def progress(step: EmbedCounts) -> None:
        steps.append(step.embedded)

    pairs = [(collection, f"note {i} of run {run}") for i in range(texts)]
    await embed_texts(connect, embedder, pairs, JOB, progress)
    return steps


def test_a_job_moves_a_local_batch_at_a_time(db_url):
    assert asyncio.run(_steps(db_url, texts=10, batch_size=4)) == [4, 4, 2]
