"""Goals: named reference vectors for purpose alignment and purpose search."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from psycopg import AsyncConnection

from app.api.deps import authorize, body_bytes, db, get_settings, shared_writer
from app.api.openapi import ACCESS, BODY, errors, json_body
from app.api.params import NamePath
from app.api.schemas import Deleted, GoalResponse, GoalsResponse
from app.auth import Scope
from app.resources import goals
from app.resources.goals import GoalIn
from app.settings import Settings

router = APIRouter(prefix="/api/rag/goals", tags=["purpose"])
Connection = Annotated[AsyncConnection, Depends(db)]


@router.get(
    "",
    summary="Every goal",
    response_model=GoalsResponse,
    responses=errors(*ACCESS),
    dependencies=[Depends(authorize(Scope.READ))],
)
async def list_goals(conn: Connection) -> Any:
    return {"ok": True, "goals": await goals.list_goals(conn)}


@router.get(
    "/{name}",
    summary="One goal",
    response_model=GoalResponse,
    response_model_exclude_unset=True,
    responses=errors(*ACCESS, 400, 404),
    dependencies=[Depends(authorize(Scope.READ))],
)
async def get_goal(
    name: NamePath,
    conn: Connection,
    include_embeddings: Annotated[bool, Query(description="Add the vectors.")] = False,
) -> Any:
    return await goals.get_goal(conn, name, include_embeddings)


@router.put(
    "/{name}",
    summary="Create or replace a goal (its vectors by space)",
    openapi_extra=json_body(GoalIn),
    response_model=GoalResponse,
    response_model_exclude_unset=True,
    responses=errors(*ACCESS, *BODY),
    dependencies=[Depends(shared_writer)],
)
async def put_goal(
    name: NamePath,
    body: Annotated[bytes, Depends(body_bytes)],
    conn: Connection,
    settings: Annotated[Settings, Depends(get_settings)],
) -> Any:
    return await goals.put_goal(conn, name, goals.parse_goal(body), settings)


@router.delete(
    "/{name}",
    summary="Delete a goal",
    response_model=Deleted,
    responses=errors(*ACCESS, 400, 404),
    dependencies=[Depends(shared_writer)],
)
async def delete_goal(name: NamePath, conn: Connection) -> Any:
    await goals.delete_goal(conn, name)
    return {"ok": True, "deleted": name}
