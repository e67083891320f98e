"""The embedded database path: ``ragsearch serve`` with no DATABASE_URL starts its own
PostgreSQL in RAG_DATA_DIR, stops it on SIGTERM, and a second start reuses the data."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.resources import files

import httpx

from conftest import start_service
from helpers import postgres_running


def test_serve_starts_stops_and_reuses_the_embedded_database(tmp_path):
    data_dir = tmp_path / "pgdata"
    env = {"RAG_DATA_DIR": str(data_dir), "RAG_PG_SHARED_BUFFERS": "128MB"}
    first = start_service(env)
    try:
        assert (data_dir / "PG_VERSION").exists()
        assert postgres_running(data_dir)
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
