"""Random corpora and a brute-force scorer written from the ranking rule, for tests."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from pgvector import Vector
from pgvector.psycopg import register_vector
from psycopg.types.json import Jsonb

from app.db.pool import configure_connection
from app.ingest.models import DocumentIn
from app.ingest.prepare import IngestRules, prepare_document
from app.ingest.store import load_spaces, store_documents
from app.recency import recency_value
from app.search.filters import json_filter
from app.search.metadata import BY_NAME as OPERATORS
from app.search.metadata import key_values

AS_OF = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
TAGS = ["alpha", "beta", "gamma", "delta", "eps"]


@dataclass
class Chunk:
    chunk_id: str
    doc_id: str
    src: str
    tags: list[str]
    created_at: datetime
    signal: float
    vectors: dict[str, np.ndarray]
    meta: dict[str, Any] = field(default_factory=dict)  # the chunk's over its document's


def until(ready: Callable[[], bool], timeout: float, what: str, pause: float = 0.1) -> None:
    """Poll ``ready`` until it says true; TimeoutError naming ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() >= deadline:
            raise TimeoutError(f"after {timeout} s: {what}")
        time.sleep(pause)


def postgres_running(data_dir: Path) -> bool:
    """Whether a postgres process serves ``data_dir``."""
    import psutil

    for process in psutil.process_iter(["name", "cmdline"]):
        if process.info["name"] == "postgres" and str(data_dir) in " ".join(
            process.info["cmdline"] or []
        ):
            return True
    return False


def unit(rng: np.random.Generator, dims: int) -> list[float]:
    v = rng.standard_normal(dims)
    return (v / np.linalg.norm(v)).astype(np.float32).tolist()


def random_corpus(
    rng: np.random.Generator,
    prefix: str,
    n_docs: int,
    chunks_per_doc: int,
    spaces: dict[str, int],
    missing: float = 0.1,
    kinds: dict[str, str] | None = None,
) -> tuple[list[dict[str, Any]], list[Chunk]]:
    """Documents (ingest bodies) and the same chunks as records for brute force.

    Vectors are clustered so that similarities spread; created_at spans three years
    before AS_OF plus a few days after it; a quarter of the signals are pinned. ``kinds``
    makes some spaces sparse or multivector (kind_value says how their values are drawn).
    """
    centers = {s: rng.standard_normal((8, d)) for s, d in spaces.items()}
    docs, chunks = [], []
    for d in range(n_docs):
        doc_id = f"{prefix}-doc-{d}"
        src = f"https://{prefix}.example/{['a', 'b', 'c'][d % 3]}/{d}"
        body_chunks = []
        for c in range(chunks_per_doc):
            created = AS_OF - timedelta(days=float(rng.uniform(-3, 3 * 365)))
            volume, confidence = float(rng.uniform(0, 8)), float(rng.uniform(0, 1))
            pinned = rng.random() < 0.25
            signal = float(rng.uniform(0, 1)) if pinned else min(1.0, volume * confidence / 5)
            tags = sorted(set(rng.choice(TAGS, size=int(rng.integers(0, 3))).tolist()))
            vectors = {}
            for space in spaces:
                if rng.random() < missing:
                    continue
                center = centers[space][int(rng.integers(0, 8))]
                kind = (kinds or {}).get(space, "dense")
                vectors[space] = kind_value(rng, kind, center)
            chunk_id = f"{doc_id}-{c}"
            body = {
                "chunk_id": chunk_id,
                "chunk": f"chunk {c} of {doc_id}",
                "created_at": created.isoformat(),
                "volume": volume,
                "confidence": confidence,
                "tags": tags,
                "embeddings": {s: as_json(v) for s, v in vectors.items()},
            }
            if pinned:
                body["signal"] = signal
            body_chunks.append(body)
            chunks.append(Chunk(chunk_id, doc_id, src, tags, created, signal, vectors))
        docs.append({"doc_id": doc_id, "src": src, "title": doc_id, "chunks": body_chunks})
    return docs, chunks


