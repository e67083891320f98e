"""From a validated request to a search plan: the weights (app/weights.py), the spaces and
their vectors, the filters and options, in the form ``api.rag_topk_weighted`` takes.

A plan is immutable once built; a second look at the same request (the low-confidence
retry, an explanation) builds its own with ``dataclasses.replace``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from app.classify import Classification, classify
from app.errors import BadRequest, invalid_space
from app.recency import Recency
from app.resources.profiles import DEFAULT_PROFILE, Profile
from app.search.request import EMBEDDING_REQUIRED, SearchRequest
from app.settings import Settings
from app.validation import as_vector, named_vectors
from app.weights import (
    AUTO,
    CUSTOM,
    BlendWeights,
    QueryParts,
    WeightDefaults,
    WeightLayer,
    apply_layers,
    custom_space_weights,
)


@dataclass(frozen=True)
class SpaceInfo:
    name: str
    dims: int


@dataclass(frozen=True)
class SearchContext:
    """What a search reads besides chunks: the profiles it may use and the spaces."""

    default: Profile
    profile: Profile | None
    spaces: tuple[SpaceInfo, ...]  # registry order

    @property
    def registry(self) -> list[str]:
        return [space.name for space in self.spaces]

    def dims(self, space: str) -> int:
        for info in self.spaces:
            if info.name == space:
                return info.dims
        raise invalid_space(space, self.registry)


@dataclass(frozen=True)
class SearchOptions:
    """The options of ``api.rag_topk_weighted`` (its p_options) a request sets."""

    recency: Recency
    ef_search: int
    exact: bool
    max_per_source: int
    bm25_k1: float
    bm25_b: float
    fusion: str = "weighted"
    rrf_k: int = 60
    min_score: float | None = None
    min_similarity: float | None = None
    as_of: datetime | None = None

    def as_sql(self, offset: int) -> dict[str, Any]:
        options: dict[str, Any] = {
            "recency": {"function": self.recency.function, "scale_days": self.recency.scale()},
            "ef_search": self.ef_search,
            "exact": self.exact,
            "max_per_source": self.max_per_source,
            "bm25": {"k1": self.bm25_k1, "b": self.bm25_b},
            "fusion": self.fusion,
            "rrf_k": self.rrf_k,
            "offset": offset,
        }
        if self.min_score is not None:
            options["min_score"] = self.min_score
        if self.min_similarity is not None:
            options["min_similarity"] = self.min_similarity
        if self.as_of is not None:
            options["as_of"] = self.as_of.isoformat()
        return options


@dataclass(frozen=True)
class SearchPlan:
    """A validated request in the form the ranking function takes."""

    collection: str
    k: int
    offset: int
    weights: BlendWeights
    spaces: tuple[str, ...]
    vectors: tuple[np.ndarray, ...]
    space_weights: Mapping[str, float]
    filters: Mapping[str, Any]
    options: SearchOptions
    profile: Profile
    registry: tuple[str, ...]
    text: str | None = None
    diversity: float = 0.0
    pool: int = 0  # rows ranked for diversity to choose from (0: the page's end)
    classification: Classification | None = None
    retry: Mapping[str, Any] | None = field(default=None)
    evidence: Mapping[str, Any] | None = None  # what auto read before choosing the balance

    @property
    def depth(self) -> int:
        """How many ranked rows the database returns: the pages before this one and this
        one, or the candidates diversity re-ranks."""
        return max(self.pool, self.offset + self.k)

    @property
    def rows_from(self) -> int:
        """The first rank the database builds response rows for (diversity needs all)."""
        return 0 if self.pool else self.offset


def query_vectors(
    request: SearchRequest, context: SearchContext, default_space: str,
    text_vector: np.ndarray | None = None,
) -> tuple[list[str], list[np.ndarray]]:  # fmt: skip
    """The request's vectors by space, each checked against its space."""
    if not request.has_vector():
        if text_vector is not None:
            return [default_space], [text_vector]
        if request.text():
            return [], []  # keywords only
        raise BadRequest(EMBEDDING_REQUIRED)
    named = named_vectors(request.embedding, request.embeddings, default_space)
    vectors = []
    for space, (path, values) in named.items():
        if path == "embedding" and isinstance(values, str):
            try:  # the contract's wording for an embedding that is no number[]
                as_vector(values, path)
            except BadRequest:
                raise BadRequest(EMBEDDING_REQUIRED) from None
        vectors.append(as_vector(values, path, context.dims(space)))
    return list(named), vectors


def searched_spaces(
    spaces: list[str], vectors: list[np.ndarray], active: list[str] | None,
    context: SearchContext,
) -> tuple[list[str], list[np.ndarray]]:  # fmt: skip
    """The spaces to search: active_spaces, or every space the query has a vector for."""
    for space in active or []:
        context.dims(space)
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


def _options(request: SearchRequest, settings: Settings, recency: Recency) -> SearchOptions:
    cap = request.max_per_source
    return SearchOptions(
        recency=recency,
        ef_search=settings.hnsw_ef_search,
        exact=request.exact,
        max_per_source=settings.search_diversity_max_per_source if cap is None else cap,
        bm25_k1=settings.bm25_k1,
        bm25_b=settings.bm25_b,
        fusion=request.fusion,
        rrf_k=request.rrf_k or settings.rrf_k,
        min_score=request.min_score,
        min_similarity=request.min_similarity,
        as_of=request.as_of,
    )


def query_classification(request: SearchRequest) -> Classification | None:
    """``profile: auto`` (the default for a query with text and no profile): the class
    of the query text."""
    name = request.profile_name()
    if name == AUTO and not request.text():
        raise BadRequest("profile auto classifies the query text: give query", field="profile")
    if name in (None, AUTO) and request.text():
        return classify(request.text() or "")
    return None


def build_plan(
    request: SearchRequest,
    settings: Settings,
    context: SearchContext,
    text_vector: np.ndarray | None = None,
    classification: Classification | None = None,
) -> SearchPlan:
    """Apply the profiles and the weight rules; everything the database call needs."""
    spaces, vectors = query_vectors(request, context, settings.default_space, text_vector)
    spaces, vectors = searched_spaces(spaces, vectors, request.active_spaces, context)
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
    diversity = request.diversity_factor or 0.0
    k = request.k if request.k is not None else suggested
    return SearchPlan(
        collection=request.collection,
        k=k,
        offset=request.offset,
        weights=applied.blend,
        spaces=tuple(spaces),
        vectors=tuple(vectors),
        space_weights=applied.space_weights,
        filters=request.filters(),
        options=_options(request, settings, recency),
        profile=context.profile or context.default,
        registry=tuple(context.registry),
        text=request.text(),
        diversity=diversity,
        pool=candidate_pool(request.offset + k) if diversity > 0 else 0,
        classification=classification,
    )


POOL_FACTOR = 4
MIN_POOL = 20
MAX_POOL = 1000


def candidate_pool(wanted: int) -> int:
    """How many ranked rows diversity chooses ``wanted`` rows from."""
    return min(MAX_POOL, max(MIN_POOL, POOL_FACTOR * wanted))
