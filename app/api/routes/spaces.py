"""Embedding spaces and collection statistics."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from psycopg import AsyncConnection

from app.api.deps import authorize, body_bytes, db, get_settings, shared_writer
from app.api.openapi import json_body
from app.api.responses import ORJSONResponse
from app.api.schemas import ERROR_RESPONSES
from app.auth import Access, Scope
from app.resources import spaces
from app.settings import Settings
from app.validation import COLLECTION_PATTERN

router = APIRouter(prefix="/api/rag", tags=["spaces"])


@router.post(
    "/spaces",
    status_code=201,
    summary="Register an embedding space (its vector tables and HNSW indexes)",
    openapi_extra=json_body(spaces.SpaceIn),
    responses=ERROR_RESPONSES,
    dependencies=[Depends(shared_writer)],
)
async def register_space(
    body: Annotated[bytes, Depends(body_bytes)],
    conn: Annotated[AsyncConnection, Depends(db)],
    settings: Annotated[Settings, Depends(get_settings)],
) -> Any:
    space = await spaces.register_space(conn, spaces.parse_space(body), settings)
    return ORJSONResponse({"ok": True, "space": space}, status_code=201)


@router.get("/spaces", summary="Registered spaces", dependencies=[Depends(authorize(Scope.READ))])
async def list_spaces(conn: Annotated[AsyncConnection, Depends(db)]) -> Any:
    return {"ok": True, "spaces": await spaces.list_spaces(conn)}


@router.delete(
    "/spaces/{name}",
    summary="Drop a space and all its vectors (not the default space)",
    responses=ERROR_RESPONSES,
    dependencies=[Depends(shared_writer)],
)
async def drop_space(
    name: str,
    conn: Annotated[AsyncConnection, Depends(db)],
    settings: Annotated[Settings, Depends(get_settings)],
) -> Any:
    await spaces.drop_space(conn, name, settings)
    return {"ok": True, "dropped": name}


@router.get("/stats", summary="Documents, chunks, and vectors per space in a collection")
async def stats(
    access: Annotated[Access, Depends(authorize(Scope.READ))],
    conn: Annotated[AsyncConnection, Depends(db)],
    collection: Annotated[str, Query(pattern=COLLECTION_PATTERN)] = "default",
) -> Any:
    return await spaces.stats(conn, access.collection(collection))
