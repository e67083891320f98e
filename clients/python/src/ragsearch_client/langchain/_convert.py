"""Between LangChain's documents and ragsearch's: one LangChain document is one ragsearch
document of one chunk, whose doc_id and chunk_id are the LangChain id."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from langchain_core.documents import Document

from ragsearch_client._hits import Hit, document_text
from ragsearch_client.models import DocumentIn, DocumentResponse


def ids_for(count: int, ids: Sequence[str | None] | None) -> list[str]:
    """The ids given, a new one for each missing."""
    if ids is not None and len(ids) != count:
        raise ValueError(f"{len(ids)} ids for {count} texts")
    given = list(ids) if ids is not None else [None] * count
    return [value if value else uuid.uuid4().hex for value in given]


def documents_in(
    collection: str,
    texts: Sequence[str],
    metadatas: Sequence[dict[str, Any]] | None,
    ids: Sequence[str],
    vectors: Sequence[list[float]] | None,
    space: str | None,
) -> Iterable[DocumentIn]:
    """What to store: vectors in ``space`` (None: the service's default space), or no
    vectors when the service is to embed the texts."""
    metadatas = metadatas or [{}] * len(texts)
    for n, (text, metadata, doc_id) in enumerate(zip(texts, metadatas, ids, strict=True)):
        chunk: dict[str, Any] = {"chunk_id": doc_id, "chunk": text}
        if vectors is not None:
            vector = [float(value) for value in vectors[n]]
            if space is None:
                chunk["embedding"] = vector
            else:
                chunk["embeddings"] = {space: vector}
        yield DocumentIn.model_validate(
            {
                "collection": collection,
                "doc_id": doc_id,
                "metadata": dict(metadata),
                "chunks": [chunk],
            }
        )


def from_hit(hit: Hit) -> Document:
    return Document(id=hit.row.doc_id, page_content=hit.text, metadata=hit.metadata)


def from_stored(document: DocumentResponse) -> Document:
    return Document(
        id=document.doc_id, page_content=document_text(document), metadata=document.metadata
    )
