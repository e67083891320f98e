"""Body limits per route: a search (or any body but a document's) is refused far sooner
than a document, declared or chunked, before the service holds it; document bodies held
at once have a budget of their own; a huge search body leaves the service's memory as
it was."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import httpx
import orjson
import psutil
import psycopg
import pytest

from conftest import PgServer, ServiceProcess, start_service
from helpers import until

KB = 1024
MB = 1024 * KB
LIMITS = {"RAG_MAX_SEARCH_BODY_BYTES": str(64 * KB), "RAG_MAX_BODY_BYTES": str(2 * MB),
          "RAG_INGEST_BODIES_MAX_BYTES": str(3 * MB)}  # fmt: skip


@pytest.fixture(scope="module")
def own_db(pg: PgServer, template_db: str) -> Iterator[str]:
    url = pg.create_database()
    yield url
    pg.drop_database(url)


@pytest.fixture(scope="module")
def limited(own_db: str) -> Iterator[ServiceProcess]:
    service = start_service({"DATABASE_URL": own_db, **LIMITS})
    yield service
    service.stop()


def _document(doc_id: str, size: int) -> bytes:
    """A document of about ``size`` bytes, in chunks of 500 KB at most (a chunk's limit
    is 1,000,000 characters)."""
    sizes = [500 * KB] * (size // (500 * KB)) + [max(1, size % (500 * KB) - 4 * KB)]
    chunks = [{"chunk": "x" * n, "embedding": [0.1] * 384} for n in sizes]
    return orjson.dumps({"doc_id": doc_id, "chunks": chunks})


def _padded(body: dict, size: int) -> bytes:
    """``body`` with a filler field that brings it to ``size`` bytes."""
    return orjson.dumps({**body, "padding": "x" * size})


def _parts(body: bytes) -> Iterator[bytes]:
    for start in range(0, len(body), 16 * KB):
        yield body[start : start + 16 * KB]


def _post(service: ServiceProcess, path: str, body: bytes, chunked: bool) -> httpx.Response:
    content = _parts(body) if chunked else body
    return httpx.post(service.base_url + path, content=content, timeout=60,
                      headers={"Content-Type": "application/json"})  # fmt: skip


SEARCH = {"embedding": [0.1] * 384}
# (path, body, the setting that refuses it, or None when accepted)
CASES = [
    ("/api/rag/search", _padded(SEARCH, 100 * KB), "RAG_MAX_SEARCH_BODY_BYTES"),
    ("/api/rag/explain", _padded({**SEARCH, "chunk_id": "x"}, 100 * KB),
     "RAG_MAX_SEARCH_BODY_BYTES"),
    ("/api/rag/signals", _padded({"updates": []}, 100 * KB), "RAG_MAX_SEARCH_BODY_BYTES"),
    ("/api/rag/spaces", _padded({"name": "s", "dims": 3}, 100 * KB), "RAG_MAX_SEARCH_BODY_BYTES"),
    ("/api/rag/documents", _document("mid-size", 100 * KB), None),
    ("/api/rag/documents", _document("too-big", 3 * MB), "RAG_MAX_BODY_BYTES"),
]  # fmt: skip


@pytest.mark.parametrize("chunked", [False, True], ids=["declared", "chunked"])
@pytest.mark.parametrize(("path", "body", "setting"), CASES)
def test_each_route_has_its_body_limit(limited, path, body, setting, chunked):
    r = _post(limited, path, body, chunked)
    if setting is None:
        assert r.status_code == 200, r.text
        return
    assert r.status_code == 413, r.text
    assert r.json()["setting"] == setting and setting in r.json()["error"]


def test_document_bodies_held_at_once_have_a_budget(limited, own_db):
    big = 1900 * KB
    assert _post(limited, "/api/rag/documents", _document("held", big), False).status_code == 200
    held: dict[str, int] = {}
    with psycopg.connect(own_db) as locker:  # the re-sent document waits, holding its body
        locker.execute("SELECT 1 FROM rag.documents WHERE doc_id = 'held' FOR UPDATE")
        waiting = threading.Thread(target=lambda: held.update(
            status=_post(limited, "/api/rag/documents", _document("held", big), False).status_code
        ))  # fmt: skip
        waiting.start()
        until(lambda: _waits_for_a_lock(own_db), 10, "the document waits for its row lock")
        refused = _post(limited, "/api/rag/documents", _document("second", big), True)
        locker.rollback()
    waiting.join(30)
    assert refused.status_code == 503 and refused.headers["retry-after"]
    assert "RAG_INGEST_BODIES_MAX_BYTES" in refused.json()["error"]
    assert held["status"] == 200
    again = _post(limited, "/api/rag/documents", _document("second", big), False)
    assert again.status_code == 200  # the budget was given back


def _waits_for_a_lock(url: str) -> bool:
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        ).fetchone()
    return bool(row and row[0])


@pytest.mark.parametrize("chunked", [False, True], ids=["declared", "chunked"])
def test_a_50_mb_search_leaves_the_service_memory_as_it_was(own_db, chunked):
    service = start_service({"DATABASE_URL": own_db})  # the default limits
    try:
        assert service.process is not None
        process = psutil.Process(service.process.pid)
        before = process.memory_info().rss
        r = _post(service, "/api/rag/search", _padded(SEARCH, 50 * MB), chunked)
        grown = (process.memory_info().rss - before) / MB
        print(f"50 MB search body ({'chunked' if chunked else 'declared'}): "
              f"{r.status_code}, service RSS +{grown:.1f} MB")  # fmt: skip
        assert r.status_code == 413
        assert grown < 20
    finally:
        service.stop()


def test_a_trickling_body_holds_only_the_bytes_it_sent(limited):
    """Before, the declared Content-Length was taken from the budget at once: two
    connections declaring 2 MB each, sending a few bytes, refused every tenant's writes
    (503) for as long as they trickled."""
    url = httpx.URL(limited.base_url)
    head = (b"POST /api/rag/documents HTTP/1.1\r\nHost: localhost\r\n"
            b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n{\"doc_id\"")  # fmt: skip
    trickles = [socket.create_connection((url.host, url.port)) for _ in range(2)]
    try:
        for trickle in trickles:
            trickle.sendall(head % (2 * MB - 1))
        time.sleep(0.5)  # both bodies begun
        r = _post(limited, "/api/rag/documents", _document("beside", 1900 * KB), False)
        assert r.status_code == 200, r.text
    finally:
        for trickle in trickles:
            trickle.close()
