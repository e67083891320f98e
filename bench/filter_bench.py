"""Filtered searches: the strategy `auto` picks against each strategy forced, for tag
filters passing 1% to 25% of the corpus (the synthetic corpus gives every chunk one of
100 tags). Prints p50/p95 per strategy, the ratio of auto to the better of the two, and
what auto chose.

    python bench/filter_bench.py --n 1000000 --percents 1,2,3,5,10,25 --queries 12
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import psycopg
from pgvector import Vector
from pgvector.psycopg import register_vector
from psycopg.types.json import Jsonb

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import corpus_database, percentiles, prewarm, print_table, server
from bench.corpus import CorpusSpec, query_vectors
from bench.search_bench import OURS

MIX = (0.5, 0.3, 0.2)
K = 10
WARM_UP = 2


def _run(conn: psycopg.Connection, queries: np.ndarray, tags: list[str], strategy: str
         ) -> tuple[list[float], set[str]]:  # fmt: skip
    times, chosen = [], set()
    for i, q in enumerate(queries):
        started = time.perf_counter()
        result = conn.execute(
            OURS, ([Vector(q)], K, *MIX, Jsonb({"tags_any": tags}), Jsonb({"strategy": strategy})),
            prepare=True,
        ).fetchone()[0]  # fmt: skip
        if i >= WARM_UP:
            times.append((time.perf_counter() - started) * 1000)
        chosen.add(result["meta"]["strategy"])
    return times, chosen


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--percents", default="1,2,3,5,10,25")
    parser.add_argument("--queries", type=int, default=12)
    args = parser.parse_args()
    spec = CorpusSpec(args.n, args.dims)
    queries = query_vectors(spec, args.queries + WARM_UP)
    rows = []
    with server() as admin:
        url = corpus_database(admin, spec)
        with psycopg.connect(url, autocommit=True) as conn:
            register_vector(conn)
            prewarm(conn)
            for percent in (int(p) for p in args.percents.split(",")):
                tags = [f"t{i:02d}" for i in range(percent)]
                p50 = {}
                for strategy in ("scan", "threshold", "auto"):
                    times, chosen = _run(conn, queries, tags, strategy)
                    p50[strategy] = percentiles(times)[0]
                    print(f"\r{percent}% {strategy} done", end="", file=sys.stderr, flush=True)
                better = min(p50["scan"], p50["threshold"])
                rows.append([f"{percent}%", p50["scan"], p50["threshold"], p50["auto"],
                             f"{p50['auto'] / better:.2f}x", "/".join(sorted(chosen))])  # fmt: skip
    print(file=sys.stderr)
    print(f"\n{spec.n:,} chunks x {spec.dims} dims, weights {MIX}, k={K}, "
          f"{args.queries} queries, {time.strftime('%Y-%m-%d')} (p50 ms)")  # fmt: skip
    print_table(["filter passes", "scan", "threshold", "auto", "auto / better", "auto chose"],
                rows)  # fmt: skip


if __name__ == "__main__":
    main()
