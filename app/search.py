"""Weighted search: validate a request, call ``api.rag_topk_weighted``, shape the answer.

The ranking itself happens in PostgreSQL (sql/functions/030_search.sql); this module
only resolves what the client asked for (weights, spaces, filters, recency, the query's
class) into the function's arguments, and the function's rows into the response
contract. Two stages follow the ranking when asked for: a low-confidence retry
(``profile: auto``) and diversity re-ranking (``diversity_factor``, app/diversity.py).
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

from app.classify import GENERAL, Classification, classify, of_class
from app.db.sqlfiles import queries
from app.diversity import candidate_pool, diversify
from app.embedders import embed_query
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
    AUTO,
    BLEND_WEIGHT_RULES,
    CUSTOM,
    BlendWeights,
    QueryParts,
    WeightDefaults,
    WeightLayer,
    apply_layers,
    custom_space_weights,
)

ROW_FIELDS = (
    "chunk_id", "doc_id", "src", "chunk", "model", "score",
    "cos_dist", "l2_dist", "scale", "days_old", "created_at",
)  # fmt: skip

EMBEDDING_REQUIRED = "embedding (number[]) required"
MAX_DEPTH = 1000  # offset + k
MAX_EF_SEARCH = 1000


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
    query: str | None = Field(
        default=None, min_length=1, max_length=4000,
        description="Query text, scored by keywords (BM25, w_lex); embedded in the default "
        "space when no vector is given and the server has an embedder.",
    )  # fmt: skip
    k: int | None = Field(
        default=None, strict=True, ge=1, le=50,
        description="Rows, 1..50 (default 5; with profile auto, the class's suggestion).",
    )  # fmt: skip
    offset: int = Field(
        default=0, strict=True, ge=0, le=MAX_DEPTH - 50,
        description="Skip the first rows (pages: offset 50, k 50 gives ranks 51-100).",
    )  # fmt: skip
    w_cos: UnitFloat | None = Field(
        default=None, description="Semantic weight; default max(0, 1 - (w_rec + w_sig))."
    )
    w_lex: UnitFloat | None = Field(
        default=None, description="Keyword (BM25) weight; needs query text."
    )
    hybrid_vector_weight: UnitFloat | None = Field(
        default=None,
        description="Share of the relevance weight given to vectors when w_lex is not set "
        "(0 = keywords only, 1 = vectors only); default RAG_HYBRID_VECTOR_WEIGHT.",
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
    max_per_source: int | None = Field(
        default=None, strict=True, ge=0, le=1000,
        description="At most this many rows per src (doc_id when src is empty); 0 = no "
        "limit; default RAG_SEARCH_DIVERSITY_MAX_PER_SOURCE.",
    )  # fmt: skip
    diversity_factor: UnitFloat | None = Field(
        default=None,
        description="Maximal marginal relevance re-ranking with the default space's vectors: "
        "0 = off (default), 1 = only novelty counts after the first row.",
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

    def text(self) -> str | None:
        return self.query.strip() or None if self.query else None


SEARCH_RULES = {
    **BLEND_WEIGHT_RULES,
    "embedding": EMBEDDING_REQUIRED,
    "k": "k must be 1..50",
    "offset": f"offset must be an integer in 0..{MAX_DEPTH - 50}",
    "query": "query must be a non-empty string of at most 4000 characters",
    "max_per_source": "max_per_source must be an integer >= 0 (0 = no limit)",
    "diversity_factor": "diversity_factor must be a number in [0,1]",
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
    text: str | None = None
    offset: int = 0
    diversity: float = 0.0
    classification: Classification | None = None
    retry: dict[str, Any] | None = None  # the low-confidence retry, when one ran

    @property
    def depth(self) -> int:
        """How many ranked rows the database returns: the pages before this one, this
        one, and the candidates diversity re-ranks."""
        wanted = self.offset + self.k
        return candidate_pool(wanted) if self.diversity > 0 else wanted


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
    request: SearchRequest, default_space: str, text_vector: np.ndarray | None = None
) -> tuple[list[str], list[np.ndarray]]:
    if request.embedding is None and not request.embeddings:
        if text_vector is not None:
            return [default_space], [text_vector]
        if request.text():
            return [], []  # keywords only
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


def _layers(
    request: SearchRequest, context: SearchContext, classification: Classification | None
) -> list[tuple[str, WeightLayer]]:
    layers: list[tuple[str, WeightLayer]] = []
    if classification is not None:
        share = WeightLayer(hybrid_vector_weight=classification.vector_share)
        layers.append((f"{AUTO}:{classification.query_class}", share))
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
    max_per_source = request.max_per_source
    options: dict[str, Any] = {
        "recency": {"function": recency.function, "scale_days": recency.scale()},
        "ef_search": settings.hnsw_ef_search,
        "exact": request.exact,
        "max_per_source": (
            settings.search_diversity_max_per_source if max_per_source is None else max_per_source
        ),
        "bm25": {"k1": settings.bm25_k1, "b": settings.bm25_b},
    }
    if request.min_score is not None:
        options["min_score"] = request.min_score
    if request.min_similarity is not None:
        options["min_similarity"] = request.min_similarity
    if request.as_of is not None:
        options["as_of"] = request.as_of.isoformat()
    return options


def query_classification(request: SearchRequest) -> Classification | None:
    """``profile: auto`` (the default for a query with text and no profile): the class
    of the query text."""
    name = request.profile_name()
    if name == AUTO and not request.text():
        raise BadRequest("profile auto classifies the query text: give query", field="profile")
    if name in (None, AUTO) and request.text():
        return classify(request.text() or "")
    return None


def build_query(
    request: SearchRequest,
    settings: Settings,
    context: SearchContext,
    text_vector: np.ndarray | None = None,
    classification: Classification | None = None,
) -> SearchQuery:
    """Apply the profiles and the weight rules; everything the database call needs."""
    spaces, vectors = _query_vectors(request, settings.default_space, text_vector)
    spaces, vectors = _searched(spaces, vectors, request.active_spaces, context.registry)
    given = WeightLayer(
        w_cos=request.w_cos, w_rec=request.w_rec, w_sig=request.w_sig, w_lex=request.w_lex,
        hybrid_vector_weight=request.hybrid_vector_weight, space_weights=request.space_weights,
        recency=request.recency.model_dump() if request.recency else None,
    )  # fmt: skip
    defaults = WeightDefaults(
        settings.default_w_rec, settings.default_w_sig, settings.hybrid_vector_weight
    )
    parts = QueryParts(semantic=bool(spaces), lexical=request.text() is not None)
    applied = apply_layers(
        given, _layers(request, context, classification), spaces, defaults=defaults, parts=parts
    )
    recency = Recency.model_validate(applied.recency) if applied.recency else Recency()
    suggested = classification.suggested_k if classification else settings.default_k
    return SearchQuery(
        k=request.k if request.k is not None else suggested,
        weights=applied.blend,
        spaces=spaces,
        vectors=vectors,
        space_weights=applied.space_weights,
        filters=request.filters(),
        options=_options(request, settings, recency),
        profile=context.profile or context.default,
        registry=context.registry,
        text=request.text(),
        offset=request.offset,
        diversity=request.diversity_factor or 0.0,
        classification=classification,
    )


async def load_context(conn: AsyncConnection, profile: str | None) -> SearchContext:
    named = profile not in (None, CUSTOM, AUTO)
    wanted = [DEFAULT_PROFILE, profile] if named else [DEFAULT_PROFILE]
    cursor = await conn.execute(queries("profiles").search_context, (wanted,), prepare=True)
    row = await cursor.fetchone()
    profiles, spaces = row if row else (None, None)
    found = {p["name"]: Profile.from_json(p) for p in profiles or []}
    registry = [space["name"] for space in spaces or []]
    if named and profile not in found:
        raise await unknown_profile(conn, profile)
    chosen = found.get(profile) if named and profile else None
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
            query.depth,
            query.weights.w_cos,
            query.weights.w_rec,
            query.weights.w_sig,
            Jsonb(query.filters),
            Jsonb(query.options),
            query.weights.lex,
            query.text,
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


def _response_row(row: dict[str, Any], query: SearchQuery, request: SearchRequest) -> dict:
    per_space = request.include_per_space_scores
    if per_space is None:
        per_space = request.explain
    out = contract_row(row)
    if query.text is not None:
        out["lex"] = row.get("lex")
    if request.explain:
        out.update(explain_row(row, query))
    if per_space:
        out["per_space_scores"] = per_space_scores(row, query)
    return out


def _metadata(query: SearchQuery, meta: dict[str, Any], started: float) -> dict[str, Any]:
    profile = query.profile
    return {
        "strategy": meta["strategy"],
        "exact": meta["exact"],
        "fell_back_to_scan": meta["fell_back"],
        "candidates_scanned": meta["candidates_scanned"],
        "total_candidates_scanned": meta["candidates_scanned"],
        "keyword_matches": meta.get("keyword_matches"),
        "search_time_ms": round((time.perf_counter() - started) * 1000, 3),
        "sql_time_ms": meta["search_time_ms"],
        "spaces_searched": query.spaces,
        "space_weights": query.space_weights,
        "profile_used": {"name": profile.name, "version": profile.version} if profile else None,
        "weights_applied": weights_applied(query),
        "offset": query.offset,
        "max_per_source": query.options["max_per_source"],
        "diversity_factor": query.diversity,
        "low_confidence_retry": query.retry is not None,
    }


def search_response(
    request: SearchRequest,
    query: SearchQuery,
    result: dict[str, Any],
    started: float,
    rows: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The response contract; ``rows``: the page to return (default: the result's)."""
    page = result["rows"] if rows is None else rows
    response: dict[str, Any] = {
        "ok": True,
        "k": query.k,
        "weights": query.weights.as_dict(),
        "rows": [_response_row(row, query, request) for row in page],
        "query_metadata": _metadata(query, result["meta"], started),
    }
    if query.classification is not None:
        response["classification"] = {
            **query.classification.as_dict(),
            "weights": query.weights.as_dict(),
            "retry": query.retry,
        }
    return response


