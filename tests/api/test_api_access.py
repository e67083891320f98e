"""Access control, and failures reported without stack traces: 401/403, 500, 503."""

from __future__ import annotations

import signal
import socket
import threading

import httpx
import psycopg
import pytest

from conftest import READ_KEY, WRITE_KEY, start_service, with_database
from helpers import until

DOC = {"doc_id": "acc-1", "chunks": [{"chunk": "hello", "embedding": [0.1] * 384}]}
QUERY = {"embedding": [0.1] * 384, "k": 3}


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/api/rag/search", QUERY),
        ("POST", "/api/rag/documents", DOC),
        ("GET", "/api/rag/documents/acc-1", None),
        ("DELETE", "/api/rag/documents/acc-1", None),
        ("GET", "/api/rag/spaces", None),
        ("POST", "/api/rag/spaces", {"name": "x", "dims": 3}),
        ("GET", "/api/rag/stats", None),
        ("POST", "/api/rag/signals", {"updates": [{"chunk_id": "x", "signal": 1}]}),
    ],
)
@pytest.mark.parametrize("headers", [{}, bearer("wrong"), {"Authorization": f"Basic {WRITE_KEY}"},
                                     {"Authorization": "Bearer"}])  # fmt: skip
def test_missing_or_wrong_token_is_401(service, method, path, body, headers):
    r = httpx.request(method, service.base_url + path, json=body, headers=headers)
    assert r.status_code == 401
    assert r.json() == {"error": "Unauthorized"}


def test_read_key_searches_and_reads_but_does_not_write(service):
    write = httpx.Client(base_url=service.base_url, headers=bearer(WRITE_KEY))
    read = httpx.Client(base_url=service.base_url, headers=bearer(READ_KEY))
    assert write.post("/api/rag/documents", json=DOC).status_code == 200
    assert read.post("/api/rag/search", json=QUERY).status_code == 200
    assert read.get("/api/rag/documents/acc-1").status_code == 200
    assert read.get("/api/rag/stats").status_code == 200
    assert read.get("/api/rag/examples").json()["keys_required"] is True
    for method, path, body in [
        ("POST", "/api/rag/documents", DOC),
        ("DELETE", "/api/rag/documents/acc-1", None),
        ("POST", "/api/rag/spaces", {"name": "x", "dims": 3}),
        ("POST", "/api/rag/signals", {"updates": [{"chunk_id": "acc-1-chunk-0", "signal": 1}]}),
    ]:
        r = read.request(method, path, json=body)
        assert r.status_code == 403, path
        assert "only read" in r.json()["error"]
    assert write.delete("/api/rag/documents/acc-1").status_code == 200


def test_health_endpoints_need_no_token(service):
    assert httpx.get(service.base_url + "/healthz").json() == {"ok": True}
    assert httpx.get(service.base_url + "/readyz").json()["ok"] is True
    assert httpx.get(service.base_url + "/openapi.json").status_code == 200


@pytest.fixture
def own_db(pg, template_db):
    url = pg.create_database()
    yield url
    pg.drop_database(url)


def test_database_failure_is_a_500_without_secrets_or_internal_names(own_db):
    parts = own_db.split("@", 1)
    url_with_password = parts[0] + "s3cret-pw@" + parts[1]  # trust auth ignores it
    service = start_service({"DATABASE_URL": url_with_password})
    try:
        with psycopg.connect(own_db, autocommit=True) as conn:
            conn.execute("ALTER FUNCTION api.topk RENAME TO topk_gone")
        r = httpx.post(service.base_url + "/api/rag/search", json=QUERY)
        assert r.status_code == 500
        body = r.json()
        assert body == {"error": "internal_error", "detail": "database error 42883"}
        assert "s3cret" not in r.text and "Traceback" not in r.text and "host=" not in r.text
        assert httpx.get(service.base_url + "/readyz").status_code == 200  # schema still there
    finally:
        service.stop()


