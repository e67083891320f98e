"""The HNSW build against search latency: ``ragsearch ingest`` and top-10 search per graph.

For each (m, ef_construction) pair, in one run: an empty database whose default space is
registered with that pair, ``ragsearch ingest`` of the corpus (bench/corpus.py) timed
whole, the collection's HNSW index then dropped and built again alone (the build's share
of the load), its size, and the search latency of plain ANN and of ours (the threshold
walk, exact whatever the graph: a cheaper graph costs latency, never rows) with recall
against the full scan. Ratios are to the first pair, so a busy machine tilts them less.

    python bench/index_build_bench.py --n 100000 --dims 384 --graphs 16:200,16:64,16:32
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
import orjson
import psycopg
from pgvector.psycopg import register_vector
from psycopg.types.json import set_json_loads

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (
    corpus_file,
    fresh_database,
    ingest,
    percentiles,
    prewarm,
    print_table,
    server,
)
from bench.corpus import CorpusSpec, query_vectors
from bench.search_bench import Case, K, SqlMethods

DATABASE = "index_build_bench"
MIXES = [(1.0, 0.0, 0.0), (0.5, 0.3, 0.2)]


def _fresh(admin: str, dims: int, m: int, ef_construction: int) -> str:
    """An empty database whose default space builds its graph with (m, ef_construction)."""
    os.environ["RAG_HNSW_M"] = str(m)  # read by the settings the migration registers with
    os.environ["RAG_HNSW_EF_CONSTRUCTION"] = str(ef_construction)
    return fresh_database(admin, DATABASE, dims)


def _rebuild_seconds(conn: psycopg.Connection) -> tuple[float, int]:
    """Drop the default collection's index and build it again: (seconds, index bytes)."""
    space, collection = conn.execute(
        "SELECT (SELECT id FROM rag.spaces WHERE name = 'default'), api.collection_id('default')"
    ).fetchone()
    conn.execute("SELECT api.drop_space_index(%s, %s)", (space, collection))
    started = time.perf_counter()
    conn.execute("SELECT api.create_space_index(%s, %s)", (space, collection))
    seconds = time.perf_counter() - started
    (size,) = conn.execute(
        "SELECT pg_relation_size(format('rag.%%I', api.hnsw_index(%s, %s))::regclass)",
        (space, collection),
    ).fetchone()
    return seconds, int(size)


def _search(conn: psycopg.Connection, queries: np.ndarray, scans: int) -> dict[str, dict]:
    """Per mix: latencies of ann and ours, recall of ours against the scan."""
    register_vector(conn)
    set_json_loads(orjson.loads, conn)
    methods = SqlMethods(conn, 100, queries.shape[1])
    (collection_id,) = conn.execute("SELECT api.collection_id('default')").fetchone()
    out = {}
    for weights in MIXES:
        case = Case("/".join(map(str, weights)), weights, collection_id=collection_id)
        for q in queries[:5]:  # warm-up
            methods.ann(case, q), methods.ours(case, q)
        times: dict[str, list[float]] = {"ann": [], "ours": []}
        recalls = []
        for i, q in enumerate(queries):
            for name, call in (("ann", methods.ann), ("ours", methods.ours)):
                started = time.perf_counter()
                ids = call(case, q)
                times[name].append((time.perf_counter() - started) * 1000)
            if i < scans:
                recalls.append(len(set(methods.scan(case, q)) & set(ids)) / K)
        out[case.name] = {"times": times, "recall": float(np.mean(recalls))}
    return out


