"""Exact weighted top-k against the naive ways, on synthetic corpora.

    python bench/search_bench.py --n 1000000 --dims 384            # SQL, then HTTP
    python bench/search_bench.py --n 100000 --dims 1536 --mode sql
    python bench/search_bench.py --n 1000000 --mode http --soak 300

The corpus (bench/corpus.py) is built once through ``ragsearch ingest`` into a database
of its own on the embedded server in bench/data (or DATABASE_URL's server) and reused;
``--database D --collection C`` (SQL mode) reads it from collection C of an existing
database on the same server instead (split_bench.py's whole 1M collection:
``--database split_synth_v4_1000000x384_s0 --collection split``).

SQL mode, query by query and method by method (interleaved), for each weight mix
(w_cos, w_rec, w_sig), for a selective filter (tags_any, 1% of the rows), and for a
collection holding 1% as many rows as the corpus (collection ``slice``, added to the same
database, a copy of the corpus's first rows):
  ann       plain HNSW top-10 by cosine (the floor: what a pure vector search costs),
            at the same ef_search as ours;
  scan      the exact full scan: one SQL statement scoring every row (the ground truth);
  rescored  the usual shortcut: the ANN top-1000, re-scored, best 10;
  ours      api.rag_topk_weighted, default mode (threshold, falling back to a scan);
  ours_exact  api.rag_topk_weighted with exact: true.
It prints p50/p95/p99 latency, recall@10 against the scan, and p50 / ann p50.
``--peers`` adds, for the weight mixes, engines a user would pick instead, run in this
process on the same vectors and interleaved with the others (bench/peers.py; needs
``pip install -e '.[bench]'``): hnsw_mem (FAISS HNSW in memory, the raw floor), lancedb
(its plain top-10) and lancedb_rescored_100/1000 (its top-N re-scored with recency and
signal, best 10).

HTTP mode drives a running ``ragsearch serve`` with wrk (Debian package ``wrk``) on
127.0.0.1 at concurrency 1, 5, 20 and 50, for POST /api/rag/search and for the plain-ANN
endpoint POST /api/rag/search/space/default, and reports p50/p99 and requests/s;
``--soak S`` adds an S-second run at concurrency 20 and reports the server's memory.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import orjson
import psycopg
from pgvector import Vector
from pgvector.psycopg import register_vector
from psycopg.types.json import Jsonb, set_json_loads

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (
    DATA_DIR,
    corpus_database,
    corpus_file,
    ingest,
    percentiles,
    prewarm,
    print_table,
    rotated,
    server,
    with_database,
)
from bench.corpus import CorpusSpec, query_vectors
from bench.http_load import run_http
from bench.peers import PeerSearch, peer_searches

MIXES = [(1.0, 0.0, 0.0), (0.8, 0.1, 0.1), (0.5, 0.3, 0.2), (0.2, 0.6, 0.2), (0.0, 1.0, 0.0),
         (0.34, 0.33, 0.33)]  # fmt: skip
FILTER_MIX = (0.5, 0.3, 0.2)
FILTER_TAG = "t07"  # one tag in a hundred: 1% of the rows
K = 10
METHODS = ["ann", "scan", "rescored", "ours", "ours_exact"]

OURS = (
    "SELECT api.rag_topk_weighted(%b, ARRAY['default'], ARRAY[1.0]::float8[], "
    "%s, %s, %s, %s, %s, %s, p_collection => %s)"
)
SLICE = "slice"
SLICE_SHARE = 0.01
REC = "1.0 / (1.0 + greatest(0, (%(now)s - date_part('epoch', c.created_at)) / 86400.0))"
SCORE = (
    "(%(w_cos)s * (1 - (v.embedding <=> %(q)s)) + %(w_rec)s * " + REC + " + %(w_sig)s * c.signal)"
)


@dataclass
class Case:
    name: str
    weights: tuple[float, float, float]
    filter_tag: str | None = None
    collection: str = "default"
    collection_id: int = 0  # set by run_sql
    times: dict[str, list[float]] = field(default_factory=lambda: {m: [] for m in METHODS})
    recalls: dict[str, list[float]] = field(default_factory=lambda: {m: [] for m in METHODS})
    fallbacks: int = 0


def _filter_sql(case: Case) -> str:
    in_collection = f"c.collection_id = {case.collection_id}"
    return (
        f"{in_collection} AND c.tags && ARRAY['{case.filter_tag}']"
        if case.filter_tag
        else in_collection
    )


def _timed(fn: Callable[[], list[str]]) -> tuple[float, list[str]]:
    started = time.perf_counter()
    rows = fn()
    return (time.perf_counter() - started) * 1000, rows


class SqlMethods:
    def __init__(self, conn: psycopg.Connection, ef_search: int, dims: int) -> None:
        self.conn = conn
        self.ef_search = ef_search
        self.now = time.time()
        # The form the HNSW index is built on (normalised halfvec): what any plain
        # nearest-neighbour query must order by to use it.
        self.ann_order = (
            f"l2_normalize(v.embedding)::halfvec({dims}) <=> l2_normalize(%(q)s)::halfvec({dims})"
        )

    def _ids(self, sql: str, params: dict) -> list[str]:
        return [row[0] for row in self.conn.execute(sql, params, prepare=True).fetchall()]

    def ann(self, case: Case, q: np.ndarray) -> list[str]:
        self.conn.execute(f"SET hnsw.ef_search = {self.ef_search}")
        self.conn.execute(
            f"SET hnsw.iterative_scan = {'relaxed_order' if case.filter_tag else 'off'}"
        )
        join = "JOIN rag.chunks c ON c.id = v.chunk_pk WHERE " + _filter_sql(case)
        partition = f"WHERE v.collection_id = {case.collection_id}"  # its own HNSW index
        sql = (
            "SELECT c.chunk_id FROM (SELECT v.chunk_pk FROM rag.vectors_1 v "
            f"{join if case.filter_tag else partition} ORDER BY {self.ann_order} LIMIT {K}) n "
            f"JOIN rag.chunks c ON c.id = n.chunk_pk"
        )
        return self._ids(sql, {"q": Vector(q)})

    def scan(self, case: Case, q: np.ndarray) -> list[str]:
        w_cos, w_rec, w_sig = case.weights
        sql = (
            f"SELECT c.chunk_id FROM rag.chunks c JOIN rag.vectors_1 v ON v.chunk_pk = c.id "
            f"AND v.collection_id = c.collection_id "
            f"WHERE {_filter_sql(case)} ORDER BY {SCORE} DESC, c.chunk_id LIMIT {K}"
        )
        params = {"q": Vector(q), "now": self.now, "w_cos": w_cos, "w_rec": w_rec, "w_sig": w_sig}
        return self._ids(sql, params)

    def rescored(self, case: Case, q: np.ndarray) -> list[str]:
        w_cos, w_rec, w_sig = case.weights
        self.conn.execute("SET hnsw.ef_search = 1000")
        self.conn.execute("SET hnsw.iterative_scan = relaxed_order")
        sql = (
            f"SELECT c.chunk_id FROM (SELECT v.chunk_pk, v.embedding FROM rag.vectors_1 v "
            f"JOIN rag.chunks c ON c.id = v.chunk_pk AND c.collection_id = v.collection_id "
            f"WHERE v.collection_id = {case.collection_id} AND {_filter_sql(case)} "
            f"ORDER BY {self.ann_order} LIMIT 1000) v JOIN rag.chunks c ON c.id = v.chunk_pk "
            f"ORDER BY {SCORE} DESC, c.chunk_id LIMIT {K}"
        )
        params = {"q": Vector(q), "now": self.now, "w_cos": w_cos, "w_rec": w_rec, "w_sig": w_sig}
        return self._ids(sql, params)

    def ours(self, case: Case, q: np.ndarray, exact: bool = False) -> list[str]:
        filters = {"tags_any": [case.filter_tag]} if case.filter_tag else {}
        # Ages measured from the same instant as the scan's, so exact means identical.
        as_of = datetime.fromtimestamp(self.now, UTC).isoformat()
        options = {"ef_search": self.ef_search, "exact": exact, "as_of": as_of}
        row = self.conn.execute(
            OURS,
            ([Vector(q)], K, *case.weights, Jsonb(filters), Jsonb(options), case.collection),
            prepare=True,
        ).fetchone()
        result = row[0]
        if result["meta"].get("fell_back"):
            case.fallbacks += 1
        return [r["chunk_id"] for r in result["rows"]]


def add_slice(url: str, spec: CorpusSpec) -> None:
    """Collection ``slice``: the corpus's first rows, 1% as many, in the same database
    (built once; reused while it holds that many)."""
    wanted = max(1, int(spec.n * SLICE_SHARE))
    with psycopg.connect(url, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM rag.collections WHERE name = %s", (SLICE,)).fetchone():
            conn.execute("SELECT api.create_collection(%s, %s)", (SLICE, "1% of the rows"))
        stored = conn.execute(
            "SELECT count(*) FROM rag.chunks WHERE collection_id = api.collection_id(%s)", (SLICE,)
        ).fetchone()[0]
    if stored == wanted:
        print(f"reusing collection {SLICE} ({wanted:,} chunks)")
        return
    path = DATA_DIR / f"{spec.name}.{SLICE}.jsonl"
    with corpus_file(spec).open() as source, path.open("w") as out:
        left = wanted
        for line in source:
            document = json.loads(line)
            chunks = document["chunks"][:left]
            out.write(json.dumps({**document, "chunks": chunks, "collection": SLICE}) + "\n")
            left -= len(chunks)
            if left == 0:
                break
    seconds, summary = ingest(url, path, spec.dims)
    print(f"built collection {SLICE} in {seconds:.1f} s: {summary}")


def _holds_the_corpus(conn: psycopg.Connection, collection: str, spec: CorpusSpec) -> None:
    """The queries are drawn for --n/--dims: the collection must hold that corpus."""
    held = conn.execute(
        "SELECT count(*) FROM rag.chunks WHERE collection_id = api.collection_id(%s)", (collection,)
    ).fetchone()[0]
    if held != spec.n:
        raise SystemExit(f"collection {collection!r} holds {held:,} chunks, not --n {spec.n:,}")


def method_order(names: list[str], i: int) -> list[str]:
    """A case's methods for query ``i``: the scan first (the truth the others' recall is
    counted against), then the others from the ``i``-th on, so that none always runs
    right after the scan (its pages in the caches, not the index's) or right after a
    search of the same vector (warm)."""
    return [*(n for n in names if n == "scan"), *rotated([n for n in names if n != "scan"], i)]


def run_sql(conn: psycopg.Connection, queries: np.ndarray, scan_queries: int,
            ef_search: int, only: str | None = None,
            peers: dict[str, PeerSearch] | None = None,
            collection: str = "default") -> list[Case]:  # fmt: skip
    register_vector(conn)
    set_json_loads(orjson.loads, conn)  # as the service reads the ranking's answer
    methods = SqlMethods(conn, ef_search, queries.shape[1])
    cases = [Case(f"{w[0]}/{w[1]}/{w[2]}", w, collection=collection) for w in MIXES]
    mix = f"{FILTER_MIX[0]}/{FILTER_MIX[1]}/{FILTER_MIX[2]}"
    cases.append(Case(f"{mix} + 1% filter", FILTER_MIX, FILTER_TAG, collection=collection))
    cases.append(Case(f"{mix} in a 1% collection", FILTER_MIX, collection=SLICE))
    cases = [case for case in cases if only is None or only in case.name]
    if not cases:
        raise SystemExit(f"--cases {only!r} matches no case")
    for case in cases:
        (case.collection_id,) = conn.execute(
            "SELECT api.collection_id(%s)", (case.collection,)
        ).fetchone()
    calls = {
        "ann": methods.ann, "scan": methods.scan, "rescored": methods.rescored,
        "ours": methods.ours, "ours_exact": lambda c, q: methods.ours(c, q, exact=True),
    }  # fmt: skip
    for name, search in (peers or {}).items():  # on the corpus's collection, unfiltered
        calls[name] = lambda c, q, search=search: search(c.weights, q, methods.now)
        for case in cases:
            if case.filter_tag is None and case.collection == collection:
                case.times[name], case.recalls[name] = [], []
    for q in queries[:5]:  # warm-up, not measured
        for case in cases:
            for name in ("ann", "rescored", "ours", *(peers or {})):
                if name in case.times:
                    calls[name](case, q)
    for i, q in enumerate(queries):
        for case in rotated(cases, i):
            truth = None
            names = [name for name in case.times
                     if name not in ("scan", "ours_exact") or i < scan_queries]  # fmt: skip
            for name in method_order(names, i):
                ms, ids = _timed(lambda name=name, case=case, q=q: calls[name](case, q))
                case.times[name].append(ms)
                if name == "scan":
                    truth = set(ids)
                if truth is not None:
                    case.recalls[name].append(len(truth & set(ids)) / K)
        print(f"\rquery {i + 1}/{len(queries)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return cases


def report_sql(cases: list[Case]) -> dict[str, dict]:
    summary = {}
    for case in cases:
        floor = float(np.median(case.times["ann"]))
        rows = []
        for name in case.times:
            p50, p95, p99 = percentiles(case.times[name])
            recall = float(np.mean(case.recalls[name])) if case.recalls[name] else float("nan")
            rows.append([name, p50, p95, p99, f"{recall:.3f}", f"{p50 / floor:.1f}x"])
        print(f"\n### weights {case.name}  (threshold fell back to a scan {case.fallbacks} times)")
        print_table(["method", "p50 ms", "p95 ms", "p99 ms", "recall@10", "p50 / ann"], rows)
        summary[case.name] = {
            name: {"p50": float(np.median(case.times[name])),
                   "recall": float(np.mean(case.recalls[name])) if case.recalls[name] else None}
            for name in case.times
        }  # fmt: skip
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--scan-queries", type=int, default=None,
                        help="queries that also run the two scans (default: all up to 100k "
                             "rows, 50 above)")  # fmt: skip
    parser.add_argument("--ef-search", type=int, default=100)
    parser.add_argument("--cases", default=None,
                        help="run only the SQL cases whose name holds this text, "
                             "e.g. '1%% collection'")  # fmt: skip
    parser.add_argument("--mode", choices=["sql", "http", "all"], default="all")
    parser.add_argument("--seconds", type=int, default=10, help="wrk run length")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--soak", type=int, default=0, help="memory soak seconds (HTTP)")
    parser.add_argument(
        "--database",
        default=None,
        help="SQL mode: an existing database on the same server holding the "
        "corpus (e.g. split_bench.py's), instead of building one",
    )
    parser.add_argument("--collection", default="default",
                        help="SQL mode: the collection holding the corpus")  # fmt: skip
    parser.add_argument("--peers", action="store_true",
                        help="SQL mode: add the in-process peers (FAISS, LanceDB)")  # fmt: skip
    args = parser.parse_args()
    if (args.database or args.collection != "default") and args.mode != "sql":
        parser.error("--database and --collection are for --mode sql")
    spec = CorpusSpec(args.n, args.dims)
    queries = query_vectors(spec, args.queries)
    scan_queries = args.scan_queries or (args.queries if args.n <= 100_000 else 50)
    with server() as admin:
        url = with_database(admin, args.database) if args.database else corpus_database(admin, spec)
        add_slice(url, spec)
        with psycopg.connect(url, autocommit=True) as conn:
            _holds_the_corpus(conn, args.collection, spec)
            prewarm(conn)
            print(f"\n{spec.n:,} chunks x {spec.dims} dims, {args.queries} queries "
                  f"({scan_queries} with the scans), k={K}, ef_search {args.ef_search}, "
                  f"{time.strftime('%Y-%m-%d')}")  # fmt: skip
            if args.mode in ("sql", "all"):
                peers = peer_searches(conn, args.ef_search, DATA_DIR) if args.peers else None
                cases = run_sql(conn, queries, scan_queries, args.ef_search, args.cases, peers,
                                args.collection)  # fmt: skip
                report_sql(cases)
        if args.mode in ("http", "all"):
            run_http(
                url, queries, args.seconds, args.workers, args.soak, args.ef_search, FILTER_MIX
            )


if __name__ == "__main__":
    main()
