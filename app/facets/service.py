"""Counting facets: which chunks count, decided as the search with the same body decides
which chunks it ranks from, then one call of api.facets (one per part of a split
collection, app/facets/parts.py).

The filters are the searches' own (``sql_filter``, compiled in SQL by api.filter_sql).
Whether the search ranks keyword matches alone is read from its plan (app/search/plan.py),
built from the same body: the weights, the profile and the query's class decide it, as
they do for the search. The question is never embedded for this: where the search would
embed it, a stand-in of each such space's size takes its place, which decides the weights
as the real vectors would and is never read.
"""

from __future__ import annotations

import time
from typing import Any

from psycopg import AsyncConnection

from app.db.sqlfiles import queries
from app.embedders import embedding_spaces
from app.facets.parts import count_parts
from app.facets.request import FacetRequest
from app.search.context import load_context
from app.search.filters import sql_filter
from app.search.plan import (
    SearchContext,
    SearchPlan,
    build_plan,
    query_classification,
    weighing_spaces,
)
from app.search.store import read_one
from app.settings import Settings
from app.vectors import SpaceValue, stand_in


def _question_stand_ins(
    request: FacetRequest, settings: Settings, context: SearchContext
) -> dict[str, SpaceValue]:
    """Values in place of the question's, in the spaces the search would embed it in."""
    if request.has_vector() or not request.text():
        return {}
    embedding = [space.name for space in embedding_spaces(settings, context.spaces)]
    names = weighing_spaces(request, settings, context, embedding)
    return {name: stand_in(context.space(name)) for name in names}


def keyword_plan(
    request: FacetRequest, settings: Settings, context: SearchContext
) -> SearchPlan | None:
    """The search's plan when it ranks keyword matches alone (they are what counts), else
    None. A body without query or vector plans nothing: every chunk that passes counts."""
    if not request.has_vector() and not request.text():
        return None
    stand_ins = _question_stand_ins(request, settings, context)
    plan = build_plan(request, settings, context, stand_ins, query_classification(request))
    return plan if plan.sql().keyword_only else None


async def count_facets(
    conn: AsyncConnection,
    request: FacetRequest,
    settings: Settings,
    readable: frozenset[str] | None,
) -> dict[str, Any]:
    """``POST /api/rag/facets``; ``readable``: the collections the caller may read (None:
    every one), the only ones the collection field counts."""
    started = time.perf_counter()
    fields = request.facet_fields()
    context = await load_context(conn, request.collection, request.profile_name())
    keywords = keyword_plan(request, settings, context)

    async def count_part(collection_id: int, limit: int, max_chunks: int) -> dict[str, Any]:
        found = sql_filter(collection_id, request.given_filters())
        plan = keywords.for_part(collection_id, None) if keywords else None
        part: dict[str, Any] = await read_one(
            conn, queries("facets").facets,
            {"collection_id": collection_id, "filter": found, "filtered": found.filtered,
             "keywords": plan.sql() if plan else None,
             "kinds": [field.kind.kind for field in fields],
             "paths": [str(field.path) if field.path else None for field in fields],
             "collections": sorted(readable) if readable is not None else None,
             "limit": limit, "max_chunks": max_chunks},
        )  # fmt: skip
        return part

    if context.parts:
        counted = await count_parts(conn, context.parts, fields, request.limit,
                                    settings.facet_max_chunks, count_part)  # fmt: skip
    else:
        counted = await count_part(context.collection_id, request.limit,
                                   settings.facet_max_chunks)  # fmt: skip
    facets = {
        field.name: {**facet, "refines": field.kind.refines}
        for field, facet in zip(fields, counted["facets"], strict=True)
    }
    return {
        "ok": True,
        "collection": request.collection,
        "counted": "keyword_matches" if keywords else "filtered",
        "chunks": counted["chunks"],
        "exact": counted["exact"],
        "max_chunks": settings.facet_max_chunks,
        "facets": facets,
        "took_ms": round((time.perf_counter() - started) * 1000, 3),
    }
