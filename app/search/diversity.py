"""Diversity re-ranking: maximal marginal relevance (MMR) over the ranked candidates.

With ``diversity_factor`` d > 0 the database returns a larger pool of the best rows
(``candidate_pool`` in app/search/plan.py); rows are then taken one at a time, each time
the one maximising

    (1 - d) * score - d * max cosine similarity to the rows already taken

using the chunks' vectors in the default space (a chunk with none there counts as
similar to nothing). d = 0 keeps the ranking; d = 1 takes the best row, then always
the one least like those taken.
"""

from __future__ import annotations

import numpy as np
from psycopg import AsyncConnection

from app.search.plan import SearchPlan
from app.search.store import RankedRow, chunk_vectors


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


def unit_rows(chunk_ids: list[str], found: dict[str, np.ndarray]) -> np.ndarray:
    """The vectors of ``chunk_ids`` as unit rows, zeros where a chunk has none."""
    width = next((len(v) for v in found.values()), 1)
    vectors = np.zeros((len(chunk_ids), width), dtype=np.float64)
    for i, chunk_id in enumerate(chunk_ids):
        vector = found.get(chunk_id)
        if vector is not None:
            norm = float(np.linalg.norm(vector))
            vectors[i] = vector / norm if norm > 0 else 0.0
    return vectors


async def diversify(
    conn: AsyncConnection, plan: SearchPlan, rows: list[RankedRow], space: str
) -> list[RankedRow]:
    """The rows in MMR order (as many as the page needs)."""
    if len(rows) < 2:
        return rows
    chunk_ids = [row["chunk_id"] for row in rows]
    found: dict[str, np.ndarray] = {}
    for collection_id in plan.collection_ids:
        found.update(await chunk_vectors(conn, space, chunk_ids, collection_id))
    scores = np.array([row["score"] for row in rows], dtype=np.float64)
    order = mmr_order(scores, unit_rows(chunk_ids, found), plan.diversity, plan.offset + plan.k)
    return [rows[i] for i in order]
