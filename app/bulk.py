"""``ragsearch ingest FILE.jsonl``: bulk loading with COPY, in batched transactions.

Each line is one document in the shape of ``POST /api/rag/documents``, validated by the
same rules. Documents are grouped into transactions of about ``batch_chunks`` chunks.
A bad line stops the load with its line number; the lines before it are stored.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from psycopg import AsyncConnection
from tqdm import tqdm

from app.db.pool import configure_connection
from app.db.runtime import DatabaseRuntime
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


@contextmanager
def _open(path: Path) -> Iterator[tuple[BinaryIO, int | None]]:
    if str(path) == "-":
        yield sys.stdin.buffer, None
        return
    with path.open("rb") as handle:
        yield handle, path.stat().st_size


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


async def ingest_file(path: Path, settings: Settings, batch_chunks: int = 5000) -> int:
    """Load a JSONL file; prints a summary; returns the process exit status."""
    runtime = DatabaseRuntime(settings)
    url = runtime.start()
    started = time.perf_counter()
    try:
        async with await AsyncConnection.connect(url, autocommit=True) as conn:
            await configure_connection(conn)
            total, failure = await _load(conn, path, settings, batch_chunks)
    finally:
        runtime.stop()
    seconds = time.perf_counter() - started
    rate = total.chunks / seconds if seconds > 0 else 0.0
    print(
        f"stored {total.documents} documents, {total.chunks} chunks "
        f"({total.replaced_chunks} replaced) in {seconds:.1f} s, {rate:,.0f} chunks/s"
    )
    if failure:
        print(f"stopped: {failure}", file=sys.stderr)
        return 1
    return 0
