"""``POST /api/rag/explain``: where one chunk ranks for a search, and what kept it out.

The search runs exactly as ``POST /api/rag/search`` runs it, from the first rank
(app/search/service.py: the same plan, auto's balance, the low-confidence retry and
diversity; with an offset, ranked that much deeper), so the explanation describes the
rows that search returns, the page from the offset on (a chunk on an earlier page:
``before_offset``); then one call
scores the chunk alone under the plan those rows came from (api.explain). The answer
names the stage: ``included`` (it is in the top-k), ``filter`` (the filters it fails,
and for a metadata filter the conditions it fails), ``no_keyword_match`` (a keyword-only
search, and the chunk holds none of the query's terms), ``min_similarity`` or
``min_score`` (its semantic part or score is under the floor), ``diversity`` (it was
among the candidates diversity chose from, and rows less like the others were chosen),
``max_per_source`` (it scores high enough, but better chunks of its source filled the
cap), or ``outscored`` (and by how much it trails the k-th result). Its rank is counted
by score over every chunk that passes the filters: like ``exact: true``, this costs a
scan.

Under reciprocal rank fusion the score is the fused one and the rank its place among
every fused candidate (the chunks in some component's first ``rrf_window``), read from
one ranking of them all; a chunk in none of those windows gets nothing from fusion:
stage ``rrf_window``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from psycopg import AsyncConnection
from pydantic import ConfigDict, Field

from app.search.filters import metadata_conditions
from app.search.outcome import SearchOutcome
from app.search.parts import explain_detail, rank
from app.search.plan import SearchPlan
from app.search.request import SEARCH_RULES, SearchRequest
from app.search.response import (
    contract_row,
    explain_row,
    per_space_scores,
    weights_applied,
)
from app.search.service import run_search
from app.search.store import RankedRow
from app.settings import Settings
from app.validation import Identifier, parse_model


class ExplainRequest(SearchRequest):
    """Body of ``POST /api/rag/explain``: a search body plus the chunk to explain."""

    model_config = ConfigDict(extra="forbid")

    chunk_id: Identifier = Field(description="The chunk to explain.")


FUSED_COMPONENTS = ("sem", "lex", "rec", "sig")  # each adds at most rrf_window candidates
EXPLAIN_RULES = {**SEARCH_RULES, "chunk_id": "chunk_id must be a non-empty string"}


def parse_explain_request(body: bytes) -> ExplainRequest:
    return parse_model(ExplainRequest, body, EXPLAIN_RULES)


def stage(
    request: ExplainRequest, detail: dict[str, Any], outcome: SearchOutcome, offset: int
) -> dict[str, Any]:
    """What kept the chunk out of the rows (or where it is among them). ``outcome`` ranks
    from the first row; the rows are its page from ``offset`` on."""
    earlier, rows = _ids(outcome.page[:offset]), outcome.page[offset:]
    ids = _ids(rows)
    kth = _kth(rows, outcome.plan.k - offset)
    if request.chunk_id in ids:
        return {"stage": "included", "position": ids.index(request.chunk_id) + 1}
    if request.chunk_id in earlier:
        return {"stage": "before_offset", "offset": offset,
                "position": earlier.index(request.chunk_id) + 1}  # fmt: skip
    if detail["failed_filters"]:
        return {"stage": "filter", "failed_filters": detail["failed_filters"],
                "failed_conditions": detail.get("failed_conditions") or []}  # fmt: skip
    if detail["eligible_score"] is None:
        if request.min_similarity is None or detail["sem"] >= request.min_similarity:
            return {"stage": "no_keyword_match", "lex": detail["lex"]}
        return {"stage": "min_similarity", "min_similarity": request.min_similarity,
                "sem": detail["sem"]}  # fmt: skip
    if detail.get("fused") is False:
        return {"stage": "rrf_window", "rrf_window": outcome.plan.knobs.rrf_window}
    if request.min_score is not None and detail["score"] < request.min_score:
        return {"stage": "min_score", "min_score": request.min_score, "score": detail["score"],
                "short_by": request.min_score - detail["score"]}  # fmt: skip
    if outcome.plan.diversity > 0 and request.chunk_id in _ids(outcome.ranking.rows):
        return {"stage": "diversity", "diversity_factor": outcome.plan.diversity}
    if kth is not None and detail["score"] >= kth:
        same = [row for row in rows if row["source"] == detail["source"]]
        return {"stage": "max_per_source", "source": detail["source"],
                "rows_of_source": len(same)}  # fmt: skip
    return {"stage": "outscored", "kth_score": kth,
            "short_by": None if kth is None else kth - detail["score"]}  # fmt: skip


def _ids(rows: Sequence[RankedRow]) -> list[str]:
    return [row["chunk_id"] for row in rows]


def _kth(rows: Sequence[RankedRow], k: int) -> float | None:
    return rows[-1]["score"] if len(rows) >= k else None


async def _from_the_top(
    conn: AsyncConnection, request: ExplainRequest, settings: Settings
) -> SearchOutcome:
    """The search ranked from its first row to the end of the request's page: with an
    offset, k rows and offset more (k as the request gives it, else as the search plans
    it, which only a search tells: the query's class may suggest it)."""
    from_top = request.model_copy(update={"offset": 0})
    if not request.offset:
        return await run_search(conn, from_top, settings)
    k = request.k if request.k is not None else (await run_search(conn, from_top, settings)).plan.k
    deeper = {"offset": 0, "k": request.offset + k}
    return await run_search(conn, request.model_copy(update=deeper), settings)


async def fused_detail(
    conn: AsyncConnection, plan: SearchPlan, detail: dict[str, Any]
) -> dict[str, Any]:
    """The chunk under fusion rrf: its fused score, its ranks and its place among every
    fused candidate (no cap on sources; min_score, which applies to the fused score, left
    to the stage)."""
    every = replace(
        plan, k=len(FUSED_COMPONENTS) * plan.knobs.rrf_window, offset=0, pool=0,
        max_per_source=0, diversity=0.0,
        request=plan.request.model_copy(update={"min_score": None}),
    )  # fmt: skip
    ranking = await rank(conn, every)
    for place, row in enumerate(ranking.rows, start=1):
        if row["chunk_id"] == detail["chunk_id"]:
            return {**detail, "score": row["score"], "ranks": row.get("ranks") or {},
                    "rank": place, "fused": True}  # fmt: skip
    outside = {**detail, "score": 0.0, "ranks": {}, "rank": None}
    if detail["failed_filters"] or detail["eligible_score"] is None:
        return outside  # its stage says why
    return {**outside, "fused": False}


async def explain_chunk(
    conn: AsyncConnection, request: ExplainRequest, settings: Settings
) -> dict[str, Any]:
    outcome = await _from_the_top(conn, request, settings)
    offset = request.offset or 0
    plan, rows = outcome.plan, outcome.page[offset:]
    conditions = metadata_conditions(request.given_filters())
    detail = await explain_detail(conn, plan, request.chunk_id, conditions)
    if plan.fusion == "rrf":
        detail = await fused_detail(conn, plan, detail)
    return {
        "ok": True,
        "chunk_id": request.chunk_id,
        "rank": detail["rank"],
        "score": detail["score"],
        "kth_score": _kth(rows, plan.k - offset),
        "k": plan.k - offset,
        **explain_row(detail, plan),
        "per_space_scores": per_space_scores(detail, plan),
        **stage(request, detail, outcome, offset),
        "results": [contract_row(row) for row in rows],
        "weights_applied": weights_applied(plan),
    }
