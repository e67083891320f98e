"""``ragsearch ingest`` on files: each file read by its type into a document (its doc_id
the path as given, after ``--doc-id-prefix``), split, embedded by the spaces' embedders in
this process, and stored in transactions of about ``batch_chunks`` chunks, with a
progress bar (files, chunks, chunks/s, ETA). A file that cannot be read is reported and
the others go on. ``--resume`` skips the files stored before from the same bytes.
"""

from __future__ import annotations

import asyncio
import hashlib
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from psycopg import AsyncConnection
from tqdm import tqdm

from app.db.connect import reusing
from app.db.sqlfiles import queries
from app.embed.base import JOB
from app.errors import RagError
from app.ingest.bulk import chunk_rate, postfix
from app.ingest.embed import EmbedCounts, Progress, fill_vectors
from app.ingest.files import EmptyFile, FileDefaults, file_document
from app.ingest.prepare import PreparedDocument
from app.ingest.rules import rules_for
from app.ingest.store import IngestResult, load_spaces, store_documents
from app.parts import CollectionTarget, find_collection
from app.settings import Settings
from app.spaces import SpaceInfo


@dataclass
class FilesReport:
    stored: IngestResult = field(default_factory=IngestResult)
    embedded: int = 0
    unchanged: int = 0  # skipped with --resume
    empty: int = 0  # no bytes or only whitespace: left out, as a file of another kind is
    failed: list[str] = field(default_factory=list)


def _read(path: Path, settings: Settings) -> bytes:
    """The file's bytes, at most RAG_MAX_FILE_BYTES of them whatever its size says (one
    that grows while it is read, or names a device, says 0)."""
    with path.open("rb") as handle:
        data = handle.read(settings.max_file_bytes + 1)
    if len(data) > settings.max_file_bytes:
        raise RagError(f"{path}: larger than {settings.max_file_bytes} bytes (RAG_MAX_FILE_BYTES)")
    return data


async def _unchanged(
    conn: AsyncConnection, collection: CollectionTarget, names: list[str], hashes: list[str]
) -> set[str]:
    cursor = await conn.execute(
        queries("documents").stored_sources,
        {"doc_ids": names, "hashes": hashes, "collections": list(collection.ids)},
    )
    return {row[0] for row in await cursor.fetchall()}


class FileLoader:
    def __init__(self, conn: AsyncConnection, settings: Settings, defaults: FileDefaults,
                 batch_chunks: int, resume: bool) -> None:  # fmt: skip
        self.conn, self.settings, self.defaults = conn, settings, defaults
        self.batch_chunks, self.resume = batch_chunks, resume
        self.report = FilesReport()
        self.batch: list[PreparedDocument] = []
        self.on_embedded: Progress = lambda step: None  # the bar's, while a load runs

    async def load(self, files: list[tuple[Path, str]]) -> FilesReport:
        collection = await find_collection(self.conn, self.defaults.collection)
        spaces = await load_spaces(self.conn)
        rules = rules_for(self.settings, spaces)
        started = time.perf_counter()
        with tqdm(total=len(files), unit="file", desc="ingest", file=sys.stderr) as bar:

            def embedded(step: EmbedCounts) -> None:  # shown as each batch of vectors is made
                self.report.embedded += step.embedded
                bar.set_postfix_str(
                    postfix(chunks=self.report.stored.chunks, embedded=self.report.embedded)
                )

            self.on_embedded = embedded
            for path, kind in files:
                name = str(path)
                try:
                    data = await asyncio.to_thread(_read, path, self.settings)
                    digest = hashlib.sha256(data).hexdigest()
                    doc_id = self.defaults.doc_id_prefix + name
                    if self.resume and await _unchanged(self.conn, collection, [doc_id], [digest]):
                        self.report.unchanged += 1
                    else:
                        self.batch.append(await asyncio.to_thread(
                            file_document, data, name, kind, self.defaults, spaces, rules,
                            self.settings))  # fmt: skip
                        if sum(len(d.chunks) for d in self.batch) >= self.batch_chunks:
                            await self._store(spaces)
                except EmptyFile:
                    self.report.empty += 1
                except RagError as error:
                    self.report.failed.append(_about(name, error.message))
                except OSError as error:
                    self.report.failed.append(f"{name}: {error.strerror or error}")
                bar.update(1)
                self._show(bar, started, refresh=False)
            await self._store(spaces)
            self._show(bar, started, refresh=True)  # the last batch is stored after the last file
        return self.report

    def _show(self, bar: tqdm[None], started: float, refresh: bool) -> None:
        rate = chunk_rate(self.report.stored.chunks, time.perf_counter() - started)
        bar.set_postfix_str(
            postfix(chunks=self.report.stored.chunks, rate=rate, embedded=self.report.embedded),
            refresh=refresh,
        )

    async def _store(self, spaces: dict[str, SpaceInfo]) -> None:
        """The batch, embedded and stored in one transaction; if it is refused (a chunk_id
        another document holds), each document on its own."""
        if not self.batch:
            return
        docs, self.batch = self.batch, []
        await fill_vectors(reusing(self.conn), docs, spaces, self.settings, JOB, self.on_embedded)
        try:
            self.report.stored.add(await store_documents(self.conn, docs, spaces))
            return
        except RagError:
            pass
        for doc in docs:
            try:
                self.report.stored.add(await store_documents(self.conn, [doc], spaces))
            except RagError as error:
                self.report.failed.append(f"{doc.doc_id}: {error.message}")


def _about(name: str, message: str) -> str:
    """A failure's line: the file's name, once."""
    return message if message.startswith(f"{name}: ") else f"{name}: {message}"
