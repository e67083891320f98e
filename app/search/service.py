"""Weighted search, end to end: request -> plan -> ranking (in PostgreSQL) -> response.

With ``profile: auto`` and both keywords and vectors in play, the balance comes from the
query's own evidence (app/search/auto.py). Two stages may follow the ranking: a
low-confidence retry (where a query class's balance was used and the best row answers the
query poorly, once more with the ``general`` balance and a deeper HNSW candidate list) and
diversity re-ranking (``diversity_factor``, app/search/diversity.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from psycopg import AsyncConnection

from app.classify import GENERAL, of_class
from app.embedders import embed_query
from app.search.auto import decides_balance, evidence_search
from app.search.context import load_context
from app.search.diversity import diversify
from app.search.plan import SearchContext, SearchPlan, build_plan, query_classification
from app.search.purpose import add_purpose_alignment
from app.search.request import SearchRequest
from app.search.response import search_response
from app.search.store import Ranking, rank
from app.settings import Settings
from app.weights import BlendWeights

MAX_EF_SEARCH = 1000


def relevance(row: dict[str, Any], weights: BlendWeights) -> float:
    """The part of a row's score that says how well it answers the query (0..1)."""
    total = weights.w_cos + weights.lex
    if total <= 0:
        return 1.0
    return (weights.w_cos * (row.get("sem") or 0.0) + weights.lex * (row.get("lex") or 0.0)) / total


def _low_confidence(plan: SearchPlan, rows: list[dict[str, Any]], floor: float) -> bool:
    """A classified query whose best row answers it poorly (class general excepted: the
    retry would ask the same question again)."""
    if plan.classification is None or plan.classification.query_class == GENERAL:
        return False
    return not rows or relevance(rows[0], plan.weights) < floor


def _general_plan(
    request: SearchRequest, settings: Settings, context: SearchContext, first: SearchPlan,
    first_rows: list[dict[str, Any]], text_vector: np.ndarray | None,
) -> SearchPlan:  # fmt: skip
    """The same request with the general balance and a deeper HNSW candidate list."""
    assert first.classification is not None
    general = of_class(GENERAL, first.classification.confidence, "low-confidence retry")
    plan = build_plan(request, settings, context, text_vector, general)
    ef_search = min(MAX_EF_SEARCH, 4 * plan.options.ef_search)
    best = relevance(first_rows[0], first.weights) if first_rows else None
    return replace(
        plan,
        classification=first.classification,
        options=replace(plan.options, ef_search=ef_search),
        retry={
            "reason": f"best relevance {best if best is None else round(best, 4)} is under "
            f"RAG_LOW_CONFIDENCE_SCORE ({settings.low_confidence_score})",
            "first_weights": first.weights.as_dict(),
            "first_best_relevance": best,
            "class_used": GENERAL,
            "ef_search": ef_search,
        },
    )


async def query_text_vector(request: SearchRequest, settings: Settings) -> np.ndarray | None:
    """The query text embedded in the default space, when the request has text, no
    vector, and the server has an embedder."""
    if request.has_vector() or not request.text():
        return None
    return await embed_query(settings, request.text() or "")


@dataclass(frozen=True)
class PlannedSearch:
    plan: SearchPlan
    context: SearchContext
    text_vector: np.ndarray | None
    ranking: Ranking | None  # already ranked while auto read the evidence


async def plan_search(
    conn: AsyncConnection, request: SearchRequest, settings: Settings
) -> PlannedSearch:
    """The request's plan; with ``profile: auto`` and a balance left open, the balance
    the query's evidence chose (app/search/auto.py)."""
    context = await load_context(conn, request.profile_name())
    classification = query_classification(request)
    text_vector = await query_text_vector(request, settings)
    plan = build_plan(request, settings, context, text_vector, classification)
    if classification is None or not decides_balance(request, plan):
        return PlannedSearch(plan, context, text_vector, None)

    def plan_with(share: float) -> SearchPlan:
        chosen = replace(classification, vector_share=share)
        return build_plan(request, settings, context, text_vector, chosen)

    plan, ranking = await evidence_search(conn, plan_with, settings.hybrid_vector_weight)
    return PlannedSearch(plan, context, text_vector, ranking)


async def search(
    conn: AsyncConnection, request: SearchRequest, settings: Settings
) -> dict[str, Any]:
    started = time.perf_counter()
    planned = await plan_search(conn, request, settings)
    plan, ranking = planned.plan, planned.ranking
    if ranking is None:
        ranking = await rank(conn, plan)
        if _low_confidence(plan, ranking.rows, settings.low_confidence_score):
            plan = _general_plan(
                request, settings, planned.context, plan, ranking.rows, planned.text_vector
            )
            ranking = await rank(conn, plan)
    rows = ranking.rows
    if plan.diversity > 0:
        rows = await diversify(conn, plan, rows, settings.default_space)
        rows = rows[plan.offset : plan.offset + plan.k]
    page = rows[: plan.k]
    response = search_response(request, plan, ranking, page, (time.perf_counter() - started) * 1000)
    if request.include_purpose_alignment:
        await add_purpose_alignment(conn, request, list(plan.spaces), response["rows"])
    return response
