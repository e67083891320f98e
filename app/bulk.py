"""``ragsearch ingest FILE.jsonl``: bulk loading with COPY, in batched transactions.

Each line is one document in the shape of ``POST /api/rag/documents``, validated by the
same rules. Documents are grouped into transactions of about ``batch_chunks`` chunks.
A bad line stops the load with its line number; the lines before it are stored.

Inserting into an HNSW graph row by row is the slow part of a load, so when a file is
large compared with what a space already holds (``--rebuild-index auto``), the space's
index is dropped before the load and built once at the end, with a progress bar. The
index is rebuilt even when the load stops early; ``ragsearch serve`` and ``migrate``
also rebuild any index an interrupted load left missing.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import BinaryIO, Literal

import orjson
from psycopg import AsyncConnection
from tqdm import tqdm

from app.db.pool import configure_connection
from app.db.runtime import DatabaseRuntime
from app.db.sqlfiles import queries, with_table
from app.errors import RagError
from app.ingest import (
    IngestResult,
    PreparedDocument,
    SpaceInfo,
    load_spaces,
    parse_document,
    prepare_document,
    store_documents,
    utc_now,
)
from app.settings import Settings

# A single document in a file may be longer than an API request allows.
MAX_CHUNKS_PER_FILE_DOCUMENT = 1_000_000

RebuildMode = Literal["auto", "always", "never"]


@contextmanager
def _open(path: Path) -> Iterator[tuple[BinaryIO, int | None]]:
    if str(path) == "-":
        yield sys.stdin.buffer, None
        return
    with path.open("rb") as handle:
        yield handle, path.stat().st_size


def estimate_vectors(path: Path) -> dict[str, int]:
    """Vectors per space the file will bring, from its size and its first document."""
    if str(path) == "-":
        return {}
    with path.open("rb") as handle:
        first = handle.readline()
    try:
        doc = orjson.loads(first)
    except orjson.JSONDecodeError:
        return {}
    chunks = doc.get("chunks") or []
    if not chunks or not first:
        return {}
    per_space: dict[str, int] = {}
    for chunk in chunks:
        for space in (chunk.get("embeddings") or {}).keys() | (
            {"default"} if chunk.get("embedding") else set()
        ):
            per_space[space] = per_space.get(space, 0) + 1
    scale = path.stat().st_size / len(first)
    return {space: int(count * scale) for space, count in per_space.items()}


class BatchWriter:
    """Collects prepared documents and stores them a transaction at a time."""

    def __init__(self, conn: AsyncConnection, spaces: dict[str, SpaceInfo], limit: int) -> None:
        self.conn = conn
        self.spaces = spaces
        self.limit = limit
        self.batch: list[PreparedDocument] = []
        self.doc_ids: set[str] = set()
        self.chunks = 0
        self.total = IngestResult(documents=0, chunks=0, replaced_chunks=0, vectors={})

    async def add(self, doc: PreparedDocument) -> None:
        if doc.doc.doc_id in self.doc_ids or self.chunks + len(doc.chunks) > self.limit:
            await self.flush()
        self.batch.append(doc)
        self.doc_ids.add(doc.doc.doc_id)
        self.chunks += len(doc.chunks)

    async def flush(self) -> None:
        if not self.batch:
            return
        result = await store_documents(self.conn, self.batch, self.spaces)
        self.total.documents += result.documents
        self.total.chunks += result.chunks
        self.total.replaced_chunks += result.replaced_chunks
        for space, count in result.vectors.items():
            self.total.vectors[space] = self.total.vectors.get(space, 0) + count
        self.batch, self.doc_ids, self.chunks = [], set(), 0


async def _load(
    conn: AsyncConnection, path: Path, settings: Settings, batch_chunks: int
) -> tuple[IngestResult, str | None]:
    spaces = await load_spaces(conn)
    writer = BatchWriter(conn, spaces, batch_chunks)
    now = utc_now()
    with (
        _open(path) as (handle, size),
        tqdm(
            total=size, unit="B", unit_scale=True, desc=f"ingest {path.name}", file=sys.stderr
        ) as bar,
    ):
        for line_number, line in enumerate(handle, start=1):
            bar.update(len(line))
            if not line.strip():
                continue
            try:
                doc = prepare_document(
                    parse_document(line), spaces, settings.default_space,
                    MAX_CHUNKS_PER_FILE_DOCUMENT, now,
                )  # fmt: skip
                await writer.add(doc)
            except RagError as error:
                await writer.flush()  # everything before the bad line is stored
                return writer.total, f"{path}:{line_number}: {error.message}"
            bar.set_postfix(chunks=writer.total.chunks + writer.chunks, refresh=False)
        await writer.flush()
    return writer.total, None


async def _spaces_to_rebuild(
    conn: AsyncConnection, path: Path, mode: RebuildMode
) -> list[tuple[int, str]]:
    if mode == "never":
        return []
    cursor = await conn.execute(queries("spaces").space_vector_count)
    existing = {
        name: (space_id, max(count, 0)) for space_id, name, count in await cursor.fetchall()
    }
    if mode == "always":
        return [(space_id, name) for name, (space_id, _) in existing.items()]
    incoming = estimate_vectors(path)
    return [
        (existing[name][0], name)
        for name, count in incoming.items()
        if name in existing and count > existing[name][1]
    ]


async def _watch_build(url: str, pid: int, bar: tqdm) -> None:
    async with await AsyncConnection.connect(url, autocommit=True) as watcher:
        while True:
            cursor = await watcher.execute(queries("spaces").index_build_progress, (pid,))
            row = await cursor.fetchone()
            if row:
                phase, done, total = row
                bar.total = total or bar.total
                bar.n = done or 0
                bar.set_postfix_str(phase, refresh=True)
            await asyncio.sleep(0.5)


async def build_indexes(conn: AsyncConnection, url: str, spaces: list[tuple[int, str]]) -> None:
    """Build the HNSW index of each space, with a progress bar per index."""
    for space_id, name in spaces:
        with tqdm(desc=f"index {name}", unit="vec", file=sys.stderr) as bar:
            watcher = asyncio.create_task(_watch_build(url, conn.info.backend_pid, bar))
            try:
                await conn.execute(queries("spaces").create_space_index, (space_id,))
            finally:
                watcher.cancel()
        await conn.execute(with_table(queries("meta").vacuum_vectors, space_id))


@asynccontextmanager
async def _bulk_session(url: str, settings: Settings) -> AsyncIterator[AsyncConnection]:
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        await configure_connection(conn)
        await conn.execute(
            queries("meta").bulk_session_settings, (settings.pg_maintenance_work_mem,)
        )
        yield conn


async def ingest_file(
    path: Path, settings: Settings, batch_chunks: int = 5000, rebuild: RebuildMode = "auto"
) -> int:
    """Load a JSONL file; prints a summary; returns the process exit status."""
    runtime = DatabaseRuntime(settings)
    url = runtime.start()
    started = time.perf_counter()
    try:
        async with _bulk_session(url, settings) as conn:
            rebuilt = await _spaces_to_rebuild(conn, path, rebuild)
            for space_id, _ in rebuilt:
                await conn.execute(queries("spaces").drop_space_index, (space_id,))
            try:
                total, failure = await _load(conn, path, settings, batch_chunks)
            finally:
                await build_indexes(conn, url, rebuilt)
            # Fresh visibility map and statistics: index-only scans and good plans at once.
            await conn.execute(queries("meta").vacuum_chunks)
    finally:
        runtime.stop()
    seconds = time.perf_counter() - started
    rate = total.chunks / seconds if seconds > 0 else 0.0
    index_note = f"; rebuilt HNSW index of {', '.join(n for _, n in rebuilt)}" if rebuilt else ""
    print(
        f"stored {total.documents} documents, {total.chunks} chunks "
        f"({total.replaced_chunks} replaced) in {seconds:.1f} s, {rate:,.0f} chunks/s{index_note}"
    )
    if failure:
        print(f"stopped: {failure}", file=sys.stderr)
        return 1
    return 0
