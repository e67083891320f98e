"""A service whose space "remote" is embedded by an embeddings server of the test's own
(hash vectors of 8 dimensions: tests/embed_server.py, the fixtures ``hash_endpoint`` and
``endpoint_control`` in conftest.py), for the tests that hold, fail or slow the
endpoint's calls while other tenants work."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from conftest import PgServer, ServiceProcess, service_and_database


@contextmanager
def remote_space_service(
    pg: PgServer, endpoint: str, env: dict[str, str], collections: tuple[str, ...],
    **embedder: Any,
) -> Iterator[tuple[ServiceProcess, str]]:  # fmt: skip
    """A service (its settings ``env``, no default embedder) on a database of its own,
    with the space and ``collections`` made; and the database's URL."""
    with service_and_database(pg, {"RAG_EMBEDDER": "none", **env}) as (service, url):
        with httpx.Client(base_url=service.base_url, timeout=30) as client:
            config = {"kind": "openai", "url": endpoint, "model": "hash-8", **embedder}
            space = {"name": "remote", "dims": 8, "embedder": config}
            assert client.post("/api/rag/spaces", json=space).status_code == 201
            for name in collections:
                assert client.post("/api/rag/collections", json={"name": name}).status_code == 201
        yield service, url
