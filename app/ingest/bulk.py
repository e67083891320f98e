"""``ragsearch ingest FILE.jsonl``: bulk loading with COPY, in batched transactions.

Each line is one document in the shape of ``POST /api/rag/documents``, validated by the
same rules, in a second process while this one writes (app/ingest/fileparse.py).
Documents are grouped into transactions of about ``batch_chunks`` chunks; each
transaction also records how far into the file it reached (rag.bulk_loads). A bad line
stops the load with its line number; the lines before it are stored.

Interrupted (a bad line, Ctrl-C, kill -9): every batch is stored whole or not at all, so
running the same command again stores every document again (a document sent twice
replaces its chunks: the result is the same); ``--resume`` skips the bytes already
stored instead. HNSW indexes: app/ingest/indexes.py.
"""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from queue import Empty
from typing import Any

from psycopg import AsyncConnection, sql
from tqdm import tqdm

from app.db.connect import reusing
from app.db.locks import BULK
from app.db.pool import configure_connection
from app.db.runtime import DatabaseRuntime
from app.db.sqlfiles import queries
from app.embed.base import JOB
from app.errors import BadRequest
from app.ingest.embed import EmbedCounts, Progress, embedded_spaces, fill_vectors
from app.ingest.fileparse import FileJob, ParsedBatch, parse_file
from app.ingest.indexes import (
    IndexPlan,
    RebuildMode,
    build_indexes,
    drop_indexes,
    file_shape,
    plan_indexes,
)
from app.ingest.prepare import IngestRules
from app.ingest.rules import rules_for
from app.ingest.store import IngestResult, load_spaces, store_documents
from app.parts import find_collection
from app.settings import Settings
from app.spaces import SpaceInfo

CHARS_PER_TOKEN = 4  # about, in English prose: to guess a text's chunks from its length

# A single document in a file may be longer than an API request allows.
MAX_CHUNKS_PER_FILE_DOCUMENT = 1_000_000
HEAD_BYTES = 1 << 20


def _spool_stdin() -> Path:
    """Standard input, copied to a temporary file the parsing process can read (the
    caller deletes it)."""
    with tempfile.NamedTemporaryFile(
        prefix="ragsearch-ingest-", suffix=".jsonl", delete=False
    ) as handle:
        shutil.copyfileobj(sys.stdin.buffer, handle)
    return Path(handle.name)


@dataclass(frozen=True)
class Start:
    """Where a load starts in its file."""

    offset: int = 0
    line: int = 0


