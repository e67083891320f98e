"""Embedding spaces and collection statistics."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
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
from app.api.params import CollectionQuery, NamePath
from app.api.responses import ORJSONResponse, accepted
from app.api.schemas import JobResponse, SpaceCreated, SpaceDropped, SpacesResponse, StatsResponse
from app.auth import Access, Scope
from app.resources import spaces
from app.resources.reembed import ReembedIn, parse_reembed, start_reembed
from app.settings import Settings

router = APIRouter(prefix="/api/rag", tags=["spaces"])


@router.post(
    "/spaces",
    status_code=201,
    summary="Register an embedding space (its vector tables and HNSW indexes)",
    openapi_extra=json_body(spaces.SpaceIn),
    response_model=SpaceCreated,
    responses=errors(*ACCESS, *BODY, 409),
    dependencies=[Depends(shared_writer)],
)
async def register_space(
    body: Annotated[bytes, Depends(body_bytes)],
    conn: Annotated[AsyncConnection, Depends(db)],
    settings: Annotated[Settings, Depends(get_settings)],
) -> Any:
    space = await spaces.register_space(conn, spaces.parse_space(body), settings)
    return ORJSONResponse({"ok": True, "space": space}, status_code=201)


@router.get(
    "/spaces",
    summary="Registered spaces",
    response_model=SpacesResponse,
    responses=errors(*ACCESS),
    dependencies=[Depends(authorize(Scope.READ))],
)
async def list_spaces(conn: Annotated[AsyncConnection, Depends(read_db)]) -> Any:
    return {"ok": True, "spaces": await spaces.list_spaces(conn)}


@router.delete(
    "/spaces/{name}",
    summary="Drop a space and all its vectors (not the default space)",
    response_model=SpaceDropped,
    responses=errors(*ACCESS, 400, 404, 409),
    dependencies=[Depends(shared_writer)],
)
async def drop_space(
    name: NamePath,
    conn: Annotated[AsyncConnection, Depends(db)],
    settings: Annotated[Settings, Depends(get_settings)],
) -> Any:
    return {"ok": True, "dropped": name, **await spaces.drop_space(conn, name, settings)}


@router.post(
    "/spaces/{name}/reembed",
    status_code=202,
    summary="Re-embed a space with another embedder (or its own) as a job; searches switch "
    "to the new vectors when they are complete",
    openapi_extra=json_body(ReembedIn),
    response_model=JobResponse,
    responses=errors(*ACCESS, *BODY, 404, 409),
    dependencies=[Depends(shared_writer)],
)
async def reembed_space(
    request: Request,
    name: NamePath,
    body: Annotated[bytes, Depends(body_bytes)],
    conn: Annotated[AsyncConnection, Depends(db)],
    settings: Annotated[Settings, Depends(get_settings)],
) -> Any:
    """Answers 202 with the job's Location at once. Until the job is done, searches use
    the space's old vectors (and its old embedder for questions); the switch is one
    transaction. 409: the space is being re-embedded already."""
    job = await start_reembed(conn, name, parse_reembed(body), settings)
    workers = getattr(request.app.state, "jobs", None)
    if workers is not None:
        workers.notify()
    return accepted(job)


@router.get(
    "/stats",
    summary="Documents, chunks, and vectors per space in a collection",
    response_model=StatsResponse,
    responses=errors(*ACCESS, 400, 404),
)
async def stats(
    access: Annotated[Access, Depends(authorize(Scope.READ))],
    lease: Annotated[Lease, Depends(reads)],
    collection: CollectionQuery = "default",
) -> Any:
    async with lease.connection(access, collection) as conn:
        return await spaces.stats(conn, collection)