def store_corpus(url: str, docs: list[dict[str, Any]], default_space: str = "default") -> None:
    """Store documents through the service's own ingest path (one transaction)."""

    async def run() -> None:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            await configure_connection(conn)
            spaces = await load_spaces(conn)
            rules = IngestRules(default_space, max_chunks=100_000, infer_tags=False, now=AS_OF)
            prepared = [prepare_document(DocumentIn.model_validate(d), spaces, rules) for d in docs]
            await store_documents(conn, prepared, spaces)

    asyncio.run(run())


def register_spaces(url: str, spaces: dict[str, int]) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        for name, dims in spaces.items():
            conn.execute("SELECT api.register_space(%s, %s, '', '', 8, 32)", (name, dims))


def recency(days: float, function: str, scale: float) -> float:
    """The decay's value, from its registry entry (app/recency.py)."""
    return recency_value(days, function, scale)


def kind_value(rng: np.random.Generator, kind: str, center: np.ndarray) -> Any:
    """A value near ``center`` for a space of ``kind``: a unit vector (dense), its positive
    entries as a sparse vector, or 1..4 token vectors around it (multivector)."""
    if kind == "multivector":
        tokens = center + rng.standard_normal((int(rng.integers(1, 5)), len(center))) * 0.8
        return tokens.astype(np.float32)
    v = center + rng.standard_normal(len(center)) * 0.8
    if kind == "sparse":
        return {i: float(x) for i, x in enumerate(v) if x > 0} or {0: 1.0}
    return (v / np.linalg.norm(v)).astype(np.float32)


def as_json(value: Any) -> Any:
    """A value as a request writes it."""
    if isinstance(value, dict):
        return {"indices": sorted(value), "values": [value[i] for i in sorted(value)]}
    return value.tolist()


def similarity(query: Any, value: Any) -> float:
    """The similarity of a stored value to a query of the same kind (cosine for sparse)."""
    if isinstance(value, dict):
        return sparse_similarity(query, value, "cosine")
    if value.ndim == 2:
        return maxsim(query, value)
    return cosine(query, value)


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    return float(a64 @ b64 / (np.linalg.norm(a64) * np.linalg.norm(b64)))


def sparse_similarity(a: dict[int, float], b: dict[int, float], metric: str) -> float:
    """Two sparse vectors ({index: value}) by inner product, or by cosine."""
    dot = sum(value * b.get(index, 0.0) for index, value in a.items())
    if metric == "inner_product":
        return dot
    norm_a = math.sqrt(sum(v * v for v in a.values()))
    norm_b = math.sqrt(sum(v * v for v in b.values()))
    return dot / (norm_a * norm_b)


def maxsim(query: np.ndarray, tokens: np.ndarray) -> float:
    """Late interaction: for each query token its best cosine over the tokens, averaged."""
    q = query.astype(np.float64) / np.linalg.norm(query.astype(np.float64), axis=1)[:, None]
    t = tokens.astype(np.float64) / np.linalg.norm(tokens.astype(np.float64), axis=1)[:, None]
    return float((q @ t.T).max(axis=1).mean())


def passes(chunk: Chunk, filters: dict[str, Any]) -> bool:
    if "doc_ids" in filters and chunk.doc_id not in filters["doc_ids"]:
        return False
    if "src_prefix" in filters and not chunk.src.startswith(filters["src_prefix"]):
        return False
    if "tags_any" in filters and not set(chunk.tags) & set(filters["tags_any"]):
        return False
    if "tags_all" in filters and not set(filters["tags_all"]) <= set(chunk.tags):
        return False
    if "created_after" in filters and chunk.created_at < filters["created_after"]:
        return False
    if "created_before" in filters and chunk.created_at >= filters["created_before"]:
        return False
    return "filter" not in filters or metadata_matches(chunk.meta, filters["filter"])


