"""Metadata filters against tag filters of the same selectivity, on a corpus whose documents
carry metadata (``team``: one of 100) and half of whose documents' chunks carry their own
(``page``). The first four cases pass 1% of the chunks, the last three 25%; each runs with the
strategy the service picks (auto) and forced to the scan and to the threshold algorithm,
query by query interleaved, through api.rag_topk_weighted (the
metadata filter compiled by the service's compiler). Prints p50/p95 and each metadata
case's p50 over the tag filter's.

    python bench/metadata_bench.py --n 100000 --queries 30

Cases: ``tag`` (tags_any, the baseline), ``doc key`` (a key of the documents' metadata),
``chunk key`` (a key of the chunks' own: page 3 of the half that has pages, 5%, with a
tag of 20% to make 1%), ``either`` ($or over a document key and a chunk key).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from pgvector import Vector
from pgvector.psycopg import register_vector
from psycopg.types.json import Jsonb

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.search.filters import json_filter
from bench.common import (
    DATA_DIR,
    fresh_database,
    ingest,
    migrate,
    percentiles,
    prewarm,
    print_table,
    server,
    with_database,
)
from bench.corpus import CorpusSpec, query_vectors, write_jsonl

MIX = (0.5, 0.3, 0.2)
K = 10
OURS = ("SELECT api.rag_topk_weighted(%b, ARRAY['default'], ARRAY[1.0]::float8[], %s, %s, %s, "
        "%s, %s, %s)")  # fmt: skip
QUARTER = [f"team{n:02d}" for n in range(25)]
CASES: dict[str, dict[str, Any]] = {
    "tag": {"tags_any": ["t07"]},
    "doc key": {"filter": {"team": "team07"}},
    "chunk key": {"filter": {"page": 3}, "tags_any": [f"t{n:02d}" for n in range(0, 100, 5)]},
    "either": {"filter": {"$or": [{"team": "team07"}, {"page": 3, "team": "team08"}]}},
    "tag 25%": {"tags_any": [f"t{n:02d}" for n in range(25)]},
    "doc key 25%": {"filter": {"team": {"$in": QUARTER}}},
    "chunk key 25%": {"filter": {"page": {"$lt": 5}}},
}
BASELINE = {"25%": "tag 25%"}  # a case ending so is compared with this one, else with "tag"


def with_metadata(body: dict[str, Any], index: int) -> None:
    body["metadata"] = {"team": f"team{index % 100:02d}", "year": 2000 + index % 25}
    if index % 2 == 0:
        for page, chunk in enumerate(body["chunks"]):
            chunk["metadata"] = {"page": page}


def corpus(spec: CorpusSpec) -> Path:
    """The synthetic corpus with metadata: a JSONL file, written once."""
    path = DATA_DIR / f"meta-{spec.name}.jsonl"
    if not path.exists():
        DATA_DIR.mkdir(parents=True, exist_ok=True)
        write_jsonl(spec, str(path), decorate=with_metadata)
    return path


def database(admin: str, spec: CorpusSpec) -> str:
    name = f"meta_{spec.name}"
    url = with_database(admin, name)
    try:
        with psycopg.connect(url) as conn:
            if conn.execute("SELECT count(*) FROM rag.chunks").fetchone()[0] == spec.n:
                migrate(url, spec.dims)  # to the current schema and functions
                return url
    except psycopg.Error:
        pass
    url = fresh_database(admin, name, spec.dims)
    seconds, summary = ingest(url, corpus(spec), spec.dims)
    print(f"built {name} in {seconds:.1f} s: {summary}")
    return url


def run(conn: psycopg.Connection, queries: np.ndarray, strategy: str) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {case: [] for case in CASES}
    filters = {case: Jsonb(json_filter(0, given)) for case, given in CASES.items()}
    options = Jsonb({"strategy": strategy})
    for q in queries:
        for case in CASES:
            started = time.perf_counter()
            conn.execute(OURS, ([Vector(q)], K, *MIX, filters[case], options), prepare=True)
            times[case].append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--strategies", default="auto,scan,threshold")
    args = parser.parse_args()
    spec = CorpusSpec(args.n, args.dims)
    with server() as admin:
        url = database(admin, spec)
        with psycopg.connect(url, autocommit=True) as conn:
            register_vector(conn)
            prewarm(conn)
            queries = query_vectors(spec, args.queries + 2)
            rows = []
            for strategy in args.strategies.split(","):
                times = run(conn, queries, strategy)
                p50s = {case: percentiles(samples[2:])[0] for case, samples in times.items()}
                for case, samples in times.items():
                    p50, p95, _ = percentiles(samples[2:])  # the first two warm up
                    base = p50s[BASELINE["25%"] if case.endswith("25%") else "tag"]
                    rows.append([strategy, case, p50, p95, p50 / base])
    print(f"\n{args.n:,} chunks x {args.dims}, mix {MIX}, k {K}, {args.queries} queries")
    print_table(["strategy", "filter", "p50 ms", "p95 ms", "p50 / tag's p50"], rows)


if __name__ == "__main__":
    main()
