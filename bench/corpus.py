"""Synthetic benchmark corpora: clustered unit vectors with dates and signals.

Vectors come from a two-level mixture (topics, each with 10 sub-topics, plus noise), so
similarities fall off in steps the way real embeddings do: about 0.65 inside a
sub-topic, 0.45 inside a topic, near 0 elsewhere. created_at is spread uniformly over
the three years before the load; signal is uniform in [0, 1] (pinned). Every chunk has
one tag ``t00``..``t99`` (each 1% of the corpus), for selective-filter runs.
Queries are held-out draws from the same mixture.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import numpy as np
from psycopg import AsyncConnection
from tqdm import tqdm

from app.db.pool import configure_connection
from app.ingest import DocumentIn, load_spaces, prepare_document, store_documents

CHUNKS_PER_DOC = 10
SECONDS_3Y = 3 * 365 * 86400


@dataclass(frozen=True)
class CorpusSpec:
    n: int
    dims: int
    seed: int = 0

    @property
    def name(self) -> str:
        return f"synth_{self.n}x{self.dims}_s{self.seed}"


class Mixture:
    def __init__(self, spec: CorpusSpec) -> None:
        rng = np.random.default_rng(spec.seed)
        self.topics = max(10, spec.n // 1000)
        centers = rng.standard_normal((self.topics, spec.dims)).astype(np.float32)
        self.centers = centers / np.linalg.norm(centers, axis=1, keepdims=True)
        subs = rng.standard_normal((self.topics, 10, spec.dims)).astype(np.float32)
        self.subs = subs / np.linalg.norm(subs, axis=2, keepdims=True)
        self.dims = spec.dims

    def draw(self, rng: np.random.Generator, count: int) -> np.ndarray:
        topic = rng.integers(0, self.topics, count)
        sub = rng.integers(0, 10, count)
        noise = rng.standard_normal((count, self.dims)).astype(np.float32)
        noise /= np.linalg.norm(noise, axis=1, keepdims=True)
        v = self.centers[topic] + 0.7 * self.subs[topic, sub] + 0.9 * noise
        return v / np.linalg.norm(v, axis=1, keepdims=True)


def query_vectors(spec: CorpusSpec, count: int) -> np.ndarray:
    return Mixture(spec).draw(np.random.default_rng(spec.seed + 1_000_003), count)


def documents(spec: CorpusSpec, now: datetime, batch: int = 10_000) -> Iterator[dict]:
    """Ingest bodies (documents of 10 chunks), generated lazily in batches."""
    mixture = Mixture(spec)
    rng = np.random.default_rng(spec.seed + 1)
    for start in range(0, spec.n, batch):
        count = min(batch, spec.n - start)
        vectors = mixture.draw(rng, count)
        ages = rng.uniform(0, SECONDS_3Y, count)
        signals = rng.uniform(0, 1, count)
        for doc_start in range(0, count, CHUNKS_PER_DOC):
            doc_index = (start + doc_start) // CHUNKS_PER_DOC
            chunks = []
            for i in range(doc_start, min(doc_start + CHUNKS_PER_DOC, count)):
                n = start + i
                chunks.append(
                    {
                        "chunk_id": f"c{n}",
                        "chunk": f"synthetic chunk {n}",
                        "created_at": now - timedelta(seconds=float(ages[i])),
                        "signal": float(signals[i]),
                        "tags": [f"t{n % 100:02d}"],
                        "embedding": vectors[i],
                    }
                )
            yield {"doc_id": f"d{doc_index}", "src": f"bench://doc/{doc_index}", "chunks": chunks}


async def load(url: str, spec: CorpusSpec, batch_chunks: int = 5000) -> float:
    """Store the corpus through the service's bulk path; returns chunks per second."""
    import time

    now = datetime.now(UTC)
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        await configure_connection(conn)
        spaces = await load_spaces(conn)
        started = time.perf_counter()
        batch = []
        with tqdm(total=spec.n, desc=f"load {spec.name}", unit="chunk") as bar:
            for body in documents(spec, now):
                doc = DocumentIn.model_construct(**body)
                doc.chunks = [_chunk(c) for c in body["chunks"]]
                batch.append(prepare_document(doc, spaces, "default", 10**6, now))
                if sum(len(d.chunks) for d in batch) >= batch_chunks:
                    await store_documents(conn, batch, spaces)
                    bar.update(sum(len(d.chunks) for d in batch))
                    batch = []
            if batch:
                await store_documents(conn, batch, spaces)
                bar.update(sum(len(d.chunks) for d in batch))
        return spec.n / (time.perf_counter() - started)


def _chunk(body: dict):
    from app.ingest import ChunkIn

    values = dict(body)
    vector = values.pop("embedding")
    chunk = ChunkIn.model_construct(**values, embeddings={}, embedding=vector)
    return chunk


def load_sync(url: str, spec: CorpusSpec) -> float:
    return asyncio.run(load(url, spec))


def write_jsonl(spec: CorpusSpec, path: str) -> int:
    """The corpus as a ``ragsearch ingest`` file; returns the number of chunks."""
    import orjson

    now = datetime.now(UTC)
    count = 0
    with open(path, "wb") as out, tqdm(total=spec.n, desc=f"write {path}", unit="chunk") as bar:
        for body in documents(spec, now):
            for chunk in body["chunks"]:
                chunk["created_at"] = chunk["created_at"].isoformat()
            out.write(orjson.dumps(body, option=orjson.OPT_SERIALIZE_NUMPY) + b"\n")
            count += len(body["chunks"])
            bar.update(len(body["chunks"]))
    return count


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="write a synthetic corpus as JSONL")
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    print(write_jsonl(CorpusSpec(args.n, args.dims), args.out), "chunks")
