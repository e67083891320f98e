"""Weighted search, end to end: one pipeline that search, explain and the MCP tools run.

    plan      the request validated and planned once (app/search/plan.py); with
              ``profile: auto`` and a balance left open, the balance the query's evidence
              chose (app/search/auto.py), ranked while choosing it
    rank      api.topk in PostgreSQL
    retry     where a query class's balance was used and the best row answers the query
              poorly: once more with the ``general`` balance and a deeper HNSW candidate
              list (the plan that answers is the retry's)
    diversity maximal marginal relevance over a larger pool (``diversity_factor``,
              app/search/diversity.py)
    page      the rows from ``offset`` on

``run_search`` returns every stage's outcome, so that an explanation reads the plan and
the rows the search returned.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from psycopg import AsyncConnection

from app.classify import GENERAL, of_class
from app.embedders import embed_question, embedding_spaces
from app.search.auto import decides_balance, evidence_search
from app.search.context import load_context
from app.search.diversity import diversify
from app.search.knobs import DEFAULT_KNOBS, EngineKnobs
from app.search.outcome import SearchOutcome
from app.search.parts import rank
from app.search.plan import (
    SearchContext,
    SearchPlan,
    build_plan,
    query_classification,
    weighing_spaces,
)
from app.search.purpose import add_purpose_alignment
from app.search.request import SearchRequest
from app.search.response import search_response
from app.search.store import RankedRow, Ranking
from app.search.terms import weighed_question
from app.settings import Settings
from app.vectors import SpaceValue
from app.weights import BlendWeights

MAX_EF_SEARCH = 1000


def relevance(row: RankedRow, weights: BlendWeights) -> float:
    """The part of a row's score that says how well it answers the query (0..1)."""
    total = weights.w_cos + weights.lex
    if total <= 0:
        return 1.0
    return (weights.w_cos * (row.get("sem") or 0.0) + weights.lex * (row.get("lex") or 0.0)) / total


def _low_confidence(plan: SearchPlan, rows: list[RankedRow], floor: float) -> bool:
    """A classified query whose best row answers it poorly (class general excepted: the
    retry would ask the same question again)."""
    if plan.classification is None or plan.classification.query_class == GENERAL:
        return False
    return not rows or relevance(rows[0], plan.weights) < floor


@dataclass(frozen=True)
class Planning:
    """What planning needs and keeps: the settings, the context, the question's vectors."""

    request: SearchRequest
    settings: Settings
    context: SearchContext
    text_vectors: dict[str, SpaceValue]
    knobs: EngineKnobs

    def plan(self, share: float | None = None) -> SearchPlan:
        """The plan; with ``share``, auto's class with that vector share."""
        classification = query_classification(self.request)
        if classification is not None and share is not None:
            classification = replace(classification, vector_share=share)
        return build_plan(self.request, self.settings, self.context, self.text_vectors,
                          classification, self.knobs)  # fmt: skip

    def general(self, first: SearchPlan, first_rows: list[RankedRow]) -> SearchPlan:
        """The same request with the general balance and a deeper HNSW candidate list."""
        assert first.classification is not None
        general = of_class(GENERAL, first.classification.confidence, "low-confidence retry")
        plan = build_plan(self.request, self.settings, self.context, self.text_vectors, general,
                          self.knobs)  # fmt: skip
        ef_search = min(MAX_EF_SEARCH, 4 * plan.ef_search)
        best = relevance(first_rows[0], first.weights) if first_rows else None
        floor = self.settings.low_confidence_score
        return replace(
            plan,
            classification=first.classification,
            ef_search=ef_search,
            retry={
                "reason": f"best relevance {best if best is None else round(best, 4)} is "
                f"under RAG_LOW_CONFIDENCE_SCORE ({floor})",
                "first_weights": first.weights.as_dict(),
                "first_best_relevance": best,
                "class_used": GENERAL,
                "ef_search": ef_search,
            },
        )


async def query_text_vectors(
    conn: AsyncConnection, request: SearchRequest, settings: Settings, context: SearchContext
) -> tuple[dict[str, SpaceValue], float | None]:
    """The query text embedded by each searched space's embedder, when the request has
    text and no vector and similarity counts there; and how long that took (ms, None when
    nothing was embedded)."""
    if request.has_vector() or not request.text():
        return {}, None
    embedding = [space.name for space in embedding_spaces(settings, context.spaces)]
    names = weighing_spaces(request, settings, context, embedding)
    if not names:
        return {}, None
    started = time.perf_counter()
    spaces = [context.space(name) for name in names]
    values = await embed_question(settings, spaces, request.text() or "")
    values = await weighed_question(conn, context.collection_ids, spaces, values)
    return values, (time.perf_counter() - started) * 1000


async def _planned_ranking(conn: AsyncConnection, planning: Planning) -> tuple[SearchPlan, Ranking]:
    plan = planning.plan()
    if not decides_balance(planning.request, plan):
        return plan, await rank(conn, plan)
    return await evidence_search(conn, planning.plan, planning.settings.hybrid_vector_weight)


async def run_search(
    conn: AsyncConnection,
    request: SearchRequest,
    settings: Settings,
    knobs: EngineKnobs = DEFAULT_KNOBS,
) -> SearchOutcome:
    """Every stage of one search, in order."""
    started = time.perf_counter()
    request.refuse_options_unread()
    context = await load_context(conn, request.collection, request.profile_name())
    text_vectors, embed_ms = await query_text_vectors(conn, request, settings, context)
    planning = Planning(request, settings, context, text_vectors, knobs)
    plan, ranking = await _planned_ranking(conn, planning)
    if plan.evidence is None and _low_confidence(plan, ranking.rows,
                                                 settings.low_confidence_score):  # fmt: skip
        plan = planning.general(plan, ranking.rows)
        ranking = await rank(conn, plan)
    ranked = ranking.rows
    if plan.diversity > 0:
        ranked = await diversify(conn, plan, ranked, settings.default_space)
        page = ranked[plan.offset : plan.offset + plan.k]
    else:
        page = ranked[: plan.k]
    elapsed = (time.perf_counter() - started) * 1000
    return SearchOutcome(plan, ranking, ranked, page, elapsed, embed_ms)


async def search(
    conn: AsyncConnection, request: SearchRequest, settings: Settings
) -> dict[str, Any]:
    """``POST /api/rag/search``: the pipeline's page as the response contract says."""
    outcome = await run_search(conn, request, settings)
    response = search_response(request, outcome)
    if request.include_purpose_alignment:
        spaces = list(outcome.plan.space_names)
        await add_purpose_alignment(conn, request, spaces, response["rows"])
    return response
