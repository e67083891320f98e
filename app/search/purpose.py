"""Purpose: how well chunks align with a goal (app/resources/goals.py).

A search with ``goal`` and ``include_purpose_alignment`` adds each row's cosine to the
goal; ``POST /api/rag/search/purpose`` ranks chunks by that cosine alone.
"""

from __future__ import annotations

from typing import Any

from psycopg import AsyncConnection
from pydantic import ConfigDict, Field

from app.db.sqlfiles import queries
from app.errors import BadRequest
from app.resources.goals import get_goal
from app.search.filters import FILTER_RULES, FilterFields
from app.search.request import SearchRequest
from app.search.space import SpaceSearchRequest, space_search
from app.settings import Settings
from app.validation import Count, Name, UnitFloat, parse_model
from app.vectors import VectorInput, as_vector


class PurposeSearchRequest(FilterFields):
    """Body of ``POST /api/rag/search/purpose``: a goal's name or a purpose vector."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"oneOf": [{"required": ["goal"]}, {"required": ["purpose_vector"]}]},
    )

    goal: Name | None = Field(default=None, description="A stored goal.")
    purpose_vector: VectorInput | None = Field(default=None, description="Or a vector.")
    space: Name | None = Field(
        default=None, description="The space to rank in; default: the goal's (or default)."
    )
    top_k: Count = Field(default=10, ge=1, le=50)
    min_alignment: UnitFloat | None = None


PURPOSE_RULES = {
    **FILTER_RULES,
    "purpose_vector": "purpose_vector must be a non-empty number[]",
    "top_k": "top_k must be an integer in 1..50",
    "min_alignment": "min_alignment must be a number in [0,1]",
}


def parse_purpose_search(body: bytes) -> PurposeSearchRequest:
    return parse_model(PurposeSearchRequest, body, PURPOSE_RULES)


async def _goal_space(conn: AsyncConnection, goal: str, wanted: list[str]) -> str:
    """The first of ``wanted`` the goal has a vector in."""
    spaces = (await get_goal(conn, goal))["spaces"]
    for space in wanted:
        if space in spaces:
            return str(space)
    raise BadRequest(
        f"goal {goal!r} has no vector in {', '.join(wanted)} (it has: {', '.join(spaces)})",
        goal=goal,
    )


async def add_purpose_alignment(
    conn: AsyncConnection, request: SearchRequest, spaces: list[str], rows: list[dict[str, Any]]
) -> None:
    """Each row's cosine to the goal, in the first searched space the goal has a vector in."""
    if request.goal is None:
        raise BadRequest("include_purpose_alignment needs goal (a stored goal's name)")
    space = await _goal_space(conn, request.goal, spaces)
    cursor = await conn.execute(
        queries("goals").goal_alignment,
        {"goal": request.goal, "space": space, "chunk_ids": [r["chunk_id"] for r in rows],
         "collection": request.collection},
    )  # fmt: skip
    alignment: dict[str, float] = dict(await cursor.fetchall())
    for row in rows:
        row["purpose_alignment"] = alignment.get(row["chunk_id"])
        row["purpose_space"] = space


async def _purpose_vector(
    conn: AsyncConnection, request: PurposeSearchRequest, settings: Settings
) -> tuple[str, Any]:
    if request.goal is None and request.purpose_vector is None:
        raise BadRequest("give goal (a stored goal's name) or purpose_vector")
    if request.goal is not None and request.purpose_vector is not None:
        raise BadRequest("give goal or purpose_vector, not both")
    if request.purpose_vector is not None:
        return request.space or settings.default_space, as_vector(
            request.purpose_vector, "purpose_vector"
        )
    assert request.goal is not None
    goal = await get_goal(conn, request.goal, vectors=True)
    space = request.space or (
        settings.default_space if settings.default_space in goal["spaces"] else goal["spaces"][0]
    )
    if space not in goal["embeddings"]:
        raise BadRequest(f"goal {request.goal!r} has no vector in space {space!r}")
    return space, goal["embeddings"][space]


async def purpose_search(
    conn: AsyncConnection, request: PurposeSearchRequest, settings: Settings
) -> dict[str, Any]:
    """Rank chunks by cosine to a goal (or a given purpose vector) in one space."""
    space, vector = await _purpose_vector(conn, request, settings)
    nearest = SpaceSearchRequest.model_validate({
        **request.model_dump(include=set(FilterFields.model_fields)),
        "query_embedding": vector, "top_k": request.top_k,
        "min_similarity": request.min_alignment,
    })  # fmt: skip
    found = await space_search(conn, space, nearest, settings, field="purpose_vector")
    results = [
        {**{k: v for k, v in row.items() if k != "similarity"}, "alignment": row["similarity"]}
        for row in found["results"]
    ]
    return {
        "ok": True, "goal": request.goal, "space": space, "top_k": request.top_k,
        "results": results, "query_metadata": found["query_metadata"],
    }  # fmt: skip
