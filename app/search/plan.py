"""From a validated request to a search plan, once: the weights (app/weights.py), the spaces
and their vectors, the filters, the options and their defaults, the instant ages are
measured from. The plan is what every later stage reads, and ``SearchPlan.sql()`` is the
one value the SQL functions take (app/search/sqlplan.py), which they trust.

A plan is immutable once built; a second look at the same request (the low-confidence
retry, auto's evidence) builds its own with ``dataclasses.replace``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from pgvector import SparseVector, Vector

from app.classify import Classification, classify
from app.errors import BadRequest, invalid_space
from app.recency import Recency
from app.resources.profiles import DEFAULT_PROFILE, Profile
from app.search.filters import FilterFields, SqlFilter, sql_filter
from app.search.knobs import DEFAULT_KNOBS, EngineKnobs
from app.search.request import EMBEDDING_REQUIRED, SearchRequest
from app.search.sqlplan import SqlPlan
from app.settings import Settings
from app.spaces import SpaceInfo
from app.vectors import SpaceValue, as_space_value, as_vector, named_vectors
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
class SearchContext:
    """What a search reads besides chunks: its collection, the profiles it may use and
    the registered spaces."""

    collection_id: int
    default: Profile
    profile: Profile | None
    spaces: tuple[SpaceInfo, ...]  # registry order
    parts: tuple[int, ...] = ()  # a split collection's (app/parts.py)

    @property
    def registry(self) -> list[str]:
        return [space.name for space in self.spaces]

    @property
    def collection_ids(self) -> tuple[int, ...]:
        """The collections holding its chunks: its parts, or itself."""
        return self.parts or (self.collection_id,)

    def space(self, name: str) -> SpaceInfo:
        for info in self.spaces:
            if info.name == name:
                return info
        raise invalid_space(name, self.registry)


@dataclass(frozen=True)
class Keywords:
    """A query's keyword side (sql/functions/lexical.sql api.lex_query)."""

    terms: list[str]
    weights: list[float]
    avg_len: float


@dataclass(frozen=True)
class SearchPlan:
    """A validated request with every default applied: what the stages of a search read."""

    request: SearchRequest
    collection_id: int
    k: int
    offset: int
    weights: BlendWeights
    spaces: tuple[SpaceInfo, ...]  # the searched spaces, in request order
    vectors: tuple[SpaceValue, ...]  # app/vectors.py: one per space, of its kind
    space_weights: Mapping[str, float]
    filter: SqlFilter
    recency: Recency
    ef_search: int
    max_per_source: int
    bm25: tuple[float, float]  # k1, b
    rrf_k: int
    now_epoch: float  # ages are measured from this instant
    profile: Profile
    registry: tuple[str, ...]
    knobs: EngineKnobs = DEFAULT_KNOBS
    text: str | None = None
    diversity: float = 0.0
    pool: int = 0  # rows ranked for diversity to choose from (0: the page's end)
    classification: Classification | None = None
    retry: Mapping[str, Any] | None = field(default=None)
    evidence: Mapping[str, Any] | None = None  # what auto read before choosing the balance
    parts: tuple[int, ...] = ()  # a split collection's parts, each searched (app/search/parts.py)
    keywords: Keywords | None = None  # the query's terms over every part (None: the SQL reads them)

    @property
    def collection(self) -> str:
        return self.request.collection

    @property
    def collection_ids(self) -> tuple[int, ...]:
        """The collections holding its chunks: a split collection's parts, or itself."""
        return self.parts or (self.collection_id,)

    @property
    def space_names(self) -> tuple[str, ...]:
        return tuple(space.name for space in self.spaces)

    @property
    def fusion(self) -> str:
        return self.request.fusion

    @property
    def depth(self) -> int:
        """How many ranked rows the database returns: the pages before this one and this
        one, or the candidates diversity re-ranks."""
        return max(self.pool, self.offset + self.k)

    @property
    def rows_from(self) -> int:
        """The first rank the database builds response rows for (diversity needs all)."""
        return 0 if self.pool else self.offset

    def for_part(self, part: int, keywords: Keywords | None) -> SearchPlan:
        """The plan of one part of a split collection: its best rows from the first, as
        many as the whole search returns, scored with the whole collection's keyword
        statistics."""
        return replace(
            self, collection_id=part, filter=replace(self.filter, collection_id=part),
            k=self.depth, offset=0, pool=0, parts=(), keywords=keywords,
        )  # fmt: skip

    def sql(self) -> SqlPlan:
        """The plan as api.topk takes it."""
        w = self.weights
        request = self.request
        keywords = self.keywords
        return SqlPlan(
            collection_id=self.collection_id, k=self.depth,
            w_cos=w.w_cos, w_lex=w.lex, w_rec=w.w_rec, w_sig=w.w_sig,
            rec_scale=self.recency.scale(), now_epoch=self.now_epoch,
            max_per_source=self.max_per_source,
            keyword_only=w.lex > 0 and w.w_cos == 0, filtered=self.filter.filtered,
            bm25_k1=self.bm25[0], bm25_b=self.bm25[1],
            lex_avg_len=keywords.avg_len if keywords else 1.0,
            ef_search=self.ef_search, rrf_k=self.rrf_k, rrf_window=self.knobs.rrf_window,
            scan_rows=self.knobs.scan_rows, region_budget=self.knobs.region_budget,
            region_ratio=self.knobs.region_ratio, region_limit=self.knobs.region_limit,
            max_depth=self.knobs.max_depth, lex_limit=self.knobs.lex_limit,
            sample_rows=self.knobs.sample_rows, walk_cost=self.knobs.walk_cost,
            walk_check=self.knobs.walk_check,
            row_from=self.rows_from, rec_function=self.recency.function,
            fusion=request.fusion, strategy="scan" if request.exact else self.knobs.strategy,
            space_ids=[s.id for s in self.spaces], space_names=list(self.space_names),
            space_dims=[s.dims for s in self.spaces],
            space_weights=[self.space_weights[s.name] for s in self.spaces],
            **query_values(self.spaces, self.vectors),
            lex_terms=keywords.terms if keywords else None,
            lex_weights=keywords.weights if keywords else None,
            filter=self.filter, min_score=request.min_score,
            min_similarity=request.min_similarity, query=self.text if w.lex > 0 else None,
        )  # fmt: skip


