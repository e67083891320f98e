"""POST /api/rag/signals: usefulness feedback for chunks."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from psycopg import AsyncConnection

from app.api.deps import body_bytes, db, require
from app.api.openapi import json_body
from app.api.schemas import ERROR_RESPONSES
from app.auth import Scope
from app.signals import SignalsIn, apply_signals, parse_signals

router = APIRouter(prefix="/api/rag", tags=["signals"])


@router.post(
    "/signals",
    summary="Update volume, confidence or signal of chunks (clicks, ratings)",
    openapi_extra=json_body(SignalsIn),
    responses=ERROR_RESPONSES,
    dependencies=[Depends(require(Scope.WRITE))],
)
async def update_signals(
    body: Annotated[bytes, Depends(body_bytes)],
    conn: Annotated[AsyncConnection, Depends(db)],
) -> Any:
    """add_volume counts a click; signal pins a value in [0,1], signal: null unpins it.
    An unknown chunk_id makes the whole request fail with 404, changing nothing."""
    return await apply_signals(conn, parse_signals(body))
