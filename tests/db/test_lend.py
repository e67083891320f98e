"""A pooled connection is lent without a round trip when it is healthy, asked (then
replaced) only when the server has written to it, and the pool is checked once a request
has lost its connection all the same (not after a pool timeout: a busy pool is no sign of
dead connections)."""

from __future__ import annotations

import asyncio
import os
import resource
import socket
import time

import psycopg
import pytest

import app.db.supervisor as supervisor_module
from app.db.runtime import DatabaseRuntime
from app.db.supervisor import DatabaseSupervisor, readable
from app.errors import RagError, Unavailable, connection_lost
from conftest import settings_for_tests
from helpers import until

BACKEND = "SELECT pg_backend_pid()"


def _counting_pings(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    answers = supervisor_module._answers
    pings: list[bool] = []

    async def counted(conn: psycopg.AsyncConnection) -> bool:
        pings.append(await answers(conn))
        return pings[-1]

    monkeypatch.setattr(supervisor_module, "_answers", counted)
    return pings


def _terminate(url: str, backend: int) -> None:
    """End a backend and wait until it is gone (its goodbye then sent)."""
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (backend,))
        gone = "SELECT 1 FROM pg_stat_activity WHERE pid = %s"
        until(lambda: admin.execute(gone, (backend,)).fetchone() is None, 10,
              "the terminated backend to end", pause=0.02)  # fmt: skip


async def _pid(conn: psycopg.AsyncConnection) -> int:
    row = await (await conn.execute(BACKEND)).fetchone()
    assert row is not None
    return int(row[0])


async def _backend(supervisor: DatabaseSupervisor) -> int:
    async with supervisor.connection() as conn:
        return await _pid(conn)


