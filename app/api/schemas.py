"""Response shapes, for the OpenAPI page (responses are built as plain dicts)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from app.api.openapi import NamedExamples
from app.demo import DEMO_DIMS, demo_queries
from app.settings import Settings


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
    fell_back_to_scan: bool = Field(
        description="The threshold bound did not close within its budget, so it scanned."
    )
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


def request_examples(settings: Settings) -> dict[tuple[str, str], Any]:
    """Request bodies for /docs that work as they stand against the demo corpus."""
    if settings.default_dims == DEMO_DIMS:
        vector = demo_queries()[0]["embedding"]  # "How do I parse JSON text ...?"
    else:
        vector = [round(1 / settings.default_dims**0.5, 6)] * settings.default_dims
    return {
        ("post", "/api/rag/search"): NamedExamples(
            weighted=(
                "Weighted top-k by vector",
                {"embedding": vector, "k": 5, "w_rec": 0.1, "w_sig": 0.1},
            ),
            explained=(
                "Explained search with a profile: components, per-space scores, weights_applied",
                {"embedding": vector, "k": 3, "profile": "balanced", "explain": True},
            ),
            hybrid=(
                "Keywords and vector, blend chosen by the query's class",
                {
                    "query": "parse JSON text with `json.loads`",
                    "embedding": vector,
                    "profile": "auto",
                },
            ),
        ),
        ("put", "/api/rag/profiles/{name}"): {
            "description": "Fresh code answers",
            "w_cos": 0.6,
            "w_rec": 0.3,
            "w_sig": 0.1,
            "recency": {"function": "exponential", "half_life_days": 14},
        },
        ("post", "/api/rag/documents"): {
            "doc_id": "doc-123",
            "src": "https://example.com/doc",
            "title": "Intro",
            "tags": [],
            "metadata": {},
            "chunks": [
                {
                    "chunk_id": "doc-123-chunk-0",
                    "chunk": "Content...",
                    "created_at": "2025-11-09T10:44:00Z",
                    "volume": 2,
                    "confidence": 0.9,
                    "model": settings.default_model,
                    "embedding": vector,
                }
            ],
        },
        ("post", "/api/rag/spaces"): {"name": "code", "dims": 768, "model": "code-embedder"},
        ("post", "/api/rag/search/space/{space}"): {"query_embedding": vector, "top_k": 5},
        ("post", "/api/rag/signals"): {
            "updates": [{"chunk_id": "doc-123-chunk-0", "add_volume": 1}]
        },
    }
