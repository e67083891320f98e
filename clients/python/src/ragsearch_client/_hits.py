"""Search rows with their metadata, for the framework integrations: a search row names
its chunk and document but carries no metadata, so each document is read once (the
chunk's metadata merged over its document's, as filters see it)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ragsearch_client.async_client import AsyncClient
from ragsearch_client.client import Client
from ragsearch_client.errors import NotFoundError
from ragsearch_client.models import DocumentResponse, SearchRow


@dataclass(frozen=True)
class Hit:
    """One search row and the metadata its chunk is filtered by."""

    row: SearchRow
    metadata: dict[str, Any]

    @property
    def text(self) -> str:
        return self.row.chunk

    @property
    def score(self) -> float:
        return self.row.score


def chunk_metadata(document: DocumentResponse, chunk_id: str) -> dict[str, Any]:
    """The chunk's metadata merged over its document's."""
    chunk = next((c for c in document.chunks if c.chunk_id == chunk_id), None)
    return {**document.metadata, **(chunk.metadata if chunk else {})}


def document_text(document: DocumentResponse) -> str:
    """A document's text: its chunks in order."""
    return "\n\n".join(chunk.chunk for chunk in sorted(document.chunks, key=lambda c: c.ordinal))


def _combine(rows: Sequence[SearchRow], documents: dict[str, DocumentResponse | None]) -> list[Hit]:
    hits = []
    for row in rows:
        document = documents.get(row.doc_id)
        hits.append(Hit(row, chunk_metadata(document, row.chunk_id) if document else {}))
    return hits


def hits(client: Client, collection: str, rows: Sequence[SearchRow]) -> list[Hit]:
    documents: dict[str, DocumentResponse | None] = {}
    for doc_id in dict.fromkeys(row.doc_id for row in rows):
        documents[doc_id] = read_document(client, collection, doc_id)
    return _combine(rows, documents)


async def ahits(client: AsyncClient, collection: str, rows: Sequence[SearchRow]) -> list[Hit]:
    doc_ids = list(dict.fromkeys(row.doc_id for row in rows))
    read = await asyncio.gather(*(aread_document(client, collection, d) for d in doc_ids))
    return _combine(rows, dict(zip(doc_ids, read, strict=True)))


def read_document(client: Client, collection: str, doc_id: str) -> DocumentResponse | None:
    """The document, or None when there is none with that id (deleted meanwhile)."""
    try:
        return client.get_document(doc_id, collection=collection)
    except NotFoundError:
        return None


async def aread_document(
    client: AsyncClient, collection: str, doc_id: str
) -> DocumentResponse | None:
    try:
        return await client.get_document(doc_id, collection=collection)
    except NotFoundError:
        return None
