"""The oracle of the cluster tests: one corpus stored through two services, one on a single
PostgreSQL and one on the Citus cluster, and every kind of search asked of both."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import numpy as np

from conftest import WRITE_KEY, start_service
from helpers import AS_OF, random_corpus

DIMS = 384  # the default space of the test settings
AUX = "aux"
AUX_DIMS = 8
WORDS = [
    "river", "harbor", "engine", "signal", "garden", "winter", "copper", "lantern", "meadow",
    "orbit", "canyon", "falcon", "quartz", "velvet", "ember", "glacier", "prairie", "thunder",
    "marble", "willow",
]  # fmt: skip
# Wall-clock times (every "..._ms") differ from run to run; so does the work the threshold
# search does (it reads each HNSW graph as deep as needed, and pgvector draws a graph's
# levels at random as it builds it, so two builds over the same vectors differ), and the
# estimate of how many chunks pass a filter, from a sample of pages (laid out a little
# differently by two databases).
IGNORED = {"ms", "candidates_scanned", "strategy_reason"}
TOLERANCE = 1e-9


@contextmanager
def service_client(database_url: str, **env: str) -> Iterator[httpx.Client]:
    """A service on the database. Its HNSW walks read ef_search 400 deep, so that they
    return the nearest vectors in order on either side: the graphs of two databases
    differ (pgvector draws each graph's levels at random), and at the default depth a
    walk of either may miss a near vector the other finds (RRF ranks and exact: false
    would then differ for that reason alone)."""
    service = start_service(
        {"DATABASE_URL": database_url, "RAG_API_KEYS": WRITE_KEY,
         "RAG_PG_SHARED_BUFFERS": "128MB", "RAG_HNSW_EF_SEARCH": "400", **env}
    )  # fmt: skip
    headers = {"Authorization": f"Bearer {WRITE_KEY}"}
    try:
        with httpx.Client(base_url=service.base_url, headers=headers, timeout=120) as client:
            yield client
    finally:
        service.stop()


def corpus(seed: int, prefix: str, n_docs: int, chunks_per_doc: int) -> list[dict[str, Any]]:
    """Documents with words to match by keyword, metadata to filter on, the default space
    and the auxiliary one."""
    rng = np.random.default_rng(seed)
    docs, _chunks = random_corpus(
        rng, prefix, n_docs, chunks_per_doc, {"default": DIMS, AUX: AUX_DIMS}
    )
    for number, doc in enumerate(docs):
        doc["metadata"] = {"team": ["red", "blue", "green"][number % 3], "rank": number % 7}
        for chunk in doc["chunks"]:
            chunk["chunk"] = " ".join(rng.choice(WORDS, size=int(rng.integers(3, 12))))
            vectors = chunk.pop("embeddings")
            if "default" in vectors:
                chunk["embedding"] = vectors.pop("default")
            chunk["embeddings"] = vectors
            if rng.random() < 0.3:
                chunk["metadata"] = {"lang": ["en", "fr"][int(rng.integers(0, 2))]}
    return docs


def store(client: httpx.Client, collection: str, docs: list[dict[str, Any]]) -> None:
    created = client.post("/api/rag/collections", json={"name": collection})
    assert created.status_code in (201, 409), created.text
    for doc in docs:
        stored = client.post("/api/rag/documents", json={**doc, "collection": collection})
        assert stored.status_code == 200, stored.text


def unit(seed: int, dims: int) -> list[float]:
    v = np.random.default_rng(seed).standard_normal(dims)
    return (v / np.linalg.norm(v)).tolist()


def searches(prefix: str) -> list[dict[str, Any]]:
    """A request body for every mode of the search, as_of fixed."""
    q = unit(101, DIMS)
    base = {"embedding": q, "as_of": AS_OF.isoformat(), "k": 10}
    src = f"https://{prefix}.example/a/"
    return [
        base,
        {**base, "w_rec": 0, "w_sig": 0},
        {**base, "w_rec": 0.4, "w_sig": 0.3, "max_per_source": 0},
        {**base, "query": "river harbor lantern", "w_lex": 0.3},
        {**base, "query": "copper glacier", "w_cos": 0, "w_lex": 1, "w_rec": 0, "w_sig": 0},
        {**base, "query": "meadow orbit", "fusion": "rrf"},
        {**base, "fusion": "rrf", "query": "falcon", "embeddings": {AUX: unit(7, AUX_DIMS)}},
        {**base, "embeddings": {AUX: unit(8, AUX_DIMS)}, "space_weights": {"default": 1, AUX: 2}},
        {**base, "tags_any": ["alpha", "beta"]},
        {**base, "tags_all": ["gamma"], "src_prefix": src},
        {**base, "created_after": "2025-06-01T00:00:00+00:00"},
        {**base, "filter": {"team": "red", "rank": {"$gte": 2}}},
        {**base, "filter": {"$or": [{"lang": "fr"}, {"team": "blue"}]}, "k": 20},
        {**base, "exact": True},
        {**base, "exact": False, "w_rec": 0, "w_sig": 0},
        {**base, "offset": 10, "k": 15},
        {**base, "max_per_source": 1},
        {**base, "diversity_factor": 0.5, "k": 8},
        {**base, "min_score": 0.1},
        {**base, "min_similarity": 0.05, "w_rec": 0.2},
        {**base, "recency": {"function": "exponential", "half_life_days": 90}},
        {**base, "explain": True, "include_per_space_scores": True},
        {**base, "query": "winter ember", "w_lex": 0.5, "explain": True},
    ]


def differences(left: Any, right: Any, path: str = "") -> list[str]:
    """Where two answers differ: numbers by more than TOLERANCE, anything else at all
    (wall-clock times aside)."""
    if isinstance(left, dict) and isinstance(right, dict):
        found = []
        for key in sorted(set(left) | set(right)):
            if key in IGNORED or key.endswith("_ms"):
                continue
            if key not in left or key not in right:
                found.append(f"{path}.{key}: only on one side")
            else:
                found += differences(left[key], right[key], f"{path}.{key}")
        return found
    if isinstance(left, list) and isinstance(right, list):
        if len(left) != len(right):
            return [f"{path}: {len(left)} items against {len(right)}"]
        return [d for i, (a, b) in enumerate(zip(left, right, strict=True))
                for d in differences(a, b, f"{path}[{i}]")]  # fmt: skip
    if (
        isinstance(left, float | int)
        and isinstance(right, float | int)
        and not (isinstance(left, bool) or isinstance(right, bool))
    ):
        if math.isclose(left, right, rel_tol=0, abs_tol=TOLERANCE):
            return []
        return [f"{path}: {left!r} against {right!r}"]
    return [] if left == right else [f"{path}: {left!r} against {right!r}"]
