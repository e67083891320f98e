"""Weighted search: validate a request, call ``api.rag_topk_weighted``, shape the answer.

The ranking itself happens in PostgreSQL (sql/functions/030_search.sql); this module
only resolves what the client asked for (weights, spaces, filters, recency) into the
function's arguments, and the function's rows into the response contract.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

import numpy as np
from pgvector import Vector
from psycopg import AsyncConnection
from psycopg.types.json import Jsonb
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.db.sqlfiles import queries
from app.errors import BadRequest
from app.filters import FILTER_RULES, FilterFields, utc
from app.settings import Settings
from app.validation import (
    FiniteFloat,
    PositiveFloat,
    UnitFloat,
    VectorInput,
    as_vector,
    parse_model,
)
from app.weights import BlendWeights, blend_weights, space_weights

ROW_FIELDS = (
    "chunk_id", "doc_id", "src", "chunk", "model", "score",
    "cos_dist", "l2_dist", "scale", "days_old", "created_at",
)  # fmt: skip

EMBEDDING_REQUIRED = "embedding (number[]) required"


class Recency(BaseModel):
    """How recency decays with age. Every function is 1 for a chunk created now."""

    model_config = ConfigDict(extra="forbid")

    function: Literal["inverse", "exponential", "gaussian", "linear"] = Field(
        default="inverse",
        description="inverse: 1/(1+days/scale_days) (scale 1 by default); exponential: "
        "0.5^(days/half_life_days); gaussian: 0.5^((days/scale_days)^2); linear: "
        "max(0, 1 - days/(2*scale_days)).",
    )
    half_life_days: PositiveFloat | None = Field(default=None, description="For exponential.")
    scale_days: PositiveFloat | None = Field(
        default=None, description="Age in days at which recency is 0.5 (gaussian, linear)."
    )

    @model_validator(mode="after")
    def _parameters(self) -> Recency:
        if self.function == "exponential" and self.half_life_days is None:
            raise ValueError("half_life_days is required for exponential decay")
        if self.function in ("gaussian", "linear") and self.scale_days is None:
            raise ValueError(f"scale_days is required for {self.function} decay")
        return self

    def scale(self) -> float:
        if self.function == "exponential":
            return float(self.half_life_days or 1.0)
        return float(self.scale_days or 1.0)


class SearchRequest(FilterFields):
    """Body of ``POST /api/rag/search``."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"embedding": [0.01, -0.02, 0.03], "k": 5, "w_rec": 0.1, "w_sig": 0.1}]
        },
    )

    embedding: VectorInput | None = Field(
        default=None, description="Query vector in the default space (RAG_DEFAULT_SPACE)."
    )
    embeddings: dict[str, VectorInput] | None = Field(
        default=None, description="Query vectors by space name, instead of or beside embedding."
    )
    k: int | None = Field(default=None, strict=True, ge=1, le=50, description="Rows, 1..50.")
    w_cos: UnitFloat | None = Field(
        default=None, description="Semantic weight; default max(0, 1 - (w_rec + w_sig))."
    )
    w_rec: UnitFloat | None = Field(default=None, description="Recency weight in [0,1].")
    w_sig: UnitFloat | None = Field(default=None, description="Signal weight in [0,1].")
    space_weights: dict[str, FiniteFloat] | None = Field(
        default=None, description="Weight per query space; normalised; equal when omitted."
    )
    recency: Recency | None = None
    min_score: FiniteFloat | None = Field(default=None, description="Drop rows scoring less.")
    as_of: datetime | None = Field(
        default=None, description="Measure ages from this instant instead of now."
    )
    exact: bool = Field(
        default=False,
        strict=True,
        description="Score every chunk that passes the filters (the full scan) instead of "
        "the threshold algorithm, whose semantic part trusts the HNSW index.",
    )

    _utc_as_of = field_validator("as_of")(utc)


SEARCH_RULES = {
    "embedding": EMBEDDING_REQUIRED,
    "k": "k must be 1..50",
    "w_cos": "w_cos must be a finite number in [0,1]",
    "w_rec": "w_rec must be a finite number in [0,1]",
    "w_sig": "w_sig must be a finite number in [0,1]",
    "embeddings": lambda path: f"{path} must be a non-empty number[] keyed by space name",
    "space_weights": lambda path: f"{path} must be a finite number >= 0",
    **FILTER_RULES,
    "as_of": "as_of must be an ISO 8601 timestamp",
    "min_score": "min_score must be a finite number",
    "exact": "exact must be true or false",
}


