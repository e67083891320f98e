"""SciFact loaded as text gives the nDCG@10 of the precomputed-vector path.

Two databases of the same corpus, through the public interfaces:

  vectors  bench/quality.py's load: each abstract one chunk with its precomputed
           all-MiniLM-L6-v2 vector (title + " " + text), queries with theirs;
  text     the corpus written as JSONL of titles and texts, no vectors, loaded with
           ``ragsearch ingest`` (the default space's embedder, the packaged model, embeds
           each chunk as its title and text); queries sent as text, embedded by the service.

Every query of the test split runs in keyword, vector and hybrid mode on both; the table
gives nDCG@10 and Recall@100 per path and the difference (the goal: within ±0.005).

    python bench/text_quality.py
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import ingest as cli_ingest
from bench.common import migrate, print_table, server, service, with_database
from bench.quality import (
    DATASETS,
    PAGE,
    STATIC_OFF,
    Collection,
    _ids,
    load_collection,
    ndcg_at,
    ranked,
    recall_at,
)
from bench.quality import ingest as http_ingest

MODES = ("keyword", "vector", "hybrid")
DIMS = 384


def text_body(mode: str, text: str) -> dict[str, Any]:
    """The text path's request: the question as text, embedded by the service."""
    if mode == "keyword":
        return {"query": text, "profile": "default", "hybrid_vector_weight": 0.0, **STATIC_OFF}
    share = 1.0 if mode == "vector" else None
    body = {"query": text, "profile": "default", **STATIC_OFF}
    return body if share is None else {**body, "hybrid_vector_weight": share}


def vector_body(mode: str, text: str, vector: np.ndarray) -> dict[str, Any]:
    from bench.quality import mode_body

    return mode_body(mode, text, vector, None)


def evaluate(client: httpx.Client, collection: Collection, text_path: bool) -> dict[str, tuple]:
    scores = {}
    for mode in MODES:
        ndcg, recall = [], []
        started = time.perf_counter()
        for query_id, text in collection.queries.items():
            body = (text_body(mode, text) if text_path
                    else vector_body(mode, text, collection.query_vectors[query_id]))  # fmt: skip
            ranking, _ = ranked(client, body, 2 * PAGE)
            relevant = collection.qrels[query_id]
            ndcg.append(ndcg_at(ranking, relevant))
            recall.append(recall_at(ranking, relevant))
        seconds = time.perf_counter() - started
        scores[mode] = (float(np.mean(ndcg)), float(np.mean(recall)), seconds)
        print(f"{'text' if text_path else 'vectors'} {mode}: nDCG@10 {scores[mode][0]:.4f} "
              f"({seconds:.0f} s)", file=sys.stderr)  # fmt: skip
    return scores


def corpus_jsonl(collection: Collection, folder: Path) -> Path:
    path = folder / "scifact-text.jsonl"
    with path.open("w") as out:
        for doc in collection.docs:
            chunk = {"chunk_id": doc["_id"], "chunk": doc["text"] or doc.get("title") or "-",
                     "created_at": "2024-01-01T00:00:00Z"}  # fmt: skip
            out.write(json.dumps({"doc_id": doc["_id"], "title": doc.get("title", ""),
                                  "chunks": [chunk]}) + "\n")  # fmt: skip
    return path


def _stored(url: str) -> int:
    try:
        with psycopg.connect(url) as conn:
            return int(conn.execute("SELECT count(*) FROM rag.chunks").fetchone()[0])
    except psycopg.Error:
        return 0


@contextmanager
def text_database(admin: str, collection: Collection) -> Iterator[str]:
    """The corpus loaded as text with ``ragsearch ingest`` (once; reused by later runs)."""
    url = with_database(admin, "beir_scifact_text")
    if _stored(url) != len(collection.docs):
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute('DROP DATABASE IF EXISTS "beir_scifact_text" WITH (FORCE)')
            conn.execute('CREATE DATABASE "beir_scifact_text"')
        migrate(url, DIMS)
        with tempfile.TemporaryDirectory() as folder:
            seconds, summary = cli_ingest(url, corpus_jsonl(collection, Path(folder)), DIMS)
        print(f"ragsearch ingest of the text: {seconds:.0f} s: {summary}", file=sys.stderr)
    yield url


def vector_database(admin: str) -> str:
    url = with_database(admin, "beir_scifact")
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = 'beir_scifact'").fetchone():
            conn.execute('CREATE DATABASE "beir_scifact"')
    return url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", type=Path, default=DATASETS / "scifact")
    args = parser.parse_args()
    collection = load_collection(args.dataset, "test")
    doc_ids = _ids(args.dataset / "embeddings" / "minilm-doc-ids.txt")
    with server() as admin:
        with service(vector_database(admin), RAG_EMBEDDER="none") as base, \
                httpx.Client(base_url=base, timeout=120) as client:  # fmt: skip
            http_ingest(client, collection, doc_ids)
            vectors = evaluate(client, collection, text_path=False)
        with text_database(admin, collection) as url, \
                service(url, RAG_EMBEDDER="local") as base, \
                httpx.Client(base_url=base, timeout=120) as client:  # fmt: skip
            text = evaluate(client, collection, text_path=True)
    rows = [[mode, vectors[mode][0], text[mode][0], text[mode][0] - vectors[mode][0],
             vectors[mode][1], text[mode][1]] for mode in MODES]  # fmt: skip
    print(f"\nSciFact test, {len(collection.queries)} queries, {len(collection.docs):,} "
          f"documents, {time.strftime('%Y-%m-%d')}")  # fmt: skip
    print_table(["mode", "nDCG@10 vectors", "nDCG@10 text", "difference", "Recall@100 vectors",
                 "Recall@100 text"], rows)  # fmt: skip


if __name__ == "__main__":
    main()
