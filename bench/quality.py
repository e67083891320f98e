"""Retrieval quality on a BEIR collection, through the public API.

Loads the collection (corpus, MiniLM embeddings of documents and queries, qrels) into a
database of its own with ``POST /api/rag/documents``, runs every query of a split
through ``POST /api/rag/search`` and prints nDCG@10 and Recall@100 for:

  keyword   query text only, BM25 (hybrid_vector_weight 0)
  vector    the query's embedding only (cosine)
  hybrid    text and embedding, the server's fixed balance (RAG_HYBRID_VECTOR_WEIGHT)
  auto      text and embedding, profile auto (the query's class picks the balance)
  rrf       text and embedding, fusion rrf: reciprocal rank fusion (rrf_k 60) of the
            keyword and vector rankings, each weighted as in hybrid

Recency and signal weigh 0 in every mode. ``--tune`` (train split only) instead sweeps
the vector share and reports the best one overall and per query class.

    python bench/quality.py                      # SciFact test, 300 queries
    python bench/quality.py --split train --tune
"""

from __future__ import annotations

import argparse
import base64
import json
import math
import os
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import psycopg
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import percentiles, print_table, server, service, with_database

# The shared datasets beside the checkout, or where RAG_BENCH_DATASETS says (a worktree's
# checkout has no ../shared of its own).
DATASETS = Path(
    os.environ.get("RAG_BENCH_DATASETS")
    or Path(__file__).resolve().parent.parent.parent / "shared" / "datasets"
)
CREATED_AT = "2024-01-01T00:00:00Z"
PAGE = 50  # rows per request (the API's k limit); two pages give the top 100
STATIC_OFF = {"w_rec": 0.0, "w_sig": 0.0}


@dataclass
class Collection:
    name: str
    docs: list[dict[str, Any]]
    doc_vectors: np.ndarray
    queries: dict[str, str]  # id -> text
    query_vectors: dict[str, np.ndarray]  # id -> vector (this split's)
    qrels: dict[str, dict[str, int]]  # query id -> doc id -> relevance


def _jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open() as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _ids(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text().splitlines() if line.strip()]


def _qrels(path: Path) -> dict[str, dict[str, int]]:
    found: dict[str, dict[str, int]] = defaultdict(dict)
    for line in path.read_text().splitlines()[1:]:
        query, doc, score = line.split("\t")
        if int(score) > 0:
            found[query][doc] = int(score)
    return dict(found)


def load_collection(root: Path, split: str) -> Collection:
    embeddings = root / "embeddings"
    prefix = "minilm-queries" if split == "test" else f"minilm-{split}-queries"
    ids_file = "minilm-query-ids.txt" if split == "test" else f"minilm-{split}-query-ids.txt"
    query_ids = _ids(embeddings / ids_file)
    query_vectors = np.load(embeddings / f"{prefix}.npy")
    qrels = _qrels(root / "qrels" / f"{split}.tsv")
    texts = {q["_id"]: q["text"] for q in _jsonl(root / "queries.jsonl")}
    return Collection(
        name=root.name,
        docs=_jsonl(root / "corpus.jsonl"),
        doc_vectors=np.load(embeddings / "minilm-docs.npy"),
        queries={q: texts[q] for q in query_ids if q in qrels},
        query_vectors=dict(zip(query_ids, query_vectors, strict=True)),
        qrels=qrels,
    )


def b64(vector: np.ndarray) -> str:
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode()


def _document(doc: dict[str, Any], vector: np.ndarray) -> dict[str, Any]:
    return {
        "doc_id": doc["_id"], "title": doc.get("title", ""),
        "chunks": [{"chunk_id": doc["_id"], "chunk": doc["text"] or doc.get("title") or "-",
                    "created_at": CREATED_AT, "embedding": b64(vector)}],
    }  # fmt: skip


def ingest(client: httpx.Client, collection: Collection, doc_ids: list[str]) -> None:
    """Every document through the public ingest API (skipped when already stored)."""
    stats = client.get("/api/rag/stats").json()
    if stats.get("chunks") == len(collection.docs):
        print(f"reusing {collection.name}: {len(collection.docs):,} documents", file=sys.stderr)
        return
    by_id = dict(zip(doc_ids, collection.doc_vectors, strict=True))

    def send(doc: dict[str, Any]) -> None:
        r = client.post("/api/rag/documents", json=_document(doc, by_id[doc["_id"]]))
        if r.status_code != 200:
            raise SystemExit(f"ingest of {doc['_id']} failed: {r.status_code} {r.text}")

    with ThreadPoolExecutor(4) as pool:
        list(tqdm(pool.map(send, collection.docs), total=len(collection.docs),
                  desc=f"ingest {collection.name}", file=sys.stderr))  # fmt: skip


def mode_body(mode: str, text: str, vector: np.ndarray, share: float | None) -> dict[str, Any]:
    if mode == "keyword":
        return {"query": text, "profile": "default", "hybrid_vector_weight": 0.0, **STATIC_OFF}
    if mode == "vector":
        return {"embedding": b64(vector), **STATIC_OFF}
    body = {"query": text, "embedding": b64(vector), **STATIC_OFF}
    if mode == "auto":
        return {**body, "profile": "auto"}
    if mode == "rrf":
        return {**body, "profile": "default", "fusion": "rrf"}
    return {**body, "profile": "default",
            **({} if share is None else {"hybrid_vector_weight": share})}  # fmt: skip


