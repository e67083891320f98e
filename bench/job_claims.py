"""What a worker's claim of the next job costs: collections taking turns (claim_job in
sql/queries/jobs.sql) against the oldest job first (the claim before turns), in one run.

    python bench/job_claims.py --waiting 100,1000,5000 --collections 50 --finished 200000

A fresh database (bench_job_claims, dropped at the end) gets ``--collections`` empty
collections and ``--finished`` finished jobs spread over them (the history a busy queue
keeps), then, at each count, that many waiting jobs. Each claim runs in a transaction of
its own, rolled back, so every claim meets the same queue.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.db.sqlfiles import queries
from bench.common import fresh_database, percentiles, print_table, server, timed

NAME = "bench_job_claims"
OLDEST_FIRST = """
UPDATE rag.jobs j
SET status = 'running', worker = %(worker)s, attempts = j.attempts + 1,
    lease_until = now() + make_interval(secs => %(lease)s),
    started_at = coalesce(j.started_at, now()), updated_at = now()
WHERE j.id = (SELECT id FROM rag.jobs
              WHERE status = 'queued' OR (status = 'running' AND lease_until < now())
              ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1)
RETURNING j.id"""
JOBS = """
INSERT INTO rag.jobs (kind, collection_id, status, started_at, finished_at)
SELECT 'ingest', (%(ids)s::int[])[1 + g %% cardinality(%(ids)s::int[])], %(status)s,
       CASE WHEN %(status)s = 'done' THEN now() - g * interval '1 s' END,
       CASE WHEN %(status)s = 'done' THEN now() END
FROM generate_series(1, %(count)s) g"""


def claims(conn: psycopg.Connection, sql: str, repeat: int) -> list[float]:
    params = {"worker": "bench", "lease": 30, "passing": None}

    def claim() -> None:
        with conn.transaction(force_rollback=True):
            assert conn.execute(sql, params).fetchone() is not None

    return [timed(claim) for _ in range(repeat)]


def fill(conn: psycopg.Connection, ids: list[int], status: str, count: int) -> None:
    conn.execute(JOBS, {"ids": ids, "status": status, "count": count})
    conn.execute("ANALYZE rag.jobs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--waiting", default="100,1000,5000")
    parser.add_argument("--collections", type=int, default=50)
    parser.add_argument("--finished", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    rows: list[list[object]] = []
    with server() as admin_url:
        url = fresh_database(admin_url, NAME, 8)
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                ids = [int(conn.execute("SELECT (api.create_collection(%s)).id", (f"c{n}",))
                           .fetchone()[0]) for n in range(args.collections)]  # fmt: skip
                fill(conn, ids, "done", args.finished)
                held = 0
                for waiting in sorted(int(w) for w in args.waiting.split(",")):
                    fill(conn, ids, "queued", waiting - held)
                    held = waiting
                    print(f"  {waiting:,} jobs waiting", flush=True)
                    old = percentiles(claims(conn, OLDEST_FIRST, args.repeat))
                    new = percentiles(claims(conn, queries("jobs").claim_job, args.repeat))
                    rows.append([waiting, *old, *new, new[0] / old[0]])
        finally:
            with psycopg.connect(admin_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{NAME}" WITH (FORCE)')
    print(f"{args.collections} collections, {args.finished:,} finished jobs; ms a claim")
    print_table(["waiting", "oldest p50", "p95", "p99", "turns p50", "p95", "p99",
                 "turns / oldest (p50)"], rows)  # fmt: skip


if __name__ == "__main__":
    main()