def _head_digest(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.sha256(handle.read(HEAD_BYTES)).hexdigest()


async def _progress_start(conn: AsyncConnection, path: Path, resume: bool) -> Start:
    """Where to start: the file's recorded progress with ``resume``, else its start."""
    q = queries("meta")
    key, head = str(path), await asyncio.to_thread(_head_digest, path)
    if resume:
        cursor = await conn.execute(q.bulk_load_progress, (key,))
        row = await cursor.fetchone()
        if row is not None and row[0] == head:
            return Start(offset=int(row[1]), line=int(row[2]))
        if row is not None:
            raise BadRequest(f"{path} changed since its last load: run without --resume")
    await conn.execute(q.start_bulk_load, {"file": key, "head": head})
    return Start()


class BatchWriter:
    """Stores batches of prepared documents, a transaction each (with the file's
    progress), and keeps the totals."""

    def __init__(
        self, conn: AsyncConnection, path: Path, spaces: dict[str, Any], settings: Settings,
        on_embedded: Progress | None = None,
    ) -> None:  # fmt: skip
        self.conn = conn
        self.key = str(path)
        self.spaces = spaces
        self.settings = settings
        self.on_embedded = on_embedded  # told as each batch of vectors is made
        self.total = IngestResult()
        self.embedded = 0
        self.collections: set[str] = set()  # the names of the collections written

    async def store(self, batch: ParsedBatch) -> None:
        progress = {"file": self.key, "bytes": batch.offset, "lines": batch.line}
        counts = await fill_vectors(
            reusing(self.conn), batch.docs, self.spaces, self.settings, JOB, self.on_embedded
        )
        self.embedded += counts.embedded
        async with self.conn.transaction():
            result = await store_documents(self.conn, batch.docs, self.spaces)
            await self.conn.execute(
                queries("meta").advance_bulk_load,
                {**progress, "documents": result.documents, "chunks": result.chunks},
            )
        self.total.add(result)
        self.collections.update(doc.collection for doc in batch.docs)


def _file_rules(settings: Settings, spaces: dict[str, SpaceInfo]) -> IngestRules:
    """A file's documents may hold any number of chunks; they are stored in batches."""
    rules = rules_for(settings, spaces)
    splitting = replace(rules.splitting, max_chunks=MAX_CHUNKS_PER_FILE_DOCUMENT)
    return replace(rules, max_chunks=MAX_CHUNKS_PER_FILE_DOCUMENT, splitting=splitting)


def _next_batch(queue: Any, process: Any) -> ParsedBatch | None:
    while True:
        try:
            item: ParsedBatch | None = queue.get(timeout=1)
            return item
        except Empty:
            if not process.is_alive():
                raise RuntimeError("the parsing process stopped unexpectedly") from None


async def _load(
    conn: AsyncConnection, path: Path, start: Start, settings: Settings, batch_chunks: int
) -> tuple[BatchWriter, str | None]:
    """Parse in a second process while this one writes: on two cores, validation
    (JSON floats) and COPY overlap instead of taking turns."""
    spaces = await load_spaces(conn)
    made = EmbedCounts()
    writer = BatchWriter(conn, path, spaces, settings)
    context = multiprocessing.get_context("spawn")
    queue = context.Queue(maxsize=3)
    job = FileJob(str(path), start.offset, start.line, spaces, _file_rules(settings, spaces),
                  batch_chunks, os.getpid())  # fmt: skip
    parser = context.Process(target=parse_file, args=(job, queue), daemon=True)
    parser.start()
    failure = None
    size = await asyncio.to_thread(lambda: path.stat().st_size)
    with tqdm(total=size, initial=start.offset, unit="B", unit_scale=True,
              desc=f"ingest {path.name}", file=sys.stderr) as bar:  # fmt: skip

        def embedded(step: EmbedCounts) -> None:  # a batch's embedding shows before it is stored
            made.add(step)
            bar.set_postfix_str(postfix(chunks=writer.total.chunks, embedded=made.embedded))

        writer.on_embedded = embedded
        try:
            while (batch := await asyncio.to_thread(_next_batch, queue, parser)) is not None:
                await writer.store(batch)
                bar.update(batch.offset - bar.n)
                bar.set_postfix_str(
                    postfix(chunks=writer.total.chunks, embedded=made.embedded), refresh=False
                )
                failure = batch.error or failure
        finally:
            parser.join(timeout=5)
            if parser.is_alive():
                parser.terminate()
    return writer, failure


@asynccontextmanager
async def bulk_session(url: str, settings: Settings) -> AsyncIterator[AsyncConnection]:
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        await configure_connection(conn)
        await conn.execute(
            queries("meta").bulk_session_settings, (settings.pg_maintenance_work_mem,)
        )
        yield conn


@asynccontextmanager
async def _holding_collection(conn: AsyncConnection, collection: int) -> AsyncIterator[None]:
    """The bulk lock of a collection, for the whole load (waits for another loader)."""
    q = queries("meta")
    await conn.execute(q.wait_bulk_load, (BULK, collection))
    try:
        yield
    finally:
        await conn.execute(q.unlock_bulk_load, (BULK, collection))


@dataclass
class LoadReport:
    total: IngestResult
    failure: str | None
    indexes: IndexPlan
    resumed_at: int


async def _load_file(
    url: str, path: Path, settings: Settings, batch_chunks: int, rebuild: RebuildMode,
    resume: bool,
) -> LoadReport:  # fmt: skip
    async with bulk_session(url, settings) as conn:
        shape = file_shape(path, settings.default_space, CHARS_PER_TOKEN * settings.chunk_tokens)
        collection = (await find_collection(conn, shape.collection if shape else "default")).id
        async with _holding_collection(conn, collection):
            start = await _progress_start(conn, path, resume)
            embedded = embedded_spaces(await load_spaces(conn), settings)
            plan = await plan_indexes(conn, shape, rebuild, embedded)
            await drop_indexes(conn, plan.rebuild)
            try:
                writer, failure = await _load(conn, path, start, settings, batch_chunks)
            finally:
                await build_indexes(conn, url, plan.rebuild, lambda: bulk_session(url, settings))
            if failure is None:
                await conn.execute(queries("meta").finish_bulk_load, (str(path),))
        await _vacuum_loaded(conn, writer.collections)
    return LoadReport(writer.total, failure, plan, start.offset)


async def _vacuum_loaded(conn: AsyncConnection, collections: set[str]) -> None:
    """Fresh visibility maps and statistics for the partitions of the collections a load
    wrote (chunks, keyword postings, every space's vectors): index-only scans and good
    plans at once, not when autovacuum comes by. Only those partitions: another
    collection's load or index build goes on undisturbed."""
    tables: list[sql.Identifier] = []
    for name in sorted(collections):
        for collection_id in (await find_collection(conn, name)).ids:
            statement = sql.SQL(queries("meta").collection_partitions)
            cursor = await conn.execute(statement.format(id=sql.Literal(collection_id)))
            tables += [sql.Identifier("rag", table) for (table,) in await cursor.fetchall()]
    if tables:
        statement = sql.SQL(queries("meta").vacuum_loaded)
        await conn.execute(statement.format(tables=sql.SQL(", ").join(tables)))


def _summary(report: LoadReport, seconds: float) -> str:
    total = report.total
    notes = []
    if report.resumed_at:
        notes.append(f"resumed at byte {report.resumed_at:,}")
    if report.indexes.rebuild:
        notes.append(f"rebuilt HNSW index of {', '.join(map(str, report.indexes.rebuild))}")
    if report.indexes.kept:
        notes.append(
            f"kept the HNSW index of {', '.join(map(str, report.indexes.kept))} "
            "(a running service searches that collection)"
        )
    return (
        f"stored {total.documents} documents, {total.chunks} chunks "
        f"({total.replaced_chunks} replaced) in {seconds:.1f} s, "
        f"{chunk_rate(total.chunks, seconds)}" + "".join(f"; {note}" for note in notes)
    )


async def ingest_file(
    path: Path, settings: Settings, batch_chunks: int = 5000, rebuild: RebuildMode = "auto",
    resume: bool = False,
) -> int:  # fmt: skip
    """Load a JSONL file; prints a summary; returns the process exit status."""
    spooled = str(path) == "-"
    if spooled:
        path = _spool_stdin()
    path = await asyncio.to_thread(path.resolve)
    runtime = DatabaseRuntime(settings)
    started = time.perf_counter()
    try:
        url = runtime.start()
        report = await _load_file(url, path, settings, batch_chunks, rebuild, resume)
    finally:
        runtime.stop()
        if spooled:
            path.unlink(missing_ok=True)
    print(_summary(report, time.perf_counter() - started))
    if report.failure:
        print(f"stopped: {report.failure}", file=sys.stderr)
        return 1
    return 0


def postfix(**figures: int | str) -> str:
    """A progress bar's figures as a person reads them: counts in full, with thousands
    separators (tqdm's own formatting shows 70,000 chunks as 7e+4)."""
    return ", ".join(f"{name}={value:,}" if isinstance(value, int) else f"{name}={value}"
                     for name, value in figures.items())  # fmt: skip


def chunk_rate(chunks: int, seconds: float) -> str:
    """Chunks a second, to three figures when slow (a few chunks of files that took the
    embedder seconds read 0.27, not 0)."""
    rate = chunks / seconds if seconds > 0 else 0.0
    return f"{rate:,.0f} chunks/s" if rate >= 100 or rate == 0 else f"{rate:.3g} chunks/s"