def test_pool_exhausted_is_a_503_with_retry_after(own_db):
    service = start_service(  # the collection's share is not what runs out here
        {"DATABASE_URL": own_db, "RAG_POOL_SIZE": "1", "RAG_POOL_TIMEOUT": "0.5",
         "RAG_COLLECTION_CONCURRENCY": "2"}
    )  # fmt: skip
    try:
        base = service.base_url
        assert httpx.post(base + "/api/rag/documents", json=DOC).status_code == 200
        # Hold the document's row lock: a re-ingest then waits inside the pool's only connection.
        with psycopg.connect(own_db) as locker:
            locker.execute("SELECT 1 FROM rag.documents WHERE doc_id = 'acc-1' FOR UPDATE")
            blocked: dict[str, int] = {}
            thread = threading.Thread(
                target=lambda: blocked.update(
                    status=httpx.post(base + "/api/rag/documents", json=DOC, timeout=30).status_code
                )
            )
            thread.start()
            until(lambda: _waits_for_a_lock(own_db), 10, "the re-ingest waits for the row lock")
            r = httpx.post(base + "/api/rag/search", json=QUERY, timeout=10)
            assert r.status_code == 503
            assert r.headers["retry-after"] == "1"
            assert "every database connection is busy" in r.json()["error"]
            locker.rollback()
        thread.join(30)
        assert blocked["status"] == 200
        assert httpx.post(base + "/api/rag/search", json=QUERY).status_code == 200
    finally:
        service.stop()


def _waits_for_a_lock(url: str) -> bool:
    """A session of the database waits for a lock another holds (pg_stat_activity)."""
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        ).fetchone()
    return bool(row and row[0])


def _accepts(base: str) -> bool:
    host, port = base.removeprefix("http://").rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=1).close()
    except OSError:
        return False
    return True


def _non_loopback_address() -> str | None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent for UDP connect
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def test_without_keys_the_service_is_open_but_loopback_only(own_db):
    service = start_service(
        {"DATABASE_URL": own_db, "RAG_HOST": "0.0.0.0", "RAG_LOG_LEVEL": "info"}
    )
    try:
        assert httpx.post(service.base_url + "/api/rag/search", json=QUERY).status_code == 200
        examples = httpx.get(service.base_url + "/api/rag/examples", headers=bearer("any"))
        assert examples.json()["keys_required"] is False
        log = service.log()
        assert "binding to 127.0.0.1 only" in log and "OPEN" in log
        address = _non_loopback_address()
        if address:
            port = service.base_url.rsplit(":", 1)[1]
            with pytest.raises(httpx.ConnectError):
                httpx.get(f"http://{address}:{port}/healthz", timeout=2)
    finally:
        service.stop()


def test_sigterm_drains_in_flight_requests(own_db):
    service = start_service({"DATABASE_URL": own_db})
    base = service.base_url
    assert httpx.post(base + "/api/rag/documents", json=DOC).status_code == 200
    result: dict[str, int] = {}
    with psycopg.connect(own_db) as locker:
        locker.execute("SELECT 1 FROM rag.documents WHERE doc_id = 'acc-1' FOR UPDATE")
        thread = threading.Thread(
            target=lambda: result.update(
                status=httpx.post(base + "/api/rag/documents", json=DOC, timeout=30).status_code
            )
        )
        thread.start()
        until(lambda: _waits_for_a_lock(own_db), 10, "the ingest waits for the row lock")
        assert service.process is not None
        service.process.terminate()  # SIGTERM while the ingest waits for the lock
        until(lambda: not _accepts(base), 10, "the service stops accepting connections")
        assert service.process.poll() is None  # still draining
        locker.rollback()
    thread.join(30)
    assert result["status"] == 200
    # uvicorn re-raises the SIGTERM after its graceful shutdown: -15 is a clean exit here.
    assert service.process.wait(30) in (0, -signal.SIGTERM)


def test_a_second_database_url_path_never_touches_the_data_dir(own_db, tmp_path):
    data_dir = tmp_path / "unused"
    service = start_service({"DATABASE_URL": own_db, "RAG_DATA_DIR": str(data_dir)})
    try:
        assert httpx.get(service.base_url + "/readyz").status_code == 200
        assert not data_dir.exists()
    finally:
        service.stop()


def test_url_helper():
    assert with_database("postgresql://u:p@h:5/a?x=1", "b") == "postgresql://u:p@h:5/b?x=1"
