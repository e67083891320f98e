"""Storing documents and their chunks: validation, then one transaction of COPYs.

A document is validated whole before the database is touched; the write is one
transaction (upsert the document rows, drop their old chunks, COPY the new chunks and
one COPY per embedding space), so a batch is stored entirely or not at all, and
re-sending a document replaces its chunks.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any

import numpy as np
import orjson
from psycopg import AsyncConnection, sql
from psycopg.types.json import Jsonb
from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.db.sqlfiles import queries, with_table
from app.errors import BadRequest, Conflict
from app.settings import Settings
from app.tagging import inferred_tags, merge_tags
from app.validation import FiniteFloat, VectorInput, as_vector, parse_model

Tag = Annotated[str, Field(min_length=1, max_length=200)]

CHUNK_COLUMNS = (
    "id", "document_id", "chunk_id", "doc_id", "src", "title", "ordinal", "chunk",
    "created_at", "volume", "confidence", "signal_given", "model", "tags", "metadata",
)  # fmt: skip
CHUNK_TYPES = (
    "int8", "int8", "text", "text", "text", "text", "int4", "text",
    "timestamptz", "float4", "float4", "float4", "text", "text[]", "jsonb",
)  # fmt: skip


class ChunkIn(BaseModel):
    """One chunk of a document, as clients send it."""

    model_config = ConfigDict(extra="forbid")

    chunk_id: str | None = Field(
        default=None, min_length=1, max_length=512,
        description="Unique id; default '{doc_id}-chunk-{n}' (n = position in the list).",
    )  # fmt: skip
    chunk: str = Field(description="The text; must not be empty.")
    created_at: datetime | None = Field(
        default=None, description="What recency is measured from; default now."
    )
    volume: FiniteFloat = Field(default=1.0, ge=0)
    confidence: FiniteFloat = Field(default=1.0, ge=0)
    signal: FiniteFloat | None = Field(
        default=None, ge=0, le=1,
        description="Usefulness in [0,1]; default min(1, volume * confidence / 5).",
    )  # fmt: skip
    model: str = Field(default="", max_length=200)
    tags: list[Tag] = Field(default_factory=list, max_length=100)
    metadata: dict[str, Any] = Field(default_factory=dict)
    embedding: VectorInput | None = Field(default=None, description="Vector in the default space.")
    embeddings: dict[str, VectorInput] = Field(
        default_factory=dict, description="Vectors by space name."
    )

    @field_validator("created_at")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


class DocumentIn(BaseModel):
    """Body of ``POST /api/rag/documents``; one line of a ``ragsearch ingest`` file."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{
                "doc_id": "doc-123", "src": "https://example.com/doc", "title": "Intro",
                "tags": [], "metadata": {},
                "chunks": [{
                    "chunk_id": "doc-123-chunk-0", "chunk": "Content...",
                    "created_at": "2025-11-09T10:44:00Z", "volume": 2, "confidence": 0.9,
                    "model": "text-embedding-3-small", "embedding": [0.01, 0.02, 0.03],
                }],
            }]
        },
    )  # fmt: skip

    doc_id: str = Field(min_length=1, max_length=512)
    src: str = Field(default="", max_length=4096, description="Source URL or file path.")
    title: str = Field(default="", max_length=4096)
    category: str | None = Field(default=None, max_length=100)
    tags: list[Tag] = Field(default_factory=list, max_length=100)
    metadata: dict[str, Any] = Field(default_factory=dict)
    chunks: list[ChunkIn] = Field(default_factory=list)


DOCUMENT_RULES = {
    "doc_id": "doc_id must be a non-empty string (at most 512 characters)",
}


@dataclass(frozen=True)
class IngestRules:
    """The settings that shape how a document becomes rows."""

    default_space: str
    max_chunks: int
    infer_tags: bool
    now: datetime  # created_at of chunks that give none

    @classmethod
    def from_settings(cls, settings: Settings, now: datetime | None = None) -> IngestRules:
        return cls(
            default_space=settings.default_space,
            max_chunks=settings.max_chunks_per_request,
            infer_tags=settings.infer_tags,
            now=now or utc_now(),
        )


@dataclass(frozen=True)
class SpaceInfo:
    id: int
    name: str
    dims: int


@dataclass
class PreparedChunk:
    row: list[Any]  # CHUNK_COLUMNS, with id and document_id filled in at write time
    vectors: dict[str, np.ndarray]


