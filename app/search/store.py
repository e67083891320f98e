"""The search functions in SQL, called by name: the one place the Python side talks to
``api.topk`` and its companions. Each takes the plan as one typed value
(app/search/sqlplan.py)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, TypedDict

import numpy as np
import psycopg
from psycopg import AsyncConnection

from app.db.sqlfiles import queries
from app.search.metadata import Condition
from app.search.plan import SearchPlan

log = logging.getLogger("ragsearch")


class RankedRow(TypedDict, total=False):
    """A ranked chunk as api.topk returns it (sql/functions/rows.sql)."""

    chunk_id: str
    doc_id: str
    src: str
    chunk: str
    model: str
    source: str
    score: float
    cos_dist: float | None
    l2_dist: float | None
    scale: float
    days_old: float
    created_at: str
    sem: float
    lex: float | None
    rec: float
    sig: float
    sims: list[float | None]
    tags: list[str]
    metadata: dict[str, Any]
    ranks: dict[str, int] | None
    purpose_alignment: float | None
    purpose_space: str


@dataclass(frozen=True)
class Ranking:
    """What the ranking function returns: response rows (from the plan's first row on)
    and what happened (strategy, exactness, timings)."""

    rows: list[RankedRow]
    meta: dict[str, Any]


# What a search statement may meet on Citus while a shard group moves (a copy of the
# search functions or a shard switched under it): a read of one collection is asked once
# more (read_one); a statement over a split collection's parts is asked again part by
# part, each call routed on its own as a whole collection's read is.
MOVED_UNDER = (psycopg.errors.InternalError_, psycopg.errors.UndefinedFunction,
               psycopg.errors.UndefinedTable)  # fmt: skip


async def read_one(conn: AsyncConnection, statement: str, arguments: dict[str, Any]) -> Any:
    """The value a read-only statement returns (its first row's first column); asked once
    more when it meets a function or shard moved from under it (MOVED_UNDER: the second
    call is planned afresh, and a read can be repeated)."""
    try:
        return await _first_value(conn, statement, arguments)
    except MOVED_UNDER as error:
        log.warning("read asked again after: %s", error)
        return await _first_value(conn, statement, arguments)


async def _first_value(conn: AsyncConnection, statement: str, arguments: dict[str, Any]) -> Any:
    cursor = await conn.execute(statement, arguments, prepare=True)
    row = await cursor.fetchone()
    assert row is not None
    return row[0]


async def rank(conn: AsyncConnection, plan: SearchPlan) -> Ranking:
    """One call of the ranking function."""
    arguments = {"collection_id": plan.collection_id, "plan": plan.sql()}
    result = await read_one(conn, queries("search").topk, arguments)
    return Ranking(rows=result["rows"], meta=result["meta"])


async def by_part(
    conn: AsyncConnection, name: str, arguments: dict[str, Any], parts: tuple[int, ...]
) -> list[Any]:
    """The answer of statement ``name`` (sql/queries/search.sql) for each part of a split
    collection, in the parts' order: one statement for all, or, when it fails as above,
    ``name``_one for each part."""
    q = queries("search")
    try:
        cursor = await conn.execute(
            getattr(q, name), {**arguments, "parts": list(parts)}, prepare=True
        )
        found: dict[int, Any] = dict(await cursor.fetchall())
    except MOVED_UNDER as error:
        log.warning("split search asked part by part after: %s", error)
        return [await read_one(conn, getattr(q, name + "_one"), {**arguments, "part": part})
                for part in parts]  # fmt: skip
    return [found[part] for part in parts]


async def rank_parts(
    conn: AsyncConnection, plan: SearchPlan, parts: tuple[int, ...]
) -> list[Ranking]:
    """One ranking per part of a split collection, from one statement (the plan's own
    collection aside: each part's is set in SQL)."""
    found = await by_part(conn, "topk_parts", {"plan": plan.sql()}, parts)
    return [Ranking(rows=result["rows"], meta=result["meta"]) for result in found]


async def explain_detail(
    conn: AsyncConnection, plan: SearchPlan, chunk_id: str, conditions: list[Condition]
) -> dict[str, Any]:
    """One chunk under the plan's scoring: its components, failed filters and rank."""
    detail: dict[str, Any] = await read_one(
        conn,
        queries("search").explain,
        {"collection_id": plan.collection_id, "plan": plan.sql(), "chunk_id": chunk_id,
         "labels": [c.label for c in conditions], "paths": [str(c.path) for c in conditions]},
    )  # fmt: skip
    return detail


async def outranking(conn: AsyncConnection, plan: SearchPlan, score: float, chunk_id: str) -> int:
    """How many chunks of the plan's collection outrank ``score`` (of chunk ``chunk_id``)."""
    count: int = await read_one(
        conn,
        queries("search").outranking,
        {"collection_id": plan.collection_id, "plan": plan.sql(), "score": score,
         "chunk_id": chunk_id},
    )  # fmt: skip
    return count


async def space_topk(
    conn: AsyncConnection, plan: SearchPlan, min_similarity: float | None
) -> dict[str, Any]:
    """The nearest chunks of the plan's one space."""
    result: dict[str, Any] = await read_one(
        conn,
        queries("search").space_topk,
        {"collection_id": plan.collection_id, "plan": plan.sql(),
         "min_similarity": min_similarity},
    )  # fmt: skip
    return result


async def chunk_vectors(
    conn: AsyncConnection, space: str, chunk_ids: list[str], collection_id: int
) -> dict[str, np.ndarray]:
    """The vectors of some chunks in one space (chunks with none there are left out)."""
    cursor = await conn.execute(
        queries("search").chunk_vectors,
        {"space": space, "chunk_ids": chunk_ids, "collection_id": collection_id},
    )
    return {chunk_id: vector.to_numpy() for chunk_id, vector in await cursor.fetchall()}
