"""Goals: named reference vectors for purpose alignment and purpose search."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from psycopg import AsyncConnection

from app.api.deps import authorize, body_bytes, db, get_settings, shared_writer
from app.api.openapi import json_body
from app.api.schemas import ERROR_RESPONSES
from app.auth import Scope
from app.resources import goals
from app.resources.goals import GoalIn
from app.settings import Settings

router = APIRouter(prefix="/api/rag/goals", tags=["purpose"])


@router.get("", summary="Every goal", dependencies=[Depends(authorize(Scope.READ))])
async def list_goals(conn: Annotated[AsyncConnection, Depends(db)]) -> Any:
    return {"ok": True, "goals": await goals.list_goals(conn)}


@router.get(
    "/{name}", summary="One goal", responses=ERROR_RESPONSES,
    dependencies=[Depends(authorize(Scope.READ))],
)  # fmt: skip
async def get_goal(
    name: str,
    conn: Annotated[AsyncConnection, Depends(db)],
    include_embeddings: Annotated[bool, Query(description="Add the vectors.")] = False,
) -> Any:
    return await goals.get_goal(conn, name, include_embeddings)


@router.put(
    "/{name}",
    summary="Create or replace a goal (its vectors by space)",
    openapi_extra=json_body(GoalIn),
    responses=ERROR_RESPONSES,
    dependencies=[Depends(shared_writer)],
)
async def put_goal(
    name: str,
    body: Annotated[bytes, Depends(body_bytes)],
    conn: Annotated[AsyncConnection, Depends(db)],
    settings: Annotated[Settings, Depends(get_settings)],
) -> Any:
    return await goals.put_goal(conn, name, goals.parse_goal(body), settings)


@router.delete(
    "/{name}", summary="Delete a goal", responses=ERROR_RESPONSES,
    dependencies=[Depends(shared_writer)],
)  # fmt: skip
async def delete_goal(name: str, conn: Annotated[AsyncConnection, Depends(db)]) -> Any:
    await goals.delete_goal(conn, name)
    return {"ok": True, "deleted": name}
