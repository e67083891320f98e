"""What the Citus coordinator's hop costs: the same search of one collection (default
100,000 x 384) on one node and on a local cluster (a coordinator and 2 workers, the
collection whole on one of them, the search routed there), p50/p95/p99 over HTTP
(POST /api/rag/search) and in SQL (api.topk with the same plan: on one node, on the
worker holding the collection, and through the coordinator, which sends the call to that
worker), and the answers compared: exact searches on both, and the recall of the default
(approximate) search on each against one node's exact answer.

    python bench/citus_bench.py [--n 100000] [--dims 384] [--queries 300] [--workers 2]
                                [--exact-queries 40]

One node: DATABASE_URL's server, else the embedded one in bench/data (kept between runs).
The cluster: bench/data/cluster (kept between runs; ``ragsearch cluster down`` with
RAG_CLUSTER_DIR=bench/data/cluster stops it, the bench stops it when done), built from the
vendored Citus source once. Both hold the corpus, loaded through ``ragsearch ingest``.
Searches alternate between the two, query by query, so that both see the same machine.
"""

from __future__ import annotations

import argparse
import http.client
import sys
from pathlib import Path
from urllib.parse import urlsplit

import orjson
import psycopg
from pgvector import Vector
from pgvector.psycopg import register_vector
from psycopg.types.json import Jsonb

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.cluster.install import cached_install
from app.cluster.local import COORDINATOR, LocalCluster
from app.db.embedded import DATABASE_NAME
from bench.common import (
    DATA_DIR,
    _stored_chunks,
    bench_settings,
    corpus_database,
    corpus_file,
    ingest,
    percentiles,
    print_table,
    server,
    service,
    timed,
)
from bench.corpus import CorpusSpec, query_vectors

CLUSTER_PORT = 9760  # the coordinator; the workers on the next ports
NODE_MEMORY = "1GB"  # each node's shared_buffers and maintenance_work_mem
AS_OF = "2026-01-01T00:00:00+00:00"
PLAN = """SELECT api.search_plan(%s::vector[], ARRAY['default'], ARRAY[1.0]::float8[], 10,
                              0.8, 0.1, 0.1, '{}', %s, 0, NULL, 'default')::text"""
NOOP = """CREATE OR REPLACE FUNCTION public.bench_noop(p_collection integer, p_text text)
          RETURNS integer LANGUAGE plpgsql AS 'BEGIN RETURN length(p_text); END'"""
NOOP_ROUTED = """SELECT EXISTS (SELECT 1 FROM pg_dist_object
                 WHERE objid = 'public.bench_noop(integer, text)'::regprocedure
                   AND distribution_argument_index IS NOT NULL)"""
NOOP_DISTRIBUTE = """SELECT create_distributed_function('public.bench_noop(integer, text)',
                     'p_collection', colocate_with => 'rag.documents')"""
NOOP_CALL = "SELECT public.bench_noop(1, %s)"
WARM = 20  # searches first, not timed
# (the call alone in its statement: Citus sends only a plain call to the worker)
TOPK = "SELECT api.topk(%s, %s::api.search_plan)"


def cluster_database(spec: CorpusSpec, workers: int) -> tuple[LocalCluster, str]:
    """The local cluster in bench/data/cluster, started, holding the corpus."""
    settings = bench_settings().model_copy(
        update={"cluster_dir": DATA_DIR / "cluster", "cluster_port": CLUSTER_PORT,
                "pg_shared_buffers": NODE_MEMORY, "pg_maintenance_work_mem": NODE_MEMORY,
                "default_dims": spec.dims}
    )  # fmt: skip
    local = LocalCluster(settings)  # (a cluster made before keeps its ports)
    url = local.up(workers)
    stored = _stored_chunks(url)
    if stored == spec.n:
        print(f"reusing the cluster's corpus ({spec.n:,} chunks)")
    elif stored == 0:
        seconds, summary = ingest(url, corpus_file(spec), spec.dims)
        print(f"loaded the cluster in {seconds:.1f} s: {summary}")
    else:
        raise SystemExit(f"{local.folder} holds {stored} chunks, not {spec.n}: delete it")
    return local, url


