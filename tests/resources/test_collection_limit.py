"""How many collections a database may hold: RAG_MAX_COLLECTIONS, or unset what the
server's lock table allows (app/resources/collection_limit.py). Past it a creation is a
409 naming the count and the limit, and nothing is created; a split collection counts its
parts; creations at once count one after the other. A full lock table is a 503 that says
so. Registering and dropping a space, which make or drop a partition in every collection,
are bounded by the request's timeout rather than the statement timeout."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import httpx
import psycopg
import pytest

from app.errors import from_database_error
from conftest import PgServer, ServiceProcess, start_service


@pytest.fixture
def own_db(pg: PgServer, template_db: str) -> Iterator[str]:
    url = pg.create_database()
    yield url
    pg.drop_database(url)


def _names(service: ServiceProcess) -> list[str]:
    r = httpx.get(service.base_url + "/api/rag/collections")
    assert r.status_code == 200, r.text
    return sorted(c["name"] for c in r.json()["collections"])


def _create(service: ServiceProcess, name: str, parts: int = 1) -> httpx.Response:
    return httpx.post(service.base_url + "/api/rag/collections",
                      json={"name": name, "parts": parts}, timeout=60)  # fmt: skip


def _held(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM rag.collections").fetchone()
        assert row is not None
        return int(row[0])


def test_past_the_limit_a_creation_is_a_409_and_creates_nothing(own_db):
    service = start_service({"DATABASE_URL": own_db, "RAG_MAX_COLLECTIONS": "4"})
    try:
        for name in ("a", "b", "c"):  # with "default": 4
            assert _create(service, name).status_code == 201
        before = _names(service)
        r = _create(service, "d")
        assert r.status_code == 409
        body = r.json()
        assert body["collections"] == 4 and body["limit"] == 4
        assert "RAG_MAX_COLLECTIONS" in body["error"]
        assert "holds 4 collections of the 4" in body["error"]
        assert _names(service) == before and _held(own_db) == 4
        assert httpx.delete(service.base_url + "/api/rag/collections/c").status_code == 200
        r = _create(service, "split", parts=2)  # its own partitions and two parts': 3
        assert r.status_code == 409 and "needs 3" in r.json()["error"]
        assert _held(own_db) == 3
        assert _create(service, "d").status_code == 201
        assert _names(service) == ["a", "b", "d", "default"]
    finally:
        service.stop()


def test_creations_at_once_take_the_last_place_once(own_db):
    service = start_service({"DATABASE_URL": own_db, "RAG_MAX_COLLECTIONS": "3",
                             "RAG_POOL_SIZE": "8"})  # fmt: skip
    try:
        assert _create(service, "first").status_code == 201  # 2 of 3
        statuses: dict[str, int] = {}
        start = threading.Barrier(8)

        def create(name: str) -> None:
            start.wait()
            statuses[name] = _create(service, name).status_code

        threads = [threading.Thread(target=create, args=(f"race-{n}",)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert sorted(statuses.values()) == [201] + [409] * 7, statuses
        assert _held(own_db) == 3
    finally:
        service.stop()


def test_unset_the_limit_is_the_lock_table_over_16(own_db):
    with psycopg.connect(own_db) as conn:
        row = conn.execute(
            "SELECT current_setting('max_locks_per_transaction')::int"
            " * (current_setting('max_connections')::int"
            " + current_setting('max_prepared_transactions')::int) / 16"
        ).fetchone()
        assert row is not None
        limit = int(row[0])
    assert limit < 2_000  # the test server's lock table: cheap to fill
    with psycopg.connect(own_db, autocommit=True) as conn:
        for n in range(_held(own_db), limit - 1):
            conn.execute("SELECT api.create_collection(%s)", (f"fill_{n}",))
    service = start_service({"DATABASE_URL": own_db})
    try:
        assert _create(service, "last").status_code == 201
        r = _create(service, "past")
        assert r.status_code == 409
        assert r.json()["limit"] == limit and r.json()["collections"] == limit
    finally:
        service.stop()


def _raised(conn: psycopg.Connection, hint: str) -> psycopg.Error:
    """A real error of SQLSTATE 53200 from the server, with ``hint``."""
    with pytest.raises(psycopg.Error) as caught:
        conn.execute(
            "DO $$ BEGIN RAISE EXCEPTION 'out of shared memory' USING ERRCODE = '53200',"
            f" HINT = '{hint}'; END $$"
        )
    conn.rollback()
    return caught.value


def test_a_full_lock_table_is_a_503_that_says_so(own_db):
    with psycopg.connect(own_db) as conn:
        full = from_database_error(
            _raised(conn, 'You might need to increase "max_locks_per_transaction".')
        )
        other = from_database_error(_raised(conn, "something else ran out"))
    assert full.status == 503 and full.retry_after == 2
    assert "lock table is full" in full.message
    assert "lock table" not in other.message


def _partitions(url: str, space: str) -> int:
    """The space's vector partitions (0 once it is gone)."""
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_inherits i JOIN rag.spaces s ON s.name = %s"
            " WHERE i.inhparent = to_regclass(format('rag.%%I', api.vector_table(s.id)))", (space,)
        ).fetchone()  # fmt: skip
        assert row is not None
        return int(row[0])


def test_a_space_over_many_collections_outlasts_the_statement_timeout(own_db):
    with psycopg.connect(own_db, autocommit=True) as conn:
        for n in range(80):
            conn.execute("SELECT api.create_collection(%s)", (f"many_{n}",))
    service = start_service({"DATABASE_URL": own_db, "RAG_STATEMENT_TIMEOUT_MS": "200"})
    try:
        started = time.monotonic()
        r = httpx.post(service.base_url + "/api/rag/spaces", json={"name": "wide", "dims": 8},
                       timeout=120)  # fmt: skip
        took = time.monotonic() - started
        assert r.status_code == 201, r.text
        assert took > 0.2  # longer than one statement may take
        assert _partitions(own_db, "wide") == _held(own_db) == 81
        r = httpx.delete(service.base_url + "/api/rag/spaces/wide", timeout=120)
        assert r.status_code == 200, r.text
        assert _partitions(own_db, "wide") == 0
    finally:
        service.stop()