def relevance(row: dict[str, Any], weights: BlendWeights) -> float:
    """The part of a row's score that says how well it answers the query (0..1)."""
    total = weights.w_cos + weights.lex
    if total <= 0:
        return 1.0
    return (weights.w_cos * (row.get("sem") or 0.0) + weights.lex * (row.get("lex") or 0.0)) / total


def _low_confidence(query: SearchQuery, rows: list[dict[str, Any]], floor: float) -> bool:
    """A classified query whose best row answers it poorly (class general excepted: the
    retry would ask the same question again)."""
    if query.classification is None or query.classification.query_class == GENERAL:
        return False
    return not rows or relevance(rows[0], query.weights) < floor


async def _retry_general(
    conn: AsyncConnection, request: SearchRequest, settings: Settings, context: SearchContext,
    first: SearchQuery, first_rows: list[dict[str, Any]], text_vector: np.ndarray | None,
) -> tuple[SearchQuery, dict[str, Any]]:  # fmt: skip
    """Run the query again with the general balance and a deeper HNSW candidate pool."""
    assert first.classification is not None
    general = of_class(GENERAL, first.classification.confidence, "low-confidence retry")
    query = build_query(request, settings, context, text_vector, general)
    query.classification = first.classification
    ef_search = min(MAX_EF_SEARCH, 4 * int(query.options["ef_search"]))
    query.options["ef_search"] = ef_search
    best = relevance(first_rows[0], first.weights) if first_rows else None
    query.retry = {
        "reason": f"best relevance {best if best is None else round(best, 4)} is under "
        f"RAG_LOW_CONFIDENCE_SCORE ({settings.low_confidence_score})",
        "first_weights": first.weights.as_dict(),
        "first_best_relevance": best,
        "class_used": GENERAL,
        "ef_search": ef_search,
    }
    return query, await run_topk(conn, query)


async def search(
    conn: AsyncConnection, request: SearchRequest, settings: Settings
) -> dict[str, Any]:
    started = time.perf_counter()
    context = await load_context(conn, request.profile_name())
    classification = query_classification(request)
    text_vector = await query_text_vector(request, settings)
    query = build_query(request, settings, context, text_vector, classification)
    result = await run_topk(conn, query)
    if _low_confidence(query, result["rows"], settings.low_confidence_score):
        query, result = await _retry_general(
            conn, request, settings, context, query, result["rows"], text_vector
        )
    rows = result["rows"]
    if query.diversity > 0:
        rows = await diversify(conn, query, rows, settings.default_space)
    page = rows[query.offset : query.offset + query.k]
    response = search_response(request, query, result, started, page)
    if request.include_purpose_alignment:
        await add_purpose_alignment(conn, request, query.spaces, response["rows"])
    return response


async def query_text_vector(request: SearchRequest, settings: Settings) -> np.ndarray | None:
    """The query text embedded in the default space, when the request has text, no
    vector, and the server has an embedder."""
    if request.embedding is not None or request.embeddings or not request.text():
        return None
    return await embed_query(settings, request.text() or "")
