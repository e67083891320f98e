"""A collection split over the workers of a cluster against the same collection whole on
one node: one corpus (default 1,000,000 x 384) in collection "split", stored whole on one
PostgreSQL and as --parts parts on a local Citus cluster (a coordinator and --workers
workers, each part on another worker), searched through the service (POST
/api/rag/search) on both, query by query in turn: p50/p95/p99 per weight mix, and
recall@10 of each side's default (approximate) search against one node's exact answer
(``exact: true``, a full scan), and how many exact answers differ between the sides.

    python bench/split_bench.py [--n 1000000] [--dims 384] [--queries 200] [--parts 2]
                                [--workers 2] [--exact-queries 50]

One node: the embedded server in bench/data (database split_<corpus>, kept between runs).
The cluster: bench/data/cluster-split (kept between runs and stopped when done; delete
the folder to load it again). Both load one file (bench/data, written once) through
``ragsearch ingest``, so that their chunks are the same to the second.
"""

from __future__ import annotations

import argparse
import http.client
import sys
from pathlib import Path
from urllib.parse import urlsplit

import orjson
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.cluster.local import LocalCluster
from bench.common import (
    DATA_DIR,
    bench_settings,
    fresh_database,
    ingest,
    percentiles,
    print_table,
    server,
    service,
    timed,
    with_database,
)
from bench.corpus import CorpusSpec, query_vectors, write_jsonl

CLUSTER_PORT = 9780  # the coordinator; the workers on the next ports
NODE_MEMORY = "1GB"  # each node's shared_buffers and maintenance_work_mem
COLLECTION = "split"
AS_OF = "2026-01-01T00:00:00+00:00"
WARM = 20  # searches first, not timed
MIXES = {"1.0/0.0/0.0": (1.0, 0.0, 0.0), "0.5/0.3/0.2": (0.5, 0.3, 0.2)}
HELD = """SELECT count(*) FROM rag.chunks WHERE collection_id = ANY(
              SELECT id FROM rag.collections WHERE name = %(name)s OR part_of =
                  (SELECT id FROM rag.collections WHERE name = %(name)s))"""


def corpus(spec: CorpusSpec) -> Path:
    """The corpus in collection "split", written once (base64 vectors: the quickest load)."""
    path = DATA_DIR / f"{spec.name}.{COLLECTION}.base64.jsonl"
    if not path.exists():
        DATA_DIR.mkdir(parents=True, exist_ok=True)
        write_jsonl(spec, str(path), "base64",
                    lambda body, _index: body.update(collection=COLLECTION))  # fmt: skip
    return path


def held(url: str) -> int | None:
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            row = conn.execute(HELD, {"name": COLLECTION}).fetchone()
            return None if row is None else int(row[0])
    except psycopg.Error:
        return None


def loaded(url: str, spec: CorpusSpec, parts: int, fresh: bool) -> None:
    """The corpus in ``url``'s collection "split" (made with ``parts`` parts), loaded
    unless it is there."""
    if not fresh and held(url) == spec.n:
        print(f"reusing {url}'s corpus ({spec.n:,} chunks)")
        return
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT api.create_collection(%s, '', %s)", (COLLECTION, parts))
    seconds, summary = ingest(url, corpus(spec), spec.dims)
    print(f"loaded {url} in {seconds:.1f} s: {summary}")


def one_node(admin: str, spec: CorpusSpec) -> str:
    url = with_database(admin, f"split_{spec.name}")
    if held(url) == spec.n:
        loaded(url, spec, 1, fresh=False)
        return url
    loaded(fresh_database(admin, f"split_{spec.name}", spec.dims), spec, 1, fresh=True)
    return url


def cluster(spec: CorpusSpec, workers: int, parts: int) -> tuple[LocalCluster, str]:
    settings = bench_settings().model_copy(
        update={"cluster_dir": DATA_DIR / "cluster-split", "cluster_port": CLUSTER_PORT,
                "pg_shared_buffers": NODE_MEMORY, "pg_maintenance_work_mem": NODE_MEMORY,
                "default_dims": spec.dims}
    )  # fmt: skip
    local = LocalCluster(settings)
    url = local.up(workers)
    stored = held(url)
    if stored not in (None, 0, spec.n):
        raise SystemExit(f"{local.folder} holds {stored} chunks, not {spec.n}: delete it")
    loaded(url, spec, parts, fresh=stored != spec.n)
    return local, url


def search(connection: http.client.HTTPConnection, body: bytes) -> dict[str, object]:
    connection.request("POST", "/api/rag/search", body, {"Content-Type": "application/json"})
    response = connection.getresponse()
    payload = response.read()
    assert response.status == 200, payload
    answer: dict[str, object] = orjson.loads(payload)
    return answer


def rows(answer: dict[str, object]) -> list[tuple[str, float]]:
    found = answer["rows"]
    assert isinstance(found, list)
    return [(row["chunk_id"], row["score"]) for row in found]