@dataclass
class PreparedDocument:
    """A validated document, ready to write: its own row and its chunks' rows."""

    doc_id: str
    row: dict[str, Any]  # src, title, category, metadata, tags
    chunks: list[PreparedChunk]


@dataclass
class IngestResult:
    documents: int
    chunks: int
    replaced_chunks: int
    vectors: dict[str, int]


def parse_document(body: bytes | dict[str, Any]) -> DocumentIn:
    return parse_model(DocumentIn, body, DOCUMENT_RULES)


def _has_nul(*values: str | list[str] | dict[str, Any]) -> bool:
    """Whether a text, tag list or JSON object holds a NUL, which PostgreSQL refuses."""
    for value in values:
        if isinstance(value, str):
            if "\x00" in value:
                return True
        elif isinstance(value, list):
            if any("\x00" in item for item in value):
                return True
        elif value and b"\\u0000" in orjson.dumps(value):
            return True
    return False


def _chunk_error(index: int, chunk_id: str, message: str, **extra: Any) -> BadRequest:
    return BadRequest(
        f"chunks[{index}] ({chunk_id!r}): {message}", chunk=index, chunk_id=chunk_id, **extra
    )


def _chunk_vectors(
    index: int, chunk_id: str, chunk: ChunkIn, spaces: dict[str, SpaceInfo], default_space: str
) -> dict[str, np.ndarray]:
    named: dict[str, tuple[str, list[float] | str]] = {
        name: (f"embeddings.{name}", values) for name, values in chunk.embeddings.items()
    }
    if chunk.embedding is not None:
        if default_space in named:
            raise _chunk_error(
                index, chunk_id,
                f"give the default space vector once: embedding or embeddings.{default_space}",
                field="embedding",
            )  # fmt: skip
        named[default_space] = ("embedding", chunk.embedding)
    vectors: dict[str, np.ndarray] = {}
    for name, (field, values) in named.items():
        space = spaces.get(name)
        if space is None:
            raise _chunk_error(
                index, chunk_id, f"{field}: unknown embedding space {name!r}",
                field=field, valid_spaces=sorted(spaces),
            )  # fmt: skip
        try:
            vector = as_vector(values, field)
        except BadRequest as error:
            raise _chunk_error(index, chunk_id, error.message, field=field) from None
        if len(vector) != space.dims:
            raise _chunk_error(
                index, chunk_id,
                f"{field} has {len(vector)} dimensions, expected {space.dims} (space {name!r})",
                field=field, expected=space.dims, actual=len(vector),
            )  # fmt: skip
        vectors[name] = vector
    return vectors


def _signal_given(chunk: ChunkIn) -> float | None:
    return None if chunk.signal is None else float(chunk.signal)


def _chunk_tags(doc: DocumentIn, chunk: ChunkIn, infer: bool) -> list[str]:
    inferred = inferred_tags(chunk.chunk, doc.category) if infer else []
    return merge_tags(doc.tags, chunk.tags, inferred)


def prepare_document(
    doc: DocumentIn, spaces: dict[str, SpaceInfo], rules: IngestRules
) -> PreparedDocument:
    """Check every rule that does not need the stored data; build the rows to COPY."""
    if len(doc.chunks) > rules.max_chunks:
        raise BadRequest(
            f"chunks: at most {rules.max_chunks} chunks per request (got {len(doc.chunks)})",
            field="chunks",
        )
    if _has_nul(doc.doc_id, doc.src, doc.title, doc.category or "", doc.tags, doc.metadata):
        raise BadRequest("document fields must not contain NUL (\\u0000) characters")
    seen: set[str] = set()
    prepared: list[PreparedChunk] = []
    for index, chunk in enumerate(doc.chunks):
        chunk_id = chunk.chunk_id or f"{doc.doc_id}-chunk-{index}"
        if chunk_id in seen:
            raise _chunk_error(
                index, chunk_id, "chunk_id repeats an earlier chunk", field="chunk_id"
            )
        seen.add(chunk_id)
        if not chunk.chunk.strip():
            raise _chunk_error(index, chunk_id, "chunk (the text) must not be empty", field="chunk")
        if _has_nul(chunk_id, chunk.chunk, chunk.model, chunk.tags, chunk.metadata):
            raise _chunk_error(index, chunk_id, "fields must not contain NUL (\\u0000) characters")
        if not (math.isfinite(chunk.volume * chunk.confidence)):
            raise _chunk_error(index, chunk_id, "volume * confidence overflows", field="volume")
        vectors = _chunk_vectors(index, chunk_id, chunk, spaces, rules.default_space)
        row = [
            None, None, chunk_id, doc.doc_id, doc.src, doc.title, index, chunk.chunk,
            chunk.created_at or rules.now, chunk.volume, chunk.confidence,
            _signal_given(chunk), chunk.model, _chunk_tags(doc, chunk, rules.infer_tags),
            Jsonb(chunk.metadata),
        ]  # fmt: skip
        prepared.append(PreparedChunk(row=row, vectors=vectors))
    row = {
        "src": doc.src, "title": doc.title, "category": doc.category,
        "metadata": doc.metadata, "tags": doc.tags,
    }  # fmt: skip
    return PreparedDocument(doc_id=doc.doc_id, row=row, chunks=prepared)


