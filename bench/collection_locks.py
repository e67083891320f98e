"""The locks a database's statements over every collection take, against the lock table
the collections' limit is drawn from (app/resources/collection_limit.py).

    python bench/collection_locks.py --collections 100,400,1000

A fresh database (bench_collection_locks, dropped at the end) gets empty collections up
to each count in turn. At each count, each statement runs in a transaction of its own,
rolled back: the locks it holds when done (pg_locks of its connection), the same per
collection, and its time. Then the server's lock table (max_locks_per_transaction x
(max_connections + max_prepared_transactions)) and the limit drawn from it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.resources.collection_limit import LOCKS_PER_COLLECTION, collection_limit
from app.settings import Settings
from bench.common import fresh_database, print_table, server

NAME = "bench_collection_locks"
STATEMENTS = {
    "register a space": "SELECT api.register_space('bench_probe', 8, NULL, NULL, 16, 64)",
    "drop a space": "SELECT api.drop_space('default')",
    "read every chunk": "SELECT count(*) FROM rag.chunks",
    "re-embed batch, every collection (before)": (
        "SELECT id FROM rag.chunks WHERE id > 0 ORDER BY id LIMIT 512"
    ),
    "re-embed batch, one collection": (
        "SELECT id FROM rag.chunks WHERE collection_id = 1 AND id > 0 ORDER BY id LIMIT 512"
    ),
    "list collections": "SELECT count(*) FROM api.collection_stats(NULL)",
    "create a collection": "SELECT api.create_collection('bench_probe')",
    "drop a collection": (
        "SELECT api.drop_collection(max(name)) FROM rag.collections WHERE name LIKE 'bench\\_%'"
    ),
}
LOCK_TABLE = ("SELECT current_setting('max_locks_per_transaction')::int"
              " * (current_setting('max_connections')::int"
              " + current_setting('max_prepared_transactions')::int)")  # fmt: skip


def grow(conn: psycopg.Connection, count: int) -> int:
    """Empty collections added until the database holds ``count``; how many it holds."""
    held = int(conn.execute("SELECT count(*) FROM rag.collections").fetchone()[0])
    started = time.perf_counter()
    for n in range(held, count):
        conn.execute("SELECT api.create_collection(%s)", (f"bench_{n}",))
        if n % 200 == 0:
            print(f"  {n:,} collections, {time.perf_counter() - started:.0f} s", flush=True)
    return max(held, count)


def measure(conn: psycopg.Connection, sql: str) -> tuple[int | str, float]:
    """Locks held after ``sql`` in a transaction of its own, and its ms (rolled back)."""
    started = time.perf_counter()
    try:
        with conn.transaction(force_rollback=True):
            conn.execute(sql)
            ms = (time.perf_counter() - started) * 1000
            row = conn.execute("SELECT count(*) FROM pg_locks WHERE pid = pg_backend_pid()")
            return int(row.fetchone()[0]), ms
    except psycopg.Error as error:
        return f"failed: {(error.diag.message_primary or '')[:40]}", 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collections", default="100,400,1000")
    args = parser.parse_args()
    counts = sorted(int(c) for c in args.collections.split(","))
    rows: list[list[object]] = []
    with server() as admin_url:
        url = fresh_database(admin_url, NAME, 8)
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                for count in counts:
                    held = grow(conn, count)
                    for label, sql in STATEMENTS.items():
                        locks, ms = measure(conn, sql)
                        per = f"{locks / held:.2f}" if isinstance(locks, int) else "-"
                        rows.append([held, label, locks, per, f"{ms:.0f}"])
                slots = int(conn.execute(LOCK_TABLE).fetchone()[0])
        finally:
            with psycopg.connect(admin_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{NAME}" WITH (FORCE)')
    print_table(["collections", "statement", "locks", "per collection", "ms"], rows)
    limit = collection_limit(Settings(max_collections=None), slots)
    print(f"lock table: {slots:,} locks; limit unset RAG_MAX_COLLECTIONS: {slots:,} / "
          f"{LOCKS_PER_COLLECTION} = {limit:,} collections")  # fmt: skip


if __name__ == "__main__":
    main()
