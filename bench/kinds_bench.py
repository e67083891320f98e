"""Every kind of space in one weighted top-k, on synthetic data: N chunks, each with a
dense vector (384), a sparse one (about 100 non-zero terms of a 30,000-term vocabulary)
and a multivector (32 tokens x 128 dims), clustered by topic so that similarities spread.

    python bench/kinds_bench.py --n 100000 --queries 20

Methods, query by query, through the service's own pipeline (in process):
  ann_<kind>  plain nearest neighbours of one space (single-space search, HNSW);
  ours        the weighted top-10 over the three spaces (equal space weights) with recency
              and signal (0.5 / 0.3 / 0.2), the strategy the service picks;
  scan        the same with exact: true (the first --scans queries).
Recall@10 is measured against the exact top-10 computed here in numpy from the generated
data. Also prints each kind's bytes per chunk (its table and its HNSW index).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.db.pool import configure_connection
from app.ingest.models import ChunkIn, DocumentIn
from app.ingest.prepare import IngestRules, prepare_document
from app.ingest.store import load_spaces, store_documents
from app.search.request import parse_search_request
from app.search.service import run_search
from app.search.space import parse_space_search, space_search
from app.vectors import SparseInput
from bench.common import bench_settings, fresh_database, percentiles, print_table, server

DENSE, VOCABULARY, TOKEN_DIMS, TOKENS, TOPICS = 384, 30_000, 128, 32, 64
SPACES = {"kdense": {"kind": "dense", "dims": DENSE},
          "ksparse": {"kind": "sparse", "dims": VOCABULARY},
          "ktokens": {"kind": "multivector", "dims": TOKEN_DIMS, "max_tokens": TOKENS}}  # fmt: skip
MIX = (0.5, 0.3, 0.2)
K = 10
NOW = datetime(2026, 6, 1, tzinfo=UTC)


@dataclass
class Data:
    dense: np.ndarray  # n x 384, unit rows
    sparse: list[dict[int, float]]
    tokens: np.ndarray  # n x 32 x 128, unit rows
    days: np.ndarray
    signal: np.ndarray


class Generator:
    def __init__(self, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.dense_centers = rng.standard_normal((TOPICS, DENSE))
        self.token_centers = rng.standard_normal((TOPICS, 8, TOKEN_DIMS))
        self.terms = [rng.choice(VOCABULARY, size=400, replace=False) for _ in range(TOPICS)]

    def chunk(self, rng: np.random.Generator) -> tuple[np.ndarray, dict[int, float], np.ndarray]:
        topic = int(rng.integers(TOPICS))
        dense = self.dense_centers[topic] + rng.standard_normal(DENSE) * 1.2
        terms = set(rng.choice(self.terms[topic], size=80, replace=False).tolist())
        terms |= set(rng.choice(VOCABULARY, size=20, replace=False).tolist())
        sparse = {int(t): float(rng.uniform(0.1, 2.0)) for t in sorted(terms)}
        base = self.token_centers[topic][rng.integers(8, size=TOKENS)]
        tokens = base + rng.standard_normal((TOKENS, TOKEN_DIMS)) * 1.0
        return _unit(dense), sparse, _unit(tokens)


def _unit(v: np.ndarray) -> np.ndarray:
    return (v / np.linalg.norm(v, axis=-1, keepdims=True)).astype(np.float32)


def generate(n: int) -> Data:
    rng = np.random.default_rng(7)
    gen = Generator(1)
    dense, sparse, tokens = [], [], np.empty((n, TOKENS, TOKEN_DIMS), np.float32)
    for i in range(n):
        d, s, t = gen.chunk(rng)
        dense.append(d)
        sparse.append(s)
        tokens[i] = t
    return Data(np.stack(dense), sparse, tokens, rng.uniform(0, 3 * 365, n),
                rng.uniform(0, 1, n))  # fmt: skip


def queries(count: int) -> list[tuple[np.ndarray, dict[int, float], np.ndarray]]:
    rng = np.random.default_rng(99)
    gen = Generator(1)
    return [gen.chunk(rng) for _ in range(count)]


def _document(data: Data, start: int, end: int) -> DocumentIn:
    chunks = [
        ChunkIn.model_construct(
            chunk_id=f"c{i}", chunk=f"synthetic chunk {i}", signal=float(data.signal[i]),
            created_at=NOW - timedelta(days=float(data.days[i])), volume=1.0, confidence=1.0,
            model="", tags=[], metadata={}, embedding=None,
            embeddings={
                "kdense": data.dense[i],
                "ksparse": SparseInput.model_construct(
                    indices=list(data.sparse[i]), values=list(data.sparse[i].values()), dim=None),
                "ktokens": data.tokens[i].tolist(),
            },
        )
        for i in range(start, end)
    ]  # fmt: skip
    return DocumentIn.model_construct(collection="default", doc_id=f"d{start}", src="",
                                      title="", category=None, tags=[], metadata={},
                                      chunks=chunks)  # fmt: skip


async def load(url: str, data: Data) -> float:
    """Store the chunks through the service's store path, the indexes dropped first and
    built once at the end; seconds taken."""
    started = time.perf_counter()
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await configure_connection(conn)
        for name, body in SPACES.items():
            await conn.execute(
                "SELECT api.register_space(p_name => %s, p_dims => %s, p_model => '', "
                "p_description => '', p_hnsw_m => 16, p_hnsw_ef_construction => 200, "
                "p_kind => %s, p_max_tokens => %s)",
                (name, body["dims"], body["kind"], body.get("max_tokens")),
            )
        spaces = await load_spaces(conn)
        for space in spaces.values():
            await conn.execute("SELECT api.drop_space_index(%s, 1)", (space.id,))
        rules = IngestRules("default", max_chunks=100_000, infer_tags=False, now=NOW)
        n = len(data.days)
        for start in range(0, n, 500):
            docs = [prepare_document(_document(data, s, min(s + 10, n)), spaces, rules)
                    for s in range(start, min(start + 500, n), 10)]  # fmt: skip
            await store_documents(conn, docs, spaces)
            print(f"\rstored {min(start + 500, n):,} of {n:,} chunks", end="", flush=True)
        print()
        await conn.execute("SET maintenance_work_mem = '4GB'")
        await conn.execute("SET max_parallel_maintenance_workers = 1")
        for name in SPACES:
            built = time.perf_counter()
            await conn.execute("SELECT api.create_space_index(%s, 1)", (spaces[name].id,))
            print(f"index {name}: {time.perf_counter() - built:.0f} s")
        await conn.execute("VACUUM ANALYZE rag.chunks")
    return time.perf_counter() - started


def truth(data: Data, query: tuple[np.ndarray, dict[int, float], np.ndarray]) -> list[str]:
    """The exact top-10 ids by the ranking rule, in numpy."""
    dense_q, sparse_q, tokens_q = query
    dense = data.dense @ dense_q
    q_norm = np.sqrt(sum(v * v for v in sparse_q.values()))
    sparse = np.array([
        sum(v * s.get(t, 0.0) for t, v in sparse_q.items())
        / (q_norm * np.sqrt(sum(x * x for x in s.values())))
        for s in data.sparse
    ])  # fmt: skip
    maxsim = np.empty(len(data.days))
    for start in range(0, len(data.days), 10_000):
        block = data.tokens[start : start + 10_000]  # b x 32 x 128
        maxsim[start : start + 10_000] = (block @ tokens_q.T).max(axis=1).mean(axis=1)
    sem = (dense + sparse + maxsim) / 3
    score = MIX[0] * sem + MIX[1] / (1 + data.days) + MIX[2] * data.signal
    top = np.argsort(-score)[:K]
    return [f"c{i}" for i in top]


def _body(query: tuple[np.ndarray, dict[int, float], np.ndarray], exact: bool) -> dict[str, Any]:
    dense_q, sparse_q, tokens_q = query
    sparse = {"indices": list(sparse_q), "values": list(sparse_q.values())}
    return {"embeddings": {"kdense": dense_q.tolist(), "ksparse": sparse,
                           "ktokens": tokens_q.tolist()},
            "k": K, "w_cos": MIX[0], "w_rec": MIX[1], "w_sig": MIX[2], "max_per_source": 0,
            "profile": "default", "exact": exact, "as_of": NOW.isoformat()}  # fmt: skip


async def measure(url: str, data: Data, count: int, scans: int) -> dict[str, Any]:
    settings = bench_settings()
    times: dict[str, list[float]] = {m: [] for m in ("ann_dense", "ann_sparse", "ann_tokens",
                                                     "ours", "scan")}  # fmt: skip
    recalls: dict[str, list[float]] = {"ours": [], "scan": []}
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await configure_connection(conn)
        for n, query in enumerate(queries(count + 2)):
            body = _body(query, exact=False)
            for kind, space in (("dense", "kdense"), ("sparse", "ksparse"),
                                ("tokens", "ktokens")):  # fmt: skip
                single = parse_space_search({"query_embedding": body["embeddings"][space],
                                             "top_k": K})  # fmt: skip
                started = time.perf_counter()
                await space_search(conn, space, single, settings)
                times[f"ann_{kind}"].append((time.perf_counter() - started) * 1000)
            methods = [("ours", False)] + ([("scan", True)] if n < scans + 2 else [])
            for method, exact in methods:
                started = time.perf_counter()
                outcome = await run_search(conn, parse_search_request(_body(query, exact)),
                                           settings)  # fmt: skip
                times[method].append((time.perf_counter() - started) * 1000)
                found = {row["chunk_id"] for row in outcome.page}
                recalls[method].append(len(found & set(truth(data, query))) / K)
            print(f"\rquery {n + 1} of {count + 2}", end="", flush=True)
    print()
    return {"times": {m: t[2:] for m, t in times.items()}, "recalls": recalls}


def sizes(url: str, n: int) -> list[list[Any]]:
    rows = []
    with psycopg.connect(url) as conn:
        for name, body in SPACES.items():
            table, index = conn.execute(
                "SELECT pg_table_size(format('rag.%%I', api.vector_partition(s.id, 1))), "
                "pg_indexes_size(format('rag.%%I', api.vector_partition(s.id, 1))) "
                "FROM rag.spaces s WHERE s.name = %s", (name,),
            ).fetchone()  # fmt: skip
            rows.append([body["kind"], round(table / n), round(index / n)])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=20)
    parser.add_argument("--scans", type=int, default=3)
    args = parser.parse_args()
    data = generate(args.n)
    with server() as admin:
        url = fresh_database(admin, f"kinds_{args.n}", DENSE)
        print(f"loaded in {asyncio.run(load(url, data)):.0f} s")
        result = asyncio.run(measure(url, data, args.queries, args.scans))
        rows = sizes(url, args.n)
    times = result["times"]
    slowest_ann = max(percentiles(times[m])[0] for m in times if m.startswith("ann_"))
    table = []
    for method, samples in times.items():
        p50, p95, p99 = percentiles(samples)
        recall = result["recalls"].get(method)
        table.append([method, len(samples), p50, p95, p99,
                      f"{np.mean(recall):.3f}" if recall else "-", p50 / slowest_ann])  # fmt: skip
    print(f"\n{args.n:,} chunks: dense {DENSE}, sparse ~100 of {VOCABULARY:,}, "
          f"multivector {TOKENS} x {TOKEN_DIMS}; mix {MIX}, k {K}")  # fmt: skip
    print_table(["method", "queries", "p50 ms", "p95 ms", "p99 ms", "recall@10",
                 "p50 / slowest ANN p50"], table)  # fmt: skip
    scan_p50 = percentiles(times["scan"])[0]
    print(f"scan p50 / ours p50: {scan_p50 / percentiles(times['ours'])[0]:.1f}x")
    print_table(["kind", "table bytes/chunk", "index bytes/chunk"], rows)


if __name__ == "__main__":
    main()
