"""Documents: upsert (with chunks and vectors), read, delete."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from app.api.deps import Lease, authorize, document_body, get_settings, reads, writes
from app.api.openapi import ACCESS, BODY, errors, json_body
from app.api.params import AsyncQuery, CollectionQuery, DocId
from app.api.responses import ACCEPTED, accepted
from app.api.schemas import DeletedDocument, DocumentResponse, IngestResponse
from app.auth import Access, Scope
from app.ingest.embed import to_embed
from app.ingest.models import DocumentIn
from app.ingest.prepare import parse_document
from app.resources.documents import (
    delete_document,
    get_document,
    prepared_document,
    store_prepared,
)
from app.resources.jobs import document_item, queue_ingest
from app.settings import Settings

router = APIRouter(prefix="/api/rag/documents", tags=["documents"])


@router.post(
    "",
    summary="Store a document: chunks with or without vectors, or its whole text",
    openapi_extra=json_body(DocumentIn),
    response_model=IngestResponse,
    responses={**errors(*ACCESS, *BODY, 404, 409, 502), **ACCEPTED},
)
async def upsert_document(
    request: Request,
    access: Annotated[Access, Depends(authorize(Scope.WRITE))],
    body: Annotated[bytes, Depends(document_body)],
    lease: Annotated[Lease, Depends(writes)],
    settings: Annotated[Settings, Depends(get_settings)],
    run_async: AsyncQuery = False,
) -> Any:
    """All or nothing: any bad chunk (empty text, unknown space, wrong dimension,
    NaN/Infinity) gets a 400 naming it, and nothing is stored; so does an embedder that is
    down (503 with Retry-After) or answers wrong (502). A document whose chunks need more
    than RAG_SYNC_EMBED_MAX_CHUNKS vectors made (or any, with ?async=true) is queued as
    a job: 202 with Location. 404: an unknown collection; 409: a chunk_id another
    document of the collection holds."""
    document = parse_document(body)
    async with lease.held(access, document.collection) as connect:
        prepared, spaces = await prepared_document(connect, document, settings)
        if run_async or to_embed([prepared], spaces, settings) > settings.sync_embed_max_chunks:
            item = document_item(document.doc_id, body)
            async with connect() as conn:
                queued = await queue_ingest(request, conn, document.collection, [item])
            return accepted(queued)
        stored = await store_prepared(connect, prepared, spaces, settings)
    request.state.ingested_chunks = stored["chunks"]  # for the metrics
    request.app.state.statistics.written(document.collection)
    return stored


@router.get(
    "/{doc_id:path}",
    summary="A document and its chunks",
    response_model=DocumentResponse,
    response_model_exclude_unset=True,
    responses=errors(*ACCESS, 400, 404),
)
async def read_document(
    doc_id: DocId,
    access: Annotated[Access, Depends(authorize(Scope.READ))],
    lease: Annotated[Lease, Depends(reads)],
    collection: CollectionQuery = "default",
    include_embeddings: Annotated[bool, Query(description="Add each chunk's vectors.")] = False,
) -> Any:
    async with lease.connection(access, collection) as conn:
        return await get_document(conn, collection, doc_id, include_embeddings)


@router.delete(
    "/{doc_id:path}",
    summary="Delete a document, its chunks and their vectors",
    response_model=DeletedDocument,
    responses=errors(*ACCESS, 400, 404),
)
async def remove_document(
    request: Request,
    doc_id: DocId,
    access: Annotated[Access, Depends(authorize(Scope.WRITE))],
    lease: Annotated[Lease, Depends(writes)],
    collection: CollectionQuery = "default",
) -> Any:
    async with lease.connection(access, collection) as conn:
        deleted = await delete_document(conn, collection, doc_id)
    request.app.state.statistics.written(collection)
    return deleted
