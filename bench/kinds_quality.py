"""SciFact through the API with every kind of space the service can fill from text: the
default dense space (the packaged all-MiniLM-L6-v2's sentence vectors), a multivector
space (the same model's token vectors, scored by MaxSim) and a sparse bm25 space (BM25
term weights over the model's tokenizer vocabulary). nDCG@10 and Recall@100 of each alone
and blended, beside PostgreSQL's keyword ranking and the default hybrid.

    python bench/kinds_quality.py [--max-tokens 128] [--modes "dense,dense + multivector"]
                                  [--queries N] [--statement-timeout-ms MS]

The corpus goes in as text (a document per abstract, its title and text, no vectors)
with ``ragsearch ingest`` after the spaces are registered, so every space is filled by
its own embedder; questions are sent as text and embedded by the service. A database that
already holds the corpus with the same spaces (bench/data, a run before) is reused.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import _stored_chunks, fresh_database, print_table, server, service, with_database
from bench.common import ingest as cli_ingest
from bench.quality import DATASETS, PAGE, STATIC_OFF, load_collection, ndcg_at, ranked, recall_at
from bench.text_quality import DIMS, corpus_jsonl

VOCABULARY = 30522  # all-MiniLM-L6-v2's WordPiece vocabulary


def spaces(max_tokens: int) -> list[dict[str, Any]]:
    return [
        {"name": "tokens", "kind": "multivector", "dims": DIMS, "max_tokens": max_tokens,
         "embedder": {"kind": "local"}},
        {"name": "terms", "kind": "sparse", "dims": VOCABULARY, "embedder": {"kind": "bm25"}},
    ]  # fmt: skip


def vector_mode(weights: dict[str, float]) -> dict[str, Any]:
    return {"active_spaces": sorted(weights), "space_weights": weights,
            "hybrid_vector_weight": 1.0, **STATIC_OFF}  # fmt: skip


MODES: dict[str, dict[str, Any]] = {
    "keyword (PostgreSQL full text)": {"hybrid_vector_weight": 0.0, **STATIC_OFF},
    "dense": vector_mode({"default": 1.0}),
    "multivector (MaxSim)": vector_mode({"tokens": 1.0}),
    "sparse bm25": vector_mode({"terms": 1.0}),
    "dense + multivector": vector_mode({"default": 0.5, "tokens": 0.5}),
    "dense + sparse bm25": vector_mode({"default": 0.5, "terms": 0.5}),
    "all three spaces": vector_mode({"default": 1 / 3, "tokens": 1 / 3, "terms": 1 / 3}),
    "dense + keyword (default hybrid)": {"active_spaces": ["default"], **STATIC_OFF},
}


def evaluate(client: httpx.Client, queries: dict[str, str], qrels: dict,
             modes: list[str]) -> list[list[Any]]:  # fmt: skip
    rows = []
    for mode in modes:
        body = MODES[mode]
        ndcg, recall, started = [], [], time.perf_counter()
        for query_id, text in queries.items():
            ranking, _ = ranked(client, {"query": text, **body}, 2 * PAGE)
            ndcg.append(ndcg_at(ranking, qrels[query_id]))
            recall.append(recall_at(ranking, qrels[query_id]))
        seconds = time.perf_counter() - started
        rows.append([mode, float(np.mean(ndcg)), float(np.mean(recall)),
                     1000 * seconds / (2 * len(queries))])  # fmt: skip
        print(f"{mode}: nDCG@10 {rows[-1][1]:.4f} ({seconds:.0f} s)", file=sys.stderr)
    return rows


def _max_tokens(url: str) -> int | None:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT max_tokens FROM rag.spaces WHERE name = 'tokens'").fetchone()
    return row[0] if row else None


def _loaded(admin: str, collection: Any, max_tokens: int) -> tuple[str, float | None]:
    """The corpus's database: reused when it holds every document (its spaces registered
    with the same max_tokens), else loaded as text; (its URL, the load's seconds or None)."""
    url = with_database(admin, "beir_scifact_kinds")
    if _stored_chunks(url) == len(collection.docs) and _max_tokens(url) == max_tokens:
        return url, None
    url = fresh_database(admin, "beir_scifact_kinds", DIMS)
    with service(url, RAG_EMBEDDER="local") as base, httpx.Client(base_url=base) as client:
        for space in spaces(max_tokens):
            client.post("/api/rag/spaces", json=space).raise_for_status()
    with tempfile.TemporaryDirectory() as folder:
        seconds, summary = cli_ingest(url, corpus_jsonl(collection, Path(folder)), DIMS)
    print(f"ragsearch ingest of the text: {seconds:.0f} s: {summary}", file=sys.stderr)
    return url, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", type=Path, default=DATASETS / "scifact")
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--modes", default=",".join(MODES),
                        help="comma-separated, of: " + "; ".join(MODES))  # fmt: skip
    parser.add_argument("--queries", type=int, default=0, help="the first N (0: all)")
    parser.add_argument("--statement-timeout-ms", type=int, default=30_000)
    args = parser.parse_args()
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if unknown := [m for m in modes if m not in MODES]:
        parser.error(f"unknown modes {unknown}; known: {list(MODES)}")
    collection = load_collection(args.dataset, "test")
    queries = dict(list(collection.queries.items())[: args.queries or None])
    with server() as admin:
        url, seconds = _loaded(admin, collection, args.max_tokens)
        timeout = str(args.statement_timeout_ms)
        with service(url, RAG_EMBEDDER="local", RAG_STATEMENT_TIMEOUT_MS=timeout) as base, \
                httpx.Client(base_url=base, timeout=600) as client:  # fmt: skip
            rows = evaluate(client, queries, collection.qrels, modes)
    load = f"ingest {seconds:.0f} s" if seconds is not None else "the corpus loaded before"
    print(f"\nSciFact test, {len(queries)} queries, {len(collection.docs):,} documents, "
          f"multivector max_tokens {args.max_tokens}, {load}, statement timeout "
          f"{args.statement_timeout_ms} ms, {time.strftime('%Y-%m-%d')}")  # fmt: skip
    print_table(["mode", "nDCG@10", "Recall@100", "ms/request"], rows)


if __name__ == "__main__":
    main()
