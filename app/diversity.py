"""Diversity re-ranking: maximal marginal relevance (MMR) over the ranked candidates.

With ``diversity_factor`` d > 0 the database returns a larger pool of the best rows
(``candidate_pool``); rows are then taken one at a time, each time the one maximising

    (1 - d) * score - d * max cosine similarity to the rows already taken

using the chunks' vectors in the default space (a chunk with none there counts as
similar to nothing). d = 0 keeps the ranking; d = 1 takes the best row, then always
the one least like those taken.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from psycopg import AsyncConnection

from app.db.sqlfiles import queries

if TYPE_CHECKING:
    from app.search import SearchQuery

POOL_FACTOR = 4
MIN_POOL = 20
MAX_POOL = 1000


def candidate_pool(wanted: int) -> int:
    """How many ranked rows diversity chooses ``wanted`` rows from."""
    return min(MAX_POOL, max(MIN_POOL, POOL_FACTOR * wanted))


def mmr_order(scores: np.ndarray, vectors: np.ndarray, factor: float, wanted: int) -> list[int]:
    """Indexes of the rows in MMR order. ``vectors``: unit rows (zeros: no vector)."""
    count = len(scores)
    similarity = vectors @ vectors.T
    closest = np.full(count, -np.inf)  # max similarity to a row taken; -inf: none taken
    left = np.ones(count, dtype=bool)
    order: list[int] = []
    for _ in range(min(wanted, count)):
        penalty = np.where(np.isinf(closest), 0.0, closest)
        value = np.where(left, (1 - factor) * scores - factor * penalty, -np.inf)
        best = int(np.argmax(value))  # the first of equals: the better-ranked row
        order.append(best)
        left[best] = False
        closest = np.maximum(closest, similarity[best])
    return order


async def _unit_vectors(conn: AsyncConnection, space: str, chunk_ids: list[str]) -> np.ndarray:
    cursor = await conn.execute(queries("search").chunk_vectors, (space, chunk_ids))
    found = {chunk_id: vector.to_numpy() for chunk_id, vector in await cursor.fetchall()}
    width = next((len(v) for v in found.values()), 1)
    vectors = np.zeros((len(chunk_ids), width), dtype=np.float64)
    for i, chunk_id in enumerate(chunk_ids):
        vector = found.get(chunk_id)
        if vector is not None:
            norm = float(np.linalg.norm(vector))
            vectors[i] = vector / norm if norm > 0 else 0.0
    return vectors


async def diversify(
    conn: AsyncConnection, query: SearchQuery, rows: list[dict[str, Any]], space: str
) -> list[dict[str, Any]]:
    """The rows in MMR order (as many as the page needs)."""
    if len(rows) < 2:
        return rows
    vectors = await _unit_vectors(conn, space, [row["chunk_id"] for row in rows])
    scores = np.array([row["score"] for row in rows], dtype=np.float64)
    order = mmr_order(scores, vectors, query.diversity, query.offset + query.k)
    return [rows[i] for i in order]
