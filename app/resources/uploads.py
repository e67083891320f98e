"""Storing uploaded files before the answer (small uploads): each read on its own (one
that cannot be read is answered with its reason), all embedded together (an embedder that
is down stores nothing: 503), then each stored in a transaction of its own. Between
reading and embedding, the route may still queue the upload as a job (more vectors to
make than RAG_SYNC_EMBED_MAX_CHUNKS)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from app.api.uploads import Entry
from app.db.connect import Connect
from app.embed.base import REQUEST
from app.errors import RagError
from app.ingest.embed import fill_vectors, to_embed
from app.ingest.files import FileDefaults, file_document
from app.ingest.prepare import PreparedDocument
from app.ingest.rules import rules_for
from app.ingest.store import load_spaces, store_documents
from app.jobs.store import NewItem, single
from app.settings import Settings
from app.spaces import SpaceInfo


def _failed(name: str, error: RagError) -> dict[str, Any]:
    return {"file": name, "error": error.message, "status": error.status}


@dataclass
class ReadFiles:
    """An upload's files read into documents (or each one's reason it cannot be)."""

    results: list[dict[str, Any]]  # per file, in order
    ready: list[tuple[int, PreparedDocument]]  # (its place in results, the document)
    spaces: dict[str, SpaceInfo]
    files: list[tuple[Entry, bytes]]  # each file and its bytes, read once

    def to_embed(self, settings: Settings) -> int:
        return to_embed([doc for _, doc in self.ready], self.spaces, settings)

    def items(self) -> list[NewItem]:
        """The files as a job's items, from the bytes already read (an archive is not
        unpacked, nor its size counted, twice)."""
        return [NewItem(e.name, e.kind, len(data), single(data)) for e, data in self.files]


async def read_files(
    connect: Connect, files: list[Entry], defaults: FileDefaults, settings: Settings
) -> ReadFiles:
    async with connect() as conn:
        spaces = await load_spaces(conn)
    rules = rules_for(settings, spaces)
    read = ReadFiles([], [], spaces, [])
    for entry in files:
        name, kind = entry.name, entry.kind
        data = b"".join([piece async for piece in entry.read()])
        read.files.append((entry, data))
        try:
            doc = await asyncio.to_thread(
                file_document, data, name, kind, defaults, spaces, rules, settings
            )
        except RagError as error:
            read.results.append(_failed(name, error))
            continue
        read.results.append({"file": name})
        read.ready.append((len(read.results) - 1, doc))
    return read


async def store_files(
    connect: Connect, read: ReadFiles, settings: Settings
) -> list[dict[str, Any]]:
    """Embed every file's chunks (no connection held while the embedder works), then store
    each file in a transaction of its own."""
    results, spaces = read.results, read.spaces
    counts = {}
    for index, doc in read.ready:  # one embedding pass: all or nothing
        counts[index] = await fill_vectors(connect, [doc], spaces, settings, REQUEST)
    async with connect() as conn:
        for index, doc in read.ready:
            try:
                stored = await store_documents(conn, [doc], spaces)
            except RagError as error:
                results[index] = _failed(results[index]["file"], error)
                continue
            results[index].update(
                doc_id=doc.doc_id,
                chunks=stored.chunks,
                embedded=counts[index].embedded,
                cached=counts[index].cached,
            )
    return results
