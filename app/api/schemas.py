"""Response shapes, for the OpenAPI page (responses are built as plain dicts)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class ErrorBody(BaseModel):
    error: str = Field(description="What is wrong: the field and the rule, or the failure.")


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "A field breaks a rule."},
    401: {
        "model": ErrorBody,
        "description": 'Missing or wrong bearer token: {"error": "Unauthorized"}',
    },
    500: {"model": ErrorBody, "description": '{"error": "internal_error", "detail": "..."}'},
    503: {"model": ErrorBody, "description": "Connection pool exhausted; see Retry-After."},
}


class Weights(BaseModel):
    w_cos: float
    w_rec: float
    w_sig: float


class SearchRow(BaseModel):
    chunk_id: str
    doc_id: str
    src: str
    chunk: str
    model: str
    score: float = Field(description="w_cos·sem + w_rec·rec + w_sig·sig")
    cos_dist: float | None = Field(description="Cosine distance in the first query space.")
    l2_dist: float | None = Field(description="Euclidean distance in the first query space.")
    scale: float = Field(description="volume × confidence")
    days_old: float
    created_at: str


class QueryMetadata(BaseModel):
    strategy: str = Field(description="How the top-k was found: scan or threshold.")
    exact: bool = Field(description="True when the rows are the exact top-k.")
    candidates_scanned: int
    search_time_ms: float
    sql_time_ms: float
    spaces_searched: list[str]
    space_weights: dict[str, float]


class SearchResponse(BaseModel):
    ok: bool = True
    k: int
    weights: Weights
    rows: list[SearchRow]
    query_metadata: QueryMetadata
