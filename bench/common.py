"""Shared benchmark plumbing: the database server, corpus databases, the service,
timing and tables."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit, urlunsplit

import httpx
import numpy as np
import psutil
import psycopg

from app.db.embedded import EmbeddedPostgres
from app.db.migrate import prepare_database
from app.settings import Settings
from bench.corpus import CorpusSpec, write_jsonl

BENCH_DIR = Path(__file__).resolve().parent
DATA_DIR = BENCH_DIR / "data"

T = TypeVar("T")


def bench_settings() -> Settings:
    return Settings(
        data_dir=DATA_DIR / "pgdata",
        pg_shared_buffers=os.environ.get("RAG_PG_SHARED_BUFFERS", "4GB"),
        pg_maintenance_work_mem=os.environ.get("RAG_PG_MAINTENANCE_WORK_MEM", "4GB"),
    )


@contextmanager
def server() -> Iterator[str]:
    """An admin URL: DATABASE_URL's server, or the embedded one in bench/data/pgdata."""
    external = os.environ.get("DATABASE_URL")
    if external:
        yield external
        return
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    embedded = EmbeddedPostgres(DATA_DIR / "pgdata", bench_settings())
    embedded.start()
    try:
        yield embedded.url("postgres")
    finally:
        embedded.stop()


def with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


def corpus_file(spec: CorpusSpec, vector_format: str = "json") -> Path:
    path = DATA_DIR / f"{spec.name}.{vector_format}.jsonl"
    if not path.exists():
        DATA_DIR.mkdir(parents=True, exist_ok=True)
        write_jsonl(spec, str(path), vector_format)
    return path


def ingest_command(
    url: str, path: Path, dims: int, rebuild: str
) -> tuple[list[str], dict[str, str]]:
    """The ``ragsearch ingest --rebuild-index REBUILD`` command for a file, and its
    environment (this one's, without RAG_ settings but those the load needs)."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("RAG_")}
    environment.update(
        {"DATABASE_URL": url, "RAG_DEFAULT_DIMS": str(dims),
         "RAG_PG_MAINTENANCE_WORK_MEM": bench_settings().pg_maintenance_work_mem}
    )  # fmt: skip
    argv = [sys.executable, "-m", "app.cli", "ingest", str(path), "--rebuild-index", rebuild]
    return argv, environment


def ingest(url: str, path: Path, dims: int, rebuild: str = "auto") -> tuple[float, str]:
    """Run ``ragsearch ingest --rebuild-index REBUILD`` on a file; (seconds, its summary
    line)."""
    argv, environment = ingest_command(url, path, dims, rebuild)
    started = time.perf_counter()
    done = subprocess.run(argv, env=environment, stdout=subprocess.PIPE, text=True, check=True)
    return time.perf_counter() - started, done.stdout.strip().splitlines()[-1]


def migrate(url: str, dims: int) -> None:
    prepare_database(url, bench_settings().model_copy(update={"default_dims": dims}))


def fresh_database(admin_url: str, name: str, dims: int) -> str:
    """An empty, migrated database ``name`` (dropped first if it exists)."""
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    url = with_database(admin_url, name)
    migrate(url, dims)
    return url


def _stored_chunks(url: str) -> int | None:
    """How many chunks the database holds (None: no such database or no schema)."""
    try:
        with psycopg.connect(url, autocommit=True) as db:
            if not db.execute("SELECT to_regclass('rag.chunks') IS NOT NULL").fetchone()[0]:
                return None
            return db.execute(  # the corpus's own collection (others may be added to it)
                "SELECT count(*) FROM rag.chunks"
                " WHERE collection_id = (SELECT id FROM rag.collections WHERE name = 'default')"
            ).fetchone()[0]
    except psycopg.OperationalError:
        return None


def corpus_database(admin_url: str, spec: CorpusSpec, vector_format: str = "json") -> str:
    """A database holding ``spec``'s corpus, built once through ``ragsearch ingest`` and
    reused by later runs."""
    url = with_database(admin_url, spec.name)
    if _stored_chunks(url) == spec.n:
        print(f"reusing database {spec.name} ({spec.n:,} chunks)")
        migrate(url, spec.dims)  # to the current schema
        return url
    url = fresh_database(admin_url, spec.name, spec.dims)
    seconds, summary = ingest(url, corpus_file(spec, vector_format), spec.dims)
    print(f"built {spec.name} in {seconds:.1f} s: {summary}")
    return url


def prewarm(conn: psycopg.Connection) -> None:
    """Load every table and index of the service into shared buffers."""
    conn.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
    conn.execute(
        "SELECT pg_prewarm(c.oid) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = 'rag' AND c.relkind IN ('r', 'i') ORDER BY c.oid"
    )


def postmaster(database_url: str) -> psutil.Process | None:
    """The PostgreSQL server of ``database_url`` when it runs on this machine (its data
    directory's postmaster.pid names it), else None."""
    try:
        with psycopg.connect(database_url, autocommit=True) as conn:
            row = conn.execute("SHOW data_directory").fetchone()
        pid = int(Path(row[0], "postmaster.pid").read_text().split()[0])
        return psutil.Process(pid)
    except (psycopg.Error, OSError, ValueError, IndexError, psutil.Error):
        return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def service(
    database_url: str, workers: int = 1, checkout: Path | None = None, **env: str
) -> Iterator[str]:
    """``ragsearch serve`` on a free port against ``database_url``; yields its base URL.
    From ``checkout`` (another clone with its own .venv) when given, else this one."""
    port = free_port()
    environment = {k: v for k, v in os.environ.items() if not k.startswith("RAG_")}
    environment.update(
        {"DATABASE_URL": database_url, "RAG_PORT": str(port), "RAG_LOG_LEVEL": "warning",
         "RAG_WORKERS": str(workers), **env}
    )  # fmt: skip
    python = str(checkout / ".venv" / "bin" / "python") if checkout else sys.executable
    process = subprocess.Popen([python, "-m", "app.cli", "serve"], env=environment, cwd=checkout)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if httpx.get(base + "/readyz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(60)


def rotated(items: Sequence[T], start: int) -> list[T]:
    """``items`` from position ``start`` (modulo their number) round to the one before it.
    A benchmark that runs every case for each query starts each query at the next case, so
    that no case always runs first (its plain ANN query after another query's searches,
    cold, where the others follow a search of the same query's vector, warm)."""
    if not items:
        return []
    start %= len(items)
    return [*items[start:], *items[:start]]


def timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def percentiles(samples: Sequence[float]) -> tuple[float, float, float]:
    p50, p95, p99 = np.percentile(np.asarray(samples), [50, 95, 99])
    return float(p50), float(p95), float(p99)


def print_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    cells = [[str(h) for h in headers]] + [[_fmt(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |"
             for row in cells]  # fmt: skip
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    print("\n".join(lines))


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:,.3f}" if abs(value) < 100 else f"{value:,.1f}"
    return str(value)