def body(q: list[float], mix: tuple[float, float, float], **more: object) -> bytes:
    w_cos, w_rec, w_sig = mix
    return orjson.dumps({"embedding": q, "k": 10, "as_of": AS_OF, "collection": COLLECTION,
                         "w_cos": w_cos, "w_rec": w_rec, "w_sig": w_sig, **more})  # fmt: skip


def timings(
    sides: dict[str, http.client.HTTPConnection], queries: list[list[float]],
    mix: tuple[float, float, float],
) -> dict[str, list[float]]:  # fmt: skip
    """Each query on each side, each side first in turn."""
    found: dict[str, list[float]] = {name: [] for name in sides}
    names = list(sides)
    for number, q in enumerate(queries):
        payload = body(q, mix)
        for name in names[number % 2 :] + names[: number % 2]:
            connection = sides[name]
            elapsed = timed(lambda c=connection, b=payload: search(c, b))  # type: ignore[misc]
            if number >= WARM:
                found[name].append(elapsed)
    return found


def exactness(
    sides: dict[str, http.client.HTTPConnection], queries: list[list[float]],
    mix: tuple[float, float, float],
) -> tuple[int, dict[str, float]]:  # fmt: skip
    """How many exact answers differ between the sides (rows, or scores by more than
    1e-9), and each side's recall@10 against one node's exact answer."""
    differing, hits = 0, dict.fromkeys(sides, 0)
    one, split = sides.values()
    for q in queries:
        truth = rows(search(one, body(q, mix, exact=True)))
        other = rows(search(split, body(q, mix, exact=True)))
        differing += len(truth) != len(other) or any(
            a[0] != b[0] or abs(a[1] - b[1]) > 1e-9 for a, b in zip(truth, other, strict=False)
        )
        expected = {chunk for chunk, _ in truth}
        for name, connection in sides.items():
            hits[name] += len(expected & {c for c, _ in rows(search(connection, body(q, mix)))})
    return differing, {name: n / (10 * len(queries)) for name, n in hits.items()}


def node_sizes(local: LocalCluster) -> list[list[object]]:
    """Each worker's chunks and the size of its database."""
    with psycopg.connect(local.url, autocommit=True) as conn:
        chunks: dict[int, object] = dict(conn.execute(
            """SELECT nodeport, sum(result::bigint) FROM run_command_on_placements(
                   'rag.chunks', 'SELECT count(*) FROM %s') GROUP BY nodeport"""
        ).fetchall())  # fmt: skip
        sizes = conn.execute(
            """SELECT nodeport, pg_size_pretty(result::bigint) FROM run_command_on_workers(
                   'SELECT pg_database_size(current_database())') ORDER BY nodeport"""
        ).fetchall()
    return [[f"worker :{port}", f"{int(str(chunks.get(port, 0))):,}", size] for port, size in sizes]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--parts", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--exact-queries", type=int, default=50)
    args = parser.parse_args()
    spec = CorpusSpec(args.n, args.dims)
    queries = [q.tolist() for q in query_vectors(spec, args.queries + WARM)]
    local, cluster_url = cluster(spec, args.workers, args.parts)
    table, recalls = [], []
    try:
        with server() as admin:
            single_url = one_node(admin, spec)
            with service(single_url, RAG_EMBEDDER="none") as single, \
                    service(cluster_url, RAG_EMBEDDER="none") as clustered:  # fmt: skip
                sides = {
                    "one node, whole": http.client.HTTPConnection(urlsplit(single).netloc),
                    f"cluster, {args.parts} parts": http.client.HTTPConnection(
                        urlsplit(clustered).netloc
                    ),
                }
                for label, mix in MIXES.items():
                    found = timings(sides, queries, mix)
                    base = percentiles(next(iter(found.values())))[0]
                    for name, samples in found.items():
                        p50, p95, p99 = percentiles(samples)
                        table.append([label, name, p50, p95, p99, f"{p50 / base:.2f}x"])
                    checked = exactness(sides, queries[: args.exact_queries], mix)
                    recalls.append((label, *checked))
        sizes = node_sizes(local)
    finally:
        local.down()
    print(
        f"\n{spec.n:,} chunks x {spec.dims} dims in one collection; {args.queries} searches "
        f"(k=10) per mix over HTTP; the cluster: {args.workers} workers, {args.parts} parts"
    )
    headers = ["w_cos/w_rec/w_sig", "collection", "p50 ms", "p95 ms", "p99 ms", "p50 vs one node"]
    print_table(headers, table)
    print_table(
        ["w_cos/w_rec/w_sig", "exact answers differing", *[f"recall@10 {n}" for n in sides]],
        [[label, f"{differing} of {args.exact_queries}", *[f"{r:.3f}" for r in found.values()]]
         for label, differing, found in recalls],
    )  # fmt: skip
    print_table(["worker", "chunks", "database size"], sizes)


if __name__ == "__main__":
    main()
