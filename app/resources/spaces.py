"""The embedding-space registry: register, list, drop; per-space counts."""

from __future__ import annotations

import asyncio
from typing import Any

from psycopg import AsyncConnection
from psycopg.errors import UniqueViolation
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb
from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.db.sqlfiles import queries
from app.embed.config import EmbedderConfig
from app.embed.local import check_local, local_dimensions, model_source
from app.embed.registry import check_fits, check_key
from app.embed.terms import vocabulary_size
from app.errors import BadRequest, Conflict, NotFound, unknown_collection
from app.resources.collection_limit import change_partitions
from app.settings import Settings
from app.spaces import Metric, SpaceKind
from app.validation import Count, Name, Text, parse_model
from app.vectors import MAX_TOKENS

MAX_DENSE_DIMS = 4000  # HNSW over halfvec
MAX_SPARSE_DIMS = 1_000_000_000  # pgvector's sparsevec
DEFAULT_TOKENS = 128


class SpaceIn(BaseModel):
    """Body of ``POST /api/rag/spaces``."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"name": "code", "dims": 768, "model": "jina-embeddings-v2-base-code"}]
        },
    )

    name: Name = Field(
        description="Lower-case letters, digits and _, starting with a letter (max 63)."
    )
    kind: SpaceKind = Field(
        default="dense",
        description="dense: a vector per chunk; sparse: term weights over a vocabulary of "
        "dims terms (SPLADE-style); multivector: a vector per token, scored by MaxSim "
        "(late interaction, ColBERT-style).",
    )
    dims: Count = Field(
        ge=1, le=MAX_SPARSE_DIMS,
        description="Numbers per vector, 1..4000 (dense; per token for multivector), or the "
        "vocabulary size for sparse (up to 1e9).",
    )  # fmt: skip
    metric: Metric | None = Field(
        default=None,
        description="cosine (every kind), or inner_product (sparse only: the raw dot product, "
        "not bounded by 1). Default: inner_product for a sparse space with a bm25 embedder, "
        "cosine otherwise.",
    )
    max_tokens: Count | None = Field(
        default=None, ge=1, le=MAX_TOKENS,
        description=f"multivector: token vectors a chunk may have (default {DEFAULT_TOKENS}).",
    )  # fmt: skip
    model: Text = Field(default="", max_length=200)
    description: Text = Field(default="", max_length=2000)
    embedder: EmbedderConfig | None = Field(
        default=None,
        description="How the service makes this space's vectors from text (none: clients "
        "send them). The space's model is the embedder's unless given.",
    )

    @model_validator(mode="after")
    def _kind_rules(self) -> SpaceIn:
        if self.kind != "sparse" and self.dims > MAX_DENSE_DIMS:
            raise ValueError(
                f"dims must be an integer in 1..{MAX_DENSE_DIMS} for a {self.kind} space"
            )
        if self.metric is None:
            bm25 = self.embedder is not None and self.embedder.kind == "bm25"
            self.metric = "inner_product" if bm25 and self.kind == "sparse" else "cosine"
        if self.metric != "cosine" and self.kind != "sparse":
            raise ValueError("metric inner_product is for sparse spaces only")
        if self.max_tokens is not None and self.kind != "multivector":
            raise ValueError("max_tokens is for multivector spaces only")
        if self.kind == "multivector" and self.max_tokens is None:
            self.max_tokens = DEFAULT_TOKENS
        return self


SPACE_RULES = {
    "name": "name must match ^[a-z][a-z0-9_]{0,62}$ (lower-case letters, digits, _)",
    "dims": "dims must be an integer in 1..4000 (for sparse: the vocabulary size, up to 1e9)",
    "kind": "kind must be dense, sparse or multivector",
    "metric": "metric must be cosine or inner_product",
    "max_tokens": f"max_tokens must be an integer in 1..{MAX_TOKENS}",
    "model": "model must be a string of at most 200 characters",
    "description": "description must be a string of at most 2000 characters",
}


def check_embedder(config: EmbedderConfig, kind: str, dims: int, settings: Settings) -> None:
    """An embedder of the space's kind this server can run, making vectors of the space's
    dimensions where that can be told without running it (400 naming what is wrong)."""
    check_fits(config, kind)
    if config.kind == "bm25":
        terms = vocabulary_size(config)
        if terms != dims:
            raise BadRequest(f"embedder: the tokenizer has {terms} terms; the space has {dims}",
                             field="dims")  # fmt: skip
        return
    if config.kind == "openai":
        check_key(config, settings)
        if config.dimensions is not None and config.dimensions != dims:
            raise BadRequest(
                f"embedder.dimensions: {config.dimensions}, but the space has {dims}",
                field="embedder.dimensions",
            )
        return
    check_local(config)
    made = local_dimensions(model_source(config))
    if made is not None and made != dims:
        raise BadRequest(
            f"embedder: the model makes {made}-dimension vectors; the space has {dims}",
            field="dims",
        )


def parse_space(body: bytes | dict[str, Any]) -> SpaceIn:
    return parse_model(SpaceIn, body, SPACE_RULES, _field_of)


def _field_of(loc: tuple[str | int, ...], message: str) -> BadRequest:
    """The refusal naming the field it is about (embedder.b, dims, ...)."""
    path = ".".join(str(part) for part in loc)
    return BadRequest(message, field=path) if path else BadRequest(message)


def _space_dict(row: dict[str, Any]) -> dict[str, Any]:
    """A space as answered (the registry's id stays inside)."""
    fields = ("name", "kind", "dims", "metric", "max_tokens", "model", "description",
              "embedder")  # fmt: skip
    return {
        **{name: row.get(name) for name in fields},
        "created_at": row["created_at"].isoformat(),
        "index": {"m": row["hnsw_m"], "ef_construction": row["hnsw_ef_construction"]},
    }


async def register_space(
    conn: AsyncConnection, space: SpaceIn, settings: Settings
) -> dict[str, Any]:
    if space.embedder is not None:
        await asyncio.to_thread(check_embedder, space.embedder, space.kind, space.dims, settings)
    model = space.model or (space.embedder.model_name if space.embedder else "")
    params = {
        "name": space.name, "dims": space.dims, "model": model,
        "description": space.description, "m": settings.hnsw_m,
        "ef_construction": settings.hnsw_ef_construction, "kind": space.kind,
        "metric": space.metric, "max_tokens": space.max_tokens,
    }  # fmt: skip
    q = queries("spaces")
    async with conn.transaction(), conn.cursor(row_factory=dict_row) as cursor:
        await _over_every_collection(conn)
        try:
            await cursor.execute(q.register_space, params)
        except UniqueViolation:
            raise Conflict(f"space {space.name!r} already exists", space=space.name) from None
        row = await cursor.fetchone()
        assert row is not None
        embedder = space.embedder.stored() if space.embedder else None
        await cursor.execute(q.set_space_embedder, {"id": row["id"], "embedder": Jsonb(embedder)})
        row["embedder"] = embedder
    return _space_dict(row)


async def list_spaces(conn: AsyncConnection) -> list[dict[str, Any]]:
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute(queries("spaces").list_spaces)
        return [_space_dict(row) for row in await cursor.fetchall()]


async def _over_every_collection(conn: AsyncConnection) -> None:
    """Registering or dropping a space makes or drops a partition with its indexes in
    every collection (3,200 collections took 62 s): it waits for other changes to which
    partitions exist, and inside its transaction RAG_REQUEST_TIMEOUT bounds it rather
    than the searches' RAG_STATEMENT_TIMEOUT_MS."""
    await change_partitions(conn)
    await conn.execute(queries("meta").local_statement_timeout, ("0",))


async def drop_space(conn: AsyncConnection, name: str, settings: Settings) -> dict[str, Any]:
    """Drop the space; what went with it or still names it (api.drop_space)."""
    if name == settings.default_space:
        raise Conflict(f"the default space {name!r} cannot be dropped (RAG_DEFAULT_SPACE)")
    async with conn.transaction():
        await _over_every_collection(conn)
        cursor = await conn.execute(queries("spaces").drop_space, (name,))
        row = await cursor.fetchone()
    if not row or row[0] is None:
        raise NotFound(f"no space named {name!r}", space=name)
    said: dict[str, Any] = row[0]
    return said


async def stats(conn: AsyncConnection, collection: str) -> dict[str, Any]:
    cursor = await conn.execute(queries("stats").counts, (collection,))
    row = await cursor.fetchone()
    if row is None:
        raise unknown_collection(collection)
    documents, chunks = row
    cursor = await conn.execute(queries("spaces").space_stats, (collection,))
    spaces = [
        {"name": name, "dims": dims, "model": model, "description": description, "vectors": n}
        for name, dims, model, description, n in await cursor.fetchall()
    ]
    return {"ok": True, "collection": collection, "documents": documents, "chunks": chunks,
            "spaces": spaces}  # fmt: skip
