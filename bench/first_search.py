"""A connection's first search: what it costs with its plans still to make, and with them
made beforehand (api.warm_plans, which the service's pools run on each connection they
open).

    python bench/first_search.py --n 100000 --dims 384 --connections 20

For each of --connections new connections to the corpus database of bench/search_bench.py,
alternately cold (nothing run on it before) and warmed (api.warm_plans run first, timed on
its own): its first three searches (0.5/0.3/0.2, 1.0/0/0, 0.8/0.1/0.1, each by another
query vector). Printed: p50/p95/p99 per search and kind of connection, and the warm-up's
own time, which the pool spends before the connection is lent.

Then, on one warmed connection, --ddl-rounds times: a search after nothing, a search right
after another connection created a collection (its partitions: DDL on the tables every
search reads, which makes each connection plan its searches again), and one right after
that collection was dropped; 0.5/0.3/0.2, each by another query vector.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import orjson
import psycopg
from pgvector import Vector
from pgvector.psycopg import register_vector
from psycopg.types.json import Jsonb, set_json_loads

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import corpus_database, percentiles, print_table, server
from bench.corpus import CorpusSpec, query_vectors
from bench.search_bench import OURS, K

SEARCHES = [(0.5, 0.3, 0.2), (1.0, 0.0, 0.0), (0.8, 0.1, 0.1)]
# what another connection runs before each of after_ddl's searches
DDL_STEPS = [("after nothing", "SELECT %(n)s::text IS NULL"),
             ("after a collection created", "SELECT api.create_collection(%(n)s)"),
             ("after a collection dropped", "SELECT api.drop_collection(%(n)s)")]  # fmt: skip
DROP_IF_THERE = ("SELECT api.drop_collection(name) FROM rag.collections "
                 "WHERE name = %(n)s AND part_of IS NULL")  # fmt: skip


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def first_searches(url: str, vectors: np.ndarray, warm: bool) -> tuple[float | None, list[float]]:
    """A new connection's warm-up (when ``warm``) and its first searches, in ms."""
    with psycopg.connect(url, autocommit=True) as conn:
        register_vector(conn)
        set_json_loads(orjson.loads, conn)
        warmed = None
        if warm:
            started = time.perf_counter()
            conn.execute("SELECT api.warm_plans()").fetchone()
            warmed = _ms(started)
        times = []
        for weights, q in zip(SEARCHES, vectors, strict=True):
            started = time.perf_counter()
            conn.execute(OURS, ([Vector(q)], K, *weights, Jsonb({}), Jsonb({}), "default"),
                         prepare=True).fetchone()  # fmt: skip
            times.append(_ms(started))
    return warmed, times


def after_ddl(url: str, vectors: np.ndarray, rounds: int) -> dict[str, list[float]]:
    """One warmed connection's 0.5/0.3/0.2 searches after nothing, after another connection
    created a collection and after it dropped it (ms, one of each per round)."""
    times: dict[str, list[float]] = {label: [] for label, _ in DDL_STEPS}
    with (psycopg.connect(url, autocommit=True) as conn,
          psycopg.connect(url, autocommit=True) as other):  # fmt: skip
        register_vector(conn)
        set_json_loads(orjson.loads, conn)
        conn.execute("SELECT api.warm_plans()").fetchone()

        def search(q: np.ndarray) -> float:
            started = time.perf_counter()
            conn.execute(OURS, ([Vector(q)], K, *SEARCHES[0], Jsonb({}), Jsonb({}), "default"),
                         prepare=True).fetchone()  # fmt: skip
            return _ms(started)

        for q in vectors[:5]:
            search(q)  # the plans made, the pages read
        for n in range(rounds):
            name = f"bench_ddl_{n}"
            other.execute(DROP_IF_THERE, {"n": name})  # left by a run that broke off
            try:
                for i, (label, statement) in enumerate(DDL_STEPS):
                    other.execute(statement, {"n": name})
                    times[label].append(search(vectors[(3 * n + i) % len(vectors)]))
            finally:
                other.execute(DROP_IF_THERE, {"n": name})
            print(f"\rddl round {n + 1}/{rounds}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--connections", type=int, default=20)
    parser.add_argument("--ddl-rounds", type=int, default=10)
    args = parser.parse_args()
    if args.connections < 2:
        parser.error("--connections must be at least 2 (one cold, one warmed)")
    spec = CorpusSpec(args.n, args.dims)
    queries = query_vectors(spec, len(SEARCHES) * args.connections)
    with server() as admin:
        url = corpus_database(admin, spec)
        times: dict[bool, list[list[float]]] = {False: [], True: []}
        warm_ups: list[float] = []
        for i in range(args.connections):
            warm = i % 2 == 1
            vectors = queries[i * len(SEARCHES) : (i + 1) * len(SEARCHES)]
            warm_up, searched = first_searches(url, vectors, warm)
            times[warm].append(searched)
            if warm_up is not None:
                warm_ups.append(warm_up)
            print(f"\rconnection {i + 1}/{args.connections}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        ddl = after_ddl(url, queries, args.ddl_rounds) if args.ddl_rounds > 0 else {}
    print(f"\n{spec.n:,} chunks x {spec.dims} dims, {args.connections} new connections, "
          f"{time.strftime('%Y-%m-%d %H:%M')}")  # fmt: skip
    rows = []
    for n, weights in enumerate(SEARCHES):
        mix = "/".join(str(w) for w in weights)
        cold = percentiles([t[n] for t in times[False]])
        warmed = percentiles([t[n] for t in times[True]])
        rows.append([f"{n + 1}: {mix}", *cold, *warmed, f"{cold[0] / warmed[0]:.1f}x"])
    print_table(["search on the connection", "cold p50", "cold p95", "cold p99", "warmed p50",
                 "warmed p95", "warmed p99", "p50 cold / warmed"], rows)  # fmt: skip
    print_table(["api.warm_plans ms", "p50", "p95", "p99"], [["", *percentiles(warm_ups)]])
    if ddl:
        base = percentiles(ddl["after nothing"])[0]
        print_table(["0.5/0.3/0.2 on a warmed connection", "p50", "p95", "p99",
                     "p50 / after nothing"],
                    [[label, *percentiles(t), f"{percentiles(t)[0] / base:.1f}x"]
                     for label, t in ddl.items()])  # fmt: skip


if __name__ == "__main__":
    main()
