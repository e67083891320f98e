"""Weighted search: validate a request, call ``api.rag_topk_weighted``, shape the answer.

The ranking itself happens in PostgreSQL (sql/functions/030_search.sql); this module
only resolves what the client asked for (weights, spaces, filters, recency) into the
function's arguments, and the function's rows into the response contract.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Annotated, Any

import numpy as np
from pgvector import Vector
from psycopg import AsyncConnection
from psycopg.types.json import Jsonb
from pydantic import ConfigDict, Field, field_validator

from app.db.sqlfiles import queries
from app.errors import BadRequest
from app.explain import explain_row, per_space_scores
from app.filters import FILTER_RULES, FilterFields, utc
from app.profiles import DEFAULT_PROFILE, Profile, unknown_profile
from app.purpose import add_purpose_alignment
from app.recency import Recency
from app.settings import SPACE_NAME_PATTERN, Settings
from app.validation import (
    FiniteFloat,
    UnitFloat,
    VectorInput,
    as_vector,
    parse_model,
)
from app.weights import (
    CUSTOM,
    BlendWeights,
    WeightLayer,
    apply_layers,
    custom_space_weights,
)

ROW_FIELDS = (
    "chunk_id", "doc_id", "src", "chunk", "model", "score",
    "cos_dist", "l2_dist", "scale", "days_old", "created_at",
)  # fmt: skip

EMBEDDING_REQUIRED = "embedding (number[]) required"


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
    profile: Annotated[str, Field(pattern=SPACE_NAME_PATTERN)] | None = Field(
        default=None, description="A weight profile (GET /api/rag/profiles)."
    )
    query_type: Annotated[str, Field(pattern=SPACE_NAME_PATTERN)] | None = Field(
        default=None,
        description="Alias of profile; 'custom' takes the space weights from 'weights'.",
    )
    weights: list[FiniteFloat] | None = Field(
        default=None,
        max_length=1000,
        description="query_type custom: one weight per registered space, in registry order.",
    )
    active_spaces: list[str] | None = Field(
        default=None, description="The spaces to search; default every space with a vector."
    )
    min_similarity: UnitFloat | None = Field(
        default=None, description="Drop chunks whose semantic part (sem) is lower (0..1)."
    )
    explain: bool = Field(
        default=False, strict=True,
        description="Add each row's components and the query's weights_applied.",
    )  # fmt: skip
    include_per_space_scores: bool | None = Field(
        default=None, strict=True, description="Cosine similarity per space (default: explain)."
    )
    goal: Annotated[str, Field(pattern=SPACE_NAME_PATTERN)] | None = Field(
        default=None, description="A stored goal (PUT /api/rag/goals/{name})."
    )
    include_purpose_alignment: bool = Field(
        default=False, strict=True, description="Add each row's cosine to the goal."
    )

    _utc_as_of = field_validator("as_of")(utc)

    def profile_name(self) -> str | None:
        if self.profile and self.query_type and self.profile != self.query_type:
            raise BadRequest(
                "profile and query_type name the same thing; give one, or the same name twice"
            )
        return self.profile or self.query_type


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
    "profile": "profile must be a profile name (lower-case letters, digits, _)",
    "query_type": "query_type must be a profile name or custom",
    "weights": "weights must be an array of finite numbers (query_type custom)",
    "active_spaces": "active_spaces must be an array of space names",
    "min_similarity": "min_similarity must be a number in [0,1]",
    "explain": "explain must be true or false",
    "include_per_space_scores": "include_per_space_scores must be true or false",
    "goal": "goal must be a goal name",
    "include_purpose_alignment": "include_purpose_alignment must be true or false",
}


@dataclass(frozen=True)
class SearchContext:
    """What a search reads from the database besides chunks: profiles and spaces."""

    default: Profile
    profile: Profile | None
    registry: list[str]  # registered space names, in registry order


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
    profile: Profile | None = None
    registry: list[str] = field(default_factory=list)


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


def invalid_space(name: str, registry: list[str]) -> BadRequest:
    return BadRequest(
        "invalid_space",
        message=f"unknown embedding space {name!r}; valid spaces: {', '.join(registry)}",
        space=name,
        valid_spaces=registry,
    )


def _searched(
    spaces: list[str], vectors: list[np.ndarray], active: list[str] | None, registry: list[str]
) -> tuple[list[str], list[np.ndarray]]:
    """The spaces to search: active_spaces, or every space the query has a vector for."""
    for space in [*spaces, *(active or [])]:
        if space not in registry:
            raise invalid_space(space, registry)
    if active is None:
        return spaces, vectors
    for space in active:
        if space not in spaces:
            raise BadRequest(f"active_spaces.{space}: the query has no vector for space {space!r}")
    kept = [(s, v) for s, v in zip(spaces, vectors, strict=True) if s in active]
    return [s for s, _ in kept], [v for _, v in kept]


def _layers(request: SearchRequest, context: SearchContext) -> list[tuple[str, WeightLayer]]:
    layers: list[tuple[str, WeightLayer]] = []
    if request.profile_name() == CUSTOM:
        weights = custom_space_weights(request.weights, context.registry)
        layers.append((CUSTOM, WeightLayer(space_weights=weights)))
    elif request.weights is not None:
        raise BadRequest("weights is only for query_type custom (use space_weights)")
    if context.profile is not None:
        layers.append((context.profile.name, context.profile.layer()))
    layers.append((DEFAULT_PROFILE, context.default.layer()))
    return layers


def _options(request: SearchRequest, settings: Settings, recency: Recency) -> dict[str, Any]:
    options: dict[str, Any] = {
        "recency": {"function": recency.function, "scale_days": recency.scale()},
        "ef_search": settings.hnsw_ef_search,
        "exact": request.exact,
    }
    if request.min_score is not None:
        options["min_score"] = request.min_score
    if request.min_similarity is not None:
        options["min_similarity"] = request.min_similarity
    if request.as_of is not None:
        options["as_of"] = request.as_of.isoformat()
    return options


def build_query(request: SearchRequest, settings: Settings, context: SearchContext) -> SearchQuery:
    """Apply the profiles and the weight rules; everything the database call needs."""
    spaces, vectors = _query_vectors(request, settings.default_space)
    spaces, vectors = _searched(spaces, vectors, request.active_spaces, context.registry)
    given = WeightLayer(
        w_cos=request.w_cos, w_rec=request.w_rec, w_sig=request.w_sig,
        space_weights=request.space_weights,
        recency=request.recency.model_dump() if request.recency else None,
    )  # fmt: skip
    applied = apply_layers(
        given, _layers(request, context), spaces,
        default_w_rec=settings.default_w_rec, default_w_sig=settings.default_w_sig,
    )  # fmt: skip
    recency = Recency.model_validate(applied.recency) if applied.recency else Recency()
    return SearchQuery(
        k=request.k if request.k is not None else settings.default_k,
        weights=applied.blend,
        spaces=spaces,
        vectors=vectors,
        space_weights=applied.space_weights,
        filters=request.filters(),
        options=_options(request, settings, recency),
        profile=context.profile or context.default,
        registry=context.registry,
    )


async def load_context(conn: AsyncConnection, profile: str | None) -> SearchContext:
    wanted = [DEFAULT_PROFILE] if profile in (None, CUSTOM) else [DEFAULT_PROFILE, profile]
    cursor = await conn.execute(queries("profiles").search_context, (wanted,), prepare=True)
    row = await cursor.fetchone()
    profiles, spaces = row if row else (None, None)
    found = {p["name"]: Profile.from_json(p) for p in profiles or []}
    registry = [space["name"] for space in spaces or []]
    if profile not in (None, CUSTOM) and profile not in found:
        raise await unknown_profile(conn, profile)
    chosen = found.get(profile) if profile not in (None, CUSTOM) else None
    return SearchContext(found.get(DEFAULT_PROFILE, Profile(DEFAULT_PROFILE, 0, True)),
                         chosen, registry)  # fmt: skip


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


def weights_applied(query: SearchQuery) -> dict[str, Any]:
    return {**query.weights.as_dict(), "space_weights": query.space_weights}


def search_response(
    request: SearchRequest, query: SearchQuery, result: dict[str, Any], started: float
) -> dict[str, Any]:
    meta = result["meta"]
    per_space = request.include_per_space_scores
    if per_space is None:
        per_space = request.explain
    rows = []
    for row in result["rows"]:
        out = contract_row(row)
        if request.explain:
            out.update(explain_row(row, query))
        if per_space:
            out["per_space_scores"] = per_space_scores(row, query)
        rows.append(out)
    profile = query.profile
    return {
        "ok": True,
        "k": query.k,
        "weights": query.weights.as_dict(),
        "rows": rows,
        "query_metadata": {
            "strategy": meta["strategy"],
            "exact": meta["exact"],
            "fell_back_to_scan": meta["fell_back"],
            "candidates_scanned": meta["candidates_scanned"],
            "total_candidates_scanned": meta["candidates_scanned"],
            "search_time_ms": round((time.perf_counter() - started) * 1000, 3),
            "sql_time_ms": meta["search_time_ms"],
            "spaces_searched": query.spaces,
            "space_weights": query.space_weights,
            "profile_used": {"name": profile.name, "version": profile.version} if profile else None,
            "weights_applied": weights_applied(query),
        },
    }


async def search(
    conn: AsyncConnection, request: SearchRequest, settings: Settings
) -> dict[str, Any]:
    started = time.perf_counter()
    context = await load_context(conn, request.profile_name())
    query = build_query(request, settings, context)
    result = await run_topk(conn, query)
    response = search_response(request, query, result, started)
    if request.include_purpose_alignment:
        await add_purpose_alignment(conn, request, query.spaces, response["rows"])
    return response
