"""Liveness and readiness."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from app.api.responses import ORJSONResponse
from app.db.migrate import head_revision
from app.db.sqlfiles import functions_digest, queries
from app.errors import RagError, from_database_error

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="The process is up")
async def healthz() -> Any:
    return {"ok": True}


@router.get("/readyz", summary="The database answers and its schema is current")
async def readyz(request: Request) -> Any:
    try:
        async with request.app.state.pool.connection(timeout=2) as conn:
            cursor = await conn.execute(queries("meta").readiness)
            revision, digest = await cursor.fetchone() or (None, None)
    except Exception as error:  # any failure means "not ready", reported as such
        failure = error if isinstance(error, RagError) else from_database_error(error)
        return ORJSONResponse({"ok": False, "error": failure.message}, status_code=503)
    problems = []
    if revision != head_revision():
        problems.append(f"schema at revision {revision}, expected {head_revision()}")
    if digest != functions_digest():
        problems.append("SQL functions differ from this version; run `ragsearch migrate`")
    if problems:
        return ORJSONResponse({"ok": False, "error": "; ".join(problems)}, status_code=503)
    return {"ok": True, "revision": revision}
