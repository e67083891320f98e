"""``POST /api/rag/explain``: where one chunk ranks for a search, and what kept it out.

The answer names the stage: ``included`` (it is in the top-k), ``filter`` (and which
filters it fails), ``no_keyword_match`` (a keyword-only search, and the chunk holds none
of the query's terms), ``min_similarity`` or ``min_score`` (its semantic part or score
is under the floor), ``max_per_source`` (it scores high enough, but better chunks of its
source filled the cap), or ``outscored`` (and by how much it trails the k-th result).
Its rank is counted over every chunk that passes the filters: like ``exact: true``,
this costs a scan.
"""

from __future__ import annotations

from typing import Any

from pgvector import Vector
from psycopg import AsyncConnection
from psycopg.types.json import Jsonb
from pydantic import ConfigDict, Field

from app.db.sqlfiles import queries
from app.explain import explain_row, per_space_scores
from app.search import (
    SEARCH_RULES,
    SearchQuery,
    SearchRequest,
    build_query,
    contract_row,
    load_context,
    query_classification,
    query_text_vector,
    run_topk,
    weights_applied,
)
from app.settings import Settings
from app.validation import parse_model


class ExplainRequest(SearchRequest):
    """Body of ``POST /api/rag/explain``: a search body plus the chunk to explain."""

    model_config = ConfigDict(extra="forbid")

    chunk_id: str = Field(min_length=1, description="The chunk to explain.")


EXPLAIN_RULES = {**SEARCH_RULES, "chunk_id": "chunk_id must be a non-empty string"}


def parse_explain_request(body: bytes) -> ExplainRequest:
    return parse_model(ExplainRequest, body, EXPLAIN_RULES)


async def _chunk_detail(conn: AsyncConnection, query: SearchQuery, chunk_id: str) -> dict[str, Any]:
    cursor = await conn.execute(
        queries("search").explain_chunk,
        (
            [Vector(v) for v in query.vectors], query.spaces,
            [query.space_weights[s] for s in query.spaces], query.weights.w_cos,
            query.weights.w_rec, query.weights.w_sig, Jsonb(query.filters),
            Jsonb(query.options), chunk_id, query.weights.lex, query.text,
        ),
    )  # fmt: skip
    row = await cursor.fetchone()
    assert row is not None
    detail: dict[str, Any] = row[0]
    return detail


def _stage(
    request: ExplainRequest, detail: dict[str, Any], rows: list[dict[str, Any]], k: int
) -> dict[str, Any]:
    ids = [row["chunk_id"] for row in rows]
    kth = rows[-1]["score"] if len(rows) >= k else None
    if request.chunk_id in ids:
        return {"stage": "included", "position": ids.index(request.chunk_id) + 1}
    if detail["failed_filters"]:
        return {"stage": "filter", "failed_filters": detail["failed_filters"]}
    if detail["eligible_score"] is None:
        if request.min_similarity is None or detail["sem"] >= request.min_similarity:
            return {"stage": "no_keyword_match", "lex": detail["lex"]}
        return {"stage": "min_similarity", "min_similarity": request.min_similarity,
                "sem": detail["sem"]}  # fmt: skip
    if request.min_score is not None and detail["score"] < request.min_score:
        return {"stage": "min_score", "min_score": request.min_score, "score": detail["score"],
                "short_by": request.min_score - detail["score"]}  # fmt: skip
    if kth is not None and detail["score"] >= kth:
        same = [row for row in rows if _source(row) == detail["source"]]
        return {"stage": "max_per_source", "source": detail["source"],
                "rows_of_source": len(same)}  # fmt: skip
    return {"stage": "outscored", "kth_score": kth,
            "short_by": None if kth is None else kth - detail["score"]}  # fmt: skip


def _source(row: dict[str, Any]) -> str:
    return row["src"] or row["doc_id"]


async def explain_chunk(
    conn: AsyncConnection, request: ExplainRequest, settings: Settings
) -> dict[str, Any]:
    context = await load_context(conn, request.profile_name())
    text_vector = await query_text_vector(request, settings)
    query = build_query(request, settings, context, text_vector, query_classification(request))
    query.offset = 0
    result = await run_topk(conn, query)
    detail = await _chunk_detail(conn, query, request.chunk_id)
    as_row = {**detail, "score": detail["score"]}
    rows = result["rows"]
    return {
        "ok": True,
        "chunk_id": request.chunk_id,
        "rank": detail["rank"],
        "score": detail["score"],
        "kth_score": rows[-1]["score"] if len(rows) >= query.k else None,
        "k": query.k,
        **explain_row(as_row, query),
        "per_space_scores": per_space_scores(as_row, query),
        **_stage(request, detail, rows, query.k),
        "results": [contract_row(row) for row in rows],
        "weights_applied": weights_applied(query),
    }
