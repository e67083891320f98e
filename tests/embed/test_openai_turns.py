"""An endpoint's calls are shared by every tenant, questions first: while the endpoint
holds every write one tenant sent, another tenant's question is still embedded and its
search answers (before, the writes took every call, and the search waited for one until
its timeout)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from conftest import PgServer, ServiceProcess, start_service
from embed_server import embed_server
from helpers import until

CALLS = 2
MARKER = "HELD-BY-THE-ENDPOINT"


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    with embed_server("--hash", "8") as url:
        yield url


@pytest.fixture(scope="module")
def service(pg: PgServer, template_db: str, endpoint: str) -> Iterator[ServiceProcess]:
    url = pg.create_database()
    service = start_service({"DATABASE_URL": url, "RAG_EMBEDDER": "none"})
    try:
        with httpx.Client(base_url=service.base_url, timeout=30) as client:
            embedder = {"kind": "openai", "url": endpoint, "model": "hash-8",
                        "concurrency": CALLS, "batch_size": 1}  # fmt: skip
            space = {"name": "remote", "dims": 8, "embedder": embedder}
            assert client.post("/api/rag/spaces", json=space).status_code == 201
            for name in ("writer", "reader"):
                assert client.post("/api/rag/collections", json={"name": name}).status_code == 201
            doc = {"doc_id": "r-1", "collection": "reader", "text": "Cold brew steeps a day."}
            assert client.post("/api/rag/documents", json=doc).status_code == 200
        yield service
    finally:
        service.stop()
        pg.drop_database(url)


@pytest.fixture
def control(endpoint: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=endpoint.removesuffix("/v1"), timeout=10) as client:
        client.post("/reset")
        yield client
        client.post("/release")
        client.post("/reset")


def test_a_question_is_embedded_while_the_endpoint_holds_every_write(service, control):
    base = service.base_url
    control.post("/hold-matching", json=MARKER)
    answers: list[httpx.Response] = []

    def write(n: int) -> None:
        doc = {"doc_id": f"w-{n}", "collection": "writer", "text": f"{MARKER} note {n}."}
        answers.append(httpx.post(base + "/api/rag/documents", json=doc, timeout=60))

    writers = [threading.Thread(target=write, args=(n,)) for n in range(CALLS + 1)]
    for thread in writers:
        thread.start()
    until(lambda: control.get("/stats").json()["held"] >= CALLS - 1, 30, "writes held")
    time.sleep(0.5)  # every write has come to the endpoint or waits for a call

    question = {"query": "how long does cold brew steep", "collection": "reader", "k": 3}
    found = httpx.post(base + "/api/rag/search", json=question, timeout=10)
    assert found.status_code == 200, found.text
    assert [row["doc_id"] for row in found.json()["rows"]] == ["r-1"]
    assert control.get("/stats").json()["held"] == CALLS - 1  # the others wait for a call

    control.post("/release")
    for thread in writers:
        thread.join(60)
    assert sorted(r.status_code for r in answers) == [200] * (CALLS + 1)
