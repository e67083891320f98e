"""What searches and ingest know of a registered embedding space, and the kinds of space.

dense        one vector per chunk (vector(dims)); cosine similarity; HNSW over the
             normalised half-precision vector
sparse       one sparse vector per chunk over a vocabulary of ``dims`` terms
             (sparsevec(dims)); cosine or inner product (``metric``); HNSW over the
             vectors with at most 1,000 non-zero entries, the others read exactly
multivector  up to ``max_tokens`` token vectors per chunk (late interaction); the score
             is MaxSim: for each query token its best cosine over the chunk's tokens,
             averaged over the query's tokens; HNSW over the token vectors
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from app.embed.config import EmbedderConfig

SpaceKind = Literal["dense", "sparse", "multivector"]
Metric = Literal["cosine", "inner_product"]
KINDS: tuple[str, ...] = get_args(SpaceKind)
METRICS: tuple[str, ...] = get_args(Metric)
SPARSE_INDEXED_NONZERO = 1000  # pgvector's HNSW on sparsevec takes at most this many


@dataclass(frozen=True)
class SpaceInfo:
    id: int
    name: str
    dims: int
    embedder: EmbedderConfig | None = None  # None: clients send the space's vectors
    model: str = ""
    kind: str = "dense"
    metric: str = "cosine"
    max_tokens: int | None = None  # multivector only

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> SpaceInfo:
        """From a row (or JSON object) with id, name, dims and optionally embedder, model,
        kind, metric, max_tokens."""
        config = row.get("embedder")
        return cls(
            row["id"], row["name"], row["dims"],
            EmbedderConfig.model_validate(config) if config else None, row.get("model") or "",
            row.get("kind") or "dense", row.get("metric") or "cosine", row.get("max_tokens"),
        )  # fmt: skip


@dataclass(frozen=True)
class Storage:
    """How one kind's vectors are written: the vector table's columns after
    (collection_id, chunk_pk), with their COPY types."""

    columns: tuple[str, ...]
    types: tuple[str, ...]


STORAGE: dict[str, Storage] = {
    "dense": Storage(("embedding",), ("vector",)),
    "sparse": Storage(("embedding", "nnz"), ("sparsevec", "int4")),
    "multivector": Storage(("ord", "embedding"), ("int2", "vector")),
}
