"""What the Citus coordinator's hop costs: the same search of one collection (default
100,000 x 384) on one node and on a local cluster (a coordinator and 2 workers, the
collection whole on one of them, the search routed there), p50/p95/p99 over HTTP
(POST /api/rag/search) and the answers compared.

    python bench/citus_bench.py [--n 100000] [--dims 384] [--queries 300] [--workers 2]

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

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.cluster.local import LocalCluster
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    spec = CorpusSpec(args.n, args.dims)
    bodies = [orjson.dumps({"embedding": q.tolist(), "k": 10})
              for q in query_vectors(spec, args.queries)]  # fmt: skip
    local, cluster_url = cluster_database(spec, args.workers)
    try:
        with server() as admin:
            single_url = corpus_database(admin, spec)
            with service(single_url) as single, service(cluster_url) as clustered:
                connections = {
                    name: http.client.HTTPConnection(*base.removeprefix("http://").split(":"))
                    for name, base in (("one node", single), ("cluster", clustered))
                }
                timings: dict[str, list[float]] = {name: [] for name in connections}
                differing = 0
                for warm in bodies[:20]:
                    for connection in connections.values():
                        search(connection, warm)
                for body in bodies:  # interleaved, query by query
                    answers = []
                    for name, connection in connections.items():
                        answer: list[tuple[str, float]] = []

                        def call(c: http.client.HTTPConnection = connection, b: bytes = body,
                                 out: list[tuple[str, float]] = answer) -> None:  # fmt: skip
                            out.extend(search(c, b))

                        timings[name].append(timed(call))
                        answers.append(answer)
                    differing += answers[0] != answers[1]
    finally:
        local.down()
    rows = [[name, *percentiles(samples)] for name, samples in timings.items()]
    single_p50, cluster_p50 = rows[0][1], rows[1][1]
    print(f"\n{spec.n:,} chunks x {spec.dims} dims in one collection, {args.queries} searches "
          f"over HTTP (k=10), {args.workers} workers")  # fmt: skip
    print_table(["database", "p50 ms", "p95 ms", "p99 ms"], rows)
    print(f"coordinator hop, p50: {cluster_p50 - single_p50:+.3f} ms "
          f"({cluster_p50 / single_p50:.2f}x); answers differing: {differing}")  # fmt: skip


if __name__ == "__main__":
    main()