def _binary_prototype(
    conn: psycopg.Connection, queries: np.ndarray, m: int, ef_construction: int,
    windows: list[int],
) -> tuple[tuple[str, float, float], list[list[object]]]:  # fmt: skip
    """A Hamming HNSW index over binary_quantize(embedding) beside the halfvec one: its
    build, size, and per candidate window the latency and recall of the window re-scored
    with the full vectors (plain top-10 by cosine), against the halfvec ANN."""
    dims = queries.shape[1]
    partition, collection = conn.execute(
        "SELECT api.vector_partition(s.id, api.collection_id('default')),"
        " api.collection_id('default') FROM rag.spaces s WHERE s.name = 'default'"
    ).fetchone()
    code = f"binary_quantize(embedding)::bit({dims})"
    started = time.perf_counter()
    conn.execute(
        f"CREATE INDEX bench_binary ON rag.{partition} USING hnsw (({code}) bit_hamming_ops)"
        f" WITH (m = {m}, ef_construction = {ef_construction})"
    )
    build = time.perf_counter() - started
    (size,) = conn.execute("SELECT pg_relation_size('rag.bench_binary')").fetchone()
    (n,) = conn.execute(f"SELECT count(*) FROM rag.{partition}").fetchone()
    conn.execute("SET hnsw.iterative_scan = relaxed_order")
    truth_sql = (
        f"SELECT chunk_pk FROM rag.{partition} ORDER BY embedding <=> %(q)s, chunk_pk LIMIT {K}"
    )
    halfvec_sql = (
        f"SELECT chunk_pk FROM rag.{partition} ORDER BY l2_normalize(embedding)::halfvec({dims})"
        f" <=> l2_normalize(%(q)s)::halfvec({dims}) LIMIT {K}"
    )
    window_sql = (
        f"SELECT chunk_pk FROM (SELECT chunk_pk, embedding FROM rag.{partition}"
        f" ORDER BY {code} <~> binary_quantize(%(q)s)::bit({dims}) LIMIT %(w)s) c"
        f" ORDER BY embedding <=> %(q)s, chunk_pk LIMIT {K}"
    )
    truths = []
    conn.execute("SET enable_indexscan = off")
    for q in queries:
        truths.append({r[0] for r in conn.execute(truth_sql, {"q": q}).fetchall()})
    conn.execute("RESET enable_indexscan")
    runs: list[tuple[str, str, int]] = [("halfvec ANN", halfvec_sql, 100)]
    runs += [(f"binary, {w} re-scored", window_sql, w) for w in windows]
    rows: list[list[object]] = []
    base = 0.0
    for name, sql, window in runs:
        conn.execute(f"SET hnsw.ef_search = {max(window, 40)}")
        times, recalls = [], []
        for q in queries:
            started = time.perf_counter()
            ids = {r[0] for r in conn.execute(sql, {"q": q, "w": window}, prepare=True)}
            times.append((time.perf_counter() - started) * 1000)
        for q, truth in zip(queries, truths, strict=True):
            ids = {r[0] for r in conn.execute(sql, {"q": q, "w": window}).fetchall()}
            recalls.append(len(ids & truth) / K)
        p50, p95, p99 = percentiles(times)
        base = base or p50
        rows.append([name, p50, p95, p99, f"{p50 / base:.2f}x", f"{np.mean(recalls):.3f}",
                     f"{min(recalls):.1f}"])  # fmt: skip
    conn.execute("DROP INDEX rag.bench_binary")
    print(f"binary index m {m}, ef_construction {ef_construction}: built in {build:.1f} s, "
          f"{size / n:.0f} bytes/chunk (collection {collection})")  # fmt: skip
    return (f"binary {m}/{ef_construction}", build, size / n), rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--graphs", default="16:200,16:64,16:32",
                        help="m:ef_construction pairs; the first is the base")  # fmt: skip
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--scans", type=int, default=30, help="queries also checked by a scan")
    parser.add_argument("--binary", default="",
                        help="m:ef_construction pairs of a prototype binary index, built on "
                             "the first graph's database")  # fmt: skip
    parser.add_argument("--windows", default="100,400,1000",
                        help="candidate windows the binary prototype re-scores")  # fmt: skip
    args = parser.parse_args()
    spec = CorpusSpec(args.n, args.dims)
    queries = query_vectors(spec, args.queries)
    path = corpus_file(spec)
    results = []
    binary: list[tuple[tuple[str, float, float], list[list[object]]]] = []
    with server() as admin:
        for pair in args.graphs.split(","):
            m, ef_construction = map(int, pair.split(":"))
            url = _fresh(admin, args.dims, m, ef_construction)
            print(f"m {m}, ef_construction {ef_construction}: loading {path.name}", file=sys.stderr)
            seconds, _ = ingest(url, path, args.dims, "always")
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("SET maintenance_work_mem = '4GB'")
                conn.execute("SET max_parallel_maintenance_workers = 1")  # as ingest does
                build, size = _rebuild_seconds(conn)
                prewarm(conn)
                searches = _search(conn, queries, args.scans)
                for pair in filter(None, args.binary.split(",") if not results else []):
                    bm, bef = map(int, pair.split(":"))
                    windows = [int(w) for w in args.windows.split(",")]
                    binary.append(_binary_prototype(conn, queries, bm, bef, windows))
            results.append((m, ef_construction, seconds, build, size, searches))
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
    report(args.n, args.dims, args.queries, args.scans, results)
    for (name, build, per_chunk), rows in binary:
        print(f"\n### {name} prototype: built in {build:.1f} s "
              f"({build / results[0][3]:.2f}x the first graph), {per_chunk:.0f} bytes/chunk "
              f"({per_chunk * args.n / results[0][4]:.2f}x); plain top-10, recall against "
              "the float32 order")  # fmt: skip
        print_table(["search", "p50 ms", "p95 ms", "p99 ms", "vs halfvec", "recall@10",
                     "worst query"], rows)  # fmt: skip


def report(n: int, dims: int, queries: int, scans: int, results: list[tuple]) -> None:  # type: ignore[type-arg]
    print(f"\n{n:,} chunks x {dims} dims, {queries} queries ({scans} checked by the scan), "
          f"ef_search 100, k={K}, {time.strftime('%Y-%m-%d')}")  # fmt: skip
    base = results[0]
    rows = []
    for m, ef_c, seconds, build, size, _ in results:
        rows.append([f"{m}/{ef_c}", seconds, n / seconds, f"{base[2] / seconds:.2f}x",
                     build, f"{build / seconds:.0%}", f"{build / base[3]:.2f}x",
                     f"{size / n:.0f}"])  # fmt: skip
    print("\n### ragsearch ingest and the HNSW build (m / ef_construction)")
    print_table(["graph", "ingest s", "chunks/s", "vs first", "build s", "build share",
                 "build vs first", "index bytes/chunk"], rows)  # fmt: skip
    for mix in base[5]:
        rows = []
        base_p50 = float(np.median(base[5][mix]["times"]["ours"]))
        for m, ef_c, *_, searches in results:
            s = searches[mix]
            ann, ours = percentiles(s["times"]["ann"]), percentiles(s["times"]["ours"])
            rows.append([f"{m}/{ef_c}", *ann, *ours, f"{ours[0] / ann[0]:.1f}x",
                         f"{ours[0] / base_p50:.2f}x", f"{s['recall']:.3f}"])  # fmt: skip
        print(f"\n### search, weights {mix}")
        print_table(["graph", "ann p50", "ann p95", "ann p99", "ours p50", "ours p95",
                     "ours p99", "ours / ann", "ours vs first", "recall@10"], rows)  # fmt: skip


if __name__ == "__main__":
    main()