def search(connection: http.client.HTTPConnection, body: bytes) -> list[tuple[str, float]]:
    connection.request("POST", "/api/rag/search", body, {"Content-Type": "application/json"})
    response = connection.getresponse()
    payload = response.read()
    assert response.status == 200, payload
    return [(row["chunk_id"], row["score"]) for row in orjson.loads(payload)["rows"]]


def holder_url(local: LocalCluster) -> str:
    """The service database on the worker holding the default collection."""
    install = cached_install(local.settings)
    assert install is not None
    with psycopg.connect(local.url, autocommit=True) as conn:
        row = conn.execute(
            """SELECT n.nodeport FROM pg_dist_placement p
               JOIN pg_dist_node n ON n.groupid = p.groupid
               WHERE p.shardid = get_shard_id_for_distribution_column('rag.documents',
                   (SELECT id FROM rag.collections WHERE name = 'default'))"""
        ).fetchone()
    assert row is not None
    node = next(n for n in local.nodes(install) if n.port == row[0] and n.name != COORDINATOR)
    return node.url(DATABASE_NAME)


def sql_timings(
    urls: dict[str, str], queries: list[list[float]]
) -> tuple[dict[str, list[float]], int]:
    """api.topk with each query's plan (made once, on the first database) on every
    database in turn; the timings, and how many answers differed from the first's."""
    conns = {name: psycopg.connect(url, autocommit=True) for name, url in urls.items()}
    timings: dict[str, list[float]] = {name: [] for name in conns}
    differing = 0
    try:
        first = next(iter(conns.values()))
        register_vector(first)
        collection = first.execute("SELECT api.collection_id('default')").fetchone()
        assert collection is not None
        for number, q in enumerate(queries):
            plan = first.execute(PLAN, ([Vector(q)], Jsonb({"as_of": AS_OF}))).fetchone()
            assert plan is not None
            answers: dict[str, list[tuple[str, float]]] = {}
            names = list(conns)
            for name in names[number % len(names) :] + names[: number % len(names)]:
                conn = conns[name]  # each database first in turn
                out: list[object] = []

                def call(
                    c: psycopg.Connection = conn, o: list[object] = out, p: str = plan[0]
                ) -> None:
                    row = c.execute(TOPK, (collection[0], p), prepare=True).fetchone()
                    o.append(row)

                elapsed = timed(call)
                if number >= WARM:
                    timings[name].append(elapsed)
                answers[name] = _rows(out[0])
            differing += any(a != answers[names[0]] for a in answers.values())
    finally:
        for conn in conns.values():
            conn.close()
    return timings, differing


def exactness(urls: dict[str, str], queries: list[list[float]]) -> tuple[int, float, float]:
    """Each query searched exactly (``exact: true``) on one node and on the cluster, and
    as the service searches by default on both: how many exact answers differ (rows, or
    scores by more than 1e-9), and the recall@10 of each default search against one
    node's exact answer."""
    exact = {"as_of": AS_OF, "exact": True}
    with psycopg.connect(urls["one node"], autocommit=True) as one, \
            psycopg.connect(urls["cluster"], autocommit=True) as cluster:  # fmt: skip
        register_vector(one)
        collection = one.execute("SELECT api.collection_id('default')").fetchone()
        assert collection is not None
        differing, found = 0, {"one node": 0, "cluster": 0}
        for q in queries:
            plans = [one.execute(PLAN, ([Vector(q)], Jsonb(options))).fetchone()
                     for options in (exact, {"as_of": AS_OF})]  # fmt: skip
            assert plans[0] is not None
            assert plans[1] is not None
            truth, other = ([_rows(conn.execute(TOPK, (collection[0], plans[0][0])).fetchone())
                             for conn in (one, cluster)])  # fmt: skip
            differing += len(truth) != len(other) or any(
                a[0] != b[0] or abs(a[1] - b[1]) > 1e-9 for a, b in zip(truth, other, strict=False)
            )
            ids = {chunk for chunk, _score in truth}
            for name, conn in (("one node", one), ("cluster", cluster)):
                answer = _rows(conn.execute(TOPK, (collection[0], plans[1][0])).fetchone())
                found[name] += len(ids & {chunk for chunk, _score in answer})
    total = len(queries) * 10
    return differing, found["one node"] / total, found["cluster"] / total


