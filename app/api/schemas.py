"""The responses, as models: each route declares its model as ``response_model``, so the
OpenAPI document and the response are one thing. Models forbid fields they do not name,
and tests check real responses against the documented schemas (tests/api/test_contract_fuzz.py
runs Schemathesis against a live service), so the two cannot drift apart.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.embed.config import EmbedderConfig


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorBody(BaseModel):
    """Every error: ``error`` says what is wrong; some errors add fields (``field``,
    ``expected``, ``actual``, ``valid_spaces``, ``chunk``, ...)."""

    model_config = ConfigDict(extra="allow")

    error: str = Field(description="What is wrong: the field and the rule, or the failure.")


class Ok(Strict):
    ok: bool = True


# ---- search -----------------------------------------------------------------------------


class Weights(Strict):
    w_cos: float
    w_rec: float
    w_sig: float
    w_lex: float | None = Field(default=None, description="Present when the query has text.")


class AppliedWeights(Weights):
    space_weights: dict[str, float]


class Component(Strict):
    raw: float = Field(description="The component's value, in [0,1] (sem may be below 0).")
    weighted: float = Field(
        description="raw x its weight, or under fusion rrf its weight / (rrf_k + rank), 0 "
        "past its window: the components' sum is the score."
    )
    rank: int | None = Field(
        default=None, description="fusion rrf: the chunk's rank by this component "
        "(null past its window; absent under the weighted blend).",
    )  # fmt: skip


class SpaceContribution(Strict):
    space_name: str
    space_index: int | None
    weighted_contribution: float


class SparseVectorOut(Strict):
    indices: list[int]
    values: list[float]
    dim: int


StoredVector = list[float] | SparseVectorOut | list[list[float]]


class ContractRow(Strict):
    chunk_id: str
    doc_id: str
    src: str
    title: str = Field(description="The document's title ('' when it has none).")
    chunk: str
    model: str
    score: float = Field(description="w_cos·sem + w_lex·lex + w_rec·rec + w_sig·sig")
    cos_dist: float | None = Field(description="Cosine distance in the first query space.")
    l2_dist: float | None = Field(description="Euclidean distance in the first query space.")
    scale: float = Field(description="volume × confidence")
    days_old: float
    created_at: str


class SearchRow(ContractRow):
    lex: float | None = Field(default=None, description="Keyword relevance (queries with text).")
    components: dict[str, Component] | None = Field(
        default=None, description="explain: sem, lex (with text), rec, sig."
    )
    top_contributing_spaces: list[SpaceContribution] | None = None
    ranks: dict[str, int] | None = Field(
        default=None, description="fusion rrf: the chunk's rank in each component's ranking."
    )
    per_space_scores: dict[str, float | None] | None = None
    purpose_alignment: float | None = None
    purpose_space: str | None = None


class ProfileUsed(Strict):
    name: str
    version: int


class QueryMetadata(Strict):
    strategy: str = Field(description="How the top-k was found: threshold, scan or rrf.")
    strategy_reason: str | None = Field(description="Why that strategy.")
    exact: bool = Field(
        description="True only when the rows are guaranteed equal to the full scan's."
    )
    approximate_streams: list[str] = Field(
        description="The spaces whose HNSW order the result relied on (empty when exact)."
    )
    fell_back_to_scan: bool = Field(
        description="The threshold bound did not close within its budget, so it scanned."
    )
    candidates_scanned: int
    keyword_matches: int | None
    search_time_ms: float
    sql_time_ms: float
    timings_ms: dict[str, float] = Field(description="Time per phase inside the database.")
    collection: str
    fusion: str
    spaces_searched: list[str]
    space_weights: dict[str, float]
    profile_used: ProfileUsed
    weights_applied: AppliedWeights
    offset: int
    max_per_source: int
    diversity_factor: float
    low_confidence_retry: bool


class RetryInfo(Strict):
    reason: str
    first_weights: Weights
    first_best_relevance: float | None
    class_used: str
    ef_search: int


class EvidenceOut(Strict):
    """What ``profile: auto`` read from the default-balance ranking (app/search/evidence.py)."""

    lex_peak: float = Field(description="Best keyword score minus the top rows' mean.")
    sem_peak: float = Field(description="Best semantic score minus the top rows' mean.")
    lean: float = Field(description="lex_peak - sem_peak: > 0 the keywords are the sharper.")
    rows: int
    vector_share: float = Field(description="The balance chosen (0 keywords .. 1 vectors).")
    decision: str


class ClassificationOut(Strict):
    class_: str = Field(alias="class")
    confidence: float
    reason: str
    vector_share: float
    keyword_share: float
    suggested_k: int
    also_matched: list[str]
    weights: Weights
    retry: RetryInfo | None
    evidence: EvidenceOut | None = None


class SearchResponse(Ok):
    k: int
    weights: Weights
    rows: list[SearchRow]
    query_metadata: QueryMetadata
    classification: ClassificationOut | None = None


class SpaceRow(Strict):
    chunk_id: str
    doc_id: str
    src: str
    chunk: str
    model: str
    similarity: float
    created_at: str


class SpaceSearchMetadata(Strict):
    strategy: str
    exact: bool
    collection: str
    search_time_ms: float
    sql_time_ms: float


class SpaceSearchResponse(Ok):
    space: str
    top_k: int
    results: list[SpaceRow]
    query_metadata: SpaceSearchMetadata


class PurposeRow(Strict):
    chunk_id: str
    doc_id: str
    src: str
    chunk: str
    model: str
    alignment: float
    created_at: str


class PurposeSearchResponse(Ok):
    goal: str | None
    space: str
    top_k: int
    results: list[PurposeRow]
    query_metadata: SpaceSearchMetadata


class ExplainResponse(Ok):
    chunk_id: str
    rank: int | None = Field(description="1 = best; null when the chunk is not eligible.")
    score: float = Field(description="Its score; under fusion rrf its fused score (0 when "
                         "it is in no component's window).")  # fmt: skip
    kth_score: float | None
    k: int
    components: dict[str, Component]
    top_contributing_spaces: list[SpaceContribution]
    ranks: dict[str, int] | None = None
    per_space_scores: dict[str, float | None]
    stage: str = Field(
        description="included, before_offset (on a page before the request's offset), "
        "filter, no_keyword_match, min_similarity, rrf_window, min_score, max_per_source or "
        "outscored."
    )
    rrf_window: int | None = Field(
        default=None, description="Stage rrf_window: the depth of each component's ranking "
        "that fusion reads; the chunk is in none of them.",
    )  # fmt: skip
    position: int | None = Field(
        default=None, description="Stage included: the chunk's place among the rows; "
        "before_offset: its place among the rows before the offset.",
    )  # fmt: skip
    offset: int | None = Field(
        default=None, description="Stage before_offset: the request's offset."
    )
    failed_filters: list[str] | None = None
    failed_conditions: list[str] | None = None
    lex: float | None = None
    min_similarity: float | None = None
    sem: float | None = None
    min_score: float | None = None
    short_by: float | None = None
    source: str | None = None
    rows_of_source: int | None = None
    results: list[ContractRow]
    weights_applied: AppliedWeights


# ---- documents --------------------------------------------------------------------------


class IngestResponse(Ok):
    doc_id: str
    chunks: int
    replaced_chunks: int
    vectors: dict[str, int] = Field(description="Vectors stored per space.")
    embedded: int = Field(
        default=0, description="Texts the server's embedders were sent (not found in the cache)."
    )
    cached: int = Field(default=0, description="Vectors the server had made before, reused.")


class ChunkPosition(Strict):
    """Where a chunk the service split comes from in its document's text (for HTML and
    PDF, the text extracted from them)."""

    heading_path: list[str] = Field(description="The headings the chunk is under, outermost first.")
    start: int = Field(description="Offset of the chunk's first character.")
    end: int = Field(description="Offset just past its last character.")


class StoredChunk(Strict):
    chunk_id: str
    ordinal: int
    chunk: str
    created_at: str
    volume: float
    confidence: float
    scale: float
    signal: float
    signal_pinned: bool
    model: str
    tags: list[str]
    metadata: dict[str, Any]
    spaces: list[str]
    embeddings: dict[str, StoredVector] | None = Field(
        default=None,
        description="By space: number[] (dense), {indices, values, dim} (sparse), "
        "number[][] (multivector).",
    )
    position: ChunkPosition | None = Field(
        default=None, description="For a chunk of a document given as text or a file."
    )


class DocumentResponse(Ok):
    collection: str
    doc_id: str
    src: str
    title: str
    category: str | None
    metadata: dict[str, Any]
    tags: list[str]
    content_type: str | None = Field(
        default=None, description="The type of the text it was split from, if it was."
    )
    created_at: str
    updated_at: str
    chunks: list[StoredChunk]


class DeletedDocument(Ok):
    doc_id: str
    deleted_chunks: int


# ---- collections, spaces, stats ---------------------------------------------------------


class Collection(Strict):
    name: str
    description: str
    created_at: str
    parts: int = Field(
        description="1 for a collection stored whole (on one worker of a cluster); more for "
        "one split into that many parts, each on its own worker where there are enough"
    )
    documents: int
    chunks: int


class TagCount(Strict):
    tag: str
    chunks: int


class CollectionDetail(Collection):
    top_tags: list[TagCount]


class CollectionCreated(Ok):
    collection: Collection


class CollectionsResponse(Ok):
    collections: list[Collection]


class CollectionResponse(Ok):
    collection: CollectionDetail


class DeletedCollection(Ok):
    deleted: str
    deleted_chunks: int


class SpaceIndex(Strict):
    m: int = Field(description="HNSW m: the links each vector keeps")
    ef_construction: int = Field(
        description="HNSW ef_construction the graphs of this space are built with "
        "(RAG_HNSW_EF_CONSTRUCTION when the space was registered)"
    )


class Space(Strict):
    name: str
    kind: Literal["dense", "sparse", "multivector"]
    dims: int = Field(
        description="Numbers per vector (per token for multivector); the "
        "vocabulary size for sparse."
    )
    metric: Literal["cosine", "inner_product"]
    max_tokens: int | None = Field(description="multivector: token vectors a chunk may have.")
    model: str
    description: str
    embedder: EmbedderConfig | None = Field(
        default=None,
        description="How the service makes the space's vectors from text (null: clients "
        "send them; the default space then follows RAG_EMBEDDER).",
    )
    created_at: str
    index: SpaceIndex


class SpaceCreated(Ok):
    space: Space


class SpacesResponse(Ok):
    spaces: list[Space]


class Dropped(Ok):
    dropped: str


class SpaceDropped(Dropped):
    goals_removed: list[str] = Field(
        description="Goals whose only vector was in the space: gone with it."
    )
    goals_losing_a_vector: list[str] = Field(
        description="Goals that keep vectors in other spaces and lost this one."
    )
    profiles_weighing_it: list[str] = Field(
        description="Profiles whose current version weighs the space by name: they keep the "
        "weight, which a space registered later under the name takes."
    )


class SpaceCount(Strict):
    name: str
    dims: int
    model: str
    description: str
    vectors: int


class StatsResponse(Ok):
    collection: str
    documents: int
    chunks: int
    spaces: list[SpaceCount]


# ---- signals ----------------------------------------------------------------------------


class SignalState(Strict):
    chunk_id: str
    volume: float
    confidence: float
    scale: float
    signal: float
    signal_pinned: bool


class SignalsResponse(Ok):
    collection: str
    updated: int
    chunks: list[SignalState]


# ---- profiles and goals -----------------------------------------------------------------


class Recency(Strict):
    function: str
    half_life_days: float | None = None
    scale_days: float | None = None


class ProfileOut(Strict):
    name: str
    version: int
    builtin: bool
    description: str
    w_cos: float | None
    w_rec: float | None
    w_sig: float | None
    w_lex: float | None
    hybrid_vector_weight: float | None
    space_weights: dict[str, float]
    recency: Recency | None
    updated_at: str | None


class ProfilesResponse(Ok):
    profiles: list[ProfileOut]


class ProfileResponse(Ok):
    profile: ProfileOut


class ProfileVersions(Ok):
    name: str
    versions: list[ProfileOut]


class Deleted(Ok):
    deleted: str


class GoalSummary(Strict):
    name: str
    spaces: list[str]
    description: str
    updated_at: str


class GoalsResponse(Ok):
    goals: list[GoalSummary]


class GoalResponse(Ok):
    name: str
    description: str
    spaces: list[str]
    updated_at: str
    embeddings: dict[str, list[float]] | None = None


class SearchDefaults(Ok):
    """What a search uses for each field its request leaves out."""

    k: int = Field(description="Rows (RAG_DEFAULT_K); profile auto suggests its own.")
    max_k: int = Field(description="The largest k a request may ask for.")
    max_offset: int = Field(description="The largest offset a request may ask for.")
    max_per_source: int = Field(
        description="Rows per source (RAG_SEARCH_DIVERSITY_MAX_PER_SOURCE; 0 = no limit)."
    )
    w_cos: float | None = Field(description="Set by the default profile, or null: derived.")
    w_lex: float | None = Field(description="Set by the default profile, or null: derived.")
    w_rec: float
    w_sig: float
    hybrid_vector_weight: float = Field(
        description="The vectors' share of the relevance weight (0 keywords .. 1 vectors)."
    )
    recency: Recency = Field(description="The decay, with its scale in days filled in.")
    fusion: str
    rrf_k: int = Field(description="fusion rrf: the rank offset.")
    low_confidence_score: float = Field(
        description="A best row whose relevance, (w_cos·sem + w_lex·lex) / (w_cos + w_lex), "
        "is under this answers the question poorly (RAG_LOW_CONFIDENCE_SCORE)."
    )


# ---- examples and health ----------------------------------------------------------------


class ExampleQuery(Strict):
    text: str
    embedding: list[float]


class ExamplesResponse(Ok):
    space: str
    is_default_space: bool
    embedder: str | None = Field(
        description="The model that embeds query text on the server (typed questions get "
        "vectors), or null: query text is then searched by keywords only."
    )
    queries: list[ExampleQuery]
    recency_functions: list[str] = Field(
        description="The decay functions recency.function takes (the page's choices)."
    )
    keys_required: bool = Field(
        description="false: no key is configured, the service is open (on loopback only) "
        "and checks no key a client sends."
    )


class Health(Ok):
    pass


class Readiness(Strict):
    ok: bool
    revision: str | None = None
    degraded: list[str] | None = None
    error: str | None = None
    databases: list[dict[str, Any]] | None = None


# ---- jobs -------------------------------------------------------------------------------


class JobItems(Strict):
    total: int
    done: int
    failed: int


class JobChunks(Strict):
    total: int = Field(description="Chunks of the items read so far.")
    embedded: int = Field(description="Texts sent to the embedders.")
    cached: int = Field(description="Vectors found in the embedding cache.")
    stored: int = Field(description="Chunks stored (their documents searchable).")


class JobProgress(Strict):
    items: JobItems
    chunks: JobChunks


class JobItem(Strict):
    ordinal: int
    name: str = Field(description="The document's doc_id, or the file's name.")
    content_type: str | None
    size: int = Field(description="Bytes.")
    status: str = Field(description="queued, done, failed or cancelled.")
    doc_id: str | None
    chunks: int | None
    error: str | None = Field(description="Why the item failed.")
    finished_at: str | None


class Job(Strict):
    id: int
    kind: str = Field(description="ingest or reembed.")
    collection: str | None
    space: str | None = Field(description="The space a reembed job fills.")
    status: str = Field(description="queued, running, done, failed or cancelled.")
    cancel_requested: bool
    attempts: int = Field(
        description="How many times a worker took it (more after a restart; a turn passed "
        "to another collection's job and taken again is not one more)."
    )
    progress: JobProgress
    error: str | None
    created_at: str
    started_at: str | None
    updated_at: str
    finished_at: str | None
    items: list[JobItem] | None = Field(
        default=None, description="The job's items in order (the first 1,000)."
    )


class JobResponse(Ok):
    job: Job


class JobsResponse(Ok):
    jobs: list[Job]


class UploadedFile(Strict):
    file: str
    doc_id: str | None = None
    chunks: int | None = None
    embedded: int | None = None
    cached: int | None = None
    error: str | None = Field(default=None, description="Why this file was not stored.")
    status: int | None = Field(default=None, description="The HTTP status its error would get.")


class UploadResponse(Ok):
    documents: list[UploadedFile]
    failed: int
