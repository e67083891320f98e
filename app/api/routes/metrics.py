"""Prometheus metrics."""

from __future__ import annotations

from fastapi import APIRouter, Request
from prometheus_client import CONTENT_TYPE_LATEST
from starlette.responses import Response

from app.api.openapi import errors
from app.auth import check_metrics_access

router = APIRouter(tags=["health"])


@router.get(
    "/metrics",
    summary="Metrics in the Prometheus text format",
    response_class=Response,
    responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}},
                     "description": "The exposition."}, **errors(401, 403)},
)  # fmt: skip
async def metrics(request: Request) -> Response:
    """Requests, latency by route and status, searches by strategy, pool use, errors.
    They count every collection's requests: a key from RAG_API_KEYS or RAG_METRICS_KEYS
    is needed, unless RAG_METRICS_PUBLIC=true. With several workers each answers for
    itself: scrape each, or run one worker per port."""
    check_metrics_access(request.app.state.settings, request.headers.get("authorization"))
    return Response(request.app.state.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)
