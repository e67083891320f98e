"""Writing prepared documents: one transaction per batch (upsert the documents, drop
their old chunks, COPY the new chunks and one COPY per embedding space), so a batch is
stored entirely or not at all, and re-sending a document replaces its chunks."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pgvector import SparseVector
from psycopg import AsyncConnection, sql
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from app.db.sqlfiles import queries, with_table
from app.errors import Conflict
from app.ingest.prepare import CHUNK_TYPES, ROW, PreparedDocument
from app.parts import CollectionTarget, find_collection
from app.spaces import STORAGE, SpaceInfo


@dataclass
class IngestResult:
    documents: int = 0
    chunks: int = 0
    replaced_chunks: int = 0
    vectors: dict[str, int] = field(default_factory=dict)

    def add(self, other: IngestResult) -> None:
        self.documents += other.documents
        self.chunks += other.chunks
        self.replaced_chunks += other.replaced_chunks
        for space, count in other.vectors.items():
            self.vectors[space] = self.vectors.get(space, 0) + count


async def load_spaces(conn: AsyncConnection) -> dict[str, SpaceInfo]:
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(queries("spaces").list_spaces)
        rows = await cursor.fetchall()
    return {row["name"]: SpaceInfo.from_row(row) for row in rows}


async def _check_chunk_owners(
    conn: AsyncConnection, collection: CollectionTarget, docs: Sequence[PreparedDocument]
) -> None:
    """A chunk_id is its collection's: one stored under a document outside the batch (in
    any part of a split collection) is a 409."""
    chunk_ids = [c.row[ROW["chunk_id"]] for d in docs for c in d.chunks]
    doc_ids = [d.doc_id for d in docs]
    cursor = await conn.execute(
        queries("documents").chunk_owner_conflicts,
        {"chunk_ids": chunk_ids, "doc_ids": doc_ids, "collections": list(collection.ids)},
    )
    clash = await cursor.fetchone()
    if clash:
        raise Conflict(
            f"chunk_id {clash[0]!r} already belongs to document {clash[1]!r}",
            chunk_id=clash[0], doc_id=clash[1],
        )  # fmt: skip


async def _upsert_documents(
    conn: AsyncConnection, collection: int, docs: Sequence[PreparedDocument]
) -> tuple[dict[str, int], int]:
    q = queries("documents")
    payload = [{"doc_id": d.doc_id, **d.row} for d in docs]
    cursor = await conn.execute(
        q.upsert_documents, {"documents": Jsonb(payload), "collection": collection}
    )
    pks = {doc_id: pk for pk, doc_id in await cursor.fetchall()}
    cursor = await conn.execute(
        q.delete_document_chunks, {"documents": list(pks.values()), "collection": collection}
    )
    replaced = (await cursor.fetchone() or (0,))[0]
    return pks, replaced


async def _reserve_ids(conn: AsyncConnection, count: int) -> list[int]:
    cursor = await conn.execute(queries("documents").reserve_chunk_ids, (count,))
    return [row[0] for row in await cursor.fetchall()]


def _vector_rows(
    docs: Iterable[PreparedDocument], space: SpaceInfo, collection: int
) -> Iterable[tuple[Any, ...]]:
    """The rows of one space's vector table (app/spaces.py STORAGE: the columns after
    collection_id and chunk_pk, per kind)."""
    for doc in docs:
        for chunk in doc.chunks:
            value = chunk.vectors.get(space.name)
            if value is None:
                continue
            key = (collection, chunk.row[ROW["id"]])
            if isinstance(value, SparseVector):
                yield *key, value, len(value.indices())
            elif space.kind == "multivector":
                yield from ((*key, n, token) for n, token in enumerate(value))
            else:
                yield *key, value


async def _copy_rows(
    conn: AsyncConnection,
    statement: str | sql.Composed,
    types: Sequence[str],
    rows: Iterable[Sequence[Any]],
) -> None:
    async with conn.cursor() as cursor, cursor.copy(statement) as copy:
        copy.set_types(list(types))
        for row in rows:
            await copy.write_row(row)


async def store_documents(
    conn: AsyncConnection, docs: Sequence[PreparedDocument], spaces: dict[str, SpaceInfo]
) -> IngestResult:
    """Write prepared documents of one collection in one transaction (all or nothing; a
    split collection's documents each in its part, in the same transaction)."""
    result = IngestResult()
    if not docs:
        return result
    async with conn.transaction():
        collection = await find_collection(conn, docs[0].collection, lock=True)
        await _check_chunk_owners(conn, collection, docs)
        by_part: dict[int, list[PreparedDocument]] = {}
        for doc in docs:
            by_part.setdefault(collection.holding(doc.doc_id), []).append(doc)
        for part in sorted(by_part):
            result.add(await _store_part(conn, part, by_part[part], spaces))
    return result


async def _store_part(
    conn: AsyncConnection, collection: int, docs: Sequence[PreparedDocument],
    spaces: dict[str, SpaceInfo],
) -> IngestResult:  # fmt: skip
    """Documents of one collection (or part), in the caller's transaction."""
    q = queries("documents")
    pks, replaced = await _upsert_documents(conn, collection, docs)
    chunks = [c for d in docs for c in d.chunks]
    for chunk, chunk_pk in zip(chunks, await _reserve_ids(conn, len(chunks)), strict=True):
        chunk.row[ROW["id"]] = chunk_pk
        chunk.row[ROW["collection_id"]] = collection
        chunk.row[ROW["document_id"]] = pks[chunk.row[ROW["doc_id"]]]
    await _copy_rows(conn, q.copy_chunks, CHUNK_TYPES, (c.row for c in chunks))
    counts: dict[str, int] = {}
    for name in sorted({s for c in chunks for s in c.vectors}):
        space = spaces[name]
        storage = STORAGE[space.kind]
        statement = with_table(q.copy_vectors, space.id, storage.columns)
        await _copy_rows(conn, statement, ("int4", "int8", *storage.types),
                         _vector_rows(docs, space, collection))  # fmt: skip
        counts[name] = sum(name in c.vectors for c in chunks)
    return IngestResult(
        documents=len(docs), chunks=len(chunks), replaced_chunks=replaced, vectors=counts
    )
