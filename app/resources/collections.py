"""Collections: named sets of documents (a tenant, an application). Each is a partition of
its own in every per-chunk table (sql/functions/collections.sql); deleting one drops
those partitions and its documents in one transaction."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import AsyncConnection
from psycopg.errors import UniqueViolation
from psycopg.rows import dict_row
from pydantic import BaseModel, ConfigDict, Field

from app.db.sqlfiles import queries
from app.errors import Conflict, is_write_collision, unknown_collection
from app.parts import MAX_PARTS
from app.resources.collection_limit import change_partitions, ensure_room
from app.settings import Settings
from app.validation import CollectionName, Text, parse_model

DEFAULT_COLLECTION = "default"
DROP_ATTEMPTS = 3
TOP_TAGS = 20


class CollectionIn(BaseModel):
    """Body of ``POST /api/rag/collections``."""

    model_config = ConfigDict(extra="forbid")

    name: CollectionName = Field(
        description="Lower-case letters, digits, _ and -, starting with a letter or digit (max 63)."
    )
    description: Text = Field(default="", max_length=2000)
    parts: int = Field(
        default=1, ge=1, le=MAX_PARTS, strict=True,
        description="Store the collection split into this many parts (default 1: whole). On a "
        "Citus cluster each part goes to another worker while there are workers to spare, so "
        "one collection can outgrow one machine; a search asks every part and merges their "
        "best rows, with the same rows and scores as a whole collection. Fixed at creation.",
    )  # fmt: skip


COLLECTION_RULES = {
    "name": "name must match ^[a-z0-9][a-z0-9_-]{0,62}$ (lower-case letters, digits, _ and -)",
    "description": "description must be a string of at most 2000 characters",
    "parts": f"parts must be an integer from 1 to {MAX_PARTS}",
}


def parse_collection(body: bytes | dict[str, Any]) -> CollectionIn:
    return parse_model(CollectionIn, body, COLLECTION_RULES)


def _collection(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "created_at": row["created_at"].isoformat()}


async def create_collection(
    conn: AsyncConnection, body: CollectionIn, settings: Settings
) -> dict[str, Any]:
    try:
        async with conn.transaction(), conn.cursor(row_factory=dict_row) as cursor:
            await ensure_room(conn, settings, body.name, body.parts)
            await cursor.execute(
                queries("collections").create_collection,
                {"name": body.name, "description": body.description, "parts": body.parts},
            )
            row = await cursor.fetchone()
    except UniqueViolation:
        raise Conflict(f"collection {body.name!r} already exists", collection=body.name) from None
    assert row is not None
    return {**_collection(row), "documents": 0, "chunks": 0}


async def list_collections(
    conn: AsyncConnection, allowed: frozenset[str] | None = None
) -> list[dict[str, Any]]:
    """Every collection (or those in ``allowed``), with its counts."""
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(queries("collections").collection_stats, (None,))
        rows = await cursor.fetchall()
    return [_collection(r) for r in rows if allowed is None or r["name"] in allowed]


async def get_collection(conn: AsyncConnection, name: str) -> dict[str, Any]:
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(queries("collections").collection_stats, (name,))
        row = await cursor.fetchone()
        if row is None:
            raise unknown_collection(name)
        await cursor.execute(queries("collections").collection_tags, (name, TOP_TAGS))
        tags = await cursor.fetchall()
    return {**_collection(row), "top_tags": tags}


async def delete_collection(conn: AsyncConnection, name: str) -> dict[str, Any]:
    """Drop it in one transaction. Dropping its partitions locks each exclusively, one
    after another, while searches lock them for reading in their own order: when one
    search holds what the drop needs next and wants what the drop holds, PostgreSQL undoes
    the drop, which is then done again (the search finishes meanwhile)."""
    for attempt in range(1, DROP_ATTEMPTS + 1):
        try:
            async with conn.transaction():
                await change_partitions(conn)
                cursor = await conn.execute(queries("collections").drop_collection, (name,))
                row = await cursor.fetchone()
            break
        except psycopg.Error as error:
            if not is_write_collision(error) or attempt == DROP_ATTEMPTS:
                raise
    return {"ok": True, "deleted": name, "deleted_chunks": row[0] if row else 0}
