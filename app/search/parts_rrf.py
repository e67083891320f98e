"""Reciprocal rank fusion over a split collection (app/search/parts.py). A component's
rank is the collection's, which no part holds, so it takes two steps. Each part returns
its windows: the first rrf_window chunks by each weighted component, with the value each
is ranked by. A component's window in the collection is the first rrf_window of the
parts' windows merged by that value (ties by chunk_id): a chunk in it is in its own
part's window, whose chunks above it are above it in the collection too. With those
ranks, each part fuses its own chunks (sql/functions/parts.sql, api.rrf_part_topk) and
returns its best rows, merged as a weighted search's are (a fused score reads only the
chunk's ranks)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from psycopg import AsyncConnection

from app.search import store
from app.search.merge import in_order
from app.search.plan import SearchPlan
from app.search.store import Ranking


@dataclass
class Windows:
    """The collection's windows: components, chunk ids and ranks in parallel."""

    components: list[str] = field(default_factory=list)
    ids: list[int] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)


async def collection_windows(
    conn: AsyncConnection, found: list[dict[str, Any]], window: int
) -> Windows:
    """Each component's window over every part, numbered from 1."""
    entries: dict[str, list[tuple[float, str, int]]] = {}
    for part in found:
        listed = zip(part["components"], part["keys"], part["chunk_ids"], part["ids"],
                     strict=True)  # fmt: skip
        for component, key, chunk_id, chunk_pk in listed:
            entries.setdefault(component, []).append((key, chunk_id, chunk_pk))
    windows = Windows()
    for component, listed_entries in entries.items():
        ordered = await in_order(conn, listed_entries, lambda e: e[0], lambda e: e[1])
        for rank, (_key, _chunk_id, chunk_pk) in enumerate(ordered[:window], 1):
            windows.components.append(component)
            windows.ids.append(chunk_pk)
            windows.ranks.append(rank)
    return windows


def part_meta(windows: dict[str, Any], fused: dict[str, Any]) -> dict[str, Any]:
    approximate = windows["approximate"] or []
    return {
        "strategy": "rrf", "strategy_reason": "fusion rrf", "exact": not approximate,
        "approximate_streams": approximate, "fell_back": False,
        "candidates_scanned": fused["candidates"],
        "keyword_matches": windows["keyword_matches"],
        "search_time_ms": round(windows["search_time_ms"] + fused["search_time_ms"], 3),
        "timings_ms": {},
    }  # fmt: skip


async def semantic_candidates(
    conn: AsyncConnection, plan: SearchPlan, parts: tuple[int, ...]
) -> list[int] | None:
    """With several weighted spaces read from their indexes, the union of each space's
    nearest rrf_window over every part (by similarity, ties by chunk_id), which the
    semantic window ranks; else None (each part's own reading is the collection's)."""
    sql_plan = plan.sql()
    weighted = [w for w in sql_plan.space_weights if w > 0]
    if sql_plan.w_cos <= 0 or len(weighted) < 2 or sql_plan.strategy == "scan":
        return None
    found = await store.by_part(conn, "rrf_part_nearest", {"plan": sql_plan}, parts)
    candidates: set[int] = set()
    for space in range(len(weighted)):
        entries = [entry for part in found
                   for entry in zip(part[space]["sims"], part[space]["chunk_ids"],
                                    part[space]["ids"], strict=True)]  # fmt: skip
        ordered = await in_order(conn, entries, lambda e: e[0], lambda e: e[1])
        candidates.update(
            chunk_pk for _sim, _chunk_id, chunk_pk in ordered[: plan.knobs.rrf_window]
        )
    return sorted(candidates)


async def rank_rrf(
    conn: AsyncConnection, plan: SearchPlan, parts: tuple[int, ...]
) -> list[Ranking]:
    """Every part's best rows by the collection's fused ranks (``plan``: the whole
    collection's, with its keyword statistics)."""
    candidates = await semantic_candidates(conn, plan, parts)
    found = await store.by_part(conn, "rrf_part_windows",
                                {"plan": plan.sql(), "candidates": candidates}, parts)  # fmt: skip
    windows = await collection_windows(conn, found, plan.knobs.rrf_window)
    arguments = {"plan": plan.sql(), "components": windows.components, "ids": windows.ids,
                 "ranks": windows.ranks}  # fmt: skip
    fused = await store.by_part(conn, "rrf_part_topk", arguments, parts)
    return [
        Ranking(rows=f["rows"], meta=part_meta(w, f)) for w, f in zip(found, fused, strict=True)
    ]
