"""HNSW graph settings against recall: plain nearest-neighbour top-10 by cosine, per
(m, ef_construction) and ef_search, on a copy of a benchmark corpus's vectors.

The corpus database is the one bench/search_bench.py builds (built here if missing). Its
vectors are copied once into a scratch table; each graph is built on that table with the
index expression the service uses (normalised halfvec, cosine), timed, and searched with
held-out queries at each ef_search. Recall@10 is against the exact order of the same
table. A query whose recall is 0 was routed into the wrong part of the graph: a larger
ef_search does not bring it back, a better-built graph does. The first graph and
ef_search are the baseline of the ratio column.

    python bench/graph_bench.py --n 1000000 --graphs 16:100,16:200 --ef-search 100,200,400
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import psycopg
from pgvector import Vector
from pgvector.psycopg import register_vector
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import corpus_database, print_table, server
from bench.corpus import CorpusSpec, query_vectors

K = 10
TABLE = "bench_graph_vectors"
INDEX = "bench_graph_hnsw"


def scratch_table(conn: psycopg.Connection) -> None:
    """The default collection's vectors in a table of their own (made once)."""
    (existing,) = conn.execute(f"SELECT to_regclass('public.{TABLE}')").fetchone() or (None,)
    if existing:
        return
    print(f"copying the vectors into {TABLE}", file=sys.stderr)
    conn.execute(
        f"CREATE TABLE {TABLE} AS SELECT v.chunk_pk AS id, v.embedding FROM rag.vectors_1 v "
        "WHERE v.collection_id = api.collection_id('default')"
    )
    conn.execute(f"VACUUM ANALYZE {TABLE}")


def exact_top(conn: psycopg.Connection, queries: np.ndarray) -> list[set[int]]:
    conn.execute("SET enable_indexscan = off")
    truth = [
        {row[0] for row in conn.execute(
            f"SELECT id FROM {TABLE} ORDER BY embedding <=> %s LIMIT {K}", (Vector(q),)
        ).fetchall()}
        for q in tqdm(queries, desc="exact top-10", file=sys.stderr)
    ]  # fmt: skip
    conn.execute("RESET enable_indexscan")
    return truth


def build_graph(conn: psycopg.Connection, dims: int, m: int, ef_construction: int) -> float:
    conn.execute(f"DROP INDEX IF EXISTS {INDEX}")
    print(f"building m {m}, ef_construction {ef_construction}", file=sys.stderr)
    started = time.perf_counter()
    conn.execute(
        f"CREATE INDEX {INDEX} ON {TABLE} USING hnsw "
        f"((l2_normalize(embedding)::halfvec({dims})) halfvec_cosine_ops) "
        f"WITH (m = {m}, ef_construction = {ef_construction})"
    )
    return time.perf_counter() - started


def search_graph(
    conn: psycopg.Connection, dims: int, queries: np.ndarray, truth: list[set[int]], ef: int
) -> tuple[float, list[float]]:
    """(p50 ms, recall per query) of the index at this ef_search."""
    conn.execute(f"SET hnsw.ef_search = {ef}")
    sql = (
        f"SELECT id FROM {TABLE} ORDER BY l2_normalize(embedding)::halfvec({dims}) "
        f"<=> l2_normalize(%s)::halfvec({dims}) LIMIT {K}"
    )
    times, recalls = [], []
    for q, expected in zip(queries, truth, strict=True):
        started = time.perf_counter()
        ids = {row[0] for row in conn.execute(sql, (Vector(q),), prepare=True).fetchall()}
        times.append((time.perf_counter() - started) * 1000)
        recalls.append(len(expected & ids) / K)
    return statistics.median(times), recalls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--graphs", default="16:100,16:200", help="m:ef_construction pairs")
    parser.add_argument("--ef-search", default="100,200,400")
    args = parser.parse_args()
    spec = CorpusSpec(args.n, args.dims)
    # held out from the queries bench/search_bench.py times
    queries = query_vectors(spec, 200 + args.queries)[200:]
    graphs = [tuple(int(x) for x in pair.split(":")) for pair in args.graphs.split(",")]
    efs = [int(x) for x in args.ef_search.split(",")]
    rows = []
    with server() as admin, psycopg.connect(corpus_database(admin, spec), autocommit=True) as conn:
        register_vector(conn)
        conn.execute("SET maintenance_work_mem = '4GB'")
        conn.execute("SET max_parallel_maintenance_workers = 1")
        scratch_table(conn)
        truth = exact_top(conn, queries)
        for m, ef_construction in graphs:
            seconds = build_graph(conn, args.dims, m, ef_construction)
            for ef in efs:
                p50, recalls = search_graph(conn, args.dims, queries, truth, ef)
                missed = sum(r < 1 for r in recalls)
                lost = sum(r == 0 for r in recalls)
                recall = float(np.mean(recalls))
                rows.append([m, ef_construction, seconds, ef, p50, recall, missed, lost])
        conn.execute(f"DROP TABLE {TABLE}")
    base = rows[0][4]
    print(f"\n{args.n:,} x {args.dims}, {args.queries} queries, top-{K}, "
          f"{time.strftime('%Y-%m-%d')}")  # fmt: skip
    print_table(
        ["m", "ef_construction", "build s", "ef_search", "p50 ms", "recall@10",
         "queries < 1", "queries at 0", "p50 vs first"],
        [[*row, f"{row[4] / base:.2f}x"] for row in rows],
    )  # fmt: skip


if __name__ == "__main__":
    main()