def query_values(
    spaces: tuple[SpaceInfo, ...], values: tuple[SpaceValue, ...]
) -> dict[str, list[Any]]:
    """The query's values as the plan's fields: each space's kind and metric, the dense
    vectors and the sparse ones by space (None elsewhere), and every multivector token
    with the index of its space (from 1)."""
    pairs = list(zip(spaces, values, strict=True))
    dense = {n: v for n, (s, v) in enumerate(pairs) if isinstance(v, np.ndarray) and v.ndim == 1}
    tokens = [(n, Vector(t)) for n, (_, v) in enumerate(pairs, 1)
              if isinstance(v, np.ndarray) and v.ndim == 2 for t in v]  # fmt: skip
    return {
        "space_kinds": [s.kind for s in spaces],
        "space_metrics": [s.metric for s in spaces],
        "vectors": [Vector(dense[n]) if n in dense else None for n in range(len(pairs))],
        "sparse": [v if isinstance(v, SparseVector) else None for _, v in pairs],
        "tokens": [t for _, t in tokens],
        "token_spaces": [n for n, _ in tokens],
    }


def query_vectors(
    request: SearchRequest, context: SearchContext, default_space: str,
    text_vectors: Mapping[str, SpaceValue] | None = None,
) -> tuple[list[SpaceInfo], list[SpaceValue]]:  # fmt: skip
    """The request's vectors by space, each checked against its space (or the question's,
    embedded on the server, when the request gives none)."""
    if not request.has_vector():
        if text_vectors:
            return [context.space(name) for name in text_vectors], list(text_vectors.values())
        if request.text():
            return [], []  # keywords only
        request.refuse_a_blank_query()
        raise BadRequest(EMBEDDING_REQUIRED)
    named = named_vectors(request.embedding, request.embeddings, default_space)
    spaces: list[SpaceInfo] = []
    vectors: list[SpaceValue] = []
    for name, (path, values) in named.items():
        if path == "embedding" and isinstance(values, str):
            try:  # the contract's wording for an embedding that is no number[]
                as_vector(values, path)
            except BadRequest:
                raise BadRequest(EMBEDDING_REQUIRED) from None
        space = context.space(name)
        spaces.append(space)
        vectors.append(as_space_value(values, path, space))
    return spaces, vectors


def searched_spaces(
    spaces: list[SpaceInfo], vectors: list[SpaceValue], active: list[str] | None,
    context: SearchContext,
) -> tuple[list[SpaceInfo], list[SpaceValue]]:  # fmt: skip
    """The spaces to search: active_spaces, or every space the query has a vector for."""
    for name in active or []:
        context.space(name)
    if active is None:
        return spaces, vectors
    names = [space.name for space in spaces]
    for name in active:
        if name not in names:
            raise BadRequest(f"active_spaces.{name}: the query has no vector for space {name!r}")
    kept = [(s, v) for s, v in zip(spaces, vectors, strict=True) if s.name in active]
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


def query_classification(request: SearchRequest) -> Classification | None:
    """``profile: auto`` (the default for a query with text and no profile): the class
    of the query text."""
    name = request.profile_name()
    if name == AUTO and not request.text():
        raise BadRequest("profile auto classifies the query text: give query", field="profile")
    if name in (None, AUTO) and request.text():
        return classify(request.text() or "")
    return None


def _instant(request: SearchRequest) -> float:
    return request.as_of.timestamp() if request.as_of is not None else time.time()


