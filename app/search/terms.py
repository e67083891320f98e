"""A question's terms weighed by their rarity, for a sparse space whose embedder is bm25
(app/embed/terms.py makes the chunks' term-frequency weights).

Each distinct term of the question weighs its inverse document frequency in the searched
collection, ``ln(1 + (N − n + 0.5) / (n + 0.5))`` (N vectors in the space, n of them
holding the term), divided by the best score any chunk could reach, ``Σ idf · (k1 + 1)``:
the inner product with a chunk's weights is then the chunk's BM25 score as a fraction of
that best, from 0 to below 1, as the other similarities of a blend are.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pgvector import SparseVector
from psycopg import AsyncConnection

from app.db.sqlfiles import queries
from app.spaces import SpaceInfo
from app.vectors import SpaceValue


def idf(vectors: int, holding: int) -> float:
    holding = min(holding, vectors)
    return math.log(1 + (vectors - holding + 0.5) / (holding + 0.5))


async def weighed_terms(
    conn: AsyncConnection, collections: Sequence[int], space: SpaceInfo, terms: SparseVector
) -> SparseVector:
    """``terms`` (the question's, each 1) weighed as the module says."""
    assert space.embedder is not None
    ids = [int(i) for i in terms.indices()]
    cursor = await conn.execute(
        queries("search").term_counts,
        {"space": space.id, "collections": list(collections), "terms": ids},
    )
    row = await cursor.fetchone()
    assert row is not None
    vectors, holding = int(row[0]), {int(t): int(n) for t, n in row[1].items()}
    weights = {t: idf(vectors, holding.get(t, 0)) for t in ids}
    best = sum(weights.values()) * (space.embedder.bm25_k1 + 1)
    return SparseVector({t: w / best for t, w in weights.items()}, space.dims)


async def weighed_question(
    conn: AsyncConnection, collections: Sequence[int], spaces: list[SpaceInfo],
    values: dict[str, SpaceValue],
) -> dict[str, SpaceValue]:  # fmt: skip
    """The question's values with those of bm25 spaces weighed, by the counts of the
    collection (every part of a split one)."""
    weighed = dict(values)
    for space in spaces:
        value = values.get(space.name)
        if space.embedder and space.embedder.kind == "bm25" and isinstance(value, SparseVector):
            weighed[space.name] = await weighed_terms(conn, collections, space, value)
    return weighed
