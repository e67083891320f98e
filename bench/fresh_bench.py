"""Searching a collection the moment its load returns, before any ANALYZE.

    python bench/fresh_bench.py --n 60000 --dims 384

Loads a synthetic corpus (bench/corpus.py) into a fresh database through
``POST /api/rag/documents`` (a running ``ragsearch serve``, 4 senders), then, as soon as
the last document is acknowledged, runs the same queries through ``POST /api/rag/search``
in default mode and with ``exact: true``, query by query (interleaved), weights
0.5/0.3/0.2. It prints whether the table had been analyzed when the first search ran
(``pg_class.reltuples`` -1 means never), the strategy each mode chose, p50/p95 and the
ratio exact / default. Autovacuum is held off for the service's tables, as in the
first minute after a load. ``--after-analyze`` repeats the searches after ``ANALYZE``.
"""

from __future__ import annotations

import argparse
import base64
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import psycopg
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import fresh_database, percentiles, print_table, server, service
from bench.corpus import CorpusSpec, documents, query_vectors

MIX = (0.5, 0.3, 0.2)
K = 10


def _b64(vector: np.ndarray) -> str:
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode()


def _wire(body: dict[str, Any]) -> dict[str, Any]:
    chunks = [{**c, "created_at": c["created_at"].isoformat(), "embedding": _b64(c["embedding"])}
              for c in body["chunks"]]  # fmt: skip
    return {**body, "chunks": chunks}


def hold_autovacuum(url: str) -> None:
    """Autovacuum off for the service's tables, so the searches below see the statistics of
    a load younger than autovacuum's next visit, every run."""
    sql = ("SELECT format('ALTER TABLE %I.%I SET (autovacuum_enabled = off)', n.nspname, "
           "c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
           "WHERE n.nspname = 'rag' AND c.relkind = 'r'")  # fmt: skip
    with psycopg.connect(url, autocommit=True) as conn:
        for (statement,) in conn.execute(sql).fetchall():
            conn.execute(statement)


def load(client: httpx.Client, spec: CorpusSpec) -> float:
    """Every document through the API; returns chunks/s."""

    def send(body: dict[str, Any]) -> int:
        r = client.post("/api/rag/documents", json=_wire(body))
        if r.status_code != 200:
            raise SystemExit(f"ingest of {body['doc_id']} failed: {r.status_code} {r.text}")
        return len(body["chunks"])

    started = time.perf_counter()
    with ThreadPoolExecutor(4) as pool, tqdm(total=spec.n, unit="chunk", desc="load") as bar:
        for count in pool.map(send, documents(spec, datetime.now(UTC))):
            bar.update(count)
    return spec.n / (time.perf_counter() - started)


def analyzed_rows(url: str) -> float:
    """pg_class.reltuples of the default collection's chunk partition (-1: never analyzed)."""
    sql = ("SELECT reltuples FROM pg_class "
           "WHERE oid = to_regclass('rag.chunks_' || api.collection_id('default'))")  # fmt: skip
    with psycopg.connect(url, autocommit=True) as conn:
        return float(conn.execute(sql).fetchone()[0])


def search(client: httpx.Client, q: np.ndarray, exact: bool) -> tuple[float, str]:
    body = {"embedding": q.tolist(), "k": K, "w_cos": MIX[0], "w_rec": MIX[1], "w_sig": MIX[2],
            "exact": exact}  # fmt: skip
    started = time.perf_counter()
    r = client.post("/api/rag/search", json=body)
    elapsed = (time.perf_counter() - started) * 1000
    r.raise_for_status()
    return elapsed, r.json()["query_metadata"]["strategy"]


def measure(client: httpx.Client, queries: np.ndarray, label: str) -> list[object]:
    times: dict[bool, list[float]] = {False: [], True: []}
    chosen: dict[bool, Counter[str]] = {False: Counter(), True: Counter()}
    for q in tqdm(queries, desc=label, unit="query"):
        for exact in (False, True):
            ms, strategy = search(client, q, exact)
            times[exact].append(ms)
            chosen[exact][strategy] += 1
    ours, exact = percentiles(times[False]), percentiles(times[True])
    return [label, _named(chosen[False]), ours[0], ours[1], _named(chosen[True]), exact[0],
            exact[1], f"{exact[0] / ours[0]:.1f}x"]  # fmt: skip


def _named(counts: Counter[str]) -> str:
    return ", ".join(f"{name} {n}" for name, n in counts.most_common())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=60_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--after-analyze", action="store_true")
    args = parser.parse_args()
    spec = CorpusSpec(args.n, args.dims)
    queries = query_vectors(spec, args.queries)
    with server() as admin:
        url = fresh_database(admin, f"fresh_bench_{args.dims}", args.dims)
        hold_autovacuum(url)
        with service(url) as base, httpx.Client(base_url=base, timeout=120) as client:
            rate = load(client, spec)
            before = analyzed_rows(url)
            rows = [measure(client, queries, "right after the load")]
            after = analyzed_rows(url)
            if args.after_analyze:
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute("ANALYZE rag.chunks")
                rows.append(measure(client, queries, "after ANALYZE"))
    print(f"\n{spec.n:,} chunks x {spec.dims} dims loaded through the API at {rate:,.0f} "
          f"chunks/s; reltuples before and after those searches: {before:,.0f}, {after:,.0f} "
          f"(-1: never analyzed); {args.queries} queries, weights {MIX}, "
          f"{time.strftime('%Y-%m-%d')}")  # fmt: skip
    print_table(["when", "default chose", "default p50", "default p95", "exact chose",
                 "exact p50", "exact p95", "exact / default"], rows)  # fmt: skip


if __name__ == "__main__":
    main()
