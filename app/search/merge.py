"""Merging what the parts of a split collection return (app/search/parts.py) in the order
PostgreSQL ranks: by a value, best first, ties by chunk_id in the database's collation
(which Python's string order matches only under C collations, so ties that span parts are
ordered by the database, in one query)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import pairwise
from typing import Any, TypeVar

from psycopg import AsyncConnection

from app.db.sqlfiles import queries

T = TypeVar("T")
Row = TypeVar("Row", bound=Mapping[str, Any])


async def in_order(
    conn: AsyncConnection, items: Iterable[T], value: Callable[[T], float],
    chunk_id: Callable[[T], str],
) -> list[T]:  # fmt: skip
    """``items`` by value, highest first, ties by chunk_id as the database orders them."""
    listed = sorted(items, key=lambda item: (-value(item), chunk_id(item)))
    pairs = [(a, b) for a, b in pairwise(listed) if value(a) == value(b)]
    tied = {chunk_id(item) for pair in pairs for item in pair}
    if not tied:
        return listed
    rank = await collation_ranks(conn, tied)
    return sorted(listed, key=lambda item: (-value(item), rank.get(chunk_id(item), 0)))


async def collation_ranks(conn: AsyncConnection, chunk_ids: Iterable[str]) -> dict[str, int]:
    """Each chunk_id's position in the database's order of them."""
    cursor = await conn.execute(queries("search").collation_order, {"chunk_ids": list(chunk_ids)})
    return {row[0]: n for n, row in enumerate(await cursor.fetchall())}


def capped(rows: Sequence[Row], cap: int) -> list[Row]:
    """Walking the rows in order, each kept unless ``cap`` rows of its source were kept
    (api.best_positions; the source is api.source_key: src, or doc_id when empty)."""
    if cap <= 0:
        return list(rows)
    taken: dict[str, int] = {}
    kept = []
    for row in rows:
        key = row.get("src") or row.get("doc_id") or ""
        if taken.get(key, 0) < cap:
            taken[key] = taken.get(key, 0) + 1
            kept.append(row)
    return kept


def shared_strategy(metas: list[dict[str, Any]]) -> str:
    """The parts' strategy when they agree, else "by part"."""
    strategies = {m["strategy"] for m in metas}
    return strategies.pop() if len(strategies) == 1 else "by part"


def merged_reason(metas: list[dict[str, Any]]) -> str:
    """That the parts were merged, and why each part that fell back did (its position
    among ``parts``)."""
    fell_back = [f"part {n}: {m['strategy_reason']}" for n, m in enumerate(metas, 1)
                 if m["fell_back"]]  # fmt: skip
    return "; ".join([f"split collection: {len(metas)} parts ranked and merged", *fell_back])


def merged_meta(metas: list[dict[str, Any]]) -> dict[str, Any]:
    """What happened, over the parts: the strategy when they agree, exact when each was,
    counts summed, each part's own account under ``parts``."""
    timings: dict[str, float] = {}
    for meta in metas:
        for stage, ms in (meta.get("timings_ms") or {}).items():
            timings[stage] = round(timings.get(stage, 0.0) + ms, 3)
    matches = [m.get("keyword_matches") for m in metas]
    streams = sorted({s for m in metas for s in m.get("approximate_streams") or []})
    return {
        "strategy": shared_strategy(metas),
        "strategy_reason": merged_reason(metas),
        "exact": all(m["exact"] for m in metas),
        "approximate_streams": streams,
        "fell_back": any(m["fell_back"] for m in metas),
        "candidates_scanned": sum(m["candidates_scanned"] or 0 for m in metas),
        "keyword_matches": None if matches[0] is None else sum(n or 0 for n in matches),
        "search_time_ms": round(max(m["search_time_ms"] for m in metas), 3),
        "timings_ms": timings,
        "parts": metas,
    }
