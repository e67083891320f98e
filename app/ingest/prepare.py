"""From a validated document to the rows to store: every rule that does not need the
stored data is checked here, so a bad chunk stops the whole document before the database
is touched."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from datetime import UTC, datetime
from typing import Any

import orjson
from psycopg.types.json import Jsonb

from app.errors import BadRequest
from app.ingest.models import DOCUMENT_RULES, ChunkIn, DocumentIn
from app.ingest.splitting import Position, Splitting, split_text
from app.settings import Settings
from app.spaces import SpaceInfo
from app.tagging import inferred_tags, merge_tags
from app.text.blocks import Parsed
from app.validation import parse_model
from app.vectors import SpaceValue, as_space_value, named_vectors

CHUNK_COLUMNS = (
    "id", "collection_id", "document_id", "chunk_id", "doc_id", "src", "title", "ordinal",
    "chunk", "created_at", "volume", "confidence", "signal_given", "model", "tags",
    "metadata", "meta", "inherits", "content_hash", "heading_path", "char_start", "char_end",
)  # fmt: skip
CHUNK_TYPES = (
    "int8", "int4", "int8", "text", "text", "text", "text", "int4", "text",
    "timestamptz", "float4", "float4", "float4", "text", "text[]", "jsonb", "jsonb", "bool",
    "bytea", "text[]", "int4", "int4",
)  # fmt: skip
ROW = {name: i for i, name in enumerate(CHUNK_COLUMNS)}


@dataclass(frozen=True)
class IngestRules:
    """The settings that shape how a document becomes rows (``from_settings``; with the
    spaces' embedders, app/ingest/rules.py)."""

    default_space: str
    max_chunks: int
    infer_tags: bool
    now: datetime  # created_at of chunks that give none
    splitting: Splitting = dataclass_field(default_factory=Splitting)
    server_models: Mapping[str, str] = dataclass_field(
        default_factory=dict
    )  # space -> its embedder's

    @classmethod
    def from_settings(cls, settings: Settings, now: datetime | None = None) -> IngestRules:
        return cls(
            default_space=settings.default_space,
            max_chunks=settings.max_chunks_per_request,
            infer_tags=settings.infer_tags,
            now=now or datetime.now(UTC),
            splitting=Splitting.from_settings(settings),
        )


@dataclass
class PreparedChunk:
    row: list[Any]  # CHUNK_COLUMNS; id, collection_id and document_id filled at write time
    vectors: dict[str, SpaceValue]


@dataclass
class PreparedDocument:
    """A validated document, ready to write: its own row and its chunks' rows."""

    collection: str
    doc_id: str
    row: dict[str, Any]  # src, title, category, metadata, tags
    chunks: list[PreparedChunk]


def _raw_chunk_id(body: bytes | dict[str, Any], index: int) -> str:
    """The chunk_id a chunk that failed validation was given (or would get), for the
    error message; "" when the body does not say."""
    try:
        raw = orjson.loads(body) if isinstance(body, bytes | bytearray) else body
        chunk = raw["chunks"][index]
        given = chunk.get("chunk_id") if isinstance(chunk, dict) else None
        return str(given) if isinstance(given, str) else f"{raw['doc_id']}-chunk-{index}"
    except (orjson.JSONDecodeError, KeyError, IndexError, TypeError):
        return ""


def parse_document(body: bytes | dict[str, Any]) -> DocumentIn:
    """A document, validated; a bad chunk's error names it as the storing rules do."""

    def locate(loc: tuple[str | int, ...], message: str) -> BadRequest | None:
        if len(loc) < 2 or loc[0] != "chunks" or not isinstance(loc[1], int):
            return None
        index = loc[1]
        chunk_id = _raw_chunk_id(body, index)
        return _chunk_error(index, chunk_id, message)

    return parse_model(DocumentIn, body, DOCUMENT_RULES, locate)


def _chunk_error(index: int, chunk_id: str, message: str, **extra: Any) -> BadRequest:
    return BadRequest(
        f"chunks[{index}] ({chunk_id!r}): {message}", chunk=index, chunk_id=chunk_id, **extra
    )


def _check_model(index: int, chunk_id: str, chunk: ChunkIn, field: str, space: str,
                 rules: IngestRules) -> None:  # fmt: skip
    """A vector for a space the server embeds in must be of its model (a vector sent
    without a model is taken to be)."""
    server = rules.server_models.get(space)
    if server is not None and chunk.model and chunk.model != server:
        raise _chunk_error(
            index, chunk_id,
            f"{field}: space {space!r} holds vectors of {server!r}, this chunk's are of "
            f"{chunk.model!r} (leave the vector out and the service embeds the text)",
            field=field, space=space, expected_model=server,
        )  # fmt: skip


def _chunk_vectors(
    index: int, chunk_id: str, chunk: ChunkIn, spaces: dict[str, SpaceInfo], rules: IngestRules
) -> dict[str, SpaceValue]:
    default_space = rules.default_space
    try:
        named = named_vectors(chunk.embedding, chunk.embeddings, default_space)
    except BadRequest as error:
        raise _chunk_error(index, chunk_id, error.message, field="embedding") from None
    vectors: dict[str, SpaceValue] = {}
    for name, (field, values) in named.items():
        space = spaces.get(name)
        if space is None:
            raise _chunk_error(
                index, chunk_id, f"{field}: unknown embedding space {name!r}",
                field=field, valid_spaces=sorted(spaces),
            )  # fmt: skip
        _check_model(index, chunk_id, chunk, field, name, rules)
        try:
            vectors[name] = as_space_value(values, field, space)
        except BadRequest as error:
            raise _chunk_error(index, chunk_id, error.message, **error.extra) from None
    return vectors


def _chunk_row(doc: DocumentIn, chunk: ChunkIn, index: int, chunk_id: str,
               rules: IngestRules, position: Position | None) -> list[Any]:  # fmt: skip
    inferred = inferred_tags(chunk.chunk, doc.category) if rules.infer_tags else []
    where = position or Position((), None, None)
    return [
        None, None, None, chunk_id, doc.doc_id, doc.src, doc.title, index, chunk.chunk,
        chunk.created_at or rules.now, chunk.volume, chunk.confidence,
        None if chunk.signal is None else float(chunk.signal), chunk.model,
        merge_tags(doc.tags, chunk.tags, inferred), Jsonb(chunk.metadata),
        # the merged view only where it is not the document's (stored once, there)
        Jsonb({**doc.metadata, **chunk.metadata}) if chunk.metadata else None,
        bool(doc.metadata), hashlib.sha256(chunk.chunk.encode()).digest(),
        list(where.path) if position else None, where.start, where.end,
    ]  # fmt: skip


# The metadata of one request in all (its document's and its chunks'), as JSON: each is
# at most METADATA_MAX_BYTES (app/validation.py).
REQUEST_METADATA_MAX_BYTES = 8 * 1024 * 1024


def _check_metadata_total(doc: DocumentIn) -> None:
    total = len(orjson.dumps(doc.metadata)) + sum(
        len(orjson.dumps(chunk.metadata)) for chunk in doc.chunks
    )
    if total > REQUEST_METADATA_MAX_BYTES:
        raise BadRequest(
            f"metadata: the document and its chunks hold {total:,} bytes of metadata in all; "
            f"at most {REQUEST_METADATA_MAX_BYTES:,} per request",
            field="metadata",
        )


def _text_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def prepare_document(
    doc: DocumentIn, spaces: dict[str, SpaceInfo], rules: IngestRules,
    source: Parsed | None = None, source_type: str | None = None, source_hash: str | None = None,
) -> PreparedDocument:  # fmt: skip
    """Check every rule that does not need the stored data; build the rows to COPY (a
    document's text, or the ``source`` a file was read into, is split first)."""
    if len(doc.chunks) > rules.max_chunks:
        raise BadRequest(
            f"chunks: at most {rules.max_chunks} chunks per request (got {len(doc.chunks)})",
            field="chunks",
        )
    if source is None and doc.text is None and "chunks" not in doc.model_fields_set:
        # (storing replaces the document's chunks: a body that forgot both would empty it)
        raise BadRequest("a document needs chunks (an empty list stores it without any) "
                         "or text", field="chunks")  # fmt: skip
    chunks, positions = doc.chunks, None
    content_type = source_type
    if doc.text is not None or source is not None:
        chunks, positions, title = split_text(doc, rules.splitting, rules.now, source)
        doc = doc.model_copy(update={"title": title})
        content_type = content_type or rules.splitting.content_type(doc)
    elif doc.content_type is not None or doc.chunking is not None:
        raise BadRequest("content_type and chunking are for text (the whole document)",
                         field="content_type" if doc.content_type else "chunking")  # fmt: skip
    _check_metadata_total(doc)
    seen: set[str] = set()
    prepared: list[PreparedChunk] = []
    for index, chunk in enumerate(chunks):
        chunk_id = chunk.chunk_id or f"{doc.doc_id}-chunk-{index}"
        if chunk_id in seen:
            raise _chunk_error(
                index, chunk_id, "chunk_id repeats an earlier chunk", field="chunk_id"
            )
        seen.add(chunk_id)
        if not chunk.chunk.strip():
            raise _chunk_error(index, chunk_id, "chunk (the text) must not be empty", field="chunk")
        if not math.isfinite(chunk.volume * chunk.confidence):
            raise _chunk_error(index, chunk_id, "volume * confidence overflows", field="volume")
        vectors = _chunk_vectors(index, chunk_id, chunk, spaces, rules)
        position = positions[index] if positions else None
        chunk_row = _chunk_row(doc, chunk, index, chunk_id, rules, position)
        prepared.append(PreparedChunk(chunk_row, vectors))
    row = {
        "src": doc.src, "title": doc.title, "category": doc.category,
        "metadata": doc.metadata, "tags": doc.tags,
        "content_type": content_type,
        "content_hash": source_hash or (_text_hash(doc.text) if doc.text is not None else None),
    }  # fmt: skip
    return PreparedDocument(collection=doc.collection, doc_id=doc.doc_id, row=row, chunks=prepared)
