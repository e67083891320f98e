"""The application's lifespan owns what it starts: a start that fails after the database
started (here a demo load that cannot store its vectors) stops the database again."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from app.api.main import create_app
from app.db.runtime import DatabaseRuntime
from app.errors import BadRequest
from conftest import settings_for_tests
from helpers import postgres_running


def test_a_failed_demo_load_stops_the_database_the_start_had_started(tmp_path):
    data_dir = tmp_path / "pgdata"
    settings = settings_for_tests(data_dir=data_dir, default_dims=16,
                                  pg_shared_buffers="128MB")  # fmt: skip
    runtime = DatabaseRuntime(settings)
    url = runtime.start()
    with psycopg.connect(url, autocommit=True) as conn:  # where the demo's 384-d vectors go
        conn.execute("SELECT api.register_space('minilm', 8, '', '', 8, 32)")
    runtime.stop()
    assert not postgres_running(data_dir)

    app = create_app(settings.model_copy(update={"demo": True}))

    async def start() -> None:
        async with app.router.lifespan_context(app):
            pytest.fail("the start should have failed")

    with pytest.raises(BadRequest):
        asyncio.run(start())
    assert not postgres_running(data_dir), "the failed start left PostgreSQL running"