def hop_floor(local: LocalCluster, calls: int = 300) -> list[float]:
    """A routed call of a function that does nothing, through the coordinator (its
    argument as large as a search plan's text): what the hop costs by itself."""
    with psycopg.connect(local.url, autocommit=True) as conn:
        conn.execute(NOOP)
        if conn.execute(NOOP_ROUTED).fetchone() == (False,):
            conn.execute(NOOP_DISTRIBUTE)
        payload = "x" * 8000
        return [timed(lambda: conn.execute(NOOP_CALL, (payload,), prepare=True).fetchone())
                for _ in range(calls)]  # fmt: skip


def _rows(row: object) -> list[tuple[str, float]]:
    assert isinstance(row, tuple)
    answer = row[0] if isinstance(row[0], dict) else orjson.loads(row[0])
    return [(r["chunk_id"], round(r["score"], 9)) for r in answer["rows"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--exact-queries", type=int, default=40, help="exact searches compared")
    args = parser.parse_args()
    spec = CorpusSpec(args.n, args.dims)
    vectors = query_vectors(spec, args.queries + WARM)
    bodies = [orjson.dumps({"embedding": q.tolist(), "k": 10, "as_of": AS_OF})
              for q in vectors]  # fmt: skip
    local, cluster_url = cluster_database(spec, args.workers)
    try:
        with server() as admin:
            single_url = corpus_database(admin, spec)
            urls = {"one node": single_url, "the worker holding it": holder_url(local),
                    "cluster (through the coordinator)": cluster_url}  # fmt: skip
            sql, sql_differing = sql_timings(urls, [q.tolist() for q in vectors])
            floor = hop_floor(local)
            exact_queries = [q.tolist() for q in vectors[: args.exact_queries]]
            checked = exactness({"one node": single_url, "cluster": cluster_url}, exact_queries)
            with service(single_url, RAG_EMBEDDER="none") as single, \
                    service(cluster_url, RAG_EMBEDDER="none") as clustered:  # fmt: skip
                connections = {
                    name: http.client.HTTPConnection(urlsplit(base).netloc)
                    for name, base in (("one node", single), ("cluster", clustered))
                }
                timings: dict[str, list[float]] = {name: [] for name in connections}
                differing = 0
                for warm in bodies[:WARM]:
                    for connection in connections.values():
                        search(connection, warm)
                order = list(connections)
                for number, body in enumerate(bodies[WARM:]):  # interleaved, query by query
                    answers = []
                    for name in order[number % 2 :] + order[: number % 2]:  # each first in turn
                        connection = connections[name]
                        answer: list[tuple[str, float]] = []

                        def call(c: http.client.HTTPConnection = connection, b: bytes = body,
                                 out: list[tuple[str, float]] = answer) -> None:  # fmt: skip
                            out.extend(search(c, b))

                        timings[name].append(timed(call))
                        answers.append(answer)
                    differing += answers[0] != answers[1]
    finally:
        local.down()
    print(f"\n{spec.n:,} chunks x {spec.dims} dims in one collection, {args.queries} searches "
          f"(k=10), {args.workers} workers")  # fmt: skip
    rows = [[f"SQL: {name}", *percentiles(samples)] for name, samples in sql.items()]
    rows.append(["SQL: a routed call doing nothing", *percentiles(floor)])
    rows += [[f"HTTP: {name}", *percentiles(samples)] for name, samples in timings.items()]
    print_table(["path", "p50 ms", "p95 ms", "p99 ms"], rows)
    worker, coordinator = list(sql.values())[1:]
    hop = [c - w for w, c in zip(worker, coordinator, strict=True)]
    http_p50 = [percentiles(samples)[0] for samples in timings.values()]
    print(
        f"the coordinator's hop (SQL, coordinator minus worker, paired), p50: "
        f"{percentiles(hop)[0]:+.3f} ms; HTTP p50 cluster minus one node: "
        f"{http_p50[1] - http_p50[0]:+.3f} ms ({http_p50[1] / http_p50[0]:.2f}x)"
    )
    print(
        f"searches answered differently from one node: SQL {sql_differing} "
        f"(of {args.queries + WARM}), HTTP {differing} (of {args.queries})"
    )
    print(
        f"exact searches (exact: true) answered differently from one node: {checked[0]} "
        f"(of {args.exact_queries}); recall@10 of the default search against one node's "
        f"exact answer: one node {checked[1]:.3f}, cluster {checked[2]:.3f}"
    )


if __name__ == "__main__":
    main()
