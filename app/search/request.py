"""The body of ``POST /api/rag/search`` and its validation messages."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from app.errors import BadRequest
from app.recency import Recency, recency_rule
from app.search.filters import FILTER_RULES, FilterFields
from app.validation import (
    Count,
    FiniteFloat,
    Name,
    Text,
    Timestamp,
    UnitFloat,
    parse_model,
)
from app.vectors import VectorInput
from app.weights import BLEND_WEIGHT_RULES

EMBEDDING_REQUIRED = "embedding (number[]) required"
MAX_DEPTH = 1000  # offset + k
MAX_K = 50
QUERY_MAX_LENGTH = 4000


class SearchRequest(FilterFields):
    """Body of ``POST /api/rag/search``: a vector (embedding or embeddings), or query text,
    or both."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "anyOf": [{"required": ["embedding"]}, {"required": ["embeddings"]},
                      {"required": ["query"]}]
        },
    )  # fmt: skip

    embedding: VectorInput | None = Field(
        default=None, description="Query vector in the default space (RAG_DEFAULT_SPACE)."
    )
    embeddings: dict[Name, VectorInput] | None = Field(
        default=None, description="Query vectors by space name, instead of or beside embedding."
    )
    query: Annotated[Text, Field(min_length=1, max_length=QUERY_MAX_LENGTH)] | None = Field(
        default=None,
        description="Query text, scored by keywords (BM25, w_lex); embedded in the default "
        "space when no vector is given and the server has an embedder.",
    )
    k: Count | None = Field(
        default=None, ge=1, le=MAX_K,
        description="Rows, 1..50 (default 5; with profile auto, the class's suggestion).",
    )  # fmt: skip
    offset: Count = Field(
        default=0, ge=0, le=MAX_DEPTH - MAX_K,
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
    space_weights: dict[Name, Annotated[FiniteFloat, Field(ge=0)]] | None = Field(
        default=None, description="Weight per query space; normalised; equal when omitted."
    )
    recency: Recency | None = None
    fusion: Literal["weighted", "rrf"] = Field(
        default="weighted",
        description="weighted: the weighted sum of the components (default); rrf: weighted "
        "reciprocal rank fusion of each component's ranking (sum of w / (rrf_k + rank)).",
    )
    rrf_k: Count | None = Field(
        default=None, ge=1, le=100_000,
        description="fusion rrf: the rank offset (default 60).",
    )  # fmt: skip
    min_score: FiniteFloat | None = Field(default=None, description="Drop rows scoring less.")
    as_of: Timestamp | None = Field(
        default=None, description="Measure ages from this instant instead of now."
    )
    exact: bool = Field(
        default=False,
        strict=True,
        description="Score every chunk that passes the filters (the full scan) instead of "
        "the threshold algorithm, whose semantic part trusts the HNSW index.",
    )
    profile: Name | None = Field(
        default=None, description="A weight profile (GET /api/rag/profiles), auto or custom."
    )
    query_type: Name | None = Field(
        default=None,
        description="Alias of profile; 'custom' takes the space weights from 'weights'.",
    )
    weights: list[FiniteFloat] | None = Field(
        default=None,
        max_length=1000,
        description="query_type custom: one weight per registered space, in registry order.",
    )
    active_spaces: list[Name] | None = Field(
        default=None,
        max_length=1000,
        description="The spaces to search; default every space with a vector.",
    )
    min_similarity: UnitFloat | None = Field(
        default=None, description="Drop chunks whose semantic part (sem) is lower (0..1)."
    )
    max_per_source: Count | None = Field(
        default=None, ge=0, le=1000,
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
    goal: Name | None = Field(
        default=None, description="A stored goal (PUT /api/rag/goals/{name})."
    )
    include_purpose_alignment: bool = Field(
        default=False, strict=True, description="Add each row's cosine to the goal."
    )

    def profile_name(self) -> str | None:
        if self.profile and self.query_type and self.profile != self.query_type:
            raise BadRequest(
                "profile and query_type name the same thing; give one, or the same name twice"
            )
        return self.profile or self.query_type

    def text(self) -> str | None:
        return self.query.strip() or None if self.query else None

    def has_vector(self) -> bool:
        return self.embedding is not None or bool(self.embeddings)

    def refuse_options_unread(self) -> None:
        """Options read only beside another, which alone would be accepted and change
        nothing: a goal (read to add each row's alignment to it; a search ranks by one at
        /api/rag/search/purpose) and rrf_k (fusion rrf's)."""
        if self.goal is not None and not self.include_purpose_alignment:
            raise BadRequest(
                "goal is read only with include_purpose_alignment: true (to rank by a goal: "
                "POST /api/rag/search/purpose)"
            )
        if self.rrf_k is not None and self.fusion != "rrf":
            raise BadRequest("rrf_k is read only with fusion: rrf", field="rrf_k")

    def refuse_a_blank_query(self) -> None:
        """A query of spaces and no vector: the query's rule (a search would have nothing
        to rank by, a count would count every chunk)."""
        if self.query is not None and not self.text() and not self.has_vector():
            raise BadRequest(SEARCH_RULES["query"])


SEARCH_RULES: dict[str, Any] = {
    **BLEND_WEIGHT_RULES,
    "embedding": EMBEDDING_REQUIRED,
    "k": f"k must be an integer in 1..{MAX_K}",
    "offset": f"offset must be an integer in 0..{MAX_DEPTH - MAX_K}",
    "query": f"query must be a non-empty string of at most {QUERY_MAX_LENGTH} characters",
    "max_per_source": "max_per_source must be an integer >= 0 (0 = no limit)",
    "diversity_factor": "diversity_factor must be a number in [0,1]",
    "embeddings": lambda path: f"{path} must be a non-empty number[] keyed by space name",
    "space_weights": lambda path: f"{path} must be a finite number >= 0 keyed by space name",
    **FILTER_RULES,
    "as_of": "as_of must be an ISO 8601 timestamp",
    "min_score": "min_score must be a finite number",
    "exact": "exact must be true or false",
    "fusion": "fusion must be weighted or rrf",
    "rrf_k": "rrf_k must be an integer in 1..100000",
    "profile": "profile must be a profile name (lower-case letters, digits, _)",
    "query_type": "query_type must be a profile name or custom",
    "weights": "weights must be an array of finite numbers (query_type custom)",
    "active_spaces": "active_spaces must be an array of space names",
    "min_similarity": "min_similarity must be a number in [0,1]",
    "explain": "explain must be true or false",
    "include_per_space_scores": "include_per_space_scores must be true or false",
    "goal": "goal must be a goal name",
    "include_purpose_alignment": "include_purpose_alignment must be true or false",
    "recency": recency_rule,
}


def parse_search_request(body: bytes | dict[str, Any]) -> SearchRequest:
    return parse_model(SearchRequest, body, SEARCH_RULES)
