"""Bulk ingest: documents taken from an iterable a batch at a time (never more in memory),
each batch stored with several requests in flight, progress reported after each batch."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ragsearch_client.errors import RagsearchError
from ragsearch_client.models import DocumentIn, IngestResponse


@dataclass
class IngestProgress:
    """What a bulk ingest has stored so far."""

    documents: int = 0
    chunks: int = 0
    replaced_chunks: int = 0
    vectors: dict[str, int] = field(default_factory=dict)
    started: float = field(default_factory=time.monotonic)

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started

    def add(self, stored: IngestResponse) -> None:
        self.documents += 1
        self.chunks += stored.chunks
        self.replaced_chunks += stored.replaced_chunks
        for space, count in stored.vectors.items():
            self.vectors[space] = self.vectors.get(space, 0) + count


ProgressCallback = Callable[[IngestProgress], None]


class BulkIngestError(RagsearchError):
    """A document of a bulk ingest was refused: ``doc_id``, its ``position`` in the input
    (0-based), the ``cause`` (an APIError, with the status and body) and the ``progress``
    of the documents before it in the input (each stored). Documents after it in its batch
    that were already sent when it was refused may be stored too, uncounted."""

    def __init__(
        self, doc_id: str, position: int, cause: Exception, progress: IngestProgress
    ) -> None:
        self.doc_id = doc_id
        self.position = position
        self.cause = cause
        self.progress = progress
        super().__init__(f"document {doc_id!r} (#{position}) was not stored: {cause}")


def batches(
    documents: Iterable[DocumentIn | Mapping[str, Any]], size: int
) -> Iterator[list[tuple[int, DocumentIn]]]:
    """(position, document) pairs, ``size`` at a time, validated as they are taken."""
    if size < 1:
        raise ValueError("batch_size must be at least 1")
    numbered = enumerate(documents)
    while batch := list(itertools.islice(numbered, size)):
        yield [(position, as_document(document)) for position, document in batch]


def as_document(document: DocumentIn | Mapping[str, Any]) -> DocumentIn:
    return document if isinstance(document, DocumentIn) else DocumentIn.model_validate(document)
