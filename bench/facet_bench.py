"""Facet counts against a search with the same filters, through the service's HTTP API, on
the synthetic corpus with metadata (bench/metadata_bench.py: 100 tags, one source per
document of 10 chunks, documents' ``team`` one of 100, half the chunks with a ``page`` of
their own). Each case runs a facet request (tags, src, collection, and with ``+ team`` the
documents' metadata key too) and a search (a query vector, k 10) with the same filters,
interleaved query by query. Prints p50/p95 of each, the facets' p50 over the search's, and
whether the counts were exact (RAG_FACET_MAX_CHUNKS, default 100,000).

    python bench/facet_bench.py --n 100000 --queries 30
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import percentiles, prewarm, print_table, server, service
from bench.corpus import CorpusSpec, query_vectors
from bench.metadata_bench import database

QUARTER = [f"t{n:02d}" for n in range(25)]
CASES: dict[str, dict[str, Any]] = {
    "no filter": {},
    "tag 1%": {"tags_any": ["t07"]},
    "tag 25%": {"tags_any": QUARTER},
    "doc key 1%": {"filter": {"team": "team07"}},
    "doc key 25%": {"filter": {"team": {"$in": [f"team{n:02d}" for n in range(25)]}}},
    "chunk key 5%": {"filter": {"page": 3}},
    # keyword-only searches (no vector): chunk n's text is "synthetic chunk n"
    "keywords 0.1%": {"query": " ".join(str(n) for n in range(0, 100_000, 1000))},
    "keywords, all": {"query": "synthetic chunk"},
}
FIELD_SETS = {"": ["tags", "src", "collection"], " + team": ["tags", "src", "collection",
                                                             "metadata.team"]}  # fmt: skip
WARM_UP = 2


def _timed(client: httpx.Client, path: str, body: dict[str, Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    r = client.post(path, json=body)
    elapsed = (time.perf_counter() - started) * 1000
    r.raise_for_status()
    return elapsed, r.json()


def run(base: str, queries: list[list[float]]) -> list[list[object]]:
    rows: list[list[object]] = []
    with httpx.Client(base_url=base, timeout=120) as client:
        for case, filters in CASES.items():
            for suffix, fields in FIELD_SETS.items():
                facet_ms, search_ms, answer = [], [], {}
                for i, q in enumerate(queries):
                    vector = {} if "query" in filters else {"embedding": q}
                    facet_time, answer = _timed(
                        client, "/api/rag/facets", {**filters, "fields": fields}
                    )
                    search_time, _ = _timed(client, "/api/rag/search",
                                            {**filters, **vector, "k": 10})  # fmt: skip
                    if i >= WARM_UP:
                        facet_ms.append(facet_time)
                        search_ms.append(search_time)
                f50, f95, _ = percentiles(facet_ms)
                s50, s95, _ = percentiles(search_ms)
                rows.append([case + suffix, answer["chunks"], answer["counted"], f50, f95,
                             s50, s95, f"{f50 / s50:.2f}x", answer["exact"]])  # fmt: skip
                print(f"\r{case}{suffix} done", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--queries", type=int, default=30)
    args = parser.parse_args()
    spec = CorpusSpec(args.n, args.dims)
    queries = [q.tolist() for q in query_vectors(spec, args.queries + WARM_UP)]
    with server() as admin:
        url = database(admin, spec)
        with psycopg.connect(url, autocommit=True) as conn:
            prewarm(conn)
        with service(url, RAG_EMBEDDER="none") as base:
            rows = run(base, queries)
    print(f"\n{args.n:,} chunks x {args.dims} dims, {args.queries} requests per case over "
          f"HTTP, {time.strftime('%Y-%m-%d')} (ms)")  # fmt: skip
    print_table(["case", "chunks counted", "counted", "facets p50", "facets p95",
                 "search p50", "search p95", "facets / search", "exact"], rows)  # fmt: skip


if __name__ == "__main__":
    main()
