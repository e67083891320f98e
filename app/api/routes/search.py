"""POST /api/rag/search: the weighted top-k contract."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from psycopg import AsyncConnection

from app.api.deps import body_bytes, db, get_settings, require
from app.api.openapi import json_body
from app.api.schemas import ERROR_RESPONSES, SearchResponse
from app.auth import Scope
from app.purpose import PurposeSearchRequest, parse_purpose_search, purpose_search
from app.search import SearchRequest, parse_search_request, search
from app.settings import Settings
from app.space_search import SpaceSearchRequest, parse_space_search, space_search
from app.why_not import ExplainRequest, explain_chunk, parse_explain_request

router = APIRouter(prefix="/api/rag", tags=["search"])


@router.post(
    "/search",
    summary="Top-k chunks by a weighted blend of similarity, recency and signal",
    openapi_extra=json_body(SearchRequest),
    responses={200: {"model": SearchResponse}, **ERROR_RESPONSES},
    dependencies=[Depends(require(Scope.READ))],
)
async def search_route(
    body: Annotated[bytes, Depends(body_bytes)],
    conn: Annotated[AsyncConnection, Depends(db)],
    settings: Annotated[Settings, Depends(get_settings)],
) -> Any:
    """Score = w_cos·sem + w_rec·rec + w_sig·sig over every chunk that passes the filters,
    computed in PostgreSQL; the rows are exactly the best k (ties by chunk_id)."""
    return await search(conn, parse_search_request(body), settings)


@router.post(
    "/search/space/{space}",
    summary="Nearest chunks of one embedding space by cosine similarity (plain ANN)",
    openapi_extra=json_body(SpaceSearchRequest),
    responses=ERROR_RESPONSES,
    dependencies=[Depends(require(Scope.READ))],
)
async def space_search_route(
    space: str,
    body: Annotated[bytes, Depends(body_bytes)],
    conn: Annotated[AsyncConnection, Depends(db)],
    settings: Annotated[Settings, Depends(get_settings)],
) -> Any:
    """Wrong dimension: 400 {"error": "query_dimension_mismatch", "expected", "actual"};
    unknown space: 400 {"error": "invalid_space", "valid_spaces"}."""
    return await space_search(conn, space, parse_space_search(body), settings)


@router.post(
    "/search/purpose",
    summary="Chunks ranked by alignment (cosine) to a goal or a purpose vector",
    openapi_extra=json_body(PurposeSearchRequest),
    responses=ERROR_RESPONSES,
    dependencies=[Depends(require(Scope.READ))],
)
async def purpose_search_route(
    body: Annotated[bytes, Depends(body_bytes)],
    conn: Annotated[AsyncConnection, Depends(db)],
    settings: Annotated[Settings, Depends(get_settings)],
) -> Any:
    return await purpose_search(conn, parse_purpose_search(body), settings)


@router.post(
    "/explain",
    summary="Where one chunk ranks for a search, its components, and what kept it out",
    openapi_extra=json_body(ExplainRequest),
    responses=ERROR_RESPONSES,
    dependencies=[Depends(require(Scope.READ))],
)
async def explain_route(
    body: Annotated[bytes, Depends(body_bytes)],
    conn: Annotated[AsyncConnection, Depends(db)],
    settings: Annotated[Settings, Depends(get_settings)],
) -> Any:
    """The stage is included, filter (with failed_filters), min_similarity, min_score, or
    outscored (with short_by). Counting the rank costs a scan."""
    return await explain_chunk(conn, parse_explain_request(body), settings)
