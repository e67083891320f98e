"""A split collection's search (app/parts.py): every part ranked by api.topk under the
same plan, with the keyword statistics of the whole collection, and their rows merged.

Exact: a row of the collection's top n is in its part's top n (the part's rows above it
are above it in the collection too), so the union of each part's top n holds the top n.
With max_per_source m, a part keeps each source's best m of that part, which include the
source's best m of the collection that fall in it; a part's rows kept above a row of the
collection's capped top n are either in that top n or displaced there by as many rows of
their source from other parts, above it too: the row is within its part's capped top n.
The merge applies the cap again over all parts. Scores are the whole collection's: a
chunk's score reads only its own values and the collection's keyword statistics.
Reciprocal rank fusion ranks over the whole collection: app/search/parts_rrf.py.
"""

from __future__ import annotations

from typing import Any

from psycopg import AsyncConnection

from app.db.sqlfiles import queries
from app.errors import NotFound
from app.search import store
from app.search.merge import capped, in_order, merged_meta, shared_strategy
from app.search.metadata import Condition
from app.search.parts_rrf import rank_rrf
from app.search.plan import Keywords, SearchPlan
from app.search.store import RankedRow, Ranking


async def part_keywords(conn: AsyncConnection, plan: SearchPlan) -> Keywords | None:
    """The query's terms and weights over every part (None when keywords do not count)."""
    if plan.weights.lex <= 0:
        return None
    cursor = await conn.execute(
        queries("search").keywords, {"collections": list(plan.parts), "query": plan.text},
        prepare=True,
    )  # fmt: skip
    row = await cursor.fetchone()
    assert row is not None
    return Keywords(terms=list(row[0]), weights=list(row[1]), avg_len=float(row[2]))


async def rank(conn: AsyncConnection, plan: SearchPlan) -> Ranking:
    """The plan's ranking: one call of api.topk, or for a split collection one per part,
    the rows merged."""
    if not plan.parts:
        return await store.rank(conn, plan)
    whole = plan.for_part(plan.parts[0], await part_keywords(conn, plan))
    if plan.fusion == "rrf":
        rankings = await rank_rrf(conn, whole, plan.parts)
    else:
        rankings = await store.rank_parts(conn, whole, plan.parts)
    rows: list[RankedRow] = await in_order(
        conn, (row for r in rankings for row in r.rows), lambda row: row["score"],
        lambda row: row["chunk_id"],
    )  # fmt: skip
    kept = capped(rows, plan.max_per_source)[plan.rows_from : plan.depth]
    return Ranking(rows=kept, meta=merged_meta([r.meta for r in rankings]))


async def explain_detail(
    conn: AsyncConnection, plan: SearchPlan, chunk_id: str, conditions: list[Condition]
) -> dict[str, Any]:
    """One chunk under the plan's scoring; in a split collection, explained in its part
    and ranked against every part."""
    if not plan.parts:
        return await store.explain_detail(conn, plan, chunk_id, conditions)
    keywords = await part_keywords(conn, plan)
    cursor = await conn.execute(
        queries("search").chunk_part, {"chunk_id": chunk_id, "collections": list(plan.parts)}
    )
    found = await cursor.fetchone()
    if found is None:
        raise NotFound(f"no chunk with chunk_id {chunk_id!r}", chunk_id=chunk_id)
    holding = int(found[0])
    detail = await store.explain_detail(conn, plan.for_part(holding, keywords), chunk_id,
                                        conditions)  # fmt: skip
    if detail["rank"] is not None:
        for part in plan.parts:
            if part != holding:
                detail["rank"] += await store.outranking(
                    conn, plan.for_part(part, keywords), detail["eligible_score"], chunk_id
                )
    return detail


async def space_topk(
    conn: AsyncConnection, plan: SearchPlan, min_similarity: float | None
) -> dict[str, Any]:
    """The nearest chunks of the plan's one space; in a split collection, every part's
    merged by similarity (ties by chunk_id)."""
    if not plan.parts:
        return await store.space_topk(conn, plan, min_similarity)
    found = [await store.space_topk(conn, plan.for_part(part, None), min_similarity)
             for part in plan.parts]  # fmt: skip
    rows = await in_order(
        conn, (row for result in found for row in result["rows"]),
        lambda row: row["similarity"], lambda row: row["chunk_id"],
    )  # fmt: skip
    metas = [result["meta"] for result in found]
    return {
        "rows": rows[: plan.k],
        "meta": {
            "strategy": shared_strategy(metas),
            "exact": all(m["exact"] for m in metas),
            "search_time_ms": round(sum(m["search_time_ms"] for m in metas), 3),
        },
    }
