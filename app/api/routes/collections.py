"""Collections: create, list, read (with counts and top tags), delete with everything in
them."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from psycopg import AsyncConnection

from app.api.deps import (
    Lease,
    authorize,
    body_bytes,
    db,
    get_settings,
    read_db,
    reads,
    shared_writer,
)
from app.api.openapi import ACCESS, BODY, errors, json_body
from app.api.params import CollectionPath
from app.api.responses import ORJSONResponse
from app.api.schemas import (
    CollectionCreated,
    CollectionResponse,
    CollectionsResponse,
    DeletedCollection,
)
from app.auth import Access, Scope
from app.resources import collections
from app.settings import Settings

router = APIRouter(prefix="/api/rag/collections", tags=["collections"])


@router.post(
    "",
    status_code=201,
    summary="Create a collection",
    openapi_extra=json_body(collections.CollectionIn),
    response_model=CollectionCreated,
    responses=errors(*ACCESS, *BODY, 409),
    dependencies=[Depends(shared_writer)],
)
async def create_collection(
    body: Annotated[bytes, Depends(body_bytes)],
    conn: Annotated[AsyncConnection, Depends(db)],
    settings: Annotated[Settings, Depends(get_settings)],
) -> Any:
    parsed = collections.parse_collection(body)
    created = await collections.create_collection(conn, parsed, settings)
    return ORJSONResponse({"ok": True, "collection": created}, status_code=201)


@router.get(
    "",
    summary="Collections with their counts (those the key may use)",
    response_model=CollectionsResponse,
    responses=errors(*ACCESS),
)
async def list_collections(
    access: Annotated[Access, Depends(authorize(Scope.READ))],
    conn: Annotated[AsyncConnection, Depends(read_db)],
) -> Any:
    found = await collections.list_collections(conn, access.collections)
    return {"ok": True, "collections": found}


@router.get(
    "/{name}",
    summary="One collection: counts and most used tags",
    response_model=CollectionResponse,
    responses=errors(*ACCESS, 400, 404),
)
async def get_collection(
    name: CollectionPath,
    access: Annotated[Access, Depends(authorize(Scope.READ))],
    lease: Annotated[Lease, Depends(reads)],
) -> Any:
    async with lease.connection(access, name) as conn:
        return {"ok": True, "collection": await collections.get_collection(conn, name)}


@router.delete(
    "/{name}",
    summary="Delete a collection with its documents, chunks and vectors (not default)",
    response_model=DeletedCollection,
    responses=errors(*ACCESS, 400, 404, 409),
    dependencies=[Depends(shared_writer)],
)
async def delete_collection(
    name: CollectionPath, conn: Annotated[AsyncConnection, Depends(db)]
) -> Any:
    return await collections.delete_collection(conn, name)
