"""A corpus with a space of every kind (dense, sparse by cosine and by inner product,
multivector): the chunks as sent and the values each holds, for the brute-force oracles."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import numpy as np

from helpers import AS_OF

VOCABULARY = 3000
SPACES = {  # name -> the body that registers it
    "kd": {"kind": "dense", "dims": 8},
    "ks": {"kind": "sparse", "dims": VOCABULARY},
    "kip": {"kind": "sparse", "dims": VOCABULARY, "metric": "inner_product"},
    "km": {"kind": "multivector", "dims": 6, "max_tokens": 8},
}
TAGS = ["red", "green", "blue"]


def _sparse(rng: np.random.Generator, nonzero: int) -> dict[int, float]:
    common = rng.choice(60, size=min(nonzero, 60), replace=False)  # shared terms overlap
    rare = rng.choice(np.arange(60, VOCABULARY), size=max(0, nonzero - 60), replace=False)
    indices = sorted(int(i) for i in np.concatenate([common, rare]))
    return {i: float(rng.uniform(0.1, 2.0)) for i in indices}


def vector_of(rng: np.random.Generator, space: str) -> Any:
    if space == "kd":
        return rng.standard_normal(8).astype(np.float32)
    if space == "km":
        return rng.standard_normal((int(rng.integers(1, 9)), 6)).astype(np.float32)
    return _sparse(rng, int(rng.integers(2, 20)))


def value_json(space: str, value: Any) -> Any:
    if space in ("ks", "kip"):
        return {"indices": list(value), "values": list(value.values())}
    return value.tolist()


def kinds_corpus(n_docs: int = 40) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """`n_docs` documents of 8 chunks each."""
    rng = np.random.default_rng(30)
    docs, chunks = [], {}
    for d in range(n_docs):
        body = []
        for c in range(8):
            chunk_id = f"k-{d}-{c}"
            values = {s: vector_of(rng, s) for s in SPACES if rng.random() < 0.9}
            if d < 3 and c == 0:  # more non-zero entries than the sparse HNSW index takes
                values["ks"] = _sparse(rng, 1100)
            created = AS_OF - timedelta(days=float(rng.uniform(0, 900)))
            signal = float(rng.uniform(0, 1))
            tags = [TAGS[(d + c) % 3]]
            body.append({
                "chunk_id": chunk_id, "chunk": f"chunk {chunk_id}", "tags": tags,
                "created_at": created.isoformat(), "signal": signal,
                "embeddings": {s: value_json(s, v) for s, v in values.items()},
            })  # fmt: skip
            chunks[chunk_id] = {"values": values, "created": created, "signal": signal,
                                "tags": tags}  # fmt: skip
        docs.append({"doc_id": f"k-{d}", "src": f"kinds://{d}", "chunks": body})
    return docs, chunks
