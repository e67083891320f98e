"""How many collections a database may hold: RAG_MAX_COLLECTIONS, or unset what the
server's lock table allows (app/resources/collection_limit.py). Past it a creation is a
409 naming the count and the limit, and nothing is created; a split collection counts its
parts; creations at once count one after the other. A full lock table is a 503 that says
so. Registering and dropping a space, which make or drop a partition in every collection,
are bounded by the request's timeout rather than the statement timeout, and wait for a
collection's creation or drop (and these for them), so that no collection misses a
space's partition."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import httpx
import psycopg
import pytest

from app.db import locks
from app.db.migrate import ensure_default_space
from app.errors import from_database_error
from app.resources.collection_limit import PARTITIONS_WAIT_MS, change_partitions
from conftest import PgServer, ServiceProcess, settings_for_tests, start_service
from helpers import until


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
        assert "as many collections as it may: 4 of 4" in body["error"]
        assert "RAG_" not in body["error"]  # the operator's setting is in the log
        assert _names(service) == before and _held(own_db) == 4
        r = _create(service, "a")  # a taken name is that, full or not
        assert r.status_code == 409 and r.json()["collection"] == "a"
        assert "already exists" in r.json()["error"]
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


@pytest.fixture(scope="module")
def wide_db(pg: PgServer, template_db: str) -> Iterator[str]:
    """A database of 300 collections."""
    url = pg.create_database()
    with psycopg.connect(url, autocommit=True) as conn:
        for n in range(299):
            conn.execute("SELECT api.create_collection(%s)", (f"many_{n}",))
    yield url
    pg.drop_database(url)


def test_a_collection_made_while_a_space_is_registered_gets_its_partition(wide_db):
    service = start_service({"DATABASE_URL": wide_db})
    try:
        answers: dict[str, httpx.Response] = {}

        def register() -> None:
            body = {"name": "during", "dims": 8}
            answers["space"] = httpx.post(service.base_url + "/api/rag/spaces", json=body,
                                          timeout=120)  # fmt: skip

        thread = threading.Thread(target=register)
        thread.start()
        until(lambda: _registering(wide_db), 30, "the registration runs")
        answers["collection"] = _create(service, "made-during")
        thread.join(120)
        assert answers["space"].status_code == 201, answers["space"].text
        assert answers["collection"].status_code == 201, answers["collection"].text
        assert _partitions(wide_db, "during") == _held(wide_db) == 301
        r = httpx.delete(service.base_url + "/api/rag/collections/made-during", timeout=60)
        assert r.status_code == 200, r.text
        assert httpx.delete(service.base_url + "/api/rag/spaces/during").status_code == 200
    finally:
        service.stop()


def _registering(url: str) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT count(*) FROM pg_stat_activity"
                           " WHERE query LIKE '%%api.register_space%%' AND state = 'active'"
                           " AND pid <> pg_backend_pid()").fetchone()  # fmt: skip
        return bool(row and row[0])


def _fill_lock_table(conn: psycopg.Connection) -> int:
    """Advisory locks taken on ``conn`` until the server's lock table is full (session
    locks stay taken when the statement that took them fails); how many."""
    taken = 0
    while True:
        try:
            conn.execute("SELECT count(pg_advisory_lock(1_000_000 + i))"
                         " FROM generate_series(%s, %s - 1) i", (taken, taken + 500))  # fmt: skip
        except psycopg.errors.OutOfMemory:
            return taken
        taken += 500


def test_a_full_lock_table_answers_503_and_the_service_carries_on(own_db):
    service = start_service({"DATABASE_URL": own_db})
    try:
        with psycopg.connect(own_db, autocommit=True) as hog:
            assert _fill_lock_table(hog) > 1_000
            r = httpx.post(service.base_url + "/api/rag/spaces", json={"name": "full", "dims": 8})
            assert r.status_code == 503, r.text
            assert "lock table is full" in r.json()["error"], service.log()[-3000:]
            assert r.headers["retry-after"] == "2"
            hog.execute("SELECT pg_advisory_unlock_all()")
        r = httpx.post(service.base_url + "/api/rag/spaces", json={"name": "full", "dims": 8})
        assert r.status_code == 201, r.text
        assert httpx.get(service.base_url + "/readyz").status_code == 200
        assert "lock table is full" in service.log()
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


def test_a_space_over_many_collections_outlasts_the_statement_timeout(wide_db):
    own_db = wide_db
    service = start_service({"DATABASE_URL": own_db, "RAG_STATEMENT_TIMEOUT_MS": "50"})
    try:
        started = time.monotonic()
        r = httpx.post(service.base_url + "/api/rag/spaces", json={"name": "wide", "dims": 8},
                       timeout=120)  # fmt: skip
        took = time.monotonic() - started
        assert r.status_code == 201, r.text
        assert took > 0.5  # ten times what one statement may take
        assert _partitions(own_db, "wide") == _held(own_db) == 300
        started = time.monotonic()
        r = httpx.delete(service.base_url + "/api/rag/spaces/wide", timeout=120)
        assert r.status_code == 200, r.text
        assert time.monotonic() - started > 0.05
        assert _partitions(own_db, "wide") == 0
    finally:
        service.stop()


def test_a_change_that_waits_too_long_for_another_is_a_503(own_db):
    service = start_service({"DATABASE_URL": own_db})
    try:
        with psycopg.connect(own_db) as other:  # another change under way, for too long
            other.execute("SELECT pg_advisory_xact_lock(%s)", (locks.PARTITIONS,))
            started = time.monotonic()
            r = _create(service, "waits")
            waited = time.monotonic() - started
            assert r.status_code == 503, r.text
            assert "another change to the collections or spaces" in r.json()["error"]
            assert r.headers["retry-after"] == "5"
            assert PARTITIONS_WAIT_MS / 1000 <= waited < PARTITIONS_WAIT_MS / 1000 + 5
        assert _create(service, "waits").status_code == 201  # the lock went with its transaction
        assert "waits" in _names(service)
    finally:
        service.stop()


def test_a_change_leaves_the_lock_wait_it_found(db_url):
    """The 10 s wait for a turn is the change's own: its statements wait for their locks
    as the connection's setting says (a DROP TABLE behind a search must not give up)."""

    async def setting_after_a_turn() -> str:
        async with await psycopg.AsyncConnection.connect(db_url, autocommit=True) as conn:
            await conn.execute("SET lock_timeout = '1234ms'")
            async with conn.transaction():
                await change_partitions(conn)
                cursor = await conn.execute("SELECT current_setting('lock_timeout')")
                row = await cursor.fetchone()
                assert row is not None
                return str(row[0])

    assert asyncio.run(setting_after_a_turn()) == "1234ms"


def test_the_default_space_at_start_takes_its_turn(pg, template_db):
    url = pg.create_database()
    try:
        settings = settings_for_tests(default_space="later", default_dims=8)
        done = threading.Event()
        starting = threading.Thread(target=lambda: (ensure_default_space(url, settings),
                                                    done.set()))  # fmt: skip
        with psycopg.connect(url) as change:  # a collection's creation, under way
            change.execute("SELECT pg_advisory_xact_lock(%s)", (locks.PARTITIONS,))
            starting.start()
            until(lambda: _waiting_for_a_turn(url), 30, "the registration waits")
            assert not done.is_set()
        starting.join(30)
        assert done.is_set() and _partitions(url, "later") == _held(url)
    finally:
        pg.drop_database(url)


def _waiting_for_a_turn(url: str) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            " AND wait_event = 'advisory' AND datname = current_database()"
        ).fetchone()
        return bool(row and row[0])
