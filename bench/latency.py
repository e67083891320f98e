"""What one search costs: p50/p95/p99 of the ranking function in SQL and of
POST /api/rag/search over HTTP, on a synthetic corpus (default 10,000 x 384).

    python bench/latency.py [--n 10000] [--dims 384] [--queries 200]

Uses DATABASE_URL when set, else an embedded server in bench/data (kept between runs).
"""

from __future__ import annotations

import argparse
import http.client
import sys
from pathlib import Path

import orjson
import psycopg
from pgvector import Vector
from psycopg.types.json import Jsonb

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import corpus_database, percentiles, print_table, server, service, timed
from bench.corpus import CorpusSpec, query_vectors

TOPK = "SELECT api.rag_topk_weighted(%b, %s, %s, %s, %s, %s, %s, %s, %s)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    spec = CorpusSpec(args.n, args.dims)
    queries = query_vectors(spec, args.queries)
    weights = (0.8, 0.1, 0.1)
    with server() as admin:
        url = corpus_database(admin, spec)
        with psycopg.connect(url, autocommit=True) as conn, service(url) as base:
            from pgvector.psycopg import register_vector

            register_vector(conn)
            host, port = base.removeprefix("http://").split(":")
            connection = http.client.HTTPConnection(host, int(port))
            sql_ms, http_ms = [], []
            options = Jsonb({"recency": {"function": "inverse", "scale_days": 1}})
            for q in queries:  # interleaved, query by query
                params = ([Vector(q)], ["default"], [1.0], 10, *weights, Jsonb({}), options)

                def call(params: tuple = params) -> None:
                    conn.execute(TOPK, params, prepare=True).fetchone()

                def post(body: bytes = orjson.dumps({"embedding": q.tolist(), "k": 10})) -> None:
                    headers = {"Content-Type": "application/json"}
                    connection.request("POST", "/api/rag/search", body, headers)
                    response = connection.getresponse()
                    assert response.status == 200, response.read()
                    response.read()

                sql_ms.append(timed(call))
                http_ms.append(timed(post))
    rows = [
        ["SQL: api.rag_topk_weighted", *percentiles(sql_ms)],
        ["HTTP: POST /api/rag/search", *percentiles(http_ms)],
    ]
    print(
        f"\n{spec.n:,} chunks x {spec.dims} dims, {args.queries} searches, k=10, weights {weights}"
    )
    print_table(["path", "p50 ms", "p95 ms", "p99 ms"], rows)


if __name__ == "__main__":
    main()
