"""A real ``ragsearch serve`` for the client's tests: started once per test session from
the server's interpreter (the checkout's .venv, or RAGSEARCH_SERVER_PYTHON) on an
embedded PostgreSQL of its own, with 6-dimensional default vectors (the size of
LangChain's standard test embeddings) and a write and a read key."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from ragsearch_client import AsyncClient, Client
from support import DIMS, READ_KEY, WRITE_KEY

ROOT = Path(__file__).resolve().parents[3]
SERVER_PYTHON = Path(os.environ.get("RAGSEARCH_SERVER_PYTHON", ROOT / ".venv" / "bin" / "python"))


@dataclass
class Service:
    base_url: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_ready(service: Service, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if service.process.poll() is not None:
            raise RuntimeError(f"ragsearch serve exited early:\n{service.log()}")
        try:
            if httpx.get(f"{service.base_url}/readyz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"ragsearch serve did not become ready:\n{service.log()}")


@pytest.fixture(scope="session")
def service() -> Iterator[Service]:
    if not SERVER_PYTHON.exists():
        raise RuntimeError(f"no server interpreter at {SERVER_PYTHON}: run `make install`")
    data_dir = Path(tempfile.mkdtemp(prefix="ragsearch-client-test-"))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAG_") and k != "DATABASE_URL"}
    env.update(
        {
            "RAG_DATA_DIR": str(data_dir / "pgdata"),
            "RAG_PORT": str(port),
            "RAG_DEFAULT_DIMS": str(DIMS),
            "RAG_EMBEDDER": "none",
            "RAG_API_KEYS": WRITE_KEY,
            "RAG_READ_KEYS": READ_KEY,
            "RAG_LOG_LEVEL": "warning",
            "RAG_PG_SHARED_BUFFERS": "128MB",
            "RAG_PG_MAINTENANCE_WORK_MEM": "128MB",
        }
    )
    log_path = data_dir / "serve.log"
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(
            [str(SERVER_PYTHON), "-m", "app.cli", "serve"],
            env=env,
            stdout=log_file,
            stderr=log_file,
            cwd=data_dir,
        )
    service = Service(f"http://127.0.0.1:{port}", process, log_path)
    try:
        wait_ready(service, timeout=120)
        yield service
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(30)
        shutil.rmtree(data_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def base_url(service: Service) -> str:
    return service.base_url


@pytest.fixture
def client(base_url: str) -> Iterator[Client]:
    with Client(base_url, api_key=WRITE_KEY) as rag:
        yield rag


@pytest.fixture
async def async_client(base_url: str) -> AsyncIterator[AsyncClient]:
    async with AsyncClient(base_url, api_key=WRITE_KEY) as rag:
        yield rag


@pytest.fixture
def collection(client: Client) -> Iterator[str]:
    """A new empty collection, deleted afterwards."""
    name = f"c{uuid.uuid4().hex[:12]}"
    client.create_collection(name)
    yield name
    client.delete_collection(name)
