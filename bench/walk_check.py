"""The walk's check against the collection's sample: what it catches and what it costs.

    python bench/walk_check.py --n 100000 --dims 384 --queries 100
    python bench/walk_check.py --database split_synth_v4_1000000x384_s0 --collection split \\
        --n 1000000 --queries 220 --first 60

A threshold search trusts the order of the HNSW walk for its bound; before it closes, it
scores the collection's sample (about 1,000 chunks by key, whatever its size) exactly,
and when a sampled chunk the walk did not return is nearer than the walk's bound
(sql/functions/candidates.sql api.walk_missed) walks again at 4x ef_search, then scans
if that walk is proved wrong too. For each weight mix and query, this runs the exact
search (the scan, the truth), the default search with the check, and the same search with
the check off (the engine knob walk_check), alternating which of the two goes first, and
reports recall@10 against the truth, the queries walked again and those the check sent to
the scan, and latency with and without it. Queries: bench/corpus.py query_vectors(n, queries), the
first --first of them (split_bench.py draws 220 at 1M).

The database is search_bench.py's corpus for --n/--dims (built if missing) unless
--database names another on the same server.
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
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import corpus_database, percentiles, print_table, server, with_database
from bench.corpus import CorpusSpec, query_vectors
from bench.search_bench import OURS

K = 10
MIXES: list[tuple[float, float, float]] = [(1.0, 0.0, 0.0), (0.8, 0.1, 0.1), (0.5, 0.3, 0.2)]
AS_OF = "2026-11-26T00:00:00+00:00"  # one instant for every search: recency is the same


Mix = tuple[float, float, float]


def search(
    conn: psycopg.Connection, collection: str, query: np.ndarray, mix: Mix, **options: Any
) -> tuple[list[str], dict[str, Any], float]:
    """(chunk ids, meta, ms) of one weighted top-10."""
    started = time.perf_counter()
    arguments = ([Vector(query)], K, *mix, Jsonb({}), Jsonb({"as_of": AS_OF, **options}),
                 collection)  # fmt: skip
    row = conn.execute(OURS, arguments).fetchone()
    ms = 1000 * (time.perf_counter() - started)
    assert row is not None
    return [r["chunk_id"] for r in row[0]["rows"]], row[0]["meta"], ms


def measure(
    conn: psycopg.Connection, collection: str, queries: list[np.ndarray], mix: Mix
) -> list[object]:
    recall: dict[bool, list[float]] = {True: [], False: []}
    times: dict[bool, list[float]] = {True: [], False: []}
    walked_again, scanned, sampled = 0, 0, []
    for n, query in enumerate(tqdm(queries, desc=f"{mix}", unit="query", leave=False)):
        truth, _, _ = search(conn, collection, query, mix, exact=True)
        for check in (True, False) if n % 2 == 0 else (False, True):
            found, meta, ms = search(conn, collection, query, mix, walk_check=check)
            recall[check].append(len(set(found) & set(truth)) / K)
            times[check].append(ms)
            if check:
                last = (meta.get("rounds") or [{}])[-1]
                sampled.append(last.get("sampled", 0))
                reason = meta.get("strategy_reason") or ""
                walked_again += "walked again" in reason
                scanned += meta["fell_back"] and "sampled chunk" in reason
    on, off = percentiles(times[True]), percentiles(times[False])
    return [
        "/".join(f"{w:g}" for w in mix),
        f"{np.mean(recall[False]):.3f}", f"{np.mean(recall[True]):.3f}",
        sum(r < 1 for r in recall[False]), sum(r < 1 for r in recall[True]),
        f"{walked_again} of {len(queries)}", f"{scanned} of {len(queries)}",
        int(np.median(sampled)),
        *off, *on, f"{on[0] / off[0]:.2f}x",
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--database", default=None, help="a database on the same server")
    parser.add_argument("--collection", default="default")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--first", type=int, default=None, help="use the first N queries")
    args = parser.parse_args()
    spec = CorpusSpec(args.n, args.dims)
    queries = list(query_vectors(spec, args.queries))[: args.first or args.queries]
    with server() as admin:
        url = with_database(admin, args.database) if args.database else corpus_database(admin, spec)
        with psycopg.connect(url, autocommit=True) as conn:
            register_vector(conn)
            for query in queries[:5]:  # warm-up
                search(conn, args.collection, query, MIXES[0])
            rows = [measure(conn, args.collection, queries, mix) for mix in MIXES]
    print(f"\n### {args.collection!r}, {len(queries)} queries, top-{K}; ms per search")
    print_table(["weights", "recall unchecked", "recall checked", "queries missing rows "
                 "(unchecked)", "(checked)", "walked again", "scanned by the check",
                 "sampled chunks",
                 "p50 unchecked", "p95", "p99", "p50 checked", "p95", "p99",
                 "p50 checked / unchecked"], rows)  # fmt: skip


if __name__ == "__main__":
    main()
