"""Storing uploaded files before the answer (small uploads): each read on its own (one
that cannot be read is answered with its reason), all embedded together (an embedder that
is down stores nothing: 503), then each stored in a transaction of its own."""

from __future__ import annotations

import asyncio
from typing import Any

from psycopg import AsyncConnection

from app.api.uploads import Entry
from app.embed.base import REQUEST
from app.errors import RagError
from app.ingest.embed import fill_vectors
from app.ingest.files import FileDefaults, file_document
from app.ingest.prepare import PreparedDocument
from app.ingest.rules import rules_for
from app.ingest.store import load_spaces, store_documents
from app.settings import Settings


def _failed(name: str, error: RagError) -> dict[str, Any]:
    return {"file": name, "error": error.message, "status": error.status}


async def store_files(
    conn: AsyncConnection, files: list[Entry], defaults: FileDefaults, settings: Settings
) -> list[dict[str, Any]]:
    spaces = await load_spaces(conn)
    rules = rules_for(settings, spaces)
    results: list[dict[str, Any]] = []
    ready: list[tuple[int, PreparedDocument]] = []
    for entry in files:
        name, kind = entry.name, entry.kind
        data = b"".join([piece async for piece in entry.read()])
        try:
            doc = await asyncio.to_thread(
                file_document, data, name, kind, defaults, spaces, rules, settings
            )
        except RagError as error:
            results.append(_failed(name, error))
            continue
        results.append({"file": name})
        ready.append((len(results) - 1, doc))
    counts = {}
    for index, doc in ready:  # one embedding pass: all or nothing
        counts[index] = await fill_vectors(conn, [doc], spaces, settings, REQUEST)
    for index, doc in ready:
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
