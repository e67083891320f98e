"""A second ranking stage: a cross-encoder behind an HTTP ``/rerank`` endpoint.

``RAG_RERANKER_URL`` names the endpoint. Two request shapes are in use and both answers
are read: the Cohere/Jina/OpenAI-style one (``{"model", "query", "documents",
"top_n"}`` → ``{"results": [{"index", "relevance_score"}]}``) and Hugging Face TEI's
(``{"query", "texts"}`` → ``[{"index", "score"}]``). The body sent carries both
``documents`` and ``texts`` so either kind of server accepts it. Scores outside [0, 1]
(raw logits) are mapped into it with the logistic function, so that they blend with
the first stage's scores.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import httpx

from app.errors import Unavailable
from app.settings import Settings


def _unit(score: float) -> float:
    if 0.0 <= score <= 1.0:
        return score
    return 1.0 / (1.0 + math.exp(-score))


def _scores(answer: Any, count: int) -> list[float]:
    items = answer.get("results", answer.get("data")) if isinstance(answer, dict) else answer
    if not isinstance(items, list):
        raise ValueError("the answer has no results list")
    scores = [0.0] * count
    for item in items:
        score = item.get("relevance_score", item.get("score"))
        scores[int(item["index"])] = _unit(float(score))
    return scores


async def rerank(settings: Settings, query: str, documents: Sequence[str]) -> list[float]:
    """One score in [0, 1] per document, in the documents' order."""
    if not settings.reranker_url:
        raise ValueError("no reranker configured (RAG_RERANKER_URL)")
    body: dict[str, Any] = {"query": query, "documents": list(documents),
                            "texts": list(documents), "top_n": len(documents)}  # fmt: skip
    if settings.reranker_model:
        body["model"] = settings.reranker_model
    try:
        async with httpx.AsyncClient(timeout=settings.reranker_timeout) as client:
            response = await client.post(settings.reranker_url, json=body)
            response.raise_for_status()
            return _scores(response.json(), len(documents))
    except (httpx.HTTPError, ValueError, KeyError, TypeError, IndexError) as error:
        raise Unavailable(f"the reranker at RAG_RERANKER_URL failed: {error}") from error


def stage_weights(
    chosen: dict[str, float], settings: Settings, notes: list[str]
) -> tuple[float, float]:
    """(initial, reranker): the given ones, else the defaults; without a reranker, the
    first stage alone."""
    if not settings.reranker_url:
        if chosen.get("reranker"):
            notes.append("no reranker is configured (RAG_RERANKER_URL): weights.reranker "
                         "was ignored and the initial score ranks alone")  # fmt: skip
        return 1.0, 0.0
    initial = chosen.get("initial", 1.0 - settings.reranker_weight)
    reranker = chosen.get("reranker", settings.reranker_weight)
    if initial + reranker <= 0:
        notes.append("weights.initial and weights.reranker are both 0; used the defaults")
        return 1.0 - settings.reranker_weight, settings.reranker_weight
    total = initial + reranker
    return initial / total, reranker / total


def blend(
    rows: list[dict[str, Any]], scores: Sequence[float], weights: tuple[float, float]
) -> list[dict[str, Any]]:
    """The rows with their first-stage, reranker and blended scores, best blend first
    (ties by chunk_id)."""
    initial, reranker = weights
    for row, score in zip(rows, scores, strict=True):
        row["initial_score"] = row["score"]
        row["reranker_score"] = score
        row["final_score"] = initial * row["score"] + reranker * score
    return sorted(rows, key=lambda row: (-row["final_score"], row["chunk_id"]))
