"""HNSW indexes around a bulk load.

Inserting into an HNSW graph row by row is the slow part of a load, so when a file
brings more vectors than a space holds in its collection (``--rebuild-index auto``), that
index is dropped before the load and built once after it, with a progress bar. A space
whose vectors the load makes (it has an embedder) gets one for every chunk of the file;
another space, those the file carries. It is
never dropped under a running service when the collection already holds chunks: searches
there would scan until the end of the load (a service announces itself with the service
lock, app/db/locks.py). A load killed between the drop and the build leaves the index
missing; the service rebuilds it (app/db/supervisor.py), and so does ``ragsearch
migrate``.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import orjson
from psycopg import AsyncConnection
from tqdm import tqdm

from app.db.locks import SERVICE
from app.db.sqlfiles import queries

RebuildMode = Literal["auto", "always", "never"]


@dataclass(frozen=True)
class FileShape:
    """What a file will bring, judged from its size and its first document."""

    collection: str
    vectors: dict[str, int]  # per space, carried by the file
    chunks: int  # in all

    def expected(self, space: str, embedded: bool) -> int:
        """About how many vectors the load brings to a space (`embedded`: the load
        embeds every chunk that carries none)."""
        return self.chunks if embedded else self.vectors.get(space, 0)


def _vectors_carried(chunks: list[object], default_space: str) -> dict[str, int]:
    per_space: dict[str, int] = {}
    for chunk in chunks:
        if not isinstance(chunk, dict):
            continue
        named = set(chunk.get("embeddings") or {})
        if chunk.get("embedding") is not None:
            named.add(default_space)
        for space in named:
            per_space[space] = per_space.get(space, 0) + 1
    return per_space


def file_shape(path: Path, default_space: str, chunk_chars: int) -> FileShape | None:
    """Judged from the first line: its chunks, or its text split about every
    `chunk_chars` characters."""
    with path.open("rb") as handle:
        first = handle.readline()
    try:
        doc = orjson.loads(first)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(doc, dict):
        return None
    chunks, text = doc.get("chunks"), doc.get("text")
    if isinstance(chunks, list) and chunks:
        per_space, count = _vectors_carried(chunks, default_space), len(chunks)
    elif isinstance(text, str) and text:
        per_space, count = {}, 1 + len(text) // chunk_chars
    else:
        return None
    scale = path.stat().st_size / len(first)
    return FileShape(
        collection=str(doc.get("collection") or "default"),
        vectors={space: int(n * scale) for space, n in per_space.items()},
        chunks=int(count * scale),
    )


@dataclass(frozen=True)
class IndexTarget:
    """The HNSW index of one space in one collection."""

    space_id: int
    space: str
    collection_id: int
    collection: str

    def __str__(self) -> str:
        return f"{self.space}/{self.collection}"


@dataclass
class IndexPlan:
    rebuild: list[IndexTarget]
    kept: list[IndexTarget]  # left in place because a service searches the collection


async def _service_running(conn: AsyncConnection) -> bool:
    cursor = await conn.execute(queries("meta").service_is_running, (SERVICE,))
    running = bool((await cursor.fetchone() or (False,))[0])
    if not running:
        await conn.execute(queries("meta").release_service_lock, (SERVICE,))
    return running


async def plan_indexes(
    conn: AsyncConnection, shape: FileShape | None, mode: RebuildMode, embedded: set[str]
) -> IndexPlan:
    """The indexes to drop before the load and build after it (see the module text);
    `embedded`: the spaces whose vectors the load makes."""
    if mode == "never" or shape is None:
        return IndexPlan([], [])
    cursor = await conn.execute(queries("spaces").space_vector_count, {"name": shape.collection})
    existing = [(IndexTarget(*row[:4]), max(int(row[4]), 0)) for row in await cursor.fetchall()]
    wanted = [
        target for target, count in existing
        if mode == "always" or shape.expected(target.space, target.space in embedded) > count
    ]  # fmt: skip
    if not wanted or not await _service_running(conn):
        return IndexPlan(wanted, [])
    cursor = await conn.execute(queries("meta").partition_has_vectors, (wanted[0].collection_id,))
    if (await cursor.fetchone() or (False,))[0]:
        return IndexPlan([], wanted)
    return IndexPlan(wanted, [])


async def drop_indexes(conn: AsyncConnection, targets: list[IndexTarget]) -> None:
    for target in targets:
        await conn.execute(
            queries("spaces").drop_space_index, (target.space_id, target.collection_id)
        )


async def _watch_build(url: str, pid: int, target: IndexTarget, bar: tqdm) -> None:
    """The build's progress, every half second: of the build's own backend, or on a Citus
    cluster of the workers' builds of the partition's shards."""
    async with await AsyncConnection.connect(url, autocommit=True) as watcher:
        cursor = await watcher.execute(queries("spaces").distributed)
        distributed = bool((await cursor.fetchone() or (False,))[0])
        while True:
            if distributed:
                cursor = await watcher.execute(
                    queries("spaces").cluster_index_build_progress,
                    (target.space_id, target.collection_id),
                )
            else:
                cursor = await watcher.execute(queries("spaces").index_build_progress, (pid,))
            row = await cursor.fetchone()
            if row and row[0]:
                phase, done, total = row
                bar.total = total or bar.total
                bar.n = done or 0
                bar.set_postfix_str(phase, refresh=True)
            await asyncio.sleep(0.5)


async def _build(conn: AsyncConnection, url: str, target: IndexTarget) -> None:
    with tqdm(desc=f"index {target}", unit="vec", file=sys.stderr) as bar:
        watcher = asyncio.create_task(_watch_build(url, conn.info.backend_pid, target, bar))
        try:
            await conn.execute(
                queries("spaces").create_space_index, (target.space_id, target.collection_id)
            )
        finally:
            watcher.cancel()


async def build_indexes(
    conn: AsyncConnection, url: str, targets: list[IndexTarget],
    connect: Callable[[], AbstractAsyncContextManager[AsyncConnection]] | None = None,
) -> None:  # fmt: skip
    """Build each HNSW index, with a progress bar per index. With ``connect`` (a
    connection like ``conn``) and indexes in several collections (a split collection's
    parts, on a cluster each on its worker), each collection's are built on a connection
    of their own, at once."""
    by_collection: dict[int, list[IndexTarget]] = {}
    for target in targets:
        by_collection.setdefault(target.collection_id, []).append(target)
    if connect is None or len(by_collection) < 2:
        for target in targets:
            await _build(conn, url, target)
        return

    async def build_group(group: list[IndexTarget]) -> None:
        async with connect() as own:
            for target in group:
                await _build(own, url, target)

    await asyncio.gather(*(build_group(group) for group in by_collection.values()))
