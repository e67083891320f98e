"""Synthetic benchmark corpora: clustered unit vectors with dates and signals.

Vectors come from a mixture with two levels: 20 broad themes, and one topic per 1,000
chunks whose centre leans towards one theme; each chunk is its topic's centre plus a
spread along the topic's own random 16-dimensional subspace plus isotropic noise. Like
real sentence embeddings the data has a low intrinsic dimension and a smooth fall-off
of similarity; for a held-out query at 1,000,000 chunks the nearest chunk is at cosine
~0.73, the 10th ~0.67, the 100th ~0.58, the 1,000th ~0.34, the 100,000th ~0.08.
Documents (10 chunks each) are dated uniformly over the three years before the load and
arrive in that order, as a corpus that grows over time does (so chunk ids, and rows on
disk, follow created_at); signal is uniform in [0, 1] (pinned). Every chunk has one tag
t00..t99 (each 1% of the corpus), for selective-filter runs. Queries are held-out draws
from the same mixture.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import numpy as np
import orjson
from tqdm import tqdm

CHUNKS_PER_DOC = 10
SECONDS_3Y = 3 * 365 * 86400


@dataclass(frozen=True)
class CorpusSpec:
    n: int
    dims: int
    seed: int = 0

    @property
    def name(self) -> str:
        return f"synth_v4_{self.n}x{self.dims}_s{self.seed}"


class Mixture:
    THEMES = 20
    SUBSPACE = 16
    NOISE = 0.6

    def __init__(self, spec: CorpusSpec) -> None:
        rng = np.random.default_rng(spec.seed)
        self.topics = max(10, spec.n // 1000)
        themes = _unit(rng.standard_normal((self.THEMES, spec.dims)))
        leaning = themes[rng.integers(0, self.THEMES, self.topics)]
        spread = rng.standard_normal((self.topics, spec.dims)) / np.sqrt(spec.dims)
        self.centers = _unit(leaning + spread).astype(np.float32)
        self.bases = (
            rng.standard_normal((self.topics, spec.dims, self.SUBSPACE))
            / np.sqrt(spec.dims * self.SUBSPACE)
        ).astype(np.float32)
        self.dims = spec.dims

    def draw(self, rng: np.random.Generator, count: int) -> np.ndarray:
        topic = rng.integers(0, self.topics, count)
        z = rng.standard_normal((count, self.SUBSPACE)).astype(np.float32)
        noise = _unit(rng.standard_normal((count, self.dims))).astype(np.float32)
        v = self.centers[topic] + np.einsum("ndr,nr->nd", self.bases[topic], z) + self.NOISE * noise
        return _unit(v)


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def query_vectors(spec: CorpusSpec, count: int) -> np.ndarray:
    return Mixture(spec).draw(np.random.default_rng(spec.seed + 1_000_003), count)


def documents(spec: CorpusSpec, now: datetime, batch: int = 10_000) -> Iterator[dict]:
    """Ingest bodies (documents of 10 chunks), generated lazily in batches."""
    mixture = Mixture(spec)
    rng = np.random.default_rng(spec.seed + 1)
    for start in range(0, spec.n, batch):
        count = min(batch, spec.n - start)
        vectors = mixture.draw(rng, count)
        signals = rng.uniform(0, 1, count)
        for doc_start in range(0, count, CHUNKS_PER_DOC):
            doc_index = (start + doc_start) // CHUNKS_PER_DOC
            # Documents arrive in time order, one every 3 years / n_docs on average.
            doc_age = SECONDS_3Y * (1 - (doc_index + rng.random()) * CHUNKS_PER_DOC / spec.n)
            chunks = []
            for i in range(doc_start, min(doc_start + CHUNKS_PER_DOC, count)):
                n = start + i
                chunks.append(
                    {
                        "chunk_id": f"c{n}",
                        "chunk": f"synthetic chunk {n}",
                        "created_at": now - timedelta(seconds=doc_age - 60 * (i - doc_start)),
                        "signal": float(signals[i]),
                        "tags": [f"t{n % 100:02d}"],
                        "embedding": vectors[i],
                    }
                )
            yield {"doc_id": f"d{doc_index}", "src": f"bench://doc/{doc_index}", "chunks": chunks}


def write_jsonl(
    spec: CorpusSpec, path: str, vector_format: str = "json",
    decorate: Callable[[dict, int], None] | None = None,
) -> int:  # fmt: skip
    """The corpus as a ``ragsearch ingest`` file (vectors as JSON numbers, or base64
    float32), each document changed by ``decorate(body, index)`` first when given; returns
    the number of chunks."""
    now = datetime.now(UTC)
    count = 0
    with open(path, "wb") as out, tqdm(total=spec.n, desc=f"write {path}", unit="chunk") as bar:
        for index, body in enumerate(documents(spec, now)):
            if decorate is not None:
                decorate(body, index)
            for chunk in body["chunks"]:
                chunk["created_at"] = chunk["created_at"].isoformat()
                if vector_format == "base64":
                    raw = np.asarray(chunk["embedding"], dtype="<f4").tobytes()
                    chunk["embedding"] = base64.b64encode(raw).decode()
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
    parser.add_argument("--vector-format", choices=["json", "base64"], default="json")
    args = parser.parse_args()
    print(write_jsonl(CorpusSpec(args.n, args.dims), args.out, args.vector_format), "chunks")
