"""Explanations of scores: each row's components, and its similarity per space.

Arithmetic the client can check: the components' weighted values (sem, lex when the
query has text, rec, sig) add up to the score, and sem.raw = sum over spaces of space
weight x similarity (0 where the chunk has no vector in a space).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.search import SearchQuery

TOP_SPACES = 3


def per_space_scores(row: dict[str, Any], query: SearchQuery) -> dict[str, float | None]:
    """Cosine similarity to the query in each space searched (None: no vector there)."""
    return dict(zip(query.spaces, row.get("sims") or [], strict=False))


def explain_row(row: dict[str, Any], query: SearchQuery) -> dict[str, Any]:
    weights = query.weights
    components = {"sem": {"raw": row["sem"], "weighted": weights.w_cos * row["sem"]}}
    if weights.w_lex is not None:
        lex = row.get("lex") or 0.0
        components["lex"] = {"raw": lex, "weighted": weights.w_lex * lex}
    components["rec"] = {"raw": row["rec"], "weighted": weights.w_rec * row["rec"]}
    components["sig"] = {"raw": row["sig"], "weighted": weights.w_sig * row["sig"]}
    contributions = [
        {
            "space_name": space,
            "space_index": query.registry.index(space) + 1 if space in query.registry else None,
            "weighted_contribution": weights.w_cos * query.space_weights[space] * similarity,
        }
        for space, similarity in per_space_scores(row, query).items()
        if similarity is not None
    ]
    contributions.sort(key=lambda item: -item["weighted_contribution"])
    return {"components": components, "top_contributing_spaces": contributions[:TOP_SPACES]}
