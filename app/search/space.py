"""Single-space search: the nearest chunks of one embedding space by cosine similarity.

The plain vector query (HNSW at RAG_HNSW_EF_SEARCH, or an exact scan with ``exact``),
for clients that want one model's view, and the baseline the weighted search is
measured against.
"""

from __future__ import annotations

import time
from typing import Any

from psycopg import AsyncConnection
from pydantic import ConfigDict, Field

from app.errors import BadRequest
from app.search.context import load_context
from app.search.filters import FILTER_RULES, FilterFields
from app.search.parts import space_topk
from app.search.plan import nearest_plan
from app.settings import Settings
from app.validation import Count, UnitFloat, parse_model
from app.vectors import VectorInput, as_space_value, as_vector


class SpaceSearchRequest(FilterFields):
    """Body of ``POST /api/rag/search/space/{space}``."""

    model_config = ConfigDict(extra="forbid")

    query_embedding: VectorInput = Field(description="Query vector of the space's model.")
    top_k: Count = Field(default=10, ge=1, le=50, description="Rows, 1..50.")
    min_similarity: UnitFloat | None = Field(
        default=None, description="Drop results whose cosine similarity is lower (0..1)."
    )
    exact: bool = Field(default=False, strict=True, description="Exact scan, not HNSW.")


SPACE_SEARCH_RULES = {
    **FILTER_RULES,
    "query_embedding": "query_embedding (number[]) required",
    "top_k": "top_k must be an integer in 1..50",
    "min_similarity": "min_similarity must be a number in [0,1]",
    "exact": "exact must be true or false",
}


def parse_space_search(body: bytes | dict[str, Any]) -> SpaceSearchRequest:
    return parse_model(SpaceSearchRequest, body, SPACE_SEARCH_RULES)


async def space_search(
    conn: AsyncConnection, space: str, request: SpaceSearchRequest, settings: Settings,
    field: str = "query_embedding",
) -> dict[str, Any]:  # fmt: skip
    """The nearest chunks; ``field`` names the vector in errors (the caller's name for it)."""
    started = time.perf_counter()
    context = await load_context(conn, request.collection, None)
    info = context.space(space)
    if info.kind == "dense":
        vector = as_vector(request.query_embedding, field)
        if vector.size != info.dims:
            raise BadRequest(
                "query_dimension_mismatch",
                message=f"{field} has {vector.size} dimensions; space {space!r} has "
                f"{info.dims}",
                space=space, expected=info.dims, actual=int(vector.size),
            )  # fmt: skip
    value = as_space_value(request.query_embedding, field, info)
    plan = nearest_plan(request, context, info, value, settings, request.exact)
    result = await space_topk(conn, plan, request.min_similarity)
    return {
        "ok": True,
        "space": space,
        "top_k": request.top_k,
        "results": result["rows"],
        "query_metadata": {
            "strategy": result["meta"]["strategy"],
            "exact": result["meta"]["exact"],
            "collection": request.collection,
            "search_time_ms": round((time.perf_counter() - started) * 1000, 3),
            "sql_time_ms": result["meta"]["search_time_ms"],
        },
    }
