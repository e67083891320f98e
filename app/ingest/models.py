"""What clients send to store a document (``POST /api/rag/documents``, and each line of
a ``ragsearch ingest`` file)."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

from app.validation import (
    CollectionName,
    FiniteFloat,
    Identifier,
    Metadata,
    Name,
    Text,
    Timestamp,
)
from app.vectors import VectorInput

Tag = Annotated[Text, Field(min_length=1, max_length=200)]
CHUNK_MAX_CHARACTERS = 1_000_000
TEXT_MAX_CHARACTERS = 100_000_000  # RAG_MAX_DOCUMENT_CHARS is the limit in force
KEYWORD_INDEX_CHARACTERS = 100_000  # the keyword index reads this much of title + text
# src is indexed (prefix filters): a btree entry holds at most 2,704 bytes, after compression,
# which text that does not compress (a random token, a URL's signature) does not get
SRC_MAX_BYTES = 2_000
# volume and confidence are stored as 4-byte floats, and so is their product (scale): at
# most MAX_VOLUME, and a number nearer 0 than MIN_VOLUME is taken as 0 (it all but is; the
# product of two such would underflow a 4-byte float, as would one below about 1e-45)
MAX_VOLUME = 1e15
MIN_VOLUME = 1e-15


def _as_stored(value: object) -> object:
    """(before the field's bounds: -1e-20 is 0 wherever 0 is allowed)"""
    if isinstance(value, float) and abs(value) < MIN_VOLUME:
        return 0.0
    return value


StoredFloat = Annotated[FiniteFloat, BeforeValidator(_as_stored)]


def _fits_the_src_index(value: str) -> str:
    if len(value.encode("utf-8")) > SRC_MAX_BYTES:
        raise ValueError(f"must be at most {SRC_MAX_BYTES:,} bytes in UTF-8 (it is indexed)")
    return value


Source = Annotated[Text, Field(max_length=SRC_MAX_BYTES), AfterValidator(_fits_the_src_index)]


class ChunkIn(BaseModel):
    """One chunk of a document, as clients send it."""

    model_config = ConfigDict(extra="forbid")

    chunk_id: Identifier | None = Field(
        default=None,
        description="Unique within the collection; default '{doc_id}-chunk-{n}' (n = position "
        "in the list).",
    )
    chunk: Annotated[Text, Field(max_length=CHUNK_MAX_CHARACTERS)] = Field(
        description="The text; must not be empty. The keyword index reads the first "
        f"{KEYWORD_INDEX_CHARACTERS:,} characters of title + text."
    )
    created_at: Timestamp | None = Field(
        default=None, description="What recency is measured from; default now."
    )
    volume: StoredFloat = Field(default=1.0, ge=0, le=MAX_VOLUME)
    confidence: StoredFloat = Field(default=1.0, ge=0, le=MAX_VOLUME)
    signal: StoredFloat | None = Field(
        default=None, ge=0, le=1,
        description="Usefulness in [0,1]; default min(1, volume * confidence / 5).",
    )  # fmt: skip
    model: Annotated[Text, Field(max_length=200)] = ""
    tags: list[Tag] = Field(default_factory=list, max_length=100)
    metadata: Metadata = Field(default_factory=dict)
    embedding: VectorInput | None = Field(default=None, description="Vector in the default space.")
    embeddings: dict[Name, VectorInput] = Field(
        default_factory=dict, description="Vectors by space name."
    )


class ChunkingIn(BaseModel):
    """How a document's ``text`` is split (defaults: RAG_CHUNK_TOKENS,
    RAG_CHUNK_OVERLAP_TOKENS)."""

    model_config = ConfigDict(extra="forbid")

    max_tokens: int | None = Field(
        default=None, ge=8, le=8192, strict=True,
        description="At most this many tokens of the embedding model per chunk (never more "
        "than the model reads, its title line included).",
    )  # fmt: skip
    overlap_tokens: int | None = Field(
        default=None, ge=0, le=4096, strict=True,
        description="Each chunk after the first of a section starts with up to this many "
        "tokens of the one before.",
    )  # fmt: skip


class DocumentIn(BaseModel):
    """Body of ``POST /api/rag/documents``; one line of a ``ragsearch ingest`` file.

    Give ``chunks`` (each with or without vectors), or the whole ``text`` with its
    ``content_type`` for the service to split. Chunks without a vector for a space that
    has an embedder are embedded by the service."""

    model_config = ConfigDict(extra="forbid")

    collection: CollectionName = Field(
        default="default", description="The collection to store the document in."
    )
    doc_id: Identifier = Field(
        description="Unique within the collection: 1..512 characters, no control characters, "
        "no surrounding spaces (any other Unicode, '/' included)."
    )
    src: Source = Field(
        default="", description="Source URL or file path: at most 2,000 bytes in UTF-8."
    )
    title: Annotated[Text, Field(max_length=4096)] = ""
    category: Annotated[Text, Field(max_length=100)] | None = None
    tags: list[Tag] = Field(default_factory=list, max_length=100)
    metadata: Metadata = Field(default_factory=dict)
    chunks: list[ChunkIn] = Field(default_factory=list)
    text: Annotated[Text, Field(max_length=TEXT_MAX_CHARACTERS)] | None = Field(
        default=None,
        description="The whole document, split by the service (instead of chunks); at most "
        "RAG_MAX_DOCUMENT_CHARS characters.",
    )
    content_type: Annotated[str, Field(max_length=200)] | None = Field(
        default=None,
        description="What text is: text/plain (default), text/markdown, text/html, "
        "text/x-rst or text/x-code.",
    )
    chunking: ChunkingIn | None = Field(default=None, description="How text is split.")
    created_at: Timestamp | None = Field(
        default=None, description="What recency is measured from for the chunks of text."
    )


DOCUMENT_RULES = {
    "doc_id": "doc_id must be a non-empty string (at most 512 characters)",
    "collection": "collection must be a collection name (lower-case letters, digits, _ and -, "
    "starting with a letter or digit, at most 63)",
}
