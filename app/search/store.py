"""The search functions in SQL, called by name with named arguments: the one place the
Python side talks to ``api.rag_topk_weighted`` and its companions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from pgvector import Vector
from psycopg import AsyncConnection
from psycopg.types.json import Jsonb

from app.db.sqlfiles import queries
from app.search.plan import SearchPlan


@dataclass(frozen=True)
class Ranking:
    """What the ranking function returns: response rows (from the plan's first row on)
    and what happened (strategy, exactness, timings)."""

    rows: list[dict[str, Any]]
    meta: dict[str, Any]


def _arguments(plan: SearchPlan) -> dict[str, Any]:
    return {
        "vectors": [Vector(v) for v in plan.vectors],
        "spaces": list(plan.spaces),
        "space_weights": [plan.space_weights[s] for s in plan.spaces],
        "w_cos": plan.weights.w_cos,
        "w_rec": plan.weights.w_rec,
        "w_sig": plan.weights.w_sig,
        "w_lex": plan.weights.lex,
        "filters": Jsonb(dict(plan.filters)),
        "options": Jsonb(plan.options.as_sql(plan.rows_from)),
        "query": plan.text if plan.weights.lex > 0 else None,
        "collection": plan.collection,
    }


async def _one(conn: AsyncConnection, statement: str, arguments: dict[str, Any]) -> Any:
    cursor = await conn.execute(statement, arguments, prepare=True)
    row = await cursor.fetchone()
    assert row is not None
    return row[0]


async def rank(conn: AsyncConnection, plan: SearchPlan) -> Ranking:
    """One call of the ranking function."""
    result = await _one(
        conn, queries("search").topk_weighted, {**_arguments(plan), "k": plan.depth}
    )
    return Ranking(rows=result["rows"], meta=result["meta"])


async def explain_detail(conn: AsyncConnection, plan: SearchPlan, chunk_id: str) -> dict[str, Any]:
    """One chunk under the plan's scoring: its components, failed filters and rank."""
    detail: dict[str, Any] = await _one(
        conn, queries("search").explain_chunk, {**_arguments(plan), "chunk_id": chunk_id}
    )
    return detail


async def space_topk(
    conn: AsyncConnection, space: str, vector: np.ndarray, k: int,
    min_similarity: float | None, filters: dict[str, Any], options: dict[str, Any],
    collection: str,
) -> dict[str, Any]:  # fmt: skip
    result: dict[str, Any] = await _one(
        conn,
        queries("search").space_topk,
        {"space": space, "vector": Vector(vector), "k": k, "min_similarity": min_similarity,
         "filters": Jsonb(filters), "options": Jsonb(options), "collection": collection},
    )  # fmt: skip
    return result


async def chunk_vectors(
    conn: AsyncConnection, space: str, chunk_ids: list[str], collection: str
) -> dict[str, np.ndarray]:
    """The vectors of some chunks in one space (chunks with none there are left out)."""
    cursor = await conn.execute(
        queries("search").chunk_vectors,
        {"space": space, "chunk_ids": chunk_ids, "collection": collection},
    )
    return {chunk_id: vector.to_numpy() for chunk_id, vector in await cursor.fetchall()}
