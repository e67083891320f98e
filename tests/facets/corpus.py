"""A corpus for facet tests, stored through the API, and the counts it should give,
computed in Python from the same records (the oracle)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import httpx
import numpy as np

from helpers import AS_OF, Chunk, key_values, passes

DIMS = 384
TAGS = ["alpha", "beta", "gamma", "delta", "eps"]
WORDS = ["ledger", "zebra", "orbit", "quartz", "meadow"]  # each its own English stem
LANGS = ["en", "fr", "de"]


@dataclass
class Record(Chunk):
    words: frozenset[str] = frozenset()
    collection: str = "default"


def _unit(rng: np.random.Generator) -> list[float]:
    v = rng.standard_normal(DIMS)
    return (v / np.linalg.norm(v)).astype(np.float32).tolist()


def _picked(rng: np.random.Generator, choices: list[str], size: int) -> list[str]:
    """Up to ``size`` of ``choices``, each once, sorted (plain str: the oracle compares
    types)."""
    return sorted({str(choice) for choice in rng.choice(choices, size=size)})


def _document_meta(rng: np.random.Generator, d: int) -> dict[str, Any]:
    meta: dict[str, Any] = {"lang": LANGS[d % 3], "year": 2019 + int(rng.integers(0, 6))}
    if rng.random() < 0.6:
        meta["topics"] = _picked(rng, ["a", "b", "c"], int(rng.integers(1, 3)))
    if rng.random() < 0.5:
        meta["review"] = {"level": int(rng.integers(1, 4)), "done": bool(rng.random() < 0.5)}
    return meta


def _chunk_meta(rng: np.random.Generator) -> dict[str, Any]:
    roll = rng.random()
    if roll < 0.2:
        return {"lang": "it"}  # over the document's
    if roll < 0.4:
        return {"page": int(rng.integers(1, 4)), "topics": ["c", "c"]}
    return {}


def store(client: httpx.Client, collection: str, seed: int, n_docs: int) -> list[Record]:
    """Documents of 1..4 chunks with tags, sources (some empty), metadata on documents and
    on some chunks, and one or two of WORDS in their text."""
    rng = np.random.default_rng(seed)
    records: list[Record] = []
    for d in range(n_docs):
        doc_id = f"{collection}-doc-{d}"
        src = "" if d % 7 == 6 else f"https://{collection}.example/{'abc'[d % 3]}/{d // 2}"
        doc_meta = _document_meta(rng, d)
        body = []
        for c in range(int(rng.integers(1, 5))):
            chunk_id = f"{doc_id}-{c}"
            words = frozenset(_picked(rng, WORDS, int(rng.integers(1, 3))))
            tags = _picked(rng, TAGS, int(rng.integers(0, 3)))
            created = AS_OF - timedelta(days=float(rng.uniform(0, 400)))
            own = _chunk_meta(rng)
            body.append({"chunk_id": chunk_id, "chunk": " ".join(sorted(words)) + f" note {c}",
                         "tags": tags, "created_at": created.isoformat(), "metadata": own,
                         "embedding": _unit(rng)})  # fmt: skip
            records.append(Record(chunk_id, doc_id, src, tags, created, 0.0, {},
                                  {**doc_meta, **own}, words, collection))  # fmt: skip
        doc = {"collection": collection, "doc_id": doc_id, "src": src, "title": doc_id,
               "metadata": doc_meta, "chunks": body}  # fmt: skip
        r = client.post("/api/rag/documents", json=doc)
        assert r.status_code == 200, r.text
    return records


def scalars(meta: dict[str, Any], key: str) -> set[Any]:
    """The values a facet on metadata.<key> counts for one chunk."""
    found = key_values(meta, key) or []
    return {v for v in found if isinstance(v, str | int | float | bool)}


def field_values(record: Record, field: str) -> Iterable[Any]:
    if field == "tags":
        return set(record.tags)
    if field == "src":
        return [record.src] if record.src else []
    if field == "doc_id":
        return [record.doc_id]
    if field == "collection":
        return [record.collection]
    return scalars(record.meta, field.removeprefix("metadata."))


def counted(records: list[Record], filters: dict[str, Any], words: set[str] | None = None
            ) -> list[Record]:  # fmt: skip
    """The records a facet request counts: those passing the filters and, for a
    keyword-only search, holding one of ``words``."""
    return [r for r in records if passes(r, filters) and (words is None or r.words & words)]


def expected_counts(records: list[Record], field: str) -> dict[Any, int]:
    counts: Counter[Any] = Counter()
    for record in records:
        for value in field_values(record, field):
            counts[_key(value)] += 1
    return dict(counts)


def _key(value: Any) -> Any:
    """Booleans apart from the numbers 0 and 1 (Python counts True as 1)."""
    return ("bool", value) if isinstance(value, bool) else value


def answered_counts(facet: dict[str, Any]) -> dict[Any, int]:
    return {_key(v["value"]): v["chunks"] for v in facet["values"]}
