"""Goals: named reference vectors (at most one per embedding space), for purpose
alignment and purpose search (app/search/purpose.py)."""

from __future__ import annotations

from typing import Any

from pgvector import Vector
from psycopg import AsyncConnection
from psycopg.rows import dict_row
from pydantic import BaseModel, ConfigDict, Field

from app.db.sqlfiles import queries
from app.errors import BadRequest, NotFound, invalid_space
from app.ingest.store import load_spaces
from app.settings import Settings
from app.validation import Name, RuleMessages, Text, parse_model
from app.vectors import VectorInput, as_vector, named_vectors


class GoalIn(BaseModel):
    """Body of ``PUT /api/rag/goals/{name}``: the goal's vectors, by space."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "anyOf": [
                {"required": ["embedding"]},
                {"required": ["embeddings"], "properties": {"embeddings": {"minProperties": 1}}},
            ]
        },
    )  # fmt: skip

    embedding: VectorInput | None = Field(default=None, description="In the default space.")
    embeddings: dict[Name, VectorInput] = Field(default_factory=dict)
    description: Text = Field(default="", max_length=2000)


GOAL_RULES: RuleMessages = {
    "embedding": "embedding must be a non-empty number[]",
    "embeddings": lambda path: f"{path} must be a non-empty number[] keyed by space name",
    "description": "description must be a string of at most 2000 characters",
}


def parse_goal(body: bytes) -> GoalIn:
    return parse_model(GoalIn, body, GOAL_RULES)


async def put_goal(
    conn: AsyncConnection, name: str, goal: GoalIn, settings: Settings
) -> dict[str, Any]:
    named = named_vectors(goal.embedding, goal.embeddings, settings.default_space)
    if not named:
        raise BadRequest("a goal needs at least one vector: embedding or embeddings")
    spaces = await load_spaces(conn)
    checked = {}
    for space, (path, values) in named.items():
        if space not in spaces:
            raise invalid_space(space, list(spaces))
        if spaces[space].kind != "dense":
            raise BadRequest(f"{path}: goals are dense vectors, and space {space!r} is "
                             f"{spaces[space].kind}", field=path)  # fmt: skip
        checked[space] = as_vector(values, path, spaces[space].dims)
    q = queries("goals")
    async with conn.transaction():
        await conn.execute(q.delete_goal_vectors, (name,))
        for space, vector in checked.items():
            await conn.execute(
                q.insert_goal_vector,
                {
                    "name": name,
                    "vector": Vector(vector),
                    "description": goal.description,
                    "space": space,
                },
            )
    return await get_goal(conn, name)


async def get_goal(conn: AsyncConnection, name: str, vectors: bool = False) -> dict[str, Any]:
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(queries("goals").get_goal, (name,))
        rows = await cursor.fetchall()
    if not rows:
        raise NotFound(f"no goal named {name!r}", goal=name)
    goal: dict[str, Any] = {
        "ok": True, "name": name, "description": rows[0]["description"],
        "spaces": [row["space"] for row in rows],
        "updated_at": max(r["updated_at"] for r in rows).isoformat(),
    }  # fmt: skip
    if vectors:
        goal["embeddings"] = {row["space"]: row["embedding"].to_list() for row in rows}
    return goal


async def list_goals(conn: AsyncConnection) -> list[dict[str, Any]]:
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(queries("goals").list_goals)
        rows = await cursor.fetchall()
    return [{**row, "updated_at": row["updated_at"].isoformat()} for row in rows]


async def delete_goal(conn: AsyncConnection, name: str) -> None:
    await get_goal(conn, name)
    await conn.execute(queries("goals").delete_goal_vectors, (name,))