def test_a_healthy_lend_asks_nothing_and_a_terminated_backend_is_replaced(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pings = _counting_pings(monkeypatch)
    settings = settings_for_tests(database_url=db_url, migrate_on_start=False, pool_size=1)

    async def run() -> tuple[list[int], int]:
        supervisor = DatabaseSupervisor(settings, DatabaseRuntime(settings))
        await supervisor.start()
        try:
            backends = [await _backend(supervisor) for _ in range(5)]
            healthy = len(pings)
            await asyncio.to_thread(_terminate, db_url, backends[-1])
            backends.append(await _backend(supervisor))
            return backends, healthy
        finally:
            await supervisor.stop()

    backends, healthy = asyncio.run(run())
    assert healthy == 0, "a healthy pooled connection was pinged"
    assert len(set(backends[:5])) == 1  # the one pooled connection, lent five times
    assert pings == [False], "the terminated connection was asked once and found dead"
    assert backends[5] != backends[4]


def test_a_lost_connection_has_the_watcher_check_the_pool(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pings = _counting_pings(monkeypatch)
    settings = settings_for_tests(database_url=db_url, migrate_on_start=False, pool_size=2)

    async def run() -> tuple[bool, int, int]:
        supervisor = DatabaseSupervisor(settings, DatabaseRuntime(settings))
        await supervisor.start()
        assert supervisor.pool is not None
        try:
            async with supervisor.connection() as one, supervisor.connection() as other:
                pooled = {await _pid(one), await _pid(other)}
            lost = False
            try:  # one connection ends under its request; the other, idle, ends too
                async with supervisor.connection() as conn:
                    (idle,) = pooled - {await _pid(conn)}
                    await asyncio.to_thread(_terminate, db_url, idle)
                    await conn.execute("SELECT pg_terminate_backend(pg_backend_pid())")
            except Unavailable:
                lost = True
            deadline = time.monotonic() + 10
            while supervisor.pool.get_stats().get("connections_lost", 0) < 1:
                assert time.monotonic() < deadline, "the pool was not checked"
                await asyncio.sleep(0.02)
            return lost, len(pings), await _backend(supervisor)
        finally:
            await supervisor.stop()

    lost, pinged, _ = asyncio.run(run())
    assert lost, "the request whose connection ended got a 503"
    assert pinged == 0, "the dead idle connection was found by the pool's check, not a lend"


def test_a_descriptor_past_1024_is_polled() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard <= 1025:
        pytest.skip("this machine's descriptors cannot pass 1,024")
    number = min(1500, hard - 1)
    if soft <= number:
        resource.setrlimit(resource.RLIMIT_NOFILE, (number + 1, hard))
    left, right = socket.socketpair()
    high = os.dup2(left.fileno(), number)
    try:
        assert not readable(high)
        right.send(b"x")
        assert readable(high)
    finally:
        os.close(high)
        left.close()
        right.close()


def test_a_pool_timeout_wakes_the_watcher_without_checking_the_pool(db_url: str) -> None:
    settings = settings_for_tests(database_url=db_url, migrate_on_start=False, pool_size=1,
                                  pool_timeout=0.2, db_check_interval=30)  # fmt: skip

    async def run() -> tuple[int, int, bool]:
        supervisor = DatabaseSupervisor(settings, DatabaseRuntime(settings))
        await supervisor.start()
        assert supervisor.pool is not None
        checks: list[None] = []
        alive = supervisor._alive
        watched: list[bool] = []

        async def counted_check() -> None:
            checks.append(None)

        async def counted_alive() -> bool:
            watched.append(await alive())
            return watched[-1]

        supervisor.pool.check = counted_check  # type: ignore[method-assign]
        supervisor._alive = counted_alive  # type: ignore[method-assign]
        try:
            timed_out = False
            async with supervisor.connection():
                try:  # the only connection is lent: the next request waits, then fails
                    async with supervisor.connection():
                        pass
                except RagError:
                    timed_out = True
            deadline = time.monotonic() + 10
            while not watched:
                assert time.monotonic() < deadline, "the alarm did not wake the watcher"
                await asyncio.sleep(0.02)
            return supervisor.alarms, len(checks), timed_out
        finally:
            await supervisor.stop()

    alarms, checks, timed_out = asyncio.run(run())
    assert timed_out and alarms == 1
    assert checks == 0, "a pool timeout had the pool's idle connections asked"


def _raise(code: str) -> str:
    return f"DO $$ BEGIN RAISE EXCEPTION 'raised' USING ERRCODE = '{code}'; END $$"


@pytest.mark.parametrize(
    ("code", "status"),
    [("54000", 400), ("53200", 503), ("57014", 504), ("40001", 503), ("55000", 503)],
)
def test_a_statements_own_error_leaves_the_connection_and_the_pool_alone(
    db_url: str, code: str, status: int
) -> None:
    """A value past an index's row size (class 54), a full lock table, a cancel, a
    collision: psycopg calls each an OperationalError, but the connection is fine. Before,
    any but the last three answered 503 "the database connection was lost" and had the
    pool checked (a client told to retry the same over-long value retried forever)."""
    settings = settings_for_tests(database_url=db_url, migrate_on_start=False, pool_size=1)

    async def run() -> tuple[RagError, int, int, int]:
        supervisor = DatabaseSupervisor(settings, DatabaseRuntime(settings))
        await supervisor.start()
        assert supervisor.pool is not None
        try:
            before = await _backend(supervisor)
            with pytest.raises(RagError) as caught:
                async with supervisor.connection() as conn:
                    await conn.execute(_raise(code))
            await asyncio.sleep(0.2)  # a pool check, if one was asked, has begun
            lost = supervisor.pool.get_stats().get("connections_lost", 0)
            return caught.value, before, await _backend(supervisor), lost
        finally:
            await supervisor.stop()

    error, before, after, lost = asyncio.run(run())
    assert error.status == status and "connection was lost" not in error.message
    assert (after, lost) == (before, 0)


@pytest.mark.parametrize(
    ("code", "lost"),
    [("08006", True), ("57P01", True), ("57P05", True), ("54000", False), ("57014", False),
     ("53200", False), ("40P01", False)],
)  # fmt: skip
def test_a_lost_connection_is_told_by_its_sqlstate(db_url: str, code: str, lost: bool) -> None:
    with psycopg.connect(db_url, autocommit=True) as conn, pytest.raises(psycopg.Error) as caught:
        conn.execute(_raise(code))
    assert connection_lost(caught.value) is lost
