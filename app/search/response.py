"""The search response: rows in the contract's shape, their explanations, and the
query's metadata.

Arithmetic a client can check: with ``explain``, the components' weighted values (sem,
lex when the query has text, rec, sig) add up to the score (under fusion rrf, each is
weight / (rrf_k + the component's rank)), and sem.raw = sum over spaces of space weight x
similarity (0 where the chunk has no vector in a space).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.search.outcome import SearchOutcome
from app.search.plan import SearchPlan
from app.search.request import SearchRequest
from app.weights import DISPLAY_DIGITS

ROW_FIELDS = (
    "chunk_id", "doc_id", "src", "title", "chunk", "model", "score",
    "cos_dist", "l2_dist", "scale", "days_old", "created_at",
)  # fmt: skip
TOP_SPACES = 3


def contract_row(row: Mapping[str, Any]) -> dict[str, Any]:
    return {name: row.get(name) for name in ROW_FIELDS}


def per_space_scores(row: Mapping[str, Any], plan: SearchPlan) -> dict[str, float | None]:
    """Cosine similarity to the query in each space searched (None: no vector there)."""
    return dict(zip(plan.space_names, row.get("sims") or [], strict=False))


def _weights_and_values(row: Mapping[str, Any], plan: SearchPlan) -> dict[str, tuple[float, float]]:
    """Each component's weight and raw value (lex only when the query has text)."""
    weights = plan.weights
    parts = {"sem": (weights.w_cos, row["sem"])}
    if weights.w_lex is not None:
        parts["lex"] = (weights.w_lex, row.get("lex") or 0.0)
    parts["rec"] = (weights.w_rec, row["rec"])
    parts["sig"] = (weights.w_sig, row["sig"])
    return parts


def components(row: Mapping[str, Any], plan: SearchPlan) -> dict[str, Any]:
    """What each component adds to the score: weight x raw value, or under fusion rrf
    weight / (rrf_k + its rank), nothing past its window (sql/functions/fusion.sql)."""
    parts = _weights_and_values(row, plan)
    if plan.fusion != "rrf":
        return {name: {"raw": raw, "weighted": w * raw} for name, (w, raw) in parts.items()}
    ranks = row.get("ranks") or {}
    return {
        name: {"raw": raw, "rank": ranks.get(name),
               "weighted": 0.0 if ranks.get(name) is None else w / (plan.rrf_k + ranks[name])}
        for name, (w, raw) in parts.items()
    }  # fmt: skip


def explain_row(row: Mapping[str, Any], plan: SearchPlan) -> dict[str, Any]:
    contributions: list[dict[str, Any]] = [
        {
            "space_name": space,
            "space_index": plan.registry.index(space) + 1 if space in plan.registry else None,
            "weighted_contribution": plan.weights.w_cos * plan.space_weights[space] * similarity,
        }
        for space, similarity in per_space_scores(row, plan).items()
        if similarity is not None
    ]
    contributions.sort(key=lambda item: -item["weighted_contribution"])
    explained = {
        "components": components(row, plan),
        "top_contributing_spaces": contributions[:TOP_SPACES],
    }
    if row.get("ranks") is not None:
        explained["ranks"] = row["ranks"]
    return explained


def weights_applied(plan: SearchPlan) -> dict[str, Any]:
    space_weights = {name: round(w, DISPLAY_DIGITS) for name, w in plan.space_weights.items()}
    return {**plan.weights.as_dict(), "space_weights": space_weights}


def response_row(
    row: Mapping[str, Any], plan: SearchPlan, request: SearchRequest
) -> dict[str, Any]:
    per_space = request.include_per_space_scores
    if per_space is None:
        per_space = request.explain
    out = contract_row(row)
    if plan.text is not None:
        out["lex"] = row.get("lex")
    if request.explain:
        out.update(explain_row(row, plan))
    if per_space:
        out["per_space_scores"] = per_space_scores(row, plan)
    return out


def _timings(meta: dict[str, Any], embed_ms: float | None) -> dict[str, Any]:
    """Where the time went: embedding the question (when the service did), then the
    database's stages."""
    timings: dict[str, Any] = {} if embed_ms is None else {"embed": round(embed_ms, 3)}
    return {**timings, **(meta.get("timings_ms") or {})}


def metadata(outcome: SearchOutcome) -> dict[str, Any]:
    plan, meta = outcome.plan, outcome.ranking.meta
    profile = plan.profile
    return {
        "strategy": meta["strategy"],
        "strategy_reason": meta.get("strategy_reason"),
        "exact": meta["exact"],
        "approximate_streams": meta.get("approximate_streams") or [],
        "fell_back_to_scan": meta["fell_back"],
        "candidates_scanned": meta["candidates_scanned"],
        "keyword_matches": meta.get("keyword_matches"),
        "search_time_ms": round(outcome.elapsed_ms, 3),
        "sql_time_ms": meta["search_time_ms"],
        "timings_ms": _timings(meta, outcome.embed_ms),
        "collection": plan.collection,
        "fusion": plan.fusion,
        "spaces_searched": list(plan.space_names),
        "space_weights": dict(plan.space_weights),
        "profile_used": {"name": profile.name, "version": profile.version},
        "weights_applied": weights_applied(plan),
        "offset": plan.offset,
        "max_per_source": plan.max_per_source,
        "diversity_factor": plan.diversity,
        "low_confidence_retry": plan.retry is not None,
    }


def search_response(request: SearchRequest, outcome: SearchOutcome) -> dict[str, Any]:
    plan = outcome.plan
    response: dict[str, Any] = {
        "ok": True,
        "k": plan.k,
        "weights": plan.weights.as_dict(),
        "rows": [response_row(row, plan, request) for row in outcome.page],
        "query_metadata": metadata(outcome),
    }
    if plan.classification is not None:
        response["classification"] = {
            **plan.classification.as_dict(),
            "weights": plan.weights.as_dict(),
            "retry": dict(plan.retry) if plan.retry else None,
            "evidence": dict(plan.evidence) if plan.evidence else None,
        }
    return response
