"""Searches in a database with many collections: a search's statements planned once per
connection (generic plans, which cover every collection's partition) against planned per
call (custom plans, for the searched collection's partition only), and the service's
choice between them (api.search_plans_mode: generic up to api.generic_plan_collections()
collections).

    python bench/collections_bench.py --n 100000 --dims 384 --collections 2,16,32,64,128,512

The corpus database of bench/search_bench.py (bench/data, built once by either script)
gets empty collections added up to each count in turn (dropped again at the end). At each
count and for each way of planning (the session setting ragsearch.plans: generic, custom,
or unset for the service's choice): the p50 of --queries searches of each of three mixes
(after --queries / 4 not measured; one connection per way, the ways interleaved query by
query), the locks one search holds, a new connection's first search, and --threads
connections searching at once (0.8/0.1/0.1, ten searches each): how many failed, and with
what.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import numpy as np
import psycopg
from pgvector import Vector
from pgvector.psycopg import register_vector
from psycopg.types.json import Jsonb

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import corpus_database, print_table, rotated, server
from bench.corpus import CorpusSpec, query_vectors
from bench.search_bench import OURS, K

MIXES = [(1.0, 0.0, 0.0), (0.8, 0.1, 0.1), (0.5, 0.3, 0.2)]
MODES = ["generic", "custom", "service"]  # ragsearch.plans; "service": unset
PREFIX = "bench_many_"


def connect(url: str, mode: str, autocommit: bool = True) -> psycopg.Connection:
    options = "" if mode == "service" else f"-c ragsearch.plans={mode}"
    conn = psycopg.connect(url, autocommit=autocommit, options=options)
    register_vector(conn)
    return conn


def search(conn: psycopg.Connection, weights: tuple[float, float, float], q: np.ndarray) -> float:
    started = time.perf_counter()
    conn.execute(OURS, ([Vector(q)], K, *weights, Jsonb({}), Jsonb({}), "default"),
                 prepare=True).fetchone()  # fmt: skip
    return (time.perf_counter() - started) * 1000


def latencies(url: str, queries: np.ndarray) -> dict[str, list[float]]:
    """Per way of planning, each mix's p50 over the queries (after a quarter of them not
    measured), one connection per way, the ways interleaved query by query (each in turn
    first) so that the machine's speed, which drifts, is the same for all."""
    skip = len(queries) // 4
    times: dict[str, list[list[float]]] = {mode: [[] for _ in MIXES] for mode in MODES}
    conns = {mode: connect(url, mode) for mode in MODES}
    try:
        for i, q in enumerate(queries):
            for m, weights in enumerate(MIXES):
                for mode in rotated(MODES, i + m):
                    times[mode][m].append(search(conns[mode], weights, q))
    finally:
        for conn in conns.values():
            conn.close()
    return {mode: [float(np.median(t[skip:])) for t in per_mix] for mode, per_mix in times.items()}


def locks_held(url: str, mode: str, q: np.ndarray) -> int:
    """The locks a 0.8/0.1/0.1 search holds at its end (the connection's third search)."""
    with connect(url, mode, autocommit=False) as conn:
        for _ in range(2):
            search(conn, MIXES[1], q)
            conn.rollback()
        search(conn, MIXES[1], q)
        row = conn.execute("SELECT count(*) FROM pg_locks WHERE pid = pg_backend_pid()").fetchone()
        conn.rollback()
        assert row is not None
        return int(row[0])


def first_search(url: str, mode: str, q: np.ndarray) -> float:
    with connect(url, mode) as conn:
        return search(conn, MIXES[1], q)


def at_once(url: str, mode: str, queries: np.ndarray, threads: int) -> Counter[str]:
    """``threads`` connections searching together, ten searches each: outcomes."""
    counted: list[Counter[str]] = [Counter() for _ in range(threads)]

    def worker(n: int) -> None:
        outcomes = counted[n]
        try:
            with connect(url, mode) as conn:
                for i in range(10):
                    try:
                        search(conn, MIXES[1], queries[(n * 10 + i) % len(queries)])
                        outcomes["ok"] += 1
                    except psycopg.Error as error:
                        outcomes[str(error).splitlines()[0]] += 1
        except psycopg.Error as error:
            outcomes["connect: " + str(error).splitlines()[0]] += 10

    running = [threading.Thread(target=worker, args=(n,)) for n in range(threads)]
    for thread in running:
        thread.start()
    for thread in running:
        thread.join()
    return sum(counted, Counter())


def collections_held(admin: psycopg.Connection) -> int:
    row = admin.execute("SELECT count(*) FROM rag.collections").fetchone()
    assert row is not None
    return int(row[0])


def grow_to(admin: psycopg.Connection, count: int) -> None:
    """Empty collections added until the database holds ``count``."""
    for n in range(collections_held(admin), count):
        admin.execute("SELECT api.create_collection(%s)", (f"{PREFIX}{n}",))


def drop_added(admin: psycopg.Connection) -> None:
    names = [name for (name,) in admin.execute(
        "SELECT name FROM rag.collections WHERE starts_with(name, %s) AND part_of IS NULL",
        (PREFIX,))]  # fmt: skip
    for name in names:
        admin.execute("SELECT api.drop_collection(%s)", (name,))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--threads", type=int, default=10)
    parser.add_argument("--collections", default="2,16,32,64,128,512")
    args = parser.parse_args()
    counts = sorted(int(c) for c in args.collections.split(","))
    spec = CorpusSpec(args.n, args.dims)
    queries = query_vectors(spec, args.queries)
    rows = []
    with server() as admin_url:
        url = corpus_database(admin_url, spec)
        with psycopg.connect(url, autocommit=True) as admin:
            drop_added(admin)
            try:
                for count in counts:
                    grow_to(admin, count)
                    held = collections_held(admin)
                    print(f"\r{held} collections ...", end="", file=sys.stderr, flush=True)
                    p50s = latencies(url, queries)
                    for mode in MODES:
                        outcomes = at_once(url, mode, queries, args.threads)
                        failed = sum(n for what, n in outcomes.items() if what != "ok")
                        errors = "; ".join(f"{n} {what}" for what, n in outcomes.items()
                                           if what != "ok")  # fmt: skip
                        rows.append([held, mode, *p50s[mode], locks_held(url, mode, queries[0]),
                                     first_search(url, mode, queries[1]),
                                     f"{failed}/{sum(outcomes.values())}",
                                     errors or "-"])  # fmt: skip
            finally:
                print("\rdropping the added collections ...", end="", file=sys.stderr, flush=True)
                drop_added(admin)
                print(file=sys.stderr)
    print(f"\n{spec.n:,} chunks x {spec.dims} dims in the searched collection, "
          f"{time.strftime('%Y-%m-%d %H:%M')}")  # fmt: skip
    mixes = [f"{'/'.join(str(w) for w in m)} p50" for m in MIXES]
    print_table(["collections", "plans", *mixes, "locks held", "first search ms",
                 f"failed, {args.threads} at once", "errors"], rows)  # fmt: skip


if __name__ == "__main__":
    main()
