"""A statement that runs past RAG_STATEMENT_TIMEOUT_MS is the request's fault, not the
database's: 504 ``search_timeout``, counted as a timeout, and the supervisor is not told
that the database failed (a lost connection is, and answers 503)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import httpx
import psycopg
import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.db.runtime import DatabaseRuntime
from app.db.supervisor import DatabaseSupervisor
from app.errors import ConnectionLost, GatewayTimeout, RagError
from conftest import WRITE_KEY, PgServer, ServiceProcess, settings_for_tests, start_service

TIMEOUT_MS = 300
QUERY = {"embedding": [0.1] * 384, "k": 3}


@pytest.fixture(scope="module")
def own_db(pg: PgServer, template_db: str) -> Iterator[str]:
    url = pg.create_database()
    yield url
    pg.drop_database(url)


@pytest.fixture(scope="module")
def timed(own_db: str) -> Iterator[ServiceProcess]:
    service = start_service({"DATABASE_URL": own_db, "RAG_API_KEYS": WRITE_KEY,
                             "RAG_STATEMENT_TIMEOUT_MS": str(TIMEOUT_MS)})  # fmt: skip
    yield service
    service.stop()


def _errors(service: ServiceProcess) -> dict[str, float]:
    scrape = httpx.get(f"{service.base_url}/metrics",
                       headers={"Authorization": f"Bearer {WRITE_KEY}"})  # fmt: skip
    return {
        sample.labels["kind"]: sample.value
        for family in text_string_to_metric_families(scrape.text)
        for sample in family.samples
        if sample.name == "ragsearch_errors_total"
    }


def test_a_statement_timeout_is_a_504_counted_as_a_timeout(timed, own_db):
    http = httpx.Client(base_url=timed.base_url, timeout=30,
                        headers={"Authorization": f"Bearer {WRITE_KEY}"})  # fmt: skip
    with psycopg.connect(own_db) as locker:  # the search waits for this lock until timed out
        locker.execute("LOCK TABLE rag.chunks IN ACCESS EXCLUSIVE MODE")
        r = http.post("/api/rag/search", json=QUERY)
        locker.rollback()
    assert r.status_code == 504, r.text
    body = r.json()
    assert body["error"] == "search_timeout"
    assert "RAG_STATEMENT_TIMEOUT_MS" in body["message"]
    assert "retry-after" not in r.headers
    assert http.post("/api/rag/search", json=QUERY).status_code == 200
    errors = _errors(timed)
    assert errors.get("timeout") == 1 and not errors.get("unavailable"), errors
    assert "database unavailable" not in timed.log()


def test_a_request_past_rag_request_timeout_is_a_504_at_its_deadline(own_db):
    service = start_service({"DATABASE_URL": own_db, "RAG_REQUEST_TIMEOUT": "1",
                             "RAG_STATEMENT_TIMEOUT_MS": "20000"})  # fmt: skip
    try:
        with psycopg.connect(own_db) as locker:  # the search waits well past its deadline
            locker.execute("LOCK TABLE rag.chunks IN ACCESS EXCLUSIVE MODE")
            started = time.monotonic()
            r = httpx.post(f"{service.base_url}/api/rag/search", json=QUERY, timeout=30)
            waited = time.monotonic() - started
            locker.rollback()
        assert r.status_code == 504 and r.json()["error"] == "request_timeout", r.text
        assert 1 <= waited < 2.5
        assert httpx.post(f"{service.base_url}/api/rag/search", json=QUERY).status_code == 200
        assert _errors(service).get("timeout") == 1
    finally:
        service.stop()


def test_a_readyz_503_is_counted_as_unavailable_not_internal(timed, own_db):
    before = _errors(timed)
    with psycopg.connect(own_db, autocommit=True) as conn:
        digest = conn.execute("SELECT digest FROM rag.installed_functions").fetchone()
        conn.execute("UPDATE rag.installed_functions SET digest = 'another version'")
        try:
            assert httpx.get(f"{timed.base_url}/readyz").status_code == 503
        finally:
            conn.execute("UPDATE rag.installed_functions SET digest = %s", digest)
    after = _errors(timed)
    assert after.get("unavailable", 0) == before.get("unavailable", 0) + 1
    assert after.get("internal", 0) == before.get("internal", 0)


FAULTS = [
    # (what the statement does, the error the request gets, alarms raised)
    (f"SELECT pg_sleep({TIMEOUT_MS * 3 / 1000})", GatewayTimeout, 0),
    ("SELECT pg_terminate_backend(pg_backend_pid())", ConnectionLost, 1),
]


@pytest.mark.parametrize(("statement", "expected", "alarms"), FAULTS)
def test_only_a_lost_connection_tells_the_supervisor(own_db, statement, expected, alarms):
    settings = settings_for_tests(database_url=own_db, migrate_on_start=False,
                                  statement_timeout_ms=TIMEOUT_MS, pool_size=1)  # fmt: skip

    async def run() -> tuple[RagError | None, int]:
        supervisor = DatabaseSupervisor(settings, DatabaseRuntime(settings))
        await supervisor.start()
        caught = None
        try:
            async with supervisor.connection() as conn:
                await conn.execute(statement)
        except RagError as error:
            caught = error
        finally:
            await supervisor.stop()
        return caught, supervisor.alarms

    caught, raised = asyncio.run(run())
    assert type(caught) is expected, caught
    assert raised == alarms
