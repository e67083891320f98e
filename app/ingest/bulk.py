"""``ragsearch ingest FILE.jsonl``: bulk loading with COPY, in batched transactions.

Each line is one document in the shape of ``POST /api/rag/documents``, validated by the
same rules, in a second process while this one writes. Documents are grouped into
transactions of about ``batch_chunks`` chunks. A bad line stops the load with its line
number; the lines before it are stored.

Inserting into an HNSW graph row by row is the slow part of a load, so when a file is
large compared with what a space already holds (``--rebuild-index auto``), the space's
index is dropped before the load and built once at the end, with a progress bar. The
index is rebuilt even when the load stops early; ``ragsearch serve`` and ``migrate``
also rebuild any index an interrupted load left missing.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import shutil
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from queue import Empty
from typing import Any, Literal

import orjson
from psycopg import AsyncConnection
from tqdm import tqdm

from app.db.pool import configure_connection
from app.db.runtime import DatabaseRuntime
from app.db.sqlfiles import queries
from app.errors import RagError
from app.ingest.prepare import (
    IngestRules,
    PreparedDocument,
    SpaceInfo,
    parse_document,
    prepare_document,
)
from app.ingest.store import IngestResult, load_spaces, store_documents
from app.settings import Settings

# A single document in a file may be longer than an API request allows.
MAX_CHUNKS_PER_FILE_DOCUMENT = 1_000_000

RebuildMode = Literal["auto", "always", "never"]


def _spool_stdin() -> Path:
    """Standard input, copied to a temporary file the parsing process can read (the
    caller deletes it)."""
    with tempfile.NamedTemporaryFile(
        prefix="ragsearch-ingest-", suffix=".jsonl", delete=False
    ) as handle:
        shutil.copyfileobj(sys.stdin.buffer, handle)
    return Path(handle.name)


@dataclass(frozen=True)
class FileShape:
    """What a file will bring, judged from its size and its first document."""

    collection: str
    vectors: dict[str, int]  # per space


def file_shape(path: Path, default_space: str) -> FileShape | None:
    with path.open("rb") as handle:
        first = handle.readline()
    try:
        doc = orjson.loads(first)
    except orjson.JSONDecodeError:
        return None
    chunks = doc.get("chunks") if isinstance(doc, dict) else None
    if not chunks or not isinstance(chunks, list):
        return None
    per_space: dict[str, int] = {}
    for chunk in chunks:
        if not isinstance(chunk, dict):
            continue
        named = set(chunk.get("embeddings") or {})
        if chunk.get("embedding") is not None:
            named.add(default_space)
        for space in named:
            per_space[space] = per_space.get(space, 0) + 1
    scale = path.stat().st_size / len(first)
    return FileShape(
        collection=str(doc.get("collection") or "default"),
        vectors={space: int(count * scale) for space, count in per_space.items()},
    )


class BatchWriter:
    """Stores batches of prepared documents, a transaction each, and keeps the totals."""

    def __init__(self, conn: AsyncConnection, spaces: dict[str, SpaceInfo]) -> None:
        self.conn = conn
        self.spaces = spaces
        self.total = IngestResult()

    async def store(self, batch: list[PreparedDocument]) -> None:
        if batch:
            self.total.add(await store_documents(self.conn, batch, self.spaces))


@dataclass
class ParsedBatch:
    """What the parsing process sends: documents ready to store, how far into the file
    it has read, and the error that stopped it, if one did."""

    docs: list[PreparedDocument]
    bytes_read: int
    error: str | None = None


def parse_file(
    path: str, spaces: dict[str, SpaceInfo], rules: IngestRules, batch_chunks: int, out: Any
) -> None:
    """Runs in its own process: validate the file line by line, send batches to ``out``
    (a batch holds one collection's documents, never one doc_id twice), then ``None``."""
    batch: list[PreparedDocument] = []
    doc_ids: set[str] = set()
    chunks = read = 0
    with open(path, "rb") as handle:
        for line_number, line in enumerate(handle, start=1):
            read += len(line)
            if not line.strip():
                continue
            try:
                doc = prepare_document(parse_document(line), spaces, rules)
            except RagError as error:
                out.put(ParsedBatch(batch, read, f"{path}:{line_number}: {error.message}"))
                out.put(None)
                return
            if (
                doc.doc_id in doc_ids
                or chunks + len(doc.chunks) > batch_chunks
                or (batch and batch[0].collection != doc.collection)
            ):
                out.put(ParsedBatch(batch, read - len(line)))
                batch, doc_ids, chunks = [], set(), 0
            batch.append(doc)
            doc_ids.add(doc.doc_id)
            chunks += len(doc.chunks)
    out.put(ParsedBatch(batch, read))
    out.put(None)


def _file_rules(settings: Settings) -> IngestRules:
    """A file's documents may hold any number of chunks; they are stored in batches."""
    return replace(IngestRules.from_settings(settings), max_chunks=MAX_CHUNKS_PER_FILE_DOCUMENT)


def _next_batch(queue: Any, process: Any) -> ParsedBatch | None:
    while True:
        try:
            item: ParsedBatch | None = queue.get(timeout=1)
            return item
        except Empty:
            if not process.is_alive():
                raise RuntimeError("the parsing process stopped unexpectedly") from None


async def _load(
    conn: AsyncConnection, path: Path, size: int, settings: Settings, batch_chunks: int
) -> tuple[IngestResult, str | None]:
    """Parse in a second process while this one writes: on two cores, validation
    (JSON floats) and COPY overlap instead of taking turns."""
    spaces = await load_spaces(conn)
    writer = BatchWriter(conn, spaces)
    context = multiprocessing.get_context("spawn")
    queue = context.Queue(maxsize=3)
    parser = context.Process(
        target=parse_file,
        args=(str(path), spaces, _file_rules(settings), batch_chunks, queue),
        daemon=True,
    )
    parser.start()
    failure = None
    with tqdm(total=size, unit="B", unit_scale=True,
              desc=f"ingest {path.name}", file=sys.stderr) as bar:  # fmt: skip
        try:
            while (batch := await asyncio.to_thread(_next_batch, queue, parser)) is not None:
                await writer.store(batch.docs)
                bar.update(batch.bytes_read - bar.n)
                bar.set_postfix(chunks=writer.total.chunks, refresh=False)
                failure = batch.error or failure
        finally:
            parser.join(timeout=5)
            if parser.is_alive():
                parser.terminate()
    return writer.total, failure


@dataclass(frozen=True)
class IndexTarget:
    """The HNSW index of one space in one collection."""

    space_id: int
    space: str
    collection_id: int
    collection: str

    def __str__(self) -> str:
        return f"{self.space}/{self.collection}"


async def _indexes_to_rebuild(
    conn: AsyncConnection, path: Path, mode: RebuildMode, default_space: str
) -> list[IndexTarget]:
    """The indexes to drop before the load and build after it: with ``auto``, those of
    the file's collection whose space gets more vectors than it holds."""
    shape = file_shape(path, default_space)
    if mode == "never" or shape is None:
        return []
    cursor = await conn.execute(queries("spaces").space_vector_count, (shape.collection,))
    existing = [(IndexTarget(*row[:4]), max(int(row[4]), 0)) for row in await cursor.fetchall()]
    if mode == "always":
        return [target for target, _ in existing]
    return [target for target, count in existing if shape.vectors.get(target.space, 0) > count]


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


async def build_indexes(conn: AsyncConnection, url: str, targets: list[IndexTarget]) -> None:
    """Build each HNSW index, with a progress bar per index."""
    for target in targets:
        with tqdm(desc=f"index {target}", unit="vec", file=sys.stderr) as bar:
            watcher = asyncio.create_task(_watch_build(url, conn.info.backend_pid, bar))
            try:
                await conn.execute(
                    queries("spaces").create_space_index,
                    (target.space_id, target.collection_id),
                )
            finally:
                watcher.cancel()


@asynccontextmanager
async def _bulk_session(url: str, settings: Settings) -> AsyncIterator[AsyncConnection]:
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        await configure_connection(conn)
        await conn.execute(
            queries("meta").bulk_session_settings, (settings.pg_maintenance_work_mem,)
        )
        yield conn


async def _load_file(
    url: str, path: Path, settings: Settings, batch_chunks: int, rebuild: RebuildMode
) -> tuple[IngestResult, str | None, list[IndexTarget]]:
    async with _bulk_session(url, settings) as conn:
        targets = await _indexes_to_rebuild(conn, path, rebuild, settings.default_space)
        for target in targets:
            await conn.execute(
                queries("spaces").drop_space_index, (target.space_id, target.collection_id)
            )
        try:
            size = await asyncio.to_thread(lambda: path.stat().st_size)
            total, failure = await _load(conn, path, size, settings, batch_chunks)
        finally:
            await build_indexes(conn, url, targets)
        # Fresh visibility maps and statistics: index-only scans and good plans at once.
        await conn.execute(queries("meta").vacuum_chunks)
    return total, failure, targets


async def ingest_file(
    path: Path, settings: Settings, batch_chunks: int = 5000, rebuild: RebuildMode = "auto"
) -> int:
    """Load a JSONL file; prints a summary; returns the process exit status."""
    spooled = str(path) == "-"
    if spooled:
        path = _spool_stdin()
    runtime = DatabaseRuntime(settings)
    started = time.perf_counter()
    try:
        url = runtime.start()
        total, failure, rebuilt = await _load_file(url, path, settings, batch_chunks, rebuild)
    finally:
        runtime.stop()
        if spooled:
            path.unlink(missing_ok=True)
    seconds = time.perf_counter() - started
    rate = total.chunks / seconds if seconds > 0 else 0.0
    index_note = f"; rebuilt HNSW index of {', '.join(map(str, rebuilt))}" if rebuilt else ""
    print(
        f"stored {total.documents} documents, {total.chunks} chunks "
        f"({total.replaced_chunks} replaced) in {seconds:.1f} s, {rate:,.0f} chunks/s{index_note}"
    )
    if failure:
        print(f"stopped: {failure}", file=sys.stderr)
        return 1
    return 0
