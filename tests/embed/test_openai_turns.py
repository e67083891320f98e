"""An endpoint's calls are shared by every tenant, questions first: while the endpoint
holds every write it was sent, another tenant's question is still embedded and its search
answers (before, the writes took every call, and the search waited for one until its
timeout); and one collection's writes hold at most half the calls, so another
collection's write is embedded while they are held (before, they held all but one, and
the other write waited for them)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from conftest import PgServer, ServiceProcess
from helpers import until
from remote_space import remote_space_service

CALLS = 3
SHARE = CALLS // 2  # calls one collection's writes may hold
COLLECTIONS = ("writer", "writer-2", "reader", "other")


@pytest.fixture(scope="module")
def service(pg: PgServer, template_db: str, hash_endpoint: str) -> Iterator[ServiceProcess]:
    with remote_space_service(pg, hash_endpoint, {}, COLLECTIONS,
                              concurrency=CALLS, batch_size=1) as (service, _):  # fmt: skip
        doc = {"doc_id": "r-1", "collection": "reader", "text": "Cold brew steeps a day."}
        assert httpx.post(f"{service.base_url}/api/rag/documents", json=doc).status_code == 200
        yield service


class Writes:
    """Writes sent at once from threads, each text holding ``marker`` (its own per test:
    a text embedded once is cached and never sent again)."""

    def __init__(self, base: str, marker: str) -> None:
        self.base, self.marker = base, marker
        self.answers: list[httpx.Response] = []
        self.threads: list[threading.Thread] = []

    def send(self, collection: str, count: int) -> None:
        for n in range(count):
            doc = {"doc_id": f"{self.marker}-{collection}-{n}", "collection": collection,
                   "text": f"{self.marker} note {n} for {collection}."}  # fmt: skip
            thread = threading.Thread(target=self._post, args=(doc,))
            thread.start()
            self.threads.append(thread)

    def _post(self, doc: dict[str, str]) -> None:
        self.answers.append(httpx.post(self.base + "/api/rag/documents", json=doc, timeout=60))

    def finished(self) -> list[int]:
        for thread in self.threads:
            thread.join(60)
        return sorted(answer.status_code for answer in self.answers)


def held(control: httpx.Client) -> int:
    return int(control.get("/stats").json()["held"])


def test_a_question_is_embedded_while_the_endpoint_holds_every_write(service, endpoint_control):
    control, writes = endpoint_control, Writes(service.base_url, "HELD-Q")
    control.post("/hold-matching", json=writes.marker)
    writes.send("writer", SHARE + 1)
    writes.send("writer-2", SHARE + 1)
    until(lambda: held(control) >= CALLS - 1, 30, "writes held")
    time.sleep(0.5)  # every write has come to the endpoint or waits for a call

    question = {"query": "how long does cold brew steep", "collection": "reader", "k": 3}
    found = httpx.post(service.base_url + "/api/rag/search", json=question, timeout=10)
    assert found.status_code == 200, found.text
    assert [row["doc_id"] for row in found.json()["rows"]] == ["r-1"]
    assert held(control) == CALLS - 1  # the others wait for a call

    control.post("/release")
    assert writes.finished() == [200] * (2 * SHARE + 2)


def test_one_collections_writes_leave_another_collection_a_call(service, endpoint_control):
    control, writes = endpoint_control, Writes(service.base_url, "HELD-W")
    control.post("/hold-matching", json=writes.marker)
    writes.send("writer", CALLS + 1)
    until(lambda: held(control) >= SHARE, 30, "writes held")
    time.sleep(0.5)
    assert held(control) == SHARE  # the rest wait for the collection's share

    doc = {"doc_id": "o-1", "collection": "other", "text": "Espresso is pressed hot."}
    stored = httpx.post(service.base_url + "/api/rag/documents", json=doc, timeout=10)
    assert stored.status_code == 200, stored.text

    control.post("/release")
    assert writes.finished() == [200] * (CALLS + 1)
