"""Reading and deleting stored documents."""

from __future__ import annotations

from typing import Any

from psycopg import AsyncConnection

from app.db.sqlfiles import queries
from app.errors import NotFound

CHUNK_FIELDS = (
    "chunk_id", "ordinal", "chunk", "created_at", "volume", "confidence", "scale",
    "signal", "signal_pinned", "model", "tags", "metadata",
)  # fmt: skip


def _iso(value: Any) -> Any:
    return value.isoformat() if hasattr(value, "isoformat") else value


async def get_document(
    conn: AsyncConnection, doc_id: str, include_embeddings: bool = False
) -> dict[str, Any]:
    q = queries("documents")
    cursor = await conn.execute(q.get_document, (doc_id,))
    doc = await cursor.fetchone()
    if doc is None:
        raise NotFound(f"no document with doc_id {doc_id!r}", doc_id=doc_id)
    pk, doc_id, src, title, category, metadata, tags, created_at, updated_at = doc
    cursor = await conn.execute(q.document_chunks, (pk,))
    chunks = [
        {name: _iso(value) for name, value in zip(CHUNK_FIELDS, row, strict=True)}
        for row in await cursor.fetchall()
    ]
    by_id = {c["chunk_id"]: c for c in chunks}
    for chunk in chunks:
        chunk["spaces"] = []
    cursor = await conn.execute(q.document_vectors, (pk,))
    for chunk_id, space, embedding in await cursor.fetchall():
        by_id[chunk_id]["spaces"].append(space)
        if include_embeddings:
            by_id[chunk_id].setdefault("embeddings", {})[space] = embedding.to_list()
    return {
        "ok": True, "doc_id": doc_id, "src": src, "title": title, "category": category,
        "metadata": metadata, "tags": tags, "created_at": _iso(created_at),
        "updated_at": _iso(updated_at), "chunks": chunks,
    }  # fmt: skip


async def delete_document(conn: AsyncConnection, doc_id: str) -> dict[str, Any]:
    cursor = await conn.execute(queries("documents").delete_document, (doc_id,))
    row = await cursor.fetchone()
    if row is None or not row[1]:
        raise NotFound(f"no document with doc_id {doc_id!r}", doc_id=doc_id)
    return {"ok": True, "doc_id": doc_id, "deleted_chunks": row[0]}
