"""A pooled connection's search plans are made before it is lent (api.warm_plans, run
by the primary's pool on each connection it opens), so that no request pays for them:
one threshold search of each dense space that holds a vector, by that vector. Behind a
transaction pooler they are not (the pooler picks the server connection)."""

from __future__ import annotations

import asyncio

import numpy as np
import psycopg
import pytest

import app.db.pool as pool_module
from app.db.pool import create_pool, warm_up_allowance_s
from conftest import PgServer, settings_for_tests
from helpers import random_corpus, register_spaces, store_corpus

SPACES = {"warm_a": 8, "warm_b": 12}


def _dense_spaces_with_vectors(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        spaces = conn.execute(
            "SELECT api.vector_table(id) FROM rag.spaces WHERE kind = 'dense'"
        ).fetchall()
        held = [conn.execute(f"SELECT EXISTS (SELECT 1 FROM rag.{table})").fetchone()
                for (table,) in spaces]  # fmt: skip
    return sum(1 for row in held if row == (True,))


async def _warmed_on_each(url: str, size: int, **settings: object) -> list[str | None]:
    """ragsearch.warmed_plans on each of the ``size`` connections a new pool opens (its
    statement timeout as well: the warm-up's own is local to the warm-up)."""
    pool = create_pool(url, settings_for_tests(pool_size=size, **settings))
    await pool.open(wait=True)
    try:
        conns = [await pool.getconn() for _ in range(size)]
        marks = []
        for conn in conns:
            cursor = await conn.execute("SELECT current_setting('ragsearch.warmed_plans', true)")
            row = await cursor.fetchone()
            marks.append(None if row is None else row[0])
            cursor = await conn.execute("SHOW statement_timeout")
            # the startup option's (none behind a transaction pooler), not the warm-up's
            expected = "0" if settings.get("db_transaction_pooler") else "30s"
            assert await cursor.fetchone() == (expected,)
        for conn in conns:
            await pool.putconn(conn)
        return marks
    finally:
        await pool.close()


def test_a_database_without_collections_has_nothing_to_warm(pg: PgServer, template_db: str) -> None:
    url = pg.create_database()
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("DELETE FROM rag.collections")
            row = conn.execute("SELECT api.warm_plans()").fetchone()
            mark = conn.execute("SHOW ragsearch.warmed_plans").fetchone()
        assert row == (0,) and mark == ("0",)
    finally:
        pg.drop_database(url)


def test_each_pooled_connection_searched_every_dense_space_with_vectors_before_it_is_lent(
    db_url: str,
) -> None:
    register_spaces(db_url, SPACES)
    docs, _ = random_corpus(np.random.default_rng(5), "warm", n_docs=4, chunks_per_doc=30,
                            spaces=SPACES, missing=0)  # fmt: skip
    store_corpus(db_url, docs)
    dense = _dense_spaces_with_vectors(db_url)
    assert dense >= len(SPACES)
    assert asyncio.run(_warmed_on_each(db_url, 3)) == [str(dense)] * 3


def test_not_behind_a_transaction_pooler(db_url: str) -> None:
    assert asyncio.run(_warmed_on_each(db_url, 2, db_transaction_pooler=True)) == [None] * 2


def test_a_warm_up_past_its_budget_leaves_a_usable_connection(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pool_module, "WARM_UP_TIMEOUT_MS", 1)
    assert asyncio.run(_warmed_on_each(db_url, 2)) == [None] * 2


def test_a_schema_without_the_warm_up_leaves_usable_connections(
    pg: PgServer, template_db: str
) -> None:
    url = pg.create_database()
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("DROP FUNCTION api.warm_plans()")
        assert asyncio.run(_warmed_on_each(url, 2)) == [None] * 2
    finally:
        pg.drop_database(url)


def test_a_pool_opening_is_allowed_its_warm_ups() -> None:
    """Three connections warmed at a time, each within its budget: a caller waiting for
    the pool to open waits that much longer (none behind a transaction pooler)."""
    budget = pool_module.WARM_UP_TIMEOUT_MS / 1000
    assert warm_up_allowance_s(settings_for_tests(pool_size=5)) == 2 * budget
    assert warm_up_allowance_s(settings_for_tests(pool_size=3)) == budget
    assert warm_up_allowance_s(settings_for_tests(pool_size=5, db_transaction_pooler=True)) == 0
