"""Liveness and readiness."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from app.api.responses import ORJSONResponse
from app.api.schemas import Health, Readiness
from app.db.health import readiness

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="The process is up", response_model=Health)
async def healthz() -> Any:
    return {"ok": True}


@router.get(
    "/readyz",
    summary="The database answers and its schema is current",
    response_model=Readiness,
    response_model_exclude_unset=True,
    responses={503: {"model": Readiness, "description": "Not ready: the reason in error."}},
)
async def readyz(request: Request) -> Any:
    """503 while the database is unavailable or its schema is not this version's; 200
    otherwise, with "degraded" naming anything impaired (an HNSW index being rebuilt, a
    read replica out of rotation); "databases" lists the primary and each replica with
    its replay lag."""
    ready = await readiness(request.app.state.database, request.app.state.replicas)
    return ORJSONResponse(ready.body, status_code=200 if ready.ok else 503)
