"""Behind pgbouncer in transaction mode (Debian's ``pgbouncer``): the service keeps no
session state across transactions and prepares no server-side statements
(RAG_DB_TRANSACTION_POOLER), so the ingest and search test modules pass through a
pgbouncer that gives its five pooled connections two server connections to share."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest

from conftest import READ_KEY, WRITE_KEY, PgServer, free_port, start_service
from helpers import until
from standby import SYSTEM_USER, socket_dir

PGBOUNCER = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
SERVER_CONNECTIONS = 2


def _config(folder: Path, port: int, database_url: str) -> Path:
    name = urlsplit(database_url).path.lstrip("/")
    (folder / "users.txt").write_text('"postgres" ""\n')
    config = folder / "pgbouncer.ini"
    config.write_text(f"""[databases]
ragsearch = host={socket_dir(database_url)} dbname={name} user=postgres

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = trust
auth_file = {folder / "users.txt"}
admin_users = postgres
pool_mode = transaction
default_pool_size = {SERVER_CONNECTIONS}
max_client_conn = 200
ignore_startup_parameters = extra_float_digits
logfile = {folder / "pgbouncer.log"}
""")
    return config


@pytest.fixture(scope="module")
def pgbouncer(pg: PgServer, db_url: str) -> Iterator[str]:
    """A pgbouncer in transaction mode in front of this module's database; its URL."""
    if not os.path.exists(PGBOUNCER):
        pytest.fail("pgbouncer is not installed (apt-get install pgbouncer)")
    folder = Path(tempfile.mkdtemp(prefix="ragsearch-pgbouncer-"))
    port = free_port()
    config = _config(folder, port, db_url)
    user = ["-u", SYSTEM_USER] if os.geteuid() == 0 else []
    if user:
        shutil.chown(folder, SYSTEM_USER)
    process = subprocess.Popen([PGBOUNCER, *user, str(config)], stderr=subprocess.DEVNULL)
    url = f"postgresql://postgres@127.0.0.1:{port}/ragsearch"
    try:
        until(lambda: _answers(url), 20, "pgbouncer answers", pause=0.2)
    except TimeoutError:
        pytest.fail((folder / "pgbouncer.log").read_text())
    yield url
    process.terminate()
    process.wait(10)


def _answers(url: str) -> bool:
    try:
        psycopg.connect(url, connect_timeout=1).close()
        return True
    except psycopg.Error:
        return False


def _pool_stats(pgbouncer: str) -> dict[str, int]:
    admin = pgbouncer.rsplit("/", 1)[0] + "/pgbouncer"
    with psycopg.connect(admin, autocommit=True, prepare_threshold=None) as conn:
        cursor = conn.cursor()
        cursor.execute("SHOW STATS")
        columns = [c.name for c in cursor.description or []]
        rows = [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]
        cursor.execute("SHOW CONFIG")
        mode = {row[0]: row[1] for row in cursor.fetchall()}["pool_mode"]
    stats = next(row for row in rows if row["database"] == "ragsearch")
    return {
        "transactions": int(stats["total_xact_count"]),
        "transaction_mode": mode == "transaction",
    }


def test_the_ingest_and_search_tests_pass_through_pgbouncer(pgbouncer):
    service = start_service({
        "DATABASE_URL": pgbouncer, "RAG_DB_TRANSACTION_POOLER": "true",
        "RAG_MIGRATE_ON_START": "false", "RAG_POOL_SIZE": "5",
        "RAG_API_KEYS": WRITE_KEY, "RAG_READ_KEYS": READ_KEY,
    })  # fmt: skip
    try:
        before = _pool_stats(pgbouncer)
        assert before["transaction_mode"]
        env = {**os.environ, "RAG_TEST_BASE_URL": service.base_url}
        tests = Path(__file__).parent.parent / "api"
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
             str(tests / "test_api_ingest.py"), str(tests / "test_api_search.py")],
            env=env, capture_output=True, text=True, timeout=900,
        )  # fmt: skip
        assert run.returncode == 0, run.stdout[-4000:] + service.log()[-2000:]
        assert " passed" in run.stdout and "skipped" not in run.stdout
        after = _pool_stats(pgbouncer)
        assert after["transactions"] > before["transactions"] + 500
        assert "prepared statement" not in service.log()
    finally:
        service.stop()
