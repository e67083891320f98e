"""POST /api/rag/signals: usefulness feedback for chunks."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from app.api.deps import Lease, authorize, body_bytes, writes
from app.api.openapi import ACCESS, BODY, errors, json_body
from app.api.schemas import SignalsResponse
from app.auth import Access, Scope
from app.resources.signals import SignalsIn, apply_signals, parse_signals

router = APIRouter(prefix="/api/rag", tags=["signals"])


@router.post(
    "/signals",
    summary="Update volume, confidence or signal of chunks (clicks, ratings)",
    openapi_extra=json_body(SignalsIn),
    response_model=SignalsResponse,
    responses=errors(*ACCESS, *BODY, 404),
)
async def update_signals(
    access: Annotated[Access, Depends(authorize(Scope.WRITE))],
    body: Annotated[bytes, Depends(body_bytes)],
    lease: Annotated[Lease, Depends(writes)],
) -> Any:
    """add_volume counts a click; signal pins a value in [0,1], signal: null unpins it.
    An unknown chunk_id makes the whole request fail with 404, changing nothing."""
    signals = parse_signals(body)
    async with lease.connection(access, signals.collection) as conn:
        return await apply_signals(conn, signals)