async def load_spaces(conn: AsyncConnection) -> dict[str, SpaceInfo]:
    cursor = await conn.execute(queries("spaces").list_spaces)
    return {
        row[1]: SpaceInfo(id=row[0], name=row[1], dims=row[2]) for row in await cursor.fetchall()
    }


async def _check_chunk_owners(conn: AsyncConnection, docs: Sequence[PreparedDocument]) -> None:
    chunk_ids = [c.row[2] for d in docs for c in d.chunks]
    doc_ids = [d.doc_id for d in docs]
    cursor = await conn.execute(queries("documents").chunk_owner_conflicts, (chunk_ids, doc_ids))
    clash = await cursor.fetchone()
    if clash:
        raise Conflict(
            f"chunk_id {clash[0]!r} already belongs to document {clash[1]!r}",
            chunk_id=clash[0], doc_id=clash[1],
        )  # fmt: skip


async def _upsert_documents(
    conn: AsyncConnection, docs: Sequence[PreparedDocument]
) -> tuple[dict[str, int], int]:
    q = queries("documents")
    payload = [{"doc_id": d.doc_id, **d.row} for d in docs]
    cursor = await conn.execute(q.upsert_documents, (Jsonb(payload),))
    pks = {doc_id: pk for pk, doc_id in await cursor.fetchall()}
    cursor = await conn.execute(q.delete_document_chunks, (list(pks.values()),))
    replaced = (await cursor.fetchone() or (0,))[0]
    return pks, replaced


async def _reserve_ids(conn: AsyncConnection, count: int) -> list[int]:
    cursor = await conn.execute(queries("documents").reserve_chunk_ids, (count,))
    return [row[0] for row in await cursor.fetchall()]


def _vector_rows(docs: Iterable[PreparedDocument], space: str) -> Iterable[tuple[int, np.ndarray]]:
    for doc in docs:
        for chunk in doc.chunks:
            vector = chunk.vectors.get(space)
            if vector is not None:
                yield chunk.row[0], vector


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
    """Write prepared documents in one transaction (all or nothing)."""
    q = queries("documents")
    async with conn.transaction():
        await _check_chunk_owners(conn, docs)
        pks, replaced = await _upsert_documents(conn, docs)
        chunks = [c for d in docs for c in d.chunks]
        for chunk, chunk_pk in zip(chunks, await _reserve_ids(conn, len(chunks)), strict=True):
            chunk.row[0] = chunk_pk
            chunk.row[1] = pks[chunk.row[3]]
        await _copy_rows(conn, q.copy_chunks, CHUNK_TYPES, (c.row for c in chunks))
        counts: dict[str, int] = {}
        for name in sorted({s for c in chunks for s in c.vectors}):
            rows = list(_vector_rows(docs, name))
            statement = with_table(q.copy_vectors, spaces[name].id)
            await _copy_rows(conn, statement, ("int8", "vector"), rows)
            counts[name] = len(rows)
    return IngestResult(
        documents=len(docs), chunks=len(chunks), replaced_chunks=replaced, vectors=counts
    )


def utc_now() -> datetime:
    return datetime.now(UTC)


async def ingest_document(
    conn: AsyncConnection, doc: DocumentIn, settings: Settings
) -> dict[str, Any]:
    """The API path: one document, validated whole, stored in one transaction."""
    spaces = await load_spaces(conn)
    prepared = prepare_document(doc, spaces, IngestRules.from_settings(settings))
    result = await store_documents(conn, [prepared], spaces)
    return {
        "ok": True,
        "doc_id": doc.doc_id,
        "chunks": result.chunks,
        "replaced_chunks": result.replaced_chunks,
        "vectors": result.vectors,
    }