def ranked(client: httpx.Client, body: dict[str, Any], depth: int) -> tuple[list[str], dict]:
    """The ranked doc ids (``depth`` of them, in pages of PAGE) and the first response."""
    ids: list[str] = []
    first: dict[str, Any] = {}
    for offset in range(0, depth, PAGE):
        r = client.post("/api/rag/search", json={**body, "k": PAGE, "offset": offset})
        r.raise_for_status()
        response = r.json()
        first = first or response
        ids += [row["doc_id"] for row in response["rows"]]
    return ids, first


def ndcg_at(ranking: list[str], relevant: dict[str, int], cutoff: int = 10) -> float:
    gains = [relevant.get(doc, 0) for doc in ranking[:cutoff]]
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(gains))
    ideal = sorted(relevant.values(), reverse=True)[:cutoff]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at(ranking: list[str], relevant: dict[str, int], cutoff: int = 100) -> float:
    return len(set(ranking[:cutoff]) & set(relevant)) / len(relevant)


@dataclass
class QueryResult:
    query_id: str
    ndcg: float
    recall: float
    ms: float
    query_class: str | None


def run_mode(
    client: httpx.Client, collection: Collection, mode: str, share: float | None, depth: int
) -> list[QueryResult]:
    results = []
    for query_id, text in tqdm(collection.queries.items(), desc=mode, file=sys.stderr,
                               leave=False):  # fmt: skip
        body = mode_body(mode, text, collection.query_vectors[query_id], share)
        started = time.perf_counter()
        ranking, first = ranked(client, body, depth)
        ms = (time.perf_counter() - started) * 1000
        relevant = collection.qrels[query_id]
        query_class = (first.get("classification") or {}).get("class")
        results.append(QueryResult(query_id, ndcg_at(ranking, relevant),
                                   recall_at(ranking, relevant), ms, query_class))  # fmt: skip
    return results


def summary(mode: str, results: list[QueryResult]) -> list[object]:
    p50, _, p99 = percentiles([r.ms for r in results])
    return [mode, float(np.mean([r.ndcg for r in results])),
            float(np.mean([r.recall for r in results])), p50, p99]  # fmt: skip


def evaluate(client: httpx.Client, collection: Collection) -> None:
    rows = [summary(mode, run_mode(client, collection, mode, None, 2 * PAGE))
            for mode in ("keyword", "vector", "hybrid", "auto", "rrf")]  # fmt: skip
    print(f"\n{collection.name}, {len(collection.queries)} queries, "
          f"{len(collection.docs):,} documents, {time.strftime('%Y-%m-%d')}")  # fmt: skip
    print_table(["mode", "nDCG@10", "Recall@100", "p50 ms", "p99 ms"], rows)
    print("(p50/p99: both pages of 50 rows, through HTTP)")


def tune(client: httpx.Client, collection: Collection) -> None:
    """Sweep the vector share; report the best overall and per query class."""
    shares = [round(x, 2) for x in np.arange(0.0, 1.0001, 0.1)]
    classes = {r.query_id: r.query_class
               for r in run_mode(client, collection, "auto", None, PAGE)}  # fmt: skip
    table, by_class = [], defaultdict(dict)
    for share in shares:
        results = run_mode(client, collection, "hybrid", share, PAGE)
        table.append([share, float(np.mean([r.ndcg for r in results]))])
        for query_class in set(classes.values()):
            scores = [r.ndcg for r in results if classes[r.query_id] == query_class]
            by_class[query_class][share] = (float(np.mean(scores)), len(scores))
    print_table(["vector share", "nDCG@10"], table)
    best = max(table, key=lambda row: row[1])
    print(f"best overall vector share: {best[0]} (nDCG@10 {best[1]:.4f})")
    for query_class, scores in sorted(by_class.items()):
        share, (score, count) = max(scores.items(), key=lambda item: item[1][0])
        print(f"class {query_class}: {count} queries, best vector share {share} "
              f"(nDCG@10 {score:.4f})")  # fmt: skip


@contextmanager
def target(args: argparse.Namespace, database: str) -> Iterator[str]:
    """The base URL to measure: --base-url, or a service of our own on the embedded
    benchmark server with a database for the collection."""
    if args.base_url:
        yield args.base_url.rstrip("/")
        return
    with server() as admin:
        with psycopg.connect(admin, autocommit=True) as conn:
            found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,))
            if not found.fetchone():
                conn.execute(f'CREATE DATABASE "{database}"')
        with service(with_database(admin, database), RAG_EMBEDDER="none") as base:
            yield base


@contextmanager
def loaded(args: argparse.Namespace) -> Iterator[tuple[httpx.Client, Collection]]:
    """A client of the service to measure, with ``args.dataset`` loaded and its
    ``args.split`` queries ready."""
    collection = load_collection(args.dataset, args.split)
    doc_ids = _ids(args.dataset / "embeddings" / "minilm-doc-ids.txt")
    with (
        target(args, f"beir_{collection.name}") as base,
        httpx.Client(base_url=base, timeout=60) as client,
    ):
        ingest(client, collection, doc_ids)
        yield client, collection


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", type=Path, default=DATASETS / "scifact")
    parser.add_argument("--split", default="test", choices=["test", "train", "dev"])
    parser.add_argument("--tune", action="store_true", help="sweep the vector share")
    parser.add_argument("--base-url", help="measure a running service (default: start one)")
    args = parser.parse_args()
    if args.tune and args.split == "test":
        parser.error("--tune is for a training split, never the test queries")
    with loaded(args) as (client, collection):
        (tune if args.tune else evaluate)(client, collection)


if __name__ == "__main__":
    main()
