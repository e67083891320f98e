"""The feedback loop: clients update how useful chunks are (clicks, ratings).

Per chunk: ``volume`` and ``confidence`` set the stored values, ``add_volume`` adds to
the volume (a click), ``signal`` pins the signal to a value in [0,1] and ``signal:
null`` unpins it. While unpinned, signal = min(1, volume * confidence / 5).
The whole request applies at once, or not at all when a chunk_id is unknown.
"""

from __future__ import annotations

from typing import Any

from psycopg import AsyncConnection
from psycopg.types.json import Jsonb
from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.db.sqlfiles import queries
from app.errors import BadRequest, NotFound
from app.ingest.models import MAX_VOLUME, StoredFloat
from app.parts import find_collection
from app.validation import CollectionName, Identifier, RuleMessages, parse_model

MAX_UPDATES = 10_000


class SignalUpdate(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "anyOf": [{"required": [name]} for name in ("volume", "confidence", "add_volume",
                                                       "signal")],
            "not": {"required": ["volume", "add_volume"]},
        },
    )  # fmt: skip

    chunk_id: Identifier
    volume: StoredFloat | None = Field(default=None, ge=0, le=MAX_VOLUME)
    confidence: StoredFloat | None = Field(default=None, ge=0, le=MAX_VOLUME)
    add_volume: StoredFloat | None = Field(default=None, ge=-MAX_VOLUME, le=MAX_VOLUME)
    signal: StoredFloat | None = Field(default=None, ge=0, le=1)

    @model_validator(mode="after")
    def _something_to_do(self) -> SignalUpdate:
        given = self.model_fields_set - {"chunk_id"}
        if not given:
            raise ValueError("give at least one of volume, confidence, add_volume, signal")
        if "volume" in given and "add_volume" in given:
            raise ValueError("give volume or add_volume, not both")
        return self


class SignalsIn(BaseModel):
    """Body of ``POST /api/rag/signals``."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"updates": [
                {"chunk_id": "doc-123-chunk-0", "add_volume": 1},
                {"chunk_id": "doc-123-chunk-1", "volume": 4, "confidence": 0.9},
                {"chunk_id": "doc-123-chunk-2", "signal": 0.75},
            ]}]
        },
    )  # fmt: skip

    collection: CollectionName = Field(default="default", description="The chunks' collection.")
    updates: list[SignalUpdate] = Field(min_length=1, max_length=MAX_UPDATES)


SIGNAL_RULES: RuleMessages = {
    "collection": "collection must be a collection name",
    "updates": lambda path: (
        f"{path}: each update needs chunk_id and volume >= 0, confidence >= 0, add_volume "
        "or signal in [0,1] (finite numbers)"
        if "[" in path
        else f"updates must be an array of 1..{MAX_UPDATES} updates"
    ),
}


def parse_signals(body: bytes | dict[str, Any]) -> SignalsIn:
    return parse_model(SignalsIn, body, SIGNAL_RULES)


def _payload(update: SignalUpdate) -> dict[str, Any]:
    return {
        "chunk_id": update.chunk_id,
        "volume": update.volume,
        "confidence": update.confidence,
        "add_volume": update.add_volume,
        "set_signal": "signal" in update.model_fields_set,
        "signal": update.signal,
    }


async def apply_signals(conn: AsyncConnection, body: SignalsIn) -> dict[str, Any]:
    chunk_ids = [u.chunk_id for u in body.updates]
    if len(set(chunk_ids)) != len(chunk_ids):
        raise BadRequest("updates: each chunk_id may appear only once per request")
    q = queries("signals")
    async with conn.transaction():
        collections = list((await find_collection(conn, body.collection)).ids)
        keys = {"chunk_ids": chunk_ids, "collections": collections}
        cursor = await conn.execute(q.unknown_chunks, keys)
        unknown = [row[0] for row in await cursor.fetchall()]
        if unknown:
            raise NotFound(
                f"unknown chunk_id {unknown[0]!r}"
                + (f" and {len(unknown) - 1} more" if len(unknown) > 1 else ""),
                chunk_ids=unknown[:100],
            )
        cursor = await conn.execute(
            q.update_signals,
            {"updates": Jsonb([_payload(u) for u in body.updates]),
             "collections": collections, "max_volume": MAX_VOLUME},
        )  # fmt: skip
        rows = await cursor.fetchall()
    return {
        "ok": True,
        "collection": body.collection,
        "updated": len(rows),
        "chunks": [
            {
                "chunk_id": r[0],
                "volume": r[1],
                "confidence": r[2],
                "scale": r[3],
                "signal": r[4],
                "signal_pinned": r[5],
            }
            for r in rows
        ],
    }
