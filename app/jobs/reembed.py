"""Re-embed jobs: every chunk of every collection embedded by the space's next embedder into a
shadow table, a collection at a time in chunk order (a resumed job starts after the last
chunk it stored; what it had embedded is in the cache), the shadow's indexes built, the
chunks stored meanwhile caught up, then, with every collection's writers held, the last ones
and the switch: the space's searches use the new vectors from that commit on."""

from __future__ import annotations

from typing import Any

import numpy as np
from psycopg import AsyncConnection, sql
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from app.db.connect import reusing
from app.db.sqlfiles import queries
from app.embed.base import JOB, Embedder
from app.embed.config import EmbedderConfig
from app.embedders import embedders_of
from app.ingest.embed import EmbedCounts, embed_texts, input_text
from app.jobs.worker import JobStopped, RunningJob
from app.resources.collection_limit import change_partitions
from app.spaces import SpaceInfo

BATCH = 512


def shadow(space_id: int) -> sql.Identifier:
    return sql.Identifier("rag", f"vectors_{space_id}_next")


def _q(name: str, space_id: int) -> sql.Composed:
    return sql.SQL(getattr(queries("reembed"), name)).format(table=shadow(space_id))


async def _space(conn: AsyncConnection, job: RunningJob) -> dict[str, Any]:
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute("SELECT id, name, embedder_next FROM rag.spaces WHERE id = %s",
                             (job.space_id,))  # fmt: skip
        row = await cursor.fetchone()
    if row is None or row["embedder_next"] is None:
        raise JobStopped()
    return row


async def _store(
    conn: AsyncConnection, job: RunningJob, embedder: Embedder, rows: list[dict[str, Any]]
) -> None:
    """Embed these chunks (the cache first) and copy their vectors into the shadow."""
    config = embedder.config
    texts = [(r["scope"], input_text(config, r["title"], r["heading_path"], r["chunk"]))
             for r in rows]  # fmt: skip

    def progress(counts: EmbedCounts) -> None:  # counted first: the vectors were made
        job.count(embedded=counts.embedded, cached=counts.cached)
        job.check()

    vectors = await embed_texts(reusing(conn), embedder, texts, JOB, progress)
    assert job.space_id is not None
    async with conn.cursor() as cursor, cursor.copy(_q("copy_shadow", job.space_id)) as copy:
        copy.set_types(["int4", "int8", "vector"])
        for row, vector in zip(rows, vectors, strict=True):
            await copy.write_row((row["collection_id"], row["id"], np.asarray(vector)))
    job.count(total=len(rows), stored=len(rows))


async def _next_collection(conn: AsyncConnection, space: int, after: int) -> int | None:
    """The next collection with a partition of the shadow."""
    arguments = {"after": after, "space": space}
    cursor = await conn.execute(queries("reembed").next_collection, arguments)
    row = await cursor.fetchone()
    return None if row is None or row[0] is None else int(row[0])


async def _resume_point(conn: AsyncConnection, space_id: int) -> tuple[int | None, int]:
    """The collection the fill is in and the last chunk it stored there (none yet: the
    first collection, from its first chunk)."""
    started = await (await conn.execute(_q("shadow_started", space_id))).fetchone()
    if started is not None and started[0]:  # each collection asked, the last first
        found = await conn.execute(queries("reembed").collections_down, {"space": space_id})
        for (collection,) in await found.fetchall():
            cursor = await conn.execute(_q("shadow_last_of", space_id), {"collection": collection})
            last = await cursor.fetchone()
            if last is not None and last[0] is not None:
                return int(collection), int(last[0])
    return await _next_collection(conn, space_id, 0), 0


async def _batch(
    conn: AsyncConnection, space: int, collection: int | None, last: int
) -> tuple[list[dict[str, Any]], int | None, int]:
    """Up to BATCH chunks in (collection, chunk) order, read a collection at a time, and
    where the next batch starts."""
    rows: list[dict[str, Any]] = []
    while collection is not None and len(rows) < BATCH:
        async with conn.cursor(row_factory=dict_row) as cursor:
            await cursor.execute(queries("reembed").chunks_after, {
                "collection": collection, "after": last, "limit": BATCH - len(rows)})  # fmt: skip
            found = await cursor.fetchall()
        rows += found
        if len(rows) < BATCH:  # this collection is done
            collection, last = await _next_collection(conn, space, collection), 0
        else:
            last = found[-1]["id"]
    return rows, collection, last


async def _fill(conn: AsyncConnection, job: RunningJob, embedder: Embedder) -> None:
    assert job.space_id is not None
    collection, last = await _resume_point(conn, job.space_id)
    while True:
        job.check()
        rows, collection, last = await _batch(conn, job.space_id, collection, last)
        if not rows:
            return
        await _store(conn, job, embedder, rows)
        await job.flush(conn)


async def _catch_up(conn: AsyncConnection, job: RunningJob, embedder: Embedder) -> None:
    """The chunks stored while the job ran (the shadow has no vector for them)."""
    assert job.space_id is not None
    while True:
        async with conn.cursor(row_factory=dict_row) as cursor:
            await cursor.execute(_q("chunks_missing", job.space_id), {"limit": BATCH})
            rows = await cursor.fetchall()
        if not rows:
            return
        await _store(conn, job, embedder, rows)


async def _switch(conn: AsyncConnection, job: RunningJob, embedder: Embedder) -> None:
    q, q_meta = queries("reembed"), queries("meta")
    dims, space = embedder.dims, job.space_id
    assert space is not None
    config = embedder.config
    async with conn.transaction():
        await job.hold(conn)
        # the shadow's partitions become the space's: no collection made or dropped meanwhile
        # (a space's registration may take a minute: the wait has no statement timeout)
        before = await (await conn.execute(q_meta.no_statement_timeout)).fetchone()
        assert before is not None
        await change_partitions(conn, wait_ms=0)
        await conn.execute(q_meta.local_statement_timeout, (before[0],))
        await conn.execute(q.lock_collections)
        await conn.execute(q.index_shadow, {"space": space, "dims": dims})  # new collections
        await _catch_up(conn, job, embedder)
        await conn.execute(_q("shadow_orphans", space))
        await conn.execute(q.switch_to_shadow, {
            "space": space, "dims": dims, "embedder": Jsonb(config.stored()),
            "model": config.model_name})  # fmt: skip


async def run_reembed(job: RunningJob) -> None:
    assert job.space_id is not None
    dims = int(job.params["dims"])
    async with job.connect() as conn:
        space = await _space(conn, job)
        config = EmbedderConfig.model_validate(space["embedder_next"])
        target = SpaceInfo(space["id"], space["name"], dims)  # re-embedding is dense only
        embedder = embedders_of(job.settings).made(config, target)
        try:
            await _fill(conn, job, embedder)
            await conn.execute(queries("reembed").index_shadow, {"space": job.space_id,
                                                                  "dims": dims})  # fmt: skip
            await _catch_up(conn, job, embedder)
            await _switch(conn, job, embedder)
        except Exception as failure:
            # cancelled or failed: the space stays as it was; a lost connection or a failure
            # that passes: the job is taken again when its lease runs out, into its shadow
            if not job.lost and not job.will_resume(failure):
                await conn.execute(queries("reembed").drop_shadow, {"space": job.space_id})
            raise
        await job.flush(conn)
