"""Facets: counts of the chunks a search ranks from, per tag, source, document, metadata
value and collection."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from app.api.deps import Lease, authorize, body_bytes, get_settings, reads
from app.api.openapi import ACCESS, BODY, errors, json_body
from app.api.responses import ORJSONResponse
from app.auth import Access, Scope
from app.facets.request import FacetRequest, parse_facet_request
from app.facets.response import FacetsResponse
from app.facets.service import count_facets
from app.settings import Settings

router = APIRouter(prefix="/api/rag", tags=["search"])


@router.post(
    "/facets",
    summary="How many matching chunks hold each tag, source, document, metadata value or "
    "collection",
    openapi_extra=json_body(FacetRequest),
    response_model=FacetsResponse,
    responses=errors(*ACCESS, *BODY, 404),
)
async def facets_route(
    access: Annotated[Access, Depends(authorize(Scope.READ))],
    body: Annotated[bytes, Depends(body_bytes)],
    lease: Annotated[Lease, Depends(reads)],
    settings: Annotated[Settings, Depends(get_settings)],
) -> Any:
    """Takes a search body (the same collection, filters and query) with the fields to
    count: exact counts over every chunk the same search ranks from (those that pass the
    filters; for a keyword-only search, those of them holding a query term), not only the
    rows of one page, the most frequent values first. One count reads at most
    RAG_FACET_MAX_CHUNKS chunks; past that the counts are lower bounds and exact is false.
    collection counts the collections the key may read, under the same filters. 404: an
    unknown collection."""
    request = parse_facet_request(body)
    async with lease.connection(access, request.collection) as conn:
        return ORJSONResponse(await count_facets(conn, request, settings, access.collections))
