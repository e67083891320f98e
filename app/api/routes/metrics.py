"""Prometheus metrics."""

from __future__ import annotations

from fastapi import APIRouter, Request
from prometheus_client import CONTENT_TYPE_LATEST
from starlette.responses import Response

from app.api.openapi import errors
from app.auth import Scope, check_access

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
    Needs a read key unless RAG_METRICS_PUBLIC=true. With several workers each answers
    for itself: scrape each, or run one worker per port."""
    settings = request.app.state.settings
    if not settings.metrics_public:
        check_access(settings, request.headers.get("authorization"), Scope.READ)
    return Response(request.app.state.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)
