"""The searches: weighted top-k, one space, purpose, and the explanation of one chunk.

These return their JSON directly: the hot path skips validating its own output against
the response model, which the contract tests do instead.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from app.api.deps import Lease, authorize, body_bytes, get_settings, reads
from app.api.openapi import ACCESS, BODY, errors, json_body
from app.api.params import NamePath
from app.api.responses import ORJSONResponse
from app.api.schemas import (
    ExplainResponse,
    PurposeSearchResponse,
    SearchResponse,
    SpaceSearchResponse,
)
from app.auth import Access, Scope
from app.search.explain import ExplainRequest, explain_chunk, parse_explain_request
from app.search.purpose import PurposeSearchRequest, parse_purpose_search, purpose_search
from app.search.request import SearchRequest, parse_search_request
from app.search.service import search
from app.search.space import SpaceSearchRequest, parse_space_search, space_search
from app.settings import Settings

router = APIRouter(prefix="/api/rag", tags=["search"])
Reader = Annotated[Access, Depends(authorize(Scope.READ))]
Body = Annotated[bytes, Depends(body_bytes)]
Reads = Annotated[Lease, Depends(reads)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
SEARCH_ERRORS = errors(*ACCESS, *BODY, 404)


@router.post(
    "/search",
    summary="Top-k chunks by a weighted blend of similarity, keywords, recency and signal",
    openapi_extra=json_body(SearchRequest),
    response_model=SearchResponse,
    responses=SEARCH_ERRORS,
)
async def search_route(
    request: Request, access: Reader, body: Body, lease: Reads, settings: SettingsDep
) -> Any:
    """Score = w_cos·sem + w_lex·lex + w_rec·rec + w_sig·sig over every chunk of the
    collection that passes the filters, computed in PostgreSQL; the rows are the best k
    (ties by chunk_id). 404: an unknown collection."""
    query = parse_search_request(body)
    async with lease.connection(access, query.collection) as conn:
        result = await search(conn, query, settings)
    request.state.search_metadata = result["query_metadata"]  # for the metrics and logs
    return ORJSONResponse(result)


@router.post(
    "/search/space/{space}",
    summary="Nearest chunks of one embedding space by cosine similarity (plain ANN)",
    openapi_extra=json_body(SpaceSearchRequest),
    response_model=SpaceSearchResponse,
    responses=SEARCH_ERRORS,
)
async def space_search_route(
    space: NamePath, access: Reader, body: Body, lease: Reads, settings: SettingsDep
) -> Any:
    """Wrong dimension: 400 {"error": "query_dimension_mismatch", "expected", "actual"};
    unknown space: 400 {"error": "invalid_space", "valid_spaces"}."""
    request = parse_space_search(body)
    async with lease.connection(access, request.collection) as conn:
        return ORJSONResponse(await space_search(conn, space, request, settings))


@router.post(
    "/search/purpose",
    summary="Chunks ranked by alignment (cosine) to a goal or a purpose vector",
    openapi_extra=json_body(PurposeSearchRequest),
    response_model=PurposeSearchResponse,
    responses=SEARCH_ERRORS,
)
async def purpose_search_route(
    access: Reader, body: Body, lease: Reads, settings: SettingsDep
) -> Any:
    """Give goal (a stored goal's name) or purpose_vector. 404: an unknown goal."""
    request = parse_purpose_search(body)
    async with lease.connection(access, request.collection) as conn:
        return ORJSONResponse(await purpose_search(conn, request, settings))


@router.post(
    "/explain",
    summary="Where one chunk ranks for a search, its components, and what kept it out",
    openapi_extra=json_body(ExplainRequest),
    response_model=ExplainResponse,
    responses=SEARCH_ERRORS,
)
async def explain_route(access: Reader, body: Body, lease: Reads, settings: SettingsDep) -> Any:
    """The stage is included, filter (with failed_filters and, for a metadata filter,
    failed_conditions), no_keyword_match, min_similarity, rrf_window (fusion rrf: in no
    component's window), min_score, max_per_source, or outscored (with short_by). Counting
    the rank costs a scan. 404: an unknown chunk."""
    request = parse_explain_request(body)
    async with lease.connection(access, request.collection) as conn:
        return ORJSONResponse(await explain_chunk(conn, request, settings))
