"""Documents: upsert (with chunks and vectors), read, delete."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from psycopg import AsyncConnection

from app.api.deps import body_bytes, db, get_settings, require
from app.api.openapi import json_body
from app.api.schemas import ERROR_RESPONSES
from app.auth import Scope
from app.documents import delete_document, get_document
from app.ingest import DocumentIn, ingest_document, parse_document
from app.settings import Settings

router = APIRouter(prefix="/api/rag/documents", tags=["documents"])


@router.post(
    "",
    summary="Store a document with its chunks (replaces the chunks it had)",
    openapi_extra=json_body(DocumentIn),
    responses=ERROR_RESPONSES,
    dependencies=[Depends(require(Scope.WRITE))],
)
async def upsert_document(
    body: Annotated[bytes, Depends(body_bytes)],
    conn: Annotated[AsyncConnection, Depends(db)],
    settings: Annotated[Settings, Depends(get_settings)],
) -> Any:
    """All or nothing: any bad chunk (empty text, unknown space, wrong dimension,
    NaN/Infinity) gets a 400 naming it, and nothing is stored."""
    return await ingest_document(conn, parse_document(body), settings)


@router.get(
    "/{doc_id}",
    summary="A document and its chunks",
    responses=ERROR_RESPONSES,
    dependencies=[Depends(require(Scope.READ))],
)
async def read_document(
    doc_id: str,
    conn: Annotated[AsyncConnection, Depends(db)],
    include_embeddings: Annotated[bool, Query(description="Add each chunk's vectors.")] = False,
) -> Any:
    return await get_document(conn, doc_id, include_embeddings)


@router.delete(
    "/{doc_id}",
    summary="Delete a document, its chunks and their vectors",
    responses=ERROR_RESPONSES,
    dependencies=[Depends(require(Scope.WRITE))],
)
async def remove_document(doc_id: str, conn: Annotated[AsyncConnection, Depends(db)]) -> Any:
    return await delete_document(conn, doc_id)