def _given(request: SearchRequest) -> WeightLayer:
    return WeightLayer(
        w_cos=request.w_cos, w_rec=request.w_rec, w_sig=request.w_sig, w_lex=request.w_lex,
        hybrid_vector_weight=request.hybrid_vector_weight, space_weights=request.space_weights,
        recency=request.recency.model_dump() if request.recency else None,
    )  # fmt: skip


def _defaults(settings: Settings) -> WeightDefaults:
    return WeightDefaults(
        settings.default_w_rec, settings.default_w_sig, settings.hybrid_vector_weight
    )


def weighing_spaces(
    request: SearchRequest, settings: Settings, context: SearchContext, embedding: list[str]
) -> list[str]:
    """Of the spaces the server embeds questions in (``embedding``, registry order), those
    whose question vector would count in this search, so that embedding it is worth its
    time: the ones active_spaces names (all without it), unless the weights leave
    similarity nothing (w_cos 0, hybrid_vector_weight 0) or the space a weight of 0."""
    active = request.active_spaces
    names = [name for name in embedding if active is None or name in active]
    if not names or request.min_similarity is not None:
        return names
    parts = QueryParts(semantic=True, lexical=request.text() is not None)
    layers = _layers(request, context, query_classification(request))
    try:
        applied = apply_layers(_given(request), layers, names,
                               defaults=_defaults(settings), parts=parts)  # fmt: skip
    except BadRequest:
        return names  # the plan itself says what is wrong
    if applied.blend.w_cos <= 0:
        return []
    return [name for name in names if applied.space_weights.get(name, 0.0) > 0]


def build_plan(
    request: SearchRequest,
    settings: Settings,
    context: SearchContext,
    text_vectors: Mapping[str, SpaceValue] | None = None,
    classification: Classification | None = None,
    knobs: EngineKnobs = DEFAULT_KNOBS,
) -> SearchPlan:
    """Apply the profiles, the weight rules and the defaults: everything a search needs."""
    spaces, vectors = query_vectors(request, context, settings.default_space, text_vectors)
    spaces, vectors = searched_spaces(spaces, vectors, request.active_spaces, context)
    parts = QueryParts(semantic=bool(spaces), lexical=request.text() is not None)
    names = [space.name for space in spaces]
    applied = apply_layers(
        _given(request), _layers(request, context, classification), names,
        defaults=_defaults(settings), parts=parts,
    )  # fmt: skip
    suggested = classification.suggested_k if classification else settings.default_k
    k = request.k if request.k is not None else suggested
    diversity = request.diversity_factor or 0.0
    cap = request.max_per_source
    return SearchPlan(
        request=request,
        collection_id=context.collection_id,
        k=k,
        offset=request.offset,
        weights=applied.blend,
        spaces=tuple(spaces),
        vectors=tuple(vectors),
        space_weights=applied.space_weights,
        filter=sql_filter(context.collection_id, request.given_filters()),
        recency=Recency.from_stored(applied.recency) if applied.recency else Recency(),
        ef_search=settings.hnsw_ef_search,
        max_per_source=settings.search_diversity_max_per_source if cap is None else cap,
        bm25=(settings.bm25_k1, settings.bm25_b),
        rrf_k=request.rrf_k or settings.rrf_k,
        now_epoch=_instant(request),
        profile=context.profile or context.default,
        registry=tuple(context.registry),
        knobs=knobs,
        text=request.text(),
        diversity=diversity,
        pool=candidate_pool(request.offset + k) if diversity > 0 else 0,
        classification=classification,
        parts=context.parts,
    )


POOL_FACTOR = 4
MIN_POOL = 20
MAX_POOL = 1000


def candidate_pool(wanted: int) -> int:
    """How many ranked rows diversity chooses ``wanted`` rows from."""
    return min(MAX_POOL, max(MIN_POOL, POOL_FACTOR * wanted))


def nearest_plan(
    request: FilterFields, context: SearchContext, space: SpaceInfo, value: SpaceValue,
    settings: Settings, exact: bool, k: int | None = None,
) -> SearchPlan:  # fmt: skip
    """The plan of a plain nearest-neighbour query of one space: similarity alone, under
    the request's filters (single-space search)."""
    top_k = k if k is not None else int(getattr(request, "top_k", settings.default_k))
    search = SearchRequest.model_construct(collection=request.collection, k=top_k, exact=exact)
    return SearchPlan(
        request=search, collection_id=context.collection_id, k=top_k, offset=0,
        weights=BlendWeights(w_cos=1.0, w_rec=0.0, w_sig=0.0), spaces=(space,),
        vectors=(value,), space_weights={space.name: 1.0},
        filter=sql_filter(context.collection_id, request.given_filters()),
        recency=Recency(), ef_search=settings.hnsw_ef_search, max_per_source=0,
        bm25=(settings.bm25_k1, settings.bm25_b), rrf_k=settings.rrf_k, now_epoch=time.time(),
        profile=context.default, registry=tuple(context.registry), parts=context.parts,
    )  # fmt: skip
