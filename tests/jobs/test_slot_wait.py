"""A job that waits for its collection's share (the tenant's own requests hold every slot)
gives its worker to another collection's job instead of holding it waiting, and goes on
when a slot frees: each of its items stored once. (It held the worker: one tenant's slow
writes stalled every worker, and another tenant's jobs waited 25-45 s.)"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from conftest import PgServer
from helpers import until
from remote_space import remote_space_service


@pytest.fixture(scope="module")
def one_worker(pg: PgServer, template_db: str, hash_endpoint: str) -> Iterator[httpx.Client]:
    env = {"RAG_JOB_WORKERS": "1", "RAG_JOB_TURN_SECONDS": "0.5",
           "RAG_COLLECTION_CONCURRENCY": "2"}  # fmt: skip
    # a's job and both its writes at the endpoint at once: one collection's writes and jobs
    # hold at most half its calls
    calls = {"concurrency": 8}
    with remote_space_service(pg, hash_endpoint, env, ("a", "b"), **calls) as (service, _), \
            httpx.Client(base_url=service.base_url, timeout=60) as client:  # fmt: skip
        yield client


def _document(collection: str, doc_id: str, text: str) -> dict[str, Any]:
    return {"doc_id": doc_id, "collection": collection, "text": text}


def _job(client: httpx.Client, collection: str, doc_id: str, marker: str) -> str:
    doc = _document(collection, doc_id, f"{marker} The text of {doc_id}.")
    r = client.post("/api/rag/documents?async=true", json=doc)
    assert r.status_code == 202, r.text
    return r.headers["location"]


def _status(client: httpx.Client, location: str) -> dict[str, Any]:
    return dict(client.get(location).json()["job"])


def test_a_job_waiting_for_its_collections_slots_lets_another_tenants_job_run(
    one_worker, endpoint_control
):
    client, control = one_worker, endpoint_control
    for marker in ("JOB-HELD", "WRITE-HELD"):
        control.post("/hold-matching", json=marker)
    held = _job(client, "a", "a-job", "JOB-HELD")  # its item waits for the endpoint
    until(lambda: control.get("/stats").json()["held"] == 1, 30, "a's job embeds")
    writes: list[httpx.Response] = []

    def write(n: int) -> None:  # the tenant's own writes: they hold both slots of "a"
        doc = _document("a", f"w-{n}", f"WRITE-HELD {n}")
        writes.append(httpx.post(f"{client.base_url}/api/rag/documents", json=doc, timeout=60))

    writers = [threading.Thread(target=write, args=(n,)) for n in range(2)]
    for thread in writers:
        thread.start()
    until(lambda: control.get("/stats").json()["held"] == 3, 30, "a's writes held")
    other = _job(client, "b", "b-job", "")
    control.post("/release-matching", json="JOB-HELD")  # a's job wants a slot now: none free
    until(lambda: _status(client, other)["status"] == "done", 30, "b's job is done")
    assert _status(client, held)["status"] in ("queued", "running")  # still no slot

    control.post("/release-matching", json="WRITE-HELD")
    for thread in writers:
        thread.join(60)
    assert sorted(r.status_code for r in writes) == [200, 200]
    until(lambda: _status(client, held)["status"] == "done", 30, "a's job is done")
    done = _status(client, held)
    assert done["progress"]["items"] == {"total": 1, "done": 1, "failed": 0}
    # cut as it was to keep its vectors, embedded again (not cached), counted once
    assert done["progress"]["chunks"] == {"total": 1, "embedded": 1, "cached": 0, "stored": 1}
    assert done["attempts"] == 1
    stored = client.get("/api/rag/documents/a-job", params={"collection": "a"})
    assert stored.status_code == 200 and len(stored.json()["chunks"]) == 1
