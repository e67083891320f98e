"""Purpose: goals (named reference vectors, one per space) and alignment to them.

``PUT /api/rag/goals/{name}`` stores a goal; a search with ``goal`` and
``include_purpose_alignment`` adds each row's cosine to the goal; ``POST
/api/rag/search/purpose`` ranks chunks by that cosine alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pgvector import Vector
from psycopg import AsyncConnection
from pydantic import BaseModel, ConfigDict, Field

from app.db.sqlfiles import queries
from app.errors import BadRequest, NotFound
from app.filters import FILTER_RULES, FilterFields
from app.ingest import load_spaces
from app.settings import SPACE_NAME_PATTERN, Settings
from app.space_search import SpaceSearchRequest, space_search
from app.validation import VectorInput, as_vector, parse_model

if TYPE_CHECKING:
    from app.search import SearchRequest

SpaceName = Annotated[str, Field(pattern=SPACE_NAME_PATTERN)]


class GoalIn(BaseModel):
    """Body of ``PUT /api/rag/goals/{name}``: the goal's vectors, by space."""

    model_config = ConfigDict(extra="forbid")

    embedding: VectorInput | None = Field(default=None, description="In the default space.")
    embeddings: dict[SpaceName, VectorInput] = Field(default_factory=dict)
    description: str = Field(default="", max_length=2000)


GOAL_RULES = {
    "embedding": "embedding must be a non-empty number[]",
    "embeddings": lambda path: f"{path} must be a non-empty number[] keyed by space name",
}


class PurposeSearchRequest(FilterFields):
    """Body of ``POST /api/rag/search/purpose``."""

    model_config = ConfigDict(extra="forbid")

    goal: SpaceName | None = Field(default=None, description="A stored goal.")
    purpose_vector: VectorInput | None = Field(default=None, description="Or a vector.")
    space: SpaceName | None = Field(
        default=None, description="The space to rank in; default: the goal's (or default)."
    )
    top_k: int = Field(default=10, strict=True, ge=1, le=50)
    min_alignment: float | None = Field(default=None, strict=True, allow_inf_nan=False,
                                        ge=0, le=1)  # fmt: skip


PURPOSE_RULES = {
    **FILTER_RULES,
    "purpose_vector": "purpose_vector must be a non-empty number[]",
    "top_k": "top_k must be 1..50",
    "min_alignment": "min_alignment must be a number in [0,1]",
}


def parse_goal(body: bytes) -> GoalIn:
    return parse_model(GoalIn, body, GOAL_RULES)


def parse_purpose_search(body: bytes) -> PurposeSearchRequest:
    return parse_model(PurposeSearchRequest, body, PURPOSE_RULES)


async def put_goal(
    conn: AsyncConnection, name: str, goal: GoalIn, settings: Settings
) -> dict[str, Any]:
    vectors = dict(goal.embeddings)
    if goal.embedding is not None:
        vectors.setdefault(settings.default_space, goal.embedding)
    if not vectors:
        raise BadRequest("a goal needs at least one vector: embedding or embeddings")
    spaces = await load_spaces(conn)
    checked = {}
    for space, values in vectors.items():
        if space not in spaces:
            raise BadRequest("invalid_space", message=f"unknown embedding space {space!r}",
                             space=space, valid_spaces=sorted(spaces))  # fmt: skip
        vector = as_vector(values, f"embeddings.{space}")
        if len(vector) != spaces[space].dims:
            raise BadRequest(
                f"embeddings.{space} has {len(vector)} dimensions, expected {spaces[space].dims}",
                expected=spaces[space].dims, actual=len(vector),
            )  # fmt: skip
        checked[space] = vector
    q = queries("goals")
    async with conn.transaction():
        await conn.execute(q.delete_goal_vectors, (name,))
        for space, vector in checked.items():
            await conn.execute(
                q.insert_goal_vector, (name, Vector(vector), goal.description, space)
            )
    return await get_goal(conn, name)


async def get_goal(conn: AsyncConnection, name: str, vectors: bool = False) -> dict[str, Any]:
    cursor = await conn.execute(queries("goals").get_goal, (name,))
    rows = await cursor.fetchall()
    if not rows:
        raise NotFound(f"no goal named {name!r}", goal=name)
    goal: dict[str, Any] = {
        "ok": True, "name": name, "description": rows[0][3],
        "spaces": [row[1] for row in rows], "updated_at": max(r[4] for r in rows).isoformat(),
    }  # fmt: skip
    if vectors:
        goal["embeddings"] = {row[1]: row[2].to_list() for row in rows}
    return goal


async def list_goals(conn: AsyncConnection) -> list[dict[str, Any]]:
    cursor = await conn.execute(queries("goals").list_goals)
    return [
        {"name": name, "spaces": spaces, "description": description, "updated_at": at.isoformat()}
        for name, spaces, description, at in await cursor.fetchall()
    ]


async def delete_goal(conn: AsyncConnection, name: str) -> None:
    await get_goal(conn, name)
    await conn.execute(queries("goals").delete_goal_vectors, (name,))


async def _goal_space(conn: AsyncConnection, goal: str, wanted: list[str]) -> str:
    """The first of ``wanted`` the goal has a vector in."""
    spaces = (await get_goal(conn, goal))["spaces"]
    for space in wanted:
        if space in spaces:
            return space
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
        queries("goals").goal_alignment, (request.goal, space, [r["chunk_id"] for r in rows])
    )
    alignment = dict(await cursor.fetchall())
    for row in rows:
        row["purpose_alignment"] = alignment.get(row["chunk_id"])
        row["purpose_space"] = space


async def purpose_search(
    conn: AsyncConnection, request: PurposeSearchRequest, settings: Settings
) -> dict[str, Any]:
    """Rank chunks by cosine to a goal (or a given purpose vector) in one space."""
    if (request.goal is None) == (request.purpose_vector is None):
        raise BadRequest("give goal (a stored goal's name) or purpose_vector, not both")
    if request.goal is not None:
        goal = await get_goal(conn, request.goal, vectors=True)
        space = request.space or (
            settings.default_space
            if settings.default_space in goal["spaces"]
            else goal["spaces"][0]
        )
        if space not in goal["embeddings"]:
            raise BadRequest(f"goal {request.goal!r} has no vector in space {space!r}")
        vector = goal["embeddings"][space]
    else:
        space = request.space or settings.default_space
        vector = request.purpose_vector
    nearest = SpaceSearchRequest.model_validate({
        **request.filters(), "query_embedding": vector, "top_k": request.top_k,
        "min_similarity": request.min_alignment,
    })  # fmt: skip
    found = await space_search(conn, space, nearest, settings)
    results = [
        {**{k: v for k, v in row.items() if k != "similarity"}, "alignment": row["similarity"]}
        for row in found["results"]
    ]
    return {
        "ok": True, "goal": request.goal, "space": space, "top_k": request.top_k,
        "results": results, "query_metadata": found["query_metadata"],
    }  # fmt: skip
