"""A pooled connection is lent without a round trip when it is healthy, and asked (then
replaced) only when the server has written to it: a backend terminated under the pool."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import psycopg
import pytest

import app.db.supervisor as supervisor_module
from app.db.runtime import DatabaseRuntime
from app.db.supervisor import DatabaseSupervisor
from conftest import PgServer, settings_for_tests


@pytest.fixture(scope="module")
def own_db(pg: PgServer, template_db: str) -> Iterator[str]:
    url = pg.create_database()
    yield url
    pg.drop_database(url)


def _counting_pings(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    answers = supervisor_module._answers
    pings: list[bool] = []

    async def counted(conn: psycopg.AsyncConnection) -> bool:
        pings.append(await answers(conn))
        return pings[-1]

    monkeypatch.setattr(supervisor_module, "_answers", counted)
    return pings


def test_a_healthy_lend_asks_nothing_and_a_terminated_backend_is_replaced(
    own_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pings = _counting_pings(monkeypatch)
    settings = settings_for_tests(database_url=own_db, migrate_on_start=False, pool_size=1)

    async def run() -> tuple[list[int], int]:
        supervisor = DatabaseSupervisor(settings, DatabaseRuntime(settings))
        await supervisor.start()
        try:
            backends = []
            for _ in range(5):
                async with supervisor.connection() as conn:
                    backends.append((await (await conn.execute(
                        "SELECT pg_backend_pid()")).fetchone())[0])  # fmt: skip
            healthy = len(pings)
            with psycopg.connect(own_db, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (backends[-1],))
            await asyncio.sleep(0.2)  # the goodbye reaches the idle pooled connection
            async with supervisor.connection() as conn:
                backends.append((await (await conn.execute(
                    "SELECT pg_backend_pid()")).fetchone())[0])  # fmt: skip
            return backends, healthy
        finally:
            await supervisor.stop()

    backends, healthy = asyncio.run(run())
    assert healthy == 0, "a healthy pooled connection was pinged"
    assert len(set(backends[:5])) == 1  # the one pooled connection, lent five times
    assert pings == [False], "the terminated connection was asked once and found dead"
    assert backends[5] != backends[4]
