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

from conftest import PgServer, ServiceProcess
from helpers import until
from remote_space import remote_space_service

CALLS = 2
MARKER = "HELD-BY-THE-ENDPOINT"


@pytest.fixture(scope="module")
def service(pg: PgServer, template_db: str, hash_endpoint: str) -> Iterator[ServiceProcess]:
    with remote_space_service(pg, hash_endpoint, {}, ("writer", "reader"),
                              concurrency=CALLS, batch_size=1) as (service, _):  # fmt: skip
        doc = {"doc_id": "r-1", "collection": "reader", "text": "Cold brew steeps a day."}
        assert httpx.post(f"{service.base_url}/api/rag/documents", json=doc).status_code == 200
        yield service


def test_a_question_is_embedded_while_the_endpoint_holds_every_write(service, endpoint_control):
    base, control = service.base_url, endpoint_control
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
