"""Storing, reading and deleting documents."""

from __future__ import annotations

import asyncio
from typing import Any

from psycopg import AsyncConnection
from psycopg.rows import dict_row

from app.db.connect import Connect
from app.db.sqlfiles import queries
from app.embed.base import REQUEST, Patience
from app.errors import NotFound
from app.ingest.embed import Progress, fill_vectors
from app.ingest.models import DocumentIn
from app.ingest.prepare import PreparedDocument, prepare_document
from app.ingest.rules import rules_for
from app.ingest.store import load_spaces, store_documents
from app.parts import find_collection
from app.settings import Settings
from app.spaces import SpaceInfo
from app.vectors import stored_value


def _iso(value: Any) -> Any:
    return value.isoformat() if hasattr(value, "isoformat") else value


async def prepared_document(
    connect: Connect, doc: DocumentIn, settings: Settings
) -> tuple[PreparedDocument, dict[str, SpaceInfo]]:
    """A document validated whole (its text split, off the event loop and with no
    connection held), and the spaces."""
    async with connect() as conn:
        spaces = await load_spaces(conn)
    rules = rules_for(settings, spaces)
    return await asyncio.to_thread(prepare_document, doc, spaces, rules), spaces


async def store_prepared(
    connect: Connect, prepared: PreparedDocument, spaces: dict[str, SpaceInfo],
    settings: Settings, patience: Patience = REQUEST, progress: Progress | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Embed what the server embeds (holding no connection while the embedder works), then
    store the document in one transaction."""
    counts = await fill_vectors(connect, [prepared], spaces, settings, patience, progress)
    async with connect() as conn:
        result = await store_documents(conn, [prepared], spaces)
    return {
        "ok": True,
        "doc_id": prepared.doc_id,
        "chunks": result.chunks,
        "replaced_chunks": result.replaced_chunks,
        "vectors": result.vectors,
        "embedded": counts.embedded,
        "cached": counts.cached,
    }


POSITION = ("heading_path", "char_start", "char_end")


def _stored_chunk(row: dict[str, Any]) -> dict[str, Any]:
    """A chunk as answered: its position only when it has one (split by the service)."""
    chunk = {k: _iso(v) for k, v in row.items() if k not in POSITION}
    if row["char_start"] is not None:
        chunk["position"] = {"heading_path": row["heading_path"] or [],
                             "start": row["char_start"], "end": row["char_end"]}  # fmt: skip
    return chunk


async def _chunks(
    conn: AsyncConnection, document: int, collection: int, include_embeddings: bool
) -> list[dict[str, Any]]:
    q = queries("documents")
    keys = {"document": document, "collection": collection}
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(q.document_chunks, keys)
        chunks = [_stored_chunk(row) for row in await cursor.fetchall()]
        by_id = {c["chunk_id"]: c for c in chunks}
        for chunk in chunks:
            chunk["spaces"] = []
        await cursor.execute(q.document_vectors, keys)
        for row in await cursor.fetchall():
            chunk = by_id[row["chunk_id"]]
            chunk["spaces"].append(row["space"])
            if include_embeddings:
                value = stored_value(row["kind"], row["embedding"])
                chunk.setdefault("embeddings", {})[row["space"]] = value
    return chunks


async def get_document(
    conn: AsyncConnection, collection: str, doc_id: str, include_embeddings: bool = False
) -> dict[str, Any]:
    holding = (await find_collection(conn, collection)).holding(doc_id)
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(
            queries("documents").get_document, {"doc_id": doc_id, "collection": holding}
        )
        doc = await cursor.fetchone()
    if doc is None:
        raise NotFound(f"no document with doc_id {doc_id!r} in collection {collection!r}",
                       doc_id=doc_id, collection=collection)  # fmt: skip
    chunks = await _chunks(conn, doc["id"], doc["collection_id"], include_embeddings)
    return {
        "ok": True, "collection": collection, "doc_id": doc["doc_id"], "src": doc["src"],
        "title": doc["title"], "category": doc["category"], "metadata": doc["metadata"],
        "tags": doc["tags"], "content_type": doc["content_type"],
        "created_at": _iso(doc["created_at"]),
        "updated_at": _iso(doc["updated_at"]), "chunks": chunks,
    }  # fmt: skip


async def delete_document(conn: AsyncConnection, collection: str, doc_id: str) -> dict[str, Any]:
    q = queries("documents")
    async with conn.transaction():
        target = await find_collection(conn, collection, lock=True)
        keys = {"doc_id": doc_id, "collection": target.holding(doc_id)}
        row = await (await conn.execute(q.document_to_delete, keys)).fetchone()
        if row is not None:
            await conn.execute(q.delete_document, {**keys, "document": row[0]})
    if row is None:
        raise NotFound(f"no document with doc_id {doc_id!r} in collection {collection!r}",
                       doc_id=doc_id, collection=collection)  # fmt: skip
    return {"ok": True, "doc_id": doc_id, "deleted_chunks": row[1]}