def metadata_matches(meta: dict[str, Any], condition: dict[str, Any]) -> bool:
    """The metadata filter language (MongoDB's), evaluated in Python with each operator's
    meaning from its registry entry (app/search/metadata.py): every key must hold."""
    for key, value in condition.items():
        if key in ("$and", "$or", "$nor"):
            results = [metadata_matches(meta, part) for part in value]
            held = all(results) if key == "$and" else any(results)
            held = not held if key == "$nor" else held
        elif key == "$not":
            held = not metadata_matches(meta, value)
        else:
            found = key_values(meta, key)
            ops = value if isinstance(value, dict) else {"$eq": value}
            held = all(_operator_holds(found, op, operand) for op, operand in ops.items())
        if not held:
            return False
    return True


def _operator_holds(found: Sequence[Any] | None, name: str, operand: Any) -> bool:
    if name == "$not":  # a key's operators negated: MongoDB's field-level $not
        return not all(_operator_holds(found, op, value) for op, value in operand.items())
    if name == "$exists":
        return (found is not None) == operand
    op = OPERATORS[name]
    # on an array, a comparison holds when it holds for any element
    passing = any(op.holds(value, operand) for value in found or [])
    return not passing if op.negated else passing


def brute_force(
    chunks: list[Chunk],
    query: dict[str, np.ndarray],
    space_weights: dict[str, float],
    weights: tuple[float, float, float],
    filters: dict[str, Any] | None = None,
    recency_fn: tuple[str, float] = ("inverse", 1.0),
    min_score: float | None = None,
) -> dict[str, float]:
    """Score of every chunk that passes the filters, straight from the ranking rule."""
    w_cos, w_rec, w_sig = weights
    scores = {}
    for chunk in chunks:
        if filters and not passes(chunk, filters):
            continue
        sem = sum(
            space_weights[s] * similarity(q, chunk.vectors[s])
            for s, q in query.items()
            if s in chunk.vectors
        )
        days = max(0.0, (AS_OF - chunk.created_at).total_seconds() / 86400)
        score = w_cos * sem + w_rec * recency(days, *recency_fn) + w_sig * chunk.signal
        if min_score is None or score >= min_score:
            scores[chunk.chunk_id] = score
    return scores


def assert_exact_topk(rows: list[dict[str, Any]], scores: dict[str, float], k: int) -> None:
    """The rows are the top-k of ``scores`` (up to float noise at the k-th boundary)."""
    eps = 1e-5
    expected = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    assert len(rows) == min(k, len(expected)), (len(rows), k, len(expected))
    for row in rows:
        assert row["chunk_id"] in scores, f"{row['chunk_id']} should have been filtered out"
        assert math.isclose(row["score"], scores[row["chunk_id"]], abs_tol=eps), row
    returned = [row["score"] for row in rows]
    assert returned == sorted(returned, reverse=True)
    if len(expected) > k:
        boundary = expected[k][1]  # best score left out
        assert min(returned) >= boundary - eps, (min(returned), boundary)


def call_topk(
    conn: psycopg.Connection,
    query: dict[str, np.ndarray],
    space_weights: dict[str, float],
    weights: tuple[float, float, float],
    k: int,
    filters: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    collection: str = "default",
) -> dict[str, Any]:
    register_vector(conn)
    spaces = list(query)
    opts = {"as_of": AS_OF.isoformat(), **(options or {})}
    row = conn.execute(
        "SELECT api.rag_topk_weighted(%b, %s, %s, %s, %s, %s, %s, %s, %s, p_collection => %s)",
        (
            [Vector(query[s]) for s in spaces],
            spaces,
            [space_weights[s] for s in spaces],
            k,
            *weights,
            Jsonb(json_filter(0, filters or {})),
            Jsonb(opts),
            collection,
        ),
    ).fetchone()
    assert row is not None
    result: dict[str, Any] = row[0]
    return result