@dataclass
class SearchQuery:
    """A validated request, in the form ``api.rag_topk_weighted`` takes."""

    k: int
    weights: BlendWeights
    spaces: list[str]
    vectors: list[np.ndarray]
    space_weights: dict[str, float]
    filters: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)


def parse_search_request(body: bytes | dict[str, Any]) -> SearchRequest:
    return parse_model(SearchRequest, body, SEARCH_RULES)


def _query_vector(values: list[float] | str, field: str) -> np.ndarray:
    if field == "embedding" and isinstance(values, str):
        try:
            return as_vector(values, field)
        except BadRequest:
            raise BadRequest(EMBEDDING_REQUIRED) from None  # the contract's wording
    return as_vector(values, field)


def _query_vectors(
    request: SearchRequest, default_space: str
) -> tuple[list[str], list[np.ndarray]]:
    fields = {space: f"embeddings.{space}" for space in request.embeddings or {}}
    named: dict[str, list[float] | str] = dict(request.embeddings or {})
    if request.embedding is not None:
        if default_space in named:
            raise BadRequest(
                f"give the default space vector once: embedding or embeddings.{default_space}",
                field="embedding",
            )
        named = {default_space: request.embedding, **named}
        fields[default_space] = "embedding"
    if not named:
        raise BadRequest(EMBEDDING_REQUIRED)
    return list(named), [_query_vector(v, fields[space]) for space, v in named.items()]


def _options(request: SearchRequest, settings: Settings) -> dict[str, Any]:
    recency = request.recency or Recency()
    options: dict[str, Any] = {
        "recency": {"function": recency.function, "scale_days": recency.scale()},
        "ef_search": settings.hnsw_ef_search,
        "exact": request.exact,
    }
    if request.min_score is not None:
        options["min_score"] = request.min_score
    if request.as_of is not None:
        options["as_of"] = request.as_of.isoformat()
    return options


def build_query(request: SearchRequest, settings: Settings) -> SearchQuery:
    """Apply defaults and the weight rules; everything the database call needs."""
    spaces, vectors = _query_vectors(request, settings.default_space)
    weights = blend_weights(
        request.w_rec,
        request.w_sig,
        request.w_cos,
        default_w_rec=settings.default_w_rec,
        default_w_sig=settings.default_w_sig,
    )
    return SearchQuery(
        k=request.k if request.k is not None else settings.default_k,
        weights=weights,
        spaces=spaces,
        vectors=vectors,
        space_weights=space_weights(spaces, request.space_weights),
        filters=request.filters(),
        options=_options(request, settings),
    )


TOPK_SQL = "SELECT api.rag_topk_weighted(%b, %s, %s, %s, %s, %s, %s, %s, %s)"


async def run_topk(conn: AsyncConnection, query: SearchQuery) -> dict[str, Any]:
    """One call of the ranking function; returns its ``{"rows", "meta"}`` document."""
    cursor = await conn.execute(
        queries("search").topk_weighted,
        (
            [Vector(v) for v in query.vectors],
            query.spaces,
            [query.space_weights[s] for s in query.spaces],
            query.k,
            query.weights.w_cos,
            query.weights.w_rec,
            query.weights.w_sig,
            Jsonb(query.filters),
            Jsonb(query.options),
        ),
        prepare=True,
    )
    row = await cursor.fetchone()
    assert row is not None
    result: dict[str, Any] = row[0]
    return result


def contract_row(row: dict[str, Any]) -> dict[str, Any]:
    return {name: row.get(name) for name in ROW_FIELDS}


def search_response(query: SearchQuery, result: dict[str, Any], started: float) -> dict[str, Any]:
    meta = result["meta"]
    return {
        "ok": True,
        "k": query.k,
        "weights": query.weights.as_dict(),
        "rows": [contract_row(row) for row in result["rows"]],
        "query_metadata": {
            "strategy": meta["strategy"],
            "exact": meta["exact"],
            "fell_back_to_scan": meta["fell_back"],
            "candidates_scanned": meta["candidates_scanned"],
            "search_time_ms": round((time.perf_counter() - started) * 1000, 3),
            "sql_time_ms": meta["search_time_ms"],
            "spaces_searched": query.spaces,
            "space_weights": query.space_weights,
        },
    }


async def search(
    conn: AsyncConnection, request: SearchRequest, settings: Settings
) -> dict[str, Any]:
    started = time.perf_counter()
    query = build_query(request, settings)
    result = await run_topk(conn, query)
    return search_response(query, result, started)
